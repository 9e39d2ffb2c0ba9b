/*
 * test_http_generated_client.c - a client that @hey-api/openapi-ts generates from the
 * contract with its default flags plays whole games through the validating proxy (issue
 * 23, item 5), with the bot loop of item 6: a seat reads its actions only when it holds
 * none, posts one, and takes the answer's `actions` as its next ones when it is due again.
 *
 * The client is openapi/generators/hey/play.ts, compiled by make with the generated SDK
 * into <build>/openapi/generators/hey/js/ beside the server (CATAN_HEY_CLIENT names
 * another). Its three seats play at once through Prism (responses checked against
 * openapi.yaml: a violation fails the request or is counted). Judged from what it prints:
 *   - every game finishes with a winner, and no answer broke the contract;
 *   - no listed action was refused (422; a race of two seats, 409/412, may happen);
 *   - no wait stalled (held more than 5 s although the seat was due at its `after`);
 *   - one request per move, and a wait only when a turn passes to the seat: requests at
 *     most moves + waits + 2 per game, and waits fewer than half the moves (the loop of
 *     issue 23 read before every move).
 */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define GAMES 2

/* The compiled client: CATAN_HEY_CLIENT, else openapi/generators/hey/js/play.js beside the
 * server. */
static void client_path(char *out, size_t size)
{
	const char *named = getenv("CATAN_HEY_CLIENT");
	if (named && *named) {
		snprintf(out, size, "%s", named);
		return;
	}
	const char *server = getenv("CATAN_SERVER") ? getenv("CATAN_SERVER") : "build/catan-server";
	char copy[512];
	snprintf(copy, sizeof copy, "%s", server);
	snprintf(out, size, "%s/openapi/generators/hey/js/play.js", dirname(copy));
}

static json_int_t member(const json_t *report, const char *name)
{
	const json_t *value = json_object_get(report, name);
	ck_assert_msg(json_is_integer(value), "the client's report lacks %s", name);
	return json_integer_value(value);
}

START_TEST(test_a_generated_client_plays_games_with_one_request_per_move)
{
	char script[600];
	client_path(script, sizeof script);
	ck_assert_msg(access(script, R_OK) == 0, "%s: not built (make %s)", script, script);
	char command[1400];
	snprintf(command, sizeof command, "node '%s' '%s' %d 11", script, http_fixture.proxy.url, GAMES);
	FILE *pipe = popen(command, "r");
	ck_assert_msg(pipe != NULL, "cannot run %s", command);
	char line[65536];
	char *got = fgets(line, sizeof line, pipe);
	int status = pclose(pipe);
	ck_assert_msg(got != NULL && status == 0, "%s failed (exit status %d)", command, status);
	json_error_t error;
	json_t *report = json_loads(line, 0, &error);
	ck_assert_msg(report != NULL, "the client's report is not JSON: %s", line);
	fprintf(stderr, "generated client (hey-api): %s", line);

	json_int_t moves = member(report, "moves"), waits = member(report, "waits"),
		   requests = member(report, "requests");
	ck_assert_int_eq(member(report, "finished"), GAMES);
	ck_assert_int_eq(member(report, "violations"), 0);
	ck_assert_msg(member(report, "refused") == 0, "listed actions were refused: %s",
		      json_dumps(json_object_get(report, "refusals"), 0));
	ck_assert_int_eq(member(report, "stalls"), 0);
	ck_assert_msg(requests <= moves + waits + 2 * GAMES, "%lld requests for %lld moves and %lld waits",
		      (long long)requests, (long long)moves, (long long)waits);
	ck_assert_msg(2 * waits < moves, "%lld waits for %lld moves: the answers' actions were not used",
		      (long long)waits, (long long)moves);
	json_decref(report);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_generated_client");
	TCase *play = tcase_create("generated client");
	http_fixture_add(play, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(play, 600);
	tcase_add_test(play, test_a_generated_client_plays_games_with_one_request_per_move);
	suite_add_tcase(suite, play);
	return suite;
}
