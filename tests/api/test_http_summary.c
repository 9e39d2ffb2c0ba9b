/*
 * test_http_summary.c - what the table shows at the end and about places, over HTTP
 * through Prism (the answers are checked against openapi/openapi.yaml):
 *
 *   - GET /v1/games/{id}/summary of a finished game equals the figures game/statistics.c
 *     computes from the stored log, for a spectator, every seat and the admin alike, cached
 *     as immutable; its flows add up to every seat's final hand (the truth of the store)
 *     and its points to each seat's total; before the end 409 game_not_finished with the
 *     version, an unknown game 404;
 *   - GET /v1/games/{id}/board names every place in the words of the game's edition (wood
 *     and wheat in a 2025 game).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/log.h"
#include "codec/places.h"
#include "game/statistics.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MAX_MOVES 5000

START_TEST(test_summary_of_a_finished_game_is_the_figures_of_its_log)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 4, "{\"layout\": \"beginner\", \"start\": \"fixed\"}", &game);
	char path[160];
	snprintf(path, sizeof path, "%s/summary", game.path);

	/* Before the end: refused, with the version. */
	struct http_response early;
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &early);
	http_assert_problem(&early, 409, "game_not_finished");
	http_response_free(&early);

	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, 8101, 1);
	http_player_finish(&player, MAX_MOVES);

	/* The figures of the stored log, computed here from the store's rows. */
	json_t *truth = http_truth_events(game.id, 0);
	size_t count = json_array_size(truth);
	struct event *events = calloc(count, sizeof *events);
	ck_assert_ptr_nonnull(events);
	for (size_t i = 0; i < count; i++) {
		struct codec_error error;
		ck_assert(codec_event_from_json(json_array_get(truth, i), &events[i], &error));
	}
	struct statistics stats;
	struct game final;
	ck_assert(statistics_compute(events, (int)count, &stats, &final, NULL));
	static const char *const names[GAME_MAX_SEATS] = {"Seat 1", "Seat 2", "Seat 3", "Seat 4"};
	json_t *want = statistics_to_json(&stats, names, NULL);
	json_object_set_new(want, "id", json_string(game.id));

	for (int viewer = -2; viewer < game.seats; viewer++) {
		const char *token = viewer == -2 ? game.admin_token : viewer >= 0 ? game.tokens[viewer] : NULL;
		struct http_response response;
		http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "%s", http_describe(&response));
		char cache[96];
		ck_assert_str_eq(http_response_header(&response, "Cache-Control", cache, sizeof cache),
				 "public, max-age=31536000, immutable");
		json_t *got = json_loads(response.body, 0, NULL);
		ck_assert_msg(json_equal(got, want), "summary for viewer %d: %s", viewer, response.body);
		json_decref(got);
		http_response_free(&response);
	}

	/* The figures are the game's: hands and points as the store has them. */
	struct game state;
	http_truth_load(game.id, &state, NULL);
	json_t *seats = json_object_get(want, "seats");
	for (int s = 0; s < game.seats; s++) {
		json_t *seat = json_array_get(seats, (size_t)s);
		json_t *flows = json_object_get(seat, "resources");
		static const char *const resources[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			long in = 0, out = 0;
			static const char *const ins[] = {"gained", "stolen", "traded_in"};
			static const char *const outs[] = {"spent", "robbed", "monopolized", "discarded", "traded_out"};
			for (size_t k = 0; k < 3; k++)
				in += json_integer_value(json_object_get(json_object_get(flows, ins[k]), resources[r]));
			for (size_t k = 0; k < 5; k++)
				out += json_integer_value(
					json_object_get(json_object_get(flows, outs[k]), resources[r]));
			ck_assert_int_eq(in - out, state.players[s].resources[r]);
		}
		ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(seat, "points"), "total")),
				 game_total_points(&state, s));
	}
	ck_assert_int_eq(json_integer_value(json_object_get(want, "winner")), state.winner);
	ck_assert_int_eq(json_integer_value(json_object_get(want, "version")), (long)state.version);

	struct http_response missing;
	http_call(&http_fixture.checked, "GET", "/v1/games/00000000000000aa/summary", NULL, NULL, NULL, &missing);
	http_assert_problem(&missing, 404, "game_not_found");
	http_response_free(&missing);

	json_decref(want);
	json_decref(truth);
	free(events);
}
END_TEST

START_TEST(test_board_names_places_in_the_words_of_the_edition)
{
	struct http_game classic, edition_2025;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\"}", &classic);
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\", \"edition\": \"2025\"}", &edition_2025);
	char path[160];
	json_t *board = http_get_ok(&http_fixture.checked, http_game_path(&classic, "/board", path, sizeof path), NULL);
	json_t *board_2025 =
		http_get_ok(&http_fixture.checked, http_game_path(&edition_2025, "/board", path, sizeof path), NULL);
	struct board_layout layout;
	board_beginner(&layout);
	char name[PLACES_NAME_SIZE];
	for (int node = 0; node < BOARD_NODES; node++) {
		places_node(&layout, GAME_EDITION_CLASSIC, node, name, sizeof name);
		ck_assert_str_eq(json_string_value(json_object_get(
					 json_array_get(json_object_get(board, "nodes"), (size_t)node), "name")),
				 name);
	}
	/* hex 8 is the forest 11 of the beginner board */
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(board, "hexes"), 8), "name")),
			 "the lumber 11");
	ck_assert_str_eq(
		json_string_value(json_object_get(json_array_get(json_object_get(board_2025, "hexes"), 8), "name")),
		"the wood 11");
	ck_assert_str_eq(
		json_string_value(json_object_get(json_array_get(json_object_get(board_2025, "harbors"), 5), "name")),
		"the 2:1 wood harbor");
	json_decref(board);
	json_decref(board_2025);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_summary");
	TCase *tc = tcase_create("summary and place names");
	http_fixture_add(tc, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_summary_of_a_finished_game_is_the_figures_of_its_log);
	tcase_add_test(tc, test_board_names_places_in_the_words_of_the_edition);
	suite_add_tcase(suite, tc);
	return suite;
}
