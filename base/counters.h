/*
 * counters.h - the process's counters and gauges: one X-macro table gives each its enum
 * constant, its Prometheus name and its help text, so a counter cannot exist without its
 * name nor a name without its counter. Every library counts here (the HTTP server's
 * connections, the delivery threads, the workers, the game service's hooks) and
 * GET /metrics renders them (counters_render(), after the HTTP server's own per-route
 * request figures, http/metrics.h).
 *
 * Updates are lock-free (C11 atomics, relaxed): a counter is a figure for an operator,
 * never a value any code decides on. Every server process has its own.
 */
#ifndef CATAN_BASE_COUNTERS_H
#define CATAN_BASE_COUNTERS_H

#include "base/xalloc.h"

/* X(name, metric, help): counters, which only grow. */
#define COUNTERS_TABLE(X)                                                                                              \
	X(GAMES_CREATED, "catan_games_created_total", "Games created")                                                 \
	X(EVENTS_APPENDED, "catan_events_appended_total", "Events appended to game logs")                              \
	X(APPEND_CONFLICTS, "catan_append_conflicts_total", "Appends that lost a race for the next version")           \
	X(DATABASE_ERRORS, "catan_database_errors_total", "Database operations that failed (unavailable or error)")    \
	X(RATE_LIMITED, "catan_rate_limited_total", "Requests refused by the rate limit")                              \
	X(WEBHOOK_DELIVERED, "catan_webhook_deliveries_total", "Webhook deliveries acknowledged by the receiver")      \
	X(WEBHOOK_FAILED, "catan_webhook_failures_total", "Webhook delivery attempts that failed")                     \
	X(DEADLINES_FIRED, "catan_deadlines_fired_total", "Turn deadlines that expired into a default move")           \
	X(BOT_MOVES, "catan_bot_moves_total", "Moves made by server-side bots")                                        \
	X(CONNECTIONS_SHED, "catan_connections_shed_total",                                                            \
	  "Connections owing their request closed to keep capacity free for new ones")                                 \
	X(CONNECTIONS_TIMED_OUT, "catan_connections_timed_out_total",                                                  \
	  "Connections closed for not delivering a request in time")                                                   \
	X(WAITING_REFUSED, "catan_waiting_refused_total", "Long-polls and streams refused because too many were open") \
	X(WAITERS_DEPARTED, "catan_waiters_departed_total",                                                            \
	  "Parked long-polls and streams ended because their client had gone")                                         \
	X(BACKGROUND_RETRIES, "catan_background_retries_total",                                                        \
	  "Database calls of background threads that failed and were retried later")                                   \
	X(READS_CACHED, "catan_game_reads_cached_total",                                                               \
	  "Reads of a game answered from the process cache without a database statement")                              \
	X(READS_CAUGHT_UP, "catan_game_reads_caught_up_total",                                                         \
	  "Reads of a game that read the log's tail (the cache not known to be current)")

/* X(name, metric, help): gauges, which go up and down. */
#define COUNTERS_GAUGE_TABLE(X)                                                       \
	X(WAITERS, "catan_long_poll_waiters", "Long-poll requests currently waiting") \
	X(STREAMS, "catan_streams", "Event streams currently open")                   \
	X(CONNECTIONS, "catan_connections", "Connections currently open")             \
	X(BACKING_OFF, "catan_background_backing_off",                                \
	  "Background threads whose last database call failed (waiting to retry)")

enum counters_counter {
#define COUNTERS_ENUM(name, metric, help) COUNTERS_##name,
	COUNTERS_TABLE(COUNTERS_ENUM)
#undef COUNTERS_ENUM
		COUNTERS_COUNT
};

enum counters_gauge {
#define COUNTERS_GAUGE_ENUM(name, metric, help) COUNTERS_GAUGE_##name,
	COUNTERS_GAUGE_TABLE(COUNTERS_GAUGE_ENUM)
#undef COUNTERS_GAUGE_ENUM
		COUNTERS_GAUGE_COUNT
};

void counters_add(enum counters_counter counter, long amount);
void counters_gauge_add(enum counters_gauge gauge, long delta);

/* The value now (for tests and the render). */
long long counters_value(enum counters_counter counter);
long long counters_gauge_value(enum counters_gauge gauge);

/* Append every counter, then every gauge, in the Prometheus text format (HELP, TYPE and
 * the value) to `text`. */
void counters_render(struct xtext *text);

#endif
