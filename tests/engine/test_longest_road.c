/*
 * test_longest_road.c - RULES.md section 8, Longest Road: the length of a seat's longest
 * simple route (longest_road_length) and who holds the card (the LONGEST_ROAD_CHANGED
 * events rules_decide() emits).
 *
 * All positions start from the standard 3-seat beginner draft:
 *   seat 0: settlements 44, 43; roads 40-44, 38-43
 *   seat 1: settlements 28, 13; roads 28-34, 13-18
 *   seat 2: settlements 31, 12; roads 31-36, 7-12
 * Shapes for the length tests are drawn by seat 2 around hexes 2 (nodes 2 6 10 14 9 5) and
 * 6 (10 15 20 25 19 14), where nobody has a building. The award tests use three routes that
 * share no intersection:
 *   seat 0: 38-43-39-44-40-35-30  (38-43 and 44-40 from the draft)
 *   seat 1: 13-18-23-29-34-28-33  (13-18 and 34-28 from the draft)
 *   seat 2: 36-31-25-20-15-10-6   (36-31 from the draft)
 * Seat 2's route is broken by a settlement on 20 (3 + 3 left) or on 10 (5 + 1 left).
 */
#include "engine/longest_road.h"
#include "engine/apply.h"
#include "engine/rng.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start(struct game *game)
{
	support_new_game(game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_clear_hands(game);
}

static int length(const struct game *game, int seat)
{
	int computed = longest_road_length(game, seat);
	ck_assert_int_eq(game->players[seat].road_length, computed); /* the cache agrees */
	return computed;
}

static void build_road(struct game *game, int seat, int a, int b, struct event_list *events)
{
	support_set_hand(game, seat, 1, 1, 0, 0, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(a, b));
	support_ok(game, seat, &c, events);
}

static void build_settlement(struct game *game, int seat, int node, struct event_list *events)
{
	support_set_hand(game, seat, 1, 1, 1, 1, 0);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, node);
	support_ok(game, seat, &c, events);
}

/* End turns (rolling 2s) until `seat` is active, after its roll. */
static void pass_to(struct game *game, int seat)
{
	do {
		struct command c = support_command(COMMAND_END_TURN);
		support_ok(game, game->turn_seat, &c, NULL);
		support_roll(game, 1, 1);
	} while (game->turn_seat != seat);
}

static void check_changed(const struct event_list *events, int holder, int previous)
{
	ck_assert_int_eq(support_count_events(events, EVENT_LONGEST_ROAD_CHANGED), 1);
	const struct event *changed = support_find_event(events, EVENT_LONGEST_ROAD_CHANGED);
	ck_assert_int_eq(changed->seat, holder);
	ck_assert_int_eq(changed->other, previous);
}

/* ---- lengths ---- */

START_TEST(test_separate_roads_do_not_add_up)
{
	struct game game;
	start(&game);
	ck_assert_int_eq(length(&game, 2), 1);
	support_road_path(&game, 2, 2, 6, 10, -1);
	ck_assert_int_eq(length(&game, 2), 2);
}
END_TEST

START_TEST(test_branches_count_only_the_longest_branch)
{
	struct game game;
	start(&game);
	support_road_path(&game, 2, 2, 6, 10, 15, 20, 26, -1);
	support_road_path(&game, 2, 10, 14, 19, -1);
	/* Seven roads in a Y: the longest route is 5 (2..26 or 19..26), never 7. */
	ck_assert_int_eq(length(&game, 2), 5);
}
END_TEST

START_TEST(test_loop_of_six_counts_six)
{
	struct game game;
	start(&game);
	support_road_path(&game, 2, 2, 6, 10, 14, 9, 5, 2, -1);
	ck_assert_int_eq(length(&game, 2), 6);
}
END_TEST

START_TEST(test_figure_eight_counts_every_road)
{
	struct game game;
	start(&game);
	/* Two rings sharing the side 10-14: a route can run over all 11 roads once each. */
	support_road_path(&game, 2, 2, 6, 10, 14, 9, 5, 2, -1);
	support_road_path(&game, 2, 10, 15, 20, 25, 19, 14, -1);
	ck_assert_int_eq(length(&game, 2), 11);
}
END_TEST

START_TEST(test_loop_with_a_spur)
{
	struct game game;
	start(&game);
	support_road_path(&game, 2, 2, 6, 10, 14, 9, 5, 2, -1);
	support_road_path(&game, 2, 10, 15, 20, -1);
	/* From 20 in along the spur and once around the ring: 2 + 6. */
	ck_assert_int_eq(length(&game, 2), 8);
}
END_TEST

START_TEST(test_opponent_settlement_in_the_middle_breaks_the_route)
{
	struct game game;
	start(&game);
	support_road_path(&game, 2, 2, 6, 10, 15, 20, 26, -1);
	ck_assert_int_eq(length(&game, 2), 5);
	support_place_settlement(&game, 0, 10);
	ck_assert_int_eq(length(&game, 2), 3);
}
END_TEST

START_TEST(test_opponent_settlement_at_a_junction_breaks_every_branch)
{
	struct game game;
	start(&game);
	support_road_path(&game, 2, 2, 6, 10, 15, 20, 26, -1);
	support_road_path(&game, 2, 10, 14, 19, -1);
	support_place_settlement(&game, 1, 10);
	/* 2-6-10 (2), 10-15-20-26 (3), 10-14-19 (2). */
	ck_assert_int_eq(length(&game, 2), 3);
}
END_TEST

START_TEST(test_own_settlement_does_not_break_the_route)
{
	struct game game;
	start(&game);
	support_road_path(&game, 2, 2, 6, 10, 15, 20, 26, -1);
	support_place_settlement(&game, 2, 10);
	ck_assert_int_eq(length(&game, 2), 5);
}
END_TEST

START_TEST(test_route_ends_at_but_never_passes_an_opponent_settlement)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 10);
	support_road_path(&game, 2, 6, 10, 15, 20, 26, -1);
	/* Through 10 it would be 4; without the road into 10 it would be 2. */
	ck_assert_int_eq(length(&game, 2), 3);
}
END_TEST

START_TEST(test_opponent_roads_do_not_break_a_route)
{
	struct game game;
	start(&game);
	support_road_path(&game, 2, 2, 6, 10, 15, 20, 26, -1);
	support_road_path(&game, 0, 14, 10, -1);
	ck_assert_int_eq(length(&game, 2), 5);
}
END_TEST

/* ---- who holds the card ---- */

START_TEST(test_first_to_five_takes_the_card_four_does_not)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	struct event_list events;
	build_road(&game, 0, 43, 39, &events);
	build_road(&game, 0, 39, 44, &events);
	ck_assert_int_eq(length(&game, 0), 4);
	ck_assert_int_eq(support_count_events(&events, EVENT_LONGEST_ROAD_CHANGED), 0);
	ck_assert_int_eq(game.longest_road, GAME_NO_SEAT);
	build_road(&game, 0, 40, 35, &events);
	ck_assert_int_eq(length(&game, 0), 5);
	check_changed(&events, 0, GAME_NO_SEAT);
	ck_assert_int_eq(game.longest_road, 0);
	ck_assert_int_eq(game_public_points(&game, 0), 4);
}
END_TEST

START_TEST(test_tie_keeps_the_holder_and_strictly_longer_takes_it)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	build_road(&game, 0, 43, 39, NULL);
	build_road(&game, 0, 39, 44, NULL);
	build_road(&game, 0, 40, 35, NULL);
	ck_assert_int_eq(game.longest_road, 0);
	support_road_path(&game, 1, 18, 23, 29, -1);
	pass_to(&game, 1);
	struct event_list events;
	build_road(&game, 1, 29, 34, &events);
	ck_assert_int_eq(length(&game, 1), 5);
	ck_assert_int_eq(support_count_events(&events, EVENT_LONGEST_ROAD_CHANGED), 0);
	ck_assert_int_eq(game.longest_road, 0);
	build_road(&game, 1, 28, 33, &events);
	ck_assert_int_eq(length(&game, 1), 6);
	check_changed(&events, 1, 0);
	ck_assert_int_eq(game_public_points(&game, 0), 2);
	ck_assert_int_eq(game_public_points(&game, 1), 4);
}
END_TEST

/* Seat 1 at 5 (it takes the card first), seat 0 at `seat0_length` (4 or 5), then seat 2 at 6
 * takes it. Seat 0, active and rolled, holds a road at 26-20 and one at 14-10, ready to
 * settle on seat 2's route. */
static void set_up_holder_seat_2(struct game *game, int seat0_length)
{
	start(game);
	support_road_path(game, 1, 18, 23, 29, 34, -1);
	support_road_path(game, 0, 43, 39, 44, -1);
	if (seat0_length == 5)
		support_road_path(game, 0, 40, 35, -1);
	support_road_path(game, 2, 31, 25, 20, 15, 10, 6, -1);
	support_road_path(game, 0, 26, 20, -1);
	support_road_path(game, 0, 14, 10, -1);
	ck_assert_int_eq(length(game, 0), seat0_length);
	ck_assert_int_eq(length(game, 1), 5);
	ck_assert_int_eq(length(game, 2), 6);
	ck_assert_int_eq(game->longest_road, 2);
	support_roll(game, 1, 1);
}

START_TEST(test_break_hands_the_card_to_the_one_longest_other_player)
{
	struct game game;
	set_up_holder_seat_2(&game, 4);
	struct event_list events;
	build_settlement(&game, 0, 20, &events);
	ck_assert_int_eq(length(&game, 2), 3);
	/* Neither the breaker nor the old holder: seat 1's 5 is the one strictly longest. */
	check_changed(&events, 1, 2);
	ck_assert_int_eq(game.longest_road, 1);
	ck_assert_int_eq(game_public_points(&game, 1), 4);
	ck_assert_int_eq(game_public_points(&game, 2), 2);
}
END_TEST

START_TEST(test_break_leaving_a_tie_sets_the_card_aside)
{
	struct game game;
	set_up_holder_seat_2(&game, 5);
	struct event_list events;
	build_settlement(&game, 0, 20, &events);
	check_changed(&events, GAME_NO_SEAT, 2);
	ck_assert_int_eq(game.longest_road, GAME_NO_SEAT);
	for (int s = 0; s < 3; s++)
		ck_assert_int_eq(game_public_points(&game, s), s == 0 ? 3 : 2);
}
END_TEST

START_TEST(test_set_aside_card_goes_to_the_next_strictly_longest)
{
	struct game game;
	set_up_holder_seat_2(&game, 5);
	build_settlement(&game, 0, 20, NULL);
	ck_assert_int_eq(game.longest_road, GAME_NO_SEAT);
	/* Still tied at 5 after a road elsewhere: nobody takes it. */
	struct event_list events;
	build_road(&game, 0, 43, 47, &events);
	ck_assert_int_eq(support_count_events(&events, EVENT_LONGEST_ROAD_CHANGED), 0);
	ck_assert_int_eq(game.longest_road, GAME_NO_SEAT);
	build_road(&game, 0, 35, 30, &events);
	ck_assert_int_eq(length(&game, 0), 6);
	check_changed(&events, 0, GAME_NO_SEAT);
	ck_assert_int_eq(game.longest_road, 0);
}
END_TEST

START_TEST(test_holder_broken_but_still_tied_for_longest_keeps_the_card)
{
	struct game game;
	set_up_holder_seat_2(&game, 4);
	struct event_list events;
	build_settlement(&game, 0, 10, &events);
	ck_assert_int_eq(length(&game, 2), 5); /* 36-31-25-20-15-10, ending at the new settlement */
	ck_assert_int_eq(support_count_events(&events, EVENT_LONGEST_ROAD_CHANGED), 0);
	ck_assert_int_eq(game.longest_road, 2);
}
END_TEST

START_TEST(test_holder_broken_below_five_with_no_one_at_five_sets_the_card_aside)
{
	struct game game;
	start(&game);
	support_road_path(&game, 1, 18, 23, 29, -1);
	support_road_path(&game, 2, 31, 25, 20, 15, 10, 6, -1);
	support_road_path(&game, 0, 26, 20, -1);
	ck_assert_int_eq(game.longest_road, 2);
	support_roll(&game, 1, 1);
	struct event_list events;
	build_settlement(&game, 0, 20, &events);
	check_changed(&events, GAME_NO_SEAT, 2);
}
END_TEST

START_TEST(test_free_roads_of_road_building_can_take_the_card)
{
	struct game game;
	start(&game);
	support_road_path(&game, 0, 43, 39, 44, -1);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	struct command c = support_command(COMMAND_PLAY_ROAD_BUILDING);
	c.edge_count = 2;
	c.edges[0] = (int8_t)support_edge_between(40, 35);
	c.edges[1] = (int8_t)support_edge_between(35, 30);
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(length(&game, 0), 6);
	check_changed(&events, 0, GAME_NO_SEAT);
}
END_TEST

/* ---- against an exhaustive search, on random road networks ---- */

/* The plain definition, searched from every node the roads touch: what the engine's
 * pruned search must agree with. */
static int trail_from(const struct game *game, int seat, int node, struct board_edge_set *used)
{
	int best = 0;
	for (int k = 0; k < 3; k++) {
		int edge = board_node_edges[node][k];
		if (edge < 0 || game->edge_owner[edge] != seat + 1 || board_edge_set_has(used, edge))
			continue;
		int other = board_edge_nodes[edge][0] == node ? board_edge_nodes[edge][1] : board_edge_nodes[edge][0];
		int owner = game->node_owner[other];
		board_edge_set_add(used, edge);
		int further = owner == 0 || owner == seat + 1 ? trail_from(game, seat, other, used) : 0;
		used->word[edge >> 6] &= ~(UINT64_C(1) << (edge & 63));
		if (1 + further > best)
			best = 1 + further;
	}
	return best;
}

static int exhaustive_length(const struct game *game, int seat)
{
	int best = 0;
	for (int node = 0; node < BOARD_NODES; node++) {
		if (!(game->players[seat].road_nodes >> node & 1u))
			continue;
		struct board_edge_set used = {{0, 0}};
		int length_here = trail_from(game, seat, node, &used);
		if (length_here > best)
			best = length_here;
	}
	return best;
}

static void place(struct game *game, enum event_type type, int seat, int where)
{
	struct event event;
	event_init(&event, type);
	event.seat = (int8_t)seat;
	event.free = 1;
	if (type == EVENT_ROAD_BUILT)
		event.edge = (int8_t)where;
	else
		event.node = (int8_t)where;
	apply_event(game, &event);
}

/* Up to three opponents' settlements on free nodes. */
static void drop_settlements(struct game *game, struct rng *rng)
{
	int settlements = (int)rng_below(rng, 4);
	for (int k = 0; k < settlements; k++) {
		int node = (int)rng_below(rng, BOARD_NODES);
		if (!game->node_owner[node])
			place(game, EVENT_SETTLEMENT_BUILT, 1 + (int)rng_below(rng, 2), node);
	}
}

/* Up to 15 roads grown from one another (a few apart), half of the networks from a ringed
 * hex so that loops close, and opponents' settlements dropped on some of their nodes,
 * before or after the roads. */
START_TEST(test_random_networks_match_the_exhaustive_search)
{
	struct rng rng;
	rng_init(&rng, 2024, 24);
	int with_loops = 0, blocked = 0;
	for (int trial = 0; trial < 3000; trial++) {
		struct game game;
		support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
		int roads = 1 + (int)rng_below(&rng, GAME_ROADS), built = 0;
		/* Half the time opponents settle first, so roads are built past their buildings. */
		int settle_first = (int)rng_below(&rng, 2);
		if (settle_first)
			drop_settlements(&game, &rng);
		if (rng_below(&rng, 2) == 0) { /* a hex ringed: a loop, and more may close */
			int hex = (int)rng_below(&rng, BOARD_HEXES);
			for (int k = 0; k < 6 && built < roads; k++, built++)
				place(&game, EVENT_ROAD_BUILT, 0, board_hex_edges[hex][k]);
		}
		for (; built < roads; built++) {
			int edge = -1;
			for (int attempt = 0; attempt < 50 && edge < 0; attempt++) {
				uint64_t nodes = game.players[0].road_nodes;
				int candidate = (int)rng_below(&rng, BOARD_EDGES);
				if (nodes && rng_below(&rng, 8) != 0) { /* mostly next to a road already built */
					int pick = (int)rng_below(&rng, (uint32_t)__builtin_popcountll(nodes));
					while (pick--)
						nodes &= nodes - 1;
					candidate = board_node_edges[__builtin_ctzll(nodes)][rng_below(&rng, 3)];
				}
				if (candidate >= 0 && !game.edge_owner[candidate])
					edge = candidate;
			}
			if (edge >= 0) {
				place(&game, EVENT_ROAD_BUILT, 0, edge);
				/* The length kept after each road (longest_road_after_road()) is the
				 * whole search's. */
				ck_assert_int_eq(game.players[0].road_length, longest_road_length(&game, 0));
			}
		}
		if (!settle_first)
			drop_settlements(&game, &rng);
		uint64_t opponents = game.occupied_nodes & ~game.players[0].buildings;
		blocked += (game.players[0].road_nodes & opponents) != 0;
		/* A loop: a connected part with as many roads as nodes. */
		int edges_owned = 0;
		for (int e = 0; e < BOARD_EDGES; e++)
			edges_owned += game.edge_owner[e] == 1;
		with_loops += edges_owned >= __builtin_popcountll(game.players[0].road_nodes);
		int expected = exhaustive_length(&game, 0);
		ck_assert_int_eq(game.players[0].road_length, expected);
		ck_assert_msg(longest_road_length(&game, 0) == expected, "trial %d: %d roads, engine %d, exhaustive %d",
			      trial, edges_owned, longest_road_length(&game, 0), expected);
	}
	ck_assert_int_gt(with_loops, 300);
	ck_assert_int_gt(blocked, 300);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("longest_road");
	TCase *tc = tcase_create("longest_road");
	tcase_add_test(tc, test_separate_roads_do_not_add_up);
	tcase_add_test(tc, test_branches_count_only_the_longest_branch);
	tcase_add_test(tc, test_loop_of_six_counts_six);
	tcase_add_test(tc, test_figure_eight_counts_every_road);
	tcase_add_test(tc, test_loop_with_a_spur);
	tcase_add_test(tc, test_opponent_settlement_in_the_middle_breaks_the_route);
	tcase_add_test(tc, test_opponent_settlement_at_a_junction_breaks_every_branch);
	tcase_add_test(tc, test_own_settlement_does_not_break_the_route);
	tcase_add_test(tc, test_route_ends_at_but_never_passes_an_opponent_settlement);
	tcase_add_test(tc, test_opponent_roads_do_not_break_a_route);
	tcase_add_test(tc, test_first_to_five_takes_the_card_four_does_not);
	tcase_add_test(tc, test_tie_keeps_the_holder_and_strictly_longer_takes_it);
	tcase_add_test(tc, test_break_hands_the_card_to_the_one_longest_other_player);
	tcase_add_test(tc, test_break_leaving_a_tie_sets_the_card_aside);
	tcase_add_test(tc, test_set_aside_card_goes_to_the_next_strictly_longest);
	tcase_add_test(tc, test_holder_broken_but_still_tied_for_longest_keeps_the_card);
	tcase_add_test(tc, test_holder_broken_below_five_with_no_one_at_five_sets_the_card_aside);
	tcase_add_test(tc, test_free_roads_of_road_building_can_take_the_card);
	tcase_add_test(tc, test_random_networks_match_the_exhaustive_search);
	suite_add_tcase(suite, tc);
	return suite;
}
