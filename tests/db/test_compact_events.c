/*
 * test_compact_events.c - 0020_compact_events.sql on a database that already has games, with
 * a server of the previous version beside it (a rolling upgrade): that server's statements,
 * prepared on its connection before the migration, keep working after it, and the new
 * store reads what either wrote.
 *
 * The previous version's statements are copied here as that version sent them (db/store_events.c
 * and db/store_feed.c before 0020): its plain append, which casts the payload to jsonb; its
 * read of a game's tail; its player feed, which orders each game by (xact, seq) and had the
 * dense (game_id, xact, seq) index 0020 drops.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/migrations.h"
#include "db/store_feed.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

#define COMPACT_VERSION 20 /* 0020_compact_events */
#define OLD_PLAYER 8001

static const char old_append_event[] =
	"WITH e AS (INSERT INTO events (game_id, seq, type, actor, origin, payload)"
	"  SELECT $1::bigint, $2::integer + 1, $3::smallint, $4::smallint, $5::smallint, $6::jsonb"
	"  WHERE EXISTS (SELECT FROM events WHERE game_id = $1::bigint AND seq = $2::integer)"
	"  RETURNING seq),"
	" o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)"
	"  SELECT w.webhook_id, $1::bigint, e.seq, e.seq, e.seq FROM catan_receivers($1::bigint) w, e)"
	" SELECT count(*)::integer FROM e";

static const char old_read_tail[] =
	"SELECT e.seq, e.type, e.actor, e.origin, NULL::bigint, e.created_at, NULL::integer, NULL::bytea,"
	"  e.payload::text"
	" FROM events e WHERE e.game_id = $1::bigint AND e.seq > $2::integer"
	" ORDER BY e.seq LIMIT $3::integer";

static const char old_feed_player[] =
	"WITH h AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),"
	" c AS MATERIALIZED (SELECT $2::bigint::text::xid8 AS xact),"
	" g AS MATERIALIZED (SELECT s.game_id, s.seat FROM seats s WHERE s.player_id = $1::bigint)"
	" SELECT x.xact::text::bigint, x.game_id, x.kind, x.seq, x.player_seat, x.xact < h.xmin, x.type,"
	"  x.actor, x.origin, x.created_at, x.body, x.seat, x.after_version"
	" FROM (SELECT e.xact, e.game_id, 0 AS kind, e.seq, g.seat AS player_seat, e.type, e.actor,"
	"   e.origin, e.created_at, e.payload::text AS body, NULL::smallint AS seat,"
	"   NULL::integer AS after_version"
	"  FROM g CROSS JOIN c CROSS JOIN LATERAL (SELECT * FROM events e"
	"   WHERE e.game_id = g.game_id AND (e.xact, e.seq) > (c.xact, CASE WHEN g.game_id > $3::bigint THEN 0"
	"    WHEN g.game_id = $3::bigint AND $4::integer = 0 THEN $5::integer ELSE 2147483647 END)"
	"   ORDER BY e.xact, e.seq LIMIT $6::integer) e"
	"  UNION ALL"
	"  SELECT m.xact, m.game_id, 1, m.seq, g.seat, NULL, NULL, NULL, m.created_at, m.text, m.seat,"
	"   m.after_version"
	"  FROM g CROSS JOIN c CROSS JOIN LATERAL (SELECT * FROM messages m"
	"   WHERE m.game_id = g.game_id AND (m.xact, m.seq) > (c.xact, CASE WHEN g.game_id > $3::bigint THEN 0"
	"    WHEN g.game_id = $3::bigint THEN CASE WHEN $4::integer = 0 THEN 0 ELSE $5::integer END"
	"    ELSE 2147483647 END)   ORDER BY m.xact, m.seq LIMIT $6::integer) m) x CROSS JOIN h"
	" ORDER BY x.xact, x.game_id, x.kind, x.seq LIMIT $6::integer";

static void prepare(PGconn *conn, const char *name, const char *sql)
{
	PGresult *result = PQprepare(conn, name, sql, 0, NULL);
	ck_assert_msg(PQresultStatus(result) == PGRES_COMMAND_OK, "%s: %s", name, PQresultErrorMessage(result));
	PQclear(result);
}

/* EXECUTE `name` with text parameters; the caller clears the result. */
static PGresult *run(PGconn *conn, const char *name, int count, const char *const *values)
{
	PGresult *result = PQexecPrepared(conn, name, count, values, NULL, NULL, 0);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s: %s", name, PQresultErrorMessage(result));
	return result;
}

/* The previous version's plain append of event version+1 of game `game_text`. */
static void old_append(PGconn *conn, const char *game_text, int version)
{
	char version_text[16], payload[64];
	snprintf(version_text, sizeof version_text, "%d", version);
	snprintf(payload, sizeof payload, "{\"type\":\"test\",\"n\":%d}", version + 1);
	const char *values[] = {game_text, version_text, "100", "1", "0", payload};
	PGresult *result = run(conn, "old_append_event", 6, values);
	ck_assert_str_eq(PQgetvalue(result, 0, 0), "1");
	PQclear(result);
}

/* Every migration before 0020, recorded as store_migrate() records them. */
static void migrate_to_the_previous_version(PGconn *conn)
{
	test_db_exec(conn, "CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL,"
			   " applied_at timestamptz NOT NULL DEFAULT now())");
	int applied = 0;
	for (int i = 0; i < store_migration_count && store_migrations[i].version < COMPACT_VERSION; i++) {
		test_db_exec(conn, store_migrations[i].sql);
		char sql[160];
		snprintf(sql, sizeof sql, "INSERT INTO schema_migrations (version, name) VALUES (%d, '%s')",
			 store_migrations[i].version, store_migrations[i].name);
		test_db_exec(conn, sql);
		applied++;
	}
	ck_assert_int_gt(applied, 10);
}

START_TEST(test_previous_server_keeps_working_across_the_migration)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	migrate_to_the_previous_version(conn);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM pg_class WHERE relname = 'events_game_xact'"), 1);

	/* A game of the player's, 40 events by the previous version, one transaction each. */
	int64_t game = 0x1234abcd;
	char game_text[32], player_text[16];
	snprintf(game_text, sizeof game_text, "%" PRId64, game);
	snprintf(player_text, sizeof player_text, "%d", OLD_PLAYER);
	char sql[1024];
	snprintf(sql, sizeof sql,
		 "INSERT INTO players (id, name, token_hash) VALUES (%d, 'old', sha256('old'));"
		 "INSERT INTO games (id, seed, status, seats, admin_token_hash, options)"
		 " VALUES (%s, 1, 1, 3, sha256('admin'), '{}');"
		 "INSERT INTO seats (game_id, seat, bot, name, token_hash, player_id)"
		 " SELECT %s, s, false, 'x', sha256(s::text::bytea), CASE WHEN s = 1 THEN %d END"
		 " FROM generate_series(0, 2) AS s;"
		 "INSERT INTO events (game_id, seq, type, actor, origin, payload)"
		 " VALUES (%s, 1, 100, 0, 0, '{\"type\":\"test\",\"n\":1}')",
		 OLD_PLAYER, game_text, game_text, OLD_PLAYER, game_text);
	test_db_exec(conn, sql);
	prepare(conn, "old_append_event", old_append_event);
	prepare(conn, "old_read_tail", old_read_tail);
	prepare(conn, "old_feed_player", old_feed_player);
	for (int version = 1; version < 40; version++)
		old_append(conn, game_text, version);
	const char *feed_values[] = {player_text, "0", "0", "0", "0", "100"};
	PGresult *before = run(conn, "old_feed_player", 6, feed_values);
	ck_assert_int_eq(PQntuples(before), 40);
	PQclear(before);

	/* The new server migrates while the old one's connection stays open. */
	char message[256];
	ck_assert_msg(store_migrate(test_db_fixture.db.conninfo, NULL, message, sizeof message) == STORE_OK, "%s",
		      message);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM pg_class WHERE relname = 'events_game_xact'"), 0);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM pg_attribute WHERE attrelid = 'events'::regclass"
					      " AND attname = 'payload' AND atttypid = 'json'::regtype"),
			 1);

	/* The old server's prepared statements, replanned on the new schema. */
	for (int version = 40; version < 45; version++)
		old_append(conn, game_text, version);
	const char *tail_values[] = {game_text, "0", "100"};
	PGresult *tail = run(conn, "old_read_tail", 3, tail_values);
	ck_assert_int_eq(PQntuples(tail), 45);
	/* Rows of before the migration and rows the old server writes after it keep jsonb's
	 * spelling (the assignment cast jsonb -> json): still the same JSON. */
	ck_assert_str_eq(PQgetvalue(tail, 0, 8), "{\"n\": 1, \"type\": \"test\"}");
	ck_assert_str_eq(PQgetvalue(tail, 44, 8), "{\"n\": 45, \"type\": \"test\"}");
	PQclear(tail);
	PGresult *old_feed = run(conn, "old_feed_player", 6, feed_values);
	ck_assert_int_eq(PQntuples(old_feed), 45);

	/* The new store reads the same feed, and appends beside the old server. */
	struct store *store = test_db_store(&test_db_fixture.db);
	struct store_feed feed;
	struct store_feed_position start = {0, 0, 0, 0};
	ck_assert_int_eq(store_feed_read_player(store, OLD_PLAYER, &start, 100, &feed), STORE_OK);
	ck_assert_int_eq(feed.count, 45);
	for (int i = 0; i < feed.count; i++) {
		ck_assert_int_eq(feed.items[i].at.xact, strtoll(PQgetvalue(old_feed, i, 0), NULL, 10));
		ck_assert_int_eq(feed.items[i].at.seq, i + 1);
		ck_assert_str_eq(feed.items[i].event.payload, PQgetvalue(old_feed, i, 10));
	}
	store_feed_free(&feed);
	PQclear(old_feed);
	struct store_event event = {100, 2, STORE_ORIGIN_PLAYER, "{\"type\":\"test\",\"n\":46}"};
	struct store_append append = {game, 45, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
	ck_assert_int_eq(store_append(store, &append), STORE_OK);
	old_append(conn, game_text, 46);
	struct store_log log;
	ck_assert_int_eq(store_read_events(store, game, 44, 10, &log), STORE_OK);
	ck_assert_int_eq(log.count, 3);
	ck_assert_str_eq(log.rows[1].payload, event.payload); /* the new server's, as written */
	ck_assert_str_eq(log.rows[2].payload, "{\"n\": 47, \"type\": \"test\"}");
	store_log_free(&log);
	store_close(store);
	PQfinish(conn);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("compact_events");
	TCase *tc = tcase_create("database");
	tcase_set_timeout(tc, 60);
	test_db_fixture_add(tc, TEST_DB_EMPTY);
	tcase_add_test(tc, test_previous_server_keeps_working_across_the_migration);
	suite_add_tcase(suite, tc);
	return suite;
}
