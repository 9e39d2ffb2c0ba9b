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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

/* Set (body) or clear (NULL) seat `seat`'s quiet hours: the change is an event, so the
 * answer names the game's next version (and is tagged with it). That version. */
static long put_quiet(struct http_client *with, const struct http_game *game, int seat, const char *body)
{
	long before = http_game_version(with, game);
	char path[96];
	snprintf(path, sizeof path, "%s/seats/%d/quiet_hours", game->path, seat);
	struct http_response response;
	http_call(with, body ? "PUT" : "DELETE", path, game->tokens[seat], body, NULL, &response);
	ck_assert_msg(response.status == 200, "quiet hours of seat %d: %s", seat, http_describe(&response));
	ck_assert_int_eq(integer_of(response.json, "seat"), seat);
	ck_assert(body ? json_is_object(json_object_get(response.json, "quiet_hours"))
		       : json_is_null(json_object_get(response.json, "quiet_hours")));
	long version = integer_of(response.json, "version");
	ck_assert_msg(version > before, "quiet hours answered version %ld, the game was at %ld", version, before);
	char tag[32], expected[32];
	snprintf(expected, sizeof expected, "\"%ld\"", version);
	ck_assert_str_eq(http_response_header(&response, "ETag", tag, sizeof tag), expected);
	http_response_free(&response);
	return version;
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
	long quiet = put_quiet(with, &game, 0, body);
	ck_assert_int_eq(quiet, created + 1);
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
	ck_assert_int_eq(http_game_wait(with, &game, quiet, 3), quiet);
	ck_assert_int_eq(http_game_version(with, &game), quiet);
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

/* GET of the game with If-None-Match: `tag` ("<version>"): its status; *out the body (200)
 * or NULL. */
static int conditional_get(struct http_client *with, const struct http_game *game, long tag, json_t **out)
{
	char line[64];
	snprintf(line, sizeof line, "If-None-Match: \"%ld\"", tag);
	const char *headers[] = {line, NULL};
	struct http_response response;
	http_call(with, "GET", game->path, NULL, NULL, headers, &response);
	int status = response.status;
	*out = status == 200 ? json_incref(response.json) : NULL;
	http_response_free(&response);
	return status;
}

/* The log's entries of `type` after version `after` by `seat` (origin player). */
static int count_entries(struct http_client *with, const struct http_game *game, long after, const char *type, int seat)
{
	json_t *log = http_game_log(with, game, NULL, after);
	int count = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(log, index, entry) if (strcmp(string_of(entry, "type"), type) == 0)
	{
		ck_assert_int_eq(integer_of(entry, "seat"), seat);
		ck_assert_str_eq(string_of(entry, "origin"), "player");
		count++;
	}
	json_decref(log);
	return count;
}

START_TEST(test_a_quiet_hours_change_is_an_event_so_an_old_tag_gets_the_new_hours)
{
	struct http_client *with = &http_fixture.checked;
	struct http_game game;
	/* A per-move time of 6 s: the changes below come well before the deadline. */
	http_game_create(with, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0, "
			 "\"turn_timeout_s\": 6}",
			 &game);
	long created = http_game_version(with, &game);
	json_t *view = NULL;
	/* The version's tag answers 304 while nothing changed. */
	ck_assert_int_eq(conditional_get(with, &game, created, &view), 304);
	double deadline = deadline_of(with, &game);
	const char *set = "{\"timezone\": \"Europe/Berlin\", \"from\": \"22:30\", \"to\": \"07:00\"}";
	long quiet = put_quiet(with, &game, 2, set);
	ck_assert_int_eq(quiet, created + 1);
	/* The old tag now gets the new hours, tagged with the new version. */
	ck_assert_int_eq(conditional_get(with, &game, created, &view), 200);
	ck_assert_int_eq(integer_of(view, "version"), quiet);
	json_t *hours = json_object_get(json_array_get(json_object_get(view, "players"), 2), "quiet_hours");
	ck_assert_str_eq(string_of(hours, "timezone"), "Europe/Berlin");
	ck_assert_str_eq(string_of(hours, "from"), "22:30");
	ck_assert_str_eq(string_of(hours, "to"), "07:00");
	/* Seat 2's hours restart nobody's clock: seat 0's deadline is where it was. */
	double after = http_parse_time(string_of(view, "deadline"));
	ck_assert_msg(after > deadline - 0.01 && after < deadline + 0.01, "the deadline moved from %.3f to %.3f",
		      deadline, after);
	json_decref(view);
	ck_assert_int_eq(conditional_get(with, &game, quiet, &view), 304);
	/* The log says so, with the hours, as the seat's own act. */
	ck_assert_int_eq(count_entries(with, &game, created, "quiet_hours_set", 2), 1);
	json_t *entry = entry_at(with, &game, quiet);
	ck_assert_str_eq(string_of(entry, "timezone"), "Europe/Berlin");
	ck_assert_str_eq(string_of(entry, "from"), "22:30");
	ck_assert_str_eq(string_of(entry, "to"), "07:00");
	json_decref(entry);
	/* Cleared: another event, another version. */
	long cleared = put_quiet(with, &game, 2, NULL);
	ck_assert_int_eq(cleared, quiet + 1);
	ck_assert_int_eq(conditional_get(with, &game, quiet, &view), 200);
	ck_assert_int_eq(integer_of(view, "version"), cleared);
	ck_assert(json_is_null(json_object_get(json_array_get(json_object_get(view, "players"), 2), "quiet_hours")));
	json_decref(view);
	ck_assert_int_eq(count_entries(with, &game, quiet, "quiet_hours_cleared", 2), 1);
	/* The deadline, carried over to the new versions, still fires once, on time. */
	long rolled = await_timeout(with, &game, created, "dice_rolled", 0, 15);
	double gap = gap_between(with, &game, created, rolled);
	ck_assert_msg(gap >= 6 - EARLY_S && gap <= 6 + LATE_S, "the roll timed out %.2f s after the wait began", gap);
	ck_assert_int_eq(rolled, cleared + 1);
}
END_TEST

/* A log with quiet-hours events replays (`catan replay`) and imports row for row: the rules
 * ignore the events but the log keeps them, with their seat, hours and origin. */
START_TEST(test_a_log_with_quiet_hours_events_replays_and_imports_row_for_row)
{
	struct http_client *with = &http_fixture.checked;
	struct http_game game;
	http_game_create(with, 3, "{\"layout\": \"beginner\", \"turn_timeout_s\": 3600}", &game);
	long start =
		put_quiet(with, &game, 1, "{\"timezone\": \"Europe/Berlin\", \"from\": \"23:00\", \"to\": \"06:30\"}");
	put_quiet(with, &game, 2, "{\"timezone\": \"America/New_York\", \"from\": \"08:00\", \"to\": \"07:59\"}");
	put_quiet(with, &game, 1, NULL);
	struct http_player table;
	http_player_init(&table, with, &game, 5157, 0);
	table.humans = 0x7;
	ck_assert(http_player_finish(&table, 5000));
	char path[128];
	json_t *export = http_get_ok(with, http_game_path(&game, "/export", path, sizeof path), NULL);
	json_t *events = json_object_get(export, "events");
	int set = 0, cleared = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(events, index, entry)
	{
		set += strcmp(string_of(entry, "type"), "quiet_hours_set") == 0;
		cleared += strcmp(string_of(entry, "type"), "quiet_hours_cleared") == 0;
	}
	ck_assert_int_eq(set, 2);
	ck_assert_int_eq(cleared, 1);
	json_t *first = json_array_get(events, (size_t)(start - 1));
	ck_assert_str_eq(string_of(first, "type"), "quiet_hours_set");
	ck_assert_int_eq(integer_of(first, "seat"), 1);
	ck_assert_str_eq(string_of(first, "timezone"), "Europe/Berlin");
	ck_assert_str_eq(string_of(first, "to"), "06:30");
	http_export_replays_and_imports(&http_fixture.direct, game.id, export, "quiet");
	json_decref(export);
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
	long quiet = http_game_version(&direct, &game);
	ck_assert_int_eq(quiet, ended + 1);
	ck_assert_int_eq(http_game_wait(&direct, &game, quiet, 4), quiet);
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

/* ---- Two servers, one clock ---- */

/* Two servers on one database. Server A makes the move that sets seat 1's clock (its
 * second and bank of 2 s: due 3 s after the move) and logs a change of seat 2's quiet
 * hours (which carries the timer to the new version and restarts nobody's clock), then dies
 * (kill -9) before the time runs out. Server B, which saw both, applies the timeout once:
 * one roll by seat 1's deadline, never before its 3 s, its bank spent once, every event of
 * the turn its deadline's; a new server A on the same database later fires nothing twice. */
START_TEST(test_a_clock_set_by_a_server_that_died_runs_out_once_on_the_other)
{
	struct http_server a, b;
	http_server_start(&a, NULL);
	http_server_start(&b, NULL);
	struct http_client on_a, on_b;
	http_client_init(&on_a, a.url, 0);
	http_client_init(&on_b, b.url, 0);
	struct http_game game;
	http_game_create(&on_a, 3, BANK_OPTIONS, &game);
	http_post_move_ok(&on_a, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	long ended = http_post_move_ok(&on_a, &game, 0, "{\"type\": \"end_turn\"}");
	long quiet = put_quiet(&on_a, &game, 2, "{\"timezone\": \"UTC\", \"from\": \"00:00\", \"to\": \"00:01\"}");
	ck_assert_int_eq(quiet, ended + 1);
	/* B sees A's change at once: the tag of the move gets the new hours. */
	double until = http_clock() + 10;
	json_t *view = NULL;
	while (conditional_get(&on_b, &game, ended, &view) != 200 || integer_of(view, "version") != quiet) {
		json_decref(view);
		view = NULL;
		ck_assert_msg(http_clock() < until, "server B never showed version %ld", quiet);
		http_pause(0.05);
	}
	json_t *hours = json_object_get(json_array_get(json_object_get(view, "players"), 2), "quiet_hours");
	ck_assert_str_eq(string_of(hours, "timezone"), "UTC");
	ck_assert_str_eq(string_of(hours, "to"), "00:01");
	json_decref(view);
	http_client_cleanup(&on_a);
	http_server_kill(&a);

	/* Seat 1's time runs out with A gone: B rolls for it, once, 3 s after the move. */
	long rolled = await_timeout(&on_b, &game, quiet, "dice_rolled", 1, 20);
	ck_assert_int_eq(rolled, quiet + 1);
	double gap = gap_between(&on_b, &game, ended, rolled);
	ck_assert_msg(gap >= 3 - EARLY_S, "seat 1's roll came %.2f s after the move, before its 3 s", gap);
	ck_assert_int_eq(bank_of(&on_b, &game, 1), 0);
	/* Its bank spent, the end of its turn times out a second later, on B too. */
	long turn_over = await_timeout(&on_b, &game, rolled, "turn_ended", 1, 20);

	/* A new server A on the same database: nothing fires twice. */
	struct http_server again;
	http_server_start(&again, NULL);
	http_pause(1.5);
	json_t *log = http_game_log(&on_b, &game, NULL, ended);
	int rolls = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(log, index, entry)
	{
		if (integer_of(entry, "version") > turn_over)
			break;
		if (strcmp(string_of(entry, "type"), "dice_rolled") == 0)
			rolls++;
		ck_assert_msg(integer_of(entry, "version") == quiet ||
				      strcmp(string_of(entry, "origin"), "timeout") == 0,
			      "version %ld of seat 1's turn is not its deadline's", integer_of(entry, "version"));
	}
	json_decref(log);
	ck_assert_int_eq(rolls, 1);
	http_server_stop(&again, 30);
	http_client_cleanup(&on_b);
	http_server_stop(&b, 30);
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
	tcase_add_test(clocks, test_a_quiet_hours_change_is_an_event_so_an_old_tag_gets_the_new_hours);
	tcase_add_test(clocks, test_a_log_with_quiet_hours_events_replays_and_imports_row_for_row);
	suite_add_tcase(suite, clocks);

	TCase *restarts = tcase_create("restarts");
	tcase_set_timeout(restarts, 90);
	tcase_add_test(restarts, test_banks_and_quiet_hours_are_rows_a_new_server_keeps);
	tcase_add_test(restarts, test_a_clock_set_by_a_server_that_died_runs_out_once_on_the_other);
	suite_add_tcase(suite, restarts);
	return suite;
}
