/*
 * codec.c - the JSON codec: engine values to JSON and back, with jansson.
 *
 * Two directions with different duties:
 * - Output (events, views, the board, actions, options) trusts the engine: it builds jansson
 *   trees member by member, in the order codec.h and the API brief fix, and aborts on
 *   out-of-memory (jansson reports it as NULL; see made()).
 * - Input (move bodies, options, stored or uploaded events) trusts nothing. Every reader
 *   checks the JSON type and the range of each value before it is stored in a fixed-width
 *   engine field, refuses members the shape does not name, and reports the first fault as
 *   a struct codec_error: a stable code, the member's path ("resources.ore", "gains[2]")
 *   and a sentence. A value that passes is in range for the field it lands in, so
 *   apply_event_valid() and rules_decide() only judge it against the game.
 *
 * Shapes are table-driven where it helps: event_members[] and command_shapes[] list each
 * type's members once, and both the unknown-member and the missing-member checks read them.
 * The writers for each type sit in one switch beside the readers, so a shape is changed in
 * three places that are easy to find: the table, the writer, the reader.
 *
 * The store keeps codec_event_dump()'s text: compact, members in a fixed order, zero counts
 * left out, so an ordinary event is 30-80 bytes. codec_event_parse() is its inverse: for any
 * event e, parse(dump(e)) rebuilds e byte for byte after event_init(), which is what lets a
 * game be replayed from its rows. Redacted events (view_event()) write null for the hidden
 * resource or card; reading null back gives RESOURCE_HIDDEN / DEVELOPMENT_HIDDEN, which
 * apply_event_valid() refuses, so a redacted log can be shown but not replayed.
 */
#include "codec/codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/text.h"
#include "engine/apply.h"
#include "engine/board.h"
#include "engine/rules.h"

/* The most cards of one kind anyone can hold or move: all 19 of each of the 5 resources. */
#define CODEC_MAX_COUNT 95
#define CODEC_MAX_TRADE_ID 65535
#define CODEC_MAX_TURN_TIMEOUT_S 31536000
#define CODEC_MAX_POINTS 30
#define CODEC_MAX_VICTORY_POINT_CARDS 5
#define CODEC_PATH_SIZE 64

/* ---- names ---- */

static const char *const layout_names[] = {"beginner", "random"};
static const char *const start_names[] = {"draft", "fixed"};
static const char *const numbers_names[] = {"spiral", "random"};
static const char *const edition_names[] = {"classic", "2025"};
static const char *const dice_names[] = {"random", "manual"};
static const char *const on_timeout_names[] = {"default", "bot"};
static const char *const terrain_names[TERRAIN_COUNT] = {"hills", "forest", "pasture", "fields", "mountains", "desert"};
static const char *const generic_harbor_name = "3:1";

#define NAME_COUNT(names) ((int)(sizeof(names) / sizeof((names)[0])))

static const struct {
	const char *alias;
	int resource;
} resource_aliases[] = {
	{"wood", RESOURCE_LUMBER}, {"wheat", RESOURCE_GRAIN}, {"corn", RESOURCE_GRAIN},
	{"sheep", RESOURCE_WOOL},  {"clay", RESOURCE_BRICK},  {"loam", RESOURCE_BRICK},
};

int codec_resource_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (strcmp(name, resource_name(r)) == 0)
			return r;
	for (int i = 0; i < NAME_COUNT(resource_aliases); i++)
		if (strcmp(name, resource_aliases[i].alias) == 0)
			return resource_aliases[i].resource;
	return -1;
}

int codec_development_from_name(const char *name)
{
	if (!name)
		return -1;
	for (int card = 0; card < DEVELOPMENT_COUNT; card++)
		if (strcmp(name, development_card_name(card)) == 0)
			return card;
	if (strcmp(name, "invention") == 0)
		return DEVELOPMENT_YEAR_OF_PLENTY;
	return -1;
}

static int name_index(const char *const *names, int count, const char *name)
{
	for (int i = 0; i < count; i++)
		if (strcmp(names[i], name) == 0)
			return i;
	return -1;
}

/* The move type for a name; "play_invention" is the alias of play_year_of_plenty. */
static int command_type_from_name(const char *name)
{
	for (int type = 0; type < COMMAND_TYPE_COUNT; type++)
		if (strcmp(name, command_type_name(type)) == 0)
			return type;
	if (strcmp(name, "play_invention") == 0)
		return COMMAND_PLAY_YEAR_OF_PLENTY;
	return -1;
}

/* ---- building output: jansson reports out-of-memory as NULL or -1; we abort ---- */

static json_t *made(json_t *value)
{
	if (!value)
		abort();
	return value;
}

static void put_new(json_t *object, const char *key, json_t *value)
{
	if (json_object_set_new(object, key, made(value)) != 0)
		abort();
}

static void append_new(json_t *array, json_t *value)
{
	if (json_array_append_new(array, made(value)) != 0)
		abort();
}

static void put_int(json_t *object, const char *key, long long value)
{
	put_new(object, key, json_integer(value));
}

static json_t *name_or_null(const char *const *names, int count, int index)
{
	return index >= 0 && index < count ? json_string(names[index]) : json_null();
}

static json_t *text_or_null(const char *text)
{
	return text ? json_string(text) : json_null();
}

/* A seat or an id; null when negative (no seat, no node). */
static json_t *id_or_null(int id)
{
	return id >= 0 ? json_integer(id) : json_null();
}

static json_t *seat_list_new(unsigned mask)
{
	json_t *array = made(json_array());
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		if (mask >> s & 1u)
			append_new(array, json_integer(s));
	return array;
}

/* A resource map: every resource when `all`, else only the nonzero counts. */
static json_t *resource_map_new(const uint8_t counts[RESOURCE_COUNT], int all)
{
	json_t *object = made(json_object());
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (all || counts[r])
			put_int(object, resource_name(r), counts[r]);
	return object;
}

static json_t *dice_new(const uint8_t dice[2])
{
	json_t *array = made(json_array());
	append_new(array, json_integer(dice[0]));
	append_new(array, json_integer(dice[1]));
	return array;
}

static int clamp_seats(int seats)
{
	return seats < 0 ? 0 : seats > GAME_MAX_SEATS ? GAME_MAX_SEATS : seats;
}

/* ---- reading input ---- */

static int refuse(struct codec_error *error, const char *code, const char *field, const char *format, ...)
	__attribute__((format(printf, 4, 5)));

static int refuse(struct codec_error *error, const char *code, const char *field, const char *format, ...)
{
	error->code = code;
	snprintf(error->field, sizeof error->field, "%s", field);
	va_list args;
	va_start(args, format);
	vsnprintf(error->message, sizeof error->message, format, args);
	va_end(args);
	/* A cut (of the field path or the message) may fall inside a character. */
	text_make_valid(error->field);
	text_make_valid(error->message);
	return 0;
}

/* Client text to quote in a message: short, cut on a character boundary, controls escaped. */
#define CODEC_QUOTE_CHARS 40
#define CODEC_QUOTE_SIZE (CODEC_QUOTE_CHARS * 6 + 4)

static const char *quote(char *buffer, const char *text)
{
	return text_quote(buffer, CODEC_QUOTE_SIZE, text, CODEC_QUOTE_CHARS);
}

/* "prefix.key", or "key" at the top level. */
static const char *path_key(char *buffer, const char *prefix, const char *key)
{
	snprintf(buffer, CODEC_PATH_SIZE, "%s%s%s", prefix, *prefix ? "." : "", key);
	return buffer;
}

static const char *path_index(char *buffer, const char *prefix, size_t index)
{
	snprintf(buffer, CODEC_PATH_SIZE, "%s[%zu]", prefix, index);
	return buffer;
}

/* 1 when `word` is one of the space-separated words of `list`. */
static int word_listed(const char *list, const char *word)
{
	size_t length = strlen(word);
	const char *at = list;
	while (*at) {
		const char *end = strchr(at, ' ');
		size_t size = end ? (size_t)(end - at) : strlen(at);
		if (size == length && memcmp(at, word, size) == 0)
			return 1;
		if (!end)
			break;
		at = end + 1;
	}
	return 0;
}

/* Refuse a member outside `allowed` (and "type" when `typed`). `what` names the shape. */
static int refuse_unknown_members(const json_t *object, const char *allowed, int typed, const char *prefix,
				  const char *what, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	char quoted[CODEC_QUOTE_SIZE];
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)object, key, value) {
		if (typed && strcmp(key, "type") == 0)
			continue;
		if (!word_listed(allowed, key))
			return refuse(error, "unknown_field", path_key(path, prefix, key),
				      "unknown member \"%s\" in %s (its members: %s)", quote(quoted, key), what,
				      *allowed ? allowed : "none");
	}
	return 1;
}

/* Refuse when a member of `required` is absent. */
static int require_members(const json_t *object, const char *required, const char *prefix, const char *what,
			   struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	const char *at = required;
	while (*at) {
		char word[32];
		size_t size = strcspn(at, " ");
		snprintf(word, sizeof word, "%.*s", (int)size, at);
		if (!json_object_get(object, word))
			return refuse(error, "missing_field", path_key(path, prefix, word), "%s needs member \"%s\"",
				      what, word);
		at += size;
		at += *at == ' ';
	}
	return 1;
}

static int check_members(const json_t *object, const char *allowed, const char *required, int typed,
			 const char *prefix, const char *what, struct codec_error *error)
{
	return refuse_unknown_members(object, allowed, typed, prefix, what, error) &&
	       require_members(object, required, prefix, what, error);
}

static int read_integer(const json_t *value, const char *field, json_int_t low, json_int_t high, json_int_t *out,
			struct codec_error *error)
{
	if (!json_is_integer(value))
		return refuse(error, "invalid_field", field,
			      "%s must be an integer %" JSON_INTEGER_FORMAT "..%" JSON_INTEGER_FORMAT, field, low, high);
	json_int_t number = json_integer_value(value);
	if (number < low || number > high)
		return refuse(error, "invalid_field", field,
			      "%s must be %" JSON_INTEGER_FORMAT "..%" JSON_INTEGER_FORMAT " (got %" JSON_INTEGER_FORMAT ")",
			      field, low, high, number);
	*out = number;
	return 1;
}

static int read_int8(const json_t *value, const char *field, int low, int high, int8_t *out,
		     struct codec_error *error)
{
	json_int_t number = 0;
	if (!read_integer(value, field, low, high, &number, error))
		return 0;
	*out = (int8_t)number;
	return 1;
}

static int read_uint8(const json_t *value, const char *field, int low, int high, uint8_t *out,
		      struct codec_error *error)
{
	json_int_t number = 0;
	if (!read_integer(value, field, low, high, &number, error))
		return 0;
	*out = (uint8_t)number;
	return 1;
}

/* A seat 0..3, or -1 for null (or an absent member when `optional`). */
static int read_seat(const json_t *value, const char *field, int nullable, int8_t *out, struct codec_error *error)
{
	if (nullable && (!value || json_is_null(value))) {
		*out = GAME_NO_SEAT;
		return 1;
	}
	if (!json_is_integer(value))
		return refuse(error, "invalid_field", field, "%s must be a seat 0..%d%s", field, GAME_MAX_SEATS - 1,
			      nullable ? " or null" : "");
	return read_int8(value, field, 0, GAME_MAX_SEATS - 1, out, error);
}

static int read_trade_id(const json_t *value, const char *field, int nullable, uint16_t *out,
			 struct codec_error *error)
{
	if (nullable && (!value || json_is_null(value))) {
		*out = 0;
		return 1;
	}
	json_int_t number = 0;
	if (!read_integer(value, field, 1, CODEC_MAX_TRADE_ID, &number, error))
		return 0;
	*out = (uint16_t)number;
	return 1;
}

static int read_bool(const json_t *value, const char *field, uint8_t *out, struct codec_error *error)
{
	if (!json_is_boolean(value))
		return refuse(error, "invalid_field", field, "%s must be true or false", field);
	*out = (uint8_t)json_is_true(value);
	return 1;
}

/* A name among `names`, as its index. `expected` lists them for the message. */
static int read_name(const json_t *value, const char *field, const char *const *names, int count,
		     const char *expected, uint8_t *out, struct codec_error *error)
{
	int index = json_is_string(value) ? name_index(names, count, json_string_value(value)) : -1;
	if (index < 0)
		return refuse(error, "invalid_field", field, "%s must be one of: %s", field, expected);
	*out = (uint8_t)index;
	return 1;
}

static int read_resource(const json_t *value, const char *field, uint8_t *out, struct codec_error *error)
{
	int resource = json_is_string(value) ? codec_resource_from_name(json_string_value(value)) : -1;
	if (resource < 0)
		return refuse(error, "invalid_field", field, "%s must be a resource: brick, lumber, wool, grain, ore",
			      field);
	*out = (uint8_t)resource;
	return 1;
}

/* {"brick": 1, ...}: known names (aliases too, each resource once), counts 0..95. */
static int read_resource_map(const json_t *value, const char *field, uint8_t out[RESOURCE_COUNT],
			     struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	memset(out, 0, RESOURCE_COUNT);
	if (!json_is_object(value))
		return refuse(error, "invalid_field", field, "%s must be an object of resource counts, e.g. {\"ore\": 2}",
			      field);
	unsigned seen = 0;
	const char *key;
	json_t *count;
	json_object_foreach((json_t *)value, key, count) {
		int resource = codec_resource_from_name(key);
		path_key(path, field, key);
		if (resource < 0) {
			char quoted[CODEC_QUOTE_SIZE];
			return refuse(error, "unknown_field", path,
				      "unknown resource \"%s\" (brick, lumber, wool, grain, ore)", quote(quoted, key));
		}
		if (seen >> resource & 1u)
			return refuse(error, "invalid_field", path, "%s names %s twice (through an alias)", field,
				      resource_name(resource));
		seen |= 1u << resource;
		if (!read_uint8(count, path, 0, CODEC_MAX_COUNT, &out[resource], error))
			return 0;
	}
	return 1;
}

/* [seats]: a nonempty list of distinct seats, as a mask. */
static int read_seat_list(const json_t *value, const char *field, uint8_t *mask, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	if (!json_is_array(value) || json_array_size(value) == 0 || json_array_size(value) > GAME_MAX_SEATS)
		return refuse(error, "invalid_field", field, "%s must be a list of 1..%d distinct seats", field,
			      GAME_MAX_SEATS);
	*mask = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(value, index, entry) {
		int8_t seat;
		if (!read_seat(entry, path_index(path, field, index), 0, &seat, error))
			return 0;
		if (*mask >> seat & 1u)
			return refuse(error, "invalid_field", path, "%s lists seat %d twice", field, seat);
		*mask |= (uint8_t)(1u << seat);
	}
	return 1;
}

/* An array whose length must be in [low, high]. */
static int read_array(const json_t *value, const char *field, size_t low, size_t high, const char *what,
		      struct codec_error *error)
{
	if (!json_is_array(value) || json_array_size(value) < low || json_array_size(value) > high) {
		if (low == high)
			return refuse(error, "invalid_field", field, "%s must be an array of %zu %s", field, low, what);
		return refuse(error, "invalid_field", field, "%s must be an array of %zu..%zu %s", field, low, high,
			      what);
	}
	return 1;
}

static int read_dice(const json_t *value, const char *field, uint8_t dice[2], struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	if (!read_array(value, field, 2, 2, "dice 1..6", error))
		return 0;
	for (size_t i = 0; i < 2; i++)
		if (!read_uint8(json_array_get(value, i), path_index(path, field, i), 1, 6, &dice[i], error))
			return 0;
	return 1;
}

/* ---- options ---- */

static json_t *game_options_new(const struct game_options *options)
{
	json_t *object = made(json_object());
	put_int(object, "seats", options->seats);
	put_new(object, "layout", name_or_null(layout_names, NAME_COUNT(layout_names), options->layout));
	put_new(object, "start", name_or_null(start_names, NAME_COUNT(start_names), options->start));
	put_new(object, "numbers", name_or_null(numbers_names, NAME_COUNT(numbers_names), options->numbers));
	put_new(object, "edition", name_or_null(edition_names, NAME_COUNT(edition_names), options->edition));
	put_new(object, "dice", name_or_null(dice_names, NAME_COUNT(dice_names), options->dice));
	put_new(object, "first_seat", id_or_null(options->first_seat));
	return object;
}

/* The members shared by the client's options object and the game_created event's. An
 * absent member, or a null one when `null_keeps`, keeps what *options already holds. */
static int read_game_option_members(const json_t *object, const char *prefix, int null_keeps,
				    struct game_options *options, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	const json_t *value;
#define OPTION_NAME(member, names, expected)                                                                      \
	if ((value = json_object_get(object, #member)) && !(null_keeps && json_is_null(value)) &&                  \
	    !read_name(value, path_key(path, prefix, #member), names, NAME_COUNT(names), expected, &options->member, \
		       error))                                                                                     \
		return 0;
	OPTION_NAME(layout, layout_names, "beginner, random")
	OPTION_NAME(start, start_names, "draft, fixed")
	OPTION_NAME(numbers, numbers_names, "spiral, random")
	OPTION_NAME(edition, edition_names, "classic, 2025")
	OPTION_NAME(dice, dice_names, "random, manual")
#undef OPTION_NAME
	if ((value = json_object_get(object, "first_seat"))) {
		int8_t seat;
		path_key(path, prefix, "first_seat");
		if (!read_seat(value, path, 1, &seat, error))
			return 0;
		if (seat >= options->seats)
			return refuse(error, "invalid_field", path, "%s must be null or a seat 0..%d of this game", path,
				      options->seats - 1);
		options->first_seat = seat;
	}
	if (options->start == GAME_START_FIXED && options->layout != GAME_LAYOUT_BEGINNER)
		return refuse(error, "invalid_field", path_key(path, prefix, "start"),
			      "start fixed needs layout beginner (the fixed placements are on the beginner board)");
	return 1;
}

int codec_options_from_json(const json_t *json, struct codec_options *out, struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	uint8_t seats = out->game.seats;
	memset(out, 0, sizeof *out);
	rules_default_options(&out->game);
	out->game.seats = seats;
	out->on_timeout = CODEC_ON_TIMEOUT_DEFAULT;
	if (seats < GAME_MIN_SEATS || seats > GAME_MAX_SEATS)
		return refuse(error, "invalid_field", "seats", "seats must be %d or %d", GAME_MIN_SEATS, GAME_MAX_SEATS);
	if (!json || json_is_null(json))
		return 1;
	if (!json_is_object(json))
		return refuse(error, "invalid_field", "options", "options must be an object");
	if (json_object_get(json, "seats"))
		return refuse(error, "unknown_field", "options.seats",
			      "seats is given at the top level of the body, not inside options");
	if (!check_members(json, "layout start numbers edition dice first_seat turn_timeout_s on_timeout seed", "", 0,
			   "options", "options", error))
		return 0;
	if (!read_game_option_members(json, "options", 1, &out->game, error))
		return 0;
	const json_t *value;
	json_int_t number = 0;
	if ((value = json_object_get(json, "turn_timeout_s")) && !json_is_null(value)) {
		if (!read_integer(value, "options.turn_timeout_s", 0, CODEC_MAX_TURN_TIMEOUT_S, &number, error))
			return 0;
		out->turn_timeout_s = (int32_t)number;
	}
	if ((value = json_object_get(json, "on_timeout")) && !json_is_null(value) &&
	    !read_name(value, "options.on_timeout", on_timeout_names, NAME_COUNT(on_timeout_names), "default, bot",
		       &out->on_timeout, error))
		return 0;
	if ((value = json_object_get(json, "seed")) && !json_is_null(value)) {
		if (!read_integer(value, "options.seed", 0, INT64_MAX, &number, error))
			return 0;
		out->has_seed = 1;
		out->seed = (uint64_t)number;
	}
	if (rules_check_options(&out->game) != ERROR_OK)
		return refuse(error, "invalid_field", "options", "these options do not describe a game this server plays");
	return 1;
}

json_t *codec_options_to_json(const struct codec_options *options)
{
	json_t *object = game_options_new(&options->game);
	put_int(object, "turn_timeout_s", options->turn_timeout_s);
	put_new(object, "on_timeout", name_or_null(on_timeout_names, NAME_COUNT(on_timeout_names), options->on_timeout));
	return object;
}

/* ---- move bodies ---- */

/* Members of each move body, and which of them are required. */
static const struct {
	const char *members;
	const char *required;
} command_shapes[COMMAND_TYPE_COUNT] = {
	[COMMAND_BUILD_SETTLEMENT] = {"node", "node"},
	[COMMAND_BUILD_ROAD] = {"edge", "edge"},
	[COMMAND_BUILD_CITY] = {"node", "node"},
	[COMMAND_ROLL] = {"dice", ""},
	[COMMAND_DISCARD] = {"resources", "resources"},
	[COMMAND_MOVE_ROBBER] = {"hex victim", "hex"},
	[COMMAND_BUY_DEVELOPMENT_CARD] = {"", ""},
	[COMMAND_PLAY_KNIGHT] = {"hex victim", "hex"},
	[COMMAND_PLAY_ROAD_BUILDING] = {"edges", ""},
	[COMMAND_PLAY_YEAR_OF_PLENTY] = {"resources", "resources"},
	[COMMAND_PLAY_MONOPOLY] = {"resource", "resource"},
	[COMMAND_MARITIME_TRADE] = {"give get rate", "give get"},
	[COMMAND_END_TURN] = {"", ""},
	[COMMAND_OFFER_TRADE] = {"give want to counter_to", "give want"},
	[COMMAND_ACCEPT_TRADE] = {"trade", "trade"},
	[COMMAND_DECLINE_TRADE] = {"trade", "trade"},
	[COMMAND_CONFIRM_TRADE] = {"trade with", "trade"},
	[COMMAND_WITHDRAW_TRADE] = {"trade", "trade"},
};

static int read_command_fields(const json_t *json, struct command *out, struct codec_error *error)
{
	const json_t *value;
	switch (out->type) {
	case COMMAND_BUILD_SETTLEMENT:
	case COMMAND_BUILD_CITY:
		return read_int8(json_object_get(json, "node"), "node", 0, BOARD_NODES - 1, &out->node, error);
	case COMMAND_BUILD_ROAD:
		return read_int8(json_object_get(json, "edge"), "edge", 0, BOARD_EDGES - 1, &out->edge, error);
	case COMMAND_ROLL:
		value = json_object_get(json, "dice");
		return !value || json_is_null(value) || read_dice(value, "dice", out->dice, error);
	case COMMAND_DISCARD:
	case COMMAND_PLAY_YEAR_OF_PLENTY:
		return read_resource_map(json_object_get(json, "resources"), "resources", out->resources, error);
	case COMMAND_MOVE_ROBBER:
	case COMMAND_PLAY_KNIGHT:
		return read_int8(json_object_get(json, "hex"), "hex", 0, BOARD_HEXES - 1, &out->hex, error) &&
		       read_seat(json_object_get(json, "victim"), "victim", 1, &out->victim, error);
	case COMMAND_PLAY_ROAD_BUILDING: {
		char path[CODEC_PATH_SIZE];
		value = json_object_get(json, "edges");
		if (!value)
			return 1;
		if (!read_array(value, "edges", 0, 2, "edge ids", error))
			return 0;
		out->edge_count = (uint8_t)json_array_size(value);
		for (size_t i = 0; i < out->edge_count; i++)
			if (!read_int8(json_array_get(value, i), path_index(path, "edges", i), 0, BOARD_EDGES - 1,
				       &out->edges[i], error))
				return 0;
		return 1;
	}
	case COMMAND_PLAY_MONOPOLY:
		return read_resource(json_object_get(json, "resource"), "resource", &out->resource, error);
	case COMMAND_MARITIME_TRADE: {
		int8_t rate;
		if (!read_resource_map(json_object_get(json, "give"), "give", out->give, error) ||
		    !read_resource_map(json_object_get(json, "get"), "get", out->want, error))
			return 0;
		/* `rate` (as /actions writes it) only restates give / get; the engine judges it. */
		value = json_object_get(json, "rate");
		if (!value)
			return 1;
		if (!read_int8(value, "rate", 2, 4, &rate, error))
			return 0;
		if (resource_total(out->give) != rate * resource_total(out->want))
			return refuse(error, "invalid_field", "rate", "rate must be the cards given per card taken");
		return 1;
	}
	case COMMAND_OFFER_TRADE:
		if (!read_resource_map(json_object_get(json, "give"), "give", out->give, error) ||
		    !read_resource_map(json_object_get(json, "want"), "want", out->want, error))
			return 0;
		value = json_object_get(json, "to");
		if (value && !json_is_null(value) && !read_seat_list(value, "to", &out->to, error))
			return 0;
		return read_trade_id(json_object_get(json, "counter_to"), "counter_to", 1, &out->trade, error);
	case COMMAND_ACCEPT_TRADE:
	case COMMAND_DECLINE_TRADE:
	case COMMAND_WITHDRAW_TRADE:
		return read_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error);
	case COMMAND_CONFIRM_TRADE:
		return read_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error) &&
		       read_seat(json_object_get(json, "with"), "with", 1, &out->with, error);
	default:
		return 1;
	}
}

int codec_command_from_json(const json_t *json, struct command *out, struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	if (!json_is_object(json))
		return refuse(error, "invalid_field", "", "a move body must be a JSON object with a \"type\"");
	const json_t *type = json_object_get(json, "type");
	if (!type)
		return refuse(error, "missing_field", "type", "a move body needs \"type\"");
	if (!json_is_string(type))
		return refuse(error, "invalid_field", "type", "type must be a string naming the move");
	int command_type = command_type_from_name(json_string_value(type));
	if (command_type < 0) {
		char quoted[CODEC_QUOTE_SIZE];
		return refuse(error, "invalid_field", "type", "unknown move type \"%s\"",
			      quote(quoted, json_string_value(type)));
	}
	char what[48];
	snprintf(what, sizeof what, "move %s", command_type_name(command_type));
	if (!check_members(json, command_shapes[command_type].members, command_shapes[command_type].required, 1, "",
			   what, error))
		return 0;
	command_init(out, (enum command_type)command_type);
	return read_command_fields(json, out, error);
}

json_t *codec_command_to_json(const struct command *command)
{
	json_t *object = made(json_object());
	put_new(object, "type", text_or_null(command_type_name(command->type)));
	int is_template = command->is_template;
	if (is_template)
		put_new(object, "template", json_true());
	switch (command->type) {
	case COMMAND_BUILD_SETTLEMENT:
	case COMMAND_BUILD_CITY:
		put_int(object, "node", command->node);
		break;
	case COMMAND_BUILD_ROAD:
		put_int(object, "edge", command->edge);
		break;
	case COMMAND_ROLL:
		if (command->dice[0] || command->dice[1])
			put_new(object, "dice", dice_new(command->dice));
		break;
	case COMMAND_DISCARD:
		if (is_template)
			put_int(object, "count", command->count);
		if (!is_template || resource_total(command->resources))
			put_new(object, "resources", resource_map_new(command->resources, 0));
		break;
	case COMMAND_PLAY_YEAR_OF_PLENTY:
		put_new(object, "resources", resource_map_new(command->resources, 0));
		break;
	case COMMAND_MOVE_ROBBER:
	case COMMAND_PLAY_KNIGHT:
		put_int(object, "hex", command->hex);
		put_new(object, "victim", id_or_null(command->victim));
		break;
	case COMMAND_PLAY_ROAD_BUILDING: {
		json_t *edges = made(json_array());
		for (int i = 0; i < command->edge_count && i < 2; i++)
			append_new(edges, json_integer(command->edges[i]));
		put_new(object, "edges", edges);
		break;
	}
	case COMMAND_PLAY_MONOPOLY:
		put_new(object, "resource", text_or_null(resource_name(command->resource)));
		break;
	case COMMAND_MARITIME_TRADE: {
		put_new(object, "give", resource_map_new(command->give, 0));
		put_new(object, "get", resource_map_new(command->want, 0));
		/* The rate a listed trade is made at (several may apply: RULES.md 7); only a rate
		 * the parser reads back (2..4), so any command renders as a body that parses. */
		int given = resource_total(command->give), taken = resource_total(command->want);
		if (taken > 0 && given % taken == 0 && given / taken >= 2 && given / taken <= 4)
			put_int(object, "rate", given / taken);
		break;
	}
	case COMMAND_OFFER_TRADE:
		if (!is_template || resource_total(command->give) || resource_total(command->want)) {
			put_new(object, "give", resource_map_new(command->give, 0));
			put_new(object, "want", resource_map_new(command->want, 0));
		}
		if (command->to)
			put_new(object, "to", seat_list_new(command->to));
		if (command->trade)
			put_int(object, "counter_to", command->trade);
		break;
	case COMMAND_ACCEPT_TRADE:
	case COMMAND_DECLINE_TRADE:
	case COMMAND_WITHDRAW_TRADE:
		put_int(object, "trade", command->trade);
		break;
	case COMMAND_CONFIRM_TRADE:
		put_int(object, "trade", command->trade);
		if (command->with >= 0)
			put_int(object, "with", command->with);
		break;
	default:
		break;
	}
	return object;
}

json_t *codec_actions_to_json(const struct command *moves, int count)
{
	json_t *array = made(json_array());
	for (int i = 0; i < count; i++)
		append_new(array, codec_command_to_json(&moves[i]));
	return array;
}

/* ---- events ---- */

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
};

static json_t *board_layout_new(const struct board_layout *board)
{
	json_t *object = made(json_object());
	json_t *terrain = made(json_array()), *numbers = made(json_array()), *harbors = made(json_array());
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		append_new(terrain, name_or_null(terrain_names, TERRAIN_COUNT, board->terrain[hex]));
		append_new(numbers, board->number[hex] ? json_integer(board->number[hex]) : json_null());
	}
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		int kind = board->harbor[slot];
		append_new(harbors, kind == HARBOR_GENERIC ? json_string(generic_harbor_name) : text_or_null(resource_name(kind)));
	}
	put_new(object, "terrain", terrain);
	put_new(object, "numbers", numbers);
	put_new(object, "harbors", harbors);
	return object;
}

/* Rounds of the first-player roll, up to the last round anyone rolled in. */
static json_t *start_rolls_new(const struct event_setup *setup)
{
	int seats = clamp_seats(setup->options.seats);
	int rounds = 0;
	for (int round = 0; round < EVENT_START_ROLL_ROUNDS; round++)
		for (int s = 0; s < seats; s++)
			if (setup->start_rolls[round][s])
				rounds = round + 1;
	json_t *array = made(json_array());
	for (int round = 0; round < rounds; round++) {
		json_t *totals = made(json_array());
		for (int s = 0; s < seats; s++) {
			int total = setup->start_rolls[round][s];
			append_new(totals, total ? json_integer(total) : json_null());
		}
		append_new(array, totals);
	}
	return array;
}

json_t *codec_event_to_json(const struct event *event, int seats)
{
	seats = clamp_seats(seats);
	json_t *object = made(json_object());
	put_new(object, "type", text_or_null(event_type_name(event->type)));
	switch (event->type) {
	case EVENT_GAME_CREATED:
		put_new(object, "options", game_options_new(&event->setup.options));
		put_new(object, "board", board_layout_new(&event->setup.board));
		put_new(object, "first_seat", id_or_null(event->setup.first_seat));
		put_new(object, "start_rolls", start_rolls_new(&event->setup));
		break;
	case EVENT_SETTLEMENT_BUILT:
		put_new(object, "seat", id_or_null(event->seat));
		put_int(object, "node", event->node);
		put_new(object, "free", json_boolean(event->free));
		break;
	case EVENT_ROAD_BUILT:
		put_new(object, "seat", id_or_null(event->seat));
		put_int(object, "edge", event->edge);
		put_new(object, "free", json_boolean(event->free));
		break;
	case EVENT_CITY_BUILT:
		put_new(object, "seat", id_or_null(event->seat));
		put_int(object, "node", event->node);
		break;
	case EVENT_RESOURCES_PRODUCED: {
		json_t *gains = made(json_array());
		for (int s = 0; s < seats; s++)
			append_new(gains, resource_map_new(event->gains[s], 0));
		put_new(object, "gains", gains);
		break;
	}
	case EVENT_DICE_ROLLED:
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "dice", dice_new(event->dice));
		put_int(object, "total", event->dice[0] + event->dice[1]);
		break;
	case EVENT_DISCARDED:
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "resources", resource_map_new(event->resources, 0));
		break;
	case EVENT_ROBBER_MOVED:
		put_new(object, "seat", id_or_null(event->seat));
		put_int(object, "hex", event->hex);
		break;
	case EVENT_RESOURCE_STOLEN:
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "victim", id_or_null(event->other));
		put_new(object, "resource", text_or_null(resource_name(event->resource)));
		break;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "card", text_or_null(development_card_name(event->card)));
		break;
	case EVENT_MONOPOLY_PLAYED: {
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "resource", text_or_null(resource_name(event->resource)));
		json_t *taken = made(json_array());
		for (int s = 0; s < seats; s++)
			append_new(taken, json_integer(event->resource < RESOURCE_COUNT ? event->gains[s][event->resource] : 0));
		put_new(object, "taken", taken);
		break;
	}
	case EVENT_MARITIME_TRADED:
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "give", resource_map_new(event->give, 0));
		put_new(object, "get", resource_map_new(event->want, 0));
		break;
	case EVENT_TRADE_OFFERED:
		put_new(object, "seat", id_or_null(event->seat));
		put_int(object, "trade", event->trade);
		put_new(object, "to", seat_list_new(event->to));
		put_new(object, "give", resource_map_new(event->give, 0));
		put_new(object, "want", resource_map_new(event->want, 0));
		put_new(object, "counter_to", event->counter_to ? json_integer(event->counter_to) : json_null());
		break;
	case EVENT_TRADE_ACCEPTED:
	case EVENT_TRADE_DECLINED:
	case EVENT_TRADE_WITHDRAWN:
		put_new(object, "seat", id_or_null(event->seat));
		put_int(object, "trade", event->trade);
		break;
	case EVENT_TRADE_COMPLETED:
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "with", id_or_null(event->other));
		put_int(object, "trade", event->trade);
		put_new(object, "give", resource_map_new(event->give, 0));
		put_new(object, "get", resource_map_new(event->want, 0));
		break;
	case EVENT_LONGEST_ROAD_CHANGED:
	case EVENT_LARGEST_ARMY_CHANGED:
		put_new(object, "seat", id_or_null(event->seat));
		put_new(object, "previous", id_or_null(event->other));
		break;
	case EVENT_KNIGHT_PLAYED:
	case EVENT_ROAD_BUILDING_PLAYED:
	case EVENT_TURN_ENDED:
		put_new(object, "seat", id_or_null(event->seat));
		break;
	case EVENT_GAME_WON:
		put_new(object, "seat", id_or_null(event->seat));
		put_int(object, "points", event->points);
		put_int(object, "victory_point_cards", event->victory_point_cards);
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
		return refuse(error, "invalid_field", "board", "board must be an object {terrain, numbers, harbors}");
	if (!check_members(value, "terrain numbers harbors", "terrain numbers harbors", 0, "board", "board", error))
		return 0;
	const json_t *terrain = json_object_get(value, "terrain");
	const json_t *numbers = json_object_get(value, "numbers");
	const json_t *harbors = json_object_get(value, "harbors");
	if (!read_array(terrain, "board.terrain", BOARD_HEXES, BOARD_HEXES, "terrain names", error) ||
	    !read_array(numbers, "board.numbers", BOARD_HEXES, BOARD_HEXES, "number tokens (null on the desert)", error) ||
	    !read_array(harbors, "board.harbors", BOARD_HARBORS, BOARD_HARBORS, "harbor types", error))
		return 0;
	for (size_t hex = 0; hex < BOARD_HEXES; hex++) {
		if (!read_name(json_array_get(terrain, hex), path_index(path, "board.terrain", hex), terrain_names,
			       TERRAIN_COUNT, "hills, forest, pasture, fields, mountains, desert", &board->terrain[hex], error))
			return 0;
		const json_t *number = json_array_get(numbers, hex);
		if (!json_is_null(number) &&
		    !read_uint8(number, path_index(path, "board.numbers", hex), 2, 12, &board->number[hex], error))
			return 0;
	}
	for (size_t slot = 0; slot < BOARD_HARBORS; slot++) {
		const json_t *kind = json_array_get(harbors, slot);
		const char *name = json_is_string(kind) ? json_string_value(kind) : "";
		int harbor = strcmp(name, generic_harbor_name) == 0 ? HARBOR_GENERIC : codec_resource_from_name(name);
		if (harbor < 0)
			return refuse(error, "invalid_field", path_index(path, "board.harbors", slot),
				      "%s must be \"3:1\" or a resource", path);
		board->harbor[slot] = (uint8_t)harbor;
	}
	return 1;
}

static int read_start_rolls(const json_t *value, struct event_setup *setup, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	int seats = setup->options.seats;
	if (!read_array(value, "start_rolls", 0, EVENT_START_ROLL_ROUNDS, "rounds", error))
		return 0;
	size_t round;
	json_t *totals;
	json_array_foreach(value, round, totals) {
		path_index(path, "start_rolls", round);
		if (!read_array(totals, path, (size_t)seats, (size_t)seats, "totals (one per seat, null when not rolled)",
				error))
			return 0;
		for (int s = 0; s < seats; s++) {
			char entry[CODEC_PATH_SIZE];
			const json_t *total = json_array_get(totals, (size_t)s);
			snprintf(entry, sizeof entry, "start_rolls[%zu][%d]", round, s);
			if (!json_is_null(total) && !read_uint8(total, entry, 2, 12, &setup->start_rolls[round][s], error))
				return 0;
		}
	}
	return 1;
}

static int read_game_created(const json_t *json, struct event *out, struct codec_error *error)
{
	struct event_setup *setup = &out->setup;
	const json_t *options = json_object_get(json, "options");
	if (!json_is_object(options))
		return refuse(error, "invalid_field", "options", "options must be an object");
	if (!check_members(options, "seats layout start numbers edition dice first_seat",
			   "seats layout start numbers edition dice first_seat", 0, "options", "options", error))
		return 0;
	if (!read_uint8(json_object_get(options, "seats"), "options.seats", GAME_MIN_SEATS, GAME_MAX_SEATS,
			&setup->options.seats, error) ||
	    !read_game_option_members(options, "options", 0, &setup->options, error) ||
	    !read_board_layout(json_object_get(json, "board"), &setup->board, error) ||
	    !read_seat(json_object_get(json, "first_seat"), "first_seat", 0, &setup->first_seat, error))
		return 0;
	if (setup->first_seat >= setup->options.seats)
		return refuse(error, "invalid_field", "first_seat", "first_seat must be a seat of this game");
	return read_start_rolls(json_object_get(json, "start_rolls"), setup, error);
}

/* A per-seat array: `seats` entries when known (nonzero), else 3..4. */
static int read_per_seat(const json_t *value, const char *field, int seats, const char *what,
			 struct codec_error *error)
{
	size_t low = seats ? (size_t)seats : GAME_MIN_SEATS, high = seats ? (size_t)seats : GAME_MAX_SEATS;
	return read_array(value, field, low, high, what, error);
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
			if (!read_resource_map(json_array_get(value, s), path_index(path, "gains", s), out->gains[s], error))
				return 0;
		return 1;
	}
	int nullable_seat = type == EVENT_LONGEST_ROAD_CHANGED || type == EVENT_LARGEST_ARMY_CHANGED;
	if (!read_seat(json_object_get(json, "seat"), "seat", nullable_seat, &out->seat, error))
		return 0;
	switch (type) {
	case EVENT_SETTLEMENT_BUILT:
		return read_int8(json_object_get(json, "node"), "node", 0, BOARD_NODES - 1, &out->node, error) &&
		       read_bool(json_object_get(json, "free"), "free", &out->free, error);
	case EVENT_ROAD_BUILT:
		return read_int8(json_object_get(json, "edge"), "edge", 0, BOARD_EDGES - 1, &out->edge, error) &&
		       read_bool(json_object_get(json, "free"), "free", &out->free, error);
	case EVENT_CITY_BUILT:
		return read_int8(json_object_get(json, "node"), "node", 0, BOARD_NODES - 1, &out->node, error);
	case EVENT_DICE_ROLLED: {
		json_int_t total = 0;
		if (!read_dice(json_object_get(json, "dice"), "dice", out->dice, error) ||
		    !read_integer(json_object_get(json, "total"), "total", 2, 12, &total, error))
			return 0;
		if (total != out->dice[0] + out->dice[1])
			return refuse(error, "invalid_field", "total", "total must be the sum of the dice");
		return 1;
	}
	case EVENT_DISCARDED:
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		return read_resource_map(json_object_get(json, "resources"), "resources", out->resources, error);
	case EVENT_ROBBER_MOVED:
		return read_int8(json_object_get(json, "hex"), "hex", 0, BOARD_HEXES - 1, &out->hex, error);
	case EVENT_RESOURCE_STOLEN:
		if (!read_seat(json_object_get(json, "victim"), "victim", 0, &out->other, error))
			return 0;
		value = json_object_get(json, "resource");
		if (json_is_null(value)) {
			out->resource = RESOURCE_HIDDEN;
			return 1;
		}
		return read_resource(value, "resource", &out->resource, error);
	case EVENT_DEVELOPMENT_CARD_BOUGHT: {
		value = json_object_get(json, "card");
		int card = json_is_string(value) ? codec_development_from_name(json_string_value(value)) : -1;
		if (json_is_null(value))
			card = DEVELOPMENT_HIDDEN;
		else if (card < 0)
			return refuse(error, "invalid_field", "card",
				      "card must be knight, road_building, year_of_plenty, monopoly, victory_point or null");
		out->card = (uint8_t)card;
		return 1;
	}
	case EVENT_MONOPOLY_PLAYED:
		if (!read_resource(json_object_get(json, "resource"), "resource", &out->resource, error))
			return 0;
		value = json_object_get(json, "taken");
		if (!read_per_seat(value, "taken", seats, "counts (one per seat)", error))
			return 0;
		for (size_t s = 0; s < json_array_size(value); s++)
			if (!read_uint8(json_array_get(value, s), path_index(path, "taken", s), 0, CODEC_MAX_COUNT,
					&out->gains[s][out->resource], error))
				return 0;
		return 1;
	case EVENT_MARITIME_TRADED:
		return read_resource_map(json_object_get(json, "give"), "give", out->give, error) &&
		       read_resource_map(json_object_get(json, "get"), "get", out->want, error);
	case EVENT_TRADE_OFFERED:
		return read_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error) &&
		       read_seat_list(json_object_get(json, "to"), "to", &out->to, error) &&
		       read_resource_map(json_object_get(json, "give"), "give", out->give, error) &&
		       read_resource_map(json_object_get(json, "want"), "want", out->want, error) &&
		       read_trade_id(json_object_get(json, "counter_to"), "counter_to", 1, &out->counter_to, error);
	case EVENT_TRADE_ACCEPTED:
	case EVENT_TRADE_DECLINED:
	case EVENT_TRADE_WITHDRAWN:
		return read_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error);
	case EVENT_TRADE_COMPLETED:
		return read_seat(json_object_get(json, "with"), "with", 0, &out->other, error) &&
		       read_trade_id(json_object_get(json, "trade"), "trade", 0, &out->trade, error) &&
		       read_resource_map(json_object_get(json, "give"), "give", out->give, error) &&
		       read_resource_map(json_object_get(json, "get"), "get", out->want, error);
	case EVENT_LONGEST_ROAD_CHANGED:
	case EVENT_LARGEST_ARMY_CHANGED:
		return read_seat(json_object_get(json, "previous"), "previous", 1, &out->other, error);
	case EVENT_GAME_WON:
		return read_uint8(json_object_get(json, "points"), "points", 0, CODEC_MAX_POINTS, &out->points, error) &&
		       read_uint8(json_object_get(json, "victory_point_cards"), "victory_point_cards", 0,
				  CODEC_MAX_VICTORY_POINT_CARDS, &out->victory_point_cards, error);
	default:
		return 1;
	}
}

/* `seats`: the game's seat count when known (per-seat arrays must match it), else 0.
 * `envelope`: members outside the event's shape are ignored (a log entry's "version"...). */
static int read_event(const json_t *json, struct event *out, int seats, int envelope, struct codec_error *error)
{
	if (!json_is_object(json))
		return refuse(error, "invalid_field", "", "an event must be a JSON object with a \"type\"");
	const json_t *type = json_object_get(json, "type");
	if (!type)
		return refuse(error, "missing_field", "type", "an event needs \"type\"");
	if (!json_is_string(type))
		return refuse(error, "invalid_field", "type", "type must be a string naming the event");
	int event_type = event_type_from_name(json_string_value(type));
	if (event_type < 0) {
		char quoted[CODEC_QUOTE_SIZE];
		return refuse(error, "invalid_field", "type", "unknown event type \"%s\"",
			      quote(quoted, json_string_value(type)));
	}
	const char *members = event_members[event_type];
	char what[48];
	snprintf(what, sizeof what, "event %s", event_type_name(event_type));
	if (!envelope && !refuse_unknown_members(json, members, 1, "", what, error))
		return 0;
	if (!require_members(json, members, "", what, error))
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
		return refuse(error, "invalid_json", "", "no event text");
	json_error_t parse_error;
	json_t *json = json_loadb(text, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!json)
		return refuse(error, "invalid_json", "", "invalid JSON at line %d, column %d: %s", parse_error.line,
			      parse_error.column, parse_error.text);
	int ok = codec_event_from_json(json, out, error);
	json_decref(json);
	return ok;
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
	json_t *turn = made(json_object());
	put_int(turn, "number", view->turn_number);
	put_new(turn, "seat", id_or_null(view->turn_seat));
	put_new(turn, "rolled", json_boolean(view->rolled));
	put_new(turn, "dice", view->rolled ? dice_new(view->dice) : json_null());
	return turn;
}

static json_t *view_pieces_new(const struct game_view *view, int roads)
{
	json_t *array = made(json_array());
	int count = roads ? BOARD_EDGES : BOARD_NODES;
	for (int id = 0; id < count; id++) {
		int owner = roads ? view->edge_owner[id] : view->node_owner[id];
		if (!owner)
			continue;
		json_t *piece = made(json_object());
		put_int(piece, roads ? "edge" : "node", id);
		put_int(piece, "seat", owner - 1);
		if (!roads)
			put_new(piece, "kind", json_string(view->node_building[id] == BUILDING_CITY ? "city" : "settlement"));
		append_new(array, piece);
	}
	return array;
}

static json_t *view_pending_new(const struct game_view *view)
{
	int seats = clamp_seats(view->options.seats);
	json_t *pending = made(json_object());
	json_t *waiting = made(json_array()), *discards = made(json_array());
	if (view->phase == GAME_PHASE_DISCARD) {
		for (int s = 0; s < seats; s++) {
			if (!view->players[s].discard_owed)
				continue;
			append_new(waiting, json_integer(s));
			json_t *owed = made(json_object());
			put_int(owed, "seat", s);
			put_int(owed, "count", view->players[s].discard_owed);
			append_new(discards, owed);
		}
	} else if (view->phase != GAME_PHASE_NONE && view->phase != GAME_PHASE_FINISHED && view->turn_seat >= 0) {
		append_new(waiting, json_integer(view->turn_seat));
	}
	put_new(pending, "seats", waiting);
	put_new(pending, "discards", discards);
	put_new(pending, "setup_node", view->phase == GAME_PHASE_SETUP_ROAD ? id_or_null(view->setup_node) : json_null());
	return pending;
}

static json_t *view_players_new(const struct game_view *view, const char *const *names)
{
	json_t *players = made(json_array());
	for (int s = 0; s < clamp_seats(view->options.seats); s++) {
		const struct view_player *seen = &view->players[s];
		json_t *player = made(json_object());
		put_int(player, "seat", s);
		/* json_string() refuses text that is not UTF-8: such a name shows as null. */
		json_t *name = names && names[s] ? json_string(names[s]) : NULL;
		put_new(player, "name", name ? name : json_null());
		put_int(player, "victory_points", seen->victory_points);
		put_int(player, "resource_count", seen->resource_count);
		put_int(player, "development_card_count", seen->development_card_count);
		put_int(player, "knights_played", seen->knights_played);
		put_int(player, "longest_road_length", seen->road_length);
		put_int(player, "roads_left", seen->roads_left);
		put_int(player, "settlements_left", seen->settlements_left);
		put_int(player, "cities_left", seen->cities_left);
		append_new(players, player);
	}
	return players;
}

static json_t *view_trades_new(const struct game_view *view)
{
	json_t *trades = made(json_array());
	for (int i = 0; i < view->offer_count && i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &view->offers[i];
		json_t *trade = made(json_object());
		put_int(trade, "id", offer->id);
		put_new(trade, "from", id_or_null(offer->from));
		put_new(trade, "to", seat_list_new(offer->to));
		put_new(trade, "give", resource_map_new(offer->give, 0));
		put_new(trade, "want", resource_map_new(offer->want, 0));
		put_new(trade, "counter_to", offer->counter_to ? json_integer(offer->counter_to) : json_null());
		put_new(trade, "accepted", seat_list_new(offer->accepted));
		put_new(trade, "declined", seat_list_new(offer->declined));
		append_new(trades, trade);
	}
	return trades;
}

static json_t *view_you_new(const struct view_you *you)
{
	json_t *object = made(json_object());
	put_int(object, "seat", you->seat);
	put_new(object, "resources", resource_map_new(you->resources, 1));
	json_t *cards = made(json_object());
	for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++) {
		json_t *card = made(json_object());
		put_int(card, "count", you->development_cards[kind]);
		put_int(card, "playable", kind == DEVELOPMENT_VICTORY_POINT ? 0 : you->playable[kind]);
		put_new(cards, development_card_name(kind), card);
	}
	put_new(object, "development_cards", cards);
	put_int(object, "victory_points", you->victory_points);
	return object;
}

json_t *codec_view_to_json(const struct game_view *view, const char *const *names)
{
	json_t *object = made(json_object());
	put_int(object, "version", view->version);
	put_new(object, "status", json_string(view_status(view->phase)));
	put_new(object, "phase", text_or_null(game_phase_name(view->phase)));
	put_new(object, "options", game_options_new(&view->options));
	put_new(object, "turn", view_turn_new(view));
	put_new(object, "first_seat", id_or_null(view->first_seat));
	put_new(object, "winner", id_or_null(view->winner));
	put_new(object, "robber", id_or_null(view->robber));
	put_new(object, "bank", resource_map_new(view->bank, 1));
	put_int(object, "development_cards_left", view->development_cards_left);
	put_new(object, "buildings", view_pieces_new(view, 0));
	put_new(object, "roads", view_pieces_new(view, 1));
	put_new(object, "longest_road", id_or_null(view->longest_road));
	put_new(object, "largest_army", id_or_null(view->largest_army));
	put_new(object, "pending", view_pending_new(view));
	put_new(object, "players", view_players_new(view, names));
	put_new(object, "trades", view_trades_new(view));
	if (view->has_you)
		put_new(object, "you", view_you_new(&view->you));
	return object;
}

/* ---- the board ---- */

static json_t *id_list_new(const int8_t *ids, int count)
{
	json_t *array = made(json_array());
	for (int i = 0; i < count; i++)
		if (ids[i] >= 0)
			append_new(array, json_integer(ids[i]));
	return array;
}

static json_t *harbor_type_new(int kind)
{
	return kind == HARBOR_GENERIC ? json_string(generic_harbor_name) : text_or_null(resource_name(kind));
}

json_t *codec_board_to_json(const struct board_layout *board)
{
	json_t *object = made(json_object());
	json_t *hexes = made(json_array()), *nodes = made(json_array());
	json_t *edges = made(json_array()), *harbors = made(json_array());
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		json_t *entry = made(json_object());
		put_int(entry, "id", hex);
		put_int(entry, "q", board_hex_q[hex]);
		put_int(entry, "r", board_hex_r[hex]);
		put_new(entry, "terrain", name_or_null(terrain_names, TERRAIN_COUNT, board->terrain[hex]));
		put_new(entry, "number",
			board->terrain[hex] == TERRAIN_DESERT || !board->number[hex] ? json_null() : json_integer(board->number[hex]));
		append_new(hexes, entry);
	}
	for (int node = 0; node < BOARD_NODES; node++) {
		json_t *entry = made(json_object());
		put_int(entry, "id", node);
		put_int(entry, "x", board_node_x[node]);
		put_int(entry, "y", board_node_y[node]);
		put_new(entry, "hexes", id_list_new(board_node_hexes[node], 3));
		put_new(entry, "neighbors", id_list_new(board_node_neighbors[node], 3));
		put_new(entry, "edges", id_list_new(board_node_edges[node], 3));
		json_t *harbor = json_null();
		for (int slot = 0; slot < BOARD_HARBORS; slot++)
			if (board_harbor_nodes[slot][0] == node || board_harbor_nodes[slot][1] == node)
				harbor = harbor_type_new(board->harbor[slot]);
		put_new(entry, "harbor", harbor);
		append_new(nodes, entry);
	}
	for (int edge = 0; edge < BOARD_EDGES; edge++) {
		json_t *entry = made(json_object());
		put_int(entry, "id", edge);
		put_new(entry, "nodes", id_list_new(board_edge_nodes[edge], 2));
		append_new(edges, entry);
	}
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		json_t *entry = made(json_object());
		put_int(entry, "slot", slot);
		put_new(entry, "type", harbor_type_new(board->harbor[slot]));
		put_new(entry, "nodes", id_list_new(board_harbor_nodes[slot], 2));
		append_new(harbors, entry);
	}
	put_new(object, "hexes", hexes);
	put_new(object, "nodes", nodes);
	put_new(object, "edges", edges);
	put_new(object, "harbors", harbors);
	return object;
}

/* ---- replaying a log ---- */

static int replay_entry(const json_t *entry, size_t index, struct game *game, char *message, size_t message_size)
{
	struct event event;
	struct codec_error error;
	int seats = game->phase == GAME_PHASE_NONE ? 0 : game->options.seats;
	if (!read_event(entry, &event, seats, 1, &error)) {
		snprintf(message, message_size, "event %zu: %s (%s%s%s)", index + 1, error.message, error.code,
			 *error.field ? " at " : "", error.field);
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
	return 1;
}

int codec_replay_log(const char *text, size_t size, struct game *out, char *message, size_t message_size)
{
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
		snprintf(message, message_size, "an event log is an array of events or an object with an \"events\" array");
	else if (json_array_size(events) == 0)
		snprintf(message, message_size, "the event log is empty");
	else
		ok = 1;
	for (size_t i = 0; ok && i < json_array_size(events); i++)
		ok = replay_entry(json_array_get(events, i), i, out, message, message_size);
	json_decref(root);
	if (!ok && message_size > 0)
		text_make_valid(message); /* message_size may cut a quoted refusal inside a character */
	return ok;
}

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
		return refuse(error, "invalid_field", "type", "no event type %d", type);
	if (!text)
		return refuse(error, "invalid_json", "", "no payload");
	json_error_t parse_error;
	json_t *json = json_loadb(text, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!json)
		return refuse(error, "invalid_json", "", "invalid JSON at line %d, column %d: %s", parse_error.line,
			      parse_error.column, parse_error.text);
	if (!json_is_object(json)) {
		json_decref(json);
		return refuse(error, "invalid_json", "", "a stored payload must be a JSON object");
	}
	/* The database may reorder members (jsonb), so a typed payload is found by its member. */
	json_t *stored_type = json_object_get(json, "type");
	if (stored_type && !(json_is_string(stored_type) && strcmp(json_string_value(stored_type), name) == 0)) {
		json_decref(json);
		return refuse(error, "invalid_field", "type", "the payload's type differs from the row's (%s)", name);
	}
	if (!stored_type)
		json_object_set_new(json, "type", json_string(name));
	int ok = codec_event_from_json(json, out, error);
	json_decref(json);
	return ok;
}
