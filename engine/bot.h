/*
 * bot.h - a heuristic player for server-side bot seats.
 *
 * The bot decides from a seat's view (view.h) and that seat's legal moves (legal.h) only:
 * it is never given a struct game, so it cannot see another seat's hand or development
 * cards, the deck's composition or the seed. Board geometry comes from the constant tables
 * of board.h and the layout carried by the view.
 *
 * It plays legal moves only (it picks an entry of the list and fills templates with
 * choices rules_decide() accepts) and never stalls a game: on its own turn every move it
 * makes either spends cards, consumes an offer or a once-per-turn allowance, or ends the
 * turn (bot.c explains why this terminates).
 */
#ifndef CATAN_ENGINE_BOT_H
#define CATAN_ENGINE_BOT_H

#include "command.h"
#include "rng.h"
#include "view.h"

/* Choose a move for `seat` from `moves` (its legal moves, count > 0, from legal_moves();
 * templates included) knowing only `view` (view_game(state, seat, ...): the public facts
 * and the seat's own hand and cards). Writes a concrete command (templates filled) into
 * *out and returns 1; returns 0 only when count == 0. Randomness only from rng (for tie
 * breaks and a manual-dice roll). Borrows view and moves. */
int bot_choose(const struct game_view *view, const struct command *moves, int count, struct rng *rng,
	       struct command *out);

/* The id of an open offer addressed to the view's seat by another seat that the seat has
 * neither accepted nor declined, or 0 when there is none: an inactive bot seat should be
 * asked to move (bot_choose then answers it) exactly while this is non-zero. */
int bot_unanswered_offer(const struct game_view *view);

#endif
