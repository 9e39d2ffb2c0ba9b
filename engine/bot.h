/*
 * bot.h - the players for server-side bot seats, at three levels (enum bot_level):
 *
 *   easy    legal, plausible, weak: a good-enough opening site, then whatever it can build,
 *           at random; no domestic trades (it declines every offer), no search (bot_easy.c).
 *   medium  the heuristic policy of bot.c (bot_choose()).
 *   hard    determinized flat Monte Carlo over the seat's main-phase and setup moves, with
 *           the medium policy playing every seat in the playouts (bot_search.c).
 *
 * The medium policy below:
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

#include "bot_sample.h"
#include "command.h"
#include "rng.h"
#include "view.h"

enum bot_level { BOT_LEVEL_EASY, BOT_LEVEL_MEDIUM, BOT_LEVEL_HARD, BOT_LEVEL_COUNT };

#define BOT_LEVEL_DEFAULT BOT_LEVEL_MEDIUM

/* The hard bot's playouts per decision when a caller gives none. */
#define BOT_PLAYOUTS_DEFAULT 80

/* The hard bot's budget under the heaviest load. */
#define BOT_PLAYOUTS_MIN 8

/* The playouts a hard bot gets out of `playouts` when `backlog` bot moves are due among
 * `workers` threads and `full` says more are waiting: divided by the backlog per worker
 * beyond one, halved when full, at least BOT_PLAYOUTS_MIN. Weaker, not later, under load. */
int bot_playouts_under_load(int playouts, int backlog, int workers, int full);

/* How a bot decides: its level and, for hard, its budget (playouts per decision: fewer
 * is weaker and faster; 0 takes BOT_PLAYOUTS_DEFAULT). */
struct bot_settings {
	int level; /* enum bot_level */
	int playouts;
};

/* "easy", "medium", "hard"; NULL out of range. */
const char *bot_level_name(int level);

/* The level named `name`, or -1. */
int bot_level_parse(const char *name);

/* Choose a move at `settings`' level for the view's seat: every level's one entry point.
 * The same contract as bot_choose(): `moves` are the seat's legal moves (count > 0),
 * `view` its view, `facts` what the public log adds (may be NULL); randomness only from
 * rng. No level is given a struct game: the decision is a function of (view, facts,
 * moves, rng state) alone. Writes *out and returns 1; 0 only when count == 0. Borrows
 * everything. */
int bot_decide(const struct bot_settings *settings, const struct game_view *view, const struct bot_public *facts,
	       const struct command *moves, int count, struct rng *rng, struct command *out);

/* The easy level (bot_easy.c) and the hard level (bot_search.c), as bot_decide(). */
int bot_choose_easy(const struct game_view *view, const struct command *moves, int count, struct rng *rng,
		    struct command *out);
int bot_choose_hard(const struct game_view *view, const struct bot_public *facts, const struct command *moves,
		    int count, int playouts, struct rng *rng, struct command *out);

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
