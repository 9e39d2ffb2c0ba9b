/*
 * test_import_judge.c - game/import.c on many random games played by the engine (the
 * playout every test and benchmark plays, decided with rules_decide_seeded like the
 * server): every complete log is accepted with its seed, cut into exactly the decisions that
 * made it, and accepted without its seed too, ending in the same state; a log with one
 * event changed is refused at that event (with the seed).
 */
#include <stdlib.h>
#include <string.h>

#include "bench/games.h"
#include "codec/log.h"
#include "codec/shapes.h"
#include "engine/view.h"
#include "engine/rng.h"
#include "game/fairness.h"
#include "game/import.h"
#include "tests/check_main.h"

#define IMPORT_GAMES 400

struct played {
	struct event *events;
	int count;
	int *group_starts; /* the first event of each decision */
	int groups;
	uint64_t seed;
	struct game final;
};

static void play(struct played *out, uint64_t seed, int seats, int trades)
{
	memset(out, 0, sizeof *out);
	out->seed = seed;
	struct games_play game;
	struct event_list *list = malloc(sizeof *list);
	struct game *before = malloc(sizeof *before);
	ck_assert(list && before);
	int capacity = 16384;
	out->events = malloc(sizeof *out->events * (size_t)capacity);
	out->group_starts = malloc(sizeof *out->group_starts * (size_t)capacity);
	games_start(&game, seed, seats, trades, list);
	out->group_starts[out->groups++] = 0;
	memcpy(out->events, list->events, sizeof list->events[0] * (size_t)list->count);
	out->count = list->count;
	int seat;
	while (out->count + EVENT_LIST_MAX < capacity && games_step(&game, before, &seat, list)) {
		out->group_starts[out->groups++] = out->count;
		memcpy(out->events + out->count, list->events, sizeof list->events[0] * (size_t)list->count);
		out->count += list->count;
	}
	out->final = game.playout.state;
	games_free(&game);
	free(list);
	free(before);
}

static void played_free(struct played *game)
{
	free(game->events);
	free(game->group_starts);
}

/* The same state as every viewer sees it (the views are everything the API shows). */
static int same_state(const struct game *a, const struct game *b)
{
	static const char *const names[GAME_MAX_SEATS] = {"a", "b", "c", "d"};
	int same = a->version == b->version;
	for (int viewer = -1; viewer < a->options.seats && same; viewer++) {
		struct game_view x, y;
		view_game(a, viewer, &x);
		view_game(b, viewer, &y);
		json_t *jx = codec_view_to_json(&x, names), *jy = codec_view_to_json(&y, names);
		same = json_equal(jx, jy);
		json_decref(jx);
		json_decref(jy);
	}
	return same;
}

START_TEST(test_engine_games_are_accepted_with_and_without_their_seed)
{
	for (int g = 0; g < IMPORT_GAMES; g++) {
		struct played game;
		play(&game, 1000 + (uint64_t)g, 3 + g % 2, g % 3 != 0);
		struct import_group *groups = malloc(sizeof *groups * (size_t)game.count);
		struct game *final = malloc(sizeof *final);
		struct import_refusal refusal;
		int group_count;
		ck_assert_msg(
			import_verify(game.events, game.count, 1, game.seed, groups, &group_count, final, &refusal),
			"game %d (seed): event %d: %s", g, refusal.index, refusal.reason);
		ck_assert_int_eq(group_count, game.groups);
		for (int k = 0; k < group_count; k++)
			ck_assert_int_eq(groups[k].first, game.group_starts[k]);
		ck_assert(same_state(final, &game.final));
		ck_assert_msg(import_verify(game.events, game.count, 0, 0, groups, &group_count, final, &refusal),
			      "game %d (no seed): event %d: %s", g, refusal.index, refusal.reason);
		ck_assert_int_eq(final->version, game.final.version);
		free(groups);
		free(final);
		played_free(&game);
	}
}
END_TEST

START_TEST(test_a_changed_event_is_refused_at_that_event_with_the_seed)
{
	struct rng rng;
	rng_init(&rng, 77, 0);
	int refused = 0;
	for (int g = 0; g < 40; g++) {
		struct played game;
		play(&game, 5000 + (uint64_t)g, 4, 1);
		/* A draw or a consequence the seed decides, changed within its range: a random
		 * event among the dice, the production, the cards bought and the thefts. */
		int at = -1;
		for (int tries = 0; tries < 1000 && at < 0; tries++) {
			int k = 1 + (int)(rng_next(&rng) % (uint64_t)(game.count - 1));
			int type = game.events[k].type;
			if (type == EVENT_DICE_ROLLED || type == EVENT_RESOURCES_PRODUCED ||
			    type == EVENT_DEVELOPMENT_CARD_BOUGHT || type == EVENT_RESOURCE_STOLEN)
				at = k;
		}
		ck_assert_int_ge(at, 0);
		struct event *event = &game.events[at];
		if (event->type == EVENT_DICE_ROLLED) {
			event->dice[0] = (uint8_t)(event->dice[0] % 6 + 1);
		} else if (event->type == EVENT_RESOURCES_PRODUCED) {
			event->gains[0][0]++;
		} else if (event->type == EVENT_DEVELOPMENT_CARD_BOUGHT) {
			event->card = (uint8_t)((event->card + 1) % DEVELOPMENT_COUNT);
		} else {
			event->resource = (uint8_t)((event->resource + 1) % RESOURCE_COUNT);
		}
		struct import_group *groups = malloc(sizeof *groups * (size_t)game.count);
		struct game *final = malloc(sizeof *final);
		struct import_refusal refusal;
		int group_count;
		ck_assert_msg(
			!import_verify(game.events, game.count, 1, game.seed, groups, &group_count, final, &refusal),
			"game %d: event %d (type %d) changed, yet accepted", g, at, event->type);
		ck_assert_msg(refusal.index <= at, "game %d: changed %d, refused at %d", g, at, refusal.index);
		refused++;
		free(groups);
		free(final);
		played_free(&game);
	}
	ck_assert_int_eq(refused, 40);
}
END_TEST

/* docs/fairness.md's test vectors: the server seed 00..1f, game 0x1234abcd5678ef90, 3 seats;
 * without seeds, and with "alice", "" and "dés 7" fixed from version 30 (version 29 and
 * before keep the seedless keys; version 0 never mixes them in). */
START_TEST(test_fairness_vectors_with_and_without_players_seeds)
{
	struct fairness f;
	memset(&f, 0, sizeof f);
	f.scheme = EVENT_FAIRNESS_HMAC_1;
	for (int i = 0; i < CODEC_SERVER_SEED_SIZE; i++)
		f.server_seed[i] = (uint8_t)i;
	f.game_id = (int64_t)UINT64_C(0x1234abcd5678ef90);
	f.seats = 3;
	f.seeds_from = FAIRNESS_NO_SEEDS;
	ck_assert_uint_eq(fairness_seed_at(&f, 0), UINT64_C(0x2402893d380328b8));
	ck_assert_uint_eq(fairness_seed_at(&f, 1), UINT64_C(0x5007098d15bb86f9));
	ck_assert_uint_eq(fairness_seed_at(&f, 57), UINT64_C(0x4cc4dc40ed41da3f));
	uint64_t seedless29 = fairness_seed_at(&f, 29);
	strcpy(f.player_seeds[0], "alice");
	strcpy(f.player_seeds[2], "d\xc3\xa9s 7");
	f.seeds_from = 30;
	ck_assert_uint_eq(fairness_seed_at(&f, 0), UINT64_C(0x2402893d380328b8));
	ck_assert_uint_eq(fairness_seed_at(&f, 29), seedless29);
	ck_assert_uint_eq(fairness_seed_at(&f, 29), UINT64_C(0x14817d74620ff1c1));
	ck_assert_uint_eq(fairness_seed_at(&f, 30), UINT64_C(0x07c4bda3a13c4b37));
	ck_assert_uint_eq(fairness_seed_at(&f, 31), UINT64_C(0x11d6edea24430356));
	ck_assert_uint_eq(fairness_seed_at(&f, 57), UINT64_C(0x152afe6bbed56d23));
	struct rng rng;
	rng_init(&rng, fairness_seed_at(&f, 30), 30);
	ck_assert_int_eq(rng_die(&rng), 2);
	ck_assert_int_eq(rng_die(&rng), 5);
	rng_init(&rng, fairness_seed_at(&f, 31), 31);
	ck_assert_int_eq(rng_die(&rng), 5);
	ck_assert_int_eq(rng_die(&rng), 5);
	ck_assert(fairness_player_seed_valid("alice"));
	ck_assert(!fairness_player_seed_valid(""));
	ck_assert(!fairness_player_seed_valid("\xff"));
	ck_assert(fairness_player_seed_valid("gr\xc3\xbc\xc3\x9f \xf0\x9f\x8e\xb2")); /* "grüß 🎲" */
	ck_assert(!fairness_player_seed_valid("\xc0\xaf"));			      /* an overlong "/" */
	ck_assert(!fairness_player_seed_valid("\xed\xa0\x80"));			      /* a surrogate */
	ck_assert(!fairness_player_seed_valid("\xf4\x90\x80\x80"));		      /* above U+10FFFF */
	ck_assert(!fairness_player_seed_valid("ab\xe2\x82"));			      /* cut short */
	char long_seed[66];
	memset(long_seed, 'a', 65);
	long_seed[65] = '\0';
	ck_assert(!fairness_player_seed_valid(long_seed));
	long_seed[64] = '\0';
	ck_assert(fairness_player_seed_valid(long_seed));
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("import");
	TCase *import = tcase_create("import_verify");
	tcase_set_timeout(import, 120);
	tcase_add_test(import, test_engine_games_are_accepted_with_and_without_their_seed);
	tcase_add_test(import, test_a_changed_event_is_refused_at_that_event_with_the_seed);
	tcase_add_test(import, test_fairness_vectors_with_and_without_players_seeds);
	suite_add_tcase(suite, import);
	return suite;
}
