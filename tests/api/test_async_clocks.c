/*
 * test_async_clocks.c - correspondence clocks (issue 28): a seat's time bank
 * (options.time_bank_s) is spent once a decision's turn_timeout_s has run out, and the
 * deadline's default move comes only when both are; each turn a seat ends adds
 * time_increment_s to its bank; a move in time leaves the bank whole. Quiet hours (PUT
 * .../seats/{seat}/quiet_hours) stop the seat's clock: a deadline in the stretch waits,
 * and clearing them (DELETE) lets it fire at once, once. Banks and quiet hours are rows:
 * a new server shows and keeps them. Bad input is a problem naming the member, changing
 * nothing.
 *
 * Deadlines are 1 s with banks of 2 s; timings are read from the events' created_at (the
 * database's clock, for every server alike). The shared server sits behind Prism, so
 * every answer is checked against the spec.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define BANK_OPTIONS                                                                                 \
	"{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0, " \
	"\"turn_timeout_s\": 1, \"time_bank_s\": 2, \"time_increment_s\": 1}"
#define CLOCK_OPTIONS                                                                                \
	"{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0, " \
	"\"turn_timeout_s\": 1}"
#define EARLY_S 0.05 /* clock granularity: a deadline never fires before it is due */
#define LATE_S 2.0   /* how late a default move may come after its deadline */

static const char *string_of(const json_t *object, const char *member)
{
	const char *value = json_string_value(json_object_get(object, member));
	return value ? value : "";
}

static long integer_of(const json_t *object, const char *member)
{
	return (long)json_integer_value(json_object_get(object, member));
}

/* The log entry at `version` (a spectator's view). New reference. */
static json_t *entry_at(struct http_client *with, const struct http_game *game, long version)
{
	json_t *log = http_game_log(with, game, NULL, version - 1);
	ck_assert_msg(json_array_size(log) > 0, "game %s has no version %ld", game->id, version);
	json_t *entry = json_incref(json_array_get(log, 0));
	json_decref(log);
	return entry;
}

/* Seconds between the events at versions `earlier` and `later`. */
static double gap_between(struct http_client *with, const struct http_game *game, long earlier, long later)
{
	json_t *first = entry_at(with, game, earlier), *second = entry_at(with, game, later);
	double gap = http_parse_time(string_of(second, "created_at")) - http_parse_time(string_of(first, "created_at"));
	json_decref(first);
	json_decref(second);
	return gap;
}

/* Wait (at most timeout_s) for the first event of `type` after version `after`, and check
 * it is by `seat` with origin timeout; its version. */
static long await_timeout(struct http_client *with, const struct http_game *game, long after, const char *type,
			  int seat, double timeout_s)
{
	double until = http_clock() + timeout_s;
	long seen = after;
	for (;;) {
		json_t *log = http_game_log(with, game, NULL, after);
		size_t index;
		json_t *entry;
		json_array_foreach(log, index, entry)
		{
			if (strcmp(string_of(entry, "type"), type) != 0)
				continue;
			ck_assert_msg(integer_of(entry, "seat") == seat &&
					      strcmp(string_of(entry, "origin"), "timeout") == 0,
				      "the %s at version %ld is by seat %ld from %s, not seat %d's deadline", type,
				      integer_of(entry, "version"), integer_of(entry, "seat"),
				      string_of(entry, "origin"), seat);
			long version = integer_of(entry, "version");
			json_decref(log);
			return version;
		}
		seen = after + (long)json_array_size(log);
		json_decref(log);
		double left = until - http_clock();
		ck_assert_msg(left > 0, "game %s: no %s after version %ld within %.0f s", game->id, type, after,
			      timeout_s);
		http_game_wait(with, game, seen, left < 5 ? (int)left + 1 : 5);
	}
}

/* The game view's players[seat] (a spectator's). New reference. */
static json_t *player_of(struct http_client *with, const struct http_game *game, int seat)
{
	json_t *view = http_get_ok(with, game->path, NULL);
	json_t *player = json_incref(json_array_get(json_object_get(view, "players"), (size_t)seat));
	json_decref(view);
	ck_assert_ptr_nonnull(player);
	return player;
}

static long bank_of(struct http_client *with, const struct http_game *game, int seat)
{
	json_t *player = player_of(with, game, seat);
	json_t *bank = json_object_get(player, "time_bank_s");
	ck_assert_msg(json_is_integer(bank), "seat %d has no time_bank_s", seat);
	long seconds = (long)json_integer_value(bank);
	json_decref(player);
	return seconds;
}

/* The view's deadline, seconds since 1970. */
static double deadline_of(struct http_client *with, const struct http_game *game)
{
	json_t *view = http_get_ok(with, game->path, NULL);
	const char *text = string_of(view, "deadline");
	ck_assert_msg(*text, "the game has no deadline");
	double deadline = http_parse_time(text);
	json_decref(view);
	return deadline;
}

/* Quiet hours in UTC covering now: from a minute before this minute to `minutes_on` after. */
static void quiet_now_body(int minutes_on, char *out, size_t size)
{
	time_t now = time(NULL);
	struct tm tm;
	gmtime_r(&now, &tm);
	int minute = tm.tm_hour * 60 + tm.tm_min;
	int from = (minute + 1439) % 1440, to = (minute + minutes_on) % 1440;
	snprintf(out, size, "{\"timezone\": \"UTC\", \"from\": \"%02d:%02d\", \"to\": \"%02d:%02d\"}", from / 60,
		 from % 60, to / 60, to % 60);
}

static void put_quiet(struct http_client *with, const struct http_game *game, int seat, const char *body)
{
	char path[96];
	snprintf(path, sizeof path, "%s/seats/%d/quiet_hours", game->path, seat);
	struct http_response response;
	http_call(with, body ? "PUT" : "DELETE", path, game->tokens[seat], body, NULL, &response);
	ck_assert_msg(response.status == 200, "quiet hours of seat %d: %s", seat, http_describe(&response));
	ck_assert_int_eq(integer_of(response.json, "seat"), seat);
	ck_assert(body ? json_is_object(json_object_get(response.json, "quiet_hours"))
		       : json_is_null(json_object_get(response.json, "quiet_hours")));
	http_response_free(&response);
}

/* ---- Banks ---- */

START_TEST(test_the_bank_is_spent_after_the_per_move_time_then_the_increment_added)
{
	struct http_client *with = &http_fixture.checked;
	struct http_game game;
	http_game_create(with, 3, BANK_OPTIONS, &game);
	long created = http_game_version(with, &game);
	ck_assert_int_eq(bank_of(with, &game, 0), 2);
	json_t *view = http_get_ok(with, game.path, NULL);
	json_t *options = json_object_get(view, "options");
	ck_assert_int_eq(integer_of(options, "time_bank_s"), 2);
	ck_assert_int_eq(integer_of(options, "time_increment_s"), 1);
	json_decref(view);
	/* The roll waits for the second and both of the bank: 3 s. */
	long rolled = await_timeout(with, &game, created, "dice_rolled", 0, 15);
	double roll_gap = gap_between(with, &game, created, rolled);
	ck_assert_msg(roll_gap >= 3 - EARLY_S && roll_gap <= 3 + LATE_S, "the roll timed out after %.2f s, not 3",
		      roll_gap);
	ck_assert_int_eq(bank_of(with, &game, 0), 0);
	/* The bank spent, the end of the turn comes one second later; the turn's end adds 1 s. */
	long ended = await_timeout(with, &game, rolled, "turn_ended", 0, 10);
	double end_gap = gap_between(with, &game, rolled, ended);
	ck_assert_msg(end_gap >= 1 - EARLY_S && end_gap <= 1 + LATE_S, "the end timed out after %.2f s, not 1",
		      end_gap);
	ck_assert_int_eq(bank_of(with, &game, 0), 1);
	/* The next seat has its whole bank. */
	ck_assert_int_eq(bank_of(with, &game, 1), 2);
	long next = await_timeout(with, &game, ended, "dice_rolled", 1, 15);
	double next_gap = gap_between(with, &game, ended, next);
	ck_assert_msg(next_gap >= 3 - EARLY_S && next_gap <= 3 + LATE_S, "seat 1's roll timed out after %.2f s",
		      next_gap);
}
END_TEST

START_TEST(test_moves_in_time_keep_the_bank_and_each_turn_adds_the_increment)
{
	struct http_client *with = &http_fixture.checked;
	struct http_game game;
	http_game_create(with, 3, BANK_OPTIONS, &game);
	http_post_move_ok(with, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	ck_assert_int_eq(bank_of(with, &game, 0), 2);
	/* The bank changes with a move only, so with the version the ETag names. */
	long ended = http_post_move_ok(with, &game, 0, "{\"type\": \"end_turn\"}");
	json_t *view = http_get_ok(with, game.path, NULL);
	ck_assert_int_eq(integer_of(view, "version"), ended);
	ck_assert_int_eq(integer_of(json_array_get(json_object_get(view, "players"), 0), "time_bank_s"), 3);
	/* The deadline of seat 1 is its second and its whole bank after the end. */
	json_t *end = entry_at(with, &game, ended);
	double due = http_parse_time(string_of(view, "deadline")) - http_parse_time(string_of(end, "created_at"));
	ck_assert_msg(due > 3 - EARLY_S && due < 3 + EARLY_S, "seat 1's deadline is %.3f s after the end", due);
	json_decref(end);
	json_decref(view);
}
END_TEST

START_TEST(test_a_game_without_a_bank_shows_none_and_a_bank_needs_a_turn_clock)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, CLOCK_OPTIONS, &game);
	json_t *player = player_of(&http_fixture.checked, &game, 0);
	ck_assert(json_is_null(json_object_get(player, "time_bank_s")));
	ck_assert(json_is_null(json_object_get(player, "quiet_hours")));
	json_decref(player);
	struct http_response response;
	http_call(&http_fixture.direct, "POST", "/v1/games", NULL, "{\"seats\": 3, \"options\": {\"time_bank_s\": 60}}",
		  NULL, &response);
	http_assert_problem(&response, 400, "invalid_field");
	ck_assert_str_eq(string_of(response.json, "field"), "options.time_bank_s");
	http_response_free(&response);
}
END_TEST

/* ---- Quiet hours ---- */

START_TEST(test_quiet_hours_hold_a_deadline_and_clearing_them_lets_it_fire_once)
{
	struct http_client *with = &http_fixture.checked;
	struct http_game game;
	http_game_create(with, 3, CLOCK_OPTIONS, &game);
	long created = http_game_version(with, &game);
	char body[128];
	quiet_now_body(3, body, sizeof body);
	put_quiet(with, &game, 0, body);
	json_t *player = player_of(with, &game, 0);
	ck_assert_str_eq(string_of(json_object_get(player, "quiet_hours"), "timezone"), "UTC");
	json_decref(player);
	/* The deadline is the end of the stretch (and the second), minutes away. */
	double deadline = deadline_of(with, &game);
	json_t *start = entry_at(with, &game, created);
	ck_assert_msg(deadline > http_parse_time(string_of(start, "created_at")) + 60,
		      "the deadline did not move past the quiet time");
	json_decref(start);
	/* Three deadlines' worth of time: nothing fires. */
	ck_assert_int_eq(http_game_wait(with, &game, created, 3), created);
	ck_assert_int_eq(http_game_version(with, &game), created);
	/* Cleared: due at once, and it fires once. */
	put_quiet(with, &game, 0, NULL);
	long rolled = await_timeout(with, &game, created, "dice_rolled", 0, 10);
	player = player_of(with, &game, 0);
	ck_assert(json_is_null(json_object_get(player, "quiet_hours")));
	json_decref(player);
	/* The next decision (the end of the turn) has a deadline of its own, a second on. */
	long ended = await_timeout(with, &game, rolled, "turn_ended", 0, 10);
	double gap = gap_between(with, &game, rolled, ended);
	ck_assert_msg(gap >= 1 - EARLY_S && gap <= 1 + LATE_S, "the end came %.2f s after the roll", gap);
}
END_TEST

START_TEST(test_bad_quiet_hours_are_refused_naming_the_member_and_change_nothing)
{
	struct http_client *direct = &http_fixture.direct;
	struct http_game game;
	http_game_create(direct, 3, CLOCK_OPTIONS, &game);
	struct http_state before;
	http_state_capture(direct, &game, &before);
	char path[96];
	snprintf(path, sizeof path, "%s/seats/0/quiet_hours", game.path);
	static const struct {
		const char *body, *code, *field;
	} cases[] = {
		{"{\"timezone\": \"Mars/Olympus\", \"from\": \"22:00\", \"to\": \"07:00\"}", "invalid_field",
		 "timezone"},
		{"{\"timezone\": \"../../etc/passwd\", \"from\": \"22:00\", \"to\": \"07:00\"}", "invalid_field",
		 "timezone"},
		{"{\"from\": \"22:00\", \"to\": \"07:00\"}", "missing_field", "timezone"},
		{"{\"timezone\": \"Europe/Berlin\", \"from\": \"24:00\", \"to\": \"07:00\"}", "invalid_field", "from"},
		{"{\"timezone\": \"Europe/Berlin\", \"from\": \"22:00\", \"to\": 7}", "invalid_field", "to"},
		{"{\"timezone\": \"Europe/Berlin\", \"from\": \"22:00\", \"to\": \"22:00\"}", "invalid_field", "to"},
		{"{\"timezone\": \"Europe/Berlin\", \"from\": \"22:00\", \"to\": \"07:00\", \"x\": 1}", "unknown_field",
		 NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct http_response response;
		http_call(direct, "PUT", path, game.tokens[0], cases[i].body, NULL, &response);
		http_assert_problem(&response, 400, cases[i].code);
		if (cases[i].field)
			ck_assert_msg(strcmp(string_of(response.json, "field"), cases[i].field) == 0, "%s: %s",
				      cases[i].body, http_describe(&response));
		http_response_free(&response);
	}
	const char *good = "{\"timezone\": \"Europe/Berlin\", \"from\": \"22:00\", \"to\": \"07:00\"}";
	struct http_response response;
	http_call(direct, "PUT", path, game.tokens[1], good, NULL, &response);
	http_assert_problem(&response, 403, "seat_mismatch");
	http_response_free(&response);
	http_call(direct, "PUT", path, game.admin_token, good, NULL, &response);
	http_assert_problem(&response, 403, "seat_token_required");
	http_response_free(&response);
	http_state_assert_unchanged(direct, &game, &before);
	json_t *player = player_of(direct, &game, 0);
	ck_assert(json_is_null(json_object_get(player, "quiet_hours")));
	json_decref(player);
	http_state_free(&before);
	/* A game without a turn clock has nothing to stop. */
	struct http_game untimed;
	http_game_create(direct, 3, "{\"layout\": \"beginner\"}", &untimed);
	snprintf(path, sizeof path, "%s/seats/0/quiet_hours", untimed.path);
	http_call(direct, "PUT", path, untimed.tokens[0], good, NULL, &response);
	http_assert_problem(&response, 409, "seat_not_changeable");
	http_response_free(&response);
}
END_TEST

/* ---- Restarts ---- */

START_TEST(test_banks_and_quiet_hours_are_rows_a_new_server_keeps)
{
	struct http_server first, second;
	http_server_start(&first, NULL);
	struct http_client direct;
	http_client_init(&direct, first.url, 0);
	struct http_game game;
	http_game_create(&direct, 3, BANK_OPTIONS, &game);
	http_post_move_ok(&direct, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	long ended = http_post_move_ok(&direct, &game, 0, "{\"type\": \"end_turn\"}");
	char body[128];
	quiet_now_body(3, body, sizeof body);
	put_quiet(&direct, &game, 1, body);
	double deadline = deadline_of(&direct, &game);
	http_client_cleanup(&direct);
	ck_assert_int_eq(http_server_stop(&first, 30), 0);

	http_server_start(&second, NULL);
	http_client_init(&direct, second.url, 0);
	ck_assert_int_eq(bank_of(&direct, &game, 0), 3);
	json_t *player = player_of(&direct, &game, 1);
	ck_assert_str_eq(string_of(json_object_get(player, "quiet_hours"), "timezone"), "UTC");
	json_decref(player);
	double again = deadline_of(&direct, &game);
	ck_assert_msg(again > deadline - 0.01 && again < deadline + 0.01, "the deadline moved from %.3f to %.3f",
		      deadline, again);
	/* Seat 1 is in its quiet hours: its 3 s do not run. */
	ck_assert_int_eq(http_game_wait(&direct, &game, ended, 4), ended);
	put_quiet(&direct, &game, 1, NULL);
	/* Cleared, its second and bank had run out long since: the roll comes at once, once. */
	long rolled = await_timeout(&direct, &game, ended, "dice_rolled", 1, 10);
	double gap = gap_between(&direct, &game, ended, rolled);
	ck_assert_msg(gap >= 3 - EARLY_S, "seat 1's roll came %.2f s after its wait began", gap);
	ck_assert_int_eq(bank_of(&direct, &game, 1), 0);
	http_client_cleanup(&direct);
	http_server_stop(&second, 30);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_clocks");
	TCase *clocks = tcase_create("clocks");
	http_fixture_add(clocks, HTTP_FIXTURE_PRISM | HTTP_FIXTURE_VALIDATE_REQUESTS, NULL);
	tcase_set_timeout(clocks, 90);
	tcase_add_test(clocks, test_the_bank_is_spent_after_the_per_move_time_then_the_increment_added);
	tcase_add_test(clocks, test_moves_in_time_keep_the_bank_and_each_turn_adds_the_increment);
	tcase_add_test(clocks, test_a_game_without_a_bank_shows_none_and_a_bank_needs_a_turn_clock);
	tcase_add_test(clocks, test_quiet_hours_hold_a_deadline_and_clearing_them_lets_it_fire_once);
	tcase_add_test(clocks, test_bad_quiet_hours_are_refused_naming_the_member_and_change_nothing);
	suite_add_tcase(suite, clocks);

	TCase *restarts = tcase_create("restarts");
	tcase_set_timeout(restarts, 90);
	tcase_add_test(restarts, test_banks_and_quiet_hours_are_rows_a_new_server_keeps);
	suite_add_tcase(suite, restarts);
	return suite;
}
