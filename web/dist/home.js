// home.ts - the first screen: your games (GET /v1/players/me/games with this browser's
// player token: whose move it is in each, yours first), a new game, the public games one
// click away, and your player link: open it in another browser to have your games there
// too (the token rides in the URL fragment, never sent to a server), or replace it when it
// leaked (POST /v1/players/me/token: the old one stops at once).
import { getSeats, myGames, replacePlayerToken } from "./api.js";
import { createForm } from "./create.js";
import * as store from "./store.js";
import { describeProblem, el, showMessage } from "./ui.js";
const STATUS_WORDS = {
    waiting: "waits for players",
    expired: "expired",
    setup: "setting up",
    playing: "playing",
    finished: "finished",
};
function gameLine(game, seats) {
    const names = seats ? seats.seats.map((s) => (s.open ? "an open seat" : s.name)) : [];
    const name = (seat) => seats?.seats.find((s) => s.seat === seat)?.name ?? `Seat ${seat + 1}`;
    const whose = game.status === "finished" ? "The game is over."
        : game.status === "expired" ? "Nobody filled it in time: it expired."
            : game.status === "waiting" ? `It waits for ${seats ? seats.open_seats : "more"} ${seats?.open_seats === 1 ? "player" : "players"}.`
                : game.waiting_for_me ? "Your move!" : `Waiting for ${game.waiting_for.map(name).join(", ") || "nobody"}.`;
    return el("li", { class: `my-game${game.waiting_for_me ? " mine" : ""}`, "data-game": game.id }, el("a", { href: `#game=${encodeURIComponent(game.id)}`, class: "button-link" }, game.waiting_for_me ? "Play" : "Open"), el("span", { class: "what" }, el("strong", {}, whose), " ", `${names.join(", ") || `Game ${game.id.slice(0, 6)}`} · ${STATUS_WORDS[game.status]} · version ${game.version}`));
}
async function fillGames(list, note) {
    const player = store.player();
    if (!player)
        return;
    try {
        const answer = await myGames(player.token);
        const games = [...answer.games].sort((a, b) => Number(b.waiting_for_me) - Number(a.waiting_for_me));
        // The player's token acts for every seat of the player: open them with it.
        for (const g of games)
            if (!store.seatLink(g.id))
                store.setSeatLink(g.id, { seat: g.seat, token: player.token, name: player.name });
        const seats = await Promise.all(games.map((g) => getSeats(g.id).catch(() => null)));
        list.replaceChildren(...games.map((g, i) => gameLine(g, seats[i] ?? null)));
        const mine = games.filter((g) => g.waiting_for_me).length;
        note.textContent = games.length ? `${games.length} ${games.length === 1 ? "game" : "games"}; your move in ${mine}.` : "No games yet: create one below.";
    }
    catch (e) {
        note.textContent = describeProblem(e);
    }
}
function deviceSection() {
    const player = store.player();
    if (!player)
        return null;
    const url = `${location.origin}/#player=${encodeURIComponent(player.token)}`;
    const input = el("input", { type: "text", readonly: true, value: url, id: "player-link", class: "link", "aria-label": "Your player link" });
    const copy = el("button", { type: "button", id: "copy-player-link" }, "Copy");
    copy.addEventListener("click", () => {
        input.select();
        void navigator.clipboard?.writeText(url).then(() => showMessage("Your player link is copied: open it in your other browser.", "info"), () => showMessage("Select the link and copy it.", "info"));
    });
    const replace = el("button", { type: "button", id: "replace-player-link" }, "Replace my player link (it leaked)");
    replace.addEventListener("click", () => void (async () => {
        if (!window.confirm("Replace your player link? The old one stops working at once, on every device that has it."))
            return;
        try {
            const answer = await replacePlayerToken(player.token);
            store.setPlayer({ id: answer.id, name: answer.name, token: answer.token });
            showMessage("Your player link is new: open it in your other browsers again.", "info");
            window.dispatchEvent(new HashChangeEvent("hashchange"));
        }
        catch (e) {
            showMessage(describeProblem(e));
        }
    })());
    return el("section", { id: "device", class: "panel" }, el("h2", {}, "Your games on another device"), el("p", {}, `You play as ${player.name}. Open this private link in another browser (your phone, say) and your games are there too. Keep it to yourself.`), el("div", { class: "row" }, input, copy), el("div", { class: "row" }, replace));
}
/** Your games are read again every REFRESH_MS while the page is shown (whose move it is
 * changes). Stop with the answer's stop(). */
const REFRESH_MS = 30000;
export function showHome(host) {
    const player = store.player();
    const list = el("ul", { id: "my-games-list", class: "my-games" });
    const note = el("p", { id: "my-games-note", class: "meta", role: "status" }, player ? "Reading your games…" : "");
    const games = player ? el("section", { id: "my-games", class: "panel" }, el("h2", {}, "My games"), note, list) : null;
    host.replaceChildren(el("div", { class: "home" }, el("p", { class: "intro" }, player ? `Welcome back, ${player.name}.`
        : "Create a game and invite your friends, or open a game from the public games. Bots play their seats by themselves."), el("p", {}, el("a", { href: "#lobby", id: "lobby-link", class: "button-link" }, "Public games waiting for players")), games, createForm(host), deviceSection()));
    if (!games)
        return { stop: () => undefined };
    void fillGames(list, note);
    const timer = window.setInterval(() => {
        if (!document.hidden)
            void fillGames(list, note);
    }, REFRESH_MS);
    return { stop: () => window.clearInterval(timer) };
}
