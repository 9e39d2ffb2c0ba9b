/*
 * store_clocks.h - the seats' correspondence clocks (db/migrations/0030_seat_clocks.sql):
 * what is left of each seat's time bank and its quiet hours, read with the time the game's
 * current wait began; quiet hours set and cleared (an event of the log each). A bank is written only with the move
 * that changed it (store_timer_set.banked, db/store_events.h). Same connection and
 * threading rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_CLOCKS_H
#define CATAN_DB_STORE_CLOCKS_H

#include <stdint.h>

#include "db/store.h"

#define STORE_ZONE_NAME_SIZE 64

struct store_seat_clock {
	int64_t bank_ms; /* -1: the whole bank, never spent */
	int quiet;	 /* 0: no quiet hours */
	char zone[STORE_ZONE_NAME_SIZE];
	int from_min, to_min;
};

struct store_clocks {
	int64_t since_us; /* when event `version` was written: the current wait's start */
	int seats;
	struct store_seat_clock seat[8];
};

/* The event types that begin no wait (the quiet hours' own): the wait's start is the time of
 * the last event of another type. */
#define STORE_WAIT_SKIP_MAX 4
struct store_wait_skip {
	int count;
	int types[STORE_WAIT_SKIP_MAX];
};

/* The clocks of every seat of game `game_id` and the time the wait at `version` began: of
 * the last event at or before it whose type is not one of `skip` (NULL: none skipped).
 * STORE_NOT_FOUND: no such game or version. */
enum store_status store_read_clocks(struct store *store, int64_t game_id, int32_t version,
				    const struct store_wait_skip *skip, struct store_clocks *out);

/* Set (zone non-NULL) or clear (zone NULL) the quiet hours of `seat` with `event` (its
 * quiet_hours_set or quiet_hours_cleared, the seat its actor) appended at `version`, in one
 * transaction: the game's timer set at `version` is carried to the new version and, when
 * it is a deadline and due_us is not 0, moved to due_us (microseconds since 1970).
 * STORE_CONFLICT: the version is taken (decide again). *found 0 when there is no such seat
 * (nothing changed). */
struct store_event;
enum store_status store_set_quiet_hours(struct store *store, int64_t game_id, int seat, const char *zone, int from_min,
					int to_min, int32_t version, const struct store_event *event, int64_t due_us,
					int *found);

#endif
