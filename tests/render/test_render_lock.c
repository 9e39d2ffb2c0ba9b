/*
 * test_render_lock.c - render/ calls cairo under one lock (render/lock.h, issue 20 item 2):
 * threads drawing at once get exactly the bytes one thread drawing alone gets, and never
 * abort (cairo 1.16's scaled-font cache, raced between drawing threads, did); the lock
 * belongs to the thread that took it; and a cairo call checked by render/cairo_checked.h
 * aborts when its thread does not hold the lock.
 *
 * This file includes render/cairo_checked.h itself, so its own cairo calls are checked
 * like render/'s.
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/games.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "render/lock.h"
#include "render/render.h"
#include "tests/check_main.h"
#include "render/cairo_checked.h" /* last: after every header that declares cairo */

#define THREADS 3
#define PICTURES 24 /* per thread */

static struct game_view views[2];
static struct render_scene scenes[2];

/* Two random 4-seat games, one in setup and one in its middle, as a spectator sees them. */
static void make_scenes(void)
{
	static const int stops[2] = {12, 200};
	for (int g = 0; g < 2; g++) {
		struct games_record record;
		ck_assert(
			games_record_play(&record, 4, GAME_LAYOUT_RANDOM, BOARD_NUMBERS_SPIRAL, 0, 5100 + (uint64_t)g));
		struct game state;
		memset(&state, 0, sizeof state);
		int stop = stops[g] < record.count ? stops[g] : record.count;
		for (int i = 0; i < stop; i++)
			apply_event(&state, &record.events[i]);
		view_game(&state, VIEW_SPECTATOR, &views[g]);
		memset(&scenes[g], 0, sizeof scenes[g]);
		scenes[g].view = &views[g];
		scenes[g].waiting_for = legal_waiting_for(&state);
		render_last_move_of(record.events, stop, &scenes[g].last_move);
		games_record_free(&record);
	}
}

/* Picture i of the set: scene, format, theme, labels and a size of its own, so each
 * thread's pictures need fonts of sizes no other picture uses. */
static void picture(int i, const struct render_scene **scene, struct render_options *options)
{
	*scene = &scenes[i % 2];
	options->format = i / 2 % 2 ? RENDER_FORMAT_PNG : RENDER_FORMAT_SVG;
	options->theme = i / 4 % 2 ? RENDER_THEME_DARK : RENDER_THEME_LIGHT;
	options->labels = (unsigned)(i / 8 % 8);
	options->size = RENDER_SIZE_MIN + i * 23 % 400;
}

struct drawn {
	unsigned char *bytes;
	size_t length;
};

static struct drawn alone[THREADS * PICTURES], together[THREADS * PICTURES];

static void draw(int i, struct drawn *out)
{
	const struct render_scene *scene;
	struct render_options options;
	picture(i, &scene, &options);
	out->bytes = NULL;
	out->length = 0;
	if (!render_board(scene, &options, &out->bytes, &out->length))
		out->bytes = NULL;
}

static void *draw_share(void *argument)
{
	int thread = (int)(intptr_t)argument;
	for (int k = 0; k < PICTURES; k++)
		draw(k * THREADS + thread, &together[k * THREADS + thread]);
	return NULL;
}

START_TEST(test_threads_drawing_at_once_get_the_bytes_of_one_thread_drawing_alone)
{
	make_scenes();
	/* Together first, so that no font is cached yet when the threads start. */
	pthread_t threads[THREADS];
	for (int t = 0; t < THREADS; t++)
		ck_assert_int_eq(pthread_create(&threads[t], NULL, draw_share, (void *)(intptr_t)t), 0);
	for (int t = 0; t < THREADS; t++)
		pthread_join(threads[t], NULL);
	for (int i = 0; i < THREADS * PICTURES; i++)
		draw(i, &alone[i]);
	for (int i = 0; i < THREADS * PICTURES; i++) {
		ck_assert_msg(alone[i].bytes && together[i].bytes, "picture %d was not drawn", i);
		ck_assert_msg(alone[i].length == together[i].length &&
				      memcmp(alone[i].bytes, together[i].bytes, alone[i].length) == 0,
			      "picture %d drawn among other threads differs from the same picture drawn alone", i);
		free(alone[i].bytes);
		free(together[i].bytes);
	}
	ck_assert(!render_lock_held());
}
END_TEST

static void *hold_and_report(void *argument)
{
	int *held = argument;
	held[0] = render_lock_held();
	render_lock_acquire();
	held[1] = render_lock_held();
	render_lock_release();
	return NULL;
}

START_TEST(test_the_lock_is_held_by_the_thread_that_took_it_only)
{
	ck_assert(!render_lock_held());
	render_lock_acquire();
	ck_assert(render_lock_held());
	/* A checked cairo call with the lock held is the call. */
	ck_assert_int_eq(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, 10), 40);
	render_lock_release();
	ck_assert(!render_lock_held());
	/* Another thread does not hold what this one holds, and waits for it. */
	render_lock_acquire();
	int held[2] = {-1, -1};
	pthread_t other;
	ck_assert_int_eq(pthread_create(&other, NULL, hold_and_report, held), 0);
	render_lock_release();
	pthread_join(other, NULL);
	ck_assert_int_eq(held[0], 0);
	ck_assert_int_eq(held[1], 1);
}
END_TEST

START_TEST(test_a_checked_cairo_call_without_the_lock_aborts)
{
	/* (the check is an assert: this fails in a build with NDEBUG, which has none) */
	cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, 10);
}
END_TEST

Suite *test_suite(void)
{
	atexit(render_shutdown);
	Suite *suite = suite_create("render_lock");
	TCase *lock = tcase_create("lock");
	tcase_set_timeout(lock, 120);
	tcase_add_test(lock, test_threads_drawing_at_once_get_the_bytes_of_one_thread_drawing_alone);
	tcase_add_test(lock, test_the_lock_is_held_by_the_thread_that_took_it_only);
	tcase_add_test_raise_signal(lock, test_a_checked_cairo_call_without_the_lock_aborts, SIGABRT);
	suite_add_tcase(suite, lock);
	return suite;
}
