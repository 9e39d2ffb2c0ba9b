// seatpanel.ts - what a seat arranges from the game page: being called back (a browser
// notification and a sound, both asked for with a click; mail through POST .../mail), a
// holiday (POST/DELETE .../seats/{seat}/away: the server's bot plays meanwhile), and its
// private link (copy it to open the seat on another device; replace it when it leaked:
// POST .../seats/{seat}/token, after which the old link stops working at once).
//
// Every answer shown is the server's: a refused registration shows its reason (400 naming
// the address, 503 mail_disabled on a server without mail).
import { ApiProblem, deleteMail, getMail, registerMail, replaceSeatToken, setAway } from "./api.js";
import * as signal from "./signal.js";
import * as store from "./store.js";
import { describeProblem, el, showMessage } from "./ui.js";
function reason(e) {
    if (e instanceof ApiProblem && e.status !== 0)
        return `${e.title}: ${e.detail} (${e.code})`;
    return describeProblem(e);
}
export class SeatPanel {
    c;
    root;
    mail = el("div", { id: "mail-state" });
    holiday = el("div", { id: "holiday" });
    status = el("p", { id: "seat-status", class: "meta", role: "status" });
    shownAway = null;
    constructor(c) {
        this.c = c;
        const notify = el("button", { type: "button", id: "notify-button" }, "Notify me when it is my move");
        notify.addEventListener("click", () => void signal.askNotifications().then((answer) => {
            this.status.textContent = answer === "granted" ? "This browser will notify you when it is your move and the page is hidden."
                : answer === "unsupported" ? "This browser cannot show notifications." : "Notifications are blocked in this browser's settings.";
        }));
        const sound = el("button", { type: "button", id: "sound-button", "aria-pressed": store.prefs().sound ? "true" : "false" }, "Sound when it is my move");
        sound.addEventListener("click", () => {
            const on = sound.getAttribute("aria-pressed") !== "true";
            signal.setSound(on);
            sound.setAttribute("aria-pressed", on ? "true" : "false");
        });
        const copy = el("button", { type: "button", id: "copy-seat-link" }, "Copy my seat link");
        copy.hidden = c.token().startsWith("pt_"); /* opened with the player's link: that one moves all the games */
        copy.addEventListener("click", () => {
            const url = `${location.origin}/#game=${encodeURIComponent(c.game)}&token=${encodeURIComponent(c.token())}`;
            void navigator.clipboard?.writeText(url).then(() => showMessage("Your seat link is copied: open it on your other device. Keep it private.", "info"), () => showMessage("Copy the address of this page's link from your seat's invitation.", "info"));
        });
        const replace = el("button", { type: "button", id: "replace-seat-link" }, "Replace my seat link (it leaked)");
        replace.addEventListener("click", () => void this.replace(replace));
        this.root = el("section", { id: "seat-panel", class: "panel", "aria-label": "Your seat" }, el("h2", {}, "Your seat"), el("div", { class: "row" }, notify, sound), el("h3", {}, "Mail"), this.mail, el("h3", {}, "Holiday"), this.holiday, el("h3", {}, "Your link"), el("div", { class: "row" }, copy, replace), this.status);
        void this.loadMail();
    }
    /** Draw what depends on the view (away or not). */
    update() {
        const away = this.c.away();
        if (away === this.shownAway)
            return;
        this.shownAway = away;
        const button = el("button", { type: "button", id: away ? "holiday-end" : "holiday-start" }, away ? "I am back: give me my seat" : "Go on holiday (a bot plays my seat)");
        button.addEventListener("click", () => void this.setAway(!away, button));
        this.holiday.replaceChildren(el("p", {}, away ? "You are away: the server's bot plays your seat." : "Away for a while? The bot plays for you until you come back."), button);
    }
    async setAway(away, button) {
        button.disabled = true;
        try {
            await setAway(this.c.game, this.c.token(), this.c.seat, away);
            this.status.textContent = away ? "You are on holiday." : "Welcome back.";
            this.c.refresh();
        }
        catch (e) {
            this.status.textContent = reason(e);
            button.disabled = false;
        }
    }
    async loadMail() {
        try {
            const state = await getMail(this.c.game, this.c.token());
            this.drawMail(state.registered ? `${state.address ?? "An address"} gets a mail when it is your move${state.confirmed ? "" : " (once its confirmation link is opened)"}.` : null, state.available !== false);
        }
        catch (e) {
            this.drawMail(null, true, reason(e));
        }
    }
    drawMail(registered, available, note = "") {
        const parts = [];
        if (!available)
            parts.push(el("p", {}, "This server sends no mail."));
        if (registered) {
            const stop = el("button", { type: "button", id: "mail-stop" }, "Stop the mails");
            stop.addEventListener("click", () => void (async () => {
                try {
                    await deleteMail(this.c.game, this.c.token());
                    this.drawMail(null, available, "No more mails.");
                }
                catch (e) {
                    this.drawMail(registered, available, reason(e));
                }
            })());
            parts.push(el("p", {}, registered), stop);
        }
        else if (available) {
            const input = el("input", { type: "email", id: "mail-address", autocomplete: "email", maxlength: 254, "aria-label": "Your mail address" });
            const submit = el("button", { type: "submit", id: "mail-register" }, "Mail me when it is my move");
            const form = el("form", { class: "row", id: "mail-form" }, input, submit);
            form.addEventListener("submit", (e) => {
                e.preventDefault();
                submit.disabled = true;
                void registerMail(this.c.game, this.c.token(), input.value.trim()).then(() => this.drawMail(`A confirmation mail went to ${input.value.trim()}: open its link, then you get a mail when it is your move.`, available), (problem) => {
                    submit.disabled = false;
                    this.mailNote.textContent = reason(problem);
                });
            });
            parts.push(form);
        }
        this.mailNote.textContent = note;
        this.mail.replaceChildren(...parts, this.mailNote);
    }
    mailNote = el("p", { id: "mail-note", class: "meta", role: "status" });
    async replace(button) {
        if (!window.confirm("Replace your seat link? The old link stops working at once, on every device that has it."))
            return;
        button.disabled = true;
        try {
            const answer = await replaceSeatToken(this.c.game, this.c.token(), this.c.seat);
            this.c.replaced(answer.token);
            this.status.textContent = "Your seat has a new link: this page uses it. Copy it again for your other devices.";
        }
        catch (e) {
            this.status.textContent = reason(e);
        }
        finally {
            button.disabled = false;
        }
    }
}
