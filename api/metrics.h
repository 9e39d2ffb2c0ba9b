/*
 * metrics.h - process-wide counters and histograms, rendered in the Prometheus text format
 * at GET /metrics. Updates are lock-free (C11 atomics); every server process has its own.
 */
#ifndef CATAN_API_METRICS_H
#define CATAN_API_METRICS_H

#include "api/http.h"

struct route;

enum metrics_counter {
	METRICS_GAMES_CREATED,
	METRICS_EVENTS_APPENDED,
	METRICS_APPEND_CONFLICTS,
	METRICS_DATABASE_ERRORS,
	METRICS_RATE_LIMITED,
	METRICS_WEBHOOK_DELIVERED,
	METRICS_WEBHOOK_FAILED,
	METRICS_DEADLINES_FIRED,
	METRICS_BOT_MOVES,
	METRICS_CONNECTIONS_SHED,
	METRICS_CONNECTIONS_TIMED_OUT,
	METRICS_WAITING_REFUSED,
	METRICS_WAITERS_DEPARTED,
	METRICS_BACKGROUND_RETRIES,
	METRICS_COUNTER_COUNT
};

enum metrics_gauge { METRICS_WAITERS, METRICS_STREAMS, METRICS_CONNECTIONS, METRICS_BACKING_OFF, METRICS_GAUGE_COUNT };

/* One finished request: its route (NULL when none matched), method, status and duration. */
void metrics_observe_request(const struct route *route, enum http_method method, int status, double seconds);

void metrics_add(enum metrics_counter counter, long amount);
void metrics_gauge_add(enum metrics_gauge gauge, long delta);

/* The exposition text; caller frees. */
char *metrics_render(void);

#endif
