/*
 * fuzz_codec_options.c - libFuzzer target: the body of POST /v1/games as JSON text.
 *
 * The bytes are read as api/service.c's service_body() reads a body (json_loadb with
 * duplicates refused; a parse error's text goes into the 400 detail: jansson quotes the
 * bytes near the error, cut inside a character after a bad escape, and the body built with
 * problem_json() must exist all the same),
 * then "options" goes through codec_options_from_json() with the seats the body asks for,
 * as handle_create_game() does. Oracles: every refusal is well formed and answers as a
 * problem body; accepted options survive codec_options_to_json() and a second parse
 * unchanged, and a game created with them passes invariants_check().
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/options.h"
#include "http/problem.h"
#include "engine/apply.h"
#include "engine/invariants.h"
#include "engine/rules.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_accepted(const struct codec_options *options)
{
	json_t *json = codec_options_to_json(options);
	char *text = json ? json_dumps(json, JSON_COMPACT) : NULL;
	if (!text) {
		fprintf(stderr, "fuzz: accepted options do not dump\n");
		abort();
	}
	/* The rendered options name the seats, which a body gives at its top level. */
	json_object_del(json, "seats");
	struct codec_options again;
	struct codec_error error;
	memset(&again, 0, sizeof again);
	again.game.seats = options->game.seats;
	if (!codec_options_from_json(json, &again, &error)) {
		fprintf(stderr, "fuzz: options %s do not parse back: %s\n", text, error.message);
		abort();
	}
	if (memcmp(&again.game, &options->game, sizeof again.game) != 0 ||
	    again.turn_timeout_s != options->turn_timeout_s || again.on_timeout != options->on_timeout ||
	    again.offer_wait_s != options->offer_wait_s ||
	    codec_options_bot_level(&again, -1) != codec_options_bot_level(options, -1) ||
	    codec_options_bot_level(&again, 0) != codec_options_bot_level(options, 0) ||
	    codec_options_bot_level(&again, 1) != codec_options_bot_level(options, 1) ||
	    codec_options_bot_level(&again, 2) != codec_options_bot_level(options, 2) ||
	    codec_options_bot_level(&again, 3) != codec_options_bot_level(options, 3)) {
		fprintf(stderr, "fuzz: options %s parse back different\n", text);
		abort();
	}
	free(text);
	json_decref(json);

	static struct event_list events;
	static struct game game;
	struct rng rng;
	rng_init(&rng, options->has_seed ? options->seed : 1, 0);
	if (rules_create(&options->game, &rng, &events) != ERROR_OK)
		return; /* answered 400 by the handler */
	memset(&game, 0, sizeof game);
	for (int i = 0; i < events.count; i++) {
		if (!apply_event_valid(&game, &events.events[i])) {
			fprintf(stderr, "fuzz: rules_create's event %d is not valid for apply\n", i);
			abort();
		}
		apply_event(&game, &events.events[i]);
	}
	const char *broken = invariants_check(&game);
	if (broken) {
		fprintf(stderr, "fuzz: a new game breaks an invariant: %s\n", broken);
		abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t parse_error;
	json_t *body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!body) {
		char detail[256];
		snprintf(detail, sizeof detail, "line %d, column %d: %s", parse_error.line, parse_error.column,
			 parse_error.text);
		fuzz_expect_problem("/v1/games", "invalid_json", 400, "The body is not valid JSON", detail, "");
		return 0;
	}
	if (!json_is_object(body)) {
		json_decref(body);
		return 0;
	}
	struct codec_options options;
	memset(&options, 0, sizeof options);
	json_t *seats = json_object_get(body, "seats");
	json_t *players = json_object_get(body, "players");
	if (json_is_integer(seats) && json_integer_value(seats) >= GAME_MIN_SEATS &&
	    json_integer_value(seats) <= GAME_MAX_SEATS)
		options.game.seats = (uint8_t)json_integer_value(seats);
	else if (json_is_array(players) && json_array_size(players) >= GAME_MIN_SEATS &&
		 json_array_size(players) <= GAME_MAX_SEATS)
		options.game.seats = (uint8_t)json_array_size(players);
	else
		options.game.seats = GAME_MAX_SEATS;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	if (codec_options_from_json(json_object_get(body, "options"), &options, &error))
		check_accepted(&options);
	else
		fuzz_expect_codec_error(&error);
	json_decref(body);
	return 0;
}
