/*
 * arena_levels.h - games among bots of chosen levels (bot.h: easy, medium, hard) and random
 * players, for `catan ladder` and the bot level tests: the arena of arena.h with a level per
 * seat. Kept apart from arena.c because the hard bot's own playouts use arena_choose(),
 * and this module uses the hard bot.
 */
#ifndef CATAN_ENGINE_ARENA_LEVELS_H
#define CATAN_ENGINE_ARENA_LEVELS_H

#include <stdint.h>

#include "command.h"
#include "game.h"
#include "rng.h"

/* Who plays an arena seat: a bot level (enum bot_level, bot.h) or ARENA_RANDOM. */
#define ARENA_RANDOM (-1)

struct arena_players {
	int8_t level[GAME_MAX_SEATS];
	int playouts; /* the hard level's budget (bot_settings.playouts) */
};

/* arena_choose() with a level per seat: a bot seat decides by bot_decide() on its view and
 * the public facts of the log (bot_public_of_game()), a random seat as above. */
int arena_choose_players(const struct game *game, const struct arena_players *players, struct rng *rng,
			 struct command *scratch, int *seat, struct command *command);

#endif
