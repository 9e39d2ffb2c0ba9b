/*
 * bot_cli.c - `catan bot`: the server's bots, for a program outside the server.
 *
 *   catan bot --level easy|medium|hard [--seed S] [--playouts K] < position.json
 *
 * Standard input is one JSON object: "game", the body of GET /v1/games/{id} read with the
 * seat's token (it has `you`); "board", the body of GET /v1/games/{id}/board; and, optional,
 * "moves", a body of GET /v1/games/{id}/moves (its "events", as the seat sees them), from
 * which the development cards played are counted (the public facts the hard level's
 * sampling uses; without it only the knights the view shows count). The view is read by
 * the codec (codec/view_read.h); the seat's legal moves are listed on a state sampled from
 * that view (engine/bot_sample.h), which gives the seat's own moves exactly: they depend
 * only on what the seat sees (a view no game could show, one whose sample breaks an
 * invariant, is refused). The chosen move is printed as the body to POST to
 * /v1/games/{id}/moves. Exit 2 on bad arguments, 1 on input that is not such a position or
 * a seat with nothing to do.
 */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/ladder.h"
#include "engine/event.h"
#include "engine/invariants.h"
#include "codec/shapes.h"
#include "codec/view_read.h"
#include "engine/bot.h"
#include "engine/bot_sample.h"
#include "engine/legal.h"

static void bot_usage(void)
{
	fprintf(stderr, "usage: catan bot --level easy|medium|hard [--seed S] [--playouts K] < position.json\n");
	exit(2);
}

static long bot_long(const char *text, long low, long high)
{
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno || *end || value < low || value > high)
		bot_usage();
	return value;
}

/* The development cards played, counted from the events the seat was shown. */
static void count_played(const json_t *moves, struct bot_public *facts)
{
	memset(facts, 0, sizeof *facts);
	const json_t *events = json_object_get(moves, "events");
	size_t index;
	const json_t *entry;
	json_array_foreach(events, index, entry)
	{
		/* By type alone: a redacted event (a card bought by another seat) plays no card. */
		const json_t *type = json_object_get(entry, "type");
		int event_type = json_is_string(type) ? event_type_from_name(json_string_value(type)) : -1;
		int kind = event_type == EVENT_KNIGHT_PLAYED	       ? DEVELOPMENT_KNIGHT
			   : event_type == EVENT_ROAD_BUILDING_PLAYED  ? DEVELOPMENT_ROAD_BUILDING
			   : event_type == EVENT_YEAR_OF_PLENTY_PLAYED ? DEVELOPMENT_YEAR_OF_PLENTY
			   : event_type == EVENT_MONOPOLY_PLAYED       ? DEVELOPMENT_MONOPOLY
								       : -1;
		if (kind >= 0 && facts->development_played[kind] < 255)
			facts->development_played[kind]++;
	}
}

int bot_cli_run(int argc, char **argv)
{
	struct bot_settings settings = {-1, 0};
	uint64_t seed = 1;
	for (int i = 2; i < argc; i += 2) {
		const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (!value)
			bot_usage();
		if (strcmp(arg, "--level") == 0)
			settings.level = bot_level_parse(value);
		else if (strcmp(arg, "--seed") == 0)
			seed = (uint64_t)bot_long(value, 0, INT64_MAX);
		else if (strcmp(arg, "--playouts") == 0)
			settings.playouts = (int)bot_long(value, 1, 1000000);
		else
			bot_usage();
	}
	if (settings.level < 0)
		bot_usage();
	json_error_t parse_error;
	json_t *input = json_loadf(stdin, JSON_REJECT_DUPLICATES, &parse_error);
	if (!json_is_object(input)) {
		fprintf(stderr, "catan bot: standard input is not a JSON object: %s\n", parse_error.text);
		json_decref(input);
		return 1;
	}
	struct game_view view;
	struct codec_error error;
	if (!codec_view_from_json(json_object_get(input, "game"), json_object_get(input, "board"), &view, &error) ||
	    !view.has_you) {
		fprintf(stderr, "catan bot: %s\n",
			view.has_you ? error.message : "game has no `you`: read it with a seat token");
		json_decref(input);
		return 1;
	}
	struct bot_public facts;
	count_played(json_object_get(input, "moves"), &facts);
	json_decref(input);

	struct rng rng;
	rng_init(&rng, seed, view.version);
	struct game sample;
	bot_sample_state(&view, &facts, &rng, &sample);
	const char *broken = invariants_check(&sample);
	if (broken) {
		fprintf(stderr, "catan bot: the view is not a position of a game (%s)\n", broken);
		return 1;
	}
	struct command *moves = malloc(sizeof *moves * LEGAL_MOVES_MAX);
	if (!moves)
		abort();
	int count = legal_moves(&sample, view.you.seat, moves, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	struct command command;
	if (count <= 0 || !bot_decide(&settings, &view, &facts, moves, count, &rng, &command)) {
		fprintf(stderr, "catan bot: seat %d has no move to make now\n", view.you.seat);
		free(moves);
		return 1;
	}
	free(moves);
	json_t *body = codec_command_to_json(&command);
	char *text = json_dumps(body, JSON_COMPACT);
	printf("%s\n", text);
	free(text);
	json_decref(body);
	return 0;
}
