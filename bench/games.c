/*
 * games.c - random games on the engine's playout (see games.h).
 */
#include "bench/games.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/legal.h"
#include "engine/rules.h"

#define GAMES_MAX_ACTIONS 100000
#define STEPPED_CHOOSER UINT64_C(0xc4005e)
#define RECORDED_CHOOSER UINT64_C(0xc0dec)

static struct command *new_scratch(void)
{
	struct command *scratch = malloc(sizeof *scratch * LEGAL_MOVES_MAX);
	if (!scratch)
		abort();
	return scratch;
}

static void refused(const struct command *command, enum error error)
{
	fprintf(stderr, "a listed move (%s) was refused: %s\n", command_type_name(command->type), error_code(error));
	abort();
}

void games_start(struct games_play *game, uint64_t seed, int seats, int trades, struct event_list *created)
{
	memset(game, 0, sizeof *game);
	game->scratch = new_scratch();
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	options.layout = (uint8_t)(seed & 1 ? GAME_LAYOUT_RANDOM : GAME_LAYOUT_BEGINNER);
	struct playout_options choices = {trades};
	if (playout_start(&game->playout, &options, &choices, seed, STEPPED_CHOOSER, created) != ERROR_OK) {
		fprintf(stderr, "rules_create refused the default options\n");
		abort();
	}
}

void games_resume(struct games_play *game, const struct game *state, uint64_t seed)
{
	memset(game, 0, sizeof *game);
	game->scratch = new_scratch();
	struct playout_options choices = {1};
	struct rng chooser;
	rng_init(&chooser, seed ^ UINT64_C(0x5eed), state->version);
	playout_resume(&game->playout, state, &choices, seed, &chooser);
}

int games_step(struct games_play *game, struct game *before, int *seat, struct event_list *events)
{
	memcpy(before, &game->playout.state, sizeof *before);
	struct command command;
	enum error error;
	enum playout_result result = playout_step(&game->playout, game->scratch, seat, &command, events, &error);
	if (result == PLAYOUT_REFUSED)
		refused(&command, error);
	return result == PLAYOUT_MOVED;
}

void games_free(struct games_play *game)
{
	free(game->scratch);
	game->scratch = NULL;
}

static void record(struct games_record *out, const struct event_list *events)
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

int games_record_play(struct games_record *out, int seats, int layout, int numbers, int trades, uint64_t seed)
{
	memset(out, 0, sizeof *out);
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	options.layout = (uint8_t)layout;
	options.numbers = (uint8_t)numbers;
	struct playout_options choices = {trades};
	struct playout_game playout;
	struct event_list events;
	if (playout_start(&playout, &options, &choices, seed, RECORDED_CHOOSER, &events) != ERROR_OK)
		abort();
	record(out, &events);
	struct command *scratch = new_scratch();
	int seat;
	struct command command;
	enum error error;
	for (int actions = 0; actions < GAMES_MAX_ACTIONS; actions++) {
		enum playout_result result = playout_step(&playout, scratch, &seat, &command, &events, &error);
		if (result == PLAYOUT_REFUSED)
			refused(&command, error);
		if (result == PLAYOUT_OVER)
			break;
		record(out, &events);
	}
	free(scratch);
	memcpy(&out->final, &playout.state, sizeof out->final);
	return out->final.phase == GAME_PHASE_FINISHED;
}

void games_record_free(struct games_record *game)
{
	free(game->events);
	game->events = NULL;
	game->count = game->capacity = 0;
}
