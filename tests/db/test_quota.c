/*
 * test_quota.c - budgets counted in the database (db/store_quota.h, 0011_quotas.sql): a
 * peek writes and locks nothing, a take takes only what fits and refuses the rest with the
 * seconds until it fits, a charge is paid whatever the level (and then refuses the next),
 * a budget drains at its rate, keys and kinds are separate buckets, a rate of 0 is no
 * budget, and one event's receivers are bounded, the oldest first.
 */
#include <string.h>

#include "db/store_quota.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

static void key_of(int n, uint8_t key[STORE_HASH_SIZE])
{
	memset(key, 0, STORE_HASH_SIZE);
	key[0] = (uint8_t)n;
	key[31] = 0x5a;
}

static struct store_quota_answer call(const char *kind, int n, double amount, double rate, double burst,
				      enum store_quota_mode mode)
{
	uint8_t key[STORE_HASH_SIZE];
	key_of(n, key);
	struct store_quota_answer answer;
	enum store_status status = store_quota(test_db_fixture.store, kind, key, amount, rate, burst, mode, &answer);
	ck_assert_msg(status == STORE_OK, "store_quota: %s", store_message(test_db_fixture.store));
	return answer;
}

static long long rows(void)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	long long count = test_db_scalar(conn, "SELECT count(*) FROM quotas");
	PQfinish(conn);
	return count;
}

/* One unit an hour, three at once: slow enough that nothing drains during a test. */
#define RATE (1.0 / 3600)

START_TEST(test_a_take_takes_what_fits_and_refuses_the_rest_with_the_time_until_it_fits)
{
	for (int i = 0; i < 3; i++) {
		struct store_quota_answer answer = call("test", 1, 1, RATE, 3, STORE_QUOTA_TAKE);
		ck_assert(answer.allowed);
		ck_assert_int_eq(answer.remaining, 2 - i);
	}
	struct store_quota_answer refused = call("test", 1, 1, RATE, 3, STORE_QUOTA_TAKE);
	ck_assert(!refused.allowed);
	/* One unit comes back in an hour (less the moments the test took). */
	ck_assert_int_gt(refused.retry_after_s, 3500);
	ck_assert_int_le(refused.retry_after_s, 3600);
	/* Another key, another kind: buckets of their own. */
	ck_assert(call("test", 2, 1, RATE, 3, STORE_QUOTA_TAKE).allowed);
	ck_assert(call("other", 1, 1, RATE, 3, STORE_QUOTA_TAKE).allowed);
}
END_TEST

START_TEST(test_a_peek_writes_nothing_and_a_charge_is_paid_whatever_the_level)
{
	ck_assert(call("test", 1, 3, RATE, 3, STORE_QUOTA_PEEK).allowed);
	ck_assert(!call("test", 1, 4, RATE, 3, STORE_QUOTA_PEEK).allowed);
	ck_assert_int_eq(rows(), 0);
	/* Work done is paid for, past the burst too: then even one unit waits. */
	for (int i = 0; i < 5; i++)
		call("test", 1, 1, RATE, 3, STORE_QUOTA_CHARGE);
	ck_assert_int_eq(rows(), 1);
	struct store_quota_answer peek = call("test", 1, 1, RATE, 3, STORE_QUOTA_PEEK);
	ck_assert(!peek.allowed);
	ck_assert_int_gt(peek.retry_after_s, 2 * 3600);
	ck_assert_int_eq(peek.remaining, 0);
}
END_TEST

START_TEST(test_a_budget_drains_at_its_rate_and_drained_rows_are_cleared)
{
	call("test", 1, 3, RATE, 3, STORE_QUOTA_CHARGE);
	ck_assert(!call("test", 1, 1, RATE, 3, STORE_QUOTA_PEEK).allowed);
	/* Two hours later two units are back. */
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	test_db_exec(conn, "UPDATE quotas SET updated_at = updated_at - interval '2 hours',"
			   " empty_at = empty_at - interval '2 hours'");
	ck_assert(call("test", 1, 2, RATE, 3, STORE_QUOTA_PEEK).allowed);
	ck_assert(!call("test", 1, 3, RATE, 3, STORE_QUOTA_PEEK).allowed);
	/* Rows that drained long ago are deleted by the next charges. */
	test_db_exec(conn,
		     "UPDATE quotas SET updated_at = now() - interval '1 day', empty_at = now() - interval '1 day'");
	call("test", 9, 1, RATE, 3, STORE_QUOTA_CHARGE);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT count(*) FROM quotas"), 1);
	ck_assert_int_eq(test_db_scalar(conn, "SELECT get_byte(key, 0) FROM quotas"), 9);
	PQfinish(conn);
}
END_TEST

START_TEST(test_a_rate_of_zero_is_no_budget_and_malformed_calls_are_invalid)
{
	for (int i = 0; i < 10; i++)
		ck_assert(call("test", 1, 100, 0, 1, STORE_QUOTA_TAKE).allowed);
	ck_assert_int_eq(rows(), 0);
	uint8_t key[STORE_HASH_SIZE];
	key_of(1, key);
	struct store_quota_answer answer;
	ck_assert_int_eq(store_quota(test_db_fixture.store, "", key, 1, 1, 1, STORE_QUOTA_TAKE, &answer),
			 STORE_INVALID);
	ck_assert_int_eq(store_quota(test_db_fixture.store, "a-kind-name-longer-than-thirty-two", key, 1, 1, 1,
				     STORE_QUOTA_TAKE, &answer),
			 STORE_INVALID);
	ck_assert_int_eq(store_quota(test_db_fixture.store, "test", key, -1, 1, 1, STORE_QUOTA_TAKE, &answer),
			 STORE_INVALID);
}
END_TEST

START_TEST(test_one_event_reaches_at_most_the_bound_of_receivers_the_oldest_first)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 3, 1);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	char sql[512];
	for (int i = 0; i < 5; i++) {
		snprintf(sql, sizeof sql,
			 "INSERT INTO webhooks (id, game_id, secret, url, created_at) VALUES (%d, %lld,"
			 " decode(repeat('00', 32), 'hex'), 'https://example.com/%d', now() - interval '%d minutes')",
			 100 + i, (long long)game, i, 10 - i);
		test_db_exec(conn, sql);
	}
	int count;
	ck_assert_int_eq(store_receivers_count(test_db_fixture.store, game, &count), STORE_OK);
	ck_assert_int_eq(count, 5);
	test_db_exec(conn, "SET catan.webhook_receivers_max = '3'");
	snprintf(sql, sizeof sql,
		 "SELECT string_agg(webhook_id::text, ',' ORDER BY webhook_id) FROM catan_receivers(%lld)",
		 (long long)game);
	PGresult *result = PQexec(conn, sql);
	ck_assert_int_eq(PQresultStatus(result), PGRES_TUPLES_OK);
	ck_assert_str_eq(PQgetvalue(result, 0, 0), "100,101,102");
	PQclear(result);
	test_db_exec(conn, "SET catan.webhook_receivers_max = '0'");
	snprintf(sql, sizeof sql, "SELECT count(*) FROM catan_receivers(%lld)", (long long)game);
	ck_assert_int_eq(test_db_scalar(conn, sql), 5);
	test_db_exec(conn, "RESET catan.webhook_receivers_max");
	ck_assert_int_eq(test_db_scalar(conn, sql), 5);
	PQfinish(conn);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("quota");
	TCase *tc = tcase_create("database");
	tcase_set_timeout(tc, 60);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_a_take_takes_what_fits_and_refuses_the_rest_with_the_time_until_it_fits);
	tcase_add_test(tc, test_a_peek_writes_nothing_and_a_charge_is_paid_whatever_the_level);
	tcase_add_test(tc, test_a_budget_drains_at_its_rate_and_drained_rows_are_cleared);
	tcase_add_test(tc, test_a_rate_of_zero_is_no_budget_and_malformed_calls_are_invalid);
	tcase_add_test(tc, test_one_event_reaches_at_most_the_bound_of_receivers_the_oldest_first);
	suite_add_tcase(suite, tc);
	return suite;
}
