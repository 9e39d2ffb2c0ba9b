export const RESOURCE_ORDER = ["brick", "lumber", "wool", "grain", "ore"];
const WORDS = {
    classic: { brick: "brick", lumber: "lumber", wool: "wool", grain: "grain", ore: "ore" },
    "2025": { brick: "brick", lumber: "wood", wool: "wool", grain: "wheat", ore: "ore" },
};
export function resourceWord(resource, edition) {
    return WORDS[edition][resource] ?? resource;
}
/** "1 point", "2 points", "0 points" (`many` for irregular plurals). */
export function plural(count, one, many = `${one}s`) {
    return `${count} ${count === 1 ? one : many}`;
}
/** "3 ore and 1 wool" (the API's resource order); "nothing" when empty. */
export function cardList(counts, edition) {
    const parts = [];
    for (const r of RESOURCE_ORDER) {
        const n = counts?.[r];
        if (n)
            parts.push(`${n} ${resourceWord(r, edition)}`);
    }
    if (!parts.length)
        return "nothing";
    return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}
export function cardTotal(counts) {
    let total = 0;
    for (const r of RESOURCE_ORDER)
        total += counts?.[r] ?? 0;
    return total;
}
const CARD_WORDS = {
    classic: { knight: "Knight", road_building: "Road Building", year_of_plenty: "Year of Plenty", monopoly: "Monopoly", victory_point: "Victory Point" },
    "2025": { knight: "Knight", road_building: "Road Building", year_of_plenty: "Invention", monopoly: "Monopoly", victory_point: "Victory Point" },
};
export function cardWord(card, edition) {
    return CARD_WORDS[edition][card] ?? card.replace(/_/g, " ");
}
export function longestRoad(edition) {
    return edition === "2025" ? "Longest Route" : "Longest Road";
}
/** What each piece costs (RULES.md 1), for the building-cost card. */
export const COSTS = [
    { what: "Road", cost: { brick: 1, lumber: 1 }, gives: "0 points" },
    { what: "Settlement", cost: { brick: 1, lumber: 1, wool: 1, grain: 1 }, gives: "1 point" },
    { what: "City", cost: { grain: 2, ore: 3 }, gives: "2 points" },
    { what: "Development card", cost: { wool: 1, grain: 1, ore: 1 }, gives: "a knight, a progress card or 1 point" },
];
