/*
 * test_production.c - RULES.md section 3.2: what a roll other than 7 produces. Every hex
 * with the number (except the robber's) pays 1 card per adjacent settlement and 2 per city
 * to every owner, whoever's turn it is; a resource the bank cannot pay in full goes to
 * nobody (classic), except that edition 2025 lets a single owed seat take what is left.
 *
 * After the standard 4-seat draft on the beginner board a 6 pays everyone: hills 6 (hex 4)
 * touches seat 1's 13 and seat 2's 12, fields 6 (hex 17) touches seat 0's 44 and seat 3's 45.
 * Fields 12 (hex 3) touches only seat 2's 12; hills 5 (hex 16) touches seat 0's 43 and 44.
 */
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start_edition(struct game *game, int edition)
{
	struct game_options options;
	support_options(&options, 4, GAME_LAYOUT_BEGINNER);
	options.edition = (uint8_t)edition;
	support_new_game_with(game, &options);
	support_standard_draft(game);
	support_clear_hands(game);
}

static void start(struct game *game)
{
	start_edition(game, GAME_EDITION_CLASSIC);
}

static void roll(struct game *game, int d1, int d2, struct event_list *events)
{
	struct command c = support_dice(d1, d2);
	support_ok(game, game->turn_seat, &c, events);
}

START_TEST(test_every_seat_produces_on_every_roll)
{
	struct game game;
	start(&game);
	struct event_list events;
	roll(&game, 2, 4, &events);
	const struct event *produced = support_find_event(&events, EVENT_RESOURCES_PRODUCED);
	ck_assert_ptr_nonnull(produced);
	ck_assert_int_eq(produced->gains[0][RESOURCE_GRAIN], 1);
	ck_assert_int_eq(produced->gains[1][RESOURCE_BRICK], 1);
	ck_assert_int_eq(produced->gains[2][RESOURCE_BRICK], 1);
	ck_assert_int_eq(produced->gains[3][RESOURCE_GRAIN], 1);
	support_assert_hand(&game, 0, 0, 0, 0, 1, 0);
	support_assert_hand(&game, 1, 1, 0, 0, 0, 0);
	support_assert_hand(&game, 2, 1, 0, 0, 0, 0);
	support_assert_hand(&game, 3, 0, 0, 0, 1, 0);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 17);
	ck_assert_int_eq(game.bank[RESOURCE_BRICK], 17);
}
END_TEST

START_TEST(test_inactive_seats_produce_on_another_seats_roll)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);  /* 2: pasture 2 pays seat 1 only */
	support_next_turn(&game, 1, 1); /* seat 1 rolls a 2 */
	support_next_turn(&game, 4, 4); /* seat 2 rolls an 8: forest 8 and mountains 8 */
	support_assert_hand(&game, 0, 0, 1, 0, 0, 0);
	support_assert_hand(&game, 1, 0, 1, 2, 0, 0);
	support_assert_hand(&game, 2, 0, 0, 0, 0, 1);
	support_assert_hand(&game, 3, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(test_each_adjacent_settlement_produces)
{
	struct game game;
	start(&game);
	roll(&game, 1, 4, NULL); /* 5: hills 5 touches 43 and 44, pasture 5 touches 31 */
	support_assert_hand(&game, 0, 2, 0, 0, 0, 0);
	support_assert_hand(&game, 2, 0, 0, 1, 0, 0);
	support_assert_hand(&game, 1, 0, 0, 0, 0, 0);
	support_assert_hand(&game, 3, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(test_city_produces_two)
{
	struct game game;
	start(&game);
	support_place_city(&game, 0, 44);
	support_place_city(&game, 2, 12);
	roll(&game, 3, 3, NULL);
	support_assert_hand(&game, 0, 0, 0, 0, 2, 0);
	support_assert_hand(&game, 2, 2, 0, 0, 0, 0);
	support_assert_hand(&game, 3, 0, 0, 0, 1, 0);
}
END_TEST

START_TEST(test_robber_hex_produces_nothing)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 3, 0, 0, 1, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 17; /* fields 6 */
	c.victim = 3;
	support_ok(&game, 0, &c, NULL);
	support_clear_hands(&game);
	roll(&game, 2, 4, NULL);
	/* Hills 6 still pays; fields 6, under the robber, pays nobody. */
	support_assert_hand(&game, 0, 0, 0, 0, 0, 0);
	support_assert_hand(&game, 1, 1, 0, 0, 0, 0);
	support_assert_hand(&game, 2, 1, 0, 0, 0, 0);
	support_assert_hand(&game, 3, 0, 0, 0, 0, 0);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 19);
}
END_TEST

START_TEST(test_only_the_rolled_number_produces)
{
	struct game game;
	start(&game);
	roll(&game, 4, 4, NULL); /* 8: forest 8 (28, 43), mountains 8 (31) */
	support_assert_hand(&game, 0, 0, 1, 0, 0, 0);
	support_assert_hand(&game, 1, 0, 1, 0, 0, 0);
	support_assert_hand(&game, 2, 0, 0, 0, 0, 1);
	support_assert_hand(&game, 3, 0, 0, 0, 0, 0);
}
END_TEST

START_TEST(test_bank_shortage_pays_nobody_that_resource)
{
	struct game game;
	start(&game);
	support_set_bank(&game, RESOURCE_GRAIN, 1, 1); /* seat 1 is owed brick, not grain */
	struct event_list events;
	roll(&game, 2, 4, &events);
	const struct event *produced = support_find_event(&events, EVENT_RESOURCES_PRODUCED);
	ck_assert_ptr_nonnull(produced);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(produced->gains[s][RESOURCE_GRAIN], 0);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 1);
	ck_assert_int_eq(game.players[0].resources[RESOURCE_GRAIN], 0);
	ck_assert_int_eq(game.players[3].resources[RESOURCE_GRAIN], 0);
	/* The other resource of the roll pays normally. */
	ck_assert_int_eq(game.players[1].resources[RESOURCE_BRICK], 1);
	ck_assert_int_eq(game.players[2].resources[RESOURCE_BRICK], 1);
}
END_TEST

START_TEST(test_bank_with_exactly_enough_pays_everyone)
{
	struct game game;
	start(&game);
	support_set_bank(&game, RESOURCE_GRAIN, 2, 1);
	roll(&game, 2, 4, NULL);
	ck_assert_int_eq(game.players[0].resources[RESOURCE_GRAIN], 1);
	ck_assert_int_eq(game.players[3].resources[RESOURCE_GRAIN], 1);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 0);
}
END_TEST

START_TEST(test_bank_shortage_classic_single_owed_seat_gets_nothing)
{
	struct game game;
	start(&game);
	support_place_city(&game, 2, 12); /* owed 2 grain on a 12 */
	support_set_bank(&game, RESOURCE_GRAIN, 1, 1);
	struct event_list events;
	roll(&game, 6, 6, &events);
	ck_assert_int_eq(support_count_events(&events, EVENT_RESOURCES_PRODUCED), 0);
	ck_assert_int_eq(game.players[2].resources[RESOURCE_GRAIN], 0);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 1);
}
END_TEST

START_TEST(test_bank_shortage_2025_single_owed_seat_takes_what_remains)
{
	struct game game;
	start_edition(&game, GAME_EDITION_2025);
	support_place_city(&game, 2, 12);
	support_set_bank(&game, RESOURCE_GRAIN, 1, 1);
	struct event_list events;
	roll(&game, 6, 6, &events);
	const struct event *produced = support_find_event(&events, EVENT_RESOURCES_PRODUCED);
	ck_assert_ptr_nonnull(produced);
	ck_assert_int_eq(produced->gains[2][RESOURCE_GRAIN], 1);
	ck_assert_int_eq(game.players[2].resources[RESOURCE_GRAIN], 1);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 0);
}
END_TEST

START_TEST(test_bank_shortage_2025_two_owed_seats_get_nothing)
{
	struct game game;
	start_edition(&game, GAME_EDITION_2025);
	support_set_bank(&game, RESOURCE_GRAIN, 1, 1);
	roll(&game, 2, 4, NULL);
	ck_assert_int_eq(game.players[0].resources[RESOURCE_GRAIN], 0);
	ck_assert_int_eq(game.players[3].resources[RESOURCE_GRAIN], 0);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 1);
	ck_assert_int_eq(game.players[1].resources[RESOURCE_BRICK], 1);
}
END_TEST

START_TEST(test_bank_shortage_2025_empty_bank_pays_nothing)
{
	struct game game;
	start_edition(&game, GAME_EDITION_2025);
	support_set_bank(&game, RESOURCE_GRAIN, 0, 1);
	struct event_list events;
	roll(&game, 6, 6, &events);
	ck_assert_int_eq(support_count_events(&events, EVENT_RESOURCES_PRODUCED), 0);
	ck_assert_int_eq(game.players[2].resources[RESOURCE_GRAIN], 0);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("production");
	TCase *tc = tcase_create("production");
	tcase_add_test(tc, test_every_seat_produces_on_every_roll);
	tcase_add_test(tc, test_inactive_seats_produce_on_another_seats_roll);
	tcase_add_test(tc, test_each_adjacent_settlement_produces);
	tcase_add_test(tc, test_city_produces_two);
	tcase_add_test(tc, test_robber_hex_produces_nothing);
	tcase_add_test(tc, test_only_the_rolled_number_produces);
	tcase_add_test(tc, test_bank_shortage_pays_nobody_that_resource);
	tcase_add_test(tc, test_bank_with_exactly_enough_pays_everyone);
	tcase_add_test(tc, test_bank_shortage_classic_single_owed_seat_gets_nothing);
	tcase_add_test(tc, test_bank_shortage_2025_single_owed_seat_takes_what_remains);
	tcase_add_test(tc, test_bank_shortage_2025_two_owed_seats_get_nothing);
	tcase_add_test(tc, test_bank_shortage_2025_empty_bank_pays_nothing);
	suite_add_tcase(suite, tc);
	return suite;
}
