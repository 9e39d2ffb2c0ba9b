/*
 * test_feed.c - the feed's order over many games (db/store_feed.h) against the schema of
 * 0020_compact_events.sql, where events are found from a sparse index: an anchor every 16th
 * seq, then the primary key. The feed must be exactly the rows of the player's games in
 * (xact, game, kind, seq) order, from any position.
 *
 * The games are written behind the store's back, one transaction per step of a fixed
 * schedule, so the edges of the anchors are all there: games longer than 16 events, a game
 * appended by many transactions, one transaction appending to several games (as a batch of
 * appends does), one transaction appending more than 16 events, messages between events,
 * and a game of another player. The truth is the same rows ordered by SQL, and the store's
 * reads are compared with it from every row's position (a cursor on an anchor, between
 * two, just before one), from the start of every transaction, and page by page.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store_feed.h"
#include "db/store_internal.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

#define FEED_GAMES 5	   /* the player's first four, and one of another player */
#define FEED_PLAYER 7001   /* the player whose feed is read */
#define FEED_ROWS_MAX 2048 /* rows of the truth */
#define FEED_SCHEDULE_STEPS 140

struct feed_world {
	PGconn *conn;
	int64_t games[FEED_GAMES];
	int32_t versions[FEED_GAMES];
	int32_t messages[FEED_GAMES];
	uint32_t draw; /* the schedule's random state: fixed, so every run writes the same */
};

static uint32_t next_draw(struct feed_world *world, uint32_t below)
{
	world->draw = world->draw * 1103515245u + 12345u;
	return (world->draw >> 8) % below;
}

static void exec_format(PGconn *conn, const char *format, ...) __attribute__((format(printf, 2, 3)));
static void exec_format(PGconn *conn, const char *format, ...)
{
	char sql[1024];
	va_list args;
	va_start(args, format);
	vsnprintf(sql, sizeof sql, format, args);
	va_end(args);
	test_db_exec(conn, sql);
}

/* Events version+1 .. version+count of game `index`, in the transaction the caller has open
 * (or in one of their own). */
static void write_events(struct feed_world *world, int index, int count)
{
	exec_format(world->conn,
		    "INSERT INTO events (game_id, seq, type, actor, origin, payload)"
		    " SELECT %" PRId64 ", %d + n, 100, n %% 4, 0, ('{\"type\":\"test\",\"n\":' || n || '}')::json"
		    " FROM generate_series(1, %d) AS n",
		    world->games[index], (int)world->versions[index], count);
	world->versions[index] += count;
}

static void write_message(struct feed_world *world, int index)
{
	world->messages[index]++;
	exec_format(world->conn,
		    "INSERT INTO messages (game_id, seq, seat, after_version, text) VALUES (%" PRId64
		    ", %d, 1, %d, 'hi')",
		    world->games[index], (int)world->messages[index], (int)world->versions[index]);
}

/* The games, created through the store (their first events in one transaction: one of 20
 * events, one of 17), four of them seated by the player, and the schedule written. */
static void build_world(struct feed_world *world)
{
	memset(world, 0, sizeof *world);
	world->draw = 24;
	world->conn = test_db_connect(test_db_fixture.db.conninfo);
	const int first_events[FEED_GAMES] = {20, 1, 3, 17, 5};
	for (int i = 0; i < FEED_GAMES; i++) {
		world->games[i] = test_db_new_game(test_db_fixture.store, 4, first_events[i]);
		world->versions[i] = first_events[i];
	}
	exec_format(world->conn,
		    "INSERT INTO players (id, name, token_hash) VALUES (%d, 'feed', sha256('feed')),"
		    " (%d, 'other', sha256('other'))",
		    FEED_PLAYER, FEED_PLAYER + 1);
	for (int i = 0; i < FEED_GAMES; i++)
		exec_format(world->conn, "UPDATE seats SET player_id = %d WHERE game_id = %" PRId64 " AND seat = %d",
			    i < FEED_GAMES - 1 ? FEED_PLAYER : FEED_PLAYER + 1, world->games[i], i % 4);
	for (int step = 0; step < FEED_SCHEDULE_STEPS; step++) {
		uint32_t kind = next_draw(world, 10);
		if (kind <= 5) { /* one game, 1 to 3 events: the common append */
			write_events(world, (int)next_draw(world, FEED_GAMES), 1 + (int)next_draw(world, 3));
		} else if (kind <= 7) { /* several games in one transaction */
			test_db_exec(world->conn, "BEGIN");
			int first = (int)next_draw(world, FEED_GAMES);
			int games = 2 + (int)next_draw(world, 3);
			for (int i = 0; i < games; i++)
				write_events(world, (first + i) % FEED_GAMES, 1 + (int)next_draw(world, 2));
			test_db_exec(world->conn, "COMMIT");
		} else if (kind == 8) { /* more than 16 events in one transaction */
			write_events(world, (int)next_draw(world, FEED_GAMES), 18);
		} else {
			write_message(world, (int)next_draw(world, FEED_GAMES));
		}
	}
}

/* The truth: the rows of the player's games (or of one game) in the feed's order. */
static int truth(struct feed_world *world, int64_t only_game, struct store_feed_position *rows)
{
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "SELECT xact::text::bigint, game_id, kind, seq FROM"
		 " (SELECT xact, game_id, 0 AS kind, seq FROM events UNION ALL"
		 "  SELECT xact, game_id, 1, seq FROM messages) r"
		 " WHERE %s ORDER BY xact, game_id, kind, seq",
		 only_game ? "game_id = $1::bigint"
			   : "game_id IN (SELECT game_id FROM seats WHERE player_id = $1::bigint)");
	char key[32];
	snprintf(key, sizeof key, "%" PRId64, only_game ? only_game : (int64_t)FEED_PLAYER);
	const char *values[] = {key};
	PGresult *result = PQexecParams(world->conn, sql, 1, NULL, values, NULL, NULL, 0);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(result));
	int count = PQntuples(result);
	ck_assert_int_le(count, FEED_ROWS_MAX);
	for (int i = 0; i < count; i++) {
		rows[i].xact = strtoll(PQgetvalue(result, i, 0), NULL, 10);
		rows[i].game_id = strtoll(PQgetvalue(result, i, 1), NULL, 10);
		rows[i].kind = atoi(PQgetvalue(result, i, 2));
		rows[i].seq = atoi(PQgetvalue(result, i, 3));
	}
	PQclear(result);
	return count;
}

static int same_position(const struct store_feed_position *a, const struct store_feed_position *b)
{
	return a->xact == b->xact && a->game_id == b->game_id && a->kind == b->kind && a->seq == b->seq;
}

/* The store's page after `after` is rows[from], rows[from + 1] ... (as many as the limit
 * allows, as many as there are). */
static void assert_page(const struct store_feed *page, const struct store_feed_position *rows, int count, int from,
			int limit, const char *what, int at)
{
	int expected = count - from < limit ? count - from : limit;
	ck_assert_msg(page->count == expected, "%s from %d: %d rows, expected %d", what, at, page->count, expected);
	for (int i = 0; i < page->count; i++) {
		const struct store_feed_position *got = &page->items[i].at;
		const struct store_feed_position *want = &rows[from + i];
		ck_assert_msg(same_position(got, want),
			      "%s from %d, row %d: (%" PRId64 ", %" PRId64 ", %d, %d), expected (%" PRId64 ", %" PRId64
			      ", %d, %d)",
			      what, at, i, got->xact, got->game_id, got->kind, (int)got->seq, want->xact, want->game_id,
			      want->kind, (int)want->seq);
		if (got->kind == STORE_FEED_EVENT)
			ck_assert_int_eq(page->items[i].event.seq, want->seq);
	}
}

static int rows_of_game(const struct store_feed_position *rows, int count, int64_t game, int kind)
{
	int found = 0;
	for (int i = 0; i < count; i++)
		found += rows[i].game_id == game && rows[i].kind == kind;
	return found;
}

/* The schedule really has the edges this file is about. */
static void assert_world_has_its_edges(struct feed_world *world)
{
	int long_games = 0;
	for (int i = 0; i < FEED_GAMES - 1; i++)
		long_games += world->versions[i] > 3 * 16;
	ck_assert_int_ge(long_games, 3);
	/* a transaction that wrote more than one game */
	ck_assert_int_gt(test_db_scalar(world->conn, "SELECT count(*) FROM (SELECT xact FROM events GROUP BY xact"
						     " HAVING count(DISTINCT game_id) > 1) x"),
			 0);
	/* a transaction that wrote more than 16 events of a game, past an anchor */
	ck_assert_int_gt(test_db_scalar(world->conn, "SELECT count(*) FROM (SELECT 1 FROM events GROUP BY game_id, xact"
						     " HAVING count(*) > 16) x"),
			 0);
	/* a game appended by many transactions */
	ck_assert_int_gt(test_db_scalar(world->conn, "SELECT max(n) FROM (SELECT count(DISTINCT xact) AS n FROM events"
						     " GROUP BY game_id) x"),
			 20);
	ck_assert_int_gt(test_db_scalar(world->conn, "SELECT count(*) FROM messages"), 3);
	/* What the sparse index stands on: xact never decreases along seq within a game. */
	ck_assert_int_eq(test_db_scalar(world->conn,
					"SELECT count(*) FROM events a JOIN events b"
					" ON b.game_id = a.game_id AND b.seq = a.seq + 1 WHERE b.xact < a.xact"),
			 0);
}

START_TEST(test_player_feed_from_every_position_is_the_order_of_the_rows)
{
	struct feed_world world;
	build_world(&world);
	assert_world_has_its_edges(&world);
	static struct store_feed_position rows[FEED_ROWS_MAX];
	int count = truth(&world, 0, rows);
	ck_assert_int_eq(rows_of_game(rows, count, world.games[FEED_GAMES - 1], STORE_FEED_EVENT), 0);
	ck_assert_int_gt(count, 200);

	/* From the start and from every row: a cursor on an anchor, between anchors, just
	 * before one, on a message, on the last row. */
	struct store_feed_position start = {0, 0, 0, 0};
	for (int i = -1; i < count; i++) {
		struct store_feed page;
		ck_assert_int_eq(
			store_feed_read_player(test_db_fixture.store, FEED_PLAYER, i < 0 ? &start : &rows[i], 3, &page),
			STORE_OK);
		assert_page(&page, rows, count, i + 1, 3, "player feed", i);
		store_feed_free(&page);
	}

	/* From the start of each transaction (as a stream that begins at xmin) and from its
	 * end: the first row of a later transaction. */
	for (int i = 0; i < count; i++) {
		if (i > 0 && rows[i].xact == rows[i - 1].xact)
			continue;
		struct store_feed_position before = {rows[i].xact, 0, 0, 0};
		struct store_feed page;
		ck_assert_int_eq(store_feed_read_player(test_db_fixture.store, FEED_PLAYER, &before, 2, &page),
				 STORE_OK);
		assert_page(&page, rows, count, i, 2, "player feed from a transaction's start", i);
		store_feed_free(&page);
		int next = i;
		while (next < count && rows[next].xact == rows[i].xact)
			next++;
		struct store_feed_position after = {rows[i].xact, INT64_MAX, STORE_FEED_MESSAGE, INT32_MAX};
		ck_assert_int_eq(store_feed_read_player(test_db_fixture.store, FEED_PLAYER, &after, 2, &page),
				 STORE_OK);
		assert_page(&page, rows, count, next, 2, "player feed from a transaction's end", i);
		store_feed_free(&page);
	}

	/* Page by page, at limits below, at and above the anchors' spacing. */
	const int limits[] = {1, 5, 15, 16, 17, 100};
	for (size_t l = 0; l < sizeof limits / sizeof limits[0]; l++) {
		struct store_feed_position at = start;
		int read = 0;
		for (;;) {
			struct store_feed page;
			ck_assert_int_eq(
				store_feed_read_player(test_db_fixture.store, FEED_PLAYER, &at, limits[l], &page),
				STORE_OK);
			assert_page(&page, rows, count, read, limits[l], "player feed by pages", read);
			read += page.count;
			if (page.count > 0)
				at = page.items[page.count - 1].at;
			int empty = page.count == 0;
			store_feed_free(&page);
			if (empty)
				break;
		}
		ck_assert_int_eq(read, count);
	}
	PQfinish(world.conn);
}
END_TEST

START_TEST(test_game_feed_from_every_position_and_version_is_the_order_of_the_rows)
{
	struct feed_world world;
	build_world(&world);
	static struct store_feed_position rows[FEED_ROWS_MAX];
	for (int g = 0; g < FEED_GAMES; g++) {
		int64_t game = world.games[g];
		int count = truth(&world, game, rows);
		ck_assert_int_eq(rows_of_game(rows, count, game, STORE_FEED_EVENT), world.versions[g]);
		struct store_feed_position start = {0, 0, 0, 0};
		for (int i = -1; i < count; i++) {
			struct store_feed page;
			ck_assert_int_eq(store_feed_read_game(test_db_fixture.store, game, i < 0 ? &start : &rows[i], 0,
							      0, 4, &page),
					 STORE_OK);
			assert_page(&page, rows, count, i + 1, 4, "game feed", i);
			store_feed_free(&page);
		}
		/* From a version (a resume by Last-Event-ID): the events after it, on and off the
		 * anchors, no message (their floor is past the last). */
		static struct store_feed_position events[FEED_ROWS_MAX];
		for (int32_t version = 0; version <= world.versions[g]; version++) {
			int found = 0;
			for (int i = 0; i < count; i++)
				if (rows[i].kind == STORE_FEED_EVENT && rows[i].seq > version)
					events[found++] = rows[i];
			struct store_feed page;
			ck_assert_int_eq(store_feed_read_game(test_db_fixture.store, game, &start, version,
							      world.messages[g], 3, &page),
					 STORE_OK);
			assert_page(&page, events, found, 0, 3, "game feed from a version", (int)version);
			store_feed_free(&page);
		}
	}
	PQfinish(world.conn);
}
END_TEST

/* ---- The plans ----------------------------------------------------------------------- */

#define AREA_ADDRESS(area) &store__area_##area,
static const struct store_area *const areas[] = {STORE_AREAS(AREA_ADDRESS)};
#undef AREA_ADDRESS

static const struct store_statement *statement_named(const char *name)
{
	for (size_t area = 0; area < sizeof areas / sizeof areas[0]; area++)
		for (int i = 0; i < areas[area]->count; i++)
			if (strcmp(areas[area]->statements[i]->name, name) == 0)
				return areas[area]->statements[i];
	ck_abort_msg("no statement %s", name);
	return NULL;
}

/* The plan of EXECUTE `name` (arguments as given) as one text. Caller frees. */
static char *plan_of(PGconn *conn, const char *name, const char *arguments)
{
	char sql[256];
	snprintf(sql, sizeof sql, "EXPLAIN (COSTS OFF) EXECUTE %s (%s)", name, arguments);
	PGresult *result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s: %s", sql, PQresultErrorMessage(result));
	size_t size = 1;
	for (int i = 0; i < PQntuples(result); i++)
		size += strlen(PQgetvalue(result, i, 0)) + 1;
	char *text = calloc(1, size);
	ck_assert_ptr_nonnull(text);
	for (int i = 0; i < PQntuples(result); i++) {
		strcat(text, PQgetvalue(result, i, 0));
		strcat(text, "\n");
	}
	PQclear(result);
	return text;
}

/* On a store of a realistic shape (many games, long logs, analysed), the feed reads find a
 * game's events by its anchors and its primary key, never by reading the table: both the
 * plan for the arguments at hand and the generic plan a prepared statement settles on. */
START_TEST(test_feed_reads_scan_no_events_table)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	test_db_exec(conn, "INSERT INTO players (id, name, token_hash) VALUES (7001, 'feed', sha256('feed'))");
	test_db_exec(conn, "INSERT INTO games (id, seed, status, seats, admin_token_hash, options)"
			   " SELECT g, g, 1, 4, sha256(('g' || g)::bytea), '{}' FROM generate_series(1, 400) AS g");
	test_db_exec(conn,
		     "INSERT INTO seats (game_id, seat, bot, name, token_hash, player_id)"
		     " SELECT g, s, false, 'x', sha256((g || '.' || s)::bytea), CASE WHEN g % 50 = s THEN 7001 END"
		     " FROM generate_series(1, 400) AS g, generate_series(0, 3) AS s");
	test_db_exec(conn, "INSERT INTO events (game_id, seq, type, actor, origin, payload)"
			   " SELECT g, q, 100, q % 4, 0, '{\"type\":\"test\"}'"
			   " FROM generate_series(1, 400) AS g, generate_series(1, 150) AS q");
	test_db_exec(conn, "ANALYZE");
	const char *names[] = {"feed_player", "feed_game"};
	const char *arguments[] = {"7001, 0, 0, 0, 0, 50", "50, 0, 0, 0, 0, 50, 20, 0"};
	for (int i = 0; i < 2; i++) {
		const struct store_statement *statement = statement_named(names[i]);
		PGresult *prepared = PQprepare(conn, statement->name, statement->sql, 0, NULL);
		ck_assert_msg(PQresultStatus(prepared) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(prepared));
		PQclear(prepared);
		const char *modes[] = {"force_custom_plan", "force_generic_plan"};
		for (int m = 0; m < 2; m++) {
			char set[64];
			snprintf(set, sizeof set, "SET plan_cache_mode = %s", modes[m]);
			test_db_exec(conn, set);
			char *plan = plan_of(conn, statement->name, arguments[i]);
			ck_assert_msg(!strstr(plan, "Seq Scan on events"), "%s, %s:\n%s", names[i], modes[m], plan);
			ck_assert_msg(strstr(plan, "events_feed_anchor") && strstr(plan, "events_pkey"), "%s, %s:\n%s",
				      names[i], modes[m], plan);
			free(plan);
		}
	}
	/* And the work is bounded: from a cursor in the middle of a game's log (all its events
	 * of one transaction), each game's scan skips at most the 16 rows from the last anchor
	 * at or before the cursor, not the log before it. EXPLAIN shows rows removed per loop. */
	long long xact =
		test_db_scalar(conn, "SELECT xact::text::bigint FROM events WHERE game_id = 200 AND seq = 140");
	char arguments_late[128];
	snprintf(arguments_late, sizeof arguments_late, "7001, %lld, 200, 0, 140, 50", xact);
	test_db_exec(conn, "SET plan_cache_mode = force_generic_plan");
	char sql[256];
	snprintf(sql, sizeof sql, "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) EXECUTE feed_player (%s)",
		 arguments_late);
	PGresult *result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s: %s", sql, PQresultErrorMessage(result));
	int pkey_scans = 0;
	for (int i = 0; i < PQntuples(result); i++) {
		const char *line = PQgetvalue(result, i, 0);
		if (strstr(line, "using events_pkey on events e"))
			pkey_scans++;
		const char *removed = strstr(line, "Rows Removed by Filter: ");
		if (pkey_scans > 0 && removed)
			ck_assert_msg(atoi(removed + strlen("Rows Removed by Filter: ")) <= 16, "%s", line);
	}
	ck_assert_int_eq(pkey_scans, 1);
	PQclear(result);
	PQfinish(conn);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("feed");
	TCase *tc = tcase_create("database");
	tcase_set_timeout(tc, 120);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_player_feed_from_every_position_is_the_order_of_the_rows);
	tcase_add_test(tc, test_game_feed_from_every_position_and_version_is_the_order_of_the_rows);
	tcase_add_test(tc, test_feed_reads_scan_no_events_table);
	suite_add_tcase(suite, tc);
	return suite;
}
