/*
 * test_http_typed_client.c - a TypeScript client plays complete games against a real
 * server, as a third-party developer would write it: only the types that openapi-typescript
 * generates from the contract (default flags), openapi-fetch, no casts (issue 11).
 *
 * The client is openapi/client/play.ts, compiled by make into <build>/openapi/client/js/
 * beside the server (CATAN_TS_CLIENT names another). Each of its seats loops on
 * GET .../actions?after=A&wait=30, picks an action and posts it: a listed action as it is,
 * a template completed by the contract's recipe. This program starts the server with the
 * service's DEFAULT rate limits (not the suites' RATE_LIMIT_*=0), runs the client, and
 * judges what it prints:
 *   - every game finishes with a winner;
 *   - no listed action was refused (a refusal other than a race of two seats: 409/412);
 *   - fewer than 3 requests per accepted move, game creation and final reads included;
 *   - no 429, and the answers did carry the per-token limit (RateLimit-Limit: the burst).
 * Templates were completed and non-templates forwarded as they are (both counted).
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

#define GAMES 3

/* The server's own defaults (api/config.c), set again over the suites' RATE_LIMIT_*=0 and
 * CREATE_RATE_IP=0. */
static const char *const default_limits[] = {"RATE_LIMIT_IP=200", "RATE_LIMIT_TOKEN=50", "CREATE_RATE_IP=60", NULL};

/* The compiled client: CATAN_TS_CLIENT, else openapi/client/js/play.js beside the server. */
static void client_path(char *out, size_t size)
{
	const char *named = getenv("CATAN_TS_CLIENT");
	if (named && *named) {
		snprintf(out, size, "%s", named);
		return;
	}
	const char *server = getenv("CATAN_SERVER") ? getenv("CATAN_SERVER") : "build/catan-server";
	char copy[512];
	snprintf(copy, sizeof copy, "%s", server);
	snprintf(out, size, "%s/openapi/client/js/play.js", dirname(copy));
}

static json_int_t member(const json_t *report, const char *name)
{
	const json_t *value = json_object_get(report, name);
	ck_assert_msg(json_is_integer(value), "the client's report lacks %s", name);
	return json_integer_value(value);
}

START_TEST(test_typed_client_plays_games_to_a_winner_within_the_default_rate_limits)
{
	char script[600];
	client_path(script, sizeof script);
	ck_assert_msg(access(script, R_OK) == 0, "%s: not built (make %s)", script, script);
	char command[1400];
	snprintf(command, sizeof command, "node '%s' '%s' %d 7", script, http_fixture.server.url, GAMES);
	FILE *pipe = popen(command, "r");
	ck_assert_msg(pipe != NULL, "cannot run %s", command);
	char line[65536];
	char *got = fgets(line, sizeof line, pipe);
	int status = pclose(pipe);
	ck_assert_msg(got != NULL && status == 0, "%s failed (exit status %d)", command, status);
	json_error_t error;
	json_t *report = json_loads(line, 0, &error);
	ck_assert_msg(report != NULL, "the client's report is not JSON: %s", line);

	json_int_t accepted = member(report, "accepted"), requests = member(report, "requests");
	fprintf(stderr, "typed client: %s", line);
	ck_assert_int_eq(member(report, "finished"), GAMES);
	ck_assert_msg(member(report, "refused") == 0, "listed actions were refused: %s",
		      json_dumps(json_object_get(report, "refusals"), 0));
	ck_assert_msg(requests < 3 * accepted, "%lld requests for %lld accepted moves", (long long)requests,
		      (long long)accepted);
	ck_assert_int_eq(member(report, "too_many_requests"), 0);
	const char *limit = json_string_value(json_object_get(report, "rate_limit_limit"));
	ck_assert_msg(limit && strcmp(limit, "100") == 0, "RateLimit-Limit %s, not the default burst 100",
		      limit ? limit : "(none)");
	ck_assert_int_gt(member(report, "templates_completed"), 0);
	ck_assert_int_gt(member(report, "forwarded_as_is"), 0);
	json_decref(report);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_typed_client");
	TCase *play = tcase_create("typed client");
	http_fixture_add(play, 0, default_limits);
	tcase_set_timeout(play, 600);
	tcase_add_test(play, test_typed_client_plays_games_to_a_winner_within_the_default_rate_limits);
	suite_add_tcase(suite, play);
	return suite;
}
