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
}
