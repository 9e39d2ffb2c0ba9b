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

/* legal_moves_except_offers()'s list, counted without being written: its pieces (the moves
 * of one kind, e.g. the settlement sites, the robber targets) in list order, each with its
 * count. Random play draws an index and builds that move alone (legal_tally_move()). */
#define LEGAL_TALLY_PIECES 16
struct legal_piece {
	uint8_t kind; /* legal.c's enum piece_kind */
	uint8_t type; /* enum command_type */
	int count;
	uint64_t bits[2]; /* the nodes or edges of a piece of builds */
};

struct legal_tally {
	int count; /* what legal_moves_except_offers() returns */
	int pieces;
	struct legal_piece piece[LEGAL_TALLY_PIECES];
	uint32_t hexes[GAME_MAX_SEATS]; /* robber targets: placement_robbable_hexes() */
	unsigned harbor_kinds;		/* maritime trades: game_harbor_kinds() */
};

/* Count `seat`'s moves as legal_moves_except_offers() lists them into *tally; returns the
 * count (0: none). */
int legal_tally_except_offers(const struct game *game, int seat, struct legal_tally *tally);

/* Write move `index` (0 .. tally->count - 1) of that list, byte for byte the command
 * legal_moves_except_offers() writes at moves[index]. *game and seat as tallied. */
void legal_tally_move(const struct game *game, int seat, const struct legal_tally *tally, int index,
		      struct command *move);

/* Seats the game is waiting for: the active player, or every seat owing a discard. A mask;
 * 0 when the game is over. Inactive seats may still answer offers in the main phase. */
uint8_t legal_waiting_for(const struct game *game);

#endif
