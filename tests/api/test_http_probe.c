/*
 * test_http_probe.c - every route of the route table probed by a hostile stranger, with the
 * server's default settings, many times over (issue 20: "a hostile probe of every route").
 *
 * The routes come from the table itself (api/routes.c, linked here with the do-nothing
 * handlers of tests/fuzz/fuzz_handlers.c): a route added to the table is probed without a
 * line here, and the test fails unless each route was reached (answered by its handler,
 * not 404 route_not_found, 405, or the address's rate limit) at least once a round.
 *
 * Each request is built from the route's pattern with every capture replaced by a pick
 * from hostile values (a real game's id, a waiting game's, ids of the wrong length or
 * alphabet, percent-escapes and NULs, seat numbers out of range, huge numbers), a token
 * pick (none, malformed, oversized, another kind's: seat, admin, player, another game's),
 * a query pick (out-of-range and non-numeric values for every parameter the API reads,
 * ?token= where it is refused, a 4 KB query), a body pick of every JSON type and of
 * non-JSON (truncated, invalid UTF-8, 3,000 levels of nesting, members of every wrong type,
 * invisible names, a body near the size limit) with a right or wrong Content-Type, and
 * odd headers (If-Match, Idempotency-Key, Last-Event-ID, X-Request-Id, Origin, Accept).
 * Now and then the method is one the path does not take. Requests go over raw sockets
 * from 200 loopback addresses (so the per-address limits of the defaults are met as they
 * would be by many strangers, not by one), one connection each, read up to the answer's
 * head (streams are closed there) or its problem body.
 *
 * Must hold: every request is answered with a status line; no answer is a 5xx but the
 * documented 503s (database_unavailable, shutting_down, too_many_waiting, render_busy,
 * mail_disabled); /healthz answers after every round; and the server exits cleanly when
 * stopped (under the sanitizer build a leak or an error makes that exit fail).
 * PROBE_ROUNDS (default 8, about 10 s; 4,000 requests in 3 s on 2 cores) sets how many times over; each round draws new
 * picks.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "api/routes.h"
#include "engine/rng.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define REQUESTS_PER_ROUTE 24
#define ANSWER_MAX 16384

/* The server's own defaults, where the test fixture's differ (tests/api/http_process.c). */
static const char *const default_settings[] = {"RATE_LIMIT_IP=200",	  "RATE_LIMIT_TOKEN=50",
					       "CREATE_RATE_IP=60",	  "ALL_BOT_GAMES=0",
					       "WEBHOOK_ALLOW_PRIVATE=0", "THREADS=16",
					       "PLAYER_RATE_IP=30",	  "IMPORT_BYTES_IP=16777216",
					       "AWAY_RATE_SEAT=24",	  NULL};

struct probe_world {
	int port;
	char game[32], waiting[32];
	char seat_token[96], admin_token[96], player_token[96], waiting_admin[96], invite[96];
};

struct probe_answer {
	int status;
	char code[48];
	int stream;
};

/* ---- Hostile values ---- */

static const char *const game_ids[] = {
	NULL, /* the started game */
	NULL, /* the waiting game */
	"0000000000000000",
	"ffffffffffffffff",
	"0123456789ABCDEF",
	"0123",
	"0123456789abcdef0",
	"zzzzzzzzzzzzzzzz",
	"%00",
	"..",
	"%2e%2e",
	"-1",
	"%ff%fe",
	"\xc3\x28",
	"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	"7fffffffffffffff",
	"8000000000000000",
};
static const char *const numbers[] = {"0",	    "1",   "2",	   "3",	  "4",	"9",
				      "-1",	    "+1",  " 1",   "1e3", "x",	"99999999999999999999",
				      "2147483648", "%00", "0x10", "1.5", "%31"};
static const char *const files[] = {"index.js", "app.js",    "..%2f..%2fetc%2fpasswd", "%00", "x.css", "....",
				    "a%2fb",	"index.html"};
static const char *const queries[] = {
	"",
	"?after=-1",
	"?after=99999999999999999999&limit=0",
	"?limit=1e9&wait=abc",
	"?wait=61",
	"?version=%ff",
	"?version=0",
	"?version=2147483648",
	"?size=99999&labels=xyz&theme=%00",
	"?size=319&theme=dark&labels=nodes,edges,hexes,nodes",
	"?token=st_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
	"?cursor=zzz&status=waiting",
	"?status=finished&limit=101",
	"?sort=bad&waiting_for_me=maybe",
	"?code=%00%00&code=x",
	"?after=1.5.7",
	"?after=%E2%80%AE",
	"?limit=&after=&wait=",
	NULL, /* a 4 KB query */
};
static const char *const content_types[] = {"application/json", "application/json; charset=utf-8", "text/plain", NULL,
					    "application/jsonx"};

static char deep_body[6100];
static char big_body[16000];

static const char *const bodies[] = {
	NULL,
	"{}",
	"[]",
	"null",
	"12",
	"\"text\"",
	"{\"a\":",
	"\xff\xfe\xfd not json",
	NULL, /* deep nesting */
	"{\"name\": 1, \"players\": \"x\", \"seats\": 99, \"options\": [], \"events\": {}, \"url\": 5, \"format\": "
	"\"x\", "
	"\"mentions\": [], \"text\": [], \"invite\": null, \"address\": 7, \"type\": {}, \"give\": \"x\", \"get\": [], "
	"\"resources\": null, \"node\": -1, \"edge\": 1e99, \"dice\": \"x\", \"seed\": \"x\", \"public\": \"x\"}",
	"{\"name\": \"\\u3164\"}",
	"{\"text\": \"\\u202e\\u0000\"}",
	"{\"type\": \"roll\"}",
	"{\"type\": \"build_road\", \"edge\": 72}",
	"{\"url\": \"http://127.0.0.1:1/\"}",
	"{\"url\": \"https://discord.com/api/webhooks/1/x\", \"format\": \"discord\", \"mentions\": {\"0\": "
	"\"@everyone\"}}",
	"{\"address\": \"a@b\\r\\nBcc: c@d\"}",
	"{\"invite\": \"iv_x\", \"name\": \"   \"}",
	"{\"seats\": 3}",
	"{\"players\": [{\"bot\": true}, {\"bot\": true}, {\"bot\": true}]}",
	"{\"events\": [], \"seed\": \"12x\"}",
	"{\"events\": [1]}",
	"{\"events\": [{}], \"players\": null}",
	"{\"give\": {\"ore\": -1}, \"get\": {\"wool\": 99999999999}}",
	"{\"a\": 1, \"a\": 2}",
	NULL, /* a body near the size limit */
};

static const char *const extra_headers[] = {
	"",
	"If-Match: \"-1\"\r\n",
	"If-Match: *\r\n",
	"If-None-Match: \"\xff\"\r\n",
	"Idempotency-Key: "
	"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\r\n",
	"Idempotency-Key: \x01\x02\r\n",
	"Last-Event-ID: 1.2.3\r\n",
	"Last-Event-ID: 99999999999.1\r\n",
	"X-Request-Id: <script>\r\n",
	"Origin: https://evil.example\r\nAccess-Control-Request-Method: DELETE\r\n",
	"Accept: image/png\r\n",
	"Accept: */*;q=0, image/svg+xml\r\n",
	"Range: bytes=0-1\r\nExpect: 100-continue\r\n",
};

static void build_fillers(void)
{
	size_t at = 0;
	for (int i = 0; i < 3000; i++)
		deep_body[at++] = '[';
	for (int i = 0; i < 3000; i++)
		deep_body[at++] = ']';
	deep_body[at] = '\0';
	at = (size_t)snprintf(big_body, sizeof big_body, "{\"text\": \"");
	while (at < 15800)
		big_body[at++] = 'a';
	snprintf(big_body + at, sizeof big_body - at, "\"}");
}

/* ---- One request over a raw socket ---- */

static int connect_from(int source, int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	struct sockaddr_in local = {0}, remote = {0};
	local.sin_family = AF_INET;
	local.sin_addr.s_addr = htonl(0x7f000000u | (uint32_t)(2 + source % 200));
	remote.sin_family = AF_INET;
	remote.sin_port = htons((uint16_t)port);
	remote.sin_addr.s_addr = htonl(0x7f000001u);
	double seconds = 10 * http_slowdown();
	struct timeval timeout = {(time_t)seconds, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
	if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0 ||
	    connect(fd, (struct sockaddr *)&remote, sizeof remote) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* The value of header `name` in the head (up to its blank line), copied; "" when absent. */
static void head_value(const char *head, const char *name, char *out, size_t size)
{
	out[0] = '\0';
	size_t length = strlen(name);
	for (const char *line = strstr(head, "\r\n"); line && line[2] && !(line[2] == '\r' && line[3] == '\n');
	     line = strstr(line + 2, "\r\n")) {
		if (strncasecmp(line + 2, name, length) == 0 && line[2 + length] == ':') {
			const char *value = line + 3 + length;
			while (*value == ' ')
				value++;
			const char *end = strstr(value, "\r\n");
			size_t n = end ? (size_t)(end - value) : strlen(value);
			if (n >= size)
				n = size - 1;
			memcpy(out, value, n);
			out[n] = '\0';
			return;
		}
	}
}

/* Send `request` from loopback address number `source`; 1 with *answer, 0 with no answer
 * (*why says what happened). */
static int exchange(int port, int source, const char *request, size_t length, struct probe_answer *answer, char *why,
		    size_t why_size)
{
	memset(answer, 0, sizeof *answer);
	int fd = connect_from(source, port);
	if (fd < 0) {
		snprintf(why, why_size, "connect: %s", strerror(errno));
		return 0;
	}
	/* A refusal may come before the whole body was sent: sending stops there, reading goes on. */
	size_t sent = 0;
	while (sent < length) {
		ssize_t n = send(fd, request + sent, length - sent, MSG_NOSIGNAL);
		if (n <= 0)
			break;
		sent += (size_t)n;
	}
	static char buffer[ANSWER_MAX + 1];
	size_t got = 0;
	const char *head_end = NULL;
	size_t wanted = ANSWER_MAX;
	while (got < wanted) {
		ssize_t n = recv(fd, buffer + got, ANSWER_MAX - got, 0);
		if (n <= 0)
			break;
		got += (size_t)n;
		buffer[got] = '\0';
		if (!head_end && (head_end = strstr(buffer, "\r\n\r\n"))) {
			char type[96], content_length[32];
			head_value(buffer, "Content-Type", type, sizeof type);
			head_value(buffer, "Content-Length", content_length, sizeof content_length);
			answer->stream = strstr(type, "event-stream") != NULL;
			size_t head = (size_t)(head_end + 4 - buffer);
			if (answer->stream || !strstr(type, "problem+json"))
				wanted = head; /* the head says enough */
			else if (content_length[0])
				wanted = head + (size_t)atol(content_length) < ANSWER_MAX
						 ? head + (size_t)atol(content_length)
						 : ANSWER_MAX;
		}
	}
	close(fd);
	buffer[got] = '\0';
	if (got < 12 || strncmp(buffer, "HTTP/1.", 7) != 0) {
		snprintf(why, why_size, "no status line (%zu bytes: %.40s)", got, buffer);
		return 0;
	}
	answer->status = atoi(buffer + 9);
	const char *code = strstr(buffer, "\"code\":\"");
	if (code) {
		code += 8;
		size_t n = strcspn(code, "\"");
		if (n >= sizeof answer->code)
			n = sizeof answer->code - 1;
		memcpy(answer->code, code, n);
		answer->code[n] = '\0';
	}
	return 1;
}

/* ---- The world the probe plays in ---- */

static void make_world(struct probe_world *world, int port, const char *url)
{
	world->port = port;
	struct http_client client;
	http_client_init(&client, url, 0);
	struct http_game game;
	http_game_create(&client, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\"}", &game);
	snprintf(world->game, sizeof world->game, "%s", game.id);
	snprintf(world->seat_token, sizeof world->seat_token, "%s", game.tokens[0]);
	snprintf(world->admin_token, sizeof world->admin_token, "%s", game.admin_token);
	struct http_response response;
	http_call(&client, "POST", "/v1/games", NULL,
		  "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}]}", NULL, &response);
	ck_assert_msg(response.status == 201, "waiting game: %s", http_describe(&response));
	snprintf(world->waiting, sizeof world->waiting, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(world->waiting_admin, sizeof world->waiting_admin, "%s",
		 json_string_value(json_object_get(response.json, "admin_token")));
	snprintf(world->invite, sizeof world->invite, "%s",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
	char player_id[64];
	http_player_create(&client, "Probe", player_id, world->player_token);
	http_client_cleanup(&client);
}

/* The path of `route` with its captures picked by `rng`; NULL-free `out`. */
static void pick_path(const struct probe_world *world, const char *pattern, struct rng *rng, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (const char *at = pattern; *at && used < size - 1;) {
		if (*at != ':') {
			out[used++] = *at++;
			out[used] = '\0';
			continue;
		}
		const char *end = strchr(at, '/');
		size_t name_length = end ? (size_t)(end - at) : strlen(at);
		const char *value;
		if (strncmp(at, ":game", name_length) == 0 && name_length == 5) {
			int pick = (int)rng_below(rng, sizeof game_ids / sizeof game_ids[0] + 4);
			/* Real games most of the time: the handlers are reached past the id. */
			value = pick < 4 ? world->game : pick < 6 ? world->waiting : game_ids[pick - 4];
			if (!value)
				value = pick % 2 ? world->waiting : world->game;
		} else if (strncmp(at, ":file", name_length) == 0 && name_length == 5) {
			value = files[rng_below(rng, sizeof files / sizeof files[0])];
		} else {
			value = numbers[rng_below(rng, sizeof numbers / sizeof numbers[0])];
		}
		used += (size_t)snprintf(out + used, size - used, "%s", value);
		if (used >= size)
			used = size - 1;
		at += name_length;
	}
}

static const char *pick_token(const struct probe_world *world, struct rng *rng, char *scratch, size_t size)
{
	switch (rng_below(rng, 11)) {
	case 0:
	case 1:
		return NULL;
	case 2:
		return "Authorization: Bearer \r\n";
	case 3:
		return "Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l\r\n";
	case 4: {
		size_t at = (size_t)snprintf(scratch, size, "Authorization: Bearer ");
		while (at < 300 && at < size - 3)
			scratch[at++] = 'A';
		snprintf(scratch + at, size - at, "\r\n");
		return scratch;
	}
	case 5:
		snprintf(scratch, size, "Authorization: Bearer %s\r\n", world->seat_token);
		return scratch;
	case 6:
		snprintf(scratch, size, "Authorization: Bearer %s\r\n", world->admin_token);
		return scratch;
	case 7:
		snprintf(scratch, size, "Authorization: Bearer %s\r\n", world->player_token);
		return scratch;
	case 8:
		snprintf(scratch, size, "Authorization: Bearer %s\r\n", world->waiting_admin);
		return scratch;
	case 9:
		return "Authorization: Bearer st_\xff\xfe\r\n";
	default:
		return "Authorization: Bearer pt_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\r\n";
	}
}

static const char *const other_methods[] = {"PUT",  "PATCH",   "DELETE", "POST", "GET",
					    "HEAD", "OPTIONS", "TRACE",	 "BREW"};

/* Build one request for `route`; its length. */
static size_t build_request(const struct probe_world *world, const struct route *route, struct rng *rng, char *out,
			    size_t size)
{
	char path[512];
	pick_path(world, route->pattern, rng, path, sizeof path);
	const char *method = router_method_name(route->method);
	if (rng_below(rng, 10) == 0)
		method = other_methods[rng_below(rng, sizeof other_methods / sizeof other_methods[0])];
	const char *query = queries[rng_below(rng, sizeof queries / sizeof queries[0])];
	static char long_query[4200];
	if (!query) {
		size_t at = (size_t)snprintf(long_query, sizeof long_query, "?after=");
		for (; at < 4096; at++)
			long_query[at] = (char)('0' + at % 10);
		long_query[at] = '\0';
		query = long_query;
	}
	size_t body_pick = rng_below(rng, sizeof bodies / sizeof bodies[0]);
	const char *body = bodies[body_pick];
	if (body_pick == 8)
		body = deep_body;
	else if (body_pick == sizeof bodies / sizeof bodies[0] - 1)
		body = big_body;
	const char *type = content_types[rng_below(rng, sizeof content_types / sizeof content_types[0])];
	char token_scratch[400];
	const char *token = pick_token(world, rng, token_scratch, sizeof token_scratch);
	const char *extra = extra_headers[rng_below(rng, sizeof extra_headers / sizeof extra_headers[0])];
	size_t length = (size_t)snprintf(out, size, "%s %s%s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n%s%s",
					 method, path, query, token ? token : "", extra);
	if (body) {
		if (type)
			length += (size_t)snprintf(out + length, size - length, "Content-Type: %s\r\n", type);
		length += (size_t)snprintf(out + length, size - length, "Content-Length: %zu\r\n\r\n%s", strlen(body),
					   body);
	} else {
		length += (size_t)snprintf(out + length, size - length, "\r\n");
	}
	ck_assert_msg(length < size, "a probe request does not fit its buffer");
	return length;
}

/* 1 when a 5xx answer is one the contract documents. */
static int documented_5xx(const struct probe_answer *answer)
{
	static const char *const codes[] = {"database_unavailable", "shutting_down", "too_many_waiting", "render_busy",
					    "mail_disabled"};
	if (answer->status != 503)
		return 0;
	for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
		if (strcmp(answer->code, codes[i]) == 0)
			return 1;
	return 0;
}

/* 1 when the answer came from the route's handler (not the router or the address's limit). */
static int reached(const struct probe_answer *answer)
{
	return answer->status != 405 && strcmp(answer->code, "route_not_found") != 0 &&
	       !(answer->status == 429 && strcmp(answer->code, "rate_limited") == 0);
}

START_TEST(test_every_route_survives_hostile_requests_with_default_settings)
{
	build_fillers();
	struct http_server server;
	http_server_start(&server, default_settings);
	struct probe_world world;
	make_world(&world, server.port, server.url);
	struct http_client client;
	http_client_init(&client, server.url, 0);
	const char *rounds_text = getenv("PROBE_ROUNDS");
	int rounds = rounds_text && atoi(rounds_text) > 0 ? atoi(rounds_text) : 8;
	int count = routes()->count;
	ck_assert_int_gt(count, 40);
	static char request[24000];
	long total = 0, by_status[6] = {0};
	int source = 0;
	double started = http_clock();
	for (int round = 0; round < rounds; round++) {
		struct rng rng;
		rng_init(&rng, UINT64_C(0x9e0b) + (uint64_t)round, 0);
		for (int r = 0; r < count; r++) {
			const struct route *route = &routes()->routes[r];
			int hits = 0;
			for (int i = 0; i < REQUESTS_PER_ROUTE; i++) {
				size_t length = build_request(&world, route, &rng, request, sizeof request);
				struct probe_answer answer;
				char why[160];
				if (!exchange(world.port, source++, request, length, &answer, why, sizeof why)) {
					char tail[1024];
					http_log_tail(server.log_path, tail, sizeof tail);
					ck_abort_msg("%s: no answer (%s) to:\n%.300s\nserver log ends:\n%s",
						     route->pattern, why, request, tail);
				}
				total++;
				by_status[answer.status / 100 < 6 ? answer.status / 100 : 0]++;
				ck_assert_msg(answer.status < 500 || documented_5xx(&answer),
					      "%s: answered %d %s to:\n%.400s", route->pattern, answer.status,
					      answer.code, request);
				hits += reached(&answer);
			}
			ck_assert_msg(hits > 0, "round %d: no probe reached the handler of %s %s", round,
				      router_method_name(route->method), route->pattern);
		}
		struct http_response response;
		http_call(&client, "GET", "/healthz", NULL, NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "after round %d: %s", round, http_describe(&response));
		http_response_free(&response);
	}
	fprintf(stderr,
		"test_http_probe: %ld requests to %d routes in %d rounds, %.1f s: %ld 2xx, %ld 3xx, %ld 4xx, %ld 5xx "
		"(documented 503s)\n",
		total, count, rounds, http_clock() - started, by_status[2], by_status[3], by_status[4], by_status[5]);
	http_client_cleanup(&client);
	int status = http_server_stop(&server, 30);
	ck_assert_msg(status == 0, "the server did not exit cleanly after the probe (status %d; log %s)", status,
		      server.log_path);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_probe");
	TCase *probe = tcase_create("probe");
	tcase_set_timeout(probe, 300);
	tcase_add_test(probe, test_every_route_survives_hostile_requests_with_default_settings);
	suite_add_tcase(suite, probe);
	return suite;
}
