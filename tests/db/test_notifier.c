/*
 * test_notifier.c - waking listeners: every append wakes them with "<id>:<version>" after
 * it commits, whether the store sends the wake-up itself or a shared notifier batches the
 * wake-ups of many stores; a failed append wakes no one; a notifier that cannot reach the
 * database neither blocks its stores nor hangs at close.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db/notifier.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

#define WRITERS 4
#define APPENDS 60
#define MAX_NOTES 4096

struct writer {
	struct store_notifier *notifier;
	int64_t game;
	int failures;
};

static void *append_many(void *argument)
{
	struct writer *writer = argument;
	struct store *store;
	if (store_open(test_db_fixture.db.conninfo, &store) != STORE_OK) {
		writer->failures++;
		store_close(store);
		return NULL;
	}
	store_use_notifier(store, writer->notifier);
	writer->game = test_db_new_game(store, 4, 1);
	for (int32_t version = 1; version <= APPENDS; version++) {
		struct store_event event;
		char text[1][64];
		test_db_fake_events(&event, text, 1, version + 1);
		struct store_append append = {writer->game, version, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
		if (store_append(store, &append) != STORE_OK)
			writer->failures++;
	}
	store_close(store);
	return NULL;
}

/* The highest version notified for `game` among notes. */
static int last_notified(char (*notes)[64], int count, int64_t game)
{
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(game, id);
	int last = 0;
	for (int i = 0; i < count; i++) {
		int version;
		char note_id[17];
		ck_assert_msg(sscanf(notes[i], "%16[0-9a-f]:%d", note_id, &version) == 2, "malformed note %s",
			      notes[i]);
		if (strcmp(note_id, id) == 0 && version > last)
			last = version;
	}
	return last;
}

START_TEST(test_shared_notifier_wakes_listeners_of_every_game)
{
	PGconn *listener = test_db_connect(test_db_fixture.db.conninfo);
	test_db_exec(listener, "LISTEN catan_events");
	struct store_notifier *notifier;
	ck_assert_int_eq(store_notifier_open(test_db_fixture.db.conninfo, &notifier), STORE_OK);
	struct writer writers[WRITERS];
	pthread_t threads[WRITERS];
	for (int i = 0; i < WRITERS; i++) {
		writers[i] = (struct writer){notifier, 0, 0};
		ck_assert_int_eq(pthread_create(&threads[i], NULL, append_many, &writers[i]), 0);
	}
	for (int i = 0; i < WRITERS; i++)
		pthread_join(threads[i], NULL);
	store_notifier_close(notifier); /* sends what is still pending */

	static char notes[MAX_NOTES][64];
	int count = test_db_notifications(listener, 500, NULL, notes, MAX_NOTES);
	for (int i = 0; i < WRITERS; i++) {
		ck_assert_int_eq(writers[i].failures, 0);
		ck_assert_int_eq(last_notified(notes, count, writers[i].game), APPENDS + 1);
	}
	PQfinish(listener);
}
END_TEST

START_TEST(test_notifier_counts_what_it_sends_in_batches)
{
	struct store_notifier *notifier;
	ck_assert_int_eq(store_notifier_open(test_db_fixture.db.conninfo, &notifier), STORE_OK);
	struct writer writers[WRITERS];
	pthread_t threads[WRITERS];
	for (int i = 0; i < WRITERS; i++) {
		writers[i] = (struct writer){notifier, 0, 0};
		ck_assert_int_eq(pthread_create(&threads[i], NULL, append_many, &writers[i]), 0);
	}
	for (int i = 0; i < WRITERS; i++)
		pthread_join(threads[i], NULL);
	/* Every create and append posted one wake-up; all are sent once the queue drains. */
	long sent = 0, dropped = -1, batches = 0;
	for (int wait = 0; wait < 500 && sent < WRITERS * (APPENDS + 1); wait++) {
		store_notifier_counts(notifier, &sent, &dropped, &batches);
		struct timespec tick = {0, 10000000L};
		nanosleep(&tick, NULL);
	}
	ck_assert_int_eq(sent, WRITERS * (APPENDS + 1));
	ck_assert_int_eq(dropped, 0);
	ck_assert_int_ge(batches, 1);
	ck_assert_int_le(batches, sent);
	store_notifier_close(notifier);
}
END_TEST

START_TEST(test_store_wakes_listeners_itself_by_default)
{
	PGconn *listener = test_db_connect(test_db_fixture.db.conninfo);
	test_db_exec(listener, "LISTEN catan_events");
	struct store *store = test_db_store(&test_db_fixture.db);
	int64_t game = test_db_new_game(store, 4, 3);
	char id[STORE_ID_TEXT_SIZE], expected[64];
	store_format_id(game, id);
	static char notes[16][64];
	/* Creating the game woke them with its first version. */
	snprintf(expected, sizeof expected, "%s:3", id);
	int count = test_db_notifications(listener, 5000, expected, notes, 16);
	ck_assert_int_ge(count, 1);
	ck_assert_str_eq(notes[count - 1], expected);

	/* An append that fails (the version is not the game's) wakes no one. */
	struct store_event event;
	char text[1][64];
	test_db_fake_events(&event, text, 1, 10);
	struct store_append append = {game, 9, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
	ck_assert_int_eq(store_append(store, &append), STORE_CONFLICT);
	ck_assert_int_eq(test_db_notifications(listener, 300, NULL, notes, 16), 0);

	/* Neither does one with a payload the database refuses, whatever its path. */
	event.payload = "not json";
	append.version = 3;
	ck_assert_int_eq(store_append(store, &append), STORE_INVALID);
	uint8_t state[4] = {0};
	struct store_snapshot snapshot = {1, state, sizeof state};
	append.snapshot = &snapshot;
	ck_assert_int_eq(store_append(store, &append), STORE_INVALID);
	ck_assert_int_eq(test_db_notifications(listener, 300, NULL, notes, 16), 0);

	/* Both kinds of append (events only; with a snapshot) wake them with the new version. */
	test_db_fake_events(&event, text, 1, 4);
	append.snapshot = NULL;
	ck_assert_int_eq(store_append(store, &append), STORE_OK);
	snprintf(expected, sizeof expected, "%s:4", id);
	count = test_db_notifications(listener, 5000, expected, notes, 16);
	ck_assert_int_eq(count, 1);
	ck_assert_str_eq(notes[0], expected);
	test_db_fake_events(&event, text, 1, 5);
	append.version = 4;
	append.snapshot = &snapshot;
	ck_assert_int_eq(store_append(store, &append), STORE_OK);
	snprintf(expected, sizeof expected, "%s:5", id);
	count = test_db_notifications(listener, 5000, expected, notes, 16);
	ck_assert_int_eq(count, 1);
	ck_assert_str_eq(notes[0], expected);
	store_close(store);
	PQfinish(listener);
}
END_TEST

START_TEST(test_unreachable_notifier_blocks_nothing_and_closes)
{
	struct store_notifier *notifier;
	ck_assert_int_eq(store_notifier_open("host=/nonexistent/socket/dir dbname=catan", &notifier), STORE_OK);
	struct store *store = test_db_store(&test_db_fixture.db);
	store_use_notifier(store, notifier);
	int64_t game = test_db_new_game(store, 4, 1);
	int64_t start = test_db_now_us();
	for (int32_t version = 1; version <= 20; version++) {
		struct store_event event;
		char text[1][64];
		test_db_fake_events(&event, text, 1, version + 1);
		struct store_append append = {game, version, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
		ck_assert_int_eq(store_append(store, &append), STORE_OK);
	}
	ck_assert_int_lt(test_db_now_us() - start, 5000000);
	store_close(store);
	long sent = -1, dropped = -1;
	store_notifier_counts(notifier, &sent, &dropped, NULL);
	ck_assert_int_eq(sent, 0);
	store_notifier_close(notifier); /* gives up on what it could not send */
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("notifier");
	TCase *tc = tcase_create("notifier");
	tcase_set_timeout(tc, 60);
	test_db_fixture_add(tc, TEST_DB_MIGRATED);
	tcase_add_test(tc, test_store_wakes_listeners_itself_by_default);
	tcase_add_test(tc, test_shared_notifier_wakes_listeners_of_every_game);
	tcase_add_test(tc, test_notifier_counts_what_it_sends_in_batches);
	tcase_add_test(tc, test_unreachable_notifier_blocks_nothing_and_closes);
	suite_add_tcase(suite, tc);
	return suite;
}
