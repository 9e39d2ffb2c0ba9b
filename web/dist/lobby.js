// lobby.ts - the public games: those waiting for players (GET /v1/games?status=waiting),
// created with "public": true and with open seats, and those in play with a seat whose
// player left (?status=needs_substitute, issue 28: the seats needing a substitute are the
// open ones), newest first, with their seats and options. Joining or taking a seat needs
// the invitation its players share (the lobby lists no secret): a substitute's invitation
// link pasted here opens its page (substitute.ts), where the seat is taken by name. A
// listed game's page shows who plays there.
import { listLobby, listNeedingSubstitutes } from "./api.js";
import { optionsText } from "./waiting.js";
import { describeProblem, el } from "./ui.js";
function line(game) {
    return el("li", { class: "lobby-game", "data-game": game.id }, el("a", { href: `#game=${encodeURIComponent(game.id)}`, class: "button-link" }, "See it"), el("span", {}, `${game.seats.map((s) => (s.open ? "open seat" : s.bot ? `${s.name} (bot)` : s.name)).join(", ")} · `, `${game.open_seats} open · ${game.options ? optionsText(game.options) : ""}`));
}
function substituteLine(game) {
    const needing = game.seats.filter((s) => s.open);
    const names = needing.map((s) => `${s.name} (seat ${s.seat + 1})`);
    return el("li", { class: "lobby-game substitute-game", "data-game": game.id }, el("a", { href: `#game=${encodeURIComponent(game.id)}&as=spectator`, class: "button-link" }, "See it"), el("span", {}, `${names.join(", ")} ${needing.length === 1 ? "needs" : "need"} a substitute · `, `${game.seats.length} seats · ${game.options ? optionsText(game.options) : ""}`));
}
/** The page of a substitute's invitation link (`#game=<id>&invite=iv_...` of any address),
 *  or null when the text is none. */
export function invitationHash(text) {
    let hash;
    try {
        hash = new URL(text.trim(), location.href).hash;
    }
    catch {
        return null;
    }
    const params = new URLSearchParams(hash.replace(/^#/, ""));
    const game = params.get("game"), invite = params.get("invite");
    if (!game || !/^[0-9a-f]{16}$/.test(game) || !invite || !/^iv_[A-Za-z0-9_-]+$/.test(invite))
        return null;
    return `#game=${game}&invite=${encodeURIComponent(invite)}`;
}
function takeForm() {
    const link = el("input", { type: "text", inputmode: "url", id: "substitute-invite", autocomplete: "off", spellcheck: false, placeholder: "https://…#game=…&invite=iv_…" });
    const status = el("p", { id: "substitute-invite-status", class: "meta", role: "status" });
    const form = el("form", { id: "substitute-invite-form", class: "row" }, el("label", { for: "substitute-invite" }, "Invitation link "), link, el("button", { type: "submit", id: "substitute-open" }, "Take the seat"));
    form.addEventListener("submit", (e) => {
        e.preventDefault();
        const hash = invitationHash(link.value);
        if (!hash) {
            status.textContent = "That is not a substitute's invitation link: it has #game=… and &invite=iv_… in it.";
            return;
        }
        location.hash = hash;
    });
    return el("div", {}, form, status);
}
export function showLobby(host) {
    const list = el("ul", { id: "lobby-list", class: "my-games" });
    const note = el("p", { class: "meta", role: "status" }, "Reading the public games…");
    const substitutes = el("ul", { id: "substitute-list", class: "my-games" });
    const substitutesNote = el("p", { id: "substitute-note", class: "meta", role: "status" }, "Reading the games needing a substitute…");
    host.replaceChildren(el("section", { class: "panel lobby" }, el("h2", {}, "Public games waiting for players"), note, list, el("p", { class: "meta" }, "To join one, ask its creator for the invitation link."), el("h2", { id: "substitutes-title" }, "Games needing a substitute"), substitutesNote, substitutes, el("p", {}, "A player left these games, which go on: the server's bot plays the seat until a substitute takes it. " +
        "To take one, ask the game's players for a substitute's invitation link, and open it or paste it here."), takeForm(), el("p", {}, el("a", { href: "#", class: "button-link" }, "Back to my games"))));
    void listLobby().then((page) => {
        list.replaceChildren(...page.games.map(line));
        note.textContent = page.games.length ? `${page.games.length} ${page.games.length === 1 ? "game" : "games"}.` : "No public game waits right now.";
    }, (e) => (note.textContent = describeProblem(e)));
    void listNeedingSubstitutes().then((page) => {
        substitutes.replaceChildren(...page.games.map(substituteLine));
        substitutesNote.textContent = page.games.length ? `${page.games.length} ${page.games.length === 1 ? "game" : "games"}.`
            : "No public game needs a substitute right now.";
    }, (e) => (substitutesNote.textContent = describeProblem(e)));
}
