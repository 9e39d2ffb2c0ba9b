/*
 * test_idempotency.c - idempotency keys: the same key twice gets the first outcome back and
 * stores nothing new; the same key with a different request is refused; keys are per game;
 * concurrent requests with one key produce one outcome.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store_idempotency.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

static struct store_idempotency record_of(const char *key, uint8_t body, const char *response)
{
	struct store_idempotency record = {key, {0}, 201, response};
	memset(record.request_hash, body, STORE_HASH_SIZE);
	return record;
}

static long long count_rows(const char *table)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	char sql[96];
	snprintf(sql, sizeof sql, "SELECT count(*) FROM %s", table);
	long long count = test_db_scalar(conn, sql);
	PQfinish(conn);
	return count;
}

static enum store_status append_with_key(int64_t game, int32_t version, const struct store_idempotency *record)
{
	struct store_event events[2];
	char text[2][64];
	test_db_fake_events(events, text, 2, version + 1);
	struct store_append append = {game, version, events, 2, STORE_NO_STATUS, NULL, record, NULL};
	return store_append(test_db_fixture.store, &append);
}

START_TEST(test_same_key_twice_returns_first_outcome_and_stores_nothing)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	struct store_idempotency first = record_of("move-1", 0x11, "{\"version\":3}");
	ck_assert_int_eq(append_with_key(game, 1, &first), STORE_OK);
	long long events = count_rows("events"), keys = count_rows("idempotency_keys");

	/* The retry (decided again on the new version) is refused whole. */
	ck_assert_int_eq(append_with_key(game, 3, &first), STORE_IDEMPOTENCY_CONFLICT);
	ck_assert_int_eq(count_rows("events"), events);
	ck_assert_int_eq(count_rows("idempotency_keys"), keys);
	int32_t version;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 3);

	/* ... and the first outcome is there to answer with. */
	struct store_idempotency_record kept;
	ck_assert_int_eq(store_idempotency_get(test_db_fixture.store, game, "move-1", first.request_hash, &kept),
			 STORE_OK);
	ck_assert_str_eq(kept.response, "{\"version\":3}");
	ck_assert_int_eq(kept.status, 201);
	ck_assert(kept.created_at_us > 0);
	free(kept.response);
}
END_TEST

START_TEST(test_same_key_with_different_request_is_refused)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	struct store_idempotency first = record_of("k", 0x11, "first");
	ck_assert_int_eq(append_with_key(game, 1, &first), STORE_OK);
	uint8_t other[STORE_HASH_SIZE];
	memset(other, 0x22, sizeof other);
	struct store_idempotency_record kept;
	ck_assert_int_eq(store_idempotency_get(test_db_fixture.store, game, "k", other, &kept),
			 STORE_IDEMPOTENCY_CONFLICT);
	ck_assert_mem_eq(kept.request_hash, first.request_hash, STORE_HASH_SIZE);
	ck_assert_str_eq(kept.response, "first");
	free(kept.response);
	struct store_idempotency second = record_of("k", 0x22, "second");
	ck_assert_int_eq(append_with_key(game, 3, &second), STORE_IDEMPOTENCY_CONFLICT);
	ck_assert_int_eq(store_idempotency_put(test_db_fixture.store, game, &second), STORE_IDEMPOTENCY_CONFLICT);
}
END_TEST

START_TEST(test_unknown_key_is_not_found)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	uint8_t hash[STORE_HASH_SIZE] = {0};
	struct store_idempotency_record kept;
	ck_assert_int_eq(store_idempotency_get(test_db_fixture.store, game, "never", hash, &kept), STORE_NOT_FOUND);
	ck_assert_ptr_null(kept.response);
	ck_assert_int_eq(store_idempotency_get(test_db_fixture.store, game, NULL, hash, &kept), STORE_INVALID);
	struct store_idempotency keyless = {NULL, {0}, 200, "r"};
	ck_assert_int_eq(store_idempotency_put(test_db_fixture.store, game, &keyless), STORE_INVALID);
	ck_assert_int_eq(append_with_key(game, 1, &keyless), STORE_INVALID);
}
END_TEST

START_TEST(test_keys_are_per_game)
{
	int64_t one = test_db_new_game(test_db_fixture.store, 4, 1),
		two = test_db_new_game(test_db_fixture.store, 4, 1);
	struct store_idempotency record = record_of("shared", 0x33, "r");
	ck_assert_int_eq(append_with_key(one, 1, &record), STORE_OK);
	ck_assert_int_eq(append_with_key(two, 1, &record), STORE_OK);
}
END_TEST

START_TEST(test_record_without_events_is_kept_once)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	struct store_idempotency refusal = {"bad-move", {0}, 422, "{\"code\":\"not_your_turn\"}"};
	memset(refusal.request_hash, 0x44, STORE_HASH_SIZE);
	ck_assert_int_eq(store_idempotency_put(test_db_fixture.store, game, &refusal), STORE_OK);
	ck_assert_int_eq(store_idempotency_put(test_db_fixture.store, game, &refusal), STORE_IDEMPOTENCY_CONFLICT);
	struct store_idempotency_record kept;
	ck_assert_int_eq(store_idempotency_get(test_db_fixture.store, game, "bad-move", refusal.request_hash, &kept),
			 STORE_OK);
	ck_assert_int_eq(kept.status, 422);
	ck_assert_str_eq(kept.response, "{\"code\":\"not_your_turn\"}");
	free(kept.response);
	/* A key used by a refusal cannot then carry events. */
	ck_assert_int_eq(append_with_key(game, 1, &refusal), STORE_IDEMPOTENCY_CONFLICT);
}
END_TEST

START_TEST(test_conflicting_append_keeps_no_key)
{
	/* A key written with events that lost the race is not kept: the retry may succeed. */
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	ck_assert_int_eq(append_with_key(game, 1, NULL), STORE_OK);
	struct store_idempotency record = record_of("late", 0x55, "r");
	ck_assert_int_eq(append_with_key(game, 1, &record), STORE_CONFLICT);
	uint8_t hash[STORE_HASH_SIZE];
	memset(hash, 0x55, sizeof hash);
	struct store_idempotency_record kept;
	ck_assert_int_eq(store_idempotency_get(test_db_fixture.store, game, "late", hash, &kept), STORE_NOT_FOUND);
	ck_assert_int_eq(append_with_key(game, 3, &record), STORE_OK);
}
END_TEST

#define RETRIERS 8

struct retrier {
	int64_t game;
	int index;
	pthread_barrier_t *start;
	enum store_status status;
};

static void *retry_same_key(void *argument)
{
	struct retrier *retrier = argument;
	struct store *own;
	enum store_status opened = store_open(test_db_fixture.db.conninfo, &own);
	pthread_barrier_wait(retrier->start);
	if (opened != STORE_OK) {
		retrier->status = opened;
		store_close(own);
		return NULL;
	}
	struct store_event event;
	char text[1][64];
	test_db_fake_events(&event, text, 1, 2);
	struct store_idempotency record = record_of("same", 0x66, "once");
	/* All decided on version 1 with one key: one wins, the others see the key or the version taken. */
	struct store_append append = {retrier->game, 1, &event, 1, STORE_NO_STATUS, NULL, &record, NULL};
	retrier->status = store_append(own, &append);
	store_close(own);
	return NULL;
}

START_TEST(test_concurrent_requests_with_one_key_have_one_outcome)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	struct retrier retriers[RETRIERS];
	pthread_t threads[RETRIERS];
	pthread_barrier_t start;
	pthread_barrier_init(&start, NULL, RETRIERS);
	for (int i = 0; i < RETRIERS; i++) {
		retriers[i] = (struct retrier){game, i, &start, STORE_UNAVAILABLE};
		ck_assert_int_eq(pthread_create(&threads[i], NULL, retry_same_key, &retriers[i]), 0);
	}
	for (int i = 0; i < RETRIERS; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&start);
	int ok = 0;
	for (int i = 0; i < RETRIERS; i++) {
		ck_assert_msg(retriers[i].status == STORE_OK || retriers[i].status == STORE_IDEMPOTENCY_CONFLICT ||
				      retriers[i].status == STORE_CONFLICT,
			      "retrier %d: %s", i, store_status_name(retriers[i].status));
		ok += retriers[i].status == STORE_OK;
	}
	ck_assert_int_eq(ok, 1);
	int32_t version;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 2);
	ck_assert_int_eq(count_rows("idempotency_keys"), 1);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("idempotency");
	TCase *tc = tcase_create("idempotency");
	tcase_set_timeout(tc, 60);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_same_key_twice_returns_first_outcome_and_stores_nothing);
	tcase_add_test(tc, test_same_key_with_different_request_is_refused);
	tcase_add_test(tc, test_unknown_key_is_not_found);
	tcase_add_test(tc, test_keys_are_per_game);
	tcase_add_test(tc, test_record_without_events_is_kept_once);
	tcase_add_test(tc, test_conflicting_append_keeps_no_key);
	tcase_add_test(tc, test_concurrent_requests_with_one_key_have_one_outcome);
	suite_add_tcase(suite, tc);
	return suite;
}
