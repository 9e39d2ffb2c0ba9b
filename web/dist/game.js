// game.ts - the game screen: the board, what this seat may do (from GET .../actions), the
// open offers, every seat's public figures, table talk, the log in words, and at the end
// the game in figures (GET .../summary), and whether the game is provably fair (its
// commitment, and after the end its revealed seed and how to verify it: fairness.ts).
//
// The screen shows only what the server said. Every change comes from the stream: an
// event (or a reconnection) makes the screen read the game view and the actions again,
// both of one version, and draw them; a move is a POST whose refusal is shown as the
// server's problem, and the screen is then read again. Nothing is drawn before the server
// accepted it: a place chosen on a touch screen is only marked (and the move asked for)
// once the player confirms it. A spectator link (no token) shows the same without a hand,
// actions or a seat panel.
//
// What happened: the log names places by the server's names (GET .../board), the board
// marks the place of the last move and, fading with age, of every move since this player
// last looked at the game (the version kept in this browser when the page is left).
import { ApiProblem, getActions, getBoard, getGame, getSummary, moveOf, postMove, rematch, RESOURCES } from "./api.js";
import { drawBoard, geometry, noTargets } from "./board.js";
import { Chat } from "./chat.js";
import { diceFaces } from "./dice.js";
import { fairnessPanel } from "./fairness.js";
import { describeEvent, placeOf } from "./log.js";
import { costCard, playersPanel } from "./panels.js";
import { TableSeats } from "./seat_admin.js";
import { SeatPanel } from "./seatpanel.js";
import * as signal from "./signal.js";
import * as store from "./store.js";
import { GameStream } from "./stream.js";
import { summaryScreen } from "./summary.js";
import { clearMessage, describeProblem, el, handTotal, openDialog, showMessage } from "./ui.js";
import { cardList, cardWord } from "./words.js";
const PHASE_WORDS = {
    setup_settlement: "place a settlement",
    setup_road: "place a road",
    roll: "roll the dice",
    discard: "discard",
    move_robber: "move the robber",
    main: "build, trade or end the turn",
    finished: "nothing: the game is over",
};
/** Big targets and one kind of place at a time: a narrow screen or a touch screen. */
const narrow = window.matchMedia("(max-width: 40rem), (pointer: coarse)");
export class GameScreen {
    id;
    token;
    board = null;
    geo = null;
    view = null;
    actions = null;
    summary = null;
    summaryAsked = false;
    events = new Map();
    mode = { kind: "none" };
    chosen = null;
    lastPointer = "mouse";
    loading = false;
    again = false;
    retry = 0; /* the timer of a delayed refresh, 0 when none */
    sending = false;
    stream = null;
    root;
    svgRoot;
    chat;
    seatPanel = null;
    /** The rows' clocks and substitutes, and the panel to leave, invite, set quiet hours. */
    table;
    /** The version this browser last saw of the game, when the page opened (null: never). */
    seenBefore;
    constructor(id, token, host) {
        this.id = id;
        this.token = token;
        this.seenBefore = store.seen(id);
        this.svgRoot = document.createElementNS("http://www.w3.org/2000/svg", "svg");
        this.svgRoot.setAttribute("id", "board");
        this.svgRoot.addEventListener("pointerdown", (e) => (this.lastPointer = e.pointerType));
        this.chat = new Chat(id, token, null);
        this.root = el("div", { class: "game" }, el("section", { class: "board-panel", "aria-label": "Board" }, this.svgRoot, el("p", { id: "board-legend", class: "meta legend" }, "")), el("div", { class: "side" }, el("section", { id: "status", class: "panel", "aria-live": "polite" }), el("section", { id: "winner", class: "panel winner", hidden: true }), el("section", { id: "actions", class: "panel", "aria-label": "Your moves", hidden: token === null }), el("section", { id: "you", class: "panel", "aria-label": "Your hand", hidden: token === null }), el("section", { id: "trades", class: "panel", "aria-label": "Open offers" }), el("section", { id: "players", class: "panel", "aria-label": "Players" }), this.chat.root, el("section", { id: "log", class: "panel", "aria-label": "Game log" }, el("h2", { id: "log-title" }, "Log"), el("ol", { id: "log-list", tabindex: 0, "aria-labelledby": "log-title" })), el("div", { id: "fairness-slot" }), el("section", { id: "costs", class: "panel", "aria-label": "Building costs" }), el("div", { id: "seat-slot" })));
        this.table = new TableSeats({ game: id, token: () => this.token, changed: () => this.render(), refresh: () => void this.refresh() });
        this.root.querySelector(".side").append(this.table.root());
        host.replaceChildren(this.root);
        narrow.addEventListener("change", this.relayout);
        window.addEventListener("pagehide", this.remember);
        document.addEventListener("visibilitychange", this.remember);
    }
    async start() {
        try {
            this.board = await getBoard(this.id);
            this.geo = geometry(this.board);
        }
        catch (e) {
            showMessage(describeProblem(e));
            return;
        }
        await this.refresh();
        this.follow();
    }
    follow() {
        this.stream?.close();
        this.stream = new GameStream(`/v1/games/${encodeURIComponent(this.id)}/stream`, this.token, {
            event: (type, data) => this.onEvent(type, data),
            status: (up) => this.connection(up),
            end: () => this.connection(true, true),
        });
        this.stream.start();
    }
    stop() {
        if (this.view)
            store.setSeen(this.id, this.view.version);
        this.stream?.close();
        window.clearTimeout(this.ticker);
        window.clearTimeout(this.retry);
        this.table.stop();
        narrow.removeEventListener("change", this.relayout);
        window.removeEventListener("pagehide", this.remember);
        document.removeEventListener("visibilitychange", this.remember);
        signal.reset();
    }
    /** The version seen, kept for the next visit's marks (when the page is left or hidden). */
    remember = (e) => {
        if (this.view && (e.type === "pagehide" || document.hidden))
            store.setSeen(this.id, this.view.version);
    };
    relayout = () => {
        this.painted.delete("board");
        this.painted.delete("actions");
        this.render();
    };
    connection(up, ended = false) {
        const badge = document.getElementById("connection");
        if (!badge)
            return;
        badge.textContent = ended ? "Game over" : up ? "Live" : "Connection down: reconnecting…";
        badge.className = ended ? "connection ended" : up ? "connection up" : "connection down";
        if (up)
            void this.refresh();
    }
    onEvent(type, data) {
        if (type === "message") {
            const message = data && typeof data === "object" && "message" in data ? data.message : null;
            if (message)
                this.chat.add(message);
            return;
        }
        if (data && typeof data === "object" && "type" in data && "version" in data && type !== "your_turn") {
            const entry = data;
            if (!this.events.has(entry.version)) {
                this.events.set(entry.version, entry);
                this.appendLog(entry.version, entry);
            }
        }
        void this.refresh();
    }
    name = (seat) => {
        if (seat === null || seat === undefined)
            return "nobody";
        const player = this.view?.players.find((p) => p.seat === seat);
        return player ? player.name : `Seat ${seat + 1}`;
    };
    edition() {
        return this.view?.options.edition ?? "classic";
    }
    word(resource) {
        return cardList({ [resource]: 1 }, this.edition()).replace(/^1 /, "");
    }
    cards(counts) {
        return cardList(counts, this.edition());
    }
    context = {
        edition: "classic",
        name: (seat) => this.name(seat),
        hex: (id) => this.board?.hexes[id]?.name ?? `hex ${id}`,
        node: (id) => this.board?.nodes[id]?.name ?? `intersection ${id}`,
        edge: (id) => this.board?.edges[id]?.name ?? `path ${id}`,
    };
    describe(entry) {
        this.context.edition = this.edition();
        return describeEvent(entry, this.context);
    }
    appendLog(version, entry) {
        const list = document.getElementById("log-list");
        if (!list)
            return;
        const item = el("li", { "data-version": version }, el("span", { class: "v" }, String(version)), " ", el("span", { class: "line" }, this.describe(entry)));
        const after = [...list.children].find((li) => Number(li.getAttribute("data-version")) > version);
        list.insertBefore(item, after ?? null);
        list.scrollTop = list.scrollHeight;
    }
    /** Read the view and the actions (of one version) and draw them. */
    async refresh() {
        if (this.loading) {
            this.again = true;
            return;
        }
        this.loading = true;
        // When the game outruns five reads in a row, or a read is refused for now (429, 503, no
        // network), read again a little later: no later event may come to trigger it.
        let retryMs = null;
        try {
            for (let tries = 1;; tries++) {
                this.again = false;
                const [view, actions] = await Promise.all([
                    getGame(this.id, this.token),
                    this.token ? getActions(this.id, this.token) : Promise.resolve(null),
                ]);
                if (actions && actions.version !== view.version) {
                    if (tries < 5)
                        continue;
                    retryMs = 250;
                    break;
                }
                const firstView = this.view === null;
                this.view = view;
                this.actions = actions;
                if (firstView)
                    this.relabelLog();
                this.render();
                if (!this.again)
                    break;
                if (tries >= 5) {
                    retryMs = 250;
                    break;
                }
            }
        }
        catch (e) {
            showMessage(describeProblem(e));
            if (e instanceof ApiProblem && (e.status === 0 || e.status === 429 || e.status === 503))
                retryMs = 1000 * Math.max(1, e.retryAfter ?? 1);
        }
        finally {
            this.loading = false;
        }
        if (retryMs !== null && this.retry === 0)
            this.retry = window.setTimeout(() => {
                this.retry = 0;
                void this.refresh();
            }, retryMs);
    }
    relabelLog() {
        const list = document.getElementById("log-list");
        if (!list)
            return;
        for (const li of list.children) {
            const entry = this.events.get(Number(li.getAttribute("data-version")));
            const line = li.querySelector(".line");
            if (entry && line)
                line.textContent = this.describe(entry);
        }
    }
    list() {
        return this.actions?.actions ?? [];
    }
    of(type) {
        return this.list().filter((a) => a.type === type);
    }
    async send(move) {
        if (!move || !this.token || this.sending)
            return;
        this.sending = true;
        this.chosen = null;
        this.root.setAttribute("aria-busy", "true");
        try {
            await postMove(this.id, this.token, move);
            clearMessage();
        }
        catch (e) {
            showMessage(describeProblem(e));
        }
        finally {
            this.sending = false;
            this.root.removeAttribute("aria-busy");
            this.mode = { kind: "none" };
            document.getElementById("dialog")?.remove();
            await this.refresh();
        }
    }
    large() {
        return narrow.matches;
    }
    /** The marks of the board: the last move's place, the places of the moves since the last
     * visit (older ones paler), and a place chosen on a touch screen. */
    marks() {
        const placed = [...this.events.values()].sort((a, b) => a.version - b.version)
            .map((e) => ({ version: e.version, place: placeOf(e) })).filter((x) => x.place !== null);
        const marks = [];
        const last = placed[placed.length - 1];
        if (this.seenBefore !== null) {
            const since = placed.filter((x) => x.version > this.seenBefore && x !== last);
            since.forEach((x, i) => marks.push({ ...x.place, what: "recent", age: since.length > 1 ? 1 - i / (since.length - 1) : 0 }));
        }
        if (last)
            marks.push({ ...last.place, what: "last" });
        if (this.chosen)
            marks.push({ kind: this.chosen.kind, id: this.chosen.id, what: "chosen" });
        return marks;
    }
    render() {
        const view = this.view;
        if (!view || !this.board || !this.geo)
            return;
        if (this.mode.kind !== "none" && !this.modeStillLegal())
            this.mode = { kind: "none" };
        if (this.chosen && !this.chosen.moves.some((m) => this.list().some((a) => JSON.stringify(a) === JSON.stringify(m))))
            this.chosen = null;
        const targets = this.targets();
        const board = this.board, geo = this.geo;
        const actions = this.actions;
        const me = actions?.seat ?? null;
        this.chat.setSeat(me);
        this.chat.setSeats(view.players);
        if (me !== null && this.token) {
            // A link opened with its token: the browser now knows whose seat it keeps.
            const link = store.seatLink(this.id);
            if (link && link.token === this.token && link.seat !== me)
                store.setSeatLink(this.id, { seat: me, token: this.token, name: this.name(me) });
            const role = document.getElementById("role");
            if (role)
                role.textContent = `You play ${this.name(me)} (seat ${me + 1})`;
        }
        const marks = this.marks(), large = this.large();
        // A panel is drawn again only when what it shows changed: a button a person is about to
        // click must not be replaced under the pointer by an identical one.
        this.paint("board", [view.buildings, view.roads, view.robber, [...targets.node], [...targets.edge], [...targets.hex], marks, large], () => {
            drawBoard(this.svgRoot, board, geo, view, targets, (kind, id, e) => this.pick(kind, id, e), { large, marks });
            this.legend(marks);
        });
        this.paint("status", [view.version, actions?.waiting_for, view.deadline], () => this.renderStatus(view));
        this.paint("winner", [view.winner, view.players, this.summary !== null], () => this.renderWinner(view));
        if (this.token) {
            this.paint("hand", [view.you, view.options.edition], () => this.renderHand(view));
            this.paint("actions", [actions?.actions, view.you, this.mode, this.sending, this.chosen?.label ?? null, large], () => this.renderActions(view));
            if (me !== null && !this.seatPanel) {
                this.seatPanel = new SeatPanel({
                    game: this.id, seat: me, token: () => this.token ?? "",
                    away: () => this.view?.players.find((p) => p.seat === me)?.away === true,
                    replaced: (token) => this.replaced(me, token),
                    refresh: () => void this.refresh(),
                });
                document.getElementById("seat-slot")?.replaceChildren(this.seatPanel.root);
            }
            this.seatPanel?.update();
        }
        this.paint("trades", [view.trades, view.status, actions?.actions, this.sending, view.players.map((p) => p.name)], () => this.renderTrades(view));
        const waiting = actions?.waiting_for ?? view.pending.seats;
        this.table.update(view, me);
        const table = this.table;
        this.paint("players", [view.players, view.turn.seat, waiting, view.longest_road, view.largest_army, view.winner, view.deadline, table.signature()], () => document.getElementById("players").replaceChildren(...playersPanel(view, me, waiting, this.edition(), { tags: (p) => table.tags(view, p, waiting), toMove: (p) => table.toMove(view, p, waiting), held: (p) => table.held(p) })));
        this.paint("costs", [view.options.edition], () => document.getElementById("costs").replaceChildren(...costCard(this.edition())));
        this.paint("fairness", [view.fairness ?? null], () => document.getElementById("fairness-slot").replaceChildren(fairnessPanel(this.id, view.fairness)));
        const mine = me !== null && waiting.includes(me) && (view.winner === null || view.winner === undefined);
        signal.yourMove(mine, PHASE_WORDS[view.phase] ?? view.phase, this.id);
        if (view.status === "finished" && !this.summaryAsked) {
            this.summaryAsked = true;
            store.setSeen(this.id, view.version);
            void getSummary(this.id).then((summary) => {
                this.summary = summary;
                this.render();
            }, (e) => {
                // Asked again a little later: a refused or lost request must not leave the end
                // screen without its figures for good.
                showMessage(describeProblem(e));
                setTimeout(() => {
                    this.summaryAsked = false;
                    this.render();
                }, 3000);
            });
        }
        this.root.setAttribute("data-version", String(view.version));
        this.root.setAttribute("data-turn", String(view.turn.number));
    }
    /** The words under the board for its marks (the marks are drawn, not read). */
    legend(marks) {
        const box = document.getElementById("board-legend");
        if (!box)
            return;
        const last = [...this.events.values()].filter((e) => placeOf(e)).sort((a, b) => b.version - a.version)[0];
        const recent = marks.filter((m) => m.what === "recent").length;
        const parts = [];
        if (last)
            parts.push(`Last move (marked): ${this.describe(last)}`);
        if (recent)
            parts.push(`Dashed purple marks: ${recent} more ${recent === 1 ? "move" : "moves"} since your last visit.`);
        box.textContent = parts.join(" ");
    }
    replaced(seat, token) {
        this.token = token;
        const link = store.seatLink(this.id);
        store.setSeatLink(this.id, { seat, token, name: link?.name ?? this.name(seat) });
        history.replaceState(null, "", `#game=${encodeURIComponent(this.id)}`);
        this.follow();
    }
    painted = new Map();
    paint(panel, shown, draw) {
        const signature = JSON.stringify(shown);
        if (this.painted.get(panel) === signature)
            return;
        this.painted.set(panel, signature);
        draw();
    }
    modeStillLegal() {
        if (this.mode.kind === "knight")
            return this.of("play_knight").length > 0;
        if (this.mode.kind === "build")
            return this.buildKinds().includes(this.mode.what);
        return this.of("play_road_building").length > 0;
    }
    /** The kinds of pieces the seat may place now. */
    buildKinds() {
        const kinds = [];
        if (this.of("build_road").length)
            kinds.push("road");
        if (this.of("build_settlement").length)
            kinds.push("settlement");
        if (this.of("build_city").length)
            kinds.push("city");
        return kinds;
    }
    targets() {
        const t = noTargets();
        if (this.mode.kind === "knight") {
            for (const a of this.of("play_knight"))
                t.hex.set(a.hex, `Play the knight: move the robber to ${this.context.hex(a.hex)}`);
            return t;
        }
        if (this.mode.kind === "road1" || this.mode.kind === "road2") {
            const mode = this.mode;
            for (const a of this.of("play_road_building")) {
                if (mode.kind === "road1" && a.edges.length)
                    t.edge.set(a.edges[0], `First free road on ${this.context.edge(a.edges[0])}`);
                if (mode.kind === "road2" && a.edges[0] === mode.first && a.edges.length > 1)
                    t.edge.set(a.edges[1], `Second free road on ${this.context.edge(a.edges[1])}`);
            }
            return t;
        }
        // On a small or touch screen, one kind of place at a time: the seat chooses what to build.
        const oneAtATime = this.large() && this.buildKinds().length > 1;
        const mode = this.mode;
        const shows = (what) => mode.kind === "build" ? mode.what === what : !oneAtATime;
        if (shows("settlement"))
            for (const a of this.of("build_settlement"))
                t.node.set(a.node, `Build a settlement at ${this.context.node(a.node)}`);
        if (shows("city"))
            for (const a of this.of("build_city"))
                t.node.set(a.node, `Build a city at ${this.context.node(a.node)}`);
        if (shows("road"))
            for (const a of this.of("build_road"))
                t.edge.set(a.edge, `Build a road on ${this.context.edge(a.edge)}`);
        for (const a of this.of("move_robber"))
            t.hex.set(a.hex, `Move the robber to ${this.context.hex(a.hex)}`);
        return t;
    }
    /** A target was picked: moved at once with a mouse or the keyboard; on a touch screen the
     * place is marked and the move waits for its confirmation. */
    pick(kind, id, e) {
        const touch = (e.type === "click" && this.lastPointer === "touch") || (e.type !== "keydown" && window.matchMedia("(pointer: coarse)").matches);
        const moves = this.movesAt(kind, id);
        if (!moves.length)
            return;
        if (moves === ROAD_SECOND)
            return;
        if (touch) {
            this.chosen = { kind, id, moves, label: this.targets()[kind].get(id) ?? "" };
            this.render();
            document.getElementById("confirm-move")?.focus();
            return;
        }
        this.go(moves);
    }
    /** The moves a pick stands for (several: the robber's victims); ROAD_SECOND when it only
     * chose Road Building's first path. */
    movesAt(kind, id) {
        if (kind === "node") {
            return this.list().filter((x) => (x.type === "build_settlement" || x.type === "build_city") && x.node === id);
        }
        if (kind === "edge") {
            if (this.mode.kind === "road1") {
                const options = this.of("play_road_building").filter((a) => a.edges[0] === id);
                if (options.some((a) => a.edges.length > 1)) {
                    this.mode = { kind: "road2", first: id };
                    this.render();
                    return ROAD_SECOND;
                }
                return options.slice(0, 1);
            }
            if (this.mode.kind === "road2") {
                const first = this.mode.first;
                return this.of("play_road_building").filter((x) => x.edges[0] === first && x.edges[1] === id);
            }
            return this.of("build_road").filter((x) => x.edge === id);
        }
        const robberMoves = this.mode.kind === "knight" ? this.of("play_knight") : this.of("move_robber");
        return robberMoves.filter((a) => a.hex === id);
    }
    go(moves) {
        this.chosen = null;
        if (moves.length === 1)
            void this.send(moveOf(moves[0]));
        else if (moves.length > 1)
            this.chooseVictim(moves);
    }
    chooseVictim(options) {
        const buttons = options.map((a) => {
            const victim = "victim" in a ? a.victim : null;
            const button = el("button", { type: "button", class: "victim" }, victim === null || victim === undefined ? "Steal from nobody" : `Steal from ${this.name(victim)}`);
            button.addEventListener("click", () => void this.send(moveOf(a)));
            return button;
        });
        openDialog("Whom do you rob?", [el("div", { class: "choices" }, ...buttons)]);
    }
    renderStatus(view) {
        const box = document.getElementById("status");
        const waiting = this.actions?.waiting_for ?? view.pending.seats;
        const me = this.actions?.seat ?? null;
        let line;
        if (view.winner !== null && view.winner !== undefined)
            line = `${this.name(view.winner)} won the game.`;
        else if (me !== null && waiting.includes(me))
            line = `Your move: ${PHASE_WORDS[view.phase] ?? view.phase}.`;
        else
            line = `Waiting for ${waiting.map(this.name).join(", ") || "nobody"} to ${PHASE_WORDS[view.phase] ?? view.phase}.`;
        const roll = view.turn.dice ?? view.last_roll;
        const rolled = roll ? `${view.turn.dice ? "Dice" : "Last roll"}: ${roll[0]} + ${roll[1]} = ${roll[0] + roll[1]}.` : "";
        const dice = roll ? el("div", { class: "dice-row" }, diceFaces(roll, rolled)) : null;
        const clock = el("p", { id: "deadline", class: "deadline", hidden: !view.deadline });
        this.deadline = view.deadline ? Date.parse(view.deadline) : null;
        this.clock = clock;
        this.tick();
        box.replaceChildren(el("h2", {}, view.status === "setup" ? "Setting up" : view.status === "finished" ? "Game over" : `Turn ${view.turn.number}: ${this.name(view.turn.seat)}`), el("p", { id: "status-line" }, line + (rolled ? ` ${rolled}` : "")), ...(dice ? [dice] : []), clock, el("p", { class: "meta" }, `Version ${view.version} · Development cards left: ${view.development_cards_left}`));
    }
    deadline = null;
    clock = null;
    ticker = 0;
    /** The time left before the server moves for whoever it waits for (turn_timeout_s games). */
    tick() {
        window.clearTimeout(this.ticker);
        if (!this.clock || this.deadline === null)
            return;
        const left = Math.max(0, Math.round((this.deadline - Date.now()) / 1000));
        const h = Math.floor(left / 3600), m = Math.floor(left / 60) % 60, sec = left % 60;
        this.clock.textContent = `Time left for this move: ${h ? `${h} h ` : ""}${m} min ${String(sec).padStart(2, "0")} s` +
            (this.view?.options.on_timeout === "bot" ? " (then a bot plays it)."
                : this.view?.options.on_timeout === "skip" ? " (then the turn is skipped)." : " (then the server makes the default move).");
        if (left > 0)
            this.ticker = window.setTimeout(() => this.tick(), 1000);
    }
    /** One click: the rematch (the same seats, made once for the table), then its page. A
     *  seat held for this browser's player answers to the player's token; an open one is
     *  joined with the invite, which the waiting page finds kept. */
    async rematch() {
        if (!this.token)
            return;
        try {
            const made = await rematch(this.id, this.token);
            if ("invite" in made && made.invite)
                store.setInvite(made.id, made.invite);
            const player = store.player();
            const mine = "seats" in made ? made.seats.some((s) => s.player === player?.id) : player !== null;
            if (player && mine && !store.seatLink(made.id))
                store.setSeatLink(made.id, { seat: -1, token: player.token, name: "" });
            location.hash = `#game=${encodeURIComponent(made.id)}`;
        }
        catch (e) {
            showMessage(describeProblem(e));
        }
    }
    renderWinner(view) {
        const box = document.getElementById("winner");
        if (view.winner === null || view.winner === undefined) {
            box.hidden = true;
            return;
        }
        box.hidden = false;
        if (this.summary) {
            box.replaceChildren(summaryScreen(this.summary, this.edition(), this.actions?.seat ?? null, this.token ? () => void this.rematch() : null));
            return;
        }
        const standings = [...view.players].sort((a, b) => b.victory_points - a.victory_points);
        box.replaceChildren(el("h2", { id: "winner-title" }, view.winner === this.actions?.seat ? "You won!" : `${this.name(view.winner)} won!`), el("ol", {}, ...standings.map((p) => el("li", {}, `${p.name}: ${p.victory_points} ${p.victory_points === 1 ? "point" : "points"}`))), el("p", { class: "meta" }, "The game in figures is on its way…"));
    }
    renderHand(view) {
        const box = document.getElementById("you");
        const you = view.you;
        if (!you) {
            box.replaceChildren(el("h2", {}, "Your hand"), el("p", {}, "This link shows no hand."));
            return;
        }
        const dev = you.development_cards;
        const devRows = Object.entries(dev)
            .filter(([, c]) => c.count > 0)
            .map(([name, c]) => el("li", {}, `${cardWord(name, this.edition())}: ${c.count}${c.playable < c.count ? ` (${c.playable} playable now)` : ""}`));
        box.replaceChildren(el("h2", {}, `Your hand (${this.name(you.seat)}, ${you.victory_points} ${you.victory_points === 1 ? "point" : "points"})`), el("ul", { class: "hand" }, ...RESOURCES.map((r) => el("li", { class: `card res-${r}`, "data-resource": r }, el("span", { class: "count" }, String(you.resources[r])), ` ${this.word(r)}`))), el("h3", {}, "Development cards"), devRows.length ? el("ul", { class: "dev" }, ...devRows) : el("p", {}, "None."));
    }
    button(label, onClick, cls = "", id = null) {
        const b = el("button", { type: "button", class: cls || null, id }, label);
        b.disabled = this.sending;
        b.addEventListener("click", onClick);
        return b;
    }
    renderActions(view) {
        const box = document.getElementById("actions");
        const parts = [el("h2", {}, "Your moves")];
        const list = this.list();
        if (!list.length)
            parts.push(el("p", {}, view.winner !== null && view.winner !== undefined ? "The game is over." : "Nothing to do right now."));
        if (this.chosen) {
            const chosen = this.chosen;
            parts.push(el("div", { id: "confirm", class: "confirm", role: "group", "aria-label": "Confirm your move" }, el("p", { class: "prompt" }, `${chosen.label}?`), el("div", { class: "row" }, this.button("Confirm", () => this.go(chosen.moves), "primary", "confirm-move"), this.button("Cancel", () => { this.chosen = null; this.render(); }, "", "cancel-move"))));
        }
        const prompt = [];
        const kinds = this.buildKinds();
        if (this.mode.kind === "knight")
            prompt.push("Choose the hex for the robber (highlighted).");
        else if (this.mode.kind === "road1")
            prompt.push("Choose the path of your first free road (highlighted).");
        else if (this.mode.kind === "road2")
            prompt.push("Choose the path of your second free road (highlighted).");
        else if (this.mode.kind === "build")
            prompt.push(`Choose where to build the ${this.mode.what} (highlighted).`);
        else if (this.large() && kinds.length > 1)
            prompt.push("What do you build? Then choose its place on the board.");
        else {
            if (this.of("build_settlement").length)
                prompt.push("Highlighted intersections: build a settlement.");
            if (this.of("build_city").length)
                prompt.push("Highlighted settlements: upgrade to a city.");
            if (this.of("build_road").length)
                prompt.push("Highlighted paths: build a road.");
            if (this.of("move_robber").length)
                prompt.push("Choose a highlighted hex for the robber.");
        }
        if (this.chosen)
            prompt.length = 0;
        if (prompt.length)
            parts.push(el("p", { id: "prompt", class: "prompt" }, prompt.join(" ")));
        if (this.mode.kind !== "none")
            parts.push(this.button("Cancel", () => { this.mode = { kind: "none" }; this.chosen = null; this.render(); }));
        if (this.mode.kind === "none" && this.large() && kinds.length > 1) {
            const labels = { road: "Build a road", settlement: "Build a settlement", city: "Build a city" };
            parts.push(el("div", { class: "row" }, ...kinds.map((what) => this.button(labels[what], () => { this.mode = { kind: "build", what }; this.chosen = null; this.render(); }, "", `build-${what}`))));
        }
        const roll = this.of("roll")[0];
        if (roll) {
            if (roll.template) {
                const d1 = dieSelect("die1", "First die"), d2 = dieSelect("die2", "Second die");
                parts.push(el("div", { class: "row" }, d1.label, d2.label, this.button("Roll these dice", () => void this.send({ type: "roll", dice: [Number(d1.select.value), Number(d2.select.value)] }), "primary")));
            }
            else
                parts.push(this.button("Roll the dice", () => void this.send(moveOf(roll)), "primary"));
        }
        const discard = this.of("discard")[0];
        if (discard) {
            parts.push(this.button(`Discard ${discard.count} cards…`, () => this.discardDialog(discard.count, view), "primary"));
            if (!document.getElementById("dialog"))
                queueMicrotask(() => this.discardDialog(discard.count, view));
        }
        if (this.of("buy_development_card").length)
            parts.push(this.button("Buy a development card", () => void this.send({ type: "buy_development_card" })));
        if (this.of("play_knight").length && this.mode.kind === "none")
            parts.push(this.button("Play a knight", () => { this.mode = { kind: "knight" }; this.render(); }));
        if (this.of("play_road_building").length && this.mode.kind === "none")
            parts.push(this.button("Play Road Building", () => { this.mode = { kind: "road1" }; this.render(); }));
        const plenty = this.of("play_year_of_plenty");
        const plentyName = cardWord("year_of_plenty", this.edition());
        if (plenty.length)
            parts.push(this.button(`Play ${plentyName}…`, () => this.choiceDialog(`${plentyName}: take two cards`, plenty.map((a) => [this.cards(a.resources), a]))));
        const monopoly = this.of("play_monopoly");
        if (monopoly.length)
            parts.push(this.button("Play Monopoly…", () => this.choiceDialog("Monopoly: take every card of", monopoly.map((a) => [this.word(a.resource), a]))));
        const maritime = this.of("maritime_trade");
        if (maritime.length)
            parts.push(this.maritimeForm(maritime));
        if (this.of("offer_trade").length)
            parts.push(this.offerForm(view, null));
        const end = this.of("end_turn")[0];
        if (end)
            parts.push(this.button("End turn", () => void this.send({ type: "end_turn" }), "end-turn"));
        box.replaceChildren(...parts);
    }
    discardDialog(count, view) {
        const hand = view.you?.resources;
        if (!hand)
            return;
        const inputs = new Map();
        const total = el("p", { id: "discard-total" });
        const submit = el("button", { type: "button", class: "primary", id: "discard-submit" }, `Discard ${count}`);
        const update = () => {
            let sum = 0;
            for (const input of inputs.values())
                sum += Number(input.value) || 0;
            total.textContent = `Chosen ${sum} of ${count}.`;
            submit.disabled = sum !== count;
        };
        const rows = RESOURCES.filter((r) => hand[r] > 0).map((r) => {
            const input = el("input", { type: "number", min: 0, max: hand[r], value: 0, id: `discard-${r}`, name: r, inputmode: "numeric" });
            input.addEventListener("input", update);
            inputs.set(r, input);
            return el("label", { for: `discard-${r}`, class: "count-row" }, `${this.word(r)} (you have ${hand[r]})`, input);
        });
        submit.addEventListener("click", () => {
            const resources = {};
            for (const [r, input] of inputs)
                if (Number(input.value) > 0)
                    resources[r] = Number(input.value);
            void this.send({ type: "discard", resources });
        });
        update();
        openDialog(`Discard ${count} of your ${handTotal(hand)} cards`, [...rows, total, submit]);
    }
    choiceDialog(title, options) {
        openDialog(title, [el("div", { class: "choices" }, ...options.map(([label, action]) => {
                const b = el("button", { type: "button" }, label);
                b.addEventListener("click", () => void this.send(moveOf(action)));
                return b;
            }))]);
    }
    maritimeForm(options) {
        // One card at a time: for each resource given, the best rate listed.
        const single = options.filter((a) => Object.values(a.get).reduce((s, n) => s + (n ?? 0), 0) === 1);
        const giveOf = (a) => Object.keys(a.give).find((k) => a.give[k]);
        const getOf = (a) => Object.keys(a.get).find((k) => a.get[k]);
        const gives = [...new Set(single.map(giveOf))];
        const give = el("select", { id: "maritime-give" }, ...gives.map((r) => {
            const rate = Math.min(...single.filter((a) => giveOf(a) === r).map((a) => a.rate));
            return el("option", { value: r }, `${rate} ${this.word(r)}`);
        }));
        const get = el("select", { id: "maritime-get" }, ...RESOURCES.map((r) => el("option", { value: r }, `1 ${this.word(r)}`)));
        const trade = this.button("Trade with the bank", () => {
            const candidates = single.filter((a) => giveOf(a) === give.value && getOf(a) === get.value).sort((a, b) => a.rate - b.rate);
            if (candidates[0])
                void this.send(moveOf(candidates[0]));
            else
                showMessage(`The bank does not trade ${this.word(give.value)} for ${this.word(get.value)}.`);
        });
        return el("fieldset", { class: "maritime" }, el("legend", {}, "Trade with the bank"), el("label", { for: "maritime-give" }, "Give "), give, el("label", { for: "maritime-get" }, " for "), get, trade);
    }
    /** The offer form: a new offer (counter null) or a counter-offer to `counter`. */
    offerForm(view, counter) {
        const me = this.actions?.seat ?? -1;
        const prefix = counter ? `counter-${counter.id}` : "offer";
        const give = new Map(), want = new Map();
        const rows = RESOURCES.map((r) => {
            const g = el("input", { type: "number", min: 0, max: 19, value: counter ? (counter.want[r] ?? 0) : 0, id: `${prefix}-give-${r}`, "aria-label": `give ${this.word(r)}` });
            const w = el("input", { type: "number", min: 0, max: 19, value: counter ? (counter.give[r] ?? 0) : 0, id: `${prefix}-want-${r}`, "aria-label": `want ${this.word(r)}` });
            give.set(r, g);
            want.set(r, w);
            return el("tr", {}, el("th", { scope: "row" }, this.word(r)), el("td", {}, g), el("td", {}, w));
        });
        const others = view.players.filter((p) => p.seat !== me);
        const to = new Map();
        const toBoxes = counter ? [] : others.map((p) => {
            const box = el("input", { type: "checkbox", id: `${prefix}-to-${p.seat}`, checked: true });
            to.set(p.seat, box);
            return el("label", { for: `${prefix}-to-${p.seat}`, class: "to" }, box, ` ${p.name}`);
        });
        const submit = this.button(counter ? "Send counter-offer" : "Offer", () => {
            const counts = (inputs) => {
                const out = {};
                for (const [r, input] of inputs)
                    if (Number(input.value) > 0)
                        out[r] = Number(input.value);
                return out;
            };
            const chosen = [...to].filter(([, b]) => b.checked).map(([s]) => s);
            void this.send({
                type: "offer_trade", give: counts(give), want: counts(want),
                to: counter ? [counter.from] : chosen.length === others.length ? null : chosen,
                counter_to: counter ? counter.id : null,
            });
        }, "primary");
        return el("fieldset", { class: "offer", id: `${prefix}-form` }, el("legend", {}, counter ? `Counter-offer to ${this.name(counter.from)}` : "Offer a trade to other players"), el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "card"), el("th", {}, "you give"), el("th", {}, "you get"))), el("tbody", {}, ...rows)), toBoxes.length ? el("p", {}, "To: ", ...toBoxes) : null, submit);
    }
    /** Open offers, one item per trade, kept while its buttons stay the same (only its text is
     * updated as other seats answer), so a button or a half-written counter-offer is not
     * replaced under the person using it. */
    tradeItems = new Map();
    renderTrades(view) {
        const box = document.getElementById("trades");
        const me = this.actions?.seat ?? null;
        const items = view.trades.map((t) => {
            const mine = this.list().filter((a) => "trade" in a && a.trade === t.id);
            // A counter-offer answers an offer this seat is asked about (it may still accept or decline it).
            const addressedToMe = me !== null && t.from !== me && t.counter_to === null &&
                mine.some((a) => a.type === "accept_trade" || a.type === "decline_trade");
            const signature = JSON.stringify([mine, addressedToMe, this.sending]);
            const text = `${t.counter_to ? "Counter-offer" : "Offer"} ${t.id}: ${this.name(t.from)} gives ${this.cards(t.give)} for ${this.cards(t.want)}, to ${t.to.map(this.name).join(", ")}.`;
            const meta = `Accepted: ${t.accepted.map(this.name).join(", ") || "nobody yet"} · Declined: ${t.declined.map(this.name).join(", ") || "nobody"}`;
            const kept = this.tradeItems.get(t.id);
            if (kept && kept.buttons === signature) {
                kept.item.querySelector(".trade-text").textContent = text;
                kept.item.querySelector(".meta").textContent = meta;
                return kept.item;
            }
            const buttons = [];
            for (const a of mine) {
                if (a.type === "accept_trade")
                    buttons.push(this.button("Accept", () => void this.send(moveOf(a))));
                if (a.type === "decline_trade")
                    buttons.push(this.button("Decline", () => void this.send(moveOf(a))));
                if (a.type === "withdraw_trade")
                    buttons.push(this.button("Withdraw", () => void this.send(moveOf(a))));
                if (a.type === "confirm_trade")
                    buttons.push(this.button(a.with !== undefined && a.with !== null && t.counter_to === null ? `Trade with ${this.name(a.with)}` : "Confirm", () => void this.send(moveOf(a)), "primary"));
            }
            let counterSlot = null;
            if (addressedToMe) {
                counterSlot = el("div", { class: "counter-slot" });
                const slot = counterSlot;
                buttons.push(this.button("Counter-offer…", () => slot.replaceChildren(this.offerForm(view, t))));
            }
            const item = el("li", { class: "trade", "data-trade": t.id }, el("p", { class: "trade-text" }, text), el("p", { class: "meta" }, meta), buttons.length ? el("div", { class: "row" }, ...buttons) : null, counterSlot);
            this.tradeItems.set(t.id, { item, buttons: signature });
            return item;
        });
        for (const id of [...this.tradeItems.keys()])
            if (!view.trades.some((t) => t.id === id))
                this.tradeItems.delete(id);
        box.hidden = view.status === "finished";
        const heading = box.querySelector("h2") ?? el("h2", {}, "Open offers");
        const list = box.querySelector("ul.trades") ?? el("ul", { class: "trades" });
        if (items.length) {
            // Move kept items into place without detaching those already there.
            items.forEach((item, i) => {
                if (list.children[i] !== item)
                    list.insertBefore(item, list.children[i] ?? null);
            });
            while (list.children.length > items.length)
                list.lastChild.remove();
            if (box.firstChild !== heading || box.children[1] !== list)
                box.replaceChildren(heading, list);
        }
        else {
            box.replaceChildren(heading, el("p", {}, "None."));
        }
    }
}
/** movesAt's answer for a pick that only chose Road Building's first path. */
const ROAD_SECOND = [];
function dieSelect(id, label) {
    const select = el("select", { id }, ...[1, 2, 3, 4, 5, 6].map((n) => el("option", { value: n }, String(n))));
    return { label: el("label", { for: id }, `${label} `, select), select };
}
