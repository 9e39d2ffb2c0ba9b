/*
 * test_concurrency.c - 16 threads, each with its own store, race to append the next event
 * of one game: every version is won by exactly one of them, the losers are told
 * STORE_CONFLICT, and the log ends with no gap and no duplicate.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_main.h"
#include "tests/db/support.h"

#define WRITERS 16
#define TARGET_VERSION 400

struct writer {
	const struct test_db *db;
	int64_t game;
	int index;
	pthread_barrier_t *start;
	int won_base[TARGET_VERSION + 8];  /* the version each winning append was decided on */
	int won_count[TARGET_VERSION + 8]; /* and how many events it added */
	int wins;
	int conflicts;
	int failures; /* anything else: must stay 0 */
	char failure[256];
};

static void *race(void *argument)
{
	struct writer *writer = argument;
	struct store *store;
	if (store_open(writer->db->conninfo, &store) != STORE_OK) {
		snprintf(writer->failure, sizeof writer->failure, "store_open: %s", store_message(store));
		writer->failures++;
		store_close(store);
		pthread_barrier_wait(writer->start);
		return NULL;
	}
	pthread_barrier_wait(writer->start);
	for (;;) {
		int32_t version;
		enum store_status status = store_version(store, writer->game, &version);
		if (status != STORE_OK) {
			snprintf(writer->failure, sizeof writer->failure, "store_version: %s", store_message(store));
			writer->failures++;
			break;
		}
		if (version >= TARGET_VERSION)
			break;
		/* Sometimes two events at once: a multi-event append is all or nothing. */
		int count = (writer->index + version) % 3 == 0 ? 2 : 1;
		struct store_event events[2];
		char text[2][64];
		for (int i = 0; i < count; i++) {
			snprintf(text[i], sizeof text[i], "{\"writer\":%d,\"base\":%d,\"part\":%d}", writer->index,
				 (int)version, i);
			events[i] = (struct store_event){1, writer->index % 4, STORE_ORIGIN_PLAYER, text[i]};
		}
		struct store_append append = {writer->game, version, events, count, STORE_NO_STATUS, NULL, NULL, NULL};
		status = store_append(store, &append);
		if (status == STORE_OK) {
			writer->won_base[writer->wins] = version;
			writer->won_count[writer->wins++] = count;
		} else if (status == STORE_CONFLICT)
			writer->conflicts++;
		else {
			snprintf(writer->failure, sizeof writer->failure, "store_append: %s: %s",
				 store_status_name(status), store_message(store));
			writer->failures++;
			break;
		}
	}
	store_close(store);
	return NULL;
}

START_TEST(test_racing_writers_each_version_won_once_no_gap)
{
	struct store *store = test_db_fixture.store;
	int64_t game = test_db_new_game(store, 4, 1);

	static struct writer writers[WRITERS];
	pthread_t threads[WRITERS];
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, WRITERS);
	for (int i = 0; i < WRITERS; i++) {
		memset(&writers[i], 0, sizeof writers[i]);
		writers[i] = (struct writer){.db = &test_db_fixture.db, .game = game, .index = i, .start = &start};
		ck_assert_int_eq(pthread_create(&threads[i], NULL, race, &writers[i]), 0);
	}
	for (int i = 0; i < WRITERS; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&start);

	int conflicts = 0;
	for (int i = 0; i < WRITERS; i++) {
		ck_assert_msg(writers[i].failures == 0, "writer %d: %s", i, writers[i].failure);
		conflicts += writers[i].conflicts;
	}
	ck_assert_msg(conflicts > 0, "the writers never collided: the test raced nothing");

	int32_t version;
	ck_assert_int_eq(store_version(store, game, &version), STORE_OK);
	ck_assert_int_ge(version, TARGET_VERSION);

	/* Who wrote each seq, according to the log. */
	struct store_log log;
	ck_assert_int_eq(store_read_events(store, game, 0, version + 10, &log), STORE_OK);
	ck_assert_int_eq(log.count, version); /* seq 1..version: copy_log checks there is no gap */
	/* Every row after the first belongs to an append its writer was told won, and every
	 * append a writer was told won is there whole: no lost win, no duplicate, no stray. */
	int rows_of_wins = 0;
	for (int i = 0; i < WRITERS; i++)
		for (int w = 0; w < writers[i].wins; w++) {
			int base = writers[i].won_base[w], count = writers[i].won_count[w];
			rows_of_wins += count;
			ck_assert_int_le(base + count, version);
			for (int part = 0; part < count; part++) {
				char expected[64]; /* as the winner wrote it (json) */
				snprintf(expected, sizeof expected, "{\"writer\":%d,\"base\":%d,\"part\":%d}", i, base,
					 part);
				ck_assert_str_eq(log.rows[base + part].payload, expected);
			}
		}
	ck_assert_int_eq(rows_of_wins, version - 1);
	store_log_free(&log);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("concurrency");
	TCase *tc = tcase_create("concurrency");
	tcase_set_timeout(tc, 120);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_racing_writers_each_version_won_once_no_gap);
	suite_add_tcase(suite, tc);
	return suite;
}
