/*
 * bot_sample.h - a full game state drawn from what one seat may know: the determinization
 * behind the hard bot's search (bot_search.c).
 *
 * A seat sees its own hand and development cards, every public fact (view.h) and what the
 * public log tells (the development cards played, struct bot_public). What it does not see
 * is drawn from the rng, consistently with all of that: each opponent's hand, of the size
 * the view shows, from the unseen resource pool (19 of each, less the bank and the seat's
 * own hand); each opponent's development cards and the deck, of their public sizes, from the
 * unseen development pool (the starting deck less the seat's own cards and the cards
 * played). The deck's order is not part of a state: a sampled state is played on with a
 * seed the caller draws, and the draws follow the remaining counts.
 *
 * Pure and deterministic: the same view, facts and rng state give the same sample.
 */
#ifndef CATAN_ENGINE_BOT_SAMPLE_H
#define CATAN_ENGINE_BOT_SAMPLE_H

#include <stdint.h>

#include "game.h"
#include "rng.h"
#include "view.h"

/* What the public log adds to a view: the development cards every seat has played, by
 * kind (knights too, though the view's knights_played counts them per seat). */
struct bot_public {
	uint8_t development_played[DEVELOPMENT_COUNT];
};

/* The public facts of *game's log, read from the state: the development cards played
 * (the starting deck less the deck and every hand). Only what the log shows everyone. */
void bot_public_of_game(const struct game *game, struct bot_public *out);

/* Fill *out with a state `view`'s seat cannot tell from the real one: the view's public
 * facts and own cards exactly, the hidden ones drawn from rng as above. view->has_you must
 * be set. `facts` may be NULL (then only the knights the view shows count as played).
 * view_game(out, view->you.seat) gives back *view. Borrows view and facts. */
void bot_sample_state(const struct game_view *view, const struct bot_public *facts, struct rng *rng, struct game *out);

#endif
