/*
 * store_lobby.h - games that wait for players (db/migrations/0003_players.sql): joining, the
 * admin's seat changes before the start, a waiting game as anyone may see it, the public
 * lobby; and players, an identity across games. A waiting game is created by
 * store_create_waiting_game() (db/store_events.h, beside store_create_game(): both write the
 * same rows). Same connection and threading rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_LOBBY_H
#define CATAN_DB_STORE_LOBBY_H

#include <stdint.h>

#include "db/store.h"

/* ---- Waiting games ------------------------------------------------------------------------ */

/* What a join or an admin's seat change found. */
enum store_seat_outcome {
	STORE_SEAT_DONE = 0,
	STORE_SEAT_NO_GAME = 1,
	STORE_SEAT_WRONG_SECRET = 2, /* the invite (join) or the admin token (change) */
	STORE_SEAT_STARTED = 3,
	STORE_SEAT_FINISHED = 4,
	STORE_SEAT_NONE_OPEN = 5,      /* join: no open seat; change: the seat is not as required */
	STORE_SEAT_ALREADY_SEATED = 6, /* join: the player holds a seat of this game already */
	STORE_SEAT_BOTS_ONLY = 7       /* change: the game would be bots only (0018_bot_seat_gate.sql) */
};

struct store_seat_result {
	int outcome;	 /* enum store_seat_outcome */
	int seat;	 /* the seat taken or changed */
	int32_t version; /* the game's version now: > 0 when this statement started it */
};

/* Take the first open seat of a waiting game (the game's row locked: concurrent joins run
 * one after the other), named `name`, with the seat token hash `token_hash`, bound to
 * `player` (0: none); starts the game
 * when it was the last. Wakes listeners when the game started. */
enum store_status store_join(struct store *store, int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE],
			     const char *name, const uint8_t token_hash[STORE_HASH_SIZE], int64_t player,
			     struct store_seat_result *out);

enum store_seat_action { STORE_SEAT_REMOVE = 1, STORE_SEAT_MAKE_BOT = 2 };

/* The admin's change of `seat` before the start: remove the player who holds it (the seat
 * opens again, its token is forgotten), or make an open seat a bot named `name` (which
 * may start the game). Unless `bots_only_allowed`, making the last seat that is not a bot
 * one is refused (STORE_SEAT_BOTS_ONLY). */
enum store_status store_change_seat(struct store *store, int64_t game_id, const uint8_t admin_hash[STORE_HASH_SIZE],
				    int seat, int action, const char *name, int bots_only_allowed,
				    struct store_seat_result *out);

/* A waiting game as anyone may see it. */
struct store_waiting_game {
	int64_t id;
	int64_t created_at_us;
	int status;
	int public_game;
	int seats;
	char *options;		      /* JSON text */
	char *names[STORE_MAX_SEATS]; /* NULL for an open seat */
	int bots[STORE_MAX_SEATS];
	int open[STORE_MAX_SEATS];
};

void store_waiting_game_free(struct store_waiting_game *game);

/* The waiting game `game_id` (STORE_NOT_FOUND when there is none, or it has started). */
enum store_status store_waiting_game(struct store *store, int64_t game_id, struct store_waiting_game *out);

/* Public waiting games, newest first, strictly after the cursor (created_at_us, id) when
 * `after_id` > 0; at most `limit` into out[] (the caller's array). *count set. The caller
 * frees each with store_waiting_game_free(). */
enum store_status store_lobby(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
			      struct store_waiting_game *out, int *count);

/* ---- Players (0003_players.sql) ------------------------------------------------------------
 * An identity across games: a name and a token (stored as its hash). A seat bound to a
 * player answers to the player's token as to its own (store_find_token()). */

struct store_player {
	int64_t id;
	char name[161];
};

/* A new player with a random id (*id). */
enum store_status store_player_create(struct store *store, const char *name, const uint8_t token_hash[STORE_HASH_SIZE],
				      int64_t *id);

/* The player whose token has this hash, or STORE_NOT_FOUND. */
enum store_status store_player_by_token(struct store *store, const uint8_t token_hash[STORE_HASH_SIZE],
					struct store_player *out);

/* Player `id`, or STORE_NOT_FOUND. */
enum store_status store_player_get(struct store *store, int64_t id, struct store_player *out);

/* ---- Replacing a token that leaked (0015_token_rotation.sql) -------------------------------
 * One statement each; its transaction notifies catan_events with '<game>:t' for every game
 * whose cached token lookups it makes stale (db/listener.h: LISTENER_TOKENS). */

/* Seat `seat` of game `game_id` gets the token of hash `token_hash`: STORE_OK, or
 * STORE_NOT_FOUND when the seat has no token (a bot's seat, no such seat or game). */
enum store_status store_replace_seat_token(struct store *store, int64_t game_id, int seat,
					   const uint8_t token_hash[STORE_HASH_SIZE]);

/* Player `player`, whose token has hash `old_hash`, gets the token of hash `new_hash`:
 * STORE_OK, or STORE_NOT_FOUND when `old_hash` is not the player's token (any more). */
enum store_status store_replace_player_token(struct store *store, int64_t player,
					     const uint8_t old_hash[STORE_HASH_SIZE],
					     const uint8_t new_hash[STORE_HASH_SIZE]);

/* A game seat of a player. */
struct store_player_seat {
	int64_t game_id;
	int seat;
	int status; /* games.status */
};

/* The player's seats, at most `max` into out[], ordered by game id. *count set. */
enum store_status store_player_games(struct store *store, int64_t player, int max, struct store_player_seat *out,
				     int *count);
/* A player's seat with what lists of the player's games sort by. */
struct store_player_game {
	struct store_player_seat seat;
	int64_t created_at_us;	  /* the game's creation */
	int64_t last_event_at_us; /* its last event's time; 0: no event yet (waiting) */
	int64_t deadline_us;	  /* when its current wait times out; 0: none */
};

/* store_player_games() with those times, in one statement. */
enum store_status store_player_game_summaries(struct store *store, int64_t player, int max,
					      struct store_player_game *out, int *count);

#endif
