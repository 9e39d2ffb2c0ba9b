/*
 * test_http_live.c - telling a seat when it must act (issue 11, item 2): GET
 * .../actions?after=N&wait=S holds the request until the game is past version N and waits
 * for the caller's seat, and answers within a second of the move that makes it so, also
 * when that move is made through another server on the same database.
 *
 * The games start fixed with manual dice and seat 0 first, so the tests know which moves
 * hand the turn on: seat 0's roll leaves the game waiting for seat 0 only, its end of turn
 * makes seat 1 act. Requests go through Prism (`checked`, requests validated too) so every
 * answer is held to openapi.yaml; malformed parameters go straight to the server, since
 * Prism would refuse them itself.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

/* Seat 0 plays one turn on `base` (its own connection): after `delay_s` it rolls (the game
 * still waits for seat 0 alone), `gap_s` later it ends the turn (the game now waits for
 * seat 1). The times of both moves and the version after the turn are recorded. */
struct turn_player {
	const char *base;
	const struct http_game *game;
	double delay_s, gap_s;
	double rolled_at, ended_at;
	long version;
};

static void *play_turn(void *argument)
{
	struct turn_player *turn = argument;
	struct http_client own;
	http_client_init(&own, turn->base, 0);
	http_pause(turn->delay_s);
	http_post_move_ok(&own, turn->game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	turn->rolled_at = http_clock();
	http_pause(turn->gap_s);
	turn->version = http_post_move_ok(&own, turn->game, 0, "{\"type\": \"end_turn\"}");
	turn->ended_at = http_clock();
	http_client_cleanup(&own);
	return NULL;
}

/* GET <game>/actions?after=after&wait=wait_s as `seat` on `client`; the answer in *out. */
static void wait_for_actions(struct http_client *client, const struct http_game *game, int seat, long after,
			     int wait_s, struct http_response *out)
{
	char path[192];
	snprintf(path, sizeof path, "%s/actions?after=%ld&wait=%d", game->path, after, wait_s);
	http_call(client, "GET", path, seat < 0 ? NULL : game->tokens[seat], NULL, NULL, out);
	ck_assert_msg(out->status == 200, "GET %s: %s", path, http_describe(out));
}

/* 1 when the Actions body's waiting_for lists `seat`. */
static int waits_for(const json_t *actions, int seat)
{
	size_t index;
	json_t *entry;
	json_array_foreach(json_object_get(actions, "waiting_for"), index, entry)
		if (json_integer_value(entry) == seat)
			return 1;
	return 0;
}

/* 1 when the Actions body lists an action of `type`. */
static int lists_action(const json_t *actions, const char *type)
{
	size_t index;
	json_t *entry;
	json_array_foreach(json_object_get(actions, "actions"), index, entry)
		if (strcmp(json_string_value(json_object_get(entry, "type")), type) == 0)
			return 1;
	return 0;
}

/* Seat 1 waits while seat 0 rolls (not yet seat 1's turn: it stays parked) and then ends
 * its turn: seat 1 is answered within a second of the end of the turn, with its roll. */
static void assert_woken_by_the_turn_passing(struct http_client *waiter_client, const char *mover_base)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	struct turn_player turn = {mover_base, &game, 0.6, 0.8, 0, 0, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, play_turn, &turn);
	struct http_response response;
	wait_for_actions(waiter_client, &game, 1, version, 20, &response);
	double answered = http_clock();
	pthread_join(thread, NULL);
	ck_assert_msg(answered > turn.ended_at - 0.05, "answered %.2f s before the turn ended (rolled at %+.2f s)",
		      turn.ended_at - answered, turn.rolled_at - answered);
	ck_assert_msg(answered - turn.ended_at < 1.0, "answered %.2f s after the move that made seat 1 act",
		      answered - turn.ended_at);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), turn.version);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), 1);
	ck_assert_msg(waits_for(response.json, 1), "%s", http_describe(&response));
	ck_assert_msg(lists_action(response.json, "roll"), "%s", http_describe(&response));
	char etag[32], expected[32];
	snprintf(expected, sizeof expected, "\"%ld\"", turn.version);
	ck_assert_ptr_nonnull(http_response_header(&response, "ETag", etag, sizeof etag));
	ck_assert_str_eq(etag, expected);
	http_response_free(&response);
}

START_TEST(test_a_waiting_seat_is_answered_within_a_second_of_becoming_due)
{
	assert_woken_by_the_turn_passing(&http_fixture.checked, http_fixture.server.url);
}
END_TEST

START_TEST(test_a_wait_on_one_server_is_answered_for_a_move_made_on_the_other)
{
	assert_woken_by_the_turn_passing(&http_fixture.direct, http_fixture.second.url);
}
END_TEST

START_TEST(test_moves_that_leave_the_seat_idle_do_not_answer_the_wait)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	/* The whole turn passes to seat 1: seat 2 has nothing to do throughout. */
	struct turn_player turn = {http_fixture.server.url, &game, 0.3, 0.3, 0, 0, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, play_turn, &turn);
	struct http_response response;
	wait_for_actions(&http_fixture.checked, &game, 2, version, 2, &response);
	pthread_join(thread, NULL);
	ck_assert_msg(response.seconds >= 1.9, "seat 2 was answered after %.2f s: %s", response.seconds,
		      http_describe(&response));
	ck_assert_msg(response.seconds < 4, "the 2 s wait took %.2f s", response.seconds);
	/* The timeout answers the current actions: the client sees the version and asks again. */
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), turn.version);
	ck_assert_msg(!waits_for(response.json, 2) && waits_for(response.json, 1), "%s", http_describe(&response));
	http_response_free(&response);
	/* A spectator is never waited for: it is held to the end of its wait too. */
	wait_for_actions(&http_fixture.checked, &game, -1, 0, 1, &response);
	ck_assert_msg(response.seconds >= 0.9, "a spectator was answered after %.2f s", response.seconds);
	ck_assert(json_is_null(json_object_get(response.json, "seat")));
	http_response_free(&response);
}
END_TEST

START_TEST(test_a_seat_already_due_past_after_is_answered_at_once)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	struct http_response response;
	/* Seat 0 must roll, and the game is past version - 1: at once. */
	wait_for_actions(&http_fixture.checked, &game, 0, version - 1, 30, &response);
	ck_assert_msg(response.seconds < 1, "answered after %.2f s", response.seconds);
	ck_assert(lists_action(response.json, "roll"));
	http_response_free(&response);
	/* With after absent (0) the same. */
	char path[192];
	snprintf(path, sizeof path, "%s/actions?wait=30", game.path);
	http_call(&http_fixture.checked, "GET", path, game.tokens[0], NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && response.seconds < 1, "%s after %.2f s", http_describe(&response),
		      response.seconds);
	http_response_free(&response);
	/* The seat holds the current version already: it waits for something new. */
	wait_for_actions(&http_fixture.checked, &game, 0, version, 1, &response);
	ck_assert_msg(response.seconds >= 0.9, "answered after %.2f s", response.seconds);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), version);
	http_response_free(&response);
	/* Without wait nothing is held. */
	snprintf(path, sizeof path, "%s/actions?after=%ld", game.path, version + 5);
	http_call(&http_fixture.checked, "GET", path, game.tokens[1], NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && response.seconds < 1, "%s", http_describe(&response));
	http_response_free(&response);
}
END_TEST

START_TEST(test_malformed_after_and_wait_are_400_naming_the_parameter)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	static const struct {
		const char *query;
		const char *field;
	} cases[] = {
		{"wait=61", "wait"},   {"wait=-1", "wait"}, {"wait=soon", "wait"},     {"wait=", "wait"},
		{"after=-1", "after"}, {"after=x", "after"}, {"after=1&wait=1.5", "wait"}, {"after=99999999999&wait=1", "after"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[192];
		snprintf(path, sizeof path, "%s/actions?%s", game.path, cases[i].query);
		struct http_response response;
		http_call(&http_fixture.direct, "GET", path, game.tokens[0], NULL, NULL, &response);
		http_assert_problem(&response, 400, "invalid_field");
		ck_assert_msg(response.seconds < 1, "%s took %.2f s", path, response.seconds);
		const char *field = json_string_value(json_object_get(response.json, "field"));
		ck_assert_msg(field && strcmp(field, cases[i].field) == 0, "%s: field %s", path, field ? field : "(none)");
		http_response_free(&response);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_live");
	TCase *wait = tcase_create("waiting for the seat's turn");
	http_fixture_add(wait, HTTP_FIXTURE_VALIDATE_REQUESTS | HTTP_FIXTURE_SECOND_SERVER, NULL);
	tcase_set_timeout(wait, 120);
	tcase_add_test(wait, test_a_waiting_seat_is_answered_within_a_second_of_becoming_due);
	tcase_add_test(wait, test_a_wait_on_one_server_is_answered_for_a_move_made_on_the_other);
	tcase_add_test(wait, test_moves_that_leave_the_seat_idle_do_not_answer_the_wait);
	tcase_add_test(wait, test_a_seat_already_due_past_after_is_answered_at_once);
	tcase_add_test(wait, test_malformed_after_and_wait_are_400_naming_the_parameter);
	suite_add_tcase(suite, wait);
	return suite;
}
