/*
 * log.c - events to JSON and back (log.h): the stored log's format, the events a viewer is
 * shown, and replayed logs.
 *
 * event_members[] lists each event type's members once (all are written, so all are
 * required); the writer and the reader of each type sit in a switch of their own. Readers
 * trust nothing (codec/reader.h), so a value that passes is in range for the field it lands
 * in and apply_event_valid() only judges it against the game.
 *
 * The store keeps codec_payload_dump()'s text: codec_event_dump()'s, compact, members in a
 * fixed order, zero counts left out (an ordinary event is 30-80 bytes), without the "type"
 * the row keeps in a column. codec_event_parse() is its inverse: for any event e,
 * parse(dump(e)) rebuilds e byte for byte after event_init(), which is what lets a game be
 * replayed from its rows. Redacted events (view_event()) write null for the hidden resource
 * or card; reading null back gives RESOURCE_HIDDEN / DEVELOPMENT_HIDDEN, which
 * apply_event_valid() refuses, so a redacted log can be shown but not replayed.
 */
#include "codec/log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quiet.h"
#include "base/zone.h"
#include "codec/names.h"
#include "codec/fairness.h"
#include "codec/options.h"
#include "codec/reader.h"
#include "codec/text.h"
#include "codec/writer.h"
#include "engine/apply.h"
#include "engine/board.h"

#define CODEC_MAX_POINTS 30
#define CODEC_MAX_VICTORY_POINT_CARDS 5

/* ---- events ---- */

#define EVENT_GAME_CREATED_ALLOWED "options board first_seat start_rolls fairness"

/* Members of each event type after "type"; every one is written, so every one is required. */
static const char *const event_members[EVENT_TYPE_COUNT] = {
	[EVENT_GAME_CREATED] = "options board first_seat start_rolls",
	[EVENT_SETTLEMENT_BUILT] = "seat node free",
	[EVENT_ROAD_BUILT] = "seat edge free",
	[EVENT_CITY_BUILT] = "seat node",
	[EVENT_RESOURCES_PRODUCED] = "gains",
	[EVENT_DICE_ROLLED] = "seat dice total",
	[EVENT_DISCARDED] = "seat resources",
	[EVENT_ROBBER_MOVED] = "seat hex",
	[EVENT_RESOURCE_STOLEN] = "seat victim resource",
	[EVENT_DEVELOPMENT_CARD_BOUGHT] = "seat card",
	[EVENT_KNIGHT_PLAYED] = "seat",
	[EVENT_ROAD_BUILDING_PLAYED] = "seat",
	[EVENT_YEAR_OF_PLENTY_PLAYED] = "seat resources",
	[EVENT_MONOPOLY_PLAYED] = "seat resource taken",
	[EVENT_MARITIME_TRADED] = "seat give get",
	[EVENT_TRADE_OFFERED] = "seat trade to give want counter_to",
	[EVENT_TRADE_ACCEPTED] = "seat trade",
	[EVENT_TRADE_DECLINED] = "seat trade",
	[EVENT_TRADE_WITHDRAWN] = "seat trade",
	[EVENT_TRADE_COMPLETED] = "seat with trade give get",
	[EVENT_LONGEST_ROAD_CHANGED] = "seat previous",
	[EVENT_LARGEST_ARMY_CHANGED] = "seat previous",
	[EVENT_TURN_ENDED] = "seat",
	[EVENT_GAME_WON] = "seat points victory_point_cards",
	[EVENT_SEAT_AWAY] = "seat",
	[EVENT_SEAT_BACK] = "seat",
	[EVENT_RESIGNED] = "seat",
	[EVENT_SEAT_RELEASED] = "seat",
	[EVENT_SEAT_SUBSTITUTED] = "seat",
	[EVENT_QUIET_HOURS_SET] = "seat timezone from to",
	[EVENT_QUIET_HOURS_CLEARED] = "seat",
};

static json_t *board_layout_new(const struct board_layout *board)
{
	json_t *object = writer_made(json_object());
	json_t *terrain = writer_made(json_array()), *numbers = writer_made(json_array()),
	       *harbors = writer_made(json_array());
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		writer_append_new(terrain, writer_name_or_null(&codec_terrain_names, board->terrain[hex]));
		writer_append_new(numbers, board->number[hex] ? json_integer(board->number[hex]) : json_null());
	}
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		writer_append_new(harbors, writer_text_or_null(codec_harbor_name(board->harbor[slot])));
	}
	writer_put_new(object, "terrain", terrain);
	writer_put_new(object, "numbers", numbers);
	writer_put_new(object, "harbors", harbors);
	return object;
}

/* Rounds of the first-player roll, up to the last round anyone rolled in. */
static json_t *start_rolls_new(const struct event_setup *setup)
{
	int seats = writer_clamp_seats(setup->options.seats);
	int rounds = 0;
	for (int round = 0; round < EVENT_START_ROLL_ROUNDS; round++)
		for (int s = 0; s < seats; s++)
			if (setup->start_rolls[round][s])
				rounds = round + 1;
	json_t *array = writer_made(json_array());
	for (int round = 0; round < rounds; round++) {
		json_t *totals = writer_made(json_array());
		for (int s = 0; s < seats; s++) {
			int total = setup->start_rolls[round][s];
			writer_append_new(totals, total ? json_integer(total) : json_null());
		}
		writer_append_new(array, totals);
	}
	return array;
}

/* game_created's "fairness": the scheme and the commitment (absent for no scheme). */
static json_t *commitment_new(const struct event_setup *setup)
{
	char hex[2 * EVENT_COMMITMENT_SIZE + 1];
	codec_hex(setup->commitment, EVENT_COMMITMENT_SIZE, hex);
	json_t *object = writer_made(json_object());
	writer_put_new(object, "scheme", writer_text_or_null(codec_fairness_name(setup->fairness)));
	writer_put_new(object, "commitment", writer_made(json_string(hex)));
	return object;
}

json_t *codec_event_to_json(const struct event *event, int seats)
{
	seats = writer_clamp_seats(seats);
	json_t *object = writer_made(json_object());
	writer_put_new(object, "type", writer_text_or_null(event_type_name(event->type)));
	switch (event->type) {
	case EVENT_GAME_CREATED:
		writer_put_new(object, "options", codec_game_options_to_json(&event->setup.options));
		writer_put_new(object, "board", board_layout_new(&event->setup.board));
		writer_put_new(object, "first_seat", writer_id_or_null(event->setup.first_seat));
		writer_put_new(object, "start_rolls", start_rolls_new(&event->setup));
		if (event->setup.fairness != EVENT_FAIRNESS_NONE)
			writer_put_new(object, "fairness", commitment_new(&event->setup));
		break;
	case EVENT_SETTLEMENT_BUILT:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_int(object, "node", event->node);
		writer_put_new(object, "free", json_boolean(event->free));
		break;
	case EVENT_ROAD_BUILT:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_int(object, "edge", event->edge);
		writer_put_new(object, "free", json_boolean(event->free));
		break;
	case EVENT_CITY_BUILT:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_int(object, "node", event->node);
		break;
	case EVENT_RESOURCES_PRODUCED: {
		json_t *gains = writer_made(json_array());
		for (int s = 0; s < seats; s++)
			writer_append_new(gains, writer_resource_map_new(event->gains[s], 0));
		writer_put_new(object, "gains", gains);
		break;
	}
	case EVENT_DICE_ROLLED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "dice", writer_dice_new(event->dice));
		writer_put_int(object, "total", event->dice[0] + event->dice[1]);
		break;
	case EVENT_DISCARDED:
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "resources", writer_resource_map_new(event->resources, 0));
		break;
	case EVENT_ROBBER_MOVED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_int(object, "hex", event->hex);
		break;
	case EVENT_RESOURCE_STOLEN:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "victim", writer_id_or_null(event->other));
		writer_put_new(object, "resource", writer_text_or_null(resource_name(event->resource)));
		break;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "card", writer_text_or_null(development_card_name(event->card)));
		break;
	case EVENT_MONOPOLY_PLAYED: {
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "resource", writer_text_or_null(resource_name(event->resource)));
		json_t *taken = writer_made(json_array());
		for (int s = 0; s < seats; s++) {
			int count = event->resource < RESOURCE_COUNT ? event->gains[s][event->resource] : 0;
			writer_append_new(taken, json_integer(count));
		}
		writer_put_new(object, "taken", taken);
		break;
	}
	case EVENT_MARITIME_TRADED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "give", writer_resource_map_new(event->give, 0));
		writer_put_new(object, "get", writer_resource_map_new(event->want, 0));
		break;
	case EVENT_TRADE_OFFERED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_int(object, "trade", event->trade);
		writer_put_new(object, "to", writer_seat_list_new(event->to));
		writer_put_new(object, "give", writer_resource_map_new(event->give, 0));
		writer_put_new(object, "want", writer_resource_map_new(event->want, 0));
		writer_put_new(object, "counter_to", event->counter_to ? json_integer(event->counter_to) : json_null());
		break;
	case EVENT_TRADE_ACCEPTED:
	case EVENT_TRADE_DECLINED:
	case EVENT_TRADE_WITHDRAWN:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_int(object, "trade", event->trade);
		break;
	case EVENT_TRADE_COMPLETED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "with", writer_id_or_null(event->other));
		writer_put_int(object, "trade", event->trade);
		writer_put_new(object, "give", writer_resource_map_new(event->give, 0));
		writer_put_new(object, "get", writer_resource_map_new(event->want, 0));
		break;
	case EVENT_LONGEST_ROAD_CHANGED:
	case EVENT_LARGEST_ARMY_CHANGED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "previous", writer_id_or_null(event->other));
		break;
	case EVENT_KNIGHT_PLAYED:
	case EVENT_ROAD_BUILDING_PLAYED:
	case EVENT_TURN_ENDED:
	case EVENT_SEAT_AWAY:
	case EVENT_SEAT_BACK:
	case EVENT_RESIGNED:
	case EVENT_SEAT_RELEASED:
	case EVENT_SEAT_SUBSTITUTED:
	case EVENT_QUIET_HOURS_CLEARED:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		break;
	case EVENT_QUIET_HOURS_SET: {
		char zone[EVENT_ZONE_SIZE], from[8], to[8];
		memcpy(zone, event->quiet.zone, sizeof zone);
		zone[EVENT_ZONE_SIZE - 1] = '\0';
		snprintf(from, sizeof from, "%02d:%02d", event->quiet.from_min / 60 % 100, event->quiet.from_min % 60);
		snprintf(to, sizeof to, "%02d:%02d", event->quiet.to_min / 60 % 100, event->quiet.to_min % 60);
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_new(object, "timezone", writer_made(json_string(zone)));
		writer_put_new(object, "from", writer_made(json_string(from)));
		writer_put_new(object, "to", writer_made(json_string(to)));
		break;
	}
	case EVENT_GAME_WON:
		writer_put_new(object, "seat", writer_id_or_null(event->seat));
		writer_put_int(object, "points", event->points);
		writer_put_int(object, "victory_point_cards", event->victory_point_cards);
		break;
	default:
		break;
	}
	return object;
}

static int read_board_layout(const json_t *value, struct board_layout *board, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	if (!json_is_object(value))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "board",
				     "board must be an object {terrain, numbers, harbors}");
	if (!reader_check_members(value, "terrain numbers harbors", "terrain numbers harbors", 0, "board", "board",
				  error))
		return 0;
	const json_t *terrain = json_object_get(value, "terrain");
	const json_t *numbers = json_object_get(value, "numbers");
	const json_t *harbors = json_object_get(value, "harbors");
	if (!reader_array(terrain, "board.terrain", BOARD_HEXES, BOARD_HEXES, "terrain names", error) ||
	    !reader_array(numbers, "board.numbers", BOARD_HEXES, BOARD_HEXES, "number tokens (null on the desert)",
			  error) ||
	    !reader_array(harbors, "board.harbors", BOARD_HARBORS, BOARD_HARBORS, "harbor types", error))
		return 0;
	for (size_t hex = 0; hex < BOARD_HEXES; hex++) {
		if (!reader_name(json_array_get(terrain, hex), reader_path_index(path, "board.terrain", hex),
				 &codec_terrain_names, &board->terrain[hex], error))
			return 0;
		const json_t *number = json_array_get(numbers, hex);
		if (!json_is_null(number) && !reader_uint8(number, reader_path_index(path, "board.numbers", hex), 2, 12,
							   &board->number[hex], error))
			return 0;
	}
	for (size_t slot = 0; slot < BOARD_HARBORS; slot++) {
		const json_t *kind = json_array_get(harbors, slot);
		const char *name = json_is_string(kind) ? json_string_value(kind) : "";
		int harbor = codec_harbor_from_name(name);
		if (harbor < 0)
			return reader_refuse(error, CODEC_ERROR_INVALID_FIELD,
					     reader_path_index(path, "board.harbors", slot),
					     "%s must be \"3:1\" or a resource", path);
		board->harbor[slot] = (uint8_t)harbor;
	}
	return 1;
}

static int read_start_rolls(const json_t *value, struct event_setup *setup, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	int seats = setup->options.seats;
	if (!reader_array(value, "start_rolls", 0, EVENT_START_ROLL_ROUNDS, "rounds", error))
		return 0;
	size_t round;
	json_t *totals;
	json_array_foreach(value, round, totals)
	{
		reader_path_index(path, "start_rolls", round);
		if (!reader_array(totals, path, (size_t)seats, (size_t)seats,
				  "totals (one per seat, null when not rolled)", error))
			return 0;
		for (int s = 0; s < seats; s++) {
			char entry[CODEC_PATH_SIZE];
			const json_t *total = json_array_get(totals, (size_t)s);
			snprintf(entry, sizeof entry, "start_rolls[%zu][%d]", round, s);
			if (!json_is_null(total) &&
			    !reader_uint8(total, entry, 2, 12, &setup->start_rolls[round][s], error))
				return 0;
		}
	}
	return 1;
}

/* game_created's optional "fairness" (absent or null: no scheme). */
static int read_commitment(const json_t *value, struct event_setup *setup, struct codec_error *error)
{
	if (!value || json_is_null(value))
		return 1;
	if (!json_is_object(value))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "fairness", "fairness must be an object");
	if (!reader_check_members(value, "scheme commitment", "scheme commitment", 0, "fairness", "fairness", error))
		return 0;
	int scheme = codec_fairness_from_name(json_string_value(json_object_get(value, "scheme")));
	if (scheme <= EVENT_FAIRNESS_NONE)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "fairness.scheme",
				     "fairness.scheme must be \"catan-fair-1\"");
	if (!codec_hex_read(json_string_value(json_object_get(value, "commitment")), setup->commitment,
			    EVENT_COMMITMENT_SIZE))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "fairness.commitment",
				     "fairness.commitment must be 64 hex digits (a SHA-256)");
	setup->fairness = (uint8_t)scheme;
	return 1;
}

static int read_game_created(const json_t *json, struct event *out, struct codec_error *error)
{
	struct event_setup *setup = &out->setup;
	const json_t *options = json_object_get(json, "options");
	if (!json_is_object(options))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "options", "options must be an object");
	if (!reader_check_members(options, "seats layout start numbers edition dice first_seat",
				  "seats layout start numbers edition dice first_seat", 0, "options", "options", error))
		return 0;
	if (!reader_uint8(json_object_get(options, "seats"), "options.seats", GAME_MIN_SEATS, GAME_MAX_SEATS,
			  &setup->options.seats, error) ||
	    !codec_game_options_read(options, "options", 0, &setup->options, error) ||
	    !read_board_layout(json_object_get(json, "board"), &setup->board, error) ||
	    !reader_seat(json_object_get(json, "first_seat"), "first_seat", 0, &setup->first_seat, error))
		return 0;
	if (setup->first_seat >= setup->options.seats)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "first_seat",
				     "first_seat must be a seat of this game");
	return read_start_rolls(json_object_get(json, "start_rolls"), setup, error) &&
	       read_commitment(json_object_get(json, "fairness"), setup, error);
}

/* A per-seat array: `seats` entries when known (nonzero), else 3..4. */
static int read_per_seat(const json_t *value, const char *field, int seats, const char *what, struct codec_error *error)
{
	size_t low = seats ? (size_t)seats : GAME_MIN_SEATS, high = seats ? (size_t)seats : GAME_MAX_SEATS;
	return reader_array(value, field, low, high, what, error);
}

/* quiet_hours_set's "timezone" (a well-formed tz database name: whether this server has
 * its file is the service's concern), "from" and "to" ("HH:MM", different). */
static int read_quiet_hours(const json_t *json, struct event_quiet *out, struct codec_error *error)
{
	const json_t *zone = json_object_get(json, "timezone");
	if (!json_is_string(zone) || json_string_length(zone) >= EVENT_ZONE_SIZE ||
	    strlen(json_string_value(zone)) != json_string_length(zone) || !zone_name_valid(json_string_value(zone)))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "timezone",
				     "timezone must be a name of the tz database, such as \"Europe/Berlin\"");
	const json_t *from = json_object_get(json, "from"), *to = json_object_get(json, "to");
	int from_min = json_is_string(from) ? quiet_parse_time(json_string_value(from)) : -1;
	if (from_min < 0)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "from",
				     "from must be \"HH:MM\", 00:00 to 23:59");
	int to_min = json_is_string(to) ? quiet_parse_time(json_string_value(to)) : -1;
	if (to_min < 0 || to_min == from_min)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "to",
				     "to must be \"HH:MM\", 00:00 to 23:59, another time than from");
	memcpy(out->zone, json_string_value(zone), json_string_length(zone));
	out->from_min = (uint16_t)from_min;
	out->to_min = (uint16_t)to_min;
	return 1;
}

static int read_event_fields(const json_t *json, struct event *out, int seats, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	const json_t *value;
	int type = out->type;
	if (type == EVENT_GAME_CREATED)
		return read_game_created(json, out, error);
	if (type == EVENT_RESOURCES_PRODUCED) {
		value = json_object_get(json, "gains");
		if (!read_per_seat(value, "gains", seats, "resource maps (one per seat)", error))
			return 0;
		for (size_t s = 0; s < json_array_size(value); s++)
			if (!reader_resource_map(json_array_get(value, s), reader_path_index(path, "gains", s),
						 out->gains[s], error))
				return 0;
		return 1;
	}
	int nullable_seat = type == EVENT_LONGEST_ROAD_CHANGED || type == EVENT_LARGEST_ARMY_CHANGED;
	if (!reader_seat(json_object_get(json, "seat"), "seat", nullable_seat, &out->seat, error))
		return 0;
	switch (type) {
	case EVENT_SETTLEMENT_BUILT:
		return reader_int8(json_object_get(json, "node"), "node", 0, BOARD_NODES - 1, &out->node, error) &&
		       reader_bool(json_object_get(json, "free"), "free", &out->free, error);
	case EVENT_ROAD_BUILT:
		return reader_int8(json_object_get(json, "edge"), "edge", 0, BOARD_EDGES - 1, &out->edge, error) &&
		       reader_bool(json_object_get(json, "free"), "free", &out->free, error);
	case EVENT_CITY_BUILT:
		return reader_int8(json_object_get(json, "node"), "node", 0, BOARD_NODES - 1, &out->node, error);
	case EVENT_DICE_ROLLED: {
		json_int_t total = 0;
		if (!reader_dice(json_object_get(json, "dice"), "dice", out->dice, error) ||
		    !reader_integer(json_object_get(json, "total"), "total", 2, 12, &total, error))
			return 0;
		if (total != out->dice[0] + out->dice[1])
			return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "total",
					     "total must be the sum of the dice");
		return 1;
	}
	case EVENT_DISCARDED:
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		return reader_resource_map(json_object_get(json, "resources"), "resources", out->resources, error);
	case EVENT_ROBBER_MOVED:
		return reader_int8(json_object_get(json, "hex"), "hex", 0, BOARD_HEXES - 1, &out->hex, error);
	case EVENT_RESOURCE_STOLEN:
		if (!reader_seat(json_object_get(json, "victim"), "victim", 0, &out->other, error))
			return 0;
		value = json_object_get(json, "resource");
		if (json_is_null(value)) {
			out->resource = RESOURCE_HIDDEN;
			return 1;
		}
		return reader_resource(value, "resource", &out->resource, error);
	case EVENT_DEVELOPMENT_CARD_BOUGHT: {
		value = json_object_get(json, "card");
		int card = json_is_string(value) ? codec_development_from_name(json_string_value(value)) : -1;
		if (json_is_null(value))
			card = DEVELOPMENT_HIDDEN;
		else if (card < 0)
			return reader_refuse(
				error, CODEC_ERROR_INVALID_FIELD, "card",
				"card must be knight, road_building, year_of_plenty, monopoly, victory_point or null");
		out->card = (uint8_t)card;
		return 1;
	}
	case EVENT_MONOPOLY_PLAYED:
		if (!reader_resource(json_object_get(json, "resource"), "resource", &out->resource, error))
			return 0;
		value = json_object_get(json, "taken");
		if (!read_per_seat(value, "taken", seats, "counts (one per seat)", error))
			return 0;
		for (size_t s = 0; s < json_array_size(value); s++)
			if (!reader_uint8(json_array_get(value, s), reader_path_index(path, "taken", s), 0,
					  CODEC_MAX_COUNT, &out->gains[s][out->resource], error))
				return 0;
		return 1;
	case EVENT_MARITIME_TRADED:
		return reader_resource_map(json_object_get(json, "give"), "give", out->give, error) &&
		       reader_resource_map(json_object_get(json, "get"), "get", out->want, error);
	case EVENT_TRADE_OFFERED:
		return reader_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error) &&
		       reader_seat_list(json_object_get(json, "to"), "to", &out->to, error) &&
		       reader_resource_map(json_object_get(json, "give"), "give", out->give, error) &&
		       reader_resource_map(json_object_get(json, "want"), "want", out->want, error) &&
		       reader_trade_id(json_object_get(json, "counter_to"), "counter_to", 1, &out->counter_to, error);
	case EVENT_TRADE_ACCEPTED:
	case EVENT_TRADE_DECLINED:
	case EVENT_TRADE_WITHDRAWN:
		return reader_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error);
	case EVENT_TRADE_COMPLETED:
		return reader_seat(json_object_get(json, "with"), "with", 0, &out->other, error) &&
		       reader_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error) &&
		       reader_resource_map(json_object_get(json, "give"), "give", out->give, error) &&
		       reader_resource_map(json_object_get(json, "get"), "get", out->want, error);
	case EVENT_LONGEST_ROAD_CHANGED:
	case EVENT_LARGEST_ARMY_CHANGED:
		return reader_seat(json_object_get(json, "previous"), "previous", 1, &out->other, error);
	case EVENT_GAME_WON:
		return reader_uint8(json_object_get(json, "points"), "points", 0, CODEC_MAX_POINTS, &out->points,
				    error) &&
		       reader_uint8(json_object_get(json, "victory_point_cards"), "victory_point_cards", 0,
				    CODEC_MAX_VICTORY_POINT_CARDS, &out->victory_point_cards, error);
	case EVENT_QUIET_HOURS_SET:
		return read_quiet_hours(json, &out->quiet, error);
	default:
		return 1;
	}
}

/* `seats`: the game's seat count when known (per-seat arrays must match it), else 0.
 * `envelope`: members outside the event's shape are ignored (a log entry's "version"...). */
static int read_event(const json_t *json, struct event *out, int seats, int envelope, struct codec_error *error)
{
	int event_type;
	if (!reader_type(json, "an event", "event", event_type_from_name, &event_type, error))
		return 0;
	const char *members = event_members[event_type];
	char what[48];
	snprintf(what, sizeof what, "event %s", event_type_name(event_type));
	/* game_created's "fairness" is optional: logs written before it have none. */
	const char *allowed = event_type == EVENT_GAME_CREATED ? EVENT_GAME_CREATED_ALLOWED : members;
	if (!envelope && !reader_refuse_unknown_members(json, allowed, 1, "", what, error))
		return 0;
	if (!reader_require_members(json, members, "", what, error))
		return 0;
	event_init(out, (enum event_type)event_type);
	return read_event_fields(json, out, seats, error);
}

int codec_event_from_json(const json_t *json, struct event *out, struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	return read_event(json, out, 0, 0, error);
}

char *codec_event_dump(const struct event *event, int seats)
{
	json_t *object = codec_event_to_json(event, seats);
	char *text = json_dumps(object, JSON_COMPACT);
	json_decref(object);
	if (!text)
		abort();
	return text;
}

int codec_event_parse(const char *text, size_t size, struct event *out, struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	if (!text)
		return reader_refuse(error, CODEC_ERROR_INVALID_JSON, "", "no event text");
	json_error_t parse_error;
	json_t *json = json_loadb(text, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!json)
		return reader_refuse(error, CODEC_ERROR_INVALID_JSON, "", "invalid JSON at line %d, column %d: %s",
				     parse_error.line, parse_error.column, parse_error.text);
	int ok = codec_event_from_json(json, out, error);
	json_decref(json);
	return ok;
}

/* ---- payloads: events as the log's rows keep them ---- */

char *codec_payload_dump(const struct event *event, int seats)
{
	char *text = codec_event_dump(event, seats);
	/* The dump starts with {"type":"<name>" followed by ',' or '}'. */
	const char *name = event_type_name(event->type);
	size_t head = strlen("{\"type\":\"\"") + (name ? strlen(name) : 0);
	if (!name || strncmp(text, "{\"type\":\"", 9) != 0 || strlen(text) <= head)
		return text;
	char *rest = text + head;
	if (*rest == ',')
		rest++;
	size_t length = strlen(rest);
	memmove(text + 1, rest, length + 1);
	if (text[1] == '\0') {
		text[1] = '}';
		text[2] = '\0';
	}
	return text;
}

int codec_payload_parse(int type, const char *text, size_t size, struct event *out, struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	const char *name = event_type_name(type);
	if (!name)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "type", "no event type %d", type);
	if (!text)
		return reader_refuse(error, CODEC_ERROR_INVALID_JSON, "", "no payload");
	json_error_t parse_error;
	json_t *json = json_loadb(text, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!json)
		return reader_refuse(error, CODEC_ERROR_INVALID_JSON, "", "invalid JSON at line %d, column %d: %s",
				     parse_error.line, parse_error.column, parse_error.text);
	if (!json_is_object(json)) {
		json_decref(json);
		return reader_refuse(error, CODEC_ERROR_INVALID_JSON, "", "a stored payload must be a JSON object");
	}
	/* The database may reorder members (jsonb), so a typed payload is found by its member. */
	json_t *stored_type = json_object_get(json, "type");
	if (stored_type && !(json_is_string(stored_type) && strcmp(json_string_value(stored_type), name) == 0)) {
		json_decref(json);
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "type",
				     "the payload's type differs from the row's (%s)", name);
	}
	if (!stored_type)
		json_object_set_new(json, "type", json_string(name));
	int ok = codec_event_from_json(json, out, error);
	json_decref(json);
	return ok;
}

/* ---- replaying a log ---- */

static int replay_entry(const json_t *entry, size_t index, struct game *game, struct event *applied, char *message,
			size_t message_size)
{
	struct event event;
	struct codec_error error;
	int seats = game->phase == GAME_PHASE_NONE ? 0 : game->options.seats;
	if (!read_event(entry, &event, seats, 1, &error)) {
		snprintf(message, message_size, "event %zu: %s (%s%s%s)", index + 1, error.message,
			 codec_error_code_name(error.code), *error.field ? " at " : "", error.field);
		return 0;
	}
	const char *type = event_type_name(event.type);
	if ((event.type == EVENT_RESOURCE_STOLEN && event.resource == RESOURCE_HIDDEN) ||
	    (event.type == EVENT_DEVELOPMENT_CARD_BOUGHT && event.card == DEVELOPMENT_HIDDEN)) {
		snprintf(message, message_size,
			 "event %zu (%s): the %s is hidden (null): a redacted log cannot be replayed", index + 1, type,
			 event.type == EVENT_RESOURCE_STOLEN ? "stolen resource" : "card bought");
		return 0;
	}
	if (index == 0 && event.type != EVENT_GAME_CREATED) {
		snprintf(message, message_size, "event 1 is %s: a log starts with game_created", type);
		return 0;
	}
	if (!apply_event_valid(game, &event)) {
		snprintf(message, message_size, "event %zu (%s) cannot be applied to the game at version %u", index + 1,
			 type, (unsigned)game->version);
		return 0;
	}
	apply_event(game, &event);
	*applied = event;
	return 1;
}

int codec_replay_log(const char *text, size_t size, struct game *out, char *message, size_t message_size)
{
	return codec_replay_log_to(text, size, 0, out, NULL, 0, NULL, message, message_size);
}

int codec_replay_log_to(const char *text, size_t size, uint32_t version, struct game *out, struct event *recent,
			int recent_max, int *recent_count, char *message, size_t message_size)
{
	if (recent_count)
		*recent_count = 0;
	memset(out, 0, sizeof *out);
	json_error_t parse_error;
	json_t *root = text ? json_loadb(text, size, JSON_REJECT_DUPLICATES, &parse_error) : NULL;
	if (!root) {
		snprintf(message, message_size, "invalid JSON at line %d, column %d: %s", text ? parse_error.line : 0,
			 text ? parse_error.column : 0, text ? parse_error.text : "no text");
		/* jansson quotes the bytes near the error, cut inside a character after a bad escape. */
		text_make_valid(message);
		return 0;
	}
	const json_t *events = json_is_object(root) ? json_object_get(root, "events") : root;
	int ok = 0;
	if (!json_is_array(events))
		snprintf(message, message_size,
			 "an event log is an array of events or an object with an \"events\" array");
	else if (json_array_size(events) == 0)
		snprintf(message, message_size, "the event log is empty");
	else
		ok = 1;
	if (ok && version > json_array_size(events)) {
		snprintf(message, message_size, "version %u is beyond the log's last version %zu", (unsigned)version,
			 json_array_size(events));
		ok = 0;
	}
	size_t stop = version ? version : json_array_size(events);
	for (size_t i = 0; ok && i < stop; i++) {
		struct event applied;
		ok = replay_entry(json_array_get(events, i), i, out, &applied, message, message_size);
		if (ok && recent && recent_max > 0) {
			/* the last recent_max events, oldest first */
			if (*recent_count == recent_max) {
				memmove(recent, recent + 1, sizeof *recent * (size_t)(recent_max - 1));
				--*recent_count;
			}
			recent[(*recent_count)++] = applied;
		}
	}
	json_decref(root);
	if (!ok && message_size > 0)
		text_make_valid(message); /* message_size may cut a quoted refusal inside a character */
	return ok;
}
