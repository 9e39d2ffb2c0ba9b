/*
 * test_http_example_bot.c - the README's reference bot (examples/bot.py, Python's standard
 * library only) plays a whole game against a real server, one seat beside two bot seats of
 * the server (issue 23, item 6), and never stalls: one request per move, and one wait each
 * time the game comes back to its seat.
 *
 * The bot is run as the README says (python3 examples/bot.py BASE_URL GAME_ID TOKEN). What
 * it cost is read from the server, not from the bot: /metrics counts the requests of the
 * two routes only the bot calls (GET .../actions, POST .../moves: the server's bots make
 * no HTTP requests), and the log says how often the game came back to the seat (each
 * maximal run of events of origin "player", the seat being the only one that is not a
 * bot). Judged:
 *   - the game ends with a winner, and the bot says so;
 *   - every POST was a move (201), and GET .../actions was asked at most once per run of
 *     the seat's events (plus one): the loop "post, then wait from the answer's version"
 *     takes the answer's `actions` and never waits for a move only it can make;
 *   - the whole game within a generous bound (120 s; a stall costs 60 s per move).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define BOT_SCRIPT "examples/bot.py"
#define GAME_BOUND_S 120.0

/* The sum of catan_http_requests_total of route `route` and method `method` (every status)
 * in /metrics; the count of status `status` into *of_status. */
static long requests_of(const char *route, const char *method, int status, long *of_status)
{
	struct http_response response;
	http_call(&http_fixture.direct, "GET", "/metrics", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	char labels[160];
	snprintf(labels, sizeof labels, "catan_http_requests_total{route=\"%s\",method=\"%s\",status=\"", route,
		 method);
	long total = 0;
	*of_status = 0;
	for (const char *at = response.body; (at = strstr(at, labels)) != NULL; at++) {
		const char *code = at + strlen(labels);
		const char *value = strstr(code, "} ");
		ck_assert_ptr_nonnull(value);
		long count = atol(value + 2);
		total += count;
		if (atoi(code) == status)
			*of_status += count;
	}
	http_response_free(&response);
	return total;
}

START_TEST(test_the_example_bot_plays_a_game_with_one_request_per_move)
{
	struct http_game game;
	http_game_create_body(
		&http_fixture.direct,
		"{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bot B\", \"bot\": true}, {\"name\": \"Bot C\", "
		"\"bot\": true}], \"options\": {\"layout\": \"beginner\", \"seed\": 23}}",
		&game);
	long created_moves, created_actions, ok;
	created_moves = requests_of("/v1/games/:game/moves", "POST", 201, &ok);
	created_actions = requests_of("/v1/games/:game/actions", "GET", 200, &ok);
	ck_assert_int_eq(created_moves + created_actions, 0);

	char command[1024];
	snprintf(command, sizeof command, "python3 %s '%s' %s %s 5 2>&1", BOT_SCRIPT, http_fixture.server.url, game.id,
		 game.tokens[0]);
	double started = http_clock();
	FILE *pipe = popen(command, "r");
	ck_assert_msg(pipe != NULL, "cannot run %s", command);
	char output[4096] = "";
	size_t length = fread(output, 1, sizeof output - 1, pipe);
	output[length] = '\0';
	int status = pclose(pipe);
	double played_s = http_clock() - started;
	ck_assert_msg(status == 0, "the bot failed (exit status %d): %s", status, output);
	ck_assert_msg(strstr(output, "over at version") != NULL, "the bot did not see the end: %s", output);

	long moves_201, actions_200;
	long posts = requests_of("/v1/games/:game/moves", "POST", 201, &moves_201);
	long waits = requests_of("/v1/games/:game/actions", "GET", 200, &actions_200);

	/* The log: a winner, and the runs of the seat's events. */
	json_t *log = http_game_log(&http_fixture.direct, &game, NULL, 0);
	long runs = 0, events = 0;
	int in_run = 0, won = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(log, index, entry)
	{
		const char *origin = json_string_value(json_object_get(entry, "origin"));
		int players = origin && strcmp(origin, "player") == 0 && index > 0; /* (not the creation) */
		events += players;
		runs += players && !in_run;
		in_run = players;
		won |= strcmp(json_string_value(json_object_get(entry, "type")), "game_won") == 0;
	}
	json_decref(log);
	fprintf(stderr,
		"example bot: %s  %.1f s; %ld moves (%ld events) in %ld runs of the seat; %ld waits; %ld requests in "
		"all\n",
		output, played_s, posts, events, runs, waits, posts + waits);
	ck_assert_msg(won, "the game has no winner");
	ck_assert_msg(played_s < GAME_BOUND_S, "the game took %.1f s", played_s);
	ck_assert_int_eq(posts, moves_201);
	ck_assert_int_eq(waits, actions_200);
	ck_assert_msg(posts > 20 && posts <= events, "%ld moves for %ld events of the seat", posts, events);
	ck_assert_msg(waits <= runs + 1, "%ld waits for %ld runs of the seat's moves: waits between its own moves",
		      waits, runs);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_example_bot");
	TCase *play = tcase_create("example bot");
	http_fixture_add(play, 0, NULL);
	tcase_set_timeout(play, 300);
	tcase_add_test(play, test_the_example_bot_plays_a_game_with_one_request_per_move);
	suite_add_tcase(suite, play);
	return suite;
}
