/*
 * test_counters.c - the process's histograms (base/counters.h): each duration counted in
 * every bucket whose bound it does not exceed (cumulative, as Prometheus reads them), the
 * count and the sum kept, and the whole histogram rendered in the text format.
 */
#include "tests/check_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/counters.h"
#include "base/xalloc.h"

static const enum counters_histogram LATENESS = COUNTERS_HISTOGRAM_BOT_MOVE_LATENESS;

/* The bucket whose bound is `seconds` exactly. */
static int bucket_of(double seconds)
{
	for (int b = 0; b < COUNTERS_BUCKETS; b++)
		if (counters_bucket_bounds[b] == seconds)
			return b;
	ck_abort_msg("no bucket of %g s", seconds);
	return -1;
}

/* What the histogram holds now, to compare with after (the tests share the process when
 * Check does not fork). */
struct snapshot {
	long long count, buckets[COUNTERS_BUCKETS];
};

static struct snapshot take(void)
{
	struct snapshot snapshot = {counters_histogram_count(LATENESS), {0}};
	for (int b = 0; b < COUNTERS_BUCKETS; b++)
		snapshot.buckets[b] = counters_histogram_bucket(LATENESS, b);
	return snapshot;
}

static long long added(const struct snapshot *before, double bound)
{
	int b = bucket_of(bound);
	return counters_histogram_bucket(LATENESS, b) - before->buckets[b];
}

START_TEST(test_a_duration_is_counted_in_every_bucket_it_fits)
{
	for (int b = 1; b < COUNTERS_BUCKETS; b++)
		ck_assert(counters_bucket_bounds[b] > counters_bucket_bounds[b - 1]);
	struct snapshot before = take();
	counters_observe(LATENESS, 0.003); /* the first bucket and up */
	counters_observe(LATENESS, 0.05);  /* a bound itself counts in its bucket */
	counters_observe(LATENESS, 0.2);   /* 0.25 and up */
	counters_observe(LATENESS, 600);   /* beyond every bound: +Inf only */
	counters_observe(LATENESS, -1);	   /* a clock step back: counted as 0 */
	ck_assert_int_eq(counters_histogram_count(LATENESS) - before.count, 5);
	ck_assert_int_eq(added(&before, counters_bucket_bounds[0]), 2);
	ck_assert_int_eq(added(&before, 0.025), 2);
	ck_assert_int_eq(added(&before, 0.05), 3);
	ck_assert_int_eq(added(&before, 0.1), 3);
	ck_assert_int_eq(added(&before, 0.25), 4);
	ck_assert_int_eq(added(&before, counters_bucket_bounds[COUNTERS_BUCKETS - 1]), 4);
}
END_TEST

/* The rendered text holds `name` followed by `value` on a line of its own. */
static void assert_line(const char *body, const char *name, long long value)
{
	char line[160];
	snprintf(line, sizeof line, "\n%s %lld\n", name, value);
	ck_assert_msg(strstr(body, line) != NULL, "no line%s", line);
}

START_TEST(test_the_histogram_renders_buckets_sum_and_count)
{
	counters_observe(LATENESS, 0.02);
	counters_observe(LATENESS, 7);
	struct xtext text = xtext_new();
	counters_render(&text);
	const char *body = text.data;
	ck_assert_ptr_nonnull(strstr(body, "# TYPE catan_bot_move_lateness_seconds histogram\n"));
	char name[96];
	for (int b = 0; b < COUNTERS_BUCKETS; b++) {
		snprintf(name, sizeof name, "catan_bot_move_lateness_seconds_bucket{le=\"%g\"}",
			 counters_bucket_bounds[b]);
		assert_line(body, name, counters_histogram_bucket(LATENESS, b));
	}
	long long count = counters_histogram_count(LATENESS);
	ck_assert_int_ge(count, 2);
	ck_assert_int_gt(counters_histogram_bucket(LATENESS, bucket_of(10)),
			 counters_histogram_bucket(LATENESS, bucket_of(5)));
	assert_line(body, "catan_bot_move_lateness_seconds_bucket{le=\"+Inf\"}", count);
	assert_line(body, "catan_bot_move_lateness_seconds_count", count);
	const char *sum = strstr(body, "\ncatan_bot_move_lateness_seconds_sum ");
	ck_assert_ptr_nonnull(sum);
	ck_assert(atof(sum + strlen("\ncatan_bot_move_lateness_seconds_sum ")) >= 7.02 - 1e-6);
	free(text.data);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("counters");
	TCase *tc = tcase_create("histograms");
	tcase_add_test(tc, test_a_duration_is_counted_in_every_bucket_it_fits);
	tcase_add_test(tc, test_the_histogram_renders_buckets_sum_and_count);
	suite_add_tcase(suite, tc);
	return suite;
}
