/*
 * test_http_mixed_stress.c - one server under every kind of concurrent request at once:
 * moves, streams, the player's feed, uncached pictures and "my games" in both orders.
 *
 * Two games, seat 0 of each bound to one player (the first with a turn clock, so it has a
 * deadline). While two clients play the games move by move (MIXED_STRESS_MOVES each, 80),
 * one client per game follows its stream in short reads resumed by Last-Event-ID, one
 * long-polls the player's feed from its cursor, one asks pictures of the games now at
 * sizes nobody asked before, and two list the player's games sorted by deadline and by
 * last change by turns, each starting with another order. What must hold: every answer is the one asked for (each
 * stream's event ids rise and never repeat across reads, the feed names only the player's games, each list is in the
 * order asked: issue 20 item 13 shared the order between concurrent requests through a static variable), the server
 * exits 0 on SIGTERM and its log holds no assertion or sanitizer report.
 *
 * `make test-tsan` runs this against a ThreadSanitizer build of the server (tests/tsan.mk),
 * where any data race in the server's code fails the run; in the normal suites it is one
 * more load of the kinds the suites test one at a time. Bounded by counts, not time.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/render.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define GAMES 2
#define FIXED_START_OPTIONS "\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0"

static int setting(const char *name, int fallback, int low, int high)
{
	const char *text = getenv(name);
	int value = text && *text ? atoi(text) : fallback;
	return value < low ? low : value > high ? high : value;
}

struct shared {
	const char *base;
	struct http_game games[GAMES];
	char player_id[20];
	char player_token[64];
	int moves;
	atomic_int movers_left; /* the others stop when it reaches 0 */
};

/* What one client saw: counts, and the first wrong answer. */
struct outcome {
	const char *what;
	int requests, wrong;
	char first_wrong[320];
};

static void wrong(struct outcome *outcome, const char *format, const char *path, const char *description)
{
	if (outcome->wrong++ == 0)
		snprintf(outcome->first_wrong, sizeof outcome->first_wrong, format, path, description);
}

struct client {
	struct shared *shared;
	int game;
	struct outcome outcome;
};

static int running(const struct shared *shared)
{
	return atomic_load(&shared->movers_left) > 0;
}

static void *play(void *argument)
{
	struct client *self = argument;
	struct http_client client;
	http_client_init(&client, self->shared->base, 0);
	struct http_player player;
	http_player_init(&player, &client, &self->shared->games[self->game], 3300 + (uint64_t)self->game, 1);
	for (int i = 0; i < self->shared->moves && http_player_step(&player, NULL); i++)
		self->outcome.requests++;
	http_client_cleanup(&client);
	atomic_fetch_sub(&self->shared->movers_left, 1);
	return NULL;
}

static void *follow_stream(void *argument)
{
	struct client *self = argument;
	const struct http_game *game = &self->shared->games[self->game];
	char path[96], last[24] = "";
	snprintf(path, sizeof path, "%s/stream", game->path);
	long seen = 0;
	while (running(self->shared)) {
		struct http_stream stream;
		http_stream_read(self->shared->base, path, game->tokens[0], *last ? last : NULL, 16, NULL, 1.0,
				 &stream);
		self->outcome.requests++;
		if (stream.status != 200) {
			char status[32];
			snprintf(status, sizeof status, "HTTP %ld", stream.status);
			wrong(&self->outcome, "%s: %s", path, status);
		}
		for (int i = 0; i < stream.count; i++) {
			long id = stream.events[i].id;
			const char *type = stream.events[i].type;
			/* (a your_turn note repeats the id before it, and comes again on a resume) */
			if (id < 0 || strcmp(type, "your_turn") == 0 || strcmp(type, "message") == 0 ||
			    strcmp(type, "end") == 0)
				continue;
			if (id <= seen) {
				char ids[64];
				snprintf(ids, sizeof ids, "event id %ld after %ld", id, seen);
				wrong(&self->outcome, "%s: %s", path, ids);
			}
			seen = id;
		}
		if (seen)
			snprintf(last, sizeof last, "%ld", seen);
		http_stream_free(&stream);
	}
	return NULL;
}

static void *poll_feed(void *argument)
{
	struct client *self = argument;
	struct shared *shared = self->shared;
	struct http_client client;
	http_client_init(&client, shared->base, 0);
	char cursor[96] = "", path[192];
	while (running(shared)) {
		snprintf(path, sizeof path, "/v1/players/me/feed?wait=1&limit=50%s%s", *cursor ? "&after=" : "",
			 cursor);
		struct http_response response;
		http_call(&client, "GET", path, shared->player_token, NULL, NULL, &response);
		self->outcome.requests++;
		const char *next = json_string_value(json_object_get(response.json, "cursor"));
		if (response.status != 200 || !next) {
			wrong(&self->outcome, "%s: %s", path, http_describe(&response));
		} else {
			snprintf(cursor, sizeof cursor, "%s", next);
			size_t index;
			json_t *item;
			json_array_foreach(json_object_get(response.json, "items"), index, item)
			{
				const char *id = json_string_value(json_object_get(item, "game"));
				int ours = 0;
				for (int g = 0; g < GAMES; g++)
					ours |= id && strcmp(id, shared->games[g].id) == 0;
				if (!ours)
					wrong(&self->outcome, "%s: an item of another game: %s", path,
					      http_describe(&response));
			}
		}
		http_response_free(&response);
	}
	http_client_cleanup(&client);
	return NULL;
}

static void *draw_pictures(void *argument)
{
	struct client *self = argument;
	struct shared *shared = self->shared;
	struct http_client client;
	http_client_init(&client, shared->base, 0);
	client.timeout_ms = 120000;
	for (int k = 0; running(shared); k++) {
		char path[192];
		snprintf(path, sizeof path, "%s/board.%s?size=%d%s", shared->games[k % GAMES].path,
			 k / 2 % 2 ? "png" : "svg", RENDER_SIZE_MIN + k * 37 % (RENDER_SIZE_MAX - RENDER_SIZE_MIN + 1),
			 k / 4 % 2 ? "&theme=dark" : "");
		struct http_response response;
		http_call(&client, "GET", path, NULL, NULL, NULL, &response);
		self->outcome.requests++;
		if (response.status != 200 || response.body_length < 100)
			wrong(&self->outcome, "%s: %s", path, http_describe(&response));
		http_response_free(&response);
	}
	http_client_cleanup(&client);
	return NULL;
}

/* "my games" in both orders, alternating (each of the two clients starts with another):
 * each list in the order it asked for. */
static void *list_games(void *argument)
{
	struct client *self = argument;
	struct shared *shared = self->shared;
	struct http_client client;
	http_client_init(&client, shared->base, 0);
	for (int k = self->game; running(shared); k++) {
		int by_deadline = k % 2;
		const char *path =
			by_deadline ? "/v1/players/me/games?sort=deadline" : "/v1/players/me/games?sort=last_change";
		struct http_response response;
		http_call(&client, "GET", path, shared->player_token, NULL, NULL, &response);
		self->outcome.requests++;
		json_t *games = json_object_get(response.json, "games");
		if (response.status != 200 || json_array_size(games) != GAMES) {
			wrong(&self->outcome, "%s: %s", path, http_describe(&response));
		} else {
			json_t *first = json_array_get(games, 0), *second = json_array_get(games, 1);
			int ordered;
			if (by_deadline) {
				/* the first game has a deadline, the second none: it comes first */
				ordered = strcmp(json_string_value(json_object_get(first, "id")),
						 shared->games[0].id) == 0;
			} else {
				const char *a =
					json_string_value(json_object_get(json_object_get(first, "last_change"), "at"));
				const char *b = json_string_value(
					json_object_get(json_object_get(second, "last_change"), "at"));
				ordered = a && b && strcmp(a, b) >= 0;
			}
			if (!ordered)
				wrong(&self->outcome, "%s: out of order: %s", path, http_describe(&response));
		}
		http_response_free(&response);
		http_pause(0.005); /* (a list is cheap: without a pause the lists alone would load the server) */
	}
	http_client_cleanup(&client);
	return NULL;
}

START_TEST(test_moves_streams_feed_pictures_and_lists_at_once_answer_right_and_the_server_survives)
{
	static const char *const settings[] = {"RENDER_CONCURRENCY=2", "RENDER_WAIT_MS=60000", "THREADS=8", NULL};
	struct http_server server;
	http_server_start(&server, settings);
	fprintf(stderr, "mixed stress: the server's log is %s\n", server.log_path);
	struct shared shared = {.base = server.url, .moves = setting("MIXED_STRESS_MOVES", 80, 1, 100000)};
	struct http_client client;
	http_client_init(&client, server.url, 0);
	http_player_create(&client, "Ann", shared.player_id, shared.player_token);
	for (int g = 0; g < GAMES; g++) {
		char body[512];
		snprintf(body, sizeof body,
			 "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bea\"}, {\"name\": \"Cal\"}],"
			 " \"options\": {" FIXED_START_OPTIONS "%s}}",
			 shared.player_id, g == 0 ? ", \"turn_timeout_s\": 86400" : "");
		http_game_create_body(&client, body, &shared.games[g]);
	}
	atomic_store(&shared.movers_left, GAMES);

	enum { CLIENTS = 2 * GAMES + 4 };
	struct client clients[CLIENTS];
	void *(*bodies[CLIENTS])(void *);
	pthread_t threads[CLIENTS];
	int n = 0;
	for (int g = 0; g < GAMES; g++) {
		clients[n] = (struct client){&shared, g, {"moves", 0, 0, ""}};
		bodies[n++] = play;
		clients[n] = (struct client){&shared, g, {"stream", 0, 0, ""}};
		bodies[n++] = follow_stream;
	}
	clients[n] = (struct client){&shared, 0, {"feed", 0, 0, ""}};
	bodies[n++] = poll_feed;
	clients[n] = (struct client){&shared, 0, {"pictures", 0, 0, ""}};
	bodies[n++] = draw_pictures;
	for (int order = 0; order < 2; order++) {
		clients[n] = (struct client){&shared, order, {"my games", 0, 0, ""}};
		bodies[n++] = list_games;
	}
	double started = http_clock();
	for (int i = 0; i < CLIENTS; i++)
		pthread_create(&threads[i], NULL, bodies[i], &clients[i]);
	for (int i = 0; i < CLIENTS; i++)
		pthread_join(threads[i], NULL);
	double seconds = http_clock() - started;
	char counts[512];
	int used = 0;
	for (int i = 0; i < CLIENTS; i++)
		used += snprintf(counts + used, sizeof counts - (size_t)used, "%s%s %d", i ? ", " : "",
				 clients[i].outcome.what, clients[i].outcome.requests);
	fprintf(stderr, "mixed stress: %s requests in %.1f s\n", counts, seconds);
	char tail[2048];
	for (int i = 0; i < CLIENTS; i++) {
		if (clients[i].outcome.wrong) {
			http_log_tail(server.log_path, tail, sizeof tail);
			ck_abort_msg("%s: %d of %d answers wrong; the first: %s\nthe server's log ends:\n%s",
				     clients[i].outcome.what, clients[i].outcome.wrong, clients[i].outcome.requests,
				     clients[i].outcome.first_wrong, tail);
		}
		ck_assert_msg(clients[i].outcome.requests > 0, "%s made no request", clients[i].outcome.what);
	}
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
	Suite *suite = suite_create("http_mixed_stress");
	TCase *stress = tcase_create("stress");
	tcase_set_timeout(stress, 120 + setting("MIXED_STRESS_MOVES", 80, 1, 100000));
	tcase_add_test(stress, test_moves_streams_feed_pictures_and_lists_at_once_answer_right_and_the_server_survives);
	suite_add_tcase(suite, stress);
	return suite;
}
