/*
 * games.h - random games played decision by decision, for the store tests and the store
 * benchmark: each step is one seat's random legal move (engine/playout.h) decided by the
 * engine, i.e. exactly what the API appends for one request.
 */
#ifndef CATAN_TESTS_DB_GAMES_H
#define CATAN_TESTS_DB_GAMES_H

#include <stdint.h>

#include "engine/command.h"
#include "engine/event.h"
#include "engine/game.h"
#include "engine/rng.h"

struct test_game {
	struct game state; /* the live state */
	uint64_t seed;     /* the game's secret seed */
	struct rng chooser;
	struct command *scratch; /* room for the legal moves */
	int trades;              /* 1 (the default): domestic offers and answers are played too */
};

/* Start a game of `seats` seats from `seed` (default options, random layout when `seed` is
 * odd): *created holds rules_create()'s events, applied to game->state. Free with
 * test_game_free(). */
void test_game_start(struct test_game *game, uint64_t seed, int seats, struct event_list *created);

/* Take over a state loaded from the store: the next moves are drawn from `seed` and the
 * state's version, so a continued game does not depend on the process that began it. */
void test_game_resume(struct test_game *game, const struct game *state, uint64_t seed);

/* Play one decision: *before is the state it was decided on (game->state beforehand), *seat
 * the seat that moved and *events what it produced (applied to game->state). Returns 0 when
 * the game is over. */
int test_game_step(struct test_game *game, struct game *before, int *seat, struct event_list *events);

void test_game_free(struct test_game *game);

#endif
