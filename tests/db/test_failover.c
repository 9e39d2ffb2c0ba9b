/*
 * test_failover.c - what the store does with the answers a PostgreSQL failover gives
 * (issue 25, README's "High availability"), on the one throwaway server of
 * scripts/with-postgres.sh, made to answer as a standby or as a primary whose synchronous
 * standby is missing:
 *   - a read-only answer (SQLSTATE 25006: the node is a standby now) drops the connection,
 *     so the next call connects again (through the host list, in a real cluster) instead of
 *     failing on the same node for ever;
 *   - a commit whose wait for the synchronous standby is cancelled (pg_cancel_backend; a
 *     statement_timeout cannot do it, see db/store.c) is not taken for a durable one:
 *     STORE_UNAVAILABLE, its outcome unknown, never STORE_OK;
 *   - the outbox workers' claim of deliveries waits for the standby even when the server's
 *     default synchronous_commit is local (the store's sessions ask for on), so that no
 *     delivery goes out before the event it announces is on the standby.
 * A missing standby is synchronous_standby_names naming one that never connects (ALTER
 * SYSTEM, reset before every check so that the fixture's DROP DATABASE does not wait).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/store_webhooks.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

static void sleep_ms(long ms)
{
	struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&pause, NULL);
}

static void sql_on(const char *conninfo, const char *sql)
{
	PGconn *conn = test_db_connect(conninfo);
	test_db_exec(conn, sql);
	PQfinish(conn);
}

/* Commits from now on wait for a standby that is not there (on = 1), or not (on = 0);
 * returns once a new session sees the setting. */
static void missing_standby(int on)
{
	PGconn *conn = test_db_connect(test_db_url());
	test_db_exec(conn, on ? "ALTER SYSTEM SET synchronous_standby_names = 'catan_missing_standby'"
			      : "ALTER SYSTEM RESET synchronous_standby_names");
	test_db_exec(conn, "SELECT pg_reload_conf()");
	PQfinish(conn);
	for (int i = 0; i < 100; i++) {
		conn = test_db_connect(test_db_url());
		long long set =
			test_db_scalar(conn, "SELECT (current_setting('synchronous_standby_names') <> '')::int");
		PQfinish(conn);
		if (set == on)
			return;
		sleep_ms(20);
	}
	ck_abort_msg("synchronous_standby_names did not change");
}

static enum store_status append_one(struct store *store, int64_t game, int32_t version)
{
	struct store_event event;
	char text[1][64];
	test_db_fake_events(&event, text, 1, version + 1);
	struct store_append append = {game, version, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
	return store_append(store, &append);
}

START_TEST(test_a_read_only_answer_drops_the_connection)
{
	struct store *store = test_db_fixture.store;
	int64_t game = test_db_new_game(store, 3, 1);
	char sql[160];
	/* The store's session starts read-only, as one on a node that is a standby now. */
	snprintf(sql, sizeof sql, "ALTER DATABASE \"%s\" SET default_transaction_read_only = on",
		 test_db_fixture.db.name);
	sql_on(test_db_url(), sql);
	struct store *on_standby = test_db_store(&test_db_fixture.db);
	enum store_status refused = append_one(on_standby, game, 1);
	ck_assert_msg(refused == STORE_UNAVAILABLE, "a read-only answer: %s (%s)", store_status_name(refused),
		      store_message(on_standby));
	/* The node is a primary again (or the host list found another): the next call must
	 * use a new session, not the read-only one. */
	snprintf(sql, sizeof sql, "ALTER DATABASE \"%s\" RESET default_transaction_read_only", test_db_fixture.db.name);
	sql_on(test_db_url(), sql);
	enum store_status again = append_one(on_standby, game, 1);
	ck_assert_msg(again == STORE_OK, "after the read-only answer: %s (%s)", store_status_name(again),
		      store_message(on_standby));
	int32_t version;
	ck_assert_int_eq(store_version(store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 2);
	store_close(on_standby);
}
END_TEST

struct waiting_append {
	struct store *store;
	int64_t game;
	atomic_int done;
	enum store_status status;
	char message[256];
};

static void *append_waiting(void *argument)
{
	struct waiting_append *append = argument;
	append->status = append_one(append->store, append->game, 1);
	snprintf(append->message, sizeof append->message, "%s", store_message(append->store));
	atomic_store(&append->done, 1);
	return NULL;
}

/* The number of sessions of the test's database waiting for the synchronous standby. */
static long long sessions_waiting_for_standby(void)
{
	PGconn *conn = test_db_connect(test_db_url());
	char sql[200];
	snprintf(sql, sizeof sql,
		 "SELECT count(*) FROM pg_stat_activity WHERE wait_event = 'SyncRep' AND datname = '%s'",
		 test_db_fixture.db.name);
	long long count = test_db_scalar(conn, sql);
	PQfinish(conn);
	return count;
}

static void wait_for_sessions_waiting(void)
{
	for (int i = 0; i < 500 && sessions_waiting_for_standby() == 0; i++)
		sleep_ms(10);
}

START_TEST(test_a_cancelled_wait_for_the_standby_is_not_a_durable_commit)
{
	struct store *store = test_db_fixture.store;
	int64_t game = test_db_new_game(store, 3, 1);
	struct waiting_append append = {test_db_store(&test_db_fixture.db), game, 0, STORE_OK, ""};
	missing_standby(1);
	pthread_t thread;
	ck_assert_int_eq(pthread_create(&thread, NULL, append_waiting, &append), 0);
	wait_for_sessions_waiting();
	long long waiting = sessions_waiting_for_standby();
	PGconn *conn = test_db_connect(test_db_url());
	char sql[200];
	snprintf(sql, sizeof sql,
		 "SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE wait_event = 'SyncRep'"
		 " AND datname = '%s'",
		 test_db_fixture.db.name);
	test_db_exec(conn, sql);
	PQfinish(conn);
	for (int i = 0; i < 500 && !atomic_load(&append.done); i++)
		sleep_ms(10);
	int returned = atomic_load(&append.done);
	missing_standby(0);
	pthread_join(thread, NULL);
	ck_assert_msg(waiting == 1, "the append did not wait for the standby");
	ck_assert_msg(returned, "the cancelled wait did not return");
	/* PostgreSQL committed it locally: on a real primary it could be lost in a failover. */
	ck_assert_msg(append.status == STORE_UNAVAILABLE, "a commit not confirmed by the standby: %s (%s)",
		      store_status_name(append.status), append.message);
	int32_t version;
	ck_assert_int_eq(store_version(store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 2);
	/* The same store carries on (on a new connection). */
	enum store_status next = append_one(append.store, game, 2);
	ck_assert_msg(next == STORE_OK, "%s: %s", store_status_name(next), store_message(append.store));
	store_close(append.store);
}
END_TEST

struct waiting_claim {
	struct store *store;
	atomic_int done;
	enum store_status status;
	int count;
};

static void *claim_waiting(void *argument)
{
	struct waiting_claim *claim = argument;
	struct store_delivery *deliveries = NULL;
	claim->status = store_claim_deliveries(claim->store, 10, 60000, &deliveries, &claim->count);
	if (claim->status == STORE_OK)
		store_deliveries_free(deliveries, claim->count);
	atomic_store(&claim->done, 1);
	return NULL;
}

/* The outbox workers send a delivery only after their claim (an UPDATE of the row)
 * returns; its commit record comes after the event's, so once the synchronous standby has
 * the claim it has the event: nothing is announced that a failover could lose. That holds
 * only when the claim's commit waits for the standby, whatever synchronous_commit the
 * server gives sessions by default. */
START_TEST(test_a_claim_of_deliveries_waits_for_the_standby)
{
	struct store *store = test_db_fixture.store;
	int64_t game = test_db_new_game(store, 3, 1);
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE] = {1};
	int64_t webhook, created_at;
	ck_assert_int_eq(store_webhook_create(store, game, -1, 0, secret, "http://127.0.0.1:9/", STORE_FORMAT_STANDARD,
					      NULL, 0, &webhook, &created_at),
			 STORE_OK);
	ck_assert_int_eq(append_one(store, game, 1), STORE_OK); /* a delivery due now */
	char sql[160];
	snprintf(sql, sizeof sql, "ALTER DATABASE \"%s\" SET synchronous_commit = local", test_db_fixture.db.name);
	sql_on(test_db_url(), sql);
	struct waiting_claim claim = {test_db_store(&test_db_fixture.db), 0, STORE_OK, 0};
	missing_standby(1);
	pthread_t thread;
	ck_assert_int_eq(pthread_create(&thread, NULL, claim_waiting, &claim), 0);
	wait_for_sessions_waiting();
	sleep_ms(300);
	int returned_early = atomic_load(&claim.done);
	long long waiting = sessions_waiting_for_standby();
	missing_standby(0);
	pthread_join(thread, NULL);
	ck_assert_msg(!returned_early && waiting == 1,
		      "the claim did not wait for the standby (returned %d, waiting %lld, %d claimed)", returned_early,
		      waiting, claim.count);
	ck_assert_int_eq(claim.status, STORE_OK);
	ck_assert_int_eq(claim.count, 1);
	store_close(claim.store);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("failover");
	TCase *tc = tcase_create("failover");
	tcase_set_timeout(tc, 60);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_a_read_only_answer_drops_the_connection);
	tcase_add_test(tc, test_a_cancelled_wait_for_the_standby_is_not_a_durable_commit);
	tcase_add_test(tc, test_a_claim_of_deliveries_waits_for_the_standby);
	suite_add_tcase(suite, tc);
	return suite;
}
