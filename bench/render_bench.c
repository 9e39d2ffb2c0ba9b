/*
 * render_bench.c - what a board picture costs: one mid-game board (four heuristic bots on
 * the beginner board, stopped after a piece is built once a seat shows 7 public points)
 * drawn at 1024 px as SVG and as PNG, many times on one core (CPU time of the thread, so a
 * busy machine counts less); prints
 *
 *   bench render: svg <ms> ms, png <ms> ms
 *
 * (`make bench-render`; targets: SVG under 2 ms, PNG under 20 ms). With --log FILE it also
 * writes that game's event log up to the board drawn, the log `catan render` reads (`make
 * docs-board` draws docs/board.png from it).
 *
 *   render_bench [--rounds N] [--log FILE] [--only svg|png]
 *
 * --only times one format (for a profiler); the line then names that format alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec/log.h"
#include "engine/arena.h"
#include "engine/legal.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "render/render.h"

#define RECENT 8
#define LOG_MAX 20000
#define MID_GAME_POINTS 7

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time of this thread: fair on a shared machine */
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double time_format(const struct render_scene *scene, enum render_format format, int rounds, size_t *bytes)
{
	struct render_options options = {format, RENDER_THEME_LIGHT, 1024, 0};
	unsigned char *out;
	size_t length;
	if (!render_board(scene, &options, &out, &length)) /* warm up: fonts, caches */
		abort();
	free(out);
	double start = now_seconds();
	for (int i = 0; i < rounds; i++) {
		if (!render_board(scene, &options, &out, &length))
			abort();
		free(out);
	}
	*bytes = length;
	return (now_seconds() - start) * 1000.0 / rounds;
}

int main(int argc, char **argv)
{
	int rounds = 200;
	const char *log_path = NULL, *only = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--rounds") == 0)
			rounds = atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : 1;
		else if (strcmp(argv[i], "--log") == 0)
			log_path = argv[i + 1];
		else if (strcmp(argv[i], "--only") == 0)
			only = argv[i + 1];
	}
	/* Four heuristic bots on the beginner board, as a server's bot seats play. */
	struct game_options game_options;
	rules_default_options(&game_options);
	game_options.seats = 4;
	game_options.layout = GAME_LAYOUT_BEGINNER;
	const uint64_t seed = 20261130;
	struct event *log = malloc(sizeof *log * LOG_MAX);
	struct command *scratch = malloc(sizeof *scratch * LEGAL_MOVES_MAX);
	if (!log || !scratch)
		abort();
	struct game game;
	struct event_list events;
	if (rules_start(&game_options, seed, &events, &game) != ERROR_OK)
		abort();
	int applied = 0;
	for (int i = 0; i < events.count; i++)
		log[applied++] = events.events[i];
	struct rng chooser;
	rng_init(&chooser, seed, UINT64_C(0xb075));
	int seat;
	struct command command;
	while (applied + EVENT_LIST_MAX < LOG_MAX && arena_choose(&game, 0xF, &chooser, scratch, &seat, &command)) {
		struct game after;
		if (rules_decide_seeded(&game, seed, seat, &command, &events, &after) != ERROR_OK)
			abort();
		game = after;
		for (int i = 0; i < events.count; i++)
			log[applied++] = events.events[i];
		int shown = 0;
		for (int s = 0; s < game.options.seats; s++)
			shown = game_public_points(&game, s) >= MID_GAME_POINTS ? 1 : shown;
		/* stop in the middle of a turn, after a piece was built */
		if (shown && game.phase == GAME_PHASE_MAIN &&
		    (command.type == COMMAND_BUILD_ROAD || command.type == COMMAND_BUILD_SETTLEMENT ||
		     command.type == COMMAND_BUILD_CITY))
			break;
	}
	struct event recent[RECENT];
	int recent_count = 0;
	for (int i = applied > RECENT ? applied - RECENT : 0; i < applied; i++)
		view_event(&log[i], VIEW_SPECTATOR, &recent[recent_count++]);
	if (log_path) {
		FILE *file = fopen(log_path, "w");
		if (!file) {
			perror(log_path);
			return 1;
		}
		fputs("[\n", file);
		for (int i = 0; i < applied; i++) {
			char *text = codec_event_dump(&log[i], 4);
			fprintf(file, "%s%s\n", text, i + 1 < applied ? "," : "");
			free(text);
		}
		fputs("]\n", file);
		fclose(file);
	}
	struct game_view view;
	view_game(&game, VIEW_SPECTATOR, &view);
	static const char *const names[GAME_MAX_SEATS] = {"Ann", "Bob", "Cy", "Dee"};
	struct render_scene scene = {.view = &view, .waiting_for = legal_waiting_for(&game)};
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		scene.names[s] = names[s];
	render_last_move_of(recent, recent_count, &scene.last_move);
	size_t svg_bytes = 0, png_bytes = 0;
	double svg = 0, png = 0;
	if (!only || strcmp(only, "svg") == 0)
		svg = time_format(&scene, RENDER_FORMAT_SVG, rounds, &svg_bytes);
	if (!only || strcmp(only, "png") == 0)
		png = time_format(&scene, RENDER_FORMAT_PNG, rounds / 4 > 0 ? rounds / 4 : 1, &png_bytes);
	if (!only)
		printf("bench render: svg %.2f ms, png %.2f ms\n", svg, png);
	else
		printf("bench render: %s %.2f ms\n", only, svg_bytes ? svg : png);
	fprintf(stderr, "(version %u, 1024 px: svg %zu bytes, png %zu bytes)\n", game.version, svg_bytes, png_bytes);
	free(log);
	free(scratch);
	render_shutdown();
	return 0;
}
