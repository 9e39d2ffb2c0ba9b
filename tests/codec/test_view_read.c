/*
 * test_view_read.c - a seat's view read back from the API's JSON (codec/view_read.h), as
 * `catan bot` reads it: the view body and the board body of every position of whole games
 * give back the view they were written from, byte for byte (but the one fact the JSON does
 * not carry, a development card played this turn); broken input is refused, naming the
 * member.
 */
#include <stdlib.h>
#include <string.h>

#include "codec/error.h"
#include "codec/shapes.h"
#include "codec/view_read.h"
#include "engine/arena.h"
#include "engine/legal.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "tests/check_main.h"
#include "tests/codec/support.h"

static struct command scratch[LEGAL_MOVES_MAX];

START_TEST(test_every_view_of_whole_games_reads_back)
{
	long checked = 0;
	for (int i = 0; i < 6; i++) {
		uint64_t seed = UINT64_C(275000) + (uint64_t)i;
		struct game_options options;
		rules_default_options(&options);
		options.seats = (uint8_t)(3 + (i & 1));
		options.layout = (uint8_t)(i >> 1 & 1);
		struct game game;
		struct event_list events;
		ck_assert_int_eq(rules_start(&options, seed, &events, &game), ERROR_OK);
		struct rng chooser;
		rng_init(&chooser, seed, 1);
		int seat;
		struct command command;
		for (int actions = 0; actions < 3000 && arena_choose(&game, 0x0f, &chooser, scratch, &seat, &command);
		     actions++) {
			if (actions % 3 == 0) {
				struct game_view view, read;
				view_game(&game, seat, &view);
				json_t *view_json = codec_view_to_json(&view, NULL);
				json_t *board_json = codec_board_to_json(&game.board, game.options.edition);
				struct codec_error error;
				ck_assert_msg(codec_view_from_json(view_json, board_json, &read, &error),
					      "version %u: %s", game.version, error.message);
				view.development_played = 0;
				if (view.phase != GAME_PHASE_SETUP_ROAD)
					view.setup_node = read.setup_node; /* shown only while a road is due */
				ck_assert_msg(memcmp(&view, &read, sizeof view) == 0,
					      "game %d version %u reads back different", i, game.version);
				json_decref(view_json);
				json_decref(board_json);
				checked++;
			}
			ck_assert_int_eq(rules_decide_seeded_in_place(&game, seed, seat, &command, &events), ERROR_OK);
		}
	}
	ck_assert_int_gt(checked, 500);
}
END_TEST

static void expect_refused(const char *view_text, const char *field)
{
	struct game game;
	struct game_options options;
	rules_default_options(&options);
	struct event_list events;
	ck_assert_int_eq(rules_start(&options, 1, &events, &game), ERROR_OK);
	struct game_view view, read;
	view_game(&game, 0, &view);
	json_t *board = codec_board_to_json(&game.board, game.options.edition);
	json_t *base = codec_view_to_json(&view, NULL);
	json_t *patch = support_json_load(view_text);
	json_object_update_recursive(base, patch);
	struct codec_error error;
	memset(&error, 0, sizeof error);
	ck_assert(!codec_view_from_json(base, board, &read, &error));
	ck_assert_str_eq(error.field, field);
	json_decref(patch);
	json_decref(base);
	json_decref(board);
}

START_TEST(test_broken_views_are_refused_naming_the_member)
{
	expect_refused("{\"phase\": \"dancing\"}", "game.phase");
	expect_refused("{\"options\": {\"seats\": 7}}", "game.options.seats");
	expect_refused("{\"robber\": 19}", "game.robber");
	expect_refused("{\"turn\": {\"seat\": 4}}", "game.turn.seat");
	expect_refused("{\"bank\": {\"ore\": 20}}", "game.bank.ore");
	expect_refused("{\"buildings\": [{\"node\": 54, \"seat\": 0, \"kind\": \"city\"}]}", "game.buildings[0].node");
	expect_refused("{\"you\": {\"seat\": -1}}", "game.you.seat");
	expect_refused("{\"players\": []}", "game.players");
	struct game_view empty;
	ck_assert(!codec_view_from_json(NULL, NULL, &empty, NULL));
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("codec_view_read");
	TCase *read = tcase_create("read");
	tcase_add_test(read, test_every_view_of_whole_games_reads_back);
	tcase_add_test(read, test_broken_views_are_refused_naming_the_member);
	suite_add_tcase(suite, read);
	return suite;
}
