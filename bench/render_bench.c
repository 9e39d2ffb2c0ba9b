/*
 * render_bench.c - what a board picture costs: one mid-game board (a random 4-seat game on
 * the beginner board, stopped when a seat first shows 6 public points) drawn at 1024 px as
 * SVG and as PNG, many times on one core; prints
 *
 *   bench render: svg <ms> ms, png <ms> ms
 *
 * (`make bench-render`; targets: SVG under 2 ms, PNG under 20 ms). With --log FILE it also
 * writes that game's event log up to the board drawn, the log `catan render` reads (`make
 * docs-board` draws docs/board.png from it).
 *
 *   render_bench [--rounds N] [--log FILE]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/games.h"
#include "codec/log.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "render/render.h"

#define RECENT 8

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
	const char *log_path = NULL;
	for (int i = 1; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--rounds") == 0)
			rounds = atoi(argv[i + 1]) > 0 ? atoi(argv[i + 1]) : 1;
		else if (strcmp(argv[i], "--log") == 0)
			log_path = argv[i + 1];
	}
	struct games_record record;
	games_record_play(&record, 4, GAME_LAYOUT_BEGINNER, BOARD_NUMBERS_SPIRAL, 0, 11);
	struct game game;
	memset(&game, 0, sizeof game);
	struct event recent[RECENT];
	int recent_count = 0, applied = 0;
	for (; applied < record.count; applied++) {
		apply_event(&game, &record.events[applied]);
		struct event seen;
		view_event(&record.events[applied], VIEW_SPECTATOR, &seen);
		if (recent_count == RECENT) {
			memmove(recent, recent + 1, sizeof *recent * (RECENT - 1));
			recent_count--;
		}
		recent[recent_count++] = seen;
		int shown = 0;
		for (int s = 0; s < game.options.seats; s++)
			shown = game_public_points(&game, s) >= 6 ? 1 : shown;
		if (shown && game.phase == GAME_PHASE_MAIN)
			break;
	}
	if (applied < record.count)
		applied++;
	if (log_path) {
		FILE *file = fopen(log_path, "w");
		if (!file) {
			perror(log_path);
			return 1;
		}
		fputs("[\n", file);
		for (int i = 0; i < applied; i++) {
			char *text = codec_event_dump(&record.events[i], 4);
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
	size_t svg_bytes, png_bytes;
	double svg = time_format(&scene, RENDER_FORMAT_SVG, rounds, &svg_bytes);
	double png = time_format(&scene, RENDER_FORMAT_PNG, rounds / 4 > 0 ? rounds / 4 : 1, &png_bytes);
	printf("bench render: svg %.2f ms, png %.2f ms\n", svg, png);
	fprintf(stderr, "(version %u, 1024 px: svg %zu bytes, png %zu bytes)\n", game.version, svg_bytes, png_bytes);
	games_record_free(&record);
	return 0;
}
