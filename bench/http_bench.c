/*
 * http_bench.c - the HTTP load generator of `make bench-http`.
 *
 *   http_bench BASE_URL [--games 16] [--seconds 20] [--players 4] [--seed 1]
 *
 * Plays `games` games at once, one thread each, through the API exactly as a client
 * would: GET .../actions with the token of a seat the game waits for, pick a random
 * action (templates filled: a discard from the hand the template carries), POST it to
 * .../moves. A finished game is replaced by a new one. Prints the committed moves per
 * second and the latency of the POSTs (p50, p99), and of the GETs.
 */
#include <curl/curl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct buffer {
	char *data;
	size_t length;
};

struct samples {
	double *values;
	size_t count, capacity;
};

struct worker {
	int index;
	const char *base;
	int players;
	unsigned long long seed;
	double deadline;
	long moves, games_finished, gets, failures;
	struct samples post_ms, get_ms;
	char error[256];
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void add_sample(struct samples *samples, double value)
{
	if (samples->count == samples->capacity) {
		samples->capacity = samples->capacity ? samples->capacity * 2 : 4096;
		samples->values = realloc(samples->values, samples->capacity * sizeof *samples->values);
		if (!samples->values)
			abort();
	}
	samples->values[samples->count++] = value;
}

static size_t on_data(char *data, size_t size, size_t count, void *user)
{
	struct buffer *buffer = user;
	size_t bytes = size * count;
	buffer->data = realloc(buffer->data, buffer->length + bytes + 1);
	if (!buffer->data)
		abort();
	memcpy(buffer->data + buffer->length, data, bytes);
	buffer->length += bytes;
	buffer->data[buffer->length] = '\0';
	return bytes;
}

/* One request; returns the status (0 on a transport error) and, when out is not NULL, the
 * parsed body in *out. */
static long request(CURL *curl, const char *method, const char *url, const char *token, const char *body, json_t **out,
		    double *ms)
{
	struct buffer buffer = {NULL, 0};
	struct curl_slist *headers = NULL;
	char authorization[128];
	headers = curl_slist_append(headers, "Content-Type: application/json");
	if (token) {
		snprintf(authorization, sizeof authorization, "Authorization: Bearer %s", token);
		headers = curl_slist_append(headers, authorization);
	}
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
	curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
	curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
	if (!body)
		curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &buffer);
	double start = now_seconds();
	CURLcode code = curl_easy_perform(curl);
	*ms = (now_seconds() - start) * 1000.0;
	long status = 0;
	if (code == CURLE_OK)
		curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
	curl_slist_free_all(headers);
	if (out)
		*out = buffer.data ? json_loads(buffer.data, 0, NULL) : NULL;
	free(buffer.data);
	return status;
}

static unsigned long long next_random(unsigned long long *state)
{
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A concrete discard from a template: `count` random cards of the template's hand. */
static void fill_discard(json_t *action, unsigned long long *random)
{
	json_t *hand = json_object_get(action, "hand");
	int count = (int)json_integer_value(json_object_get(action, "count"));
	static const char *const names[5] = {"brick", "lumber", "wool", "grain", "ore"};
	int left[5], chosen[5] = {0}, total = 0;
	for (int r = 0; r < 5; r++) {
		left[r] = (int)json_integer_value(json_object_get(hand, names[r]));
		total += left[r];
	}
	for (int i = 0; i < count && total > 0; i++) {
		int pick = (int)(next_random(random) % (unsigned long long)total);
		int r = 0;
		while (pick >= left[r])
			pick -= left[r++];
		left[r]--;
		chosen[r]++;
		total--;
	}
	json_t *resources = json_object();
	for (int r = 0; r < 5; r++)
		if (chosen[r])
			json_object_set_new(resources, names[r], json_integer(chosen[r]));
	json_object_del(action, "hand");
	json_object_del(action, "count");
	json_object_del(action, "template");
	json_object_set_new(action, "resources", resources);
}

struct game_handle {
	char id[32];
	char tokens[4][64];
	int seat;
};

static int create_game(struct worker *w, CURL *curl, struct game_handle *game, unsigned long long *random)
{
	char url[256], body[160];
	snprintf(url, sizeof url, "%s/v1/games", w->base);
	snprintf(body, sizeof body, "{\"seats\":%d,\"options\":{\"layout\":\"random\",\"seed\":%llu}}", w->players,
		 next_random(random) >> 11); /* seeds are below 2^53 (JSON numbers JavaScript keeps exact) */
	json_t *response;
	double ms;
	long status = request(curl, "POST", url, NULL, body, &response, &ms);
	if (status != 201 || !response) {
		snprintf(w->error, sizeof w->error, "create game: HTTP %ld", status);
		json_decref(response);
		return 0;
	}
	snprintf(game->id, sizeof game->id, "%s", json_string_value(json_object_get(response, "id")));
	json_t *seats = json_object_get(response, "seats");
	for (int s = 0; s < w->players; s++)
		snprintf(game->tokens[s], sizeof game->tokens[s], "%s",
			 json_string_value(json_object_get(json_array_get(seats, (size_t)s), "token")));
	json_t *pending = json_object_get(json_object_get(json_object_get(response, "game"), "pending"), "seats");
	game->seat = (int)json_integer_value(json_array_get(pending, 0));
	json_decref(response);
	return 1;
}

static void *work(void *argument)
{
	struct worker *w = argument;
	CURL *curl = curl_easy_init();
	curl_easy_setopt(curl, CURLOPT_TCP_NODELAY, 1L);
	unsigned long long random = w->seed * 7919ULL + (unsigned long long)w->index;
	struct game_handle game;
	if (!create_game(w, curl, &game, &random)) {
		w->failures++;
		curl_easy_cleanup(curl);
		return NULL;
	}
	char actions_url[256], moves_url[256];
	while (now_seconds() < w->deadline) {
		snprintf(actions_url, sizeof actions_url, "%s/v1/games/%s/actions", w->base, game.id);
		json_t *listing;
		double ms;
		long status = request(curl, "GET", actions_url, game.tokens[game.seat], NULL, &listing, &ms);
		w->gets++;
		add_sample(&w->get_ms, ms);
		if (status != 200 || !listing) {
			snprintf(w->error, sizeof w->error, "GET actions: HTTP %ld", status);
			w->failures++;
			json_decref(listing);
			break;
		}
		json_t *actions = json_object_get(listing, "actions");
		json_t *waiting = json_object_get(listing, "waiting_for");
		if (json_array_size(actions) == 0) {
			if (json_array_size(waiting) == 0) {
				w->games_finished++;
				json_decref(listing);
				if (!create_game(w, curl, &game, &random)) {
					w->failures++;
					break;
				}
				continue;
			}
			size_t pick = (size_t)(next_random(&random) % json_array_size(waiting));
			game.seat = (int)json_integer_value(json_array_get(waiting, pick));
			json_decref(listing);
			continue;
		}
		/* Random play without domestic offers (they would let a random game chatter on). */
		size_t candidates[4096], count = 0, index;
		json_t *action;
		json_array_foreach(actions, index, action)
		{
			if (strcmp(json_string_value(json_object_get(action, "type")), "offer_trade") != 0 &&
			    count < 4096)
				candidates[count++] = index;
		}
		if (count == 0) {
			json_decref(listing);
			snprintf(w->error, sizeof w->error, "no action to take");
			w->failures++;
			break;
		}
		action = json_array_get(actions, candidates[next_random(&random) % count]);
		if (json_is_true(json_object_get(action, "template")))
			fill_discard(action, &random);
		char *body = json_dumps(action, JSON_COMPACT);
		json_decref(listing);
		snprintf(moves_url, sizeof moves_url, "%s/v1/games/%s/moves", w->base, game.id);
		status = request(curl, "POST", moves_url, game.tokens[game.seat], body, NULL, &ms);
		free(body);
		if (status != 201) {
			snprintf(w->error, sizeof w->error, "POST move: HTTP %ld", status);
			w->failures++;
			break;
		}
		w->moves++;
		add_sample(&w->post_ms, ms);
	}
	curl_easy_cleanup(curl);
	return NULL;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double percentile(struct samples *all, double p)
{
	if (all->count == 0)
		return 0;
	size_t index = (size_t)(p * (double)(all->count - 1));
	return all->values[index];
}

static void merge(struct samples *into, const struct samples *from)
{
	for (size_t i = 0; i < from->count; i++)
		add_sample(into, from->values[i]);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: http_bench BASE_URL [--games N] [--seconds S] [--players P] [--seed S]\n");
		return 2;
	}
	int games = 16, players = 4;
	double seconds = 20;
	unsigned long long seed = 1;
	for (int i = 2; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--games") == 0)
			games = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--seconds") == 0)
			seconds = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--players") == 0)
			players = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[i + 1], NULL, 10);
	}
	if (games < 1 || games > 256 || players < 3 || players > 4 || seconds <= 0) {
		fprintf(stderr, "http_bench: bad arguments\n");
		return 2;
	}
	curl_global_init(CURL_GLOBAL_ALL);
	struct worker *workers = calloc((size_t)games, sizeof *workers);
	pthread_t *threads = calloc((size_t)games, sizeof *threads);
	if (!workers || !threads)
		abort();
	double start = now_seconds();
	for (int i = 0; i < games; i++) {
		workers[i].index = i;
		workers[i].base = argv[1];
		workers[i].players = players;
		workers[i].seed = seed;
		workers[i].deadline = start + seconds;
		pthread_create(&threads[i], NULL, work, &workers[i]);
	}
	struct samples posts = {0}, gets = {0};
	long moves = 0, finished = 0, failures = 0, get_count = 0;
	for (int i = 0; i < games; i++) {
		pthread_join(threads[i], NULL);
		moves += workers[i].moves;
		finished += workers[i].games_finished;
		failures += workers[i].failures;
		get_count += workers[i].gets;
		merge(&posts, &workers[i].post_ms);
		merge(&gets, &workers[i].get_ms);
		if (workers[i].error[0])
			fprintf(stderr, "http_bench: worker %d: %s\n", i, workers[i].error);
		free(workers[i].post_ms.values);
		free(workers[i].get_ms.values);
	}
	double elapsed = now_seconds() - start;
	qsort(posts.values, posts.count, sizeof *posts.values, compare_doubles);
	qsort(gets.values, gets.count, sizeof *gets.values, compare_doubles);
	printf("bench http: %.0f moves/s, p50 %.2f ms, p99 %.2f ms\n", (double)moves / elapsed, percentile(&posts, 0.5),
	       percentile(&posts, 0.99));
	printf("bench http: %ld moves and %ld GET actions in %.1f s by %d concurrent games (%ld finished); GET p50 "
	       "%.2f ms, "
	       "p99 %.2f ms; %ld failures\n",
	       moves, get_count, elapsed, games, finished, percentile(&gets, 0.5), percentile(&gets, 0.99), failures);
	free(posts.values);
	free(gets.values);
	free(workers);
	free(threads);
	curl_global_cleanup();
	return failures ? 1 : 0;
}
