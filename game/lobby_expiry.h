/*
 * lobby_expiry.h - waiting games nobody filled end by themselves (issue 28, item 5).
 *
 * One thread per server sweeps the store every few seconds: games still waiting for
 * players `age_s` seconds after their creation become expired (db/migrations/
 * 0024_correspondence.sql): their view says `status: "expired"` and `expired_at`, joins and
 * seat changes are refused (game_expired), and the lobby no longer lists them. The sweep
 * is one statement, safe on any number of servers at once; each game it expires is logged
 * ("waiting game expired") by the server whose sweep did it.
 */
#ifndef CATAN_GAME_LOBBY_EXPIRY_H
#define CATAN_GAME_LOBBY_EXPIRY_H

#include <stdint.h>

/* Start the sweep for games waiting longer than `age_s` seconds (0: no sweep, no thread).
 * Sweeps every age_s / 4, between 1 and 60 seconds apart. */
void lobby_expiry_start(int64_t age_s);

/* One sweep now on this thread's connection: expired games counted into *count (may be
 * NULL). Returns 1 when the store answered. */
int lobby_expiry_sweep(int64_t age_s, int *count);

/* Stop the thread (after its current sweep). */
void lobby_expiry_stop(void);

#endif
