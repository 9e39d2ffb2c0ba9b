import { COSTS, cardList, longestRoad, plural } from "./words.js";
import { el, seatClass } from "./ui.js";
export const POINTS_TO_WIN = 10;
export function playersPanel(view, me, waiting, edition, extras = null) {
    const rows = view.players.map((p) => {
        const tags = [];
        if (p.seat === me)
            tags.push(el("span", { class: "tag you" }, "you"));
        if (p.away)
            tags.push(el("span", { class: "tag" }, "away"));
        else if (p.bot && !extras?.held(p))
            tags.push(el("span", { class: "tag" }, "bot"));
        if (waiting.includes(p.seat) && view.winner === null)
            tags.push(el("span", { class: "tag to-move" }, "to move", ...(extras?.toMove(p) ?? [])));
        if (extras)
            tags.push(...extras.tags(p));
        // An award held takes the place of the figure it is won by, so a seat holding both
        // still fits its two lines on a phone.
        const knights = plural(p.knights_played, "knight");
        const army = view.largest_army === p.seat
            ? el("span", { class: "award", title: `Largest Army: ${knights} played` }, `Largest Army ${p.knights_played}`)
            : el("span", {}, knights);
        const road = view.longest_road === p.seat
            ? el("span", { class: "award", title: `${longestRoad(edition)}: ${p.longest_road_length} roads long` }, `${longestRoad(edition)} ${p.longest_road_length}`)
            : el("span", {}, `road ${p.longest_road_length}`);
        const points = p.victory_points;
        return el("li", { class: `player${p.seat === view.turn.seat ? " active" : ""}`, "data-seat": p.seat }, el("div", { class: "line1" }, el("span", { class: `swatch ${seatClass(p.seat)}`, "aria-hidden": "true" }), el("span", { class: "who" }, p.name), ...tags, el("span", { class: "points", title: `${plural(points, "point")} of the ${POINTS_TO_WIN} that win` }, el("strong", {}, String(points)), `/${POINTS_TO_WIN}`)), el("div", { class: "line2" }, el("span", {}, plural(p.resource_count, "card")), el("span", {}, `${p.development_card_count} dev.`), army, road));
    });
    return [el("h2", { id: "players-title" }, "Players"),
        el("p", { class: "meta" }, `${POINTS_TO_WIN} points win. Points shown are public (hidden victory point cards are not counted).`),
        el("ol", { class: "players", "aria-labelledby": "players-title" }, ...rows)];
}
export function costCard(edition) {
    return [el("h2", { id: "costs-title" }, "Building costs"),
        el("ul", { class: "costs", "aria-labelledby": "costs-title" }, ...COSTS.map((c) => el("li", {}, el("strong", {}, c.what), `: ${cardList(c.cost, edition)}`, el("span", { class: "meta" }, ` (${c.gives})`))))];
}
