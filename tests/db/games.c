/*
 * games.c - random games decision by decision (see games.h).
 */
#include "tests/db/games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"

static void allocate_scratch(struct test_game *game)
{
	game->scratch = malloc(sizeof *game->scratch * LEGAL_MOVES_MAX);
	if (!game->scratch)
		abort();
}

void test_game_start(struct test_game *game, uint64_t seed, int seats, struct event_list *created)
{
	memset(game, 0, sizeof *game);
	allocate_scratch(game);
	game->seed = seed;
	game->trades = 1;
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	options.layout = (uint8_t)(seed & 1 ? GAME_LAYOUT_RANDOM : GAME_LAYOUT_BEGINNER);
	struct rng rng;
	rng_init(&rng, seed, 0);
	if (rules_create(&options, &rng, created) != ERROR_OK) {
		fprintf(stderr, "rules_create refused the default options\n");
		abort();
	}
	apply_events(&game->state, created);
	rng_init(&game->chooser, seed, UINT64_C(0xc4005e));
}

void test_game_resume(struct test_game *game, const struct game *state, uint64_t seed)
{
	memset(game, 0, sizeof *game);
	allocate_scratch(game);
	game->seed = seed;
	game->trades = 1;
	memcpy(&game->state, state, sizeof *state);
	rng_init(&game->chooser, seed ^ UINT64_C(0x5eed), state->version);
}

int test_game_step(struct test_game *game, struct game *before, int *seat, struct event_list *events)
{
	struct playout_options playout = {game->trades};
	struct command command;
	if (!playout_choose(&game->state, &playout, &game->chooser, game->scratch, seat, &command))
		return 0;
	struct rng rng;
	rng_init(&rng, game->seed, game->state.version);
	memcpy(before, &game->state, sizeof *before);
	struct game after;
	enum error error = rules_decide(&game->state, *seat, &command, &rng, events, &after);
	if (error != ERROR_OK) {
		fprintf(stderr, "a listed move (%s) was refused: %s\n", command_type_name(command.type),
			error_code(error));
		abort();
	}
	memcpy(&game->state, &after, sizeof after);
	return 1;
}

void test_game_free(struct test_game *game)
{
	free(game->scratch);
	game->scratch = NULL;
}
