/*
 * metrics.h - the requests' counts and latency histograms by route, rendered with the
 * process's counters (base/counters.h) in the Prometheus text format at GET /metrics.
 * Updates are lock-free (C11 atomics); every server process has its own.
 */
#ifndef CATAN_HTTP_METRICS_H
#define CATAN_HTTP_METRICS_H

#include "http/router.h"

/* The routes whose requests are counted (http_start() calls it; borrowed). */
void metrics_configure(const struct router *router);

/* One finished request: its route (NULL when none matched), method, status and duration. */
void metrics_observe_request(const struct route *route, enum http_method method, int status, double seconds);

/* The exposition text: these request figures, then base/counters.h's; caller frees. */
char *metrics_render(void);

#endif
