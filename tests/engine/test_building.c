/*
 * test_building.c - RULES.md section 4: costs paid to the bank, where roads, settlements
 * and cities may go, and the piece limits (15 roads, 5 settlements, 4 cities).
 *
 * After the standard 4-seat draft seat 0 owns settlements 44 and 43 with roads 40-44 and
 * 38-43; seat 3 owns 45 (next to 40). Each test rolls a 2 first (pasture 2 pays seat 1 only),
 * so seat 0's hand is exactly what the test gives it.
 */
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_clear_hands(game);
	support_roll(game, 1, 1);
}

static void check_bank_full(const struct game *game)
{
	for (int r = 0; r < RESOURCE_COUNT; r++)
		ck_assert_int_eq(game->bank[r] + game->players[1].resources[r], 19);
}

START_TEST(test_road_costs_brick_and_lumber)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 48));
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_ROAD_BUILT);
	ck_assert_int_eq(events.events[0].free, 0);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 0);
	check_bank_full(&game);
	ck_assert_int_eq(game.players[0].roads_left, 12);
	ck_assert_int_eq(game.edge_owner[support_edge_between(44, 48)], 1);
}
END_TEST

START_TEST(test_settlement_costs_brick_lumber_wool_grain)
{
	struct game game;
	start(&game);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_set_hand(&game, 0, 1, 1, 1, 1, 1);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 1);
	ck_assert_int_eq(game.bank[RESOURCE_BRICK] + game.players[1].resources[RESOURCE_BRICK], 19);
	ck_assert_int_eq(game.players[0].settlements_left, 2);
	ck_assert_int_eq(game_public_points(&game, 0), 3);
	ck_assert_int_eq(game.node_owner[35], 1);
	ck_assert_int_eq(game.node_building[35], BUILDING_SETTLEMENT);
}
END_TEST

START_TEST(test_city_costs_three_ore_two_grain_and_returns_the_settlement)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 0, 0, 0, 2, 3);
	struct command c = support_build(COMMAND_BUILD_CITY, 44);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 0);
	check_bank_full(&game);
	ck_assert_int_eq(game.node_building[44], BUILDING_CITY);
	ck_assert_int_eq(game.players[0].cities_left, 3);
	ck_assert_int_eq(game.players[0].settlements_left, 4);
	ck_assert_int_eq(game_public_points(&game, 0), 3);
}
END_TEST

START_TEST(test_insufficient_resources_are_refused)
{
	struct game game;
	start(&game);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_set_hand(&game, 0, 1, 0, 1, 1, 2);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 48));
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
	c = support_build(COMMAND_BUILD_CITY, 44);
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
	support_set_hand(&game, 0, 0, 0, 1, 0, 1);
	c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
}
END_TEST

START_TEST(test_road_must_connect_to_own_road_or_building)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 3, 3, 0, 0, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(0, 3));
	support_refused(&game, 0, &c, ERROR_NOT_CONNECTED);
	/* Touching only an opponent's road is no connection. */
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(41, 46));
	support_refused(&game, 0, &c, ERROR_NOT_CONNECTED);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(40, 35)); /* from the end of 40-44 */
	support_ok(&game, 0, &c, NULL);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(35, 29));
	support_ok(&game, 0, &c, NULL);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(43, 47)); /* from settlement 43 */
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_road_on_a_taken_path_is_refused)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(40, 44));
	support_refused(&game, 0, &c, ERROR_EDGE_OCCUPIED);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(41, 45)); /* seat 3's */
	support_refused(&game, 0, &c, ERROR_EDGE_OCCUPIED);
	c = support_build(COMMAND_BUILD_ROAD, 72);
	support_refused(&game, 0, &c, ERROR_INVALID_EDGE);
	c = support_build(COMMAND_BUILD_ROAD, -1);
	support_refused(&game, 0, &c, ERROR_INVALID_EDGE);
}
END_TEST

START_TEST(test_road_may_not_connect_through_an_opponent_settlement)
{
	struct game game;
	start(&game);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_place_settlement(&game, 1, 35);
	support_set_hand(&game, 0, 2, 2, 0, 0, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(35, 29));
	support_refused(&game, 0, &c, ERROR_ROAD_BLOCKED);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(35, 30));
	support_refused(&game, 0, &c, ERROR_ROAD_BLOCKED);
	/* A road may end at an opponent's settlement: 40-45 runs up to seat 3's 45. */
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(40, 45));
	support_ok(&game, 0, &c, NULL);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(45, 49));
	support_refused(&game, 0, &c, ERROR_ROAD_BLOCKED);
}
END_TEST

START_TEST(test_road_may_not_connect_through_an_opponent_city)
{
	struct game game;
	start(&game);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_place_settlement(&game, 1, 35);
	support_place_city(&game, 1, 35);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(35, 29));
	support_refused(&game, 0, &c, ERROR_ROAD_BLOCKED);
}
END_TEST

START_TEST(test_settlement_must_touch_own_road)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 2);
	support_refused(&game, 0, &c, ERROR_NOT_CONNECTED);
	support_place_road(&game, 1, support_edge_between(40, 35)); /* an opponent's road there */
	c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_refused(&game, 0, &c, ERROR_NOT_CONNECTED);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 54);
	support_refused(&game, 0, &c, ERROR_INVALID_NODE);
}
END_TEST

START_TEST(test_settlement_obeys_the_distance_rule)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	support_place_road(&game, 0, support_edge_between(44, 48));
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 48); /* next to seat 0's own 44 */
	support_refused(&game, 0, &c, ERROR_DISTANCE_RULE);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 40);
	support_refused(&game, 0, &c, ERROR_DISTANCE_RULE);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_place_settlement(&game, 2, 30); /* next to 35 */
	c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_refused(&game, 0, &c, ERROR_DISTANCE_RULE);
	support_place_road(&game, 0, support_edge_between(48, 52));
	c = support_build(COMMAND_BUILD_SETTLEMENT, 52);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_settlement_on_an_occupied_node_is_refused)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	support_place_road(&game, 0, support_edge_between(40, 45));
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 44);
	support_refused(&game, 0, &c, ERROR_NODE_OCCUPIED);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 45);
	support_refused(&game, 0, &c, ERROR_NODE_OCCUPIED);
}
END_TEST

START_TEST(test_city_only_on_own_settlement)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 0, 0, 0, 4, 6);
	struct command c = support_build(COMMAND_BUILD_CITY, 45); /* seat 3's */
	support_refused(&game, 0, &c, ERROR_NOT_YOUR_SETTLEMENT);
	c = support_build(COMMAND_BUILD_CITY, 35); /* empty */
	support_refused(&game, 0, &c, ERROR_NOT_YOUR_SETTLEMENT);
	c = support_build(COMMAND_BUILD_CITY, 54);
	support_refused(&game, 0, &c, ERROR_INVALID_NODE);
	c = support_build(COMMAND_BUILD_CITY, 44);
	support_ok(&game, 0, &c, NULL);
	support_refused(&game, 0, &c, ERROR_NOT_YOUR_SETTLEMENT); /* already a city */
	support_place_city(&game, 3, 45);
	c = support_build(COMMAND_BUILD_CITY, 45); /* seat 3's city */
	support_refused(&game, 0, &c, ERROR_NOT_YOUR_SETTLEMENT);
}
END_TEST

START_TEST(test_no_roads_left_after_fifteen)
{
	struct game game;
	start(&game);
	support_road_path(&game, 0, 0, 3, 7, 11, 16, 21, 27, 33, -1);
	support_road_path(&game, 0, 1, 5, 2, 6, 10, 15, 20, -1);
	ck_assert_int_eq(game.players[0].roads_left, 0);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 48));
	support_refused(&game, 0, &c, ERROR_NO_ROADS_LEFT);
}
END_TEST

START_TEST(test_no_settlements_left_after_five)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 0);
	support_place_settlement(&game, 0, 2);
	support_place_settlement(&game, 0, 21);
	ck_assert_int_eq(game.players[0].settlements_left, 0);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_refused(&game, 0, &c, ERROR_NO_SETTLEMENTS_LEFT);
	/* A city puts a settlement back in the supply, and then it can be built. */
	support_set_hand(&game, 0, 1, 1, 1, 3, 3);
	c = support_build(COMMAND_BUILD_CITY, 0);
	support_ok(&game, 0, &c, NULL);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_no_cities_left_after_four)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 0);
	support_place_settlement(&game, 0, 2);
	support_place_settlement(&game, 0, 21);
	support_place_city(&game, 0, 44);
	support_place_city(&game, 0, 43);
	support_place_city(&game, 0, 0);
	support_place_city(&game, 0, 2);
	ck_assert_int_eq(game.players[0].cities_left, 0);
	ck_assert_int_eq(game_public_points(&game, 0), 9);
	support_set_hand(&game, 0, 0, 0, 0, 2, 3);
	struct command c = support_build(COMMAND_BUILD_CITY, 21);
	support_refused(&game, 0, &c, ERROR_NO_CITIES_LEFT);
}
END_TEST

START_TEST(test_coastal_paths_and_intersections_are_buildable)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 3, 3, 1, 1, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(43, 47));
	support_ok(&game, 0, &c, NULL);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(47, 51));
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(board_node_hexes[51][1], -1); /* 51 touches one hex: the coast */
	c = support_build(COMMAND_BUILD_SETTLEMENT, 51);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.node_owner[51], 1);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("building");
	TCase *tc = tcase_create("building");
	tcase_add_test(tc, test_road_costs_brick_and_lumber);
	tcase_add_test(tc, test_settlement_costs_brick_lumber_wool_grain);
	tcase_add_test(tc, test_city_costs_three_ore_two_grain_and_returns_the_settlement);
	tcase_add_test(tc, test_insufficient_resources_are_refused);
	tcase_add_test(tc, test_road_must_connect_to_own_road_or_building);
	tcase_add_test(tc, test_road_on_a_taken_path_is_refused);
	tcase_add_test(tc, test_road_may_not_connect_through_an_opponent_settlement);
	tcase_add_test(tc, test_road_may_not_connect_through_an_opponent_city);
	tcase_add_test(tc, test_settlement_must_touch_own_road);
	tcase_add_test(tc, test_settlement_obeys_the_distance_rule);
	tcase_add_test(tc, test_settlement_on_an_occupied_node_is_refused);
	tcase_add_test(tc, test_city_only_on_own_settlement);
	tcase_add_test(tc, test_no_roads_left_after_fifteen);
	tcase_add_test(tc, test_no_settlements_left_after_five);
	tcase_add_test(tc, test_no_cities_left_after_four);
	tcase_add_test(tc, test_coastal_paths_and_intersections_are_buildable);
	suite_add_tcase(suite, tc);
	return suite;
}
