/*
 * arena_levels.c - the next move of a game among seats of chosen levels: the arena's order
 * (arena.h: answers to offers first, then the seats the game waits for), each bot seat
 * deciding at its level on its own view and the public facts of the log.
 */
#include "arena_levels.h"

#include "arena.h"
#include "bot.h"
#include "legal.h"
#include "playout.h"
#include "view.h"

/* The move of `mover` (a bot at `level`, or a random seat when level is ARENA_RANDOM). */
static int choose_for(const struct game *game, int mover, int trade, int level, int playouts, struct rng *rng,
		      struct command *scratch, struct command *command)
{
	int count = legal_moves(game, mover, scratch, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	if (level != ARENA_RANDOM) {
		struct game_view view;
		view_game(game, mover, &view);
		if (level == BOT_LEVEL_MEDIUM)
			return bot_choose(&view, scratch, count, rng, command);
		struct bot_public facts;
		bot_public_of_game(game, &facts);
		struct bot_settings settings = {level, playouts};
		return bot_decide(&settings, &view, &facts, scratch, count, rng, command);
	}
	return arena_random_move(game, mover, trade, scratch, count, rng, command);
}

int arena_choose_players(const struct game *game, const struct arena_players *players, struct rng *rng,
			 struct command *scratch, int *seat, struct command *command)
{
	int trade;
	int mover = arena_mover(game, &trade);
	if (mover < 0)
		return 0;
	if (!choose_for(game, mover, trade, players->level[mover], players->playouts, rng, scratch, command))
		return 0;
	*seat = mover;
	return 1;
}
