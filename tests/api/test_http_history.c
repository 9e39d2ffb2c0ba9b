/*
 * test_http_history.c - the game as it was and as a file: history views
 * (GET .../games/{id}?version=N, .../players?version=N) equal, at every version of a
 * finished game and for every viewer, the engine's view of the log replayed by the codec
 * up to that version; bad versions answer 400/404 problems; a history view is cached as
 * immutable; the export of a game going on is redacted for its caller and has no seed, the
 * export of a finished game is the stored log itself with the seed, and replaying it gives
 * the final state.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/sha.h>

#include "codec/log.h"
#include "codec/shapes.h"
#include "engine/view.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MAX_MOVES 5000

/* A 3-seat game played to its end by random moves (no domestic trades, so it is short). */
static void finished_game(struct http_game *game, uint64_t seed)
{
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\"}", game);
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, game, seed, 0);
	http_player_finish(&player, MAX_MOVES);
}

/* What the server adds to the codec's view: the id, the bot flags, the deadline, the
 * fairness commitment (docs/fairness.md) and the service's options (`rated` among them); removed so the rest can
 * be compared with the engine's view. */
static void strip_service_members(json_t *view)
{
	json_object_del(view, "id");
	json_object_del(view, "deadline");
	json_object_del(view, "fairness");
	json_t *options = json_object_get(view, "options");
	json_object_del(options, "turn_timeout_s");
	json_object_del(options, "on_timeout");
	json_object_del(options, "offer_wait_s");
	json_object_del(options, "bot_level");
	json_object_del(options, "bot_levels");
	json_object_del(options, "substitute_after_timeouts");
	json_object_del(options, "rated");
	size_t index;
	json_t *player;
	json_array_foreach(json_object_get(view, "players"), index, player)
	{
		/* Who plays a seat (a bot, a seat away) is the service's, not the rules' state. */
		json_object_del(player, "bot");
		json_object_del(player, "away");
	}
}

START_TEST(test_view_at_every_version_equals_the_replay_of_the_log_for_every_viewer)
{
	struct http_game game;
	finished_game(&game, 7001);
	json_t *truth = http_truth_events(game.id, 0);
	char *log_text = json_dumps(truth, JSON_COMPACT);
	long last = (long)json_array_size(truth);
	ck_assert_int_gt(last, 20);
	const char *names[GAME_MAX_SEATS] = {"Seat 1", "Seat 2", "Seat 3", NULL};
	for (long version = 1; version <= last; version++) {
		struct game state;
		char message[256];
		ck_assert_msg(codec_replay_log_to(log_text, strlen(log_text), (uint32_t)version, &state, NULL, 0, NULL,
						  message, sizeof message),
			      "replay to %ld: %s", version, message);
		for (int viewer = -1; viewer < game.seats; viewer++) {
			struct game_view view;
			view_game(&state, viewer >= 0 ? viewer : VIEW_SPECTATOR, &view);
			json_t *expected = codec_view_to_json(&view, names);
			char path[160];
			snprintf(path, sizeof path, "%s?version=%ld", game.path, version);
			json_t *got = http_get_ok(&http_fixture.direct, path, viewer >= 0 ? game.tokens[viewer] : NULL);
			ck_assert(json_is_null(json_object_get(got, "deadline")));
			strip_service_members(got);
			char *got_text = json_dumps(got, JSON_SORT_KEYS | JSON_COMPACT);
			char *expected_text = json_dumps(expected, JSON_SORT_KEYS | JSON_COMPACT);
			ck_assert_msg(strcmp(got_text, expected_text) == 0, "version %ld viewer %d:\n got %s\nwant %s",
				      version, viewer, got_text, expected_text);
			if (viewer < 0)
				ck_assert_msg(!strstr(got_text, "\"you\""), "a spectator sees no hand");
			free(got_text);
			free(expected_text);
			json_decref(got);
			/* /players?version=N is the view's players. */
			if (version % 25 == 0 || version == last) {
				snprintf(path, sizeof path, "%s/players?version=%ld", game.path, version);
				json_t *players = http_get_ok(&http_fixture.direct, path,
							      viewer >= 0 ? game.tokens[viewer] : NULL);
				ck_assert_int_eq(json_integer_value(json_object_get(players, "version")), version);
				json_t *list = json_object_get(players, "players");
				size_t index;
				json_t *player;
				json_array_foreach(list, index, player)
				{
					json_object_del(player, "bot");
					json_object_del(player, "away");
				}
				ck_assert(json_equal(list, json_object_get(expected, "players")));
				json_decref(players);
			}
			json_decref(expected);
		}
	}
	free(log_text);
	json_decref(truth);
}
END_TEST

START_TEST(test_history_view_is_immutable_and_bad_versions_are_refused)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\"}", &game);
	long version = http_game_version(&http_fixture.checked, &game);
	struct http_response response;
	char path[160], header[128];
	snprintf(path, sizeof path, "%s?version=1", game.path);
	http_call(&http_fixture.checked, "GET", path, game.tokens[0], NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), 1);
	ck_assert_ptr_nonnull(http_response_header(&response, "Cache-Control", header, sizeof header));
	ck_assert_str_eq(header, "private, max-age=31536000, immutable");
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_ptr_nonnull(http_response_header(&response, "Cache-Control", header, sizeof header));
	ck_assert_str_eq(header, "public, max-age=31536000, immutable");
	http_response_free(&response);
	/* The current view is not cached. */
	http_call(&http_fixture.checked, "GET", game.path, game.tokens[0], NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_ptr_nonnull(http_response_header(&response, "Cache-Control", header, sizeof header));
	ck_assert_str_eq(header, "private, no-store");
	http_response_free(&response);

	static const char *const bad[] = {"0", "-1", "abc", "1.5", "", "99999999999"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		for (int players = 0; players < 2; players++) {
			snprintf(path, sizeof path, "%s%s?version=%s", game.path, players ? "/players" : "", bad[i]);
			http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, &response);
			http_assert_problem(&response, 400, "invalid_field");
			ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "version");
			http_response_free(&response);
		}
	}
	for (int players = 0; players < 2; players++) {
		snprintf(path, sizeof path, "%s%s?version=%ld", game.path, players ? "/players" : "", version + 1);
		http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
		http_assert_problem(&response, 404, "version_not_found");
		char cache[128];
		const char *control = http_response_header(&response, "Cache-Control", cache, sizeof cache);
		ck_assert_msg(!control || !strstr(control, "immutable"), "a problem is not cached for a year");
		http_response_free(&response);
	}
}
END_TEST

START_TEST(test_export_of_a_game_going_on_is_redacted_and_has_no_seed)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\"}", &game);
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, 99, 0);
	for (int i = 0; i < 120; i++)
		if (!http_player_step(&player, NULL))
			break;
	json_t *truth = http_truth_events(game.id, 0);
	char path[160];
	snprintf(path, sizeof path, "%s/export", game.path);
	for (int viewer = -1; viewer < game.seats; viewer++) {
		json_t *export = http_get_ok(&http_fixture.checked, path, viewer >= 0 ? game.tokens[viewer] : NULL);
		ck_assert(json_is_null(json_object_get(export, "seed")));
		ck_assert(json_is_false(json_object_get(export, "finished")));
		json_t *events = json_object_get(export, "events");
		ck_assert_int_eq(json_array_size(events), json_array_size(truth));
		ck_assert_int_eq(json_integer_value(json_object_get(export, "version")), (long)json_array_size(truth));
		/* Each event exactly as GET .../moves shows it to this caller. */
		json_t *log = http_game_log(&http_fixture.direct, &game, viewer >= 0 ? game.tokens[viewer] : NULL, 0);
		ck_assert(json_equal(events, log));
		json_decref(log);
		/* And so redacted like the log: another seat's card is hidden. */
		size_t index;
		json_t *event;
		json_array_foreach(events, index, event)
		{
			struct event stored, shown;
			ck_assert(codec_event_from_json(json_array_get(truth, index), &stored, NULL));
			view_event(&stored, viewer >= 0 ? viewer : VIEW_SPECTATOR, &shown);
			json_t *expected = codec_event_to_json(&shown, game.seats);
			json_object_del(event, "version");
			json_object_del(event, "created_at");
			json_object_del(event, "origin");
			ck_assert_msg(json_equal(event, expected), "event %zu for viewer %d", index + 1, viewer);
			json_decref(expected);
		}
		json_decref(export);
	}
	json_decref(truth);
}
END_TEST

static void assert_seed_matches_commitment(const char *seed_hex, const char *commitment)
{
	ck_assert_msg(seed_hex && strlen(seed_hex) == 64, "the revealed seed is 64 hex digits: %s",
		      seed_hex ? seed_hex : "(none)");
	ck_assert_ptr_nonnull(commitment);
	unsigned char seed[32], digest[SHA256_DIGEST_LENGTH];
	for (int i = 0; i < 32; i++) {
		unsigned byte;
		ck_assert(sscanf(seed_hex + 2 * i, "%2x", &byte) == 1);
		seed[i] = (unsigned char)byte;
	}
	SHA256(seed, sizeof seed, digest);
	char digest_hex[2 * SHA256_DIGEST_LENGTH + 1];
	for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
		snprintf(digest_hex + 2 * i, 3, "%02x", digest[i]);
	ck_assert_str_eq(digest_hex, commitment);
}

START_TEST(test_export_of_a_finished_game_is_the_whole_log_and_replays_to_the_final_state)
{
	struct http_game game;
	finished_game(&game, 7002);
	struct game state;
	int64_t seed;
	http_truth_load(game.id, &state, &seed);
	json_t *truth = http_truth_events(game.id, 0);
	char path[160];
	snprintf(path, sizeof path, "%s/export", game.path);
	for (int viewer = -1; viewer < game.seats; viewer++) {
		json_t *export = http_get_ok(&http_fixture.checked, path, viewer >= 0 ? game.tokens[viewer] : NULL);
		ck_assert(json_is_true(json_object_get(export, "finished")));
		json_t *fairness = json_object_get(export, "fairness");
		if (json_is_true(json_object_get(fairness, "provably_fair"))) {
			/* A provably fair game reveals its server seed: 64 hex digits whose SHA-256
			 * is the commitment it published at creation (docs/fairness.md). */
			assert_seed_matches_commitment(json_string_value(json_object_get(export, "seed")),
						       json_string_value(json_object_get(fairness, "commitment")));
		} else {
			char seed_text[24];
			snprintf(seed_text, sizeof seed_text, "%lld", (long long)seed);
			ck_assert_str_eq(json_string_value(json_object_get(export, "seed")), seed_text);
		}
		json_t *events = json_object_get(export, "events");
		size_t index;
		json_t *event;
		json_array_foreach(events, index, event)
		{
			ck_assert_int_eq(json_integer_value(json_object_get(event, "version")), (long)index + 1);
			json_t *bare = json_deep_copy(event);
			json_object_del(bare, "version");
			json_object_del(bare, "created_at");
			json_object_del(bare, "origin");
			ck_assert_msg(json_equal(bare, json_array_get(truth, index)), "event %zu is the stored one",
				      index + 1);
			json_decref(bare);
		}
		ck_assert_int_eq(json_array_size(events), json_array_size(truth));
		char *text = json_dumps(export, JSON_COMPACT);
		struct game replayed;
		char message[256];
		ck_assert_msg(codec_replay_log(text, strlen(text), &replayed, message, sizeof message), "%s", message);
		for (int seat = -1; seat < game.seats; seat++) {
			struct game_view want, got;
			view_game(&state, seat >= 0 ? seat : VIEW_SPECTATOR, &want);
			view_game(&replayed, seat >= 0 ? seat : VIEW_SPECTATOR, &got);
			static const char *const names[GAME_MAX_SEATS] = {"a", "b", "c", "d"};
			json_t *want_json = codec_view_to_json(&want, names),
			       *got_json = codec_view_to_json(&got, names);
			ck_assert(json_equal(want_json, got_json));
			json_decref(want_json);
			json_decref(got_json);
		}
		ck_assert_int_eq(replayed.version, state.version);
		ck_assert_int_eq(replayed.phase, GAME_PHASE_FINISHED);
		free(text);
		json_decref(export);
	}
	json_decref(truth);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_history");
	TCase *history = tcase_create("history views and export");
	http_fixture_add(history, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(history, 240);
	tcase_add_test(history, test_view_at_every_version_equals_the_replay_of_the_log_for_every_viewer);
	tcase_add_test(history, test_history_view_is_immutable_and_bad_versions_are_refused);
	tcase_add_test(history, test_export_of_a_game_going_on_is_redacted_and_has_no_seed);
	tcase_add_test(history, test_export_of_a_finished_game_is_the_whole_log_and_replays_to_the_final_state);
	suite_add_tcase(suite, history);
	return suite;
}
