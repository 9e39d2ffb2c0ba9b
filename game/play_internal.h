/*
 * play_internal.h - what the modules of game/ share and nothing above them sees: this
 * thread's store connection. The floors above reach the store only through game/'s
 * functions (scripts/check-layers.sh refuses this header outside game/, and any include of
 * db/ from http/, deliver/ or api/), so every SQL statement a request, a worker or a
 * delivery causes is one a function of game/ names.
 */
#ifndef CATAN_GAME_PLAY_INTERNAL_H
#define CATAN_GAME_PLAY_INTERNAL_H

#include <stdint.h>

#include "db/store.h"
#include "game/play.h"

/* This thread's store (opened on first use, with the service's notifier; closed when the
 * thread ends). Borrowed: valid for the thread's life. */
struct store *play_thread_store(void);

/* This thread's store of reads a standby may answer (DATABASE_READ_URL:
 * play_set_read_url(), game/play_standby.c), or NULL when none is configured. */
struct store *play__read_store(void);

/* The game from `store`: the cached copy brought up to the last version `store` has (so
 * never older than the cache's copy), or a full load on a miss (writing no snapshot); kept
 * in the cache when newer (play.c). */
struct game_record;
enum store_status play__load_from(struct store *store, int64_t game_id, struct game_record *out);

/* The lobby's page (store_lobby()) from the read store, or from the primary when there is
 * none or it fails (game/lobby.c). */
struct store_waiting_game;
enum store_status play__lobby_standby(int64_t after_created_us, int64_t after_id, int limit,
				      struct store_waiting_game *out, int *count);

/* A change of who plays a seat, with its event (which the rules ignore): who plays the seat
 * after it, and the write that checks and stores the seat, the event and the timer in one
 * statement (*status STORE_CONFLICT when a move took the version first: decided again). */
struct store_timer_set;
struct play_seat_change {
	int event_type; /* enum event_type */
	int bot;	/* the server's bot plays the seat after the change */
	int away;
	enum play_away (*write)(const struct play_seat_change *change, struct game_record *game, int seat,
				const char *payload, const struct store_timer_set *timer, enum store_status *status);
	const void *context; /* the write's own */
};

/* Make `change` to seat `seat` of `game` on its latest version (play.c): holidays,
 * resigning, leaving and substitutes (game/substitutes.c). PLAY_AWAY_DONE with *version the
 * game's new version and `game` brought up to it, or why not. */
enum play_away play__change_seat(struct game_record *game, int seat, const struct play_seat_change *change,
				 long *version, enum store_status *status);

#endif
