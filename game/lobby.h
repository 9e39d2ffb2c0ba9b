/*
 * lobby.h - games that wait for players: open seats, invitations, joining, the admin's
 * seat changes before the start, and the public lobby. Free of HTTP, like game/play.h.
 *
 * A game created with open seats is stored as waiting (db/migrations/0003_players.sql):
 * its seats and options, and the events its start appends, decided now by the same
 * rules_start() as a game created full (from the options and the secret seed, which never
 * depend on who sits where). It has no events and version 0 until its last open seat is
 * taken: the statement that takes it (a join, or the admin making it a bot) appends them
 * in its own transaction and sets the timer, so the game starts exactly as if it had been
 * created full at that moment. Until then play_load() answers STORE_NOT_STARTED and every
 * game route refuses it; lobby_waiting() is what may be read of it.
 *
 * Ownership: everything passed in is borrowed for the call; results go to the caller's
 * structs (store_waiting_game_free() for those that hold strings).
 */
#ifndef CATAN_GAME_LOBBY_H
#define CATAN_GAME_LOBBY_H

#include <stdint.h>

#include "db/store_lobby.h"
#include "db/store_ratings.h"
#include "engine/error.h"
#include "game/play.h"

#define LOBBY_PAGE_MAX 100

struct lobby_new_game {
	const struct play_new_game *game; /* as for play_create(); open seats' names ignored */
	int open[GAME_MAX_SEATS];
	int public_game;
	const uint8_t *invite_hash; /* STORE_HASH_SIZE bytes */
};

/* Create a waiting game: ERROR_OK with *id set, or the rules' refusal of the options
 * (*status STORE_OK), or ERROR_OK with *status telling why it was not stored. */
enum error lobby_create(const struct lobby_new_game *new_game, int64_t *id, enum store_status *status);

/* Take the first open seat (store_join()), bound to `player` (0: none), keeping
 * `player_seed` (NULL: none) for the start's player_seed_set event; tells play's hooks
 * when the game started. */
enum store_status lobby_join(int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE], const char *name,
			     const uint8_t token_hash[STORE_HASH_SIZE], int64_t player, const char *player_seed,
			     struct store_seat_result *out);

/* ---- Players (an identity across games) ---- */

/* A new player named `name` whose token has hash `token_hash`: *id. */
enum store_status lobby_player_create(const char *name, const uint8_t token_hash[STORE_HASH_SIZE], int64_t *id);

/* The player of a token (STORE_NOT_FOUND when none). */
enum store_status lobby_player_by_token(const uint8_t token_hash[STORE_HASH_SIZE], struct store_player *out);

/* Player `id` (STORE_NOT_FOUND when none). */
enum store_status lobby_player_get(int64_t id, struct store_player *out);

/* Player `player`, whose token has hash `old_hash`, gets the token of hash `new_hash`
 * (store_replace_player_token()): the old one stops at once, here and on every server
 * (play_forget_tokens()). STORE_NOT_FOUND when `old_hash` is no longer the player's. */
enum store_status lobby_player_replace_token(int64_t player, const uint8_t old_hash[STORE_HASH_SIZE],
					     const uint8_t new_hash[STORE_HASH_SIZE]);
/* Deleting a player (issue 28): what identifies it goes (store_player_delete()): its name
 * becomes LOBBY_FORMER_PLAYER here and in every seat it held, its token stops working at
 * once on every server (play_forget_tokens()), its webhooks and mail registrations go.
 * STORE_NOT_FOUND when `token_hash` is no longer the player's. */
#define LOBBY_FORMER_PLAYER "Former player"
enum store_status lobby_player_delete(int64_t player, const uint8_t token_hash[STORE_HASH_SIZE]);

/* The players of game `game_id`'s seats (0: a seat without one). */
enum store_status lobby_seat_players(int64_t game_id, int64_t players[GAME_MAX_SEATS]);

/* A rematch of a finished game, made once (store_rematch_claim(), store_rematch_done()). */
enum store_status lobby_rematch_claim(int64_t game_id, int *claimed, int64_t *rematch_id);
enum store_status lobby_rematch_done(int64_t game_id, int64_t rematch_id);

/* The player's seats, at most `max`, by game id (store_player_games()). */
enum store_status lobby_player_seats(int64_t player_id, int max, struct store_player_seat *out, int *count);

/* The player's seats with what lists of the player's games sort by (creation, last event,
 * deadline), at most `max` (store_player_game_summaries()). */
enum store_status lobby_player_games(int64_t player_id, int max, struct store_player_game *out, int *count);

/* The admin's change of a seat before the start (store_change_seat()): unless
 * `bots_only_allowed` (the server admits games of bots only), the last seat that is not a
 * bot may not be given to one (STORE_SEAT_BOTS_ONLY). */
enum store_status lobby_change_seat(int64_t game_id, const uint8_t admin_hash[STORE_HASH_SIZE], int seat, int action,
				    const char *name, int bots_only_allowed, struct store_seat_result *out);

/* A started game's holiday time per seat in the last 365 days, and its allowance
 * (store_holidays()). */
enum store_status lobby_holidays(int64_t game_id, int64_t used_s[STORE_MAX_SEATS], int64_t *allowance_s, int *seats);

/* A waiting game (STORE_NOT_FOUND when none, or started). */
enum store_status lobby_waiting(int64_t game_id, struct store_waiting_game *out);

/* A page of the public lobby (store_lobby()); limit 1..LOBBY_PAGE_MAX. */
enum store_status lobby_list(int64_t after_created_us, int64_t after_id, int limit, struct store_waiting_game *out,
			     int *count);

#endif
