import { cardList, cardTotal, longestRoad, plural } from "./words.js";
import { el, seatClass, svg } from "./ui.js";
const FLOWS = [
    ["gained", "Gained"],
    ["spent", "Spent"],
    ["stolen", "Stolen"],
    ["robbed", "Lost to the robber"],
    ["monopolized", "Lost to Monopoly"],
    ["discarded", "Discarded"],
    ["traded_in", "Traded in"],
    ["traded_out", "Traded out"],
];
function histogram(summary) {
    const counts = summary.dice.histogram;
    const most = Math.max(1, ...counts);
    const chart = svg("svg", { viewBox: "0 0 11 5.6", class: "histogram-chart", role: "img",
        "aria-label": `Dice rolled: ${counts.map((n, i) => `${i + 2}: ${n}`).join(", ")}` });
    counts.forEach((count, i) => {
        const height = (3.8 * count) / most;
        chart.append(svg("rect", { x: (i + 0.12).toFixed(2), y: (4.6 - height).toFixed(3), width: "0.76", height: height.toFixed(3),
            class: i + 2 === 7 ? "bar seven" : "bar" }));
        chart.append(svg("text", { x: (i + 0.5).toFixed(2), y: "5.4", class: "bar-label" }, String(i + 2)));
        if (count)
            chart.append(svg("text", { x: (i + 0.5).toFixed(2), y: (4.45 - height).toFixed(3), class: "bar-count" }, String(count)));
    });
    const list = el("ol", { class: "histogram", "aria-label": "Dice totals" }, ...counts.map((count, i) => el("li", { "data-total": i + 2 }, el("span", { class: "total" }, `${i + 2}:`), " ", el("span", { class: "count" }, String(count)))));
    return el("div", { class: "dice-summary" }, el("h3", {}, `The dice (${plural(summary.dice.rolls, "roll")})`), chart, list);
}
function rematchButton(onRematch) {
    if (!onRematch)
        return [];
    const button = el("button", { type: "button", id: "rematch" }, "Rematch");
    button.addEventListener("click", () => {
        button.setAttribute("disabled", "");
        onRematch();
    });
    return [button, " "];
}
/** `onRematch`: the table's one-click rematch (a seat's screen only). */
export function summaryScreen(summary, edition, mySeat, onRematch = null) {
    const winner = summary.seats.find((s) => s.seat === summary.winner);
    const title = winner ? (winner.seat === mySeat ? `You won with ${plural(winner.points.total, "point")}!`
        : `${winner.name} won with ${plural(winner.points.total, "point")}!`) : "The game is over.";
    const standings = [...summary.seats].sort((a, b) => b.points.total - a.points.total);
    const sources = [
        ["settlements", "Settlements"], ["cities", "Cities"], ["victory_point_cards", "Victory point cards"],
        ["longest_road", longestRoad(edition)], ["largest_army", "Largest Army"], ["total", "Total"]
    ];
    const head = (first) => el("thead", {}, el("tr", {}, el("th", { scope: "col" }, first), ...standings.map((s) => el("th", { scope: "col" }, el("span", { class: `swatch ${seatClass(s.seat)}`, "aria-hidden": "true" }), ` ${s.name}`))));
    const points = el("table", { class: "summary-points" }, el("caption", {}, "Points by source"), head("Source"), el("tbody", {}, ...sources.map(([key, label]) => el("tr", { class: key === "total" ? "total" : null }, el("th", { scope: "row" }, label), ...standings.map((s) => el("td", { "data-seat": s.seat, "data-points": key }, String(s.points[key])))))));
    const resources = el("table", { class: "summary-resources" }, el("caption", {}, "Resource cards over the game"), head("Cards"), el("tbody", {}, ...FLOWS.map(([flow, label]) => el("tr", {}, el("th", { scope: "row" }, label), ...standings.map((s) => el("td", { "data-seat": s.seat, "data-flow": flow, title: cardList(s.resources[flow], edition) }, String(cardTotal(s.resources[flow]))))))));
    return el("div", { class: "summary" }, el("h2", { id: "winner-title" }, title), el("p", { class: "meta" }, `${plural(summary.turns, "turn")}, ${plural(summary.dice.rolls, "roll")} of the dice.`), el("div", { class: "scroll", tabindex: 0, "aria-label": "Points by source" }, points), histogram(summary), el("div", { class: "scroll", tabindex: 0, "aria-label": "Resource cards" }, resources), el("p", {}, ...rematchButton(onRematch), el("a", { href: "#", class: "button-link" }, "Back to my games")));
}
