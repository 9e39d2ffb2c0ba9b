import { cardList, cardTotal, cardWord, longestRoad, plural, resourceWord } from "./words.js";
/** The place an event happened at, for the board's marks; null when none. */
export function placeOf(e) {
    switch (e.type) {
        case "settlement_built":
        case "city_built":
            return { kind: "node", id: e.node };
        case "road_built":
            return { kind: "edge", id: e.edge };
        case "robber_moved":
            return { kind: "hex", id: e.hex };
        default:
            return null;
    }
}
export function describeEvent(e, c) {
    const name = c.name;
    const cards = (counts) => cardList(counts, c.edition);
    switch (e.type) {
        case "game_created":
            return `The game was created; ${name(e.first_seat)} starts.`;
        case "settlement_built":
            return `${name(e.seat)} ${e.free ? "placed" : "built"} a settlement at ${c.node(e.node)}.`;
        case "road_built":
            return `${name(e.seat)} ${e.free ? "placed a free road" : "built a road"} on ${c.edge(e.edge)}.`;
        case "city_built":
            return `${name(e.seat)} built a city at ${c.node(e.node)}.`;
        case "resources_produced": {
            const gains = (e.gains ?? []).map((hand, seat) => [seat, hand]).filter(([, hand]) => cardTotal(hand) > 0)
                .map(([seat, hand]) => `${name(seat)} took ${cards(hand)}`);
            return gains.length ? `${gains.join("; ")}.` : "Nobody took anything.";
        }
        case "dice_rolled":
            return `${name(e.seat)} rolled ${e.dice[0]} + ${e.dice[1]} = ${e.total}${e.total === 7 ? ": the robber moves" : ""}.`;
        case "discarded":
            return `${name(e.seat)} discarded ${plural(cardTotal(e.resources), "card")}: ${cards(e.resources)}.`;
        case "robber_moved":
            return `${name(e.seat)} moved the robber to ${c.hex(e.hex)}.`;
        case "resource_stolen":
            return `${name(e.seat)} stole ${e.resource ? `1 ${resourceWord(e.resource, c.edition)}` : "a card"} from ${name(e.victim)}.`;
        case "development_card_bought":
            return `${name(e.seat)} bought a development card${e.card ? ` (${cardWord(e.card, c.edition)})` : ""}.`;
        case "knight_played":
            return `${name(e.seat)} played a Knight.`;
        case "road_building_played":
            return `${name(e.seat)} played Road Building.`;
        case "year_of_plenty_played":
            return `${name(e.seat)} played ${cardWord("year_of_plenty", c.edition)} and took ${cards(e.resources)}.`;
        case "monopoly_played": {
            const taken = e.taken ?? [];
            const total = taken.reduce((sum, n) => sum + (n ?? 0), 0);
            const from = taken.map((n, seat) => [seat, n ?? 0]).filter(([seat, n]) => n > 0 && seat !== e.seat)
                .map(([seat, n]) => `${n} from ${name(seat)}`);
            const word = resourceWord(e.resource, c.edition);
            return `${name(e.seat)} played Monopoly on ${word} and took ${total} ${word}${from.length ? ` (${from.join(", ")})` : ""}.`;
        }
        case "maritime_traded":
            return `${name(e.seat)} traded ${cards(e.give)} with the bank for ${cards(e.get)}.`;
        case "trade_offered": {
            const to = e.to && e.to.length ? ` to ${e.to.map(name).join(", ")}` : " to everyone";
            return e.counter_to
                ? `${name(e.seat)} made a counter-offer${to}: ${cards(e.give)} for ${cards(e.want)} (offer ${e.trade}).`
                : `${name(e.seat)} offered ${cards(e.give)} for ${cards(e.want)}${to} (offer ${e.trade}).`;
        }
        case "trade_accepted":
            return `${name(e.seat)} accepted offer ${e.trade}.`;
        case "trade_declined":
            return `${name(e.seat)} declined offer ${e.trade}.`;
        case "trade_withdrawn":
            return `${name(e.seat)} withdrew offer ${e.trade}.`;
        case "trade_completed":
            return `${name(e.seat)} traded ${cards(e.give)} with ${name(e.with)} for ${cards(e.get)}.`;
        case "longest_road_changed":
            return e.seat === null || e.seat === undefined ? `Nobody holds ${longestRoad(c.edition)} now.`
                : `${name(e.seat)} now holds ${longestRoad(c.edition)} (2 points).`;
        case "largest_army_changed":
            return e.seat === null || e.seat === undefined ? "Nobody holds Largest Army now." : `${name(e.seat)} now holds Largest Army (2 points).`;
        case "turn_ended":
            return `${name(e.seat)} ended the turn.`;
        case "game_won":
            return `${name(e.seat)} won the game with ${plural(e.points, "point")}!`;
        case "seat_away":
            return `${name(e.seat)} is away: a bot plays for them.`;
        case "seat_back":
            return `${name(e.seat)} is back.`;
        case "resigned":
            return `${name(e.seat)} resigned: a bot plays the seat.`;
        case "seat_released":
            return `${name(e.seat)} left: a bot holds the seat until a substitute takes it.`;
        case "seat_substituted":
            return `${name(e.seat)} took the seat as a substitute.`;
        case "quiet_hours_set":
            return `${name(e.seat)} set quiet hours: ${e.from} to ${e.to}, ${e.timezone} time.`;
        case "quiet_hours_cleared":
            return `${name(e.seat)} cleared their quiet hours.`;
    }
}
