/*
 * test_async_bot_offers.c - bots trade like people: they answer a person's offer within
 * seconds, and their own offers to people wait for the answers (options.offer_wait_s).
 *
 * The games are of three seats on the beginner board with the preset opening and manual
 * dice: seat 0 (Ann) and seat 2 (Cy) are played here by their tokens, seat 1 (Robo) is the
 * server's bot. The people roll a fixed cycle of totals (never a 7), discard what a bot's 7
 * makes them owe and end their turns; the bot rolls and chooses from the game's seed, so
 * each game goes the same way every run, and plays on until Robo makes an offer to the
 * people. What happens then is read from the log, the view and the game's timer row
 * (game_timers, the one thing a wait is), never from how long a request took:
 *
 *   a person's offer to the bot is answered by it (accepted, declined or countered), in
 *     the log within ANSWER_S of the offer by the database's clock;
 *   a bot's offer to the people stays open while they think: the bot makes no move, the
 *     timer is due a wait after the offer; one person declining keeps that due time (an
 *     answer never prolongs the wait), the other accepting has the bot confirm at once;
 *   nobody answering: the bot moves on when the wait is over, not before its due time;
 *   a restart of the server (kill -9) during a wait loses nothing: the offer, the timer
 *     row and the wait come back with the next server, which plays on from them;
 *   bots among themselves never wait: a game of three bots with a ten-minute offer wait
 *     plays to its end within seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"
#include "db/store_timers.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define ANSWER_S 5.0 /* a bot's answer to an offer, by the log's clock (times http_slowdown()) */
#define LATE_S 5.0   /* how late the bot may move after its wait is over (times http_slowdown()) */
#define MAX_PEOPLE_MOVES 600
#define BOT 1

static const char *const resource_names[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};

static const char *const server_settings[] = {"ALL_BOT_GAMES=1", NULL};

/* ---- Reading ---- */

static const char *string_of(const json_t *object, const char *member)
{
	const char *value = json_string_value(json_object_get(object, member));
	return value ? value : "";
}

static long integer_of(const json_t *object, const char *member)
{
	return (long)json_integer_value(json_object_get(object, member));
}

static int seat_listed(const json_t *list, int seat)
{
	size_t index;
	json_t *value;
	json_array_foreach(list, index, value) if (json_integer_value(value) == seat) return 1;
	return 0;
}

static int count_of(const json_t *resources, int resource)
{
	return (int)json_integer_value(json_object_get(resources, resource_names[resource]));
}

/* The game's id in the store. */
static long long store_id(const struct http_game *game)
{
	int64_t id;
	ck_assert_msg(store_parse_id(game->id, &id), "game id %s", game->id);
	return (long long)id;
}

/* The game's timer row: its version and kind, and its due time (microseconds since 1970);
 * 0 when there is no row. */
static int timer_of(const struct http_game *game, long *version, int *kind, long long *due_us)
{
	char sql[256];
	long long id = store_id(game);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM game_timers WHERE game_id = %lld", id);
	if (http_sql_number(sql) == 0)
		return 0;
	snprintf(sql, sizeof sql, "SELECT version FROM game_timers WHERE game_id = %lld", id);
	*version = (long)http_sql_number(sql);
	snprintf(sql, sizeof sql, "SELECT kind FROM game_timers WHERE game_id = %lld", id);
	*kind = (int)http_sql_number(sql);
	snprintf(sql, sizeof sql,
		 "SELECT (extract(epoch FROM due_at) * 1000000)::bigint FROM game_timers WHERE game_id = %lld", id);
	*due_us = http_sql_number(sql);
	return 1;
}

/* When event `version` was stored (microseconds since 1970, the database's clock). */
static long long event_time_us(const struct http_game *game, long version)
{
	char sql[256];
	snprintf(sql, sizeof sql,
		 "SELECT (extract(epoch FROM created_at) * 1000000)::bigint FROM events WHERE game_id = %lld AND seq = "
		 "%ld",
		 store_id(game), version);
	return http_sql_number(sql);
}

/* The open trade `id` in the view, or NULL (borrowed). */
static json_t *trade_in(const json_t *view, long id)
{
	size_t index;
	json_t *trade;
	json_array_foreach(json_object_get(view, "trades"), index,
			   trade) if (integer_of(trade, "id") == id) return trade;
	return NULL;
}

/* Long-poll until an event after `after` matches `type` by `seat` (-1: any), at most
 * timeout_s: its log entry (new reference). */
static json_t *await_event(struct http_client *with, const struct http_game *game, long after, const char *type,
			   int seat, double timeout_s)
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
				json_incref(entry);
				json_decref(log);
				return entry;
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

/* The first log entry after `after`, long-polled for at most timeout_s (new reference). */
static json_t *next_entry(struct http_client *with, const struct http_game *game, long after, double timeout_s)
{
	double deadline = http_clock() + timeout_s;
	for (;;) {
		json_t *log = http_game_log(with, game, NULL, after);
		if (json_array_size(log) > 0) {
			json_t *entry = json_incref(json_array_get(log, 0));
			json_decref(log);
			return entry;
		}
		json_decref(log);
		double left = deadline - http_clock();
		ck_assert_msg(left > 0, "game %s: nothing after version %ld within %.0f s", game->id, after, timeout_s);
		http_game_wait(with, game, after, left < 5 ? (int)left + 1 : 5);
	}
}

/* ---- The people's moves ---- */

struct table {
	struct http_client *with;
	struct http_game game;
	int rolls;
};

static void table_create(struct table *table, struct http_client *with, uint64_t seed, int offer_wait_s)
{
	memset(table, 0, sizeof *table);
	table->with = with;
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Robo\", \"bot\": true}, {\"name\": \"Cy\"}],"
		 " \"options\": {\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": "
		 "0,"
		 " \"seed\": %llu, \"offer_wait_s\": %d}}",
		 (unsigned long long)seed, offer_wait_s);
	http_game_create_body(with, body, &table->game);
	ck_assert_int_eq(table->game.bots, 1u << BOT);
	json_t *view = http_get_ok(with, table->game.path, NULL);
	ck_assert_int_eq(integer_of(json_object_get(view, "options"), "offer_wait_s"), offer_wait_s);
	json_decref(view);
}

/* A person's discard of `count` cards, the largest piles first. */
static void discard(struct table *table, int seat, int count)
{
	json_t *view = http_get_ok(table->with, table->game.path, table->game.tokens[seat]);
	int hand[RESOURCE_COUNT];
	for (int r = 0; r < RESOURCE_COUNT; r++)
		hand[r] = count_of(json_object_get(json_object_get(view, "you"), "resources"), r);
	json_decref(view);
	int drop[RESOURCE_COUNT] = {0};
	for (int left = count; left > 0; left--) {
		int most = 0;
		for (int r = 1; r < RESOURCE_COUNT; r++)
			if (hand[r] - drop[r] > hand[most] - drop[most])
				most = r;
		drop[most]++;
	}
	char body[256];
	snprintf(body, sizeof body,
		 "{\"type\": \"discard\", \"resources\": {\"brick\": %d, \"lumber\": %d, \"wool\": %d, \"grain\": %d, "
		 "\"ore\": %d}}",
		 drop[0], drop[1], drop[2], drop[3], drop[4]);
	http_post_move_ok(table->with, &table->game, seat, body);
}

static void answer(struct table *table, int seat, long trade, const char *verb);

/* The move of a person the game waits for (a refusal of an offer of the bot, a roll of the
 * cycle, a discard, the end of the turn): 1 when one was made, 0 when the game waits for
 * the bot only. */
static int person_moves(struct table *table, const json_t *view)
{
	static const int totals[] = {6, 8, 5, 9, 4, 10, 3, 11, 6, 8, 9, 5};
	const char *phase = string_of(view, "phase");
	const json_t *pending = json_object_get(view, "pending");
	size_t index;
	json_t *trade;
	json_array_foreach(json_object_get(view, "trades"), index, trade)
	{
		for (int seat = 0; seat < 3; seat += 2)
			if (integer_of(trade, "from") == BOT && seat_listed(json_object_get(trade, "to"), seat) &&
			    !seat_listed(json_object_get(trade, "accepted"), seat) &&
			    !seat_listed(json_object_get(trade, "declined"), seat)) {
				answer(table, seat, integer_of(trade, "id"), "decline");
				return 1;
			}
	}
	if (strcmp(phase, "discard") == 0) {
		json_t *owed;
		json_array_foreach(json_object_get(pending, "discards"), index, owed)
		{
			int seat = (int)integer_of(owed, "seat");
			if (seat != BOT) {
				discard(table, seat, (int)integer_of(owed, "count"));
				return 1;
			}
		}
		return 0;
	}
	int seat = (int)integer_of(json_object_get(view, "turn"), "seat");
	if (seat == BOT)
		return 0;
	char body[96];
	if (strcmp(phase, "roll") == 0) {
		int total = totals[table->rolls++ % (int)(sizeof totals / sizeof totals[0])];
		snprintf(body, sizeof body, "{\"type\": \"roll\", \"dice\": [%d, %d]}", total - total / 2, total / 2);
	} else if (strcmp(phase, "main") == 0) {
		snprintf(body, sizeof body, "{\"type\": \"end_turn\"}");
	} else {
		ck_abort_msg("game %s: seat %d in phase %s", table->game.id, seat, phase);
	}
	http_post_move_ok(table->with, &table->game, seat, body);
	return 1;
}

/* POST .../trades/{id}/{verb} by `seat`, which must be accepted. */
static void answer(struct table *table, int seat, long trade, const char *verb)
{
	char suffix[64], path[160];
	snprintf(suffix, sizeof suffix, "/trades/%ld/%s", trade, verb);
	struct http_response response;
	http_call(table->with, "POST", http_game_path(&table->game, suffix, path, sizeof path),
		  table->game.tokens[seat], NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "seat %d %s trade %ld: %s", seat, verb, trade, http_describe(&response));
	http_response_free(&response);
}

/* 1 when `seat` holds what the trade asks of the people (its `want`). */
static int can_pay(struct table *table, int seat, const json_t *trade)
{
	json_t *view = http_get_ok(table->with, table->game.path, table->game.tokens[seat]);
	const json_t *hand = json_object_get(json_object_get(view, "you"), "resources");
	int ok = 1;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		ok &= count_of(hand, r) >= count_of(json_object_get(trade, "want"), r);
	json_decref(view);
	return ok;
}

/* Play the people's moves until the bot has an open offer (not a counter-offer) to both
 * people that neither answered; when `payable`, only one Ann can pay (offers she cannot
 * are declined by both, and the bot plays on). Its id; *version the game's version then
 * (the view, new reference, in *out_view). */
static long play_until_bot_offer(struct table *table, int payable, long *version, json_t **out_view)
{
	for (int moves = 0; moves < MAX_PEOPLE_MOVES; moves++) {
		json_t *view = http_get_ok(table->with, table->game.path, NULL);
		ck_assert_msg(strcmp(string_of(view, "status"), "finished") != 0, "game %s ended without a bot offer",
			      table->game.id);
		long now = integer_of(view, "version");
		size_t index;
		json_t *trade;
		json_array_foreach(json_object_get(view, "trades"), index, trade)
		{
			if (integer_of(trade, "from") != BOT || !json_is_null(json_object_get(trade, "counter_to")) ||
			    seat_listed(json_object_get(trade, "accepted"), 0) ||
			    seat_listed(json_object_get(trade, "declined"), 0) ||
			    seat_listed(json_object_get(trade, "declined"), 2))
				continue;
			ck_assert_msg(seat_listed(json_object_get(trade, "to"), 0) &&
					      seat_listed(json_object_get(trade, "to"), 2),
				      "the bot's offer goes to both people");
			long id = integer_of(trade, "id");
			if (!payable || can_pay(table, 0, trade)) {
				*version = now;
				*out_view = view;
				return id;
			}
			answer(table, 2, id, "decline");
			answer(table, 0, id, "decline");
			json_decref(view);
			view = NULL;
			break;
		}
		if (!view)
			continue;
		int moved = person_moves(table, view);
		json_decref(view);
		if (!moved)
			http_game_wait(table->with, &table->game, now, 5);
	}
	ck_abort_msg("game %s: no offer by the bot after %d moves of the people", table->game.id, MAX_PEOPLE_MOVES);
	return 0;
}

/* The game waits for the people's answers to the bot's offer made by version `version`: its
 * timer is the bot's (kind 2) at that version, due about `wait_s` after the offer. Its due
 * time (microseconds since 1970). */
static long long assert_waiting(const struct table *table, long version, long trade, int wait_s)
{
	long timer_version = 0;
	int kind = 0;
	long long due_us = 0;
	ck_assert_msg(timer_of(&table->game, &timer_version, &kind, &due_us), "game %s has no timer", table->game.id);
	ck_assert_int_eq(timer_version, version);
	ck_assert_int_eq(kind, STORE_TIMER_BOT);
	/* The wait began when the offer was made, or a moment later when the other answers
	 * came: never before, and never a whole wait after. */
	json_t *log = http_game_log(table->with, &table->game, NULL, 0);
	long offered = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(log, index, entry) if (strcmp(string_of(entry, "type"), "trade_offered") == 0 &&
						  integer_of(entry, "trade") == trade) offered =
		integer_of(entry, "version");
	json_decref(log);
	ck_assert_int_gt(offered, 0);
	long long offered_us = event_time_us(&table->game, offered);
	ck_assert_msg(due_us >= offered_us + (long long)wait_s * 1000000 &&
			      due_us <= event_time_us(&table->game, version) + (long long)wait_s * 1000000,
		      "the bot's move is due %.3f s after its offer, the wait is %d s",
		      (double)(due_us - offered_us) / 1e6, wait_s);
	return due_us;
}

/* ---- A person's offer to the bot ---- */

/* Ann offers Robo one `give` for one `want` and Robo answers: 0 accepted, 1 declined, 2 a
 * counter-offer, each by the bot within ANSWER_S of the offer by the log's clock. The
 * answer's trade (the offer, or the counter-offer) into *answered_trade. */
static int offer_to_the_bot(struct table *table, int give, int want, long *answered_trade)
{
	char body[160], path[160];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}, \"to\": [%d]}",
		 resource_names[give], resource_names[want], BOT);
	struct http_response response;
	http_call(table->with, "POST", http_game_path(&table->game, "/trades", path, sizeof path),
		  table->game.tokens[0], body, NULL, &response);
	ck_assert_msg(response.status == 201, "offer %s: %s", body, http_describe(&response));
	long trade = integer_of(response.json, "trade");
	long version = integer_of(response.json, "version");
	http_response_free(&response);
	double within = ANSWER_S * http_slowdown();
	json_t *reply = NULL;
	double deadline = http_clock() + within + 5;
	long seen = version;
	while (!reply) {
		json_t *log = http_game_log(table->with, &table->game, NULL, seen);
		size_t index;
		json_t *entry;
		json_array_foreach(log, index, entry)
		{
			const char *type = string_of(entry, "type");
			if (integer_of(entry, "seat") != BOT)
				continue;
			if (((strcmp(type, "trade_accepted") == 0 || strcmp(type, "trade_declined") == 0) &&
			     integer_of(entry, "trade") == trade) ||
			    (strcmp(type, "trade_offered") == 0 && integer_of(entry, "counter_to") == trade)) {
				reply = json_incref(entry);
				break;
			}
		}
		seen += (long)json_array_size(log);
		json_decref(log);
		ck_assert_msg(reply || http_clock() < deadline, "game %s: Robo never answered offer %ld",
			      table->game.id, trade);
		if (!reply)
			http_game_wait(table->with, &table->game, seen, 2);
	}
	ck_assert_str_eq(string_of(reply, "origin"), "bot");
	double took = (double)(event_time_us(&table->game, integer_of(reply, "version")) -
			       event_time_us(&table->game, version)) /
		      1e6;
	ck_assert_msg(took <= within, "Robo answered offer %ld %.2f s after it was made", trade, took);
	const char *type = string_of(reply, "type");
	int kind = strcmp(type, "trade_accepted") == 0 ? 0 : strcmp(type, "trade_declined") == 0 ? 1 : 2;
	*answered_trade = kind == 2 ? integer_of(reply, "trade") : trade;
	if (kind == 2) {
		/* The counter-offer asks for the card Ann offered, from her alone. */
		ck_assert_int_eq(count_of(json_object_get(reply, "want"), give), 1);
		ck_assert_int_eq(json_array_size(json_object_get(reply, "to")), 1);
		ck_assert(seat_listed(json_object_get(reply, "to"), 0));
	}
	json_decref(reply);
	return kind;
}

START_TEST(test_a_bot_answers_a_persons_offer_within_seconds)
{
	double started = http_clock();
	struct table table;
	table_create(&table, &http_fixture.checked, 2207, 60);
	int answered[3] = {0}; /* accepted, declined, countered */
	int offers = 0, completed = 0;
	for (int turn = 0; turn < 8; turn++) {
		/* Ann's turn: she rolls, then offers her most plentiful card for each other one,
		 * to Robo, and takes the first exchange Robo agrees to. */
		json_t *view;
		while ((view = http_get_ok(table.with, table.game.path, NULL)),
		       integer_of(json_object_get(view, "turn"), "seat") != 0 ||
			       strcmp(string_of(view, "phase"), "roll") != 0) {
			long now = integer_of(view, "version");
			if (!person_moves(&table, view))
				http_game_wait(table.with, &table.game, now, 5);
			json_decref(view);
		}
		person_moves(&table, view); /* the roll (never a 7): her main phase */
		json_decref(view);
		view = http_get_ok(table.with, table.game.path, table.game.tokens[0]);
		const json_t *hand = json_object_get(json_object_get(view, "you"), "resources");
		int give = -1;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			if (count_of(hand, r) > 0 && (give < 0 || count_of(hand, r) > count_of(hand, give)))
				give = r;
		json_decref(view);
		for (int want = 0; want < RESOURCE_COUNT && give >= 0; want++) {
			if (want == give)
				continue;
			long trade;
			int kind = offer_to_the_bot(&table, give, want, &trade);
			answered[kind]++;
			offers++;
			if (kind != 1) {
				char suffix[64], path[160];
				snprintf(suffix, sizeof suffix, "/trades/%ld/confirm", trade);
				struct http_response response;
				http_call(table.with, "POST", http_game_path(&table.game, suffix, path, sizeof path),
					  table.game.tokens[0], kind == 0 ? "{\"with\": 1}" : "{}", NULL, &response);
				completed += response.status == 200;
				http_response_free(&response);
				break;
			}
		}
		/* Ann ends her turn; the others play theirs. */
		for (;;) {
			view = http_get_ok(table.with, table.game.path, NULL);
			int mine = integer_of(json_object_get(view, "turn"), "seat") == 0;
			long now = integer_of(view, "version");
			if (!mine) {
				json_decref(view);
				break;
			}
			if (!person_moves(&table, view))
				http_game_wait(table.with, &table.game, now, 5);
			json_decref(view);
		}
	}
	fprintf(stderr, "Robo answered %d offers: %d accepted, %d declined, %d countered; %d exchanges made (%.1f s)\n",
		offers, answered[0], answered[1], answered[2], completed, http_clock() - started);
	ck_assert_int_ge(offers, 8);
	/* With this seed Robo makes a counter-offer, which Ann takes. */
	ck_assert_int_ge(answered[2], 1);
	ck_assert_int_ge(completed, 1);
}
END_TEST

/* ---- The bot's offer to the people ---- */

START_TEST(test_a_bots_offer_stays_open_until_the_people_answered_then_the_trade_completes)
{
	struct table table;
	const int wait_s = 120;
	table_create(&table, &http_fixture.checked, 2208, wait_s);
	long version;
	json_t *view;
	long trade = play_until_bot_offer(&table, 1, &version, &view);
	json_t *offer = json_deep_copy(trade_in(view, trade));
	json_decref(view);
	long long due_us = assert_waiting(&table, version, trade, wait_s);
	/* While the people think, the bot does nothing: the offer is open, the game where it was. */
	http_pause(1.0);
	ck_assert_int_eq(http_game_version(table.with, &table.game), version);
	/* Cy declines: the wait goes on for Ann, at the same due time. */
	answer(&table, 2, trade, "decline");
	long timer_version;
	int kind;
	long long due_after;
	ck_assert(timer_of(&table.game, &timer_version, &kind, &due_after));
	ck_assert_int_eq(timer_version, version + 1);
	ck_assert_int_eq(kind, STORE_TIMER_BOT);
	ck_assert_msg(due_after == due_us, "Cy's answer moved the bot's move by %.3f s",
		      (double)(due_after - due_us) / 1e6);
	http_pause(0.5);
	ck_assert_int_eq(http_game_version(table.with, &table.game), version + 1);
	view = http_get_ok(table.with, table.game.path, NULL);
	ck_assert_ptr_nonnull(trade_in(view, trade));
	json_decref(view);
	/* Ann accepts: Robo confirms with her at once, long before the wait would be over. */
	int before[RESOURCE_COUNT], after[RESOURCE_COUNT];
	view = http_get_ok(table.with, table.game.path, table.game.tokens[0]);
	for (int r = 0; r < RESOURCE_COUNT; r++)
		before[r] = count_of(json_object_get(json_object_get(view, "you"), "resources"), r);
	json_decref(view);
	answer(&table, 0, trade, "accept");
	json_t *completed = await_event(table.with, &table.game, version + 2, "trade_completed", BOT,
					ANSWER_S * http_slowdown() + 5);
	ck_assert_int_eq(integer_of(completed, "version"), version + 3);
	ck_assert_int_eq(integer_of(completed, "trade"), trade);
	ck_assert_int_eq(integer_of(completed, "with"), 0);
	ck_assert_str_eq(string_of(completed, "origin"), "bot");
	double took = (double)(event_time_us(&table.game, version + 3) - event_time_us(&table.game, version + 2)) / 1e6;
	ck_assert_msg(took <= ANSWER_S * http_slowdown(), "Robo confirmed %.2f s after Ann accepted", took);
	json_decref(completed);
	view = http_get_ok(table.with, table.game.path, table.game.tokens[0]);
	for (int r = 0; r < RESOURCE_COUNT; r++)
		after[r] = count_of(json_object_get(json_object_get(view, "you"), "resources"), r);
	json_decref(view);
	for (int r = 0; r < RESOURCE_COUNT; r++)
		ck_assert_int_eq(after[r], before[r] + count_of(json_object_get(offer, "give"), r) -
						   count_of(json_object_get(offer, "want"), r));
	json_decref(offer);
	/* The bot's turn goes on and ends without waiting again. */
	json_t *ended =
		await_event(table.with, &table.game, version + 3, "turn_ended", BOT, LATE_S * http_slowdown() + 5);
	json_decref(ended);
}
END_TEST

START_TEST(test_a_bots_offer_nobody_answers_is_left_when_the_wait_is_over)
{
	struct table table;
	const int wait_s = 2;
	table_create(&table, &http_fixture.checked, 2209, wait_s);
	long version;
	json_t *view;
	long trade = play_until_bot_offer(&table, 0, &version, &view);
	json_decref(view);
	long long due_us = assert_waiting(&table, version, trade, wait_s);
	/* Nobody answers. The bot's next move comes when the wait is over: not before its due
	 * time, and soon after it; the offer is still open then, unanswered. */
	json_t *next = next_entry(table.with, &table.game, version, wait_s + LATE_S * http_slowdown() + 5);
	long next_version = integer_of(next, "version");
	ck_assert_int_eq(next_version, version + 1);
	ck_assert_msg(integer_of(next, "seat") == BOT && strcmp(string_of(next, "origin"), "bot") == 0,
		      "after the wait: %s by seat %ld from %s", string_of(next, "type"), integer_of(next, "seat"),
		      string_of(next, "origin"));
	long long moved_us = event_time_us(&table.game, next_version);
	ck_assert_msg(moved_us >= due_us, "the bot moved %.3f s before its wait was over",
		      (double)(due_us - moved_us) / 1e6);
	ck_assert_msg(moved_us <= due_us + (long long)(LATE_S * http_slowdown() * 1e6),
		      "the bot moved %.2f s after its wait was over", (double)(moved_us - due_us) / 1e6);
	json_decref(next);
	/* Its turn then goes on without waiting again: it ends within seconds. */
	json_t *ended = await_event(table.with, &table.game, version, "turn_ended", BOT, LATE_S * http_slowdown() + 5);
	json_decref(ended);
	json_t *rows = http_truth_rows(table.game.id, version);
	size_t index;
	json_t *row;
	json_array_foreach(rows, index, row)
	{
		const json_t *event = json_object_get(row, "event");
		const char *type = string_of(event, "type");
		if (strcmp(type, "turn_ended") == 0)
			break;
		ck_assert_msg(integer_of(row, "actor") == BOT, "seat %ld made a %s", integer_of(row, "actor"), type);
		ck_assert_msg(strcmp(type, "trade_completed") != 0 && strcmp(type, "trade_accepted") != 0,
			      "nobody answered, yet there is a %s", type);
	}
	json_decref(rows);
}
END_TEST

/* ---- Restarts ---- */

/* The server dies (kill -9) while the bot waits; the next server has the same offer, the
 * same timer row and due time, and plays on from the people's answers. */
START_TEST(test_a_bots_wait_survives_a_kill_9_of_the_server)
{
	struct http_server first, second;
	http_server_start(&first, server_settings);
	struct http_client direct;
	http_client_init(&direct, first.url, 0);
	struct table table;
	const int wait_s = 120;
	table_create(&table, &direct, 2211, wait_s);
	long version;
	json_t *view;
	long trade = play_until_bot_offer(&table, 1, &version, &view);
	json_decref(view);
	long long due_us = assert_waiting(&table, version, trade, wait_s);
	http_client_cleanup(&direct);
	http_server_kill(&first);

	http_server_start(&second, server_settings);
	http_client_init(&direct, second.url, 0);
	table.with = &direct;
	view = http_get_ok(&direct, table.game.path, NULL);
	ck_assert_int_eq(integer_of(view, "version"), version);
	ck_assert_ptr_nonnull(trade_in(view, trade));
	json_decref(view);
	ck_assert_int_eq(assert_waiting(&table, version, trade, wait_s), due_us);
	answer(&table, 2, trade, "decline");
	answer(&table, 0, trade, "accept");
	json_t *completed =
		await_event(&direct, &table.game, version, "trade_completed", BOT, ANSWER_S * http_slowdown() + 5);
	ck_assert_int_eq(integer_of(completed, "version"), version + 3);
	ck_assert_int_eq(integer_of(completed, "with"), 0);
	json_decref(completed);
	http_client_cleanup(&direct);
	http_server_stop(&second, 30);
}
END_TEST

/* The server is stopped while the bot waits and comes back after the wait is over: the
 * next server makes the bot's move, soon after it starts. */
START_TEST(test_a_bots_wait_over_while_no_server_runs_ends_on_the_next_one)
{
	struct http_server first, second;
	http_server_start(&first, server_settings);
	struct http_client direct;
	http_client_init(&direct, first.url, 0);
	struct table table;
	const int wait_s = 2;
	table_create(&table, &direct, 2212, wait_s);
	long version;
	json_t *view;
	long trade = play_until_bot_offer(&table, 0, &version, &view);
	json_decref(view);
	long long due_us = assert_waiting(&table, version, trade, wait_s);
	http_client_cleanup(&direct);
	ck_assert_int_eq(http_server_stop(&first, 30), 0);
	/* Down until the wait is over (by the database's clock). */
	while (http_sql_number("SELECT (extract(epoch FROM now()) * 1000000)::bigint") <= due_us + 500000)
		http_pause(0.2);
	http_server_start(&second, server_settings);
	http_client_init(&direct, second.url, 0);
	json_t *next = next_entry(&direct, &table.game, version, LATE_S * http_slowdown() + 5);
	ck_assert_int_eq(integer_of(next, "seat"), BOT);
	ck_assert_int_eq(integer_of(next, "version"), version + 1);
	ck_assert_int_ge(event_time_us(&table.game, version + 1), due_us);
	json_decref(next);
	http_client_cleanup(&direct);
	http_server_stop(&second, 30);
}
END_TEST

/* ---- Bots among themselves ---- */

START_TEST(test_bots_among_themselves_never_wait)
{
	struct http_game game;
	http_game_create_body(
		&http_fixture.checked,
		"{\"players\": [{\"name\": \"A\", \"bot\": true}, {\"name\": \"B\", \"bot\": true},"
		" {\"name\": \"C\", \"bot\": true}], \"options\": {\"layout\": \"beginner\", \"seed\": 2210,"
		" \"offer_wait_s\": 600}}",
		&game);
	double started = http_clock();
	ck_assert_msg(http_game_wait_finished(&http_fixture.checked, &game, 60 * http_slowdown()),
		      "a game of bots with a 10-minute offer wait did not end within a minute");
	json_t *rows = http_truth_rows(game.id, 0);
	int offers = 0;
	size_t index;
	json_t *row;
	json_array_foreach(rows, index, row) offers +=
		strcmp(string_of(json_object_get(row, "event"), "type"), "trade_offered") == 0;
	json_decref(rows);
	fprintf(stderr, "a game of three bots with %d offers ended in %.1f s\n", offers, http_clock() - started);
	ck_assert_int_gt(offers, 0);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_bot_offers");
	TCase *offers = tcase_create("offers");
	http_fixture_add(offers, HTTP_FIXTURE_PRISM | HTTP_FIXTURE_VALIDATE_REQUESTS, server_settings);
	tcase_set_timeout(offers, 240);
	tcase_add_test(offers, test_a_bot_answers_a_persons_offer_within_seconds);
	tcase_add_test(offers, test_a_bots_offer_stays_open_until_the_people_answered_then_the_trade_completes);
	tcase_add_test(offers, test_a_bots_offer_nobody_answers_is_left_when_the_wait_is_over);
	tcase_add_test(offers, test_bots_among_themselves_never_wait);
	suite_add_tcase(suite, offers);
	TCase *restarts = tcase_create("restarts");
	tcase_set_timeout(restarts, 240);
	tcase_add_test(restarts, test_a_bots_wait_survives_a_kill_9_of_the_server);
	tcase_add_test(restarts, test_a_bots_wait_over_while_no_server_runs_ends_on_the_next_one);
	suite_add_tcase(suite, restarts);
	return suite;
}
