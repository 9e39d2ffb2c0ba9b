/*
 * test_http_holidays.c - a seat on holiday over HTTP: POST .../seats/{seat}/away hands the
 * seat to the server's bot, which moves for it at once (the game goes on without the
 * seat); DELETE takes it back, and the game waits for the seat again. Both are in the log
 * (seat_away, seat_back), and a finished game with them exports, replays (`catan replay`)
 * and imports event for event. Only the seat decides (its token or its player's): another
 * seat's token, the admin's and a foreign player's are 403; a bad seat or body is 400
 * naming the field, and a change that is no change is 409; none of them changes anything.
 * With every human seat away nobody is at the table, and the game runs on no free CPU
 * (issue 20, item 9): without a turn clock it pauses (no timer) until a seat comes back,
 * with one its bots make one decision per turn clock (the timer's row says when).
 *
 * One server behind Prism checking every response against the contract; bad requests go
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

/* offer_wait_s 0: the people here answer nothing the bots offer them, and the bots carry on
 * at once (their waits for people are test_async_bot_offers.c's). */
#define OPTIONS "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"offer_wait_s\": 0}"

struct player {
	char id[20];
	char token[64];
};

static void make_player(const char *name, struct player *out)
{
	http_player_create(&http_fixture.checked, name, out->id, out->token);
}

/* POST (away) or DELETE (back) .../seats/{seat}/away with `token`; the response. */
static void call_away(struct http_client *client, const struct http_game *game, const char *seat, int away,
		      const char *token, const char *body, struct http_response *response)
{
	char path[128];
	snprintf(path, sizeof path, "%s/seats/%s/away", game->path, seat);
	http_call(client, away ? "POST" : "DELETE", path, token, body, NULL, response);
}

/* Away or back, expected to succeed: the answer says so. */
static void away_ok(const struct http_game *game, int seat, int away, const char *token)
{
	char text[8];
	snprintf(text, sizeof text, "%d", seat);
	struct http_response response;
	call_away(&http_fixture.checked, game, text, away, token, NULL, &response);
	ck_assert_msg(response.status == 200, "%s seat %d: %s", away ? "away" : "back", seat, http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), seat);
	ck_assert(json_boolean_value(json_object_get(response.json, "away")) == away);
	http_response_free(&response);
}

/* The seats the game waits for, as a bit mask (from GET .../actions as a spectator). */
static unsigned waiting_for(const struct http_game *game, long *version)
{
	char path[128];
	json_t *actions = http_get_ok(&http_fixture.checked, http_game_path(game, "/actions", path, sizeof path), NULL);
	unsigned mask = 0;
	size_t index;
	json_t *seat;
	json_array_foreach(json_object_get(actions, "waiting_for"), index, seat) mask |= 1u << json_integer_value(seat);
	if (version)
		*version = (long)json_integer_value(json_object_get(actions, "version"));
	json_decref(actions);
	return mask;
}

/* Wait (at most timeout_s) until the game waits for exactly `mask`; the version then. */
static long wait_for_seats(const struct http_game *game, unsigned mask, double timeout_s)
{
	double deadline = http_clock() + timeout_s * http_slowdown();
	long version;
	unsigned now;
	while ((now = waiting_for(game, &version)) != mask) {
		ck_assert_msg(http_clock() < deadline, "the game waits for seats %#x, not %#x, after %.0f s", now, mask,
			      timeout_s);
		http_pause(0.05);
	}
	return version;
}

static json_t *player_view(const struct http_game *game, int seat)
{
	json_t *view = http_get_ok(&http_fixture.checked, game->path, NULL);
	json_t *player = json_incref(json_array_get(json_object_get(view, "players"), (size_t)seat));
	json_decref(view);
	return player;
}

/* The game's timer (game_timers): 1 with its version, kind (1 deadline, 2 bot) and the
 * seconds until it is due; 0 when the game has none. */
static int timer_of(const struct http_game *game, long *version, int *kind, double *due_in_s)
{
	PGconn *connection = PQconnectdb(getenv("DATABASE_URL"));
	ck_assert_int_eq(PQstatus(connection), CONNECTION_OK);
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT version, kind, extract(epoch FROM due_at - now()) FROM game_timers WHERE game_id = %lld",
		 (long long)strtoull(game->id, NULL, 16));
	PGresult *result = PQexec(connection, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s", PQerrorMessage(connection));
	int found = PQntuples(result) == 1;
	if (found) {
		*version = atol(PQgetvalue(result, 0, 0));
		*kind = atoi(PQgetvalue(result, 0, 1));
		*due_in_s = atof(PQgetvalue(result, 0, 2));
	}
	PQclear(result);
	PQfinish(connection);
	return found;
}

/* Make the game's timer due now, as if its time had come. */
static void timer_due_now(const struct http_game *game)
{
	PGconn *connection = PQconnectdb(getenv("DATABASE_URL"));
	ck_assert_int_eq(PQstatus(connection), CONNECTION_OK);
	char sql[160];
	snprintf(sql, sizeof sql, "UPDATE game_timers SET due_at = now() WHERE game_id = %lld",
		 (long long)strtoull(game->id, NULL, 16));
	PGresult *result = PQexec(connection, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_COMMAND_OK && atoi(PQcmdTuples(result)) == 1, "%s",
		      PQerrorMessage(connection));
	PQclear(result);
	PQfinish(connection);
}

START_TEST(test_away_the_bot_moves_for_the_seat_and_back_the_game_waits_for_it_again)
{
	struct player ann;
	make_player("Ann", &ann);
	char body[256];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bea\"}, {\"name\": \"Cal\"}], \"options\": " OPTIONS
		 "}",
		 ann.id);
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);
	long start = wait_for_seats(&game, 1u << 0, 5);

	/* Away (with the seat's token): the bot plays seat 0's turn at once. */
	away_ok(&game, 0, 1, game.tokens[0]);
	json_t *player = player_view(&game, 0);
	ck_assert(json_is_true(json_object_get(player, "away")));
	ck_assert(json_is_true(json_object_get(player, "bot")));
	json_decref(player);
	long moved = wait_for_seats(&game, 1u << 1, 30);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, start);
	ck_assert_int_eq(http_count_entries(log, "seat_away", 0, "player"), 1);
	ck_assert_msg(http_count_entries(log, "dice_rolled", 0, "bot") == 1 &&
			      http_count_entries(log, "turn_ended", 0, "bot") == 1,
		      "the bot rolled and ended seat 0's turn (versions %ld..%ld)", start, moved);
	json_decref(log);

	/* Back (with the player's token); seats 1 and 2 away: the bots go round the table and
	 * the game waits for seat 0 again, and stays waiting. */
	away_ok(&game, 0, 0, ann.token);
	player = player_view(&game, 0);
	ck_assert(json_is_false(json_object_get(player, "away")));
	ck_assert(json_is_false(json_object_get(player, "bot")));
	json_decref(player);
	away_ok(&game, 1, 1, game.tokens[1]);
	away_ok(&game, 2, 1, game.tokens[2]);
	long back = wait_for_seats(&game, 1u << 0, 30);
	http_pause(1.0);
	long later;
	ck_assert_uint_eq(waiting_for(&game, &later), 1u << 0);
	ck_assert_int_eq(later, back);
	log = http_game_log(&http_fixture.checked, &game, game.tokens[0], start);
	ck_assert_int_eq(http_count_entries(log, "seat_back", 0, "player"), 1);
	ck_assert_int_eq(http_count_entries(log, "seat_away", 1, "player"), 1);
	ck_assert_int_eq(http_count_entries(log, "turn_ended", 1, "bot"), 1);
	ck_assert_int_eq(http_count_entries(log, "turn_ended", 2, "bot"), 1);
	json_decref(log);

	/* Away again: every seat is away and nobody is at the table, so the game pauses (no
	 * turn clock: no timer at all) instead of letting three bots play on free CPU. */
	away_ok(&game, 0, 1, game.tokens[0]);
	long paused;
	waiting_for(&game, &paused);
	long timer_version;
	int kind;
	double due_in;
	ck_assert_msg(!timer_of(&game, &timer_version, &kind, &due_in),
		      "an unattended game without a turn clock "
		      "has a timer (kind %d, due in %.1f s)",
		      kind, due_in);
	http_pause(1.0);
	ck_assert_uint_eq(waiting_for(&game, &later), 1u << 0);
	ck_assert_int_eq(later, paused);
	/* Seat 1 comes back and plays beside the bots of seats 0 and 2 to the end. Its export
	 * replays and imports with the holidays in it, event for event. */
	away_ok(&game, 1, 0, game.tokens[1]);
	struct http_player seat_one;
	http_player_init(&seat_one, &http_fixture.checked, &game, 9209, 0);
	seat_one.humans = 1u << 1;
	http_player_finish(&seat_one, 5000);
	char path[128];
	json_t *export = http_get_ok(&http_fixture.checked, http_game_path(&game, "/export", path, sizeof path), NULL);
	ck_assert_int_eq(http_count_entries(json_object_get(export, "events"), "seat_away", -1, NULL), 4);
	ck_assert_int_eq(http_count_entries(json_object_get(export, "events"), "seat_back", -1, NULL), 2);
	char file[256];
	snprintf(file, sizeof file, "%s/catan-holidays-%ld.json",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
	ck_assert_int_eq(json_dump_file(export, file, JSON_COMPACT), 0);
	const char *catan = getenv("CATAN") && *getenv("CATAN") ? getenv("CATAN") : "build/catan";
	char command[600];
	snprintf(command, sizeof command, "'%s' replay '%s' > /dev/null 2>&1", catan, file);
	int replayed = system(command);
	ck_assert_msg(WIFEXITED(replayed) && WEXITSTATUS(replayed) == 0, "catan replay refused the export (%s)", file);
	unlink(file);
	struct http_response response;
	http_call_json(&http_fixture.direct, "POST", "/v1/games/import", NULL, export, NULL, &response);
	ck_assert_msg(response.status == 201, "import: %s", http_describe(&response));
	const char *copy = json_string_value(json_object_get(response.json, "id"));
	json_t *original = http_truth_rows(game.id, 0), *imported = http_truth_rows(copy, 0);
	ck_assert_int_eq(json_array_size(original), json_array_size(imported));
	for (size_t i = 0; i < json_array_size(original); i++) {
		json_t *a = json_array_get(original, i), *b = json_array_get(imported, i);
		json_object_del(a, "at");
		json_object_del(b, "at");
		ck_assert_msg(json_equal(a, b), "row %zu differs after the import", i);
	}
	json_decref(original);
	json_decref(imported);
	http_response_free(&response);
	json_decref(export);
}
END_TEST

START_TEST(test_with_every_human_away_the_bots_move_at_the_pace_of_the_turn_clock)
{
	/* Issue 20, item 9: sending the only human away made a game of bots only, playing as
	 * fast as the workers go. With a turn clock its bots now make one decision per clock. */
	struct http_game game;
	char players[256], body[512];
	http_players_json(3, 0x6, players, sizeof players);
	snprintf(body, sizeof body,
		 "{\"players\": %s, \"options\": {\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, "
		 "\"turn_timeout_s\": 3600, \"offer_wait_s\": 0}}",
		 players);
	http_game_create_body(&http_fixture.checked, body, &game);
	wait_for_seats(&game, 1u << 0, 5);
	away_ok(&game, 0, 1, game.tokens[0]);
	long away_version;
	waiting_for(&game, &away_version);
	/* The bot's move for seat 0 is due one turn clock later, not at once. */
	long timer_version;
	int kind;
	double due_in;
	ck_assert(timer_of(&game, &timer_version, &kind, &due_in));
	ck_assert_int_eq(kind, 2);
	ck_assert_int_eq(timer_version, away_version);
	ck_assert_msg(due_in > 3500 && due_in <= 3600, "the bot's move is due in %.1f s", due_in);
	http_pause(1.0);
	long now;
	waiting_for(&game, &now);
	ck_assert_int_eq(now, away_version);
	/* When the clock comes, exactly one decision is made, and the next is a clock away. */
	for (int decision = 0; decision < 3; decision++) {
		long before;
		waiting_for(&game, &before);
		timer_due_now(&game);
		double deadline = http_clock() + 10 * http_slowdown();
		while (waiting_for(&game, &now), now == before) {
			ck_assert_msg(http_clock() < deadline, "the due bot move was not made");
			http_pause(0.05);
		}
		http_pause(0.5);
		long settled;
		waiting_for(&game, &settled);
		ck_assert_int_eq(settled, now);
		ck_assert(timer_of(&game, &timer_version, &kind, &due_in));
		ck_assert_int_eq(kind, 2);
		ck_assert_int_eq(timer_version, settled);
		ck_assert_msg(due_in > 3500 && due_in <= 3600, "the next bot move is due in %.1f s", due_in);
		/* One decision: the entries since are of one actor, made by the bot. */
		json_t *log = http_game_log(&http_fixture.checked, &game, NULL, before);
		ck_assert_int_ge(json_array_size(log), 1);
		json_int_t actor = json_integer_value(json_object_get(json_array_get(log, 0), "seat"));
		size_t index;
		json_t *entry;
		json_array_foreach(log, index, entry)
		{
			ck_assert_str_eq(json_string_value(json_object_get(entry, "origin")), "bot");
			ck_assert_msg(!json_is_integer(json_object_get(entry, "seat")) ||
					      json_integer_value(json_object_get(entry, "seat")) == actor,
				      "two seats moved in one paced step");
		}
		json_decref(log);
	}
	/* Back: the game waits for a human again, with its ordinary deadline or bot timers. */
	away_ok(&game, 0, 0, game.tokens[0]);
	wait_for_seats(&game, 1u << 0, 30);
	/* The dice are random: seat 0 may be waited for beside a bot (both discard after a
	 * 7), whose move is a bot timer; once the bots are done, only the deadline is left. */
	double settle_by = http_clock() + 30 * http_slowdown();
	for (;;) {
		ck_assert(timer_of(&game, &timer_version, &kind, &due_in));
		if ((kind == 1 && due_in > 3500) || http_clock() > settle_by)
			break;
		http_pause(0.1);
	}
	ck_assert_msg(kind == 1 && due_in > 3500, "back: timer kind %d due in %.1f s", kind, due_in);
}
END_TEST

/* ---- Who may, and bad input ---- */

static void assert_refused(const struct http_game *game, const char *seat, int away, const char *token,
			   const char *body, long status, const char *code, const char *field)
{
	struct http_state before;
	http_state_capture(&http_fixture.direct, game, &before);
	struct http_response response;
	call_away(&http_fixture.direct, game, seat, away, token, body, &response);
	http_assert_problem(&response, status, code);
	if (field) {
		json_t *named = json_object_get(response.json, "field");
		ck_assert_msg(json_is_string(named) && strcmp(json_string_value(named), field) == 0,
			      "seat %s names %s: %s", seat, field, http_describe(&response));
	}
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.direct, game, &before);
	http_state_free(&before);
}

START_TEST(test_only_the_seat_decides_and_bad_input_changes_nothing)
{
	struct player quinn;
	make_player("Quinn", &quinn);
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, OPTIONS, &game);
	assert_refused(&game, "1", 1, game.tokens[2], NULL, 403, "seat_mismatch", NULL);
	assert_refused(&game, "1", 1, game.admin_token, NULL, 403, "seat_token_required", NULL);
	assert_refused(&game, "1", 1, quinn.token, NULL, 403, "player_not_seated", NULL);
	assert_refused(&game, "1", 1, NULL, NULL, 401, "missing_token", NULL);
	assert_refused(&game, "x", 1, game.tokens[1], NULL, 400, "invalid_field", "seat");
	assert_refused(&game, "3", 1, game.tokens[1], NULL, 400, "invalid_field", "seat");
	assert_refused(&game, "1", 1, game.tokens[1], "{\"days\": 7}", 400, "unknown_field", "days");
	assert_refused(&game, "1", 0, game.tokens[1], NULL, 409, "seat_not_changeable", NULL);
	away_ok(&game, 1, 1, game.tokens[1]);
	assert_refused(&game, "1", 1, game.tokens[1], NULL, 409, "seat_not_changeable", NULL);
	assert_refused(&game, "1", 0, game.tokens[2], NULL, 403, "seat_mismatch", NULL);
	away_ok(&game, 1, 0, game.tokens[1]);
}
END_TEST

/* GET .../seats: seat `seat`'s member `name` (an integer, or a boolean as 0/1). */
static long seat_figure(const struct http_game *game, int seat, const char *name)
{
	char path[128];
	json_t *seats = http_get_ok(&http_fixture.checked, http_game_path(game, "/seats", path, sizeof path), NULL);
	json_t *value = json_object_get(json_array_get(json_object_get(seats, "seats"), (size_t)seat), name);
	ck_assert_msg(value != NULL, "seat %d of the seats has %s", seat, name);
	long figure = json_is_boolean(value) ? (long)json_is_true(value) : (long)json_integer_value(value);
	json_decref(seats);
	return figure;
}

START_TEST(test_holidays_spend_an_allowance_visible_to_all_and_refused_once_spent)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"offer_wait_s\": 0, "
			 "\"holiday_allowance_s\": 2}",
			 &game);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(view, "options"), "holiday_allowance_s")),
			 2);
	json_decref(view);
	ck_assert_int_eq(seat_figure(&game, 1, "holiday_used_s"), 0);
	ck_assert_int_eq(seat_figure(&game, 1, "holiday_left_s"), 2);

	/* Seat 1 goes away past its allowance: the holiday runs on, counted, seen by anyone. */
	double left_at = http_clock();
	away_ok(&game, 1, 1, game.tokens[1]);
	http_pause(2.5);
	ck_assert_int_eq(seat_figure(&game, 1, "away"), 1);
	long used = seat_figure(&game, 1, "holiday_used_s");
	ck_assert_msg(used >= 2 && used <= (long)(http_clock() - left_at) + 1, "used %ld s", used);
	ck_assert_int_eq(seat_figure(&game, 1, "holiday_left_s"), 0);
	/* Coming back is never refused; going away again is, and changes nothing. */
	away_ok(&game, 1, 0, game.tokens[1]);
	struct http_state before;
	http_state_capture(&http_fixture.checked, &game, &before);
	struct http_response response;
	call_away(&http_fixture.checked, &game, "1", 1, game.tokens[1], NULL, &response);
	http_assert_problem(&response, 409, "holiday_allowance_spent");
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	http_state_free(&before);
	ck_assert_int_eq(seat_figure(&game, 1, "away"), 0);
	long after = seat_figure(&game, 1, "holiday_used_s");
	ck_assert_msg(after >= used && after <= used + 1, "back: the clock stopped (%ld s, then %ld s)", used, after);
	/* The allowance is each seat's own: seat 2 has all of it. */
	ck_assert_int_eq(seat_figure(&game, 2, "holiday_left_s"), 2);
	away_ok(&game, 2, 1, game.tokens[2]);
	away_ok(&game, 2, 0, game.tokens[2]);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_holidays");
	TCase *holidays = tcase_create("holidays");
	/* A server where a game of bots only needs the creation key: there, and only there, a
	 * game whose people all went away is paced (game/play.h play_set_unattended_pacing()). */
	static const char *const settings[] = {"ALL_BOT_GAMES=0", NULL};
	http_fixture_add(holidays, HTTP_FIXTURE_PRISM, settings);
	tcase_set_timeout(holidays, 240);
	tcase_add_test(holidays, test_away_the_bot_moves_for_the_seat_and_back_the_game_waits_for_it_again);
	tcase_add_test(holidays, test_only_the_seat_decides_and_bad_input_changes_nothing);
	tcase_add_test(holidays, test_with_every_human_away_the_bots_move_at_the_pace_of_the_turn_clock);
	tcase_add_test(holidays, test_holidays_spend_an_allowance_visible_to_all_and_refused_once_spent);
	suite_add_tcase(suite, holidays);
	return suite;
}
