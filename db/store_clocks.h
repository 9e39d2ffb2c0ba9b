/*
 * store_clocks.h - the seats' correspondence clocks (db/migrations/0030_seat_clocks.sql):
 * what is left of each seat's time bank and its quiet hours, read with the time the game's
 * current wait began; quiet hours set and cleared. A bank is written only with the move
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

/* The clocks of every seat of game `game_id` and the time of its event `version`.
 * STORE_NOT_FOUND: no such game or version. */
enum store_status store_read_clocks(struct store *store, int64_t game_id, int32_t version, struct store_clocks *out);

/* Set (zone non-NULL) or clear (zone NULL) the quiet hours of `seat`; and, when the game's
 * timer is a deadline set at `version`, move it to due_us (microseconds since 1970; 0:
 * leave it). *found 0 when there is no such seat. */
enum store_status store_set_quiet_hours(struct store *store, int64_t game_id, int seat, const char *zone, int from_min,
					int to_min, int32_t version, int64_t due_us, int *found);

#endif
