/*
 * metrics.c - fixed arrays of atomic counters: requests by (route, status class slot) and
 * a latency histogram per route. Routes and statuses are a closed set, so no allocation
 * or locking happens on the request path. The process's other counters are base/
 * counters.h's; the exposition renders them after these.
 */
#include "http/metrics.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/counters.h"
#include "base/xalloc.h"

#define MAX_ROUTES \
	96 /* at least the route table's rows (62 in api/routes.c): a route past it would be counted as unmatched */
static const int status_slots[] = {200, 201, 204, 400, 401, 403, 404, 405, 409, 412, 413, 415, 422, 429, 500, 503};
#define STATUS_SLOTS ((int)(sizeof status_slots / sizeof status_slots[0]) + 1) /* + other */
static const double bucket_bounds[] = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
#define BUCKETS ((int)(sizeof bucket_bounds / sizeof bucket_bounds[0]))

/* Route slot 0 is "no route matched"; route i is slot i + 1. */
static _Atomic uint64_t request_counts[MAX_ROUTES + 1][STATUS_SLOTS];
static _Atomic uint64_t latency_buckets[MAX_ROUTES + 1][BUCKETS];
static _Atomic uint64_t latency_count[MAX_ROUTES + 1];
static _Atomic uint64_t latency_sum_us[MAX_ROUTES + 1];

/* The routes served (metrics_configure()): their patterns label the figures. */
static const struct router *router;

void metrics_configure(const struct router *served)
{
	router = served;
}

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
	int slot = route && router ? router_index(router, route) + 1 : 0;
	if (slot < 0 || slot > MAX_ROUTES)
		slot = 0;
	atomic_fetch_add_explicit(&request_counts[slot][status_slot(status)], 1, memory_order_relaxed);
	for (int b = 0; b < BUCKETS; b++)
		if (seconds <= bucket_bounds[b])
			atomic_fetch_add_explicit(&latency_buckets[slot][b], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&latency_count[slot], 1, memory_order_relaxed);
	atomic_fetch_add_explicit(&latency_sum_us[slot], (uint64_t)(seconds * 1e6), memory_order_relaxed);
}

static void route_labels(int slot, char *out, size_t size)
{
	static const char *const methods[] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"};
	const struct route *route = slot && router && slot - 1 < router->count ? &router->routes[slot - 1] : NULL;
	if (route)
		snprintf(out, size, "route=\"%s\",method=\"%s\"", route->pattern, methods[route->method]);
	else
		snprintf(out, size, "route=\"unmatched\",method=\"\"");
}

char *metrics_render(void)
{
	struct xtext text = xtext_new();
	int slots = (router ? router->count : 0) + 1;
	if (slots > MAX_ROUTES + 1)
		slots = MAX_ROUTES + 1;
	char labels[160];
	xtext_add(&text, "# HELP catan_http_requests_total HTTP requests by route and status\n");
	xtext_add(&text, "# TYPE catan_http_requests_total counter\n");
	for (int slot = 0; slot < slots; slot++) {
		route_labels(slot, labels, sizeof labels);
		for (int s = 0; s < STATUS_SLOTS; s++) {
			uint64_t count = atomic_load_explicit(&request_counts[slot][s], memory_order_relaxed);
			if (!count)
				continue;
			if (s < STATUS_SLOTS - 1)
				xtext_add(&text, "catan_http_requests_total{%s,status=\"%d\"} %llu\n", labels,
					  status_slots[s], (unsigned long long)count);
			else
				xtext_add(&text, "catan_http_requests_total{%s,status=\"other\"} %llu\n", labels,
					  (unsigned long long)count);
		}
	}
	xtext_add(&text, "# HELP catan_http_request_duration_seconds HTTP request latency by route\n");
	xtext_add(&text, "# TYPE catan_http_request_duration_seconds histogram\n");
	for (int slot = 0; slot < slots; slot++) {
		uint64_t count = atomic_load_explicit(&latency_count[slot], memory_order_relaxed);
		if (!count)
			continue;
		route_labels(slot, labels, sizeof labels);
		for (int b = 0; b < BUCKETS; b++)
			xtext_add(&text, "catan_http_request_duration_seconds_bucket{%s,le=\"%g\"} %llu\n", labels,
				  bucket_bounds[b],
				  (unsigned long long)atomic_load_explicit(&latency_buckets[slot][b],
									   memory_order_relaxed));
		xtext_add(&text, "catan_http_request_duration_seconds_bucket{%s,le=\"+Inf\"} %llu\n", labels,
			  (unsigned long long)count);
		xtext_add(&text, "catan_http_request_duration_seconds_sum{%s} %.6f\n", labels,
			  (double)atomic_load_explicit(&latency_sum_us[slot], memory_order_relaxed) / 1e6);
		xtext_add(&text, "catan_http_request_duration_seconds_count{%s} %llu\n", labels,
			  (unsigned long long)count);
	}
	counters_render(&text);
	return text.data;
}
