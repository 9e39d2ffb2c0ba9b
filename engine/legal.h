/*
 * legal.h - the moves a seat can make right now, consistent with rules_decide(): every
 * listed move is accepted as listed, and a move that is not listed is refused.
 *
 * Two moves need the mover's choice among too many combinations to list, so they appear
 * once as a template (command.is_template = 1): a discard (count = cards owed; any
 * cards of the seat's hand adding up to count are accepted) and a domestic trade offer
 * (any offer the seat can cover). A roll in a manual-dice game is a template too (any
 * dice 1..6 are accepted).
 */
#ifndef CATAN_ENGINE_LEGAL_H
#define CATAN_ENGINE_LEGAL_H

#include <stdint.h>

#include "command.h"
#include "game.h"

/* Enough for any position: the largest lists are road-building pairs. */
#define LEGAL_MOVES_MAX 4096

/* Write the legal moves of `seat` into moves[0..capacity) and return how many there are
 * (which may exceed capacity: then only the first `capacity` were written). */
int legal_moves(const struct game *game, int seat, struct command *moves, int capacity);

/* legal_moves() without the offer template (COMMAND_OFFER_TRADE), in the same order: for
 * random play that makes no domestic offers, without listing one to drop it. */
int legal_moves_except_offers(const struct game *game, int seat, struct command *moves, int capacity);

/* Seats the game is waiting for: the active player, or every seat owing a discard. A mask;
 * 0 when the game is over. Inactive seats may still answer offers in the main phase. */
uint8_t legal_waiting_for(const struct game *game);

#endif
