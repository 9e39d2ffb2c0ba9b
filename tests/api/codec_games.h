/*
 * codec_games.h - random complete games for the codec tests and the codec benchmark: every
 * event of a game as rules_decide() produced it, and the live final state to compare a
 * replay against.
 */
#ifndef CATAN_TESTS_API_CODEC_GAMES_H
#define CATAN_TESTS_API_CODEC_GAMES_H

#include <stdint.h>

#include "engine/event.h"
#include "engine/game.h"

struct codec_game {
	struct game final; /* the live state after the last event */
	struct event *events; /* caller frees with codec_game_free() */
	int count;
	int capacity;
};

/* Play one random game to the end (random dice, first seat by roll; random layouts use the
 * given numbers placement). `trades`: domestic offers and answers happen too. Returns 1 when
 * the game was won, 0 when it hit the action limit. */
int codec_game_play(struct codec_game *out, int seats, int layout, int numbers, int trades, uint64_t seed);

void codec_game_free(struct codec_game *game);

#endif
