/*
 * ratings.h - rated games (issue 28): a finished rated game's ranks, the multiplayer Elo
 * that moves its players' ratings, the thread that applies results after the games end,
 * and a player's public profile. Free of HTTP, like game/play.h.
 *
 * The formula (README "Ratings", the contract's Player): the players of a rated game are
 * ranked from its log: a seat that resigned (a `resigned` event) is last, the winner (the
 * seat of `game_won`) first, every other seat by its final points (hidden victory point
 * cards included); equal keys share a rank (resigned seats among themselves, too). Each
 * pair of players is a 1v1 result: 1 to the better rank, 0.5 each for the same rank. With
 * n players and ratings R before the game (every rating starts at 1200):
 *
 *     E(i, j) = 1 / (1 + 10^((R_j - R_i) / 400))
 *     R_i' = R_i + K_i / (n - 1) * sum over j != i, by seat, of (S(i, j) - E(i, j))
 *
 * K_i is 40 while player i has played fewer than 10 rated games, then 32. Ratings are
 * doubles, kept as computed (never rounded), so the same logs give the same values.
 *
 * Results are applied after the games end, one at a time, in the order the games ended
 * (ties by game id), from rows written by the ending transaction (db/store_ratings.h): a
 * result is applied exactly once however many servers run the thread.
 */
#ifndef CATAN_GAME_RATINGS_H
#define CATAN_GAME_RATINGS_H

#include <stdint.h>

#include "db/store_lobby.h"
#include "db/store_ratings.h"
#include "engine/game.h"

#define RATINGS_K 32.0
#define RATINGS_K_NEW 40.0
#define RATINGS_NEW_GAMES 10 /* rated games played before K drops to RATINGS_K */
#define RATINGS_RELIABILITY_GAMES 20

/* The ranks (1 best) of the seats of the finished game `state`; `resigned` a mask of the
 * seats that resigned. */
void ratings_ranks(const struct game *state, unsigned resigned, int ranks[GAME_MAX_SEATS]);

/* The formula above for `count` players: before[i], rated_games[i] (games played before
 * this one), ranks[i] (1 best) -> after[i]. */
void ratings_elo(int count, const double *before, const int32_t *rated_games, const int *ranks, double *after);

/* The seats of game `game_id` (at `version`) that resigned, from its log, as a mask. */
enum store_status ratings_resigned_seats(int64_t game_id, int32_t version, unsigned *resigned);

/* Apply the pending results there are (in order) now; the number applied. A result that
 * cannot be applied (its game unreadable) stops the run: *status says why. */
int ratings_work(enum store_status *status);

/* Start and stop the thread that applies results as games end (every server runs one). */
void ratings_start(void);
void ratings_stop(void);

/* Player `id`'s public profile (STORE_NOT_FOUND when none). */
enum store_status ratings_profile(int64_t id, struct store_player_profile *out);

/* A page of the public lobby within the rating band band[0]..band[1] (store_lobby_band()). */
enum store_status ratings_lobby(int64_t after_created_us, int64_t after_id, int limit, const double band[2],
				struct store_waiting_game *out, int *count);

#endif
