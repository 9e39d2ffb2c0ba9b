/*
 * test_common_mistakes.c - RULES.md section 10: each common mistake from seed 001 pinned by
 * a test that fails if the engine makes it. The rule-by-rule suites cover the same ground
 * in more detail; here each mistake is stated once, by name.
 *
 * Standard 4-seat draft (the preset opening's nodes) unless said otherwise: seat 0 on 43
 * (forest 8, hills 5) and then 44 (mountains 3, hills 5, fields 6), seat 1 on 28 and 13,
 * seat 2 on 31 and 12, seat 3 on 14 and 45.
 */
#include "engine/placement.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_clear_hands(game);
}

START_TEST(test_mistake_starting_resources_from_both_settlements)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	/* Only 44 pays seat 0 (ore, brick, grain); 43 would add lumber and brick. */
	support_assert_hand(&game, 0, 1, 0, 0, 1, 1);
	/* Every seat holds exactly one card per hex around its second settlement. */
	static const int second[4] = {44, 13, 12, 45};
	for (int s = 0; s < 4; s++) {
		int hexes = 0;
		for (int k = 0; k < 3; k++)
			hexes += board_node_hexes[second[s]][k] >= 0;
		ck_assert_int_eq(game_resource_count(&game, s), hexes);
	}
}
END_TEST

START_TEST(test_mistake_only_the_active_player_produces)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);	/* 2: pasture 2, seat 1's 13 */
	support_next_turn(&game, 4, 4); /* seat 1 rolls 8: forest 8 pays seats 0 and 1, mountains 8 seat 2 */
	ck_assert_int_eq(game.turn_seat, 1);
	ck_assert_int_eq(game.players[0].resources[RESOURCE_LUMBER], 1);
	ck_assert_int_eq(game.players[2].resources[RESOURCE_ORE], 1);
	ck_assert_int_eq(game.players[1].resources[RESOURCE_LUMBER], 1);
}
END_TEST

START_TEST(test_mistake_discarding_at_exactly_seven_cards)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 1, 1, 1, 1, 3);
	support_set_hand(&game, 2, 2, 2, 2, 2, 0);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.players[1].discard_owed, 0);
	ck_assert_int_eq(game.players[2].discard_owed, 4);
	struct command c = support_command(COMMAND_DISCARD);
	c.resources[RESOURCE_ORE] = 3;
	support_refused(&game, 1, &c, ERROR_NO_DISCARD_OWED);
}
END_TEST

START_TEST(test_mistake_counting_development_cards_toward_a_discard)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 1, 1, 1, 1, 3);
	support_give_development(&game, 1, DEVELOPMENT_KNIGHT, 4);
	support_give_development(&game, 1, DEVELOPMENT_VICTORY_POINT, 1);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.players[1].discard_owed, 0);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
}
END_TEST

START_TEST(test_mistake_discarding_after_a_knight)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 2, 2, 2, 2, 2);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	struct event_list events;
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 12; /* forest 8: seat 1's 28 */
	c.victim = 1;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(support_count_events(&events, EVENT_DISCARDED), 0);
	ck_assert_int_eq(game.players[1].discard_owed, 0);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	ck_assert_int_eq(game_resource_count(&game, 1), 9);
}
END_TEST

START_TEST(test_mistake_building_next_to_another_building)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_place_settlement(&game, 2, 30); /* an opponent next to 35 */
	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_refused(&game, 0, &c, ERROR_DISTANCE_RULE);
	support_place_road(&game, 0, support_edge_between(44, 48));
	c = support_build(COMMAND_BUILD_SETTLEMENT, 48); /* next to its own 44 */
	support_refused(&game, 0, &c, ERROR_DISTANCE_RULE);
}
END_TEST

START_TEST(test_mistake_extending_a_road_through_an_opponent_settlement)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_place_settlement(&game, 1, 35);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(35, 29));
	support_refused(&game, 0, &c, ERROR_ROAD_BLOCKED);
	struct board_edge_set legal = placement_road_edges(&game, 0);
	ck_assert(!board_edge_set_has(&legal, support_edge_between(35, 29)));
	ck_assert(!board_edge_set_has(&legal, support_edge_between(35, 30)));
}
END_TEST

START_TEST(test_mistake_trading_between_two_inactive_players)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	support_set_hand(&game, 2, 1, 0, 0, 0, 0);
	struct command c = support_command(COMMAND_OFFER_TRADE);
	c.give[RESOURCE_WOOL] = 1;
	c.want[RESOURCE_BRICK] = 1;
	c.to = 1 << 2;
	support_refused(&game, 1, &c, ERROR_INACTIVE_PLAYERS_CANNOT_TRADE);
	/* Seat 1 cannot confirm an exchange either: completing is the active player's move. */
	c.to = 0;
	struct event_list events;
	support_ok(&game, 1, &c, &events); /* a counter-offer to seat 0 is fine */
	ck_assert_int_eq(events.events[0].to, 1 << 0);
	struct command confirm = support_command(COMMAND_CONFIRM_TRADE);
	confirm.trade = events.events[0].trade;
	confirm.with = 2;
	support_refused(&game, 1, &confirm, ERROR_NOT_YOUR_TURN);
	struct command accept = support_command(COMMAND_ACCEPT_TRADE);
	accept.trade = events.events[0].trade;
	support_refused(&game, 2, &accept, ERROR_TRADE_NOT_ADDRESSED);
}
END_TEST

START_TEST(test_mistake_using_a_harbor_reached_only_by_a_road)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	support_road_path(&game, 0, 43, 47, 51, -1); /* generic 3:1 harbor on 47 and 51 */
	support_set_hand(&game, 0, 3, 0, 0, 0, 0);
	struct command c = support_command(COMMAND_MARITIME_TRADE);
	c.give[RESOURCE_BRICK] = 3;
	c.want[RESOURCE_ORE] = 1;
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	support_place_settlement(&game, 0, 51);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_mistake_playing_a_newly_bought_knight)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	support_stack_deck(&game, DEVELOPMENT_KNIGHT);
	support_set_hand(&game, 0, 0, 0, 1, 1, 1);
	struct command c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.players[0].development_cards[DEVELOPMENT_KNIGHT], 1);
	c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 0;
	c.victim = -1;
	support_refused(&game, 0, &c, ERROR_DEV_CARD_BOUGHT_THIS_TURN);
}
END_TEST

START_TEST(test_mistake_playing_two_development_cards_in_one_turn)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 2);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 0;
	support_ok(&game, 0, &c, NULL);
	support_roll(&game, 1, 1);
	c = support_command(COMMAND_PLAY_MONOPOLY);
	c.resource = RESOURCE_WOOL;
	support_refused(&game, 0, &c, ERROR_DEV_CARD_ALREADY_PLAYED);
	c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 9;
	support_refused(&game, 0, &c, ERROR_DEV_CARD_ALREADY_PLAYED);
}
END_TEST

START_TEST(test_mistake_counting_a_city_as_three_points)
{
	struct game game;
	start(&game);
	/* 2 settlements + 2 cities + 3 settlements: 2 * 2 + 3 = 7 ... then one more city. */
	support_place_settlement(&game, 0, 0);
	support_place_settlement(&game, 0, 2);
	support_place_settlement(&game, 0, 21);
	support_place_city(&game, 0, 44);
	support_place_city(&game, 0, 43);
	support_place_city(&game, 0, 0);
	ck_assert_int_eq(game_public_points(&game, 0), 8);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 0, 0, 0, 2, 3);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_CITY, 2);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(game_public_points(&game, 0), 9);
	ck_assert_int_eq(support_count_events(&events, EVENT_GAME_WON), 0);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
}
END_TEST

START_TEST(test_mistake_winning_outside_ones_own_turn)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_clear_hands(&game);
	/* Seat 2 holds Longest Road (6); seat 1 has 5 and 8 points; seat 0 breaks seat 2 on 20. */
	support_road_path(&game, 1, 18, 23, 29, 34, -1);
	support_road_path(&game, 2, 31, 25, 20, 15, 10, 6, -1);
	support_road_path(&game, 0, 26, 20, -1);
	support_place_city(&game, 1, 13);
	support_place_city(&game, 1, 28);
	support_give_development(&game, 1, DEVELOPMENT_VICTORY_POINT, 4);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 20);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(game_total_points(&game, 1), 10);
	ck_assert_int_eq(support_count_events(&events, EVENT_GAME_WON), 0);
	ck_assert_int_eq(game.winner, GAME_NO_SEAT);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
	c = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &c, &events);
	const struct event *won = support_find_event(&events, EVENT_GAME_WON);
	ck_assert_ptr_nonnull(won);
	ck_assert_int_eq(won->seat, 1);
	ck_assert_int_eq(game.turn_seat, 1);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("common_mistakes");
	TCase *tc = tcase_create("common_mistakes");
	tcase_add_test(tc, test_mistake_starting_resources_from_both_settlements);
	tcase_add_test(tc, test_mistake_only_the_active_player_produces);
	tcase_add_test(tc, test_mistake_discarding_at_exactly_seven_cards);
	tcase_add_test(tc, test_mistake_counting_development_cards_toward_a_discard);
	tcase_add_test(tc, test_mistake_discarding_after_a_knight);
	tcase_add_test(tc, test_mistake_building_next_to_another_building);
	tcase_add_test(tc, test_mistake_extending_a_road_through_an_opponent_settlement);
	tcase_add_test(tc, test_mistake_trading_between_two_inactive_players);
	tcase_add_test(tc, test_mistake_using_a_harbor_reached_only_by_a_road);
	tcase_add_test(tc, test_mistake_playing_a_newly_bought_knight);
	tcase_add_test(tc, test_mistake_playing_two_development_cards_in_one_turn);
	tcase_add_test(tc, test_mistake_counting_a_city_as_three_points);
	tcase_add_test(tc, test_mistake_winning_outside_ones_own_turn);
	suite_add_tcase(suite, tc);
	return suite;
}
