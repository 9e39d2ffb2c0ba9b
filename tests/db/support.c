/*
 * support.c - fresh databases, the fixture that gives one to each test, and raw SQL for
 * the store tests (see support.h).
 */
#include "tests/db/support.h"

#include <check.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

const char *test_db_url(void)
{
	const char *url = getenv("DATABASE_URL");
	ck_assert_msg(url && *url, "DATABASE_URL is not set: run the store tests through scripts/with-postgres.sh");
	return url;
}

/* A connection string for the server of DATABASE_URL with another database name. */
static char *conninfo_for(const char *url, const char *dbname)
{
	char *error = NULL;
	char *text = store_conninfo_for_database(url, dbname, &error);
	ck_assert_msg(text != NULL, "DATABASE_URL does not parse: %s", error ? error : "?");
	free(error);
	return text;
}

PGconn *test_db_connect(const char *conninfo)
{
	PGconn *conn = PQconnectdb(conninfo);
	ck_assert_msg(PQstatus(conn) == CONNECTION_OK, "cannot connect: %s", PQerrorMessage(conn));
	PGresult *quiet = PQexec(conn, "SET client_min_messages = warning");
	PQclear(quiet);
	return conn;
}

void test_db_exec(PGconn *conn, const char *sql)
{
	PGresult *result = PQexec(conn, sql);
	ExecStatusType state = PQresultStatus(result);
	ck_assert_msg(state == PGRES_COMMAND_OK || state == PGRES_TUPLES_OK, "%s: %s", sql,
		      PQresultErrorMessage(result));
	PQclear(result);
}

long long test_db_scalar(PGconn *conn, const char *sql)
{
	PGresult *result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s: %s", sql, PQresultErrorMessage(result));
	long long value = 0;
	if (PQntuples(result) > 0 && !PQgetisnull(result, 0, 0))
		value = strtoll(PQgetvalue(result, 0, 0), NULL, 10);
	PQclear(result);
	return value;
}

void test_db_create(struct test_db *db, int migrate)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(db->name, sizeof db->name, "catan_test_%ld_%ld", (long)getpid(), (long)(now.tv_nsec % 1000000000));
	char *admin = conninfo_for(test_db_url(), "postgres");
	PGconn *conn = test_db_connect(admin);
	char sql[128];
	snprintf(sql, sizeof sql, "CREATE DATABASE %s", db->name);
	test_db_exec(conn, sql);
	PQfinish(conn);
	free(admin);
	db->conninfo = conninfo_for(test_db_url(), db->name);
	if (migrate) {
		char message[256];
		enum store_status status = store_migrate(db->conninfo, NULL, message, sizeof message);
		ck_assert_msg(status == STORE_OK, "store_migrate: %s", message);
	}
}

void test_db_drop(struct test_db *db)
{
	char *admin = conninfo_for(test_db_url(), "postgres");
	PGconn *conn = test_db_connect(admin);
	char sql[128];
	snprintf(sql, sizeof sql, "DROP DATABASE IF EXISTS %s WITH (FORCE)", db->name);
	test_db_exec(conn, sql);
	PQfinish(conn);
	free(admin);
	free(db->conninfo);
	db->conninfo = NULL;
}

struct store *test_db_store(const struct test_db *db)
{
	struct store *store;
	enum store_status status = store_open(db->conninfo, &store);
	ck_assert_msg(status == STORE_OK, "store_open: %s", store_message(store));
	return store;
}

struct test_db_fixture test_db_fixture;

static void setup_empty(void)
{
	test_db_create(&test_db_fixture.db, 0);
}

static void setup_migrated(void)
{
	test_db_create(&test_db_fixture.db, 1);
}

static void setup_with_store(void)
{
	setup_migrated();
	test_db_fixture.store = test_db_store(&test_db_fixture.db);
}

static void teardown(void)
{
	store_close(test_db_fixture.store);
	test_db_fixture.store = NULL;
	test_db_drop(&test_db_fixture.db);
}

void test_db_fixture_add(TCase *tcase, enum test_db_kind kind)
{
	static void (*const setups[])(void) = {
		[TEST_DB_EMPTY] = setup_empty,
		[TEST_DB_MIGRATED] = setup_migrated,
		[TEST_DB_WITH_STORE] = setup_with_store,
	};
	tcase_add_checked_fixture(tcase, setups[kind], teardown);
}

void test_db_fake_events(struct store_event *events, char (*text)[64], int count, int32_t first_seq)
{
	for (int i = 0; i < count; i++) {
		snprintf(text[i], sizeof text[i], "{\"type\":\"test\",\"seq\":%d}", (int)(first_seq + i));
		events[i].type = 100 + (int)((first_seq + i) % 7);
		events[i].actor = (int)((first_seq + i) % 4);
		events[i].origin = STORE_ORIGIN_PLAYER;
		events[i].payload = text[i];
	}
}

int64_t test_db_new_game(struct store *store, int seats, int count)
{
	struct store_event events[32];
	char text[32][64];
	ck_assert(count >= 1 && count <= 32 && seats >= 1 && seats <= STORE_MAX_SEATS);
	test_db_fake_events(events, text, count, 1);
	struct store_new_game game;
	memset(&game, 0, sizeof game);
	game.seed = 12345;
	game.status = 0;
	game.options = "{\"seats\":4}";
	game.seats = seats;
	for (int seat = 0; seat < seats; seat++)
		ck_assert(RAND_bytes(game.token_hashes[seat], STORE_HASH_SIZE) == 1);
	memset(game.admin_token_hash, 0xad, STORE_HASH_SIZE);
	game.events = events;
	game.event_count = count;
	int64_t id;
	enum store_status status = store_create_game(store, &game, &id);
	ck_assert_msg(status == STORE_OK, "store_create_game: %s %s", store_status_name(status), store_message(store));
	return id;
}

int64_t test_db_now_us(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

int test_db_notifications(PGconn *listener, int timeout_ms, const char *until, char (*notes)[64], int max)
{
	int count = 0;
	int64_t deadline = test_db_now_us() + (int64_t)timeout_ms * 1000;
	for (;;) {
		ck_assert(PQconsumeInput(listener));
		PGnotify *notify;
		int done = 0;
		while ((notify = PQnotifies(listener))) {
			if (count < max)
				snprintf(notes[count++], 64, "%s", notify->extra);
			done = done || (until && strcmp(notify->extra, until) == 0);
			PQfreemem(notify);
		}
		int64_t left = deadline - test_db_now_us();
		if (done || left <= 0)
			return count;
		int socket = PQsocket(listener);
		fd_set readable;
		FD_ZERO(&readable);
		FD_SET(socket, &readable);
		struct timeval wait = {(time_t)(left / 1000000), (suseconds_t)(left % 1000000)};
		select(socket + 1, &readable, NULL, NULL, &wait);
	}
}
