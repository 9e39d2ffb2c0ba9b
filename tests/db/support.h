/*
 * support.h - what the store tests share: a fresh database per test, raw SQL for looking
 * behind the store's back, and small event lists.
 *
 * Tests read DATABASE_URL (scripts/with-postgres.sh sets it to a throwaway cluster). Each
 * test gets a fresh database with a random name (CREATE DATABASE on the DATABASE_URL
 * server), migrated or not, and a store on it when asked: the fixture that
 * test_db_fixture_add() registers makes them in the test's own process before the test
 * and drops them after it.
 */
#ifndef CATAN_TESTS_DB_SUPPORT_H
#define CATAN_TESTS_DB_SUPPORT_H

#include <check.h>
#include <libpq-fe.h>
#include <stdint.h>

#include "db/store_events.h"

struct test_db {
	char name[64];
	char *conninfo; /* the fresh database's connection string */
};

/* DATABASE_URL; fails the test when unset. */
const char *test_db_url(void);

/* Create a fresh database (migrated when `migrate`); drop it with test_db_drop(). */
void test_db_create(struct test_db *db, int migrate);
void test_db_drop(struct test_db *db);

/* A store on the database; fails the test when it cannot connect. */
struct store *test_db_store(const struct test_db *db);

/* ---- The fixture ---------------------------------------------------------------------- */

/* What each test of a TCase gets. */
enum test_db_kind {
	TEST_DB_EMPTY,	    /* a database without the schema */
	TEST_DB_MIGRATED,   /* every migration applied */
	TEST_DB_WITH_STORE, /* migrated, and a store open on it */
};

struct test_db_fixture {
	struct test_db db;
	struct store *store; /* with TEST_DB_WITH_STORE, else NULL */
};

/* Filled by the fixture while a test runs. */
extern struct test_db_fixture test_db_fixture;

/* Register the fixture on `tcase` (a checked fixture: in each test's process, the store
 * closed and the database dropped after the test). */
void test_db_fixture_add(TCase *tcase, enum test_db_kind kind);

/* Raw connections and SQL for checks (fail the test on error). */
PGconn *test_db_connect(const char *conninfo);
void test_db_exec(PGconn *conn, const char *sql);
/* The first column of the first row as an integer (0 when NULL or no row). */
long long test_db_scalar(PGconn *conn, const char *sql);

/* Events of a fake game for the pure-store tests: payload {"type":"test","seq":N} written
 * into `text` (room for count payloads of 64 bytes). */
void test_db_fake_events(struct store_event *events, char (*text)[64], int count, int32_t first_seq);

/* A game of `seats` seats created with `count` fake events; returns its id. */
int64_t test_db_new_game(struct store *store, int seats, int count);

/* Collect the payloads of notifications arriving on `listener` (which has run LISTEN) for
 * up to timeout_ms, stopping early once `until` (NULL: never) has arrived. Returns how
 * many were stored (at most max). */
int test_db_notifications(PGconn *listener, int timeout_ms, const char *until, char (*notes)[64], int max);

/* Microseconds on the monotonic clock. */
int64_t test_db_now_us(void);

#endif
