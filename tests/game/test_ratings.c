/*
 * test_ratings.c - the ranks and the multiplayer Elo of game/ratings.h, as the contract
 * writes them: a resigned seat is last (even when its bot won), the winner first, the others
 * by points with ties sharing a rank; K 40 for a player's first 10 rated games, 32 after,
 * split over the n - 1 pairs; equal K makes a game's changes sum to zero.
 */
#include <math.h>
#include <string.h>

#include "engine/rules.h"
#include "game/ratings.h"
#include "tests/check_main.h"

/* A finished 4-seat game where seat `winner` won; seats' public points set by settlements. */
static void finished_game(struct game *state, int winner, const int *settlements)
{
	memset(state, 0, sizeof *state);
	rules_default_options(&state->options);
	state->options.seats = 4;
	state->phase = GAME_PHASE_FINISHED;
	state->winner = (int8_t)winner;
	for (int s = 0; s < 4; s++) {
		state->players[s].settlements_left = (uint8_t)(GAME_SETTLEMENTS - settlements[s]);
		state->players[s].cities_left = GAME_CITIES;
	}
}

START_TEST(test_resigned_last_winner_first_others_by_points_ties_share)
{
	struct game state;
	static const int settlements[4] = {3, 5, 3, 4};
	finished_game(&state, 0, settlements);
	int ranks[GAME_MAX_SEATS];
	ratings_ranks(&state, 0, ranks);
	ck_assert_int_eq(ranks[0], 1);
	ck_assert_int_eq(ranks[1], 2);
	ck_assert_int_eq(ranks[3], 3);
	ck_assert_int_eq(ranks[2], 4);
	/* The winner's seat resigned (its bot won): last; seats 2 and 3 resigned with it share last. */
	ratings_ranks(&state, 0x1u | 0x4u, ranks);
	ck_assert_int_eq(ranks[1], 1);
	ck_assert_int_eq(ranks[3], 2);
	ck_assert_int_eq(ranks[0], 3);
	ck_assert_int_eq(ranks[2], 3);
	/* Equal points share a rank. */
	static const int even[4] = {5, 4, 4, 2};
	finished_game(&state, 0, even);
	ratings_ranks(&state, 0, ranks);
	ck_assert_int_eq(ranks[1], 2);
	ck_assert_int_eq(ranks[2], 2);
	ck_assert_int_eq(ranks[3], 4);
}
END_TEST

START_TEST(test_elo_by_pairs_with_k_40_then_32)
{
	double before[3] = {1200, 1200, 1200}, after[3];
	int32_t games[3] = {0, 0, 0};
	int ranks[3] = {1, 2, 2};
	ratings_elo(3, before, games, ranks, after);
	/* K 40 over 2 pairs: 20 a pair; the winner beats two at E 0.5, the others draw. */
	ck_assert(fabs(after[0] - 1220.0) < 1e-12);
	ck_assert(fabs(after[1] - 1190.0) < 1e-12);
	ck_assert(fabs(after[2] - 1190.0) < 1e-12);
	int32_t veterans[3] = {10, 10, 9};
	ratings_elo(3, before, veterans, ranks, after);
	ck_assert(fabs(after[0] - 1216.0) < 1e-12); /* 32 / 2 a pair */
	ck_assert(fabs(after[2] - 1190.0) < 1e-12); /* 9 games before: still 40 */
	double spread[4] = {1500, 1300, 1200, 1000}, moved[4];
	int32_t many[4] = {50, 50, 50, 50};
	int order[4] = {4, 3, 2, 1};
	ratings_elo(4, spread, many, order, moved);
	double sum = 0;
	for (int i = 0; i < 4; i++)
		sum += moved[i] - spread[i];
	ck_assert(fabs(sum) < 1e-9);
	ck_assert(moved[0] < spread[0] && moved[3] > spread[3]);
	/* One rated player alone has no pair: nothing moves. */
	ratings_elo(1, spread, many, order, moved);
	ck_assert(moved[0] == spread[0]);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("ratings");
	TCase *tc = tcase_create("formula");
	tcase_add_test(tc, test_resigned_last_winner_first_others_by_points_ties_share);
	tcase_add_test(tc, test_elo_by_pairs_with_k_40_then_32);
	suite_add_tcase(suite, tc);
	return suite;
}
