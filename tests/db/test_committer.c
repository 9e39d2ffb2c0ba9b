/*
 * test_committer.c - group commit (db/committer.h): appends of many games in one
 * statement, each refused on its own. Two appends of one game at one version in one batch:
 * one wins, the other is a conflict; a batch where one game's append is stale (or its game
 * missing, or its payload refused by the server) commits everyone else's; many threads on
 * many games through one committer leave every acknowledged event in the log exactly once,
 * with no gap.
 *
 * A batch is made on purpose, without timing: the committer (one connection) is held on a
 * first append whose next row a raw transaction has inserted and not committed (the
 * committer's insert waits for it); the appends handed in meanwhile queue up, and once the
 * raw transaction rolls back they all go in the next statement, which the committer's
 * count of statements confirms.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/committer.h"
#include "db/notifier.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

/* One append made by a thread of its own, through a store attached to the committer. */
struct appender {
	struct store_committer *committer;
	int64_t game;
	int32_t version;
	const char *payload; /* NULL: a fake event's */
	int events;	     /* 0: one */
	pthread_t thread;
	enum store_status status;
	char message[256];
};

static void *append_one(void *argument)
{
	struct appender *appender = argument;
	struct store *store;
	appender->status = store_open(test_db_fixture.db.conninfo, &store);
	if (appender->status == STORE_OK) {
		store_use_committer(store, appender->committer);
		struct store_event event;
		char text[1][64];
		test_db_fake_events(&event, text, 1, appender->version + 1);
		if (appender->payload)
			event.payload = appender->payload;
		struct store_append append = {
			appender->game, appender->version, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
		appender->status = store_append(store, &append);
	}
	snprintf(appender->message, sizeof appender->message, "%s", store_message(store));
	store_close(store);
	return NULL;
}

static void start(struct appender *appender)
{
	ck_assert(pthread_create(&appender->thread, NULL, append_one, appender) == 0);
}

static void sleep_ms(int ms)
{
	struct timespec pause = {0, ms * 1000000L};
	nanosleep(&pause, NULL);
}

/* Wait (up to 60 s) until the committer has been handed `appends` appends. */
static void wait_handed(struct store_committer *committer, long appends)
{
	for (int i = 0; i < 6000; i++) {
		long handed;
		store_committer_counts(committer, &handed, NULL);
		if (handed >= appends)
			return;
		sleep_ms(10);
	}
	ck_abort_msg("the committer was not handed %ld appends", appends);
}

/* A committer held on an append of `game` at `version`: `raw` has inserted version+1 in a
 * transaction left open, and the committer's statement waits for it (seen in
 * pg_stat_activity). Release with release_hold(). */
struct hold {
	PGconn *raw;
	struct appender first;
};

static void hold_committer(struct hold *hold, struct store_committer *committer, int64_t game, int32_t version,
			   int events)
{
	hold->raw = test_db_connect(test_db_fixture.db.conninfo);
	char sql[512];
	test_db_exec(hold->raw, "BEGIN");
	snprintf(sql, sizeof sql,
		 "INSERT INTO events (game_id, seq, type, actor, origin, payload) VALUES (%lld, %d, 1, 0, 0, '{}')",
		 (long long)game, (int)version + 1);
	test_db_exec(hold->raw, sql);
	memset(&hold->first, 0, sizeof hold->first);
	hold->first.committer = committer;
	hold->first.game = game;
	hold->first.version = version;
	hold->first.events = events;
	start(&hold->first);
	PGconn *watch = test_db_connect(test_db_fixture.db.conninfo);
	int waiting = 0;
	for (int i = 0; i < 6000 && !waiting; i++) {
		waiting = test_db_scalar(watch, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
						" AND query LIKE '%INSERT INTO events%'") > 0;
		if (!waiting)
			sleep_ms(10);
	}
	PQfinish(watch);
	ck_assert_msg(waiting, "the committer's statement never waited for the held row");
}

/* Roll the raw transaction back: the held append commits (its row is free again). */
static void release_hold(struct hold *hold)
{
	test_db_exec(hold->raw, "ROLLBACK");
	PQfinish(hold->raw);
	pthread_join(hold->first.thread, NULL);
	ck_assert_msg(hold->first.status == STORE_OK, "the held append: %s %s", store_status_name(hold->first.status),
		      hold->first.message);
}

static long statements(struct store_committer *committer)
{
	long sent;
	store_committer_counts(committer, NULL, &sent);
	return sent;
}

static long long events_of(int64_t game)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	char sql[128];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM events WHERE game_id = %lld", (long long)game);
	long long count = test_db_scalar(conn, sql);
	PQfinish(conn);
	return count;
}

START_TEST(test_racing_appends_of_one_game_in_one_batch_one_wins)
{
	struct store_committer *committer;
	ck_assert(store_committer_open(test_db_fixture.db.conninfo, 1, 64, NULL, &committer) == STORE_OK);
	struct store *store = test_db_fixture.store;
	int64_t held = test_db_new_game(store, 4, 1), game = test_db_new_game(store, 4, 3);
	struct hold hold;
	hold_committer(&hold, committer, held, 1, 1);
	struct appender racers[2];
	for (int i = 0; i < 2; i++) {
		memset(&racers[i], 0, sizeof racers[i]);
		racers[i].committer = committer;
		racers[i].game = game;
		racers[i].version = 3;
		start(&racers[i]);
	}
	wait_handed(committer, 3);
	release_hold(&hold);
	for (int i = 0; i < 2; i++)
		pthread_join(racers[i].thread, NULL);
	ck_assert_int_eq(statements(committer), 2); /* the held one, then both racers together */
	int wins = (racers[0].status == STORE_OK) + (racers[1].status == STORE_OK);
	int conflicts = (racers[0].status == STORE_CONFLICT) + (racers[1].status == STORE_CONFLICT);
	ck_assert_msg(wins == 1 && conflicts == 1, "racers: %s (%s), %s (%s)", store_status_name(racers[0].status),
		      racers[0].message, store_status_name(racers[1].status), racers[1].message);
	ck_assert_int_eq(events_of(game), 4);
	int32_t version;
	ck_assert(store_version(store, game, &version) == STORE_OK);
	ck_assert_int_eq(version, 4);
	store_committer_close(committer);
}
END_TEST

/* A batch of five games' appends: one stale, one of a game that does not exist, one with a
 * payload the server refuses, two good ones: each gets its own answer. */
START_TEST(test_one_refused_append_does_not_fail_the_others)
{
	struct store_committer *committer;
	ck_assert(store_committer_open(test_db_fixture.db.conninfo, 1, 64, NULL, &committer) == STORE_OK);
	struct store *store = test_db_fixture.store;
	int64_t held = test_db_new_game(store, 4, 1);
	int64_t good1 = test_db_new_game(store, 4, 2), good2 = test_db_new_game(store, 4, 5);
	int64_t stale = test_db_new_game(store, 4, 4), bad = test_db_new_game(store, 4, 2);
	struct hold hold;
	hold_committer(&hold, committer, held, 1, 1);
	struct appender items[5] = {
		{.committer = committer, .game = good1, .version = 2},
		{.committer = committer, .game = stale, .version = 2},
		{.committer = committer, .game = INT64_C(0x7fffffff00000001), .version = 3},
		{.committer = committer, .game = good2, .version = 5},
		{.committer = committer, .game = bad, .version = 2, .payload = "{not json"},
	};
	for (int i = 0; i < 5; i++)
		start(&items[i]);
	wait_handed(committer, 6);
	release_hold(&hold);
	for (int i = 0; i < 5; i++)
		pthread_join(items[i].thread, NULL);
	static const enum store_status expected[5] = {STORE_OK, STORE_CONFLICT, STORE_NOT_FOUND, STORE_OK,
						      STORE_INVALID};
	for (int i = 0; i < 5; i++)
		ck_assert_msg(items[i].status == expected[i], "item %d: %s, not %s (%s)", i,
			      store_status_name(items[i].status), store_status_name(expected[i]), items[i].message);
	ck_assert_int_eq(events_of(good1), 3);
	ck_assert_int_eq(events_of(good2), 6);
	ck_assert_int_eq(events_of(stale), 4);
	ck_assert_int_eq(events_of(bad), 2);
	/* The held one; the five together (refused by the server for the bad payload); then each
	 * of the five sent alone. */
	ck_assert_int_eq(statements(committer), 1 + 1 + 5);
	store_committer_close(committer);
}
END_TEST

/* A writer elsewhere takes the first of the two versions a held append of two events was
 * to take: the append is refused whole (a conflict), never left half in the log. */
START_TEST(test_an_append_is_never_half_written)
{
	struct store_committer *committer;
	ck_assert(store_committer_open(test_db_fixture.db.conninfo, 1, 64, NULL, &committer) == STORE_OK);
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 3);
	struct hold hold;
	hold_committer(&hold, committer, game, 3, 2);
	test_db_exec(hold.raw, "COMMIT"); /* version 4 is the raw writer's */
	PQfinish(hold.raw);
	pthread_join(hold.first.thread, NULL);
	ck_assert_msg(hold.first.status == STORE_CONFLICT, "%s %s", store_status_name(hold.first.status),
		      hold.first.message);
	ck_assert_int_eq(events_of(game), 4);
	ck_assert_int_eq(statements(committer), 1); /* alone in its batch: refused as it is */
	store_committer_close(committer);
}
END_TEST

/* ---- Many threads, many games ---- */

#define THREADS 8
#define GAMES 6
#define APPENDS_PER_THREAD 60

struct player {
	struct store_committer *committer;
	const int64_t *games;
	int index;
	int acked[APPENDS_PER_THREAD]; /* the game index of each acknowledged append, -1: none */
	int32_t acked_seq[APPENDS_PER_THREAD];
	int conflicts;
	int failures;
	char failure[256];
};

static void *play_many(void *argument)
{
	struct player *player = argument;
	struct store *store;
	if (store_open(test_db_fixture.db.conninfo, &store) != STORE_OK) {
		player->failures++;
		store_close(store);
		return NULL;
	}
	store_use_committer(store, player->committer);
	for (int n = 0; n < APPENDS_PER_THREAD; n++) {
		player->acked[n] = -1;
		int g = (player->index + n) % GAMES;
		for (int attempt = 0; attempt < 1000; attempt++) {
			int32_t version;
			if (store_version(store, player->games[g], &version) != STORE_OK) {
				player->failures++;
				break;
			}
			/* One event, or two (the second without the marks the checks count). */
			char payload[64];
			snprintf(payload, sizeof payload, "{\"thread\":%d,\"n\":%d}", player->index, n);
			struct store_event events[2] = {
				{100, player->index % 4, STORE_ORIGIN_PLAYER, payload},
				{101, player->index % 4, STORE_ORIGIN_PLAYER, "{\"second\":1}"}};
			struct store_append append = {player->games[g], version, events, 1 + n % 2,
						      STORE_NO_STATUS,	NULL,	 NULL,	 NULL};
			enum store_status status = store_append(store, &append);
			if (status == STORE_OK) {
				player->acked[n] = g;
				player->acked_seq[n] = version + 1;
				break;
			}
			if (status != STORE_CONFLICT) {
				snprintf(player->failure, sizeof player->failure, "%s %s", store_status_name(status),
					 store_message(store));
				player->failures++;
				break;
			}
			player->conflicts++;
		}
	}
	store_close(store);
	return NULL;
}

START_TEST(test_many_threads_many_games_every_acknowledged_append_once)
{
	struct store_notifier *notifier;
	store_notifier_open(test_db_fixture.db.conninfo, &notifier);
	struct store_committer *committer;
	ck_assert(store_committer_open(test_db_fixture.db.conninfo, 2, 64, notifier, &committer) == STORE_OK);
	int64_t games[GAMES];
	for (int g = 0; g < GAMES; g++)
		games[g] = test_db_new_game(test_db_fixture.store, 4, 1);
	static struct player players[THREADS];
	pthread_t threads[THREADS];
	for (int t = 0; t < THREADS; t++) {
		memset(&players[t], 0, sizeof players[t]);
		players[t].committer = committer;
		players[t].games = games;
		players[t].index = t;
		ck_assert(pthread_create(&threads[t], NULL, play_many, &players[t]) == 0);
	}
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	long long acked_total = 0;
	for (int t = 0; t < THREADS; t++) {
		ck_assert_msg(players[t].failures == 0, "thread %d: %s", t, players[t].failure);
		for (int n = 0; n < APPENDS_PER_THREAD; n++) {
			ck_assert_int_ge(players[t].acked[n], 0);
			acked_total++;
			char sql[512];
			/* Exactly once in the log, at the version it was acknowledged as. */
			snprintf(sql, sizeof sql,
				 "SELECT count(*) FROM events WHERE game_id = %lld AND payload->>'thread' = '%d'"
				 " AND payload->>'n' = '%d' AND seq = %d",
				 (long long)games[players[t].acked[n]], t, n, (int)players[t].acked_seq[n]);
			ck_assert_int_eq(test_db_scalar(conn, sql), 1);
			snprintf(sql, sizeof sql,
				 "SELECT count(*) FROM events WHERE payload->>'thread' = '%d' AND payload->>'n' = '%d'",
				 t, n);
			ck_assert_int_eq(test_db_scalar(conn, sql), 1);
		}
	}
	for (int g = 0; g < GAMES; g++) {
		char sql[256];
		snprintf(sql, sizeof sql, "SELECT (count(*) = max(seq))::integer FROM events WHERE game_id = %lld",
			 (long long)games[g]);
		ck_assert_int_eq(test_db_scalar(conn, sql), 1); /* no gap: seq 1..n */
	}
	/* Every second event right after its first: the appends of two were written whole. */
	ck_assert_int_eq(test_db_scalar(conn,
					"SELECT count(*) FROM events s JOIN events f ON f.game_id = s.game_id"
					" AND f.seq = s.seq - 1 AND f.payload->>'n' IS NOT NULL"
					" AND (f.payload->>'n')::integer % 2 = 1 WHERE s.payload->>'second' = '1'"),
			 THREADS * (APPENDS_PER_THREAD / 2));
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM events WHERE payload->>'second' = '1'"),
			 THREADS * (APPENDS_PER_THREAD / 2));
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM events WHERE payload->>'thread' IS NOT NULL"),
			 acked_total);
	PQfinish(conn);
	long handed, sent;
	store_committer_counts(committer, &handed, &sent);
	ck_assert_int_ge(handed, acked_total);
	ck_assert_int_le(sent, handed);
	store_committer_close(committer);
	store_notifier_close(notifier);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("committer");
	TCase *tc = tcase_create("committer");
	tcase_set_timeout(tc, 120);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_racing_appends_of_one_game_in_one_batch_one_wins);
	tcase_add_test(tc, test_one_refused_append_does_not_fail_the_others);
	tcase_add_test(tc, test_an_append_is_never_half_written);
	tcase_add_test(tc, test_many_threads_many_games_every_acknowledged_append_once);
	suite_add_tcase(suite, tc);
	return suite;
}
