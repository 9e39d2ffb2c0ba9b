/*
 * test_outage.c - PostgreSQL is stopped and started again while a writer appends: during
 * the outage the store says STORE_UNAVAILABLE (never OK), afterwards the same store
 * reconnects by itself, and no append it reported OK is lost. An idle store's first read
 * after the restart succeeds (a dead connection is replaced and the read sent again), and
 * so do the first writes of idle stores (issue 8, item 6: they answered UNAVAILABLE), each
 * stored once.
 *
 * It needs the cluster of scripts/with-postgres.sh (CATAN_TEST_PG_DIR, CATAN_PG_SCRIPT) to
 * stop and start; against a DATABASE_URL given from outside it says so and checks nothing.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/store_idempotency.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

#define MAX_ATTEMPTS 100000

struct writer {
	const struct test_db *db;
	int64_t game;
	atomic_int stop;
	atomic_int ok;				/* appends reported OK */
	atomic_int unavailable;			/* appends and reads reported UNAVAILABLE */
	int32_t ok_versions[MAX_ATTEMPTS];	/* the version each OK append made */
	int32_t unknown_versions[MAX_ATTEMPTS]; /* the version each UNAVAILABLE append tried to make */
	int unknown;
	int other; /* any other status: must stay 0 */
	char failure[256];
};

static void sleep_ms(long ms)
{
	struct timespec pause = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&pause, NULL);
}

static void *append_through_outage(void *argument)
{
	struct writer *writer = argument;
	struct store *store;
	store_open(writer->db->conninfo, &store);
	int32_t version = -1;
	int n = 0;
	while (!atomic_load(&writer->stop) && atomic_load(&writer->ok) < MAX_ATTEMPTS &&
	       writer->unknown < MAX_ATTEMPTS) {
		if (version < 0) {
			enum store_status status = store_version(store, writer->game, &version);
			if (status == STORE_UNAVAILABLE) {
				atomic_fetch_add(&writer->unavailable, 1);
				version = -1;
				sleep_ms(20);
				continue;
			}
			if (status != STORE_OK) {
				writer->other++;
				snprintf(writer->failure, sizeof writer->failure, "version: %s", store_message(store));
				break;
			}
		}
		struct store_event event;
		char text[1][64];
		test_db_fake_events(&event, text, 1, version + 1);
		struct store_append append = {writer->game, version, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
		enum store_status status = store_append(store, &append);
		if (status == STORE_OK) {
			writer->ok_versions[atomic_load(&writer->ok)] = version + 1;
			atomic_fetch_add(&writer->ok, 1);
			version++;
		} else if (status == STORE_UNAVAILABLE) {
			/* It may or may not have committed: read the version again. */
			writer->unknown_versions[writer->unknown++] = version + 1;
			atomic_fetch_add(&writer->unavailable, 1);
			version = -1;
			sleep_ms(20);
		} else if (status == STORE_CONFLICT) {
			version = -1; /* an append reported UNAVAILABLE had committed after all */
		} else {
			writer->other++;
			snprintf(writer->failure, sizeof writer->failure, "append: %s: %s", store_status_name(status),
				 store_message(store));
			break;
		}
		if (++n % 4 == 0)
			sleep_ms(2);
	}
	store_close(store);
	return NULL;
}

static void pg(const char *action)
{
	char command[1024];
	snprintf(command, sizeof command, "'%s' %s '%s'", getenv("CATAN_PG_SCRIPT"), action,
		 getenv("CATAN_TEST_PG_DIR"));
	ck_assert_msg(system(command) == 0, "%s failed", command);
}

static int wait_for(atomic_int *counter, int above, long timeout_ms)
{
	for (long waited = 0; waited < timeout_ms; waited += 10) {
		if (atomic_load(counter) > above)
			return 1;
		sleep_ms(10);
	}
	return 0;
}

START_TEST(test_restart_reports_unavailable_then_recovers_without_loss)
{
	if (!getenv("CATAN_TEST_PG_DIR") || !getenv("CATAN_PG_SCRIPT")) {
		fprintf(stderr, "test_outage: DATABASE_URL was given from outside; the outage test needs the "
				"cluster of scripts/with-postgres.sh and checks nothing here\n");
		return;
	}
	struct store *store = test_db_store(&test_db_fixture.db);
	int64_t game = test_db_new_game(store, 4, 1);
	struct store *idle = test_db_store(&test_db_fixture.db);
	int32_t version;
	ck_assert_int_eq(store_version(idle, game, &version), STORE_OK);

	static struct writer writer;
	memset(&writer, 0, sizeof writer);
	writer.db = &test_db_fixture.db;
	writer.game = game;
	pthread_t thread;
	ck_assert_int_eq(pthread_create(&thread, NULL, append_through_outage, &writer), 0);
	ck_assert_msg(wait_for(&writer.ok, 20, 10000), "no appends before the outage");

	pg("stop");
	sleep_ms(100); /* an OK answered just before the shutdown is counted by now */
	int ok_when_down = atomic_load(&writer.ok);
	int unavailable_before = atomic_load(&writer.unavailable);
	sleep_ms(500);
	int ok_while_down = atomic_load(&writer.ok) - ok_when_down;
	int unavailable_while_down = atomic_load(&writer.unavailable) - unavailable_before;
	/* Nothing to connect to: the idle store's read fails too, without hanging. */
	ck_assert_int_eq(store_version(idle, game, &version), STORE_UNAVAILABLE);
	pg("start");

	int ok_after_start = atomic_load(&writer.ok);
	int recovered = wait_for(&writer.ok, ok_after_start + 20, 15000);
	atomic_store(&writer.stop, 1);
	pthread_join(thread, NULL);

	ck_assert_msg(writer.other == 0, "writer: %s", writer.failure);
	ck_assert_int_eq(ok_while_down, 0);
	ck_assert_msg(unavailable_while_down > 0, "the store never said UNAVAILABLE while the server was down");
	ck_assert_msg(recovered, "the store did not recover after the restart");

	/* The idle store's old connection died with the server; its first read still works. */
	ck_assert_int_eq(store_version(idle, game, &version), STORE_OK);

	/* Every OK append is there; everything there is an OK append or one whose outcome the
	 * writer was told was unknown. */
	struct store_log log;
	ck_assert_int_eq(store_read_events(store, game, 0, version + 1, &log), STORE_OK);
	ck_assert_int_eq(log.count, version);
	char *origin = calloc((size_t)version + 1, 1);
	int ok = atomic_load(&writer.ok);
	for (int i = 0; i < ok; i++) {
		ck_assert_int_le(writer.ok_versions[i], version);
		ck_assert_int_eq(origin[writer.ok_versions[i]], 0);
		origin[writer.ok_versions[i]] = 'o';
	}
	for (int i = 0; i < writer.unknown; i++)
		if (writer.unknown_versions[i] <= version && !origin[writer.unknown_versions[i]])
			origin[writer.unknown_versions[i]] = 'u';
	for (int32_t seq = 2; seq <= version; seq++)
		ck_assert_msg(origin[seq], "version %d is in the log but no append made it", seq);
	free(origin);
	store_log_free(&log);
	store_close(idle);
	store_close(store);
}
END_TEST

/* Stores that wrote before a restart and were idle through it: their first writes after
 * it (an append, an append with an idempotency record, a refusal's record, a new game)
 * succeed on a new connection, and each is stored once. */
START_TEST(test_the_first_writes_after_a_restart_succeed)
{
	if (!getenv("CATAN_TEST_PG_DIR") || !getenv("CATAN_PG_SCRIPT")) {
		fprintf(stderr, "test_outage: no cluster of scripts/with-postgres.sh to restart; nothing checked\n");
		return;
	}
	enum { STORES = 6, ROUNDS = 2 };
	struct store *stores[STORES];
	int64_t games[STORES];
	int32_t versions[STORES];
	for (int i = 0; i < STORES; i++) {
		stores[i] = test_db_store(&test_db_fixture.db);
		games[i] = test_db_new_game(stores[i], 3, 1);
		versions[i] = 1;
	}
	int failures = 0;
	char first_failure[256] = "";
	for (int round = 0; round < ROUNDS; round++) {
		pg("stop");
		pg("start");
		for (int i = 0; i < STORES; i++) {
			struct store_event event;
			char text[1][64];
			test_db_fake_events(&event, text, 1, versions[i] + 1);
			enum store_status status;
			const char *what;
			char key[32];
			snprintf(key, sizeof key, "0:round-%d", round);
			struct store_idempotency record = {key, {0}, 201, "{}"};
			struct store_append append = {games[i],	       versions[i], &event, 1,
						      STORE_NO_STATUS, NULL,	    NULL,   NULL};
			switch (i % 4) {
			case 0:
				what = "append";
				status = store_append(stores[i], &append);
				break;
			case 1:
				what = "append with a key";
				append.idempotency = &record;
				status = store_append(stores[i], &append);
				break;
			case 2: {
				what = "a refusal's record";
				status = store_idempotency_put(stores[i], games[i], &record);
				break;
			}
			default: {
				what = "a new game";
				struct store_new_game game = {0};
				game.seats = 1;
				game.options = "{}";
				game.events = &event;
				game.event_count = 1;
				memset(game.token_hashes[0], i + round, STORE_HASH_SIZE);
				int64_t id;
				status = store_create_game(stores[i], &game, &id);
				break;
			}
			}
			if (status == STORE_OK && i % 4 < 2)
				versions[i]++;
			if (status != STORE_OK && !failures++)
				snprintf(first_failure, sizeof first_failure, "round %d, store %d, %s: %s: %s", round,
					 i, what, store_status_name(status), store_message(stores[i]));
		}
	}
	ck_assert_msg(failures == 0, "%d of %d first writes after a restart failed; first: %s", failures,
		      STORES * ROUNDS, first_failure);
	/* Each write is there once: the appends' logs run 1..version without a gap. */
	for (int i = 0; i < STORES; i++) {
		int32_t version;
		ck_assert_int_eq(store_version(stores[i], games[i], &version), STORE_OK);
		ck_assert_int_eq(version, versions[i]);
		struct store_log log;
		ck_assert_int_eq(store_read_events(stores[i], games[i], 0, 100, &log), STORE_OK);
		ck_assert_int_eq(log.count, version);
		store_log_free(&log);
		store_close(stores[i]);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("outage");
	TCase *tc = tcase_create("outage");
	tcase_set_timeout(tc, 120);
	test_db_fixture_add(tc, TEST_DB_MIGRATED);
	tcase_add_test(tc, test_restart_reports_unavailable_then_recovers_without_loss);
	tcase_add_test(tc, test_the_first_writes_after_a_restart_succeed);
	suite_add_tcase(suite, tc);
	return suite;
}
