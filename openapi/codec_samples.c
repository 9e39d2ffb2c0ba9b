/*
 * codec_samples.c - real JSON from the codec, for checking it against openapi.yaml.
 *
 * The spec describes what the server sends; the codec (codec/) builds most of it. This
 * program plays random complete games through the engine and prints, one per line as
 * "<schema name>\t<compact JSON>", every shape the API exposes: each event as every seat and
 * a spectator see it (LogEntry), the legal actions of the seats the game waits for
 * (Actions), every move played as a request body (Move), game views for every viewer at
 * intervals (Game), the board and the options. openapi/validate_samples.js then validates
 * each line against components/schemas/<schema name> of the bundled spec.
 *
 * The server wraps codec output in a few members of its own (an event's version,
 * created_at and origin; the view's id, each player's bot flag, the deadline options); this
 * program adds them the same way, so what is checked is what a client receives.
 *
 *   codec_samples [GAMES]    (default 12)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/log.h"
#include "codec/options.h"
#include "codec/shapes.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"

#define SAMPLES_STEPS_MAX 4000
#define SAMPLES_VIEW_EVERY 40

static struct command samples_moves[LEGAL_MOVES_MAX];
static const char *const samples_names[GAME_MAX_SEATS] = {"Seat 1", "Seat 2", "Seat 3", "Seat 4"};

/* Prints one sample line; steals json. */
static void samples_print_new(const char *schema, json_t *json)
{
	char *text = json_dumps(json, JSON_COMPACT);
	if (!text)
		abort();
	printf("%s\t%s\n", schema, text);
	free(text);
	json_decref(json);
}

/* An event as `viewer` (a seat or VIEW_SPECTATOR) sees it, as a log entry. */
static void samples_log_entry(const struct game *game, const struct event *event, uint32_t version, int viewer)
{
	struct event seen;
	view_event(event, viewer, &seen);
	json_t *entry = codec_event_to_json(&seen, game->options.seats);
	json_object_set_new(entry, "version", json_integer(version));
	json_object_set_new(entry, "created_at", json_string("2026-05-01T12:00:00Z"));
	json_object_set_new(entry, "origin", json_string(version % 3 ? "player" : "timeout"));
	samples_print_new("LogEntry", entry);
}

static void samples_views(const struct game *game, const struct codec_options *options)
{
	for (int viewer = VIEW_SPECTATOR; viewer < game->options.seats; viewer++) {
		struct game_view view;
		view_game(game, viewer, &view);
		json_t *json = codec_view_to_json(&view, samples_names);
		json_object_set_new(json, "id", json_string("2b4f0c1d9e8a7f61"));
		json_t *full_options = codec_options_to_json(options);
		json_object_set_new(json, "options", full_options);
		size_t index;
		json_t *player;
		json_array_foreach(json_object_get(json, "players"), index, player)
			json_object_set_new(player, "bot", json_boolean(index == 2));
		samples_print_new("Game", json);
	}
}

static void samples_actions(const struct game *game)
{
	uint8_t waiting = legal_waiting_for(game);
	for (int seat = 0; seat < game->options.seats; seat++) {
		/* The seats the game waits for, plus (in the main phase) the others, who may answer offers. */
		if (!(waiting >> seat & 1u) && game->phase != GAME_PHASE_MAIN)
			continue;
		int count = legal_moves(game, seat, samples_moves, LEGAL_MOVES_MAX);
		if (count > LEGAL_MOVES_MAX)
			count = LEGAL_MOVES_MAX;
		json_t *actions = json_object();
		json_object_set_new(actions, "version", json_integer(game->version));
		json_object_set_new(actions, "seat", json_integer(seat));
		json_t *waiting_for = json_array();
		for (int s = 0; s < game->options.seats; s++)
			if (waiting >> s & 1u)
				json_array_append_new(waiting_for, json_integer(s));
		json_object_set_new(actions, "waiting_for", waiting_for);
		json_object_set_new(actions, "actions", codec_actions_to_json(game, seat, samples_moves, count));
		samples_print_new("Actions", actions);
	}
}

static int samples_apply(struct game *game, const struct event_list *events)
{
	for (int i = 0; i < events->count; i++) {
		if (!apply_event_valid(game, &events->events[i])) {
			fprintf(stderr, "codec_samples: the engine produced an invalid event\n");
			return 0;
		}
		apply_event(game, &events->events[i]);
		for (int viewer = VIEW_SPECTATOR; viewer < game->options.seats; viewer++)
			samples_log_entry(game, &events->events[i], game->version, viewer);
	}
	return 1;
}

static int samples_game(int index)
{
	struct codec_options options;
	memset(&options, 0, sizeof options);
	rules_default_options(&options.game);
	options.game.seats = (uint8_t)(index % 4 == 1 ? 3 : 4);
	options.game.layout = (uint8_t)(index % 3 == 0 ? GAME_LAYOUT_BEGINNER : GAME_LAYOUT_RANDOM);
	options.game.numbers = (uint8_t)(index % 2);
	options.game.edition = (uint8_t)(index % 2);
	if (index % 6 == 0)
		options.game.start = GAME_START_FIXED;
	if (index % 4 == 3) {
		options.game.dice = GAME_DICE_MANUAL;
		options.game.first_seat = (int8_t)(index % options.game.seats);
	}
	options.turn_timeout_s = index % 2 ? 3600 : 0;
	options.on_timeout = (uint8_t)(index % 2 ? CODEC_ON_TIMEOUT_BOT : CODEC_ON_TIMEOUT_DEFAULT);
	samples_print_new("GameOptions", codec_options_to_json(&options));

	struct rng rng;
	rng_init(&rng, 1000u + (uint64_t)index, 7);
	struct event_list events;
	if (rules_create(&options.game, &rng, &events) != ERROR_OK) {
		fprintf(stderr, "codec_samples: rules_create refused game %d\n", index);
		return 0;
	}
	struct game game;
	memset(&game, 0, sizeof game);
	if (!samples_apply(&game, &events))
		return 0;
	samples_print_new("Board", codec_board_to_json(&game.board, game.options.edition));

	struct playout_options playout = {.trades = 1};
	for (int step = 0; step < SAMPLES_STEPS_MAX; step++) {
		if (step % SAMPLES_VIEW_EVERY == 0)
			samples_views(&game, &options);
		samples_actions(&game);
		int seat;
		struct command command;
		if (!playout_choose(&game, &playout, &rng, samples_moves, &seat, &command))
			break;
		json_t *body = codec_command_to_json(&command);
		if (step % 2)
			json_object_set_new(body, "seat", json_integer(seat));
		samples_print_new("Move", body);
		if (rules_decide(&game, seat, &command, &rng, &events, NULL) != ERROR_OK) {
			fprintf(stderr, "codec_samples: a playout move was refused\n");
			return 0;
		}
		if (!samples_apply(&game, &events))
			return 0;
	}
	samples_views(&game, &options);
	return 1;
}

int main(int argc, char **argv)
{
	int games = argc > 1 ? atoi(argv[1]) : 12;
	for (int index = 0; index < games; index++)
		if (!samples_game(index))
			return 1;
	return 0;
}
