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

/* The seat that should move next in *game, or -1 when the game is over; *trade is the
 * offer it answers (arena_answering_seat()), or 0 when it moves for the game. */
int arena_mover(const struct game *game, int *trade);

/* Choose the next move: *seat and *command are set and 1 returned; 0 when no one can move.
 * `bots` is a seat mask (bit s: seat s is a bot). `scratch` is caller-owned room for
 * LEGAL_MOVES_MAX commands. */
int arena_choose(const struct game *game, uint8_t bots, struct rng *rng, struct command *scratch, int *seat,
		 struct command *command);

/* An inactive seat that owes an answer to an open offer, its offer id in *trade; or -1
 * (answers come before the seats the game waits for). */
int arena_answering_seat(const struct game *game, int *trade);

/* A random seat's move: uniformly among `moves` (its legal moves, count of them; reordered)
 * without domestic offers, or, when it owes an answer to offer `trade` (not 0), accepting or
 * declining it; templates filled. 1 and *command set, or 0 when there is none. */
int arena_random_move(const struct game *game, int mover, int trade, struct command *moves, int count, struct rng *rng,
		      struct command *command);

#endif
