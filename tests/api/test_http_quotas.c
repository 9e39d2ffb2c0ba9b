/*
 * test_http_quotas.c - the budgets of api/quotas.h over HTTP: each keyed by the client as
 * the service sees it (the address a trusted proxy forwards; never an untrusted sender's
 * X-Forwarded-For, nor a malformed one), counted in the database, charged only for work
 * done, and at its limit plus one refused with 429, Retry-After and the budget's code,
 * writing nothing: players per client, games per client (a refused body costs nothing),
 * holiday toggles per seat, imports by events, holiday events, bytes per client and at
 * once, table talk per seat, and the receivers of one event.
 *
 * One server (TRUSTED_PROXIES=127.0.0.1: the tests name their clients with
 * X-Forwarded-For, each test an address of its own, http_unique_address(), so the one
 * test database's budgets never mix suites) behind Prism checking every response against
 * the contract. No workers (a bot seat never moves, so versions stand still) and no
 * webhook deliveries (outbox rows stay to be counted).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define OPTIONS "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}"
#define AWAY_PER_DAY 3
#define IMPORT_BYTES 100000
#define RECEIVERS 2
#define MESSAGES 2

static const char *const settings[] = {"TRUSTED_PROXIES=127.0.0.1",
				       "PLAYER_RATE_IP=30",
				       "AWAY_RATE_SEAT=3",
				       "IMPORT_BYTES_IP=100000",
				       "WEBHOOK_RECEIVERS_MAX=2",
				       "MESSAGE_RATE_SEAT=2",
				       "WORKERS=0",
				       "WEBHOOK_WORKERS=0",
				       NULL};

/* One request as the client at `address` behind the trusted proxy (NULL: none). */
static void call_as(struct http_client *client, const char *address, const char *method, const char *path,
		    const char *token, const char *body, struct http_response *response)
{
	char header[96];
	snprintf(header, sizeof header, "X-Forwarded-For: %s", address ? address : "");
	const char *const headers[] = {header, NULL};
	http_call(client, method, path, token, body, address ? headers : NULL, response);
}

/* The response is the 429 of a budget: its code, Retry-After of a second or more, the
 * setting named in the detail. */
static void assert_budget_refusal(const struct http_response *response, const char *code, const char *setting)
{
	http_assert_problem(response, 429, code);
	char retry[16];
	ck_assert_msg(http_response_header(response, "Retry-After", retry, sizeof retry) != NULL,
		      "429 without Retry-After");
	ck_assert_int_ge(atoi(retry), 1);
	const char *detail = json_string_value(json_object_get(response->json, "detail"));
	ck_assert_msg(detail && strstr(detail, setting), "the detail names %s: %s", setting, detail ? detail : "");
}

/* The game id of the text as SQL ("x'...'::bit(64)::bigint"). */
static const char *game_sql(const struct http_game *game, char *out, size_t size)
{
	snprintf(out, size, "('x' || '%s')::bit(64)::bigint", game->id);
	return out;
}

static long long count_rows(const char *table, const struct http_game *game)
{
	char id[64], sql[256];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s WHERE game_id = %s", table, game_sql(game, id, sizeof id));
	return http_sql_number(sql);
}

/* ---- Who the client is ---- */

START_TEST(test_players_are_budgeted_per_forwarded_client_and_the_one_past_it_writes_nothing)
{
	struct http_client *client = &http_fixture.checked;
	char a[16], b[16];
	http_unique_address(a, sizeof a);
	http_unique_address(b, sizeof b);
	char body[96], sql[160];
	/* The burst of PLAYER_RATE_IP (10) passes; the next from that client waits. */
	for (int i = 0; i < 10; i++) {
		snprintf(body, sizeof body, "{\"name\": \"Q %s %d\"}", a, i);
		struct http_response response;
		call_as(client, a, "POST", "/v1/players", NULL, body, &response);
		ck_assert_msg(response.status == 201, "player %d: %s", i, http_describe(&response));
		http_response_free(&response);
	}
	snprintf(body, sizeof body, "{\"name\": \"Q %s 10\"}", a);
	struct http_response response;
	call_as(client, a, "POST", "/v1/players", NULL, body, &response);
	assert_budget_refusal(&response, "player_quota", "PLAYER_RATE_IP");
	http_response_free(&response);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM players WHERE name LIKE 'Q %s %%'", a);
	ck_assert_int_eq(http_sql_number(sql), 10);
	/* Another client behind the same proxy has its own budget. */
	snprintf(body, sizeof body, "{\"name\": \"Q %s 0\"}", b);
	call_as(client, b, "POST", "/v1/players", NULL, body, &response);
	ck_assert_msg(response.status == 201, "another client: %s", http_describe(&response));
	http_response_free(&response);
	/* The access log names the client and the proxy it came through. */
	char tail[65536], wanted[64];
	http_log_tail(http_fixture.server.log_path, tail, sizeof tail);
	snprintf(wanted, sizeof wanted, "\"ip\":\"%s\",", b);
	ck_assert_msg(strstr(tail, wanted) != NULL, "the log names the forwarded client %s", b);
	ck_assert_msg(strstr(tail, "\"via\":\"127.0.0.1\"") != NULL, "the log names the proxy");
}
END_TEST

/* How many of `count` lobby reads (limited per client, RATE_LIMIT_IP) pass, each sent
 * with X-Forwarded-For forwarded[i % n]; *seconds the time they took. */
static int lobby_reads(struct http_client *client, const char *const *forwarded, int n, int count, double *seconds)
{
	int passed = 0;
	double started = http_clock();
	for (int i = 0; i < count; i++) {
		struct http_response response;
		call_as(client, forwarded[i % n], "GET", "/v1/games?status=waiting&limit=1", NULL, NULL, &response);
		if (response.status == 200)
			passed++;
		else
			http_assert_problem(&response, 429, "rate_limited");
		http_response_free(&response);
	}
	*seconds = http_clock() - started;
	return passed;
}

START_TEST(test_forwarded_for_is_ignored_from_an_untrusted_peer_and_when_malformed)
{
	/* A per-request rate of one a second, a burst of two, per client. */
	static const char *const untrusting[] = {"RATE_LIMIT_IP=1", NULL};
	static const char *const trusting[] = {"RATE_LIMIT_IP=1", "TRUSTED_PROXIES=127.0.0.1", NULL};
	static const char *const distinct[] = {"203.0.113.1", "203.0.113.2", "203.0.113.3",
					       "203.0.113.4", "203.0.113.5", "203.0.113.6"};
	static const char *const malformed[] = {"garbage", "203.0.113.7, garbage", "999.1.1.1",
						"[::1",	   "203.0.113.8:80",	   ", ,"};
	struct http_server server;
	struct http_client client;
	double seconds;
	/* Nobody is trusted: whatever each request forwards, they share the peer's budget. */
	http_server_start(&server, untrusting);
	http_client_init(&client, server.url, 0);
	int passed = lobby_reads(&client, distinct, 6, 6, &seconds);
	ck_assert_msg(passed <= 2 + (int)seconds + 1, "%d of 6 passed in %.1f s: the header was believed", passed,
		      seconds);
	http_client_cleanup(&client);
	http_server_stop(&server, 30);

	http_server_start(&server, trusting);
	http_client_init(&client, server.url, 0);
	/* Trusted: each forwarded client has its own. */
	ck_assert_int_eq(lobby_reads(&client, distinct, 6, 6, &seconds), 6);
	/* Malformed: the proxy's own budget, shared by all of them, and the server stays up. */
	passed = lobby_reads(&client, malformed, 6, 6, &seconds);
	ck_assert_msg(passed <= 2 + (int)seconds + 1, "%d of 6 malformed passed in %.1f s", passed, seconds);
	ck_assert_int_ge(6 - passed, 1);
	struct http_response response;
	http_call(&client, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	http_response_free(&response);
	http_client_cleanup(&client);
	ck_assert_int_eq(http_server_stop(&server, 30), 0);
}
END_TEST

/* ---- Charged only for work done ---- */

START_TEST(test_game_creation_is_charged_only_for_games_made)
{
	static const char *const quota[] = {"TRUSTED_PROXIES=127.0.0.1", "CREATE_RATE_IP=60", NULL};
	struct http_server server;
	http_server_start(&server, quota);
	struct http_proxy proxy;
	http_proxy_start(&proxy, server.url, 0);
	struct http_client client;
	http_client_init(&client, proxy.url, 1);
	char a[16];
	http_unique_address(a, sizeof a);
	/* Refused bodies first: each is answered, none is paid for. */
	static const char *const refused[] = {"{\"seats\": 9}", "{\"players\": []}", "{\"seats\": 3, \"x\": 1}",
					      "{\"seats\": 3, \"options\": {\"layout\": \"moon\"}}"};
	for (int i = 0; i < 30; i++) {
		struct http_response response;
		call_as(&client, a, "POST", "/v1/games", NULL, refused[i % 4], &response);
		ck_assert_msg(response.status == 400, "%s: %s", refused[i % 4], http_describe(&response));
		http_response_free(&response);
	}
	/* The whole burst (20) is still there. */
	for (int i = 0; i < 20; i++) {
		struct http_response response;
		call_as(&client, a, "POST", "/v1/games", NULL, "{\"seats\": 3}", &response);
		ck_assert_msg(response.status == 201, "game %d after 30 refused bodies: %s", i,
			      http_describe(&response));
		http_response_free(&response);
	}
	long long games = http_sql_number("SELECT count(*) FROM games");
	struct http_response response;
	call_as(&client, a, "POST", "/v1/games", NULL, "{\"seats\": 3}", &response);
	assert_budget_refusal(&response, "create_quota", "CREATE_RATE_IP");
	http_response_free(&response);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM games"), games);
	http_client_cleanup(&client);
	http_proxy_stop(&proxy);
	http_server_stop(&server, 30);
}
END_TEST

/* ---- Holiday toggles per seat ---- */

static void toggle(const struct http_game *game, int seat, int away, struct http_response *response)
{
	char path[128];
	snprintf(path, sizeof path, "%s/seats/%d/away", game->path, seat);
	http_call(&http_fixture.checked, away ? "POST" : "DELETE", path, game->tokens[seat], NULL, NULL, response);
}

START_TEST(test_holiday_toggles_are_budgeted_per_seat_and_the_one_past_it_writes_nothing)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, OPTIONS, &game);
	for (int i = 0; i < AWAY_PER_DAY; i++) {
		struct http_response response;
		toggle(&game, 0, i % 2 == 0, &response);
		ck_assert_msg(response.status == 200, "toggle %d: %s", i, http_describe(&response));
		http_response_free(&response);
	}
	long version = http_game_version(&http_fixture.checked, &game);
	long long events = count_rows("events", &game), outbox = count_rows("webhook_outbox", &game);
	struct http_response response;
	toggle(&game, 0, AWAY_PER_DAY % 2 == 0, &response);
	assert_budget_refusal(&response, "away_quota", "AWAY_RATE_SEAT");
	http_response_free(&response);
	ck_assert_int_eq(http_game_version(&http_fixture.checked, &game), version);
	ck_assert_int_eq(count_rows("events", &game), events);
	ck_assert_int_eq(count_rows("webhook_outbox", &game), outbox);
	/* The seat is still away; another seat has a budget of its own. */
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(view, "players"), 0), "away")));
	json_decref(view);
	toggle(&game, 1, 1, &response);
	ck_assert_msg(response.status == 200, "seat 1: %s", http_describe(&response));
	http_response_free(&response);
	/* A refused toggle (already away) costs nothing: seat 1 still has two. */
	for (int i = 0; i < 3; i++) {
		toggle(&game, 1, 1, &response);
		http_assert_problem(&response, 409, "seat_not_changeable");
		http_response_free(&response);
	}
	toggle(&game, 1, 0, &response);
	ck_assert_msg(response.status == 200, "seat 1 back: %s", http_describe(&response));
	http_response_free(&response);
	toggle(&game, 1, 1, &response);
	ck_assert_msg(response.status == 200, "seat 1 away again: %s", http_describe(&response));
	http_response_free(&response);
}
END_TEST

/* ---- Imports ---- */

/* The export of a game whose seat 0 went away and back `toggles` times (new reference). */
static json_t *export_with_toggles(int toggles, struct http_game *game)
{
	http_game_create(&http_fixture.checked, 3, OPTIONS, game);
	for (int i = 0; i < toggles; i++) {
		struct http_response response;
		toggle(game, 0, i % 2 == 0, &response);
		ck_assert_msg(response.status == 200, "toggle %d: %s", i, http_describe(&response));
		http_response_free(&response);
	}
	char path[128];
	snprintf(path, sizeof path, "%s/export", game->path);
	return http_get_ok(&http_fixture.checked, path, NULL);
}

/* The export as a body of exactly `size` bytes (padded with spaces; 0: as it is). */
static char *body_of(const json_t *export, size_t size)
{
	char *text = json_dumps(export, JSON_COMPACT);
	size_t length = strlen(text);
	if (size <= length)
		return text;
	char *padded = malloc(size + 1);
	ck_assert_ptr_nonnull(padded);
	memcpy(padded, text, length);
	memset(padded + length, ' ', size - length);
	padded[size] = '\0';
	free(text);
	return padded;
}

static void import_as(struct http_client *client, const char *address, const char *body, struct http_response *out)
{
	call_as(client, address, "POST", "/v1/games/import", NULL, body, out);
}

START_TEST(test_an_import_with_more_holiday_events_per_seat_than_a_day_allows_is_refused)
{
	struct http_game game;
	json_t *export = export_with_toggles(AWAY_PER_DAY, &game);
	char *body = body_of(export, 0);
	struct http_response response;
	import_as(&http_fixture.checked, NULL, body, &response);
	ck_assert_msg(response.status == 201, "%d toggles: %s", AWAY_PER_DAY, http_describe(&response));
	http_response_free(&response);
	free(body);
	/* One more toggle of seat 0 (it is away after an odd number: back). */
	json_t *events = json_object_get(export, "events");
	json_array_append_new(events,
			      json_pack("{s:s, s:i}", "type", AWAY_PER_DAY % 2 ? "seat_back" : "seat_away", "seat", 0));
	long long games = http_sql_number("SELECT count(*) FROM games");
	body = body_of(export, 0);
	import_as(&http_fixture.checked, NULL, body, &response);
	http_assert_problem(&response, 422, "import_refused");
	char field[32];
	snprintf(field, sizeof field, "events[%zu]", json_array_size(events) - 1);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), field);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(response.json, "detail")), "AWAY_RATE_SEAT"));
	http_response_free(&response);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM games"), games);
	free(body);
	json_decref(export);
}
END_TEST

START_TEST(test_an_import_of_more_events_than_import_max_events_is_refused)
{
	struct http_game game;
	json_t *export = export_with_toggles(2, &game);
	size_t events = json_array_size(json_object_get(export, "events"));
	char setting[40];
	snprintf(setting, sizeof setting, "IMPORT_MAX_EVENTS=%zu", events);
	const char *const capped[] = {setting, NULL};
	struct http_server server;
	http_server_start(&server, capped);
	struct http_client client;
	http_client_init(&client, server.url, 0);
	char *body = body_of(export, 0);
	struct http_response response;
	import_as(&client, NULL, body, &response);
	ck_assert_msg(response.status == 201, "%zu events, the cap: %s", events, http_describe(&response));
	http_response_free(&response);
	free(body);
	json_array_append_new(json_object_get(export, "events"),
			      json_pack("{s:s, s:i}", "type", "seat_away", "seat", 1));
	long long games = http_sql_number("SELECT count(*) FROM games");
	body = body_of(export, 0);
	import_as(&client, NULL, body, &response);
	http_assert_problem(&response, 400, "invalid_field");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "events");
	ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(response.json, "detail")), "IMPORT_MAX_EVENTS"));
	http_response_free(&response);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM games"), games);
	free(body);
	json_decref(export);
	http_client_cleanup(&client);
	http_server_stop(&server, 30);
}
END_TEST

START_TEST(test_imports_are_budgeted_by_bytes_per_client_and_the_one_past_it_writes_nothing)
{
	struct http_game game;
	json_t *export = export_with_toggles(0, &game);
	/* The import ignores the export's board (with its place names, some 10,000 bytes). */
	json_object_del(export, "board");
	char a[16], b[16];
	http_unique_address(a, sizeof a);
	http_unique_address(b, sizeof b);
	/* Three bodies of 28,000 bytes fit IMPORT_BYTES_IP (100,000); a fourth does not. Straight
	 * to the server: Prism sends bodies on as it parsed them, without the padding. */
	struct http_client *client = &http_fixture.direct;
	char *body = body_of(export, 28000);
	struct http_response response;
	for (int i = 0; i < 3; i++) {
		import_as(client, a, body, &response);
		ck_assert_msg(response.status == 201, "import %d: %s", i, http_describe(&response));
		http_response_free(&response);
	}
	long long games = http_sql_number("SELECT count(*) FROM games");
	import_as(client, a, body, &response);
	assert_budget_refusal(&response, "import_quota", "IMPORT_BYTES_IP");
	http_response_free(&response);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM games"), games);
	/* A refused import costs nothing: the export as it is (under 16,000 bytes) still fits. */
	char *small = body_of(export, 0);
	ck_assert_int_lt(strlen(small), 16000);
	import_as(client, a, small, &response);
	ck_assert_msg(response.status == 201, "a small import: %s", http_describe(&response));
	http_response_free(&response);
	/* Another client has its own; a body larger than the whole budget is 413. */
	import_as(client, b, body, &response);
	ck_assert_msg(response.status == 201, "another client: %s", http_describe(&response));
	http_response_free(&response);
	char *huge = body_of(export, IMPORT_BYTES + 1);
	import_as(client, b, huge, &response);
	http_assert_problem(&response, 413, "body_too_large");
	http_response_free(&response);
	free(huge);
	free(small);
	free(body);
	json_decref(export);
}
END_TEST

/* An import on another thread (the body given), its status into *status. */
struct background_import {
	const char *url;
	const char *body;
	atomic_long status;
	double seconds;
};

static void *import_in_background(void *context)
{
	struct background_import *work = context;
	struct http_client client;
	http_client_init(&client, work->url, 0);
	client.timeout_ms = 120000;
	struct http_response response;
	/* A prober's one-line import may hold the one place when this one comes: then it is
	 * turned away too (503 import_busy) and tries again, as a client would. */
	for (int tries = 0;; tries++) {
		http_call(&client, "POST", "/v1/games/import", NULL, work->body, NULL, &response);
		if (response.status != 503 || tries >= 200)
			break;
		http_response_free(&response);
		http_pause(0.02);
	}
	work->seconds = response.seconds;
	atomic_store(&work->status, response.status);
	http_response_free(&response);
	http_client_cleanup(&client);
	return NULL;
}

#define PROBERS 4

/* A second import tried again and again while the first is judged (a connection of its own
 * each time): 503 import_busy with Retry-After, or 400 for its one-line body once the first
 * is done. */
struct prober {
	const char *url;
	struct background_import *work;
	atomic_int *busy;
	int tries;
	long unexpected; /* a status other than 503 import_busy and 400 */
	int no_retry_after;
};

static void *probe_imports(void *context)
{
	struct prober *prober = context;
	while (prober->tries < 400 && !atomic_load(prober->busy) && !atomic_load(&prober->work->status)) {
		prober->tries++;
		struct http_client client;
		http_client_init(&client, prober->url, 0);
		struct http_response response;
		http_call(&client, "POST", "/v1/games/import", NULL, "{\"events\": 1}", NULL, &response);
		const char *code = json_string_value(json_object_get(response.json, "code"));
		char retry[16];
		if (response.status == 503 && code && strcmp(code, "import_busy") == 0) {
			if (!http_response_header(&response, "Retry-After", retry, sizeof retry))
				prober->no_retry_after = 1;
			atomic_store(prober->busy, 1);
		} else if (!(response.status == 400 && code && strcmp(code, "invalid_field") == 0)) {
			prober->unexpected = response.status;
		}
		http_response_free(&response);
		http_client_cleanup(&client);
		if (prober->unexpected)
			break;
		http_pause(0.005);
	}
	return NULL;
}

START_TEST(test_imports_past_import_concurrency_are_503_import_busy)
{
	/* One import at a time; a log of 40,000 holiday events (legal without the budget; 1.3 MB)
	 * takes a while to judge and write (6,000 took 0.13 s on a quiet machine: too short a
	 * window for the probes), and meanwhile a second is turned away. */
	static const char *const one[] = {"IMPORT_CONCURRENCY=1", "IMPORT_MAX_EVENTS=50000", NULL};
	struct http_server server;
	http_server_start(&server, one);
	struct http_game game;
	json_t *export = export_with_toggles(0, &game);
	json_t *events = json_object_get(export, "events");
	for (int i = 0; i < 40000; i++)
		json_array_append_new(events,
				      json_pack("{s:s, s:i}", "type", i % 2 ? "seat_back" : "seat_away", "seat", 2));
	char *slow = body_of(export, 0);
	json_decref(export);
	struct background_import work = {server.url, slow, 0, 0};
	pthread_t thread;
	ck_assert_int_eq(pthread_create(&thread, NULL, import_in_background, &work), 0);
	/* Probes from several threads at once: a probe's connection accepted by the server thread
	 * that then judges the import waits for it to end (libmicrohttpd keeps a connection on
	 * one thread), so one prober alone could miss the whole window. */
	struct prober probers[PROBERS];
	pthread_t probing[PROBERS];
	atomic_int busy = 0;
	for (int p = 0; p < PROBERS; p++) {
		probers[p] = (struct prober){server.url, &work, &busy, 0, 0, 0};
		ck_assert_int_eq(pthread_create(&probing[p], NULL, probe_imports, &probers[p]), 0);
	}
	double waited = http_clock();
	pthread_join(thread, NULL);
	int tries = 0;
	for (int p = 0; p < PROBERS; p++) {
		pthread_join(probing[p], NULL);
		tries += probers[p].tries;
		ck_assert_msg(!probers[p].unexpected, "a probe was answered %ld", probers[p].unexpected);
		ck_assert_msg(!probers[p].no_retry_after, "a 503 import_busy without Retry-After");
	}
	fprintf(stderr,
		"import concurrency: %d tries by %d probers, joined after %.2f s more; the import took %.2f s (%zu "
		"bytes)\n",
		tries, PROBERS, http_clock() - waited, work.seconds, strlen(slow));
	ck_assert_msg(atomic_load(&work.status) == 201, "the slow import: %ld", atomic_load(&work.status));
	ck_assert_msg(busy, "no import was turned away while one was judged");
	/* Its place is given back. */
	struct http_client client;
	http_client_init(&client, server.url, 0);
	struct http_response response;
	http_call(&client, "POST", "/v1/games/import", NULL, "{\"events\": 1}", NULL, &response);
	http_assert_problem(&response, 400, "invalid_field");
	http_response_free(&response);
	free(slow);
	http_client_cleanup(&client);
	http_server_stop(&server, 30);
}
END_TEST

/* ---- Outbound messages ---- */

START_TEST(test_one_event_reaches_at_most_webhook_receivers_max_receivers)
{
	struct http_client *client = &http_fixture.checked;
	char player_id[20], player_token[64];
	http_player_create(client, "Fan", player_id, player_token);
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bea\"}, {\"name\": \"Cal\"}],"
		 " \"options\": " OPTIONS "}",
		 player_id);
	struct http_game game;
	http_game_create_body(client, body, &game);
	struct http_response response;
	/* The player's webhook, then the admin's: two receivers, the most one event reaches. */
	http_call(client, "POST", "/v1/players/me/webhooks", player_token, "{\"url\": \"http://127.0.0.1:9/p1\"}", NULL,
		  &response);
	ck_assert_msg(response.status == 201, "player webhook: %s", http_describe(&response));
	http_response_free(&response);
	char path[128];
	http_game_path(&game, "/webhooks", path, sizeof path);
	http_call(client, "POST", path, game.admin_token, "{\"url\": \"http://127.0.0.1:9/g1\"}", NULL, &response);
	ck_assert_msg(response.status == 201, "game webhook: %s", http_describe(&response));
	http_response_free(&response);
	/* One more on the game is refused: it would receive nothing. */
	long long webhooks = http_sql_number("SELECT count(*) FROM webhooks");
	http_call(client, "POST", path, game.tokens[1], "{\"url\": \"http://127.0.0.1:9/g2\"}", NULL, &response);
	http_assert_problem(&response, 409, "too_many_webhooks");
	ck_assert_ptr_nonnull(
		strstr(json_string_value(json_object_get(response.json, "detail")), "WEBHOOK_RECEIVERS_MAX"));
	http_response_free(&response);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM webhooks"), webhooks);
	/* A player's registrations are the player's (they span games): a second is taken, but
	 * an event of this game still reaches two, the oldest. */
	http_call(client, "POST", "/v1/players/me/webhooks", player_token, "{\"url\": \"http://127.0.0.1:9/p2\"}", NULL,
		  &response);
	ck_assert_msg(response.status == 201, "second player webhook: %s", http_describe(&response));
	http_response_free(&response);
	long version = http_post_move_ok(client, &game, 0, "{\"type\": \"roll\"}");
	char id[64], sql[512];
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM webhook_outbox o JOIN webhooks w ON w.id = o.webhook_id"
		 " WHERE o.game_id = %s AND o.first_seq <= %ld AND o.last_seq >= %ld AND w.url LIKE '%%/p2'",
		 game_sql(&game, id, sizeof id), version, version);
	ck_assert_int_eq(http_sql_number(sql), 0);
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM webhook_outbox o WHERE o.game_id = %s AND o.first_seq <= %ld AND o.last_seq >= "
		 "%ld",
		 game_sql(&game, id, sizeof id), version, version);
	ck_assert_int_eq(http_sql_number(sql), RECEIVERS);
}
END_TEST

START_TEST(test_table_talk_is_budgeted_per_seat_and_the_message_past_it_writes_nothing)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, OPTIONS, &game);
	char path[128];
	http_game_path(&game, "/messages", path, sizeof path);
	struct http_response response;
	for (int i = 0; i < MESSAGES; i++) {
		http_call(&http_fixture.checked, "POST", path, game.tokens[0], "{\"text\": \"hello\"}", NULL,
			  &response);
		ck_assert_msg(response.status == 201, "message %d: %s", i, http_describe(&response));
		http_response_free(&response);
	}
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], "{\"text\": \"hello\"}", NULL, &response);
	assert_budget_refusal(&response, "rate_limited", "MESSAGE_RATE_SEAT");
	http_response_free(&response);
	ck_assert_int_eq(count_rows("messages", &game), MESSAGES);
	http_call(&http_fixture.checked, "POST", path, game.tokens[1], "{\"text\": \"hi\"}", NULL, &response);
	ck_assert_msg(response.status == 201, "seat 1: %s", http_describe(&response));
	http_response_free(&response);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_quotas");
	TCase *quotas = tcase_create("budgets");
	http_fixture_add(quotas, HTTP_FIXTURE_PRISM, settings);
	tcase_set_timeout(quotas, 240);
	tcase_add_test(quotas, test_players_are_budgeted_per_forwarded_client_and_the_one_past_it_writes_nothing);
	tcase_add_test(quotas, test_forwarded_for_is_ignored_from_an_untrusted_peer_and_when_malformed);
	tcase_add_test(quotas, test_game_creation_is_charged_only_for_games_made);
	tcase_add_test(quotas, test_holiday_toggles_are_budgeted_per_seat_and_the_one_past_it_writes_nothing);
	tcase_add_test(quotas, test_an_import_with_more_holiday_events_per_seat_than_a_day_allows_is_refused);
	tcase_add_test(quotas, test_an_import_of_more_events_than_import_max_events_is_refused);
	tcase_add_test(quotas, test_imports_are_budgeted_by_bytes_per_client_and_the_one_past_it_writes_nothing);
	tcase_add_test(quotas, test_imports_past_import_concurrency_are_503_import_busy);
	tcase_add_test(quotas, test_one_event_reaches_at_most_webhook_receivers_max_receivers);
	tcase_add_test(quotas, test_table_talk_is_budgeted_per_seat_and_the_message_past_it_writes_nothing);
	suite_add_tcase(suite, quotas);
	return suite;
}
