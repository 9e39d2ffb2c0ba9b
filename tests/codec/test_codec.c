/*
 * test_codec.c - the JSON codec: events survive dump and parse byte for byte, move bodies
 * parse to the commands they name, bad input is refused with the right code and member,
 * views leak no hand, the board is consistent, and logs replay (through the library and
 * through `catan replay`).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codec/log.h"
#include "codec/names.h"
#include "codec/options.h"
#include "codec/shapes.h"
#include "codec/writer.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "bench/games.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

/* ---- helpers ---- */

static json_t *load(const char *text)
{
	json_error_t error;
	json_t *json = json_loads(text, JSON_REJECT_DUPLICATES, &error);
	ck_assert_msg(json != NULL, "test JSON does not parse: %s (%s)", text, error.text);
	return json;
}

static char *dump(const json_t *json)
{
	char *text = json_dumps(json, JSON_COMPACT);
	ck_assert_ptr_nonnull(text);
	return text;
}

/* Parse a move body that must be accepted and equal `expected` byte for byte. */
static void expect_command(const char *text, const struct command *expected)
{
	json_t *json = load(text);
	struct command command;
	struct codec_error error;
	memset(&command, 0x5a, sizeof command);
	int ok = codec_command_from_json(json, &command, &error);
	ck_assert_msg(ok, "%s refused: %s (%s at %s)", text, error.message, codec_error_code_name(error.code),
		      error.field);
	ck_assert_msg(memcmp(&command, expected, sizeof command) == 0, "%s parsed to a different command", text);
	json_decref(json);
}

static void expect_command_refused(const char *text, const char *code, const char *field)
{
	json_t *json = load(text);
	struct command command;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	ck_assert_msg(!codec_command_from_json(json, &command, &error), "%s was accepted", text);
	ck_assert_msg(strcmp(codec_error_code_name(error.code), code) == 0, "%s: code %s, expected %s", text,
		      codec_error_code_name(error.code), code);
	ck_assert_msg(strcmp(error.field, field) == 0, "%s: field \"%s\", expected \"%s\"", text, error.field, field);
	ck_assert_msg(error.message[0] != '\0', "%s: no message", text);
	json_decref(json);
}

/* Parse event text from a buffer of exactly `size` bytes (no terminator: ASan sees
 * over-reads). */
static int parse_exact(const char *text, size_t size, struct event *event, struct codec_error *error)
{
	char *copy = malloc(size ? size : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, size);
	int ok = codec_event_parse(copy, size, event, error);
	free(copy);
	return ok;
}

static void expect_event_refused(const char *text, const char *code, const char *field)
{
	struct event event;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	ck_assert_msg(!parse_exact(text, strlen(text), &event, &error), "%s was accepted", text);
	ck_assert_msg(strcmp(codec_error_code_name(error.code), code) == 0, "%s: code %s, expected %s", text,
		      codec_error_code_name(error.code), code);
	ck_assert_msg(strcmp(error.field, field) == 0, "%s: field \"%s\", expected \"%s\"", text, error.field, field);
}

/* dump -> parse must give the event back byte for byte; so must to_json -> from_json. */
static void expect_event_round_trip(const struct event *event, int seats)
{
	char *text = codec_event_dump(event, seats);
	struct event back;
	struct codec_error error;
	memset(&back, 0x5a, sizeof back);
	ck_assert_msg(parse_exact(text, strlen(text), &back, &error), "%s refused: %s (%s at %s)", text,
		      error.message, codec_error_code_name(error.code), error.field);
	ck_assert_msg(memcmp(&back, event, sizeof back) == 0, "%s parsed to a different event", text);
	ck_assert_msg(strchr(text, ' ') == NULL && strchr(text, '\n') == NULL, "dump is not compact: %s", text);
	ck_assert_msg(strncmp(text, "{\"type\":\"", 9) == 0, "type is not first: %s", text);

	json_t *json = codec_event_to_json(event, seats);
	memset(&back, 0x5a, sizeof back);
	ck_assert(codec_event_from_json(json, &back, &error));
	ck_assert(memcmp(&back, event, sizeof back) == 0);
	json_decref(json);
	free(text);
}

static void expect_dump(const struct event *event, int seats, const char *expected)
{
	char *text = codec_event_dump(event, seats);
	ck_assert_str_eq(text, expected);
	free(text);
}

/* ---- events ---- */

/* One event of every type (4 seats), built from event_init() like rules_decide() does. */
static int every_event_type(struct event *events)
{
	int n = 0;
	struct event *e;
	struct event_list created;
	struct game_options options;
	struct rng rng;
	rules_default_options(&options);
	options.layout = GAME_LAYOUT_RANDOM;
	options.numbers = BOARD_NUMBERS_RANDOM;
	options.edition = GAME_EDITION_2025;
	rng_init(&rng, 7, 0);
	ck_assert_int_eq(rules_create(&options, &rng, &created), ERROR_OK);
	events[n++] = created.events[0];

	e = &events[n++], event_init(e, EVENT_SETTLEMENT_BUILT), e->seat = 2, e->node = 17, e->free = 1;
	e = &events[n++], event_init(e, EVENT_ROAD_BUILT), e->seat = 1, e->edge = 71, e->free = 0;
	e = &events[n++], event_init(e, EVENT_CITY_BUILT), e->seat = 3, e->node = 0;
	e = &events[n++], event_init(e, EVENT_RESOURCES_PRODUCED);
	e->gains[0][RESOURCE_ORE] = 2, e->gains[2][RESOURCE_BRICK] = 1, e->gains[2][RESOURCE_WOOL] = 3;
	e = &events[n++], event_init(e, EVENT_DICE_ROLLED), e->seat = 0, e->dice[0] = 6, e->dice[1] = 1;
	e = &events[n++], event_init(e, EVENT_DISCARDED), e->seat = 1;
	e->resources[RESOURCE_ORE] = 2, e->resources[RESOURCE_GRAIN] = 1;
	e = &events[n++], event_init(e, EVENT_ROBBER_MOVED), e->seat = 0, e->hex = 18;
	e = &events[n++], event_init(e, EVENT_RESOURCE_STOLEN), e->seat = 0, e->other = 3, e->resource = RESOURCE_WOOL;
	e = &events[n++], event_init(e, EVENT_DEVELOPMENT_CARD_BOUGHT), e->seat = 2, e->card = DEVELOPMENT_VICTORY_POINT;
	e = &events[n++], event_init(e, EVENT_KNIGHT_PLAYED), e->seat = 1;
	e = &events[n++], event_init(e, EVENT_ROAD_BUILDING_PLAYED), e->seat = 1;
	e = &events[n++], event_init(e, EVENT_YEAR_OF_PLENTY_PLAYED), e->seat = 0, e->resources[RESOURCE_BRICK] = 2;
	e = &events[n++], event_init(e, EVENT_MONOPOLY_PLAYED), e->seat = 0, e->resource = RESOURCE_GRAIN;
	e->gains[1][RESOURCE_GRAIN] = 3, e->gains[3][RESOURCE_GRAIN] = 1;
	e = &events[n++], event_init(e, EVENT_MARITIME_TRADED), e->seat = 2;
	e->give[RESOURCE_WOOL] = 4, e->want[RESOURCE_ORE] = 1;
	e = &events[n++], event_init(e, EVENT_TRADE_OFFERED), e->seat = 1, e->trade = 7, e->to = 1, e->counter_to = 5;
	e->give[RESOURCE_LUMBER] = 1, e->want[RESOURCE_BRICK] = 2;
	e = &events[n++], event_init(e, EVENT_TRADE_ACCEPTED), e->seat = 2, e->trade = 7;
	e = &events[n++], event_init(e, EVENT_TRADE_DECLINED), e->seat = 3, e->trade = 65535;
	e = &events[n++], event_init(e, EVENT_TRADE_WITHDRAWN), e->seat = 1, e->trade = 7;
	e = &events[n++], event_init(e, EVENT_TRADE_COMPLETED), e->seat = 0, e->other = 2, e->trade = 3;
	e->give[RESOURCE_ORE] = 1, e->give[RESOURCE_WOOL] = 1, e->want[RESOURCE_GRAIN] = 2;
	e = &events[n++], event_init(e, EVENT_LONGEST_ROAD_CHANGED), e->seat = -1, e->other = 2;
	e = &events[n++], event_init(e, EVENT_LARGEST_ARMY_CHANGED), e->seat = 3, e->other = -1;
	e = &events[n++], event_init(e, EVENT_TURN_ENDED), e->seat = 3;
	e = &events[n++], event_init(e, EVENT_GAME_WON), e->seat = 2, e->points = 11, e->victory_point_cards = 2;
	e = &events[n++], event_init(e, EVENT_SEAT_AWAY), e->seat = 1;
	e = &events[n++], event_init(e, EVENT_SEAT_BACK), e->seat = 3;
	return n;
}

START_TEST(test_every_event_type_round_trips_byte_for_byte)
{
	struct event events[EVENT_TYPE_COUNT + 4];
	int count = every_event_type(events);
	unsigned seen = 0;
	for (int i = 0; i < count; i++) {
		expect_event_round_trip(&events[i], 4);
		seen |= 1u << events[i].type;
	}
	ck_assert_uint_eq(seen, (1u << EVENT_TYPE_COUNT) - 1);
}
END_TEST

START_TEST(test_game_created_round_trips_with_start_rolls_and_fixed_start)
{
	/* 3 seats, first seat by roll: start_rolls has one array of 3 per round. */
	struct game_options options;
	struct event_list created;
	struct rng rng;
	int tie_seen = 0;
	for (uint64_t seed = 0; seed < 64; seed++) {
		rules_default_options(&options);
		options.seats = 3;
		options.layout = (uint8_t)(seed & 1);
		rng_init(&rng, seed, 0);
		ck_assert_int_eq(rules_create(&options, &rng, &created), ERROR_OK);
		expect_event_round_trip(&created.events[0], 3);
		tie_seen |= created.events[0].setup.start_rolls[1][0] | created.events[0].setup.start_rolls[1][1] |
			    created.events[0].setup.start_rolls[1][2];
	}
	ck_assert_msg(tie_seen, "no seed produced a second round of start rolls");

	/* Fixed start, fixed first seat: start_rolls is [] and every scripted event round-trips. */
	rules_default_options(&options);
	options.start = GAME_START_FIXED;
	options.first_seat = 2;
	rng_init(&rng, 3, 0);
	ck_assert_int_eq(rules_create(&options, &rng, &created), ERROR_OK);
	char *text = codec_event_dump(&created.events[0], 4);
	ck_assert_ptr_nonnull(strstr(text, "\"first_seat\":2,\"start_rolls\":[]}"));
	ck_assert_ptr_nonnull(strstr(text, "\"start\":\"fixed\""));
	free(text);
	for (int i = 0; i < created.count; i++)
		expect_event_round_trip(&created.events[i], 4);
}
END_TEST

START_TEST(test_event_dump_is_compact_and_omits_zero_counts)
{
	struct event events[EVENT_TYPE_COUNT + 4];
	every_event_type(events);
	expect_dump(&events[EVENT_DICE_ROLLED], 4, "{\"type\":\"dice_rolled\",\"seat\":0,\"dice\":[6,1],\"total\":7}");
	expect_dump(&events[EVENT_DISCARDED], 4, "{\"type\":\"discarded\",\"seat\":1,\"resources\":{\"grain\":1,\"ore\":2}}");
	expect_dump(&events[EVENT_RESOURCES_PRODUCED], 4,
		    "{\"type\":\"resources_produced\",\"gains\":[{\"ore\":2},{},{\"brick\":1,\"wool\":3},{}]}");
	expect_dump(&events[EVENT_RESOURCES_PRODUCED], 3,
		    "{\"type\":\"resources_produced\",\"gains\":[{\"ore\":2},{},{\"brick\":1,\"wool\":3}]}");
	expect_dump(&events[EVENT_MONOPOLY_PLAYED], 4,
		    "{\"type\":\"monopoly_played\",\"seat\":0,\"resource\":\"grain\",\"taken\":[0,3,0,1]}");
	expect_dump(&events[EVENT_TRADE_OFFERED], 4,
		    "{\"type\":\"trade_offered\",\"seat\":1,\"trade\":7,\"to\":[0],\"give\":{\"lumber\":1},"
		    "\"want\":{\"brick\":2},\"counter_to\":5}");
	expect_dump(&events[EVENT_TRADE_COMPLETED], 4,
		    "{\"type\":\"trade_completed\",\"seat\":0,\"with\":2,\"trade\":3,\"give\":{\"wool\":1,\"ore\":1},"
		    "\"get\":{\"grain\":2}}");
	expect_dump(&events[EVENT_LONGEST_ROAD_CHANGED], 4,
		    "{\"type\":\"longest_road_changed\",\"seat\":null,\"previous\":2}");
	expect_dump(&events[EVENT_SETTLEMENT_BUILT], 4, "{\"type\":\"settlement_built\",\"seat\":2,\"node\":17,\"free\":true}");
	expect_dump(&events[EVENT_GAME_WON], 4,
		    "{\"type\":\"game_won\",\"seat\":2,\"points\":11,\"victory_point_cards\":2}");
}
END_TEST

START_TEST(test_redacted_events_show_null_for_hidden_card_and_resource)
{
	struct event events[EVENT_TYPE_COUNT + 4];
	every_event_type(events);
	const struct event *stolen = &events[EVENT_RESOURCE_STOLEN]; /* seat 0 robs seat 3 of wool */
	const struct event *bought = &events[EVENT_DEVELOPMENT_CARD_BOUGHT]; /* seat 2 draws a VP card */
	struct event seen;
	char *text;

	view_event(stolen, 1, &seen);
	text = codec_event_dump(&seen, 4);
	ck_assert_str_eq(text, "{\"type\":\"resource_stolen\",\"seat\":0,\"victim\":3,\"resource\":null}");
	free(text);
	view_event(stolen, VIEW_SPECTATOR, &seen);
	json_t *json = codec_event_to_json(&seen, 4);
	ck_assert(json_is_null(json_object_get(json, "resource")));
	json_decref(json);
	view_event(stolen, 3, &seen);
	text = codec_event_dump(&seen, 4);
	ck_assert_ptr_nonnull(strstr(text, "\"resource\":\"wool\""));
	free(text);

	view_event(bought, 0, &seen);
	text = codec_event_dump(&seen, 4);
	ck_assert_str_eq(text, "{\"type\":\"development_card_bought\",\"seat\":2,\"card\":null}");
	/* What a viewer saw parses back to the hidden marker, which apply refuses. */
	struct event back;
	struct codec_error error;
	ck_assert(parse_exact(text, strlen(text), &back, &error));
	ck_assert_uint_eq(back.card, DEVELOPMENT_HIDDEN);
	free(text);
	view_event(bought, 2, &seen);
	text = codec_event_dump(&seen, 4);
	ck_assert_ptr_nonnull(strstr(text, "\"card\":\"victory_point\""));
	free(text);
}
END_TEST

START_TEST(test_event_parse_refuses_bad_events_with_code_and_member)
{
	expect_event_refused("", "invalid_json", "");
	expect_event_refused("{\"type\":", "invalid_json", "");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":0} trailing", "invalid_json", "");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":0,\"seat\":1}", "invalid_json", "");
	expect_event_refused("{\"type\":\"dice_rolled\",\"seat\":0,\"dice\":[NaN,1],\"total\":2}", "invalid_json", "");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":99999999999999999999999}", "invalid_json", "");
	expect_event_refused("[1,2]", "invalid_field", "");
	expect_event_refused("{\"seat\":0}", "missing_field", "type");
	expect_event_refused("{\"type\":7}", "invalid_field", "type");
	expect_event_refused("{\"type\":\"turn_skipped\",\"seat\":0}", "invalid_field", "type");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":0,\"extra\":1}", "unknown_field", "extra");
	expect_event_refused("{\"type\":\"turn_ended\"}", "missing_field", "seat");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":4}", "invalid_field", "seat");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":null}", "invalid_field", "seat");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":\"0\"}", "invalid_field", "seat");
	expect_event_refused("{\"type\":\"turn_ended\",\"seat\":0.0}", "invalid_field", "seat");
	expect_event_refused("{\"type\":\"settlement_built\",\"seat\":0,\"node\":54,\"free\":true}", "invalid_field", "node");
	expect_event_refused("{\"type\":\"settlement_built\",\"seat\":0,\"node\":5,\"free\":1}", "invalid_field", "free");
	expect_event_refused("{\"type\":\"road_built\",\"seat\":0,\"edge\":-1,\"free\":false}", "invalid_field", "edge");
	expect_event_refused("{\"type\":\"robber_moved\",\"seat\":0,\"hex\":19}", "invalid_field", "hex");
	expect_event_refused("{\"type\":\"dice_rolled\",\"seat\":0,\"dice\":[3,4],\"total\":8}", "invalid_field", "total");
	expect_event_refused("{\"type\":\"dice_rolled\",\"seat\":0,\"dice\":[0,4],\"total\":4}", "invalid_field", "dice[0]");
	expect_event_refused("{\"type\":\"discarded\",\"seat\":0,\"resources\":{\"ore\":-1}}", "invalid_field", "resources.ore");
	expect_event_refused("{\"type\":\"discarded\",\"seat\":0,\"resources\":{\"ore\":96}}", "invalid_field", "resources.ore");
	expect_event_refused("{\"type\":\"discarded\",\"seat\":0,\"resources\":{\"ore\":9223372036854775807}}",
			     "invalid_field", "resources.ore");
	expect_event_refused("{\"type\":\"discarded\",\"seat\":0,\"resources\":{\"ore\":1e300}}", "invalid_field",
			     "resources.ore");
	expect_event_refused("{\"type\":\"discarded\",\"seat\":0,\"resources\":{\"gold\":1}}", "unknown_field",
			     "resources.gold");
	expect_event_refused("{\"type\":\"resources_produced\",\"gains\":[{},{}]}", "invalid_field", "gains");
	expect_event_refused("{\"type\":\"resources_produced\",\"gains\":[{},{},{},{},{}]}", "invalid_field", "gains");
	expect_event_refused("{\"type\":\"resources_produced\",\"gains\":[{},[],{}]}", "invalid_field", "gains[1]");
	expect_event_refused("{\"type\":\"monopoly_played\",\"seat\":0,\"resource\":\"gold\",\"taken\":[0,0,0]}",
			     "invalid_field", "resource");
	expect_event_refused("{\"type\":\"trade_offered\",\"seat\":0,\"trade\":0,\"to\":[1],\"give\":{},\"want\":{},"
			     "\"counter_to\":null}",
			     "invalid_field", "trade");
	expect_event_refused("{\"type\":\"trade_offered\",\"seat\":0,\"trade\":1,\"to\":[1,1],\"give\":{},\"want\":{},"
			     "\"counter_to\":null}",
			     "invalid_field", "to[1]");
	expect_event_refused("{\"type\":\"trade_accepted\",\"seat\":1,\"trade\":65536}", "invalid_field", "trade");
	expect_event_refused("{\"type\":\"development_card_bought\",\"seat\":1,\"card\":\"joker\"}", "invalid_field", "card");
	expect_event_refused("{\"type\":\"game_won\",\"seat\":1,\"points\":300,\"victory_point_cards\":0}", "invalid_field",
			     "points");

	/* Deep nesting and long garbage are refused, not crashed on. */
	size_t depth = 200000;
	char *deep = malloc(2 * depth);
	ck_assert_ptr_nonnull(deep);
	memset(deep, '[', depth);
	memset(deep + depth, ']', depth);
	struct event event;
	struct codec_error error;
	ck_assert(!parse_exact(deep, 2 * depth, &event, &error));
	ck_assert_str_eq(codec_error_code_name(error.code), "invalid_json");
	free(deep);
	ck_assert(!codec_event_parse(NULL, 0, &event, &error));
	ck_assert(!codec_event_parse("{}", 2, &event, NULL));
}
END_TEST

/* Every prefix and many random corruptions of real dumps: never a crash (ASan run), and an
 * accepted text is in range: it dumps and parses again to itself. */
START_TEST(test_event_parse_survives_truncation_and_corruption)
{
	struct games_record game;
	games_record_play(&game, 4, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_SPIRAL, 1, 11);
	struct rng rng;
	rng_init(&rng, 99, 0);
	static const char alphabet[] = "{}[]\",:-.0123456789eEtrufalsnul \\x\001";
	long accepted = 0, refused = 0;
	for (int i = 0; i < game.count; i += 3) {
		char *text = codec_event_dump(&game.events[i], 4);
		size_t size = strlen(text);
		for (size_t cut = 0; cut < size; cut++) {
			struct event event;
			struct codec_error error;
			ck_assert(!parse_exact(text, cut, &event, &error));
			refused++;
		}
		for (int round = 0; round < 40; round++) {
			char mutated[4096];
			ck_assert(size < sizeof mutated);
			memcpy(mutated, text, size);
			int flips = 1 + (int)rng_below(&rng, 3);
			for (int f = 0; f < flips; f++)
				mutated[rng_below(&rng, (uint32_t)size)] = alphabet[rng_below(&rng, sizeof alphabet - 1)];
			struct event event, again;
			struct codec_error error;
			if (!parse_exact(mutated, size, &event, &error)) {
				ck_assert(error.code != CODEC_ERROR_NONE && error.message[0] != '\0');
				refused++;
				continue;
			}
			accepted++;
			char *redump = codec_event_dump(&event, 4);
			ck_assert_msg(parse_exact(redump, strlen(redump), &again, &error), "re-dump refused: %s", redump);
			ck_assert(memcmp(&event, &again, sizeof event) == 0);
			free(redump);
		}
		free(text);
	}
	ck_assert(accepted > 0 && refused > 0);
	games_record_free(&game);
}
END_TEST

/* ---- move bodies ---- */

static struct command command_of(enum command_type type)
{
	struct command command;
	command_init(&command, type);
	return command;
}

START_TEST(test_every_move_type_parses_to_its_command)
{
	struct command c;
	c = command_of(COMMAND_BUILD_SETTLEMENT), c.node = 53;
	expect_command("{\"type\":\"build_settlement\",\"node\":53}", &c);
	c = command_of(COMMAND_BUILD_ROAD), c.edge = 0;
	expect_command("{\"type\":\"build_road\",\"edge\":0}", &c);
	c = command_of(COMMAND_BUILD_CITY), c.node = 12;
	expect_command("{\"type\":\"build_city\",\"node\":12}", &c);
	c = command_of(COMMAND_ROLL);
	expect_command("{\"type\":\"roll\"}", &c);
	expect_command("{\"type\":\"roll\",\"dice\":null}", &c);
	c.dice[0] = 6, c.dice[1] = 1;
	expect_command("{\"type\":\"roll\",\"dice\":[6,1]}", &c);
	c = command_of(COMMAND_DISCARD), c.resources[RESOURCE_BRICK] = 2, c.resources[RESOURCE_ORE] = 1;
	expect_command("{\"type\":\"discard\",\"resources\":{\"brick\":2,\"ore\":1,\"wool\":0}}", &c);
	c = command_of(COMMAND_MOVE_ROBBER), c.hex = 18, c.victim = 2;
	expect_command("{\"type\":\"move_robber\",\"hex\":18,\"victim\":2}", &c);
	c.victim = -1;
	expect_command("{\"type\":\"move_robber\",\"hex\":18}", &c);
	expect_command("{\"type\":\"move_robber\",\"hex\":18,\"victim\":null}", &c);
	c = command_of(COMMAND_BUY_DEVELOPMENT_CARD);
	expect_command("{\"type\":\"buy_development_card\"}", &c);
	c = command_of(COMMAND_PLAY_KNIGHT), c.hex = 0, c.victim = 3;
	expect_command("{\"type\":\"play_knight\",\"hex\":0,\"victim\":3}", &c);
	c = command_of(COMMAND_PLAY_ROAD_BUILDING), c.edge_count = 2, c.edges[0] = 5, c.edges[1] = 71;
	expect_command("{\"type\":\"play_road_building\",\"edges\":[5,71]}", &c);
	c = command_of(COMMAND_PLAY_ROAD_BUILDING), c.edge_count = 1, c.edges[0] = 9;
	expect_command("{\"type\":\"play_road_building\",\"edges\":[9]}", &c);
	c = command_of(COMMAND_PLAY_ROAD_BUILDING);
	expect_command("{\"type\":\"play_road_building\",\"edges\":[]}", &c);
	expect_command("{\"type\":\"play_road_building\"}", &c);
	c = command_of(COMMAND_PLAY_YEAR_OF_PLENTY), c.resources[RESOURCE_ORE] = 2;
	expect_command("{\"type\":\"play_year_of_plenty\",\"resources\":{\"ore\":2}}", &c);
	c = command_of(COMMAND_PLAY_MONOPOLY), c.resource = RESOURCE_WOOL;
	expect_command("{\"type\":\"play_monopoly\",\"resource\":\"wool\"}", &c);
	c = command_of(COMMAND_MARITIME_TRADE), c.give[RESOURCE_WOOL] = 4, c.want[RESOURCE_ORE] = 1;
	expect_command("{\"type\":\"maritime_trade\",\"give\":{\"wool\":4},\"get\":{\"ore\":1}}", &c);
	c = command_of(COMMAND_END_TURN);
	expect_command("{\"type\":\"end_turn\"}", &c);
	c = command_of(COMMAND_OFFER_TRADE), c.give[RESOURCE_BRICK] = 1, c.want[RESOURCE_GRAIN] = 2;
	expect_command("{\"type\":\"offer_trade\",\"give\":{\"brick\":1},\"want\":{\"grain\":2}}", &c);
	c.to = 0x5, c.trade = 9;
	expect_command("{\"type\":\"offer_trade\",\"give\":{\"brick\":1},\"want\":{\"grain\":2},\"to\":[2,0],"
		       "\"counter_to\":9}",
		       &c);
	c = command_of(COMMAND_ACCEPT_TRADE), c.trade = 1;
	expect_command("{\"type\":\"accept_trade\",\"trade\":1}", &c);
	c = command_of(COMMAND_DECLINE_TRADE), c.trade = 65535;
	expect_command("{\"type\":\"decline_trade\",\"trade\":65535}", &c);
	c = command_of(COMMAND_CONFIRM_TRADE), c.trade = 4;
	expect_command("{\"type\":\"confirm_trade\",\"trade\":4}", &c);
	c.with = 1;
	expect_command("{\"type\":\"confirm_trade\",\"trade\":4,\"with\":1}", &c);
	c = command_of(COMMAND_WITHDRAW_TRADE), c.trade = 2;
	expect_command("{\"type\":\"withdraw_trade\",\"trade\":2}", &c);
}
END_TEST

START_TEST(test_moves_accept_the_aliases_of_other_editions)
{
	struct command c = command_of(COMMAND_DISCARD);
	c.resources[RESOURCE_LUMBER] = 1, c.resources[RESOURCE_GRAIN] = 2, c.resources[RESOURCE_WOOL] = 3;
	c.resources[RESOURCE_BRICK] = 4;
	expect_command("{\"type\":\"discard\",\"resources\":{\"wood\":1,\"wheat\":2,\"sheep\":3,\"clay\":4}}", &c);
	c = command_of(COMMAND_MARITIME_TRADE), c.give[RESOURCE_BRICK] = 4, c.want[RESOURCE_GRAIN] = 1;
	expect_command("{\"type\":\"maritime_trade\",\"give\":{\"loam\":4},\"get\":{\"corn\":1}}", &c);
	c = command_of(COMMAND_PLAY_MONOPOLY), c.resource = RESOURCE_WOOL;
	expect_command("{\"type\":\"play_monopoly\",\"resource\":\"sheep\"}", &c);
	c = command_of(COMMAND_PLAY_YEAR_OF_PLENTY), c.resources[RESOURCE_LUMBER] = 1, c.resources[RESOURCE_GRAIN] = 1;
	expect_command("{\"type\":\"play_invention\",\"resources\":{\"wood\":1,\"corn\":1}}", &c);

	ck_assert_int_eq(codec_resource_from_name("wood"), RESOURCE_LUMBER);
	ck_assert_int_eq(codec_resource_from_name("wheat"), RESOURCE_GRAIN);
	ck_assert_int_eq(codec_resource_from_name("corn"), RESOURCE_GRAIN);
	ck_assert_int_eq(codec_resource_from_name("sheep"), RESOURCE_WOOL);
	ck_assert_int_eq(codec_resource_from_name("clay"), RESOURCE_BRICK);
	ck_assert_int_eq(codec_resource_from_name("loam"), RESOURCE_BRICK);
	ck_assert_int_eq(codec_resource_from_name("Wood"), -1);
	ck_assert_int_eq(codec_resource_from_name("gold"), -1);
	ck_assert_int_eq(codec_development_from_name("invention"), DEVELOPMENT_YEAR_OF_PLENTY);
	ck_assert_int_eq(codec_development_from_name("victory_point"), DEVELOPMENT_VICTORY_POINT);
	ck_assert_int_eq(codec_development_from_name("Invention"), -1);

	/* An alias names the same resource: giving both is refused, not summed. */
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"clay\":1,\"brick\":1}}", "invalid_field",
			       "resources.brick");
	/* Events read aliases too (the card alias included). */
	struct event event;
	struct codec_error error;
	const char *text = "{\"type\":\"development_card_bought\",\"seat\":1,\"card\":\"invention\"}";
	ck_assert(parse_exact(text, strlen(text), &event, &error));
	ck_assert_uint_eq(event.card, DEVELOPMENT_YEAR_OF_PLENTY);
}
END_TEST

START_TEST(test_move_refusals_name_the_code_and_member)
{
	expect_command_refused("[]", "invalid_field", "");
	expect_command_refused("{}", "missing_field", "type");
	expect_command_refused("{\"type\":\"fly\"}", "invalid_field", "type");
	expect_command_refused("{\"type\":3}", "invalid_field", "type");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":3,\"node\":2}", "unknown_field", "node");
	expect_command_refused("{\"type\":\"end_turn\",\"seat\":0}", "unknown_field", "seat");
	/* "template" is accepted and ignored (an action is sent back as is), but only as a boolean. */
	expect_command_refused("{\"type\":\"discard\",\"template\":1,\"resources\":{}}", "invalid_field", "template");
	expect_command_refused("{\"type\":\"discard\",\"template\":true,\"count\":4,\"resources\":{}}", "unknown_field", "count");
	expect_command_refused("{\"type\":\"build_settlement\"}", "missing_field", "node");
	expect_command_refused("{\"type\":\"maritime_trade\",\"give\":{\"wool\":4}}", "missing_field", "get");
	expect_command_refused("{\"type\":\"accept_trade\"}", "missing_field", "trade");
	/* wrong types */
	expect_command_refused("{\"type\":\"build_road\",\"edge\":\"3\"}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":3.0}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":true}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":null}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"discard\",\"resources\":[1]}", "invalid_field", "resources");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"ore\":\"2\"}}", "invalid_field", "resources.ore");
	expect_command_refused("{\"type\":\"roll\",\"dice\":[1]}", "invalid_field", "dice");
	expect_command_refused("{\"type\":\"roll\",\"dice\":[1,\"2\"]}", "invalid_field", "dice[1]");
	expect_command_refused("{\"type\":\"roll\",\"dice\":7}", "invalid_field", "dice");
	expect_command_refused("{\"type\":\"move_robber\",\"hex\":4,\"victim\":\"1\"}", "invalid_field", "victim");
	expect_command_refused("{\"type\":\"play_monopoly\",\"resource\":{\"ore\":1}}", "invalid_field", "resource");
	expect_command_refused("{\"type\":\"offer_trade\",\"give\":{\"ore\":1},\"want\":{\"wool\":1},\"to\":1}",
			       "invalid_field", "to");
	expect_command_refused("{\"type\":\"play_road_building\",\"edges\":5}", "invalid_field", "edges");
	/* out-of-range ids */
	expect_command_refused("{\"type\":\"build_settlement\",\"node\":54}", "invalid_field", "node");
	expect_command_refused("{\"type\":\"build_settlement\",\"node\":-1}", "invalid_field", "node");
	expect_command_refused("{\"type\":\"build_city\",\"node\":300}", "invalid_field", "node");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":72}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"move_robber\",\"hex\":19}", "invalid_field", "hex");
	expect_command_refused("{\"type\":\"play_knight\",\"hex\":3,\"victim\":4}", "invalid_field", "victim");
	expect_command_refused("{\"type\":\"play_knight\",\"hex\":3,\"victim\":-1}", "invalid_field", "victim");
	expect_command_refused("{\"type\":\"roll\",\"dice\":[7,1]}", "invalid_field", "dice[0]");
	expect_command_refused("{\"type\":\"roll\",\"dice\":[1,0]}", "invalid_field", "dice[1]");
	expect_command_refused("{\"type\":\"play_road_building\",\"edges\":[1,72]}", "invalid_field", "edges[1]");
	expect_command_refused("{\"type\":\"play_road_building\",\"edges\":[1,2,3]}", "invalid_field", "edges");
	expect_command_refused("{\"type\":\"accept_trade\",\"trade\":0}", "invalid_field", "trade");
	expect_command_refused("{\"type\":\"withdraw_trade\",\"trade\":65536}", "invalid_field", "trade");
	expect_command_refused("{\"type\":\"confirm_trade\",\"trade\":1,\"with\":4}", "invalid_field", "with");
	expect_command_refused("{\"type\":\"offer_trade\",\"give\":{\"ore\":1},\"want\":{\"wool\":1},\"to\":[]}",
			       "invalid_field", "to");
	expect_command_refused("{\"type\":\"offer_trade\",\"give\":{\"ore\":1},\"want\":{\"wool\":1},\"to\":[4]}",
			       "invalid_field", "to[0]");
	expect_command_refused("{\"type\":\"offer_trade\",\"give\":{\"ore\":1},\"want\":{\"wool\":1},\"counter_to\":0}",
			       "invalid_field", "counter_to");
	/* negative and huge counts */
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"ore\":-1}}", "invalid_field", "resources.ore");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"ore\":96}}", "invalid_field", "resources.ore");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"ore\":4294967297}}", "invalid_field",
			       "resources.ore");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"ore\":-9223372036854775807}}", "invalid_field",
			       "resources.ore");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"ore\":1e3}}", "invalid_field", "resources.ore");
	expect_command_refused("{\"type\":\"maritime_trade\",\"give\":{\"wool\":4},\"get\":{\"ore\":256}}", "invalid_field",
			       "get.ore");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"gold\":1}}", "unknown_field", "resources.gold");
	expect_command_refused("{\"type\":\"play_monopoly\",\"resource\":\"Ore\"}", "invalid_field", "resource");
}
END_TEST

/* A trade route's body read with the route's type and trade: the same command, or the same
 * refusal (code, member, message), as the body with "type" and "trade" added; a "type" in
 * the body, or a "trade" where the path names one, is refused as the handlers refused it. */
static void expect_route_body(const char *text, enum command_type type, uint16_t trade)
{
	json_t *json = load(text);
	json_t *added = json_deep_copy(json);
	ck_assert_ptr_nonnull(added);
	json_object_set_new(added, "type", json_string(command_type_name(type)));
	if (trade)
		json_object_set_new(added, "trade", json_integer(trade));
	struct command command, expected;
	struct codec_error error, expected_error;
	memset(&command, 0x5a, sizeof command);
	memset(&expected, 0x5a, sizeof expected);
	memset(&error, 0, sizeof error);
	memset(&expected_error, 0, sizeof expected_error);
	int ok = codec_command_from_json_as(json, type, trade, &command, &error);
	int expected_ok = codec_command_from_json(added, &expected, &expected_error);
	ck_assert_msg(ok == expected_ok, "%s as %s: %s, with its type: %s", text, command_type_name(type),
		      ok ? "accepted" : error.message, expected_ok ? "accepted" : expected_error.message);
	if (ok) {
		ck_assert_msg(memcmp(&command, &expected, sizeof command) == 0, "%s as %s: another command", text,
			      command_type_name(type));
	} else {
		ck_assert_int_eq(error.code, expected_error.code);
		ck_assert_str_eq(error.field, expected_error.field);
		ck_assert_str_eq(error.message, expected_error.message);
	}
	json_decref(added);
	json_decref(json);
}

static void expect_route_body_refused(const char *text, enum command_type type, uint16_t trade, const char *field,
				      const char *message)
{
	json_t *json = load(text);
	struct command command;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	ck_assert_msg(!codec_command_from_json_as(json, type, trade, &command, &error), "%s was accepted", text);
	ck_assert_str_eq(codec_error_code_name(error.code), "unknown_field");
	ck_assert_str_eq(error.field, field);
	ck_assert_str_eq(error.message, message);
	json_decref(json);
}

START_TEST(test_a_route_named_move_reads_as_the_body_with_its_type)
{
	expect_route_body("{\"give\":{\"ore\":1},\"want\":{\"wool\":2}}", COMMAND_OFFER_TRADE, 0);
	expect_route_body("{\"give\":{\"ore\":1},\"want\":{\"wool\":2},\"to\":[1,2],\"counter_to\":4}",
			  COMMAND_OFFER_TRADE, 0);
	expect_route_body("{\"give\":{\"ore\":1}}", COMMAND_OFFER_TRADE, 0);
	expect_route_body("{\"give\":{\"ore\":1},\"want\":{\"wool\":2},\"trade\":3}", COMMAND_OFFER_TRADE, 0);
	expect_route_body("{\"give\":{\"ore\":1},\"want\":{\"ruby\":2}}", COMMAND_OFFER_TRADE, 0);
	expect_route_body("{\"give\":{\"ore\":1},\"want\":{\"wool\":2},\"to\":[5]}", COMMAND_OFFER_TRADE, 0);
	expect_route_body("{}", COMMAND_ACCEPT_TRADE, 7);
	expect_route_body("{}", COMMAND_DECLINE_TRADE, 65535);
	expect_route_body("{}", COMMAND_WITHDRAW_TRADE, 1);
	expect_route_body("{}", COMMAND_CONFIRM_TRADE, 2);
	expect_route_body("{\"with\":2}", COMMAND_CONFIRM_TRADE, 2);
	expect_route_body("{\"with\":null}", COMMAND_CONFIRM_TRADE, 2);
	expect_route_body("{\"with\":4}", COMMAND_CONFIRM_TRADE, 2);
	expect_route_body("{\"with\":1,\"seat\":0}", COMMAND_CONFIRM_TRADE, 2);
	expect_route_body("{\"victim\":1}", COMMAND_ACCEPT_TRADE, 3);
	expect_route_body_refused("{\"type\":\"offer_trade\",\"give\":{}}", COMMAND_OFFER_TRADE, 0, "type",
				  "the path says what kind of move this is");
	expect_route_body_refused("{\"with\":1,\"type\":\"confirm_trade\",\"trade\":2}", COMMAND_CONFIRM_TRADE, 2,
				  "type", "the path says what kind of move this is");
	expect_route_body_refused("{\"with\":1,\"trade\":2}", COMMAND_CONFIRM_TRADE, 2, "trade",
				  "the path names the trade");

	struct command command;
	json_t *json = load("{}");
	ck_assert(codec_command_from_json_as(json, COMMAND_ACCEPT_TRADE, 9, &command, NULL));
	ck_assert_int_eq(command.type, COMMAND_ACCEPT_TRADE);
	ck_assert_int_eq(command.trade, 9);
	ck_assert(!codec_command_from_json_as(json, COMMAND_TYPE_COUNT, 0, &command, NULL));
	json_decref(json);
}
END_TEST

START_TEST(test_commands_and_actions_render_as_ready_move_bodies)
{
	struct command c = command_of(COMMAND_MOVE_ROBBER);
	c.hex = 4;
	json_t *json = codec_command_to_json(&c);
	char *text = dump(json);
	ck_assert_str_eq(text, "{\"type\":\"move_robber\",\"hex\":4,\"victim\":null}");
	free(text);
	json_decref(json);

	/* Seat 1 (not the active seat 0) holds 2 wool and 1 ore; seat 0's offer 5 is made to
	 * seats 1 and 2, seat 2's offer 6 only to seat 0. */
	struct game state;
	memset(&state, 0, sizeof state);
	state.options.seats = 4;
	state.turn_seat = 0;
	state.players[1].resources[RESOURCE_WOOL] = 2;
	state.players[1].resources[RESOURCE_ORE] = 1;
	state.offers[0].id = 5, state.offers[0].from = 0, state.offers[0].to = 1u << 1 | 1u << 2;
	state.offers[1].id = 6, state.offers[1].from = 2, state.offers[1].to = 1u << 0;
	struct command moves[6];
	moves[0] = command_of(COMMAND_DISCARD), moves[0].is_template = 1, moves[0].count = 4;
	moves[1] = command_of(COMMAND_OFFER_TRADE), moves[1].is_template = 1;
	moves[2] = command_of(COMMAND_ROLL), moves[2].is_template = 1;
	moves[3] = command_of(COMMAND_CONFIRM_TRADE), moves[3].trade = 3;
	moves[4] = command_of(COMMAND_CONFIRM_TRADE), moves[4].trade = 3, moves[4].with = 2;
	moves[5] = command_of(COMMAND_PLAY_KNIGHT), moves[5].hex = 7, moves[5].victim = 1;
	json = codec_actions_to_json(&state, 1, moves, 6);
	text = dump(json);
	ck_assert_str_eq(text, "[{\"type\":\"discard\",\"template\":true,\"count\":4,"
			       "\"hand\":{\"brick\":0,\"lumber\":0,\"wool\":2,\"grain\":0,\"ore\":1}},"
			       "{\"type\":\"offer_trade\",\"template\":true,\"to\":[0],"
			       "\"hand\":{\"brick\":0,\"lumber\":0,\"wool\":2,\"grain\":0,\"ore\":1}},"
			       "{\"type\":\"offer_trade\",\"template\":true,\"to\":[0],\"counter_to\":5,"
			       "\"hand\":{\"brick\":0,\"lumber\":0,\"wool\":2,\"grain\":0,\"ore\":1}},"
			       "{\"type\":\"roll\",\"template\":true},"
			       "{\"type\":\"confirm_trade\",\"trade\":3},"
			       "{\"type\":\"confirm_trade\",\"trade\":3,\"with\":2},"
			       "{\"type\":\"play_knight\",\"hex\":7,\"victim\":1}]");
	free(text);
	json_decref(json);
	json = codec_actions_to_json(&state, 1, NULL, 0);
	ck_assert(json_is_array(json) && json_array_size(json) == 0);
	json_decref(json);
}
END_TEST

/* The members of a listed action that the recipe of the contract (Action) keeps when it
 * completes a template: type, to and counter_to (not template, count, hand). */
static json_t *recipe_body(const json_t *template_json)
{
	json_t *body = json_object();
	static const char *const kept[] = {"type", "to", "counter_to", NULL};
	for (int k = 0; kept[k]; k++) {
		json_t *value = json_object_get(template_json, kept[k]);
		if (value)
			json_object_set(body, kept[k], value);
	}
	return body;
}

/* Whether rules_decide() accepts `body` (a move body) for `seat`: parsed by the codec
 * exactly as POST .../moves parses it. */
static void expect_body_accepted(const struct game *state, int seat, const json_t *body, const char *what)
{
	struct command parsed;
	struct codec_error error;
	char *text = json_dumps(body, JSON_COMPACT);
	ck_assert_msg(codec_command_from_json(body, &parsed, &error), "%s %s: %s", what, text, error.message);
	struct rng rng;
	rng_init(&rng, 5, 6);
	struct event_list events;
	enum error refused = rules_decide(state, seat, &parsed, &rng, &events, NULL);
	ck_assert_msg(refused == ERROR_OK, "%s %s refused: %s", what, text, error_code(refused));
	free(text);
}

/* Every listed move of every position of a random game with trades renders as a body that
 * parses back to the very command, and is accepted sent as it is; every template carries
 * the seat's hand (discard, offer) and is accepted once completed by the contract's recipe
 * (an offer template: one new offer, then one counter-offer per open offer made to the seat,
 * addressed to its maker). */
START_TEST(test_legal_moves_of_random_games_round_trip_as_bodies)
{
	struct games_record game;
	struct command *moves = malloc(sizeof *moves * LEGAL_MOVES_MAX);
	ck_assert_ptr_nonnull(moves);
	unsigned types_seen = 0;
	int counters_seen = 0, inactive_offers_seen = 0;
	for (uint64_t seed = 1; seed <= 2; seed++) {
		games_record_play(&game, (int)(2 + seed), (int)(seed & 1), BOARD_NUMBERS_RANDOM, 1, seed);
		struct game state;
		memset(&state, 0, sizeof state);
		struct rng rng;
		rng_init(&rng, seed, 77);
		for (int i = 0; i < game.count; i++) {
			apply_event(&state, &game.events[i]);
			if (i % 2)
				continue;
			for (int seat = 0; seat < state.options.seats; seat++) {
				int count = legal_moves(&state, seat, moves, LEGAL_MOVES_MAX);
				json_t *actions = codec_actions_to_json(&state, seat, moves, count);
				json_t *hand = writer_resource_map_new(state.players[seat].resources, 1);
				size_t next = 0;
				for (int m = 0; m < count; m++) {
					struct command expected = moves[m];
					int bodies = 1;
					if (expected.type == COMMAND_OFFER_TRADE && expected.is_template)
						for (int o = 0; o < GAME_MAX_OFFERS; o++)
							bodies += state.offers[o].id && state.offers[o].from != seat &&
								  (state.offers[o].to >> seat & 1u);
					for (int b = 0; b < bodies; b++) {
						json_t *listed = json_array_get(actions, next++);
						ck_assert_ptr_nonnull(listed);
						json_t *body;
						if (expected.is_template) {
							ck_assert(json_is_true(json_object_get(listed, "template")));
							if (expected.type != COMMAND_ROLL)
								ck_assert(json_equal(json_object_get(listed, "hand"), hand));
							struct command filled = expected;
							filled.to = 0;
							playout_fill_template(&state, seat, &filled, &rng);
							json_t *choice = codec_command_to_json(&filled);
							body = recipe_body(listed);
							static const char *const chosen[] = {"dice", "resources", "give", "want", NULL};
							for (int k = 0; chosen[k]; k++)
								if (json_object_get(choice, chosen[k]))
									json_object_set(body, chosen[k], json_object_get(choice, chosen[k]));
							json_decref(choice);
							if (expected.type == COMMAND_OFFER_TRADE) {
								counters_seen += b > 0;
								inactive_offers_seen += seat != state.turn_seat;
								/* a seat other than the active one addresses the active seat */
								if (seat != state.turn_seat) {
									json_t *to = json_object_get(listed, "to");
									ck_assert(json_array_size(to) == 1 &&
										  json_integer_value(json_array_get(to, 0)) == state.turn_seat);
								}
								ck_assert(!json_object_get(listed, "counter_to") == (b == 0));
							} else {
								/* discard, roll: the very command once filled in */
								expected = filled;
								expected.count = 0; /* the template's constraint, not part of a move */
								struct command parsed;
								struct codec_error error;
								ck_assert(codec_command_from_json(body, &parsed, &error));
								ck_assert_msg(memcmp(&parsed, &expected, sizeof parsed) == 0, "%s differs",
									      command_type_name(expected.type));
							}
							expect_body_accepted(&state, seat, body, "completed template");
						} else {
							body = json_incref(listed);
							struct command parsed;
							struct codec_error error;
							ck_assert_msg(codec_command_from_json(body, &parsed, &error), "%s: %s",
								      command_type_name(expected.type), error.message);
							ck_assert_msg(memcmp(&parsed, &expected, sizeof parsed) == 0, "%s differs",
								      command_type_name(expected.type));
							ck_assert(!json_object_get(listed, "template"));
							expect_body_accepted(&state, seat, body, "listed action");
						}
						types_seen |= 1u << expected.type;
						json_decref(body);
					}
				}
				ck_assert_uint_eq(next, json_array_size(actions));
				json_decref(hand);
				json_decref(actions);
			}
		}
		games_record_free(&game);
	}
	free(moves);
	ck_assert_msg(types_seen & (1u << COMMAND_OFFER_TRADE), "no offer seen");
	ck_assert_msg(types_seen & (1u << COMMAND_ACCEPT_TRADE), "no accept seen");
	ck_assert_msg(types_seen & (1u << COMMAND_DISCARD), "no discard seen");
	ck_assert_msg(counters_seen > 0, "no counter-offer template seen");
	ck_assert_msg(inactive_offers_seen > 0, "no offer template of a seat other than the active one seen");
}
END_TEST

/* ---- options ---- */

static int options_from_text(const char *text, int seats, struct codec_options *out, struct codec_error *error)
{
	json_t *json = text ? load(text) : NULL;
	out->game.seats = (uint8_t)seats;
	int ok = codec_options_from_json(json, out, error);
	json_decref(json);
	return ok;
}

static void expect_options_refused(const char *text, int seats, const char *code, const char *field)
{
	struct codec_options options;
	struct codec_error error;
	ck_assert_msg(!options_from_text(text, seats, &options, &error), "%s accepted", text);
	ck_assert_msg(strcmp(codec_error_code_name(error.code), code) == 0, "%s: code %s, expected %s", text,
		      codec_error_code_name(error.code), code);
	ck_assert_msg(strcmp(error.field, field) == 0, "%s: field %s, expected %s", text, error.field, field);
}

START_TEST(test_options_parse_with_defaults_and_refuse_bad_members)
{
	struct codec_options options;
	struct codec_error error;
	struct game_options defaults;
	rules_default_options(&defaults);
	defaults.seats = 3;
	ck_assert(options_from_text(NULL, 3, &options, &error));
	ck_assert(memcmp(&options.game, &defaults, sizeof defaults) == 0);
	ck_assert(!options.has_seed && options.turn_timeout_s == 0 && options.on_timeout == CODEC_ON_TIMEOUT_DEFAULT);
	ck_assert(options_from_text("{}", 3, &options, &error));
	ck_assert(memcmp(&options.game, &defaults, sizeof defaults) == 0);

	ck_assert(options_from_text("{\"layout\":\"random\",\"start\":\"draft\",\"numbers\":\"random\",\"edition\":\"2025\","
				    "\"dice\":\"manual\",\"first_seat\":3,\"turn_timeout_s\":86400,\"on_timeout\":\"bot\","
				    "\"seed\":9007199254740991}",
				    4, &options, &error));
	ck_assert_uint_eq(options.game.seats, 4);
	ck_assert_uint_eq(options.game.layout, GAME_LAYOUT_RANDOM);
	ck_assert_uint_eq(options.game.numbers, BOARD_NUMBERS_RANDOM);
	ck_assert_uint_eq(options.game.edition, GAME_EDITION_2025);
	ck_assert_uint_eq(options.game.dice, GAME_DICE_MANUAL);
	ck_assert_int_eq(options.game.first_seat, 3);
	ck_assert_int_eq(options.turn_timeout_s, 86400);
	ck_assert_uint_eq(options.on_timeout, CODEC_ON_TIMEOUT_BOT);
	ck_assert(options.has_seed && options.seed == UINT64_C(9007199254740991));

	json_t *json = codec_options_to_json(&options);
	char *text = dump(json);
	ck_assert_str_eq(text, "{\"seats\":4,\"layout\":\"random\",\"start\":\"draft\",\"numbers\":\"random\","
			       "\"edition\":\"2025\",\"dice\":\"manual\",\"first_seat\":3,\"turn_timeout_s\":86400,"
			       "\"on_timeout\":\"bot\"}");
	free(text);
	json_decref(json);
	ck_assert(options_from_text("{\"start\":\"fixed\",\"first_seat\":null}", 4, &options, &error));
	ck_assert_int_eq(options.game.first_seat, GAME_NO_SEAT);

	expect_options_refused("{\"seats\":4}", 4, "unknown_field", "options.seats");
	expect_options_refused("{\"colour\":\"red\"}", 4, "unknown_field", "options.colour");
	expect_options_refused("{\"layout\":\"hexagonal\"}", 4, "invalid_field", "options.layout");
	expect_options_refused("{\"dice\":1}", 4, "invalid_field", "options.dice");
	expect_options_refused("{\"first_seat\":3}", 3, "invalid_field", "options.first_seat");
	expect_options_refused("{\"first_seat\":-1}", 4, "invalid_field", "options.first_seat");
	expect_options_refused("{\"start\":\"fixed\",\"layout\":\"random\"}", 4, "invalid_field", "options.start");
	expect_options_refused("{\"turn_timeout_s\":31536001}", 4, "invalid_field", "options.turn_timeout_s");
	expect_options_refused("{\"turn_timeout_s\":-5}", 4, "invalid_field", "options.turn_timeout_s");
	expect_options_refused("{\"on_timeout\":\"pass\"}", 4, "invalid_field", "options.on_timeout");
	expect_options_refused("{\"seed\":-1}", 4, "invalid_field", "options.seed");
	/* Above 2^53-1 a JavaScript client could not carry the seed it gave. */
	expect_options_refused("{\"seed\":9007199254740992}", 4, "invalid_field", "options.seed");
	expect_options_refused("{\"seed\":9223372036854775807}", 4, "invalid_field", "options.seed");
	expect_options_refused("{\"seed\":\"12\"}", 4, "invalid_field", "options.seed");
	expect_options_refused("[]", 4, "invalid_field", "options");
	expect_options_refused("{}", 5, "invalid_field", "seats");
}
END_TEST

/* ---- the view ---- */

static const char *const test_names[GAME_MAX_SEATS] = {"Ada", "Brook", NULL, "Dee"};

static json_t *view_json(const struct game *game, int viewer)
{
	struct game_view view;
	view_game(game, viewer, &view);
	return codec_view_to_json(&view, test_names);
}

START_TEST(test_view_has_you_for_a_seat_and_no_hands_for_a_spectator)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_set_hand(&game, 0, 1, 2, 3, 0, 0);
	support_set_hand(&game, 1, 0, 0, 4, 5, 6);
	support_set_hand(&game, 2, 7, 0, 0, 0, 1);
	support_set_hand(&game, 3, 0, 3, 0, 0, 0);
	support_give_development(&game, 1, DEVELOPMENT_KNIGHT, 2);
	support_give_development(&game, 2, DEVELOPMENT_VICTORY_POINT, 1);

	json_t *json = view_json(&game, 1);
	static const char *const members[] = {"version", "status", "phase", "options", "turn", "last_roll",
					      "first_seat", "winner", "robber", "bank", "development_cards_left",
					      "buildings", "roads", "longest_road", "largest_army", "pending", "players",
					      "trades", "you"};
	const char *key;
	json_t *value;
	size_t index = 0;
	json_object_foreach(json, key, value) {
		ck_assert_msg(index < 19 && strcmp(key, members[index]) == 0, "member %zu is %s", index, key);
		index++;
	}
	ck_assert_uint_eq(index, 19);
	json_t *you = json_object_get(json, "you");
	ck_assert_int_eq(json_integer_value(json_object_get(you, "seat")), 1);
	char *text = dump(json_object_get(you, "resources"));
	ck_assert_str_eq(text, "{\"brick\":0,\"lumber\":0,\"wool\":4,\"grain\":5,\"ore\":6}");
	free(text);
	text = dump(json_object_get(json_object_get(you, "development_cards"), "knight"));
	ck_assert_str_eq(text, "{\"count\":2,\"playable\":0}"); /* not seat 1's turn */
	free(text);
	ck_assert_str_eq(json_string_value(json_object_get(json, "status")), "playing");
	ck_assert_str_eq(json_string_value(json_object_get(json, "phase")), "roll");

	/* The only hand in seat 1's view is seat 1's own; other seats appear as counts. */
	text = dump(json);
	const char *first = strstr(text, "\"resources\"");
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_null(strstr(first + 1, "\"resources\""));
	ck_assert_ptr_null(strstr(text, "victory_point\":{\"count\":1")); /* seat 2's hidden card */
	free(text);
	json_t *players = json_object_get(json, "players");
	ck_assert_uint_eq(json_array_size(players), 4);
	for (size_t s = 0; s < 4; s++)
		ck_assert_uint_eq(json_object_size(json_array_get(players, s)), 10);
	json_t *seat2 = json_array_get(players, 2);
	ck_assert(json_is_null(json_object_get(seat2, "name")));
	ck_assert_int_eq(json_integer_value(json_object_get(seat2, "resource_count")), 8);
	ck_assert_int_eq(json_integer_value(json_object_get(seat2, "development_card_count")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(seat2, "victory_points")), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(players, 3), "name")), "Dee");
	json_decref(json);

	json = view_json(&game, VIEW_SPECTATOR);
	ck_assert_ptr_null(json_object_get(json, "you"));
	text = dump(json);
	ck_assert_ptr_null(strstr(text, "\"resources\""));
	ck_assert_ptr_null(strstr(text, "\"development_cards\""));
	ck_assert_ptr_null(strstr(text, "\"you\""));
	free(text);
	json_decref(json);
}
END_TEST

START_TEST(test_view_pending_lists_discards_and_the_setup_node)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	struct command place = support_build(COMMAND_BUILD_SETTLEMENT, 10);
	support_ok(&game, 0, &place, NULL);
	json_t *json = view_json(&game, 0);
	json_t *pending = json_object_get(json, "pending");
	char *text = dump(pending);
	ck_assert_str_eq(text, "{\"seats\":[0],\"discards\":[],\"setup_node\":10}");
	free(text);
	ck_assert_str_eq(json_string_value(json_object_get(json, "status")), "setup");
	text = dump(json_object_get(json, "buildings"));
	ck_assert_str_eq(text, "[{\"node\":10,\"seat\":0,\"kind\":\"settlement\"}]");
	free(text);
	text = dump(json_object_get(json, "turn"));
	ck_assert_str_eq(text, "{\"number\":0,\"seat\":0,\"rolled\":false,\"dice\":null}");
	free(text);
	json_decref(json);

	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_set_hand(&game, 0, 2, 2, 2, 2, 1); /* 9 cards: owes 4 */
	support_set_hand(&game, 1, 1, 0, 0, 0, 0);
	support_set_hand(&game, 2, 2, 2, 2, 2, 2); /* 10 cards: owes 5 */
	support_set_hand(&game, 3, 0, 0, 0, 0, 0);
	support_roll(&game, 3, 4);
	json = view_json(&game, 3);
	text = dump(json_object_get(json, "pending"));
	ck_assert_str_eq(text, "{\"seats\":[0,2],\"discards\":[{\"seat\":0,\"count\":4},{\"seat\":2,\"count\":5}],"
			       "\"setup_node\":null}");
	free(text);
	text = dump(json_object_get(json, "turn"));
	ck_assert_str_eq(text, "{\"number\":1,\"seat\":0,\"rolled\":true,\"dice\":[3,4]}");
	free(text);
	json_decref(json);
}
END_TEST

START_TEST(test_view_lists_open_trades)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_roll(&game, 2, 3);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 2, 0, 0);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[RESOURCE_BRICK] = 1;
	offer.want[RESOURCE_WOOL] = 2;
	offer.to = 0x2;
	support_ok(&game, 0, &offer, NULL);
	struct command accept = support_command(COMMAND_ACCEPT_TRADE);
	accept.trade = 1;
	support_ok(&game, 1, &accept, NULL);
	json_t *json = view_json(&game, 2);
	char *text = dump(json_object_get(json, "trades"));
	ck_assert_str_eq(text, "[{\"id\":1,\"from\":0,\"to\":[1],\"give\":{\"brick\":1},\"want\":{\"wool\":2},"
			       "\"counter_to\":null,\"accepted\":[1],\"declined\":[]}]");
	free(text);
	json_decref(json);
}
END_TEST

/* ---- the board ---- */

static int listed(const json_t *array, json_int_t id)
{
	size_t index;
	json_t *entry;
	json_array_foreach(array, index, entry)
		if (json_integer_value(entry) == id)
			return 1;
	return 0;
}

START_TEST(test_board_has_19_54_72_9_entries_with_consistent_adjacency)
{
	struct board_layout layout;
	struct rng rng;
	rng_init(&rng, 5, 0);
	board_random(&layout, BOARD_NUMBERS_RANDOM, &rng);
	json_t *board = codec_board_to_json(&layout);
	json_t *hexes = json_object_get(board, "hexes"), *nodes = json_object_get(board, "nodes");
	json_t *edges = json_object_get(board, "edges"), *harbors = json_object_get(board, "harbors");
	ck_assert_uint_eq(json_array_size(hexes), 19);
	ck_assert_uint_eq(json_array_size(nodes), 54);
	ck_assert_uint_eq(json_array_size(edges), 72);
	ck_assert_uint_eq(json_array_size(harbors), 9);

	int deserts = 0;
	for (size_t h = 0; h < 19; h++) {
		json_t *hex = json_array_get(hexes, h);
		ck_assert_int_eq(json_integer_value(json_object_get(hex, "id")), (json_int_t)h);
		int desert = strcmp(json_string_value(json_object_get(hex, "terrain")), "desert") == 0;
		deserts += desert;
		ck_assert(desert == json_is_null(json_object_get(hex, "number")));
	}
	ck_assert_int_eq(deserts, 1);
	int harbor_nodes = 0;
	for (size_t n = 0; n < 54; n++) {
		json_t *node = json_array_get(nodes, n);
		ck_assert_int_eq(json_integer_value(json_object_get(node, "id")), (json_int_t)n);
		json_t *neighbors = json_object_get(node, "neighbors"), *node_edges = json_object_get(node, "edges");
		ck_assert(json_array_size(neighbors) >= 2 && json_array_size(neighbors) <= 3);
		ck_assert_uint_eq(json_array_size(neighbors), json_array_size(node_edges));
		size_t index;
		json_t *entry;
		json_array_foreach(neighbors, index, entry) {
			json_t *other = json_array_get(nodes, (size_t)json_integer_value(entry));
			ck_assert_msg(listed(json_object_get(other, "neighbors"), (json_int_t)n), "node %zu not mutual", n);
		}
		json_array_foreach(node_edges, index, entry) {
			json_t *edge_nodes = json_object_get(json_array_get(edges, (size_t)json_integer_value(entry)), "nodes");
			ck_assert(listed(edge_nodes, (json_int_t)n));
			/* the edge's other end is a neighbor */
			json_int_t a = json_integer_value(json_array_get(edge_nodes, 0));
			json_int_t b = json_integer_value(json_array_get(edge_nodes, 1));
			ck_assert(listed(neighbors, a == (json_int_t)n ? b : a));
		}
		json_t *node_hexes = json_object_get(node, "hexes");
		ck_assert(json_array_size(node_hexes) >= 1 && json_array_size(node_hexes) <= 3);
		json_array_foreach(node_hexes, index, entry) {
			int hex = (int)json_integer_value(entry);
			int corner = 0;
			for (int k = 0; k < 6; k++)
				corner |= board_hex_nodes[hex][k] == (int)n;
			ck_assert(corner);
		}
		harbor_nodes += !json_is_null(json_object_get(node, "harbor"));
	}
	ck_assert_int_eq(harbor_nodes, 18);
	for (size_t e = 0; e < 72; e++)
		ck_assert_uint_eq(json_array_size(json_object_get(json_array_get(edges, e), "nodes")), 2);
	int generic = 0;
	for (size_t slot = 0; slot < 9; slot++) {
		json_t *harbor = json_array_get(harbors, slot);
		const char *type = json_string_value(json_object_get(harbor, "type"));
		generic += strcmp(type, "3:1") == 0;
		json_t *pair = json_object_get(harbor, "nodes");
		for (size_t k = 0; k < 2; k++) {
			json_t *node = json_array_get(nodes, (size_t)json_integer_value(json_array_get(pair, k)));
			ck_assert_str_eq(json_string_value(json_object_get(node, "harbor")), type);
		}
	}
	ck_assert_int_eq(generic, 4);
	json_decref(board);
}
END_TEST

static double number_of(const json_t *object, const char *key)
{
	json_t *value = json_object_get(object, key);
	ck_assert_msg(json_is_number(value), "%s is not a number", key);
	return json_number_value(value);
}

/* The projection every drawing shares: node px/py are the grid scaled to equal units, each
 * hex lists its corners clockwise from north at distance 1, each harbor anchor lies at sea
 * facing away from the island, and the box holds every hex and anchor. */
START_TEST(test_board_projection_draws_unit_hexes_clockwise_and_harbors_at_sea)
{
	struct board_layout layout;
	board_beginner(&layout);
	json_t *board = codec_board_to_json(&layout);
	json_t *hexes = json_object_get(board, "hexes"), *nodes = json_object_get(board, "nodes");
	json_t *harbors = json_object_get(board, "harbors"), *projection = json_object_get(board, "projection");
	const double apothem = sqrt(3.0) / 2.0, pi = acos(-1.0);
	ck_assert_int_eq(json_integer_value(json_object_get(projection, "hex_radius")), 1);
	double min_x = number_of(projection, "min_x"), max_x = number_of(projection, "max_x");
	double min_y = number_of(projection, "min_y"), max_y = number_of(projection, "max_y");
	double seen_min_x = 1e9, seen_max_x = -1e9, seen_min_y = 1e9, seen_max_y = -1e9;

	for (size_t n = 0; n < 54; n++) {
		json_t *node = json_array_get(nodes, n);
		double px = number_of(node, "px"), py = number_of(node, "py");
		ck_assert_double_eq_tol(px, (double)json_integer_value(json_object_get(node, "x")) * apothem, 1e-4);
		ck_assert_double_eq_tol(py, (double)json_integer_value(json_object_get(node, "y")) / 2.0, 1e-4);
	}
	/* the middle hex is the origin */
	ck_assert_double_eq_tol(number_of(json_array_get(hexes, 9), "px"), 0.0, 1e-9);
	ck_assert_double_eq_tol(number_of(json_array_get(hexes, 9), "py"), 0.0, 1e-9);
	for (size_t h = 0; h < 19; h++) {
		json_t *hex = json_array_get(hexes, h);
		double cx = number_of(hex, "px"), cy = number_of(hex, "py");
		ck_assert_double_eq_tol(cx, (2 * json_integer_value(json_object_get(hex, "q")) +
		                             json_integer_value(json_object_get(hex, "r"))) * apothem, 1e-4);
		json_t *corners = json_object_get(hex, "corners");
		ck_assert_uint_eq(json_array_size(corners), 6);
		for (size_t k = 0; k < 6; k++) {
			json_int_t id = json_integer_value(json_array_get(corners, k));
			ck_assert(listed(json_object_get(json_array_get(nodes, (size_t)id), "hexes"), (json_int_t)h));
			json_t *node = json_array_get(nodes, (size_t)id);
			double dx = number_of(node, "px") - cx, dy = number_of(node, "py") - cy;
			ck_assert_msg(fabs(hypot(dx, dy) - 1.0) < 1e-3, "hex %zu corner %zu at distance %f", h, k,
			              hypot(dx, dy));
			/* clockwise with y southward from north: angles -90, -30, 30, 90, 150, 210 */
			double angle = (-90.0 + 60.0 * (double)k) * pi / 180.0;
			ck_assert_msg(fabs(dx - cos(angle)) < 1e-3 && fabs(dy - sin(angle)) < 1e-3,
			              "hex %zu corner %zu is not at %d degrees", h, k, -90 + 60 * (int)k);
			seen_min_x = fmin(seen_min_x, cx + dx);
			seen_max_x = fmax(seen_max_x, cx + dx);
			seen_min_y = fmin(seen_min_y, cy + dy);
			seen_max_y = fmax(seen_max_y, cy + dy);
		}
	}
	for (size_t slot = 0; slot < 9; slot++) {
		json_t *harbor = json_array_get(harbors, slot);
		double ax = number_of(harbor, "px"), ay = number_of(harbor, "py");
		json_int_t facing = json_integer_value(json_object_get(harbor, "facing"));
		ck_assert(json_is_integer(json_object_get(harbor, "facing")));
		ck_assert(facing >= 0 && facing < 360 && facing % 30 == 0);
		json_t *pair = json_object_get(harbor, "nodes");
		json_t *a = json_array_get(nodes, (size_t)json_integer_value(json_array_get(pair, 0)));
		json_t *b = json_array_get(nodes, (size_t)json_integer_value(json_array_get(pair, 1)));
		double mx = (number_of(a, "px") + number_of(b, "px")) / 2, my = (number_of(a, "py") + number_of(b, "py")) / 2;
		double fx = cos((double)facing * pi / 180.0), fy = sin((double)facing * pi / 180.0);
		/* 0.75 out from the coast's middle, along the facing, which is normal to the coast */
		ck_assert_msg(fabs(ax - (mx + 0.75 * fx)) < 1e-3 && fabs(ay - (my + 0.75 * fy)) < 1e-3,
		              "harbor %zu anchor is not 0.75 along its facing", slot);
		double sx = number_of(b, "px") - number_of(a, "px"), sy = number_of(b, "py") - number_of(a, "py");
		ck_assert_double_eq_tol(sx * fx + sy * fy, 0.0, 1e-3);
		/* facing away from the island's centre, and out at sea: outside every hex's circle */
		ck_assert_msg(mx * fx + my * fy > 0, "harbor %zu faces inland", slot);
		for (size_t h = 0; h < 19; h++) {
			json_t *hex = json_array_get(hexes, h);
			ck_assert_msg(hypot(ax - number_of(hex, "px"), ay - number_of(hex, "py")) > 1.0,
			              "harbor %zu anchor lies on hex %zu", slot, h);
		}
		seen_min_x = fmin(seen_min_x, ax);
		seen_max_x = fmax(seen_max_x, ax);
		seen_min_y = fmin(seen_min_y, ay);
		seen_max_y = fmax(seen_max_y, ay);
	}
	ck_assert_double_eq_tol(min_x, seen_min_x, 1e-3);
	ck_assert_double_eq_tol(max_x, seen_max_x, 1e-3);
	ck_assert_double_eq_tol(min_y, seen_min_y, 1e-3);
	ck_assert_double_eq_tol(max_y, seen_max_y, 1e-3);
	/* rounded to 4 decimals: printed short at 15 significant digits */
	char *text = json_dumps(json_array_get(nodes, 3), JSON_COMPACT | JSON_REAL_PRECISION(15));
	ck_assert_msg(strstr(text, "\"px\":-2.5981,\"py\":-3.5") != NULL, "%s", text);
	free(text);
	json_decref(board);
}
END_TEST

/* ---- whole games ---- */

/* Dump every event, parse it back, replay into a fresh state: equal to the live game. */
static void round_trip_game(int seats, int layout, int numbers, uint64_t seed)
{
	struct games_record game;
	ck_assert_msg(games_record_play(&game, seats, layout, numbers, 1, seed), "game %d/%d/%llu did not finish", seats,
		      layout, (unsigned long long)seed);
	struct game replayed;
	memset(&replayed, 0, sizeof replayed);
	for (int i = 0; i < game.count; i++) {
		char *text = codec_event_dump(&game.events[i], seats);
		struct event back;
		struct codec_error error;
		ck_assert_msg(codec_event_parse(text, strlen(text), &back, &error), "%s: %s", text, error.message);
		ck_assert_msg(memcmp(&back, &game.events[i], sizeof back) == 0, "event %d differs: %s", i, text);
		ck_assert_msg(apply_event_valid(&replayed, &back), "event %d not valid: %s", i, text);
		apply_event(&replayed, &back);
		free(text);
	}
	ck_assert(memcmp(&replayed, &game.final, sizeof replayed) == 0);
	games_record_free(&game);
}

START_TEST(test_random_games_replay_from_dumped_events_byte_for_byte)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		round_trip_game(3, GAME_LAYOUT_BEGINNER, BOARD_NUMBERS_SPIRAL, seed);
		round_trip_game(4, GAME_LAYOUT_BEGINNER, BOARD_NUMBERS_SPIRAL, seed);
		round_trip_game(3, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_RANDOM, seed);
		round_trip_game(4, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_SPIRAL, seed);
	}
}
END_TEST

/* The stored payload form: the dump without its "type", read back with the row's type to
 * the same event; typed payloads (older rows) still read; a type that disagrees is refused. */
START_TEST(test_payloads_omit_the_type_and_read_back_with_the_row_type)
{
	struct games_record game = {0};
	ck_assert(games_record_play(&game, 4, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_SPIRAL, 1, 11));
	for (int i = 0; i < game.count; i++) {
		const struct event *event = &game.events[i];
		char *full = codec_event_dump(event, 4);
		char *payload = codec_payload_dump(event, 4);
		ck_assert_ptr_null(strstr(payload, "\"type\""));
		ck_assert_uint_eq(strlen(full) - strlen(payload), strlen(event_type_name(event->type)) + 10);
		struct event back;
		struct codec_error error;
		ck_assert_msg(codec_payload_parse(event->type, payload, strlen(payload), &back, &error), "%s: %s",
			      payload, error.message);
		ck_assert_mem_eq(&back, event, sizeof back);
		ck_assert(codec_payload_parse(event->type, full, strlen(full), &back, &error));
		ck_assert_mem_eq(&back, event, sizeof back);
		int other = (event->type + 1) % EVENT_TYPE_COUNT;
		ck_assert(!codec_payload_parse(other, full, strlen(full), &back, &error));
		free(full);
		free(payload);
	}
	struct event back;
	struct codec_error error;
	ck_assert(!codec_payload_parse(EVENT_TURN_ENDED, "[]", 2, &back, &error));
	ck_assert(!codec_payload_parse(EVENT_TYPE_COUNT, "{}", 2, &back, &error));
	games_record_free(&game);
}
END_TEST

/* The log of a game as the API's GET .../moves returns it: events with an envelope.
 * `viewer` >= -1 redacts for that viewer; -2 leaves events whole. Caller frees. */
static char *log_text(const struct games_record *game, int count, int viewer, int wrapped)
{
	json_t *events = json_array();
	for (int i = 0; i < count; i++) {
		struct event seen = game->events[i];
		if (viewer >= -1)
			view_event(&game->events[i], viewer, &seen);
		json_t *entry = codec_event_to_json(&seen, game->final.options.seats);
		json_object_set_new(entry, "version", json_integer(i + 1));
		json_object_set_new(entry, "created_at", json_string("2026-11-29T19:50:04Z"));
		json_object_set_new(entry, "origin", json_string("player"));
		json_array_append_new(events, entry);
	}
	json_t *root = events;
	if (wrapped) {
		root = json_object();
		json_object_set_new(root, "version", json_integer(count));
		json_object_set_new(root, "events", events);
	}
	char *text = json_dumps(root, JSON_COMPACT);
	json_decref(root);
	ck_assert_ptr_nonnull(text);
	return text;
}

START_TEST(test_replay_log_rebuilds_a_random_game)
{
	struct games_record game;
	ck_assert(games_record_play(&game, 4, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_SPIRAL, 1, 21));
	struct game replayed;
	char message[256];
	for (int wrapped = 0; wrapped < 2; wrapped++) {
		char *text = log_text(&game, game.count, -2, wrapped);
		ck_assert_msg(codec_replay_log(text, strlen(text), &replayed, message, sizeof message), "%s", message);
		ck_assert(memcmp(&replayed, &game.final, sizeof replayed) == 0);
		free(text);
	}
	/* A prefix of the log is a game in progress. */
	char *text = log_text(&game, game.count / 2, -2, 1);
	ck_assert_msg(codec_replay_log(text, strlen(text), &replayed, message, sizeof message), "%s", message);
	ck_assert_uint_eq(replayed.version, (uint32_t)(game.count / 2));
	free(text);

	/* A log seen by a seat hides other seats' draws: it is refused, naming the entry. */
	int first_hidden = -1;
	for (int i = 0; i < game.count && first_hidden < 0; i++)
		if (game.events[i].type == EVENT_DEVELOPMENT_CARD_BOUGHT && game.events[i].seat != 0)
			first_hidden = i;
	ck_assert_int_ge(first_hidden, 0);
	text = log_text(&game, game.count, 0, 0);
	ck_assert(!codec_replay_log(text, strlen(text), &replayed, message, sizeof message));
	ck_assert_ptr_nonnull(strstr(message, "redacted"));
	free(text);
	games_record_free(&game);
}
END_TEST

START_TEST(test_replay_log_refuses_bad_logs_with_a_message)
{
	struct game replayed;
	char message[256];
	static const char *const bad[] = {
		"",
		"not json",
		"[]",
		"{\"version\":3}",
		"{\"events\":{}}",
		"[{\"type\":\"turn_ended\",\"seat\":0}]",
		"[{\"type\":\"game_created\"}]",
		"[1,2,3]",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		message[0] = '\0';
		ck_assert_msg(!codec_replay_log(bad[i], strlen(bad[i]), &replayed, message, sizeof message), "%s", bad[i]);
		ck_assert_msg(message[0] != '\0', "no message for %s", bad[i]);
	}
	ck_assert(!codec_replay_log(NULL, 0, &replayed, message, sizeof message));

	/* A settlement on an occupied node: refused at that entry. */
	struct games_record game;
	ck_assert(games_record_play(&game, 3, GAME_LAYOUT_BEGINNER, BOARD_NUMBERS_SPIRAL, 0, 4));
	ck_assert_uint_eq(game.events[1].type, EVENT_SETTLEMENT_BUILT);
	ck_assert_uint_eq(game.events[3].type, EVENT_SETTLEMENT_BUILT);
	game.events[3].node = game.events[1].node;
	char *text = log_text(&game, 10, -2, 0);
	ck_assert(!codec_replay_log(text, strlen(text), &replayed, message, sizeof message));
	ck_assert_msg(strstr(message, "event 4 (settlement_built)") != NULL, "%s", message);
	free(text);
	games_record_free(&game);
}
END_TEST

/* Found by tests/fuzz (crashes/codec_replay, crashes/codec_event): jansson's error for a
 * bad escape quotes the token up to the first byte of the character after the backslash;
 * the refusal messages that quote it, and a message cut by a small buffer, stay UTF-8. */
START_TEST(test_refusal_messages_stay_utf8_when_jansson_quotes_half_a_character)
{
	static const char log[] = "[{\"bbb\\\xef\x96\x97";
	static struct game replayed;
	char message[256];
	ck_assert(!codec_replay_log(log, sizeof log - 1, &replayed, message, sizeof message));
	ck_assert_msg(strstr(message, "invalid escape") != NULL, "%s", message);
	json_t *string = json_string(message);
	ck_assert_msg(string != NULL, "not UTF-8: %s", message);
	json_decref(string);

	static const char payload[] = "{\"bbb\\\xef\x96\x97";
	struct event event;
	struct codec_error error;
	ck_assert(!codec_payload_parse(EVENT_TURN_ENDED, payload, sizeof payload - 1, &event, &error));
	ck_assert_str_eq(codec_error_code_name(error.code), "invalid_json");
	string = json_string(error.message);
	ck_assert_msg(string != NULL, "not UTF-8: %s", error.message);
	json_decref(string);

	/* A refusal quoting a non-ASCII member, cut by a message buffer that ends inside it. */
	static const char bad_member[] = "[{\"type\":\"game_created\",\"\xc3\xa9\xc3\xa9\xc3\xa9\":1}]";
	for (size_t size = 12; size < 40; size++) {
		char small[40];
		ck_assert(!codec_replay_log(bad_member, sizeof bad_member - 1, &replayed, small, size));
		string = json_string(small);
		ck_assert_msg(string != NULL, "size %zu: not UTF-8: %s", size, small);
		json_decref(string);
	}
}
END_TEST

/* Found by tests/fuzz (crashes/codec_move): a maritime trade the parser accepts (the
 * engine judges the amounts) rendered with a "rate" of 0 or 1, which the parser refuses,
 * so the body codec_command_to_json() wrote did not read back. */
START_TEST(test_every_parsed_maritime_trade_renders_as_a_body_that_parses)
{
	static const char *const bodies[] = {
		"{\"type\":\"maritime_trade\",\"give\":{\"wool\":0},\"get\":{\"brick\":1}}",
		"{\"type\":\"maritime_trade\",\"give\":{\"wool\":1},\"get\":{\"brick\":1}}",
		"{\"type\":\"maritime_trade\",\"give\":{\"wool\":10},\"get\":{\"brick\":2}}",
		"{\"type\":\"maritime_trade\",\"give\":{\"wool\":3},\"get\":{}}",
		"{\"type\":\"maritime_trade\",\"give\":{\"wool\":6},\"get\":{\"brick\":2}}",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		json_t *body = load(bodies[i]);
		struct command command, again;
		struct codec_error error;
		ck_assert_msg(codec_command_from_json(body, &command, &error), "%s: %s", bodies[i], error.message);
		json_t *rendered = codec_command_to_json(&command);
		char *text = dump(rendered);
		ck_assert_msg(codec_command_from_json(rendered, &again, &error), "%s renders as %s: %s", bodies[i], text,
			      error.message);
		ck_assert_mem_eq(&again, &command, sizeof command);
		free(text);
		json_decref(rendered);
		json_decref(body);
	}
}
END_TEST

/* `catan replay FILE` end to end: the program named by $CATAN (the build's, from
 * tests/tests.mk), or build/catan. */
static int run_catan_replay(const char *path, char *output, size_t output_size)
{
	const char *catan = getenv("CATAN");
	if (!catan || !*catan)
		catan = "build/catan";
	ck_assert_msg(access(catan, X_OK) == 0, "%s is not an executable: set CATAN", catan);
	char command[1024];
	snprintf(command, sizeof command, "'%s' replay '%s' 2>&1", catan, path);
	FILE *pipe = popen(command, "r");
	ck_assert_ptr_nonnull(pipe);
	size_t length = fread(output, 1, output_size - 1, pipe);
	output[length] = '\0';
	int status = pclose(pipe);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

START_TEST(test_catan_replay_prints_the_final_state_of_a_log_file)
{
	struct games_record game;
	ck_assert(games_record_play(&game, 3, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_RANDOM, 1, 8));
	char path[] = "/tmp/catan-replay-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *file = fdopen(fd, "w");
	char *text = log_text(&game, game.count, -2, 1);
	fputs(text, file);
	fclose(file);
	free(text);

	char output[4096], expected[256];
	ck_assert_int_eq(run_catan_replay(path, output, sizeof output), 0);
	snprintf(expected, sizeof expected, "version %u, phase finished, turn %u (seat %d), winner seat %d\n",
		 (unsigned)game.final.version, (unsigned)game.final.turn_number, game.final.turn_seat,
		 game.final.winner);
	ck_assert_msg(strncmp(output, expected, strlen(expected)) == 0, "got: %s", output);
	ck_assert_ptr_nonnull(strstr(output, "seat 2: "));

	file = fopen(path, "w");
	fputs("[{\"type\":\"game_created\",\"options\":7}]", file);
	fclose(file);
	ck_assert_int_eq(run_catan_replay(path, output, sizeof output), 1);
	ck_assert_msg(strstr(output, "catan replay: event 1") != NULL, "got: %s", output);
	unlink(path);
	games_record_free(&game);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("codec");
	TCase *shapes = tcase_create("shapes");
	tcase_add_test(shapes, test_every_event_type_round_trips_byte_for_byte);
	tcase_add_test(shapes, test_game_created_round_trips_with_start_rolls_and_fixed_start);
	tcase_add_test(shapes, test_event_dump_is_compact_and_omits_zero_counts);
	tcase_add_test(shapes, test_redacted_events_show_null_for_hidden_card_and_resource);
	tcase_add_test(shapes, test_event_parse_refuses_bad_events_with_code_and_member);
	tcase_add_test(shapes, test_every_move_type_parses_to_its_command);
	tcase_add_test(shapes, test_moves_accept_the_aliases_of_other_editions);
	tcase_add_test(shapes, test_move_refusals_name_the_code_and_member);
	tcase_add_test(shapes, test_a_route_named_move_reads_as_the_body_with_its_type);
	tcase_add_test(shapes, test_commands_and_actions_render_as_ready_move_bodies);
	tcase_add_test(shapes, test_options_parse_with_defaults_and_refuse_bad_members);
	tcase_add_test(shapes, test_view_has_you_for_a_seat_and_no_hands_for_a_spectator);
	tcase_add_test(shapes, test_view_pending_lists_discards_and_the_setup_node);
	tcase_add_test(shapes, test_view_lists_open_trades);
	tcase_add_test(shapes, test_board_has_19_54_72_9_entries_with_consistent_adjacency);
	tcase_add_test(shapes, test_board_projection_draws_unit_hexes_clockwise_and_harbors_at_sea);
	suite_add_tcase(suite, shapes);

	TCase *games = tcase_create("games");
	tcase_set_timeout(games, 300);
	tcase_add_test(games, test_event_parse_survives_truncation_and_corruption);
	tcase_add_test(games, test_legal_moves_of_random_games_round_trip_as_bodies);
	tcase_add_test(games, test_random_games_replay_from_dumped_events_byte_for_byte);
	tcase_add_test(games, test_payloads_omit_the_type_and_read_back_with_the_row_type);
	tcase_add_test(games, test_replay_log_rebuilds_a_random_game);
	tcase_add_test(games, test_replay_log_refuses_bad_logs_with_a_message);
	tcase_add_test(games, test_refusal_messages_stay_utf8_when_jansson_quotes_half_a_character);
	tcase_add_test(games, test_every_parsed_maritime_trade_renders_as_a_body_that_parses);
	tcase_add_test(games, test_catan_replay_prints_the_final_state_of_a_log_file);
	suite_add_tcase(suite, games);
	return suite;
}
