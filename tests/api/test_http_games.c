/*
 * test_http_games.c - complete games played to a winner over HTTP alone, through Prism.
 *
 * One server on the test database, one Prism proxy in front of it (`prism proxy --errors`
 * over openapi/openapi.yaml): every request and every response of these tests crosses the
 * proxy, so a response that breaks the spec fails the test where it happens. Seats play by
 * their tokens only, choosing random moves from GET .../actions (tests/api/http_support.c),
 * on 3- and 4-seat games, beginner and random boards, with domestic trades. The games'
 * seeds are random (the server draws them); the player's choices are seeded and the seed
 * printed, so a failure names its game and moves.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MAX_MOVES 5000

/* Play one game to its end through the proxy and check what a finished game shows. */
static void play_complete_game(int seats, const char *options, int trades)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, seats, options, &game);
	uint64_t seed = http_random64();
	struct http_player player;
	http_player_init(&player, &http_fixture.checked, &game, seed, trades);
	double started = http_clock();
	int moves = http_player_finish(&player, MAX_MOVES);
	fprintf(stderr,
		"game %s (%d seats, %s, player seed %llu): %d moves in %.1f s; offers %d, counter-offers %d, "
		"accepts %d, declines %d, confirms %d, withdrawals %d\n",
		game.id, seats, options, (unsigned long long)seed, moves, http_clock() - started, player.offers,
		player.counter_offers, player.accepts, player.declines, player.confirms, player.withdrawals);

	/* The finished game everywhere: the view, the log's last events (game_won, and in a
	 * provably fair game the server seed revealed after it), no actions left. */
	json_t *view = http_get_ok(&http_fixture.checked, game.path, game.tokens[0]);
	int winner = (int)json_integer_value(json_object_get(view, "winner"));
	long version = (long)json_integer_value(json_object_get(view, "version"));
	json_t *players = json_object_get(view, "players");
	ck_assert_int_ge(json_integer_value(json_object_get(json_array_get(players, (size_t)winner), "victory_points")),
			 10);
	json_t *fairness = json_object_get(view, "fairness");
	int fair = json_is_true(json_object_get(fairness, "provably_fair"));
	char path[128];
	snprintf(path, sizeof path, "%s/moves?after=%ld", game.path, version - 1 - fair);
	json_t *log = http_get_ok(&http_fixture.checked, path, NULL);
	json_t *events = json_object_get(log, "events");
	ck_assert_int_eq(json_array_size(events), 1 + fair);
	json_t *last = json_array_get(events, 0);
	ck_assert_str_eq(json_string_value(json_object_get(last, "type")), "game_won");
	ck_assert_int_eq(json_integer_value(json_object_get(last, "seat")), winner);
	if (fair) {
		json_t *revealed = json_array_get(events, 1);
		ck_assert_str_eq(json_string_value(json_object_get(revealed, "type")), "server_seed_revealed");
		ck_assert_str_eq(json_string_value(json_object_get(revealed, "server_seed")),
				 json_string_value(json_object_get(fairness, "server_seed")));
	}
	json_decref(log);
	json_decref(view);
	for (int s = 0; s < seats; s++) {
		json_t *actions = http_get_ok(&http_fixture.checked,
					      http_game_path(&game, "/actions", path, sizeof path), game.tokens[s]);
		ck_assert_int_eq(json_array_size(json_object_get(actions, "actions")), 0);
		json_decref(actions);
	}
	/* A finished game refuses moves. */
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/moves", path, sizeof path),
		  game.tokens[winner], "{\"type\": \"end_turn\"}", NULL, &response);
	http_assert_problem(&response, 422, "game_finished");
	http_response_free(&response);
	if (trades)
		ck_assert_msg(player.offers + player.counter_offers > 0, "trades were offered");
}

START_TEST(test_three_seats_beginner_board_with_trades_to_a_winner)
{
	play_complete_game(3, "{\"layout\": \"beginner\"}", 1);
}
END_TEST

START_TEST(test_four_seats_random_board_with_trades_to_a_winner)
{
	play_complete_game(4, "{\"layout\": \"random\", \"numbers\": \"random\"}", 1);
}
END_TEST

START_TEST(test_four_seats_beginner_board_to_a_winner)
{
	play_complete_game(4, "{\"layout\": \"beginner\", \"start\": \"draft\"}", 0);
}
END_TEST

START_TEST(test_three_seats_random_board_manual_dice_to_a_winner)
{
	play_complete_game(3, "{\"layout\": \"random\", \"dice\": \"manual\"}", 1);
}
END_TEST

/* Every resource about a game carries ETag: "<version>" (http_get_ok checks it against
 * the body's version), the same for every reader. The board has its own tag, which moves
 * do not change (issue 11; tests/api/test_http_frontend.c). */
START_TEST(test_every_game_resource_carries_its_version_as_etag)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, NULL, &game);
	struct http_player player;
	http_player_init(&player, &http_fixture.checked, &game, 7, 0);
	for (int i = 0; i < 5; i++)
		ck_assert(http_player_step(&player, NULL));
	long version = http_game_version(&http_fixture.checked, &game);
	ck_assert_int_gt(version, 5);
	static const char *const suffixes[] = {"", "/actions", "/players", "/trades", "/moves?after=0"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		char path[128];
		http_game_path(&game, suffixes[i], path, sizeof path);
		for (int viewer = -1; viewer < game.seats; viewer++) {
			struct http_response response;
			http_call(&http_fixture.checked, "GET", path, viewer < 0 ? NULL : game.tokens[viewer], NULL,
				  NULL, &response);
			ck_assert_msg(response.status == 200, "GET %s: %s", path, http_describe(&response));
			char etag[32], expected[32];
			snprintf(expected, sizeof expected, "\"%ld\"", version);
			ck_assert_msg(http_response_header(&response, "ETag", etag, sizeof etag) != NULL,
				      "GET %s: no ETag", path);
			ck_assert_msg(strcmp(etag, expected) == 0, "GET %s: ETag %s, version %ld", path, etag, version);
			http_response_free(&response);
		}
	}
	/* A move answers the new version as its ETag too. */
	struct http_move move;
	ck_assert(http_player_step(&player, &move));
	char etag[32], expected[32];
	snprintf(expected, sizeof expected, "\"%lld\"",
		 (long long)json_integer_value(json_object_get(move.response.json, "version")));
	ck_assert_msg(http_response_header(&move.response, "ETag", etag, sizeof etag) && strcmp(etag, expected) == 0,
		      "a move's ETag is its new version");
	http_move_free(&move);
}
END_TEST

/* Players by name, bot flags, and the tokens shown once: a bot seat has none, and no later
 * response ever shows a token again. */
START_TEST(test_create_with_players_shows_tokens_once)
{
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games", NULL,
		  "{\"players\": [{\"name\": \"Ada\"}, {\"name\": \"Brünhilde\", \"bot\": false}, {\"name\": \"Cy\", "
		  "\"bot\": true}], \"options\": {\"layout\": \"beginner\"}}",
		  NULL, &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	json_t *seats = json_object_get(response.json, "seats");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 1), "name")), "Brünhilde");
	ck_assert(json_is_string(json_object_get(json_array_get(seats, 0), "token")));
	ck_assert(json_is_null(json_object_get(json_array_get(seats, 2), "token")));
	ck_assert(json_is_true(json_object_get(json_array_get(seats, 2), "bot")));
	const char *id = json_string_value(json_object_get(response.json, "id"));
	const char *token = json_string_value(json_object_get(json_array_get(seats, 0), "token"));
	const char *admin = json_string_value(json_object_get(response.json, "admin_token"));
	char path[128];
	static const char *const suffixes[] = {"", "/players", "/moves?after=0", "/actions", "/board"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		snprintf(path, sizeof path, "/v1/games/%s%s", id, suffixes[i]);
		struct http_response read;
		http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, &read);
		ck_assert_int_eq(read.status, 200);
		ck_assert_msg(!strstr(read.body, token) && !strstr(read.body, admin), "GET %s shows a token", path);
		ck_assert_msg(!strstr(read.body, "\"st_") && !strstr(read.body, "\"at_"), "GET %s shows a token", path);
		http_response_free(&read);
	}
	snprintf(path, sizeof path, "/v1/games/%s/players", id);
	json_t *players = http_get_ok(&http_fixture.checked, path, NULL);
	ck_assert_str_eq(
		json_string_value(json_object_get(json_array_get(json_object_get(players, "players"), 0), "name")),
		"Ada");
	json_decref(players);
	http_response_free(&response);
}
END_TEST

/* ---- The contract check itself ---- */

/* A canned upstream: /healthz answers as the spec says, /readyz with a wrong body. */
static void *canned_upstream(void *argument)
{
	int listener = *(int *)argument;
	for (;;) {
		int connection = accept(listener, NULL, NULL);
		if (connection < 0)
			return NULL;
		char request[4096];
		ssize_t got = read(connection, request, sizeof request - 1);
		request[got > 0 ? got : 0] = '\0';
		const char *body = strstr(request, "GET /readyz") ? "{\"status\": 42}" : "{\"status\": \"ok\"}";
		char response[512];
		int length = snprintf(response, sizeof response,
				      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Request-Id: canned\r\n"
				      "Content-Length: %zu\r\n"
				      "Connection: close\r\n\r\n%s",
				      strlen(body), body);
		ssize_t sent = write(connection, response, (size_t)length);
		(void)sent;
		close(connection);
	}
}

/* Every test here trusts http_contract_violation() to see what Prism flags: prove it does,
 * on a response that breaks the spec, and that it passes one that does not. */
START_TEST(test_the_contract_check_catches_a_response_that_breaks_the_spec)
{
	int listener = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in address;
	memset(&address, 0, sizeof address);
	address.sin_family = AF_INET;
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert(bind(listener, (struct sockaddr *)&address, sizeof address) == 0);
	socklen_t size = sizeof address;
	getsockname(listener, (struct sockaddr *)&address, &size);
	ck_assert(listen(listener, 16) == 0);
	pthread_t thread;
	pthread_create(&thread, NULL, canned_upstream, &listener);
	char upstream[64];
	snprintf(upstream, sizeof upstream, "http://127.0.0.1:%d", ntohs(address.sin_port));
	struct http_proxy canned;
	http_proxy_start(&canned, upstream, 1);
	struct http_client client;
	http_client_init(&client, canned.url, 0);
	struct http_response response;
	http_call(&client, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && http_contract_violation(&response) == NULL, "a valid answer passes: %s",
		      http_describe(&response));
	http_response_free(&response);
	http_call(&client, "GET", "/readyz", NULL, NULL, NULL, &response);
	ck_assert_msg(http_contract_violation(&response) != NULL, "a wrong body is flagged: %s",
		      http_describe(&response));
	http_response_free(&response);
	http_client_cleanup(&client);
	http_proxy_stop(&canned);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_games");
	TCase *games = tcase_create("complete games through prism");
	http_fixture_add(games, HTTP_FIXTURE_VALIDATE_REQUESTS, NULL);
	tcase_set_timeout(games, 240);
	tcase_add_test(games, test_the_contract_check_catches_a_response_that_breaks_the_spec);
	tcase_add_test(games, test_every_game_resource_carries_its_version_as_etag);
	tcase_add_test(games, test_create_with_players_shows_tokens_once);
	tcase_add_test(games, test_three_seats_beginner_board_with_trades_to_a_winner);
	tcase_add_test(games, test_four_seats_random_board_with_trades_to_a_winner);
	tcase_add_test(games, test_four_seats_beginner_board_to_a_winner);
	tcase_add_test(games, test_three_seats_random_board_manual_dice_to_a_winner);
	suite_add_tcase(suite, games);
	return suite;
}
