/*
 * arena.h - games between bot seats (bot.h) and random players (playout.h), for the
 * `catan bots` figures and the bot tests.
 *
 * The arena decides who moves next the way a server with bot seats would: first any
 * inactive seat that owes an answer to an open offer addressed to it, then the seats the
 * game waits for (legal_waiting_for(): the active seat, or the seats owing a discard, in
 * seat order). A bot seat moves by bot_choose() on its own view; a random seat moves
 * uniformly among its legal moves, never making domestic offers itself (it answers them
 * at random). The caller owns the state and applies the move with rules_decide().
 */
#ifndef CATAN_ENGINE_ARENA_H
#define CATAN_ENGINE_ARENA_H

#include <stdint.h>

#include "command.h"
#include "game.h"
#include "rng.h"

/* The seat that should move next in *game, or -1 when the game is over. */
int arena_mover(const struct game *game);

/* Choose the next move: *seat and *command are set and 1 returned; 0 when no one can move.
 * `bots` is a seat mask (bit s: seat s is a bot). `scratch` is caller-owned room for
 * LEGAL_MOVES_MAX commands. */
int arena_choose(const struct game *game, uint8_t bots, struct rng *rng, struct command *scratch, int *seat,
		 struct command *command);

#endif
