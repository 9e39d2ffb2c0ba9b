/*
 * test_http_frontend.c - what a front end in a browser needs of the server (issue 11):
 * CORS preflights and exposed headers, RateLimit-* headers, conditional GETs (304) and
 * the board's own ETag, and an event stream that ends when the game does.
 *
 * CORS is checked on the server's own answers (`direct`): Prism answers preflights itself
 * and adds its own CORS headers, which would hide the server's. The headers a browser
 * applies are checked the way a browser does (browser_allows). Everything else goes
 * through Prism (`checked`) so the 304s, the RateLimit headers and the 429s are held to
 * openapi.yaml too.
 *
 * The fixture's server limits each token to 5 requests a second (burst 10) and each
 * address to 1000 (burst 2000), so tests use a fresh game (fresh tokens) for each thing
 * they count; it allows games of bots only, which play to the end by themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define TOKEN_BURST 10
#define IP_BURST 2000

static const char *const fixture_settings[] = {"RATE_LIMIT_TOKEN=5", "RATE_LIMIT_IP=1000", "ALL_BOT_GAMES=1",
					       "CREATE_RATE_IP=0", NULL};

/* ---- CORS ---- */

/* 1 when the comma-separated `list` names `item` (case-insensitively), or is "*". */
static int list_has(const char *list, const char *item)
{
	if (!list)
		return 0;
	size_t length = strlen(item);
	const char *at = list;
	while (*at) {
		while (*at == ' ' || *at == ',')
			at++;
		const char *end = at;
		while (*end && *end != ',')
			end++;
		size_t token = (size_t)(end - at);
		while (token && at[token - 1] == ' ')
			token--;
		if ((token == length && strncasecmp(at, item, length) == 0) || (token == 1 && *at == '*'))
			return 1;
		at = end;
	}
	return 0;
}

/* The CORS check of the Fetch standard on a preflight's answer, for a request without
 * credentials from `origin` with `method` and the non-safelisted `headers` (lower case):
 * 1 when a browser would go on to send the real request. */
static int browser_allows(const struct http_response *preflight, const char *origin, const char *method,
			  const char *const *headers)
{
	char allow_origin[256], methods[256], allowed_headers[512];
	if (preflight->status < 200 || preflight->status > 299)
		return 0;
	if (!http_response_header(preflight, "Access-Control-Allow-Origin", allow_origin, sizeof allow_origin))
		return 0;
	if (strcmp(allow_origin, "*") != 0 && strcmp(allow_origin, origin) != 0)
		return 0;
	const char *method_list =
		http_response_header(preflight, "Access-Control-Allow-Methods", methods, sizeof methods);
	int safelisted = strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0 || strcmp(method, "POST") == 0;
	if (!safelisted && !list_has(method_list, method))
		return 0;
	const char *header_list = http_response_header(preflight, "Access-Control-Allow-Headers", allowed_headers,
						       sizeof allowed_headers);
	for (size_t i = 0; headers && headers[i]; i++)
		if (!list_has(header_list, headers[i]))
			return 0;
	return 1;
}

/* OPTIONS `path` on `client` as a browser's preflight from `origin` for `method` with
 * `request_headers` (the Access-Control-Request-Headers value; NULL: none). */
static void preflight(struct http_client *client, const char *path, const char *origin, const char *method,
		      const char *request_headers, struct http_response *out)
{
	char origin_line[256], method_line[64], headers_line[512];
	snprintf(origin_line, sizeof origin_line, "Origin: %s", origin);
	snprintf(method_line, sizeof method_line, "Access-Control-Request-Method: %s", method);
	const char *lines[4] = {origin_line, method_line, NULL, NULL};
	if (request_headers) {
		snprintf(headers_line, sizeof headers_line, "Access-Control-Request-Headers: %s", request_headers);
		lines[2] = headers_line;
	}
	http_call(client, "OPTIONS", path, NULL, NULL, lines, out);
}

static const char *const exposed[] = {"ETag",
				      "Location",
				      "Retry-After",
				      "X-Request-Id",
				      "Idempotent-Replayed",
				      "RateLimit-Limit",
				      "RateLimit-Remaining",
				      "RateLimit-Reset",
				      NULL};

/* The answer lets a page of any origin read it, and the headers a client needs. */
static void assert_readable_by_any_origin(const struct http_response *response, const char *what)
{
	char value[512];
	ck_assert_msg(http_response_header(response, "Access-Control-Allow-Origin", value, sizeof value) != NULL,
		      "%s: no Access-Control-Allow-Origin: %s", what, http_describe(response));
	ck_assert_msg(strcmp(value, "*") == 0, "%s: Access-Control-Allow-Origin %s", what, value);
	ck_assert_msg(http_response_header(response, "Access-Control-Expose-Headers", value, sizeof value) != NULL,
		      "%s: no Access-Control-Expose-Headers", what);
	for (int i = 0; exposed[i]; i++)
		ck_assert_msg(list_has(value, exposed[i]), "%s: %s is not exposed (%s)", what, exposed[i], value);
}

START_TEST(test_preflights_answer_every_route_with_its_methods)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	struct {
		const char *suffix; /* after the game's path; NULL: `path` as it is */
		const char *path;
		const char *methods;
	} routes[] = {
		{NULL, "/v1/games", "GET, HEAD, POST"},
		{"/join", NULL, "POST"},
		{"/seats", NULL, "GET, HEAD"},
		{"/seats/1", NULL, "DELETE"},
		{"/seats/1/bot", NULL, "POST"},
		{NULL, "/v1/players", "POST"},
		{NULL, "/v1/players/me/games", "GET, HEAD"},
		{"", NULL, "GET, HEAD"},
		{"/board", NULL, "GET, HEAD"},
		{"/actions", NULL, "GET, HEAD"},
		{"/moves", NULL, "GET, HEAD, POST"},
		{"/stream", NULL, "GET, HEAD"},
		{"/players", NULL, "GET, HEAD"},
		{"/trades", NULL, "GET, HEAD, POST"},
		{"/trades/1", NULL, "DELETE"},
		{"/trades/1/accept", NULL, "POST"},
		{"/trades/1/decline", NULL, "POST"},
		{"/trades/1/confirm", NULL, "POST"},
		{"/webhooks", NULL, "GET, HEAD, POST"},
		{"/webhooks/wh_0123456789abcdef", NULL, "DELETE"},
		{"/webhooks/wh_0123456789abcdef/deliveries", NULL, "GET, HEAD"},
		{NULL, "/healthz", "GET, HEAD"},
		{NULL, "/readyz", "GET, HEAD"},
		{NULL, "/metrics", "GET, HEAD"},
		{NULL, "/openapi.json", "GET, HEAD"},
	};
	static const char *const sent[] = {"authorization", "content-type",  "idempotency-key", "if-match",
					   "if-none-match", "last-event-id", "x-request-id",	NULL};
	for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
		char path[160];
		if (routes[i].suffix)
			http_game_path(&game, routes[i].suffix, path, sizeof path);
		else
			snprintf(path, sizeof path, "%s", routes[i].path);
		/* The first method of the route, with every header a client may send. */
		char method[16];
		snprintf(method, sizeof method, "%.*s", (int)strcspn(routes[i].methods, ","), routes[i].methods);
		struct http_response response;
		preflight(&http_fixture.direct, path, "https://play.example.com", method,
			  "authorization, content-type, idempotency-key, if-match, if-none-match, last-event-id, "
			  "x-request-id",
			  &response);
		ck_assert_msg(response.status == 204, "OPTIONS %s: %s", path, http_describe(&response));
		ck_assert_msg(response.body_length == 0, "OPTIONS %s has a body", path);
		char value[512];
		ck_assert_ptr_nonnull(
			http_response_header(&response, "Access-Control-Allow-Methods", value, sizeof value));
		ck_assert_msg(strcmp(value, routes[i].methods) == 0, "OPTIONS %s: methods %s, expected %s", path, value,
			      routes[i].methods);
		ck_assert_ptr_nonnull(http_response_header(&response, "Access-Control-Max-Age", value, sizeof value));
		ck_assert_msg(atol(value) >= 600, "OPTIONS %s: Max-Age %s", path, value);
		assert_readable_by_any_origin(&response, path);
		ck_assert_msg(browser_allows(&response, "https://play.example.com", method, sent),
			      "OPTIONS %s: a browser would refuse %s with the API's headers", path, method);
		/* A method the route does not have is not allowed. */
		if (!strstr(routes[i].methods, "DELETE"))
			ck_assert_msg(!browser_allows(&response, "https://play.example.com", "DELETE", NULL),
				      "OPTIONS %s allows DELETE", path);
		http_response_free(&response);
	}
}
END_TEST

START_TEST(test_options_is_no_longer_405_and_unknown_paths_are_404)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	char path[160];
	http_game_path(&game, "/moves", path, sizeof path);
	/* Plain OPTIONS (no preflight): 204 with Allow, no preflight headers. */
	struct http_response response;
	http_call(&http_fixture.direct, "OPTIONS", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 204, "OPTIONS %s: %s", path, http_describe(&response));
	char value[256];
	ck_assert_ptr_nonnull(http_response_header(&response, "Allow", value, sizeof value));
	ck_assert_str_eq(value, "GET, HEAD, POST, OPTIONS");
	ck_assert_ptr_null(http_response_header(&response, "Access-Control-Allow-Methods", value, sizeof value));
	http_response_free(&response);
	/* A preflight for a path that is no route: 404 like any request there. */
	preflight(&http_fixture.direct, "/v1/nothing/here", "https://play.example.com", "GET", NULL, &response);
	http_assert_problem(&response, 404, "route_not_found");
	http_response_free(&response);
	http_game_path(&game, "/moves/1", path, sizeof path);
	preflight(&http_fixture.direct, path, "https://play.example.com", "POST", "content-type", &response);
	http_assert_problem(&response, 404, "route_not_found");
	http_response_free(&response);
	/* Other wrong methods are still 405. */
	http_call(&http_fixture.direct, "PUT", game.path, NULL, "{}", NULL, &response);
	http_assert_problem(&response, 405, "method_not_allowed");
	assert_readable_by_any_origin(&response, "PUT (405)");
	http_response_free(&response);
}
END_TEST

START_TEST(test_every_answer_lets_any_origin_read_it_and_its_headers)
{
	static const char *const origin[] = {"Origin: https://play.example.com", NULL};
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}",
			 &game);
	struct http_response response;
	/* A created game (Location, ETag), a seat's view, a move, a problem, a probe. */
	http_call(&http_fixture.direct, "POST", "/v1/games", NULL, "{\"seats\": 3}", origin, &response);
	ck_assert_int_eq(response.status, 201);
	assert_readable_by_any_origin(&response, "POST /v1/games");
	http_response_free(&response);
	http_call(&http_fixture.direct, "GET", game.path, game.tokens[0], NULL, origin, &response);
	ck_assert_int_eq(response.status, 200);
	assert_readable_by_any_origin(&response, "GET game");
	http_response_free(&response);
	char path[160];
	http_game_path(&game, "/moves", path, sizeof path);
	static const char *const keyed[] = {"Origin: https://play.example.com", "Idempotency-Key: cors-roll-1", NULL};
	http_call(&http_fixture.direct, "POST", path, game.tokens[0], "{\"type\": \"roll\"}", keyed, &response);
	ck_assert_msg(response.status == 201, "roll: %s", http_describe(&response));
	assert_readable_by_any_origin(&response, "POST move");
	http_response_free(&response);
	http_call(&http_fixture.direct, "POST", path, game.tokens[0], "{\"type\": \"roll\"}", keyed, &response);
	ck_assert_int_eq(response.status, 201);
	assert_readable_by_any_origin(&response, "POST move (replayed)");
	http_response_free(&response);
	http_call(&http_fixture.direct, "POST", path, game.tokens[1], "{\"type\": \"roll\"}", origin, &response);
	ck_assert_int_eq(response.status, 422);
	assert_readable_by_any_origin(&response, "a refused move");
	http_response_free(&response);
	http_call(&http_fixture.direct, "GET", "/v1/nothing", NULL, NULL, origin, &response);
	assert_readable_by_any_origin(&response, "404");
	http_response_free(&response);
	/* Without an Origin (not a browser) the same headers come anyway: caches keep one copy. */
	http_call(&http_fixture.direct, "GET", "/healthz", NULL, NULL, NULL, &response);
	assert_readable_by_any_origin(&response, "/healthz");
	http_response_free(&response);
}
END_TEST

START_TEST(test_cors_origins_restricts_which_pages_may_read)
{
	static const char *const settings[] = {"CORS_ORIGINS=https://play.example.com, http://localhost:5173", NULL};
	struct http_server listed;
	http_server_start(&listed, settings);
	struct http_client client;
	http_client_init(&client, listed.url, 0);
	struct http_game game;
	http_game_create(&client, 3, NULL, &game);
	char path[160];
	http_game_path(&game, "/moves", path, sizeof path);
	static const char *const sent[] = {"authorization", "content-type", "if-match", NULL};
	char value[512];
	/* A listed origin is echoed, and the answer varies by Origin. */
	struct http_response response;
	preflight(&client, path, "http://localhost:5173", "POST", "authorization, content-type, if-match", &response);
	ck_assert_int_eq(response.status, 204);
	ck_assert_ptr_nonnull(http_response_header(&response, "Access-Control-Allow-Origin", value, sizeof value));
	ck_assert_str_eq(value, "http://localhost:5173");
	ck_assert_ptr_nonnull(http_response_header(&response, "Vary", value, sizeof value));
	ck_assert_msg(list_has(value, "Origin"), "Vary: %s", value);
	ck_assert(browser_allows(&response, "http://localhost:5173", "POST", sent));
	http_response_free(&response);
	/* Any other origin gets the 204 without allow headers: the browser refuses. */
	preflight(&client, path, "https://evil.example", "POST", "authorization, content-type, if-match", &response);
	ck_assert_int_eq(response.status, 204);
	ck_assert_ptr_null(http_response_header(&response, "Access-Control-Allow-Origin", value, sizeof value));
	ck_assert_ptr_null(http_response_header(&response, "Access-Control-Allow-Methods", value, sizeof value));
	ck_assert_ptr_null(http_response_header(&response, "Access-Control-Allow-Headers", value, sizeof value));
	ck_assert(!browser_allows(&response, "https://evil.example", "POST", sent));
	http_response_free(&response);
	/* A port or scheme of its own is another origin. */
	preflight(&client, path, "https://play.example.com:8443", "POST", NULL, &response);
	ck_assert_ptr_null(http_response_header(&response, "Access-Control-Allow-Origin", value, sizeof value));
	http_response_free(&response);
	/* Simple requests: the listed origin may read the answer, the other may not. */
	static const char *const good[] = {"Origin: https://play.example.com", NULL};
	static const char *const evil[] = {"Origin: https://evil.example", NULL};
	http_call(&client, "GET", game.path, NULL, NULL, good, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_ptr_nonnull(http_response_header(&response, "Access-Control-Allow-Origin", value, sizeof value));
	ck_assert_str_eq(value, "https://play.example.com");
	ck_assert_ptr_nonnull(http_response_header(&response, "Access-Control-Expose-Headers", value, sizeof value));
	ck_assert(list_has(value, "ETag"));
	ck_assert_ptr_nonnull(http_response_header(&response, "Vary", value, sizeof value));
	ck_assert_msg(list_has(value, "Origin") && list_has(value, "Authorization"), "Vary: %s", value);
	http_response_free(&response);
	http_call(&client, "GET", game.path, NULL, NULL, evil, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_ptr_null(http_response_header(&response, "Access-Control-Allow-Origin", value, sizeof value));
	ck_assert_ptr_null(http_response_header(&response, "Access-Control-Expose-Headers", value, sizeof value));
	http_response_free(&response);
	http_client_cleanup(&client);
	http_server_stop(&listed, 30);
}
END_TEST

/* ---- RateLimit headers ---- */

/* The RateLimit-Limit, -Remaining and -Reset of a response (each -1 when absent). */
struct quota {
	long limit, remaining, reset;
};

static struct quota quota_of(const struct http_response *response)
{
	struct quota quota = {-1, -1, -1};
	char value[32];
	if (http_response_header(response, "RateLimit-Limit", value, sizeof value))
		quota.limit = atol(value);
	if (http_response_header(response, "RateLimit-Remaining", value, sizeof value))
		quota.remaining = atol(value);
	if (http_response_header(response, "RateLimit-Reset", value, sizeof value))
		quota.reset = atol(value);
	return quota;
}

START_TEST(test_successes_tell_the_tokens_quota_or_the_addresss)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}", &game);
	struct http_response response;
	/* With a token: the token's bucket, counting down. */
	http_call(&http_fixture.checked, "GET", game.path, game.tokens[0], NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	struct quota first = quota_of(&response);
	http_response_free(&response);
	ck_assert_int_eq(first.limit, TOKEN_BURST);
	ck_assert_msg(first.remaining >= 0 && first.remaining <= TOKEN_BURST - 1, "remaining %ld", first.remaining);
	ck_assert_msg(first.reset >= 1 && first.reset <= 3, "reset %ld", first.reset);
	char path[160];
	http_game_path(&game, "/moves", path, sizeof path);
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], "{\"type\": \"roll\"}", NULL, &response);
	ck_assert_msg(response.status == 201, "roll: %s", http_describe(&response));
	struct quota second = quota_of(&response);
	http_response_free(&response);
	ck_assert_int_eq(second.limit, TOKEN_BURST);
	ck_assert_msg(second.remaining < first.remaining || second.remaining == TOKEN_BURST - 1,
		      "remaining went from %ld to %ld", first.remaining, second.remaining);
	/* Another token of the same game has its own bucket. */
	http_call(&http_fixture.checked, "GET", game.path, game.tokens[1], NULL, NULL, &response);
	ck_assert_int_eq(quota_of(&response).remaining, TOKEN_BURST - 1);
	http_response_free(&response);
	/* Without a token: the address's bucket. */
	http_call(&http_fixture.checked, "GET", game.path, NULL, NULL, NULL, &response);
	struct quota address = quota_of(&response);
	http_response_free(&response);
	ck_assert_int_eq(address.limit, IP_BURST);
	ck_assert_msg(address.remaining >= 0 && address.remaining < IP_BURST, "remaining %ld", address.remaining);
	ck_assert_msg(address.reset >= 0, "reset %ld", address.reset);
	/* Probes are not limited, and say nothing. */
	http_call(&http_fixture.checked, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_int_eq(quota_of(&response).limit, -1);
	http_response_free(&response);
}
END_TEST

START_TEST(test_a_429_tells_the_quota_is_spent_and_when_it_is_back)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, NULL, &game);
	int refused = 0;
	for (int i = 0; i < 3 * TOKEN_BURST && !refused; i++) {
		struct http_response response;
		http_call(&http_fixture.checked, "GET", game.path, game.tokens[2], NULL, NULL, &response);
		if (response.status == 429) {
			refused = 1;
			http_assert_problem(&response, 429, "rate_limited");
			struct quota quota = quota_of(&response);
			ck_assert_int_eq(quota.limit, TOKEN_BURST);
			ck_assert_int_eq(quota.remaining, 0);
			ck_assert_msg(quota.reset >= 1 && quota.reset <= 3, "reset %ld", quota.reset);
			char retry[16];
			ck_assert_ptr_nonnull(http_response_header(&response, "Retry-After", retry, sizeof retry));
			ck_assert_msg(atol(retry) >= 1 && atol(retry) <= quota.reset, "Retry-After %s, reset %ld",
				      retry, quota.reset);
		} else {
			ck_assert_msg(response.status == 200, "%s", http_describe(&response));
		}
		http_response_free(&response);
	}
	ck_assert_msg(refused, "%d requests in a row with one token were never limited", 3 * TOKEN_BURST);

	/* The address's limit, for requests without a token (a server of its own: a low one). */
	static const char *const settings[] = {"RATE_LIMIT_IP=2", NULL};
	struct http_server strict;
	http_server_start(&strict, settings);
	struct http_client client;
	http_client_init(&client, strict.url, 0);
	refused = 0;
	for (int i = 0; i < 20 && !refused; i++) {
		struct http_response response;
		http_call(&client, "GET", "/v1/games/0123456789abcdef", NULL, NULL, NULL, &response);
		struct quota quota = quota_of(&response);
		ck_assert_int_eq(quota.limit, 4);
		if (response.status == 429) {
			refused = 1;
			http_assert_problem(&response, 429, "rate_limited");
			ck_assert_int_eq(quota.remaining, 0);
			ck_assert_msg(quota.reset >= 1 && quota.reset <= 2, "reset %ld", quota.reset);
		}
		http_response_free(&response);
	}
	ck_assert(refused);
	http_client_cleanup(&client);
	http_server_stop(&strict, 30);
}
END_TEST

/* ---- Conditional GETs ---- */

/* GET `path` with If-None-Match: `tag` (NULL: none) on the checked client. */
static void get_if_none_match(const char *path, const char *token, const char *tag, struct http_response *out)
{
	char line[128];
	snprintf(line, sizeof line, "If-None-Match: %s", tag ? tag : "");
	const char *lines[] = {line, NULL};
	http_call(&http_fixture.checked, "GET", path, token, NULL, tag ? lines : NULL, out);
}

START_TEST(test_if_none_match_answers_304_when_the_caller_has_it)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}", &game);
	static const char *const suffixes[] = {"", "/actions", "/players", "/trades", "/moves?after=0", "/board"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		char path[160];
		http_game_path(&game, suffixes[i], path, sizeof path);
		/* A spectator tries every form of the tag; a seat (each seat in turn, within its
		 * token's rate limit) the tag itself. */
		for (int viewer = -1; viewer < 1; viewer++) {
			const char *token = viewer < 0 ? NULL : game.tokens[i % 3];
			struct http_response response;
			get_if_none_match(path, token, NULL, &response);
			ck_assert_int_eq(response.status, 200);
			char etag[96], again[96];
			ck_assert_ptr_nonnull(http_response_header(&response, "ETag", etag, sizeof etag));
			http_response_free(&response);
			/* The tag, the weak form of it, a list holding it, and `*`: 304, no body. */
			char weak[128], list[160];
			snprintf(weak, sizeof weak, "W/%s", etag);
			snprintf(list, sizeof list, "\"nope\", %s", etag);
			const char *matching[] = {etag, weak, list, "*"};
			for (int m = 0; m < (token ? 1 : 4); m++) {
				get_if_none_match(path, token, matching[m], &response);
				ck_assert_msg(response.status == 304, "GET %s If-None-Match %s: %s", path, matching[m],
					      http_describe(&response));
				ck_assert_msg(response.body_length == 0, "a 304 with a body");
				ck_assert_ptr_nonnull(http_response_header(&response, "ETag", again, sizeof again));
				ck_assert_str_eq(again, etag);
				http_response_free(&response);
			}
			/* Another tag: the whole answer. */
			get_if_none_match(path, token, "\"999999\", W/\"board-0\"", &response);
			ck_assert_msg(response.status == 200 && response.json, "GET %s: %s", path,
				      http_describe(&response));
			http_response_free(&response);
		}
	}
	/* After a move, the old version's tag no longer matches: 200 with the new one. */
	long before = http_game_version(&http_fixture.checked, &game);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\"}");
	char tag[32];
	snprintf(tag, sizeof tag, "\"%ld\"", before);
	struct http_response response;
	get_if_none_match(game.path, game.tokens[1], tag, &response);
	ck_assert_int_eq(response.status, 200);
	char etag[32];
	ck_assert_ptr_nonnull(http_response_header(&response, "ETag", etag, sizeof etag));
	ck_assert_str_ne(etag, tag);
	http_response_free(&response);
	/* HEAD too. */
	const char *line[] = {NULL, NULL};
	char header[64];
	snprintf(header, sizeof header, "If-None-Match: %s", etag);
	line[0] = header;
	http_call(&http_fixture.direct, "HEAD", game.path, game.tokens[1], NULL, line, &response);
	ck_assert_int_eq(response.status, 304);
	http_response_free(&response);
	/* Writes are never 304: If-None-Match means nothing to a move (after a 7, end_turn is
	 * refused: that is no 304 either). */
	char path[160];
	http_game_path(&game, "/moves", path, sizeof path);
	http_call(&http_fixture.direct, "POST", path, game.tokens[0], "{\"type\": \"end_turn\"}", line, &response);
	ck_assert_msg(response.status == 201 || response.status == 422, "end_turn with If-None-Match: %s",
		      http_describe(&response));
	http_response_free(&response);
}
END_TEST

START_TEST(test_the_board_has_its_own_tag_that_moves_do_not_change)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}", &game);
	char path[160];
	http_game_path(&game, "/board", path, sizeof path);
	struct http_response response;
	get_if_none_match(path, NULL, NULL, &response);
	char tag[96];
	ck_assert_ptr_nonnull(http_response_header(&response, "ETag", tag, sizeof tag));
	ck_assert_msg(strncmp(tag, "\"board-", 7) == 0, "board ETag %s", tag);
	http_response_free(&response);
	/* The same for every reader. */
	char other[96];
	get_if_none_match(path, game.tokens[1], NULL, &response);
	ck_assert_ptr_nonnull(http_response_header(&response, "ETag", other, sizeof other));
	ck_assert_str_eq(other, tag);
	http_response_free(&response);
	/* A roll and the end of a turn change the game's version, not the board. */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\"}");
	get_if_none_match(path, NULL, tag, &response);
	ck_assert_msg(response.status == 304, "the board's tag changed after a roll: %s", http_describe(&response));
	http_response_free(&response);
	/* A game the bots play to the end: the tag changed exactly if the robber moved. */
	char players[512], body[640];
	http_players_json(3, 0x7, players, sizeof players);
	snprintf(body, sizeof body, "{\"players\": %s, \"options\": {\"layout\": \"beginner\"}}", players);
	struct http_game bots;
	http_game_create_body(&http_fixture.checked, body, &bots);
	http_game_path(&bots, "/board", path, sizeof path);
	get_if_none_match(path, NULL, NULL, &response);
	ck_assert_ptr_nonnull(http_response_header(&response, "ETag", tag, sizeof tag));
	long robber = (long)json_integer_value(json_object_get(response.json, "robber"));
	http_response_free(&response);
	ck_assert_msg(http_game_wait_finished(&http_fixture.checked, &bots, 60 * http_slowdown()),
		      "the bots did not finish");
	get_if_none_match(path, NULL, tag, &response);
	if (response.status == 304) {
		http_response_free(&response);
		get_if_none_match(path, NULL, NULL, &response);
		ck_assert_int_eq((long)json_integer_value(json_object_get(response.json, "robber")), robber);
	} else {
		ck_assert_int_eq(response.status, 200);
		ck_assert_int_ne((long)json_integer_value(json_object_get(response.json, "robber")), robber);
	}
	http_response_free(&response);
}
END_TEST

/* ---- The end of the stream ---- */

START_TEST(test_the_stream_ends_after_the_game_is_won)
{
	char players[512], body[640];
	http_players_json(4, 0xF, players, sizeof players);
	snprintf(body, sizeof body, "{\"players\": %s}", players);
	struct http_game game;
	http_game_create_body(&http_fixture.direct, body, &game);
	char path[160];
	http_game_path(&game, "/stream", path, sizeof path);
	/* Opened while the bots play: every event, then `end`, then the server closes. */
	double timeout = 90 * http_slowdown();
	struct http_stream stream;
	http_stream_read(http_fixture.server.url, path, NULL, NULL, 1000000, NULL, timeout, &stream);
	ck_assert_int_eq(stream.status, 200);
	ck_assert_msg(stream.seconds < timeout - 1, "the stream did not end (%.1f s, %d events)", stream.seconds,
		      stream.count);
	/* A provably fair game (the server drew its seed) reveals the seed after game_won. */
	json_t *view = http_get_ok(&http_fixture.direct, game.path, NULL);
	int fair = json_is_true(json_object_get(json_object_get(view, "fairness"), "provably_fair"));
	json_decref(view);
	ck_assert_int_ge(stream.count, 3 + fair);
	struct http_sse_event *end = &stream.events[stream.count - 1];
	struct http_sse_event *won = &stream.events[stream.count - 2 - fair];
	ck_assert_str_eq(end->type, "end");
	ck_assert_msg(end->id == -1, "the end event has an id (%ld)", end->id);
	ck_assert_str_eq(won->type, "game_won");
	long version = http_game_version(&http_fixture.direct, &game);
	ck_assert_int_eq(won->id + fair, version);
	if (fair)
		ck_assert_str_eq(stream.events[stream.count - 2].type, "server_seed_revealed");
	ck_assert_ptr_nonnull(end->data);
	ck_assert_int_eq(json_integer_value(json_object_get(end->data, "version")), version);
	for (int i = 0; i < stream.count - 1; i++)
		ck_assert_int_eq(stream.events[i].id, i + 1);
	http_stream_free(&stream);
	/* Reconnecting after the last event (as a browser does): only `end`, at once. */
	char last[24];
	snprintf(last, sizeof last, "%ld", version);
	http_stream_read(http_fixture.server.url, path, NULL, last, 1000000, NULL, 10, &stream);
	ck_assert_int_eq(stream.count, 1);
	ck_assert_str_eq(stream.events[0].type, "end");
	ck_assert_msg(stream.seconds < 5, "took %.1f s", stream.seconds);
	http_stream_free(&stream);
	/* Opened on the finished game from the middle: the rest of the log, then `end`. */
	http_stream_read(http_fixture.server.url, path, NULL, "10", 1000000, NULL, 10, &stream);
	ck_assert_int_eq(stream.count, version - 10 + 1);
	ck_assert_str_eq(stream.events[stream.count - 1].type, "end");
	http_stream_free(&stream);
}
END_TEST

START_TEST(test_a_stream_of_a_game_in_play_does_not_end)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	char path[160];
	http_game_path(&game, "/stream", path, sizeof path);
	struct http_stream stream;
	http_stream_read(http_fixture.server.url, path, NULL, NULL, 1000, NULL, 2, &stream);
	ck_assert_int_ge(stream.count, 1);
	for (int i = 0; i < stream.count; i++)
		ck_assert_str_ne(stream.events[i].type, "end");
	ck_assert_msg(stream.seconds >= 1.5, "the stream closed after %.1f s", stream.seconds);
	http_stream_free(&stream);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_frontend");
	TCase *cors = tcase_create("cors");
	tcase_set_timeout(cors, 60);
	http_fixture_add(cors, HTTP_FIXTURE_PRISM, fixture_settings);
	tcase_add_test(cors, test_preflights_answer_every_route_with_its_methods);
	tcase_add_test(cors, test_options_is_no_longer_405_and_unknown_paths_are_404);
	tcase_add_test(cors, test_every_answer_lets_any_origin_read_it_and_its_headers);
	tcase_add_test(cors, test_cors_origins_restricts_which_pages_may_read);
	tcase_add_test(cors, test_successes_tell_the_tokens_quota_or_the_addresss);
	tcase_add_test(cors, test_a_429_tells_the_quota_is_spent_and_when_it_is_back);
	tcase_add_test(cors, test_if_none_match_answers_304_when_the_caller_has_it);
	tcase_add_test(cors, test_the_board_has_its_own_tag_that_moves_do_not_change);
	tcase_add_test(cors, test_the_stream_ends_after_the_game_is_won);
	tcase_add_test(cors, test_a_stream_of_a_game_in_play_does_not_end);
	suite_add_tcase(suite, cors);
	return suite;
}
