/*
 * test_async_webhooks.c - webhooks as a receiver sees them: signed (Standard Webhooks),
 * every event at least once, in order, redacted for the registering token, your_turn notes
 * when the game waits for the seat, retries that back off, deliveries that survive a
 * kill -9 of the server, a dead receiver that never slows a move, and registrations that
 * only the token that made them may list, read the log of and remove (not another seat,
 * not the admin: a URL is its channel's credential).
 *
 * Receivers are tests/api/webhook_receiver.c on 127.0.0.1, one per webhook. The shared
 * server sits behind a Prism proxy that validates every response (requests are passed
 * through unvalidated, so the malformed registrations reach the server); the bodies the
 * server POSTs to receivers, which Prism never sees, are validated against the spec's
 * WebhookDelivery by tests/api/validate_json.js.
 */
#include <libpq-fe.h>
#include <signal.h>
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

/* ---- Registrations ---- */

struct hook {
	struct webhook_receiver *receiver;
	char id[32];
	int seat; /* -1: the admin's */
	int your_turn_only;
	char secret[80]; /* as the registration answered it */
};

static const char *token_of(const struct http_game *game, int seat)
{
	return seat >= 0 ? game->tokens[seat] : game->admin_token;
}

static int is_webhook_id(const char *id)
{
	if (strlen(id) != 19 || strncmp(id, "wh_", 3) != 0)
		return 0;
	for (int i = 3; i < 19; i++)
		if (!strchr("0123456789abcdef", id[i]))
			return 0;
	return 1;
}

/* Register a receiver of its own for `seat` (-1: with the admin token). */
static void hook_register(struct http_client *with, const struct http_game *game, int seat, int your_turn_only,
			  struct hook *hook)
{
	memset(hook, 0, sizeof *hook);
	hook->receiver = webhook_receiver_start();
	hook->seat = seat;
	hook->your_turn_only = your_turn_only;
	json_t *body = json_pack("{s:s}", "url", webhook_receiver_url(hook->receiver));
	if (your_turn_only)
		json_object_set_new(body, "events", json_string("your_turn"));
	char path[160];
	struct http_response response;
	http_call_json(with, "POST", http_game_path(game, "/webhooks", path, sizeof path), token_of(game, seat), body,
		       NULL, &response);
	json_decref(body);
	ck_assert_msg(response.status == 201, "register: %s", http_describe(&response));
	json_t *answer = response.json;
	const char *id = json_string_value(json_object_get(answer, "id"));
	ck_assert_msg(id && is_webhook_id(id), "a webhook id is wh_<16 hex>: %s", http_describe(&response));
	snprintf(hook->id, sizeof hook->id, "%s", id);
	ck_assert_str_eq(json_string_value(json_object_get(answer, "url")), webhook_receiver_url(hook->receiver));
	ck_assert_str_eq(json_string_value(json_object_get(answer, "events")), your_turn_only ? "your_turn" : "all");
	if (seat >= 0)
		ck_assert_int_eq(json_integer_value(json_object_get(answer, "seat")), seat);
	else
		ck_assert(json_is_null(json_object_get(answer, "seat")));
	ck_assert_int_eq(json_integer_value(json_object_get(answer, "pending")), 0);
	const char *secret = json_string_value(json_object_get(answer, "secret"));
	ck_assert_msg(secret && strncmp(secret, "whsec_", 6) == 0, "a secret is whsec_<base64>");
	webhook_receiver_set_secret(hook->receiver, secret);
	snprintf(hook->secret, sizeof hook->secret, "%s", secret);
	char location[160], expected[160];
	snprintf(expected, sizeof expected, "%s/webhooks/%s", game->path, hook->id);
	ck_assert_msg(http_response_header(&response, "Location", location, sizeof location) &&
			      strcmp(location, expected) == 0,
		      "Location of a webhook");
	http_response_free(&response);
}

static void hook_stop(struct hook *hook)
{
	webhook_receiver_stop(hook->receiver);
	hook->receiver = NULL;
}

/* The game's webhooks as the admin lists them. New reference. */
static json_t *list_webhooks(struct http_client *with, const struct http_game *game, const char *token)
{
	char path[160];
	json_t *body = http_get_ok(with, http_game_path(game, "/webhooks", path, sizeof path), token);
	json_t *list = json_incref(json_object_get(body, "webhooks"));
	json_decref(body);
	ck_assert(json_is_array(list));
	return list;
}

/* What the game's webhooks still have to deliver: each token lists its own, so the admin's
 * and every seat's lists are summed. */
static long pending_of_all(struct http_client *with, const struct http_game *game)
{
	long pending = 0;
	for (int owner = -1; owner < game->seats; owner++) {
		if (owner >= 0 && !game->tokens[owner][0])
			continue;
		json_t *list = list_webhooks(with, game, token_of(game, owner));
		size_t index;
		json_t *webhook;
		json_array_foreach(list, index, webhook) pending +=
			(long)json_integer_value(json_object_get(webhook, "pending"));
		json_decref(list);
	}
	return pending;
}

/* Wait until no webhook of the game has anything left to deliver. */
static void wait_all_delivered(struct http_client *with, const struct http_game *game, double timeout_s)
{
	/* A liveness bound, not a speed target: the sanitizer build delivers several times slower. */
	timeout_s *= http_slowdown();
	double deadline = http_clock() + timeout_s;
	for (;;) {
		long pending = pending_of_all(with, game);
		if (pending == 0)
			return;
		ck_assert_msg(http_clock() < deadline, "game %s: %ld appends still to deliver after %.0f s", game->id,
			      pending, timeout_s);
		http_pause(0.1);
	}
}

/* The webhook's delivery log, oldest first. New reference. */
static json_t *delivery_log(struct http_client *with, const struct http_game *game, const struct hook *hook)
{
	char path[200];
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries?limit=500", game->path, hook->id);
	json_t *body = http_get_ok(with, path, token_of(game, hook->seat));
	json_t *newest_first = json_object_get(body, "deliveries");
	json_t *log = json_array();
	for (size_t i = json_array_size(newest_first); i-- > 0;)
		json_array_append(log, json_array_get(newest_first, i));
	json_decref(body);
	return log;
}

static const char *type_of(const json_t *object)
{
	const char *type = json_string_value(json_object_get(object, "type"));
	return type ? type : "";
}

/* A roll of 2, or the end of the turn, in turn order: moves that keep a game going for as
 * long as a test needs (no 7, no winner). Returns the new version. */
static long idle_move(struct http_client *with, const struct http_game *game, int step)
{
	int seat = (step / 2) % game->seats;
	return http_post_move_ok(with, game, seat,
				 step % 2 ? "{\"type\": \"end_turn\"}" : "{\"type\": \"roll\", \"dice\": [1, 1]}");
}

/* ---- What a receiver got ---- */

struct received {
	struct webhook_delivery *all;
	int count;
	long first, last; /* the versions expected: first..last */
	json_t **events;  /* [version - first]: the event body first received, borrowed from all */
	char (*ids)[128]; /* [version - first]: its webhook-id */
	int duplicates;	  /* event deliveries beyond the first of each version */
	int notes;	  /* your_turn deliveries */
};

static void received_free(struct received *got)
{
	webhook_deliveries_free(got->all, got->count);
	free(got->events);
	free(got->ids);
	memset(got, 0, sizeof *got);
}

/* Read a receiver's deliveries and check what holds for every one: a valid signature, the
 * game, the version and its event agreeing, events first..last each at least once (in
 * order of their first arrival when `in_order`), a version's repeats with the same
 * webhook-id and body. */
static void received_read(const struct hook *hook, const struct http_game *game, long first, long last, int in_order,
			  struct received *got)
{
	memset(got, 0, sizeof *got);
	got->first = first;
	got->last = last;
	got->all = webhook_receiver_deliveries(hook->receiver, &got->count);
	webhook_deliveries_assert_signed(got->all, got->count);
	long span = last - first + 1;
	got->events = calloc((size_t)(span > 0 ? span : 1), sizeof *got->events);
	got->ids = calloc((size_t)(span > 0 ? span : 1), sizeof *got->ids);
	ck_assert(got->events && got->ids);
	long latest = first - 1;
	for (int i = 0; i < got->count; i++) {
		const struct webhook_delivery *delivery = &got->all[i];
		json_t *body = delivery->body;
		ck_assert_str_eq(json_string_value(json_object_get(body, "game_id")), game->id);
		long version = (long)json_integer_value(json_object_get(body, "version"));
		if (strcmp(type_of(body), "your_turn") == 0) {
			got->notes++;
			ck_assert_msg(version >= first && version <= last, "a note at version %ld", version);
			continue;
		}
		ck_assert_msg(strcmp(type_of(body), "event") == 0, "a delivery of type %s", type_of(body));
		ck_assert_msg(!hook->your_turn_only, "a your_turn-only webhook got an event: %.200s", delivery->text);
		json_t *event = json_object_get(body, "event");
		ck_assert_int_eq(json_integer_value(json_object_get(event, "version")), version);
		ck_assert_msg(version >= first && version <= last, "an event of version %ld (expected %ld..%ld)",
			      version, first, last);
		long slot = version - first;
		if (got->events[slot]) {
			got->duplicates++;
			ck_assert_msg(strcmp(got->ids[slot], delivery->id) == 0,
				      "version %ld came as %s and again as %s", version, got->ids[slot], delivery->id);
			ck_assert_msg(json_equal(got->events[slot], event), "version %ld came with two bodies",
				      version);
			continue;
		}
		ck_assert_msg(!in_order || version > latest, "webhook %s: version %ld arrived after version %ld",
			      hook->id, version, latest);
		latest = version > latest ? version : latest;
		got->events[slot] = event;
		snprintf(got->ids[slot], sizeof got->ids[slot], "%s", delivery->id);
	}
	for (long version = first; version <= last && !hook->your_turn_only; version++) {
		ck_assert_msg(got->events[version - first] != NULL, "webhook %s never got version %ld (of %ld..%ld)",
			      hook->id, version, first, last);
		for (long other = first; other < version; other++)
			ck_assert_msg(strcmp(got->ids[other - first], got->ids[version - first]) != 0,
				      "versions %ld and %ld share the webhook-id %s", other, version,
				      got->ids[version - first]);
	}
}

/* The versions first..last received, each first arrival, as a count. */
static int distinct_versions(const struct hook *hook, long first, long last)
{
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(hook->receiver, &count);
	int seen = 0;
	char *got = calloc((size_t)(last - first + 2), 1);
	ck_assert(got != NULL);
	for (int i = 0; i < count; i++) {
		if (strcmp(type_of(all[i].body), "event") != 0)
			continue;
		long version = (long)json_integer_value(json_object_get(all[i].body, "version"));
		if (version >= first && version <= last && !got[version - first]) {
			got[version - first] = 1;
			seen++;
		}
	}
	free(got);
	webhook_deliveries_free(all, count);
	return seen;
}

/* Every body the receivers got, validated against the spec's WebhookDelivery. */
static void assert_bodies_keep_to_the_spec(struct hook *hooks, int count)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[256], command[600];
	snprintf(path, sizeof path, "%s/catan-webhook-bodies-%ld.txt", tmp, (long)getpid());
	FILE *file = fopen(path, "w");
	ck_assert(file != NULL);
	int lines = 0;
	for (int h = 0; h < count; h++) {
		int n;
		struct webhook_delivery *all = webhook_receiver_deliveries(hooks[h].receiver, &n);
		for (int i = 0; i < n; i++, lines++)
			fprintf(file, "WebhookDelivery\t%s\n", all[i].text);
		webhook_deliveries_free(all, n);
	}
	fclose(file);
	snprintf(command, sizeof command, "node tests/api/validate_json.js openapi/openapi.json < %s >&2", path);
	int status = system(command);
	ck_assert_msg(status == 0, "%d webhook bodies in %s break the spec (validate_json.js said so above)", lines,
		      path);
	unlink(path);
}

/* ---- The verifier itself ---- */

/* The test vector of the Standard Webhooks specification, and the same message with its
 * body, id or timestamp changed, which must fail: the receiver would pass anything
 * otherwise. */
START_TEST(test_the_receiver_verifies_the_standard_webhooks_test_vector)
{
	const char *secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
	const char *body = "{\"test\": 2432232314}";
	const char *good = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";
	char problem[200];
	ck_assert_msg(webhook_verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body, strlen(body), good,
				     problem, sizeof problem),
		      "%s", problem);
	ck_assert(webhook_verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body, strlen(body),
				 "v1,bm9wZQ== v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", NULL, 0));
	ck_assert(!webhook_verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", "{\"test\": 2432232315}",
				  strlen(body), good, NULL, 0));
	ck_assert(!webhook_verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJel", "1614265330", body, strlen(body), good, NULL,
				  0));
	ck_assert(!webhook_verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265331", body, strlen(body), good, NULL,
				  0));
	ck_assert(!webhook_verify("whsec_AfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
				  "1614265330", body, strlen(body), good, NULL, 0));
	ck_assert(!webhook_verify(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", body, strlen(body),
				  "v2,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=", NULL, 0));
}
END_TEST

/* ---- Registrations ---- */

static void assert_listed(const json_t *list, const struct hook *const *hooks, int count)
{
	ck_assert_int_eq(json_array_size(list), count);
	for (int i = 0; i < count; i++) {
		json_t *webhook = json_array_get(list, (size_t)i);
		ck_assert_str_eq(json_string_value(json_object_get(webhook, "id")), hooks[i]->id);
		ck_assert_msg(!json_object_get(webhook, "secret"), "a listed webhook shows its secret");
		if (hooks[i]->seat >= 0)
			ck_assert_int_eq(json_integer_value(json_object_get(webhook, "seat")), hooks[i]->seat);
		else
			ck_assert(json_is_null(json_object_get(webhook, "seat")));
	}
}

static void call_expecting(struct http_client *with, const char *method, const char *path, const char *token,
			   const char *body, long status, const char *code)
{
	struct http_response response;
	http_call(with, method, path, token, body, NULL, &response);
	if (code)
		http_assert_problem(&response, status, code);
	else
		ck_assert_msg(response.status == status, "%s %s: expected %ld, got %s", method, path, status,
			      http_describe(&response));
	http_response_free(&response);
}

START_TEST(test_each_token_lists_reads_and_removes_only_the_webhooks_it_registered)
{
	struct http_game game, other;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	http_game_create(&http_fixture.checked, 3, FIXED_START, &other);
	struct hook by_seat0, by_seat1, by_admin;
	hook_register(&http_fixture.checked, &game, 0, 0, &by_seat0);
	hook_register(&http_fixture.checked, &game, 1, 1, &by_seat1);
	hook_register(&http_fixture.checked, &game, -1, 0, &by_admin);
	const struct hook *all[] = {&by_seat0, &by_seat1, &by_admin};

	json_t *list = list_webhooks(&http_fixture.checked, &game, game.tokens[0]);
	assert_listed(list, all, 1);
	json_decref(list);
	list = list_webhooks(&http_fixture.checked, &game, game.tokens[1]);
	assert_listed(list, all + 1, 1);
	json_decref(list);
	list = list_webhooks(&http_fixture.checked, &game, game.tokens[2]);
	assert_listed(list, all, 0);
	json_decref(list);
	/* The admin lists its own only: a seat's URL is the seat's (issue 20, item 3). */
	list = list_webhooks(&http_fixture.checked, &game, game.admin_token);
	assert_listed(list, all + 2, 1);
	char *text = json_dumps(list, JSON_COMPACT);
	ck_assert_msg(!strstr(text, webhook_receiver_url(by_seat0.receiver)) &&
			      !strstr(text, webhook_receiver_url(by_seat1.receiver)) && !strstr(text, by_seat0.id) &&
			      !strstr(text, by_seat1.id),
		      "the admin's list shows no seat's webhook: %s", text);
	free(text);
	json_decref(list);
	char path[200];
	http_game_path(&game, "/webhooks", path, sizeof path);
	/* Without a token Prism answers for the server: ask the server itself. */
	call_expecting(&http_fixture.direct, "GET", path, NULL, NULL, 401, "missing_token");
	call_expecting(&http_fixture.direct, "POST", path, NULL, "{\"url\": \"http://127.0.0.1:9/hook\"}", 401,
		       "missing_token");
	call_expecting(&http_fixture.checked, "GET", path, other.admin_token, NULL, 401, "unknown_token");

	/* Another token's webhook does not exist for a seat, nor for the admin: 404, as an id
	 * that was never registered, so ids cannot be probed. */
	snprintf(path, sizeof path, "%s/webhooks/%s", game.path, by_seat1.id);
	call_expecting(&http_fixture.checked, "DELETE", path, game.tokens[0], NULL, 404, "webhook_not_found");
	call_expecting(&http_fixture.checked, "DELETE", path, game.admin_token, NULL, 404, "webhook_not_found");
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries", game.path, by_seat1.id);
	call_expecting(&http_fixture.checked, "GET", path, game.tokens[0], NULL, 404, "webhook_not_found");
	call_expecting(&http_fixture.checked, "GET", path, game.admin_token, NULL, 404, "webhook_not_found");
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries", game.path, by_seat0.id);
	call_expecting(&http_fixture.checked, "GET", path, game.admin_token, NULL, 404, "webhook_not_found");
	snprintf(path, sizeof path, "%s/webhooks/%s", game.path, by_admin.id);
	call_expecting(&http_fixture.checked, "DELETE", path, game.tokens[1], NULL, 404, "webhook_not_found");
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries", game.path, by_admin.id);
	call_expecting(&http_fixture.checked, "GET", path, game.tokens[1], NULL, 404, "webhook_not_found");
	snprintf(path, sizeof path, "%s/webhooks/%s", other.path, by_seat0.id);
	call_expecting(&http_fixture.checked, "DELETE", path, other.admin_token, NULL, 404, "webhook_not_found");
	call_expecting(&http_fixture.checked, "DELETE", path, other.tokens[0], NULL, 404, "webhook_not_found");
	snprintf(path, sizeof path, "%s/webhooks/wh_nothex", game.path);
	call_expecting(&http_fixture.checked, "DELETE", path, game.admin_token, NULL, 404, "webhook_not_found");
	/* Nothing was removed by those. */
	list = list_webhooks(&http_fixture.checked, &game, game.tokens[0]);
	assert_listed(list, all, 1);
	json_decref(list);
	list = list_webhooks(&http_fixture.checked, &game, game.tokens[1]);
	assert_listed(list, all + 1, 1);
	json_decref(list);
	list = list_webhooks(&http_fixture.checked, &game, game.admin_token);
	assert_listed(list, all + 2, 1);
	json_decref(list);

	/* Each owner reads its own log and removes its own, once. */
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries", game.path, by_seat1.id);
	call_expecting(&http_fixture.checked, "GET", path, game.tokens[1], NULL, 200, NULL);
	snprintf(path, sizeof path, "%s/webhooks/%s", game.path, by_seat0.id);
	call_expecting(&http_fixture.checked, "DELETE", path, game.tokens[0], NULL, 204, NULL);
	call_expecting(&http_fixture.checked, "DELETE", path, game.tokens[0], NULL, 404, "webhook_not_found");
	snprintf(path, sizeof path, "%s/webhooks/%s", game.path, by_seat1.id);
	call_expecting(&http_fixture.checked, "DELETE", path, game.tokens[1], NULL, 204, NULL);
	list = list_webhooks(&http_fixture.checked, &game, game.tokens[1]);
	assert_listed(list, all, 0);
	json_decref(list);
	list = list_webhooks(&http_fixture.checked, &game, game.admin_token);
	assert_listed(list, all + 2, 1);
	json_decref(list);

	/* The delivery log: the owner's, with a limit of 1..500. */
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries?limit=500", game.path, by_admin.id);
	call_expecting(&http_fixture.checked, "GET", path, game.admin_token, NULL, 200, NULL);
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries?limit=0", game.path, by_admin.id);
	call_expecting(&http_fixture.checked, "GET", path, game.admin_token, NULL, 400, "invalid_field");
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries?limit=501", game.path, by_admin.id);
	call_expecting(&http_fixture.checked, "GET", path, game.admin_token, NULL, 400, "invalid_field");
	hook_stop(&by_seat0);
	hook_stop(&by_seat1);
	hook_stop(&by_admin);
}
END_TEST

/* ---- A seat changing hands ---- */

/* Run `sql` on the database of the test servers (DATABASE_URL): the first column of the
 * first row as a number (0 without one). */
static long long sql_scalar(const char *sql)
{
	PGconn *conn = PQconnectdb(getenv("DATABASE_URL") ? getenv("DATABASE_URL") : "");
	ck_assert_msg(PQstatus(conn) == CONNECTION_OK, "database: %s", PQerrorMessage(conn));
	PGresult *result = PQexec(conn, sql);
	ExecStatusType state = PQresultStatus(result);
	ck_assert_msg(state == PGRES_TUPLES_OK || state == PGRES_COMMAND_OK, "%s: %s", sql,
		      PQresultErrorMessage(result));
	long long value = state == PGRES_TUPLES_OK && PQntuples(result) > 0 && !PQgetisnull(result, 0, 0)
				  ? strtoll(PQgetvalue(result, 0, 0), NULL, 10)
				  : 0;
	PQclear(result);
	PQfinish(conn);
	return value;
}

/* Registrations of `seat` of game `id` as the store holds them: webhooks of every format,
 * mail included (no route lists them all). */
static long long seat_registrations(const char *id, int seat)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM webhooks WHERE game_id = ('x' || '%s')::bit(64)::bigint AND seat = %d", id,
		 seat);
	return sql_scalar(sql);
}

/* Give `seat` of game `id` a webhook, a chat channel and a mail address behind the routes'
 * backs: today no route registers anything on a waiting game (409 game_not_started), so
 * this stands for whatever path may do it one day. */
static void plant_registrations(const char *id, int seat)
{
	static long long next = 0x7e57000000000000LL;
	char sql[1024];
	long long base = next += 16 + (long long)(http_random64() % 1000) * 16;
	snprintf(sql, sizeof sql,
		 "INSERT INTO webhooks (id, game_id, seat, your_turn_only, secret, url, format, mail_address)"
		 " SELECT %lld + n, ('x' || '%s')::bit(64)::bigint, %d, false, decode(repeat('ab', 32), 'hex'),"
		 "  CASE n WHEN 0 THEN 'https://example.org/hook' WHEN 1 THEN 'https://discord.com/api/webhooks/1/x'"
		 "  ELSE 'mail:' END, (ARRAY['standard', 'discord', 'mail'])[n + 1],"
		 "  CASE n WHEN 2 THEN 'seat@example.org' END FROM generate_series(0, 2) AS n",
		 base, id, seat);
	sql_scalar(sql);
	ck_assert_int_eq(seat_registrations(id, seat), 3);
}

START_TEST(test_a_seat_that_changes_hands_loses_its_registrations)
{
	struct http_client *client = &http_fixture.checked;
	struct http_response response;
	http_call(client, "POST", "/v1/games", NULL,
		  "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}], \"options\": " FIXED_START
		  "}",
		  NULL, &response);
	ck_assert_msg(response.status == 201, "create: %s", http_describe(&response));
	char id[20], admin[64], invite[64], path[200], body[256];
	snprintf(id, sizeof id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(admin, sizeof admin, "%s", json_string_value(json_object_get(response.json, "admin_token")));
	snprintf(invite, sizeof invite, "%s",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	struct http_game game = {0};
	snprintf(game.id, sizeof game.id, "%s", id);
	snprintf(game.path, sizeof game.path, "/v1/games/%s", id);
	game.seats = 3;
	snprintf(game.tokens[0], sizeof game.tokens[0], "%s",
		 json_string_value(
			 json_object_get(json_array_get(json_object_get(response.json, "seats"), 0), "token")));
	http_response_free(&response);

	/* Pat joins seat 1 with a player token and has a player webhook (the player's own). */
	char pat_id[32], pat[64];
	http_player_create(client, "Pat", pat_id, pat);
	snprintf(path, sizeof path, "/v1/games/%s/join", id);
	snprintf(body, sizeof body, "{\"invite\": \"%s\"}", invite);
	http_call(client, "POST", path, pat, body, NULL, &response);
	ck_assert_msg(response.status == 200 && json_integer_value(json_object_get(response.json, "seat")) == 1,
		      "Pat joins seat 1: %s", http_describe(&response));
	http_response_free(&response);
	struct webhook_receiver *pats = webhook_receiver_start();
	snprintf(body, sizeof body, "{\"url\": \"%s\"}", webhook_receiver_url(pats));
	http_call(client, "POST", "/v1/players/me/webhooks", pat, body, NULL, &response);
	ck_assert_msg(response.status == 201, "Pat's webhook: %s", http_describe(&response));
	webhook_receiver_set_secret(pats, json_string_value(json_object_get(response.json, "secret")));
	http_response_free(&response);
	plant_registrations(id, 1);
	plant_registrations(id, 2);

	/* The admin removes Pat: seat 1's registrations go, seat 2's stay. */
	snprintf(path, sizeof path, "/v1/games/%s/seats/1", id);
	call_expecting(client, "DELETE", path, admin, NULL, 200, NULL);
	ck_assert_int_eq(seat_registrations(id, 1), 0);
	ck_assert_int_eq(seat_registrations(id, 2), 3);

	/* The open seat taken by someone else: whatever it had goes. */
	plant_registrations(id, 1);
	snprintf(path, sizeof path, "/v1/games/%s/join", id);
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"Quinn\"}", invite);
	http_call(client, "POST", path, NULL, body, NULL, &response);
	ck_assert_msg(response.status == 200 && json_integer_value(json_object_get(response.json, "seat")) == 1,
		      "Quinn joins seat 1: %s", http_describe(&response));
	char quinn[64];
	snprintf(quinn, sizeof quinn, "%s", json_string_value(json_object_get(response.json, "token")));
	http_response_free(&response);
	ck_assert_int_eq(seat_registrations(id, 1), 0);
	ck_assert_int_eq(seat_registrations(id, 2), 3);

	/* The open seat given to a bot (which starts the game): its registrations go too. */
	snprintf(path, sizeof path, "/v1/games/%s/seats/2/bot", id);
	call_expecting(client, "POST", path, admin, "{}", 200, NULL);
	ck_assert_int_eq(seat_registrations(id, 2), 0);

	/* Pat's own webhook hears nothing of a game Pat no longer sits in; Quinn's registration
	 * of the seat now is Quinn's, listed to Quinn only. */
	struct hook by_quinn;
	memset(&by_quinn, 0, sizeof by_quinn);
	by_quinn.receiver = webhook_receiver_start();
	snprintf(body, sizeof body, "{\"url\": \"%s\"}", webhook_receiver_url(by_quinn.receiver));
	snprintf(path, sizeof path, "/v1/games/%s/webhooks", id);
	http_call(client, "POST", path, quinn, body, NULL, &response);
	ck_assert_msg(response.status == 201, "Quinn's webhook: %s", http_describe(&response));
	webhook_receiver_set_secret(by_quinn.receiver, json_string_value(json_object_get(response.json, "secret")));
	http_response_free(&response);
	json_t *list = list_webhooks(client, &game, admin);
	ck_assert_int_eq(json_array_size(list), 0);
	json_decref(list);
	http_post_move_ok(client, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	ck_assert_msg(webhook_receiver_wait(by_quinn.receiver, 1, 20 * http_slowdown()) >= 1,
		      "the seat's new holder hears of the game");
	http_pause(0.5);
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(pats, &count);
	for (int i = 0; i < count; i++)
		ck_assert_msg(!strstr(all[i].text, id), "Pat's webhook heard of the game it left: %s", all[i].text);
	webhook_deliveries_free(all, count);
	webhook_receiver_stop(pats);
	hook_stop(&by_quinn);
}
END_TEST

START_TEST(test_registrations_with_a_bad_url_or_member_are_400_and_register_nothing)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	char path[200], long_url[2200], body[2400];
	http_game_path(&game, "/webhooks", path, sizeof path);
	snprintf(long_url, sizeof long_url, "http://example.org/%02100d", 7);
	const char *const bad_urls[] = {
		"ftp://example.org/hook",    "example.org/hook",    "http://", "http://exa mple.org/hook",
		"http://example.org/\thook", "javascript:alert(1)", "",	       long_url,
	};
	for (size_t i = 0; i < sizeof bad_urls / sizeof bad_urls[0]; i++) {
		json_t *json = json_pack("{s:s}", "url", bad_urls[i]);
		char *text = json_dumps(json, JSON_COMPACT);
		snprintf(body, sizeof body, "%s", text);
		free(text);
		json_decref(json);
		call_expecting(&http_fixture.checked, "POST", path, game.tokens[0], body, 400, "invalid_field");
	}
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0], "{\"url\": 42}", 400, "invalid_field");
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0], "{}", 400, "missing_field");
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0],
		       "{\"url\": \"http://example.org/h\", \"secret\": \"mine\"}", 400, "unknown_field");
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0],
		       "{\"url\": \"http://example.org/h\", \"events\": \"some\"}", 400, "invalid_field");
	/* The admin has no turn to be told about. */
	call_expecting(&http_fixture.checked, "POST", path, game.admin_token,
		       "{\"url\": \"http://example.org/h\", \"events\": \"your_turn\"}", 400, "invalid_field");
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0], "[\"http://example.org/h\"]", 400, NULL);
	for (int owner = -1; owner < game.seats; owner++) {
		json_t *list = list_webhooks(&http_fixture.checked, &game, token_of(&game, owner));
		ck_assert_int_eq(json_array_size(list), 0);
		json_decref(list);
	}
}
END_TEST

/* ---- A whole game ---- */

/* Who made the event at `version` (truth rows from version 1). */
static int actor_at(const json_t *rows, long version)
{
	return (int)json_integer_value(json_object_get(json_array_get(rows, (size_t)(version - 1)), "actor"));
}

static const json_t *truth_event(const json_t *rows, long version)
{
	return json_object_get(json_array_get(rows, (size_t)(version - 1)), "event");
}

START_TEST(test_every_event_reaches_every_webhook_signed_in_order_and_redacted_for_its_registrant)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 4, "{\"layout\": \"random\"}", &game);
	enum { HOOKS = 1 + 2 * 4 };
	struct hook hooks[HOOKS];
	hook_register(&http_fixture.checked, &game, -1, 0, &hooks[0]);
	for (int s = 0; s < game.seats; s++) {
		hook_register(&http_fixture.checked, &game, s, 0, &hooks[1 + s]);
		hook_register(&http_fixture.checked, &game, s, 1, &hooks[1 + game.seats + s]);
	}
	long first = http_game_version(&http_fixture.checked, &game) + 1;
	struct http_player player;
	uint64_t seed = http_random64();
	http_player_init(&player, &http_fixture.checked, &game, seed, 1);
	double started = http_clock();
	int moves = http_player_finish(&player, 5000);
	double played = http_clock() - started;
	long last = http_game_version(&http_fixture.checked, &game);
	wait_all_delivered(&http_fixture.checked, &game, DELIVERY_TIMEOUT_S);
	double delivered = http_clock() - started - played;

	json_t *rows = http_truth_rows(game.id, 0);
	ck_assert_int_eq(json_array_size(rows), last);
	struct received got[HOOKS];
	int duplicates = 0, notes = 0, deliveries = 0;
	for (int h = 0; h < HOOKS; h++) {
		received_read(&hooks[h], &game, first, last, 0, &got[h]);
		duplicates += got[h].duplicates;
		deliveries += got[h].count;
		notes += got[h].notes;
	}

	/* Each event as the registrant's token reads it in the log: the admin as a spectator. */
	for (int h = 0; h <= game.seats; h++) {
		json_t *log = http_game_log(&http_fixture.checked, &game,
					    hooks[h].seat >= 0 ? game.tokens[hooks[h].seat] : NULL, first - 1);
		ck_assert_int_eq(json_array_size(log), last - first + 1);
		for (long version = first; version <= last; version++) {
			json_t *logged = json_array_get(log, (size_t)(version - first));
			if (json_equal(logged, got[h].events[version - first]))
				continue;
			char *want = json_dumps(logged, JSON_COMPACT);
			char *had = json_dumps(got[h].events[version - first], JSON_COMPACT);
			ck_abort_msg("webhook of seat %d, version %ld:\nlog      %.400s\ndelivered %.400s",
				     hooks[h].seat, version, want, had);
		}
		json_decref(log);
	}

	/* Secrets by name: a stolen card is shown to the thief and the victim, a bought card to
	 * its buyer, and to no one else (the admin's webhook sees what a spectator sees). */
	int steals = 0, buys = 0;
	for (long version = first; version <= last; version++) {
		const json_t *truth = truth_event(rows, version);
		int stolen = strcmp(type_of(truth), "resource_stolen") == 0;
		int bought = strcmp(type_of(truth), "development_card_bought") == 0;
		if (!stolen && !bought)
			continue;
		steals += stolen;
		buys += bought;
		int seat = (int)json_integer_value(json_object_get(truth, "seat"));
		int victim = stolen ? (int)json_integer_value(json_object_get(truth, "victim")) : -1;
		for (int h = 0; h <= game.seats; h++) {
			json_t *secret = json_object_get(got[h].events[version - first], stolen ? "resource" : "card");
			int entitled = hooks[h].seat >= 0 && (hooks[h].seat == seat || hooks[h].seat == victim);
			ck_assert_msg(entitled ? json_is_string(secret) : json_is_null(secret),
				      "version %ld (%s of seat %d): the webhook of seat %d sees %s", version,
				      type_of(truth), seat, hooks[h].seat,
				      json_is_string(secret) ? json_string_value(secret) : "null");
		}
	}
	ck_assert_msg(steals > 0 && buys > 0, "the game had %d steals and %d purchases: nothing secret to check",
		      steals, buys);

	/* your_turn: after each turn ended by another seat, the next seat hears of it, at that
	 * version, from both its webhooks; the notes-only webhook gets the same notes. */
	int turns = 0;
	for (long version = first; version < last; version++) {
		if (strcmp(type_of(truth_event(rows, version)), "turn_ended") != 0)
			continue;
		int next = actor_at(rows, version + 1);
		ck_assert_int_ne(next, actor_at(rows, version));
		turns++;
		for (int kind = 0; kind < 2; kind++) {
			const struct received *seat_got = &got[1 + kind * game.seats + next];
			int found = 0;
			for (int i = 0; i < seat_got->count && !found; i++) {
				json_t *body = seat_got->all[i].body;
				if (strcmp(type_of(body), "your_turn") != 0 ||
				    json_integer_value(json_object_get(body, "version")) != version)
					continue;
				found = 1;
				ck_assert_int_eq(json_integer_value(json_object_get(body, "seat")), next);
				const char *summary = json_string_value(json_object_get(body, "summary"));
				ck_assert_msg(summary && strlen(summary) >= 10, "a note's summary: %.300s",
					      seat_got->all[i].text);
				/* the PNG of that version, absolute, in the note and at the end of its summary */
				char url_tail[96];
				snprintf(url_tail, sizeof url_tail, "/v1/games/%s/board.png?version=%ld", game.id,
					 version);
				const char *url = json_string_value(json_object_get(body, "board_url"));
				ck_assert_msg(url && strncmp(url, "http", 4) == 0 && strlen(url) > strlen(url_tail) &&
						      strcmp(url + strlen(url) - strlen(url_tail), url_tail) == 0,
					      "a note's board_url: %.300s", seat_got->all[i].text);
				ck_assert_msg(strlen(summary) > strlen(url) &&
						      strcmp(summary + strlen(summary) - strlen(url), url) == 0,
					      "a note's summary ends with its board_url: %.300s",
					      seat_got->all[i].text);
				json_t *waiting = json_object_get(body, "waiting_for");
				ck_assert_msg(json_array_size(waiting) == 1 &&
						      json_integer_value(json_array_get(waiting, 0)) == next,
					      "a turn's note waits for its seat: %.300s", seat_got->all[i].text);
				/* the seat's actions at that version, as GET .../actions answers them:
				 * a turn starts with a roll (or a knight before it) */
				json_t *actions = json_object_get(body, "actions");
				ck_assert_msg(json_integer_value(json_object_get(actions, "version")) == version &&
						      json_integer_value(json_object_get(actions, "seat")) == next &&
						      json_array_size(json_object_get(actions, "actions")) > 0,
					      "a turn's note carries the seat's actions: %.300s",
					      seat_got->all[i].text);
				int rolls = 0;
				size_t a;
				json_t *action;
				json_array_foreach(json_object_get(actions, "actions"), a, action) rolls +=
					strcmp(type_of(action), "roll") == 0;
				ck_assert_msg(rolls == 1, "a turn's note lists its roll: %.300s",
					      seat_got->all[i].text);
			}
			ck_assert_msg(found, "seat %d got no your_turn note for its turn at version %ld (%s webhook)",
				      next, version, kind ? "notes-only" : "all-events");
		}
	}
	ck_assert_int_gt(turns, 10);
	for (int s = 0; s < game.seats; s++) {
		const struct received *everything = &got[1 + s], *only = &got[1 + game.seats + s];
		ck_assert_msg(only->notes == only->count, "seat %d's notes-only webhook got events", s);
		ck_assert_msg(everything->notes > 0, "seat %d got no note", s);
	}
	ck_assert_int_eq(got[0].notes, 0); /* the admin has no turn */

	/* What the delivery log says: one acknowledged attempt per delivery. */
	json_t *log = delivery_log(&http_fixture.checked, &game, &hooks[1]);
	ck_assert_int_eq((long)json_array_size(log), got[1].count < 500 ? got[1].count : 500);
	size_t index;
	json_t *entry;
	json_array_foreach(log, index, entry)
	{
		ck_assert_int_eq(json_integer_value(json_object_get(entry, "status")), 200);
		ck_assert(!json_object_get(entry, "error"));
	}
	json_decref(log);

	assert_bodies_keep_to_the_spec(hooks, HOOKS);
	char sample[400] = "";
	for (int i = 0; i < got[1].count && !sample[0]; i++)
		if (strcmp(type_of(got[1].all[i].body), "your_turn") == 0)
			snprintf(sample, sizeof sample, "%s",
				 json_string_value(json_object_get(got[1].all[i].body, "summary")));
	fprintf(stderr,
		"game %s (player seed %llu): %d moves, versions %ld..%ld in %.1f s; %d deliveries to %d webhooks "
		"(%d notes, %d duplicates) all acknowledged %.1f s after the last move\n  a note: %s\n",
		game.id, (unsigned long long)seed, moves, first, last, played, deliveries, HOOKS, notes, duplicates,
		delivered, sample);
	for (int h = 0; h < HOOKS; h++) {
		received_free(&got[h]);
		hook_stop(&hooks[h]);
	}
	json_decref(rows);
}
END_TEST

/* Events made faster than a receiver takes them arrive in the order of their versions,
 * each first arrival after the one before. */
START_TEST(test_events_arrive_in_the_order_of_their_versions)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	struct hook hooks[2];
	hook_register(&http_fixture.direct, &game, -1, 0, &hooks[0]);
	hook_register(&http_fixture.direct, &game, 1, 0, &hooks[1]);
	for (int h = 0; h < 2; h++)
		webhook_receiver_answer(hooks[h].receiver, 200, 5);
	long first = http_game_version(&http_fixture.direct, &game) + 1, last = first - 1;
	for (int step = 0; step < 60; step++)
		last = idle_move(&http_fixture.direct, &game, step);
	wait_all_delivered(&http_fixture.direct, &game, DELIVERY_TIMEOUT_S);
	for (int h = 0; h < 2; h++) {
		struct received got;
		received_read(&hooks[h], &game, first, last, 1, &got);
		received_free(&got);
		hook_stop(&hooks[h]);
	}
}
END_TEST

/* ---- Deleting, retrying, hanging ---- */

START_TEST(test_a_deleted_webhook_gets_no_more_deliveries)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct hook removed, kept;
	hook_register(&http_fixture.checked, &game, 0, 0, &removed);
	long from = http_game_version(&http_fixture.checked, &game) + 1;
	long version = idle_move(&http_fixture.checked, &game, 0);
	double deadline = http_clock() + DELIVERY_TIMEOUT_S;
	while (distinct_versions(&removed, from, version) < version - from + 1 && http_clock() < deadline)
		http_pause(0.05);
	ck_assert_int_eq(distinct_versions(&removed, from, version), version - from + 1);
	char path[200];
	snprintf(path, sizeof path, "%s/webhooks/%s", game.path, removed.id);
	call_expecting(&http_fixture.checked, "DELETE", path, game.tokens[0], NULL, 204, NULL);
	snprintf(path, sizeof path, "%s/webhooks/%s/deliveries", game.path, removed.id);
	call_expecting(&http_fixture.checked, "GET", path, game.tokens[0], NULL, 404, "webhook_not_found");
	int before = webhook_receiver_count(removed.receiver);
	/* A webhook registered now gets the next moves: deliveries flow while the removed one
	 * hears nothing. */
	hook_register(&http_fixture.checked, &game, -1, 0, &kept);
	long end = version;
	for (int step = 1; step < 5; step++)
		end = idle_move(&http_fixture.checked, &game, step);
	deadline = http_clock() + DELIVERY_TIMEOUT_S;
	while (distinct_versions(&kept, version + 1, end) < end - version && http_clock() < deadline)
		http_pause(0.05);
	ck_assert_int_eq(distinct_versions(&kept, version + 1, end), end - version);
	http_pause(1.0);
	ck_assert_int_eq(webhook_receiver_count(removed.receiver), before);
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(removed.receiver, &count);
	for (int i = 0; i < count; i++)
		ck_assert_int_le(json_integer_value(json_object_get(all[i].body, "version")), version);
	webhook_deliveries_free(all, count);
	hook_stop(&removed);
	hook_stop(&kept);
}
END_TEST

/* ---- Rotating a secret ---- */

/* POST .../webhooks/{id}/secret with `body` (NULL: none): the new secret into out. */
static void rotate_secret(const struct http_game *game, const struct hook *hook, const char *body, long overlap_s,
			  char out[80])
{
	char path[200];
	snprintf(path, sizeof path, "%s/webhooks/%s/secret", game->path, hook->id);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", path, token_of(game, hook->seat), body, NULL, &response);
	ck_assert_msg(response.status == 200, "rotate: %s", http_describe(&response));
	const char *secret = json_string_value(json_object_get(response.json, "secret"));
	ck_assert_msg(secret && strncmp(secret, "whsec_", 6) == 0, "a new secret: %s", response.body);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "id")), hook->id);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "overlap_seconds")), overlap_s);
	ck_assert(json_is_string(json_object_get(response.json, "previous_secret_expires_at")));
	char cache[64];
	ck_assert(http_response_header(&response, "Cache-Control", cache, sizeof cache) &&
		  strcmp(cache, "no-store") == 0);
	snprintf(out, 80, "%s", secret);
	http_response_free(&response);
}

/* Make one move, wait for its event at the hook, and say whether a receiver verifying with
 * each of secrets[0 .. count) accepts it: accepted[i]. */
static void move_and_verify(const struct http_game *game, const struct hook *hook, int step, const char *const *secrets,
			    int count, int *accepted)
{
	long version = idle_move(&http_fixture.checked, game, step);
	double deadline = http_clock() + DELIVERY_TIMEOUT_S * http_slowdown();
	while (distinct_versions(hook, version, version) < 1 && http_clock() < deadline)
		http_pause(0.05);
	ck_assert_msg(distinct_versions(hook, version, version) == 1, "version %ld delivered", version);
	for (int i = 0; i < count; i++) {
		webhook_receiver_set_secret(hook->receiver, secrets[i]);
		int got;
		struct webhook_delivery *all = webhook_receiver_deliveries(hook->receiver, &got);
		accepted[i] = -1;
		for (int d = 0; d < got; d++)
			if (strcmp(type_of(all[d].body), "event") == 0 &&
			    json_integer_value(json_object_get(all[d].body, "version")) == version)
				accepted[i] = all[d].signature_valid && (accepted[i] != 0);
		webhook_deliveries_free(all, got);
		ck_assert_msg(accepted[i] >= 0, "the event of version %ld is among the deliveries", version);
	}
}

START_TEST(test_a_rotated_secret_and_the_old_one_both_verify_during_the_overlap_then_only_the_new)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct hook hook;
	hook_register(&http_fixture.checked, &game, 0, 0, &hook);
	char first[80], second[80], third[80], fourth[80];
	snprintf(first, sizeof first, "%s", hook.secret);
	int accepted[4];

	/* Refusals change nothing: a bad overlap, another seat's token, a chat webhook. */
	char path[200];
	snprintf(path, sizeof path, "%s/webhooks/%s/secret", game.path, hook.id);
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0], "{\"overlap_seconds\": -1}", 400,
		       "invalid_field");
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0], "{\"overlap_seconds\": 604801}", 400,
		       "invalid_field");
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[0], "{\"overlap\": 5}", 400, "unknown_field");
	call_expecting(&http_fixture.checked, "POST", path, game.tokens[1], NULL, 404, "webhook_not_found");
	call_expecting(&http_fixture.checked, "POST", path, game.admin_token, NULL, 404, "webhook_not_found");
	struct webhook_receiver *channel = webhook_receiver_start();
	char body[300];
	snprintf(body, sizeof body, "{\"url\": \"%s\", \"format\": \"discord\"}", webhook_receiver_url(channel));
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/webhooks", path, sizeof path), game.tokens[1],
		  body, NULL, &response);
	ck_assert_msg(response.status == 201, "register a channel: %s", http_describe(&response));
	ck_assert_msg(!json_object_get(response.json, "secret"), "a chat webhook gets no secret: %s", response.body);
	char channel_path[200];
	snprintf(channel_path, sizeof channel_path, "%s/webhooks/%s/secret", game.path,
		 json_string_value(json_object_get(response.json, "id")));
	http_response_free(&response);
	call_expecting(&http_fixture.checked, "POST", channel_path, game.tokens[1], "{}", 409, "webhook_not_signed");
	const char *only_first[] = {first};
	move_and_verify(&game, &hook, 0, only_first, 1, accepted);
	ck_assert_msg(accepted[0], "before any rotation the registration's secret verifies");

	/* The default overlap (a day): a receiver with the old secret and one with the new both
	 * accept every delivery. */
	wait_all_delivered(&http_fixture.checked, &game, DELIVERY_TIMEOUT_S);
	rotate_secret(&game, &hook, NULL, 86400, second);
	ck_assert_str_ne(first, second);
	const char *both[] = {first, second};
	move_and_verify(&game, &hook, 1, both, 2, accepted);
	ck_assert_msg(accepted[0] && accepted[1], "during the overlap: old %d, new %d", accepted[0], accepted[1]);

	/* An overlap of one second, waited out: only the new secret verifies. */
	rotate_secret(&game, &hook, "{\"overlap_seconds\": 1}", 1, third);
	http_pause(1.5);
	const char *three[] = {first, second, third};
	move_and_verify(&game, &hook, 2, three, 3, accepted);
	ck_assert_msg(!accepted[0] && !accepted[1] && accepted[2], "after the overlap: %d %d %d", accepted[0],
		      accepted[1], accepted[2]);

	/* Rotating again during an overlap keeps only the secret just replaced; 0 ends it now. */
	rotate_secret(&game, &hook, "{}", 86400, fourth);
	const char *four[] = {first, second, third, fourth};
	move_and_verify(&game, &hook, 3, four, 4, accepted);
	ck_assert_msg(!accepted[0] && !accepted[1] && accepted[2] && accepted[3], "overlap again: %d %d %d %d",
		      accepted[0], accepted[1], accepted[2], accepted[3]);
	char fifth[80];
	rotate_secret(&game, &hook, "{\"overlap_seconds\": 0}", 0, fifth);
	const char *five[] = {third, fourth, fifth};
	move_and_verify(&game, &hook, 4, five, 3, accepted);
	ck_assert_msg(!accepted[0] && !accepted[1] && accepted[2], "overlap 0: %d %d %d", accepted[0], accepted[1],
		      accepted[2]);
	webhook_receiver_stop(channel);
	hook_stop(&hook);
}
END_TEST

START_TEST(test_a_failing_receiver_is_retried_after_1_2_and_4_seconds_with_the_same_delivery)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct hook hook;
	hook_register(&http_fixture.checked, &game, -1, 0, &hook);
	webhook_receiver_answer(hook.receiver, 500, 0);
	long version = http_game_version(&http_fixture.checked, &game) + 1;
	idle_move(&http_fixture.checked, &game, 0);
	ck_assert_int_eq(webhook_receiver_wait(hook.receiver, 3, 15), 3);
	webhook_receiver_answer(hook.receiver, 200, 0);
	wait_all_delivered(&http_fixture.checked, &game, 20);

	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(hook.receiver, &count);
	webhook_deliveries_assert_signed(all, count);
	ck_assert_int_ge(count, 4);
	for (int i = 1; i < 4; i++) {
		ck_assert_str_eq(all[i].id, all[0].id);
		ck_assert_str_eq(all[i].text, all[0].text);
	}
	ck_assert_int_eq(json_integer_value(json_object_get(all[0].body, "version")), version);
	json_t *log = delivery_log(&http_fixture.checked, &game, &hook);
	ck_assert_int_ge(json_array_size(log), 4);
	double at[4], arrived[4];
	for (int i = 0; i < 4; i++) {
		json_t *entry = json_array_get(log, (size_t)i);
		ck_assert_int_eq(json_integer_value(json_object_get(entry, "attempt")), i + 1);
		ck_assert_int_eq(json_integer_value(json_object_get(entry, "version")), version);
		ck_assert_str_eq(json_string_value(json_object_get(entry, "kind")), "event");
		ck_assert_int_eq(json_integer_value(json_object_get(entry, "status")), i < 3 ? 500 : 200);
		ck_assert_msg(i < 3 ? json_is_string(json_object_get(entry, "error"))
				    : !json_object_get(entry, "error"),
			      "attempt %d's error", i + 1);
		at[i] = http_parse_time(json_string_value(json_object_get(entry, "at")));
		arrived[i] = all[i].at;
	}
	fprintf(stderr,
		"retries: the log's attempts %.2f s, %.2f s, %.2f s apart (the receiver saw %.2f, %.2f, %.2f)\n",
		at[1] - at[0], at[2] - at[1], at[3] - at[2], arrived[1] - arrived[0], arrived[2] - arrived[1],
		arrived[3] - arrived[2]);
	for (int i = 1; i < 4; i++) {
		double backoff = (double)(1 << (i - 1));
		ck_assert_msg(at[i] - at[i - 1] >= backoff - 0.05 && at[i] - at[i - 1] <= backoff + 1.0,
			      "attempt %d came %.2f s after attempt %d (backoff %.0f s)", i + 1, at[i] - at[i - 1], i,
			      backoff);
		ck_assert_msg(
			arrived[i] - arrived[i - 1] >= backoff - 0.05 && arrived[i] - arrived[i - 1] <= backoff + 1.0,
			"the receiver got attempt %d %.2f s after attempt %d", i + 1, arrived[i] - arrived[i - 1], i);
	}
	json_decref(log);
	webhook_deliveries_free(all, count);
	hook_stop(&hook);
}
END_TEST

START_TEST(test_a_receiver_that_never_answers_does_not_slow_moves)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	enum { MOVES = 24 };
	double before[MOVES], during[MOVES];
	int step = 0;
	for (int i = 0; i < MOVES; i++, step++) {
		double started = http_clock();
		idle_move(&http_fixture.direct, &game, step);
		before[i] = http_clock() - started;
	}
	/* Enough silent receivers to hold every delivery thread of the server. */
	struct hook hooks[4];
	for (int h = 0; h < 4; h++) {
		hook_register(&http_fixture.direct, &game, h - 1, 0, &hooks[h]);
		webhook_receiver_answer(hooks[h].receiver, WEBHOOK_RECEIVER_HANG, 0);
	}
	idle_move(&http_fixture.direct, &game, step++);
	for (int h = 0; h < 4; h++)
		webhook_receiver_wait(hooks[h].receiver, 1, 5);
	int holding = 0;
	for (int i = 0; i < MOVES; i++, step++) {
		double started = http_clock();
		idle_move(&http_fixture.direct, &game, step);
		during[i] = http_clock() - started;
	}
	for (int h = 0; h < 4; h++)
		holding += webhook_receiver_holding(hooks[h].receiver);
	long pending = pending_of_all(&http_fixture.direct, &game);
	double slowest = 0;
	for (int i = 0; i < MOVES; i++)
		slowest = during[i] > slowest ? during[i] : slowest;
	double median_before = http_median(before, MOVES), median_during = http_median(during, MOVES);
	fprintf(stderr,
		"moves with %d deliveries held by silent receivers (%ld appends pending): median %.1f ms (%.1f ms "
		"before), slowest %.1f ms\n",
		holding, pending, median_during * 1000, median_before * 1000, slowest * 1000);
	ck_assert_msg(holding >= 1 && pending >= MOVES, "the receivers hold %d deliveries, %ld appends pending",
		      holding, pending);
	ck_assert_msg(median_during <= median_before * 3 + 0.005, "moves slowed from %.1f ms to %.1f ms",
		      median_before * 1000, median_during * 1000);
	ck_assert_msg(slowest < 1.0, "a move took %.2f s while deliveries hung", slowest);
	char path[200];
	for (int h = 0; h < 4; h++) {
		snprintf(path, sizeof path, "%s/webhooks/%s", game.path, hooks[h].id);
		struct http_response response;
		http_call(&http_fixture.direct, "DELETE", path, token_of(&game, hooks[h].seat), NULL, NULL, &response);
		ck_assert_int_eq(response.status, 204);
		http_response_free(&response);
		hook_stop(&hooks[h]);
	}
}
END_TEST

/* ---- A crash ---- */

START_TEST(test_every_event_is_delivered_across_a_kill_9_of_the_delivering_server)
{
	struct http_server first, second;
	http_server_start(&first, NULL);
	struct http_client direct;
	http_client_init(&direct, first.url, 0);
	struct http_game game;
	http_game_create(&direct, 3, FIXED_START, &game);
	struct hook hook;
	hook_register(&direct, &game, -1, 0, &hook);
	webhook_receiver_answer(hook.receiver, 200, 40); /* slow enough to be mid-way at the kill */
	long from = http_game_version(&direct, &game) + 1, last = from - 1;
	for (int step = 0; step < 40; step++)
		last = idle_move(&direct, &game, step);
	http_pause(0.3);
	http_server_kill(&first);
	http_client_cleanup(&direct);
	int at_kill = distinct_versions(&hook, from, last);
	ck_assert_msg(at_kill < last - from + 1, "all %ld events were delivered before the kill: nothing to recover",
		      last - from + 1);

	http_server_start(&second, NULL);
	double restarted = http_clock();
	while (distinct_versions(&hook, from, last) < last - from + 1) {
		ck_assert_msg(http_clock() - restarted < 100, "%d of %ld events delivered 100 s after the restart",
			      distinct_versions(&hook, from, last), last - from + 1);
		http_pause(0.1);
	}
	double recovered = http_clock() - restarted;
	struct received got;
	received_read(&hook, &game, from, last, 0, &got);
	fprintf(stderr,
		"kill -9: %d of %ld events delivered before the kill; all %ld (%d deliveries, %d duplicates) %.1f s "
		"after a new server started\n",
		at_kill, last - from + 1, last - from + 1, got.count, got.duplicates, recovered);
	received_free(&got);
	http_server_stop(&second, 30);
	hook_stop(&hook);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_webhooks");
	TCase *receiver = tcase_create("receiver");
	tcase_add_test(receiver, test_the_receiver_verifies_the_standard_webhooks_test_vector);
	suite_add_tcase(suite, receiver);

	TCase *webhooks = tcase_create("webhooks");
	http_fixture_add(webhooks, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(webhooks, 240);
	tcase_add_test(webhooks, test_each_token_lists_reads_and_removes_only_the_webhooks_it_registered);
	tcase_add_test(webhooks, test_registrations_with_a_bad_url_or_member_are_400_and_register_nothing);
	tcase_add_test(webhooks, test_a_seat_that_changes_hands_loses_its_registrations);
	tcase_add_test(webhooks,
		       test_every_event_reaches_every_webhook_signed_in_order_and_redacted_for_its_registrant);
	tcase_add_test(webhooks, test_events_arrive_in_the_order_of_their_versions);
	tcase_add_test(webhooks, test_a_deleted_webhook_gets_no_more_deliveries);
	tcase_add_test(webhooks,
		       test_a_rotated_secret_and_the_old_one_both_verify_during_the_overlap_then_only_the_new);
	tcase_add_test(webhooks, test_a_failing_receiver_is_retried_after_1_2_and_4_seconds_with_the_same_delivery);
	tcase_add_test(webhooks, test_a_receiver_that_never_answers_does_not_slow_moves);
	suite_add_tcase(suite, webhooks);

	TCase *crash = tcase_create("crash");
	tcase_set_timeout(crash, 240);
	tcase_add_test(crash, test_every_event_is_delivered_across_a_kill_9_of_the_delivering_server);
	suite_add_tcase(suite, crash);
	return suite;
}
