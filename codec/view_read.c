/*
 * view_read.c - a view body and a board body back into a struct game_view (view_read.h).
 *
 * Every number is range-checked before it is stored (a seat in 0..seats-1 or null, a node
 * below BOARD_NODES, counts below 256), so whatever the input, the view is one the bots can
 * read without going out of bounds; a member that is missing or wrong stops the read and
 * is named in the error ("game.players[2].resource_count", "board.hexes[4].terrain").
 */
#include "codec/view_read.h"

#include <stdio.h>
#include <string.h>

#include "codec/names.h"
#include "codec/options.h"
#include "codec/reader.h"
#include "engine/rules.h"

struct view_reader {
	struct codec_error *error;
	int failed;
};

static int refuse(struct view_reader *reader, const char *field)
{
	if (!reader->failed)
		reader_refuse(reader->error, CODEC_ERROR_INVALID_FIELD, field, "%s is missing or out of range", field);
	reader->failed = 1;
	return 0;
}

/* An integer member in low..high, or (null_value >= low - 1 and null allowed) null. */
static int get_int(struct view_reader *reader, const json_t *object, const char *key, const char *path, long low,
		   long high, int nullable, long null_value)
{
	char field[96];
	snprintf(field, sizeof field, "%s.%s", path, key);
	const json_t *value = json_object_get(object, key);
	if (nullable && (!value || json_is_null(value)))
		return (int)null_value;
	if (!json_is_integer(value) || json_integer_value(value) < low || json_integer_value(value) > high)
		return refuse(reader, field);
	return (int)json_integer_value(value);
}

static void get_resources(struct view_reader *reader, const json_t *object, const char *key, const char *path,
			  uint8_t out[RESOURCE_COUNT])
{
	char field[96];
	snprintf(field, sizeof field, "%s.%s", path, key);
	const json_t *map = json_object_get(object, key);
	memset(out, 0, RESOURCE_COUNT);
	if (!json_is_object(map)) {
		refuse(reader, field);
		return;
	}
	for (int r = 0; r < RESOURCE_COUNT; r++)
		out[r] = (uint8_t)get_int(reader, map, resource_name(r), field, 0, 19, 1, 0);
}

static uint8_t get_seats(struct view_reader *reader, const json_t *object, const char *key, const char *path, int seats)
{
	char field[96];
	snprintf(field, sizeof field, "%s.%s", path, key);
	const json_t *list = json_object_get(object, key);
	if (!json_is_array(list))
		return (uint8_t)refuse(reader, field);
	uint8_t mask = 0;
	size_t index;
	const json_t *entry;
	json_array_foreach(list, index, entry)
	{
		if (!json_is_integer(entry) || json_integer_value(entry) < 0 || json_integer_value(entry) >= seats)
			return (uint8_t)refuse(reader, field);
		mask |= (uint8_t)(1u << json_integer_value(entry));
	}
	return mask;
}

static const json_t *get_array(struct view_reader *reader, const json_t *object, const char *key, const char *field)
{
	const json_t *array = json_object_get(object, key);
	if (!json_is_array(array))
		refuse(reader, field);
	return json_is_array(array) ? array : NULL;
}

static void read_board(struct view_reader *reader, const json_t *board, struct game_view *out)
{
	const json_t *hexes = get_array(reader, board, "hexes", "board.hexes");
	const json_t *harbors = get_array(reader, board, "harbors", "board.harbors");
	if (!hexes || !harbors || json_array_size(hexes) != BOARD_HEXES || json_array_size(harbors) != BOARD_HARBORS) {
		refuse(reader, "board");
		return;
	}
	char path[64];
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		const json_t *entry = json_array_get(hexes, (size_t)hex);
		snprintf(path, sizeof path, "board.hexes[%d]", hex);
		const json_t *terrain = json_object_get(entry, "terrain");
		int kind = json_is_string(terrain) ? codec_names_find(&codec_terrain_names, json_string_value(terrain))
						   : -1;
		if (kind < 0) {
			refuse(reader, path);
			return;
		}
		out->board.terrain[hex] = (uint8_t)kind;
		out->board.number[hex] = (uint8_t)get_int(reader, entry, "number", path, 2, 12, 1, 0);
	}
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		const json_t *type = json_object_get(json_array_get(harbors, (size_t)slot), "type");
		int kind = json_is_string(type) ? codec_harbor_from_name(json_string_value(type)) : -1;
		if (kind < 0) {
			snprintf(path, sizeof path, "board.harbors[%d].type", slot);
			refuse(reader, path);
			return;
		}
		out->board.harbor[slot] = (uint8_t)kind;
	}
}

static int phase_from_name(const json_t *value)
{
	for (int phase = 0; json_is_string(value) && phase < GAME_PHASE_COUNT; phase++)
		if (game_phase_name(phase) && strcmp(game_phase_name(phase), json_string_value(value)) == 0)
			return phase;
	return -1;
}

static void read_dice(struct view_reader *reader, const json_t *value, const char *field, uint8_t dice[2])
{
	dice[0] = dice[1] = 0;
	if (!value || json_is_null(value))
		return;
	if (!json_is_array(value) || json_array_size(value) != 2) {
		refuse(reader, field);
		return;
	}
	for (int i = 0; i < 2; i++) {
		const json_t *die = json_array_get(value, (size_t)i);
		if (!json_is_integer(die) || json_integer_value(die) < 1 || json_integer_value(die) > 6) {
			refuse(reader, field);
			return;
		}
		dice[i] = (uint8_t)json_integer_value(die);
	}
}

static void read_pieces(struct view_reader *reader, const json_t *view, struct game_view *out, int seats)
{
	const json_t *buildings = get_array(reader, view, "buildings", "game.buildings");
	const json_t *roads = get_array(reader, view, "roads", "game.roads");
	size_t index;
	const json_t *piece;
	char path[64];
	json_array_foreach(buildings, index, piece)
	{
		snprintf(path, sizeof path, "game.buildings[%d]", (int)index);
		int node = get_int(reader, piece, "node", path, 0, BOARD_NODES - 1, 0, 0);
		int seat = get_int(reader, piece, "seat", path, 0, seats - 1, 0, 0);
		const json_t *kind = json_object_get(piece, "kind");
		if (reader->failed || !json_is_string(kind)) {
			refuse(reader, path);
			return;
		}
		out->node_owner[node] = (uint8_t)(seat + 1);
		out->node_building[node] =
			strcmp(json_string_value(kind), "city") == 0 ? BUILDING_CITY : BUILDING_SETTLEMENT;
	}
	json_array_foreach(roads, index, piece)
	{
		snprintf(path, sizeof path, "game.roads[%d]", (int)index);
		int edge = get_int(reader, piece, "edge", path, 0, BOARD_EDGES - 1, 0, 0);
		int seat = get_int(reader, piece, "seat", path, 0, seats - 1, 0, 0);
		if (reader->failed)
			return;
		out->edge_owner[edge] = (uint8_t)(seat + 1);
	}
}

static void read_players(struct view_reader *reader, const json_t *view, struct game_view *out, int seats)
{
	const json_t *players = get_array(reader, view, "players", "game.players");
	if (!players || (int)json_array_size(players) != seats) {
		refuse(reader, "game.players");
		return;
	}
	char path[64];
	for (int s = 0; s < seats; s++) {
		const json_t *player = json_array_get(players, (size_t)s);
		struct view_player *seen = &out->players[s];
		snprintf(path, sizeof path, "game.players[%d]", s);
		seen->victory_points = (uint8_t)get_int(reader, player, "victory_points", path, 0, 30, 0, 0);
		seen->resource_count = (uint8_t)get_int(reader, player, "resource_count", path, 0, 95, 0, 0);
		seen->development_card_count =
			(uint8_t)get_int(reader, player, "development_card_count", path, 0, 25, 0, 0);
		seen->knights_played = (uint8_t)get_int(reader, player, "knights_played", path, 0, 14, 0, 0);
		seen->road_length = (uint8_t)get_int(reader, player, "longest_road_length", path, 0, GAME_ROADS, 0, 0);
		seen->roads_left = (uint8_t)get_int(reader, player, "roads_left", path, 0, GAME_ROADS, 0, 0);
		seen->settlements_left =
			(uint8_t)get_int(reader, player, "settlements_left", path, 0, GAME_SETTLEMENTS, 0, 0);
		seen->cities_left = (uint8_t)get_int(reader, player, "cities_left", path, 0, GAME_CITIES, 0, 0);
	}
	const json_t *discards =
		get_array(reader, json_object_get(view, "pending"), "discards", "game.pending.discards");
	size_t index;
	const json_t *owed;
	json_array_foreach(discards, index, owed)
	{
		snprintf(path, sizeof path, "game.pending.discards[%d]", (int)index);
		int seat = get_int(reader, owed, "seat", path, 0, seats - 1, 0, 0);
		int count = get_int(reader, owed, "count", path, 1, 95, 0, 0);
		if (!reader->failed)
			out->players[seat].discard_owed = (uint8_t)count;
	}
}

static void read_trades(struct view_reader *reader, const json_t *view, struct game_view *out, int seats)
{
	const json_t *trades = get_array(reader, view, "trades", "game.trades");
	if (trades && json_array_size(trades) > GAME_MAX_OFFERS) {
		refuse(reader, "game.trades");
		return;
	}
	size_t index;
	const json_t *trade;
	char path[64];
	json_array_foreach(trades, index, trade)
	{
		struct game_offer *offer = &out->offers[index];
		snprintf(path, sizeof path, "game.trades[%d]", (int)index);
		offer->id = (uint16_t)get_int(reader, trade, "id", path, 1, 65535, 0, 0);
		offer->from = (int8_t)get_int(reader, trade, "from", path, 0, seats - 1, 0, 0);
		offer->to = get_seats(reader, trade, "to", path, seats);
		offer->accepted = get_seats(reader, trade, "accepted", path, seats);
		offer->declined = get_seats(reader, trade, "declined", path, seats);
		offer->counter_to = (uint16_t)get_int(reader, trade, "counter_to", path, 1, 65535, 1, 0);
		get_resources(reader, trade, "give", path, offer->give);
		get_resources(reader, trade, "want", path, offer->want);
		out->offer_count = (uint8_t)(index + 1);
	}
}

static void read_you(struct view_reader *reader, const json_t *you, struct game_view *out, int seats)
{
	if (!json_is_object(you)) {
		refuse(reader, "game.you");
		return;
	}
	out->has_you = 1;
	out->you.seat = (int8_t)get_int(reader, you, "seat", "game.you", 0, seats - 1, 0, 0);
	out->viewer = out->you.seat;
	get_resources(reader, you, "resources", "game.you", out->you.resources);
	out->you.victory_points = (uint8_t)get_int(reader, you, "victory_points", "game.you", 0, 30, 0, 0);
	const json_t *cards = json_object_get(you, "development_cards");
	if (!json_is_object(cards)) {
		refuse(reader, "game.you.development_cards");
		return;
	}
	char path[80];
	for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++) {
		snprintf(path, sizeof path, "game.you.development_cards.%s", development_card_name(kind));
		const json_t *card = json_object_get(cards, development_card_name(kind));
		if (!json_is_object(card)) {
			refuse(reader, path);
			return;
		}
		out->you.development_cards[kind] = (uint8_t)get_int(reader, card, "count", path, 0, 25, 0, 0);
		out->you.playable[kind] = (uint8_t)get_int(reader, card, "playable", path, 0, 25, 1, 0);
	}
}

int codec_view_from_json(const json_t *view, const json_t *board, struct game_view *out, struct codec_error *error)
{
	struct codec_error ignored;
	struct view_reader reader = {error ? error : &ignored, 0};
	memset(out, 0, sizeof *out);
	out->viewer = VIEW_SPECTATOR;
	if (!json_is_object(view))
		return refuse(&reader, "game");
	if (!json_is_object(board))
		return refuse(&reader, "board");
	const json_t *options = json_object_get(view, "options");
	int seats = get_int(&reader, options, "seats", "game.options", GAME_MIN_SEATS, GAME_MAX_SEATS, 0, 0);
	if (reader.failed)
		return 0;
	rules_default_options(&out->options);
	out->options.seats = (uint8_t)seats;
	if (!codec_game_options_read(options, "game.options", 1, &out->options, reader.error))
		return 0;
	out->version = (uint32_t)get_int(&reader, view, "version", "game", 0, 1 << 30, 0, 0);
	int phase = phase_from_name(json_object_get(view, "phase"));
	if (phase < 0)
		return refuse(&reader, "game.phase");
	out->phase = (uint8_t)phase;
	const json_t *turn = json_object_get(view, "turn");
	out->turn_number = (uint16_t)get_int(&reader, turn, "number", "game.turn", 0, 65535, 0, 0);
	out->turn_seat = (int8_t)get_int(&reader, turn, "seat", "game.turn", 0, seats - 1, 1, -1);
	out->rolled = json_is_true(json_object_get(turn, "rolled"));
	read_dice(&reader, json_object_get(turn, "dice"), "game.turn.dice", out->dice);
	read_dice(&reader, json_object_get(view, "last_roll"), "game.last_roll", out->last_roll);
	out->first_seat = (int8_t)get_int(&reader, view, "first_seat", "game", 0, seats - 1, 1, -1);
	out->winner = (int8_t)get_int(&reader, view, "winner", "game", 0, seats - 1, 1, -1);
	out->robber = (int8_t)get_int(&reader, view, "robber", "game", 0, BOARD_HEXES - 1, 1, -1);
	out->longest_road = (int8_t)get_int(&reader, view, "longest_road", "game", 0, seats - 1, 1, -1);
	out->largest_army = (int8_t)get_int(&reader, view, "largest_army", "game", 0, seats - 1, 1, -1);
	out->development_cards_left = (uint8_t)get_int(&reader, view, "development_cards_left", "game", 0, 25, 0, 0);
	out->setup_node = (int8_t)get_int(&reader, json_object_get(view, "pending"), "setup_node", "game.pending", 0,
					  BOARD_NODES - 1, 1, -1);
	get_resources(&reader, view, "bank", "game", out->bank);
	read_board(&reader, board, out);
	read_pieces(&reader, view, out, seats);
	read_players(&reader, view, out, seats);
	read_trades(&reader, view, out, seats);
	read_you(&reader, json_object_get(view, "you"), out, seats);
	return !reader.failed;
}
