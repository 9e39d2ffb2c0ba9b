/*
 * counters.c - fixed arrays of atomic counters, named by counters.h's tables. Nothing
 * here allocates or locks: counting is safe on any thread at any time, before main()'s
 * set-up or during shutdown alike.
 */
#include "base/counters.h"

#include <stdatomic.h>
#include <stdint.h>

static _Atomic int64_t counters[COUNTERS_COUNT];
static _Atomic int64_t gauges[COUNTERS_GAUGE_COUNT];

static _Atomic int64_t histogram_buckets[COUNTERS_HISTOGRAM_COUNT][COUNTERS_BUCKETS];
static _Atomic int64_t histogram_counts[COUNTERS_HISTOGRAM_COUNT];
static _Atomic int64_t histogram_sums_us[COUNTERS_HISTOGRAM_COUNT];

const double counters_bucket_bounds[COUNTERS_BUCKETS] = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};

static const char *const histogram_names[COUNTERS_HISTOGRAM_COUNT][2] = {
#define COUNTERS_HISTOGRAM_NAME(name, metric, help) {metric, help},
	COUNTERS_HISTOGRAM_TABLE(COUNTERS_HISTOGRAM_NAME)
#undef COUNTERS_HISTOGRAM_NAME
};

static const char *const counter_names[COUNTERS_COUNT][2] = {
#define COUNTERS_NAME(name, metric, help) {metric, help},
	COUNTERS_TABLE(COUNTERS_NAME)
#undef COUNTERS_NAME
};

static const char *const gauge_names[COUNTERS_GAUGE_COUNT][2] = {
#define COUNTERS_GAUGE_NAME(name, metric, help) {metric, help},
	COUNTERS_GAUGE_TABLE(COUNTERS_GAUGE_NAME)
#undef COUNTERS_GAUGE_NAME
};

void counters_add(enum counters_counter counter, long amount)
{
	atomic_fetch_add_explicit(&counters[counter], amount, memory_order_relaxed);
}

void counters_gauge_add(enum counters_gauge gauge, long delta)
{
	atomic_fetch_add_explicit(&gauges[gauge], delta, memory_order_relaxed);
}

void counters_observe(enum counters_histogram histogram, double seconds)
{
	if (seconds < 0)
		seconds = 0;
	for (int b = 0; b < COUNTERS_BUCKETS; b++)
		if (seconds <= counters_bucket_bounds[b])
			atomic_fetch_add_explicit(&histogram_buckets[histogram][b], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&histogram_counts[histogram], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&histogram_sums_us[histogram], (int64_t)(seconds * 1e6), memory_order_relaxed);
}

long long counters_histogram_count(enum counters_histogram histogram)
{
	return (long long)atomic_load_explicit(&histogram_counts[histogram], memory_order_relaxed);
}

long long counters_histogram_bucket(enum counters_histogram histogram, int bucket)
{
	return (long long)atomic_load_explicit(&histogram_buckets[histogram][bucket], memory_order_relaxed);
}

long long counters_value(enum counters_counter counter)
{
	return (long long)atomic_load_explicit(&counters[counter], memory_order_relaxed);
}

long long counters_gauge_value(enum counters_gauge gauge)
{
	return (long long)atomic_load_explicit(&gauges[gauge], memory_order_relaxed);
}

void counters_render(struct xtext *text)
{
	for (int c = 0; c < COUNTERS_COUNT; c++)
		xtext_add(text, "# HELP %s %s\n# TYPE %s counter\n%s %lld\n", counter_names[c][0], counter_names[c][1],
			  counter_names[c][0], counter_names[c][0], counters_value((enum counters_counter)c));
	for (int g = 0; g < COUNTERS_GAUGE_COUNT; g++)
		xtext_add(text, "# HELP %s %s\n# TYPE %s gauge\n%s %lld\n", gauge_names[g][0], gauge_names[g][1],
			  gauge_names[g][0], gauge_names[g][0], counters_gauge_value((enum counters_gauge)g));
	for (int h = 0; h < COUNTERS_HISTOGRAM_COUNT; h++) {
		const char *name = histogram_names[h][0];
		enum counters_histogram histogram = (enum counters_histogram)h;
		xtext_add(text, "# HELP %s %s\n# TYPE %s histogram\n", name, histogram_names[h][1], name);
		for (int b = 0; b < COUNTERS_BUCKETS; b++)
			xtext_add(text, "%s_bucket{le=\"%g\"} %lld\n", name, counters_bucket_bounds[b],
				  counters_histogram_bucket(histogram, b));
		long long count = counters_histogram_count(histogram);
		xtext_add(text, "%s_bucket{le=\"+Inf\"} %lld\n%s_sum %.6f\n%s_count %lld\n", name, count, name,
			  (double)atomic_load_explicit(&histogram_sums_us[h], memory_order_relaxed) / 1e6, name, count);
	}
}
