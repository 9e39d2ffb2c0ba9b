// chat.ts - table talk at the table: the game's messages (GET .../stream sends them merged
// with the moves, `event: message`), a box to post one (POST .../messages, a seat's token),
// and the seats muted by this player (kept in this browser only: muting hides a seat's
// messages here, for nobody else).
//
// Text is set as text, never parsed as markup: a message of "<img src=x onerror=...>" shows
// those characters. The server's refusals are shown as it answers them (429 with its
// Retry-After: the seat's 10 messages a minute), and nothing is shown before it accepted
// a message.
import { ApiProblem, postMessage } from "./api.js";
import type { TableMessage } from "./api.js";
import * as store from "./store.js";
import { describeProblem, el, seatClass } from "./ui.js";

export class Chat {
  private readonly shown = new Map<number, TableMessage>();
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly status: HTMLElement;
  private readonly mutes: HTMLElement;
  private seats: { seat: number; name: string }[] = [];
  private sending = false;

  constructor(private readonly game: string, private readonly token: string | null, private mySeat: number | null) {
    this.list = el("ol", { id: "chat-list", class: "chat-list", tabindex: 0, "aria-labelledby": "chat-title", "aria-live": "polite" });
    this.status = el("p", { id: "chat-status", class: "meta", role: "status" });
    this.mutes = el("div", { id: "chat-mutes", class: "row mutes" });
    const parts: Node[] = [el("h2", { id: "chat-title" }, "Table talk"), this.list, this.status];
    if (token) {
      const input = el("input", { type: "text", id: "chat-text", maxlength: 500, autocomplete: "off", "aria-label": "Message to the table" });
      const send = el("button", { type: "submit", id: "chat-send" }, "Send");
      const form = el("form", { id: "chat-form", class: "row chat-form" }, input, send);
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        void this.post(input, send);
      });
      parts.push(form);
    } else {
      parts.push(el("p", { class: "meta" }, "Spectators read the table talk; players post."));
    }
    parts.push(this.mutes);
    this.root = el("section", { id: "chat", class: "panel", "aria-label": "Table talk" }, ...parts);
  }

  setSeat(seat: number | null): void {
    this.mySeat = seat;
  }

  /** The seats (names may change as the view arrives). */
  setSeats(seats: { seat: number; name: string; bot: boolean }[]): void {
    const humans = seats.filter((s) => s.seat !== this.mySeat);
    const same = JSON.stringify(humans.map((s) => [s.seat, s.name])) === JSON.stringify(this.seats.map((s) => [s.seat, s.name]));
    this.seats = humans.map((s) => ({ seat: s.seat, name: s.name }));
    if (!same) this.renderMutes();
  }

  add(message: TableMessage): void {
    if (this.shown.has(message.seq)) return;
    this.shown.set(message.seq, message);
    if (!this.isMuted(message.seat)) this.insert(message);
    this.renderMutes();
  }

  private isMuted(seat: number): boolean {
    return store.muted(this.game).includes(seat);
  }

  private insert(message: TableMessage): void {
    const item = el("li", { "data-seq": message.seq, "data-seat": message.seat, class: "chat-line" },
      el("span", { class: `who ${seatClass(message.seat)}` }, message.name),
      el("span", { class: "said" }, message.text));
    const after = [...this.list.children].find((li) => Number(li.getAttribute("data-seq")) > message.seq);
    this.list.insertBefore(item, after ?? null);
    this.list.scrollTop = this.list.scrollHeight;
  }

  private redraw(): void {
    this.list.replaceChildren();
    for (const message of [...this.shown.values()].sort((a, b) => a.seq - b.seq))
      if (!this.isMuted(message.seat)) this.insert(message);
  }

  private renderMutes(): void {
    const muted = store.muted(this.game);
    const buttons = this.seats.map((s) => {
      const hidden = [...this.shown.values()].filter((m) => m.seat === s.seat).length;
      const on = muted.includes(s.seat);
      const button = el("button", { type: "button", class: "mute", "aria-pressed": on ? "true" : "false", "data-seat": s.seat },
        on ? `Unmute ${s.name}${hidden ? ` (${hidden} hidden)` : ""}` : `Mute ${s.name}`);
      button.addEventListener("click", () => {
        const now = store.muted(this.game);
        store.setMuted(this.game, now.includes(s.seat) ? now.filter((x) => x !== s.seat) : [...now, s.seat]);
        this.redraw();
        this.renderMutes();
      });
      return button;
    });
    this.mutes.replaceChildren(...(buttons.length ? [el("span", { class: "meta" }, "For you only: "), ...buttons] : []));
  }

  private async post(input: HTMLInputElement, send: HTMLButtonElement): Promise<void> {
    const text = input.value;
    if (!this.token || this.sending || !text.trim()) return;
    this.sending = true;
    send.disabled = true;
    try {
      const posted = await postMessage(this.game, this.token, text);
      input.value = "";
      this.status.textContent = "";
      this.add(posted);
    } catch (e) {
      this.status.textContent = e instanceof ApiProblem && e.status === 429
        ? `Not sent: ${e.detail || "too many messages"}.${e.retryAfter !== null ? ` Try again in ${e.retryAfter} s.` : ""}`
        : `Not sent: ${describeProblem(e)}`;
    } finally {
      this.sending = false;
      send.disabled = false;
    }
  }
}
