/*
 * test_statistics.c - a game's figures from its log (game/statistics.h), on many random
 * games played to the end by the engine's playout (bench/games.c, with domestic trades):
 * every card of every seat is accounted for (the flows add up to the final hand), what one
 * seat steals or takes another loses, the points by source add up to the seat's total and
 * the winner's reach 10, the dice histogram counts every roll. The figures are checked
 * against counts taken straight from the events here, written independently of
 * game/statistics.c. A redacted log (a seat's view) is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/games.h"
#include "engine/view.h"
#include "game/statistics.h"
#include "tests/check_main.h"

#define STATISTICS_GAMES 150

static int total(const int counts[RESOURCE_COUNT])
{
	int sum = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		sum += counts[r];
	return sum;
}

START_TEST(test_every_card_of_every_seat_is_accounted_for)
{
	int traded = 0, stolen = 0, monopolies = 0, discards = 0;
	for (int index = 0; index < STATISTICS_GAMES; index++) {
		struct games_record game;
		int seats = 3 + index % 2;
		int won = games_record_play(&game, seats, index % 2 ? GAME_LAYOUT_RANDOM : GAME_LAYOUT_BEGINNER,
					    BOARD_NUMBERS_SPIRAL, 1, 9100u + (uint64_t)index);
		struct statistics stats;
		struct game final;
		int failed_at = -1;
		ck_assert_msg(statistics_compute(game.events, game.count, &stats, &final, &failed_at),
			      "game %d refused at event %d", index, failed_at);
		ck_assert_int_eq(memcmp(&final, &game.final, sizeof final), 0);
		ck_assert_int_eq(stats.seats, seats);
		ck_assert_int_eq(stats.version, game.count);
		ck_assert_int_eq(stats.finished, won);

		/* Counted here from the events, independently. */
		int rolls = 0, histogram[13] = {0}, seat_rolls[GAME_MAX_SEATS] = {0};
		int thefts = 0, discarded[GAME_MAX_SEATS] = {0}, monopolized = 0;
		for (int i = 0; i < game.count; i++) {
			const struct event *e = &game.events[i];
			if (e->type == EVENT_DICE_ROLLED) {
				rolls++;
				histogram[e->dice[0] + e->dice[1]]++;
				seat_rolls[e->seat]++;
			} else if (e->type == EVENT_RESOURCE_STOLEN) {
				thefts++;
			} else if (e->type == EVENT_DISCARDED) {
				discarded[e->seat] += resource_total(e->resources);
				discards++;
			} else if (e->type == EVENT_MONOPOLY_PLAYED) {
				for (int s = 0; s < seats; s++)
					monopolized += e->gains[s][e->resource];
				monopolies++;
			} else if (e->type == EVENT_TRADE_COMPLETED) {
				traded++;
			}
		}
		ck_assert_int_eq(stats.rolls, rolls);
		int histogram_sum = 0;
		for (int t = 2; t <= 12; t++) {
			ck_assert_int_eq(stats.dice[t], histogram[t]);
			histogram_sum += stats.dice[t];
		}
		ck_assert_int_eq(histogram_sum, rolls);

		int stolen_sum = 0, robbed_sum = 0, taken_sum = 0, lost_sum = 0;
		for (int s = 0; s < seats; s++) {
			const struct statistics_seat *seat = &stats.seat[s];
			ck_assert_int_eq(seat->rolls, seat_rolls[s]);
			ck_assert_int_eq(total(seat->flows[STATISTICS_DISCARDED]), discarded[s]);
			for (int r = 0; r < RESOURCE_COUNT; r++) {
				const int(*f)[RESOURCE_COUNT] = seat->flows;
				int in = f[STATISTICS_GAINED][r] + f[STATISTICS_STOLEN][r] + f[STATISTICS_TRADED_IN][r];
				int out = f[STATISTICS_SPENT][r] + f[STATISTICS_ROBBED][r] +
					  f[STATISTICS_MONOPOLIZED][r] + f[STATISTICS_DISCARDED][r] +
					  f[STATISTICS_TRADED_OUT][r];
				ck_assert_msg(in - out == game.final.players[s].resources[r],
					      "game %d seat %d resource %d: %d in, %d out, %d held", index, s, r, in,
					      out, game.final.players[s].resources[r]);
				ck_assert_int_eq(f[STATISTICS_HAND][r], game.final.players[s].resources[r]);
				ck_assert_int_eq(f[STATISTICS_GAINED][r],
						 f[STATISTICS_PRODUCED][r] + f[STATISTICS_FROM_CARDS][r]);
			}
			stolen_sum += total(seat->flows[STATISTICS_STOLEN]);
			robbed_sum += total(seat->flows[STATISTICS_ROBBED]);
			lost_sum += total(seat->flows[STATISTICS_MONOPOLIZED]);
			taken_sum += total(seat->flows[STATISTICS_FROM_CARDS]);
			/* Points by source add up to the total of the rules. */
			int by_source = seat->settlements + 2 * seat->cities + seat->victory_point_cards +
					2 * seat->longest_road + 2 * seat->largest_army;
			ck_assert_int_eq(by_source, seat->points);
			ck_assert_int_eq(seat->points, game_total_points(&game.final, s));
			ck_assert_int_eq(seat->settlements + seat->cities,
					 __builtin_popcountll(game.final.players[s].buildings));
		}
		ck_assert_int_eq(stolen_sum, thefts);
		ck_assert_int_eq(robbed_sum, thefts);
		ck_assert_int_eq(lost_sum, monopolized);
		ck_assert_int_ge(taken_sum, monopolized); /* Year of Plenty adds to it */
		if (won) {
			ck_assert_int_eq(stats.winner, game.final.winner);
			ck_assert_int_ge(stats.seat[stats.winner].points, GAME_POINTS_TO_WIN);
		}
		stolen += thefts;
		games_record_free(&game);
	}
	/* The games did exercise every flow. */
	ck_assert_int_gt(traded, 0);
	ck_assert_int_gt(stolen, 0);
	ck_assert_int_gt(monopolies, 0);
	ck_assert_int_gt(discards, 0);
}
END_TEST

/* The JSON carries the same figures, named as the contract names them. */
START_TEST(test_json_names_the_flows_and_points)
{
	struct games_record game;
	ck_assert(games_record_play(&game, 4, GAME_LAYOUT_BEGINNER, BOARD_NUMBERS_SPIRAL, 1, 42));
	struct statistics stats;
	ck_assert(statistics_compute(game.events, game.count, &stats, NULL, NULL));
	static const char *const names[GAME_MAX_SEATS] = {"Ann", "Bob", NULL, "Dee"};
	static const uint8_t bots[GAME_MAX_SEATS] = {0, 1, 0, 1};
	json_t *json = statistics_to_json(&stats, names, bots);
	ck_assert_int_eq(json_integer_value(json_object_get(json, "version")), game.count);
	ck_assert(json_is_true(json_object_get(json, "finished")));
	ck_assert_int_eq(json_integer_value(json_object_get(json, "winner")), game.final.winner);
	ck_assert_int_eq(json_integer_value(json_object_get(json, "points_to_win")), GAME_POINTS_TO_WIN);
	json_t *histogram = json_object_get(json_object_get(json, "dice"), "histogram");
	ck_assert_uint_eq(json_array_size(histogram), 11);
	ck_assert_int_eq(json_integer_value(json_array_get(histogram, 5)), stats.dice[7]);
	json_t *seats = json_object_get(json, "seats");
	ck_assert_uint_eq(json_array_size(seats), 4);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(seats, 2), "name")), "Seat 3");
	ck_assert(json_is_true(json_object_get(json_array_get(seats, 1), "bot")));
	for (int s = 0; s < 4; s++) {
		json_t *seat = json_array_get(seats, (size_t)s);
		json_t *points = json_object_get(seat, "points");
		ck_assert_int_eq(json_integer_value(json_object_get(points, "total")), stats.seat[s].points);
		ck_assert_int_eq(json_integer_value(json_object_get(points, "cities")), 2 * stats.seat[s].cities);
		json_t *resources = json_object_get(seat, "resources");
		for (int flow = 0; flow < STATISTICS_FLOW_COUNT; flow++) {
			json_t *hand = json_object_get(resources, statistics_flow_name(flow));
			ck_assert_msg(hand != NULL, "flow %s", statistics_flow_name(flow));
			ck_assert_int_eq(json_integer_value(json_object_get(hand, "ore")),
					 stats.seat[s].flows[flow][RESOURCE_ORE]);
		}
	}
	ck_assert_ptr_null(statistics_flow_name(STATISTICS_FLOW_COUNT));
	json_decref(json);
	games_record_free(&game);
}
END_TEST

/* A seat's view hides other seats' stolen cards and bought cards: no figures from it. */
START_TEST(test_a_redacted_log_is_refused)
{
	struct games_record game;
	ck_assert(games_record_play(&game, 3, GAME_LAYOUT_BEGINNER, BOARD_NUMBERS_SPIRAL, 0, 77));
	struct event *seen = malloc(sizeof *seen * (size_t)game.count);
	ck_assert_ptr_nonnull(seen);
	int hidden_at = -1;
	for (int i = 0; i < game.count; i++) {
		view_event(&game.events[i], 0, &seen[i]);
		if (hidden_at < 0 && memcmp(&seen[i], &game.events[i], sizeof seen[i]) != 0)
			hidden_at = i;
	}
	ck_assert_int_ge(hidden_at, 0);
	struct statistics stats;
	int failed_at = -1;
	ck_assert(!statistics_compute(seen, game.count, &stats, NULL, &failed_at));
	ck_assert_int_eq(failed_at, hidden_at);
	free(seen);
	games_record_free(&game);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("statistics");
	TCase *tc = tcase_create("figures");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_every_card_of_every_seat_is_accounted_for);
	tcase_add_test(tc, test_json_names_the_flows_and_points);
	tcase_add_test(tc, test_a_redacted_log_is_refused);
	suite_add_tcase(suite, tc);
	return suite;
}
