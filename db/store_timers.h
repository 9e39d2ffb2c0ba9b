/*
 * store_timers.h - what a game waits for from the server itself (db/migrations/
 * 0002_async.sql): nothing, a deadline, or a bot's move. Every write of a game sets or
 * removes its timer in the write's own transaction (struct store_timer_set, given to the
 * writes of db/store_events.h); any server's worker claims due timers here. Same connection
 * and threading rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_TIMERS_H
#define CATAN_DB_STORE_TIMERS_H

#include <stdint.h>

#include "db/store.h"

/* What a game waits for from the server itself after a write (see db/migrations/
 * 0002_async.sql): nothing (the timer is removed), a deadline, or a bot's move, due
 * `due_ms` milliseconds from the commit. STORE_TIMER_BOT_KEEP is a bot's move that keeps
 * the due time of the game's bot timer when that is sooner (a wait going on across the
 * write: db/migrations/0017_offer_wait.sql); it is stored as a bot timer. Borrowed. */
enum store_timer_kind { STORE_TIMER_NONE = 0, STORE_TIMER_DEADLINE = 1, STORE_TIMER_BOT = 2, STORE_TIMER_BOT_KEEP = 3 };

struct store_timer_set {
	int kind; /* enum store_timer_kind */
	int64_t due_ms;
	/* The write also leaves seat `bank_seat` with `bank_ms` in its time bank (when
	 * `banked`: db/migrations/0030_seat_clocks.sql), in the same transaction. */
	int banked;
	int bank_seat;
	int64_t bank_ms;
};

/* ---- Claiming ------------------------------------------------------------------------------
 * Any server's worker claims due timers; the claim pushes due_at `lease_ms` ahead, so a
 * worker that dies delays the game by the lease only. The append that follows a timer's
 * move sets the game's next timer (or removes it). */

struct store_timer {
	int64_t game_id;
	int32_t version; /* the game's version when the timer was set */
	int kind;	 /* enum store_timer_kind */
	int attempts;	 /* claims so far, this one included */
	int32_t late_ms; /* how long it had been due when claimed (the database's clock) */
};

/* Claim up to `max` due timers into out[0..*count). */
enum store_status store_claim_timers(struct store *store, int max, int lease_ms, struct store_timer *out, int *count);

#endif
