/*
 * test_setup.c - RULES.md section 2: the options a game is created with, the first player,
 * and the initial placement draft (order, distance rule, setup roads, starting resources).
 *
 * The standard draft places each seat on the nodes of this service's preset opening
 * (rules_fixed_start, `start: "fixed"`; not the printed start): seat 0 on 43 then 44, seat 1
 * on 28 then 13, seat 2 on 31 then 12, seat 3 on 14 then 45.
 */
#include <string.h>

#include "engine/invariants.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void place(struct game *game, int seat, int node, int edge)
{
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, node);
	support_ok(game, seat, &c, NULL);
	c = support_build(COMMAND_BUILD_ROAD, edge);
	support_ok(game, seat, &c, NULL);
}

/* The seat whose placement comes next, checked before each of the 2n placements. */
static void check_draft_order(int seats, int first_seat, const int *expected)
{
	struct game_options options;
	support_options(&options, seats, GAME_LAYOUT_BEGINNER);
	options.first_seat = (int8_t)first_seat;
	struct game game;
	support_new_game_with(&game, &options);
	for (int step = 0; step < 2 * seats; step++) {
		ck_assert_int_eq(game.phase, GAME_PHASE_SETUP_SETTLEMENT);
		ck_assert_msg(game.turn_seat == expected[step], "step %d: seat %d places, expected %d", step,
			      game.turn_seat, expected[step]);
		int round = step < seats ? 0 : 1;
		int seat = expected[step];
		place(&game, seat, rules_fixed_start[seat][round][0], rules_fixed_start[seat][round][1]);
	}
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	ck_assert_int_eq(game.turn_seat, first_seat);
	ck_assert_int_eq(game.turn_number, 1);
}

START_TEST(test_draft_order_is_forward_then_reverse)
{
	check_draft_order(4, 0, (const int[]){0, 1, 2, 3, 3, 2, 1, 0});
}
END_TEST

START_TEST(test_draft_order_starts_from_the_first_seat)
{
	check_draft_order(4, 2, (const int[]){2, 3, 0, 1, 1, 0, 3, 2});
}
END_TEST

START_TEST(test_draft_order_with_three_seats)
{
	check_draft_order(3, 1, (const int[]){1, 2, 0, 0, 2, 1});
}
END_TEST

START_TEST(test_last_seat_places_twice_in_a_row)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	place(&game, 0, 44, 57);
	place(&game, 1, 28, 41);
	place(&game, 2, 31, 46);
	place(&game, 3, 14, 21);
	ck_assert_int_eq(game.turn_seat, 3);
	ck_assert_int_eq(game.phase, GAME_PHASE_SETUP_SETTLEMENT);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 45);
	support_refused(&game, 0, &c, ERROR_NOT_YOUR_TURN);
	support_ok(&game, 3, &c, NULL);
}
END_TEST

START_TEST(test_first_turn_goes_to_the_first_seat_after_the_draft)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	ck_assert_int_eq(game.turn_seat, 0);
	ck_assert_int_eq(game.turn_number, 1);
	for (int s = 0; s < 4; s++) {
		ck_assert_int_eq(game.players[s].settlements_left, GAME_SETTLEMENTS - 2);
		ck_assert_int_eq(game.players[s].roads_left, GAME_ROADS - 2);
		ck_assert_int_eq(game_public_points(&game, s), 2);
	}
}
END_TEST

/* Create a game whose first seat is rolled, with the generator seeded by `seed`. */
static void create_rolled(uint64_t seed, int seats, struct event_list *events)
{
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	struct rng rng;
	rng_init(&rng, seed, 0);
	ck_assert_int_eq(rules_create(&options, &rng, events), ERROR_OK);
	ck_assert_int_eq(events->events[0].type, EVENT_GAME_CREATED);
}

/* Check start_rolls tells a consistent story: everyone rolls in round 0, then only the seats
 * tied for the highest total of the previous round, until one seat is highest alone. Returns
 * the number of rounds rolled. */
static int check_start_rolls(const struct event_setup *setup, int seats)
{
	uint8_t rolling = (uint8_t)((1u << seats) - 1);
	for (int round = 0; round < EVENT_START_ROLL_ROUNDS; round++) {
		int best = 0;
		uint8_t leaders = 0;
		for (int s = 0; s < GAME_MAX_SEATS; s++) {
			int total = setup->start_rolls[round][s];
			if (!(rolling >> s & 1u)) {
				ck_assert_msg(total == 0, "round %d: seat %d rolled without being tied", round, s);
				continue;
			}
			ck_assert_msg(total >= 2 && total <= 12, "round %d: seat %d rolled %d", round, s, total);
			if (total > best) {
				best = total;
				leaders = (uint8_t)(1u << s);
			} else if (total == best) {
				leaders |= (uint8_t)(1u << s);
			}
		}
		if (__builtin_popcount(leaders) == 1) {
			ck_assert_int_eq(setup->first_seat, __builtin_ctz(leaders));
			for (int later = round + 1; later < EVENT_START_ROLL_ROUNDS; later++)
				for (int s = 0; s < GAME_MAX_SEATS; s++)
					ck_assert_int_eq(setup->start_rolls[later][s], 0);
			return round + 1;
		}
		rolling = leaders;
	}
	ck_abort_msg("no seat won the start roll");
	return 0;
}

START_TEST(test_first_player_is_the_highest_roll)
{
	int unique = 0, tied = 0;
	for (uint64_t seed = 1; seed <= 200; seed++) {
		struct event_list events;
		create_rolled(seed, 4, &events);
		int rounds = check_start_rolls(&events.events[0].setup, 4);
		if (rounds == 1)
			unique++;
		else
			tied++;
		struct game game;
		memset(&game, 0, sizeof game);
		apply_events(&game, &events);
		ck_assert_int_eq(game.turn_seat, events.events[0].setup.first_seat);
		ck_assert_int_eq(game.first_seat, events.events[0].setup.first_seat);
	}
	/* Both paths must have been exercised for the test to mean anything. */
	ck_assert_int_gt(unique, 0);
	ck_assert_int_gt(tied, 0);
}
END_TEST

START_TEST(test_start_roll_ties_reroll_among_the_tied_only)
{
	/* Find a creation where round 0 has a tie for the top and someone else rolled lower, so
	 * round 1 must leave that seat out. */
	for (uint64_t seed = 1; seed <= 2000; seed++) {
		struct event_list events;
		create_rolled(seed, 4, &events);
		const struct event_setup *setup = &events.events[0].setup;
		int best = 0, at_best = 0;
		for (int s = 0; s < 4; s++)
			best = setup->start_rolls[0][s] > best ? setup->start_rolls[0][s] : best;
		for (int s = 0; s < 4; s++)
			at_best += setup->start_rolls[0][s] == best;
		if (at_best < 2 || at_best == 4)
			continue;
		for (int s = 0; s < 4; s++) {
			if (setup->start_rolls[0][s] == best)
				ck_assert_int_ne(setup->start_rolls[1][s], 0);
			else
				ck_assert_int_eq(setup->start_rolls[1][s], 0);
		}
		check_start_rolls(setup, 4);
		return;
	}
	ck_abort_msg("no seed gave a partial tie in round 0");
}
END_TEST

START_TEST(test_first_seat_fixed_by_option_rolls_nothing)
{
	struct game_options options;
	support_options(&options, 4, GAME_LAYOUT_BEGINNER);
	options.first_seat = 3;
	struct event_list events;
	struct rng rng;
	rng_init(&rng, 7, 0);
	ck_assert_int_eq(rules_create(&options, &rng, &events), ERROR_OK);
	const struct event_setup *setup = &events.events[0].setup;
	ck_assert_int_eq(setup->first_seat, 3);
	static const uint8_t zero[EVENT_START_ROLL_ROUNDS][GAME_MAX_SEATS];
	ck_assert(memcmp(setup->start_rolls, zero, sizeof zero) == 0);
	struct game game;
	support_new_game_with(&game, &options);
	ck_assert_int_eq(game.turn_seat, 3);
}
END_TEST

START_TEST(test_new_game_state)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	ck_assert_int_eq(game.phase, GAME_PHASE_SETUP_SETTLEMENT);
	ck_assert_int_eq(game.robber, board_desert(&game.board));
	ck_assert_int_eq(game.board.terrain[game.robber], TERRAIN_DESERT);
	for (int r = 0; r < RESOURCE_COUNT; r++)
		ck_assert_int_eq(game.bank[r], 19);
	ck_assert_int_eq(resource_total(game.deck), 25);
	ck_assert_int_eq(game.longest_road, GAME_NO_SEAT);
	ck_assert_int_eq(game.largest_army, GAME_NO_SEAT);
	for (int s = 0; s < 4; s++) {
		ck_assert_int_eq(game.players[s].roads_left, 15);
		ck_assert_int_eq(game.players[s].settlements_left, 5);
		ck_assert_int_eq(game.players[s].cities_left, 4);
		ck_assert_int_eq(game_resource_count(&game, s), 0);
	}
}
END_TEST

START_TEST(test_setup_settlement_obeys_the_distance_rule)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	place(&game, 0, 44, 57);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 40); /* next to 44 */
	support_refused(&game, 1, &c, ERROR_DISTANCE_RULE);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_refused(&game, 1, &c, ERROR_NODE_OCCUPIED);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 54);
	support_refused(&game, 1, &c, ERROR_INVALID_NODE);
	/* Two away from 44, across the road's far end: allowed. */
	c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_ok(&game, 1, &c, NULL);
}
END_TEST

START_TEST(test_setup_distance_rule_includes_own_buildings)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	place(&game, 0, 44, 57);
	place(&game, 1, 28, 41);
	place(&game, 2, 31, 46);
	place(&game, 2, 12, 11);
	place(&game, 1, 13, 20);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 48); /* next to seat 0's own 44 */
	support_refused(&game, 0, &c, ERROR_DISTANCE_RULE);
}
END_TEST

START_TEST(test_setup_settlement_needs_no_road_connection)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	place(&game, 0, 44, 57);
	place(&game, 1, 28, 41);
	place(&game, 2, 31, 46);
	place(&game, 2, 12, 11);
	place(&game, 1, 13, 20);
	/* Seat 0's second settlement far from its first road. */
	ck_assert(!(game.players[0].road_nodes >> 2 & 1u));
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 2);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_setup_road_must_touch_the_settlement_just_placed)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_ok(&game, 0, &c, NULL);
	c = support_build(COMMAND_BUILD_ROAD, 0); /* far away */
	support_refused(&game, 0, &c, ERROR_SETUP_ROAD_NOT_TOUCHING);
	c = support_build(COMMAND_BUILD_ROAD, 72);
	support_refused(&game, 0, &c, ERROR_INVALID_EDGE);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 48));
	support_ok(&game, 0, &c, NULL);
	place(&game, 1, 28, 41);
	place(&game, 2, 31, 46);
	place(&game, 2, 12, 11);
	place(&game, 1, 13, 20);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 2);
	support_ok(&game, 0, &c, NULL);
	/* A road at the first settlement, or extending the first road, is not at the new one. */
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 40));
	support_refused(&game, 0, &c, ERROR_SETUP_ROAD_NOT_TOUCHING);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(48, 51));
	support_refused(&game, 0, &c, ERROR_SETUP_ROAD_NOT_TOUCHING);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(2, 5));
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
}
END_TEST

START_TEST(test_setup_places_settlement_then_road)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	struct command road = support_build(COMMAND_BUILD_ROAD, 57);
	support_refused(&game, 0, &road, ERROR_SETUP_SETTLEMENT_EXPECTED);
	struct command settlement = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_refused(&game, 1, &settlement, ERROR_NOT_YOUR_TURN);
	support_ok(&game, 0, &settlement, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_SETUP_ROAD);
	settlement = support_build(COMMAND_BUILD_SETTLEMENT, 2);
	support_refused(&game, 0, &settlement, ERROR_SETUP_ROAD_EXPECTED);
	support_refused(&game, 1, &road, ERROR_NOT_YOUR_TURN);
	support_ok(&game, 0, &road, NULL);
	ck_assert_int_eq(game.turn_seat, 1);
}
END_TEST

START_TEST(test_setup_pieces_are_free)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].free, 1);
	c = support_build(COMMAND_BUILD_ROAD, 57);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].free, 1);
	for (int r = 0; r < RESOURCE_COUNT; r++)
		ck_assert_int_eq(game.bank[r], 19);
}
END_TEST

START_TEST(test_only_settlements_and_roads_during_setup)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	struct command c = support_dice(3, 4);
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_build(COMMAND_BUILD_CITY, 44);
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_command(COMMAND_END_TURN);
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 0;
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_command(COMMAND_PLAY_MONOPOLY);
	c.resource = RESOURCE_ORE;
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_command(COMMAND_MOVE_ROBBER);
	c.hex = 0;
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_command(COMMAND_MARITIME_TRADE);
	c.give[RESOURCE_BRICK] = 4;
	c.want[RESOURCE_ORE] = 1;
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
	c = support_command(COMMAND_OFFER_TRADE);
	c.give[RESOURCE_BRICK] = 1;
	c.want[RESOURCE_ORE] = 1;
	support_refused(&game, 0, &c, ERROR_NOT_DURING_SETUP);
}
END_TEST

START_TEST(test_first_settlement_gives_no_resources)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.count, 1);
	ck_assert_ptr_null(support_find_event(&events, EVENT_RESOURCES_PRODUCED));
	c = support_build(COMMAND_BUILD_ROAD, 57);
	support_ok(&game, 0, &c, NULL);
	place(&game, 1, 28, 41);
	place(&game, 2, 31, 46);
	place(&game, 3, 14, 21);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(game_resource_count(&game, s), 0);
}
END_TEST

START_TEST(test_second_settlement_gives_one_card_per_adjacent_hex)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	/* 44: mountains 3, hills 5, fields 6. 13: pasture 2, hills 6, pasture 4. 12: mountains
	 * 10, fields 12, hills 6. 45: fields 4, fields 6, pasture 11. The first settlements (43
	 * with forest 8 and hills 5 among them) add nothing. */
	support_assert_hand(&game, 0, 1, 0, 0, 1, 1);
	support_assert_hand(&game, 1, 1, 0, 2, 0, 0);
	support_assert_hand(&game, 2, 1, 0, 0, 1, 1);
	support_assert_hand(&game, 3, 0, 0, 1, 2, 0);
	ck_assert_int_eq(game.bank[RESOURCE_BRICK], 16);
}
END_TEST

START_TEST(test_desert_gives_no_starting_resource)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	place(&game, 0, 44, 57);
	place(&game, 1, 28, 41);
	place(&game, 2, 31, 46);
	place(&game, 2, 12, 11);
	place(&game, 1, 13, 20);
	/* 18 touches hills 6, pasture 4 and the desert. */
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 18);
	support_refused(&game, 0, &c, ERROR_DISTANCE_RULE); /* next to seat 1's 13 */
	c = support_build(COMMAND_BUILD_SETTLEMENT, 24);    /* pasture 4, forest 3, desert */
	support_ok(&game, 0, &c, &events);
	const struct event *produced = support_find_event(&events, EVENT_RESOURCES_PRODUCED);
	ck_assert_ptr_nonnull(produced);
	ck_assert_int_eq(resource_total(produced->gains[0]), 2);
	support_assert_hand(&game, 0, 0, 1, 1, 0, 0);
}
END_TEST

START_TEST(test_three_seat_game_rotates_over_three_seats)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	ck_assert_int_eq(game.turn_seat, 0);
	ck_assert_int_eq(game.node_owner[14], 0); /* seat 3's preset nodes are left out */
	ck_assert_int_eq(game.node_owner[45], 0);
	support_roll(&game, 2, 4);
	support_next_turn(&game, 2, 4);
	ck_assert_int_eq(game.turn_seat, 1);
	support_next_turn(&game, 2, 4);
	ck_assert_int_eq(game.turn_seat, 2);
	support_next_turn(&game, 2, 4);
	ck_assert_int_eq(game.turn_seat, 0);
	ck_assert_int_eq(game.turn_number, 4);
	struct command c = support_dice(3, 3);
	support_refused(&game, 3, &c, ERROR_INVALID_SEAT);
}
END_TEST

/* The preset opening must produce the state the equivalent draft produces. */
static void check_fixed_start_equals_draft(int seats, int first_seat)
{
	struct game_options options;
	support_options(&options, seats, GAME_LAYOUT_BEGINNER);
	options.first_seat = (int8_t)first_seat;
	struct game drafted;
	support_new_game_with(&drafted, &options);
	support_standard_draft(&drafted);

	options.start = GAME_START_FIXED;
	struct game fixed;
	support_new_game_with(&fixed, &options);
	ck_assert_ptr_null(invariants_check(&fixed));
	ck_assert_int_eq(fixed.phase, GAME_PHASE_ROLL);
	ck_assert_int_eq(fixed.options.start, GAME_START_FIXED);
	fixed.options.start = GAME_START_DRAFT;
	ck_assert_msg(memcmp(&fixed, &drafted, sizeof fixed) == 0, "fixed start differs from the draft (%d seats)",
		      seats);
}

START_TEST(test_fixed_start_equals_the_draft)
{
	check_fixed_start_equals_draft(4, 0);
	check_fixed_start_equals_draft(4, 2);
	check_fixed_start_equals_draft(3, 0);
	check_fixed_start_equals_draft(3, 1);
}
END_TEST

START_TEST(test_fixed_start_gives_resources_of_the_second_settlement)
{
	struct game_options options;
	support_options(&options, 4, GAME_LAYOUT_BEGINNER);
	options.start = GAME_START_FIXED;
	struct game game;
	support_new_game_with(&game, &options);
	support_assert_hand(&game, 0, 1, 0, 0, 1, 1);
	support_assert_hand(&game, 3, 0, 0, 1, 2, 0);
	ck_assert_int_eq(game.node_owner[44], 1);
	ck_assert_int_eq(game.node_owner[45], 4);
}
END_TEST

/* RULES.md 2: the preset opening's second settlements each touch three producing hexes,
 * and pay their owners one card for each (three cards a seat), in 3- and 4-seat games and
 * whoever places first. */
START_TEST(test_preset_opening_second_settlements_touch_three_producing_hexes)
{
	struct board_layout board;
	board_beginner(&board);
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++) {
		int node = rules_fixed_start[seat][1][0];
		int producing = 0;
		for (int k = 0; k < 3; k++) {
			int hex = board_node_hexes[node][k];
			producing += hex >= 0 && board.terrain[hex] != TERRAIN_DESERT;
		}
		ck_assert_msg(producing == 3, "seat %d's second settlement %d touches %d producing hexes", seat, node,
			      producing);
	}
	for (int seats = GAME_MIN_SEATS; seats <= GAME_MAX_SEATS; seats++) {
		for (int first = 0; first < seats; first++) {
			struct game_options options;
			support_options(&options, seats, GAME_LAYOUT_BEGINNER);
			options.start = GAME_START_FIXED;
			options.first_seat = (int8_t)first;
			struct game game;
			support_new_game_with(&game, &options);
			for (int s = 0; s < seats; s++) {
				ck_assert_int_eq(game_resource_count(&game, s), 3);
				ck_assert_int_eq(game.node_owner[rules_fixed_start[s][0][0]], s + 1);
				ck_assert_int_eq(game.node_owner[rules_fixed_start[s][1][0]], s + 1);
			}
		}
	}
}
END_TEST

START_TEST(test_options_are_checked)
{
	struct game_options options;
	rules_default_options(&options);
	ck_assert_int_eq(rules_check_options(&options), ERROR_OK);
	ck_assert_int_eq(options.seats, 4);
	ck_assert_int_eq(options.layout, GAME_LAYOUT_BEGINNER);
	ck_assert_int_eq(options.start, GAME_START_DRAFT);
	ck_assert_int_eq(options.edition, GAME_EDITION_CLASSIC);
	ck_assert_int_eq(options.first_seat, GAME_NO_SEAT);

	options.seats = 3;
	ck_assert_int_eq(rules_check_options(&options), ERROR_OK);
	options.seats = 2;
	ck_assert_int_eq(rules_check_options(&options), ERROR_INVALID_OPTIONS);
	options.seats = 5;
	ck_assert_int_eq(rules_check_options(&options), ERROR_INVALID_OPTIONS);

	rules_default_options(&options);
	options.start = GAME_START_FIXED;
	ck_assert_int_eq(rules_check_options(&options), ERROR_OK);
	options.layout = GAME_LAYOUT_RANDOM;
	ck_assert_int_eq(rules_check_options(&options), ERROR_INVALID_OPTIONS);
	options.start = GAME_START_DRAFT;
	ck_assert_int_eq(rules_check_options(&options), ERROR_OK);
	options.numbers = BOARD_NUMBERS_RANDOM;
	ck_assert_int_eq(rules_check_options(&options), ERROR_OK);

	rules_default_options(&options);
	options.seats = 3;
	options.first_seat = 3;
	ck_assert_int_eq(rules_check_options(&options), ERROR_INVALID_OPTIONS);
	options.first_seat = 2;
	ck_assert_int_eq(rules_check_options(&options), ERROR_OK);

	rules_default_options(&options);
	options.edition = GAME_EDITION_2025 + 1;
	ck_assert_int_eq(rules_check_options(&options), ERROR_INVALID_OPTIONS);
}
END_TEST

START_TEST(test_create_refuses_invalid_options_with_no_events)
{
	struct game_options options;
	rules_default_options(&options);
	options.layout = GAME_LAYOUT_RANDOM;
	options.start = GAME_START_FIXED;
	struct rng rng;
	rng_init(&rng, 1, 0);
	struct event_list events;
	ck_assert_int_eq(rules_create(&options, &rng, &events), ERROR_INVALID_OPTIONS);
	ck_assert_int_eq(events.count, 0);
}
END_TEST

START_TEST(test_random_board_game_is_valid_with_the_robber_on_the_desert)
{
	for (int numbers = BOARD_NUMBERS_SPIRAL; numbers <= BOARD_NUMBERS_RANDOM; numbers++) {
		struct game_options options;
		support_options(&options, 4, GAME_LAYOUT_RANDOM);
		options.numbers = (uint8_t)numbers;
		struct game game;
		support_new_game_with(&game, &options);
		ck_assert(board_layout_valid(&game.board));
		ck_assert_int_eq(game.board.terrain[game.robber], TERRAIN_DESERT);
		ck_assert_int_eq(game.board.number[game.robber], 0);
		support_standard_draft(&game);
		ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	}
}
END_TEST

START_TEST(test_same_seed_creates_the_same_game)
{
	struct game_options options;
	rules_default_options(&options);
	options.layout = GAME_LAYOUT_RANDOM;
	struct event_list first, second, other;
	struct rng rng;
	rng_init(&rng, 99, 0);
	ck_assert_int_eq(rules_create(&options, &rng, &first), ERROR_OK);
	rng_init(&rng, 99, 0);
	ck_assert_int_eq(rules_create(&options, &rng, &second), ERROR_OK);
	ck_assert_int_eq(first.count, second.count);
	const struct event_setup *a = &first.events[0].setup, *b = &second.events[0].setup;
	ck_assert(memcmp(&a->board, &b->board, sizeof a->board) == 0);
	ck_assert_int_eq(a->first_seat, b->first_seat);
	ck_assert(memcmp(a->start_rolls, b->start_rolls, sizeof a->start_rolls) == 0);
	rng_init(&rng, 100, 0);
	ck_assert_int_eq(rules_create(&options, &rng, &other), ERROR_OK);
	ck_assert(memcmp(&first.events[0].setup.board, &other.events[0].setup.board, sizeof(struct board_layout)) != 0);
}
END_TEST

START_TEST(test_command_before_creation_is_refused)
{
	struct game game;
	memset(&game, 0, sizeof game);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_refused(&game, 0, &c, ERROR_GAME_NOT_STARTED);
}
END_TEST

START_TEST(test_seat_out_of_range_is_refused)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_refused(&game, 4, &c, ERROR_INVALID_SEAT);
	support_refused(&game, -1, &c, ERROR_INVALID_SEAT);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("setup");
	TCase *tc = tcase_create("setup");
	tcase_add_test(tc, test_draft_order_is_forward_then_reverse);
	tcase_add_test(tc, test_draft_order_starts_from_the_first_seat);
	tcase_add_test(tc, test_draft_order_with_three_seats);
	tcase_add_test(tc, test_last_seat_places_twice_in_a_row);
	tcase_add_test(tc, test_first_turn_goes_to_the_first_seat_after_the_draft);
	tcase_add_test(tc, test_first_player_is_the_highest_roll);
	tcase_add_test(tc, test_start_roll_ties_reroll_among_the_tied_only);
	tcase_add_test(tc, test_first_seat_fixed_by_option_rolls_nothing);
	tcase_add_test(tc, test_new_game_state);
	tcase_add_test(tc, test_setup_settlement_obeys_the_distance_rule);
	tcase_add_test(tc, test_setup_distance_rule_includes_own_buildings);
	tcase_add_test(tc, test_setup_settlement_needs_no_road_connection);
	tcase_add_test(tc, test_setup_road_must_touch_the_settlement_just_placed);
	tcase_add_test(tc, test_setup_places_settlement_then_road);
	tcase_add_test(tc, test_setup_pieces_are_free);
	tcase_add_test(tc, test_only_settlements_and_roads_during_setup);
	tcase_add_test(tc, test_first_settlement_gives_no_resources);
	tcase_add_test(tc, test_second_settlement_gives_one_card_per_adjacent_hex);
	tcase_add_test(tc, test_desert_gives_no_starting_resource);
	tcase_add_test(tc, test_three_seat_game_rotates_over_three_seats);
	tcase_add_test(tc, test_fixed_start_equals_the_draft);
	tcase_add_test(tc, test_fixed_start_gives_resources_of_the_second_settlement);
	tcase_add_test(tc, test_preset_opening_second_settlements_touch_three_producing_hexes);
	tcase_add_test(tc, test_options_are_checked);
	tcase_add_test(tc, test_create_refuses_invalid_options_with_no_events);
	tcase_add_test(tc, test_random_board_game_is_valid_with_the_robber_on_the_desert);
	tcase_add_test(tc, test_same_seed_creates_the_same_game);
	tcase_add_test(tc, test_command_before_creation_is_refused);
	tcase_add_test(tc, test_seat_out_of_range_is_refused);
	suite_add_tcase(suite, tc);
	return suite;
}
