/*
 * test_http_tokens.c - a link that leaked, replaced (api/handlers_tokens.c,
 * db/migrations/0015_token_rotation.sql), against two servers on one database, through
 * Prism where the answer is checked:
 *
 *   - a seat's new token works at once and the old one is refused at once on the server
 *     that replaced it, and on the other server (which had the old token's lookup cached)
 *     within the notification's delay; the seat's player token keeps working;
 *   - a stream opened with the old token ends soon after the replacement, and opening it
 *     again with the old token is refused;
 *   - a player's new token works and the old one is refused on the player's routes and on
 *     the games it acted for, on both servers; the player's feed stream ends;
 *   - who may not replace (another seat, the admin, no token, a bad seat, a body with
 *     members) is refused, and a refused request changes nothing: the token still works.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

/* How long another server may take to hear of a replacement (a NOTIFY, read by its
 * listener thread at once; the bound is for a loaded machine). */
#define NOTICE_S 3.0

static long status_of(struct http_client *client, const char *method, const char *path, const char *token)
{
	struct http_response response;
	http_call(client, method, path, token, NULL, NULL, &response);
	long status = response.status;
	http_response_free(&response);
	return status;
}

/* Seconds until `path` answers `want` for `token` on `client`, at most NOTICE_S (then -1). */
static double seconds_until(struct http_client *client, const char *path, const char *token, long want)
{
	double started = http_clock();
	while (http_clock() - started < NOTICE_S) {
		if (status_of(client, "GET", path, token) == want)
			return http_clock() - started;
		http_pause(0.01);
	}
	return -1;
}

static void replace_seat_token(const struct http_game *game, int seat, const char *token, char *out)
{
	char path[128];
	snprintf(path, sizeof path, "%s/seats/%d/token", game->path, seat);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	char cache[64];
	ck_assert_str_eq(http_response_header(&response, "Cache-Control", cache, sizeof cache), "no-store");
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), seat);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "id")), game->id);
	const char *fresh = json_string_value(json_object_get(response.json, "token"));
	ck_assert(fresh && strncmp(fresh, "st_", 3) == 0 && strcmp(fresh, token) != 0);
	snprintf(out, 64, "%s", fresh);
	http_response_free(&response);
}

START_TEST(test_a_replaced_seat_token_stops_at_once_on_every_server)
{
	char player_id[20], player_token[64];
	http_player_create(&http_fixture.checked, "Ann", player_id, player_token);
	char body[256];
	snprintf(body, sizeof body, "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
		 player_id);
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);
	char old[64];
	snprintf(old, sizeof old, "%s", game.tokens[0]);
	/* Both servers know (and have cached) the old token. */
	ck_assert_int_eq(status_of(&http_fixture.direct, "GET", game.path, old), 200);
	ck_assert_int_eq(status_of(&http_fixture.second_direct, "GET", game.path, old), 200);

	long version = http_game_version(&http_fixture.checked, &game);
	char fresh[64];
	replace_seat_token(&game, 0, old, fresh);
	/* Here: at once. */
	ck_assert_int_eq(status_of(&http_fixture.direct, "GET", game.path, old), 401);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, fresh);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "you"), "seat")), 0);
	json_decref(view);
	/* There: as soon as its listener heard it. */
	double delay = seconds_until(&http_fixture.second_direct, game.path, old, 401);
	ck_assert_msg(delay >= 0, "the other server still takes the old token after %.1f s", NOTICE_S);
	printf("the other server refused the old seat token %.1f ms after the replacement\n", delay * 1000);
	ck_assert_int_eq(status_of(&http_fixture.second_direct, "GET", game.path, fresh), 200);
	/* The seat's player token is the player's: it still acts for the seat. */
	view = http_get_ok(&http_fixture.checked, game.path, player_token);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "you"), "seat")), 0);
	json_decref(view);
	/* The version did not move: no event. */
	ck_assert_int_eq(http_game_version(&http_fixture.checked, &game), version);
}
END_TEST

struct stream_reader {
	const char *base;
	char path[160];
	const char *token;
	struct http_stream stream;
};

static void *read_stream(void *argument)
{
	struct stream_reader *reader = argument;
	http_stream_read(reader->base, reader->path, reader->token, NULL, 1000, NULL, 20, &reader->stream);
	return NULL;
}

START_TEST(test_streams_opened_with_a_replaced_token_end)
{
	char player_id[20], player_token[64];
	http_player_create(&http_fixture.checked, "Ann", player_id, player_token);
	char body[256];
	snprintf(body, sizeof body, "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
		 player_id);
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);

	/* A seat's game stream, on the other server, and the player's feed stream. */
	struct stream_reader seat_stream = {http_fixture.second.url, "", game.tokens[1], {0}};
	snprintf(seat_stream.path, sizeof seat_stream.path, "%s/stream", game.path);
	struct stream_reader feed_stream = {http_fixture.server.url, "/v1/players/me/stream", player_token, {0}};
	pthread_t seat_thread, feed_thread;
	ck_assert_int_eq(pthread_create(&seat_thread, NULL, read_stream, &seat_stream), 0);
	ck_assert_int_eq(pthread_create(&feed_thread, NULL, read_stream, &feed_stream), 0);
	http_pause(1.0);
	char fresh[64];
	replace_seat_token(&game, 1, game.tokens[1], fresh);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/players/me/token", player_token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	http_response_free(&response);
	pthread_join(seat_thread, NULL);
	pthread_join(feed_thread, NULL);
	double seat_end = seat_stream.stream.seconds - 1.0, feed_end = feed_stream.stream.seconds - 1.0;
	printf("streams ended %.0f ms (seat) and %.0f ms (player) after the replacements began\n", seat_end * 1000,
	       feed_end * 1000);
	ck_assert_int_eq(seat_stream.stream.status, 200);
	ck_assert_int_eq(feed_stream.stream.status, 200);
	/* Long before the 20 s the readers would wait, and before a heartbeat (15 s) woke them. */
	ck_assert_msg(seat_end < 10, "the seat's stream lasted %.1f s", seat_stream.stream.seconds);
	ck_assert_msg(feed_end < 10, "the player's stream lasted %.1f s", feed_stream.stream.seconds);
	http_stream_free(&seat_stream.stream);
	http_stream_free(&feed_stream.stream);
	/* Opening them again with the old tokens is refused. */
	ck_assert_int_eq(status_of(&http_fixture.direct, "GET", seat_stream.path, game.tokens[1]), 401);
	ck_assert_int_eq(status_of(&http_fixture.direct, "GET", "/v1/players/me/stream", player_token), 401);
}
END_TEST

START_TEST(test_a_replaced_player_token_stops_for_its_routes_and_its_games)
{
	char player_id[20], old[64];
	http_player_create(&http_fixture.checked, "Ann", player_id, old);
	char body[256];
	snprintf(body, sizeof body, "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
		 player_id);
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);
	ck_assert_int_eq(status_of(&http_fixture.direct, "GET", game.path, old), 200);
	ck_assert_int_eq(status_of(&http_fixture.second_direct, "GET", game.path, old), 200);

	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/players/me/token", old, "{}", NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "id")), player_id);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "name")), "Ann");
	char fresh[64];
	snprintf(fresh, sizeof fresh, "%s", json_string_value(json_object_get(response.json, "token")));
	ck_assert(strncmp(fresh, "pt_", 3) == 0 && strcmp(fresh, old) != 0);
	http_response_free(&response);

	ck_assert_int_eq(status_of(&http_fixture.checked, "GET", "/v1/players/me/games", old), 401);
	ck_assert_int_eq(status_of(&http_fixture.direct, "GET", game.path, old), 403);
	ck_assert_msg(seconds_until(&http_fixture.second_direct, game.path, old, 403) >= 0,
		      "the other server still takes the old player token");
	json_t *games = http_get_ok(&http_fixture.checked, "/v1/players/me/games", fresh);
	ck_assert_uint_eq(json_array_size(json_object_get(games, "games")), 1);
	json_decref(games);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, fresh);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "you"), "seat")), 0);
	json_decref(view);
	/* The old token cannot replace the new one. */
	http_call(&http_fixture.checked, "POST", "/v1/players/me/token", old, NULL, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
}
END_TEST

START_TEST(test_who_may_not_replace_a_seat_token_changes_nothing)
{
	struct http_game game;
	http_game_create_body(
		&http_fixture.checked,
		"{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bob\"}, {\"name\": \"Robo\", \"bot\": true}]}",
		&game);
	char path[128];
	struct http_response response;
	snprintf(path, sizeof path, "%s/seats/0/token", game.path);
	http_call(&http_fixture.checked, "POST", path, game.tokens[1], NULL, NULL, &response);
	http_assert_problem(&response, 403, "seat_mismatch");
	http_response_free(&response);
	http_call(&http_fixture.checked, "POST", path, game.admin_token, NULL, NULL, &response);
	http_assert_problem(&response, 403, "seat_token_required");
	http_response_free(&response);
	http_call(&http_fixture.direct, "POST", path, NULL, NULL, NULL, &response);
	http_assert_problem(&response, 401, "missing_token");
	http_response_free(&response);
	http_call(&http_fixture.direct, "POST", path, game.tokens[0], "{\"token\": \"st_mine\"}", NULL, &response);
	http_assert_problem(&response, 400, "unknown_field");
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/seats/7/token", game.path);
	http_call(&http_fixture.direct, "POST", path, game.tokens[0], NULL, NULL, &response);
	http_assert_problem(&response, 400, "invalid_field");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "seat");
	http_response_free(&response);
	/* The bot's seat: nobody holds it, so nobody's token is its own. */
	snprintf(path, sizeof path, "%s/seats/2/token", game.path);
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], NULL, NULL, &response);
	http_assert_problem(&response, 403, "seat_mismatch");
	http_response_free(&response);
	/* Nothing changed: both tokens still act for their seats. */
	for (int seat = 0; seat < 2; seat++) {
		json_t *view = http_get_ok(&http_fixture.checked, game.path, game.tokens[seat]);
		ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "you"), "seat")), seat);
		json_decref(view);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_tokens");
	TCase *tc = tcase_create("replaced tokens");
	http_fixture_add(tc, HTTP_FIXTURE_PRISM | HTTP_FIXTURE_SECOND_SERVER, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_a_replaced_seat_token_stops_at_once_on_every_server);
	tcase_add_test(tc, test_streams_opened_with_a_replaced_token_end);
	tcase_add_test(tc, test_a_replaced_player_token_stops_for_its_routes_and_its_games);
	tcase_add_test(tc, test_who_may_not_replace_a_seat_token_changes_nothing);
	suite_add_tcase(suite, tc);
	return suite;
}
