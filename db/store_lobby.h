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
	STORE_SEAT_BOTS_ONLY = 7,      /* change: the game would be bots only (0018_bot_seat_gate.sql) */
	STORE_SEAT_EXPIRED = 8	       /* the game expired waiting (0024_correspondence.sql) */
};

struct store_seat_result {
	int outcome;	 /* enum store_seat_outcome */
	int seat;	 /* the seat taken or changed */
	int32_t version; /* the game's version now: > 0 when this statement started it */
};

/* Take the first open seat of a waiting game (the game's row locked: concurrent joins run
 * one after the other), named `name`, with the seat token hash `token_hash`, bound to
 * `player` (0: none), keeping `player_seed` (NULL: none; 0033_join_player_seed.sql: the
 * start writes a player_seed_set event for it); starts the game when it was the last.
 * Wakes listeners when the game started. */
enum store_status store_join(struct store *store, int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE],
			     const char *name, const uint8_t token_hash[STORE_HASH_SIZE], int64_t player,
			     const char *player_seed, struct store_seat_result *out);

enum store_seat_action { STORE_SEAT_REMOVE = 1, STORE_SEAT_MAKE_BOT = 2 };

/* The admin's change of `seat` before the start: remove the player who holds it (the seat
 * opens again, its token is forgotten), or make an open seat a bot named `name` (which
 * may start the game). Unless `bots_only_allowed`, making the last seat that is not a bot
 * one is refused (STORE_SEAT_BOTS_ONLY). */
enum store_status store_change_seat(struct store *store, int64_t game_id, const uint8_t admin_hash[STORE_HASH_SIZE],
				    int seat, int action, const char *name, int bots_only_allowed,
				    struct store_seat_result *out);

/* A waiting game as anyone may see it. */
#define STORE_COMMITMENT_SIZE 32

struct store_waiting_game {
	int64_t id;
	int64_t created_at_us;
	int status;	       /* STORE_STATUS_WAITING, or STORE_STATUS_EXPIRED (store_waiting_game() only) */
	int64_t expired_at_us; /* 0 unless expired */
	int public_game;
	int seats;
	char *options;		      /* JSON text */
	char *names[STORE_MAX_SEATS]; /* NULL for an open seat */
	int bots[STORE_MAX_SEATS];
	int open[STORE_MAX_SEATS];
	int fair; /* provably fair (0031_fairness.sql): commitment is its server seed's SHA-256 */
	uint8_t commitment[STORE_COMMITMENT_SIZE];
};

void store_waiting_game_free(struct store_waiting_game *game);

/* The waiting game `game_id`, or the game that expired waiting (status STORE_STATUS_EXPIRED):
 * STORE_NOT_FOUND when there is none, or it has started. */
enum store_status store_waiting_game(struct store *store, int64_t game_id, struct store_waiting_game *out);

/* Public waiting games, newest first, strictly after the cursor (created_at_us, id) when
 * `after_id` > 0; at most `limit` into out[] (the caller's array). *count set. The caller
 * frees each with store_waiting_game_free(). */
enum store_status store_lobby(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
			      struct store_waiting_game *out, int *count);

/* Public games in play (not waiting, expired or finished) with a seat that needs a
 * substitute (db/migrations/0029_substitutes.sql), newest first, paged as store_lobby();
 * `open` marks the seats that need one, `status` is the game's. */
enum store_status store_lobby_substitutes(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
					  struct store_waiting_game *out, int *count);

/* ---- Holidays' allowance (0024_correspondence.sql) --------------------------------------------
 * Each seat's holiday time of the last 365 days, in seconds, into used_s[0..*seats), and
 * the game's allowance (options.holiday_allowance_s, 10 days when absent). STORE_NOT_FOUND
 * for no game. */
enum store_status store_holidays(struct store *store, int64_t game_id, int64_t used_s[STORE_MAX_SEATS],
				 int64_t *allowance_s, int *seats);

/* ---- Expiry (0024_correspondence.sql) -------------------------------------------------------
 * Games still waiting `age_s` seconds after their creation become expired (status
 * STORE_STATUS_EXPIRED), at most `max` per call, oldest first; their ids into ids[0..*count)
 * (the caller's array). One statement; a game whose row a join holds is left to the next
 * call, and no game is expired twice, whichever servers call it at once. */
enum store_status store_expire_waiting_games(struct store *store, int64_t age_s, int max, int64_t *ids, int *count);

/* store_lobby() of the games whose rating (the mean of their seated players' ratings,
 * 0025_ratings.sql) is within band[0]..band[1]; band NULL: every game. */
enum store_status store_lobby_band(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
				   const double *band, struct store_waiting_game *out, int *count);

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
