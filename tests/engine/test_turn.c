/*
 * test_turn.c - RULES.md section 3: the shape of a turn. A development card may be played
 * before the roll but nothing else; the dice are rolled exactly once; the turn ends only
 * after the roll with nothing pending; manual dice must be supplied, random dice must not.
 * Only the active seat acts (discards and trade answers are tested in their own suites).
 */
#include "tests/check_main.h"
#include "tests/engine/support.h"
#include "engine/view.h"

/* A 4-seat beginner game after the standard draft: turn 1, seat 0 to roll. */
static void start(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
}

START_TEST(test_development_card_may_be_played_before_the_roll)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 0; /* mountains 10: seat 2's settlement on 12 */
	c.victim = 2;
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	ck_assert_int_eq(game.robber, 0);
	support_roll(&game, 2, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
}
END_TEST

START_TEST(test_nothing_but_a_card_before_the_roll)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 5, 5, 5, 5, 5);
	struct command c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 48));
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	support_place_road(&game, 0, support_edge_between(40, 35));
	c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	c = support_build(COMMAND_BUILD_CITY, 44);
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	c = support_command(COMMAND_MARITIME_TRADE);
	c.give[RESOURCE_BRICK] = 4;
	c.want[RESOURCE_ORE] = 1;
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	c = support_command(COMMAND_OFFER_TRADE);
	c.give[RESOURCE_BRICK] = 1;
	c.want[RESOURCE_WOOL] = 1;
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	c = support_command(COMMAND_END_TURN);
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	/* After the roll each of them is possible. */
	support_roll(&game, 2, 4);
	c = support_build(COMMAND_BUILD_SETTLEMENT, 35);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_dice_are_rolled_once_per_turn)
{
	struct game game;
	start(&game);
	struct command c = support_dice(2, 4);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.rolled, 1);
	support_refused(&game, 0, &c, ERROR_ALREADY_ROLLED);
	c = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.rolled, 0);
	c = support_dice(2, 4);
	support_ok(&game, 1, &c, NULL);
}
END_TEST

START_TEST(test_the_last_roll_outlives_the_turn)
{
	struct game game;
	start(&game);
	struct game_view view;
	view_game(&game, 0, &view);
	ck_assert_int_eq(game.last_roll[0] + game.last_roll[1], 0);
	ck_assert_int_eq(view.last_roll[0] + view.last_roll[1], 0);
	support_roll(&game, 2, 4);
	ck_assert_int_eq(game.last_roll[0], 2);
	ck_assert_int_eq(game.last_roll[1], 4);
	struct command c = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &c, NULL);
	/* The turn's dice are cleared; the last roll stays, for every viewer. */
	ck_assert_int_eq(game.dice[0] + game.dice[1], 0);
	ck_assert_int_eq(game.last_roll[0], 2);
	ck_assert_int_eq(game.last_roll[1], 4);
	view_game(&game, VIEW_SPECTATOR, &view);
	ck_assert_int_eq(view.last_roll[0], 2);
	ck_assert_int_eq(view.last_roll[1], 4);
	ck_assert_int_eq(view.dice[0] + view.dice[1], 0);
	c = support_dice(5, 3);
	support_ok(&game, 1, &c, NULL);
	ck_assert_int_eq(game.last_roll[0], 5);
	ck_assert_int_eq(game.last_roll[1], 3);
}
END_TEST

START_TEST(test_no_second_roll_while_a_seven_is_resolved)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 2, 2, 2, 2, 0);
	struct command c = support_dice(3, 4);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	support_refused(&game, 0, &c, ERROR_ALREADY_ROLLED);
	c = support_command(COMMAND_DISCARD);
	c.resources[RESOURCE_BRICK] = 2;
	c.resources[RESOURCE_LUMBER] = 2;
	support_ok(&game, 1, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	c = support_dice(3, 4);
	support_refused(&game, 0, &c, ERROR_ALREADY_ROLLED);
}
END_TEST

START_TEST(test_roll_result_is_the_dice_given)
{
	struct game game;
	start(&game);
	struct event_list events;
	struct command c = support_dice(6, 5);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_DICE_ROLLED);
	ck_assert_int_eq(events.events[0].seat, 0);
	ck_assert_int_eq(events.events[0].dice[0], 6);
	ck_assert_int_eq(events.events[0].dice[1], 5);
	ck_assert_int_eq(game.dice[0], 6);
	ck_assert_int_eq(game.dice[1], 5);
}
END_TEST

START_TEST(test_manual_dice_must_be_supplied)
{
	struct game game;
	start(&game);
	struct command c = support_dice(0, 0);
	support_refused(&game, 0, &c, ERROR_DICE_REQUIRED);
	c = support_dice(7, 1);
	support_refused(&game, 0, &c, ERROR_INVALID_DICE);
	c = support_dice(0, 3);
	support_refused(&game, 0, &c, ERROR_INVALID_DICE);
	c = support_dice(6, 9);
	support_refused(&game, 0, &c, ERROR_INVALID_DICE);
	c = support_dice(1, 1);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_random_dice_game_refuses_supplied_dice)
{
	struct game_options options;
	support_options(&options, 4, GAME_LAYOUT_BEGINNER);
	options.dice = GAME_DICE_RANDOM;
	struct game game;
	support_new_game_with(&game, &options);
	support_standard_draft(&game);
	struct command c = support_dice(3, 3);
	support_refused(&game, 0, &c, ERROR_DICE_NOT_MANUAL);
	struct event_list events;
	c = support_dice(0, 0);
	support_ok(&game, 0, &c, &events);
	const struct event *rolled = support_find_event(&events, EVENT_DICE_ROLLED);
	ck_assert_ptr_nonnull(rolled);
	ck_assert(rolled->dice[0] >= 1 && rolled->dice[0] <= 6);
	ck_assert(rolled->dice[1] >= 1 && rolled->dice[1] <= 6);
}
END_TEST

START_TEST(test_only_the_active_seat_rolls_builds_and_ends)
{
	struct game game;
	start(&game);
	struct command c = support_dice(2, 4);
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
	support_ok(&game, 0, &c, NULL);
	support_set_hand(&game, 1, 5, 5, 5, 5, 5);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(13, 9));
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
	c = support_build(COMMAND_BUILD_CITY, 13);
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
	c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
	c = support_command(COMMAND_MARITIME_TRADE);
	c.give[RESOURCE_BRICK] = 4;
	c.want[RESOURCE_ORE] = 1;
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
	support_give_development(&game, 1, DEVELOPMENT_MONOPOLY, 1);
	c = support_command(COMMAND_PLAY_MONOPOLY);
	c.resource = RESOURCE_ORE;
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
	c = support_command(COMMAND_END_TURN);
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
}
END_TEST

START_TEST(test_end_turn_passes_to_the_next_seat_clockwise)
{
	struct game game;
	start(&game);
	struct event_list events;
	support_roll(&game, 2, 4);
	struct command c = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_TURN_ENDED);
	ck_assert_int_eq(events.events[0].seat, 0);
	ck_assert_int_eq(game.turn_seat, 1);
	ck_assert_int_eq(game.turn_number, 2);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	support_roll(&game, 2, 4);
	support_next_turn(&game, 2, 4);
	support_next_turn(&game, 2, 4);
	ck_assert_int_eq(game.turn_seat, 3);
	support_next_turn(&game, 2, 4);
	ck_assert_int_eq(game.turn_seat, 0);
	ck_assert_int_eq(game.turn_number, 5);
}
END_TEST

START_TEST(test_end_turn_refused_while_discards_or_robber_pending)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 2, 0, 0, 0, 4, 4);
	support_roll(&game, 3, 4);
	struct command end = support_command(COMMAND_END_TURN);
	support_refused(&game, 0, &end, ERROR_DISCARDS_PENDING);
	struct command c = support_command(COMMAND_DISCARD);
	c.resources[RESOURCE_ORE] = 4;
	support_ok(&game, 2, &c, NULL);
	support_refused(&game, 0, &end, ERROR_ROBBER_MUST_MOVE);
	c = support_command(COMMAND_MOVE_ROBBER);
	c.hex = 0;
	c.victim = 2;
	support_ok(&game, 0, &c, NULL);
	support_ok(&game, 0, &end, NULL);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("turn");
	TCase *tc = tcase_create("turn");
	tcase_add_test(tc, test_development_card_may_be_played_before_the_roll);
	tcase_add_test(tc, test_nothing_but_a_card_before_the_roll);
	tcase_add_test(tc, test_dice_are_rolled_once_per_turn);
	tcase_add_test(tc, test_no_second_roll_while_a_seven_is_resolved);
	tcase_add_test(tc, test_the_last_roll_outlives_the_turn);
	tcase_add_test(tc, test_roll_result_is_the_dice_given);
	tcase_add_test(tc, test_manual_dice_must_be_supplied);
	tcase_add_test(tc, test_random_dice_game_refuses_supplied_dice);
	tcase_add_test(tc, test_only_the_active_seat_rolls_builds_and_ends);
	tcase_add_test(tc, test_end_turn_passes_to_the_next_seat_clockwise);
	tcase_add_test(tc, test_end_turn_refused_while_discards_or_robber_pending);
	suite_add_tcase(suite, tc);
	return suite;
}
