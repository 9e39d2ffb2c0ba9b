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
#include <string.h>

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
	support_roll(&game, 1, 1);	/* 2: pasture 2 pays seat 1 only */
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

/* Edition 2025: the one owed seat takes every card left, not just one: seat 2 owed 3 grain
 * (a city on 12 and a settlement on 16, both on fields 12) with 2 in the bank takes both. */
START_TEST(test_bank_shortage_2025_single_owed_seat_takes_every_card_left)
{
	struct game game;
	start_edition(&game, GAME_EDITION_2025);
	support_place_city(&game, 2, 12);
	support_place_settlement(&game, 2, 16);
	support_set_bank(&game, RESOURCE_GRAIN, 2, 1);
	struct event_list events;
	roll(&game, 6, 6, &events);
	const struct event *produced = support_find_event(&events, EVENT_RESOURCES_PRODUCED);
	ck_assert_ptr_nonnull(produced);
	ck_assert_int_eq(produced->gains[2][RESOURCE_GRAIN], 2);
	ck_assert_int_eq(game.players[2].resources[RESOURCE_GRAIN], 2);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 0);
}
END_TEST

/* Classic: the shortage is judged on everything owed of a resource, over every hex of it
 * that produces. A random board with two hexes of one resource on one number; one seat's
 * building on each; the bank holding one card less than both owe together (enough for
 * either hex alone): nobody receives that resource. */
START_TEST(test_bank_shortage_counts_every_hex_of_the_resource_together)
{
	struct game_options options;
	support_options(&options, 4, GAME_LAYOUT_RANDOM);
	struct game game;
	int hex_a = -1, hex_b = -1;
	for (int attempt = 0; attempt < 200 && hex_b < 0; attempt++) {
		/* Boards come from rules_create's generator: re-seed by the attempt. */
		struct event_list events;
		struct rng rng;
		rng_init(&rng, (uint64_t)attempt + 1, 0);
		memset(&game, 0, sizeof game);
		ck_assert_int_eq(rules_create(&options, &rng, &events), ERROR_OK);
		apply_events(&game, &events);
		for (int a = 0; a < BOARD_HEXES && hex_b < 0; a++)
			for (int b = a + 1; b < BOARD_HEXES && hex_b < 0; b++)
				if (game.board.terrain[a] == game.board.terrain[b] &&
				    game.board.terrain[a] != TERRAIN_DESERT &&
				    game.board.number[a] == game.board.number[b]) {
					hex_a = a;
					hex_b = b;
				}
	}
	ck_assert_msg(hex_b >= 0, "no random board with two hexes of one resource on one number");
	support_standard_draft(&game);
	support_clear_hands(&game);
	int resource = game.board.terrain[hex_a];
	int number = game.board.number[hex_a];
	/* Seat 1 on a free node of hex a, seat 2 on one of hex b (away from each other). */
	const int hexes[2] = {hex_a, hex_b};
	for (int i = 0; i < 2; i++) {
		int placed = 0;
		for (int k = 0; k < 6 && !placed; k++) {
			int node = board_hex_nodes[hexes[i]][k];
			int open = !game.node_owner[node];
			for (int n = 0; n < 3; n++)
				if (board_node_neighbors[node][n] >= 0 &&
				    game.node_owner[board_node_neighbors[node][n]])
					open = 0;
			if (open) {
				support_place_settlement(&game, 1 + i, node);
				placed = 1;
			}
		}
		ck_assert_msg(placed, "no free node on hex %d", hexes[i]);
	}
	/* What each hex owes, counted here from the board. */
	int owed_by_hex[2] = {0, 0};
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 6; k++)
			owed_by_hex[i] += game.node_building[board_hex_nodes[hexes[i]][k]];
	int owed = 0;
	for (int hex = 0; hex < BOARD_HEXES; hex++)
		if (game.board.terrain[hex] == resource && game.board.number[hex] == number && hex != game.robber)
			for (int k = 0; k < 6; k++)
				owed += game.node_building[board_hex_nodes[hex][k]];
	ck_assert_int_ge(owed, owed_by_hex[0] + owed_by_hex[1]);
	int left = owed - 1;
	ck_assert_msg(owed_by_hex[0] <= left && owed_by_hex[1] <= left, "each hex alone must fit in the bank");
	support_set_bank(&game, resource, left, 0);
	int d1 = number > 6 ? 6 : 1;
	struct event_list events;
	roll(&game, d1, number - d1, &events);
	const struct event *produced = support_find_event(&events, EVENT_RESOURCES_PRODUCED);
	for (int s = 0; s < 4 && produced; s++)
		ck_assert_int_eq(produced->gains[s][resource], 0);
	ck_assert_int_eq(game.bank[resource], left);
	for (int s = 1; s < 4; s++)
		ck_assert_int_eq(game.players[s].resources[resource], 0);
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
	tcase_add_test(tc, test_bank_shortage_2025_single_owed_seat_takes_every_card_left);
	tcase_add_test(tc, test_bank_shortage_counts_every_hex_of_the_resource_together);
	tcase_add_test(tc, test_bank_shortage_2025_two_owed_seats_get_nothing);
	tcase_add_test(tc, test_bank_shortage_2025_empty_bank_pays_nothing);
	suite_add_tcase(suite, tc);
	return suite;
}
