/*
 * metrics.c - fixed arrays of atomic counters: requests by (route, status class slot),
 * a latency histogram per route, and a few service counters. Routes and statuses are a
 * closed set, so no allocation or locking happens on the request path.
 */
#include "api/metrics.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/routes.h"
#include "api/xalloc.h"

#define MAX_ROUTES 96 /* at least routes_count() (59): a route past it would be counted as unmatched */
static const int status_slots[] = {200, 201, 204, 400, 401, 403, 404, 405, 409, 412, 413, 415, 422, 429, 500, 503};
#define STATUS_SLOTS ((int)(sizeof status_slots / sizeof status_slots[0]) + 1) /* + other */
static const double bucket_bounds[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
#define BUCKETS ((int)(sizeof bucket_bounds / sizeof bucket_bounds[0]))

/* Route slot 0 is "no route matched"; route i is slot i + 1. */
static _Atomic uint64_t request_counts[MAX_ROUTES + 1][STATUS_SLOTS];
static _Atomic uint64_t latency_buckets[MAX_ROUTES + 1][BUCKETS];
static _Atomic uint64_t latency_count[MAX_ROUTES + 1];
static _Atomic uint64_t latency_sum_us[MAX_ROUTES + 1];
static _Atomic int64_t counters[METRICS_COUNTER_COUNT];
static _Atomic int64_t gauges[METRICS_GAUGE_COUNT];

static const char *const counter_names[METRICS_COUNTER_COUNT][2] = {
	{"catan_games_created_total", "Games created"},
	{"catan_events_appended_total", "Events appended to game logs"},
	{"catan_append_conflicts_total", "Appends that lost a race for the next version"},
	{"catan_database_errors_total", "Database operations that failed (unavailable or error)"},
	{"catan_rate_limited_total", "Requests refused by the rate limit"},
	{"catan_webhook_deliveries_total", "Webhook deliveries acknowledged by the receiver"},
	{"catan_webhook_failures_total", "Webhook delivery attempts that failed"},
	{"catan_deadlines_fired_total", "Turn deadlines that expired into a default move"},
	{"catan_bot_moves_total", "Moves made by server-side bots"},
	{"catan_connections_shed_total", "Connections owing their request closed to keep capacity free for new ones"},
	{"catan_connections_timed_out_total", "Connections closed for not delivering a request in time"},
	{"catan_waiting_refused_total", "Long-polls and streams refused because too many were open"},
	{"catan_waiters_departed_total", "Parked long-polls and streams ended because their client had gone"},
	{"catan_background_retries_total", "Database calls of background threads that failed and were retried later"},
};

static const char *const gauge_names[METRICS_GAUGE_COUNT][2] = {
	{"catan_long_poll_waiters", "Long-poll requests currently waiting"},
	{"catan_streams", "Event streams currently open"},
	{"catan_connections", "Connections currently open"},
	{"catan_background_backing_off", "Background threads whose last database call failed (waiting to retry)"},
};

static int status_slot(int status)
{
	for (int i = 0; i < STATUS_SLOTS - 1; i++)
		if (status_slots[i] == status)
			return i;
	return STATUS_SLOTS - 1;
}

void metrics_observe_request(const struct route *route, enum http_method method, int status, double seconds)
{
	(void)method;
	int slot = route ? routes_index(route) + 1 : 0;
	if (slot < 0 || slot > MAX_ROUTES)
		slot = 0;
	atomic_fetch_add_explicit(&request_counts[slot][status_slot(status)], 1, memory_order_relaxed);
	for (int b = 0; b < BUCKETS; b++)
		if (seconds <= bucket_bounds[b])
			atomic_fetch_add_explicit(&latency_buckets[slot][b], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&latency_count[slot], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&latency_sum_us[slot], (uint64_t)(seconds * 1e6), memory_order_relaxed);
}

void metrics_add(enum metrics_counter counter, long amount)
{
	atomic_fetch_add_explicit(&counters[counter], amount, memory_order_relaxed);
}

void metrics_gauge_add(enum metrics_gauge gauge, long delta)
{
	atomic_fetch_add_explicit(&gauges[gauge], delta, memory_order_relaxed);
}

struct text {
	char *data;
	size_t length, capacity;
};

__attribute__((format(printf, 2, 3))) static void put(struct text *text, const char *format, ...)
{
	va_list args;
	for (;;) {
		va_start(args, format);
		int written = vsnprintf(text->data + text->length, text->capacity - text->length, format, args);
		va_end(args);
		if (written < 0)
			abort();
		if ((size_t)written < text->capacity - text->length) {
			text->length += (size_t)written;
			return;
		}
		text->capacity = text->capacity * 2 + (size_t)written;
		text->data = xrealloc(text->data, text->capacity);
	}
}

static void route_labels(int slot, char *out, size_t size)
{
	static const char *const methods[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"};
	const struct route *route = slot ? routes_at(slot - 1) : NULL;
	if (route)
		snprintf(out, size, "route=\"%s\",method=\"%s\"", route->pattern, methods[route->method]);
	else
		snprintf(out, size, "route=\"unmatched\",method=\"\"");
}

char *metrics_render(void)
{
	struct text text = {xmalloc(8192), 0, 8192};
	int slots = routes_count() + 1;
	if (slots > MAX_ROUTES + 1)
		slots = MAX_ROUTES + 1;
	char labels[160];
	put(&text, "# HELP catan_http_requests_total HTTP requests by route and status\n");
	put(&text, "# TYPE catan_http_requests_total counter\n");
	for (int slot = 0; slot < slots; slot++) {
		route_labels(slot, labels, sizeof labels);
		for (int s = 0; s < STATUS_SLOTS; s++) {
			uint64_t count = atomic_load_explicit(&request_counts[slot][s], memory_order_relaxed);
			if (!count)
				continue;
			if (s < STATUS_SLOTS - 1)
				put(&text, "catan_http_requests_total{%s,status=\"%d\"} %llu\n", labels, status_slots[s],
				    (unsigned long long)count);
			else
				put(&text, "catan_http_requests_total{%s,status=\"other\"} %llu\n", labels,
				    (unsigned long long)count);
		}
	}
	put(&text, "# HELP catan_http_request_duration_seconds HTTP request latency by route\n");
	put(&text, "# TYPE catan_http_request_duration_seconds histogram\n");
	for (int slot = 0; slot < slots; slot++) {
		uint64_t count = atomic_load_explicit(&latency_count[slot], memory_order_relaxed);
		if (!count)
			continue;
		route_labels(slot, labels, sizeof labels);
		for (int b = 0; b < BUCKETS; b++)
			put(&text, "catan_http_request_duration_seconds_bucket{%s,le=\"%g\"} %llu\n", labels, bucket_bounds[b],
			    (unsigned long long)atomic_load_explicit(&latency_buckets[slot][b], memory_order_relaxed));
		put(&text, "catan_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %llu\n", labels,
		    (unsigned long long)count);
		put(&text, "catan_http_request_duration_seconds_sum{%s} %.6f\n", labels,
		    (double)atomic_load_explicit(&latency_sum_us[slot], memory_order_relaxed) / 1e6);
		put(&text, "catan_http_request_duration_seconds_count{%s} %llu\n", labels, (unsigned long long)count);
	}
	for (int c = 0; c < METRICS_COUNTER_COUNT; c++) {
		put(&text, "# HELP %s %s\n# TYPE %s counter\n%s %lld\n", counter_names[c][0], counter_names[c][1],
		    counter_names[c][0], counter_names[c][0],
		    (long long)atomic_load_explicit(&counters[c], memory_order_relaxed));
	}
	for (int g = 0; g < METRICS_GAUGE_COUNT; g++) {
		put(&text, "# HELP %s %s\n# TYPE %s gauge\n%s %lld\n", gauge_names[g][0], gauge_names[g][1],
		    gauge_names[g][0], gauge_names[g][0], (long long)atomic_load_explicit(&gauges[g], memory_order_relaxed));
	}
	return text.data;
}
