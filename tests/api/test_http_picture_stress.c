/*
 * test_http_picture_stress.c - many board pictures drawn at once by one server, none of
 * them cached (issue 20 item 2: two threads drawing at once raced cairo 1.16's scaled-font
 * cache and aborted the server, `cairo_scaled_font_reference: Assertion ... failed`).
 *
 * PICTURE_STRESS_THREADS clients (3) each ask PICTURE_STRESS_PICTURES pictures (150 here,
 * 2,000 in `make test-picture-stress`) of one game with history, each picture one nobody
 * asked for before: every request enumerates its own combination of format (svg, png),
 * theme (light, dark), labels (every subset of nodes, edges, hexes), version and size, so
 * every one is drawn. The server draws RENDER_CONCURRENCY=4 pictures at once and lets a
 * request wait up to a minute for a slot, so every request is drawn and none is refused.
 * Each client opens a new connection every few requests, so the requests spread over the
 * server's threads. What must hold: every answer is the picture asked for (200, its
 * content type, PNG or SVG bytes), the server never stops answering, exits 0 on SIGTERM
 * (an abort is a signal) and its log holds no assertion or sanitizer report.
 *
 * Bounded by count, not time: the figures it prints (pictures per second) are for
 * information only.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0}"
#define MAX_THREADS 16
/* Versions the pictures are drawn at: the game is played this far first. */
#define VERSIONS 40
/* How many requests a client sends on one connection before opening the next. */
#define REQUESTS_PER_CONNECTION 4

static int setting(const char *name, int fallback, int low, int high)
{
	const char *text = getenv(name);
	int value = text && *text ? atoi(text) : fallback;
	return value < low ? low : value > high ? high : value;
}

struct stress {
	const char *base;
	const char *game_path;
	int pictures;	  /* per client */
	atomic_int *next; /* the next combination to ask for */
	pthread_barrier_t *barrier;
	/* results, checked by the test's own thread (Check's assertions belong to it) */
	int drawn, wrong;
	char wrong_description[320];
};

/* Combination k, unique for every k below 32 * (RENDER_SIZE_MAX - RENDER_SIZE_MIN + 1):
 * format, theme and labels from its low bits, then the size (stepping by a number prime to
 * the range, so neighbouring combinations differ in size a lot) and with it the version. */
static void picture_path(const char *game_path, int k, char *out, size_t size, int *png)
{
	static const char *const label_lists[8] = {"",	    "nodes",	   "edges",	  "nodes,edges",
						   "hexes", "nodes,hexes", "edges,hexes", "nodes,edges,hexes"};
	*png = k & 1;
	int dark = k >> 1 & 1, labels = k >> 2 & 7, rest = k >> 5;
	int version = 1 + rest % VERSIONS;
	int sizes = RENDER_SIZE_MAX - RENDER_SIZE_MIN + 1;
	int pixels = RENDER_SIZE_MIN + rest * 97 % sizes;
	snprintf(out, size, "%s/board.%s?version=%d&size=%d%s%s%s", game_path, *png ? "png" : "svg", version, pixels,
		 dark ? "&theme=dark" : "", labels ? "&labels=" : "", label_lists[labels]);
}

static void *ask(void *argument)
{
	struct stress *stress = argument;
	pthread_barrier_wait(stress->barrier);
	struct http_client client;
	int open = 0;
	for (int i = 0; i < stress->pictures; i++) {
		if (open && i % REQUESTS_PER_CONNECTION == 0) {
			http_client_cleanup(&client);
			open = 0;
		}
		if (!open) {
			http_client_init(&client, stress->base, 0);
			client.timeout_ms = 120000;
			open = 1;
		}
		int png;
		char path[256];
		picture_path(stress->game_path, atomic_fetch_add(stress->next, 1), path, sizeof path, &png);
		struct http_response response;
		http_call(&client, "GET", path, NULL, NULL, NULL, &response);
		char type[64] = "";
		http_response_header(&response, "Content-Type", type, sizeof type);
		int right = response.status == 200 && strcmp(type, png ? "image/png" : "image/svg+xml") == 0 &&
			    (png ? response.body_length > 8 && memcmp(response.body, "\x89PNG\r\n\x1a\n", 8) == 0
				 : strstr(response.body, "<svg") != NULL && strstr(response.body, "</svg>") != NULL);
		if (right) {
			stress->drawn++;
		} else if (stress->wrong++ == 0) {
			snprintf(stress->wrong_description, sizeof stress->wrong_description, "%s: %s", path,
				 http_describe(&response));
		}
		http_response_free(&response);
	}
	if (open)
		http_client_cleanup(&client);
	return NULL;
}

START_TEST(test_threads_drawing_uncached_pictures_at_once_never_abort_the_server)
{
	int threads = setting("PICTURE_STRESS_THREADS", 3, 1, MAX_THREADS);
	int pictures = setting("PICTURE_STRESS_PICTURES", 150, 1, 100000);
	static const char *const settings[] = {"RENDER_CONCURRENCY=4", "RENDER_WAIT_MS=60000", "THREADS=8", NULL};
	struct http_server server;
	http_server_start(&server, settings);
	/* (a server that dies fails the test in a client's request, before it can quote the log) */
	fprintf(stderr, "picture stress: the server's log is %s\n", server.log_path);
	struct http_client client;
	http_client_init(&client, server.url, 0);
	struct http_game game;
	http_game_create(&client, 3, FIXED_START, &game);
	struct http_player player;
	http_player_init(&player, &client, &game, 2011, 1);
	while (http_game_version(&client, &game) < VERSIONS)
		ck_assert_msg(http_player_step(&player, NULL), "the game ended before version %d", VERSIONS);

	atomic_int next = 0;
	pthread_barrier_t barrier;
	pthread_barrier_init(&barrier, NULL, (unsigned)threads + 1);
	struct stress stresses[MAX_THREADS];
	pthread_t ids[MAX_THREADS];
	for (int t = 0; t < threads; t++) {
		stresses[t] = (struct stress){.base = server.url,
					      .game_path = game.path,
					      .pictures = pictures,
					      .next = &next,
					      .barrier = &barrier};
		pthread_create(&ids[t], NULL, ask, &stresses[t]);
	}
	double started = http_clock();
	pthread_barrier_wait(&barrier);
	int drawn = 0, wrong = 0;
	for (int t = 0; t < threads; t++) {
		pthread_join(ids[t], NULL);
		drawn += stresses[t].drawn;
		wrong += stresses[t].wrong;
	}
	double seconds = http_clock() - started;
	pthread_barrier_destroy(&barrier);
	fprintf(stderr, "picture stress: %d threads x %d uncached pictures: %d drawn, %d wrong in %.1f s (%.0f/s)\n",
		threads, pictures, drawn, wrong, seconds, drawn / seconds);
	char tail[2048];
	for (int t = 0; t < threads; t++)
		if (stresses[t].wrong) {
			http_log_tail(server.log_path, tail, sizeof tail);
			ck_abort_msg("%d of %d answers were not the picture asked for; the first: %s\nthe server's log "
				     "ends:\n%s",
				     wrong, threads * pictures, stresses[t].wrong_description, tail);
		}
	ck_assert_int_eq(drawn, threads * pictures);
	struct http_response response;
	http_call(&client, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "after the stress: %s", http_describe(&response));
	http_response_free(&response);
	http_client_cleanup(&client);
	int status = http_server_stop(&server, 30);
	http_log_tail(server.log_path, tail, sizeof tail);
	ck_assert_msg(status == 0, "the server exited with %d (-1: a signal); its log ends:\n%s", status, tail);
	FILE *log = fopen(server.log_path, "r");
	ck_assert_ptr_nonnull(log);
	char line[4096];
	while (fgets(line, sizeof line, log))
		ck_assert_msg(!strstr(line, "Assertion") && !strstr(line, "Sanitizer") &&
				      !strstr(line, "runtime error"),
			      "the server's log: %s", line);
	fclose(log);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_picture_stress");
	TCase *stress = tcase_create("stress");
	/* The long form (2,000 pictures per client) takes minutes: its own limit, scaled. */
	tcase_set_timeout(stress, 60 + setting("PICTURE_STRESS_PICTURES", 150, 1, 100000) / 2);
	tcase_add_test(stress, test_threads_drawing_uncached_pictures_at_once_never_abort_the_server);
	suite_add_tcase(suite, stress);
	return suite;
}
