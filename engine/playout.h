/*
 * playout.h - random legal play: pick a uniformly random move among the legal moves of the
 * seats the game waits for, with templates filled in at random. Used by `catan sim`, the
 * property tests, the store and API tests, and as the fallback of bots.
 */
#ifndef CATAN_ENGINE_PLAYOUT_H
#define CATAN_ENGINE_PLAYOUT_H

#include "command.h"
#include "game.h"
#include "rng.h"

struct playout_options {
	int trades; /* 1: the active player may make domestic offers and others answer them */
};

/* Choose a move for *game: *seat and *command are set and 1 returned; 0 when no one can
 * move (the game is over). `scratch` is caller-owned room for LEGAL_MOVES_MAX commands. */
int playout_choose(const struct game *game, const struct playout_options *options, struct rng *rng,
		   struct command *scratch, int *seat, struct command *command);

/* Fill a template move (discard, offer, manual roll) with a random concrete choice that
 * rules_decide() accepts; other moves are left as they are. */
void playout_fill_template(const struct game *game, int seat, struct command *command, struct rng *rng);

#endif
