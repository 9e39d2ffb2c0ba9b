// words.ts - the game in words people read: resources by the API's names (the 2025
// edition's in a 2025 game: wood, wheat, Invention, Longest Route), counts with their noun
// ("1 point", "3 points"), hands as lists ("3 ore and 1 wool"), building costs.
//
// Place names are not made here: the server publishes one name per hex, node, edge and
// harbor in GET .../board (codec/places.c), which the log, chat messages and mails share.
import type { Resource } from "./api.js";

export type Edition = "classic" | "2025";

export const RESOURCE_ORDER: readonly Resource[] = ["brick", "lumber", "wool", "grain", "ore"];

const WORDS: Record<Edition, Record<Resource, string>> = {
  classic: { brick: "brick", lumber: "lumber", wool: "wool", grain: "grain", ore: "ore" },
  "2025": { brick: "brick", lumber: "wood", wool: "wool", grain: "wheat", ore: "ore" },
};

export function resourceWord(resource: string, edition: Edition): string {
  return (WORDS[edition] as Record<string, string>)[resource] ?? resource;
}

/** "1 point", "2 points", "0 points" (`many` for irregular plurals). */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** "3 ore and 1 wool" (the API's resource order); "nothing" when empty. */
export function cardList(counts: Partial<Record<string, number | null | undefined>> | null | undefined, edition: Edition): string {
  const parts: string[] = [];
  for (const r of RESOURCE_ORDER) {
    const n = counts?.[r];
    if (n) parts.push(`${n} ${resourceWord(r, edition)}`);
  }
  if (!parts.length) return "nothing";
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

export function cardTotal(counts: Partial<Record<string, number | null | undefined>> | null | undefined): number {
  let total = 0;
  for (const r of RESOURCE_ORDER) total += counts?.[r] ?? 0;
  return total;
}

const CARD_WORDS: Record<Edition, Record<string, string>> = {
  classic: { knight: "Knight", road_building: "Road Building", year_of_plenty: "Year of Plenty", monopoly: "Monopoly", victory_point: "Victory Point" },
  "2025": { knight: "Knight", road_building: "Road Building", year_of_plenty: "Invention", monopoly: "Monopoly", victory_point: "Victory Point" },
};

export function cardWord(card: string, edition: Edition): string {
  return CARD_WORDS[edition][card] ?? card.replace(/_/g, " ");
}

export function longestRoad(edition: Edition): string {
  return edition === "2025" ? "Longest Route" : "Longest Road";
}

/** What each piece costs (RULES.md 1), for the building-cost card. */
export const COSTS: readonly { what: string; cost: Partial<Record<Resource, number>>; gives: string }[] = [
  { what: "Road", cost: { brick: 1, lumber: 1 }, gives: "0 points" },
  { what: "Settlement", cost: { brick: 1, lumber: 1, wool: 1, grain: 1 }, gives: "1 point" },
  { what: "City", cost: { grain: 2, ore: 3 }, gives: "2 points" },
  { what: "Development card", cost: { wool: 1, grain: 1, ore: 1 }, gives: "a knight, a progress card or 1 point" },
];
