/*
 * store_substitutes.h - seats whose player left and the substitutes who take them
 * (db/migrations/0029_substitutes.sql). Same connection and threading rules as db/store.h;
 * everything passed in is borrowed for the call, results go to the caller's out-parameters.
 *
 * Each write is one statement calling one SQL function that locks the seat's row, so what it
 * checks and what it writes (the seat, the event, the timer) are one transaction.
 */
#ifndef CATAN_DB_STORE_SUBSTITUTES_H
#define CATAN_DB_STORE_SUBSTITUTES_H

#include <stdint.h>

#include "db/store.h"
#include "db/store_timers.h"

/* What a release or a substitution found (the SQL functions' outcomes). */
enum store_substitute_outcome {
	STORE_SUBSTITUTE_DONE = 0,
	STORE_SUBSTITUTE_NO_SEAT = 1,
	STORE_SUBSTITUTE_WRONG_INVITE = 2, /* a release: the seat is a bot's already */
	STORE_SUBSTITUTE_NOT_NEEDED = 3,   /* the seat needs no substitute (any more) */
	STORE_SUBSTITUTE_ALREADY_SEATED = 4
};

/* Seat `seat` of `game_id` is released at `version` with origin `origin` (STORE_ORIGIN_*): a
 * bot seat that needs a substitute, with the `seat_released` event and the timer, in one
 * statement (catan_seat_release()). *outcome DONE, NO_SEAT, or WRONG_INVITE for a seat that
 * is a bot's already. STORE_CONFLICT when a move took the version first. */
enum store_status store_seat_release(struct store *store, int64_t game_id, int seat, int32_t version, int origin,
				     int event_type, const char *payload, const struct store_timer_set *timer,
				     int *outcome);

/* Who takes a seat as its substitute. */
struct store_substitute {
	const uint8_t *invite_hash; /* STORE_HASH_SIZE bytes: the seat's substitute invite */
	const uint8_t *token_hash;  /* the substitute's new seat token */
	int64_t player;		    /* the player it is bound to, 0 none */
	const char *name;
};

/* The substitute takes seat `seat` at `version` (catan_seat_substitute()): the new token,
 * name and player, the `seat_substituted` event and the timer; the seat's webhooks go and
 * every server forgets the game's cached tokens. STORE_CONFLICT as above. */
enum store_status store_seat_substitute(struct store *store, int64_t game_id, int seat, int32_t version,
					const struct store_substitute *substitute, int event_type, const char *payload,
					const struct store_timer_set *timer, int *outcome);

/* A new invite (its hash) for the substitute of seat `seat`, replacing any earlier one
 * (catan_substitute_invite()): *outcome DONE, NO_SEAT or NOT_NEEDED. */
enum store_status store_substitute_invite(struct store *store, int64_t game_id, int seat,
					  const uint8_t invite_hash[STORE_HASH_SIZE], int *outcome);

/* The seat whose substitute invite has hash `invite_hash`: STORE_NOT_FOUND when none. */
enum store_status store_substitute_seat_of(struct store *store, int64_t game_id,
					   const uint8_t invite_hash[STORE_HASH_SIZE], int *seat);

/* The seats of `game_id` that need a substitute, and those with an invite out, as masks. */
enum store_status store_substitute_seats(struct store *store, int64_t game_id, unsigned *needed, unsigned *invited);

/* The deadline decided for seat `seat` once more: *count its deadlines in a row since its
 * last event of its own, this one included (catan_seat_timed_out()). */
enum store_status store_seat_timed_out(struct store *store, int64_t game_id, int seat, int *count);

#endif
