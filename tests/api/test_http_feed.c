/*
 * test_http_feed.c - the player's feed (GET /v1/players/me/feed, GET /v1/players/me/stream)
 * and table talk on the game's own stream, against two real servers on one PostgreSQL.
 *
 * A player in ten games played at once through both servers gets every event of every game
 * once, in each game's order, exactly as its seat's GET .../moves shows it, and a parked
 * long-poll wakes within a second of a move made on the other server. Resuming from a
 * cursor, by long-poll pages or by the stream's Last-Event-ID, misses and repeats nothing.
 * Without a cursor the feed starts with a your_turn for each game that waits for the
 * player. Messages come in the feed and on the game's stream merged with the moves, also
 * while they are posted during moves; the game stream resumes exactly from a message's
 * id. Bad cursors, waits, limits and tokens are refused naming the field.
 *
 * The streams are read with a small HTTP/1.0 reader here (feed ids are cursors, not
 * numbers, which the shared reader expects).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define GAMES 10
#define MOVES_PER_GAME 24
#define WAKES 5

struct player {
	char id[20];
	char token[64];
};

static void make_player(struct http_client *client, const char *name, struct player *out)
{
	char body[128];
	snprintf(body, sizeof body, "{\"name\": \"%s\"}", name);
	struct http_response response;
	http_call(client, "POST", "/v1/players", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201, "player: %s", http_describe(&response));
	snprintf(out->id, sizeof out->id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(out->token, sizeof out->token, "%s", json_string_value(json_object_get(response.json, "token")));
	http_response_free(&response);
}

/* Three humans, seat 0 the player, `first` to move first. */
static void game_with_player(struct http_client *client, const struct player *player, int first, struct http_game *game)
{
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bea\"}, {\"name\": \"Cal\"}],"
		 " \"options\": {\"first_seat\": %d}}",
		 player->id, first);
	http_game_create_body(client, body, game);
	ck_assert_msg(game->tokens[0][0], "the player's seat has a token");
}

/* GET the feed; the answer (new reference), 200 asserted. */
static json_t *feed_get(struct http_client *client, const char *token, const char *after, int wait, int limit)
{
	char path[256];
	int used = snprintf(path, sizeof path, "/v1/players/me/feed?limit=%d", limit);
	if (wait)
		used += snprintf(path + used, sizeof path - (size_t)used, "&wait=%d", wait);
	if (after)
		snprintf(path + used, sizeof path - (size_t)used, "&after=%s", after);
	struct http_response response;
	http_call(client, "GET", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "%s: %s", path, http_describe(&response));
	json_t *body = json_incref(response.json);
	http_response_free(&response);
	return body;
}

static const char *kind_of(const json_t *item)
{
	return json_string_value(json_object_get(item, "kind"));
}

/* The feed's events and messages (no notes) after `after` until a read with wait=1 brings
 * nothing more: appended to `rows`; the last cursor into `cursor`. */
static void feed_drain(struct http_client *client, const char *token, char *cursor, int limit, json_t *rows)
{
	for (int pages = 0; pages < 1000; pages++) {
		json_t *page = feed_get(client, token, cursor, 1, limit);
		snprintf(cursor, 80, "%s", json_string_value(json_object_get(page, "cursor")));
		size_t index;
		json_t *item;
		int count = 0;
		json_array_foreach(json_object_get(page, "items"), index, item)
		{
			if (strcmp(kind_of(item), "your_turn") != 0) {
				json_array_append(rows, item);
				count++;
			}
		}
		json_decref(page);
		if (count == 0)
			return;
	}
	ck_abort_msg("the feed never ran dry");
}

/* ---- A raw SSE reader ---- */

struct sse_item {
	char id[96];
	char event[32];
	json_t *data;
};

struct sse {
	long status;
	int count;
	struct sse_item items[600];
};

static void sse_free(struct sse *sse)
{
	for (int i = 0; i < sse->count; i++)
		json_decref(sse->items[i].data);
	sse->count = 0;
}

static int rows_in(const struct sse *sse)
{
	int rows = 0;
	for (int i = 0; i < sse->count; i++)
		rows += strcmp(sse->items[i].event, "your_turn") != 0;
	return rows;
}

/* GET path from the server on `port` over HTTP/1.0 until `rows` items that are not
 * your_turn notes arrived, or timeout_s passed. */
static void sse_read(int port, const char *path, const char *token, const char *last_id, int rows, double timeout_s,
		     struct sse *out)
{
	memset(out, 0, sizeof *out);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	struct sockaddr_in address = {0};
	address.sin_family = AF_INET;
	address.sin_port = htons((uint16_t)port);
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&address, sizeof address), 0);
	char request[1024];
	int length = snprintf(request, sizeof request,
			      "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n%s%s%s%s%s%s\r\n",
			      path, token ? "Authorization: Bearer " : "", token ? token : "", token ? "\r\n" : "",
			      last_id ? "Last-Event-ID: " : "", last_id ? last_id : "", last_id ? "\r\n" : "");
	ck_assert_int_eq(write(fd, request, (size_t)length), length);
	size_t capacity = 1 << 16, used = 0, parsed = 0;
	char *buffer = malloc(capacity);
	ck_assert_ptr_nonnull(buffer);
	int in_body = 0;
	struct sse_item current = {{0}, {0}, NULL};
	double end = http_clock() + timeout_s;
	while (http_clock() < end && (out->status == 0 || out->status == 200) && rows_in(out) < rows) {
		struct pollfd wait = {fd, POLLIN, 0};
		int ms = (int)((end - http_clock()) * 1000) + 1;
		if (poll(&wait, 1, ms) <= 0)
			break;
		if (used + 4096 > capacity) {
			capacity *= 2;
			buffer = realloc(buffer, capacity);
			ck_assert_ptr_nonnull(buffer);
		}
		ssize_t got = read(fd, buffer + used, capacity - used - 1);
		if (got <= 0)
			break;
		used += (size_t)got;
		buffer[used] = '\0';
		if (!in_body) {
			char *blank = strstr(buffer, "\r\n\r\n");
			if (!blank)
				continue;
			sscanf(buffer, "HTTP/%*s %ld", &out->status);
			parsed = (size_t)(blank + 4 - buffer);
			in_body = 1;
		}
		char *line;
		while ((line = buffer + parsed), strchr(line, '\n')) {
			char *newline = strchr(line, '\n');
			*newline = '\0';
			parsed = (size_t)(newline + 1 - buffer);
			if (!*line) {
				if (current.event[0] && out->count < (int)(sizeof out->items / sizeof out->items[0]))
					out->items[out->count++] = current;
				else
					json_decref(current.data);
				memset(&current, 0, sizeof current);
			} else if (strncmp(line, "id: ", 4) == 0) {
				snprintf(current.id, sizeof current.id, "%s", line + 4);
			} else if (strncmp(line, "event: ", 7) == 0) {
				snprintf(current.event, sizeof current.event, "%s", line + 7);
			} else if (strncmp(line, "data: ", 6) == 0) {
				current.data = json_loads(line + 6, 0, NULL);
			}
		}
	}
	json_decref(current.data);
	free(buffer);
	close(fd);
}

/* ---- Playing several games at once ---- */

struct table {
	struct http_client client;
	const char *url;
	struct http_game *games;
	int first, step; /* the games first, first + step, ... */
	int moves;
};

static void *play_tables(void *argument)
{
	struct table *table = argument;
	http_client_init(&table->client, table->url, 0);
	struct http_player players[GAMES];
	int count = 0;
	for (int g = table->first; g < GAMES; g += table->step)
		http_player_init(&players[count++], &table->client, &table->games[g], 100 + (uint64_t)g, 0);
	for (int round = 0; round < table->moves; round++)
		for (int i = 0; i < count; i++)
			http_player_step(&players[i], NULL);
	http_client_cleanup(&table->client);
	return NULL;
}

/* The feed's events of game `id` in `rows`: an array (new reference). */
static json_t *events_of(const json_t *rows, const char *id)
{
	json_t *events = json_array();
	size_t index;
	json_t *item;
	json_array_foreach(rows, index, item)
	{
		if (strcmp(kind_of(item), "event") == 0 &&
		    strcmp(json_string_value(json_object_get(item, "game")), id) == 0)
			json_array_append(events, json_object_get(item, "event"));
	}
	return events;
}

/* The feed's events of the game are its seat-0 log from their first version on, once each,
 * in order, up to the game's version: exactly what GET .../moves shows that seat. */
static void assert_events_are_the_seats_log(const json_t *rows, const struct http_game *game)
{
	json_t *events = events_of(rows, game->id);
	long version = http_game_version(&http_fixture.direct, game);
	ck_assert_msg(json_array_size(events) > 0, "game %s: no event in the feed", game->id);
	long first = (long)json_integer_value(json_object_get(json_array_get(events, 0), "version"));
	json_t *log = http_game_log(&http_fixture.direct, game, game->tokens[0], first - 1);
	ck_assert_msg(json_equal(events, log),
		      "game %s: the feed's %zu events from version %ld differ from the seat's log (%zu)", game->id,
		      json_array_size(events), first, json_array_size(log));
	ck_assert_int_eq(first + (long)json_array_size(events) - 1, version);
	json_decref(log);
	json_decref(events);
}

struct wake {
	const char *token;
	char cursor[80];
	double answered;
	int items;
};

static void *wait_for_feed(void *argument)
{
	struct wake *wake = argument;
	struct http_client client;
	http_client_init(&client, http_fixture.server.url, 0);
	json_t *page = feed_get(&client, wake->token, wake->cursor, 10, 100);
	wake->answered = http_clock();
	wake->items = (int)json_array_size(json_object_get(page, "items"));
	json_decref(page);
	http_client_cleanup(&client);
	return NULL;
}

START_TEST(test_a_player_in_ten_games_on_two_servers_gets_every_event_once_in_order_as_its_seat_sees_it)
{
	struct http_client *client = &http_fixture.direct;
	struct player ann;
	make_player(client, "Ann", &ann);
	struct http_game games[GAMES];
	for (int g = 0; g < GAMES; g++)
		game_with_player(client, &ann, 0, &games[g]);

	/* Starting now: a your_turn for each game (each waits for seat 0's first settlement). */
	json_t *start = feed_get(client, ann.token, NULL, 0, 100);
	json_t *items = json_object_get(start, "items");
	ck_assert_int_eq(json_array_size(items), GAMES);
	for (int g = 0; g < GAMES; g++) {
		json_t *item = json_array_get(items, (size_t)g);
		ck_assert_str_eq(kind_of(item), "your_turn");
		ck_assert_int_eq(json_integer_value(json_object_get(item, "seat")), 0);
		ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(item, "your_turn"), "seat")), 0);
	}
	char cursor[80];
	snprintf(cursor, sizeof cursor, "%s", json_string_value(json_object_get(start, "cursor")));
	json_decref(start);

	/* Two tables play the games at once, one on each server, while the feed is read. */
	struct table tables[2] = {
		{.url = http_fixture.server.url, .games = games, .first = 0, .step = 2, .moves = MOVES_PER_GAME},
		{.url = http_fixture.second.url, .games = games, .first = 1, .step = 2, .moves = MOVES_PER_GAME},
	};
	pthread_t threads[2];
	for (int t = 0; t < 2; t++)
		pthread_create(&threads[t], NULL, play_tables, &tables[t]);
	json_t *rows = json_array();
	char reading[80];
	snprintf(reading, sizeof reading, "%s", cursor);
	for (int pages = 0; pages < 400; pages++) {
		json_t *page = feed_get(client, ann.token, reading, 2, 40);
		snprintf(reading, sizeof reading, "%s", json_string_value(json_object_get(page, "cursor")));
		size_t index;
		json_t *item;
		json_array_foreach(json_object_get(page, "items"), index, item)
		{
			ck_assert_int_eq(json_integer_value(json_object_get(item, "seat")), 0);
			if (strcmp(kind_of(item), "your_turn") != 0)
				json_array_append(rows, item);
		}
		json_decref(page);
		if (json_array_size(rows) >= (size_t)(GAMES * MOVES_PER_GAME))
			break;
	}
	for (int t = 0; t < 2; t++)
		pthread_join(threads[t], NULL);
	feed_drain(client, ann.token, reading, 40, rows);
	for (int g = 0; g < GAMES; g++)
		assert_events_are_the_seats_log(rows, &games[g]);
	/* Nothing but these games' events. */
	size_t total = 0;
	for (int g = 0; g < GAMES; g++) {
		json_t *events = events_of(rows, games[g].id);
		total += json_array_size(events);
		json_decref(events);
	}
	ck_assert_int_eq(total, json_array_size(rows));
	json_decref(rows);

	/* Woken by a move on the other server within a second. */
	struct http_player mover;
	http_player_init(&mover, &http_fixture.second_direct, &games[0], 7, 0);
	double latencies[WAKES];
	for (int w = 0; w < WAKES; w++) {
		struct wake wake = {.token = ann.token};
		snprintf(wake.cursor, sizeof wake.cursor, "%s", reading);
		pthread_t waiter;
		pthread_create(&waiter, NULL, wait_for_feed, &wake);
		http_pause(0.3);
		ck_assert(http_player_step(&mover, NULL));
		double moved = http_clock();
		pthread_join(waiter, NULL);
		ck_assert_int_gt(wake.items, 0);
		latencies[w] = wake.answered - moved;
		json_t *rest = json_array();
		feed_drain(client, ann.token, reading, 100, rest);
		json_decref(rest);
	}
	double median = http_median(latencies, WAKES), worst = 0;
	for (int w = 0; w < WAKES; w++)
		worst = latencies[w] > worst ? latencies[w] : worst;
	printf("feed wake-up across servers: median %.1f ms, worst %.1f ms (%d moves)\n", median * 1000, worst * 1000,
	       WAKES);
	ck_assert_msg(worst < 1.0, "a feed long-poll took %.3f s to wake", worst);
}
END_TEST

/* The rows (events and messages) of an SSE read, as feed items (new reference). */
static json_t *sse_rows(const struct sse *sse)
{
	json_t *rows = json_array();
	for (int i = 0; i < sse->count; i++)
		if (strcmp(sse->items[i].event, "your_turn") != 0)
			json_array_append(rows, sse->items[i].data);
	return rows;
}

START_TEST(test_resuming_from_a_cursor_by_pages_or_by_last_event_id_misses_and_repeats_nothing)
{
	struct http_client *client = &http_fixture.direct;
	struct player ann;
	make_player(client, "Ann", &ann);
	struct http_game games[3];
	for (int g = 0; g < 3; g++)
		game_with_player(client, &ann, g, &games[g]);
	json_t *start = feed_get(client, ann.token, NULL, 0, 100);
	char from[80];
	snprintf(from, sizeof from, "%s", json_string_value(json_object_get(start, "cursor")));
	json_decref(start);
	struct http_player players[3];
	for (int g = 0; g < 3; g++)
		http_player_init(&players[g], g == 1 ? &http_fixture.second_direct : client, &games[g],
				 40 + (uint64_t)g, 0);
	char path[160];
	for (int round = 0; round < 8; round++) {
		for (int g = 0; g < 3; g++)
			http_player_step(&players[g], NULL);
		if (round % 3 == 0) {
			struct http_response response;
			http_call(client, "POST", http_game_path(&games[round % 3], "/messages", path, sizeof path),
				  games[round % 3].tokens[1], "{\"text\": \"wool for ore?\"}", NULL, &response);
			ck_assert_msg(response.status == 201, "message: %s", http_describe(&response));
			http_response_free(&response);
		}
	}
	/* All at once. */
	char cursor[80];
	snprintf(cursor, sizeof cursor, "%s", from);
	json_t *all = json_array();
	feed_drain(client, ann.token, cursor, 500, all);
	ck_assert_int_ge(json_array_size(all), 24 + 3);
	/* In pages of three. */
	snprintf(cursor, sizeof cursor, "%s", from);
	json_t *paged = json_array();
	feed_drain(client, ann.token, cursor, 3, paged);
	ck_assert_msg(json_equal(all, paged), "pages of 3 gave %zu rows, one page %zu", json_array_size(paged),
		      json_array_size(all));
	json_decref(paged);

	/* By the stream: cut after 7 items, resume with Last-Event-ID, and once more. */
	json_t *streamed = json_array();
	char last[96];
	snprintf(last, sizeof last, "%s", from);
	for (int part = 0; part < 3 && json_array_size(streamed) < json_array_size(all); part++) {
		struct sse sse;
		int want = part < 2 ? 7 : (int)(json_array_size(all) - json_array_size(streamed));
		sse_read(http_fixture.second.port, "/v1/players/me/stream", ann.token, last, want, 5, &sse);
		ck_assert_int_eq(sse.status, 200);
		ck_assert_int_gt(sse.count, 0);
		json_t *rows = sse_rows(&sse);
		/* Resume from the last row's id (a your_turn repeats the id before it). */
		for (int i = sse.count - 1; i >= 0; i--)
			if (strcmp(sse.items[i].event, "your_turn") != 0) {
				snprintf(last, sizeof last, "%s", sse.items[i].id);
				break;
			}
		json_array_extend(streamed, rows);
		json_decref(rows);
		sse_free(&sse);
	}
	ck_assert_msg(json_equal(all, streamed), "the stream in three parts gave %zu rows, the feed %zu",
		      json_array_size(streamed), json_array_size(all));
	json_decref(streamed);
	json_decref(all);
}
END_TEST

START_TEST(test_without_a_cursor_the_feed_tells_each_game_that_waits_for_the_player)
{
	struct http_client *client = &http_fixture.direct;
	struct player ann, bob;
	make_player(client, "Ann", &ann);
	make_player(client, "Bob", &bob);
	struct http_game mine, theirs;
	game_with_player(client, &ann, 0, &mine);
	game_with_player(client, &ann, 1, &theirs);
	json_t *page = feed_get(client, ann.token, NULL, 0, 10);
	json_t *items = json_object_get(page, "items");
	ck_assert_int_eq(json_array_size(items), 1);
	json_t *note = json_array_get(items, 0);
	ck_assert_str_eq(kind_of(note), "your_turn");
	ck_assert_str_eq(json_string_value(json_object_get(note, "game")), mine.id);
	json_t *actions = json_object_get(json_object_get(note, "your_turn"), "actions");
	ck_assert_int_gt(json_array_size(json_object_get(actions, "actions")), 0);
	json_decref(page);
	/* The stream starts the same way. */
	struct sse sse;
	char path[160];
	snprintf(path, sizeof path, "/v1/players/me/stream?token=%s", ann.token);
	sse_read(http_fixture.server.port, path, NULL, NULL, 1, 1.0, &sse);
	ck_assert_int_eq(sse.status, 200);
	ck_assert_int_eq(sse.count, 1);
	ck_assert_str_eq(sse.items[0].event, "your_turn");
	ck_assert_str_eq(json_string_value(json_object_get(sse.items[0].data, "game")), mine.id);
	sse_free(&sse);
	/* A player without games sees nothing of Ann's. */
	json_t *empty = feed_get(client, bob.token, NULL, 0, 10);
	ck_assert_int_eq(json_array_size(json_object_get(empty, "items")), 0);
	char cursor[80];
	snprintf(cursor, sizeof cursor, "%s", json_string_value(json_object_get(empty, "cursor")));
	json_decref(empty);
	struct http_player player;
	http_player_init(&player, client, &mine, 3, 0);
	http_player_step(&player, NULL);
	json_t *still = feed_get(client, bob.token, cursor, 1, 10);
	ck_assert_int_eq(json_array_size(json_object_get(still, "items")), 0);
	json_decref(still);
}
END_TEST

static void assert_refused(const char *path, const char *token, const char *const *headers, long status,
			   const char *code, const char *field)
{
	struct http_response response;
	http_call(&http_fixture.direct, "GET", path, token, NULL, headers, &response);
	http_assert_problem(&response, status, code);
	const char *named = json_string_value(json_object_get(response.json, "field"));
	if (field)
		ck_assert_msg(named && strcmp(named, field) == 0, "%s: field %s, not %s", path,
			      named ? named : "(none)", field);
	http_response_free(&response);
}

START_TEST(test_bad_cursors_waits_limits_and_tokens_are_refused_naming_the_field)
{
	struct http_client *client = &http_fixture.direct;
	struct player ann;
	make_player(client, "Ann", &ann);
	struct http_game game;
	game_with_player(client, &ann, 0, &game);
	static const char *const bad_after[] = {
		"x",
		"1.000000000000000a.0",
		"1.000000000000000a.0.1.2",
		"1.000000000000000A.0.1",
		"1.00000000000000a.0.1",
		"1.000000000000000a.2.1",
		"01.000000000000000a.0.1",
		"-1.000000000000000a.0.1",
		"1.000000000000000a.0.99999999999",
		"99999999999999999999.000000000000000a.0.1",
	};
	char path[200];
	for (size_t i = 0; i < sizeof bad_after / sizeof bad_after[0]; i++) {
		snprintf(path, sizeof path, "/v1/players/me/feed?after=%s", bad_after[i]);
		assert_refused(path, ann.token, NULL, 400, "invalid_field", "after");
		const char *headers[] = {NULL, NULL};
		char header[160];
		snprintf(header, sizeof header, "Last-Event-ID: %s", bad_after[i]);
		headers[0] = header;
		assert_refused("/v1/players/me/stream", ann.token, headers, 400, "invalid_field", "Last-Event-ID");
	}
	assert_refused("/v1/players/me/feed?wait=61", ann.token, NULL, 400, "invalid_field", "wait");
	assert_refused("/v1/players/me/feed?wait=-1", ann.token, NULL, 400, "invalid_field", "wait");
	assert_refused("/v1/players/me/feed?wait=soon", ann.token, NULL, 400, "invalid_field", "wait");
	assert_refused("/v1/players/me/feed?limit=0", ann.token, NULL, 400, "invalid_field", "limit");
	assert_refused("/v1/players/me/feed?limit=501", ann.token, NULL, 400, "invalid_field", "limit");
	assert_refused("/v1/players/me/feed?limit=1x", ann.token, NULL, 400, "invalid_field", "limit");
	snprintf(path, sizeof path, "/v1/players/me/feed?token=%s", ann.token);
	assert_refused(path, NULL, NULL, 400, "invalid_field", "token");
	assert_refused("/v1/players/me/feed", NULL, NULL, 401, "missing_token", NULL);
	assert_refused("/v1/players/me/stream", NULL, NULL, 401, "missing_token", NULL);
	assert_refused("/v1/players/me/feed", game.tokens[1], NULL, 401, "unknown_token", NULL);
	assert_refused("/v1/players/me/feed", game.admin_token, NULL, 401, "unknown_token", NULL);
	assert_refused("/v1/players/me/stream", game.tokens[1], NULL, 401, "unknown_token", NULL);
	assert_refused("/v1/players/me/feed", "pt_not-a-player-token-at-all-0000000000000000", NULL, 401,
		       "unknown_token", NULL);
	/* The game stream's Last-Event-ID: a version, or <version>.<message seq> of a message. */
	const char *headers[] = {"Last-Event-ID: 3.1", NULL};
	assert_refused(http_game_path(&game, "/stream", path, sizeof path), NULL, headers, 400, "invalid_field",
		       "Last-Event-ID");
	headers[0] = "Last-Event-ID: 3.x";
	assert_refused(http_game_path(&game, "/stream", path, sizeof path), NULL, headers, 400, "invalid_field",
		       "Last-Event-ID");
}
END_TEST

/* ---- Table talk with moves ---- */

struct chatter {
	const struct http_game *game;
	int messages;
};

static void *post_messages(void *argument)
{
	struct chatter *chatter = argument;
	struct http_client client;
	http_client_init(&client, http_fixture.server.url, 0);
	char path[160], body[64];
	http_game_path(chatter->game, "/messages", path, sizeof path);
	for (int i = 0; i < chatter->messages; i++) {
		snprintf(body, sizeof body, "{\"text\": \"during the moves %d\"}", i);
		struct http_response response;
		http_call(&client, "POST", path, chatter->game->tokens[i % 3], body, NULL, &response);
		ck_assert_msg(response.status == 201, "message: %s", http_describe(&response));
		http_response_free(&response);
		http_pause(0.02);
	}
	http_client_cleanup(&client);
	return NULL;
}

/* "e<version>" or "m<seq>" for each row of a game. */
static void row_keys(const json_t *rows, int game_rows, char keys[][16], int *count)
{
	*count = 0;
	size_t index;
	json_t *row;
	json_array_foreach(rows, index, row)
	{
		const json_t *body =
			game_rows ? json_object_get(row, strcmp(kind_of(row), "event") == 0 ? "event" : "message")
				  : row;
		int message = game_rows ? strcmp(kind_of(row), "message") == 0
					: strcmp(json_string_value(json_object_get(row, "type")), "message") == 0;
		if (message && !game_rows)
			body = json_object_get(row, "message");
		snprintf(keys[(*count)++], 16, "%c%lld", message ? 'm' : 'e',
			 (long long)json_integer_value(json_object_get(body, message ? "seq" : "version")));
	}
}

START_TEST(test_messages_come_in_the_feed_and_on_the_game_stream_in_order_with_moves)
{
	struct http_client *client = &http_fixture.direct;
	struct player ann;
	make_player(client, "Ann", &ann);
	struct http_game game;
	game_with_player(client, &ann, 0, &game);
	json_t *start = feed_get(client, ann.token, NULL, 0, 10);
	char from[80];
	snprintf(from, sizeof from, "%s", json_string_value(json_object_get(start, "cursor")));
	json_decref(start);
	struct http_player player;
	http_player_init(&player, &http_fixture.second_direct, &game, 11, 0);
	char path[160];
	/* One after another: each message right after the move before it. */
	for (int i = 0; i < 6; i++) {
		http_player_step(&player, NULL);
		struct http_response response;
		http_call(client, "POST", http_game_path(&game, "/messages", path, sizeof path), game.tokens[i % 3],
			  "{\"text\": \"after a move\"}", NULL, &response);
		ck_assert_int_eq(response.status, 201);
		http_response_free(&response);
	}
	/* While moves are made on the other server. */
	struct chatter chatter = {&game, 12};
	pthread_t thread;
	pthread_create(&thread, NULL, post_messages, &chatter);
	for (int i = 0; i < 20; i++)
		http_player_step(&player, NULL);
	pthread_join(thread, NULL);

	char cursor[80];
	snprintf(cursor, sizeof cursor, "%s", from);
	json_t *rows = json_array();
	feed_drain(client, ann.token, cursor, 500, rows);
	static char feed_keys[200][16], stream_keys[400][16];
	int feed_count, stream_count;
	row_keys(rows, 1, feed_keys, &feed_count);
	/* Every message once; each of the first six right after the event it followed. */
	int seen[19] = {0};
	for (int i = 0; i < feed_count; i++) {
		if (feed_keys[i][0] != 'm')
			continue;
		int seq = atoi(feed_keys[i] + 1);
		ck_assert_msg(seq >= 1 && seq <= 18 && !seen[seq], "message %d twice or unknown", seq);
		seen[seq] = 1;
		if (seq <= 6) {
			json_t *message = json_object_get(json_array_get(rows, (size_t)i), "message");
			ck_assert_int_gt(i, 0);
			char expected[16];
			snprintf(expected, sizeof expected, "e%lld",
				 (long long)json_integer_value(json_object_get(message, "after_version")));
			ck_assert_str_eq(feed_keys[i - 1], expected);
		}
	}
	for (int seq = 1; seq <= 18; seq++)
		ck_assert_msg(seen[seq], "message %d missing from the feed", seq);
	assert_events_are_the_seats_log(rows, &game);

	/* The game stream: the same merged order (from the feed's first row on). */
	struct sse sse;
	long version = http_game_version(client, &game);
	http_game_path(&game, "/stream", path, sizeof path);
	sse_read(http_fixture.server.port, path, game.tokens[1], NULL, (int)version + 18, 5, &sse);
	ck_assert_int_eq(sse.status, 200);
	json_t *streamed = sse_rows(&sse);
	row_keys(streamed, 0, stream_keys, &stream_count);
	ck_assert_int_eq(stream_count, (int)version + 18);
	int offset = 0;
	while (offset < stream_count && strcmp(stream_keys[offset], feed_keys[0]) != 0)
		offset++;
	ck_assert_int_eq(stream_count - offset, feed_count);
	for (int i = 0; i < feed_count; i++)
		ck_assert_str_eq(stream_keys[offset + i], feed_keys[i]);
	/* A message's id is <version>.<seq>; resuming from it, or from an event's id, goes on
	 * exactly after it. */
	int cuts[2] = {-1, -1};
	for (int i = 0; i < sse.count && (cuts[0] < 0 || cuts[1] < 0); i++) {
		int message = strcmp(sse.items[i].event, "message") == 0;
		if (i > 5 && message && cuts[0] < 0 && strchr(sse.items[i].id, '.'))
			cuts[0] = i;
		if (i > 5 && !message && strcmp(sse.items[i].event, "your_turn") != 0 && cuts[1] < 0)
			cuts[1] = i;
	}
	ck_assert_int_ge(cuts[0], 0);
	ck_assert_int_ge(cuts[1], 0);
	for (int c = 0; c < 2; c++) {
		int rows_before = 0;
		for (int i = 0; i <= cuts[c]; i++)
			rows_before += strcmp(sse.items[i].event, "your_turn") != 0;
		struct sse rest;
		sse_read(http_fixture.second.port, path, game.tokens[1], sse.items[cuts[c]].id,
			 stream_count - rows_before, 5, &rest);
		ck_assert_int_eq(rest.status, 200);
		json_t *after = sse_rows(&rest);
		static char rest_keys[400][16];
		int rest_count;
		row_keys(after, 0, rest_keys, &rest_count);
		ck_assert_int_eq(rest_count, stream_count - rows_before);
		for (int i = 0; i < rest_count; i++)
			ck_assert_str_eq(rest_keys[i], stream_keys[rows_before + i]);
		json_decref(after);
		sse_free(&rest);
	}
	json_decref(streamed);
	sse_free(&sse);
	json_decref(rows);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_feed");
	TCase *feed = tcase_create("the player's feed");
	http_fixture_add(feed, HTTP_FIXTURE_SECOND_SERVER, NULL);
	tcase_set_timeout(feed, 240);
	tcase_add_test(feed,
		       test_a_player_in_ten_games_on_two_servers_gets_every_event_once_in_order_as_its_seat_sees_it);
	tcase_add_test(feed, test_resuming_from_a_cursor_by_pages_or_by_last_event_id_misses_and_repeats_nothing);
	tcase_add_test(feed, test_without_a_cursor_the_feed_tells_each_game_that_waits_for_the_player);
	tcase_add_test(feed, test_bad_cursors_waits_limits_and_tokens_are_refused_naming_the_field);
	tcase_add_test(feed, test_messages_come_in_the_feed_and_on_the_game_stream_in_order_with_moves);
	suite_add_tcase(suite, feed);
	return suite;
}
