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
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

static void assert_alive_at(struct http_client *client)
{
	struct http_response response;
	http_call(client, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "the server stopped answering: %s", http_describe(&response));
	http_response_free(&response);
}

static void assert_alive(void)
{
	assert_alive_at(&http_fixture.direct);
}

/* 39 ASCII bytes and then a two-byte character: a cut at 40 bytes falls inside it. */
#define CUT_INSIDE "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9tail"

/* The body is a problem with this status and code, and its detail and field are valid
 * JSON strings (they parsed) that quote the client's text without breaking it. */
static void expect_problem(const char *method, const char *path, const char *token, const char *body, long status,
			   const char *code)
{
	struct http_response response;
	http_call(&http_fixture.direct, method, path, token, body, NULL, &response);
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
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}",
			 &game);
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
	http_call(&http_fixture.direct, "POST", "/v1/games", NULL,
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
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	char path[128];
	/* %00 must not cut the path: /v1/games/ID%00/board is no route of ours. */
	snprintf(path, sizeof path, "%s%%00/board", game.path);
	struct http_response response;
	http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 404, "%s: %s", path, http_describe(&response));
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/board%%00", game.path);
	http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 404, "%s: %s", path, http_describe(&response));
	http_response_free(&response);
	/* Bytes that are no UTF-8 still get a problem with its instance. */
	http_call(&http_fixture.direct, "GET", "/v1/games/%ff%fe%c3/board", NULL, NULL, NULL, &response);
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
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	static const char *const queries[] = {"limit=5abc", "limit=+5",	 "limit=%205", "after=-1",
					      "after=1e3",  "wait=0x10", "limit=",     "after=99999999999999999999"};
	for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
		char path[160];
		snprintf(path, sizeof path, "%s/moves?%s", game.path, queries[i]);
		expect_problem("GET", path, NULL, NULL, 400, "invalid_field");
	}
}
END_TEST

/* ---- Connection exhaustion ---- */

/* A TCP connection to 127.0.0.1:port from source address `source` (127.0.0.x), or -1. */
static int open_from(const char *source, int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	struct sockaddr_in local = {0}, remote = {0};
	local.sin_family = AF_INET;
	inet_pton(AF_INET, source, &local.sin_addr);
	remote.sin_family = AF_INET;
	remote.sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr);
	struct timeval timeout = {2, 0};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
	if (bind(fd, (struct sockaddr *)&local, sizeof local) != 0 ||
	    connect(fd, (struct sockaddr *)&remote, sizeof remote) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* 1 when the server has closed `fd` (a read sees the end or an error at once). */
static int closed_by_server(int fd)
{
	struct timeval timeout = {0, 200000};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
	char byte;
	ssize_t got = recv(fd, &byte, 1, 0);
	return got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
}

#define TRICKLERS 240

START_TEST(test_trickling_clients_cannot_take_the_server_off_the_air)
{
	static const char *const settings[] = {"MAX_CONNECTIONS=64", "MAX_CONNECTIONS_PER_IP=1000",
					       "REQUEST_TIMEOUT_S=2", "KEEPALIVE_TIMEOUT_S=2", NULL};
	struct http_server small;
	http_server_start(&small, settings);
	struct http_client client;
	http_client_init(&client, small.url, 0);
	/* Four times the server's capacity in connections that never finish their headers,
	 * from addresses other than the health checker's. */
	int fds[TRICKLERS];
	int opened = 0;
	for (int i = 0; i < TRICKLERS; i++) {
		char source[16];
		snprintf(source, sizeof source, "127.0.0.%d", 2 + i % 3);
		fds[i] = open_from(source, small.port);
		if (fds[i] >= 0) {
			opened++;
			static const char start_line[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
			(void)!send(fds[i], start_line, sizeof start_line - 1, MSG_NOSIGNAL);
		}
	}
	ck_assert_int_ge(opened, TRICKLERS / 2);
	/* While they trickle, a fresh client is answered at once, again and again. */
	double worst = 0;
	for (int round = 0; round < 8; round++) {
		for (int i = 0; i < TRICKLERS; i++)
			if (fds[i] >= 0)
				(void)!send(fds[i], "X: y\r\n", 6, MSG_NOSIGNAL);
		struct http_response response;
		http_call(&client, "GET", "/healthz", NULL, NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "health check during the flood: %s", http_describe(&response));
		if (response.seconds > worst)
			worst = response.seconds;
		http_response_free(&response);
		/* A game can still be created and played. */
		if (round == 4) {
			struct http_game game;
			http_game_create(&client, 3, NULL, &game);
		}
		http_pause(0.5);
	}
	ck_assert_msg(worst < 1.5 * http_slowdown(), "a health check took %.2f s during the flood", worst);
	/* A few seconds past REQUEST_TIMEOUT_S every trickler has been cut off. */
	http_pause(3.0);
	int still_open = 0;
	for (int i = 0; i < TRICKLERS; i++) {
		if (fds[i] < 0)
			continue;
		(void)!send(fds[i], "X: y\r\n", 6, MSG_NOSIGNAL);
		if (!closed_by_server(fds[i]))
			still_open++;
		close(fds[i]);
	}
	ck_assert_msg(still_open == 0, "%d trickling connections are still open", still_open);
	http_client_cleanup(&client);
	http_server_stop(&small, 30);
}
END_TEST

START_TEST(test_long_polls_cannot_take_every_connection)
{
	static const char *const settings[] = {"MAX_WAITING=4", NULL};
	struct http_server small;
	http_server_start(&small, settings);
	struct http_client client;
	http_client_init(&client, small.url, 0);
	struct http_game game;
	http_game_create(&client, 3, NULL, &game);
	long version = http_game_version(&client, &game);
	/* Four long-polls park on raw sockets, for 4 s. */
	char request[256];
	snprintf(request, sizeof request, "GET %s/moves?after=%ld&wait=4 HTTP/1.1\r\nHost: x\r\n\r\n", game.path,
		 version);
	int parked[4];
	for (int i = 0; i < 4; i++) {
		parked[i] = open_from("127.0.0.1", small.port);
		ck_assert_int_ge(parked[i], 0);
		ck_assert_int_gt(send(parked[i], request, strlen(request), MSG_NOSIGNAL), 0);
	}
	http_pause(0.5 * http_slowdown());
	/* The fifth is refused at once with 503 and Retry-After, and plain requests still work. */
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=20", game.path, version);
	struct http_response response;
	http_call(&client, "GET", path, NULL, NULL, NULL, &response);
	http_assert_problem(&response, 503, "too_many_waiting");
	char retry[16];
	ck_assert_ptr_nonnull(http_response_header(&response, "Retry-After", retry, sizeof retry));
	ck_assert_msg(response.seconds < 5, "the refusal took %.2f s", response.seconds);
	http_response_free(&response);
	http_game_path(&game, "/stream", path, sizeof path);
	http_call(&client, "GET", path, NULL, NULL, NULL, &response);
	http_assert_problem(&response, 503, "too_many_waiting");
	http_response_free(&response);
	assert_alive_at(&client);
	/* When the parked ones are gone, their places are free again (their clients left:
	 * test_a_client_that_leaves_gives_its_waiting_place_back_at_once says how soon). */
	for (int i = 0; i < 4; i++)
		close(parked[i]);
	double deadline = http_clock() + 10 * http_slowdown();
	long status = 0;
	while (http_clock() < deadline) {
		snprintf(path, sizeof path, "%s/moves?after=%ld&wait=1", game.path, version);
		http_call(&client, "GET", path, NULL, NULL, NULL, &response);
		status = response.status;
		http_response_free(&response);
		if (status == 200)
			break;
		http_pause(0.3);
	}
	ck_assert_int_eq(status, 200);
	http_client_cleanup(&client);
	http_server_stop(&small, 30);
}
END_TEST

/* Park a long-poll or stream `path` on a raw socket from `source` (127.0.0.x) with `token`
 * (NULL: none): the socket, or a failed test. Its answer is not read. */
static int park_raw(const char *source, int port, const char *path, const char *token)
{
	int fd = open_from(source, port);
	ck_assert_int_ge(fd, 0);
	char request[512];
	snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: x\r\n%s%s%s\r\n", path,
		 token ? "Authorization: Bearer " : "", token ? token : "", token ? "\r\n" : "");
	ck_assert_int_gt(send(fd, request, strlen(request), MSG_NOSIGNAL), 0);
	return fd;
}

/* Wait until /metrics counts `wanted` waiters (parked requests), at most 5 s. */
static void await_waiters(struct http_client *client, long wanted)
{
	double deadline = http_clock() + 5 * http_slowdown();
	long now = -1;
	while (http_clock() < deadline && (now = http_metric(client, "catan_long_poll_waiters")) < wanted)
		http_pause(0.05);
	ck_assert_msg(now >= wanted, "%ld waiters parked, %ld wanted", now, wanted);
}

#define PER_TOKEN 3
#define PER_ADDRESS 5

START_TEST(test_one_token_or_one_address_cannot_take_every_waiting_place)
{
	/* Issue 20, item 6: one player token's parked feeds filled MAX_WAITING, and every
	 * other client's long-poll and stream was refused 503. */
	static const char *const settings[] = {"MAX_WAITING=100", "MAX_WAITING_PER_TOKEN=3", "MAX_WAITING_PER_IP=5",
					       NULL};
	struct http_server small;
	http_server_start(&small, settings);
	struct http_proxy prism;
	http_proxy_start(&prism, small.url, 1);
	struct http_client client, checked;
	http_client_init(&client, small.url, 0);
	http_client_init(&checked, prism.url, 1);
	char player_id[64], player_token[128];
	http_player_create(&client, "Ann", player_id, player_token);
	struct http_game game;
	http_game_create(&client, 3, NULL, &game);
	long version = http_game_version(&client, &game);
	/* One token: PER_TOKEN feeds park (from two addresses), the next is refused with 429. */
	int parked[PER_TOKEN + PER_ADDRESS];
	int count = 0;
	for (int i = 0; i < PER_TOKEN; i++)
		parked[count++] = park_raw(i % 2 ? "127.0.0.3" : "127.0.0.2", small.port, "/v1/players/me/feed?wait=30",
					   player_token);
	await_waiters(&client, PER_TOKEN);
	struct http_response response;
	http_call(&checked, "GET", "/v1/players/me/feed?wait=30", player_token, NULL, NULL, &response);
	http_assert_problem(&response, 429, "waiting_quota");
	char retry[16];
	ck_assert_ptr_nonnull(http_response_header(&response, "Retry-After", retry, sizeof retry));
	ck_assert_msg(response.seconds < 5, "the refusal took %.2f s", response.seconds);
	http_response_free(&response);
	/* The token's stream is refused too; nobody else is: another token's long-poll and a
	 * spectator's stream from the same addresses are admitted. */
	http_call(&client, "GET", "/v1/players/me/stream", player_token, NULL, NULL, &response);
	http_assert_problem(&response, 429, "waiting_quota");
	http_response_free(&response);
	char path[192];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=1", game.path, version);
	http_call(&checked, "GET", path, game.tokens[0], NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "another token's long-poll: %s", http_describe(&response));
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/actions?after=%ld&wait=1", game.path, version);
	http_call(&checked, "GET", path, game.tokens[1], NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "another token's wait for its turn: %s", http_describe(&response));
	http_response_free(&response);

	/* One address: PER_ADDRESS spectators' long-polls from 127.0.0.4 (no token) hold its
	 * places, the next from there is refused with 429, one from elsewhere is admitted. */
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=30", game.path, version);
	for (int i = 0; i < PER_ADDRESS; i++)
		parked[count++] = park_raw("127.0.0.4", small.port, path, NULL);
	await_waiters(&client, PER_TOKEN + PER_ADDRESS);
	int refused = park_raw("127.0.0.4", small.port, path, NULL);
	char answer[2048] = "";
	struct timeval timeout = {5, 0};
	setsockopt(refused, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
	ssize_t got = recv(refused, answer, sizeof answer - 1, 0);
	ck_assert_msg(got > 0, "no answer to the address's long-poll past its limit");
	answer[got] = '\0';
	ck_assert_msg(strncmp(answer, "HTTP/1.1 429", 12) == 0 && strstr(answer, "waiting_quota") &&
			      strstr(answer, "Retry-After"),
		      "past the address's limit: %.300s", answer);
	close(refused);
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=1", game.path, version);
	http_call(&checked, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "a spectator from another address: %s", http_describe(&response));
	http_response_free(&response);
	/* What was refused changed nothing: the game is where it was. */
	ck_assert_int_eq(http_game_version(&client, &game), version);
	for (int i = 0; i < count; i++)
		close(parked[i]);
	assert_alive_at(&client);
	http_client_cleanup(&checked);
	http_client_cleanup(&client);
	http_proxy_stop(&prism);
	http_server_stop(&small, 30);
}
END_TEST

START_TEST(test_a_client_that_leaves_gives_its_waiting_place_back_at_once)
{
	/* Issue 20, item 6: a closed socket kept its place until its wait ended. */
	static const char *const settings[] = {"MAX_WAITING=3", NULL};
	struct http_server small;
	http_server_start(&small, settings);
	struct http_client client;
	http_client_init(&client, small.url, 0);
	char player_id[64], player_token[128];
	http_player_create(&client, "Ann", player_id, player_token);
	struct http_game game;
	http_game_create(&client, 3, NULL, &game);
	long version = http_game_version(&client, &game);
	/* Every place taken, for a minute: a long-poll, a game's stream and a player's feed. */
	char path[192];
	int parked[3];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=60", game.path, version);
	parked[0] = park_raw("127.0.0.1", small.port, path, game.tokens[0]);
	http_game_path(&game, "/stream", path, sizeof path);
	parked[1] = park_raw("127.0.0.1", small.port, path, NULL);
	parked[2] = park_raw("127.0.0.1", small.port, "/v1/players/me/feed?wait=60", player_token);
	await_waiters(&client, 3);
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=1", game.path, version);
	struct http_response response;
	http_call(&client, "GET", path, NULL, NULL, NULL, &response);
	http_assert_problem(&response, 503, "too_many_waiting");
	http_response_free(&response);
	long departed = http_metric(&client, "catan_waiters_departed_total");
	/* The clients leave: within about a second their places are free again. */
	double left = http_clock();
	for (int i = 0; i < 3; i++)
		close(parked[i]);
	double admitted = -1;
	while (http_clock() - left < 10 * http_slowdown()) {
		double asked = http_clock();
		http_call(&client, "GET", path, NULL, NULL, NULL, &response);
		long status = response.status;
		http_response_free(&response);
		if (status == 200) {
			admitted = asked - left;
			break;
		}
		ck_assert_int_eq(status, 503);
		http_pause(0.05);
	}
	ck_assert_msg(admitted >= 0, "the places of departed clients were not given back");
	ck_assert_msg(admitted < 1.0 * http_slowdown(), "a departed client's place came back after %.2f s", admitted);
	fprintf(stderr, "test_http_hostile: departed clients' places free after %.3f s\n", admitted);
	/* All three, each counted once. */
	double deadline = http_clock() + 3 * http_slowdown();
	while (http_clock() < deadline && http_metric(&client, "catan_waiters_departed_total") - departed < 3)
		http_pause(0.05);
	ck_assert_int_eq(http_metric(&client, "catan_waiters_departed_total") - departed, 3);
	assert_alive_at(&client);
	http_client_cleanup(&client);
	http_server_stop(&small, 30);
}
END_TEST

/* ---- Game creation, headers, webhooks ---- */

START_TEST(test_game_creation_has_a_quota_per_address_and_an_optional_key)
{
	/* The quota is counted in the one test database: this test's client is an address of
	 * its own, forwarded by the trusted proxy that the test client pretends to be. */
	static const char *const quota[] = {"CREATE_RATE_IP=3600", "ALL_BOT_GAMES=0", "TRUSTED_PROXIES=127.0.0.1",
					    NULL};
	struct http_server limited;
	http_server_start(&limited, quota);
	struct http_client client;
	http_client_init(&client, limited.url, 0);
	char address[16], forwarded[48];
	snprintf(forwarded, sizeof forwarded, "X-Forwarded-For: %s", http_unique_address(address, sizeof address));
	const char *const as_client[] = {forwarded, NULL};
	/* The burst (20) passes, then the address must wait. */
	int created = 0;
	long refused = 0;
	for (int i = 0; i < 40 && !refused; i++) {
		struct http_response response;
		http_call(&client, "POST", "/v1/games", NULL, "{\"seats\": 3}", as_client, &response);
		if (response.status == 201)
			created++;
		else
			refused = response.status;
		if (refused) {
			http_assert_problem(&response, 429, "create_quota");
			char retry[16];
			ck_assert_ptr_nonnull(http_response_header(&response, "Retry-After", retry, sizeof retry));
		}
		http_response_free(&response);
	}
	ck_assert_int_eq(refused, 429);
	ck_assert_int_ge(created, 20);
	ck_assert_int_le(created, 22);
	http_client_cleanup(&client);
	http_server_stop(&limited, 30);

	static const char *const keyed[] = {"CREATE_KEY=0123456789abcdef-key", "ALL_BOT_GAMES=0", NULL};
	struct http_server closed;
	http_server_start(&closed, keyed);
	http_client_init(&client, closed.url, 0);
	struct http_response response;
	http_call(&client, "POST", "/v1/games", NULL, "{\"seats\": 3}", NULL, &response);
	http_assert_problem(&response, 403, "create_key_required");
	http_response_free(&response);
	http_call(&client, "POST", "/v1/games", "wrong-key-wrong-key", "{\"seats\": 3}", NULL, &response);
	http_assert_problem(&response, 403, "create_key_required");
	http_response_free(&response);
	http_call(&client, "POST", "/v1/games", "0123456789abcdef-key", "{\"seats\": 3}", NULL, &response);
	ck_assert_msg(response.status == 201, "with the key: %s", http_describe(&response));
	http_response_free(&response);
	/* Bots only: the key is needed (and enough). */
	static const char bots_only[] = "{\"players\": [{\"bot\": true}, {\"bot\": true}, {\"bot\": true}]}";
	http_call(&client, "POST", "/v1/games", "0123456789abcdef-key", bots_only, NULL, &response);
	ck_assert_msg(response.status == 201, "bots with the key: %s", http_describe(&response));
	http_response_free(&response);
	http_client_cleanup(&client);
	http_server_stop(&closed, 30);
	/* Without a key configured, nobody may start a game of bots only (ALL_BOT_GAMES=0). */
	static const char *const open_server[] = {"ALL_BOT_GAMES=0", NULL};
	struct http_server open_one;
	http_server_start(&open_one, open_server);
	http_client_init(&client, open_one.url, 0);
	http_call(&client, "POST", "/v1/games", NULL, bots_only, NULL, &response);
	http_assert_problem(&response, 403, "create_key_required");
	http_response_free(&response);
	http_client_cleanup(&client);
	http_server_stop(&open_one, 30);
}
END_TEST

START_TEST(test_names_with_control_or_bidi_characters_are_refused)
{
	static const char *const bodies[] = {
		"{\"players\": [{\"name\": \"Ann\\u202e\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
		"{\"players\": [{\"name\": \"Ann\\u0007\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
		"{\"players\": [{\"name\": \"Ann\\u2066x\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
		"{\"players\": [{\"name\": \"Ann\\u200b\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++)
		expect_problem("POST", "/v1/games", NULL, bodies[i], 400, "invalid_field");
}
END_TEST

/* Names that show nothing, as JSON strings (issue 20, item 13). */
static const char *const invisible_names[] = {
	"\\u3164",				      /* HANGUL FILLER */
	"   ",					      /* spaces only */
	"\\u00ad",				      /* a soft hyphen */
	"\\udb40\\udc41\\udb40\\udc42\\udb40\\udc7f", /* tag characters */
	"\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301"
	"\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301"
	"\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301"
	"\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301\\u0301", /* 40 combining marks */
	"\\u2800",								  /* braille pattern blank */
};

/* A 400 invalid_field naming `field` whose detail says the name shows nothing. */
static void expect_invisible(const char *method, const char *path, const char *token, const char *body,
			     const char *field)
{
	struct http_response response;
	http_call(&http_fixture.direct, method, path, token, body, NULL, &response);
	http_assert_problem(&response, 400, "invalid_field");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), field);
	const char *detail = json_string_value(json_object_get(response.json, "detail"));
	ck_assert_msg(detail && strstr(detail, "shows"), "%s %s: detail %s", method, path, detail);
	http_response_free(&response);
}

START_TEST(test_names_that_show_nothing_are_refused_everywhere_a_name_is_given)
{
	/* A waiting game with open seats, for joining and for a bot's name. */
	struct http_response response;
	http_call(&http_fixture.direct, "POST", "/v1/games", NULL,
		  "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}]}", NULL, &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	char id[32], admin[64], invite[64];
	snprintf(id, sizeof id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(admin, sizeof admin, "%s", json_string_value(json_object_get(response.json, "admin_token")));
	snprintf(invite, sizeof invite, "%s",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
	char join_path[96], bot_path[96], seats_path[96];
	snprintf(join_path, sizeof join_path, "/v1/games/%s/join", id);
	snprintf(bot_path, sizeof bot_path, "/v1/games/%s/seats/1/bot", id);
	snprintf(seats_path, sizeof seats_path, "/v1/games/%s/seats", id);
	json_t *seats_before = http_get_ok(&http_fixture.direct, seats_path, NULL);
	for (size_t i = 0; i < sizeof invisible_names / sizeof invisible_names[0]; i++) {
		char body[1024];
		snprintf(body, sizeof body,
			 "{\"players\": [{\"name\": \"%s\"}, {\"name\": \"Bob\"}, {\"name\": \"Cy\"}]}",
			 invisible_names[i]);
		expect_invisible("POST", "/v1/games", NULL, body, "players[0].name");
		snprintf(body, sizeof body, "{\"name\": \"%s\"}", invisible_names[i]);
		expect_invisible("POST", "/v1/players", NULL, body, "name");
		expect_invisible("POST", bot_path, admin, body, "name");
		snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"%s\"}", invite, invisible_names[i]);
		expect_invisible("POST", join_path, NULL, body, "name");
	}
	/* Nobody joined and no bot sat down: the waiting game is as it was. */
	json_t *seats_after = http_get_ok(&http_fixture.direct, seats_path, NULL);
	ck_assert_msg(json_equal(seats_before, seats_after), "a refused name changed the seats");
	json_decref(seats_before);
	json_decref(seats_after);
	/* A name that shows something, with invisible characters beside it, is a name. */
	http_call(&http_fixture.direct, "POST", "/v1/players", NULL, "{\"name\": \" \\u3164Ann\\u00ad \"}", NULL,
		  &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	http_response_free(&response);
	assert_alive();
}
END_TEST

START_TEST(test_every_answer_carries_security_headers_and_private_views_are_not_cached)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	struct http_response response;
	char value[128];
	/* A spectator's view, a seat's view, a problem. */
	http_call(&http_fixture.direct, "GET", game.path, NULL, NULL, NULL, &response);
	ck_assert_ptr_nonnull(http_response_header(&response, "X-Content-Type-Options", value, sizeof value));
	ck_assert_str_eq(value, "nosniff");
	ck_assert_ptr_nonnull(http_response_header(&response, "Content-Security-Policy", value, sizeof value));
	ck_assert_msg(strstr(value, "default-src 'none'") != NULL, "CSP: %s", value);
	ck_assert_ptr_null(http_response_header(&response, "Cache-Control", value, sizeof value));
	http_response_free(&response);
	http_call(&http_fixture.direct, "GET", game.path, game.tokens[1], NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_ptr_nonnull(http_response_header(&response, "Cache-Control", value, sizeof value));
	ck_assert_msg(strstr(value, "private") && strstr(value, "no-store"), "seat view Cache-Control: %s", value);
	ck_assert_ptr_nonnull(http_response_header(&response, "Vary", value, sizeof value));
	ck_assert_msg(strstr(value, "Authorization") != NULL, "Vary: %s", value);
	http_response_free(&response);
	http_call(&http_fixture.direct, "GET", "/v1/nothing", NULL, NULL, NULL, &response);
	ck_assert_ptr_nonnull(http_response_header(&response, "X-Content-Type-Options", value, sizeof value));
	http_response_free(&response);
}
END_TEST

START_TEST(test_webhooks_cannot_reach_inner_addresses_or_carry_credentials)
{
	static const char *const strict[] = {"WEBHOOK_ALLOW_PRIVATE=0", NULL};
	struct http_server guarded;
	http_server_start(&guarded, strict);
	struct http_client client;
	http_client_init(&client, guarded.url, 0);
	struct http_game game;
	http_game_create(&client, 3, NULL, &game);
	char path[128];
	http_game_path(&game, "/webhooks", path, sizeof path);
	static const char *const refused[] = {
		"http://127.0.0.1:9/hook", "http://localhost/hook",	     "http://10.1.2.3/hook",
		"http://192.168.1.1/hook", "http://169.254.169.254/latest",  "http://[::1]/hook",
		"http://[fe80::1]/hook",   "http://[::ffff:127.0.0.1]/hook", "http://user:pw@example.com/hook",
		"http://0.0.0.0/hook",	   "ftp://example.com/hook",	     "http://100.64.0.1/hook",
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		char body[256];
		snprintf(body, sizeof body, "{\"url\": \"%s\"}", refused[i]);
		struct http_response response;
		http_call(&client, "POST", path, game.admin_token, body, NULL, &response);
		ck_assert_msg(response.status == 400, "%s: %s", refused[i], http_describe(&response));
		http_assert_problem(&response, 400, "invalid_field");
		http_response_free(&response);
	}
	/* The check at connect time (a name resolving to an inner address) is tested on the
	 * addresses themselves in tests/api/test_destination.c. */
	struct http_response response;
	/* Caps: five per owner. */
	int created = 0, capped = 0;
	for (int i = 0; i < 7; i++) {
		char body[128];
		snprintf(body, sizeof body, "{\"url\": \"https://example.com/hook/%d\"}", i);
		http_call(&client, "POST", path, game.admin_token, body, NULL, &response);
		if (response.status == 201)
			created++;
		else if (response.status == 409)
			capped++, http_assert_problem(&response, 409, "too_many_webhooks");
		http_response_free(&response);
	}
	ck_assert_int_le(created, 5);
	ck_assert_int_ge(capped, 2);
	http_client_cleanup(&client);
	http_server_stop(&guarded, 30);
}
END_TEST

/* ---- A server whose database is gone ---- */

/* CPU seconds (user + system) the process has used so far. */
static double cpu_seconds(pid_t pid)
{
	char path[64], line[1024];
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	FILE *file = fopen(path, "r");
	ck_assert_ptr_nonnull(file);
	ck_assert_ptr_nonnull(fgets(line, sizeof line, file));
	fclose(file);
	/* Fields after the command's closing parenthesis: state is field 3, utime 14, stime 15. */
	const char *at = strrchr(line, ')');
	ck_assert_ptr_nonnull(at);
	unsigned long utime = 0, stime = 0;
	ck_assert_int_eq(sscanf(at + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &utime, &stime), 2);
	return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

START_TEST(test_without_its_database_the_server_idles_and_stops_promptly)
{
	if (!http_pg_script()) {
		fprintf(stderr, "test_without_its_database: DATABASE_URL was given from outside; not stopping it\n");
		return;
	}
	static const char *const settings[] = {"WORKERS=2", "WEBHOOK_WORKERS=2", NULL};
	struct http_server alone;
	http_server_start(&alone, settings);
	struct http_client client;
	http_client_init(&client, alone.url, 0);
	struct http_game game;
	http_game_create(&client, 3, NULL, &game);
	http_pg_control("stop");
	http_pause(1.0);
	/* Background threads back off instead of spinning: a few percent of one core at most. */
	double before = cpu_seconds(alone.pid);
	http_pause(4.0);
	double used = cpu_seconds(alone.pid) - before;
	ck_assert_msg(used < 0.4 * http_slowdown(), "%.2f s of CPU in 4 s without a database", used);
	/* It says so: /readyz is 503 and /metrics counts the retries. */
	struct http_response response;
	http_call(&client, "GET", "/readyz", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 503);
	http_response_free(&response);
	http_call(&client, "GET", "/metrics", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	const char *retries = strstr(response.body, "\ncatan_background_retries_total ");
	ck_assert_ptr_nonnull(retries);
	ck_assert_msg(atol(retries + strlen("\ncatan_background_retries_total ")) > 0, "no retries counted");
	const char *backing_off = strstr(response.body, "\ncatan_background_backing_off ");
	ck_assert_ptr_nonnull(backing_off);
	ck_assert_msg(atol(backing_off + strlen("\ncatan_background_backing_off ")) >= 1, "no thread backing off");
	http_response_free(&response);
	http_client_cleanup(&client);
	/* SIGTERM ends it within seconds although the database cannot be reached. */
	double start = http_clock();
	int status = http_server_stop(&alone, 20);
	double took = http_clock() - start;
	http_pg_control("start");
	ck_assert_msg(status == 0, "the server did not exit cleanly (status %d)", status);
	ck_assert_msg(took < 8.0 * http_slowdown(), "stopping took %.1f s", took);
}
END_TEST

/* ---- Bot work shared fairly ---- */

/* 1 when GET .../actions says the game waits for `seat`. */
static int waits_for(struct http_client *client, const struct http_game *game, int seat)
{
	char path[128];
	http_game_path(game, "/actions", path, sizeof path);
	json_t *actions = http_get_ok(client, path, NULL);
	json_t *waiting = json_object_get(actions, "waiting_for");
	int found = 0;
	size_t index;
	json_t *value;
	json_array_foreach(waiting, index, value) found |= json_integer_value(value) == seat;
	json_decref(actions);
	return found;
}

#define BOT_GAMES 40

START_TEST(test_games_of_bots_cannot_hold_the_workers_from_a_human_game)
{
	static const char *const settings[] = {"WORKERS=2", NULL};
	struct http_server busy;
	http_server_start(&busy, settings);
	struct http_client client;
	http_client_init(&client, busy.url, 0);
	/* Forty games of four bots each: every one of them is work due now. */
	for (int i = 0; i < BOT_GAMES; i++) {
		char players[512], body[640];
		http_players_json(4, 0xF, players, sizeof players);
		snprintf(body, sizeof body, "{\"players\": %s, \"options\": {\"start\": \"fixed\"}}", players);
		struct http_game game;
		http_game_create_body(&client, body, &game);
	}
	/* Then a human's game whose first two turns are the bots': the human waits for them
	 * (and answers none of their offers: offer_wait_s 0 has the bots carry on at once). */
	char players[512], body[640];
	http_players_json(3, 0x6, players, sizeof players);
	snprintf(body, sizeof body,
		 "{\"players\": %s, \"options\": {\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 1, "
		 "\"offer_wait_s\": 0}}",
		 players);
	struct http_game human;
	double start = http_clock();
	http_game_create_body(&client, body, &human);
	double waited = -1;
	while (http_clock() - start < 60 * http_slowdown()) {
		if (waits_for(&client, &human, 0)) {
			waited = http_clock() - start;
			break;
		}
		http_pause(0.05);
	}
	ck_assert_msg(waited >= 0, "the bots of the human's game never finished their turns");
	ck_assert_msg(waited < 3.0 * http_slowdown(), "the human waited %.1f s for two bot turns beside %d bot games",
		      waited, BOT_GAMES);
	http_client_cleanup(&client);
	http_server_stop(&busy, 30);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_hostile");
	TCase *hostile = tcase_create("hostile");
	tcase_set_timeout(hostile, 120);
	http_fixture_add(hostile, 0, NULL);
	tcase_add_test(hostile, test_client_text_cut_inside_a_character_is_quoted_not_a_crash);
	tcase_add_test(hostile, test_control_and_bidi_characters_are_escaped_where_quoted);
	tcase_add_test(hostile, test_paths_with_nul_or_invalid_utf8_are_not_found_with_an_instance);
	tcase_add_test(hostile, test_numbers_in_queries_are_digits_only);
	tcase_add_test(hostile, test_trickling_clients_cannot_take_the_server_off_the_air);
	tcase_add_test(hostile, test_long_polls_cannot_take_every_connection);
	tcase_add_test(hostile, test_one_token_or_one_address_cannot_take_every_waiting_place);
	tcase_add_test(hostile, test_a_client_that_leaves_gives_its_waiting_place_back_at_once);
	tcase_add_test(hostile, test_game_creation_has_a_quota_per_address_and_an_optional_key);
	tcase_add_test(hostile, test_names_with_control_or_bidi_characters_are_refused);
	tcase_add_test(hostile, test_names_that_show_nothing_are_refused_everywhere_a_name_is_given);
	tcase_add_test(hostile, test_every_answer_carries_security_headers_and_private_views_are_not_cached);
	tcase_add_test(hostile, test_webhooks_cannot_reach_inner_addresses_or_carry_credentials);
	tcase_add_test(hostile, test_without_its_database_the_server_idles_and_stops_promptly);
	tcase_add_test(hostile, test_games_of_bots_cannot_hold_the_workers_from_a_human_game);
	suite_add_tcase(suite, hostile);
	return suite;
}
