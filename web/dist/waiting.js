// waiting.ts - a game that waits for players (created with open seats): what the
// invitation link opens. It shows the seats taken and open, the options and who invited;
// with the invitation (from the link, or kept by the browser that created the game) a
// Join button asks for a name and takes the first open seat (POST .../join, with this
// browser's player token, made now if there is none, so the game is in "my games"); the
// seat's private link is kept in the browser. The page reads the game again every few
// seconds and moves on to the game as soon as it starts (the join that takes the last
// seat starts it).
//
// The creator (who holds the admin token) sees the invitation to send and may give an open
// seat to a bot. The game's commitment (fairness.ts) is shown from the start.
import { createPlayer, getGameOrWaiting, joinGame, seatBot } from "./api.js";
import { linkRow } from "./create.js";
import { fairnessPanel } from "./fairness.js";
import * as store from "./store.js";
import { describeProblem, el, showMessage } from "./ui.js";
const POLL_MS = 2500;
export function optionsText(o) {
    const parts = [o.layout === "beginner" ? "beginner board" : "random board",
        o.start === "fixed" ? "preset opening" : "you place your first settlements",
        o.edition === "2025" ? "2025 edition" : "classic edition",
        o.dice === "manual" ? "dice rolled at the table" : "dice rolled by the server",
        o.turn_timeout_s ? `${Math.round(o.turn_timeout_s / 60)} min per move` : "no time limit"];
    return parts.join(", ");
}
export class WaitingScreen {
    id;
    host;
    started;
    timer = 0;
    stopped = false;
    joining = false;
    drawn = "";
    constructor(id, host, started) {
        this.id = id;
        this.host = host;
        this.started = started;
    }
    start() {
        void this.poll();
    }
    stop() {
        this.stopped = true;
        window.clearTimeout(this.timer);
    }
    async poll() {
        if (this.stopped)
            return;
        try {
            const answer = await getGameOrWaiting(this.id, store.seatLink(this.id)?.token ?? null);
            if (this.stopped)
                return;
            if (!answer.waiting) {
                this.stopped = true;
                this.started();
                return;
            }
            this.draw(answer.waiting);
        }
        catch (e) {
            showMessage(describeProblem(e));
        }
        if (!this.stopped)
            this.timer = window.setTimeout(() => void this.poll(), POLL_MS);
    }
    draw(game) {
        const mine = store.seatLink(this.id);
        const invite = store.invite(this.id);
        const created = store.created(this.id);
        const signature = JSON.stringify([game.seats, mine, invite, created !== null]);
        if (signature === this.drawn || this.joining)
            return;
        this.drawn = signature;
        if (game.status === "expired") {
            this.host.replaceChildren(el("section", { id: "waiting", class: "panel waiting" }, el("h2", { id: "waiting-title" }, "This game expired"), el("p", {}, `Nobody filled its seats in time${game.expired_at ? ` (it expired ${game.expired_at})` : ""}: it will not start.`)));
            return;
        }
        const host = game.seats.find((s) => !s.open && !s.bot);
        const seats = el("ul", { id: "waiting-seats", class: "seats-list" }, ...game.seats.map((s) => el("li", { "data-seat": s.seat, class: s.open ? "open" : "taken" }, el("strong", {}, `Seat ${s.seat + 1}: `), s.open ? "open" : `${s.name}${s.bot ? " (bot)" : ""}${mine && mine.seat === s.seat ? " (you)" : ""}`)));
        const parts = [
            el("h2", { id: "waiting-title" }, host && !mine ? `${host.name} invites you to a game of Catan` : "A game waiting for players"),
            el("p", {}, `${game.open_seats} of ${game.seats.length} seats open. The game starts by itself once every seat is taken.`),
            seats,
        ];
        if (game.options)
            parts.push(el("p", { class: "meta" }, `Options: ${optionsText(game.options)}.`));
        parts.push(fairnessPanel(this.id, game.fairness));
        if (mine) {
            parts.push(el("p", { id: "waiting-you", class: "prompt" }, `You sit in seat ${mine.seat + 1} as ${mine.name}. This page moves on to the game when it starts.`));
        }
        else if (invite) {
            const player = store.player();
            const name = el("input", { type: "text", id: "join-name", maxlength: 40, value: player?.name ?? "", required: true, autocomplete: "nickname" });
            const join = el("button", { type: "submit", id: "join-button", class: "primary" }, "Join");
            const form = el("form", { id: "join-form", class: "row" }, el("label", { for: "join-name" }, "Your name "), name, join);
            form.addEventListener("submit", (e) => {
                e.preventDefault();
                void this.join(invite, name.value.trim(), join);
            });
            parts.push(form);
        }
        else {
            parts.push(el("p", {}, "You need the invitation link of this game to join it."));
        }
        if (invite) {
            const url = `${location.origin}/#game=${encodeURIComponent(this.id)}&invite=${encodeURIComponent(invite)}`;
            parts.push(el("h3", {}, "Invite your friends"), el("p", {}, "Send them this link: whoever opens it may take an open seat."), el("ul", {}, linkRow("Invitation", url, "invite-link")));
        }
        if (created) {
            const bots = game.seats.filter((s) => s.open).map((s) => {
                const button = el("button", { type: "button", "data-seat": s.seat }, `Give seat ${s.seat + 1} to a bot`);
                button.addEventListener("click", () => void seatBot(this.id, created.admin, s.seat, `Bot ${s.seat + 1}`)
                    .then(() => void this.poll(), (e) => showMessage(describeProblem(e))));
                return button;
            });
            if (bots.length)
                parts.push(el("div", { class: "row" }, ...bots));
        }
        this.host.replaceChildren(el("section", { id: "waiting", class: "panel waiting" }, ...parts));
    }
    async join(invite, name, button) {
        if (!name) {
            showMessage("Your name, please: the other players see it.");
            return;
        }
        this.joining = true;
        button.disabled = true;
        try {
            let player = store.player();
            if (!player) {
                const made = await createPlayer(name);
                player = { id: made.id, name: made.name, token: made.token };
                store.setPlayer(player);
            }
            const seat = await joinGame(this.id, invite, name, player.token);
            store.setSeatLink(this.id, { seat: seat.seat, token: seat.token, name: seat.name });
            this.joining = false;
            this.drawn = "";
            window.clearTimeout(this.timer);
            await this.poll();
        }
        catch (e) {
            this.joining = false;
            button.disabled = false;
            showMessage(describeProblem(e));
        }
    }
}
