/*
 * test_http_two_servers.c - two server processes on one database serve the same games
 * interchangeably: any request may go to either, each one's cache of game states is only
 * an optimisation, a long-poll or stream on one is woken by a move made on the other
 * (PostgreSQL's LISTEN/NOTIFY), an Idempotency-Key used on one is honoured by the other,
 * and the same move raced on both applies once.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

/* Both servers show every viewer the same thing. */
static void assert_same_on_both(const struct http_game *game)
{
	char path[192];
	static const char *const suffixes[] = {"", "/actions", "/moves?after=0&limit=1000", "/trades"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		/* What this process was answered last, asked of both (each may answer from its cache). */
		http_game_read_path(game, suffixes[i], path, sizeof path);
		for (int viewer = -1; viewer < game->seats; viewer++) {
			const char *token = viewer < 0 ? NULL : game->tokens[viewer];
			json_t *a = http_get_ok(&http_fixture.direct, path, token);
			json_t *b = http_get_ok(&http_fixture.second_direct, path, token);
			ck_assert_msg(json_equal(a, b), "GET %s as %d differs between the servers", path, viewer);
			json_decref(a);
			json_decref(b);
		}
	}
}

START_TEST(test_a_game_played_alternately_on_two_servers_reaches_a_winner)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 4, "{\"layout\": \"random\"}", &game);
	/* One player per server, taking turns: each step reads the game afresh from its server,
	 * so every move is decided on a state the other server made. */
	struct http_player on_a, on_b;
	uint64_t seed = http_random64();
	http_player_init(&on_a, &http_fixture.direct, &game, seed, 1);
	http_player_init(&on_b, &http_fixture.second_direct, &game, seed + 1, 1);
	int moves = 0;
	for (;;) {
		struct http_player *player = moves % 2 ? &on_b : &on_a;
		if (!http_player_step(player, NULL))
			break;
		moves++;
		ck_assert_msg(moves < 5000, "game %s unfinished", game.id);
		if (moves % 100 == 0)
			assert_same_on_both(&game);
	}
	assert_same_on_both(&game);
	json_t *view = http_get_ok(&http_fixture.second_direct, game.path, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(view, "status")), "finished");
	ck_assert(json_integer_value(json_object_get(view, "winner")) >= 0);
	json_decref(view);
	fprintf(stderr, "game %s: %d moves alternating between two servers (player seed %llu)\n", game.id, moves,
		(unsigned long long)seed);
}
END_TEST

struct delayed_move {
	struct http_server *server;
	const struct http_game *game;
	double posted_at;
};

static void *post_on_b(void *argument)
{
	struct delayed_move *move = argument;
	struct http_client own;
	http_client_init(&own, move->server->url, 0);
	http_pause(0.7);
	move->posted_at = http_clock();
	http_post_move_ok(&own, move->game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	http_client_cleanup(&own);
	return NULL;
}

START_TEST(test_a_long_poll_on_one_server_is_woken_by_a_move_on_the_other)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	struct delayed_move move = {&http_fixture.second, &game, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, post_on_b, &move);
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=10", game.path, version);
	struct http_response response;
	http_call(&http_fixture.direct, "GET", path, game.tokens[1], NULL, NULL, &response);
	double answered = http_clock();
	pthread_join(thread, NULL);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	ck_assert_msg(response.seconds >= 0.5, "the long-poll waited (%.2f s)", response.seconds);
	ck_assert_msg(answered - move.posted_at < 1.0, "woken %.2f s after the move on the other server",
		      answered - move.posted_at);
	json_t *events = json_object_get(response.json, "events");
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(events, 0), "version")), version + 1);
	/* The first roll (a provably fair game fixes the players' seeds just before it). */
	ck_assert_str_eq(json_string_value(json_object_get(http_first_rules_event(events), "type")), "dice_rolled");
	http_response_free(&response);
}
END_TEST

struct stream_reader {
	const struct http_game *game;
	long after;
	volatile long until;
	struct http_stream stream;
};

static void *read_stream_on_a(void *argument)
{
	struct stream_reader *reader = argument;
	char path[160], resume[32];
	snprintf(resume, sizeof resume, "%ld", reader->after);
	http_stream_read(http_fixture.server.url, http_game_path(reader->game, "/stream", path, sizeof path), NULL,
			 resume, 100000, &reader->until, 20, &reader->stream);
	return NULL;
}

START_TEST(test_a_stream_on_one_server_delivers_moves_made_on_the_other)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	struct stream_reader reader = {&game, version, 0, {0}};
	pthread_t thread;
	pthread_create(&thread, NULL, read_stream_on_a, &reader);
	http_pause(0.5);
	struct http_player player;
	http_player_init(&player, &http_fixture.second_direct, &game, 3, 0);
	long last = version;
	for (int i = 0; i < 12; i++) {
		struct http_move move;
		ck_assert(http_player_step(&player, &move));
		last = (long)json_integer_value(json_object_get(move.response.json, "version"));
		http_move_free(&move);
	}
	reader.until = last;
	pthread_join(thread, NULL);
	ck_assert_int_eq(reader.stream.status, 200);
	ck_assert_int_eq(reader.stream.count, last - version);
	for (int i = 0; i < reader.stream.count; i++)
		ck_assert_int_eq(reader.stream.events[i].id, version + 1 + i);
	http_stream_free(&reader.stream);
}
END_TEST

START_TEST(test_an_idempotency_key_used_on_one_server_is_replayed_by_the_other)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	static const char *const key[] = {"Idempotency-Key: across-servers", NULL};
	struct http_response first, again;
	http_post_move(&http_fixture.direct, &game, 0, "{\"type\": \"roll\", \"dice\": [6, 6]}", key, &first);
	ck_assert_int_eq(first.status, 201);
	http_post_move(&http_fixture.second_direct, &game, 0, "{\"type\": \"roll\", \"dice\": [6, 6]}", key, &again);
	ck_assert_int_eq(again.status, 201);
	char value[16];
	ck_assert(http_response_header(&again, "Idempotent-Replayed", value, sizeof value) != NULL);
	ck_assert_str_eq(again.body, first.body);
	http_response_free(&again);
	http_post_move(&http_fixture.second_direct, &game, 0, "{\"type\": \"end_turn\"}", key, &again);
	http_assert_problem(&again, 422, "idempotency_key_reused");
	http_response_free(&again);
	http_response_free(&first);
	json_t *a = http_get_ok(&http_fixture.direct, game.path, NULL);
	json_t *b = http_get_ok(&http_fixture.second_direct, game.path, NULL);
	ck_assert(json_equal(a, b));
	json_decref(a);
	json_decref(b);
}
END_TEST

struct racer {
	pthread_barrier_t *barrier;
	const char *base;
	const struct http_game *game;
	const char *body;
	long status;
	char code[48];
};

static void *race(void *argument)
{
	struct racer *racer = argument;
	struct http_client own;
	http_client_init(&own, racer->base, 0);
	struct http_response warm;
	http_call(&own, "GET", racer->game->path, NULL, NULL, NULL, &warm); /* both caches hold the game */
	http_response_free(&warm);
	pthread_barrier_wait(racer->barrier);
	struct http_response response;
	http_post_move(&own, racer->game, 0, racer->body, NULL, &response);
	racer->status = response.status;
	json_t *code = response.json ? json_object_get(response.json, "code") : NULL;
	snprintf(racer->code, sizeof racer->code, "%s", json_is_string(code) ? json_string_value(code) : "");
	http_response_free(&response);
	http_client_cleanup(&own);
	return NULL;
}

START_TEST(test_the_same_move_raced_on_both_servers_applies_once)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	enum { RACERS = 16 };
	/* Seat 0's roll, then its end of turn, each raced by threads on both servers. */
	for (int round = 0; round < 2; round++) {
		const char *body = round ? "{\"type\": \"end_turn\"}" : "{\"type\": \"roll\", \"dice\": [1, 1]}";
		struct racer racers[RACERS];
		pthread_barrier_t barrier;
		pthread_barrier_init(&barrier, NULL, RACERS);
		pthread_t threads[RACERS];
		for (int i = 0; i < RACERS; i++) {
			racers[i] = (struct racer){&barrier, i % 2 ? http_fixture.second.url : http_fixture.server.url,
						   &game,    body,
						   0,	     ""};
			pthread_create(&threads[i], NULL, race, &racers[i]);
		}
		for (int i = 0; i < RACERS; i++)
			pthread_join(threads[i], NULL);
		pthread_barrier_destroy(&barrier);
		int won = 0;
		for (int i = 0; i < RACERS; i++) {
			if (racers[i].status == 201)
				won++;
			else
				ck_assert_msg(racers[i].status == 422 || racers[i].status == 409, "a loser got %ld %s",
					      racers[i].status, racers[i].code);
		}
		ck_assert_int_eq(won, 1);
	}
	json_t *events = http_truth_events(game.id, 0);
	int rolls = 0, ends = 0;
	size_t index;
	json_t *event;
	json_array_foreach(events, index, event)
	{
		rolls += strcmp(json_string_value(json_object_get(event, "type")), "dice_rolled") == 0;
		ends += strcmp(json_string_value(json_object_get(event, "type")), "turn_ended") == 0;
	}
	json_decref(events);
	ck_assert_int_eq(rolls, 1);
	ck_assert_int_eq(ends, 1);
	assert_same_on_both(&game);
}
END_TEST

/* One of the requests sent at once with the same Idempotency-Key. */
struct keyed_racer {
	pthread_barrier_t *barrier;
	struct http_client *client;
	const struct http_game *game;
	int seat;
	const char *body;
	const char *header;
	struct http_response response;
};

static void *race_with_key(void *argument)
{
	struct keyed_racer *racer = argument;
	const char *headers[] = {racer->header, NULL};
	pthread_barrier_wait(racer->barrier);
	http_post_move(racer->client, racer->game, racer->seat, racer->body, headers, &racer->response);
	return NULL;
}

/* Issue 8, item 5: the same key sent to both servers at once must get the same answer from
 * every request (the move applied once), never 201 from one and a refusal (must_roll_first,
 * not_your_turn ...) from another. Each turn's roll is made through a third server, so both
 * racing servers hold a stale state and decide the end of turn twice (refused on the cached
 * state, then on the fresh one): the window in which one request's record lands between
 * another's key lookup and its fresh decision. Many turns, because the window is narrow. */
START_TEST(test_one_key_sent_to_both_servers_at_once_gets_one_answer)
{
	struct http_server server_c;
	http_server_start(&server_c, NULL);
	struct http_client client_c;
	http_client_init(&client_c, server_c.url, 0);
	enum { TURNS = 150, PER_SERVER = 2, RACERS = 2 * PER_SERVER };
	struct http_client racing[RACERS];
	for (int i = 0; i < RACERS; i++)
		http_client_init(&racing[i], i % 2 ? http_fixture.second.url : http_fixture.server.url, 0);
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long start_version = http_game_version(&http_fixture.direct, &game);
	uint64_t salt = http_random64();
	int differing = 0, applied = 0;
	char first_difference[600] = "";
	for (int turn = 0; turn < TURNS; turn++) {
		int seat = turn % 3;
		http_post_move_ok(&client_c, &game, seat, "{\"type\": \"roll\", \"dice\": [2, 3]}");
		char header[96];
		snprintf(header, sizeof header, "Idempotency-Key: end-%016llx-%d", (unsigned long long)salt, turn);
		pthread_barrier_t barrier;
		pthread_barrier_init(&barrier, NULL, RACERS);
		struct keyed_racer racers[RACERS];
		pthread_t threads[RACERS];
		for (int i = 0; i < RACERS; i++) {
			racers[i] = (struct keyed_racer){&barrier, &racing[i], &game, seat, "{\"type\": \"end_turn\"}",
							 header,   {0}};
			pthread_create(&threads[i], NULL, race_with_key, &racers[i]);
		}
		for (int i = 0; i < RACERS; i++)
			pthread_join(threads[i], NULL);
		pthread_barrier_destroy(&barrier);
		const struct http_response *first = &racers[0].response;
		int same = 1;
		for (int i = 1; i < RACERS; i++)
			same &= racers[i].response.status == first->status &&
				strcmp(racers[i].response.body, first->body) == 0;
		if (!same && !differing++) {
			int at = snprintf(first_difference, sizeof first_difference, "turn %d:", turn);
			for (int i = 0; i < RACERS && at < (int)sizeof first_difference; i++)
				at += snprintf(first_difference + at, sizeof first_difference - (size_t)at,
					       " [%c] %ld %.100s", i % 2 ? 'B' : 'A', racers[i].response.status,
					       racers[i].response.body);
		}
		int accepted = 0;
		for (int i = 0; i < RACERS; i++) {
			accepted |= racers[i].response.status == 201;
			http_response_free(&racers[i].response);
		}
		applied += accepted;
		if (!accepted)
			break; /* the turn did not end: the next roll would be refused */
	}
	for (int i = 0; i < RACERS; i++)
		http_client_cleanup(&racing[i]);
	http_client_cleanup(&client_c);
	http_server_stop(&server_c, 30);
	ck_assert_msg(differing == 0, "%d of %d keys got two answers; first: %s", differing, TURNS, first_difference);
	ck_assert_int_eq(applied, TURNS);
	/* Every turn's end is in the log once. */
	json_t *events = http_truth_events(game.id, start_version);
	int ends = 0;
	size_t index;
	json_t *event;
	json_array_foreach(events, index, event) ends +=
		strcmp(json_string_value(json_object_get(event, "type")), "turn_ended") == 0;
	json_decref(events);
	ck_assert_int_eq(ends, TURNS);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_two_servers");
	TCase *two = tcase_create("two servers, one database");
	http_fixture_add(two, HTTP_FIXTURE_SECOND_SERVER, NULL);
	tcase_set_timeout(two, 180);
	tcase_add_test(two, test_a_long_poll_on_one_server_is_woken_by_a_move_on_the_other);
	tcase_add_test(two, test_a_stream_on_one_server_delivers_moves_made_on_the_other);
	tcase_add_test(two, test_an_idempotency_key_used_on_one_server_is_replayed_by_the_other);
	tcase_add_test(two, test_the_same_move_raced_on_both_servers_applies_once);
	tcase_add_test(two, test_one_key_sent_to_both_servers_at_once_gets_one_answer);
	tcase_add_test(two, test_a_game_played_alternately_on_two_servers_reaches_a_winner);
	suite_add_tcase(suite, two);
	return suite;
}
