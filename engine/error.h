/*
 * error.h - every way the engine refuses a command, with the rule it names.
 *
 * One X-macro table gives each refusal its enum constant, its stable code (the `code` of
 * the API's problem+json, e.g. "distance_rule") and a human message. The API layer maps
 * codes to HTTP statuses in its own table; ERROR_KIND_INPUT marks malformed input (an id
 * out of range, an impossible die) as opposed to a well-formed move the rules refuse.
 */
#ifndef CATAN_ENGINE_ERROR_H
#define CATAN_ENGINE_ERROR_H

enum error_kind { ERROR_KIND_NONE, ERROR_KIND_INPUT, ERROR_KIND_RULE };

/* X(name, code, kind, message) */
#define ERROR_TABLE(X)                                                                                                 \
	X(OK, "ok", NONE, "accepted")                                                                                  \
	X(INVALID_COMMAND, "invalid_command", INPUT, "unknown move type")                                              \
	X(INVALID_SEAT, "invalid_seat", INPUT, "no such seat in this game")                                            \
	X(INVALID_NODE, "invalid_node", INPUT, "no such intersection (node ids are 0..53)")                            \
	X(INVALID_EDGE, "invalid_edge", INPUT, "no such path (edge ids are 0..71)")                                    \
	X(INVALID_HEX, "invalid_hex", INPUT, "no such hex (hex ids are 0..18)")                                        \
	X(INVALID_RESOURCE, "invalid_resource", INPUT, "no such resource")                                             \
	X(INVALID_DICE, "invalid_dice", INPUT, "each die must be 1..6")                                                \
	X(INVALID_OPTIONS, "invalid_options", INPUT, "the game options are not valid")                                 \
	X(GAME_NOT_STARTED, "game_not_started", RULE, "the game has not been created")                                 \
	X(GAME_FINISHED, "game_finished", RULE, "the game is over: no further move is accepted")                       \
	X(NOT_YOUR_TURN, "not_your_turn", RULE, "it is another seat's turn")                                           \
	X(SETUP_SETTLEMENT_EXPECTED, "setup_settlement_expected", RULE, "initial placement: place a settlement first") \
	X(SETUP_ROAD_EXPECTED, "setup_road_expected", RULE,                                                            \
	  "initial placement: place a road touching the settlement just placed")                                       \
	X(SETUP_ROAD_NOT_TOUCHING, "setup_road_not_touching", RULE,                                                    \
	  "an initial road must touch the settlement just placed")                                                     \
	X(NOT_DURING_SETUP, "not_during_setup", RULE,                                                                  \
	  "only settlements and roads are placed during initial placement")                                            \
	X(MUST_ROLL_FIRST, "must_roll_first", RULE, "roll the dice before building, trading or ending the turn")       \
	X(ALREADY_ROLLED, "already_rolled", RULE, "the dice are rolled once per turn")                                 \
	X(DICE_REQUIRED, "dice_required", RULE, "this game uses manual dice: supply the roll as dice [d1, d2]")        \
	X(DICE_NOT_MANUAL, "dice_not_manual", RULE, "this game rolls its own dice: omit dice")                         \
	X(DISCARDS_PENDING, "discards_pending", RULE, "players over 7 cards must discard before the game goes on")     \
	X(NO_DISCARD_OWED, "no_discard_owed", RULE, "you owe no discard")                                              \
	X(WRONG_DISCARD_COUNT, "wrong_discard_count", RULE,                                                            \
	  "discard exactly half of your resource cards, rounded down")                                                 \
	X(ROBBER_MUST_MOVE, "robber_must_move", RULE, "move the robber first")                                         \
	X(ROBBER_NOT_PENDING, "robber_not_pending", RULE, "the robber moves after a rolled 7 (or with a knight card)") \
	X(ROBBER_SAME_HEX, "robber_same_hex", RULE, "the robber must move to a different hex")                         \
	X(VICTIM_REQUIRED, "victim_required", RULE,                                                                    \
	  "choose a victim: an opponent with a building on that hex holds cards")                                      \
	X(INVALID_VICTIM, "invalid_victim", RULE,                                                                      \
	  "the victim must be an opponent with a building on that hex who holds a resource card")                      \
	X(INSUFFICIENT_RESOURCES, "insufficient_resources", RULE, "not enough resource cards")                         \
	X(NODE_OCCUPIED, "node_occupied", RULE, "that intersection is taken")                                          \
	X(EDGE_OCCUPIED, "edge_occupied", RULE, "that path is taken")                                                  \
	X(DISTANCE_RULE, "distance_rule", RULE, "a settlement needs all adjacent intersections empty")                 \
	X(NOT_CONNECTED, "not_connected", RULE,                                                                        \
	  "must connect to your own road (a settlement) or road, settlement or city (a road)")                         \
	X(ROAD_BLOCKED, "road_blocked", RULE, "a road may not connect through an opponent's settlement or city")       \
	X(NO_ROADS_LEFT, "no_roads_left", RULE, "all 15 of your roads are on the board")                               \
	X(NO_SETTLEMENTS_LEFT, "no_settlements_left", RULE, "all 5 of your settlements are on the board")              \
	X(NO_CITIES_LEFT, "no_cities_left", RULE, "all 4 of your cities are on the board")                             \
	X(NOT_YOUR_SETTLEMENT, "not_your_settlement", RULE, "a city replaces one of your own settlements")             \
	X(DECK_EMPTY, "deck_empty", RULE, "no development cards are left")                                             \
	X(NO_DEVELOPMENT_CARD, "no_development_card", RULE, "you hold no such development card")                       \
	X(DEV_CARD_BOUGHT_THIS_TURN, "dev_card_bought_this_turn", RULE,                                                \
	  "a development card cannot be played on the turn it was bought")                                             \
	X(DEV_CARD_ALREADY_PLAYED, "dev_card_already_played", RULE, "one development card per turn")                   \
	X(ROAD_BUILDING_EDGES, "road_building_edges", RULE,                                                            \
	  "place as many free roads as possible, up to 2, each by the normal rules")                                   \
	X(YEAR_OF_PLENTY_CARDS, "year_of_plenty_cards", RULE,                                                          \
	  "take exactly 2 resource cards (fewer only when the bank holds fewer)")                                      \
	X(BANK_EMPTY, "bank_empty", RULE, "the bank does not hold those cards")                                        \
	X(MARITIME_RATE, "maritime_rate", RULE,                                                                        \
	  "give one resource at a rate you have (4:1, 3:1 at a generic harbor, 2:1 at that resource's harbor), that "  \
	  "many cards for each card of one other resource")                                                            \
	X(SAME_RESOURCE, "same_resource", RULE, "a trade cannot exchange a resource for the same resource")            \
	X(TRADE_EMPTY_SIDE, "trade_empty_side", RULE, "each side of a trade gives at least one card: no gifts")        \
	X(INACTIVE_PLAYERS_CANNOT_TRADE, "inactive_players_cannot_trade", RULE,                                        \
	  "every trade includes the active player")                                                                    \
	X(TRADE_NOT_FOUND, "trade_not_found", RULE, "no such open offer this turn")                                    \
	X(TRADE_NOT_ADDRESSED, "trade_not_addressed", RULE, "that offer is not addressed to you")                      \
	X(TRADE_NOT_ACCEPTED, "trade_not_accepted", RULE, "that seat has not accepted the offer")                      \
	X(TRADE_ALREADY_ANSWERED, "trade_already_answered", RULE, "you already gave that answer to this offer")        \
	X(TRADE_NOT_YOURS, "trade_not_yours", RULE, "only the seat that made an offer may withdraw it")                \
	X(TRADE_CONFIRM_REQUIRED, "trade_confirm_required", RULE,                                                      \
	  "the active player completes a counter-offer with confirm")                                                  \
	X(TOO_MANY_OFFERS, "too_many_offers", RULE, "you have too many open offers this turn: withdraw one first")

enum error {
#define ERROR_ENUM(name, code, kind, message) ERROR_##name,
	ERROR_TABLE(ERROR_ENUM)
#undef ERROR_ENUM
		ERROR_COUNT
};

/* The stable snake_case code, the message, the kind. Out-of-range values give "unknown". */
const char *error_code(enum error error);
const char *error_message(enum error error);
enum error_kind error_kind(enum error error);

#endif
