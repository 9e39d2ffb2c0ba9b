/*
 * shapes.c - the HTTP shapes of shapes.h: move bodies both ways, legal actions, the view
 * and the board.
 *
 * command_shapes[] lists each move's members once, and both the unknown-member and the
 * missing-member checks read it; the writer of each move sits in one switch beside its
 * reader, so a shape is changed in three places that are easy to find: the table, the
 * writer, the reader. A move whose type the request's path names (the trade routes) is read
 * by the same code: the named type and trade stand for the members the body leaves out.
 * The view and the board only write: they trust the engine's values.
 */
#include "codec/shapes.h"

#include <stdio.h>
#include <string.h>

#include "codec/names.h"
#include "codec/options.h"
#include "codec/places.h"
#include "codec/reader.h"
#include "codec/writer.h"
#include "engine/geometry.h"
#include "engine/rules.h"

/* ---- move bodies ---- */

/* Members of each move body, and which of them are required. Every move takes "template"
 * and ignores it, so that any action of GET /actions can be sent back as it is: only a
 * template needs completing, and sent as it is it is refused for what it lacks. */
static const struct {
	const char *members;
	const char *required;
} command_shapes[COMMAND_TYPE_COUNT] = {
	[COMMAND_BUILD_SETTLEMENT] = {"node template", "node"},
	[COMMAND_BUILD_ROAD] = {"edge template", "edge"},
	[COMMAND_BUILD_CITY] = {"node template", "node"},
	[COMMAND_ROLL] = {"dice template", ""},
	[COMMAND_DISCARD] = {"resources template", "resources"},
	[COMMAND_MOVE_ROBBER] = {"hex victim template", "hex"},
	[COMMAND_BUY_DEVELOPMENT_CARD] = {"template", ""},
	[COMMAND_PLAY_KNIGHT] = {"hex victim template", "hex"},
	[COMMAND_PLAY_ROAD_BUILDING] = {"edges template", ""},
	[COMMAND_PLAY_YEAR_OF_PLENTY] = {"resources template", "resources"},
	[COMMAND_PLAY_MONOPOLY] = {"resource template", "resource"},
	[COMMAND_MARITIME_TRADE] = {"give get rate template", "give get"},
	[COMMAND_END_TURN] = {"template", ""},
	[COMMAND_OFFER_TRADE] = {"give want to counter_to template", "give want"},
	[COMMAND_ACCEPT_TRADE] = {"trade template", "trade"},
	[COMMAND_DECLINE_TRADE] = {"trade template", "trade"},
	[COMMAND_CONFIRM_TRADE] = {"trade with template", "trade"},
	[COMMAND_WITHDRAW_TRADE] = {"trade template", "trade"},
};

/* 1 for the moves that answer an offer, whose "trade" a request's path may name. */
static int answers_offer(int type)
{
	return type == COMMAND_ACCEPT_TRADE || type == COMMAND_DECLINE_TRADE || type == COMMAND_CONFIRM_TRADE ||
	       type == COMMAND_WITHDRAW_TRADE;
}

/* The offer a move answers: `named` when the request names it (nonzero), else the body's. */
static int read_answered_trade(const json_t *json, uint16_t named, uint16_t *out, struct codec_error *error)
{
	if (named) {
		*out = named;
		return 1;
	}
	return reader_trade_id(json_object_get(json, "trade"), "trade", 0, out, error);
}

static int read_command_fields(const json_t *json, uint16_t named, struct command *out, struct codec_error *error)
{
	const json_t *value = json_object_get(json, "template");
	if (value && !json_is_boolean(value))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "template",
				     "template is true or false (and ignored)");
	switch (out->type) {
	case COMMAND_BUILD_SETTLEMENT:
	case COMMAND_BUILD_CITY:
		return reader_int8(json_object_get(json, "node"), "node", 0, BOARD_NODES - 1, &out->node, error);
	case COMMAND_BUILD_ROAD:
		return reader_int8(json_object_get(json, "edge"), "edge", 0, BOARD_EDGES - 1, &out->edge, error);
	case COMMAND_ROLL:
		value = json_object_get(json, "dice");
		return !value || json_is_null(value) || reader_dice(value, "dice", out->dice, error);
	case COMMAND_DISCARD:
	case COMMAND_PLAY_YEAR_OF_PLENTY:
		return reader_resource_map(json_object_get(json, "resources"), "resources", out->resources, error);
	case COMMAND_MOVE_ROBBER:
	case COMMAND_PLAY_KNIGHT:
		return reader_int8(json_object_get(json, "hex"), "hex", 0, BOARD_HEXES - 1, &out->hex, error) &&
		       reader_seat(json_object_get(json, "victim"), "victim", 1, &out->victim, error);
	case COMMAND_PLAY_ROAD_BUILDING: {
		char path[CODEC_PATH_SIZE];
		value = json_object_get(json, "edges");
		if (!value)
			return 1;
		if (!reader_array(value, "edges", 0, 2, "edge ids", error))
			return 0;
		out->edge_count = (uint8_t)json_array_size(value);
		for (size_t i = 0; i < out->edge_count; i++)
			if (!reader_int8(json_array_get(value, i), reader_path_index(path, "edges", i), 0,
					 BOARD_EDGES - 1, &out->edges[i], error))
				return 0;
		return 1;
	}
	case COMMAND_PLAY_MONOPOLY:
		return reader_resource(json_object_get(json, "resource"), "resource", &out->resource, error);
	case COMMAND_MARITIME_TRADE: {
		int8_t rate;
		if (!reader_resource_map(json_object_get(json, "give"), "give", out->give, error) ||
		    !reader_resource_map(json_object_get(json, "get"), "get", out->want, error))
			return 0;
		/* `rate` (as /actions writes it) only restates give / get; the engine judges it. */
		value = json_object_get(json, "rate");
		if (!value)
			return 1;
		if (!reader_int8(value, "rate", 2, 4, &rate, error))
			return 0;
		if (resource_total(out->give) != rate * resource_total(out->want))
			return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "rate",
					     "rate must be the cards given per card taken");
		return 1;
	}
	case COMMAND_OFFER_TRADE:
		if (!reader_resource_map(json_object_get(json, "give"), "give", out->give, error) ||
		    !reader_resource_map(json_object_get(json, "want"), "want", out->want, error))
			return 0;
		value = json_object_get(json, "to");
		if (value && !json_is_null(value) && !reader_seat_list(value, "to", &out->to, error))
			return 0;
		return reader_trade_id(json_object_get(json, "counter_to"), "counter_to", 1, &out->trade, error);
	case COMMAND_ACCEPT_TRADE:
	case COMMAND_DECLINE_TRADE:
	case COMMAND_WITHDRAW_TRADE:
		return read_answered_trade(json, named, &out->trade, error);
	case COMMAND_CONFIRM_TRADE:
		return read_answered_trade(json, named, &out->trade, error) &&
		       reader_seat(json_object_get(json, "with"), "with", 1, &out->with, error);
	default:
		return 1;
	}
}

/* Check the members of a body of move `type` against its shape ("type" too when `typed`),
 * then read them; `named` (nonzero) stands for the "trade" member of an answer to an offer. */
static int read_command(const json_t *json, int type, int typed, uint16_t named, struct command *out,
			struct codec_error *error)
{
	char what[48];
	snprintf(what, sizeof what, "move %s", command_type_name(type));
	const char *required = named ? "" : command_shapes[type].required;
	if (!reader_check_members(json, command_shapes[type].members, required, typed, "", what, error))
		return 0;
	command_init(out, (enum command_type)type);
	return read_command_fields(json, named, out, error);
}

int codec_command_from_json(const json_t *json, struct command *out, struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	int command_type;
	return reader_type(json, "a move body", "move", codec_command_type_from_name, &command_type, error) &&
	       read_command(json, command_type, 1, 0, out, error);
}

int codec_command_from_json_as(const json_t *json, enum command_type type, uint16_t trade, struct command *out,
			       struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	if ((unsigned)type >= COMMAND_TYPE_COUNT)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "type", "no move type %d", (int)type);
	if (!json_is_object(json))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "", "a move body must be a JSON object");
	/* The words are the HTTP API's: the handlers of the trade routes answered these before
	 * the reader took the type, and the answers stay as they were. */
	if (json_object_get(json, "type"))
		return reader_refuse(error, CODEC_ERROR_UNKNOWN_FIELD, "type",
				     "the path says what kind of move this is");
	uint16_t named = answers_offer(type) ? trade : 0;
	if (named && json_object_get(json, "trade"))
		return reader_refuse(error, CODEC_ERROR_UNKNOWN_FIELD, "trade", "the path names the trade");
	return read_command(json, type, 0, named, out, error);
}

json_t *codec_command_to_json(const struct command *command)
{
	json_t *object = writer_made(json_object());
	writer_put_new(object, "type", writer_text_or_null(command_type_name(command->type)));
	int is_template = command->is_template;
	if (is_template)
		writer_put_new(object, "template", json_true());
	switch (command->type) {
	case COMMAND_BUILD_SETTLEMENT:
	case COMMAND_BUILD_CITY:
		writer_put_int(object, "node", command->node);
		break;
	case COMMAND_BUILD_ROAD:
		writer_put_int(object, "edge", command->edge);
		break;
	case COMMAND_ROLL:
		if (command->dice[0] || command->dice[1])
			writer_put_new(object, "dice", writer_dice_new(command->dice));
		break;
	case COMMAND_DISCARD:
		if (is_template)
			writer_put_int(object, "count", command->count);
		if (!is_template || resource_total(command->resources))
			writer_put_new(object, "resources", writer_resource_map_new(command->resources, 0));
		break;
	case COMMAND_PLAY_YEAR_OF_PLENTY:
		writer_put_new(object, "resources", writer_resource_map_new(command->resources, 0));
		break;
	case COMMAND_MOVE_ROBBER:
	case COMMAND_PLAY_KNIGHT:
		writer_put_int(object, "hex", command->hex);
		writer_put_new(object, "victim", writer_id_or_null(command->victim));
		break;
	case COMMAND_PLAY_ROAD_BUILDING: {
		json_t *edges = writer_made(json_array());
		for (int i = 0; i < command->edge_count && i < 2; i++)
			writer_append_new(edges, json_integer(command->edges[i]));
		writer_put_new(object, "edges", edges);
		break;
	}
	case COMMAND_PLAY_MONOPOLY:
		writer_put_new(object, "resource", writer_text_or_null(resource_name(command->resource)));
		break;
	case COMMAND_MARITIME_TRADE: {
		writer_put_new(object, "give", writer_resource_map_new(command->give, 0));
		writer_put_new(object, "get", writer_resource_map_new(command->want, 0));
		/* The rate a listed trade is made at (several may apply: RULES.md 7); only a rate
		 * the parser reads back (2..4), so any command renders as a body that parses. */
		int given = resource_total(command->give), taken = resource_total(command->want);
		if (taken > 0 && given % taken == 0 && given / taken >= 2 && given / taken <= 4)
			writer_put_int(object, "rate", given / taken);
		break;
	}
	case COMMAND_OFFER_TRADE:
		if (!is_template || resource_total(command->give) || resource_total(command->want)) {
			writer_put_new(object, "give", writer_resource_map_new(command->give, 0));
			writer_put_new(object, "want", writer_resource_map_new(command->want, 0));
		}
		if (command->to)
			writer_put_new(object, "to", writer_seat_list_new(command->to));
		if (command->trade)
			writer_put_int(object, "counter_to", command->trade);
		break;
	case COMMAND_ACCEPT_TRADE:
	case COMMAND_DECLINE_TRADE:
	case COMMAND_WITHDRAW_TRADE:
		writer_put_int(object, "trade", command->trade);
		break;
	case COMMAND_CONFIRM_TRADE:
		writer_put_int(object, "trade", command->trade);
		if (command->with >= 0)
			writer_put_int(object, "with", command->with);
		break;
	default:
		break;
	}
	return object;
}

/* A template with what completes it: the seat's hand (what a discard or an offer is chosen
 * from), and for an offer the seat to address when only one may be. */
static json_t *template_new(const struct game *game, int seat, const struct command *move)
{
	json_t *object = codec_command_to_json(move);
	if (move->type == COMMAND_DISCARD || move->type == COMMAND_OFFER_TRADE)
		writer_put_new(object, "hand", writer_resource_map_new(game->players[seat].resources, 1));
	return object;
}

/* An offer template as the seat sends it: a new offer (to the active seat when the seat is
 * another: the only seat it may trade with), then one counter-offer template for each open
 * offer made to the seat, addressed to its maker (rules_decide() takes `counter_to` for any
 * offer addressed to the seat). */
static void append_offer_templates(json_t *array, const struct game *game, int seat, const struct command *move)
{
	struct command offer = *move;
	if (seat != game->turn_seat)
		offer.to = (uint8_t)(1u << game->turn_seat);
	writer_append_new(array, template_new(game, seat, &offer));
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *open = &game->offers[i];
		if (open->id == 0 || open->from == seat || !(open->to >> seat & 1u) || open->from < 0)
			continue;
		struct command counter = *move;
		counter.to = (uint8_t)(1u << open->from);
		counter.trade = open->id;
		writer_append_new(array, template_new(game, seat, &counter));
	}
}

json_t *codec_actions_to_json(const struct game *game, int seat, const struct command *moves, int count)
{
	json_t *array = writer_made(json_array());
	for (int i = 0; i < count; i++) {
		if (!moves[i].is_template)
			writer_append_new(array, codec_command_to_json(&moves[i]));
		else if (moves[i].type == COMMAND_OFFER_TRADE)
			append_offer_templates(array, game, seat, &moves[i]);
		else
			writer_append_new(array, template_new(game, seat, &moves[i]));
	}
	return array;
}

/* ---- the game view ---- */

static const char *view_status(int phase)
{
	switch (phase) {
	case GAME_PHASE_ROLL:
	case GAME_PHASE_DISCARD:
	case GAME_PHASE_MOVE_ROBBER:
	case GAME_PHASE_MAIN:
		return "playing";
	case GAME_PHASE_FINISHED:
		return "finished";
	default:
		return "setup";
	}
}

static json_t *view_turn_new(const struct game_view *view)
{
	json_t *turn = writer_made(json_object());
	writer_put_int(turn, "number", view->turn_number);
	writer_put_new(turn, "seat", writer_id_or_null(view->turn_seat));
	writer_put_new(turn, "rolled", json_boolean(view->rolled));
	writer_put_new(turn, "dice", view->rolled ? writer_dice_new(view->dice) : json_null());
	return turn;
}

static json_t *view_pieces_new(const struct game_view *view, int roads)
{
	json_t *array = writer_made(json_array());
	int count = roads ? BOARD_EDGES : BOARD_NODES;
	for (int id = 0; id < count; id++) {
		int owner = roads ? view->edge_owner[id] : view->node_owner[id];
		if (!owner)
			continue;
		json_t *piece = writer_made(json_object());
		writer_put_int(piece, roads ? "edge" : "node", id);
		writer_put_int(piece, "seat", owner - 1);
		if (!roads)
			writer_put_new(piece, "kind",
				       json_string(view->node_building[id] == BUILDING_CITY ? "city" : "settlement"));
		writer_append_new(array, piece);
	}
	return array;
}

static json_t *view_pending_new(const struct game_view *view)
{
	int seats = writer_clamp_seats(view->options.seats);
	json_t *pending = writer_made(json_object());
	json_t *waiting = writer_made(json_array()), *discards = writer_made(json_array());
	if (view->phase == GAME_PHASE_DISCARD) {
		for (int s = 0; s < seats; s++) {
			if (!view->players[s].discard_owed)
				continue;
			writer_append_new(waiting, json_integer(s));
			json_t *owed = writer_made(json_object());
			writer_put_int(owed, "seat", s);
			writer_put_int(owed, "count", view->players[s].discard_owed);
			writer_append_new(discards, owed);
		}
	} else if (view->phase != GAME_PHASE_NONE && view->phase != GAME_PHASE_FINISHED && view->turn_seat >= 0) {
		writer_append_new(waiting, json_integer(view->turn_seat));
	}
	writer_put_new(pending, "seats", waiting);
	writer_put_new(pending, "discards", discards);
	writer_put_new(pending, "setup_node",
		       view->phase == GAME_PHASE_SETUP_ROAD ? writer_id_or_null(view->setup_node) : json_null());
	return pending;
}

static json_t *view_players_new(const struct game_view *view, const char *const *names)
{
	json_t *players = writer_made(json_array());
	for (int s = 0; s < writer_clamp_seats(view->options.seats); s++) {
		const struct view_player *seen = &view->players[s];
		json_t *player = writer_made(json_object());
		writer_put_int(player, "seat", s);
		/* json_string() refuses text that is not UTF-8: such a name shows as null. */
		json_t *name = names && names[s] ? json_string(names[s]) : NULL;
		writer_put_new(player, "name", name ? name : json_null());
		writer_put_int(player, "victory_points", seen->victory_points);
		writer_put_int(player, "resource_count", seen->resource_count);
		writer_put_int(player, "development_card_count", seen->development_card_count);
		writer_put_int(player, "knights_played", seen->knights_played);
		writer_put_int(player, "longest_road_length", seen->road_length);
		writer_put_int(player, "roads_left", seen->roads_left);
		writer_put_int(player, "settlements_left", seen->settlements_left);
		writer_put_int(player, "cities_left", seen->cities_left);
		writer_append_new(players, player);
	}
	return players;
}

static json_t *view_trades_new(const struct game_view *view)
{
	json_t *trades = writer_made(json_array());
	for (int i = 0; i < view->offer_count && i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &view->offers[i];
		json_t *trade = writer_made(json_object());
		writer_put_int(trade, "id", offer->id);
		writer_put_new(trade, "from", writer_id_or_null(offer->from));
		writer_put_new(trade, "to", writer_seat_list_new(offer->to));
		writer_put_new(trade, "give", writer_resource_map_new(offer->give, 0));
		writer_put_new(trade, "want", writer_resource_map_new(offer->want, 0));
		writer_put_new(trade, "counter_to", offer->counter_to ? json_integer(offer->counter_to) : json_null());
		writer_put_new(trade, "accepted", writer_seat_list_new(offer->accepted));
		writer_put_new(trade, "declined", writer_seat_list_new(offer->declined));
		writer_append_new(trades, trade);
	}
	return trades;
}

static json_t *view_you_new(const struct view_you *you)
{
	json_t *object = writer_made(json_object());
	writer_put_int(object, "seat", you->seat);
	writer_put_new(object, "resources", writer_resource_map_new(you->resources, 1));
	json_t *cards = writer_made(json_object());
	for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++) {
		json_t *card = writer_made(json_object());
		writer_put_int(card, "count", you->development_cards[kind]);
		writer_put_int(card, "playable", kind == DEVELOPMENT_VICTORY_POINT ? 0 : you->playable[kind]);
		writer_put_new(cards, development_card_name(kind), card);
	}
	writer_put_new(object, "development_cards", cards);
	writer_put_int(object, "victory_points", you->victory_points);
	return object;
}

json_t *codec_view_to_json(const struct game_view *view, const char *const *names)
{
	json_t *object = writer_made(json_object());
	writer_put_int(object, "version", view->version);
	writer_put_new(object, "status", json_string(view_status(view->phase)));
	writer_put_new(object, "phase", writer_text_or_null(game_phase_name(view->phase)));
	writer_put_new(object, "options", codec_game_options_to_json(&view->options));
	writer_put_new(object, "turn", view_turn_new(view));
	writer_put_new(object, "last_roll", view->last_roll[0] ? writer_dice_new(view->last_roll) : json_null());
	writer_put_new(object, "first_seat", writer_id_or_null(view->first_seat));
	writer_put_new(object, "winner", writer_id_or_null(view->winner));
	writer_put_new(object, "robber", writer_id_or_null(view->robber));
	writer_put_new(object, "bank", writer_resource_map_new(view->bank, 1));
	writer_put_int(object, "development_cards_left", view->development_cards_left);
	writer_put_new(object, "buildings", view_pieces_new(view, 0));
	writer_put_new(object, "roads", view_pieces_new(view, 1));
	writer_put_new(object, "longest_road", writer_id_or_null(view->longest_road));
	writer_put_new(object, "largest_army", writer_id_or_null(view->largest_army));
	writer_put_new(object, "pending", view_pending_new(view));
	writer_put_new(object, "players", view_players_new(view, names));
	writer_put_new(object, "trades", view_trades_new(view));
	if (view->has_you)
		writer_put_new(object, "you", view_you_new(&view->you));
	return object;
}

/* ---- the board ---- */

static json_t *id_list_new(const int8_t *ids, int count)
{
	json_t *array = writer_made(json_array());
	for (int i = 0; i < count; i++)
		if (ids[i] >= 0)
			writer_append_new(array, json_integer(ids[i]));
	return array;
}

/* A projection coordinate rounded to 4 decimals (without libm: the values are small). */
static json_t *coordinate_new(double value)
{
	double scaled = value * 10000.0;
	long long rounded = (long long)(scaled < 0 ? scaled - 0.5 : scaled + 0.5);
	return writer_made(json_real((double)rounded / 10000.0));
}

static void put_point(json_t *object, struct geometry_point point)
{
	writer_put_new(object, "px", coordinate_new(point.x));
	writer_put_new(object, "py", coordinate_new(point.y));
}

json_t *codec_board_to_json(const struct board_layout *board, int edition)
{
	char name[PLACES_NAME_SIZE];
	json_t *object = writer_made(json_object());
	json_t *hexes = writer_made(json_array()), *nodes = writer_made(json_array());
	json_t *edges = writer_made(json_array()), *harbors = writer_made(json_array());
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		json_t *entry = writer_made(json_object());
		writer_put_int(entry, "id", hex);
		writer_put_int(entry, "q", board_hex_q[hex]);
		writer_put_int(entry, "r", board_hex_r[hex]);
		writer_put_new(entry, "terrain", writer_name_or_null(&codec_terrain_names, board->terrain[hex]));
		writer_put_new(entry, "number",
			       board->terrain[hex] == TERRAIN_DESERT || !board->number[hex]
				       ? json_null()
				       : json_integer(board->number[hex]));
		put_point(entry, geometry_hex_centre(hex));
		int corners[6];
		geometry_hex_corners(hex, corners);
		json_t *corner_list = writer_made(json_array());
		for (int k = 0; k < 6; k++)
			writer_append_new(corner_list, json_integer(corners[k]));
		writer_put_new(entry, "corners", corner_list);
		places_hex(board, edition, hex, name, sizeof name);
		writer_put_new(entry, "name", json_string(name));
		writer_append_new(hexes, entry);
	}
	for (int node = 0; node < BOARD_NODES; node++) {
		json_t *entry = writer_made(json_object());
		writer_put_int(entry, "id", node);
		writer_put_int(entry, "x", board_node_x[node]);
		writer_put_int(entry, "y", board_node_y[node]);
		put_point(entry, geometry_node_point(node));
		writer_put_new(entry, "hexes", id_list_new(board_node_hexes[node], 3));
		writer_put_new(entry, "neighbors", id_list_new(board_node_neighbors[node], 3));
		writer_put_new(entry, "edges", id_list_new(board_node_edges[node], 3));
		json_t *harbor = json_null();
		for (int slot = 0; slot < BOARD_HARBORS; slot++)
			if (board_harbor_nodes[slot][0] == node || board_harbor_nodes[slot][1] == node)
				harbor = writer_text_or_null(codec_harbor_name(board->harbor[slot]));
		writer_put_new(entry, "harbor", harbor);
		places_node(board, edition, node, name, sizeof name);
		writer_put_new(entry, "name", json_string(name));
		writer_append_new(nodes, entry);
	}
	for (int edge = 0; edge < BOARD_EDGES; edge++) {
		json_t *entry = writer_made(json_object());
		writer_put_int(entry, "id", edge);
		writer_put_new(entry, "nodes", id_list_new(board_edge_nodes[edge], 2));
		places_edge(board, edition, edge, name, sizeof name);
		writer_put_new(entry, "name", json_string(name));
		writer_append_new(edges, entry);
	}
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		json_t *entry = writer_made(json_object());
		writer_put_int(entry, "slot", slot);
		writer_put_new(entry, "type", writer_text_or_null(codec_harbor_name(board->harbor[slot])));
		writer_put_new(entry, "nodes", id_list_new(board_harbor_nodes[slot], 2));
		int facing;
		put_point(entry, geometry_harbor_anchor(slot, &facing));
		writer_put_int(entry, "facing", facing);
		places_harbor(board, edition, slot, name, sizeof name);
		writer_put_new(entry, "name", json_string(name));
		writer_append_new(harbors, entry);
	}
	struct geometry_box box = geometry_bounds();
	json_t *projection = writer_made(json_object());
	writer_put_int(projection, "hex_radius", 1);
	writer_put_new(projection, "min_x", coordinate_new(box.min_x));
	writer_put_new(projection, "min_y", coordinate_new(box.min_y));
	writer_put_new(projection, "max_x", coordinate_new(box.max_x));
	writer_put_new(projection, "max_y", coordinate_new(box.max_y));
	writer_put_new(object, "hexes", hexes);
	writer_put_new(object, "nodes", nodes);
	writer_put_new(object, "edges", edges);
	writer_put_new(object, "harbors", harbors);
	writer_put_new(object, "projection", projection);
	return object;
}
