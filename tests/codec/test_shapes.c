/*
 * test_shapes.c - the HTTP API's game shapes (codec/shapes.h): move bodies parse to the
 * commands they name (with the aliases of other editions), bad bodies are refused with the
 * right code and member, commands and legal actions render as bodies that parse back (for
 * every legal move of random games too), views leak no hand, and the board is consistent
 * and drawn by its projection.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/names.h"
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
#include "tests/codec/support.h"
#include "tests/engine/support.h"

/* Parse a move body that must be accepted and equal `expected` byte for byte. */
static void expect_command(const char *text, const struct command *expected)
{
	json_t *json = support_json_load(text);
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
	json_t *json = support_json_load(text);
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
	ck_assert(support_event_parse_exact(text, strlen(text), &event, &error));
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
	expect_command_refused("{\"type\":\"discard\",\"template\":true,\"count\":4,\"resources\":{}}", "unknown_field",
			       "count");
	expect_command_refused("{\"type\":\"build_settlement\"}", "missing_field", "node");
	expect_command_refused("{\"type\":\"maritime_trade\",\"give\":{\"wool\":4}}", "missing_field", "get");
	expect_command_refused("{\"type\":\"accept_trade\"}", "missing_field", "trade");
	/* wrong types */
	expect_command_refused("{\"type\":\"build_road\",\"edge\":\"3\"}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":3.0}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":true}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"build_road\",\"edge\":null}", "invalid_field", "edge");
	expect_command_refused("{\"type\":\"discard\",\"resources\":[1]}", "invalid_field", "resources");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"ore\":\"2\"}}", "invalid_field",
			       "resources.ore");
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
	expect_command_refused("{\"type\":\"maritime_trade\",\"give\":{\"wool\":4},\"get\":{\"ore\":256}}",
			       "invalid_field", "get.ore");
	expect_command_refused("{\"type\":\"discard\",\"resources\":{\"gold\":1}}", "unknown_field", "resources.gold");
	expect_command_refused("{\"type\":\"play_monopoly\",\"resource\":\"Ore\"}", "invalid_field", "resource");
}
END_TEST

/* A trade route's body read with the route's type and trade: the same command, or the same
 * refusal (code, member, message), as the body with "type" and "trade" added; a "type" in
 * the body, or a "trade" where the path names one, is refused as the handlers refused it. */
static void expect_route_body(const char *text, enum command_type type, uint16_t trade)
{
	json_t *json = support_json_load(text);
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
	json_t *json = support_json_load(text);
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
	json_t *json = support_json_load("{}");
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
	char *text = support_json_dump(json);
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
	text = support_json_dump(json);
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
								ck_assert(json_equal(json_object_get(listed, "hand"),
										     hand));
							struct command filled = expected;
							filled.to = 0;
							playout_fill_template(&state, seat, &filled, &rng);
							json_t *choice = codec_command_to_json(&filled);
							body = recipe_body(listed);
							static const char *const chosen[] = {"dice", "resources",
											     "give", "want", NULL};
							for (int k = 0; chosen[k]; k++)
								if (json_object_get(choice, chosen[k]))
									json_object_set(
										body, chosen[k],
										json_object_get(choice, chosen[k]));
							json_decref(choice);
							if (expected.type == COMMAND_OFFER_TRADE) {
								counters_seen += b > 0;
								inactive_offers_seen += seat != state.turn_seat;
								/* a seat other than the active one addresses the active
								 * seat */
								if (seat != state.turn_seat) {
									json_t *to = json_object_get(listed, "to");
									ck_assert(json_array_size(to) == 1 &&
										  json_integer_value(json_array_get(
											  to, 0)) == state.turn_seat);
								}
								ck_assert(!json_object_get(listed, "counter_to") ==
									  (b == 0));
							} else {
								/* discard, roll: the very command once filled in */
								expected = filled;
								expected.count = 0; /* the template's constraint, not
										       part of a move */
								struct command parsed;
								struct codec_error error;
								ck_assert(
									codec_command_from_json(body, &parsed, &error));
								ck_assert_msg(
									memcmp(&parsed, &expected, sizeof parsed) == 0,
									"%s differs", command_type_name(expected.type));
							}
							expect_body_accepted(&state, seat, body, "completed template");
						} else {
							body = json_incref(listed);
							struct command parsed;
							struct codec_error error;
							ck_assert_msg(codec_command_from_json(body, &parsed, &error),
								      "%s: %s", command_type_name(expected.type),
								      error.message);
							ck_assert_msg(memcmp(&parsed, &expected, sizeof parsed) == 0,
								      "%s differs", command_type_name(expected.type));
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
	static const char *const members[] = {"version",
					      "status",
					      "phase",
					      "options",
					      "turn",
					      "last_roll",
					      "first_seat",
					      "winner",
					      "robber",
					      "bank",
					      "development_cards_left",
					      "buildings",
					      "roads",
					      "longest_road",
					      "largest_army",
					      "pending",
					      "players",
					      "trades",
					      "you"};
	const char *key;
	json_t *value;
	size_t index = 0;
	json_object_foreach(json, key, value)
	{
		ck_assert_msg(index < 19 && strcmp(key, members[index]) == 0, "member %zu is %s", index, key);
		index++;
	}
	ck_assert_uint_eq(index, 19);
	json_t *you = json_object_get(json, "you");
	ck_assert_int_eq(json_integer_value(json_object_get(you, "seat")), 1);
	char *text = support_json_dump(json_object_get(you, "resources"));
	ck_assert_str_eq(text, "{\"brick\":0,\"lumber\":0,\"wool\":4,\"grain\":5,\"ore\":6}");
	free(text);
	text = support_json_dump(json_object_get(json_object_get(you, "development_cards"), "knight"));
	ck_assert_str_eq(text, "{\"count\":2,\"playable\":0}"); /* not seat 1's turn */
	free(text);
	ck_assert_str_eq(json_string_value(json_object_get(json, "status")), "playing");
	ck_assert_str_eq(json_string_value(json_object_get(json, "phase")), "roll");

	/* The only hand in seat 1's view is seat 1's own; other seats appear as counts. */
	text = support_json_dump(json);
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
	text = support_json_dump(json);
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
	char *text = support_json_dump(pending);
	ck_assert_str_eq(text, "{\"seats\":[0],\"discards\":[],\"setup_node\":10}");
	free(text);
	ck_assert_str_eq(json_string_value(json_object_get(json, "status")), "setup");
	text = support_json_dump(json_object_get(json, "buildings"));
	ck_assert_str_eq(text, "[{\"node\":10,\"seat\":0,\"kind\":\"settlement\"}]");
	free(text);
	text = support_json_dump(json_object_get(json, "turn"));
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
	text = support_json_dump(json_object_get(json, "pending"));
	ck_assert_str_eq(text, "{\"seats\":[0,2],\"discards\":[{\"seat\":0,\"count\":4},{\"seat\":2,\"count\":5}],"
			       "\"setup_node\":null}");
	free(text);
	text = support_json_dump(json_object_get(json, "turn"));
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
	char *text = support_json_dump(json_object_get(json, "trades"));
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
	json_array_foreach(array, index, entry) if (json_integer_value(entry) == id) return 1;
	return 0;
}

START_TEST(test_board_has_19_54_72_9_entries_with_consistent_adjacency)
{
	struct board_layout layout;
	struct rng rng;
	rng_init(&rng, 5, 0);
	board_random(&layout, BOARD_NUMBERS_RANDOM, &rng);
	json_t *board = codec_board_to_json(&layout, GAME_EDITION_CLASSIC);
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
		json_array_foreach(neighbors, index, entry)
		{
			json_t *other = json_array_get(nodes, (size_t)json_integer_value(entry));
			ck_assert_msg(listed(json_object_get(other, "neighbors"), (json_int_t)n), "node %zu not mutual",
				      n);
		}
		json_array_foreach(node_edges, index, entry)
		{
			json_t *edge_nodes =
				json_object_get(json_array_get(edges, (size_t)json_integer_value(entry)), "nodes");
			ck_assert(listed(edge_nodes, (json_int_t)n));
			/* the edge's other end is a neighbor */
			json_int_t a = json_integer_value(json_array_get(edge_nodes, 0));
			json_int_t b = json_integer_value(json_array_get(edge_nodes, 1));
			ck_assert(listed(neighbors, a == (json_int_t)n ? b : a));
		}
		json_t *node_hexes = json_object_get(node, "hexes");
		ck_assert(json_array_size(node_hexes) >= 1 && json_array_size(node_hexes) <= 3);
		json_array_foreach(node_hexes, index, entry)
		{
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
	json_t *board = codec_board_to_json(&layout, GAME_EDITION_CLASSIC);
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
		ck_assert_double_eq_tol(cx,
					(2 * json_integer_value(json_object_get(hex, "q")) +
					 json_integer_value(json_object_get(hex, "r"))) *
						apothem,
					1e-4);
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
		double mx = (number_of(a, "px") + number_of(b, "px")) / 2,
		       my = (number_of(a, "py") + number_of(b, "py")) / 2;
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
		json_t *body = support_json_load(bodies[i]);
		struct command command, again;
		struct codec_error error;
		ck_assert_msg(codec_command_from_json(body, &command, &error), "%s: %s", bodies[i], error.message);
		json_t *rendered = codec_command_to_json(&command);
		char *text = support_json_dump(rendered);
		ck_assert_msg(codec_command_from_json(rendered, &again, &error), "%s renders as %s: %s", bodies[i],
			      text, error.message);
		ck_assert_mem_eq(&again, &command, sizeof command);
		free(text);
		json_decref(rendered);
		json_decref(body);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("codec_shapes");
	TCase *shapes = tcase_create("shapes");
	tcase_add_test(shapes, test_every_move_type_parses_to_its_command);
	tcase_add_test(shapes, test_moves_accept_the_aliases_of_other_editions);
	tcase_add_test(shapes, test_move_refusals_name_the_code_and_member);
	tcase_add_test(shapes, test_a_route_named_move_reads_as_the_body_with_its_type);
	tcase_add_test(shapes, test_commands_and_actions_render_as_ready_move_bodies);
	tcase_add_test(shapes, test_view_has_you_for_a_seat_and_no_hands_for_a_spectator);
	tcase_add_test(shapes, test_view_pending_lists_discards_and_the_setup_node);
	tcase_add_test(shapes, test_view_lists_open_trades);
	tcase_add_test(shapes, test_board_has_19_54_72_9_entries_with_consistent_adjacency);
	tcase_add_test(shapes, test_board_projection_draws_unit_hexes_clockwise_and_harbors_at_sea);
	suite_add_tcase(suite, shapes);

	TCase *games = tcase_create("games");
	tcase_set_timeout(games, 300);
	tcase_add_test(games, test_legal_moves_of_random_games_round_trip_as_bodies);
	tcase_add_test(games, test_every_parsed_maritime_trade_renders_as_a_body_that_parses);
	suite_add_tcase(suite, games);
	return suite;
}
