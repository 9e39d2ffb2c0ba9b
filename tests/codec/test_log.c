/*
 * test_log.c - events in JSON (codec/log.h): every event type survives dump and parse byte
 * for byte, dumps are compact, a redacted event shows what it hides as null, bad and
 * damaged event text is refused with the right code and member; the stored payload form;
 * whole random games replay from their dumped events, and logs replay (through the library
 * and through `catan replay`), refusing bad ones with a message that stays UTF-8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "codec/log.h"
#include "engine/apply.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "bench/games.h"
#include "tests/check_main.h"
#include "tests/codec/support.h"

static void expect_event_refused(const char *text, const char *code, const char *field)
{
	struct event event;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	ck_assert_msg(!support_event_parse_exact(text, strlen(text), &event, &error), "%s was accepted", text);
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
	ck_assert_msg(support_event_parse_exact(text, strlen(text), &back, &error), "%s refused: %s (%s at %s)", text,
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
	e = &events[n++], event_init(e, EVENT_DEVELOPMENT_CARD_BOUGHT), e->seat = 2,
	e->card = DEVELOPMENT_VICTORY_POINT;
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
	e = &events[n++], event_init(e, EVENT_RESIGNED), e->seat = 2;
	e = &events[n++], event_init(e, EVENT_SEAT_RELEASED), e->seat = 1;
	e = &events[n++], event_init(e, EVENT_SEAT_SUBSTITUTED), e->seat = 0;
	e = &events[n++], event_init(e, EVENT_QUIET_HOURS_SET), e->seat = 2;
	memcpy(e->quiet.zone, "America/Argentina/Buenos_Aires", sizeof "America/Argentina/Buenos_Aires");
	e->quiet.from_min = 22 * 60 + 30, e->quiet.to_min = 7 * 60;
	e = &events[n++], event_init(e, EVENT_QUIET_HOURS_CLEARED), e->seat = 2;
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
	expect_dump(&events[EVENT_DISCARDED], 4,
		    "{\"type\":\"discarded\",\"seat\":1,\"resources\":{\"grain\":1,\"ore\":2}}");
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
	expect_dump(&events[EVENT_SETTLEMENT_BUILT], 4,
		    "{\"type\":\"settlement_built\",\"seat\":2,\"node\":17,\"free\":true}");
	expect_dump(&events[EVENT_GAME_WON], 4,
		    "{\"type\":\"game_won\",\"seat\":2,\"points\":11,\"victory_point_cards\":2}");
}
END_TEST

START_TEST(test_redacted_events_show_null_for_hidden_card_and_resource)
{
	struct event events[EVENT_TYPE_COUNT + 4];
	every_event_type(events);
	const struct event *stolen = &events[EVENT_RESOURCE_STOLEN];	     /* seat 0 robs seat 3 of wool */
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
	ck_assert(support_event_parse_exact(text, strlen(text), &back, &error));
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
	expect_event_refused("{\"type\":\"settlement_built\",\"seat\":0,\"node\":54,\"free\":true}", "invalid_field",
			     "node");
	expect_event_refused("{\"type\":\"settlement_built\",\"seat\":0,\"node\":5,\"free\":1}", "invalid_field",
			     "free");
	expect_event_refused("{\"type\":\"road_built\",\"seat\":0,\"edge\":-1,\"free\":false}", "invalid_field",
			     "edge");
	expect_event_refused("{\"type\":\"robber_moved\",\"seat\":0,\"hex\":19}", "invalid_field", "hex");
	expect_event_refused("{\"type\":\"dice_rolled\",\"seat\":0,\"dice\":[3,4],\"total\":8}", "invalid_field",
			     "total");
	expect_event_refused("{\"type\":\"dice_rolled\",\"seat\":0,\"dice\":[0,4],\"total\":4}", "invalid_field",
			     "dice[0]");
	expect_event_refused("{\"type\":\"discarded\",\"seat\":0,\"resources\":{\"ore\":-1}}", "invalid_field",
			     "resources.ore");
	expect_event_refused("{\"type\":\"discarded\",\"seat\":0,\"resources\":{\"ore\":96}}", "invalid_field",
			     "resources.ore");
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
	expect_event_refused("{\"type\":\"development_card_bought\",\"seat\":1,\"card\":\"joker\"}", "invalid_field",
			     "card");
	expect_event_refused("{\"type\":\"game_won\",\"seat\":1,\"points\":300,\"victory_point_cards\":0}",
			     "invalid_field", "points");
	/* Quiet hours: a well-formed zone name and two different "HH:MM" times. */
	expect_event_refused("{\"type\":\"quiet_hours_set\",\"seat\":1,\"timezone\":\"../etc/passwd\","
			     "\"from\":\"22:00\",\"to\":\"07:00\"}",
			     "invalid_field", "timezone");
	expect_event_refused("{\"type\":\"quiet_hours_set\",\"seat\":1,\"timezone\":\"Europe/Berlin\","
			     "\"from\":\"24:00\",\"to\":\"07:00\"}",
			     "invalid_field", "from");
	expect_event_refused("{\"type\":\"quiet_hours_set\",\"seat\":1,\"timezone\":\"Europe/Berlin\","
			     "\"from\":\"07:00\",\"to\":\"07:00\"}",
			     "invalid_field", "to");
	expect_event_refused("{\"type\":\"quiet_hours_set\",\"seat\":1,\"from\":\"22:00\",\"to\":\"07:00\"}",
			     "missing_field", "timezone");
	expect_event_refused("{\"type\":\"quiet_hours_cleared\",\"seat\":1,\"timezone\":\"UTC\"}", "unknown_field",
			     "timezone");

	/* Deep nesting and long garbage are refused, not crashed on. */
	size_t depth = 200000;
	char *deep = malloc(2 * depth);
	ck_assert_ptr_nonnull(deep);
	memset(deep, '[', depth);
	memset(deep + depth, ']', depth);
	struct event event;
	struct codec_error error;
	ck_assert(!support_event_parse_exact(deep, 2 * depth, &event, &error));
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
			ck_assert(!support_event_parse_exact(text, cut, &event, &error));
			refused++;
		}
		for (int round = 0; round < 40; round++) {
			char mutated[4096];
			ck_assert(size < sizeof mutated);
			memcpy(mutated, text, size);
			int flips = 1 + (int)rng_below(&rng, 3);
			for (int f = 0; f < flips; f++)
				mutated[rng_below(&rng, (uint32_t)size)] =
					alphabet[rng_below(&rng, sizeof alphabet - 1)];
			struct event event, again;
			struct codec_error error;
			if (!support_event_parse_exact(mutated, size, &event, &error)) {
				ck_assert(error.code != CODEC_ERROR_NONE && error.message[0] != '\0');
				refused++;
				continue;
			}
			accepted++;
			char *redump = codec_event_dump(&event, 4);
			ck_assert_msg(support_event_parse_exact(redump, strlen(redump), &again, &error),
				      "re-dump refused: %s", redump);
			ck_assert(memcmp(&event, &again, sizeof event) == 0);
			free(redump);
		}
		free(text);
	}
	ck_assert(accepted > 0 && refused > 0);
	games_record_free(&game);
}
END_TEST

/* ---- whole games ---- */

/* Dump every event, parse it back, replay into a fresh state: equal to the live game. */
static void round_trip_game(int seats, int layout, int numbers, uint64_t seed)
{
	struct games_record game;
	ck_assert_msg(games_record_play(&game, seats, layout, numbers, 1, seed), "game %d/%d/%llu did not finish",
		      seats, layout, (unsigned long long)seed);
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
		ck_assert_msg(!codec_replay_log(bad[i], strlen(bad[i]), &replayed, message, sizeof message), "%s",
			      bad[i]);
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
	Suite *suite = suite_create("codec_log");
	TCase *events = tcase_create("events");
	tcase_add_test(events, test_every_event_type_round_trips_byte_for_byte);
	tcase_add_test(events, test_game_created_round_trips_with_start_rolls_and_fixed_start);
	tcase_add_test(events, test_event_dump_is_compact_and_omits_zero_counts);
	tcase_add_test(events, test_redacted_events_show_null_for_hidden_card_and_resource);
	tcase_add_test(events, test_event_parse_refuses_bad_events_with_code_and_member);
	suite_add_tcase(suite, events);

	TCase *games = tcase_create("games");
	tcase_set_timeout(games, 300);
	tcase_add_test(games, test_event_parse_survives_truncation_and_corruption);
	tcase_add_test(games, test_random_games_replay_from_dumped_events_byte_for_byte);
	tcase_add_test(games, test_payloads_omit_the_type_and_read_back_with_the_row_type);
	tcase_add_test(games, test_replay_log_rebuilds_a_random_game);
	tcase_add_test(games, test_replay_log_refuses_bad_logs_with_a_message);
	tcase_add_test(games, test_refusal_messages_stay_utf8_when_jansson_quotes_half_a_character);
	tcase_add_test(games, test_catan_replay_prints_the_final_state_of_a_log_file);
	suite_add_tcase(suite, games);
	return suite;
}
