/*
 * test_async_deadlines.c - turn deadlines (turn_timeout_s): every kind of decision the game
 * waits for, left alone, is taken by the server when its deadline passes, as an ordinary
 * event with origin "timeout" (or "bot" with on_timeout "bot"): an initial settlement and
 * road, a roll, the end of a turn, every owed discard, the robber's move, open offers
 * declined; with on_timeout "skip" the robber robs nobody. A deadline pending while its server is stopped (SIGTERM or
 * kill -9) fires from the next server within seconds of when it was due.
 *
 * Deadlines are 1 s (2 s across restarts). Timings are read from the events' created_at
 * (the database's clock, for every server alike): each default move comes no earlier than
 * its deadline and at most LATE_S after it. The shared server sits behind Prism, so every
 * log entry with its origin is checked against the spec.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define TIMEOUT_OPTIONS "\"layout\": \"beginner\", \"dice\": \"manual\", \"first_seat\": 0, \"turn_timeout_s\": 1"
#define FIXED_TIMEOUT "{" TIMEOUT_OPTIONS ", \"start\": \"fixed\"}"
#define EARLY_S 0.05	   /* clock granularity: a deadline never fires before it is due */
#define LATE_S 2.0	   /* how late a default move may come after its deadline */
#define OFFER_DEADLINE_S 4 /* the offers' test: time for an accept before its deadline */
#define OFFER_DEADLINE_TEXT "4"

static const char *const resource_names[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};

/* ---- Reading what happened ---- */

static const char *string_of(const json_t *object, const char *member)
{
	const char *value = json_string_value(json_object_get(object, member));
	return value ? value : "";
}

static long integer_of(const json_t *object, const char *member)
{
	return (long)json_integer_value(json_object_get(object, member));
}

static double time_of(const json_t *entry)
{
	return http_parse_time(string_of(entry, "created_at"));
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

/* Long-poll until an event of `type` (by `seat`, or any seat when -1) comes after version
 * `after`, at most timeout_s; its version. */
static long await_event(struct http_client *with, const struct http_game *game, long after, const char *type, int seat,
			double timeout_s)
{
	double deadline = http_clock() + timeout_s;
	long seen = after;
	for (;;) {
		json_t *log = http_game_log(with, game, NULL, seen);
		size_t index;
		json_t *entry;
		json_array_foreach(log, index, entry)
		{
			if (strcmp(string_of(entry, "type"), type) == 0 &&
			    (seat < 0 || integer_of(entry, "seat") == seat)) {
				long version = integer_of(entry, "version");
				json_decref(log);
				return version;
			}
		}
		seen += (long)json_array_size(log);
		json_decref(log);
		double left = deadline - http_clock();
		ck_assert_msg(left > 0, "game %s: no %s by seat %d after version %ld within %.0f s", game->id, type,
			      seat, after, timeout_s);
		http_game_wait(with, game, seen, left < 5 ? (int)left + 1 : 5);
	}
}

/* The entry is a default move: `type`, by `seat`, with origin `origin`. */
static void assert_entry(const json_t *entry, const char *type, int seat, const char *origin)
{
	char *text = json_dumps(entry, JSON_COMPACT);
	ck_assert_msg(strcmp(string_of(entry, "type"), type) == 0 && (seat < 0 || integer_of(entry, "seat") == seat) &&
			      strcmp(string_of(entry, "origin"), origin) == 0,
		      "expected %s by seat %d from %s: %.400s", type, seat, origin, text);
	free(text);
}

/* The index of the first move of a game's first roll in `log` from index `at`: `at`, or
 * the one after when a provably fair game fixed the players' seeds there (seeds_fixed is
 * written in the roll's append, with the roll's origin). */
static size_t past_seeds_fixed(const json_t *log, size_t at, const char *origin)
{
	const json_t *entry = json_array_get(log, at);
	if (strcmp(string_of(entry, "type"), "seeds_fixed") != 0)
		return at;
	assert_entry(entry, "seeds_fixed", -1, origin);
	return at + 1;
}

/* `later` came one deadline (deadline_s) after `earlier`, give or take the worker's delay. */
static void assert_one_deadline_after(const json_t *earlier, const json_t *later, double deadline_s)
{
	double gap = time_of(later) - time_of(earlier);
	ck_assert_msg(gap >= deadline_s - EARLY_S && gap <= deadline_s + LATE_S,
		      "version %ld (%s) came %.2f s after version %ld (%s): the deadline was %.0f s",
		      integer_of(later, "version"), string_of(later, "type"), gap, integer_of(earlier, "version"),
		      string_of(earlier, "type"), deadline_s);
}

/* ---- Deadlines ---- */

START_TEST(test_initial_placement_times_out_into_a_settlement_then_a_road)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, "{" TIMEOUT_OPTIONS "}", &game);
	long road = await_event(&http_fixture.checked, &game, 1, "road_built", 0, 10);
	ck_assert_int_eq(road, 3);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, 0);
	json_t *created = json_array_get(log, 0), *settlement = json_array_get(log, 1), *built = json_array_get(log, 2);
	assert_entry(settlement, "settlement_built", 0, "timeout");
	assert_entry(built, "road_built", 0, "timeout");
	assert_one_deadline_after(created, settlement, 1);
	assert_one_deadline_after(settlement, built, 1);
	/* The road is the one the rules allow: next to the settlement just placed. */
	int edge = (int)integer_of(built, "edge"), node = (int)integer_of(settlement, "node");
	ck_assert_msg(board_edge_nodes[edge][0] == node || board_edge_nodes[edge][1] == node,
		      "road %d is not next to settlement %d", edge, node);
	json_decref(log);
}
END_TEST

START_TEST(test_a_roll_and_then_the_turn_time_out_into_a_roll_and_the_end_of_the_turn)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_TIMEOUT, &game);
	long created = http_game_version(&http_fixture.checked, &game);
	long ended = await_event(&http_fixture.checked, &game, created, "turn_ended", 0, 15);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, created - 1);
	json_t *start = json_array_get(log, 0), *rolled = json_array_get(log, past_seeds_fixed(log, 1, "timeout"));
	assert_entry(rolled, "dice_rolled", 0, "timeout");
	assert_one_deadline_after(start, rolled, 1);
	/* Whatever the roll brought (a 7: discards and the robber, each a deadline of its own),
	 * every move of the turn is the server's, and the turn ends a deadline after the last. */
	for (long version = created + 1; version <= ended; version++)
		ck_assert_str_eq(string_of(json_array_get(log, (size_t)(version - created)), "origin"), "timeout");
	json_t *end = json_array_get(log, (size_t)(ended - created));
	assert_entry(end, "turn_ended", 0, "timeout");
	assert_one_deadline_after(json_array_get(log, (size_t)(ended - created - 1)), end, 1);
	json_decref(log);
	/* The next seat's roll has a deadline of its own. */
	long next = await_event(&http_fixture.checked, &game, ended, "dice_rolled", 1, 10);
	json_t *first = entry_at(&http_fixture.checked, &game, ended),
	       *second = entry_at(&http_fixture.checked, &game, next);
	assert_entry(second, "dice_rolled", 1, "timeout");
	assert_one_deadline_after(first, second, 1);
	json_decref(first);
	json_decref(second);
}
END_TEST

/* Play turns of rolls that produce (never 7) until two seats hold more than 7 cards, then
 * roll a 7 with the active seat: the version of that roll. Moves race the 1 s deadlines, so
 * a move the server has already made for us is refused and the loop reads the game again. */
static long roll_seven_with_two_seats_over_seven(const struct http_game *game, int *active)
{
	static const int totals[] = {6, 8, 5, 9, 4, 10, 3, 11};
	for (int step = 0; step < 400; step++) {
		json_t *view = http_get_ok(&http_fixture.checked, game->path, NULL);
		const char *phase = string_of(view, "phase");
		int seat = (int)integer_of(json_object_get(view, "turn"), "seat");
		int over = 0;
		size_t index;
		json_t *player;
		json_array_foreach(json_object_get(view, "players"), index, player) over +=
			integer_of(player, "resource_count") > 7;
		char body[64];
		if (strcmp(phase, "roll") == 0 && over >= 2) {
			snprintf(body, sizeof body, "{\"type\": \"roll\", \"dice\": [3, 4]}");
		} else if (strcmp(phase, "roll") == 0) {
			int total = totals[step % 8];
			snprintf(body, sizeof body, "{\"type\": \"roll\", \"dice\": [%d, %d]}", total - total / 2,
				 total / 2);
		} else if (strcmp(phase, "main") == 0) {
			snprintf(body, sizeof body, "{\"type\": \"end_turn\"}");
		} else {
			body[0] = '\0'; /* a 7 the server rolled for us: its deadlines play it out */
		}
		json_decref(view);
		if (!body[0]) {
			http_pause(0.2);
			continue;
		}
		struct http_response response;
		http_post_move(&http_fixture.checked, game, seat, body, NULL, &response);
		long version = response.status == 201 ? integer_of(response.json, "version") : 0;
		http_response_free(&response);
		if (version && over >= 2 && strstr(body, "[3, 4]")) {
			*active = seat;
			return version;
		}
	}
	ck_abort_msg("game %s: no two seats over 7 cards", game->id);
	return 0;
}

START_TEST(test_every_owed_discard_then_the_robber_time_out_then_the_turn)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 4, FIXED_TIMEOUT, &game);
	int active;
	long seven = roll_seven_with_two_seats_over_seven(&game, &active);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert_str_eq(string_of(view, "phase"), "discard");
	int owed[GAME_MAX_SEATS] = {0}, owing = 0;
	size_t index;
	json_t *debt;
	json_array_foreach(json_object_get(json_object_get(view, "pending"), "discards"), index, debt)
	{
		owed[integer_of(debt, "seat")] = (int)integer_of(debt, "count");
		owing++;
	}
	long robber_before = integer_of(view, "robber");
	json_decref(view);
	ck_assert_int_ge(owing, 2);

	long robbed = await_event(&http_fixture.checked, &game, seven, "robber_moved", active, 10);
	long ended = await_event(&http_fixture.checked, &game, robbed, "turn_ended", active, 10);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, seven - 1);
	json_t *roll = json_array_get(log, 0);
	/* First every owed discard, all at one deadline, each of exactly what was owed. */
	int discarded = 0;
	json_t *last_discard = NULL;
	for (long version = seven + 1; version < robbed; version++) {
		json_t *entry = json_array_get(log, (size_t)(version - seven));
		int seat = (int)integer_of(entry, "seat");
		assert_entry(entry, "discarded", seat, "timeout");
		ck_assert_msg(owed[seat] > 0, "seat %d discarded without owing", seat);
		int count = 0;
		const char *name;
		json_t *number;
		json_object_foreach(json_object_get(entry, "resources"), name, number) count +=
			(int)json_integer_value(number);
		ck_assert_int_eq(count, owed[seat]);
		owed[seat] = 0;
		discarded++;
		assert_one_deadline_after(roll, entry, 1);
		last_discard = entry;
	}
	ck_assert_int_eq(discarded, owing);
	/* Then the robber, a deadline later, to another hex; then the end of the turn. */
	json_t *robber = json_array_get(log, (size_t)(robbed - seven));
	assert_entry(robber, "robber_moved", active, "timeout");
	ck_assert_int_ne(integer_of(robber, "hex"), robber_before);
	assert_one_deadline_after(last_discard, robber, 1);
	for (long version = robbed + 1; version < ended; version++) {
		json_t *entry = json_array_get(log, (size_t)(version - seven));
		ck_assert_str_eq(string_of(entry, "origin"), "timeout");
		ck_assert_msg(strcmp(string_of(entry, "type"), "resource_stolen") == 0, "after the robber: %s",
			      string_of(entry, "type"));
	}
	json_t *end = json_array_get(log, (size_t)(ended - seven));
	assert_entry(end, "turn_ended", active, "timeout");
	assert_one_deadline_after(robber, end, 1);
	json_decref(log);
}
END_TEST

START_TEST(test_unanswered_offers_are_declined_at_the_deadline_then_the_turn_ends)
{
	struct http_game game;
	int give = 0, want = 0;
	long rolled = 0;
	for (int attempt = 0; attempt < 10 && !rolled; attempt++) {
		/* A longer deadline than the others': seat 1 must answer within it after six requests
		 * (on a loaded machine these took over 1 s). */
		http_game_create(&http_fixture.checked, 3,
				 "{\"layout\": \"beginner\", \"dice\": \"manual\", \"first_seat\": 0, "
				 "\"turn_timeout_s\": " OFFER_DEADLINE_TEXT ", \"start\": \"fixed\"}",
				 &game);
		rolled = http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
		json_t *mine = http_get_ok(&http_fixture.checked, game.path, game.tokens[0]);
		json_t *theirs = http_get_ok(&http_fixture.checked, game.path, game.tokens[1]);
		json_t *hand = json_object_get(json_object_get(mine, "you"), "resources");
		json_t *other = json_object_get(json_object_get(theirs, "you"), "resources");
		int found = 0;
		for (give = 0; give < RESOURCE_COUNT && !found; give++)
			for (want = 0; want < RESOURCE_COUNT && !found; want++)
				found = give != want && integer_of(hand, resource_names[give]) > 0 &&
					integer_of(other, resource_names[want]) > 0;
		give--, want--;
		json_decref(mine);
		json_decref(theirs);
		if (!found)
			rolled = 0;
	}
	ck_assert_msg(rolled, "no tradeable hands after the fixed start");
	/* Seat 0 offers to both others; seat 1 accepts in time, seat 2 never answers. */
	char body[160], path[160];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}}", resource_names[give],
		 resource_names[want]);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/trades", path, sizeof path), game.tokens[0],
		  body, NULL, &response);
	ck_assert_msg(response.status == 201, "offer: %s", http_describe(&response));
	int trade = (int)integer_of(response.json, "id");
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/trades/%d/accept", game.path, trade);
	http_call(&http_fixture.checked, "POST", path, game.tokens[1], NULL, NULL, &response);
	ck_assert_msg(response.status == 201 || response.status == 200, "accept: %s", http_describe(&response));
	long accepted = integer_of(response.json, "version");
	http_response_free(&response);

	long ended = await_event(&http_fixture.checked, &game, accepted, "turn_ended", 0, 20);
	ck_assert_int_eq(ended, accepted + 2);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, accepted - 1);
	json_t *accept = json_array_get(log, 0), *declined = json_array_get(log, 1), *end = json_array_get(log, 2);
	assert_entry(accept, "trade_accepted", 1, "player");
	assert_entry(declined, "trade_declined", 2, "timeout");
	ck_assert_int_eq(integer_of(declined, "trade"), trade);
	assert_one_deadline_after(accept, declined, OFFER_DEADLINE_S);
	assert_entry(end, "turn_ended", 0, "timeout");
	ck_assert_msg(time_of(end) - time_of(declined) < LATE_S, "the turn ended %.2f s after the decline",
		      time_of(end) - time_of(declined));
	json_decref(log);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert_int_eq(json_array_size(json_object_get(view, "trades")), 0);
	json_decref(view);
}
END_TEST

START_TEST(test_on_timeout_bot_plays_the_rest_of_the_timed_out_turn_only)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"turn_timeout_s\": 1, "
			 "\"on_timeout\": \"bot\"}",
			 &game);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert_str_eq(string_of(json_object_get(view, "options"), "on_timeout"), "bot");
	json_decref(view);
	long created = http_game_version(&http_fixture.checked, &game);
	long ended = await_event(&http_fixture.checked, &game, created, "turn_ended", 0, 15);
	/* Seat 1 moves in time: its turn is its own. */
	long rolled = http_post_move_ok(&http_fixture.checked, &game, 1, "{\"type\": \"roll\"}");
	long second = await_event(&http_fixture.checked, &game, rolled, "turn_ended", 1, 15);

	json_t *rows = http_truth_rows(game.id, 0);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, 0);
	json_t *first_move = json_array_get(log, past_seeds_fixed(log, (size_t)created, "bot"));
	assert_entry(first_move, "dice_rolled", 0, "bot");
	assert_one_deadline_after(json_array_get(log, (size_t)(created - 1)), first_move, 1);
	for (long version = created + 1; version <= ended; version++) {
		json_t *entry = json_array_get(log, (size_t)(version - 1));
		int actor = (int)integer_of(json_array_get(rows, (size_t)(version - 1)), "actor");
		ck_assert_msg(strcmp(string_of(entry, "origin"), "bot") == 0, "version %ld (%s of seat %d) is from %s",
			      version, string_of(entry, "type"), actor, string_of(entry, "origin"));
		/* Other seats' decisions in that turn (a discard, an answer to the bot's offer) time
		 * out into the bot's choice too. */
		ck_assert_msg(actor == 0 || http_event_is_fairness(entry) ||
				      strcmp(string_of(entry, "type"), "discarded") == 0 ||
				      strcmp(string_of(entry, "type"), "trade_declined") == 0,
			      "the bot made seat %d's %s in seat 0's turn", actor, string_of(entry, "type"));
	}
	json_t *roll = json_array_get(log, (size_t)(rolled - 1));
	ck_assert_str_eq(string_of(json_array_get(log, (size_t)(ended)), "origin"), "player");
	ck_assert_str_eq(string_of(roll, "origin"), "player");
	/* Seat 1's main phase, left alone, is the bot's after its deadline. */
	json_t *end = json_array_get(log, (size_t)(second - 1));
	assert_entry(end, "turn_ended", 1, "bot");
	json_t *after_roll = json_array_get(log, (size_t)rolled);
	ck_assert_str_eq(string_of(after_roll, "origin"), "bot");
	ck_assert_msg(time_of(after_roll) - time_of(roll) >= 1 - EARLY_S, "the bot took over seat 1 after %.2f s",
		      time_of(after_roll) - time_of(roll));
	json_decref(log);
	json_decref(rows);
}
END_TEST

START_TEST(test_on_timeout_skip_moves_the_robber_where_it_robs_nobody_then_ends_the_turn)
{
	/* Seed 1: the default move (a random hex) robs seat 1 here (checked with the skip
	 * branch of game/worker.c turned off), so the test tells skip from default. A 2 s clock
	 * leaves the roll below time to come before its deadline under load. */
	struct http_game game;
	http_game_create(&http_fixture.checked, 3,
			 "{\"layout\": \"beginner\", \"dice\": \"manual\", \"first_seat\": 0, \"turn_timeout_s\": 2, "
			 "\"start\": \"fixed\", \"on_timeout\": \"skip\", \"seed\": 1}",
			 &game);
	/* Seat 0 rolls a 7 in time (nobody holds more than 7 cards yet: no discards), then
	 * leaves the robber to its deadline. */
	long seven = http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}");
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert_str_eq(string_of(json_object_get(view, "options"), "on_timeout"), "skip");
	json_decref(view);
	long robbed = await_event(&http_fixture.checked, &game, seven, "robber_moved", 0, 15);
	long ended = await_event(&http_fixture.checked, &game, robbed, "turn_ended", 0, 15);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, seven - 1);
	json_t *roll = json_array_get(log, 0);
	json_t *robber = json_array_get(log, (size_t)(robbed - seven));
	assert_entry(robber, "robber_moved", 0, "timeout");
	ck_assert_int_eq(robbed, seven + 1);
	assert_one_deadline_after(roll, robber, 2);
	/* Nothing stolen: the next event is the end of the turn, a deadline later. */
	ck_assert_int_eq(ended, robbed + 1);
	json_t *end = json_array_get(log, (size_t)(ended - seven));
	assert_entry(end, "turn_ended", 0, "timeout");
	assert_one_deadline_after(robber, end, 2);
	json_decref(log);
}
END_TEST

/* ---- Restarts ---- */

/* A game whose first roll is due in 2 s, created on a server that stops (by `signal`'s
 * way: SIGTERM, or SIGKILL as a crash) at once; a new server fires the deadline. */
static void deadline_fires_across_a_restart(int crash)
{
	struct http_server first, second;
	http_server_start(&first, NULL);
	struct http_client direct;
	http_client_init(&direct, first.url, 0);
	struct http_game game;
	http_game_create(&direct, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0, "
			 "\"turn_timeout_s\": 2}",
			 &game);
	long created = http_game_version(&direct, &game);
	http_client_cleanup(&direct);
	if (crash)
		http_server_kill(&first);
	else
		ck_assert_int_eq(http_server_stop(&first, 30), 0);
	http_server_start(&second, NULL);
	http_client_init(&direct, second.url, 0);
	long rolled = await_event(&direct, &game, created, "dice_rolled", 0, 15);
	json_t *since = http_game_log(&direct, &game, NULL, created);
	ck_assert_int_eq(rolled, created + 1 + (long)past_seeds_fixed(since, 0, "timeout"));
	json_decref(since);
	json_t *start = entry_at(&direct, &game, created), *roll = entry_at(&direct, &game, rolled);
	assert_entry(roll, "dice_rolled", 0, "timeout");
	fprintf(stderr, "%s: the 2 s deadline fired %.2f s after the game was created\n", crash ? "kill -9" : "SIGTERM",
		time_of(roll) - time_of(start));
	assert_one_deadline_after(start, roll, 2);
	json_decref(start);
	json_decref(roll);
	http_client_cleanup(&direct);
	http_server_stop(&second, 30);
}

START_TEST(test_a_deadline_pending_across_a_sigterm_restart_fires_on_time)
{
	deadline_fires_across_a_restart(0);
}
END_TEST

START_TEST(test_a_deadline_pending_across_a_kill_9_fires_on_time)
{
	deadline_fires_across_a_restart(1);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_deadlines");
	TCase *deadlines = tcase_create("deadlines");
	http_fixture_add(deadlines, HTTP_FIXTURE_VALIDATE_REQUESTS, NULL);
	tcase_set_timeout(deadlines, 90);
	tcase_add_test(deadlines, test_initial_placement_times_out_into_a_settlement_then_a_road);
	tcase_add_test(deadlines, test_a_roll_and_then_the_turn_time_out_into_a_roll_and_the_end_of_the_turn);
	tcase_add_test(deadlines, test_every_owed_discard_then_the_robber_time_out_then_the_turn);
	tcase_add_test(deadlines, test_unanswered_offers_are_declined_at_the_deadline_then_the_turn_ends);
	tcase_add_test(deadlines, test_on_timeout_bot_plays_the_rest_of_the_timed_out_turn_only);
	tcase_add_test(deadlines, test_on_timeout_skip_moves_the_robber_where_it_robs_nobody_then_ends_the_turn);
	suite_add_tcase(suite, deadlines);

	TCase *restarts = tcase_create("restarts");
	tcase_set_timeout(restarts, 90);
	tcase_add_test(restarts, test_a_deadline_pending_across_a_sigterm_restart_fires_on_time);
	tcase_add_test(restarts, test_a_deadline_pending_across_a_kill_9_fires_on_time);
	suite_add_tcase(suite, restarts);
	return suite;
}
