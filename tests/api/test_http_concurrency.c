/*
 * test_http_concurrency.c - many clients racing on one game.
 *
 * Threads (each with its own connection) are released together by a barrier and send
 * their requests at once. Whatever the interleaving, exactly one of several identical
 * moves applies per version (the others are told why: 422 with the rule, 412 when they
 * pinned the version, 409 if they kept losing), moves that are all legal all apply, a
 * retried request with one Idempotency-Key applies once, and the log read back has no gap
 * and no duplicate and is the log the store holds.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define RACERS 24
#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

struct racer {
	pthread_barrier_t *barrier;
	const struct http_game *game;
	const char *method;
	char path[160];
	int seat;
	char body[512];
	char headers[2][128];
	int header_count;
	/* outcome */
	long status;
	char code[64];
	char *response_body;
	int replayed;
};

static void *race(void *argument)
{
	struct racer *racer = argument;
	struct http_client own;
	http_client_init(&own, http_fixture.server.url, 0);
	/* Connect before the barrier, so the requests leave together. */
	struct http_response warm;
	http_call(&own, "GET", "/healthz", NULL, NULL, NULL, &warm);
	http_response_free(&warm);
	const char *headers[3] = {NULL, NULL, NULL};
	for (int i = 0; i < racer->header_count; i++)
		headers[i] = racer->headers[i];
	pthread_barrier_wait(racer->barrier);
	struct http_response response;
	http_call(&own, racer->method, racer->path, racer->game->tokens[racer->seat],
		  racer->body[0] ? racer->body : NULL, headers, &response);
	racer->status = response.status;
	json_t *code = response.json ? json_object_get(response.json, "code") : NULL;
	snprintf(racer->code, sizeof racer->code, "%s", json_is_string(code) ? json_string_value(code) : "");
	racer->response_body = strdup(response.body);
	char value[16];
	racer->replayed = http_response_header(&response, "Idempotent-Replayed", value, sizeof value) != NULL;
	http_response_free(&response);
	http_client_cleanup(&own);
	return NULL;
}

static void run_race(struct racer *racers, int count)
{
	pthread_barrier_t barrier;
	pthread_barrier_init(&barrier, NULL, (unsigned)count);
	pthread_t threads[64];
	ck_assert(count <= 64);
	for (int i = 0; i < count; i++) {
		racers[i].barrier = &barrier;
		pthread_create(&threads[i], NULL, race, &racers[i]);
	}
	for (int i = 0; i < count; i++)
		pthread_join(threads[i], NULL);
	pthread_barrier_destroy(&barrier);
}

static void free_racers(struct racer *racers, int count)
{
	for (int i = 0; i < count; i++)
		free(racers[i].response_body);
}

static void move_racer(struct racer *racer, const struct http_game *game, int seat, const char *body)
{
	memset(racer, 0, sizeof *racer);
	racer->game = game;
	racer->method = "POST";
	http_game_path(game, "/moves", racer->path, sizeof racer->path);
	racer->seat = seat;
	snprintf(racer->body, sizeof racer->body, "%s", body);
}

/* The log as served equals the store's, versions 1..V each once. */
static void assert_log_whole(const struct http_game *game)
{
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=0&limit=1000", game->path);
	json_t *body = http_get_ok(&http_fixture.direct, path, NULL);
	json_t *events = json_object_get(body, "events");
	long version = (long)json_integer_value(json_object_get(body, "version"));
	ck_assert_int_eq((long)json_array_size(events), version);
	json_t *stored = http_truth_events(game->id, 0);
	ck_assert_int_eq(json_array_size(stored), json_array_size(events));
	size_t index;
	json_t *event;
	json_array_foreach(events, index, event)
	{
		ck_assert_int_eq(json_integer_value(json_object_get(event, "version")), (long)index + 1);
		ck_assert_str_eq(json_string_value(json_object_get(event, "type")),
				 json_string_value(json_object_get(json_array_get(stored, index), "type")));
	}
	struct game truth;
	http_truth_load(game->id, &truth, NULL);
	ck_assert_int_eq(truth.version, version);
	json_decref(stored);
	json_decref(body);
}

static int count_events(const struct http_game *game, const char *type)
{
	json_t *stored = http_truth_events(game->id, 0);
	int count = 0;
	size_t index;
	json_t *event;
	json_array_foreach(stored, index, event) count +=
		strcmp(json_string_value(json_object_get(event, "type")), type) == 0;
	json_decref(stored);
	return count;
}

START_TEST(test_racing_the_same_move_applies_it_once)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	struct racer racers[RACERS];
	/* Round after round: the roll, then the end of the turn, each raced by every thread
	 * with the acting seat's token. */
	int rolls = 0;
	for (int round = 0; round < 6; round++) {
		int seat = round % 3;
		const char *moves[2] = {round % 2 ? "{\"type\": \"roll\", \"dice\": [1, 2]}"
						  : "{\"type\": \"roll\", \"dice\": [5, 6]}",
					"{\"type\": \"end_turn\"}"};
		for (int m = 0; m < 2; m++) {
			long before = http_game_version(&http_fixture.direct, &game);
			for (int i = 0; i < RACERS; i++)
				move_racer(&racers[i], &game, seat, moves[m]);
			run_race(racers, RACERS);
			int won = 0;
			for (int i = 0; i < RACERS; i++) {
				if (racers[i].status == 201) {
					won++;
					continue;
				}
				/* Decided again on the fresh state, the losers hear why. */
				const char *expected = m == 0 ? "already_rolled" : "not_your_turn";
				ck_assert_msg((racers[i].status == 422 && strcmp(racers[i].code, expected) == 0) ||
						      (racers[i].status == 409 &&
						       strcmp(racers[i].code, "version_conflict") == 0),
					      "a loser of %s got %ld %s", moves[m], racers[i].status,
					      racers[i].response_body);
			}
			ck_assert_msg(won == 1, "%d of %d identical %s applied", won, RACERS, moves[m]);
			ck_assert_int_gt(http_game_version(&http_fixture.direct, &game), before);
			rolls += m == 0;
			free_racers(racers, RACERS);
		}
	}
	ck_assert_int_eq(count_events(&game, "dice_rolled"), rolls);
	ck_assert_int_eq(count_events(&game, "turn_ended"), 6);
	assert_log_whole(&game);
}
END_TEST

START_TEST(test_racing_with_if_match_one_applies_and_the_rest_are_412)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	struct racer racers[RACERS];
	long version = http_game_version(&http_fixture.direct, &game);
	for (int i = 0; i < RACERS; i++) {
		/* Different moves: the pin, not the rules, decides. */
		char body[96];
		snprintf(body, sizeof body, "{\"type\": \"roll\", \"dice\": [%d, %d]}", 1 + i % 6, 1 + (i / 6) % 6);
		move_racer(&racers[i], &game, 0, body);
		snprintf(racers[i].headers[0], sizeof racers[i].headers[0], "If-Match: \"%ld\"", version);
		racers[i].header_count = 1;
	}
	run_race(racers, RACERS);
	int won = 0;
	for (int i = 0; i < RACERS; i++) {
		if (racers[i].status == 201)
			won++;
		else
			ck_assert_msg(racers[i].status == 412 && strcmp(racers[i].code, "precondition_failed") == 0,
				      "a pinned loser got %ld %s", racers[i].status, racers[i].response_body);
	}
	ck_assert_int_eq(won, 1);
	free_racers(racers, RACERS);
	ck_assert_int_eq(count_events(&game, "dice_rolled"), 1);
	assert_log_whole(&game);
}
END_TEST

START_TEST(test_racing_retries_with_one_idempotency_key_apply_once)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, FIXED_START, &game);
	struct racer racers[RACERS];
	for (int round = 0; round < 4; round++) {
		int seat = round / 2 % 3;
		const char *body = round % 2 ? "{\"type\": \"end_turn\"}" : "{\"type\": \"roll\", \"dice\": [4, 4]}";
		char key[64];
		snprintf(key, sizeof key, "Idempotency-Key: race-%d-%016llx", round,
			 (unsigned long long)http_random64());
		for (int i = 0; i < RACERS; i++) {
			move_racer(&racers[i], &game, seat, body);
			snprintf(racers[i].headers[0], sizeof racers[i].headers[0], "%s", key);
			racers[i].header_count = 1;
		}
		long before = http_game_version(&http_fixture.direct, &game);
		run_race(racers, RACERS);
		int fresh = 0;
		for (int i = 0; i < RACERS; i++) {
			ck_assert_msg(racers[i].status == 201, "a retry got %ld %s", racers[i].status,
				      racers[i].response_body);
			ck_assert_str_eq(racers[i].response_body, racers[0].response_body);
			fresh += !racers[i].replayed;
		}
		ck_assert_msg(fresh == 1, "%d responses were not replays", fresh);
		json_t *first = json_loads(racers[0].response_body, 0, NULL);
		long after = (long)json_integer_value(json_object_get(first, "version"));
		ck_assert_int_eq(after, before + (long)json_array_size(json_object_get(first, "events")));
		ck_assert_int_eq(http_game_version(&http_fixture.direct, &game), after);
		json_decref(first);
		free_racers(racers, RACERS);
	}
	ck_assert_int_eq(count_events(&game, "dice_rolled"), 2);
	ck_assert_int_eq(count_events(&game, "turn_ended"), 2);
	assert_log_whole(&game);
}
END_TEST

/* Discards after a 7 are owed by several seats at once: every seat's discard, raced by
 * several copies each, applies exactly once per seat, whatever the order. */
START_TEST(test_racing_discards_of_several_seats_all_apply_once)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 4, FIXED_START, &game);
	/* Turns of productive rolls and nothing else, until two seats hold more than 7. */
	static const int totals[] = {6, 8, 5, 9, 4, 10, 3, 11};
	int owing = 0;
	for (int turn = 0; turn < 80 && owing < 2; turn++) {
		int seat = turn % 4;
		int total = totals[turn % 8];
		char roll[64];
		snprintf(roll, sizeof roll, "{\"type\": \"roll\", \"dice\": [%d, %d]}", total - total / 2, total / 2);
		http_post_move_ok(&http_fixture.direct, &game, seat, roll);
		http_post_move_ok(&http_fixture.direct, &game, seat, "{\"type\": \"end_turn\"}");
		json_t *view = http_get_ok(&http_fixture.direct, game.path, NULL);
		owing = 0;
		size_t index;
		json_t *player;
		json_array_foreach(json_object_get(view, "players"), index, player) owing +=
			json_integer_value(json_object_get(player, "resource_count")) > 7;
		json_decref(view);
	}
	ck_assert_msg(owing >= 2, "two seats hold more than 7 cards");
	json_t *view = http_get_ok(&http_fixture.direct, game.path, NULL);
	int seat = (int)json_integer_value(json_object_get(json_object_get(view, "turn"), "seat"));
	json_decref(view);
	http_post_move_ok(&http_fixture.direct, &game, seat, "{\"type\": \"roll\", \"dice\": [3, 4]}");

	/* Each owing seat's discard, from its own hand, four copies each. */
	struct racer racers[4 * GAME_MAX_SEATS];
	int count = 0, seats_owing = 0;
	for (int s = 0; s < game.seats; s++) {
		json_t *own = http_get_ok(&http_fixture.direct, game.path, game.tokens[s]);
		int owed = 0;
		size_t index;
		json_t *debt;
		json_array_foreach(json_object_get(json_object_get(own, "pending"), "discards"), index,
				   debt) if (json_integer_value(json_object_get(debt, "seat")) == s) owed =
			(int)json_integer_value(json_object_get(debt, "count"));
		if (owed) {
			seats_owing++;
			json_t *hand = json_object_get(json_object_get(own, "you"), "resources");
			json_t *chosen = json_object();
			const char *name;
			json_t *held;
			int left = owed;
			json_object_foreach(hand, name, held)
			{
				int take = (int)json_integer_value(held) < left ? (int)json_integer_value(held) : left;
				if (take)
					json_object_set_new(chosen, name, json_integer(take));
				left -= take;
			}
			char *resources = json_dumps(chosen, JSON_COMPACT);
			char body[256];
			snprintf(body, sizeof body, "{\"type\": \"discard\", \"resources\": %s}", resources);
			free(resources);
			json_decref(chosen);
			for (int copy = 0; copy < 4; copy++)
				move_racer(&racers[count++], &game, s, body);
		}
		json_decref(own);
	}
	ck_assert_int_ge(seats_owing, 2);
	run_race(racers, count);
	int applied[GAME_MAX_SEATS] = {0};
	for (int i = 0; i < count; i++) {
		if (racers[i].status == 201)
			applied[racers[i].seat]++;
		else
			ck_assert_msg(racers[i].status == 422 && strcmp(racers[i].code, "no_discard_owed") == 0,
				      "a repeated discard got %ld %s", racers[i].status, racers[i].response_body);
	}
	for (int i = 0; i < count; i++)
		ck_assert_msg(applied[racers[i].seat] == 1, "seat %d discarded %d times", racers[i].seat,
			      applied[racers[i].seat]);
	free_racers(racers, count);
	ck_assert_int_eq(count_events(&game, "discarded"), seats_owing);
	view = http_get_ok(&http_fixture.direct, game.path, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(view, "phase")), "move_robber");
	json_decref(view);
	assert_log_whole(&game);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_concurrency");
	TCase *races = tcase_create("races");
	http_fixture_add(races, 0, NULL);
	tcase_set_timeout(races, 120);
	tcase_add_test(races, test_racing_the_same_move_applies_it_once);
	tcase_add_test(races, test_racing_with_if_match_one_applies_and_the_rest_are_412);
	tcase_add_test(races, test_racing_retries_with_one_idempotency_key_apply_once);
	tcase_add_test(races, test_racing_discards_of_several_seats_all_apply_once);
	suite_add_tcase(suite, races);
	return suite;
}
