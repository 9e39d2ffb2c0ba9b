/*
 * test_migrate.c - migrations: a fresh database gets the schema, a second run changes
 * nothing (and leaves the empty tables unanalysed), several processes migrating at once
 * apply each migration once, and a migration that fails leaves nothing behind.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "db/migrations.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

#define RACERS 6

static void assert_schema_present(PGconn *conn)
{
	const char *tables[] = {"games", "seats", "events", "idempotency_keys", "snapshots", "schema_migrations"};
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		char sql[128];
		snprintf(sql, sizeof sql, "SELECT count(*) FROM pg_class WHERE relname = '%s' AND relkind = 'r'",
			 tables[i]);
		ck_assert_msg(test_db_scalar(conn, sql) == 1, "table %s is missing", tables[i]);
	}
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM pg_proc WHERE proname = 'catan_append'"), 1);
}

START_TEST(test_fresh_database_gets_every_migration)
{
	int applied = -1;
	char message[256];
	ck_assert_int_eq(store_migrate(test_db_fixture.db.conninfo, &applied, message, sizeof message), STORE_OK);
	ck_assert_int_eq(applied, store_migration_count);
	ck_assert_int_ge(store_migration_count, 1);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	assert_schema_present(conn);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM schema_migrations"), store_migration_count);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT min(version) FROM schema_migrations"),
			 store_migrations[0].version);
	/* Empty tables are not analysed (db/migrate.c): planned by their indexes, not as the
	 * page they have when a generic plan is made. */
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM pg_class WHERE relname IN ('events', 'seats',"
					      " 'games') AND relkind = 'r' AND reltuples < 0"),
			 3);
	PQfinish(conn);
	/* The migrated schema is the one the store prepares its statements against. */
	struct store *store = test_db_store(&test_db_fixture.db);
	ck_assert(test_db_new_game(store, 4, 2) > 0);
	store_close(store);
}
END_TEST

START_TEST(test_migrations_are_numbered_in_order)
{
	for (int i = 1; i < store_migration_count; i++)
		ck_assert_int_gt(store_migrations[i].version, store_migrations[i - 1].version);
	for (int i = 0; i < store_migration_count; i++) {
		char prefix[8];
		snprintf(prefix, sizeof prefix, "%04d_", store_migrations[i].version);
		ck_assert(strncmp(store_migrations[i].name, prefix, 5) == 0);
		ck_assert(strlen(store_migrations[i].sql) > 0);
	}
}
END_TEST

START_TEST(test_second_run_is_a_no_op)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	const char *fingerprint = "SELECT sum(version) * 1000000 + count(*) FROM schema_migrations";
	long long before = test_db_scalar(conn, fingerprint);
	long long applied_at = test_db_scalar(conn, "SELECT max(extract(epoch FROM applied_at) * 1000000)::bigint"
						    " FROM schema_migrations");
	int applied = -1;
	char message[256];
	ck_assert_int_eq(store_migrate(test_db_fixture.db.conninfo, &applied, message, sizeof message), STORE_OK);
	ck_assert_int_eq(applied, 0);
	ck_assert_int_eq(test_db_scalar(conn, fingerprint), before);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT max(extract(epoch FROM applied_at) * 1000000)::bigint"
					      " FROM schema_migrations"),
			 applied_at);
	PQfinish(conn);
}
END_TEST

START_TEST(test_processes_migrating_at_once_apply_each_once)
{
	int go[2], results[2];
	ck_assert_int_eq(pipe(go), 0);
	ck_assert_int_eq(pipe(results), 0);
	pid_t children[RACERS];
	for (int i = 0; i < RACERS; i++) {
		children[i] = fork();
		ck_assert_int_ge(children[i], 0);
		if (children[i] == 0) {
			close(go[1]);
			char byte;
			(void)!read(go[0], &byte, 1); /* returns when the parent closes the pipe */
			int applied = -1;
			char message[256];
			enum store_status status =
				store_migrate(test_db_fixture.db.conninfo, &applied, message, sizeof message);
			int report[2] = {(int)status, applied};
			(void)!write(results[1], report, sizeof report);
			_exit(0);
		}
	}
	close(go[0]);
	close(go[1]); /* every child starts now */
	close(results[1]);
	int total = 0;
	for (int i = 0; i < RACERS; i++) {
		int report[2];
		ck_assert_int_eq(read(results[0], report, sizeof report), (ssize_t)sizeof report);
		ck_assert_msg(report[0] == STORE_OK, "a migrating process got %s", store_status_name(report[0]));
		total += report[1];
	}
	close(results[0]);
	for (int i = 0; i < RACERS; i++) {
		int status;
		ck_assert_int_eq(waitpid(children[i], &status, 0), children[i]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	ck_assert_int_eq(total, store_migration_count);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM schema_migrations"), store_migration_count);
	assert_schema_present(conn);
	PQfinish(conn);
}
END_TEST

START_TEST(test_failed_migration_leaves_nothing_behind)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	/* A table in the way makes the first migration fail halfway through. */
	test_db_exec(conn, "CREATE TABLE snapshots (x integer)");
	int applied = -1;
	char message[512];
	ck_assert_int_eq(store_migrate(test_db_fixture.db.conninfo, &applied, message, sizeof message),
			 STORE_UNAVAILABLE);
	ck_assert_int_eq(applied, 0);
	ck_assert_msg(strstr(message, store_migrations[0].name) != NULL, "message: %s", message);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM schema_migrations"), 0);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM pg_class WHERE relname = 'events'"), 0);
	/* Out of the way, the next run applies it. */
	test_db_exec(conn, "DROP TABLE snapshots");
	ck_assert_int_eq(store_migrate(test_db_fixture.db.conninfo, &applied, message, sizeof message), STORE_OK);
	ck_assert_int_eq(applied, store_migration_count);
	assert_schema_present(conn);
	PQfinish(conn);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("migrate");
	TCase *numbering = tcase_create("numbering");
	tcase_add_test(numbering, test_migrations_are_numbered_in_order);
	suite_add_tcase(suite, numbering);

	TCase *fresh = tcase_create("fresh database");
	tcase_set_timeout(fresh, 60);
	test_db_fixture_add(fresh, TEST_DB_EMPTY);
	tcase_add_test(fresh, test_fresh_database_gets_every_migration);
	tcase_add_test(fresh, test_processes_migrating_at_once_apply_each_once);
	tcase_add_test(fresh, test_failed_migration_leaves_nothing_behind);
	suite_add_tcase(suite, fresh);

	TCase *migrated = tcase_create("migrated database");
	tcase_set_timeout(migrated, 60);
	test_db_fixture_add(migrated, TEST_DB_MIGRATED);
	tcase_add_test(migrated, test_second_run_is_a_no_op);
	suite_add_tcase(suite, migrated);
	return suite;
}
