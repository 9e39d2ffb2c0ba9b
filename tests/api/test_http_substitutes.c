/*
 * test_http_substitutes.c - a seat whose player left, and the substitute who takes it, over
 * HTTP (issue 28, point 2): POST .../seats/{seat}/release (the seat's own token) leaves the
 * seat to the bot; POST .../seats/{seat}/substitute (the admin or the seat) gives an invite;
 * POST .../join with it takes the seat with a new token, and the old one stops at once. The
 * lobby's ?status=needs_substitute lists public games with such a seat and nothing secret.
 * The substitute sees exactly what the seat saw, and nothing of the other hands; the log
 * says what happened (seat_released, seat_substituted) with no secret in it, and exports
 * and replays. A seat whose deadline decided options.substitute_after_timeouts times in a
 * row leaves the same way (origin timeout). Every refusal is a problem+json that changes
 * nothing.
 *
 * One server behind Prism checking every response against the contract; refusals go
 * straight to the server.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define OPTIONS "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"offer_wait_s\": 0}"

/* POST <game><suffix> with `token` and `body` (NULL: none). */
static void post(struct http_client *client, const struct http_game *game, const char *suffix, const char *token,
		 const char *body, struct http_response *response)
{
	char path[160];
	http_call(client, "POST", http_game_path(game, suffix, path, sizeof path), token, body, NULL, response);
}

/* A public game of Ann (seat 0, bound to `ann_player` whose token is `ann_token` when not
 * NULL: that token is the seat's), Bea (seat 1, who joined with the invite) and Cal (seat 2),
 * started. */
static void make_public_game(const char *ann_player, const char *ann_token, struct http_game *game)
{
	char ann[96], body[512];
	if (ann_player)
		snprintf(ann, sizeof ann, "{\"player\": \"%s\"}", ann_player);
	else
		snprintf(ann, sizeof ann, "{\"name\": \"Ann\"}");
	snprintf(body, sizeof body,
		 "{\"players\": [%s, {\"open\": true}, {\"name\": \"Cal\"}], \"public\": true, "
		 "\"options\": " OPTIONS "}",
		 ann);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201, "create: %s", http_describe(&response));
	memset(game, 0, sizeof *game);
	snprintf(game->id, sizeof game->id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(game->path, sizeof game->path, "/v1/games/%s", game->id);
	snprintf(game->admin_token, sizeof game->admin_token, "%s",
		 json_string_value(json_object_get(response.json, "admin_token")));
	json_t *seats = json_object_get(response.json, "seats");
	snprintf(game->tokens[0], sizeof game->tokens[0], "%s",
		 ann_player ? ann_token : json_string_value(json_object_get(json_array_get(seats, 0), "token")));
	snprintf(game->tokens[2], sizeof game->tokens[2], "%s",
		 json_string_value(json_object_get(json_array_get(seats, 2), "token")));
	char join[160];
	snprintf(join, sizeof join, "{\"invite\": \"%s\", \"name\": \"Bea\"}",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
	post(&http_fixture.checked, game, "/join", NULL, join, &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "started");
	snprintf(game->tokens[1], sizeof game->tokens[1], "%s",
		 json_string_value(json_object_get(response.json, "token")));
	http_response_free(&response);
	game->seats = 3;
}

static void release_ok(const struct http_game *game, int seat, const char *token)
{
	char suffix[48];
	snprintf(suffix, sizeof suffix, "/seats/%d/release", seat);
	struct http_response response;
	post(&http_fixture.checked, game, suffix, token, NULL, &response);
	ck_assert_msg(response.status == 200, "release seat %d: %s", seat, http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), seat);
	ck_assert(json_is_true(json_object_get(response.json, "needs_substitute")));
	http_response_free(&response);
}

/* The game view's (spectator's, or .../players with `players_route`) players[seat].
 * needs_substitute, which must be a boolean, as 0/1. */
static int view_needs_substitute(const struct http_game *game, int seat, int players_route)
{
	char path[128];
	json_t *view =
		http_get_ok(&http_fixture.checked,
			    players_route ? http_game_path(game, "/players", path, sizeof path) : game->path, NULL);
	json_t *value =
		json_object_get(json_array_get(json_object_get(view, "players"), (size_t)seat), "needs_substitute");
	ck_assert_msg(json_is_boolean(value), "the view's seat %d has needs_substitute", seat);
	int flag = json_is_true(value);
	json_decref(view);
	return flag;
}

/* An invite for seat `seat`'s substitute, asked with `token`, into code. */
static void invite_ok(const struct http_game *game, int seat, const char *token, char code[64])
{
	char suffix[48];
	snprintf(suffix, sizeof suffix, "/seats/%d/substitute", seat);
	struct http_response response;
	post(&http_fixture.checked, game, suffix, token, NULL, &response);
	ck_assert_msg(response.status == 201, "invite seat %d: %s", seat, http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), seat);
	snprintf(code, 64, "%s", json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	ck_assert_msg(strncmp(code, "iv_", 3) == 0, "invite code %s", code);
	http_response_free(&response);
}

/* GET .../seats: seat `seat`'s member `name` as 0/1 (a boolean), or the name's equality. */
static json_t *seat_entry(const struct http_game *game, int seat)
{
	char path[128];
	json_t *seats = http_get_ok(&http_fixture.checked, http_game_path(game, "/seats", path, sizeof path), NULL);
	json_t *entry = json_incref(json_array_get(json_object_get(seats, "seats"), (size_t)seat));
	json_decref(seats);
	ck_assert_ptr_nonnull(entry);
	return entry;
}

static int seat_flag(const struct http_game *game, int seat, const char *name)
{
	json_t *entry = seat_entry(game, seat);
	json_t *value = json_object_get(entry, name);
	ck_assert_msg(json_is_boolean(value), "seat %d has %s", seat, name);
	int flag = json_is_true(value);
	json_decref(entry);
	return flag;
}

/* The lobby page of `status` (waiting, needs_substitute): the entry of `game`, or NULL. The
 * whole page holds no secret of any kind. */
static json_t *lobby_entry(const struct http_game *game, const char *status)
{
	char path[96];
	snprintf(path, sizeof path, "/v1/games?status=%s&limit=100", status);
	json_t *page = http_get_ok(&http_fixture.checked, path, NULL);
	char *text = json_dumps(page, JSON_COMPACT);
	ck_assert_msg(!strstr(text, "\"st_") && !strstr(text, "\"iv_") && !strstr(text, "\"at_") &&
			      !strstr(text, "\"pt_") && !strstr(text, "\"token\"") && !strstr(text, "\"invite\"") &&
			      !strstr(text, "\"player\""),
		      "the lobby holds a secret: %s", text);
	free(text);
	json_t *found = NULL;
	size_t index;
	json_t *entry;
	json_array_foreach(json_object_get(page, "games"), index, entry)
	{
		if (strcmp(json_string_value(json_object_get(entry, "id")), game->id) == 0)
			found = json_incref(entry);
	}
	json_decref(page);
	return found;
}

/* The number of log entries of `type` for `seat` with `origin`; each has no member but
 * type, seat, version, created_at and origin. */
static int count_seat_events(const json_t *log, const char *type, int seat, const char *origin)
{
	int count = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(log, index, entry)
	{
		if (strcmp(json_string_value(json_object_get(entry, "type")), type) != 0)
			continue;
		ck_assert_int_eq(json_object_size(entry), 5);
		ck_assert(json_object_get(entry, "seat") && json_object_get(entry, "version") &&
			  json_object_get(entry, "created_at") && json_object_get(entry, "origin"));
		if (json_integer_value(json_object_get(entry, "seat")) == seat &&
		    strcmp(json_string_value(json_object_get(entry, "origin")), origin) == 0)
			count++;
	}
	return count;
}

/* The seats the game waits for, as a bit mask, and its version. */
static unsigned waiting_for(const struct http_game *game, long *version)
{
	char path[128];
	json_t *actions = http_get_ok(&http_fixture.checked, http_game_path(game, "/actions", path, sizeof path), NULL);
	unsigned mask = 0;
	size_t index;
	json_t *seat;
	json_array_foreach(json_object_get(actions, "waiting_for"), index, seat) mask |= 1u << json_integer_value(seat);
	*version = (long)json_integer_value(json_object_get(actions, "version"));
	json_decref(actions);
	return mask;
}

static long wait_for_seats(const struct http_game *game, unsigned mask, double timeout_s)
{
	double deadline = http_clock() + timeout_s * http_slowdown();
	long version;
	unsigned now;
	while ((now = waiting_for(game, &version)) != mask) {
		ck_assert_msg(http_clock() < deadline, "the game waits for seats %#x, not %#x", now, mask);
		http_pause(0.05);
	}
	return version;
}

START_TEST(test_a_substitute_takes_a_released_seat_with_a_new_token_and_sees_only_that_seat)
{
	struct http_game game;
	make_public_game(NULL, NULL, &game);
	long start = wait_for_seats(&game, 1u << 0, 10);

	ck_assert(!view_needs_substitute(&game, 1, 0));
	ck_assert(!view_needs_substitute(&game, 1, 1));

	/* Bea leaves: the bot holds seat 1, and the lobby lists the game, without secrets. */
	release_ok(&game, 1, game.tokens[1]);
	/* The game view says so too, for that seat alone. */
	ck_assert(view_needs_substitute(&game, 1, 0));
	ck_assert(view_needs_substitute(&game, 1, 1));
	ck_assert(!view_needs_substitute(&game, 0, 0));
	ck_assert(!view_needs_substitute(&game, 2, 1));
	json_t *entry = seat_entry(&game, 1);
	ck_assert(json_is_true(json_object_get(entry, "needs_substitute")));
	ck_assert(json_is_true(json_object_get(entry, "bot")));
	ck_assert(json_is_false(json_object_get(entry, "substitute_invited")));
	json_decref(entry);
	ck_assert(!seat_flag(&game, 0, "needs_substitute"));
	json_t *listed = lobby_entry(&game, "needs_substitute");
	ck_assert_msg(listed != NULL, "the lobby lists the game whose seat needs a substitute");
	ck_assert_str_eq(json_string_value(json_object_get(listed, "status")), "needs_substitute");
	json_t *listed_seats = json_object_get(listed, "seats");
	ck_assert(json_is_true(json_object_get(json_array_get(listed_seats, 1), "open")));
	ck_assert(json_is_false(json_object_get(json_array_get(listed_seats, 0), "open")));
	ck_assert(json_is_false(json_object_get(json_array_get(listed_seats, 2), "open")));
	ck_assert_int_eq(json_integer_value(json_object_get(listed, "open_seats")), 1);
	json_decref(listed);
	ck_assert_ptr_null(lobby_entry(&game, "waiting"));

	/* What seat 1 sees now, and what a spectator sees. */
	json_t *seat_view = http_get_ok(&http_fixture.checked, game.path, game.tokens[1]);
	json_t *spectator = http_get_ok(&http_fixture.checked, game.path, NULL);
	/* An unrated game says so (a client offers substitutes only then). */
	ck_assert(json_is_false(json_object_get(json_object_get(spectator, "options"), "rated")));

	/* The seat invites, then the admin: the second invite replaces the first. */
	char first[64], second[64];
	invite_ok(&game, 1, game.tokens[1], first);
	ck_assert(seat_flag(&game, 1, "substitute_invited"));
	invite_ok(&game, 1, game.admin_token, second);
	ck_assert_str_ne(first, second);
	struct http_state before;
	http_state_capture(&http_fixture.direct, &game, &before);
	char body[160];
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"Sub\"}", first);
	struct http_response response;
	post(&http_fixture.direct, &game, "/join", NULL, body, &response);
	http_assert_problem(&response, 403, "wrong_invite");
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.direct, &game, &before);
	http_state_free(&before);

	/* The substitute takes the seat with a new token; the old one stops at once. */
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"Sub\"}", second);
	post(&http_fixture.checked, &game, "/join", NULL, body, &response);
	ck_assert_msg(response.status == 200, "substitute join: %s", http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "started");
	char old_token[64];
	snprintf(old_token, sizeof old_token, "%s", game.tokens[1]);
	snprintf(game.tokens[1], sizeof game.tokens[1], "%s",
		 json_string_value(json_object_get(response.json, "token")));
	ck_assert_str_ne(old_token, game.tokens[1]);
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", game.path, old_token, NULL, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	post(&http_fixture.checked, &game, "/seats/1/substitute", old_token, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	/* The invite is spent. */
	post(&http_fixture.direct, &game, "/join", NULL, body, &response);
	http_assert_problem(&response, 403, "wrong_invite");
	http_response_free(&response);

	/* Redaction: the substitute's view is the seat's (its name and holder aside), and of the
	 * other seats it sees what a spectator sees. */
	json_t *substitute_view = http_get_ok(&http_fixture.checked, game.path, game.tokens[1]);
	json_t *players = json_object_get(substitute_view, "players");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(players, 1), "name")), "Sub");
	ck_assert(json_is_false(json_object_get(json_array_get(players, 1), "bot")));
	for (size_t s = 0; s < 3; s++) {
		if (s == 1)
			continue;
		ck_assert_msg(json_equal(json_array_get(players, s),
					 json_array_get(json_object_get(spectator, "players"), s)),
			      "the substitute sees seat %zu as a spectator does", s);
	}
	json_t *was = json_array_get(json_object_get(seat_view, "players"), 1);
	json_object_set_new(was, "name", json_string("Sub"));
	json_object_set_new(was, "bot", json_false());
	/* Seen while the seat awaited its substitute; now it has one. */
	ck_assert(json_is_true(json_object_get(was, "needs_substitute")));
	json_object_set_new(was, "needs_substitute", json_false());
	json_object_del(seat_view, "version");
	json_object_del(substitute_view, "version");
	char *expected = json_dumps(seat_view, JSON_SORT_KEYS | JSON_COMPACT);
	char *seen = json_dumps(substitute_view, JSON_SORT_KEYS | JSON_COMPACT);
	ck_assert_msg(strcmp(expected, seen) == 0, "the substitute's view\n%s\nis not the seat's\n%s", seen, expected);
	free(expected);
	free(seen);
	json_decref(substitute_view);
	json_decref(seat_view);
	json_decref(spectator);

	ck_assert(!view_needs_substitute(&game, 1, 0));
	ck_assert(!view_needs_substitute(&game, 1, 1));
	entry = seat_entry(&game, 1);
	ck_assert(json_is_false(json_object_get(entry, "needs_substitute")));
	ck_assert(json_is_false(json_object_get(entry, "bot")));
	ck_assert_str_eq(json_string_value(json_object_get(entry, "name")), "Sub");
	json_decref(entry);
	ck_assert_ptr_null(lobby_entry(&game, "needs_substitute"));
	json_t *log = http_game_log(&http_fixture.checked, &game, game.tokens[1], start);
	ck_assert_int_eq(count_seat_events(log, "seat_released", 1, "player"), 1);
	ck_assert_int_eq(count_seat_events(log, "seat_substituted", 1, "player"), 1);
	json_decref(log);

	/* The game plays on to its end with the substitute; then neither is possible, and the
	 * export (with both events) replays. */
	struct http_player table;
	http_player_init(&table, &http_fixture.checked, &game, 2811, 0);
	table.humans = 0x7;
	http_player_finish(&table, 5000);
	post(&http_fixture.direct, &game, "/seats/0/release", game.tokens[0], NULL, &response);
	http_assert_problem(&response, 409, "game_finished");
	http_response_free(&response);
	post(&http_fixture.direct, &game, "/seats/1/substitute", game.admin_token, NULL, &response);
	http_assert_problem(&response, 409, "game_finished");
	http_response_free(&response);
	char path[128];
	json_t *export = http_get_ok(&http_fixture.checked, http_game_path(&game, "/export", path, sizeof path), NULL);
	ck_assert_int_eq(count_seat_events(json_object_get(export, "events"), "seat_released", 1, "player"), 1);
	ck_assert_int_eq(count_seat_events(json_object_get(export, "events"), "seat_substituted", 1, "player"), 1);
	http_export_replays_and_imports(&http_fixture.direct, game.id, export, "substitutes");
	json_decref(export);
}
END_TEST

/* A request that must be refused with `status` and `code`, changing nothing anyone sees. */
static void assert_refused(const struct http_game *game, const char *suffix, const char *token, const char *body,
			   long status, const char *code)
{
	struct http_state before;
	http_state_capture(&http_fixture.direct, game, &before);
	struct http_response response;
	post(&http_fixture.direct, game, suffix, token, body, &response);
	http_assert_problem(&response, status, code);
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.direct, game, &before);
	http_state_free(&before);
}

START_TEST(test_who_may_release_and_invite_and_bad_input_changes_nothing)
{
	char ann_id[20], ann_token[64];
	http_player_create(&http_fixture.checked, "Ann", ann_id, ann_token);
	struct http_game game;
	make_public_game(ann_id, ann_token, &game);
	wait_for_seats(&game, 1u << 0, 10);
	/* Releasing is the seat's own. */
	assert_refused(&game, "/seats/1/release", game.admin_token, NULL, 403, "seat_token_required");
	assert_refused(&game, "/seats/1/release", game.tokens[0], NULL, 403, "seat_mismatch");
	assert_refused(&game, "/seats/1/release", ann_token, NULL, 403, "seat_mismatch");
	assert_refused(&game, "/seats/1/release", NULL, NULL, 401, "missing_token");
	assert_refused(&game, "/seats/x/release", game.tokens[1], NULL, 400, "invalid_field");
	assert_refused(&game, "/seats/3/release", game.tokens[1], NULL, 400, "invalid_field");
	assert_refused(&game, "/seats/1/release", game.tokens[1], "{\"now\": true}", 400, "unknown_field");
	/* A seat whose player is there needs no substitute. */
	assert_refused(&game, "/seats/1/substitute", game.admin_token, NULL, 409, "substitute_not_needed");
	assert_refused(&game, "/seats/0/substitute", ann_token, NULL, 409, "substitute_not_needed");
	release_ok(&game, 1, game.tokens[1]);
	assert_refused(&game, "/seats/1/release", game.tokens[1], NULL, 409, "seat_not_changeable");
	/* Inviting is the admin's or the seat's. */
	assert_refused(&game, "/seats/1/substitute", game.tokens[0], NULL, 403, "seat_mismatch");
	assert_refused(&game, "/seats/1/substitute", NULL, NULL, 401, "missing_token");
	assert_refused(&game, "/seats/1/substitute", game.admin_token, "{\"listed\": true}", 400, "unknown_field");
	char code[64];
	invite_ok(&game, 1, game.admin_token, code);
	/* Ann holds seat 0: her player cannot take seat 1 too; a wrong invite is refused.
	 * Neither changes anything. */
	char body[160];
	snprintf(body, sizeof body, "{\"invite\": \"%s\"}", code);
	struct http_state before;
	http_state_capture(&http_fixture.direct, &game, &before);
	struct http_response response;
	char path[128];
	http_call(&http_fixture.direct, "POST", http_game_path(&game, "/join", path, sizeof path), ann_token, body,
		  NULL, &response);
	http_assert_problem(&response, 409, "already_seated");
	http_response_free(&response);
	assert_refused(&game, "/join", NULL, "{\"invite\": \"iv_not-the-seat-s\", \"name\": \"Eve\"}", 403,
		       "wrong_invite");
	http_state_assert_unchanged(&http_fixture.direct, &game, &before);
	http_state_free(&before);
	ck_assert(seat_flag(&game, 1, "needs_substitute"));
	/* A player who holds no seat takes it: the seat is bound to that player, whose token
	 * then acts for it (and Bea's old token for nothing). */
	char cy_id[20], cy_token[64];
	http_player_create(&http_fixture.checked, "Cy", cy_id, cy_token);
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/join", path, sizeof path), cy_token, body,
		  NULL, &response);
	ck_assert_msg(response.status == 200, "Cy substitutes: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "name")), "Cy");
	http_response_free(&response);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, cy_token);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "you"), "seat")), 1);
	json_decref(view);
	http_call(&http_fixture.checked, "GET", game.path, game.tokens[1], NULL, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);

	/* A rated game has no substitutes. */
	char bea_id[20], bea_token[64], dee_id[20], dee_token[64];
	http_player_create(&http_fixture.checked, "Bea", bea_id, bea_token);
	http_player_create(&http_fixture.checked, "Dee", dee_id, dee_token);
	char create[512];
	snprintf(create, sizeof create,
		 "{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"player\": \"%s\"}], \"options\": "
		 "{\"layout\": \"beginner\", \"rated\": true}}",
		 ann_id, bea_id, dee_id);
	struct http_game rated;
	http_game_create_body(&http_fixture.checked, create, &rated);
	assert_refused(&rated, "/seats/1/release", rated.tokens[1], NULL, 409, "rated_game");
	assert_refused(&rated, "/seats/1/substitute", rated.admin_token, NULL, 409, "rated_game");
}
END_TEST

/* Make the game's timer due now, as if its time had come. */
static void timer_due_now(const struct http_game *game)
{
	char sql[160];
	snprintf(sql, sizeof sql,
		 "WITH t AS (UPDATE game_timers SET due_at = now() WHERE game_id = %lld RETURNING 1) "
		 "SELECT count(*) FROM t",
		 (long long)strtoull(game->id, NULL, 16));
	ck_assert_int_eq(http_sql_number(sql), 1);
}

/* Let the deadline decide once for the game, which waits for seat 0: the version after. */
static long deadline_decides(const struct http_game *game)
{
	long before = wait_for_seats(game, 1u << 0, 30);
	timer_due_now(game);
	double deadline = http_clock() + 15 * http_slowdown();
	long now;
	while (waiting_for(game, &now), now == before) {
		ck_assert_msg(http_clock() < deadline, "the deadline made no move");
		http_pause(0.05);
	}
	return now;
}

/* Seat `seat` makes one move of its own, a legal one drawn at random (http_player). */
static void own_move(const struct http_game *game, int seat)
{
	wait_for_seats(game, 1u << seat, 30);
	struct http_player player;
	http_player_init(&player, &http_fixture.checked, game, 4417, 0);
	player.humans = (uint8_t)(1u << seat);
	struct http_move move;
	ck_assert(http_player_step(&player, &move));
	ck_assert_int_eq(move.seat, seat);
	http_move_free(&move);
}

START_TEST(test_a_seat_whose_deadline_decides_n_times_in_a_row_needs_a_substitute)
{
	char body[512];
	snprintf(
		body, sizeof body,
		"{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bea\"}, {\"name\": \"Robo\", \"bot\": true}], "
		"\"options\": {\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"offer_wait_s\": 0, "
		"\"turn_timeout_s\": 3600, \"substitute_after_timeouts\": 2}}");
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert_int_eq(
		json_integer_value(json_object_get(json_object_get(view, "options"), "substitute_after_timeouts")), 2);
	json_decref(view);
	long start = wait_for_seats(&game, 1u << 0, 10);
	/* Bea is on holiday: the bot plays her seat, and nobody's deadline but Ann's runs. */
	struct http_response response;
	post(&http_fixture.checked, &game, "/seats/1/away", game.tokens[1], NULL, &response);
	ck_assert_msg(response.status == 200, "away: %s", http_describe(&response));
	http_response_free(&response);
	/* Once, then Ann moves herself: the count starts again. */
	deadline_decides(&game);
	ck_assert(!seat_flag(&game, 0, "needs_substitute"));
	own_move(&game, 0);
	deadline_decides(&game);
	ck_assert(!seat_flag(&game, 0, "needs_substitute"));
	ck_assert(!seat_flag(&game, 0, "bot"));
	/* Twice in a row: Ann has left; the bot holds her seat until a substitute comes. */
	deadline_decides(&game);
	double until = http_clock() + 15 * http_slowdown();
	while (!seat_flag(&game, 0, "needs_substitute")) {
		ck_assert_msg(http_clock() < until, "seat 0 never needed a substitute");
		http_pause(0.05);
	}
	ck_assert(seat_flag(&game, 0, "bot"));
	ck_assert(view_needs_substitute(&game, 0, 0));
	ck_assert(!view_needs_substitute(&game, 1, 0)); /* away on holiday is not gone */
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, start);
	ck_assert_int_eq(count_seat_events(log, "seat_released", 0, "timeout"), 1);
	json_decref(log);
	/* Her old token still reads the seat and invites; the substitute takes it. */
	char code[64];
	invite_ok(&game, 0, game.tokens[0], code);
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"Sam\"}", code);
	post(&http_fixture.checked, &game, "/join", NULL, body, &response);
	ck_assert_msg(response.status == 200, "substitute: %s", http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), 0);
	http_response_free(&response);
	ck_assert(!seat_flag(&game, 0, "needs_substitute"));
	ck_assert(!seat_flag(&game, 0, "bot"));
}
END_TEST

/* Rated games have no substitutes (the choice of issue 28): releasing and inviting are 409
 * rated_game (above), options.substitute_after_timeouts is 0 (a rated game's timeouts
 * never give its seat away: each is the deadline's outcome, counted in the player's
 * reliability) and asking for more than 0 is refused naming it. */
START_TEST(test_a_rated_game_keeps_its_seats_through_its_timeouts)
{
	char ids[3][20], tokens[3][64];
	static const char *const names[] = {"Ria", "Rob", "Roz"};
	for (int s = 0; s < 3; s++)
		http_player_create(&http_fixture.checked, names[s], ids[s], tokens[s]);
	char body[640];
	snprintf(
		body, sizeof body,
		"{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"player\": \"%s\"}], "
		"\"options\": {\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"offer_wait_s\": 0, "
		"\"turn_timeout_s\": 3600, \"rated\": true, \"substitute_after_timeouts\": 2}}",
		ids[0], ids[1], ids[2]);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games", NULL, body, NULL, &response);
	http_assert_problem(&response, 400, "invalid_field");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")),
			 "options.substitute_after_timeouts");
	http_response_free(&response);
	snprintf(
		body, sizeof body,
		"{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"player\": \"%s\"}], "
		"\"options\": {\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"offer_wait_s\": 0, "
		"\"turn_timeout_s\": 3600, \"rated\": true}}",
		ids[0], ids[1], ids[2]);
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	json_t *options = json_object_get(view, "options");
	ck_assert_int_eq(json_integer_value(json_object_get(options, "substitute_after_timeouts")), 0);
	json_decref(view);
	wait_for_seats(&game, 1u << 0, 10);
	/* Seats 1 and 2 on holiday: the bots play them, and only seat 0's deadline runs. */
	for (int s = 1; s < 3; s++) {
		char suffix[32];
		snprintf(suffix, sizeof suffix, "/seats/%d/away", s);
		post(&http_fixture.checked, &game, suffix, game.tokens[s], NULL, &response);
		ck_assert_msg(response.status == 200, "away: %s", http_describe(&response));
		http_response_free(&response);
	}
	long start = http_game_version(&http_fixture.checked, &game);
	for (int timeouts = 0; timeouts < 4; timeouts++) {
		deadline_decides(&game);
		ck_assert(!seat_flag(&game, 0, "needs_substitute"));
		ck_assert(!seat_flag(&game, 0, "bot"));
		ck_assert(!view_needs_substitute(&game, 0, 0));
	}
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, start);
	ck_assert_int_eq(count_seat_events(log, "seat_released", 0, "timeout"), 0);
	json_decref(log);
	/* Once the bots are done and only seat 0's hour runs, its release changes nothing. */
	wait_for_seats(&game, 1u << 0, 30);
	assert_refused(&game, "/seats/0/release", game.tokens[0], NULL, 409, "rated_game");
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_substitutes");
	TCase *substitutes = tcase_create("substitutes");
	/* Games of bots only need the creation key: a game whose people all left or went away is
	 * then paced by its turn clock (game/play.h play_unattended()), so the last test's game
	 * waits for its substitute instead of racing to its end. */
	static const char *const settings[] = {"ALL_BOT_GAMES=0", NULL};
	http_fixture_add(substitutes, HTTP_FIXTURE_PRISM, settings);
	tcase_set_timeout(substitutes, 240);
	tcase_add_test(substitutes, test_a_substitute_takes_a_released_seat_with_a_new_token_and_sees_only_that_seat);
	tcase_add_test(substitutes, test_who_may_release_and_invite_and_bad_input_changes_nothing);
	tcase_add_test(substitutes, test_a_seat_whose_deadline_decides_n_times_in_a_row_needs_a_substitute);
	tcase_add_test(substitutes, test_a_rated_game_keeps_its_seats_through_its_timeouts);
	suite_add_tcase(suite, substitutes);
	return suite;
}
