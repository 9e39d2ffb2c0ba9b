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
	  "Reads of a game that read the log's tail (the cache not known to be current)")                              \
	X(READS_STANDBY, "catan_reads_standby_total", "Reads answered by a hot standby (DATABASE_READ_URL)")           \
	X(READS_STANDBY_FALLBACK, "catan_reads_standby_fallback_total",                                                \
	  "Reads meant for the standby answered by the primary (standby behind, down or failing)")

/* X(name, metric, help): gauges, which go up and down. */
#define COUNTERS_GAUGE_TABLE(X)                                                       \
	X(WAITERS, "catan_long_poll_waiters", "Long-poll requests currently waiting") \
	X(STREAMS, "catan_streams", "Event streams currently open")                   \
	X(CONNECTIONS, "catan_connections", "Connections currently open")             \
	X(BACKING_OFF, "catan_background_backing_off",                                \
	  "Background threads whose last database call failed (waiting to retry)")

/* X(name, metric, help): histograms of durations in seconds, each in the buckets of
 * counters_bucket_bounds (cumulative, as Prometheus reads them). */
#define COUNTERS_HISTOGRAM_TABLE(X)                                                                           \
	X(BOT_MOVE_LATENESS, "catan_bot_move_lateness_seconds",                                               \
	  "Seconds from a server bot's move falling due (its game's timer, or its previous move in a chain) " \
	  "to the move stored")

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

enum counters_histogram {
#define COUNTERS_HISTOGRAM_ENUM(name, metric, help) COUNTERS_HISTOGRAM_##name,
	COUNTERS_HISTOGRAM_TABLE(COUNTERS_HISTOGRAM_ENUM)
#undef COUNTERS_HISTOGRAM_ENUM
		COUNTERS_HISTOGRAM_COUNT
};

/* The histograms' upper bounds in seconds, ascending (a last bucket, +Inf, holds the rest). */
#define COUNTERS_BUCKETS 12
extern const double counters_bucket_bounds[COUNTERS_BUCKETS];

void counters_add(enum counters_counter counter, long amount);
/* Count one duration of `seconds` (negative counts as 0). */
void counters_observe(enum counters_histogram histogram, double seconds);
void counters_gauge_add(enum counters_gauge gauge, long delta);

/* The value now (for tests and the render). */
long long counters_value(enum counters_counter counter);
long long counters_gauge_value(enum counters_gauge gauge);
/* Observations so far, and of those the ones of at most counters_bucket_bounds[bucket]. */
long long counters_histogram_count(enum counters_histogram histogram);
long long counters_histogram_bucket(enum counters_histogram histogram, int bucket);

/* Append every counter, then every gauge, then every histogram in the Prometheus text
 * format (HELP, TYPE and the values) to `text`. */
void counters_render(struct xtext *text);

#endif
