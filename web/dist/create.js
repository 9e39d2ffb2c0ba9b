// create.ts - the first screen: create a game (3 or 4 seats, which are bots, the options),
// then hand out one private link per seat (the token in the URL fragment, which browsers
// never send to servers or write to their logs) and a spectator link.
import { createGame } from "./api.js";
import { clearMessage, describeProblem, el, showMessage } from "./ui.js";
const DEFAULT_NAMES = ["Ann", "Bob", "Cy", "Dee"];
function select(id, label, options, help) {
    return el("div", { class: "field" }, el("label", { for: id }, label), el("select", { id, name: id }, ...options.map(([value, text]) => el("option", { value }, text))), help ? el("small", {}, help) : null);
}
export function showCreate(host) {
    const seatRows = DEFAULT_NAMES.map((name, i) => el("tr", { id: `seat-row-${i}` }, el("th", { scope: "row" }, `Seat ${i + 1}`), el("td", {}, el("input", { type: "text", id: `name-${i}`, value: name, maxlength: 40, required: true, "aria-label": `Name of seat ${i + 1}` })), el("td", {}, el("input", { type: "checkbox", id: `bot-${i}`, checked: i > 0, "aria-label": `Seat ${i + 1} is a bot` }))));
    const form = el("form", { id: "create-form", class: "panel" }, el("h2", {}, "New game"), el("fieldset", {}, el("legend", {}, "Players"), el("div", { class: "field" }, el("label", { for: "seats" }, "Number of seats"), el("select", { id: "seats" }, el("option", { value: "3" }, "3"), el("option", { value: "4", selected: true }, "4"))), el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Seat"), el("th", { scope: "col" }, "Name"), el("th", { scope: "col" }, "Bot"))), el("tbody", {}, ...seatRows))), el("fieldset", {}, el("legend", {}, "Options"), select("layout", "Board", [["beginner", "Beginner board"], ["random", "Random board"]]), select("start", "Start", [["draft", "Place your own first settlements"], ["fixed", "Preset opening (beginner board)"]]), select("numbers", "Number tokens", [["spiral", "Spiral"], ["random", "Random"]]), select("edition", "Edition", [["classic", "Classic"], ["2025", "2025"]]), select("dice", "Dice", [["random", "Rolled by the server"], ["manual", "Rolled at the table (enter them)"]]), el("div", { class: "field" }, el("label", { for: "timeout" }, "Turn time limit (seconds, 0 = none)"), el("input", { type: "number", id: "timeout", min: 0, max: 31536000, value: 0 })), select("on_timeout", "When time runs out", [["default", "Make the default move"], ["bot", "A bot plays the turn"]])), el("button", { type: "submit", class: "primary" }, "Create the game"));
    const seats = form.querySelector("#seats");
    const syncSeats = () => {
        const row = form.querySelector("#seat-row-3");
        row.hidden = seats.value === "3";
    };
    seats.addEventListener("change", syncSeats);
    syncSeats();
    form.addEventListener("submit", (e) => {
        e.preventDefault();
        void submit(form, host);
    });
    host.replaceChildren(el("div", { class: "create" }, el("p", { class: "intro" }, "Create a game, then send each player their private link. Bots play their seats by themselves."), form));
}
async function submit(form, host) {
    const value = (id) => form.querySelector(`#${id}`).value;
    const count = Number(value("seats"));
    const players = [];
    for (let i = 0; i < count; i++)
        players.push({ name: value(`name-${i}`).trim() || DEFAULT_NAMES[i], bot: form.querySelector(`#bot-${i}`).checked });
    const body = {
        players,
        options: {
            layout: value("layout"),
            start: value("start"),
            numbers: value("numbers"),
            edition: value("edition"),
            dice: value("dice"),
            turn_timeout_s: Number(value("timeout")) || 0,
            on_timeout: value("on_timeout"),
        },
    };
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
        const game = await createGame(body);
        clearMessage();
        showLinks(host, game.id, game.seats.map((s) => ({ seat: s.seat, name: s.name, token: s.token ?? null })));
    }
    catch (e) {
        showMessage(describeProblem(e));
    }
    finally {
        button.disabled = false;
    }
}
function linkRow(label, url, id) {
    const input = el("input", { type: "text", readonly: true, value: url, id, class: "link", "aria-label": `Link for ${label}` });
    const copy = el("button", { type: "button" }, "Copy");
    copy.addEventListener("click", () => {
        input.select();
        navigator.clipboard?.writeText(url).then(() => showMessage("Link copied.", "info"), () => showMessage("Select the link and copy it.", "info"));
    });
    return el("li", {}, el("strong", {}, label), " ", input, " ", copy, " ", el("a", { href: url, class: "open" }, "Open"));
}
function showLinks(host, id, seats) {
    const base = `${location.origin}/`;
    const rows = seats.filter((s) => s.token).map((s) => linkRow(`${s.name} (seat ${s.seat + 1})`, `${base}#game=${encodeURIComponent(id)}&token=${encodeURIComponent(s.token)}`, `link-${s.seat}`));
    host.replaceChildren(el("div", { class: "panel links" }, el("h2", {}, "Your game is ready"), el("p", {}, "Each link below is private: whoever has it plays that seat. Send each one to its player; keep yours. They are shown only once."), el("ul", { id: "seat-links" }, ...rows), el("h3", {}, "Spectators"), el("ul", {}, linkRow("Anyone may watch", `${base}#game=${encodeURIComponent(id)}`, "link-spectator")), el("p", {}, `Bots: ${seats.filter((s) => !s.token).map((s) => s.name).join(", ") || "none"}.`)));
}
