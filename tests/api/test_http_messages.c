/*
 * test_http_messages.c - table talk: a seat posts, anyone (a spectator too) reads, in
 * order, paged by `after`; messages never move the game's version (the ETag and a move's
 * If-Match are untouched) and are placed between the moves by `after_version`; the text
 * limits (length, UTF-8, control and bidi characters) and the per-seat rate answer
 * problems naming the member, and nothing is posted then; spectators and the admin cannot
 * post.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

static void post_message(const struct http_game *game, const char *token, const char *body,
			 struct http_response *response)
{
	char path[160];
	http_call(&http_fixture.checked, "POST", http_game_path(game, "/messages", path, sizeof path), token, body,
		  NULL, response);
}

/* Post `text` (JSON-escaped by jansson) by `seat`; expects 201; returns the message. */
static json_t *post_ok(const struct http_game *game, int seat, const char *text)
{
	json_t *body = json_pack("{s:s}", "text", text);
	char *encoded = json_dumps(body, JSON_COMPACT);
	struct http_response response;
	post_message(game, game->tokens[seat], encoded, &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	json_t *message = json_incref(response.json);
	http_response_free(&response);
	free(encoded);
	json_decref(body);
	ck_assert_str_eq(json_string_value(json_object_get(message, "text")), text);
	ck_assert_int_eq(json_integer_value(json_object_get(message, "seat")), seat);
	return message;
}

/* GET .../messages?after= as `token` (NULL: a spectator). New reference: the messages. */
static json_t *read_messages(const struct http_game *game, const char *token, long after)
{
	char path[160];
	snprintf(path, sizeof path, "%s/messages?after=%ld", game->path, after);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	json_t *messages = json_incref(json_object_get(response.json, "messages"));
	http_response_free(&response);
	return messages;
}

static long message_count(const struct http_game *game)
{
	json_t *messages = read_messages(game, NULL, 0);
	long count = (long)json_array_size(messages);
	json_decref(messages);
	return count;
}

START_TEST(test_seats_post_and_spectators_read_in_order_paged_by_after)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	json_decref(post_ok(&game, 0, "Anyone for wool? 2 brick for 1"));
	json_decref(post_ok(&game, 1, "Deal,\nif you add an ore \xc3\xa9\xe2\x9c\x93"));
	json_decref(post_ok(&game, 0, "no"));
	json_t *all = read_messages(&game, NULL, 0);
	ck_assert_int_eq(json_array_size(all), 3);
	for (size_t i = 0; i < 3; i++) {
		json_t *message = json_array_get(all, i);
		ck_assert_int_eq(json_integer_value(json_object_get(message, "seq")), (long)i + 1);
		ck_assert(json_is_string(json_object_get(message, "created_at")));
		ck_assert(json_is_string(json_object_get(message, "name")));
	}
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(all, 1), "text")),
			 "Deal,\nif you add an ore \xc3\xa9\xe2\x9c\x93");
	/* Every reader sees the same messages. */
	for (int seat = 0; seat < 3; seat++) {
		json_t *seen = read_messages(&game, game.tokens[seat], 0);
		ck_assert(json_equal(seen, all));
		json_decref(seen);
	}
	json_t *admin = read_messages(&game, game.admin_token, 0);
	ck_assert(json_equal(admin, all));
	json_decref(admin);
	json_t *page = read_messages(&game, NULL, 2);
	ck_assert_int_eq(json_array_size(page), 1);
	ck_assert(json_equal(json_array_get(page, 0), json_array_get(all, 2)));
	json_decref(page);
	page = read_messages(&game, NULL, 3);
	ck_assert_int_eq(json_array_size(page), 0);
	json_decref(page);
	json_decref(all);
}
END_TEST

START_TEST(test_messages_never_move_the_version_and_fall_between_moves)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.checked, &game);
	json_t *first = post_ok(&game, 1, "good luck");
	ck_assert_int_eq(json_integer_value(json_object_get(first, "after_version")), version);
	ck_assert_int_eq(http_game_version(&http_fixture.checked, &game), version);
	/* A move pinned to the version read before the message still applies. */
	char if_match[64];
	snprintf(if_match, sizeof if_match, "If-Match: \"%ld\"", version);
	const char *headers[] = {if_match, NULL};
	struct http_response response;
	http_post_move(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}", headers, &response);
	ck_assert_msg(response.status == 200 || response.status == 201, "%s", http_describe(&response));
	http_response_free(&response);
	long after_roll = http_game_version(&http_fixture.checked, &game);
	ck_assert_int_gt(after_roll, version);
	json_t *second = post_ok(&game, 2, "nice roll");
	ck_assert_int_eq(json_integer_value(json_object_get(second, "after_version")), after_roll);
	ck_assert_int_eq(json_integer_value(json_object_get(second, "seq")), 2);
	/* Not in the event log. */
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, 0);
	ck_assert_int_eq(json_array_size(log), after_roll);
	json_decref(log);
	json_decref(first);
	json_decref(second);
}
END_TEST

START_TEST(test_text_must_be_1_to_500_characters_of_clean_utf8)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	/* 500 two-byte characters are fine; 501 are not. */
	char long_text[1100] = "";
	for (int i = 0; i < 500; i++)
		strcat(long_text, "\xc3\xa9");
	json_decref(post_ok(&game, 0, long_text));
	strcat(long_text, "x");
	json_t *body = json_pack("{s:s}", "text", long_text);
	char *too_long = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	static const char *const refused[] = {
		"{\"text\": \"\"}",
		"{\"text\": \"\\n \"}",
		"{\"text\": \"bell \\u0007\"}",
		"{\"text\": \"evil \\u202e txet\"}",
		"{\"text\": 12}",
	};
	for (size_t i = 0; i <= sizeof refused / sizeof refused[0]; i++) {
		struct http_response response;
		const char *sent = i < sizeof refused / sizeof refused[0] ? refused[i] : too_long;
		post_message(&game, game.tokens[0], sent, &response);
		ck_assert_msg(response.status == 400, "%s: %s", sent, http_describe(&response));
		const char *field = json_string_value(json_object_get(response.json, "field"));
		ck_assert_msg(field && strcmp(field, "text") == 0, "%s: %s", sent, http_describe(&response));
		http_response_free(&response);
	}
	free(too_long);
	struct http_response response;
	post_message(&game, game.tokens[0], "{}", &response);
	http_assert_problem(&response, 400, "missing_field");
	http_response_free(&response);
	post_message(&game, game.tokens[0], "{\"text\": \"hi\", \"to\": 1}", &response);
	http_assert_problem(&response, 400, "unknown_field");
	http_response_free(&response);
	/* Bytes that are not UTF-8 are not JSON. */
	char path[160];
	http_call(&http_fixture.direct, "POST", http_game_path(&game, "/messages", path, sizeof path), game.tokens[0],
		  "{\"text\": \"\xff\xfe\"}", NULL, &response);
	http_assert_problem(&response, 400, "invalid_json");
	http_response_free(&response);
	post_message(&game, game.tokens[0], "{\"text\": \"nul \\u0000 byte\"}", &response);
	http_assert_problem(&response, 400, "invalid_json");
	http_response_free(&response);
	ck_assert_int_eq(message_count(&game), 1);
}
END_TEST

START_TEST(test_only_seats_post)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_response response;
	post_message(&game, NULL, "{\"text\": \"hi\"}", &response);
	ck_assert_int_eq(response.status, 401);
	http_response_free(&response);
	post_message(&game, game.admin_token, "{\"text\": \"hi\"}", &response);
	ck_assert_int_eq(response.status, 403);
	http_response_free(&response);
	ck_assert_int_eq(message_count(&game), 0);
}
END_TEST

START_TEST(test_a_seat_may_post_ten_messages_a_minute)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	for (int i = 0; i < 10; i++) {
		char text[32];
		snprintf(text, sizeof text, "message %d", i + 1);
		json_decref(post_ok(&game, 0, text));
	}
	struct http_response response;
	post_message(&game, game.tokens[0], "{\"text\": \"one more\"}", &response);
	http_assert_problem(&response, 429, "rate_limited");
	char retry[32];
	ck_assert_ptr_nonnull(http_response_header(&response, "Retry-After", retry, sizeof retry));
	ck_assert_int_ge(atoi(retry), 1);
	ck_assert_int_le(atoi(retry), 60);
	http_response_free(&response);
	ck_assert_int_eq(message_count(&game), 10);
	/* Another seat has its own rate. */
	json_decref(post_ok(&game, 1, "my turn to talk"));
	ck_assert_int_eq(message_count(&game), 11);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_messages");
	TCase *talk = tcase_create("table talk");
	http_fixture_add(talk, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(talk, 60);
	tcase_add_test(talk, test_seats_post_and_spectators_read_in_order_paged_by_after);
	tcase_add_test(talk, test_messages_never_move_the_version_and_fall_between_moves);
	tcase_add_test(talk, test_text_must_be_1_to_500_characters_of_clean_utf8);
	tcase_add_test(talk, test_only_seats_post);
	tcase_add_test(talk, test_a_seat_may_post_ten_messages_a_minute);
	suite_add_tcase(suite, talk);
	return suite;
}
