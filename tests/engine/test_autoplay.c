/*
 * test_autoplay.c - the server's own moves: default moves when a deadline passes, and
 * which bot seat must move.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/autoplay.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static struct command scratch[LEGAL_MOVES_MAX];

/* The timeout move at this state must be of `type` by `seat` and be accepted. */
static void expect_timeout_move(struct game *game, int seat, enum command_type type)
{
	struct rng rng;
	rng_init(&rng, 7, game->version);
	int mover;
	struct command command;
	ck_assert_int_eq(autoplay_timeout_move(game, &rng, scratch, &mover, &command), 1);
	ck_assert_int_eq(mover, seat);
	ck_assert_str_eq(command_type_name(command.type), command_type_name(type));
	support_ok(game, mover, &command, NULL);
}

START_TEST(test_timeout_places_randomly_in_setup)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	expect_timeout_move(&game, 0, COMMAND_BUILD_SETTLEMENT);
	expect_timeout_move(&game, 0, COMMAND_BUILD_ROAD);
	expect_timeout_move(&game, 1, COMMAND_BUILD_SETTLEMENT);
}
END_TEST

START_TEST(test_timeout_rolls_then_ends_the_turn)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	/* Manual dice: the default roll is a random pair. */
	expect_timeout_move(&game, 0, COMMAND_ROLL);
	if (game.phase == GAME_PHASE_MAIN) {
		expect_timeout_move(&game, 0, COMMAND_END_TURN);
		ck_assert_int_eq(game.turn_seat, 1);
	}
}
END_TEST

START_TEST(test_timeout_discards_for_every_owing_seat_then_moves_the_robber)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_set_hand(&game, 1, 3, 3, 2, 0, 0);
	support_set_hand(&game, 2, 0, 0, 3, 3, 3);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	expect_timeout_move(&game, 1, COMMAND_DISCARD);
	ck_assert_int_eq(game_resource_count(&game, 1), 4);
	expect_timeout_move(&game, 2, COMMAND_DISCARD);
	ck_assert_int_eq(game_resource_count(&game, 2), 5);
	expect_timeout_move(&game, 0, COMMAND_MOVE_ROBBER);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
}
END_TEST

START_TEST(test_timeout_declines_unanswered_offers_before_ending_the_turn)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_roll(&game, 4, 4);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[RESOURCE_BRICK] = 1;
	offer.want[RESOURCE_ORE] = 1;
	support_ok(&game, 0, &offer, NULL);
	expect_timeout_move(&game, 1, COMMAND_DECLINE_TRADE);
	expect_timeout_move(&game, 2, COMMAND_DECLINE_TRADE);
	expect_timeout_move(&game, 0, COMMAND_END_TURN);
}
END_TEST

START_TEST(test_nothing_to_do_after_the_win)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	game.phase = GAME_PHASE_FINISHED;
	struct rng rng;
	rng_init(&rng, 1, 1);
	int seat;
	struct command command;
	ck_assert_int_eq(autoplay_timeout_move(&game, &rng, scratch, &seat, &command), 0);
	ck_assert_int_eq(autoplay_bot_to_move(&game, 0x7), -1);
}
END_TEST

START_TEST(test_bot_to_move_is_the_waited_for_bot_or_an_addressed_bot)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	ck_assert_int_eq(autoplay_bot_to_move(&game, 0x1), 0);	/* seat 0 must roll */
	ck_assert_int_eq(autoplay_bot_to_move(&game, 0xe), -1); /* only seat 0 is waited for */
	support_roll(&game, 4, 4);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[RESOURCE_BRICK] = 1;
	offer.want[RESOURCE_ORE] = 1;
	offer.to = 1u << 2;
	support_ok(&game, 0, &offer, NULL);
	ck_assert_int_eq(autoplay_bot_to_move(&game, 0x2), -1); /* seat 1 was not asked */
	ck_assert_int_eq(autoplay_bot_to_move(&game, 0x4), 2);	/* seat 2 owes an answer */
	struct command decline = support_command(COMMAND_DECLINE_TRADE);
	decline.trade = game.offers[0].id;
	support_ok(&game, 2, &decline, NULL);
	ck_assert_int_eq(autoplay_bot_to_move(&game, 0x4), -1);
}
END_TEST

/* A bot's offer (seat 0, a bot like seat 2) waits for the people it went to (seats 1 and
 * 3) once the other bot has answered, and for each of them until it answered: declined,
 * accepted or countered. A counter-offer is an answer for a bot seat too. */
START_TEST(test_a_bots_offer_awaits_the_people_it_went_to)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_roll(&game, 4, 4);
	support_clear_hands(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 0, 0, 1);
	support_set_hand(&game, 2, 0, 0, 1, 0, 0);
	support_set_hand(&game, 3, 0, 0, 1, 0, 1);
	uint8_t bots = (1u << 0) | (1u << 2);
	int offer_id = -1;
	ck_assert_int_eq(autoplay_offer_awaits(&game, bots, &offer_id), 0); /* no offer yet */
	ck_assert_int_eq(offer_id, 0);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[RESOURCE_BRICK] = 1;
	offer.want[RESOURCE_ORE] = 1;
	support_ok(&game, 0, &offer, NULL);
	int id = game.offers[0].id;
	/* Seat 2, a bot, answers first (at once); meanwhile the offer waits for nobody. */
	ck_assert_int_eq(autoplay_bot_to_move(&game, bots), 2);
	ck_assert_int_eq(autoplay_offer_awaits(&game, bots, &offer_id), 0);
	struct command counter = support_command(COMMAND_OFFER_TRADE);
	counter.trade = (uint16_t)id;
	counter.give[RESOURCE_WOOL] = 1;
	counter.want[RESOURCE_BRICK] = 1;
	support_ok(&game, 2, &counter, NULL);
	ck_assert_int_eq(autoplay_bot_to_move(&game, bots), 0); /* its counter was its answer */
	ck_assert_int_eq(autoplay_offer_awaits(&game, bots, &offer_id), (1u << 1) | (1u << 3));
	ck_assert_int_eq(offer_id, id);
	/* Had seat 2 been a person, its counter-offer would have answered all the same. */
	ck_assert_int_eq(autoplay_offer_awaits(&game, 1u << 0, NULL), (1u << 1) | (1u << 3));
	/* Nobody waits for a person's offer, nor for seats that are bots. */
	ck_assert_int_eq(autoplay_offer_awaits(&game, 1u << 2, NULL), 0);
	ck_assert_int_eq(autoplay_offer_awaits(&game, 0x0f, NULL), 0);
	struct command decline = support_command(COMMAND_DECLINE_TRADE);
	decline.trade = (uint16_t)id;
	support_ok(&game, 1, &decline, NULL);
	ck_assert_int_eq(autoplay_offer_awaits(&game, bots, &offer_id), 1u << 3);
	struct command accept = support_command(COMMAND_ACCEPT_TRADE);
	accept.trade = (uint16_t)id;
	support_ok(&game, 3, &accept, NULL);
	ck_assert_int_eq(autoplay_offer_awaits(&game, bots, &offer_id), 0);
	ck_assert_int_eq(offer_id, 0);
	ck_assert_int_eq(autoplay_bot_to_move(&game, bots), 0);
	/* Completing the offer ends the wait with it. */
	struct command take = support_command(COMMAND_CONFIRM_TRADE);
	take.trade = (uint16_t)id;
	take.with = 3;
	support_ok(&game, 0, &take, NULL);
	ck_assert_int_eq(autoplay_offer_awaits(&game, bots, NULL), 0);
}
END_TEST

/* Four bot seats driven only by autoplay finish games, every move accepted. */
START_TEST(test_bot_seats_play_whole_games)
{
	for (int g = 0; g < 20; g++) {
		struct game_options options;
		rules_default_options(&options);
		options.seats = (uint8_t)(3 + g % 2);
		options.layout = (uint8_t)(g / 2 % 2);
		struct game game;
		struct event_list events;
		struct rng rng;
		rng_init(&rng, (uint64_t)g, 0);
		memset(&game, 0, sizeof game);
		ck_assert_int_eq(rules_create(&options, &rng, &events), ERROR_OK);
		apply_events(&game, &events);
		uint8_t bots = (uint8_t)((1u << options.seats) - 1);
		int moves = 0;
		int seat;
		while ((seat = autoplay_bot_to_move(&game, bots)) >= 0 && moves < 5000) {
			struct command command;
			rng_init(&rng, (uint64_t)g, game.version);
			ck_assert_int_eq(autoplay_bot_move(&game, seat, &rng, scratch, &command), 1);
			struct game after;
			ck_assert_int_eq(rules_decide(&game, seat, &command, &rng, &events, &after), ERROR_OK);
			memcpy(&game, &after, sizeof game);
			moves++;
		}
		ck_assert_int_eq(game.phase, GAME_PHASE_FINISHED);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("autoplay");
	TCase *tc = tcase_create("autoplay");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_timeout_places_randomly_in_setup);
	tcase_add_test(tc, test_timeout_rolls_then_ends_the_turn);
	tcase_add_test(tc, test_timeout_discards_for_every_owing_seat_then_moves_the_robber);
	tcase_add_test(tc, test_timeout_declines_unanswered_offers_before_ending_the_turn);
	tcase_add_test(tc, test_nothing_to_do_after_the_win);
	tcase_add_test(tc, test_bot_to_move_is_the_waited_for_bot_or_an_addressed_bot);
	tcase_add_test(tc, test_a_bots_offer_awaits_the_people_it_went_to);
	tcase_add_test(tc, test_bot_seats_play_whole_games);
	suite_add_tcase(suite, tc);
	return suite;
}
