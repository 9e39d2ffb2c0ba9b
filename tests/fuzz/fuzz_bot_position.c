/*
 * fuzz_bot_position.c - libFuzzer target: the input of `catan bot` (cmd/bot_cli.c), a JSON
 * object with a seat's view ("game") and the board ("board"), read by codec_view_from_json()
 * and played as the command plays it: a state sampled from the view (bot_sample_state()),
 * refused unless every invariant holds, the seat's legal moves listed on it and a move
 * chosen at every level (hard with a tiny budget).
 *
 * Oracles: the reader either refuses with a field named or gives a view; a sample that
 * keeps the invariants shows the seat its view again (view_game()); every level's move is
 * one rules_decide() accepts on the sample. Sanitizers catch the rest.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/view_read.h"
#include "engine/bot.h"
#include "engine/bot_sample.h"
#include "engine/invariants.h"
#include "engine/legal.h"
#include "engine/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct command moves[LEGAL_MOVES_MAX];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *input = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL);
	if (!input)
		return 0;
	struct game_view view, again;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	int read = codec_view_from_json(json_object_get(input, "game"), json_object_get(input, "board"), &view, &error);
	json_decref(input);
	if (!read) {
		if (!error.field[0]) {
			fprintf(stderr, "fuzz: a refused view names no field\n");
			abort();
		}
		return 0;
	}
	if (!view.has_you)
		return 0;
	static struct game sample;
	struct rng rng;
	rng_init(&rng, 1, view.version);
	bot_sample_state(&view, NULL, &rng, &sample);
	if (invariants_check(&sample))
		return 0; /* refused by the command */
	view_game(&sample, view.you.seat, &again);
	again.development_played = view.development_played;
	if (memcmp(&view, &again, sizeof view) != 0) {
		fprintf(stderr, "fuzz: a sample that keeps the invariants shows another view\n");
		abort();
	}
	int count = legal_moves(&sample, view.you.seat, moves, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	for (int level = 0; level < BOT_LEVEL_COUNT && count > 0; level++) {
		struct bot_settings settings = {level, 2};
		struct command command;
		struct rng choice;
		rng_init(&choice, 2, (uint64_t)level);
		if (!bot_decide(&settings, &view, NULL, moves, count, &choice, &command)) {
			fprintf(stderr, "fuzz: %s chose nothing among %d moves\n", bot_level_name(level), count);
			abort();
		}
		static struct game after;
		struct event_list events;
		enum error refused = rules_decide_seeded(&sample, 1, view.you.seat, &command, &events, &after);
		if (refused != ERROR_OK) {
			fprintf(stderr, "fuzz: %s chose %s, refused: %s\n", bot_level_name(level),
				command_type_name(command.type), error_code(refused));
			abort();
		}
	}
	return 0;
}
