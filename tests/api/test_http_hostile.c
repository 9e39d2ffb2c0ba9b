/*
 * test_http_hostile.c - the server against clients that mean it harm (issue 8): text cut
 * inside a character, control and bidi characters, odd paths and numbers, raw malformed
 * requests, and the headers every answer must carry. After each attack the server must
 * still answer, and every answer must be a complete problem+json.
 *
 * Requests go straight to the server (no Prism): most of them break the contract on
 * purpose, and what is checked is the server's own answer.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/api/http_support.h"
#include "tests/check_main.h"

static struct http_server server;
static struct http_client direct;

static void start(void)
{
	http_server_start(&server, NULL);
}

static void stop(void)
{
	http_server_stop(&server, 30);
}

static void setup(void)
{
	http_client_init(&direct, server.url, 0);
}

static void teardown(void)
{
	http_client_cleanup(&direct);
}

static void assert_alive(void)
{
	struct http_response response;
	http_call(&direct, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "the server stopped answering: %s", http_describe(&response));
	http_response_free(&response);
}

/* 39 ASCII bytes and then a two-byte character: a cut at 40 bytes falls inside it. */
#define CUT_INSIDE "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9tail"

/* The body is a problem with this status and code, and its detail and field are valid
 * JSON strings (they parsed) that quote the client's text without breaking it. */
static void expect_problem(const char *method, const char *path, const char *token, const char *body, long status,
			   const char *code)
{
	struct http_response response;
	http_call(&direct, method, path, token, body, NULL, &response);
	ck_assert_msg(response.status == status, "%s %s: expected %ld, got %s", method, path, status,
		      http_describe(&response));
	http_assert_problem(&response, status, code);
	http_response_free(&response);
	assert_alive();
}

START_TEST(test_client_text_cut_inside_a_character_is_quoted_not_a_crash)
{
	/* An unknown option key. */
	expect_problem("POST", "/v1/games", NULL, "{\"seats\": 3, \"options\": {\"" CUT_INSIDE "\": 1}}", 400,
		       "unknown_field");
	struct http_game game;
	http_game_create(&direct, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}", &game);
	char path[128];
	http_game_path(&game, "/moves", path, sizeof path);
	/* A move type, a member name in a move, a resource name in a trade. */
	expect_problem("POST", path, game.tokens[0], "{\"type\": \"" CUT_INSIDE "\"}", 400, "invalid_field");
	expect_problem("POST", path, game.tokens[0], "{\"type\": \"roll\", \"" CUT_INSIDE "\": 1}", 400,
		       "unknown_field");
	expect_problem("POST", path, game.tokens[0],
		       "{\"type\": \"maritime_trade\", \"give\": {\"" CUT_INSIDE "\": 4}, \"get\": {\"ore\": 1}}", 400,
		       "unknown_field");
	expect_problem("POST", path, game.tokens[0], "{\"type\": \"discard\", \"resources\": {\"" CUT_INSIDE "\": 1}}",
		       400, "unknown_field");
	http_game_path(&game, "/trades", path, sizeof path);
	expect_problem("POST", path, game.tokens[0], "{\"give\": {\"" CUT_INSIDE "\": 1}, \"get\": {\"ore\": 1}}", 400,
		       "unknown_field");
	/* A key of four-byte characters, and one long enough to fill every buffer. */
	char long_key[2048];
	snprintf(long_key, sizeof long_key, "{\"seats\": 3, \"options\": {\"");
	for (int i = 0; i < 300; i++)
		strcat(long_key, "\xf0\x9f\x8e\xb2");
	strcat(long_key, "\": 1}}");
	expect_problem("POST", "/v1/games", NULL, long_key, 400, "unknown_field");
}
END_TEST

START_TEST(test_control_and_bidi_characters_are_escaped_where_quoted)
{
	struct http_response response;
	http_call(&direct, "POST", "/v1/games", NULL,
		  "{\"seats\": 3, \"options\": {\"evil\\u202e\\u0007key\": 1}}", NULL, &response);
	http_assert_problem(&response, 400, "unknown_field");
	const char *detail = json_string_value(json_object_get(response.json, "detail"));
	ck_assert_ptr_nonnull(detail);
	ck_assert_msg(strstr(detail, "evil\\u202e\\u0007key") != NULL, "detail does not escape: %s", detail);
	ck_assert_msg(strstr(detail, "\xe2\x80\xae") == NULL, "detail carries a raw bidi override: %s", detail);
	http_response_free(&response);
}
END_TEST

START_TEST(test_paths_with_nul_or_invalid_utf8_are_not_found_with_an_instance)
{
	struct http_game game;
	http_game_create(&direct, 3, NULL, &game);
	char path[128];
	/* %00 must not cut the path: /v1/games/ID%00/board is no route of ours. */
	snprintf(path, sizeof path, "%s%%00/board", game.path);
	struct http_response response;
	http_call(&direct, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 404, "%s: %s", path, http_describe(&response));
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/board%%00", game.path);
	http_call(&direct, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 404, "%s: %s", path, http_describe(&response));
	http_response_free(&response);
	/* Bytes that are no UTF-8 still get a problem with its instance. */
	http_call(&direct, "GET", "/v1/games/%ff%fe%c3/board", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 404);
	ck_assert_ptr_nonnull(response.json);
	ck_assert_msg(json_is_string(json_object_get(response.json, "instance")), "no instance: %s", response.body);
	http_response_free(&response);
	assert_alive();
}
END_TEST

START_TEST(test_numbers_in_queries_are_digits_only)
{
	struct http_game game;
	http_game_create(&direct, 3, NULL, &game);
	static const char *const queries[] = {"limit=5abc", "limit=+5", "limit=%205", "after=-1", "after=1e3",
					      "wait=0x10", "limit=", "after=99999999999999999999"};
	for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
		char path[160];
		snprintf(path, sizeof path, "%s/moves?%s", game.path, queries[i]);
		expect_problem("GET", path, NULL, NULL, 400, "invalid_field");
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_hostile");
	TCase *hostile = tcase_create("hostile");
	tcase_set_timeout(hostile, 120);
	tcase_add_unchecked_fixture(hostile, start, stop);
	tcase_add_checked_fixture(hostile, setup, teardown);
	tcase_add_test(hostile, test_client_text_cut_inside_a_character_is_quoted_not_a_crash);
	tcase_add_test(hostile, test_control_and_bidi_characters_are_escaped_where_quoted);
	tcase_add_test(hostile, test_paths_with_nul_or_invalid_utf8_are_not_found_with_an_instance);
	tcase_add_test(hostile, test_numbers_in_queries_are_digits_only);
	suite_add_tcase(suite, hostile);
	return suite;
}
