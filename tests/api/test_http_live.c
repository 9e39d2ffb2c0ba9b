/*
 * test_http_live.c - telling a seat when it must act (issue 11, item 2; issue 23, item 6):
 * GET .../actions?after=N&wait=S holds the request until the game, at version N or later,
 * waits for the caller's seat (at once when it already does), and answers within a second
 * of the move that makes it so, also when that move is made through another server on the
 * same database. A move that leaves its mover due answers the mover's next actions.
 *
 * The games start fixed with manual dice and seat 0 first, so the tests know which moves
 * hand the turn on: seat 0's roll leaves the game waiting for seat 0 only, its end of turn
 * makes seat 1 act. Requests go through Prism (`checked`, requests validated too) so every
 * answer is held to openapi.yaml; malformed parameters go straight to the server, since
 * Prism would refuse them itself.
 */
#include <pthread.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

/* Games of bots only play to their end by themselves (a finished game). */
static const char *const fixture_settings[] = {"ALL_BOT_GAMES=1", "CREATE_RATE_IP=0", NULL};

/* Seat 0 plays one turn on `base` (its own connection): after `delay_s` it rolls (the game
 * still waits for seat 0 alone), `gap_s` later it ends the turn (the game now waits for
 * seat 1). The times of both moves and the version after the turn are recorded. */
struct turn_player {
	const char *base;
	const struct http_game *game;
	double delay_s, gap_s;
	double rolled_at, ended_at;
	long version;
};

static void *play_turn(void *argument)
{
	struct turn_player *turn = argument;
	struct http_client own;
	http_client_init(&own, turn->base, 0);
	http_pause(turn->delay_s);
	http_post_move_ok(&own, turn->game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	turn->rolled_at = http_clock();
	http_pause(turn->gap_s);
	turn->version = http_post_move_ok(&own, turn->game, 0, "{\"type\": \"end_turn\"}");
	turn->ended_at = http_clock();
	http_client_cleanup(&own);
	return NULL;
}

/* GET <game>/actions?after=after&wait=wait_s as `seat` on `client`; the answer in *out. */
static void wait_for_actions(struct http_client *client, const struct http_game *game, int seat, long after, int wait_s,
			     struct http_response *out)
{
	char path[192];
	snprintf(path, sizeof path, "%s/actions?after=%ld&wait=%d", game->path, after, wait_s);
	http_call(client, "GET", path, seat < 0 ? NULL : game->tokens[seat], NULL, NULL, out);
	ck_assert_msg(out->status == 200, "GET %s: %s", path, http_describe(out));
}

/* 1 when the Actions body's waiting_for lists `seat`. */
static int waits_for(const json_t *actions, int seat)
{
	size_t index;
	json_t *entry;
	json_array_foreach(json_object_get(actions, "waiting_for"), index,
			   entry) if (json_integer_value(entry) == seat) return 1;
	return 0;
}

/* 1 when the Actions body lists an action of `type`. */
static int lists_action(const json_t *actions, const char *type)
{
	size_t index;
	json_t *entry;
	json_array_foreach(json_object_get(actions, "actions"), index,
			   entry) if (strcmp(json_string_value(json_object_get(entry, "type")), type) == 0) return 1;
	return 0;
}

/* Seat 1 waits while seat 0 rolls (not yet seat 1's turn: it stays parked) and then ends
 * its turn: seat 1 is answered within a second of the end of the turn, with its roll. */
static void assert_woken_by_the_turn_passing(struct http_client *waiter_client, const char *mover_base)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	struct turn_player turn = {mover_base, &game, 0.6, 0.8, 0, 0, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, play_turn, &turn);
	struct http_response response;
	wait_for_actions(waiter_client, &game, 1, version, 20, &response);
	double answered = http_clock();
	pthread_join(thread, NULL);
	ck_assert_msg(answered > turn.ended_at - 0.05, "answered %.2f s before the turn ended (rolled at %+.2f s)",
		      turn.ended_at - answered, turn.rolled_at - answered);
	ck_assert_msg(answered - turn.ended_at < 1.0, "answered %.2f s after the move that made seat 1 act",
		      answered - turn.ended_at);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), turn.version);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), 1);
	ck_assert_msg(waits_for(response.json, 1), "%s", http_describe(&response));
	ck_assert_msg(lists_action(response.json, "roll"), "%s", http_describe(&response));
	char etag[32], expected[32];
	snprintf(expected, sizeof expected, "\"%ld\"", turn.version);
	ck_assert_ptr_nonnull(http_response_header(&response, "ETag", etag, sizeof etag));
	ck_assert_str_eq(etag, expected);
	http_response_free(&response);
}

START_TEST(test_a_waiting_seat_is_answered_within_a_second_of_becoming_due)
{
	assert_woken_by_the_turn_passing(&http_fixture.checked, http_fixture.server.url);
}
END_TEST

START_TEST(test_a_wait_on_one_server_is_answered_for_a_move_made_on_the_other)
{
	assert_woken_by_the_turn_passing(&http_fixture.direct, http_fixture.second.url);
}
END_TEST

START_TEST(test_moves_that_leave_the_seat_idle_do_not_answer_the_wait)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	/* The whole turn passes to seat 1: seat 2 has nothing to do throughout. */
	struct turn_player turn = {http_fixture.server.url, &game, 0.3, 0.3, 0, 0, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, play_turn, &turn);
	struct http_response response;
	wait_for_actions(&http_fixture.checked, &game, 2, version, 2, &response);
	pthread_join(thread, NULL);
	ck_assert_msg(response.seconds >= 1.9, "seat 2 was answered after %.2f s: %s", response.seconds,
		      http_describe(&response));
	ck_assert_msg(response.seconds < 4, "the 2 s wait took %.2f s", response.seconds);
	/* The timeout answers the current actions: the client sees the version and asks again. */
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), turn.version);
	ck_assert_msg(!waits_for(response.json, 2) && waits_for(response.json, 1), "%s", http_describe(&response));
	http_response_free(&response);
	/* A spectator is never waited for: it is held to the end of its wait too. */
	wait_for_actions(&http_fixture.checked, &game, -1, 0, 1, &response);
	ck_assert_msg(response.seconds >= 0.9, "a spectator was answered after %.2f s", response.seconds);
	ck_assert(json_is_null(json_object_get(response.json, "seat")));
	http_response_free(&response);
}
END_TEST

START_TEST(test_a_seat_due_at_or_past_after_is_answered_at_once)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	struct http_response response;
	/* Seat 0 must roll, and the game is past version - 1: at once. */
	wait_for_actions(&http_fixture.checked, &game, 0, version - 1, 30, &response);
	ck_assert_msg(response.seconds < 1, "answered after %.2f s", response.seconds);
	ck_assert(lists_action(response.json, "roll"));
	http_response_free(&response);
	/* With after absent (0) the same. */
	char path[192];
	snprintf(path, sizeof path, "%s/actions?wait=30", game.path);
	http_call(&http_fixture.checked, "GET", path, game.tokens[0], NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && response.seconds < 1, "%s after %.2f s", http_describe(&response),
		      response.seconds);
	http_response_free(&response);
	/* The seat holds the current version already and must act at it: at once too (issue
	 * 23: waiting for a move only the caller can make would stall it the whole wait). */
	wait_for_actions(&http_fixture.checked, &game, 0, version, 30, &response);
	ck_assert_msg(response.seconds < 1, "answered after %.2f s", response.seconds);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), version);
	ck_assert(lists_action(response.json, "roll"));
	http_response_free(&response);
	/* A version the game has not reached yet (a replica behind the writer) is waited for. */
	wait_for_actions(&http_fixture.checked, &game, 0, version + 1, 1, &response);
	ck_assert_msg(response.seconds >= 0.9, "answered after %.2f s", response.seconds);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), version);
	http_response_free(&response);
	/* Without wait nothing is held. */
	snprintf(path, sizeof path, "%s/actions?after=%ld", game.path, version + 5);
	http_call(&http_fixture.checked, "GET", path, game.tokens[1], NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && response.seconds < 1, "%s", http_describe(&response));
	http_response_free(&response);
}
END_TEST

/* A seat asked by an open offer is due until it answers: a bot author's loop (wait for
 * actions, act on what it holds) answers another seat's offer at once, where it would
 * otherwise sit out the offerer's whole wait (a server bot's offer waits offer_wait_s for
 * the people it asked). Once it declined, its wait is held again. */
START_TEST(test_a_seat_asked_by_an_open_offer_is_answered_at_once_until_it_answers)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	json_t *view = http_get_ok(&http_fixture.direct, game.path, game.tokens[0]);
	const char *give = NULL;
	static const char *const names[] = {"brick", "lumber", "wool", "grain", "ore"};
	for (int r = 0; r < 5 && !give; r++)
		if (json_integer_value(
			    json_object_get(json_object_get(json_object_get(view, "you"), "resources"), names[r])))
			give = names[r];
	json_decref(view);
	ck_assert_msg(give != NULL, "seat 0 holds nothing to offer");
	char path[192], body[160];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}}", give,
		 strcmp(give, "ore") == 0 ? "wool" : "ore");
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/trades", path, sizeof path), game.tokens[0],
		  body, NULL, &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	int trade = (int)json_integer_value(json_object_get(response.json, "id"));
	http_response_free(&response);
	long version = http_game_version(&http_fixture.direct, &game);
	/* Seat 2 is asked: answered at once, though the game waits for seat 0. */
	wait_for_actions(&http_fixture.checked, &game, 2, version, 20, &response);
	ck_assert_msg(response.seconds < 1, "the asked seat was answered after %.2f s", response.seconds);
	ck_assert_msg(!waits_for(response.json, 2) && waits_for(response.json, 0), "%s", http_describe(&response));
	ck_assert_msg(lists_action(response.json, "decline_trade"), "%s", http_describe(&response));
	http_response_free(&response);
	snprintf(path, sizeof path, "%s/trades/%d/decline", game.path, trade);
	http_call(&http_fixture.checked, "POST", path, game.tokens[2], NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "decline: %s", http_describe(&response));
	http_response_free(&response);
	version = http_game_version(&http_fixture.direct, &game);
	/* Answered: seat 2 waits again; seat 1, still asked, is answered at once. */
	wait_for_actions(&http_fixture.checked, &game, 2, version, 1, &response);
	ck_assert_msg(response.seconds >= 0.9, "seat 2 was answered after %.2f s", response.seconds);
	http_response_free(&response);
	wait_for_actions(&http_fixture.checked, &game, 1, version, 20, &response);
	ck_assert_msg(response.seconds < 1, "seat 1 was answered after %.2f s", response.seconds);
	ck_assert_msg(lists_action(response.json, "decline_trade"), "%s", http_describe(&response));
	http_response_free(&response);
}
END_TEST

/* The bot loop of issue 23: POST a move, then GET .../actions?after=<its version>&wait=S.
 * A move that leaves the mover due answers its next actions itself (so the loop needs no
 * read at all), and the wait from that version answers at once, not after S seconds; a
 * move that hands the turn on answers none, and the wait from it is held until the seat
 * is due again. */
START_TEST(test_a_move_that_leaves_the_mover_due_answers_its_next_actions)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	struct http_response response;
	http_post_move(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}", NULL, &response);
	ck_assert_msg(response.status == 201, "roll: %s", http_describe(&response));
	long rolled = json_integer_value(json_object_get(response.json, "version"));
	const json_t *next = json_object_get(response.json, "actions");
	ck_assert_msg(json_is_object(next), "the roll's answer has no actions: %s", http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(next, "version")), rolled);
	ck_assert_int_eq(json_integer_value(json_object_get(next, "seat")), 0);
	ck_assert(waits_for(next, 0));
	ck_assert_msg(lists_action(next, "end_turn"), "%s", http_describe(&response));
	http_response_free(&response);

	wait_for_actions(&http_fixture.checked, &game, 0, rolled, 30, &response);
	ck_assert_msg(response.seconds < 1, "the wait from the roll's version took %.2f s", response.seconds);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), rolled);
	ck_assert(lists_action(response.json, "end_turn"));
	http_response_free(&response);

	http_post_move(&http_fixture.checked, &game, 0, "{\"type\": \"end_turn\"}", NULL, &response);
	ck_assert_msg(response.status == 201, "end_turn: %s", http_describe(&response));
	long ended = json_integer_value(json_object_get(response.json, "version"));
	ck_assert_msg(json_object_get(response.json, "actions") == NULL, "seat 0 is not due, yet: %s",
		      http_describe(&response));
	http_response_free(&response);
	wait_for_actions(&http_fixture.checked, &game, 0, ended, 2, &response);
	ck_assert_msg(response.seconds >= 1.9, "seat 0 was answered after %.2f s", response.seconds);
	ck_assert(!waits_for(response.json, 0));
	http_response_free(&response);
}
END_TEST

START_TEST(test_a_finished_game_answers_at_once)
{
	char players[512], body[640];
	http_players_json(3, 0x7, players, sizeof players);
	snprintf(body, sizeof body, "{\"players\": %s}", players);
	struct http_game game;
	http_game_create_body(&http_fixture.direct, body, &game);
	ck_assert_msg(http_game_wait_finished(&http_fixture.direct, &game, 90 * http_slowdown()),
		      "the bots did not finish game %s", game.id);
	long version = http_game_version(&http_fixture.direct, &game);
	/* Nothing will ever be due: the caller holding the final version is not kept waiting. */
	struct http_response response;
	wait_for_actions(&http_fixture.checked, &game, -1, version, 30, &response);
	ck_assert_msg(response.seconds < 2, "answered after %.2f s", response.seconds);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), version);
	ck_assert_int_eq(json_array_size(json_object_get(response.json, "waiting_for")), 0);
	http_response_free(&response);
}
END_TEST

START_TEST(test_malformed_after_and_wait_are_400_naming_the_parameter)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	static const struct {
		const char *query;
		const char *field;
	} cases[] = {
		{"wait=61", "wait"},	      {"wait=-1", "wait"},
		{"wait=soon", "wait"},	      {"wait=", "wait"},
		{"after=-1", "after"},	      {"after=x", "after"},
		{"after=1&wait=1.5", "wait"}, {"after=99999999999&wait=1", "after"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[192];
		snprintf(path, sizeof path, "%s/actions?%s", game.path, cases[i].query);
		struct http_response response;
		http_call(&http_fixture.direct, "GET", path, game.tokens[0], NULL, NULL, &response);
		http_assert_problem(&response, 400, "invalid_field");
		ck_assert_msg(response.seconds < 1, "%s took %.2f s", path, response.seconds);
		const char *field = json_string_value(json_object_get(response.json, "field"));
		ck_assert_msg(field && strcmp(field, cases[i].field) == 0, "%s: field %s", path,
			      field ? field : "(none)");
		http_response_free(&response);
	}
}
END_TEST

/* ---- your_turn in the stream and the long-poll ---- */

/* Every event's data, validated against the spec's StreamEvent by validate_json.js (the
 * stream is read straight from the server: Prism does not check streams). */
static void assert_stream_keeps_to_the_spec(const struct http_stream *stream)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[256], command[600];
	snprintf(path, sizeof path, "%s/catan-stream-events-%ld.txt", tmp, (long)getpid());
	FILE *file = fopen(path, "w");
	ck_assert(file != NULL);
	for (int i = 0; i < stream->count; i++) {
		ck_assert_msg(stream->events[i].data != NULL, "event %d (%s) has no JSON data", i,
			      stream->events[i].type);
		char *text = json_dumps(stream->events[i].data, JSON_COMPACT);
		fprintf(file, "StreamEvent\t%s\n", text);
		/* The data's type is the SSE event name. */
		ck_assert_str_eq(json_string_value(json_object_get(stream->events[i].data, "type")),
				 stream->events[i].type);
		free(text);
	}
	fclose(file);
	snprintf(command, sizeof command, "node tests/api/validate_json.js openapi/openapi.json < %s >&2", path);
	ck_assert_msg(system(command) == 0, "stream events in %s break the spec (validate_json.js said so above)",
		      path);
	unlink(path);
}

/* Seat 0 rolls and ends its turn: the game then waits for seat 1. The versions before and
 * after. */
static void play_first_turn(const struct http_game *game, long *before, long *after)
{
	*before = http_game_version(&http_fixture.direct, game);
	http_post_move_ok(&http_fixture.direct, game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	*after = http_post_move_ok(&http_fixture.direct, game, 0, "{\"type\": \"end_turn\"}");
}

/* The your_turn note is for `seat` at `version`, with the seat's actions at that version. */
static void assert_your_turn(const json_t *note, int seat, long version, const char *action)
{
	ck_assert_msg(json_is_object(note), "no your_turn note");
	ck_assert_str_eq(json_string_value(json_object_get(note, "type")), "your_turn");
	ck_assert_int_eq(json_integer_value(json_object_get(note, "version")), version);
	ck_assert_int_eq(json_integer_value(json_object_get(note, "seat")), seat);
	const json_t *actions = json_object_get(note, "actions");
	ck_assert_int_eq(json_integer_value(json_object_get(actions, "version")), version);
	ck_assert_int_eq(json_integer_value(json_object_get(actions, "seat")), seat);
	ck_assert(waits_for(actions, seat));
	ck_assert_msg(lists_action(actions, action), "your_turn of seat %d lists no %s", seat, action);
}

START_TEST(test_the_stream_tells_the_seat_its_turn_after_the_events)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long before, after;
	play_first_turn(&game, &before, &after);
	char path[256], resume[24];
	snprintf(resume, sizeof resume, "%ld", before);
	/* Seat 1 (its token as ?token=, as an EventSource sends it): the turn's events, then
	 * your_turn with the version as its id, once. */
	snprintf(path, sizeof path, "%s/stream?token=%s", game.path, game.tokens[1]);
	struct http_stream stream;
	http_stream_read(http_fixture.server.url, path, NULL, resume, 1000, NULL, 2, &stream);
	ck_assert_int_eq(stream.status, 200);
	ck_assert_int_eq(stream.count, after - before + 1);
	for (long i = 0; i < after - before; i++) {
		ck_assert_int_eq(stream.events[i].id, before + 1 + i);
		ck_assert_str_ne(stream.events[i].type, "your_turn");
	}
	struct http_sse_event *note = &stream.events[stream.count - 1];
	ck_assert_str_eq(note->type, "your_turn");
	ck_assert_int_eq(note->id, after);
	assert_your_turn(note->data, 1, after, "roll");
	assert_stream_keeps_to_the_spec(&stream);
	http_stream_free(&stream);
	/* Resumed from that id while it is still due: sent again at once, never lost. */
	snprintf(resume, sizeof resume, "%ld", after);
	http_stream_read(http_fixture.server.url, path, NULL, resume, 1, NULL, 5, &stream);
	ck_assert_int_eq(stream.count, 1);
	ck_assert_str_eq(stream.events[0].type, "your_turn");
	ck_assert_int_eq(stream.events[0].id, after);
	ck_assert_msg(stream.seconds < 2, "the note took %.2f s", stream.seconds);
	http_stream_free(&stream);
	/* Seat 0, no longer due, and a spectator: the events only. */
	for (int viewer = -1; viewer <= 0; viewer++) {
		snprintf(resume, sizeof resume, "%ld", before);
		http_game_path(&game, "/stream", path, sizeof path);
		http_stream_read(http_fixture.server.url, path, viewer < 0 ? NULL : game.tokens[viewer], resume, 1000,
				 NULL, 1.5, &stream);
		ck_assert_int_eq(stream.count, after - before);
		for (int i = 0; i < stream.count; i++)
			ck_assert_str_ne(stream.events[i].type, "your_turn");
		http_stream_free(&stream);
	}
}
END_TEST

struct stream_reader {
	const char *path;
	const char *token;
	long after;
	double timeout_s;
	struct http_stream stream;
};

static void *read_stream(void *argument)
{
	struct stream_reader *reader = argument;
	char resume[24];
	snprintf(resume, sizeof resume, "%ld", reader->after);
	http_stream_read(http_fixture.server.url, reader->path, reader->token, resume, 1000, NULL, reader->timeout_s,
			 &reader->stream);
	return NULL;
}

START_TEST(test_a_live_stream_tells_each_seat_when_it_becomes_due)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.direct, &game);
	char path[160];
	http_game_path(&game, "/stream", path, sizeof path);
	struct stream_reader readers[2] = {{path, game.tokens[0], version, 3, {0}},
					   {path, game.tokens[1], version, 3, {0}}};
	pthread_t threads[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&threads[i], NULL, read_stream, &readers[i]);
	http_pause(0.5);
	long rolled = http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	http_pause(0.3);
	long ended = http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"end_turn\"}");
	for (int i = 0; i < 2; i++)
		pthread_join(threads[i], NULL);
	/* Seat 0: due when the stream opened and again after its roll, not after its end. */
	struct http_stream *zero = &readers[0].stream, *one = &readers[1].stream;
	long notes[4];
	int count = 0;
	for (int i = 0; i < zero->count; i++)
		if (strcmp(zero->events[i].type, "your_turn") == 0 && count < 4) {
			assert_your_turn(zero->events[i].data, 0, zero->events[i].id, count ? "end_turn" : "roll");
			notes[count++] = zero->events[i].id;
		}
	ck_assert_int_eq(count, 2);
	ck_assert_int_eq(notes[0], version);
	ck_assert_int_eq(notes[1], rolled);
	ck_assert_int_eq(zero->count, ended - version + 2);
	/* Seat 1: once, after the end of seat 0's turn, as the last event. */
	ck_assert_int_eq(one->count, ended - version + 1);
	ck_assert_str_eq(one->events[one->count - 1].type, "your_turn");
	assert_your_turn(one->events[one->count - 1].data, 1, ended, "roll");
	assert_stream_keeps_to_the_spec(zero);
	assert_stream_keeps_to_the_spec(one);
	http_stream_free(zero);
	http_stream_free(one);
}
END_TEST

/* A move by `seat` after `delay_s`, on its own connection; the version after it. */
struct delayed_move {
	const struct http_game *game;
	int seat;
	const char *body;
	double delay_s;
	long version;
};

static void *move_later(void *argument)
{
	struct delayed_move *move = argument;
	struct http_client own;
	http_client_init(&own, http_fixture.server.url, 0);
	http_pause(move->delay_s);
	move->version = http_post_move_ok(&own, move->game, move->seat, move->body);
	http_client_cleanup(&own);
	return NULL;
}

START_TEST(test_the_long_poll_answer_carries_your_turn_when_the_seat_is_due)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	long before, after;
	play_first_turn(&game, &before, &after);
	char path[192];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=5", game.path, before);
	/* Seat 1, through Prism: the events and the note. */
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, game.tokens[1], NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	ck_assert_int_eq(json_array_size(json_object_get(response.json, "events")), after - before);
	assert_your_turn(json_object_get(response.json, "your_turn"), 1, after, "roll");
	http_response_free(&response);
	/* Seat 0 and a spectator: no note. So too a page that stops short of the end. */
	for (int viewer = -1; viewer <= 0; viewer++) {
		http_call(&http_fixture.checked, "GET", path, viewer < 0 ? NULL : game.tokens[viewer], NULL, NULL,
			  &response);
		ck_assert_msg(response.status == 200 && !json_object_get(response.json, "your_turn"), "%d: %s", viewer,
			      http_describe(&response));
		http_response_free(&response);
	}
	snprintf(path, sizeof path, "%s/moves?after=%ld&limit=1", game.path, before);
	http_call(&http_fixture.checked, "GET", path, game.tokens[1], NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && !json_object_get(response.json, "your_turn"), "%s",
		      http_describe(&response));
	http_response_free(&response);
	/* Seat 1's own roll leaves it due: the answer of its poll carries its new actions. */
	long rolled = http_post_move_ok(&http_fixture.direct, &game, 1, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=5", game.path, after);
	http_call(&http_fixture.checked, "GET", path, game.tokens[1], NULL, NULL, &response);
	assert_your_turn(json_object_get(response.json, "your_turn"), 1, rolled, "end_turn");
	http_response_free(&response);
	/* Seat 2, parked before seat 1 ends its turn, wakes with its note. */
	struct delayed_move end = {&game, 1, "{\"type\": \"end_turn\"}", 0.5, 0};
	pthread_t thread;
	pthread_create(&thread, NULL, move_later, &end);
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=10", game.path, rolled);
	http_call(&http_fixture.checked, "GET", path, game.tokens[2], NULL, NULL, &response);
	pthread_join(thread, NULL);
	ck_assert_msg(response.status == 200 && response.seconds >= 0.4, "%.2f s: %s", response.seconds,
		      http_describe(&response));
	assert_your_turn(json_object_get(response.json, "your_turn"), 2, end.version, "roll");
	http_response_free(&response);
}
END_TEST

START_TEST(test_a_token_in_the_url_is_only_for_the_stream_and_never_logged)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	char path[256];
	/* Elsewhere a token in the URL is refused: fetch() can send the header. */
	static const char *const suffixes[] = {"", "/actions", "/moves", "/board", "/trades", "/players"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		snprintf(path, sizeof path, "%s%s?token=%s", game.path, suffixes[i], game.tokens[0]);
		struct http_response response;
		http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
		http_assert_problem(&response, 400, "invalid_field");
		ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "token");
		ck_assert_msg(!strstr(response.body, game.tokens[0]), "the problem repeats the token");
		http_response_free(&response);
	}
	/* On the stream it is the seat's token: its your_turn comes. */
	snprintf(path, sizeof path, "%s/stream?token=%s", game.path, game.tokens[0]);
	struct http_stream stream;
	http_stream_read(http_fixture.server.url, path, NULL, NULL, 1000, NULL, 1.5, &stream);
	ck_assert_int_eq(stream.status, 200);
	ck_assert_str_eq(stream.events[stream.count - 1].type, "your_turn");
	http_stream_free(&stream);
	/* A wrong token in the URL is a wrong token. */
	snprintf(path, sizeof path, "%s/stream?token=st_nottherightone", game.path);
	struct http_response response;
	http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	/* The access log has the requests, never the token. */
	http_pause(0.3);
	FILE *log = fopen(http_fixture.server.log_path, "r");
	ck_assert(log != NULL);
	char line[8192];
	int lines = 0;
	while (fgets(line, sizeof line, log)) {
		if (strstr(line, game.id) && strstr(line, "\"path\""))
			lines++;
		ck_assert_msg(!strstr(line, game.tokens[0]) && !strstr(line, "st_nottherightone"),
			      "the server's log holds a token: %s", line);
	}
	fclose(log);
	ck_assert_msg(lines >= 8, "only %d access log lines of the game in %s", lines, http_fixture.server.log_path);
}
END_TEST

/* ---- Conditions scoped to what an answer to an offer depends on ---- */

#define OFFER_ROUNDS 8

struct answerer {
	pthread_barrier_t *barrier;
	const struct http_game *game;
	int seat, trade;
	int precondition_failures; /* 412s */
	int answers, accepts;
};

/* Read the seat's actions, then (all seats at once) answer the offer as a careful client
 * does: accept when listed, else decline, with If-Match the version read; on 412 read again
 * and retry. */
static void *answer_offer(void *argument)
{
	struct answerer *answerer = argument;
	struct http_client own;
	http_client_init(&own, http_fixture.server.url, 0);
	char path[192];
	http_game_path(answerer->game, "/actions", path, sizeof path);
	for (int attempt = 0; attempt < 20; attempt++) {
		json_t *actions = http_get_ok(&own, path, answerer->game->tokens[answerer->seat]);
		long version = (long)json_integer_value(json_object_get(actions, "version"));
		const char *verb = NULL;
		size_t index;
		json_t *action;
		json_array_foreach(json_object_get(actions, "actions"), index, action)
		{
			if (json_integer_value(json_object_get(action, "trade")) != answerer->trade)
				continue;
			const char *type = json_string_value(json_object_get(action, "type"));
			if (strcmp(type, "accept_trade") == 0)
				verb = "accept";
			else if (strcmp(type, "decline_trade") == 0 && !verb)
				verb = "decline";
		}
		json_decref(actions);
		ck_assert_msg(verb != NULL, "seat %d may not answer offer %d", answerer->seat, answerer->trade);
		if (attempt == 0)
			pthread_barrier_wait(answerer->barrier);
		char answer_path[192], if_match[48];
		snprintf(answer_path, sizeof answer_path, "%s/trades/%d/%s", answerer->game->path, answerer->trade,
			 verb);
		snprintf(if_match, sizeof if_match, "If-Match: \"%ld\"", version);
		const char *headers[] = {if_match, NULL};
		struct http_response response;
		http_call(&own, "POST", answer_path, answerer->game->tokens[answerer->seat], NULL, headers, &response);
		long status = response.status;
		ck_assert_msg(status == 200 || status == 412, "seat %d %s: %s", answerer->seat, verb,
			      http_describe(&response));
		http_response_free(&response);
		if (status == 200) {
			answerer->answers++;
			answerer->accepts += strcmp(verb, "accept") == 0;
			break;
		}
		answerer->precondition_failures++;
	}
	http_client_cleanup(&own);
	return NULL;
}

START_TEST(test_seats_answering_one_offer_at_once_do_not_fail_each_others_if_match)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 4, FIXED_START, &game);
	http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	json_t *view = http_get_ok(&http_fixture.direct, game.path, game.tokens[0]);
	const char *give = NULL;
	static const char *const names[] = {"brick", "lumber", "wool", "grain", "ore"};
	for (int r = 0; r < 5 && !give; r++)
		if (json_integer_value(
			    json_object_get(json_object_get(json_object_get(view, "you"), "resources"), names[r])))
			give = names[r];
	json_decref(view);
	ck_assert_msg(give != NULL, "seat 0 holds nothing to offer");
	int failures = 0, answers = 0, accepts = 0;
	char path[192], body[160];
	for (int round = 0; round < OFFER_ROUNDS; round++) {
		/* Seat 0 offers one card for another (a different one each round) to every seat. */
		const char *want = names[round % 5];
		if (strcmp(want, give) == 0)
			want = names[(round + 1) % 5];
		snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}}", give, want);
		struct http_response response;
		http_call(&http_fixture.checked, "POST", http_game_path(&game, "/trades", path, sizeof path),
			  game.tokens[0], body, NULL, &response);
		ck_assert_msg(response.status == 201, "%s", http_describe(&response));
		int trade = (int)json_integer_value(json_object_get(response.json, "id"));
		http_response_free(&response);
		pthread_barrier_t barrier;
		pthread_barrier_init(&barrier, NULL, 3);
		struct answerer answerers[3];
		pthread_t threads[3];
		for (int i = 0; i < 3; i++) {
			answerers[i] = (struct answerer){&barrier, &game, i + 1, trade, 0, 0, 0};
			pthread_create(&threads[i], NULL, answer_offer, &answerers[i]);
		}
		for (int i = 0; i < 3; i++) {
			pthread_join(threads[i], NULL);
			ck_assert_msg(answerers[i].answers == 1, "seat %d never got its answer in", i + 1);
			failures += answerers[i].precondition_failures;
			answers += answerers[i].answers;
			accepts += answerers[i].accepts;
		}
		pthread_barrier_destroy(&barrier);
		/* Withdrawn, so the next round's offer has room. */
		char suffix[48];
		snprintf(suffix, sizeof suffix, "/trades/%d", trade);
		http_call(&http_fixture.checked, "DELETE", http_game_path(&game, suffix, path, sizeof path),
			  game.tokens[0], NULL, NULL, &response);
		ck_assert_msg(response.status == 200, "%s", http_describe(&response));
		http_response_free(&response);
	}
	fprintf(stderr,
		"3 seats answering one offer at once, %d rounds: %d answers (%d accepts), %d 412s (%.2f per answer)\n",
		OFFER_ROUNDS, answers, accepts, failures, (double)failures / answers);
	ck_assert_int_eq(answers, 3 * OFFER_ROUNDS);
	ck_assert_msg(failures == 0, "%d answers failed with 412 because another seat answered first", failures);
}
END_TEST

/* POST <game>/trades/<trade>/<verb> by `seat` with If-Match: "<version>"; the status. */
static long answer_if_match(const struct http_game *game, int seat, int trade, const char *verb, long version)
{
	char path[192], if_match[48];
	snprintf(path, sizeof path, "%s/trades/%d/%s", game->path, trade, verb);
	snprintf(if_match, sizeof if_match, "If-Match: \"%ld\"", version);
	const char *headers[] = {if_match, NULL};
	struct http_response response;
	http_call(&http_fixture.checked, "POST", path, game->tokens[seat], NULL, headers, &response);
	long status = response.status;
	if (status == 412)
		http_assert_problem(&response, 412, "precondition_failed");
	http_response_free(&response);
	return status;
}

START_TEST(test_an_answers_if_match_still_fails_when_the_offer_changed)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 4, FIXED_START, &game);
	long rolled = http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
	json_t *view = http_get_ok(&http_fixture.direct, game.path, game.tokens[0]);
	const char *give = NULL;
	static const char *const names[] = {"brick", "lumber", "wool", "grain", "ore"};
	for (int r = 0; r < 5 && !give; r++)
		if (json_integer_value(
			    json_object_get(json_object_get(json_object_get(view, "you"), "resources"), names[r])))
			give = names[r];
	json_decref(view);
	char path[192], body[160];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}}", give,
		 strcmp(give, "ore") == 0 ? "wool" : "ore");
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/trades", path, sizeof path), game.tokens[0],
		  body, NULL, &response);
	ck_assert_int_eq(response.status, 201);
	int trade = (int)json_integer_value(json_object_get(response.json, "id"));
	long offered = (long)json_integer_value(json_object_get(response.json, "version"));
	http_response_free(&response);
	/* A version before the offer existed: the caller has not seen it. */
	ck_assert_int_eq(answer_if_match(&game, 1, trade, "decline", rolled), 412);
	/* A version after which another seat answered: still the same open offer. */
	ck_assert_int_eq(answer_if_match(&game, 2, trade, "decline", offered), 200);
	ck_assert_int_eq(answer_if_match(&game, 1, trade, "decline", offered), 200);
	/* A version the game has not reached. */
	ck_assert_int_eq(answer_if_match(&game, 3, trade, "decline", offered + 10), 412);
	/* Withdrawn since: the offer the caller saw is gone. */
	char suffix[48];
	snprintf(suffix, sizeof suffix, "/trades/%d", trade);
	http_call(&http_fixture.checked, "DELETE", http_game_path(&game, suffix, path, sizeof path), game.tokens[0],
		  NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	http_response_free(&response);
	ck_assert_int_eq(answer_if_match(&game, 3, trade, "decline", offered), 412);
	/* Every other move keeps the game-wide version: seat 0's end of turn at an old one. */
	static const char *const stale[] = {"If-Match: \"2\"", NULL};
	http_post_move(&http_fixture.checked, &game, 0, "{\"type\": \"end_turn\"}", stale, &response);
	http_assert_problem(&response, 412, "precondition_failed");
	http_response_free(&response);
}
END_TEST

/* ---- What a UI shows: the last roll and the deadline ---- */

/* Seconds since 1970 of an RFC 3339 UTC time with optional fraction ("...Z"). */
static double utc_seconds(const char *text)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	double seconds = 0;
	char zone = 0;
	int fields = sscanf(text, "%4d-%2d-%2dT%2d:%2d:%lf%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
			    &tm.tm_min, &seconds, &zone);
	ck_assert_msg(fields == 7 && zone == 'Z', "not an RFC 3339 UTC time: %s", text);
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm) + seconds;
}

START_TEST(test_the_view_keeps_the_last_roll_after_the_turn)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert(json_is_null(json_object_get(view, "last_roll")));
	ck_assert(json_is_null(json_object_get(view, "deadline")));
	json_decref(view);
	http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
	http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"end_turn\"}");
	for (int viewer = -1; viewer < game.seats; viewer++) {
		view = http_get_ok(&http_fixture.checked, game.path, viewer < 0 ? NULL : game.tokens[viewer]);
		json_t *last = json_object_get(view, "last_roll");
		ck_assert_msg(json_array_size(last) == 2 && json_integer_value(json_array_get(last, 0)) == 2 &&
				      json_integer_value(json_array_get(last, 1)) == 3,
			      "last_roll after the turn: %s", json_dumps(last, JSON_COMPACT));
		ck_assert(json_is_null(json_object_get(json_object_get(view, "turn"), "dice")));
		ck_assert(json_is_null(json_object_get(view, "deadline")));
		json_decref(view);
	}
}
END_TEST

START_TEST(test_the_view_tells_when_the_current_wait_times_out)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3,
			 "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0, "
			 "\"turn_timeout_s\": 3600}",
			 &game);
	for (int move = 0; move < 3; move++) {
		if (move == 1)
			http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
		if (move == 2)
			http_post_move_ok(&http_fixture.direct, &game, 0, "{\"type\": \"end_turn\"}");
		json_t *view = http_get_ok(&http_fixture.checked, game.path, game.tokens[1]);
		const char *given = json_string_value(json_object_get(view, "deadline"));
		ck_assert_msg(given != NULL, "no deadline at move %d", move);
		char deadline[64];
		snprintf(deadline, sizeof deadline, "%s", given);
		long version = (long)json_integer_value(json_object_get(view, "version"));
		json_decref(view);
		/* One hour after the last event, which the log dates. */
		json_t *log = http_game_log(&http_fixture.direct, &game, NULL, version - 1);
		const char *at = json_string_value(json_object_get(json_array_get(log, 0), "created_at"));
		ck_assert_ptr_nonnull(at);
		double gap = utc_seconds(deadline) - utc_seconds(at);
		ck_assert_msg(gap > 3599.99 && gap < 3600.01, "deadline %s is %.3f s after the last event (%s)",
			      deadline, gap, at);
		json_decref(log);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_live");
	TCase *wait = tcase_create("waiting for the seat's turn");
	http_fixture_add(wait, HTTP_FIXTURE_VALIDATE_REQUESTS | HTTP_FIXTURE_SECOND_SERVER, fixture_settings);
	tcase_set_timeout(wait, 120);
	tcase_add_test(wait, test_a_waiting_seat_is_answered_within_a_second_of_becoming_due);
	tcase_add_test(wait, test_a_wait_on_one_server_is_answered_for_a_move_made_on_the_other);
	tcase_add_test(wait, test_moves_that_leave_the_seat_idle_do_not_answer_the_wait);
	tcase_add_test(wait, test_a_seat_due_at_or_past_after_is_answered_at_once);
	tcase_add_test(wait, test_a_seat_asked_by_an_open_offer_is_answered_at_once_until_it_answers);
	tcase_add_test(wait, test_a_move_that_leaves_the_mover_due_answers_its_next_actions);
	tcase_add_test(wait, test_a_finished_game_answers_at_once);
	tcase_add_test(wait, test_malformed_after_and_wait_are_400_naming_the_parameter);
	tcase_add_test(wait, test_the_stream_tells_the_seat_its_turn_after_the_events);
	tcase_add_test(wait, test_a_live_stream_tells_each_seat_when_it_becomes_due);
	tcase_add_test(wait, test_the_long_poll_answer_carries_your_turn_when_the_seat_is_due);
	tcase_add_test(wait, test_a_token_in_the_url_is_only_for_the_stream_and_never_logged);
	tcase_add_test(wait, test_seats_answering_one_offer_at_once_do_not_fail_each_others_if_match);
	tcase_add_test(wait, test_an_answers_if_match_still_fails_when_the_offer_changed);
	tcase_add_test(wait, test_the_view_keeps_the_last_roll_after_the_turn);
	tcase_add_test(wait, test_the_view_tells_when_the_current_wait_times_out);
	suite_add_tcase(suite, wait);
	return suite;
}
