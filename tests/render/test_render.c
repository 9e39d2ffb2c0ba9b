/*
 * test_render.c - the renderer (render/) without a server: it refuses anything but a
 * spectator's view, draws the same bytes for the same scene, frames the island on the
 * projection, names the SVG's elements, reads its options; the last move it highlights;
 * the picture cache of the server (render/picture_cache.c) keeps to its budget and its drawing
 * slots (render/render_slots.c) to their count, queue and wait; and `catan
 * render` draws a log file like `catan replay` reads it (through the program named by
 * $CATAN).
 */
#include <cairo.h>
#include <math.h>
#include <pthread.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "render/picture_cache.h"
#include "render/render_slots.h"
#include "bench/games.h"
#include "codec/log.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "render/render.h"
#include "tests/check_main.h"

/* A random 4-seat game played to its middle (version `stop`), and its spectator scene. */
struct played {
	struct games_record record;
	struct game state;
	struct game_view view;
	struct event recent[8];
	int recent_count;
	struct render_scene scene;
};

static void play_to(struct played *played, uint64_t seed, int stop)
{
	ck_assert(games_record_play(&played->record, 4, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_SPIRAL, 0, seed));
	if (stop > played->record.count)
		stop = played->record.count;
	memset(&played->state, 0, sizeof played->state);
	played->recent_count = 0;
	for (int i = 0; i < stop; i++) {
		apply_event(&played->state, &played->record.events[i]);
		if (i >= stop - 8)
			view_event(&played->record.events[i], VIEW_SPECTATOR, &played->recent[played->recent_count++]);
	}
	view_game(&played->state, VIEW_SPECTATOR, &played->view);
	memset(&played->scene, 0, sizeof played->scene);
	played->scene.view = &played->view;
	played->scene.waiting_for = legal_waiting_for(&played->state);
	render_last_move_of(played->recent, played->recent_count, &played->scene.last_move);
}

static void draw(const struct render_scene *scene, enum render_format format, unsigned labels, unsigned char **bytes,
		 size_t *length)
{
	struct render_options options = {format, RENDER_THEME_LIGHT, RENDER_SIZE_DEFAULT, labels};
	ck_assert_msg(render_board(scene, &options, bytes, length), "render_board refused a spectator's scene");
}

static size_t count_text(const unsigned char *bytes, size_t length, const char *needle)
{
	size_t found = 0, size = strlen(needle);
	for (size_t i = 0; i + size <= length; i++)
		found += memcmp(bytes + i, needle, size) == 0;
	return found;
}

START_TEST(test_a_seat_view_is_refused_and_a_spectator_view_drawn_the_same_every_time)
{
	struct played played;
	play_to(&played, 3, 400);
	struct game_view seat_view;
	view_game(&played.state, 1, &seat_view);
	struct render_scene scene = played.scene;
	scene.view = &seat_view;
	struct render_options options = {RENDER_FORMAT_PNG, RENDER_THEME_LIGHT, RENDER_SIZE_DEFAULT, 0};
	unsigned char *bytes = NULL;
	size_t length = 0;
	ck_assert(!render_board(&scene, &options, &bytes, &length));
	ck_assert_ptr_null(bytes);
	options.size = RENDER_SIZE_MIN - 1;
	ck_assert(!render_board(&played.scene, &options, &bytes, &length));
	options.size = RENDER_SIZE_MAX + 1;
	ck_assert(!render_board(&played.scene, &options, &bytes, &length));

	for (int format = RENDER_FORMAT_SVG; format <= RENDER_FORMAT_PNG; format++) {
		unsigned char *first, *second;
		size_t first_length, second_length;
		draw(&played.scene, (enum render_format)format, 0, &first, &first_length);
		draw(&played.scene, (enum render_format)format, 0, &second, &second_length);
		ck_assert(first_length == second_length && memcmp(first, second, first_length) == 0);
		if (format == RENDER_FORMAT_PNG)
			ck_assert(first_length > 8 && memcmp(first, "\x89PNG\r\n\x1a\n", 8) == 0);
		else
			ck_assert(strncmp((const char *)first, "<?xml", 5) == 0);
		free(first);
		free(second);
	}
	games_record_free(&played.record);
}
END_TEST

START_TEST(test_svg_names_every_hex_harbor_piece_and_asked_label_and_leaves_no_marker)
{
	struct played played;
	play_to(&played, 5, 600);
	int buildings = 0, roads = 0;
	for (int node = 0; node < BOARD_NODES; node++)
		buildings += played.view.node_owner[node] != 0;
	for (int edge = 0; edge < BOARD_EDGES; edge++)
		roads += played.view.edge_owner[edge] != 0;
	ck_assert_int_gt(buildings, 8);
	unsigned char *svg;
	size_t length;
	draw(&played.scene, RENDER_FORMAT_SVG, RENDER_LABEL_NODES | RENDER_LABEL_EDGES | RENDER_LABEL_HEXES, &svg,
	     &length);
	ck_assert_uint_eq(count_text(svg, length, "class=\"hex terrain-"), 19);
	ck_assert_uint_eq(count_text(svg, length, "class=\"harbor harbor-"), 9);
	ck_assert_uint_eq(count_text(svg, length, "class=\"piece settlement") +
				  count_text(svg, length, "class=\"piece city"),
			  (size_t)buildings);
	ck_assert_uint_eq(count_text(svg, length, "class=\"piece road"), (size_t)roads);
	ck_assert_uint_eq(count_text(svg, length, "class=\"label label-node\""), 54);
	ck_assert_uint_eq(count_text(svg, length, "class=\"label label-edge\""), 72);
	ck_assert_uint_eq(count_text(svg, length, "class=\"label label-hex\""), 19);
	/* every group closed, no marker colour left */
	ck_assert_uint_eq(count_text(svg, length, "<g>") + count_text(svg, length, "<g "),
			  count_text(svg, length, "</g>"));
	ck_assert_uint_eq(count_text(svg, length, "fill:rgb(0.392157%,"), 0);
	ck_assert_uint_eq(count_text(svg, length, "fill:rgb(0.784314%,"), 0);
	ck_assert_uint_eq(count_text(svg, length, "1.176471%,0.784314%,0.392157%"), 0);
	ck_assert_uint_eq(count_text(svg, length, "fill-opacity:0.5"), 0);
	ck_assert_uint_eq(count_text(svg, length, "<rect "), 1); /* the background alone */
	free(svg);
	games_record_free(&played.record);
}
END_TEST

START_TEST(test_svg_text_is_two_glyph_sets_in_a_few_runs_and_the_tokens_one_group)
{
	/* what keeps an SVG cheap to write (bench-render): the default picture's text uses two
	 * fonts (one set of glyph outlines each), is drawn in a run per font and colour of each
	 * layer rather than one per word, and the number tokens are one group */
	struct played played;
	play_to(&played, 7, 500);
	static const char *const names[4] = {"Alice", "bob_the_builder", "Zoë", "Q"};
	for (int seat = 0; seat < 4; seat++)
		played.scene.names[seat] = names[seat];
	unsigned char *svg;
	size_t length;
	draw(&played.scene, RENDER_FORMAT_SVG, 0, &svg, &length);
	ck_assert_uint_gt(count_text(svg, length, "id=\"glyph0-"), 20);
	ck_assert_uint_gt(count_text(svg, length, "id=\"glyph1-"), 5);
	ck_assert_uint_eq(count_text(svg, length, "id=\"glyph2-"), 0);
	ck_assert_uint_le(count_text(svg, length, "<g style=\""), 16);
	ck_assert_uint_eq(count_text(svg, length, "<g id=\"tokens\" class=\"tokens\">"), 1);
	ck_assert_uint_eq(count_text(svg, length, "id=\"token-"), 0);
	free(svg);
	games_record_free(&played.record);
}
END_TEST

struct png_reading {
	const unsigned char *bytes;
	size_t length, at;
};

static cairo_status_t png_read(void *closure, unsigned char *data, unsigned int length)
{
	struct png_reading *reading = closure;
	if (reading->at + length > reading->length)
		return CAIRO_STATUS_READ_ERROR;
	memcpy(data, reading->bytes + reading->at, length);
	reading->at += length;
	return CAIRO_STATUS_SUCCESS;
}

START_TEST(test_png_is_opaque_rgb_of_the_asked_size_and_cairo_reads_back_its_pixels)
{
	struct played played;
	play_to(&played, 11, 500);
	for (int size = RENDER_SIZE_MIN; size <= RENDER_SIZE_MAX; size += 864) {
		struct render_options options = {RENDER_FORMAT_PNG, RENDER_THEME_DARK, size, 0};
		unsigned char *png;
		size_t length;
		ck_assert(render_board(&played.scene, &options, &png, &length));
		/* IHDR: width, height, 8 bits, colour type 2 (RGB, no alpha) */
		ck_assert(length > 33 && memcmp(png + 12, "IHDR", 4) == 0);
		uint32_t width = (uint32_t)png[16] << 24 | (uint32_t)png[17] << 16 | (uint32_t)png[18] << 8 | png[19];
		uint32_t height = (uint32_t)png[20] << 24 | (uint32_t)png[21] << 16 | (uint32_t)png[22] << 8 | png[23];
		ck_assert_uint_eq(width, (uint32_t)size);
		ck_assert_uint_eq(height, (uint32_t)RENDER_HEIGHT(size));
		ck_assert_int_eq(png[24], 8);
		ck_assert_int_eq(png[25], 2);
		struct png_reading reading = {png, length, 0};
		cairo_surface_t *image = cairo_image_surface_create_from_png_stream(png_read, &reading);
		ck_assert_int_eq(cairo_surface_status(image), CAIRO_STATUS_SUCCESS);
		ck_assert_int_eq(cairo_image_surface_get_width(image), size);
		/* the panel's corner is the dark theme's panel colour, the sea's is the sea's */
		const unsigned char *data = cairo_image_surface_get_data(image);
		int stride = cairo_image_surface_get_stride(image);
		uint32_t panel =
			*(const uint32_t *)(const void *)(data + (size_t)(RENDER_HEIGHT(size) - 1) * (size_t)stride +
							  (size_t)(size - 1) * 4);
		uint32_t sea = *(const uint32_t *)(const void *)(data + 4);
		ck_assert_uint_eq(panel & 0xFFFFFF, 0x15191F);
		ck_assert_uint_eq(sea & 0xFFFFFF, 0x1F4B6E);
		cairo_surface_destroy(image);
		free(png);
	}
	games_record_free(&played.record);
}
END_TEST

START_TEST(test_png_is_the_same_bytes_whether_or_not_an_svg_was_drawn_first)
{
	/* cairo resolves a font once per process, with the options of its first use: a PNG drawn
	 * in a fresh process and one drawn after an SVG must still be the same bytes */
	struct played played;
	play_to(&played, 13, 400);
	unsigned char *first, *svg, *second;
	size_t first_length, svg_length, second_length;
	render_shutdown(); /* as a fresh process: no font resolved yet */
	draw(&played.scene, RENDER_FORMAT_PNG, 0, &first, &first_length);
	render_shutdown();
	draw(&played.scene, RENDER_FORMAT_SVG, 0, &svg, &svg_length);
	draw(&played.scene, RENDER_FORMAT_PNG, 0, &second, &second_length);
	ck_assert(first_length == second_length && memcmp(first, second, first_length) == 0);
	free(first);
	free(svg);
	free(second);
	games_record_free(&played.record);
}
END_TEST

START_TEST(test_the_island_fills_the_left_square_centred_on_the_projection)
{
	for (int size = RENDER_SIZE_MIN; size <= RENDER_SIZE_MAX; size += 432) {
		struct render_options options = {RENDER_FORMAT_PNG, RENDER_THEME_LIGHT, size, 0};
		struct render_layout layout;
		render_layout(&options, &layout);
		ck_assert_int_eq(layout.width, size);
		ck_assert_int_eq(layout.height, RENDER_HEIGHT(size));
		struct geometry_box box = geometry_bounds();
		struct geometry_point low = render_to_pixels(&layout, (struct geometry_point){box.min_x, box.min_y});
		struct geometry_point high = render_to_pixels(&layout, (struct geometry_point){box.max_x, box.max_y});
		ck_assert(low.x > 0 && low.y > 0 && high.x < layout.height && high.y < layout.height);
		/* centred: equal margins on the tighter axis */
		double margin_x = low.x + (layout.height - high.x), margin_y = low.y + (layout.height - high.y);
		ck_assert(fabs(low.x - (layout.height - high.x)) < 0.01 &&
			  fabs(low.y - (layout.height - high.y)) < 0.01);
		ck_assert(margin_x > 0 && margin_y > 0);
	}
}
END_TEST

START_TEST(test_options_read_label_subsets_and_themes_and_refuse_anything_else)
{
	unsigned labels = 99;
	ck_assert(render_labels_parse("", &labels) && labels == 0);
	ck_assert(render_labels_parse("nodes", &labels) && labels == RENDER_LABEL_NODES);
	ck_assert(render_labels_parse("hexes,edges", &labels) && labels == (RENDER_LABEL_HEXES | RENDER_LABEL_EDGES));
	ck_assert(render_labels_parse("nodes,edges,hexes", &labels) && labels == 7);
	const char *bad[] = {"node", "nodes,", ",nodes", "nodes,nodes", "nodes edges", "NODES", "roads"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!render_labels_parse(bad[i], &labels), "%s was read", bad[i]);
	enum render_theme theme;
	ck_assert(render_theme_parse("dark", &theme) && theme == RENDER_THEME_DARK);
	ck_assert(render_theme_parse("light", &theme) && theme == RENDER_THEME_LIGHT);
	ck_assert(!render_theme_parse("Dark", &theme) && !render_theme_parse("", &theme));
}
END_TEST

START_TEST(test_the_last_move_skips_what_follows_from_it)
{
	struct event events[4];
	event_init(&events[0], EVENT_DICE_ROLLED);
	events[0].seat = 1;
	event_init(&events[1], EVENT_ROBBER_MOVED);
	events[1].seat = 1;
	events[1].hex = 7;
	event_init(&events[2], EVENT_RESOURCE_STOLEN);
	events[2].seat = 1;
	event_init(&events[3], EVENT_LARGEST_ARMY_CHANGED);
	events[3].seat = 1;
	struct render_last_move last;
	render_last_move_of(events, 4, &last);
	ck_assert_int_eq(last.type, EVENT_ROBBER_MOVED);
	ck_assert_int_eq(last.hex, 7);
	render_last_move_of(events, 1, &last);
	ck_assert_int_eq(last.type, EVENT_DICE_ROLLED);
	render_last_move_of(events + 2, 2, &last);
	ck_assert_int_eq(last.type, -1);
}
END_TEST

START_TEST(test_the_picture_cache_keeps_to_its_budget_dropping_the_least_recently_used)
{
	size_t size = PICTURE_CACHE_BYTES / 8;
	unsigned char *bytes = calloc(1, size);
	ck_assert_ptr_nonnull(bytes);
	for (int i = 0; i < 20; i++) {
		struct picture_key key = {1, i, 1, 0, 0, 1024};
		bytes[0] = (unsigned char)i;
		picture_cache_put(&key, bytes, size);
		ck_assert(picture_cache_bytes() <= PICTURE_CACHE_BYTES);
		/* keep version 0 in use: it must survive */
		struct picture_key first = {1, 0, 1, 0, 0, 1024};
		unsigned char *got;
		size_t length;
		ck_assert(picture_cache_get(&first, &got, &length));
		ck_assert(length == size && got[0] == 0);
		free(got);
	}
	ck_assert_int_eq(picture_cache_count(), 8);
	struct picture_key gone = {1, 1, 1, 0, 0, 1024}, newest = {1, 19, 1, 0, 0, 1024},
			   other = {1, 19, 0, 0, 0, 1024};
	unsigned char *got;
	size_t length;
	ck_assert(!picture_cache_get(&gone, &got, &length));
	ck_assert(!picture_cache_get(&other, &got, &length)); /* another format is another picture */
	ck_assert(picture_cache_get(&newest, &got, &length) && got[0] == 19);
	free(got);
	/* too large to keep */
	unsigned char *huge = calloc(1, PICTURE_CACHE_BYTES / 2);
	struct picture_key big = {2, 1, 1, 0, 0, 1024};
	picture_cache_put(&big, huge, PICTURE_CACHE_BYTES / 2);
	ck_assert(!picture_cache_get(&big, &got, &length));
	free(huge);
	free(bytes);
}
END_TEST

/* ---- the CLI ---- */

static int run_catan(const char *arguments, char *output, size_t size)
{
	const char *catan = getenv("CATAN");
	if (!catan || !*catan)
		catan = "build/catan";
	ck_assert_msg(access(catan, X_OK) == 0, "%s is not an executable: set CATAN", catan);
	char command[1024];
	snprintf(command, sizeof command, "'%s' %s 2>&1", catan, arguments);
	FILE *pipe = popen(command, "r");
	ck_assert_ptr_nonnull(pipe);
	size_t length = fread(output, 1, size - 1, pipe);
	output[length] = '\0';
	int status = pclose(pipe);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

static double monotonic_seconds(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

struct slot_waiter {
	enum render_slot result;
	double waited;
};

static void *wait_for_slot(void *argument)
{
	struct slot_waiter *waiter = argument;
	double start = monotonic_seconds();
	waiter->result = render_slots_acquire();
	waiter->waited = monotonic_seconds() - start;
	if (waiter->result == RENDER_SLOT_TAKEN)
		render_slots_release();
	return NULL;
}

START_TEST(test_drawing_slots_keep_to_their_count_queue_and_wait)
{
	render_slots_configure(2, 1, 300);
	ck_assert_int_eq(render_slots_acquire(), RENDER_SLOT_TAKEN);
	ck_assert_int_eq(render_slots_acquire(), RENDER_SLOT_TAKEN);
	ck_assert_int_eq(render_slots_in_use(), 2);
	/* both taken: a waiter gives up after the wait */
	struct slot_waiter first = {0};
	pthread_t thread;
	pthread_create(&thread, NULL, wait_for_slot, &first);
	double start = monotonic_seconds();
	while (render_slots_waiting() < 1 && monotonic_seconds() - start < 5)
		usleep(1000);
	ck_assert_int_eq(render_slots_waiting(), 1);
	/* the queue is full: no wait at all */
	double before = monotonic_seconds();
	ck_assert_int_eq(render_slots_acquire(), RENDER_SLOT_TOO_MANY_WAITING);
	ck_assert(monotonic_seconds() - before < 0.1);
	pthread_join(thread, NULL);
	ck_assert_int_eq(first.result, RENDER_SLOT_TIMED_OUT);
	ck_assert_msg(first.waited >= 0.29 && first.waited < 3, "waited %.3f s", first.waited);
	ck_assert_int_eq(render_slots_waiting(), 0);
	/* a slot given back while one waits goes to the waiter */
	struct slot_waiter second = {0};
	pthread_create(&thread, NULL, wait_for_slot, &second);
	while (render_slots_waiting() < 1 && monotonic_seconds() - start < 10)
		usleep(1000);
	render_slots_release();
	pthread_join(thread, NULL);
	ck_assert_int_eq(second.result, RENDER_SLOT_TAKEN);
	ck_assert(second.waited < 0.29);
	ck_assert_int_eq(render_slots_in_use(), 1);
	render_slots_release();
	ck_assert_int_eq(render_slots_in_use(), 0);
	/* no wait at all: a busy slot answers at once */
	render_slots_configure(1, 4, 0);
	ck_assert_int_eq(render_slots_acquire(), RENDER_SLOT_TAKEN);
	ck_assert_int_eq(render_slots_acquire(), RENDER_SLOT_TIMED_OUT);
	render_slots_release();
}
END_TEST

START_TEST(test_catan_render_draws_a_log_file_at_a_version)
{
	struct games_record game;
	ck_assert(games_record_play(&game, 3, GAME_LAYOUT_BEGINNER, BOARD_NUMBERS_SPIRAL, 0, 4));
	char log[] = "/tmp/catan-render-XXXXXX";
	int fd = mkstemp(log);
	ck_assert_int_ge(fd, 0);
	FILE *file = fdopen(fd, "w");
	fputs("{\"events\": [", file);
	for (int i = 0; i < game.count; i++) {
		char *text = codec_event_dump(&game.events[i], 3);
		fprintf(file, "%s%s", i ? "," : "", text);
		free(text);
	}
	fputs("]}", file);
	fclose(file);

	char png[64], svg[64], arguments[512], output[1024];
	snprintf(png, sizeof png, "%s.png", log);
	snprintf(svg, sizeof svg, "%s.svg", log);
	snprintf(arguments, sizeof arguments, "render '%s' --out '%s' --version 30", log, png);
	ck_assert_msg(run_catan(arguments, output, sizeof output) == 0, "%s", output);
	ck_assert_msg(strstr(output, "version 30,") != NULL, "%s", output);
	cairo_surface_t *surface = cairo_image_surface_create_from_png(png);
	ck_assert(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS);
	ck_assert_int_eq(cairo_image_surface_get_width(surface), RENDER_SIZE_DEFAULT);
	cairo_surface_destroy(surface);

	snprintf(arguments, sizeof arguments, "render '%s' --out '%s' --labels nodes,hexes --size 500", log, svg);
	ck_assert_msg(run_catan(arguments, output, sizeof output) == 0, "%s", output);
	file = fopen(svg, "r");
	ck_assert_ptr_nonnull(file);
	static char text[1 << 20];
	size_t length = fread(text, 1, sizeof text, file);
	fclose(file);
	ck_assert_uint_eq(count_text((unsigned char *)text, length, "class=\"label label-node\""), 54);
	ck_assert_uint_eq(count_text((unsigned char *)text, length, "class=\"label label-edge\""), 0);

	snprintf(arguments, sizeof arguments, "render '%s' --out '%s' --version %d", log, png, game.count + 1);
	ck_assert_int_eq(run_catan(arguments, output, sizeof output), 1);
	ck_assert_msg(strstr(output, "beyond") != NULL, "%s", output);
	snprintf(arguments, sizeof arguments, "render '%s' --out '%s' --labels roads", log, png);
	ck_assert_int_eq(run_catan(arguments, output, sizeof output), 2);
	snprintf(arguments, sizeof arguments, "render '%s' --out '%s.gif'", log, log);
	ck_assert_int_eq(run_catan(arguments, output, sizeof output), 2);
	unlink(png);
	unlink(svg);
	unlink(log);
	games_record_free(&game);
}
END_TEST

Suite *test_suite(void)
{
	/* each test's process releases the font caches as it exits, so the leak checker of
	 * the sanitizer pass sees only what the renderer itself leaves */
	atexit(render_shutdown);
	Suite *suite = suite_create("render");
	TCase *pictures = tcase_create("pictures");
	tcase_set_timeout(pictures, 120);
	tcase_add_test(pictures, test_a_seat_view_is_refused_and_a_spectator_view_drawn_the_same_every_time);
	tcase_add_test(pictures, test_svg_names_every_hex_harbor_piece_and_asked_label_and_leaves_no_marker);
	tcase_add_test(pictures, test_svg_text_is_two_glyph_sets_in_a_few_runs_and_the_tokens_one_group);
	tcase_add_test(pictures, test_png_is_opaque_rgb_of_the_asked_size_and_cairo_reads_back_its_pixels);
	tcase_add_test(pictures, test_png_is_the_same_bytes_whether_or_not_an_svg_was_drawn_first);
	tcase_add_test(pictures, test_the_island_fills_the_left_square_centred_on_the_projection);
	tcase_add_test(pictures, test_options_read_label_subsets_and_themes_and_refuse_anything_else);
	tcase_add_test(pictures, test_the_last_move_skips_what_follows_from_it);
	tcase_add_test(pictures, test_the_picture_cache_keeps_to_its_budget_dropping_the_least_recently_used);
	tcase_add_test(pictures, test_drawing_slots_keep_to_their_count_queue_and_wait);
	tcase_add_test(pictures, test_catan_render_draws_a_log_file_at_a_version);
	suite_add_tcase(suite, pictures);
	return suite;
}
