/*
 * test_http_players.c - players across games over HTTP: a player's token acts for the
 * player's own seats (bound at creation or by joining) on every game route, and for
 * nothing else; "my games" over a player in 20 games, with its filter, sorts and pages,
 * reading only the games of the page it answers; a player's token rate limited as a seat's;
 * bad input refused naming the field.
 *
 * One server with Prism in front (responses checked against openapi/openapi.yaml); the
 * tour of every game route with a foreign token and the bad input go straight to the
 * server.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define GAMES 20

struct player {
	char id[20];
	char token[64];
	char name[48];
};

static void make_player(struct http_client *client, const char *name, struct player *out)
{
	char body[128];
	snprintf(body, sizeof body, "{\"name\": \"%s\"}", name);
	struct http_response response;
	http_call(client, "POST", "/v1/players", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201, "player: %s", http_describe(&response));
	snprintf(out->id, sizeof out->id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(out->token, sizeof out->token, "%s", json_string_value(json_object_get(response.json, "token")));
	snprintf(out->name, sizeof out->name, "%s", name);
	ck_assert_int_eq((int)strncmp(out->token, "pt_", 3), 0);
	http_response_free(&response);
}

/* A full game of three humans, seat 0 bound to `player`, seat `first` to move first. */
static void game_with_player(struct http_client *client, const struct player *player, int first,
			     const char *more_options, struct http_game *game)
{
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bea\"}, {\"name\": \"Cal\"}],"
		 " \"options\": {\"first_seat\": %d%s}}",
		 player->id, first, more_options ? more_options : "");
	http_game_create_body(client, body, game);
}

/* ---- A player's token acts for its own seats only ---- */

START_TEST(test_a_player_token_acts_for_its_own_seat_and_is_403_on_every_route_of_other_games)
{
	struct http_client *client = &http_fixture.checked;
	struct player ann, quinn;
	make_player(client, "Ann", &ann);
	make_player(client, "Quinn", &quinn);
	struct http_game game;
	game_with_player(client, &ann, 0, NULL, &game);

	/* Ann's token is seat 0: its view, its actions, its moves. */
	json_t *view = http_get_ok(client, game.path, ann.token);
	ck_assert_str_eq(
		json_string_value(json_object_get(json_array_get(json_object_get(view, "players"), 0), "name")), "Ann");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "you"), "seat")), 0);
	json_decref(view);
	char path[256];
	json_t *actions = http_get_ok(client, http_game_path(&game, "/actions", path, sizeof path), ann.token);
	ck_assert_int_eq(json_integer_value(json_object_get(actions, "seat")), 0);
	json_t *first = json_array_get(json_object_get(actions, "actions"), 0);
	ck_assert_ptr_nonnull(first);
	char *move = json_dumps(first, JSON_COMPACT);
	json_decref(actions);
	struct http_response response;
	http_call(client, "POST", http_game_path(&game, "/moves", path, sizeof path), ann.token, move, NULL, &response);
	ck_assert_msg(response.status == 200 || response.status == 201, "Ann's move: %s", http_describe(&response));
	http_response_free(&response);
	free(move);

	/* Quinn holds no seat here: every route of the game answers 403, and nothing changes. */
	long version = http_game_version(client, &game);
	static const struct {
		const char *method, *suffix, *body;
	} routes[] = {
		{"GET", "", NULL},
		{"GET", "/board", NULL},
		{"GET", "/board.svg", NULL},
		{"GET", "/board.png", NULL},
		{"GET", "/actions", NULL},
		{"POST", "/moves", "{\"type\": \"end_turn\"}"},
		{"GET", "/moves", NULL},
		{"GET", "/stream", NULL},
		{"GET", "/players", NULL},
		{"POST", "/trades", "{\"give\": {\"wool\": 1}, \"want\": {\"ore\": 1}}"},
		{"GET", "/trades", NULL},
		{"POST", "/trades/1/accept", "{}"},
		{"POST", "/trades/1/decline", "{}"},
		{"POST", "/trades/1/confirm", "{\"with\": 1}"},
		{"DELETE", "/trades/1", NULL},
		{"POST", "/webhooks", "{\"url\": \"https://example.com/hook\"}"},
		{"GET", "/webhooks", NULL},
		{"DELETE", "/webhooks/0000000000000001", NULL},
		{"GET", "/webhooks/0000000000000001/deliveries", NULL},
	};
	for (size_t i = 0; i < sizeof routes / sizeof routes[0]; i++) {
		http_call(&http_fixture.direct, routes[i].method,
			  http_game_path(&game, routes[i].suffix, path, sizeof path), quinn.token, routes[i].body, NULL,
			  &response);
		ck_assert_msg(response.status == 403 && response.json &&
				      strcmp(json_string_value(json_object_get(response.json, "code")),
					     "player_not_seated") == 0,
			      "%s %s with a foreign player token: %s", routes[i].method, path,
			      http_describe(&response));
		http_response_free(&response);
	}
	ck_assert_int_eq(http_game_version(client, &game), version);

	/* Ann's token in a game where Ann has no seat: 403 as well. */
	struct http_game other;
	game_with_player(client, &quinn, 0, NULL, &other);
	http_call(client, "GET", other.path, ann.token, NULL, NULL, &response);
	http_assert_problem(&response, 403, "player_not_seated");
	http_response_free(&response);
}
END_TEST

START_TEST(test_joining_with_a_player_token_binds_the_seat_to_the_player)
{
	struct http_client *client = &http_fixture.checked;
	struct player dora;
	make_player(client, "Dora", &dora);
	struct http_response response;
	http_call(client, "POST", "/v1/games", NULL,
		  "{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Robo\", \"bot\": true}, {\"open\": true}]}", NULL,
		  &response);
	ck_assert_int_eq(response.status, 201);
	char id[20], invite[64], path[96], body[160];
	snprintf(id, sizeof id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(invite, sizeof invite, "%s",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/games/%s/join", id);
	snprintf(body, sizeof body, "{\"invite\": \"%s\"}", invite);
	http_call(client, "POST", path, "pt_not-a-player-token-at-all-0000000000000000", body, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	http_call(client, "POST", path, dora.token, body, NULL, &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "name")), "Dora");
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), 2);
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/games/%s", id);
	json_t *view = http_get_ok(client, path, dora.token);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "you"), "seat")), 2);
	json_decref(view);
	http_call(client, "GET", "/v1/players/me/games", dora.token, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	json_t *games = json_object_get(response.json, "games");
	ck_assert_int_eq(json_array_size(games), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(games, 0), "id")), id);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(games, 0), "seat")), 2);
	http_response_free(&response);

	/* One seat per player and game: a second join is refused, the seat stays open. */
	http_call(client, "POST", "/v1/games", NULL,
		  "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}]}", NULL, &response);
	ck_assert_int_eq(response.status, 201);
	snprintf(id, sizeof id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(body, sizeof body, "{\"invite\": \"%s\"}",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/games/%s/join", id);
	http_call(client, "POST", path, dora.token, body, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	http_response_free(&response);
	http_call(client, "POST", path, dora.token, body, NULL, &response);
	http_assert_problem(&response, 409, "already_seated");
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/games/%s/seats", id);
	json_t *seats = http_get_ok(client, path, NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(seats, "open_seats")), 1);
	json_decref(seats);
}
END_TEST

/* ---- My games ---- */

/* Every page of GET /v1/players/me/games?<query>&limit=<limit>: the games in order (new
 * reference), checking each page's size. */
static json_t *all_pages(struct http_client *client, const struct player *player, const char *query, int limit)
{
	json_t *all = json_array();
	char cursor[64] = "", path[256];
	for (int pages = 0;; pages++) {
		ck_assert_int_lt(pages, 100);
		snprintf(path, sizeof path, "/v1/players/me/games?limit=%d%s%s%s%s", limit, *query ? "&" : "", query,
			 *cursor ? "&cursor=" : "", cursor);
		struct http_response response;
		http_call(client, "GET", path, player->token, NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "%s: %s", path, http_describe(&response));
		json_t *games = json_object_get(response.json, "games");
		ck_assert_int_le(json_array_size(games), limit);
		json_array_extend(all, games);
		json_t *next = json_object_get(response.json, "next_cursor");
		int more = json_is_string(next);
		if (more)
			snprintf(cursor, sizeof cursor, "%s", json_string_value(next));
		else
			ck_assert_int_le(json_array_size(games), limit);
		http_response_free(&response);
		if (!more)
			break;
	}
	return all;
}

START_TEST(test_my_games_over_a_player_in_twenty_games_with_filter_sorts_and_pages)
{
	struct http_client *client = &http_fixture.checked;
	struct player ann;
	make_player(client, "Ann", &ann);
	struct http_game games[GAMES];
	for (int g = 0; g < GAMES; g++)
		/* Even games wait for Ann (first seat 0), odd ones for Bea; every third has a deadline. */
		game_with_player(client, &ann, g % 2, g % 3 == 0 ? ", \"turn_timeout_s\": 3600" : NULL, &games[g]);
	/* A move in game 4 makes it the latest change. */
	char path[128];
	json_t *actions = http_get_ok(client, http_game_path(&games[4], "/actions", path, sizeof path), ann.token);
	char *move = json_dumps(json_array_get(json_object_get(actions, "actions"), 0), JSON_COMPACT);
	json_decref(actions);
	http_post_move_ok(client, &games[4], 0, move);
	free(move);

	/* What one full list of 20 games costs (straight to the server, no proxy). */
	double best = 1e9;
	for (int i = 0; i < 5; i++) {
		struct http_response timed;
		http_call(&http_fixture.direct, "GET", "/v1/players/me/games?limit=100", ann.token, NULL, NULL, &timed);
		ck_assert_int_eq(timed.status, 200);
		if (timed.seconds < best)
			best = timed.seconds;
		http_response_free(&timed);
	}
	fprintf(stderr, "my games: %d games listed in %.1f ms (best of 5)\n", GAMES, best * 1000);
	json_t *all = all_pages(client, &ann, "", 7);
	ck_assert_int_eq(json_array_size(all), GAMES);
	int seen[GAMES] = {0};
	size_t index;
	json_t *entry;
	const char *previous = NULL;
	json_array_foreach(all, index, entry)
	{
		int found = -1;
		for (int g = 0; g < GAMES; g++)
			if (strcmp(json_string_value(json_object_get(entry, "id")), games[g].id) == 0)
				found = g;
		ck_assert_int_ge(found, 0);
		ck_assert_int_eq(seen[found]++, 0);
		ck_assert_int_eq(json_integer_value(json_object_get(entry, "seat")), 0);
		int mine = json_is_true(json_object_get(entry, "waiting_for_me"));
		/* Game 4 still waits for Ann: a settlement in setup is followed by her road. */
		ck_assert_int_eq(mine, (found % 2 == 0));
		ck_assert_int_eq(json_is_string(json_object_get(entry, "deadline")), found % 3 == 0);
		const char *at = json_string_value(json_object_get(json_object_get(entry, "last_change"), "at"));
		if (previous)
			ck_assert_msg(strcmp(previous, at) >= 0, "latest change first: %s then %s", previous, at);
		previous = at;
		if (index == 0)
			ck_assert_str_eq(json_string_value(json_object_get(entry, "id")), games[4].id);
	}
	json_decref(all);

	json_t *mine = all_pages(client, &ann, "waiting_for_me=true", 4);
	ck_assert_int_eq(json_array_size(mine), GAMES / 2);
	json_array_foreach(mine, index, entry)
	{
		ck_assert(json_is_true(json_object_get(entry, "waiting_for_me")));
		json_t *waiting = json_object_get(entry, "waiting_for");
		ck_assert_int_eq(json_integer_value(json_array_get(waiting, 0)), 0);
	}
	json_decref(mine);
	json_t *others = all_pages(client, &ann, "waiting_for_me=false", 100);
	ck_assert_int_eq(json_array_size(others), GAMES / 2);
	json_decref(others);

	json_t *by_deadline = all_pages(client, &ann, "sort=deadline", 5);
	ck_assert_int_eq(json_array_size(by_deadline), GAMES);
	int with_deadline = 0, ended = 0;
	previous = NULL;
	json_array_foreach(by_deadline, index, entry)
	{
		json_t *deadline = json_object_get(entry, "deadline");
		if (json_is_string(deadline)) {
			ck_assert_msg(!ended, "games with a deadline come first");
			if (previous)
				ck_assert_msg(strcmp(previous, json_string_value(deadline)) <= 0,
					      "soonest deadline first");
			previous = json_string_value(deadline);
			with_deadline++;
		} else {
			ended = 1;
		}
	}
	ck_assert_int_eq(with_deadline, (GAMES + 2) / 3);
	json_decref(by_deadline);
}
END_TEST

/* ---- Bad input ---- */

static void assert_bad(const char *method, const char *path, const char *token, const char *body, long status,
		       const char *code, const char *field)
{
	struct http_response response;
	http_call(&http_fixture.direct, method, path, token, body, NULL, &response);
	http_assert_problem(&response, status, code);
	if (field) {
		json_t *named = json_object_get(response.json, "field");
		ck_assert_msg(json_is_string(named) && strcmp(json_string_value(named), field) == 0,
			      "%s %s names %s: %s", method, path, field, http_describe(&response));
	}
	http_response_free(&response);
}

START_TEST(test_bad_input_is_refused_naming_the_field)
{
	struct player ann;
	make_player(&http_fixture.direct, "Ann", &ann);
	assert_bad("POST", "/v1/players", NULL, "{}", 400, "missing_field", "name");
	assert_bad("POST", "/v1/players", NULL, "{\"name\": \"\"}", 400, "invalid_field", "name");
	assert_bad("POST", "/v1/players", NULL, "{\"name\": \"A\", \"email\": \"a@b\"}", 400, "unknown_field", "email");
	char body[512];
	assert_bad("POST", "/v1/games", NULL,
		   "{\"players\": [{\"player\": \"zz\"}, {\"name\": \"B\"}, {\"name\": \"C\"}]}", 400, "invalid_field",
		   "players[0].player");
	assert_bad("POST", "/v1/games", NULL,
		   "{\"players\": [{\"player\": \"0000000000000001\"}, {\"name\": \"B\"}, {\"name\": \"C\"}]}", 400,
		   "invalid_field", "players[0].player");
	snprintf(body, sizeof body, "{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"name\": \"C\"}]}",
		 ann.id, ann.id);
	assert_bad("POST", "/v1/games", NULL, body, 400, "invalid_field", "players[1].player");
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\", \"bot\": true}, {\"name\": \"B\"}, {\"name\": \"C\"}]}", ann.id);
	assert_bad("POST", "/v1/games", NULL, body, 400, "invalid_field", "players[0].player");
	struct http_response response;
	http_call(&http_fixture.direct, "GET", "/v1/players/me/games", ann.token, NULL, NULL, &response);
	ck_assert_int_eq(json_array_size(json_object_get(response.json, "games")), 0);
	http_response_free(&response);

	assert_bad("GET", "/v1/players/me/games", NULL, NULL, 401, "missing_token", NULL);
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	assert_bad("GET", "/v1/players/me/games", game.tokens[0], NULL, 401, "unknown_token", NULL);
	assert_bad("GET", "/v1/players/me/games?sort=name", ann.token, NULL, 400, "invalid_field", "sort");
	assert_bad("GET", "/v1/players/me/games?waiting_for_me=maybe", ann.token, NULL, 400, "invalid_field",
		   "waiting_for_me");
	assert_bad("GET", "/v1/players/me/games?limit=0", ann.token, NULL, 400, "invalid_field", "limit");
	assert_bad("GET", "/v1/players/me/games?cursor=x1", ann.token, NULL, 400, "invalid_field", "cursor");
}
END_TEST

START_TEST(test_my_games_reads_only_the_games_of_its_page)
{
	/* Four games; the first one's log is then made unreadable (an event the codec cannot
	 * read, dated long ago, so that game sorts last by its last change). A page that does
	 * not show it does not read it; a page that shows it fails, so it would be noticed. */
	struct http_client *client = &http_fixture.direct;
	struct player ann;
	make_player(client, "Ann", &ann);
	struct http_game games[4];
	for (int g = 0; g < 4; g++)
		game_with_player(client, &ann, 0, NULL, &games[g]);
	long version = http_game_version(client, &games[0]);
	char sql[512];
	snprintf(sql, sizeof sql,
		 "INSERT INTO events (game_id, seq, type, actor, origin, payload, created_at)"
		 " VALUES (('x' || '%s')::bit(64)::bigint, %ld, 5, 0, 0, '{\"not\": \"an event\"}',"
		 " '2001-01-01T00:00:00Z')",
		 games[0].id, version + 1);
	http_sql_number(sql);
	struct http_response response;
	http_call(client, "GET", "/v1/players/me/games?limit=1", ann.token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "a page without the unreadable game: %s", http_describe(&response));
	json_t *listed = json_object_get(response.json, "games");
	ck_assert_int_eq(json_array_size(listed), 1);
	ck_assert_str_ne(json_string_value(json_object_get(json_array_get(listed, 0), "id")), games[0].id);
	ck_assert(json_is_string(json_object_get(response.json, "next_cursor")));
	http_response_free(&response);
	http_call(client, "GET", "/v1/players/me/games?limit=3", ann.token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "three pages without it: %s", http_describe(&response));
	ck_assert_int_eq(json_array_size(json_object_get(response.json, "games")), 3);
	http_response_free(&response);
	http_call(client, "GET", "/v1/players/me/games?limit=4", ann.token, NULL, NULL, &response);
	ck_assert_msg(response.status >= 500, "the page that shows it reads it: %s", http_describe(&response));
	http_response_free(&response);
	/* Remove it again: the other suites of this database list games too. */
	snprintf(sql, sizeof sql, "DELETE FROM events WHERE game_id = ('x' || '%s')::bit(64)::bigint AND seq = %ld",
		 games[0].id, version + 1);
	http_sql_number(sql);
}
END_TEST

START_TEST(test_a_player_token_is_rate_limited_as_a_seat_token_is)
{
	/* Two requests a second per token, a burst of four. */
	static const char *const limited_settings[] = {"RATE_LIMIT_TOKEN=2", NULL};
	struct http_server limited;
	http_server_start(&limited, limited_settings);
	struct http_client client;
	http_client_init(&client, limited.url, 0);
	struct player ann;
	make_player(&client, "Ann", &ann);
	int first_limited = -1, limited_count = 0;
	double started = http_clock();
	for (int i = 0; i < 12; i++) {
		struct http_response response;
		http_call(&client, "GET", "/v1/players/me/games", ann.token, NULL, NULL, &response);
		if (response.status == 429) {
			http_assert_problem(&response, 429, "rate_limited");
			char retry[16];
			ck_assert_ptr_nonnull(http_response_header(&response, "Retry-After", retry, sizeof retry));
			if (first_limited < 0)
				first_limited = i;
			limited_count++;
		} else {
			ck_assert_msg(response.status == 200, "%s", http_describe(&response));
			char limit[16];
			ck_assert_ptr_nonnull(http_response_header(&response, "RateLimit-Limit", limit, sizeof limit));
			ck_assert_int_eq(atoi(limit), 4);
		}
		http_response_free(&response);
	}
	int refilled = (int)(2 * (http_clock() - started));
	ck_assert_msg(first_limited >= 4 && first_limited <= 4 + refilled,
		      "a burst of 4 is allowed, then refused (first refusal: request %d, %d refilled)", first_limited,
		      refilled);
	ck_assert_int_ge(limited_count, 12 - 4 - refilled - 1);
	/* The feed and the player's other routes are the same token's. */
	struct http_response response;
	http_call(&client, "GET", "/v1/players/me/feed", ann.token, NULL, NULL, &response);
	http_assert_problem(&response, 429, "rate_limited");
	http_response_free(&response);
	http_client_cleanup(&client);
	http_server_stop(&limited, 30);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_players");
	TCase *players = tcase_create("players across games");
	http_fixture_add(players, HTTP_FIXTURE_VALIDATE_REQUESTS, NULL);
	tcase_set_timeout(players, 120);
	tcase_add_test(players, test_a_player_token_acts_for_its_own_seat_and_is_403_on_every_route_of_other_games);
	tcase_add_test(players, test_joining_with_a_player_token_binds_the_seat_to_the_player);
	tcase_add_test(players, test_my_games_over_a_player_in_twenty_games_with_filter_sorts_and_pages);
	tcase_add_test(players, test_bad_input_is_refused_naming_the_field);
	tcase_add_test(players, test_my_games_reads_only_the_games_of_its_page);
	tcase_add_test(players, test_a_player_token_is_rate_limited_as_a_seat_token_is);
	suite_add_tcase(suite, players);
	return suite;
}
