/*
 * test_http_lobby.c - games with open seats over HTTP: they wait, players join with the
 * invite, the admin removes a player or gives a seat to a bot, the game starts by itself
 * when its last seat is taken, and public ones are listed in the lobby.
 *
 * One server on the test database with Prism in front of it (responses checked against
 * openapi/openapi.yaml); the tests of bad input and of racing joins talk to the server
 * directly (Prism would refuse the bad requests itself, and the race wants no proxy in
 * between). Every refusal is checked to have changed nothing: the seats read afterwards
 * are the seats read before.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define RACERS 8

/* A game created with open seats, as its creator knows it. */
struct waiting {
	struct http_game game; /* id, path, admin token, tokens of the seats taken so far */
	char invite[64];
};

/* POST /v1/games with `body` (JSON text) expecting 201 and a waiting game. */
static void create_waiting(struct http_client *client, const char *body, struct waiting *out)
{
	memset(out, 0, sizeof *out);
	struct http_response response;
	http_call(client, "POST", "/v1/games", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201, "create: %s", http_describe(&response));
	json_t *json = response.json;
	ck_assert_str_eq(json_string_value(json_object_get(json, "status")), "waiting");
	ck_assert_int_eq(json_integer_value(json_object_get(json, "version")), 0);
	ck_assert_ptr_null(json_object_get(json, "game"));
	snprintf(out->game.id, sizeof out->game.id, "%s", json_string_value(json_object_get(json, "id")));
	snprintf(out->game.path, sizeof out->game.path, "/v1/games/%s", out->game.id);
	snprintf(out->game.admin_token, sizeof out->game.admin_token, "%s",
		 json_string_value(json_object_get(json, "admin_token")));
	json_t *invite = json_object_get(json, "invite");
	snprintf(out->invite, sizeof out->invite, "%s", json_string_value(json_object_get(invite, "code")));
	ck_assert_int_eq((int)strncmp(out->invite, "iv_", 3), 0);
	const char *url = json_string_value(json_object_get(invite, "url"));
	ck_assert_msg(url && strstr(url, out->invite) && strstr(url, out->game.id), "the link carries the invite: %s",
		      url ? url : "(none)");
	json_t *seats = json_object_get(json, "seats");
	out->game.seats = (int)json_array_size(seats);
	for (int s = 0; s < out->game.seats; s++) {
		json_t *seat = json_array_get(seats, (size_t)s);
		json_t *token = json_object_get(seat, "token");
		int open = json_is_true(json_object_get(seat, "open"));
		if (json_is_true(json_object_get(seat, "bot")))
			out->game.bots |= (uint8_t)(1u << s);
		ck_assert_msg(json_is_string(token) == (!open && !json_is_true(json_object_get(seat, "bot"))),
			      "a token for each seat taken by a human, none for open or bot seats");
		if (json_is_string(token))
			snprintf(out->game.tokens[s], sizeof out->game.tokens[s], "%s", json_string_value(token));
	}
	http_response_free(&response);
}

/* POST .../join {invite, name}: the response (the caller frees it). */
static void join(struct http_client *client, const struct waiting *game, const char *invite, const char *name,
		 struct http_response *out)
{
	char path[96], body[256];
	http_game_path(&game->game, "/join", path, sizeof path);
	json_t *json = json_pack("{s:s, s:s}", "invite", invite, "name", name);
	char *text = json_dumps(json, JSON_COMPACT);
	snprintf(body, sizeof body, "%s", text);
	free(text);
	json_decref(json);
	http_call(client, "POST", path, NULL, body, NULL, out);
}

/* A join that must take a seat: the seat, its token kept in game->game.tokens. */
static int join_ok(struct http_client *client, struct waiting *game, const char *name, int *started)
{
	struct http_response response;
	join(client, game, game->invite, name, &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	int seat = (int)json_integer_value(json_object_get(response.json, "seat"));
	const char *token = json_string_value(json_object_get(response.json, "token"));
	ck_assert_int_eq((int)strncmp(token, "st_", 3), 0);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "name")), name);
	snprintf(game->game.tokens[seat], sizeof game->game.tokens[seat], "%s", token);
	if (started)
		*started = strcmp(json_string_value(json_object_get(response.json, "status")), "started") == 0;
	http_response_free(&response);
	return seat;
}

/* GET .../seats as text (the caller frees), to compare before and after a refusal. */
static char *seats_text(struct http_client *client, const struct waiting *game)
{
	char path[96];
	json_t *seats = http_get_ok(client, http_game_path(&game->game, "/seats", path, sizeof path), NULL);
	char *text = json_dumps(seats, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(seats);
	return text;
}

static void assert_seats_unchanged(struct http_client *client, const struct waiting *game, const char *before)
{
	char *after = seats_text(client, game);
	ck_assert_msg(strcmp(before, after) == 0, "a refused request changed the seats:\n%s\n%s", before, after);
	free(after);
}

/* ---- The game waits, then starts by itself ---- */

START_TEST(test_a_game_with_open_seats_waits_and_starts_when_the_last_seat_is_taken)
{
	struct http_client *client = &http_fixture.checked;
	struct waiting game;
	create_waiting(client,
		       "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}, {\"name\": \"Robo\", "
		       "\"bot\": true}]}",
		       &game);
	char path[96];
	json_t *seats = http_get_ok(client, http_game_path(&game.game, "/seats", path, sizeof path), NULL);
	ck_assert_str_eq(json_string_value(json_object_get(seats, "status")), "waiting");
	ck_assert_int_eq(json_integer_value(json_object_get(seats, "open_seats")), 2);
	json_decref(seats);

	/* Before the start: the game's view is its seats, as GET .../seats shows them, and
	 * nothing of a board or state, for anyone; a token not of this game is refused. */
	char *before = seats_text(client, &game);
	struct http_response response;
	const char *viewers[] = {game.game.tokens[0], game.game.admin_token, NULL};
	for (int v = 0; v < 3; v++) {
		http_call(client, "GET", game.game.path, viewers[v], NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "GET a waiting game: %s", http_describe(&response));
		char *text = json_dumps(response.json, JSON_COMPACT | JSON_SORT_KEYS);
		ck_assert_msg(strcmp(text, before) == 0, "the waiting game's view is its seats:\n%s\n%s", text, before);
		free(text);
		ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "waiting");
		static const char *const absent[] = {"version", "board", "phase", "turn", "players", "bank", "you"};
		for (size_t i = 0; i < sizeof absent / sizeof absent[0]; i++)
			ck_assert_msg(!json_object_get(response.json, absent[i]), "a waiting game has no %s",
				      absent[i]);
		http_response_free(&response);
	}
	http_call(client, "GET", game.game.path, "st_not-a-token-of-this-game-000000000000000000", NULL, NULL,
		  &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	/* Moves and actions answer 409 game_not_started, changing nothing. */
	http_post_move(client, &game.game, 0, "{\"type\": \"build_settlement\", \"node\": 12}", NULL, &response);
	http_assert_problem(&response, 409, "game_not_started");
	http_response_free(&response);
	http_call(client, "GET", http_game_path(&game.game, "/actions", path, sizeof path), game.game.tokens[0], NULL,
		  NULL, &response);
	http_assert_problem(&response, 409, "game_not_started");
	http_response_free(&response);
	assert_seats_unchanged(client, &game, before);
	free(before);

	int started = 1;
	ck_assert_int_eq(join_ok(client, &game, "Bob", &started), 1);
	ck_assert_int_eq(started, 0);
	ck_assert_int_eq(join_ok(client, &game, "Cy", &started), 2);
	ck_assert_int_eq(started, 1);

	/* Started: the view is a game in setup, moves are accepted (seat 3 is the server's). */
	json_t *view = http_get_ok(client, game.game.path, game.game.tokens[0]);
	ck_assert_str_eq(json_string_value(json_object_get(view, "status")), "setup");
	ck_assert_int_ge(json_integer_value(json_object_get(view, "version")), 1);
	json_t *players = json_object_get(view, "players");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(players, 1), "name")), "Bob");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(players, 2), "name")), "Cy");
	json_decref(view);
	struct http_player player;
	http_player_init(&player, client, &game.game, http_random64(), 0);
	player.humans = 0x7;
	for (int i = 0; i < 12; i++)
		ck_assert_int_eq(http_player_step(&player, NULL), 1);
	ck_assert_int_ge(http_game_version(client, &game.game), 13);
}
END_TEST

/* ---- Racing joins ---- */

struct racer {
	const struct waiting *game;
	int index;
	long status;
	char code[64];
};

static void *race(void *argument)
{
	struct racer *racer = argument;
	struct http_client client;
	http_client_init(&client, http_fixture.server.url, 0);
	char name[32];
	snprintf(name, sizeof name, "Racer %d", racer->index);
	struct http_response response;
	join(&client, racer->game, racer->game->invite, name, &response);
	racer->status = response.status;
	json_t *code = response.json ? json_object_get(response.json, "code") : NULL;
	snprintf(racer->code, sizeof racer->code, "%s", json_is_string(code) ? json_string_value(code) : "");
	http_response_free(&response);
	http_client_cleanup(&client);
	return NULL;
}

START_TEST(test_concurrent_joins_of_the_last_seat_one_wins_the_rest_409)
{
	struct http_client *client = &http_fixture.direct;
	for (int round = 0; round < 5; round++) {
		struct waiting game;
		create_waiting(
			client,
			"{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Robo\", \"bot\": true}, {\"open\": true}]}",
			&game);
		pthread_t threads[RACERS];
		struct racer racers[RACERS];
		for (int i = 0; i < RACERS; i++) {
			racers[i] = (struct racer){&game, i, 0, ""};
			pthread_create(&threads[i], NULL, race, &racers[i]);
		}
		int won = 0;
		for (int i = 0; i < RACERS; i++) {
			pthread_join(threads[i], NULL);
			if (racers[i].status == 200) {
				won++;
			} else {
				ck_assert_msg(racers[i].status == 409 && strcmp(racers[i].code, "game_started") == 0,
					      "a loser gets 409 game_started, not %ld %s", racers[i].status,
					      racers[i].code);
			}
		}
		ck_assert_int_eq(won, 1);
		json_t *view = http_get_ok(client, game.game.path, NULL);
		ck_assert_str_eq(json_string_value(json_object_get(view, "status")), "setup");
		json_decref(view);
	}
}
END_TEST

/* ---- Wrong invites, started games ---- */

START_TEST(test_a_wrong_invite_is_403_and_a_started_game_409)
{
	struct http_client *client = &http_fixture.checked;
	struct waiting game, other;
	create_waiting(client, "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}]}", &game);
	create_waiting(client, "{\"players\": [{\"name\": \"Zed\"}, {\"open\": true}, {\"open\": true}]}", &other);
	char *before = seats_text(client, &game);
	struct http_response response;
	join(client, &game, "iv_not-the-invite", "Eve", &response);
	http_assert_problem(&response, 403, "wrong_invite");
	http_response_free(&response);
	join(client, &game, other.invite, "Eve", &response); /* another game's invite */
	http_assert_problem(&response, 403, "wrong_invite");
	http_response_free(&response);
	assert_seats_unchanged(client, &game, before);
	free(before);

	/* A game created full has no invite at all. */
	struct http_game full;
	http_game_create(client, 3, NULL, &full);
	struct waiting as_waiting = {full, ""};
	join(client, &as_waiting, game.invite, "Eve", &response);
	http_assert_problem(&response, 403, "wrong_invite");
	http_response_free(&response);

	join_ok(client, &game, "Bob", NULL);
	int started = 0;
	join_ok(client, &game, "Cy", &started);
	ck_assert_int_eq(started, 1);
	long version = http_game_version(client, &game.game);
	join(client, &game, game.invite, "Late", &response);
	http_assert_problem(&response, 409, "game_started");
	http_response_free(&response);
	ck_assert_int_eq(http_game_version(client, &game.game), version);
	json_t *seats = http_get_ok(client, http_game_path(&game.game, "/seats", (char[96]){0}, 96), NULL);
	ck_assert_str_eq(json_string_value(json_object_get(seats, "status")), "setup");
	ck_assert_int_eq(json_integer_value(json_object_get(seats, "open_seats")), 0);
	json_decref(seats);
}
END_TEST

START_TEST(test_joining_a_finished_game_is_409_game_finished)
{
	struct http_client *client = &http_fixture.direct;
	struct waiting game;
	create_waiting(client,
		       "{\"players\": [{\"open\": true}, {\"name\": \"R1\", \"bot\": true}, {\"name\": \"R2\", "
		       "\"bot\": true}]}",
		       &game);
	int started = 0;
	ck_assert_int_eq(join_ok(client, &game, "Ann", &started), 0);
	ck_assert_int_eq(started, 1);
	struct http_player player;
	http_player_init(&player, client, &game.game, http_random64(), 0);
	player.humans = 0x1;
	http_player_finish(&player, 5000);
	ck_assert(http_game_wait_finished(client, &game.game, 60));
	long version = http_game_version(client, &game.game);
	struct http_response response;
	join(client, &game, game.invite, "Late", &response);
	http_assert_problem(&response, 409, "game_finished");
	http_response_free(&response);
	ck_assert_int_eq(http_game_version(client, &game.game), version);
}
END_TEST

/* ---- The admin before the start ---- */

START_TEST(test_the_admin_removes_a_player_and_gives_a_seat_to_a_bot_before_the_start)
{
	struct http_client *client = &http_fixture.checked;
	struct waiting game;
	create_waiting(client,
		       "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}, {\"open\": true}]}",
		       &game);
	join_ok(client, &game, "Bob", NULL);
	char bob[64];
	snprintf(bob, sizeof bob, "%s", game.game.tokens[1]);
	char path[128];
	http_game_path(&game.game, "/seats/1", path, sizeof path);

	/* Not the admin: nothing changes. */
	char *before = seats_text(client, &game);
	struct http_response response;
	http_call(client, "DELETE", path, NULL, NULL, NULL, &response);
	http_assert_problem(&response, 401, "missing_token");
	http_response_free(&response);
	http_call(client, "DELETE", path, game.game.tokens[0], NULL, NULL, &response);
	http_assert_problem(&response, 403, "admin_token_required");
	http_response_free(&response);
	/* An open seat cannot be removed, a taken one cannot become a bot. */
	http_call(client, "DELETE", http_game_path(&game.game, "/seats/2", (char[128]){0}, 128), game.game.admin_token,
		  NULL, NULL, &response);
	http_assert_problem(&response, 409, "seat_not_changeable");
	http_response_free(&response);
	http_call(client, "POST", http_game_path(&game.game, "/seats/1/bot", (char[128]){0}, 128),
		  game.game.admin_token, "{}", NULL, &response);
	http_assert_problem(&response, 409, "seat_not_changeable");
	http_response_free(&response);
	assert_seats_unchanged(client, &game, before);
	free(before);

	/* Bob is removed: seat 1 is open again and the next join takes it. */
	http_call(client, "DELETE", path, game.game.admin_token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "remove: %s", http_describe(&response));
	json_t *seat = json_array_get(json_object_get(response.json, "seats"), 1);
	ck_assert(json_is_true(json_object_get(seat, "open")));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "open_seats")), 3);
	http_response_free(&response);
	ck_assert_int_eq(join_ok(client, &game, "Dee", NULL), 1);

	/* Seat 2 to a bot named Robo; seat 3 to a bot too, which starts the game. */
	http_call(client, "POST", http_game_path(&game.game, "/seats/2/bot", (char[128]){0}, 128),
		  game.game.admin_token, "{\"name\": \"Robo\"}", NULL, &response);
	ck_assert_msg(response.status == 200, "bot: %s", http_describe(&response));
	ck_assert_str_eq(
		json_string_value(json_object_get(json_array_get(json_object_get(response.json, "seats"), 2), "name")),
		"Robo");
	http_response_free(&response);
	http_call(client, "POST", http_game_path(&game.game, "/seats/3/bot", (char[128]){0}, 128),
		  game.game.admin_token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "bot: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "started");
	http_response_free(&response);
	game.game.bots = 0xc;

	/* Bob's token died with his seat; Dee's works; after the start, no more changes. */
	http_call(client, "GET", game.game.path, bob, NULL, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	json_t *view = http_get_ok(client, game.game.path, game.game.tokens[1]);
	ck_assert_str_eq(
		json_string_value(json_object_get(json_array_get(json_object_get(view, "players"), 1), "name")), "Dee");
	ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(view, "players"), 2), "bot")));
	json_decref(view);
	http_call(client, "DELETE", path, game.game.admin_token, NULL, NULL, &response);
	http_assert_problem(&response, 409, "game_started");
	http_response_free(&response);
	struct http_player player;
	http_player_init(&player, client, &game.game, http_random64(), 0);
	player.humans = 0x3;
	for (int i = 0; i < 8; i++)
		ck_assert_int_eq(http_player_step(&player, NULL), 1);
}
END_TEST

/* Issue 20: on a server where a game of bots only needs the creation key, the admin cannot
 * make one by giving every open seat to a bot: the last gift is refused, naming the seat,
 * and nothing changes; a person may still take that seat. */
START_TEST(test_the_last_seat_a_person_may_take_cannot_go_to_a_bot_without_the_key)
{
	static const char *const need_key[] = {"ALL_BOT_GAMES=0", NULL};
	struct http_server server;
	http_server_start(&server, need_key);
	struct http_client own;
	http_client_init(&own, server.url, 0);
	struct http_client *client = &own;
	struct waiting game;
	create_waiting(client, "{\"players\": [{\"open\": true}, {\"open\": true}, {\"open\": true}]}", &game);
	struct http_response response;
	for (int s = 0; s < 2; s++) {
		char path[128], name[32];
		snprintf(name, sizeof name, "/seats/%d/bot", s);
		http_call(client, "POST", http_game_path(&game.game, name, path, sizeof path), game.game.admin_token,
			  NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "bot %d: %s", s, http_describe(&response));
		ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "waiting");
		http_response_free(&response);
	}
	char *before = seats_text(client, &game);
	http_call(client, "POST", http_game_path(&game.game, "/seats/2/bot", (char[128]){0}, 128),
		  game.game.admin_token, "{\"name\": \"Robo\"}", NULL, &response);
	http_assert_problem(&response, 403, "create_key_required");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "seat");
	http_response_free(&response);
	assert_seats_unchanged(client, &game, before);
	free(before);
	int started = 0;
	ck_assert_int_eq(join_ok(client, &game, "Ann", &started), 2);
	ck_assert_msg(started, "the person's join of the last open seat starts the game");
	http_client_cleanup(&own);
	http_server_stop(&server, 30);
}
END_TEST

/* ---- The lobby ---- */

START_TEST(test_the_lobby_lists_public_waiting_games_newest_first_in_pages_without_secrets)
{
	struct http_client *client = &http_fixture.checked;
	enum { PUBLIC_GAMES = 5 };
	struct waiting games[PUBLIC_GAMES], hidden;
	for (int i = 0; i < PUBLIC_GAMES; i++)
		create_waiting(client,
			       "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"name\": \"Robo\", \"bot\": "
			       "true}], \"public\": true}",
			       &games[i]);
	create_waiting(client,
		       "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"name\": \"Robo\", \"bot\": true}]}",
		       &hidden);
	/* One public game starts: it leaves the lobby. */
	join_ok(client, &games[2], "Bob", NULL);

	char path[256], cursor[80] = "";
	int found[PUBLIC_GAMES], order = 0, pages = 0;
	memset(found, -1, sizeof found);
	for (;;) {
		snprintf(path, sizeof path, "/v1/games?status=waiting&limit=2%s%s", *cursor ? "&cursor=" : "", cursor);
		struct http_response response;
		http_call(client, "GET", path, NULL, NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "lobby: %s", http_describe(&response));
		ck_assert_msg(!strstr(response.body, "\"st_") && !strstr(response.body, "\"at_") &&
				      !strstr(response.body, "\"iv_") && !strstr(response.body, "seed"),
			      "no secret in the lobby: %s", response.body);
		json_t *list = json_object_get(response.json, "games");
		ck_assert_int_le(json_array_size(list), 2);
		size_t index;
		json_t *entry;
		json_array_foreach(list, index, entry)
		{
			ck_assert_str_eq(json_string_value(json_object_get(entry, "status")), "waiting");
			ck_assert_str_ne(json_string_value(json_object_get(entry, "id")), hidden.game.id);
			for (int i = 0; i < PUBLIC_GAMES; i++)
				if (strcmp(json_string_value(json_object_get(entry, "id")), games[i].game.id) == 0)
					found[i] = order;
			order++;
		}
		pages++;
		json_t *next = json_object_get(response.json, "next_cursor");
		if (!json_is_string(next)) {
			http_response_free(&response);
			break;
		}
		snprintf(cursor, sizeof cursor, "%s", json_string_value(next));
		http_response_free(&response);
		ck_assert_int_lt(pages, 1000);
	}
	ck_assert_int_eq(found[2], -1);
	/* Newest first: games[4] before games[3] before games[1] before games[0]. */
	ck_assert_int_ge(found[0], 0);
	ck_assert_int_lt(found[4], found[3]);
	ck_assert_int_lt(found[3], found[1]);
	ck_assert_int_lt(found[1], found[0]);
	ck_assert_int_ge(pages, 2);
}
END_TEST

/* ---- Bad input ---- */

/* `method` `path` with `body` straight to the server: 400 naming `field`. */
static void assert_bad(const char *method, const char *path, const char *token, const char *body, const char *code,
		       const char *field)
{
	struct http_response response;
	http_call(&http_fixture.direct, method, path, token, body, NULL, &response);
	http_assert_problem(&response, 400, code);
	json_t *named = json_object_get(response.json, "field");
	ck_assert_msg(json_is_string(named) && strcmp(json_string_value(named), field) == 0, "%s %s names %s: %s",
		      method, path, field, http_describe(&response));
	http_response_free(&response);
}

START_TEST(test_bad_input_is_400_naming_the_field_and_changes_nothing)
{
	struct http_client *client = &http_fixture.direct;
	struct waiting game;
	create_waiting(client, "{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}]}", &game);
	char *before = seats_text(client, &game);
	char join_path[96], bot_path[128];
	http_game_path(&game.game, "/join", join_path, sizeof join_path);
	http_game_path(&game.game, "/seats/1/bot", bot_path, sizeof bot_path);
	char body[256];
	snprintf(body, sizeof body, "{\"invite\": \"%s\"}", game.invite);
	assert_bad("POST", join_path, NULL, body, "missing_field", "name");
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"\"}", game.invite);
	assert_bad("POST", join_path, NULL, body, "invalid_field", "name");
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"a\\u202eb\"}", game.invite);
	assert_bad("POST", join_path, NULL, body, "invalid_field", "name");
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"%s\"}", game.invite,
		 "Forty-one characters are one too many!!!!");
	assert_bad("POST", join_path, NULL, body, "invalid_field", "name");
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"Bob\", \"seat\": 2}", game.invite);
	assert_bad("POST", join_path, NULL, body, "unknown_field", "seat");
	assert_bad("POST", join_path, NULL, "{\"name\": \"Bob\"}", "missing_field", "invite");
	assert_bad("POST", join_path, NULL, "{\"invite\": 7, \"name\": \"Bob\"}", "invalid_field", "invite");
	assert_bad("POST", bot_path, game.game.admin_token, "{\"name\": 5}", "invalid_field", "name");
	assert_bad("POST", bot_path, game.game.admin_token, "{\"colour\": \"red\"}", "unknown_field", "colour");
	assert_bad("POST", http_game_path(&game.game, "/seats/x/bot", (char[128]){0}, 128), game.game.admin_token, NULL,
		   "invalid_field", "seat");
	assert_seats_unchanged(client, &game, before);
	free(before);

	assert_bad("POST", "/v1/games", NULL,
		   "{\"players\": [{\"name\": \"A\"}, {\"open\": true, \"name\": \"B\"}, {\"open\": true}]}",
		   "invalid_field", "players[1].open");
	assert_bad("POST", "/v1/games", NULL, "{\"players\": [{\"name\": \"A\"}, {\"open\": 1}, {\"open\": true}]}",
		   "invalid_field", "players[1].open");
	assert_bad("POST", "/v1/games", NULL,
		   "{\"players\": [{\"name\": \"A\"}, {\"open\": true}, {\"open\": true}], \"public\": 1}",
		   "invalid_field", "public");
	assert_bad("POST", "/v1/games", NULL, "{\"seats\": 3, \"public\": true}", "invalid_field", "public");
	assert_bad("GET", "/v1/games", NULL, NULL, "missing_field", "status");
	assert_bad("GET", "/v1/games?status=playing", NULL, NULL, "invalid_field", "status");
	assert_bad("GET", "/v1/games?status=waiting&limit=0", NULL, NULL, "invalid_field", "limit");
	assert_bad("GET", "/v1/games?status=waiting&limit=101", NULL, NULL, "invalid_field", "limit");
	assert_bad("GET", "/v1/games?status=waiting&cursor=abc", NULL, NULL, "invalid_field", "cursor");
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_lobby");
	TCase *lobby = tcase_create("waiting games, joining, the lobby");
	http_fixture_add(lobby, HTTP_FIXTURE_VALIDATE_REQUESTS, NULL);
	tcase_set_timeout(lobby, 120);
	tcase_add_test(lobby, test_a_game_with_open_seats_waits_and_starts_when_the_last_seat_is_taken);
	tcase_add_test(lobby, test_concurrent_joins_of_the_last_seat_one_wins_the_rest_409);
	tcase_add_test(lobby, test_a_wrong_invite_is_403_and_a_started_game_409);
	tcase_add_test(lobby, test_joining_a_finished_game_is_409_game_finished);
	tcase_add_test(lobby, test_the_admin_removes_a_player_and_gives_a_seat_to_a_bot_before_the_start);
	tcase_add_test(lobby, test_the_lobby_lists_public_waiting_games_newest_first_in_pages_without_secrets);
	tcase_add_test(lobby, test_bad_input_is_400_naming_the_field_and_changes_nothing);
	tcase_add_test(lobby, test_the_last_seat_a_person_may_take_cannot_go_to_a_bot_without_the_key);
	suite_add_tcase(suite, lobby);
	return suite;
}
