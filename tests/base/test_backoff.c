/*
 * test_backoff.c - the floor's backoff (base/backoff.c) and counters (base/counters.c):
 * waits that double from BACKOFF_FIRST_MS to BACKOFF_MAX_MS within their jitter, start
 * again after a success, and show in the counters (retries counted, threads backing off
 * gauged); and the counters' exposition, one HELP, TYPE and value per counter and gauge.
 */
#include <stdlib.h>
#include <string.h>

#include "base/backoff.h"
#include "base/counters.h"
#include "base/xalloc.h"
#include "tests/check_main.h"

START_TEST(test_waits_double_within_their_jitter_up_to_the_cap)
{
	struct backoff backoff = {0, 7};
	long expected = BACKOFF_FIRST_MS;
	for (int failure = 1; failure <= 40; failure++) {
		int wait = backoff_failed(&backoff);
		ck_assert_msg(wait >= expected / 2 && wait <= expected, "failure %d: %d ms, not in %ld..%ld", failure,
			      wait, expected / 2, expected);
		expected = expected * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : expected * 2;
	}
	backoff_succeeded(&backoff);
	int wait = backoff_failed(&backoff);
	ck_assert_msg(wait >= BACKOFF_FIRST_MS / 2 && wait <= BACKOFF_FIRST_MS, "after a success: %d ms", wait);
	backoff_succeeded(&backoff);
}
END_TEST

START_TEST(test_failures_are_counted_and_backing_off_threads_gauged)
{
	long long retries = counters_value(COUNTERS_BACKGROUND_RETRIES);
	long long backing_off = counters_gauge_value(COUNTERS_GAUGE_BACKING_OFF);
	struct backoff first = {0, 1}, second = {0, 2};
	backoff_failed(&first);
	backoff_failed(&first);
	backoff_failed(&second);
	ck_assert_int_eq(counters_value(COUNTERS_BACKGROUND_RETRIES), retries + 3);
	ck_assert_int_eq(counters_gauge_value(COUNTERS_GAUGE_BACKING_OFF), backing_off + 2);
	backoff_succeeded(&first);
	backoff_succeeded(&first); /* a second success changes nothing */
	ck_assert_int_eq(counters_gauge_value(COUNTERS_GAUGE_BACKING_OFF), backing_off + 1);
	backoff_succeeded(&second);
	ck_assert_int_eq(counters_gauge_value(COUNTERS_GAUGE_BACKING_OFF), backing_off);
}
END_TEST

START_TEST(test_the_exposition_names_every_counter_and_gauge_once)
{
	counters_add(COUNTERS_BOT_MOVES, 5);
	struct xtext text = xtext_new();
	counters_render(&text);
	static const char *const wanted[] = {
		"# HELP catan_bot_moves_total Moves made by server-side bots\n# TYPE catan_bot_moves_total counter\n"
		"catan_bot_moves_total 5\n",
		"# TYPE catan_games_created_total counter\n",
		"# TYPE catan_background_retries_total counter\n",
		"# TYPE catan_connections gauge\n",
		"# TYPE catan_background_backing_off gauge\n",
	};
	for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
		ck_assert_msg(strstr(text.data, wanted[i]), "missing %s in:\n%s", wanted[i], text.data);
	int types = 0;
	for (const char *at = text.data; (at = strstr(at, "# TYPE ")); at++)
		types++;
	ck_assert_int_eq(types, COUNTERS_COUNT + COUNTERS_GAUGE_COUNT + COUNTERS_HISTOGRAM_COUNT);
	free(text.data);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("backoff");
	TCase *cases = tcase_create("backoff");
	tcase_add_test(cases, test_waits_double_within_their_jitter_up_to_the_cap);
	tcase_add_test(cases, test_failures_are_counted_and_backing_off_threads_gauged);
	tcase_add_test(cases, test_the_exposition_names_every_counter_and_gauge_once);
	suite_add_tcase(suite, cases);
	return suite;
}
