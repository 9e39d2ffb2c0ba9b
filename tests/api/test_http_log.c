/*
 * test_http_log.c - the event log over HTTP: pages of GET .../moves without gap or
 * duplicate, long-polls woken by moves of other clients (or answered empty at their
 * deadline), the Server-Sent Events stream in order with id = version and resumed with
 * Last-Event-ID (a seat's your_turn notes set aside: test_http_live is about them), and a
 * clean shutdown that answers parked requests.
 *
 * These talk to the server directly (timing is measured, and a proxy would buffer a
 * stream); the log's shape is validated against the spec by test_http_games through Prism.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

/* A game with `moves` random moves made. */
static void game_with_moves(struct http_game *game, int moves, int trades)
{
	http_game_create(&http_fixture.direct, 4, "{\"layout\": \"random\"}", game);
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, game, 42 + (uint64_t)moves, trades);
	for (int i = 0; i < moves; i++)
		ck_assert(http_player_step(&player, NULL));
}

/* The whole log as one viewer reads it, in one request. New reference. */
static json_t *whole_log(const struct http_game *game, const char *token)
{
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=0&limit=1000", game->path);
	json_t *body = http_get_ok(&http_fixture.direct, path, token);
	json_t *events = json_incref(json_object_get(body, "events"));
	json_decref(body);
	return events;
}

START_TEST(test_log_pages_have_no_gap_or_duplicate)
{
	struct http_game game;
	game_with_moves(&game, 60, 1);
	long version = http_game_version(&http_fixture.direct, &game);
	json_t *all = whole_log(&game, game.tokens[1]);
	ck_assert_int_eq((long)json_array_size(all), version);
	long after = 0;
	size_t seen = 0;
	for (int page = 0; after < version; page++) {
		ck_assert_int_lt(page, 1000);
		char path[160];
		snprintf(path, sizeof path, "%s/moves?after=%ld&limit=7", game.path, after);
		json_t *body = http_get_ok(&http_fixture.direct, path, game.tokens[1]);
		ck_assert_int_eq(json_integer_value(json_object_get(body, "version")), version);
		json_t *events = json_object_get(body, "events");
		ck_assert_int_ge(json_array_size(events), 1);
		ck_assert_int_le(json_array_size(events), 7);
		size_t index;
		json_t *event;
		json_array_foreach(events, index, event)
		{
			ck_assert_int_eq(json_integer_value(json_object_get(event, "version")), after + 1);
			ck_assert(json_equal(event, json_array_get(all, seen)));
			ck_assert(json_is_string(json_object_get(event, "created_at")));
			ck_assert_str_eq(json_string_value(json_object_get(event, "origin")), "player");
			after++;
			seen++;
		}
		json_decref(body);
	}
	ck_assert_int_eq(seen, json_array_size(all));
	/* After the end: empty, at once. */
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld", game.path, version);
	json_t *body = http_get_ok(&http_fixture.direct, path, NULL);
	ck_assert_int_eq(json_array_size(json_object_get(body, "events")), 0);
	json_decref(body);
	json_decref(all);
}
END_TEST

struct delayed_move {
	const char *base;
	const struct http_game *game;
	double delay_s;
	double posted_at;
	long version;
};

static void *post_after_delay(void *argument)
{
	struct delayed_move *move = argument;
	struct http_client mover;
	http_client_init(&mover, move->base, 0);
	http_pause(move->delay_s);
	move->posted_at = http_clock();
	move->version = http_post_move_ok(&mover, move->game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	http_client_cleanup(&mover);
	return NULL;
}

/* Park GET .../moves?after=version&wait=5 on `reader` while another client posts a move
 * on `writer`: the long-poll answers with the new events within a second of the move. */
static void long_poll_is_woken(const char *reader, const char *writer)
{
	struct http_client poller;
	http_client_init(&poller, reader, 0);
	struct http_game game;
	http_game_create(&poller, 3, FIXED_START, &game);
	long version = http_game_version(&poller, &game);
	struct delayed_move move = {writer, &game, 0.7, 0, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, post_after_delay, &move);
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=5", game.path, version);
	struct http_response response;
	double started = http_clock();
	http_call(&poller, "GET", path, game.tokens[2], NULL, NULL, &response);
	double answered = http_clock();
	pthread_join(thread, NULL);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	ck_assert_msg(answered - started >= 0.5, "the long-poll waited (%.2f s)", answered - started);
	ck_assert_msg(answered - move.posted_at < 1.0, "woken %.2f s after the move", answered - move.posted_at);
	json_t *events = json_object_get(response.json, "events");
	ck_assert_int_ge(json_array_size(events), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(events, 0), "version")), version + 1);
	/* The game's first roll: a provably fair game fixes the players' seeds just before it. */
	ck_assert_str_eq(json_string_value(json_object_get(http_first_rules_event(events), "type")), "dice_rolled");
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), move.version);
	http_response_free(&response);
	http_client_cleanup(&poller);
}

START_TEST(test_long_poll_is_woken_within_a_second_by_another_clients_move)
{
	long_poll_is_woken(http_fixture.server.url, http_fixture.server.url);
}
END_TEST

START_TEST(test_long_poll_with_nothing_new_answers_empty_at_its_deadline)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=2", game.path, version);
	struct http_response response;
	http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	ck_assert_msg(response.seconds >= 1.9 && response.seconds < 3.5, "answered after %.2f s", response.seconds);
	ck_assert_int_eq(json_array_size(json_object_get(response.json, "events")), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), version);
	http_response_free(&response);
	/* With news already there it answers at once. */
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=5", game.path, version - 1);
	http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_msg(response.seconds < 0.5, "answered after %.2f s", response.seconds);
	ck_assert_int_eq(json_array_size(json_object_get(response.json, "events")), 1);
	http_response_free(&response);
}
END_TEST

/* The stream's events are the log's, in order, with id = version, as the same viewer
 * reads them with GET .../moves. */
static void assert_stream_matches_log(const struct http_stream *stream, const json_t *log, long first_version)
{
	for (int i = 0; i < stream->count; i++) {
		const struct http_sse_event *event = &stream->events[i];
		ck_assert_int_eq(event->id, first_version + i);
		ck_assert_msg(event->data != NULL, "event %ld carries JSON", event->id);
		json_t *expected = json_array_get(log, (size_t)(event->id - 1));
		ck_assert_msg(json_equal(event->data, expected), "stream event %ld differs from the log", event->id);
		ck_assert_str_eq(event->type, json_string_value(json_object_get(expected, "type")));
	}
}

/* Take the seat's your_turn notes out of a stream (the log entries stay, in order): each
 * must be for `seat`, due at the version of the event before it (or at `start`, the version
 * the stream resumed from). test_http_live checks when they come. */
static void strip_your_turn_notes(struct http_stream *stream, int seat, long start)
{
	int kept = 0;
	long last = start;
	for (int i = 0; i < stream->count; i++) {
		struct http_sse_event *event = &stream->events[i];
		if (strcmp(event->type, "your_turn") != 0) {
			last = event->id;
			stream->events[kept++] = *event;
			continue;
		}
		ck_assert_msg(event->id == last, "a your_turn note with id %ld after event %ld", event->id, last);
		ck_assert_int_eq(json_integer_value(json_object_get(event->data, "seat")), seat);
		ck_assert_int_eq(json_integer_value(json_object_get(event->data, "version")), event->id);
		json_decref(event->data);
	}
	stream->count = kept;
}

START_TEST(test_stream_sends_the_log_in_order_with_versions_as_ids)
{
	struct http_game game;
	game_with_moves(&game, 40, 1);
	long version = http_game_version(&http_fixture.direct, &game);
	for (int viewer = -1; viewer < game.seats; viewer++) {
		const char *token = viewer < 0 ? NULL : game.tokens[viewer];
		json_t *log = whole_log(&game, token);
		char path[160];
		struct http_stream stream;
		http_stream_read(http_fixture.server.url, http_game_path(&game, "/stream", path, sizeof path), token,
				 NULL, 100000, &version, 10, &stream);
		ck_assert_int_eq(stream.status, 200);
		ck_assert_msg(strncmp(stream.content_type, "text/event-stream", 17) == 0, "Content-Type: %s",
			      stream.content_type);
		ck_assert_int_eq(stream.count, version);
		assert_stream_matches_log(&stream, log, 1);
		http_stream_free(&stream);
		json_decref(log);
	}
}
END_TEST

struct live_mover {
	const struct http_game *game;
	int moves;
	volatile long last_version;
};

static void *make_moves(void *argument)
{
	struct live_mover *mover = argument;
	struct http_client own;
	http_client_init(&own, http_fixture.server.url, 0);
	struct http_player player;
	http_player_init(&player, &own, mover->game, 9, 0);
	http_pause(0.3);
	struct http_move move;
	long last = 0;
	for (int i = 0; i < mover->moves; i++) {
		ck_assert(http_player_step(&player, &move));
		last = (long)json_integer_value(json_object_get(move.response.json, "version"));
		http_move_free(&move);
		http_pause(0.02);
	}
	mover->last_version = last;
	http_client_cleanup(&own);
	return NULL;
}

START_TEST(test_stream_delivers_live_moves_and_resumes_with_last_event_id)
{
	struct http_game game;
	game_with_moves(&game, 20, 0);
	long version = http_game_version(&http_fixture.direct, &game);
	/* Live: connected at the current version while another client plays. */
	struct live_mover mover = {&game, 25, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, make_moves, &mover);
	char path[160], resume[32];
	http_game_path(&game, "/stream", path, sizeof path);
	snprintf(resume, sizeof resume, "%ld", version);
	struct http_stream live;
	http_stream_read(http_fixture.server.url, path, game.tokens[0], resume, 100000, &mover.last_version, 30, &live);
	pthread_join(thread, NULL);
	strip_your_turn_notes(&live, 0, version);
	long final = mover.last_version;
	ck_assert_int_eq(live.status, 200);
	ck_assert_msg(live.count == final - version, "%d live events for versions %ld..%ld", live.count, version + 1,
		      final);
	json_t *log = whole_log(&game, game.tokens[0]);
	assert_stream_matches_log(&live, log, version + 1);
	http_stream_free(&live);

	/* Resume: the first part, then reconnect with Last-Event-ID = the last id received. */
	struct http_stream first, rest;
	long seventeen = 17;
	http_stream_read(http_fixture.server.url, path, game.tokens[0], NULL, 100000, &seventeen, 10, &first);
	strip_your_turn_notes(&first, 0, 0);
	ck_assert_int_eq(first.count, 17);
	assert_stream_matches_log(&first, log, 1);
	snprintf(resume, sizeof resume, "%ld", first.events[first.count - 1].id);
	http_stream_read(http_fixture.server.url, path, game.tokens[0], resume, 100000, &final, 10, &rest);
	strip_your_turn_notes(&rest, 0, 17);
	ck_assert_int_eq(rest.status, 200);
	ck_assert_int_eq(first.count + rest.count, final);
	assert_stream_matches_log(&rest, log, 18);
	http_stream_free(&first);
	http_stream_free(&rest);
	/* ?after= does the same for clients that cannot send headers. */
	snprintf(path, sizeof path, "%s/stream?after=%ld", game.path, final - 3);
	struct http_stream tail;
	http_stream_read(http_fixture.server.url, path, game.tokens[0], NULL, 100000, &final, 10, &tail);
	strip_your_turn_notes(&tail, 0, final - 3);
	ck_assert_int_eq(tail.count, 3);
	assert_stream_matches_log(&tail, log, final - 2);
	http_stream_free(&tail);
	json_decref(log);
	/* A malformed Last-Event-ID is refused. */
	struct http_response response;
	static const char *const bad[] = {"Last-Event-ID: yesterday", NULL};
	http_call(&http_fixture.direct, "GET", http_game_path(&game, "/stream", path, sizeof path), NULL, NULL, bad,
		  &response);
	http_assert_problem(&response, 400, "invalid_field");
	http_response_free(&response);
}
END_TEST

struct parked {
	const char *base;
	const struct http_game *game;
	long version;
	long status;
	double answered_at;
	int stream_count;
	double stream_ended_at;
};

static void *park_long_poll(void *argument)
{
	struct parked *parked = argument;
	struct http_client own;
	http_client_init(&own, parked->base, 0);
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=30", parked->game->path, parked->version);
	struct http_response response;
	http_call(&own, "GET", path, NULL, NULL, NULL, &response);
	parked->status = response.status;
	parked->answered_at = http_clock();
	http_response_free(&response);
	http_client_cleanup(&own);
	return NULL;
}

static void *park_stream(void *argument)
{
	struct parked *parked = argument;
	char path[160];
	snprintf(path, sizeof path, "%s/stream", parked->game->path);
	struct http_stream stream;
	http_stream_read(parked->base, path, NULL, NULL, 100000, NULL, 30, &stream);
	parked->stream_count = stream.count;
	parked->stream_ended_at = http_clock();
	http_stream_free(&stream);
	return NULL;
}

START_TEST(test_sigterm_answers_parked_requests_and_exits_0)
{
	struct http_server own;
	http_server_start(&own, NULL);
	struct http_client own_client;
	http_client_init(&own_client, own.url, 0);
	struct http_game game;
	http_game_create(&own_client, 3, FIXED_START, &game);
	http_client_cleanup(&own_client);
	struct parked parked = {own.url, &game, 16, 0, 0, 0, 0};
	parked.version = 16;
	pthread_t poll_thread, stream_thread;
	pthread_create(&poll_thread, NULL, park_long_poll, &parked);
	pthread_create(&stream_thread, NULL, park_stream, &parked);
	http_pause(1.0);
	ck_assert_msg(parked.status == 0, "the long-poll is parked");
	double signalled = http_clock();
	int exit_status = http_server_stop(&own, 20);
	pthread_join(poll_thread, NULL);
	pthread_join(stream_thread, NULL);
	char tail[1500];
	http_log_tail(own.log_path, tail, sizeof tail);
	ck_assert_msg(exit_status == 0, "the server exited with %d; its log ends:\n%s", exit_status, tail);
	ck_assert_msg(parked.status == 200 || parked.status == 503, "the parked long-poll got an answer (%ld)",
		      parked.status);
	ck_assert_msg(parked.answered_at - signalled < 5, "answered %.2f s after SIGTERM",
		      parked.answered_at - signalled);
	ck_assert_int_eq(parked.stream_count, 16);
	ck_assert_msg(parked.stream_ended_at - signalled < 5, "the stream ended %.2f s after SIGTERM",
		      parked.stream_ended_at - signalled);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_log");
	TCase *log = tcase_create("log, long-poll and stream");
	http_fixture_add(log, 0, NULL);
	tcase_set_timeout(log, 60);
	tcase_add_test(log, test_log_pages_have_no_gap_or_duplicate);
	tcase_add_test(log, test_long_poll_is_woken_within_a_second_by_another_clients_move);
	tcase_add_test(log, test_long_poll_with_nothing_new_answers_empty_at_its_deadline);
	tcase_add_test(log, test_stream_sends_the_log_in_order_with_versions_as_ids);
	tcase_add_test(log, test_stream_delivers_live_moves_and_resumes_with_last_event_id);
	tcase_add_test(log, test_sigterm_answers_parked_requests_and_exits_0);
	suite_add_tcase(suite, log);
	return suite;
}
