// substitute.ts - an invitation link opened for a game that has started (issue 28): the
// substitute's page. When a seat needs a substitute (GET .../seats: its player left, the
// bot holds it) the page offers "Take <seat name>'s seat" with a name field; the join (POST
// .../join with the invite, and this browser's player token, made now if there is none, as
// the waiting page's join does) answers the seat's new token, which the browser keeps, and
// the page becomes that seat's. A refused join (an invite replaced or used, a seat taken
// meanwhile) shows the problem's words and changes nothing. When no seat needs a
// substitute, the game is shown to a spectator with a sentence saying why.
import { ApiProblem, createPlayer, getSeats, joinGame } from "./api.js";
import * as store from "./store.js";
import { describeProblem, el, showMessage } from "./ui.js";
function reason(e) {
    if (e instanceof ApiProblem && e.status !== 0)
        return `${e.title}: ${e.detail} (${e.code})`;
    return describeProblem(e);
}
export class SubstituteScreen {
    id;
    invite;
    host;
    seated;
    watch;
    stopped = false;
    /** `seated(token)`: the seat was taken, open it; `watch()`: no seat to take, watch. */
    constructor(id, invite, host, seated, watch) {
        this.id = id;
        this.invite = invite;
        this.host = host;
        this.seated = seated;
        this.watch = watch;
    }
    start() {
        void this.load();
    }
    stop() {
        this.stopped = true;
    }
    async load() {
        let seats;
        try {
            seats = await getSeats(this.id);
        }
        catch (e) {
            if (this.stopped)
                return;
            showMessage(describeProblem(e));
            this.watch();
            return;
        }
        if (this.stopped)
            return;
        const needing = seats.seats.filter((s) => s.needs_substitute);
        if (!needing.length || seats.status === "finished") {
            this.watch();
            showMessage(seats.status === "finished" ? "This invitation takes no seat: the game is over."
                : "This invitation takes no seat now: no seat of this game needs a substitute (the invitation may have been used or replaced).", "info");
            return;
        }
        this.draw(needing);
    }
    draw(needing) {
        const names = needing.map((s) => s.name);
        const title = needing.length === 1 ? `Take ${names[0]}'s seat` : `Take the seat of ${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
        const player = store.player();
        const name = el("input", { type: "text", id: "substitute-name", maxlength: 40, value: player?.name ?? "", required: true, autocomplete: "nickname" });
        const take = el("button", { type: "submit", id: "substitute-take", class: "primary" }, "Take the seat");
        const status = el("p", { id: "substitute-status", class: "prompt", role: "alert" });
        const form = el("form", { id: "substitute-form", class: "row" }, el("label", { for: "substitute-name" }, "Your name "), name, take);
        form.addEventListener("submit", (e) => {
            e.preventDefault();
            void this.join(name.value.trim(), take, status);
        });
        const watch = el("a", { href: `#game=${encodeURIComponent(this.id)}&as=spectator`, id: "substitute-watch" }, "Only watch the game");
        this.host.replaceChildren(el("section", { id: "substitute", class: "panel waiting" }, el("h2", { id: "substitute-title" }, title), el("p", {}, `${needing.length === 1 ? "Its player" : "Their players"} left the game, which goes on: the server's bot plays ${needing.length === 1 ? "the seat" : "them"} until a substitute takes over. ` +
            "You take the seat as it stands (its cards, buildings and points), with a link of your own."), needing.length > 1 ? el("p", { class: "meta" }, "Your invitation is for one of these seats: the server knows which.") : null, form, status, el("p", {}, watch)));
        name.focus();
    }
    async join(name, button, status) {
        if (!name) {
            status.textContent = "Your name, please: the other players see it.";
            return;
        }
        button.disabled = true;
        status.textContent = "";
        try {
            let player = store.player();
            if (!player) {
                const made = await createPlayer(name);
                player = { id: made.id, name: made.name, token: made.token };
                store.setPlayer(player);
            }
            const seat = await joinGame(this.id, this.invite, name, player.token);
            if (this.stopped)
                return;
            store.setSeatLink(this.id, { seat: seat.seat, token: seat.token, name: seat.name });
            // The invitation is spent: the address becomes the game's (the seat's link is kept).
            history.replaceState(null, "", `#game=${encodeURIComponent(this.id)}`);
            showMessage(`You took seat ${seat.seat + 1} as ${seat.name}.`, "info");
            this.seated(seat.token);
        }
        catch (e) {
            status.textContent = reason(e);
            button.disabled = false;
        }
    }
}
