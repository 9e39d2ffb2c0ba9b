// create.ts - a new game: 3 or 4 seats, each played by you, by a friend who joins with the
// invitation (an open seat), by a bot, or by someone you send a private link to; and the
// options. Your own seat is bound to your player (POST /v1/players, created now if this
// browser has none), so the game is in your games on every device that has your player
// link. A game with open seats waits for players: its page shows the invitation to send.
// Otherwise the private links are shown once (the token in the URL fragment, which
// browsers never send to servers or write to their logs), with a spectator link.
import { createGame, createPlayer } from "./api.js";
import type { CreateGameRequest } from "./api.js";
import * as store from "./store.js";
import { clearMessage, describeProblem, el, showMessage } from "./ui.js";

const DEFAULT_NAMES = ["Ann", "Bob", "Cy", "Dee"];
type Kind = "me" | "invite" | "bot" | "link";
const KINDS: [Kind, string][] = [
  ["me", "Me"],
  ["invite", "A friend, by invitation"],
  ["bot", "A bot"],
  ["link", "Someone I send a private link"],
];
const DEFAULT_KINDS: Kind[] = ["me", "invite", "invite", "bot"];

function select(id: string, label: string, options: [string, string][], help?: string): HTMLElement {
  return el("div", { class: "field" }, el("label", { for: id }, label),
    el("select", { id, name: id }, ...options.map(([value, text]) => el("option", { value }, text))),
    help ? el("small", {}, help) : null);
}

export function createForm(host: HTMLElement): HTMLElement {
  const me = store.player();
  const seatRows = DEFAULT_NAMES.map((name, i) => {
    const kind = el("select", { id: `kind-${i}`, "aria-label": `Who plays seat ${i + 1}` },
      ...KINDS.map(([value, text]) => el("option", { value, selected: value === DEFAULT_KINDS[i] }, text)));
    const input = el("input", { type: "text", id: `name-${i}`, value: i === 0 && me ? me.name : name, maxlength: 40,
      "aria-label": `Name of seat ${i + 1}` });
    const sync = (): void => {
      input.disabled = kind.value === "invite";
      if (kind.value === "bot" && DEFAULT_NAMES.includes(input.value)) input.value = `Bot ${i + 1}`;
    };
    kind.addEventListener("change", sync);
    sync();
    return el("tr", { id: `seat-row-${i}` }, el("th", { scope: "row" }, `Seat ${i + 1}`), el("td", {}, kind), el("td", {}, input));
  });
  const form = el("form", { id: "create-form", class: "panel" },
    el("h2", { id: "new-game" }, "New game"),
    el("fieldset", {}, el("legend", {}, "Players"),
      el("div", { class: "field" }, el("label", { for: "seats" }, "Number of seats"),
        el("select", { id: "seats" }, el("option", { value: "3" }, "3"), el("option", { value: "4", selected: true }, "4"))),
      el("div", { class: "scroll" }, el("table", { class: "seats" },
        el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Seat"), el("th", { scope: "col" }, "Who plays"), el("th", { scope: "col" }, "Name"))),
        el("tbody", {}, ...seatRows))),
      el("p", { class: "meta" }, "Friends by invitation choose their own names when they join; the game starts once every seat is taken."),
      el("div", { class: "field check" }, el("input", { type: "checkbox", id: "public" }),
        el("label", { for: "public" }, "List it among the public games while it waits"))),
    el("fieldset", {}, el("legend", {}, "Options"),
      select("layout", "Board", [["beginner", "Beginner board"], ["random", "Random board"]]),
      select("start", "Start", [["draft", "Place your own first settlements"], ["fixed", "Preset opening (beginner board)"]]),
      select("numbers", "Number tokens", [["spiral", "Spiral"], ["random", "Random"]]),
      select("edition", "Edition", [["classic", "Classic"], ["2025", "2025 (wood, wheat)"]]),
      select("dice", "Dice", [["random", "Rolled by the server"], ["manual", "Rolled at the table (enter them)"]]),
      el("div", { class: "field" }, el("label", { for: "timeout" }, "Turn time limit (seconds, 0 = none)"),
        el("input", { type: "number", id: "timeout", min: 0, max: 31536000, value: 0 })),
      select("on_timeout", "When time runs out", [["default", "Make the default move"], ["bot", "A bot plays the turn"], ["skip", "Skip the turn"]])),
    el("button", { type: "submit", class: "primary" }, "Create the game"));
  const seats = form.querySelector<HTMLSelectElement>("#seats")!;
  const syncSeats = (): void => {
    form.querySelector<HTMLElement>("#seat-row-3")!.hidden = seats.value === "3";
  };
  seats.addEventListener("change", syncSeats);
  syncSeats();
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    void submit(form, host);
  });
  return form;
}

async function submit(form: HTMLFormElement, host: HTMLElement): Promise<void> {
  const value = (id: string): string => form.querySelector<HTMLInputElement | HTMLSelectElement>(`#${id}`)!.value;
  const count = Number(value("seats"));
  const kinds: Kind[] = [];
  for (let i = 0; i < count; i++) kinds.push(value(`kind-${i}`) as Kind);
  if (kinds.filter((k) => k === "me").length > 1) {
    showMessage("Only one seat can be yours: choose another player for the others.");
    return;
  }
  const button = form.querySelector<HTMLButtonElement>("button[type=submit]")!;
  button.disabled = true;
  try {
    const mine = kinds.indexOf("me");
    let player = store.player();
    const myName = mine >= 0 ? value(`name-${mine}`).trim() || DEFAULT_NAMES[mine]! : "";
    if (mine >= 0 && !player) {
      const made = await createPlayer(myName);
      player = { id: made.id, name: made.name, token: made.token };
      store.setPlayer(player);
    }
    const players: NonNullable<CreateGameRequest["players"]> = kinds.map((kind, i) => {
      const name = value(`name-${i}`).trim() || DEFAULT_NAMES[i]!;
      if (kind === "me" && player) return { player: player.id, name };
      if (kind === "invite") return { open: true };
      return { name, bot: kind === "bot" };
    });
    const open = kinds.includes("invite");
    const body: CreateGameRequest = {
      players,
      options: {
        layout: value("layout") as "beginner" | "random",
        start: value("start") as "draft" | "fixed",
        numbers: value("numbers") as "spiral" | "random",
        edition: value("edition") as "classic" | "2025",
        dice: value("dice") as "random" | "manual",
        turn_timeout_s: Number(value("timeout")) || 0,
        on_timeout: value("on_timeout") as "default" | "bot" | "skip",
      },
    };
    if (open && form.querySelector<HTMLInputElement>("#public")!.checked) body.public = true;
    const game = await createGame(body);
    clearMessage();
    store.setCreated(game.id, { admin: game.admin_token, invite: game.invite?.code ?? null });
    const mySeat = game.seats.find((s) => s.seat === mine);
    if (mySeat?.token) store.setSeatLink(game.id, { seat: mySeat.seat, token: mySeat.token, name: mySeat.name });
    if (game.status === "waiting") {
      location.hash = `#game=${encodeURIComponent(game.id)}`;
      return;
    }
    showLinks(host, game.id, game.seats.map((s) => ({ seat: s.seat, name: s.name, token: s.token ?? null })), mine);
  } catch (e) {
    showMessage(describeProblem(e));
  } finally {
    button.disabled = false;
  }
}

export function linkRow(label: string, url: string, id: string): HTMLElement {
  const input = el("input", { type: "text", readonly: true, value: url, id, class: "link", "aria-label": `Link for ${label}` });
  const copy = el("button", { type: "button" }, "Copy");
  copy.addEventListener("click", () => {
    input.select();
    navigator.clipboard?.writeText(url).then(() => showMessage("Link copied.", "info"), () => showMessage("Select the link and copy it.", "info"));
  });
  return el("li", {}, el("strong", {}, label), " ", input, " ", copy, " ", el("a", { href: url, class: "open button-link" }, "Open"));
}

function showLinks(host: HTMLElement, id: string, seats: { seat: number; name: string; token: string | null }[], mine: number): void {
  const base = `${location.origin}/`;
  const rows = seats.filter((s) => s.token).map((s) =>
    linkRow(`${s.name} (seat ${s.seat + 1}${s.seat === mine ? ", you" : ""})`,
      `${base}#game=${encodeURIComponent(id)}&token=${encodeURIComponent(s.token!)}`, `link-${s.seat}`));
  host.replaceChildren(el("div", { class: "panel links" },
    el("h2", {}, "Your game is ready"),
    el("p", {}, "Each link below is private: whoever has it plays that seat. Send each one to its player; keep yours. They are shown only once."),
    el("ul", { id: "seat-links" }, ...rows),
    el("h3", {}, "Spectators"),
    el("ul", {}, linkRow("Anyone may watch", `${base}#game=${encodeURIComponent(id)}&as=spectator`, "link-spectator")),
    el("p", {}, `Bots: ${seats.filter((s) => !s.token).map((s) => s.name).join(", ") || "none"}.`)));
}
