/*
 * metrics.h - the requests' counts and latency histograms by route, rendered with the
 * process's counters (base/counters.h) in the Prometheus text format at GET /metrics.
 * Updates are lock-free (C11 atomics); every server process has its own.
 */
#ifndef CATAN_API_METRICS_H
#define CATAN_API_METRICS_H

#include "api/http.h"

struct route;

/* One finished request: its route (NULL when none matched), method, status and duration. */
void metrics_observe_request(const struct route *route, enum http_method method, int status, double seconds);

/* The exposition text: these request figures, then base/counters.h's; caller frees. */
char *metrics_render(void);

#endif
