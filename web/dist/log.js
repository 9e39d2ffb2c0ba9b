import { cards } from "./ui.js";
export function describeEvent(e, name) {
    switch (e.type) {
        case "game_created":
            return `The game was created; ${name(e.first_seat)} starts.`;
        case "settlement_built":
            return `${name(e.seat)} built a settlement${e.free ? " (free)" : ""}.`;
        case "road_built":
            return `${name(e.seat)} built a road${e.free ? " (free)" : ""}.`;
        case "city_built":
            return `${name(e.seat)} built a city.`;
        case "resources_produced": {
            const gains = Object.entries(e.gains ?? {}).map(([seat, hand]) => `${name(Number(seat))} ${cards(hand)}`);
            return gains.length ? `Production: ${gains.join("; ")}.` : "Nothing was produced.";
        }
        case "dice_rolled":
            return `${name(e.seat)} rolled ${e.dice[0]} + ${e.dice[1]} = ${e.total}.`;
        case "discarded":
            return `${name(e.seat)} discarded ${typeof e.resources === "number" ? `${e.resources} cards` : cards(e.resources)}.`;
        case "robber_moved":
            return `${name(e.seat)} moved the robber.`;
        case "resource_stolen":
            return `${name(e.seat)} stole ${e.resource ? "1 " + e.resource : "a card"} from ${name(e.victim)}.`;
        case "development_card_bought":
            return `${name(e.seat)} bought a development card${e.card ? ` (${e.card.replace(/_/g, " ")})` : ""}.`;
        case "knight_played":
            return `${name(e.seat)} played a knight.`;
        case "road_building_played":
            return `${name(e.seat)} played Road Building.`;
        case "year_of_plenty_played":
            return `${name(e.seat)} played Year of Plenty and took ${cards(e.resources)}.`;
        case "monopoly_played":
            return `${name(e.seat)} played Monopoly on ${e.resource} and took ${e.taken ?? 0}.`;
        case "maritime_traded":
            return `${name(e.seat)} traded ${cards(e.give)} with the bank for ${cards(e.get)}.`;
        case "trade_offered":
            return `${name(e.seat)} ${e.counter_to ? "counter-offered" : "offered"} ${cards(e.give)} for ${cards(e.want)}${e.to && e.to.length ? ` to ${e.to.map(name).join(", ")}` : ""}.`;
        case "trade_accepted":
            return `${name(e.seat)} accepted offer ${e.trade}.`;
        case "trade_declined":
            return `${name(e.seat)} declined offer ${e.trade}.`;
        case "trade_withdrawn":
            return `${name(e.seat)} withdrew offer ${e.trade}.`;
        case "trade_completed":
            return `${name(e.seat)} traded ${cards(e.give)} with ${name(e.with)} for ${cards(e.get)}.`;
        case "longest_road_changed":
            return e.seat === null || e.seat === undefined ? "Nobody holds Longest Road now." : `${name(e.seat)} now holds Longest Road.`;
        case "largest_army_changed":
            return e.seat === null || e.seat === undefined ? "Nobody holds Largest Army now." : `${name(e.seat)} now holds Largest Army.`;
        case "turn_ended":
            return `${name(e.seat)} ended the turn.`;
        case "game_won":
            return `${name(e.seat)} won the game with ${e.points} points!`;
        case "seat_away":
            return `${name(e.seat)} is away: a bot plays for them.`;
        case "seat_back":
            return `${name(e.seat)} is back.`;
    }
}
