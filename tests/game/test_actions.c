/*
 * test_actions.c - the Actions body's text (game/actions.c): at every state of random
 * games, for every seat and a spectator, the text is the compact dump of
 * actions_body_json(), the first time (built) and the second (remembered), and a state
 * that differs from a remembered one in one byte gets its own body, never the other's.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "bench/games.h"
#include "game/actions.h"
#include "tests/check_main.h"

static void assert_body(const struct game *state, int viewer)
{
	json_t *body = actions_body_json(state, viewer);
	char *want = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	for (int pass = 0; pass < 2; pass++) {
		size_t length;
		char *text = actions_body_text(state, viewer, &length);
		ck_assert_msg(length == strlen(text) && strcmp(text, want) == 0,
			      "version %d seat %d, pass %d:\n%s\nnot\n%s", (int)state->version, viewer, pass, text,
			      want);
		free(text);
	}
	free(want);
}

START_TEST(test_the_text_is_the_dump_of_the_body_built_or_remembered)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		struct games_play game;
		struct event_list created;
		games_start(&game, seed, 3 + (int)(seed % 2), 1, &created);
		struct game before;
		struct event_list events;
		int seat, steps = 0;
		while (steps++ < 400 && games_step(&game, &before, &seat, &events)) {
			for (int viewer = -1; viewer < before.options.seats; viewer++)
				assert_body(&before, viewer);
			/* Again after the next states were remembered: still this state's. */
			assert_body(&before, seat);
		}
		games_free(&game);
	}
}
END_TEST

START_TEST(test_a_state_one_byte_apart_gets_its_own_body)
{
	struct games_play game;
	struct event_list created;
	games_start(&game, 7, 4, 1, &created);
	struct game before;
	struct event_list events;
	int seat;
	for (int i = 0; i < 30; i++)
		ck_assert(games_step(&game, &before, &seat, &events));
	struct game after = game.playout.state;
	size_t length;
	free(actions_body_text(&before, seat, &length));
	/* The next state, with the version the remembered one had: a different body. */
	after.version = before.version;
	assert_body(&after, seat);
	assert_body(&before, seat);
	games_free(&game);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("actions");
	TCase *bodies = tcase_create("bodies");
	tcase_set_timeout(bodies, 60);
	tcase_add_test(bodies, test_the_text_is_the_dump_of_the_body_built_or_remembered);
	tcase_add_test(bodies, test_a_state_one_byte_apart_gets_its_own_body);
	suite_add_tcase(suite, bodies);
	return suite;
}
