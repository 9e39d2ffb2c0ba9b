/*
 * codec_games.c - random complete games (see codec_games.h). The same loop as `catan sim`:
 * a move uniform among the legal moves of whoever must act, decided with a generator keyed
 * by (seed, version) as the server does.
 */
#include "tests/api/codec_games.h"

#include <stdlib.h>
#include <string.h>

#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"

#define CODEC_GAME_MAX_ACTIONS 100000

static void record(struct codec_game *out, const struct event_list *events)
{
	for (int i = 0; i < events->count; i++) {
		if (out->count == out->capacity) {
			out->capacity = out->capacity ? 2 * out->capacity : 1024;
			out->events = realloc(out->events, sizeof *out->events * (size_t)out->capacity);
			if (!out->events)
				abort();
		}
		out->events[out->count++] = events->events[i];
	}
}

int codec_game_play(struct codec_game *out, int seats, int layout, int numbers, int trades, uint64_t seed)
{
	memset(out, 0, sizeof *out);
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	options.layout = (uint8_t)layout;
	options.numbers = (uint8_t)numbers;

	struct event_list events;
	struct rng rng;
	rng_init(&rng, seed, 0);
	if (rules_create(&options, &rng, &events) != ERROR_OK)
		abort();
	apply_events(&out->final, &events);
	record(out, &events);

	struct command *scratch = malloc(sizeof *scratch * LEGAL_MOVES_MAX);
	if (!scratch)
		abort();
	struct playout_options playout = {trades};
	struct rng chooser;
	rng_init(&chooser, seed, UINT64_C(0xc0dec));
	int seat;
	struct command command;
	for (int actions = 0; actions < CODEC_GAME_MAX_ACTIONS &&
			      playout_choose(&out->final, &playout, &chooser, scratch, &seat, &command);
	     actions++) {
		struct game after;
		rng_init(&rng, seed, out->final.version);
		if (rules_decide(&out->final, seat, &command, &rng, &events, &after) != ERROR_OK)
			abort();
		memcpy(&out->final, &after, sizeof after);
		record(out, &events);
	}
	free(scratch);
	return out->final.phase == GAME_PHASE_FINISHED;
}

void codec_game_free(struct codec_game *game)
{
	free(game->events);
	game->events = NULL;
	game->count = game->capacity = 0;
}
