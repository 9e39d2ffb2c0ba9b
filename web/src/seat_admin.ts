// seat_admin.ts - the table's clocks and substitutes on the game page (issue 28):
//
//  - the player rows' marks: a seat whose player left ("left": the bot holds it until a
//    substitute takes it, from GET .../seats), a seat in its quiet hours now ("quiet": from
//    the view's players[].quiet_hours, in the seat's time zone), what is left of each seat's
//    time bank (players[].time_bank_s) or, for the seats the game waits for, the time left
//    before the deadline (the view's `deadline`, which counts the bank in; counted down every
//    second), all on the row's first line;
//  - the seat's own panel: its quiet hours set or cleared (PUT/DELETE .../quiet_hours; the
//    time zone defaults to this browser's), leaving the game (POST .../release, after a
//    confirmation) and, once left, the substitute's invitation link to share (POST
//    .../substitute, shown with a copy button as the waiting page's invitation is);
//  - for the browser that created the game (it keeps the admin token): the same invitation
//    for any seat needing a substitute.
//
// Everything shown is the server's answer; a refused request shows the problem's words.
import { ApiProblem, getSeats, inviteSubstitute, releaseSeat, setQuietHours } from "./api.js";
import type { GameSeats, GameView, QuietHours } from "./api.js";
import { linkRow } from "./create.js";
import * as store from "./store.js";
import { describeProblem, el } from "./ui.js";

type Player = GameView["players"][number];

function reason(e: unknown): string {
  if (e instanceof ApiProblem && e.status !== 0) return `${e.title}: ${e.detail} (${e.code})`;
  return describeProblem(e);
}

/** A duration in short words for a row: "1d 2h", "3h 5m", "4m 10s", "45s". */
export function shortDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400), h = Math.floor(s / 3600) % 24, m = Math.floor(s / 60) % 60, sec = s % 60;
  if (d) return h ? `${d}d ${h}h` : `${d}d`;
  if (h) return m ? `${h}h ${m}m` : `${h}h`;
  if (m) return sec ? `${m}m ${sec}s` : `${m}m`;
  return `${sec}s`;
}

/** A duration in words for a sentence: "1 d 2 h", "3 h 5 min", "45 s". */
export function longDuration(seconds: number): string {
  return shortDuration(seconds).replace(/(\d)d/, "$1 d").replace(/(\d)h/, "$1 h").replace(/(\d)m\b/, "$1 min").replace(/(\d)s/, "$1 s");
}

function minutesOf(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
}

/** Whether `at` falls in the quiet hours, in their time zone (a stretch whose `to` is not
 *  after its `from` runs across midnight). An unknown zone: not quiet. */
export function inQuietHours(q: QuietHours, at: Date = new Date()): boolean {
  let local: number;
  try {
    const parts = new Intl.DateTimeFormat("en-GB", { timeZone: q.timezone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(at);
    local = Number(parts.find((p) => p.type === "hour")?.value) * 60 + Number(parts.find((p) => p.type === "minute")?.value);
  } catch {
    return false;
  }
  const from = minutesOf(q.from), to = minutesOf(q.to);
  return from < to ? local >= from && local < to : local >= from || local < to;
}

function quietWords(q: QuietHours): string {
  return `${q.from}–${q.to} (${q.timezone})`;
}

/** This browser's time zone, the quiet hours' default. */
function browserZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  } catch {
    return "UTC";
  }
}

export interface TableContext {
  game: string;
  token(): string | null;
  /** The seats' state changed (GET .../seats answered): draw the rows again. */
  changed(): void;
  refresh(): void;
}

export class TableSeats {
  private seats: GameSeats | null = null;
  private asked = -1; /* the version GET .../seats was last asked for */
  private view: GameView | null = null;
  private me: number | null = null;
  private ticker = 0;
  private panel: HTMLElement | null = null;
  private drawnPanel = "";
  private readonly links = new Map<number, string>(); /* seat -> the invitation made here */
  private readonly quietStatus = el("p", { id: "quiet-status", class: "meta", role: "status" });
  private readonly leaveStatus = el("p", { id: "leave-status", class: "meta", role: "status" });
  private readonly adminStatus = el("p", { id: "admin-status", class: "meta", role: "status" });
  private quietForm: HTMLElement | null = null;

  constructor(private readonly c: TableContext) {
    this.ticker = window.setInterval(() => this.tick(), 1000);
  }

  stop(): void {
    window.clearInterval(this.ticker);
  }

  /** A new view (and this page's seat): the seats are read again when the version moved. */
  update(view: GameView, me: number | null): void {
    this.view = view;
    this.me = me;
    if (view.version !== this.asked) {
      this.asked = view.version;
      void getSeats(this.c.game).then((seats) => {
        if (seats.version !== undefined && this.seats?.version !== undefined && seats.version < this.seats.version) return;
        this.seats = seats;
        this.c.changed();
      }, () => { this.asked = -1; });
    }
    this.drawPanel();
  }

  needsSubstitute(seat: number): boolean {
    return this.seats?.seats.find((s) => s.seat === seat)?.needs_substitute === true;
  }

  /** What the rows show from here, for the players panel's signature. */
  signature(): unknown {
    return this.seats?.seats.map((s) => [s.needs_substitute, s.substitute_invited]) ?? null;
  }

  /** The marks after a row's name, on its first line (the second holds the figures, full
   *  on a phone): "left" (the bot holds the seat for a substitute; its old player's quiet
   *  hours no longer matter), "quiet" while the seat is in its quiet hours; then its clock:
   *  for a seat the game waits for, the time left before the deadline (counted down; the
   *  deadline counts the seat's bank in), for the others what is left of their bank. */
  tags(view: GameView, p: Player, waiting: readonly number[]): Node[] {
    const tags: Node[] = [];
    const left = this.needsSubstitute(p.seat);
    if (left) tags.push(el("span", { class: "tag left", title: "The player left: the server's bot holds the seat until a substitute takes it" }, "left"));
    if (p.quiet_hours && !left) {
      const quiet = el("span", { class: "tag quiet", "data-quiet": JSON.stringify(p.quiet_hours),
        title: `Quiet hours ${quietWords(p.quiet_hours)}: this seat's clock does not run then` }, "quiet");
      quiet.hidden = !inQuietHours(p.quiet_hours);
      tags.push(quiet);
    }
    const bank = p.time_bank_s === null || p.time_bank_s === undefined ? null : p.time_bank_s;
    if (bank !== null && !this.due(view, p, waiting))
      tags.push(el("span", { class: "bank", title: `Time bank: ${longDuration(bank)} left` }, `bank ${shortDuration(bank)}`));
    return tags;
  }

  /** Inside the "to move" tag of a seat the game waits for: the time left before the deadline. */
  toMove(view: GameView, p: Player, waiting: readonly number[]): Node[] {
    if (!this.due(view, p, waiting)) return [];
    const due = Date.parse(view.deadline!);
    const bank = p.time_bank_s ?? null;
    return [el("span", { class: "due", "data-due": due,
      title: `Time left for this move, until ${new Date(due).toLocaleString()}${bank !== null ? `, its time bank of ${longDuration(bank)} counted in` : ""}` },
    shortDuration((due - Date.now()) / 1000))];
  }

  private due(view: GameView, p: Player, waiting: readonly number[]): boolean {
    return !!view.deadline && waiting.includes(p.seat) && (view.winner === null || view.winner === undefined);
  }

  held(p: Player): boolean {
    return this.needsSubstitute(p.seat);
  }

  /** Every second: the deadlines counted down, the quiet marks as the clock turns. */
  private tick(): void {
    const now = Date.now();
    for (const due of document.querySelectorAll<HTMLElement>("#players [data-due]"))
      due.textContent = shortDuration((Number(due.getAttribute("data-due")) - now) / 1000);
    for (const quiet of document.querySelectorAll<HTMLElement>("#players [data-quiet]")) {
      try {
        quiet.hidden = !inQuietHours(JSON.parse(quiet.getAttribute("data-quiet") ?? "") as QuietHours);
      } catch {
        quiet.hidden = true;
      }
    }
  }

  /** The panel of this page: the seat's clock and leaving, the admin's substitutes. */
  root(): HTMLElement {
    this.panel ??= el("section", { id: "table-panel", class: "panel", "aria-label": "Clock and substitutes" });
    return this.panel;
  }

  private drawPanel(): void {
    const view = this.view;
    if (!view || !this.panel) return;
    const me = this.me;
    const mine = me !== null ? view.players.find((p) => p.seat === me) ?? null : null;
    const admin = store.created(this.c.game)?.admin ?? null;
    const needing = this.seats?.seats.filter((s) => s.needs_substitute) ?? [];
    const over = view.status === "finished";
    const signature = JSON.stringify([me, view.options.rated, mine?.quiet_hours, mine?.time_bank_s, mine?.bot, me !== null && this.needsSubstitute(me),
      admin !== null, needing.map((s) => [s.seat, s.name]), over, [...this.links]]);
    if (signature === this.drawnPanel) return;
    this.drawnPanel = signature;
    const parts: Node[] = [];
    if (mine && !over) {
      // A seat whose player left: its clock is the bot's business; what is left is the invitation.
      const left = this.needsSubstitute(me!);
      const part: Node[] = [];
      if (!left && mine.time_bank_s !== null && mine.time_bank_s !== undefined)
        part.push(el("p", { id: "bank-mine" }, `Your time bank: ${longDuration(mine.time_bank_s)} left (spent once a move's own time is up).`));
      if (!left && mine.quiet_hours !== undefined) part.push(...this.quietPart(me!, mine.quiet_hours));
      // A rated game has no substitutes (its seats stay their players'): no leaving here.
      if (!view.options.rated) part.push(...this.leavePart(me!, mine));
      if (part.length) parts.push(el("h2", {}, "Your clock and seat"), ...part);
    }
    const others = needing.filter((s) => s.seat !== me);
    if (admin && !over && others.length) {
      parts.push(el("h2", {}, "Seats needing a substitute"),
        el("p", {}, "Their players left: the server's bot plays them until a substitute takes the seat with an invitation link."),
        el("ul", { id: "admin-substitutes" }, ...others.map((s) => {
          const link = this.links.get(s.seat);
          if (link) return linkRow(`Invitation for ${s.name}'s seat`, link, `substitute-link-${s.seat}`);
          const invite = el("button", { type: "button", id: `admin-invite-${s.seat}` }, `Invite a substitute for ${s.name} (seat ${s.seat + 1})`);
          invite.addEventListener("click", () => void this.invite(admin, s.seat, invite, this.adminStatus));
          return el("li", {}, invite);
        })), this.adminStatus);
    }
    this.panel.hidden = parts.length === 0;
    this.panel.replaceChildren(...parts);
  }

  private quietPart(seat: number, current: QuietHours | null): Node[] {
    const now = el("p", { id: "quiet-now" }, current
      ? `Your clock stops every day ${quietWords(current)}${inQuietHours(current) ? ": it is stopped now" : ""}.`
      : "No quiet hours: your clock runs day and night.");
    // The form is made once, so what is being typed is never replaced; its fields take the
    // server's values when they change.
    if (!this.quietForm) {
      const zone = el("input", { type: "text", id: "quiet-zone", maxlength: 63, value: browserZone(), autocomplete: "off", spellcheck: false });
      const from = el("input", { type: "time", id: "quiet-from", value: "22:00", required: true });
      const to = el("input", { type: "time", id: "quiet-to", value: "07:00", required: true });
      const set = el("button", { type: "submit", id: "quiet-set" }, "Set quiet hours");
      const clear = el("button", { type: "button", id: "quiet-clear" }, "Clear quiet hours");
      const form = el("form", { id: "quiet-form", class: "quiet-form" },
        el("label", { for: "quiet-zone" }, "Time zone ", zone),
        el("label", { for: "quiet-from" }, "From ", from),
        el("label", { for: "quiet-to" }, "to ", to),
        el("div", { class: "row" }, set, clear));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        void this.quiet(seat, { timezone: zone.value.trim(), from: from.value, to: to.value }, set);
      });
      clear.addEventListener("click", () => void this.quiet(seat, null, clear));
      this.quietForm = form;
    }
    const form = this.quietForm;
    if (current) {
      (form.querySelector("#quiet-zone") as HTMLInputElement).value = current.timezone;
      (form.querySelector("#quiet-from") as HTMLInputElement).value = current.from;
      (form.querySelector("#quiet-to") as HTMLInputElement).value = current.to;
    }
    (form.querySelector("#quiet-clear") as HTMLButtonElement).hidden = current === null;
    return [el("h3", {}, "Quiet hours"), now, form, this.quietStatus];
  }

  private async quiet(seat: number, hours: QuietHours | null, button: HTMLButtonElement): Promise<void> {
    const token = this.c.token();
    if (!token) return;
    button.disabled = true;
    try {
      const answer = await setQuietHours(this.c.game, token, seat, hours);
      this.quietStatus.textContent = answer.quiet_hours ? `Quiet hours set: ${quietWords(answer.quiet_hours)}.` : "Quiet hours cleared.";
      this.c.refresh();
    } catch (e) {
      this.quietStatus.textContent = reason(e);
    } finally {
      button.disabled = false;
    }
  }

  private leavePart(seat: number, mine: Player): Node[] {
    if (this.needsSubstitute(seat)) {
      const parts: Node[] = [el("h3", {}, "A substitute"),
        el("p", { id: "left-note" }, "You left this seat: the server's bot plays it until a substitute takes it with an invitation link. Once one does, this page's link stops working.")];
      const link = this.links.get(seat);
      if (link) {
        parts.push(el("p", {}, "Send this link to your substitute: whoever opens it may take the seat."),
          el("ul", { id: "substitute-links" }, linkRow("Substitute's invitation", link, "substitute-link")));
      }
      const invite = el("button", { type: "button", id: "invite-substitute" }, link ? "Make a new invitation (the old one stops)" : "Invite a substitute");
      invite.addEventListener("click", () => void this.invite(this.c.token() ?? "", seat, invite, this.leaveStatus));
      parts.push(el("div", { class: "row" }, invite), this.leaveStatus);
      return parts;
    }
    if (mine.bot && !mine.away) return [];
    const leave = el("button", { type: "button", id: "leave-game" }, "Leave the game");
    leave.addEventListener("click", () => void this.leave(seat, leave));
    return [el("h3", {}, "Leaving"),
      el("p", {}, "Cannot play on? Leave the game: the server's bot holds your seat until a substitute takes it."),
      el("div", { class: "row" }, leave), this.leaveStatus];
  }

  private async leave(seat: number, button: HTMLButtonElement): Promise<void> {
    if (!window.confirm("Leave the game? The server's bot plays your seat until a substitute takes it; you cannot take it back yourself.")) return;
    const token = this.c.token();
    if (!token) return;
    button.disabled = true;
    try {
      await releaseSeat(this.c.game, token, seat);
      this.leaveStatus.textContent = "You left the game. Invite a substitute for your seat below.";
      this.c.refresh();
    } catch (e) {
      this.leaveStatus.textContent = reason(e);
      button.disabled = false;
    }
  }

  private async invite(token: string, seat: number, button: HTMLButtonElement, status: HTMLElement): Promise<void> {
    button.disabled = true;
    try {
      const answer = await inviteSubstitute(this.c.game, token, seat);
      this.links.set(seat, answer.invite.url);
      status.textContent = "The invitation is ready: copy it and send it.";
      this.drawPanel();
      document.getElementById(seat === this.me ? "substitute-link" : `substitute-link-${seat}`)?.focus();
    } catch (e) {
      status.textContent = reason(e);
      button.disabled = false;
    }
  }
}
