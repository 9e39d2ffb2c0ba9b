/*
 * test_async_message_webhooks.c - table talk delivered to webhooks, as receivers see it: a
 * seat's webhook and a player's webhook get every message posted between moves, signed,
 * exactly as GET .../messages shows it, in order with the events (after the event of its
 * after_version, before the next one), logged as kind "message"; a webhook limited to
 * your_turn and a chat-format (discord) webhook get no message delivery at all (no outbox
 * row is even written for them), while a standard one does.
 *
 * One server behind a Prism proxy that checks every response against the contract; the
 * bodies the server POSTs to receivers, which Prism never sees, are validated against the
 * spec's WebhookDelivery by tests/api/validate_json.js. Receivers are
 * tests/api/webhook_receiver.c on 127.0.0.1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/api/webhook_receiver.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"
#define DELIVERY_TIMEOUT_S 60
#define MAX_MESSAGES 16

struct hook {
	struct webhook_receiver *receiver;
	char id[32];
	char list[160]; /* where it was registered (its list) */
	char path[160]; /* list/<id> */
	const char *token;
};

/* Register a receiver at `path` (a game's or the player's webhooks) with `token`; `extra`
 * is more members of the body. */
static void hook_register(const char *path, const char *token, const char *extra, struct hook *hook)
{
	memset(hook, 0, sizeof *hook);
	hook->receiver = webhook_receiver_start();
	hook->token = token;
	char body[512];
	snprintf(body, sizeof body, "{\"url\": \"%s\"%s}", webhook_receiver_url(hook->receiver), extra ? extra : "");
	struct http_response response;
	http_call(&http_fixture.checked, "POST", path, token, body, NULL, &response);
	ck_assert_msg(response.status == 201, "register: %s", http_describe(&response));
	snprintf(hook->id, sizeof hook->id, "%s", json_string_value(json_object_get(response.json, "id")));
	/* Only a standard webhook signs, so only it is answered with a secret. */
	const char *secret = json_string_value(json_object_get(response.json, "secret"));
	const char *format = json_string_value(json_object_get(response.json, "format"));
	ck_assert_msg(format && (secret != NULL) == (strcmp(format, "standard") == 0),
		      "a secret for a standard webhook only: %s", response.body);
	if (secret)
		webhook_receiver_set_secret(hook->receiver, secret);
	snprintf(hook->list, sizeof hook->list, "%s", path);
	snprintf(hook->path, sizeof hook->path, "%s/%s", path, hook->id);
	http_response_free(&response);
}

/* The outbox rows still to deliver for the webhook ("pending"), as its list shows it. */
static long pending(const struct hook *hook)
{
	json_t *body = http_get_ok(&http_fixture.checked, hook->list, hook->token);
	long count = -1;
	size_t i;
	json_t *webhook;
	json_array_foreach(json_object_get(body, "webhooks"), i, webhook)
	{
		if (strcmp(json_string_value(json_object_get(webhook, "id")), hook->id) == 0)
			count = (long)json_integer_value(json_object_get(webhook, "pending"));
	}
	json_decref(body);
	ck_assert_msg(count >= 0, "webhook %s is not listed at %s", hook->id, hook->list);
	return count;
}

static void wait_delivered(const struct hook *hook)
{
	double timeout_s = DELIVERY_TIMEOUT_S * http_slowdown(), deadline = http_clock() + timeout_s;
	for (;;) {
		long left = pending(hook);
		if (left == 0)
			return;
		ck_assert_msg(http_clock() < deadline, "webhook %s: %ld rows still to deliver after %.0f s", hook->id,
			      left, timeout_s);
		http_pause(0.1);
	}
}

static const char *type_of(const json_t *object)
{
	const char *type = json_string_value(json_object_get(object, "type"));
	return type ? type : "";
}

/* A roll of 2, or the end of the turn, in turn order (no 7, no winner). The new version. */
static long idle_move(const struct http_game *game, int step)
{
	int seat = (step / 2) % game->seats;
	return http_post_move_ok(&http_fixture.checked, game, seat,
				 step % 2 ? "{\"type\": \"end_turn\"}" : "{\"type\": \"roll\", \"dice\": [1, 1]}");
}

/* Post `text` by `seat`; 201 expected. The message as answered (new reference). */
static json_t *post_message(const struct http_game *game, int seat, const char *text)
{
	json_t *body = json_pack("{s:s}", "text", text);
	char path[160];
	struct http_response response;
	http_call_json(&http_fixture.checked, "POST", http_game_path(game, "/messages", path, sizeof path),
		       game->tokens[seat], body, NULL, &response);
	json_decref(body);
	ck_assert_msg(response.status == 201, "post: %s", http_describe(&response));
	json_t *message = json_incref(response.json);
	http_response_free(&response);
	return message;
}

/* Every body the receivers got, validated against the spec's WebhookDelivery. */
static void assert_bodies_keep_to_the_spec(struct hook *const *hooks, int count)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[256], command[600];
	snprintf(path, sizeof path, "%s/catan-message-hook-bodies-%ld.txt", tmp, (long)getpid());
	FILE *file = fopen(path, "w");
	ck_assert(file != NULL);
	for (int h = 0; h < count; h++) {
		int n;
		struct webhook_delivery *all = webhook_receiver_deliveries(hooks[h]->receiver, &n);
		for (int i = 0; i < n; i++)
			fprintf(file, "WebhookDelivery\t%s\n", all[i].text);
		webhook_deliveries_free(all, n);
	}
	fclose(file);
	snprintf(command, sizeof command, "node tests/api/validate_json.js openapi/openapi.json < %s >&2", path);
	ck_assert_msg(system(command) == 0, "webhook bodies in %s break the spec (validate_json.js said so above)",
		      path);
	unlink(path);
}

/* Check a standard receiver's deliveries: every event first..last and every message of
 * `posted` exactly as GET .../messages shows it, each message after the event of its
 * after_version and before the next event; repeats (retries) only with the same webhook-id
 * and body. */
static void assert_messages_in_order(const struct hook *hook, const struct http_game *game, long first, long last,
				     json_t *posted)
{
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(hook->receiver, &count);
	webhook_deliveries_assert_signed(all, count);
	long latest = first - 1;
	size_t messages = json_array_size(posted);
	char(*ids)[128] = calloc(messages + 1, sizeof *ids);
	ck_assert(ids != NULL);
	for (int i = 0; i < count; i++) {
		json_t *body = all[i].body;
		ck_assert_str_eq(json_string_value(json_object_get(body, "game_id")), game->id);
		if (strcmp(type_of(body), "your_turn") == 0)
			continue;
		if (strcmp(type_of(body), "event") == 0) {
			long version = (long)json_integer_value(json_object_get(body, "version"));
			ck_assert_msg(version >= first && version <= last, "an event of version %ld", version);
			ck_assert_msg(version <= latest + 1, "webhook %s: version %ld after version %ld", hook->id,
				      version, latest);
			latest = version > latest ? version : latest;
			continue;
		}
		ck_assert_msg(strcmp(type_of(body), "message") == 0, "a delivery of type %s", type_of(body));
		json_t *message = json_object_get(body, "message");
		long seq = (long)json_integer_value(json_object_get(message, "seq"));
		ck_assert_msg(seq >= 1 && (size_t)seq <= messages, "message %ld (of %zu)", seq, messages);
		ck_assert_msg(json_equal(message, json_array_get(posted, (size_t)seq - 1)),
			      "message %ld as delivered: %s", seq, all[i].text);
		long after = (long)json_integer_value(json_object_get(message, "after_version"));
		ck_assert_msg(latest == after,
			      "webhook %s: message %ld (after version %ld) came when the last event was %ld", hook->id,
			      seq, after, latest);
		char expected_suffix[32];
		snprintf(expected_suffix, sizeof expected_suffix, "_m%ld", seq);
		size_t id_length = strlen(all[i].id), suffix_length = strlen(expected_suffix);
		ck_assert_msg(strncmp(all[i].id, "msg_", 4) == 0 && id_length > suffix_length &&
				      strcmp(all[i].id + id_length - suffix_length, expected_suffix) == 0,
			      "webhook-id of message %ld: %s", seq, all[i].id);
		if (ids[seq][0])
			ck_assert_str_eq(ids[seq], all[i].id);
		snprintf(ids[seq], sizeof ids[seq], "%s", all[i].id);
	}
	ck_assert_int_eq(latest, last);
	for (size_t seq = 1; seq <= messages; seq++)
		ck_assert_msg(ids[seq][0], "webhook %s never got message %zu", hook->id, seq);
	free(ids);
	webhook_deliveries_free(all, count);
}

/* Entries of kind "message" in the webhook's delivery log, each with version = its seq in
 * 1..messages; their number. */
static int logged_messages(const struct hook *hook, long messages)
{
	char path[220];
	snprintf(path, sizeof path, "%s/deliveries?limit=500", hook->path);
	json_t *body = http_get_ok(&http_fixture.checked, path, hook->token);
	int count = 0;
	size_t i;
	json_t *entry;
	json_array_foreach(json_object_get(body, "deliveries"), i, entry)
	{
		if (strcmp(json_string_value(json_object_get(entry, "kind")), "message") != 0)
			continue;
		long seq = (long)json_integer_value(json_object_get(entry, "version"));
		ck_assert_msg(seq >= 1 && seq <= messages, "a logged message %ld", seq);
		count++;
	}
	json_decref(body);
	return count;
}

START_TEST(test_messages_reach_seat_and_player_webhooks_signed_and_in_order_with_the_events)
{
	char ann_id[20], ann_token[64];
	http_player_create(&http_fixture.checked, "Ann", ann_id, ann_token);
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"name\": \"Bea\"}, {\"name\": \"Cal\"}, {\"player\": \"%s\"}], \"options\": %s}",
		 ann_id, FIXED_START);
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);
	if (!game.tokens[2][0])
		snprintf(game.tokens[2], sizeof game.tokens[2], "%s", ann_token);

	char path[160];
	struct hook seat_hook, player_hook;
	hook_register(http_game_path(&game, "/webhooks", path, sizeof path), game.tokens[1], NULL, &seat_hook);
	hook_register("/v1/players/me/webhooks", ann_token, NULL, &player_hook);

	/* Messages before any move, between moves (several after one move too), and last. */
	json_t *posted = json_array();
	long first = http_game_version(&http_fixture.checked, &game) + 1, last = first - 1;
	json_array_append_new(posted, post_message(&game, 0, "good luck, all"));
	for (int step = 0; step < 12; step++) {
		last = idle_move(&game, step);
		if (step % 3 == 0) {
			char text[64];
			snprintf(text, sizeof text, "after move %d", step);
			json_t *message = post_message(&game, (step / 3) % 3, text);
			ck_assert_int_eq(json_integer_value(json_object_get(message, "after_version")), last);
			json_array_append_new(posted, message);
		}
		if (step == 6)
			json_array_append_new(posted, post_message(&game, 2, "and one more"));
	}
	json_array_append_new(posted, post_message(&game, 1, "gg"));
	ck_assert_int_le((long)json_array_size(posted), MAX_MESSAGES);

	/* The messages as GET .../messages shows them are what the receivers must get. */
	snprintf(path, sizeof path, "%s/messages?after=0", game.path);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "messages: %s", http_describe(&response));
	json_t *messages = json_incref(json_object_get(response.json, "messages"));
	http_response_free(&response);
	ck_assert_int_eq((long)json_array_size(messages), (long)json_array_size(posted));

	wait_delivered(&seat_hook);
	wait_delivered(&player_hook);
	assert_messages_in_order(&seat_hook, &game, first, last, messages);
	assert_messages_in_order(&player_hook, &game, first, last, messages);
	struct hook *hooks[] = {&seat_hook, &player_hook};
	assert_bodies_keep_to_the_spec(hooks, 2);
	ck_assert_int_ge(logged_messages(&seat_hook, (long)json_array_size(messages)), (int)json_array_size(messages));
	ck_assert_int_ge(logged_messages(&player_hook, (long)json_array_size(messages)),
			 (int)json_array_size(messages));

	json_decref(messages);
	json_decref(posted);
	webhook_receiver_stop(seat_hook.receiver);
	webhook_receiver_stop(player_hook.receiver);
}
END_TEST

/* Receivers that fail every delivery keep every outbox row they were given, so "pending"
 * counts the rows written for them: a move adds one to each; a message adds one to the
 * standard webhook and none to the your_turn-only and the discord ones. */
START_TEST(test_your_turn_only_and_chat_webhooks_get_no_message_rows)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	char path[160];
	http_game_path(&game, "/webhooks", path, sizeof path);
	struct hook standard, your_turn, discord;
	hook_register(path, game.admin_token, NULL, &standard);
	hook_register(path, game.tokens[0], ", \"events\": \"your_turn\"", &your_turn);
	hook_register(path, game.admin_token, ", \"format\": \"discord\"", &discord);
	struct hook *hooks[] = {&standard, &your_turn, &discord};
	for (int h = 0; h < 3; h++)
		webhook_receiver_answer(hooks[h]->receiver, 500, 0);

	/* Six moves: seat 0's turn comes back (a your_turn note), the turn changed (a chat
	 * message). Once a receiver has refused its first delivery, its oldest row stays (and
	 * blocks the rest), so no row leaves the outbox while we count: a row that would need
	 * no request (a chat row with nothing to say) can no longer be dropped either. */
	long before[3], after_move[3], after_messages[3];
	for (int step = 0; step < 6; step++)
		idle_move(&game, step);
	for (int h = 0; h < 3; h++)
		ck_assert_msg(webhook_receiver_wait(hooks[h]->receiver, 1, DELIVERY_TIMEOUT_S * http_slowdown()) >= 1,
			      "webhook %d got no first delivery", h);
	for (int h = 0; h < 3; h++)
		before[h] = pending(hooks[h]);
	idle_move(&game, 6);
	for (int h = 0; h < 3; h++) {
		after_move[h] = pending(hooks[h]);
		ck_assert_msg(after_move[h] == before[h] + 1, "webhook %d: %ld rows after a move, %ld before", h,
			      after_move[h], before[h]);
	}
	json_decref(post_message(&game, 0, "anyone for ore?"));
	json_decref(post_message(&game, 1, "not me"));
	for (int h = 0; h < 3; h++)
		after_messages[h] = pending(hooks[h]);
	ck_assert_int_eq(after_messages[0], after_move[0] + 2);
	ck_assert_int_eq(after_messages[1], after_move[1]);
	ck_assert_int_eq(after_messages[2], after_move[2]);

	/* And none of them ever got a message body. */
	for (int h = 1; h < 3; h++) {
		int count;
		struct webhook_delivery *all = webhook_receiver_deliveries(hooks[h]->receiver, &count);
		for (int i = 0; i < count; i++)
			ck_assert_msg(!strstr(all[i].text, "anyone for ore") && strcmp(type_of(all[i].body), "message"),
				      "webhook %d got a message: %s", h, all[i].text);
		webhook_deliveries_free(all, count);
	}
	for (int h = 0; h < 3; h++)
		webhook_receiver_stop(hooks[h]->receiver);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_message_webhooks");
	TCase *messages = tcase_create("message_webhooks");
	http_fixture_add(messages, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(messages, 240);
	tcase_add_test(messages, test_messages_reach_seat_and_player_webhooks_signed_and_in_order_with_the_events);
	tcase_add_test(messages, test_your_turn_only_and_chat_webhooks_get_no_message_rows);
	suite_add_tcase(suite, messages);
	return suite;
}
