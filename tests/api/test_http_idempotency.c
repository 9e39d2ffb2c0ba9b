/*
 * test_http_idempotency.c - Idempotency-Key over HTTP: a retried request gets the first
 * outcome again (same status, same body, Idempotent-Replayed: true) and applies nothing
 * twice; a key reused for another request is refused; a refusal is replayed as the same
 * refusal, even after the game has moved on. Everything goes through Prism.
 */
#include <stdio.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

static void keyed_move(const struct http_game *game, int seat, const char *key, const char *body,
		       struct http_response *out)
{
	char header[300];
	snprintf(header, sizeof header, "Idempotency-Key: %.280s", key);
	const char *headers[] = {header, NULL};
	http_post_move(&http_fixture.checked, game, seat, body, headers, out);
}

static int replayed(const struct http_response *response)
{
	char value[32];
	return http_response_header(response, "Idempotent-Replayed", value, sizeof value) && strcmp(value, "true") == 0;
}

START_TEST(test_same_key_and_body_replays_the_first_response_and_applies_once)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	char key[64];
	snprintf(key, sizeof key, "roll-%016llx", (unsigned long long)http_random64());
	const char *roll = "{\"type\": \"roll\", \"dice\": [2, 4]}";
	struct http_response first;
	keyed_move(&game, 0, key, roll, &first);
	ck_assert_msg(first.status == 201, "%s", http_describe(&first));
	ck_assert(!replayed(&first));
	long version = http_game_version(&http_fixture.checked, &game);
	struct http_state before;
	http_state_capture(&http_fixture.checked, &game, &before);
	for (int retry = 0; retry < 3; retry++) {
		struct http_response again;
		keyed_move(&game, 0, key, roll, &again);
		ck_assert_int_eq(again.status, first.status);
		ck_assert_msg(replayed(&again), "a replay says so: %s", again.headers);
		ck_assert_msg(again.body_length == first.body_length &&
				      memcmp(again.body, first.body, first.body_length) == 0,
			      "the same body:\n%s\n%s", first.body, again.body);
		http_response_free(&again);
	}
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	ck_assert_int_eq(http_game_version(&http_fixture.checked, &game), version);
	/* The log holds the roll once. */
	char path[128];
	snprintf(path, sizeof path, "%s/moves?after=16", game.path);
	json_t *log = http_get_ok(&http_fixture.checked, path, NULL);
	int rolls = 0;
	size_t index;
	json_t *event;
	json_array_foreach(json_object_get(log, "events"), index, event) rolls +=
		strcmp(json_string_value(json_object_get(event, "type")), "dice_rolled") == 0;
	ck_assert_int_eq(rolls, 1);
	json_decref(log);
	http_state_free(&before);
	http_response_free(&first);
}
END_TEST

START_TEST(test_same_key_with_another_body_or_seat_is_422_idempotency_key_reused)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	const char *key = "the-one-key";
	struct http_response response;
	keyed_move(&game, 0, key, "{\"type\": \"roll\", \"dice\": [1, 2]}", &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	http_response_free(&response);
	struct http_state before;
	http_state_capture(&http_fixture.checked, &game, &before);
	keyed_move(&game, 0, key, "{\"type\": \"end_turn\"}", &response);
	http_assert_problem(&response, 422, "idempotency_key_reused");
	ck_assert(!replayed(&response));
	http_response_free(&response);
	keyed_move(&game, 0, key, "{\"type\": \"roll\", \"dice\": [1, 3]}", &response);
	http_assert_problem(&response, 422, "idempotency_key_reused");
	http_response_free(&response);
	/* Another seat's key of the same name is another key: its own refusal, not a reuse. */
	keyed_move(&game, 1, key, "{\"type\": \"roll\", \"dice\": [1, 2]}", &response);
	http_assert_problem(&response, 422, "not_your_turn");
	ck_assert(!replayed(&response));
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	http_state_free(&before);
	/* Keys belong to a game: the same key on another game is new there. */
	struct http_game other;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &other);
	keyed_move(&other, 0, key, "{\"type\": \"roll\", \"dice\": [1, 2]}", &response);
	ck_assert_msg(response.status == 201 && !replayed(&response), "%s", http_describe(&response));
	http_response_free(&response);
	/* A key must be 1..200 printable characters (Prism refuses a longer one itself, so this
	 * goes to the server directly). */
	char long_key[240];
	memset(long_key, 'k', sizeof long_key - 1);
	long_key[sizeof long_key - 1] = '\0';
	http_state_capture(&http_fixture.checked, &game, &before);
	char header[300];
	snprintf(header, sizeof header, "Idempotency-Key: %s", long_key);
	const char *headers[] = {header, NULL};
	http_post_move(&http_fixture.direct, &game, 0, "{\"type\": \"end_turn\"}", headers, &response);
	http_assert_problem(&response, 400, "invalid_field");
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	http_state_free(&before);
}
END_TEST

START_TEST(test_a_refused_move_with_a_key_is_replayed_as_the_same_refusal)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_state before;
	http_state_capture(&http_fixture.checked, &game, &before);
	struct http_response first;
	keyed_move(&game, 0, "end-early", "{\"type\": \"end_turn\"}", &first);
	http_assert_problem(&first, 422, "must_roll_first");
	struct http_response again;
	keyed_move(&game, 0, "end-early", "{\"type\": \"end_turn\"}", &again);
	ck_assert_int_eq(again.status, 422);
	ck_assert(replayed(&again));
	ck_assert_str_eq(again.body, first.body);
	http_response_free(&again);
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	http_state_free(&before);
	/* After the roll the same move would be legal, but the key keeps its first outcome. */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	http_state_capture(&http_fixture.checked, &game, &before);
	keyed_move(&game, 0, "end-early", "{\"type\": \"end_turn\"}", &again);
	ck_assert_int_eq(again.status, 422);
	ck_assert(replayed(&again));
	ck_assert_str_eq(again.body, first.body);
	http_response_free(&again);
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	http_state_free(&before);
	http_response_free(&first);
	/* Without the key it is a new request. */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"end_turn\"}");
}
END_TEST

/* Keys belong to the seat (the token) that sends them: a seat that uses another seat's
 * predictable key first does not block it or learn its answer. */
START_TEST(test_keys_are_scoped_per_seat)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_response response;
	/* Seat 1 takes seat 0's next key first (refused: not its turn). */
	keyed_move(&game, 1, "turn-1-roll", "{\"type\": \"roll\", \"dice\": [2, 3]}", &response);
	http_assert_problem(&response, 422, "not_your_turn");
	http_response_free(&response);
	/* Seat 0's request with that key is its own, and is applied. */
	keyed_move(&game, 0, "turn-1-roll", "{\"type\": \"roll\", \"dice\": [2, 3]}", &response);
	ck_assert_msg(response.status == 201 && !replayed(&response), "%s", http_describe(&response));
	char first_body[4096];
	snprintf(first_body, sizeof first_body, "%s", response.body);
	http_response_free(&response);
	/* Each seat's retry replays its own answer. */
	keyed_move(&game, 0, "turn-1-roll", "{\"type\": \"roll\", \"dice\": [2, 3]}", &response);
	ck_assert_msg(response.status == 201 && replayed(&response), "%s", http_describe(&response));
	ck_assert_str_eq(response.body, first_body);
	http_response_free(&response);
	keyed_move(&game, 1, "turn-1-roll", "{\"type\": \"roll\", \"dice\": [2, 3]}", &response);
	http_assert_problem(&response, 422, "not_your_turn");
	ck_assert(replayed(&response));
	http_response_free(&response);
	/* A key name seat 0 used is still free for seat 1. */
	keyed_move(&game, 0, "turn-1-end", "{\"type\": \"end_turn\"}", &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	http_response_free(&response);
	keyed_move(&game, 1, "turn-1-end", "{\"type\": \"roll\", \"dice\": [2, 3]}", &response);
	ck_assert_msg(response.status == 201 && !replayed(&response), "seat 1 rolls under the same key name: %s",
		      http_describe(&response));
	http_response_free(&response);
}
END_TEST

/* Trades are moves too: a retried offer answers the same trade id and opens one offer. */
START_TEST(test_a_retried_offer_opens_one_trade)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	json_t *view = http_get_ok(&http_fixture.checked, game.path, game.tokens[0]);
	json_t *hand = json_object_get(json_object_get(view, "you"), "resources");
	const char *give = NULL;
	const char *key;
	json_t *count;
	json_object_foreach(hand, key, count) if (!give && json_integer_value(count) > 0) give = key;
	ck_assert_msg(give != NULL, "seat 0 holds a card after the fixed start");
	char body[128];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}}", give,
		 strcmp(give, "ore") == 0 ? "wool" : "ore");
	json_decref(view);
	char path[128];
	http_game_path(&game, "/trades", path, sizeof path);
	static const char *const headers[] = {"Idempotency-Key: offer-1", NULL};
	struct http_response first, again;
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], body, headers, &first);
	ck_assert_msg(first.status == 201, "%s", http_describe(&first));
	json_int_t trade = json_integer_value(json_object_get(first.json, "id"));
	ck_assert_int_gt(trade, 0);
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], body, headers, &again);
	ck_assert_int_eq(again.status, 201);
	ck_assert(replayed(&again));
	ck_assert_int_eq(json_integer_value(json_object_get(again.json, "id")), trade);
	json_t *trades = http_get_ok(&http_fixture.checked, path, NULL);
	ck_assert_int_eq(json_array_size(json_object_get(trades, "trades")), 1);
	json_decref(trades);
	http_response_free(&first);
	http_response_free(&again);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_idempotency");
	TCase *keys = tcase_create("idempotency keys");
	http_fixture_add(keys, HTTP_FIXTURE_VALIDATE_REQUESTS, NULL);
	tcase_set_timeout(keys, 60);
	tcase_add_test(keys, test_same_key_and_body_replays_the_first_response_and_applies_once);
	tcase_add_test(keys, test_same_key_with_another_body_or_seat_is_422_idempotency_key_reused);
	tcase_add_test(keys, test_a_refused_move_with_a_key_is_replayed_as_the_same_refusal);
	tcase_add_test(keys, test_a_retried_offer_opens_one_trade);
	tcase_add_test(keys, test_keys_are_scoped_per_seat);
	suite_add_tcase(suite, keys);
	return suite;
}
