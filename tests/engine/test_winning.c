/*
 * test_winning.c - RULES.md section 8: points (settlement 1, city 2, victory point card 1,
 * Longest Road 2, Largest Army 2) and the win: the active player wins the moment it has 10
 * or more on its own turn, hidden victory point cards included; a seat reaching 10 during
 * another's turn wins at the start of its own next turn; after the win nothing is accepted.
 *
 * Seat 0 is raised to a few points short of 10 by placing pieces directly: after the
 * standard draft it owns settlements 44 and 43; nodes 0, 2 and 21 are free and far from
 * everything.
 */
#include "engine/placement.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start(struct game *game, int seats)
{
	support_new_game(game, seats, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_clear_hands(game);
}

static const struct event *find_won(const struct event_list *events)
{
	ck_assert_int_le(support_count_events(events, EVENT_GAME_WON), 1);
	const struct event *won = support_find_event(events, EVENT_GAME_WON);
	if (won)
		ck_assert_ptr_eq(won, &events->events[events->count - 1]); /* the last word */
	return won;
}

static void check_won(const struct game *game, const struct event_list *events, int seat, int points, int cards)
{
	const struct event *won = find_won(events);
	ck_assert_ptr_nonnull(won);
	ck_assert_int_eq(won->seat, seat);
	ck_assert_int_eq(won->points, points);
	ck_assert_int_eq(won->victory_point_cards, cards);
	ck_assert_int_eq(game->phase, GAME_PHASE_FINISHED);
	ck_assert_int_eq(game->winner, seat);
}

/* Seat 0 at 7 public points: cities on 44 and 43, settlements on 0, 2 and 21. Seat 0 has
 * three settlements on the board and three in supply. */
static void seat_0_at_seven(struct game *game)
{
	support_place_settlement(game, 0, 0);
	support_place_settlement(game, 0, 2);
	support_place_settlement(game, 0, 21);
	support_place_city(game, 0, 44);
	support_place_city(game, 0, 43);
	ck_assert_int_eq(game_public_points(game, 0), 7);
}

START_TEST(test_building_to_ten_on_own_turn_wins_at_once)
{
	struct game game;
	start(&game, 4);
	seat_0_at_seven(&game);
	support_place_city(&game, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 1);
	ck_assert_int_eq(game_total_points(&game, 0), 9);
	support_roll(&game, 1, 1);
	support_place_road(&game, 0, support_edge_between(40, 35));
	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_ok(&game, 0, &c, &events);
	check_won(&game, &events, 0, 10, 1);
}
END_TEST

START_TEST(test_buying_a_victory_point_card_to_ten_wins)
{
	struct game game;
	start(&game, 4);
	seat_0_at_seven(&game);
	support_place_city(&game, 0, 0);
	support_place_city(&game, 0, 2);
	ck_assert_int_eq(game_total_points(&game, 0), 9);
	support_roll(&game, 1, 1);
	support_stack_deck(&game, DEVELOPMENT_VICTORY_POINT);
	support_set_hand(&game, 0, 0, 0, 1, 1, 1);
	struct event_list events;
	struct command c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_ok(&game, 0, &c, &events);
	check_won(&game, &events, 0, 10, 1);
}
END_TEST

START_TEST(test_taking_longest_road_to_ten_wins)
{
	struct game game;
	start(&game, 4);
	support_place_settlement(&game, 0, 0);
	support_place_settlement(&game, 0, 2);
	support_place_city(&game, 0, 44);
	support_place_city(&game, 0, 43);
	support_place_city(&game, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 1);
	support_road_path(&game, 0, 43, 39, 44, -1); /* 38-43-39-44-40: 4 */
	ck_assert_int_eq(game_total_points(&game, 0), 8);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(40, 35));
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.count, 3);
	ck_assert_int_eq(events.events[0].type, EVENT_ROAD_BUILT);
	ck_assert_int_eq(events.events[1].type, EVENT_LONGEST_ROAD_CHANGED);
	check_won(&game, &events, 0, 10, 1);
}
END_TEST

/* Play a knight to the desert or to mountains 10, whichever the robber is not on. */
static void play_knight(struct game *game, int seat, struct event_list *events)
{
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = game->robber == 9 ? 0 : 9;
	uint8_t victims = placement_robber_victims(game, seat, c.hex);
	c.victim = victims ? (int8_t)__builtin_ctz(victims) : -1;
	support_ok(game, seat, &c, events);
}

static void pass_to(struct game *game, int seat)
{
	do {
		if (game->phase == GAME_PHASE_ROLL)
			support_roll(game, 1, 1);
		struct command c = support_command(COMMAND_END_TURN);
		support_ok(game, game->turn_seat, &c, NULL);
	} while (game->turn_seat != seat);
}

START_TEST(test_taking_largest_army_to_ten_wins)
{
	struct game game;
	start(&game, 4);
	support_place_settlement(&game, 0, 0);
	support_place_settlement(&game, 0, 2);
	support_place_city(&game, 0, 44);
	support_place_city(&game, 0, 43);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 2);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 3);
	ck_assert_int_eq(game_total_points(&game, 0), 8);
	struct event_list events;
	play_knight(&game, 0, &events);
	pass_to(&game, 0);
	play_knight(&game, 0, &events);
	ck_assert_ptr_null(find_won(&events));
	pass_to(&game, 0);
	play_knight(&game, 0, &events); /* before the roll: the win needs no roll */
	ck_assert_ptr_nonnull(support_find_event(&events, EVENT_LARGEST_ARMY_CHANGED));
	check_won(&game, &events, 0, 10, 2);
}
END_TEST

START_TEST(test_city_counts_two_points_not_three)
{
	struct game game;
	start(&game, 4);
	seat_0_at_seven(&game);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 1);
	ck_assert_int_eq(game_total_points(&game, 0), 8);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 0, 0, 0, 4, 6);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_CITY, 0);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(game_public_points(&game, 0), 8); /* 7 - 1 + 2 */
	ck_assert_int_eq(game_total_points(&game, 0), 9);
	ck_assert_ptr_null(find_won(&events));
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
	c = support_build(COMMAND_BUILD_CITY, 2);
	support_ok(&game, 0, &c, &events);
	check_won(&game, &events, 0, 10, 1);
}
END_TEST

START_TEST(test_hidden_victory_points_count_and_are_revealed)
{
	struct game game;
	start(&game, 4);
	seat_0_at_seven(&game);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 2);
	ck_assert_int_eq(game_public_points(&game, 0), 7);
	ck_assert_int_eq(game_total_points(&game, 0), 9);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 0, 0, 0, 2, 3);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_CITY, 0);
	support_ok(&game, 0, &c, &events);
	check_won(&game, &events, 0, 10, 2);
}
END_TEST

START_TEST(test_more_than_ten_at_once_reports_every_point)
{
	struct game game;
	start(&game, 4);
	support_place_settlement(&game, 0, 0);
	support_place_settlement(&game, 0, 2);
	support_place_city(&game, 0, 44);
	support_place_city(&game, 0, 43);
	support_place_city(&game, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 2);
	ck_assert_int_eq(game_total_points(&game, 0), 9);
	support_road_path(&game, 0, 43, 39, 44, -1);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	struct command c = support_command(COMMAND_PLAY_ROAD_BUILDING);
	c.edge_count = 2;
	c.edges[0] = (int8_t)support_edge_between(40, 35);
	c.edges[1] = (int8_t)support_edge_between(35, 30);
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	check_won(&game, &events, 0, 11, 2);
}
END_TEST

/* The 3-seat position of test_longest_road.c: seat 2 holds Longest Road with 6
 * (36-31-25-20-15-10-6), seat 1 has 5 (13-18-23-29-34-28), seat 0 has 4 and a road at 26-20,
 * ready to settle on 20 and break seat 2's route. Seat 1 is then raised to 8 points. */
START_TEST(test_reaching_ten_on_another_seats_turn_wins_at_the_start_of_ones_own)
{
	struct game game;
	start(&game, 3);
	support_road_path(&game, 1, 18, 23, 29, 34, -1);
	support_road_path(&game, 0, 43, 39, 44, -1);
	support_road_path(&game, 2, 31, 25, 20, 15, 10, 6, -1);
	support_road_path(&game, 0, 26, 20, -1);
	ck_assert_int_eq(game.longest_road, 2);
	support_place_city(&game, 1, 13);
	support_place_city(&game, 1, 28);
	support_give_development(&game, 1, DEVELOPMENT_VICTORY_POINT, 4);
	ck_assert_int_eq(game_total_points(&game, 1), 8);
	support_roll(&game, 1, 1);

	support_set_hand(&game, 0, 1, 1, 1, 1, 0);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_SETTLEMENT, 20);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(game.longest_road, 1);
	ck_assert_int_eq(game_total_points(&game, 1), 10);
	/* Not seat 1's turn: no win yet, and the game goes on. */
	ck_assert_ptr_null(find_won(&events));
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
	ck_assert_int_eq(game.winner, GAME_NO_SEAT);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(20, 15));
	support_refused(&game, 0, &c, ERROR_EDGE_OCCUPIED);

	/* Seat 0 ends its turn: seat 1's turn starts, and seat 1 has won before rolling. */
	c = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_TURN_ENDED);
	check_won(&game, &events, 1, 10, 4);
	ck_assert_int_eq(game.turn_seat, 1);
	c = support_dice(2, 4);
	support_refused(&game, 1, &c, ERROR_GAME_FINISHED);
}
END_TEST

START_TEST(test_no_win_below_ten)
{
	struct game game;
	start(&game, 4);
	seat_0_at_seven(&game);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 1);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 0, 0, 0, 2, 3);
	struct event_list events;
	struct command c = support_build(COMMAND_BUILD_CITY, 0);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(game_total_points(&game, 0), 9);
	ck_assert_ptr_null(find_won(&events));
	c = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &c, &events);
	ck_assert_ptr_null(find_won(&events));
}
END_TEST

START_TEST(test_every_command_is_refused_after_the_win)
{
	struct game game;
	start(&game, 4);
	seat_0_at_seven(&game);
	support_place_city(&game, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 1);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 0, 0, 0, 2, 3);
	struct command c = support_build(COMMAND_BUILD_CITY, 2);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_FINISHED);
	for (int seat = 0; seat < 4; seat++) {
		for (int type = 0; type < COMMAND_TYPE_COUNT; type++) {
			c = support_command((enum command_type)type);
			c.dice[0] = c.dice[1] = 3;
			c.hex = 0;
			c.node = 35;
			c.edge = 0;
			c.give[RESOURCE_GRAIN] = 4;
			c.want[RESOURCE_ORE] = 1;
			c.trade = 1;
			support_refused(&game, seat, &c, ERROR_GAME_FINISHED);
		}
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("winning");
	TCase *tc = tcase_create("winning");
	tcase_add_test(tc, test_building_to_ten_on_own_turn_wins_at_once);
	tcase_add_test(tc, test_buying_a_victory_point_card_to_ten_wins);
	tcase_add_test(tc, test_taking_longest_road_to_ten_wins);
	tcase_add_test(tc, test_taking_largest_army_to_ten_wins);
	tcase_add_test(tc, test_city_counts_two_points_not_three);
	tcase_add_test(tc, test_hidden_victory_points_count_and_are_revealed);
	tcase_add_test(tc, test_more_than_ten_at_once_reports_every_point);
	tcase_add_test(tc, test_reaching_ten_on_another_seats_turn_wins_at_the_start_of_ones_own);
	tcase_add_test(tc, test_no_win_below_ten);
	tcase_add_test(tc, test_every_command_is_refused_after_the_win);
	suite_add_tcase(suite, tc);
	return suite;
}
