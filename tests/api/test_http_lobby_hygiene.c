/*
 * test_http_lobby_hygiene.c - the end of games nobody plays (issue 28, item 5).
 *
 *   - A waiting game nobody filled expires LOBBY_EXPIRE_S after its creation (2 s here, on
 *     two servers that both sweep): never before (expired_at - created_at >= the period,
 *     and a game read before the period is still waiting), exactly once (one "waiting game
 *     expired" line over both servers' logs), and for good: its view and seats say
 *     `status: expired` with `expired_at`, joins and the admin's seat changes answer
 *     409 game_expired and change nothing, its other routes 409 game_not_started, the
 *     lobby no longer lists it, and the player who had joined sees it expired among its
 *     games. A game that started in time is untouched by the sweep.
 *   - A finished game's private tokens keep working read-only: the seat's view (with its
 *     own hand), actions, log, export, summary and board read as before; moves and trade
 *     offers are refused by the rules (422 game_finished, with the version), holidays with
 *     409 game_finished, and nothing changes.
 *
 * Both servers behind nothing but the first one's Prism (every answer of the first server
 * checked against the contract); bounds on times, never equalities.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define EXPIRE_S 2
#define MAX_MOVES 5000

static const char *const settings[] = {"LOBBY_EXPIRE_S=2", NULL};

/* A game with open seats as its creator knows it. */
struct waiting {
	char id[20];
	char path[64];
	char admin[64];
	char invite[64];
};

static void create_waiting(struct http_client *client, const char *body, struct waiting *out)
{
	memset(out, 0, sizeof *out);
	struct http_response response;
	http_call(client, "POST", "/v1/games", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201, "create: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "waiting");
	snprintf(out->id, sizeof out->id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(out->path, sizeof out->path, "/v1/games/%s", out->id);
	snprintf(out->admin, sizeof out->admin, "%s", json_string_value(json_object_get(response.json, "admin_token")));
	snprintf(out->invite, sizeof out->invite, "%s",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
}

static void join(struct http_client *client, const struct waiting *game, const char *name, const char *player_token,
		 struct http_response *out)
{
	char path[96], body[256];
	snprintf(path, sizeof path, "%s/join", game->path);
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"%s\"}", game->invite, name);
	http_call(client, "POST", path, player_token, body, NULL, out);
}

/* GET the game's view (anyone may): its status, copied into `status`; the view (caller
 * decrefs). */
static json_t *game_view(const struct waiting *game, char *status, size_t size)
{
	json_t *view = http_get_ok(&http_fixture.checked, game->path, NULL);
	snprintf(status, size, "%s", json_string_value(json_object_get(view, "status")));
	return view;
}

/* How many lines of the server log at `path` contain both `a` and `b`. */
static int log_lines_with(const char *path, const char *a, const char *b)
{
	FILE *file = fopen(path, "r");
	ck_assert_msg(file != NULL, "the server log %s", path);
	char line[4096];
	int count = 0;
	while (fgets(line, sizeof line, file))
		if (strstr(line, a) && strstr(line, b))
			count++;
	fclose(file);
	return count;
}

/* The lobby's first page lists the game? */
static int lobby_lists(const char *id)
{
	json_t *lobby = http_get_ok(&http_fixture.checked, "/v1/games?status=waiting&limit=100", NULL);
	json_t *games = json_object_get(lobby, "games");
	int found = 0;
	for (size_t i = 0; i < json_array_size(games); i++)
		if (strcmp(json_string_value(json_object_get(json_array_get(games, i), "id")), id) == 0)
			found = 1;
	json_decref(lobby);
	return found;
}

START_TEST(test_a_waiting_game_nobody_filled_expires_once_and_for_good)
{
	char player_id[20], player_token[64];
	http_player_create(&http_fixture.checked, "Ada", player_id, player_token);
	struct waiting game;
	double created = http_clock();
	create_waiting(&http_fixture.checked,
		       "{\"players\": [{\"name\": \"Host\"}, {\"open\": true}, {\"open\": true}], \"public\": true}",
		       &game);
	/* One of the two open seats is taken: the game still waits, and expires all the same. */
	struct http_response response;
	join(&http_fixture.checked, &game, "Ada", player_token, &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	http_response_free(&response);

	/* Never early: read well inside the period, the game waits (a bound that only a slow
	 * machine can miss, and then the check is skipped, not failed). */
	char status[16];
	json_t *view = game_view(&game, status, sizeof status);
	if (http_clock() - created < EXPIRE_S * 0.5)
		ck_assert_str_eq(status, "waiting");
	json_decref(view);
	if (http_clock() - created < EXPIRE_S * 0.5)
		ck_assert_msg(lobby_lists(game.id), "the lobby lists the waiting game");

	/* It expires: the sweep runs every second on each server. */
	double deadline = http_clock() + 30.0 * http_slowdown();
	for (;;) {
		view = game_view(&game, status, sizeof status);
		if (strcmp(status, "expired") == 0 || http_clock() > deadline)
			break;
		json_decref(view);
		http_pause(0.2);
	}
	ck_assert_msg(strcmp(status, "expired") == 0, "the game expired within 30 s: %s", status);
	double created_at = http_parse_time(json_string_value(json_object_get(view, "created_at")));
	double expired_at = http_parse_time(json_string_value(json_object_get(view, "expired_at")));
	ck_assert_msg(expired_at - created_at >= EXPIRE_S - 0.001, "not before the period: %.3f s after creation",
		      expired_at - created_at);
	ck_assert_int_eq(json_integer_value(json_object_get(view, "open_seats")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(json_object_get(view, "seats"), 1), "name")),
			 "Ada");
	json_decref(view);

	/* Its seats say so too, and the lobby no longer lists it. */
	char path[128];
	snprintf(path, sizeof path, "%s/seats", game.path);
	json_t *seats = http_get_ok(&http_fixture.checked, path, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(seats, "status")), "expired");
	json_decref(seats);
	ck_assert_msg(!lobby_lists(game.id), "the lobby does not list an expired game");

	/* For good: a join and the admin's changes are refused and change nothing. */
	join(&http_fixture.checked, &game, "Bea", NULL, &response);
	http_assert_problem(&response, 409, "game_expired");
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/seats/2/bot", game.path);
	http_call(&http_fixture.checked, "POST", path, game.admin, "{\"name\": \"Robo\"}", NULL, &response);
	http_assert_problem(&response, 409, "game_expired");
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/seats/1", game.path);
	http_call(&http_fixture.checked, "DELETE", path, game.admin, NULL, NULL, &response);
	http_assert_problem(&response, 409, "game_expired");
	http_response_free(&response);
	view = game_view(&game, status, sizeof status);
	ck_assert_str_eq(status, "expired");
	ck_assert_int_eq(json_integer_value(json_object_get(view, "open_seats")), 1);
	json_decref(view);
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM events WHERE game_id = ('x' || '%s')::bit(64)::bigint",
		 game.id);
	ck_assert_int_eq(http_sql_number(sql), 0);

	/* The joined player's token: the game's other routes are refused, the player's games
	 * list it as expired. */
	snprintf(path, sizeof path, "%s/actions", game.path);
	http_call(&http_fixture.checked, "GET", path, player_token, NULL, NULL, &response);
	http_assert_problem(&response, 409, "game_not_started");
	http_response_free(&response);
	json_t *mine = http_get_ok(&http_fixture.checked, "/v1/players/me/games", player_token);
	json_t *games = json_object_get(mine, "games");
	int listed = 0;
	for (size_t i = 0; i < json_array_size(games); i++) {
		json_t *entry = json_array_get(games, i);
		if (strcmp(json_string_value(json_object_get(entry, "id")), game.id) == 0) {
			listed = 1;
			ck_assert_str_eq(json_string_value(json_object_get(entry, "status")), "expired");
		}
	}
	ck_assert_msg(listed, "the player's games list the expired game");
	json_decref(mine);

	/* Exactly once over both servers' sweeps (give a last sweep its second). */
	http_pause(1.5);
	int lines = log_lines_with(http_fixture.server.log_path, "waiting game expired", game.id) +
		    log_lines_with(http_fixture.second.log_path, "waiting game expired", game.id);
	ck_assert_msg(lines == 1, "one expiry logged over both servers, not %d", lines);
}
END_TEST

START_TEST(test_a_game_that_started_in_time_is_not_expired)
{
	struct waiting game;
	create_waiting(&http_fixture.checked,
		       "{\"players\": [{\"name\": \"Host\"}, {\"name\": \"Two\"}, {\"open\": true}]}", &game);
	struct http_response response;
	join(&http_fixture.direct, &game, "Cyd", NULL, &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "started");
	http_response_free(&response);
	http_pause(EXPIRE_S + 2.0);
	char status[16];
	json_t *view = game_view(&game, status, sizeof status);
	ck_assert_msg(strcmp(status, "setup") == 0, "a started game stays started: %s", status);
	ck_assert_ptr_null(json_object_get(view, "expired_at"));
	json_decref(view);
}
END_TEST

/* GET `suffix` of the game with `token`: 200 expected. */
static void read_ok(const struct http_game *game, const char *suffix, const char *token)
{
	char path[160];
	http_game_path(game, suffix, path, sizeof path);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "GET %s after the end: %s", path, http_describe(&response));
	http_response_free(&response);
}

START_TEST(test_a_finished_games_tokens_read_but_do_not_write)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\"}", &game);
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, 2811, 0);
	http_player_finish(&player, MAX_MOVES);
	struct http_state before;
	http_state_capture(&http_fixture.direct, &game, &before);

	for (int seat = 0; seat < game.seats; seat++) {
		const char *token = game.tokens[seat];
		char path[160];
		http_game_path(&game, "", path, sizeof path);
		json_t *view = http_get_ok(&http_fixture.checked, path, token);
		ck_assert_str_eq(json_string_value(json_object_get(view, "status")), "finished");
		ck_assert_msg(json_is_object(json_object_get(view, "you")), "the seat's token still shows its hand");
		json_decref(view);
		read_ok(&game, "/actions", token);
		read_ok(&game, "/moves", token);
		read_ok(&game, "/export", token);
		read_ok(&game, "/summary", token);
		read_ok(&game, "/board.svg", token);
		read_ok(&game, "/seats", NULL); /* for anyone: the contract takes no token there */

		struct http_response response;
		http_post_move(&http_fixture.checked, &game, seat, "{\"type\": \"end_turn\"}", NULL, &response);
		http_assert_problem(&response, 422, "game_finished"); /* the rules' refusal, with the version */
		http_response_free(&response);
		http_post_move(&http_fixture.checked, &game, seat, "{\"type\": \"roll\"}", NULL, &response);
		http_assert_problem(&response, 422, "game_finished");
		http_response_free(&response);
		http_game_path(&game, "/trades", path, sizeof path);
		http_call(&http_fixture.checked, "POST", path, token,
			  "{\"give\": {\"wood\": 1}, \"want\": {\"brick\": 1}}", NULL, &response);
		http_assert_problem(&response, 422, "game_finished");
		http_response_free(&response);
		char suffix[32];
		snprintf(suffix, sizeof suffix, "/seats/%d/away", seat);
		http_game_path(&game, suffix, path, sizeof path);
		http_call(&http_fixture.checked, "POST", path, token, NULL, NULL, &response);
		http_assert_problem(&response, 409, "game_finished");
		http_response_free(&response);
	}
	http_state_assert_unchanged(&http_fixture.direct, &game, &before);
	http_state_free(&before);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_lobby_hygiene");
	TCase *tc = tcase_create("expiry and finished games");
	http_fixture_add(tc, HTTP_FIXTURE_PRISM | HTTP_FIXTURE_SECOND_SERVER, settings);
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_a_waiting_game_nobody_filled_expires_once_and_for_good);
	tcase_add_test(tc, test_a_game_that_started_in_time_is_not_expired);
	tcase_add_test(tc, test_a_finished_games_tokens_read_but_do_not_write);
	suite_add_tcase(suite, tc);
	return suite;
}
