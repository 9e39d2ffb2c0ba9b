/*
 * test_options.c - game options in JSON (codec/options.h): defaults for what a client
 * leaves out, every member read into the engine's options and shown back, and every bad
 * member refused with the right code and member.
 */
#include <stdlib.h>
#include <string.h>

#include "codec/options.h"
#include "engine/bot.h"
#include "engine/rules.h"
#include "tests/check_main.h"
#include "tests/codec/support.h"

static int options_from_text(const char *text, int seats, struct codec_options *out, struct codec_error *error)
{
	json_t *json = text ? support_json_load(text) : NULL;
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

/* A bot's offer waits for people by default for a quarter of the turn clock (15 s at least,
 * unless the clock is shorter; 12 h at most), a minute without one; a given wait (0
 * included: no wait) is kept whatever the clock. */
START_TEST(test_offer_wait_defaults_to_the_turn_clock)
{
	ck_assert_int_eq(codec_offer_wait_default(0), 60);
	ck_assert_int_eq(codec_offer_wait_default(5), 5);
	ck_assert_int_eq(codec_offer_wait_default(30), 15);
	ck_assert_int_eq(codec_offer_wait_default(300), 75);
	ck_assert_int_eq(codec_offer_wait_default(86400), 21600);
	ck_assert_int_eq(codec_offer_wait_default(7 * 86400), 12 * 3600);
	struct codec_options options;
	struct codec_error error;
	ck_assert(options_from_text("{\"turn_timeout_s\":600}", 3, &options, &error));
	ck_assert_int_eq(options.offer_wait_s, 150);
	ck_assert(options_from_text("{\"turn_timeout_s\":600,\"offer_wait_s\":null}", 3, &options, &error));
	ck_assert_int_eq(options.offer_wait_s, 150);
	ck_assert(options_from_text("{\"turn_timeout_s\":600,\"offer_wait_s\":0}", 3, &options, &error));
	ck_assert_int_eq(options.offer_wait_s, 0);
	ck_assert(options_from_text("{\"offer_wait_s\":604800}", 3, &options, &error));
	ck_assert_int_eq(options.offer_wait_s, 604800);
	json_t *json = codec_options_to_json(&options);
	ck_assert_int_eq(json_integer_value(json_object_get(json, "offer_wait_s")), 604800);
	json_decref(json);
}
END_TEST

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
	ck_assert_int_eq(options.offer_wait_s, 60);
	ck_assert(options_from_text("{}", 3, &options, &error));
	ck_assert(memcmp(&options.game, &defaults, sizeof defaults) == 0);
	ck_assert_int_eq(options.offer_wait_s, 60);

	ck_assert(options_from_text(
		"{\"layout\":\"random\",\"start\":\"draft\",\"numbers\":\"random\",\"edition\":\"2025\","
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
	char *text = support_json_dump(json);
	ck_assert_str_eq(text, "{\"seats\":4,\"layout\":\"random\",\"start\":\"draft\",\"numbers\":\"random\","
			       "\"edition\":\"2025\",\"dice\":\"manual\",\"first_seat\":3,\"turn_timeout_s\":86400,"
			       "\"on_timeout\":\"bot\",\"offer_wait_s\":21600,\"bot_level\":\"medium\",\"rated\":false,"
			       "\"substitute_after_timeouts\":3}");
	free(text);
	json_decref(json);
	/* Substitutes (issue 28): 3 by default, 0 (never) written as absent, as stored games
	 * without the option read it. */
	ck_assert_int_eq(options.substitute_after_timeouts, CODEC_SUBSTITUTE_AFTER_TIMEOUTS_DEFAULT);
	ck_assert(options_from_text("{\"substitute_after_timeouts\":0}", 3, &options, &error));
	ck_assert_int_eq(options.substitute_after_timeouts, 0);
	json = codec_options_to_json(&options);
	ck_assert_ptr_null(json_object_get(json, "substitute_after_timeouts"));
	json_decref(json);
	ck_assert(options_from_text("{\"substitute_after_timeouts\":100}", 3, &options, &error));
	ck_assert_int_eq(options.substitute_after_timeouts, 100);
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
	expect_options_refused("{\"offer_wait_s\":-1}", 4, "invalid_field", "options.offer_wait_s");
	expect_options_refused("{\"offer_wait_s\":604801}", 4, "invalid_field", "options.offer_wait_s");
	expect_options_refused("{\"offer_wait_s\":\"1m\"}", 4, "invalid_field", "options.offer_wait_s");
	expect_options_refused("{\"substitute_after_timeouts\":101}", 4, "invalid_field",
			       "options.substitute_after_timeouts");
	expect_options_refused("{\"substitute_after_timeouts\":-1}", 4, "invalid_field",
			       "options.substitute_after_timeouts");
	expect_options_refused("{\"seed\":-1}", 4, "invalid_field", "options.seed");
	/* Above 2^53-1 a JavaScript client could not carry the seed it gave. */
	expect_options_refused("{\"seed\":9007199254740992}", 4, "invalid_field", "options.seed");
	expect_options_refused("{\"seed\":9223372036854775807}", 4, "invalid_field", "options.seed");
	expect_options_refused("{\"seed\":\"12\"}", 4, "invalid_field", "options.seed");
	expect_options_refused("[]", 4, "invalid_field", "options");
	expect_options_refused("{}", 5, "invalid_field", "seats");
}
END_TEST

START_TEST(test_bot_levels_default_to_medium_per_seat_or_for_the_game)
{
	struct codec_options options;
	struct codec_error error;
	ck_assert(options_from_text("{}", 4, &options, &error));
	for (int s = -1; s < 4; s++)
		ck_assert_int_eq(codec_options_bot_level(&options, s), BOT_LEVEL_MEDIUM);
	/* Zeroed options (a games row read before the option existed) are the defaults too. */
	memset(&options, 0, sizeof options);
	ck_assert_int_eq(codec_options_bot_level(&options, 2), BOT_LEVEL_MEDIUM);

	ck_assert(options_from_text("{\"bot_level\":\"easy\",\"bot_levels\":[null,\"hard\"]}", 4, &options, &error));
	ck_assert_int_eq(codec_options_bot_level(&options, -1), BOT_LEVEL_EASY);
	ck_assert_int_eq(codec_options_bot_level(&options, 0), BOT_LEVEL_EASY);
	ck_assert_int_eq(codec_options_bot_level(&options, 1), BOT_LEVEL_HARD);
	ck_assert_int_eq(codec_options_bot_level(&options, 3), BOT_LEVEL_EASY);
	json_t *json = codec_options_to_json(&options);
	char *text = support_json_dump(json_object_get(json, "bot_levels"));
	ck_assert_str_eq(text, "[null,\"hard\",null,null]");
	free(text);
	ck_assert_str_eq(json_string_value(json_object_get(json, "bot_level")), "easy");
	/* What the server stores reads back the same (game/play.c). */
	struct codec_options stored;
	memset(&stored, 0, sizeof stored);
	codec_options_read_bot_levels(json, &stored);
	for (int s = -1; s < 4; s++)
		ck_assert_int_eq(codec_options_bot_level(&stored, s), codec_options_bot_level(&options, s));
	json_decref(json);
	ck_assert(options_from_text("{\"bot_level\":null,\"bot_levels\":null}", 3, &options, &error));
	ck_assert_int_eq(codec_options_bot_level(&options, 1), BOT_LEVEL_MEDIUM);

	expect_options_refused("{\"bot_level\":\"expert\"}", 4, "invalid_field", "options.bot_level");
	expect_options_refused("{\"bot_level\":2}", 4, "invalid_field", "options.bot_level");
	expect_options_refused("{\"bot_levels\":\"hard\"}", 4, "invalid_field", "options.bot_levels");
	expect_options_refused("{\"bot_levels\":[null,null,null,\"hard\"]}", 3, "invalid_field", "options.bot_levels");
	expect_options_refused("{\"bot_levels\":[null,\"genius\"]}", 4, "invalid_field", "options.bot_levels[1]");
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("codec_options");
	TCase *options = tcase_create("options");
	tcase_add_test(options, test_options_parse_with_defaults_and_refuse_bad_members);
	tcase_add_test(options, test_offer_wait_defaults_to_the_turn_clock);
	tcase_add_test(options, test_bot_levels_default_to_medium_per_seat_or_for_the_game);
	suite_add_tcase(suite, options);
	return suite;
}
