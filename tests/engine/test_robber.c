/*
 * test_robber.c - RULES.md sections 3.2 (the 7) and 5 (the robber). A rolled 7 produces
 * nothing; every seat holding more than 7 resource cards discards half, rounded down
 * (development cards do not count); all discards come before the robber moves; the robber
 * goes to a different hex (the desert allowed) and its mover steals one card from an
 * adjacent opponent holding cards (ruling: no such opponent, no steal). A knight moves the
 * robber the same way but never causes discards.
 *
 * Board after the standard 4-seat draft: fields 6 (hex 17) touches seat 0's 44 and seat 3's
 * 45; forest 8 (hex 12) touches seat 1's 28 and seat 0's 43; the desert (hex 9) touches
 * nobody.
 */
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_clear_hands(game);
}

static struct command discard(int brick, int lumber, int wool, int grain, int ore)
{
	struct command c = support_command(COMMAND_DISCARD);
	c.resources[RESOURCE_BRICK] = (uint8_t)brick;
	c.resources[RESOURCE_LUMBER] = (uint8_t)lumber;
	c.resources[RESOURCE_WOOL] = (uint8_t)wool;
	c.resources[RESOURCE_GRAIN] = (uint8_t)grain;
	c.resources[RESOURCE_ORE] = (uint8_t)ore;
	return c;
}

static struct command move_robber(int hex, int victim)
{
	struct command c = support_command(COMMAND_MOVE_ROBBER);
	c.hex = (int8_t)hex;
	c.victim = (int8_t)victim;
	return c;
}

START_TEST(test_seven_produces_nothing)
{
	struct game game;
	start(&game);
	struct event_list events;
	struct command c = support_dice(3, 4);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.count, 1);
	ck_assert_int_eq(events.events[0].type, EVENT_DICE_ROLLED);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(game_resource_count(&game, s), 0);
}
END_TEST

START_TEST(test_discard_rounds_down)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 2, 2, 2, 2, 0); /* 8 -> 4, the active seat too */
	support_set_hand(&game, 1, 2, 2, 2, 2, 1); /* 9 -> 4 */
	support_set_hand(&game, 2, 3, 3, 3, 3, 3); /* 15 -> 7 */
	support_set_hand(&game, 3, 1, 1, 1, 1, 3); /* 7 -> nothing */
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	ck_assert_int_eq(game.players[0].discard_owed, 4);
	ck_assert_int_eq(game.players[1].discard_owed, 4);
	ck_assert_int_eq(game.players[2].discard_owed, 7);
	ck_assert_int_eq(game.players[3].discard_owed, 0);
}
END_TEST

START_TEST(test_nobody_discards_at_exactly_seven)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 1, 1, 1, 1, 3);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	ck_assert_int_eq(game.players[1].discard_owed, 0);
	struct command c = discard(1, 0, 0, 0, 0);
	support_refused(&game, 1, &c, ERROR_NO_DISCARD_OWED);
}
END_TEST

START_TEST(test_development_cards_do_not_count_toward_discard)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 1, 1, 1, 1, 3);
	support_give_development(&game, 1, DEVELOPMENT_KNIGHT, 3);
	support_give_development(&game, 1, DEVELOPMENT_VICTORY_POINT, 1);
	support_set_hand(&game, 2, 2, 2, 2, 2, 0);
	support_give_development(&game, 2, DEVELOPMENT_MONOPOLY, 2);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.players[1].discard_owed, 0);
	ck_assert_int_eq(game.players[2].discard_owed, 4);
	struct command c = discard(2, 2, 0, 0, 0);
	support_ok(&game, 2, &c, NULL);
	ck_assert_int_eq(game.players[2].development_cards[DEVELOPMENT_MONOPOLY], 2);
}
END_TEST

START_TEST(test_every_discard_comes_before_the_robber_moves)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 2, 2, 2, 2, 0);
	support_set_hand(&game, 3, 0, 0, 3, 3, 3);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	support_roll(&game, 3, 4);
	struct command robber = move_robber(17, 3);
	support_refused(&game, 0, &robber, ERROR_DISCARDS_PENDING);
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 17;
	c.victim = 3;
	support_refused(&game, 0, &c, ERROR_DISCARDS_PENDING);
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 48));
	support_refused(&game, 0, &c, ERROR_DISCARDS_PENDING);
	/* Discards in any order, off-turn; the robber waits for the last one. */
	c = discard(0, 0, 1, 1, 2);
	support_ok(&game, 3, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	support_refused(&game, 0, &robber, ERROR_DISCARDS_PENDING);
	c = discard(1, 1, 1, 1, 0);
	support_ok(&game, 1, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	c = support_build(COMMAND_BUILD_ROAD, support_edge_between(44, 48));
	support_refused(&game, 0, &c, ERROR_ROBBER_MUST_MOVE);
	support_ok(&game, 0, &robber, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
	support_assert_hand(&game, 1, 1, 1, 1, 1, 0);
}
END_TEST

START_TEST(test_discard_must_be_exactly_half)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 2, 2, 2, 2, 1);
	support_roll(&game, 3, 4);
	struct command c = discard(1, 1, 1, 0, 0);
	support_refused(&game, 1, &c, ERROR_WRONG_DISCARD_COUNT);
	c = discard(1, 1, 1, 1, 1);
	support_refused(&game, 1, &c, ERROR_WRONG_DISCARD_COUNT);
	c = discard(0, 0, 0, 0, 0);
	support_refused(&game, 1, &c, ERROR_WRONG_DISCARD_COUNT);
	c = discard(0, 0, 0, 0, 4); /* holds only 1 ore */
	support_refused(&game, 1, &c, ERROR_INSUFFICIENT_RESOURCES);
	c = discard(0, 0, 2, 2, 0);
	support_ok(&game, 1, &c, NULL);
	support_assert_hand(&game, 1, 2, 2, 0, 0, 1);
	ck_assert_int_eq(game.bank[RESOURCE_WOOL], 19);
	support_refused(&game, 1, &c, ERROR_NO_DISCARD_OWED);
}
END_TEST

START_TEST(test_discard_outside_a_seven_is_refused)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 2, 2, 2, 2, 1);
	struct command c = discard(1, 1, 1, 1, 0);
	support_refused(&game, 1, &c, ERROR_NO_DISCARD_OWED);
	support_roll(&game, 2, 4);
	support_refused(&game, 1, &c, ERROR_NO_DISCARD_OWED);
}
END_TEST

START_TEST(test_robber_must_move_to_a_different_hex)
{
	struct game game;
	start(&game);
	ck_assert_int_eq(game.robber, 9);
	support_roll(&game, 3, 4);
	struct command c = move_robber(9, -1);
	support_refused(&game, 0, &c, ERROR_ROBBER_SAME_HEX);
	c = move_robber(19, -1);
	support_refused(&game, 0, &c, ERROR_INVALID_HEX);
	c = move_robber(-1, -1);
	support_refused(&game, 0, &c, ERROR_INVALID_HEX);
	c = move_robber(17, -1); /* seats 0 and 3 there, but nobody holds a card */
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.robber, 17);
}
END_TEST

START_TEST(test_robber_may_return_to_the_desert)
{
	struct game game;
	start(&game);
	support_roll(&game, 3, 4);
	struct command c = move_robber(17, -1);
	support_ok(&game, 0, &c, NULL);
	support_next_turn(&game, 3, 4);
	c = move_robber(17, -1);
	support_refused(&game, 1, &c, ERROR_ROBBER_SAME_HEX);
	c = move_robber(9, -1);
	struct event_list events;
	support_ok(&game, 1, &c, &events);
	ck_assert_int_eq(game.robber, 9);
	ck_assert_int_eq(events.count, 1);
	ck_assert_int_eq(events.events[0].type, EVENT_ROBBER_MOVED);
	ck_assert_int_eq(events.events[0].hex, 9);
}
END_TEST

START_TEST(test_only_the_active_seat_moves_the_robber)
{
	struct game game;
	start(&game);
	support_roll(&game, 3, 4);
	struct command c = move_robber(17, -1);
	support_refused(&game, 3, &c, ERROR_NOT_YOUR_TURN);
}
END_TEST

START_TEST(test_victim_must_be_an_adjacent_opponent_with_cards)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 1, 0, 0, 0, 0);
	support_set_hand(&game, 3, 0, 0, 2, 0, 0);
	support_set_hand(&game, 0, 0, 0, 0, 1, 0);
	support_roll(&game, 3, 4);
	struct command c = move_robber(17, -1);
	support_refused(&game, 0, &c, ERROR_VICTIM_REQUIRED);
	c = move_robber(17, 1); /* holds cards, but no building on fields 6 */
	support_refused(&game, 0, &c, ERROR_INVALID_VICTIM);
	c = move_robber(17, 0); /* the mover itself */
	support_refused(&game, 0, &c, ERROR_INVALID_VICTIM);
	c = move_robber(17, 4);
	support_refused(&game, 0, &c, ERROR_INVALID_VICTIM);
	c = move_robber(17, -2);
	support_refused(&game, 0, &c, ERROR_INVALID_VICTIM);
	c = move_robber(17, 3);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_victim_without_cards_cannot_be_chosen)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 0, 0, 0, 1, 0);
	support_give_development(&game, 3, DEVELOPMENT_KNIGHT, 2); /* development cards are not stolen */
	support_roll(&game, 3, 4);
	struct command c = move_robber(17, 3);
	support_refused(&game, 0, &c, ERROR_INVALID_VICTIM);
	c = move_robber(17, -2); /* only -1 means "nobody" */
	support_refused(&game, 0, &c, ERROR_INVALID_VICTIM);
	/* No opponent qualifies: the move stands without a steal. */
	struct event_list events;
	c = move_robber(17, -1);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.count, 1);
	ck_assert_int_eq(events.events[0].type, EVENT_ROBBER_MOVED);
	ck_assert_int_eq(support_count_events(&events, EVENT_RESOURCE_STOLEN), 0);
	ck_assert_int_eq(game.robber, 17);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
	ck_assert_int_eq(game.players[3].development_cards[DEVELOPMENT_KNIGHT], 2);
}
END_TEST

START_TEST(test_steal_takes_exactly_one_card_from_victim_to_thief)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 0, 3, 0, 2, 0);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_roll(&game, 3, 4);
	struct event_list events;
	struct command c = move_robber(12, 1); /* forest 8: seat 1's 28 and seat 0's own 43 */
	support_ok(&game, 0, &c, &events);
	const struct event *stolen = support_find_event(&events, EVENT_RESOURCE_STOLEN);
	ck_assert_ptr_nonnull(stolen);
	ck_assert_int_eq(stolen->seat, 0);
	ck_assert_int_eq(stolen->other, 1);
	ck_assert(stolen->resource == RESOURCE_LUMBER || stolen->resource == RESOURCE_GRAIN);
	ck_assert_int_eq(game_resource_count(&game, 1), 4);
	ck_assert_int_eq(game_resource_count(&game, 0), 2);
	ck_assert_int_eq(game.players[0].resources[stolen->resource], 1);
	int victim_had = stolen->resource == RESOURCE_LUMBER ? 3 : 2;
	ck_assert_int_eq(game.players[1].resources[stolen->resource], victim_had - 1);
	for (int r = 0; r < RESOURCE_COUNT; r++)
		ck_assert_int_eq(game.bank[r], 19 - game.players[0].resources[r] - game.players[1].resources[r]);
}
END_TEST

/* RULES.md 5: the card stolen is uniformly random among the victim's cards. 7500 robberies
 * (one generator seed each, fixed) of a hand of 1 brick, 2 lumber, 3 wool, 4 grain and 5 ore
 * must land within a chi-square bound of 1:2:3:4:5. With 4 degrees of freedom a fair draw
 * exceeds 30 with probability about 5e-6; taking the first kind, or any draw off by one
 * card, lands in the hundreds. */
START_TEST(test_stolen_card_is_uniform_over_the_victims_cards)
{
	struct game game;
	start(&game);
	support_roll(&game, 3, 4);
	support_set_hand(&game, 1, 1, 2, 3, 4, 5);
	struct command c = move_robber(12, 1); /* forest 8: seat 1's 28 */
	long observed[RESOURCE_COUNT] = {0};
	for (uint64_t seed = 1; seed <= 7500; seed++) {
		struct event_list events;
		support_decide_seeded(&game, 0, &c, seed, &events);
		const struct event *stolen = support_find_event(&events, EVENT_RESOURCE_STOLEN);
		ck_assert_ptr_nonnull(stolen);
		ck_assert_int_lt(stolen->resource, RESOURCE_COUNT);
		observed[stolen->resource]++;
	}
	static const int weights[RESOURCE_COUNT] = {1, 2, 3, 4, 5};
	double chi = support_chi_square(observed, weights, RESOURCE_COUNT);
	ck_assert_msg(chi < 30, "stolen kinds %ld %ld %ld %ld %ld: chi-square %.1f against 1:2:3:4:5", observed[0],
		      observed[1], observed[2], observed[3], observed[4], chi);
}
END_TEST

START_TEST(test_robber_move_when_not_pending_is_refused)
{
	struct game game;
	start(&game);
	struct command c = move_robber(17, -1);
	support_refused(&game, 0, &c, ERROR_ROBBER_NOT_PENDING);
	support_roll(&game, 1, 1); /* 2: only seat 1 gains a card */
	support_refused(&game, 0, &c, ERROR_ROBBER_NOT_PENDING);
	support_next_turn(&game, 3, 4);
	c = move_robber(17, -1);
	support_ok(&game, 1, &c, NULL);
	c = move_robber(16, -1);
	support_refused(&game, 1, &c, ERROR_ROBBER_NOT_PENDING);
}
END_TEST

START_TEST(test_knight_never_triggers_discards)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 3, 3, 3, 3, 3);
	support_set_hand(&game, 0, 3, 3, 3, 3, 3);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 2);
	struct event_list events;
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 12;
	c.victim = 1;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(support_count_events(&events, EVENT_DISCARDED), 0);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(game.players[s].discard_owed, 0);
	c = discard(1, 1, 1, 1, 3);
	support_refused(&game, 1, &c, ERROR_NO_DISCARD_OWED);
	/* After the roll as well. */
	support_roll(&game, 2, 4);
	support_next_turn(&game, 2, 4);
	support_next_turn(&game, 2, 4);
	support_next_turn(&game, 2, 4);
	support_next_turn(&game, 2, 4);
	ck_assert_int_eq(game.turn_seat, 0);
	c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 9;
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(game.players[s].discard_owed, 0);
}
END_TEST

START_TEST(test_knight_robber_follows_the_robber_rules)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 3, 0, 0, 2, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 9;
	support_refused(&game, 0, &c, ERROR_ROBBER_SAME_HEX);
	c.hex = 17;
	support_refused(&game, 0, &c, ERROR_VICTIM_REQUIRED);
	c.victim = 1;
	support_refused(&game, 0, &c, ERROR_INVALID_VICTIM);
	c.victim = 3;
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_KNIGHT_PLAYED);
	ck_assert_int_eq(events.events[1].type, EVENT_ROBBER_MOVED);
	ck_assert_int_eq(events.events[2].type, EVENT_RESOURCE_STOLEN);
	ck_assert_int_eq(game.robber, 17);
	support_assert_hand(&game, 0, 0, 0, 1, 0, 0);
	support_assert_hand(&game, 3, 0, 0, 1, 0, 0);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("robber");
	TCase *tc = tcase_create("robber");
	tcase_add_test(tc, test_seven_produces_nothing);
	tcase_add_test(tc, test_discard_rounds_down);
	tcase_add_test(tc, test_nobody_discards_at_exactly_seven);
	tcase_add_test(tc, test_development_cards_do_not_count_toward_discard);
	tcase_add_test(tc, test_every_discard_comes_before_the_robber_moves);
	tcase_add_test(tc, test_discard_must_be_exactly_half);
	tcase_add_test(tc, test_discard_outside_a_seven_is_refused);
	tcase_add_test(tc, test_robber_must_move_to_a_different_hex);
	tcase_add_test(tc, test_robber_may_return_to_the_desert);
	tcase_add_test(tc, test_only_the_active_seat_moves_the_robber);
	tcase_add_test(tc, test_victim_must_be_an_adjacent_opponent_with_cards);
	tcase_add_test(tc, test_victim_without_cards_cannot_be_chosen);
	tcase_add_test(tc, test_steal_takes_exactly_one_card_from_victim_to_thief);
	tcase_add_test(tc, test_stolen_card_is_uniform_over_the_victims_cards);
	tcase_add_test(tc, test_robber_move_when_not_pending_is_refused);
	tcase_add_test(tc, test_knight_never_triggers_discards);
	tcase_add_test(tc, test_knight_robber_follows_the_robber_rules);
	suite_add_tcase(suite, tc);
	return suite;
}
