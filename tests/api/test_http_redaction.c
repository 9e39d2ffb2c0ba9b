/*
 * test_http_redaction.c - authorization and redaction over whole games.
 *
 * Complete games are played over HTTP by their seat tokens; every few moves (and after
 * every move that makes a private fact: a stolen card, a bought development card) every
 * viewer - the spectator and each seat - reads the view, its actions and the new part of
 * its event log, and all of it is compared with the ground truth loaded from the event
 * store (game/game_repo.h on DATABASE_URL):
 *   - `you` is the viewer's real hand, development cards and points; a spectator has none;
 *   - apart from `you`, a seat's view is exactly the spectator's (so no other seat's hand
 *     or card kinds can be in it), and the public counts match the real hands;
 *   - each log entry is the stored event with the private member nulled for everyone but
 *     the seats it concerns (the stolen card: thief and victim; the card bought: buyer);
 *   - the game's secret seed appears in no response, nor does any "seed" member;
 *   - the acting seat's moves sent with another seat's token are refused and change
 *     nothing.
 * At the end each viewer reads the whole log as a Server-Sent Events stream, which must be
 * the same redacted log.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/game.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MAX_MOVES 5000
#define CHECK_EVERY 3

static const char *const resource_names[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};
static const char *const card_names[DEVELOPMENT_COUNT] = {"knight", "road_building", "year_of_plenty", "monopoly",
							  "victory_point"};

struct watch {
	struct http_client *client;
	const struct http_game *game;
	struct game truth;
	int64_t seed;
	char seed_text[32];
	long log_seen[GAME_MAX_SEATS + 1]; /* per viewer: the last version read from the log */
	int stolen_checked, bought_checked, points_checked, impersonations;
};

static const char *token_of(const struct watch *watch, int viewer)
{
	return viewer < 0 ? NULL : watch->game->tokens[viewer];
}

/* No member named "seed" anywhere in the document. */
static int has_seed_member(const json_t *json)
{
	if (json_is_object(json)) {
		const char *key;
		json_t *value;
		json_object_foreach((json_t *)(uintptr_t)json, key,
				    value) if (strcmp(key, "seed") == 0 || has_seed_member(value)) return 1;
	} else if (json_is_array(json)) {
		size_t index;
		json_t *value;
		json_array_foreach(json, index, value) if (has_seed_member(value)) return 1;
	}
	return 0;
}

static void assert_no_secret(const struct watch *watch, const char *what, const char *text, const json_t *json)
{
	ck_assert_msg(strstr(text, watch->seed_text) == NULL, "%s shows the secret seed %s", what, watch->seed_text);
	ck_assert_msg(!has_seed_member(json), "%s has a seed member", what);
}

/* GET that must answer 200; the body is also checked for secrets. New reference. */
static json_t *read_as(struct watch *watch, const char *path, int viewer)
{
	struct http_response response;
	http_call(watch->client, "GET", path, token_of(watch, viewer), NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && response.json, "GET %s as %d: %s", path, viewer,
		      http_describe(&response));
	assert_no_secret(watch, path, response.body, response.json);
	json_t *body = json_incref(response.json);
	http_response_free(&response);
	return body;
}

/* The stored event as `viewer` may see it. New reference. */
static json_t *redacted(const json_t *stored, int viewer)
{
	json_t *event = json_deep_copy(stored);
	const char *type = json_string_value(json_object_get(event, "type"));
	int seat = (int)json_integer_value(json_object_get(event, "seat"));
	if (strcmp(type, "resource_stolen") == 0) {
		int victim = (int)json_integer_value(json_object_get(event, "victim"));
		if (viewer != seat && viewer != victim)
			json_object_set_new(event, "resource", json_null());
	} else if (strcmp(type, "development_card_bought") == 0) {
		if (viewer != seat)
			json_object_set_new(event, "card", json_null());
	}
	return event;
}

/* A log entry (as served) against the stored event at its version. */
static void check_entry(struct watch *watch, const json_t *entry, const json_t *truth_events, int viewer)
{
	long version = (long)json_integer_value(json_object_get(entry, "version"));
	ck_assert_msg(version >= 1 && (size_t)version <= json_array_size(truth_events), "entry version %ld", version);
	json_t *stored = json_array_get(truth_events, (size_t)version - 1);
	json_t *seen = json_deep_copy(entry);
	json_object_del(seen, "version");
	json_object_del(seen, "created_at");
	json_object_del(seen, "origin");
	json_t *expected = redacted(stored, viewer);
	if (!json_equal(seen, expected)) {
		char *seen_text = json_dumps(seen, JSON_COMPACT);
		char *expected_text = json_dumps(expected, JSON_COMPACT);
		ck_abort_msg("viewer %d, version %ld:\nserved   %.900s\nexpected %.900s", viewer, version, seen_text,
			     expected_text);
	}
	const char *type = json_string_value(json_object_get(stored, "type"));
	int seat = (int)json_integer_value(json_object_get(stored, "seat"));
	if (strcmp(type, "resource_stolen") == 0) {
		ck_assert_msg(json_is_string(json_object_get(stored, "resource")), "the store keeps the stolen card");
		watch->stolen_checked += viewer == seat;
	} else if (strcmp(type, "development_card_bought") == 0) {
		ck_assert_msg(json_is_string(json_object_get(stored, "card")), "the store keeps the card bought");
		watch->bought_checked += viewer == seat;
	}
	json_decref(expected);
	json_decref(seen);
}

static void check_view(struct watch *watch, int viewer, const json_t *view, const json_t *spectator_view)
{
	const struct game *truth = &watch->truth;
	json_t *players = json_object_get(view, "players");
	for (int s = 0; s < watch->game->seats; s++) {
		json_t *player = json_array_get(players, (size_t)s);
		ck_assert_int_eq(json_integer_value(json_object_get(player, "resource_count")),
				 game_resource_count(truth, s));
		ck_assert_int_eq(json_integer_value(json_object_get(player, "development_card_count")),
				 game_development_count(truth, s));
	}
	json_t *you = json_object_get(view, "you");
	if (viewer < 0) {
		ck_assert_msg(you == NULL, "a spectator has no `you`");
		return;
	}
	ck_assert_msg(json_is_object(you), "seat %d has `you`", viewer);
	ck_assert_int_eq(json_integer_value(json_object_get(you, "seat")), viewer);
	const struct game_player *real = &truth->players[viewer];
	json_t *resources = json_object_get(you, "resources");
	for (int r = 0; r < RESOURCE_COUNT; r++)
		ck_assert_msg(json_integer_value(json_object_get(resources, resource_names[r])) == real->resources[r],
			      "seat %d holds %d %s", viewer, real->resources[r], resource_names[r]);
	json_t *cards = json_object_get(you, "development_cards");
	for (int k = 0; k < DEVELOPMENT_COUNT; k++)
		ck_assert_msg(json_integer_value(json_object_get(json_object_get(cards, card_names[k]), "count")) ==
				      real->development_cards[k],
			      "seat %d holds %d %s", viewer, real->development_cards[k], card_names[k]);
	ck_assert_int_eq(json_integer_value(json_object_get(you, "victory_points")), game_total_points(truth, viewer));
	watch->points_checked++;
	/* Everything but `you` is what the spectator sees. */
	json_t *rest = json_deep_copy(view);
	json_object_del(rest, "you");
	ck_assert_msg(json_equal(rest, spectator_view), "seat %d's view differs from the spectator's beyond `you`",
		      viewer);
	json_decref(rest);
}

static void check_actions(struct watch *watch, int viewer, const json_t *body)
{
	json_t *actions = json_object_get(body, "actions");
	ck_assert(json_is_array(actions));
	if (viewer < 0) {
		ck_assert_int_eq(json_array_size(actions), 0);
		ck_assert(json_is_null(json_object_get(body, "seat")));
		return;
	}
	ck_assert_int_eq(json_integer_value(json_object_get(body, "seat")), viewer);
	size_t index;
	json_t *action;
	json_array_foreach(actions, index, action)
	{
		json_t *hand = json_object_get(action, "hand");
		if (!hand)
			continue;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			ck_assert_int_eq(json_integer_value(json_object_get(hand, resource_names[r])),
					 watch->truth.players[viewer].resources[r]);
	}
}

/* One point of the game, for every viewer. */
static void check_point(struct watch *watch)
{
	const struct http_game *game = watch->game;
	http_truth_load(game->id, &watch->truth, &watch->seed);
	snprintf(watch->seed_text, sizeof watch->seed_text, "%" PRId64, watch->seed);
	ck_assert_msg(strlen(watch->seed_text) >= 6, "a seed long enough to search for (%s)", watch->seed_text);
	json_t *truth_events = http_truth_events(game->id, 0);
	ck_assert_int_eq(json_array_size(truth_events), watch->truth.version);
	char path[160];
	json_t *spectator_view = NULL;
	for (int viewer = -1; viewer < game->seats; viewer++) {
		json_t *view = read_as(watch, game->path, viewer);
		ck_assert_int_eq(json_integer_value(json_object_get(view, "version")), watch->truth.version);
		if (viewer < 0)
			spectator_view = json_incref(view);
		check_view(watch, viewer, view, spectator_view);
		json_decref(view);
		json_t *actions = read_as(watch, http_game_path(game, "/actions", path, sizeof path), viewer);
		check_actions(watch, viewer, actions);
		json_decref(actions);
		long *seen = &watch->log_seen[viewer + 1];
		snprintf(path, sizeof path, "%s/moves?after=%ld&limit=1000", game->path, *seen);
		json_t *log = read_as(watch, path, viewer);
		size_t index;
		json_t *entry;
		json_array_foreach(json_object_get(log, "events"), index, entry)
		{
			ck_assert_int_eq(json_integer_value(json_object_get(entry, "version")), *seen + 1);
			check_entry(watch, entry, truth_events, viewer);
			(*seen)++;
		}
		ck_assert_int_eq(*seen, watch->truth.version);
		json_decref(log);
	}
	json_decref(spectator_view);
	json_decref(truth_events);
}

/* The waiting seat's first plain move (no template, no trade answer), sent with every
 * other seat's token: refused, and nothing changes. */
static void check_impersonation(struct watch *watch)
{
	const struct http_game *game = watch->game;
	json_t *view = http_get_ok(watch->client, game->path, NULL);
	const char *phase = json_string_value(json_object_get(view, "phase"));
	int acting = (int)json_integer_value(json_object_get(json_object_get(view, "turn"), "seat"));
	int plain_phase = strcmp(phase, "roll") == 0 || strcmp(phase, "main") == 0 ||
			  strcmp(phase, "move_robber") == 0 || strncmp(phase, "setup", 5) == 0;
	json_decref(view);
	if (!plain_phase)
		return;
	char path[160];
	json_t *body =
		http_get_ok(watch->client, http_game_path(game, "/actions", path, sizeof path), game->tokens[acting]);
	json_t *chosen = NULL;
	size_t index;
	json_t *action;
	json_array_foreach(json_object_get(body, "actions"), index, action)
	{
		const char *type = json_string_value(json_object_get(action, "type"));
		if (!json_object_get(action, "template") && !strstr(type, "trade")) {
			chosen = action;
			break;
		}
	}
	if (chosen) {
		char *text = json_dumps(chosen, JSON_COMPACT);
		struct http_state before;
		http_state_capture(watch->client, game, &before);
		for (int other = 0; other < game->seats; other++) {
			if (other == acting)
				continue;
			struct http_response response;
			http_post_move(watch->client, game, other, text, NULL, &response);
			ck_assert_msg(response.status == 422, "seat %d making seat %d's move %s: %s", other, acting,
				      text, http_describe(&response));
			http_assert_problem(&response, 422, "not_your_turn");
			http_response_free(&response);
			watch->impersonations++;
		}
		http_state_assert_unchanged(watch->client, game, &before);
		http_state_free(&before);
		free(text);
	}
	json_decref(body);
}

/* The whole log as a stream, per viewer, against the redacted truth. */
static void check_streams(struct watch *watch)
{
	const struct http_game *game = watch->game;
	json_t *truth_events = http_truth_events(game->id, 0);
	long version = (long)json_array_size(truth_events);
	char path[160];
	for (int viewer = -1; viewer < game->seats; viewer++) {
		/* EventSource cannot send headers: the token may come as ?token= too. */
		if (viewer >= 0 && viewer % 2)
			snprintf(path, sizeof path, "%s/stream?token=%s", game->path, game->tokens[viewer]);
		else
			http_game_path(game, "/stream", path, sizeof path);
		struct http_stream stream;
		http_stream_read(http_fixture.server.url, path,
				 viewer >= 0 && !(viewer % 2) ? game->tokens[viewer] : NULL, NULL, 100000, &version, 20,
				 &stream);
		ck_assert_int_eq(stream.status, 200);
		ck_assert_int_eq(stream.count, version);
		for (int i = 0; i < stream.count; i++) {
			ck_assert_int_eq(stream.events[i].id, i + 1);
			ck_assert_msg(stream.events[i].data != NULL, "stream event %d is JSON", i + 1);
			char *text = json_dumps(stream.events[i].data, JSON_COMPACT);
			assert_no_secret(watch, "the stream", text, stream.events[i].data);
			free(text);
			check_entry(watch, stream.events[i].data, truth_events, viewer);
		}
		http_stream_free(&stream);
	}
	json_decref(truth_events);
}

/* Private facts the move's own response shows its mover. */
static int makes_private_fact(const struct http_move *move)
{
	size_t index;
	json_t *event;
	json_array_foreach(json_object_get(move->response.json, "events"), index, event)
	{
		const char *type = json_string_value(json_object_get(event, "type"));
		if (strcmp(type, "resource_stolen") == 0 || strcmp(type, "development_card_bought") == 0)
			return 1;
	}
	return 0;
}

static void watch_complete_game(int seats, const char *options)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, seats, options, &game);
	struct watch watch;
	memset(&watch, 0, sizeof watch);
	watch.client = &http_fixture.direct;
	watch.game = &game;
	struct http_player player;
	uint64_t seed = http_random64();
	http_player_init(&player, &http_fixture.direct, &game, seed, 1);
	check_point(&watch);
	int moves = 0;
	struct http_move move;
	while (http_player_step(&player, &move)) {
		moves++;
		ck_assert_msg(moves <= MAX_MOVES, "game %s not finished after %d moves", game.id, MAX_MOVES);
		/* The move's own response shows its events as the mover may see them. */
		json_t *truth_events = http_truth_events(game.id, 0);
		size_t index;
		json_t *entry;
		json_array_foreach(json_object_get(move.response.json, "events"), index, entry)
			check_entry(&watch, entry, truth_events, move.seat);
		json_decref(truth_events);
		int private_fact = makes_private_fact(&move);
		http_move_free(&move);
		if (private_fact || moves % CHECK_EVERY == 0)
			check_point(&watch);
		if (moves % 25 == 0)
			check_impersonation(&watch);
	}
	check_point(&watch);
	ck_assert_int_ge(watch.truth.winner, 0);
	check_streams(&watch);
	fprintf(stderr,
		"game %s (%d seats, %s, player seed %llu): %d moves; checked %d hands, %d stolen cards and %d "
		"bought cards as their seats saw them, %d impersonations refused\n",
		game.id, seats, options, (unsigned long long)seed, moves, watch.points_checked, watch.stolen_checked,
		watch.bought_checked, watch.impersonations);
	ck_assert_msg(watch.stolen_checked > 0 && watch.bought_checked > 0 && watch.impersonations > 0,
		      "the game had private facts to check");
}

START_TEST(test_three_seat_game_shows_nothing_private_to_other_viewers)
{
	watch_complete_game(3, "{\"layout\": \"beginner\"}");
}
END_TEST

START_TEST(test_four_seat_game_shows_nothing_private_to_other_viewers)
{
	watch_complete_game(4, "{\"layout\": \"random\", \"numbers\": \"random\"}");
}
END_TEST

/* The admin token reads what a spectator reads, and sees no `you`. */
START_TEST(test_the_admin_token_reads_as_a_spectator)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, NULL, &game);
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, 5, 0);
	for (int i = 0; i < 30; i++)
		ck_assert(http_player_step(&player, NULL));
	char path[160];
	static const char *const suffixes[] = {"", "/moves?after=0", "/players", "/trades"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		http_game_path(&game, suffixes[i], path, sizeof path);
		json_t *as_admin = http_get_ok(&http_fixture.direct, path, game.admin_token);
		json_t *as_spectator = http_get_ok(&http_fixture.direct, path, NULL);
		ck_assert_msg(json_equal(as_admin, as_spectator), "GET %s: the admin sees more than a spectator", path);
		json_decref(as_admin);
		json_decref(as_spectator);
	}
	json_t *actions = http_get_ok(&http_fixture.direct, http_game_path(&game, "/actions", path, sizeof path),
				      game.admin_token);
	ck_assert_int_eq(json_array_size(json_object_get(actions, "actions")), 0);
	json_decref(actions);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_redaction");
	TCase *redaction = tcase_create("redaction over whole games");
	http_fixture_add(redaction, 0, NULL);
	tcase_set_timeout(redaction, 240);
	tcase_add_test(redaction, test_the_admin_token_reads_as_a_spectator);
	tcase_add_test(redaction, test_three_seat_game_shows_nothing_private_to_other_viewers);
	tcase_add_test(redaction, test_four_seat_game_shows_nothing_private_to_other_viewers);
	suite_add_tcase(suite, redaction);
	return suite;
}
