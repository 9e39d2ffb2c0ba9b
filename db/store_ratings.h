/*
 * store_ratings.h - rated games' results, players' public profiles, resigning and deleting a
 * player (db/migrations/0025_ratings.sql). Same connection and threading rules as
 * db/store.h; everything passed in is borrowed for the call, results go to the caller's
 * structs.
 *
 * A rated game's end writes a pending row in the ending transaction (a trigger on games);
 * the rating thread (game/ratings.c) takes the oldest with store_rating_next(), reads who
 * sat where with store_rating_seats(), computes, and writes with store_rating_apply(),
 * which applies a result exactly once, in the order games ended, or says why not.
 */
#ifndef CATAN_DB_STORE_RATINGS_H
#define CATAN_DB_STORE_RATINGS_H

#include <stdint.h>

#include "db/store.h"
#include "db/store_timers.h"

#define STORE_RATING_START 1200.0

/* The oldest pending result (ended first, ties by game id): *game_id, or STORE_NOT_FOUND. */
enum store_status store_rating_next(struct store *store, int64_t *game_id);

/* A seat of a rated game bound to a player, with the player's rating now. */
struct store_rating_seat {
	int seat;
	int64_t player_id;
	double rating;
	int32_t rated_games; /* rated games applied before this one */
};

/* The seats of game `game_id` bound to a player, by seat, at most STORE_MAX_SEATS. */
enum store_status store_rating_seats(struct store *store, int64_t game_id, struct store_rating_seat *out, int *count);

/* One player's result of a game. */
struct store_rating_change {
	int seat;
	int64_t player_id;
	double before; /* the rating it was computed from */
	double after;
	int won;
};

enum store_rating_outcome {
	STORE_RATING_APPLIED = 0,
	STORE_RATING_DONE_ALREADY = 1, /* no pending row: applied by someone (or not rated) */
	STORE_RATING_NOT_FIRST = 2,    /* a game that ended earlier is still pending */
	STORE_RATING_STALE = 3	       /* a rating is no longer `before`: read again */
};

/* Apply game `game_id`'s result (catan_rating_apply()): *outcome as above. */
enum store_status store_rating_apply(struct store *store, int64_t game_id, const struct store_rating_change *changes,
				     int count, int *outcome);

/* A player as anyone may see it (GET /v1/players/{id}). */
struct store_player_profile {
	int64_t id;
	char name[161];
	double rating;
	int32_t rated_games;
	int32_t rated_wins;
	int deleted;
	int32_t decisions_made;	     /* over the last 20 games: by the player */
	int32_t decisions_timed_out; /* ... and by the deadline */
};

/* Player `id`'s profile, or STORE_NOT_FOUND. */
enum store_status store_player_profile(struct store *store, int64_t id, struct store_player_profile *out);

/* Delete player `id` whose token has hash `token_hash` (catan_delete_player()): named
 * `name` from now on, its token replaced by `new_hash` (nobody's), its webhooks and mail
 * registrations gone. STORE_NOT_FOUND when the token is not the player's (any more). */
enum store_status store_player_delete(struct store *store, int64_t id, const uint8_t token_hash[STORE_HASH_SIZE],
				      const uint8_t new_hash[STORE_HASH_SIZE], const char *name);

/* The games player `id` has a seat in (at most `max`, by game id) into out[]: *count. */
enum store_status store_player_game_ids(struct store *store, int64_t id, int max, int64_t *out, int *count);

/* What a resignation found. */
enum store_resign_outcome {
	STORE_RESIGN_DONE = 0,
	STORE_RESIGN_NO_SEAT = 1,
	STORE_RESIGN_BOT_SEAT = 2 /* created as a bot, or resigned already */
};

/* Seat `seat` of `game_id` resigns at `version`: it becomes a bot seat, the `resigned` event
 * `event` is appended and the game's timer set to `timer`, in one statement
 * (catan_seat_resign()). STORE_CONFLICT when a move took the version first. */
enum store_status store_seat_resign(struct store *store, int64_t game_id, int seat, int32_t version, int event_type,
				    const char *payload, const struct store_timer_set *timer, int *outcome);

/* The rematch of game `game_id` (games.rematch_id): *claimed 1 when this call claimed the
 * making of it (the caller then makes it and calls store_rematch_done()); else
 * *rematch_id is the rematch made (0: another request is making it now).
 * STORE_NOT_FOUND when there is no such game. */
enum store_status store_rematch_claim(struct store *store, int64_t game_id, int *claimed, int64_t *rematch_id);

/* After a claim: record the rematch made (`rematch_id`), or with 0 give up the claim. */
enum store_status store_rematch_done(struct store *store, int64_t game_id, int64_t rematch_id);

#endif
