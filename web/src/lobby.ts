// lobby.ts - the public games (GET /v1/games?status=waiting): games created with
// "public": true that still have open seats, newest first, with their seats and options.
// Joining needs the invitation its creator shares (the lobby lists no secret); a listed
// game's page shows who waits there.
import { listLobby } from "./api.js";
import type { GameSeats } from "./api.js";
import { optionsText } from "./waiting.js";
import { describeProblem, el } from "./ui.js";

function line(game: GameSeats): HTMLElement {
  return el("li", { class: "lobby-game", "data-game": game.id },
    el("a", { href: `#game=${encodeURIComponent(game.id)}`, class: "button-link" }, "See it"),
    el("span", {}, `${game.seats.map((s) => (s.open ? "open seat" : s.bot ? `${s.name} (bot)` : s.name)).join(", ")} · `,
      `${game.open_seats} open · ${game.options ? optionsText(game.options) : ""}`));
}

export function showLobby(host: HTMLElement): void {
  const list = el("ul", { id: "lobby-list", class: "my-games" });
  const note = el("p", { class: "meta", role: "status" }, "Reading the public games…");
  host.replaceChildren(el("section", { class: "panel lobby" }, el("h2", {}, "Public games waiting for players"), note, list,
    el("p", { class: "meta" }, "To join one, ask its creator for the invitation link."),
    el("p", {}, el("a", { href: "#", class: "button-link" }, "Back to my games"))));
  void listLobby().then((page) => {
    list.replaceChildren(...page.games.map(line));
    note.textContent = page.games.length ? `${page.games.length} ${page.games.length === 1 ? "game" : "games"}.` : "No public game waits right now.";
  }, (e: unknown) => (note.textContent = describeProblem(e)));
}
