/*
 * test_trade.c - RULES.md section 7: maritime trade with the bank (4:1 always, 3:1 at a
 * generic harbor, 2:1 at that resource's harbor, a harbor counting only with one's own
 * building on it; every rate the seat is entitled to, not only the best, and a multiple of
 * a rate for that many cards) and domestic trade (offers by the active player, answers and
 * counter-offers from the others, completion by the active player; every trade includes
 * the active player; no gifts, no like for like; offers die when the turn ends).
 *
 * Beginner harbors: slot 6 (nodes 47, 51) and slot 0 (0, 3) are generic 3:1, slot 5 (49, 52)
 * lumber 2:1, slot 4 (42, 46) brick 2:1. After
 * the standard 4-seat draft seat 0's settlements 44 and 43 are on no harbor. Each test
 * starts on seat 0's turn after a roll of 2 (which pays seat 1 one wool) and empties the hands.
 */
#include "engine/legal.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_roll(game, 1, 1);
	support_clear_hands(game);
}

static struct command maritime(int give_resource, int give_count, int want_resource)
{
	struct command c = support_command(COMMAND_MARITIME_TRADE);
	c.give[give_resource] = (uint8_t)give_count;
	c.want[want_resource] = 1;
	return c;
}

/* An offer of `give_count` of one resource for `want_count` of another, to the seat mask `to`
 * (0: every other seat). */
static struct command offer(int give_resource, int give_count, int want_resource, int want_count, int to)
{
	struct command c = support_command(COMMAND_OFFER_TRADE);
	c.give[give_resource] = (uint8_t)give_count;
	c.want[want_resource] = (uint8_t)want_count;
	c.to = (uint8_t)to;
	return c;
}

static struct command answer(enum command_type type, int trade)
{
	struct command c = support_command(type);
	c.trade = (uint16_t)trade;
	return c;
}

static struct command confirm(int trade, int with)
{
	struct command c = answer(COMMAND_CONFIRM_TRADE, trade);
	c.with = (int8_t)with;
	return c;
}

/* Make an offer that must be accepted; returns its id. */
static int make_offer(struct game *game, int seat, const struct command *c)
{
	struct event_list events;
	support_ok(game, seat, c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_TRADE_OFFERED);
	return events.events[0].trade;
}

/* ---- maritime ---- */

START_TEST(test_maritime_four_to_one_always)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 5, 0, 0, 0, 0);
	ck_assert_int_eq(game_maritime_rate(&game, 0, RESOURCE_BRICK), 4);
	struct event_list events;
	struct command c = maritime(RESOURCE_BRICK, 4, RESOURCE_ORE);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_MARITIME_TRADED);
	support_assert_hand(&game, 0, 1, 0, 0, 0, 1);
	ck_assert_int_eq(game.bank[RESOURCE_BRICK], 18);
	ck_assert_int_eq(game.bank[RESOURCE_ORE], 18);
}
END_TEST

START_TEST(test_maritime_must_give_a_rate_times_the_cards_taken)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 9, 4, 0, 0, 0);
	struct command c = maritime(RESOURCE_BRICK, 3, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_BRICK, 5, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_BRICK, 8, RESOURCE_ORE); /* 8 for 1 is no rate */
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_BRICK, 7, RESOURCE_ORE);
	c.want[RESOURCE_ORE] = 2;
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_BRICK, 9, RESOURCE_ORE);
	c.want[RESOURCE_ORE] = 2;
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_BRICK, 4, RESOURCE_ORE);
	c.want[RESOURCE_ORE] = 2; /* 2:1 without the brick harbor */
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_BRICK, 2, RESOURCE_ORE);
	c.give[RESOURCE_LUMBER] = 2; /* two kinds */
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_BRICK, 4, RESOURCE_ORE);
	c.want[RESOURCE_WOOL] = 1;
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = support_command(COMMAND_MARITIME_TRADE);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
}
END_TEST

START_TEST(test_maritime_like_for_like_is_refused)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 4, 0, 0, 0, 0);
	struct command c = maritime(RESOURCE_BRICK, 4, RESOURCE_BRICK);
	support_refused(&game, 0, &c, ERROR_SAME_RESOURCE);
}
END_TEST

START_TEST(test_maritime_needs_the_cards_given)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 3, 0, 0, 0, 0);
	struct command c = maritime(RESOURCE_BRICK, 4, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
}
END_TEST

START_TEST(test_maritime_card_taken_must_be_in_the_bank)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 4, 0, 0, 0, 0);
	support_set_bank(&game, RESOURCE_ORE, 0, 2);
	struct command c = maritime(RESOURCE_BRICK, 4, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_BANK_EMPTY);
}
END_TEST

START_TEST(test_maritime_generic_harbor_three_to_one)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 51);
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		ck_assert_int_eq(game_maritime_rate(&game, 0, r), 3);
		ck_assert_uint_eq(game_maritime_rates(&game, 0, r), 1u << 3 | 1u << 4);
	}
	support_set_hand(&game, 0, 0, 0, 7, 0, 0);
	struct command c = maritime(RESOURCE_WOOL, 2, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_WOOL, 3, RESOURCE_ORE);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 0, 0, 4, 0, 1);
}
END_TEST

START_TEST(test_maritime_resource_harbor_two_to_one_for_that_resource_only)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 52); /* lumber 2:1 */
	ck_assert_int_eq(game_maritime_rate(&game, 0, RESOURCE_LUMBER), 2);
	ck_assert_int_eq(game_maritime_rate(&game, 0, RESOURCE_BRICK), 4);
	ck_assert_uint_eq(game_maritime_rates(&game, 0, RESOURCE_LUMBER), 1u << 2 | 1u << 4);
	ck_assert_uint_eq(game_maritime_rates(&game, 0, RESOURCE_BRICK), 1u << 4);
	support_set_hand(&game, 0, 2, 2, 0, 0, 0);
	struct command c = maritime(RESOURCE_BRICK, 2, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_LUMBER, 3, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	c = maritime(RESOURCE_LUMBER, 2, RESOURCE_ORE);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 2, 0, 0, 0, 1);
}
END_TEST

START_TEST(test_maritime_city_on_a_harbor_counts)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 52);
	support_place_city(&game, 0, 52);
	ck_assert_int_eq(game_maritime_rate(&game, 0, RESOURCE_LUMBER), 2);
}
END_TEST

/* RULES.md 7: a better rate never takes away a worse one. */
START_TEST(test_maritime_four_to_one_stays_legal_beside_a_harbor)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 51); /* generic 3:1 */
	support_place_settlement(&game, 0, 42); /* brick 2:1 */
	unsigned brick = game_maritime_rates(&game, 0, RESOURCE_BRICK);
	unsigned wool = game_maritime_rates(&game, 0, RESOURCE_WOOL);
	ck_assert_uint_eq(wool, 1u << 3 | 1u << 4);
	ck_assert_uint_eq(brick, 1u << 2 | 1u << 3 | 1u << 4);
	support_set_hand(&game, 0, 4, 0, 4, 0, 0);
	struct command c = maritime(RESOURCE_WOOL, 4, RESOURCE_ORE);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 4, 0, 0, 0, 1);
	c = maritime(RESOURCE_BRICK, 4, RESOURCE_GRAIN);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 0, 0, 0, 1, 1);
}
END_TEST

/* A seat on both the lumber 2:1 and a generic harbor trades lumber at 2:1, 3:1 and 4:1. */
START_TEST(test_maritime_resource_harbor_seat_may_still_trade_that_resource_at_three_or_four)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 52); /* lumber 2:1 */
	support_place_settlement(&game, 0, 0);	/* generic 3:1 */
	ck_assert_uint_eq(game_maritime_rates(&game, 0, RESOURCE_LUMBER), 1u << 2 | 1u << 3 | 1u << 4);
	support_set_hand(&game, 0, 0, 9, 0, 0, 0);
	struct command c = maritime(RESOURCE_LUMBER, 3, RESOURCE_ORE);
	support_ok(&game, 0, &c, NULL);
	c = maritime(RESOURCE_LUMBER, 4, RESOURCE_ORE);
	support_ok(&game, 0, &c, NULL);
	c = maritime(RESOURCE_LUMBER, 2, RESOURCE_ORE);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 3);
}
END_TEST

/* 8 wool at 4:1 buy 2 cards, when the bank holds them; the rate is judged per card taken. */
START_TEST(test_maritime_multiple_of_a_rate_buys_that_many_cards)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 0, 0, 12, 0, 0);
	struct command c = maritime(RESOURCE_WOOL, 8, RESOURCE_ORE);
	c.want[RESOURCE_ORE] = 2;
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	const struct event *traded = support_find_event(&events, EVENT_MARITIME_TRADED);
	ck_assert_ptr_nonnull(traded);
	ck_assert_int_eq(traded->give[RESOURCE_WOOL], 8);
	ck_assert_int_eq(traded->want[RESOURCE_ORE], 2);
	support_assert_hand(&game, 0, 0, 0, 4, 0, 2);
	ck_assert_int_eq(game.bank[RESOURCE_ORE], RESOURCE_BANK_START - 2);
	/* Two cards wanted, one in the bank: refused, nothing taken. */
	support_set_hand(&game, 0, 0, 0, 8, 0, 0);
	support_set_bank(&game, RESOURCE_GRAIN, 1, 1);
	c = maritime(RESOURCE_WOOL, 8, RESOURCE_GRAIN);
	c.want[RESOURCE_GRAIN] = 2;
	support_refused(&game, 0, &c, ERROR_BANK_EMPTY);
	/* With a generic harbor, 6 for 2 (3:1 twice) and 12 for 3 (4:1 three times) both go. */
	support_place_settlement(&game, 0, 51);
	support_set_hand(&game, 0, 0, 0, 18, 0, 0);
	c = maritime(RESOURCE_WOOL, 6, RESOURCE_BRICK);
	c.want[RESOURCE_BRICK] = 2;
	support_ok(&game, 0, &c, NULL);
	c = maritime(RESOURCE_WOOL, 12, RESOURCE_LUMBER);
	c.want[RESOURCE_LUMBER] = 3;
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 2, 3, 0, 0, 0);
}
END_TEST

/* The maritime trades listed for the active seat, as (give resource, give count, want resource,
 * want count) rows, in a table of `capacity` rows; returns how many. */
static int listed_maritime(const struct game *game, int rows[][4], int capacity)
{
	static struct command moves[LEGAL_MOVES_MAX];
	int count = legal_moves(game, game->turn_seat, moves, LEGAL_MOVES_MAX);
	int found = 0;
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_MARITIME_TRADE)
			continue;
		ck_assert_int_lt(found, capacity);
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			if (moves[i].give[r]) {
				rows[found][0] = r;
				rows[found][1] = moves[i].give[r];
			}
			if (moves[i].want[r]) {
				rows[found][2] = r;
				rows[found][3] = moves[i].want[r];
			}
		}
		found++;
	}
	return found;
}

static int has_row(int rows[][4], int count, int give, int give_count, int want, int want_count)
{
	for (int i = 0; i < count; i++)
		if (rows[i][0] == give && rows[i][1] == give_count && rows[i][2] == want && rows[i][3] == want_count)
			return 1;
	return 0;
}

/* The legal-move list says which rates apply: one entry per rate and multiple. */
START_TEST(test_maritime_legal_moves_list_every_rate_and_multiple)
{
	struct game game;
	start(&game);
	support_place_settlement(&game, 0, 51); /* generic 3:1 */
	support_set_hand(&game, 0, 0, 0, 8, 0, 0);
	int rows[64][4];
	int count = listed_maritime(&game, rows, 64);
	/* Wool at 3:1 (3 for 1, 6 for 2) and 4:1 (4 for 1, 8 for 2), for each of 4 resources. */
	ck_assert_int_eq(count, 16);
	for (int want = 0; want < RESOURCE_COUNT; want++) {
		if (want == RESOURCE_WOOL)
			continue;
		ck_assert(has_row(rows, count, RESOURCE_WOOL, 3, want, 1));
		ck_assert(has_row(rows, count, RESOURCE_WOOL, 6, want, 2));
		ck_assert(has_row(rows, count, RESOURCE_WOOL, 4, want, 1));
		ck_assert(has_row(rows, count, RESOURCE_WOOL, 8, want, 2));
	}
	/* The bank's last ore buys one card, never two. */
	support_set_bank(&game, RESOURCE_ORE, 1, 1);
	count = listed_maritime(&game, rows, 64);
	ck_assert_int_eq(count, 14);
	ck_assert(has_row(rows, count, RESOURCE_WOOL, 3, RESOURCE_ORE, 1));
	ck_assert(has_row(rows, count, RESOURCE_WOOL, 4, RESOURCE_ORE, 1));
	ck_assert(!has_row(rows, count, RESOURCE_WOOL, 6, RESOURCE_ORE, 2));
	ck_assert(!has_row(rows, count, RESOURCE_WOOL, 8, RESOURCE_ORE, 2));
	/* Every listed trade is accepted. */
	for (int i = 0; i < count; i++) {
		struct game copy = game;
		struct command c = maritime(rows[i][0], rows[i][1], rows[i][2]);
		c.want[rows[i][2]] = (uint8_t)rows[i][3];
		support_ok(&copy, 0, &c, NULL);
	}
}
END_TEST

START_TEST(test_maritime_harbor_reached_only_by_a_road_does_not_count)
{
	struct game game;
	start(&game);
	support_road_path(&game, 0, 43, 47, 51, -1); /* roads over both generic harbor nodes */
	ck_assert_int_eq(game_maritime_rate(&game, 0, RESOURCE_BRICK), 4);
	support_set_hand(&game, 0, 3, 0, 0, 0, 0);
	struct command c = maritime(RESOURCE_BRICK, 3, RESOURCE_ORE);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
	/* Another seat's settlement on the harbor does not help seat 0 either. */
	support_place_settlement(&game, 1, 51);
	support_refused(&game, 0, &c, ERROR_MARITIME_RATE);
}
END_TEST

START_TEST(test_maritime_only_by_the_active_player)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 4, 0, 0, 0, 0);
	struct command c = maritime(RESOURCE_BRICK, 4, RESOURCE_ORE);
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
}
END_TEST

/* ---- domestic ---- */

START_TEST(test_offer_accept_confirm_exchanges_the_cards)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 2, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 2, RESOURCE_WOOL, 1, 0);
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	const struct event *offered = &events.events[0];
	ck_assert_int_eq(offered->type, EVENT_TRADE_OFFERED);
	ck_assert_int_eq(offered->seat, 0);
	ck_assert_int_eq(offered->to, 0xe); /* every other seat */
	int id = offered->trade;
	ck_assert_ptr_nonnull(game_find_offer(&game, id));
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_ok(&game, 1, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_TRADE_ACCEPTED);
	c = answer(COMMAND_DECLINE_TRADE, id);
	support_ok(&game, 2, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_TRADE_DECLINED);
	c = confirm(id, 1);
	support_ok(&game, 0, &c, &events);
	const struct event *completed = &events.events[0];
	ck_assert_int_eq(completed->type, EVENT_TRADE_COMPLETED);
	ck_assert_int_eq(completed->seat, 0);
	ck_assert_int_eq(completed->other, 1);
	support_assert_hand(&game, 0, 0, 0, 1, 0, 0);
	support_assert_hand(&game, 1, 2, 0, 0, 0, 0);
	ck_assert_ptr_null(game_find_offer(&game, id));
}
END_TEST

START_TEST(test_confirm_only_with_a_seat_that_accepted)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	for (int s = 1; s < 4; s++)
		support_set_hand(&game, s, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int id = make_offer(&game, 0, &c);
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_ok(&game, 1, &c, NULL);
	c = answer(COMMAND_DECLINE_TRADE, id);
	support_ok(&game, 2, &c, NULL);
	static const int not_accepted[] = {2, 3, 0, -1, 4};
	for (int i = 0; i < 5; i++) {
		c = confirm(id, not_accepted[i]);
		support_refused(&game, 0, &c, ERROR_TRADE_NOT_ACCEPTED);
	}
	c = confirm(id, 1);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 1, 1, 0, 0, 0, 0);
	support_assert_hand(&game, 2, 0, 0, 1, 0, 0);
}
END_TEST

START_TEST(test_offer_to_chosen_seats_only_reaches_them)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 2, 0, 0, 1, 0, 0);
	support_set_hand(&game, 3, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 1 << 2);
	int id = make_offer(&game, 0, &c);
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_refused(&game, 3, &c, ERROR_TRADE_NOT_ADDRESSED);
	c = answer(COMMAND_DECLINE_TRADE, id);
	support_refused(&game, 3, &c, ERROR_TRADE_NOT_ADDRESSED);
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_ok(&game, 2, &c, NULL);
	/* The offer cannot include the offering seat or a seat that does not exist. */
	c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 1 << 0);
	support_refused(&game, 0, &c, ERROR_INVALID_SEAT);
}
END_TEST

START_TEST(test_answers_once_each)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int id = make_offer(&game, 0, &c);
	struct command accept = answer(COMMAND_ACCEPT_TRADE, id);
	struct command decline = answer(COMMAND_DECLINE_TRADE, id);
	support_ok(&game, 1, &accept, NULL);
	support_refused(&game, 1, &accept, ERROR_TRADE_ALREADY_ANSWERED);
	support_ok(&game, 2, &decline, NULL);
	support_refused(&game, 2, &decline, ERROR_TRADE_ALREADY_ANSWERED);
	/* Changing one's mind is an answer too. */
	support_ok(&game, 1, &decline, NULL);
	c = confirm(id, 1);
	support_refused(&game, 0, &c, ERROR_TRADE_NOT_ACCEPTED);
}
END_TEST

START_TEST(test_accepting_needs_the_cards_wanted)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 2, 0);
	int id = make_offer(&game, 0, &c);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_refused(&game, 1, &c, ERROR_INSUFFICIENT_RESOURCES);
}
END_TEST

START_TEST(test_resources_are_checked_again_at_confirm)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 1, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int first = make_offer(&game, 0, &c);
	c = offer(RESOURCE_BRICK, 1, RESOURCE_GRAIN, 1, 0);
	int second = make_offer(&game, 0, &c);
	c = answer(COMMAND_ACCEPT_TRADE, first);
	support_ok(&game, 1, &c, NULL);
	c = answer(COMMAND_ACCEPT_TRADE, second);
	support_ok(&game, 1, &c, NULL);
	c = confirm(first, 1);
	support_ok(&game, 0, &c, NULL);
	/* The one brick is gone: the second offer can no longer be completed. */
	c = confirm(second, 1);
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
}
END_TEST

START_TEST(test_confirm_refused_when_the_partner_no_longer_holds_the_cards)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 1, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int first = make_offer(&game, 0, &c);
	c = offer(RESOURCE_GRAIN, 1, RESOURCE_WOOL, 1, 0);
	int second = make_offer(&game, 0, &c);
	c = answer(COMMAND_ACCEPT_TRADE, first);
	support_ok(&game, 1, &c, NULL);
	c = answer(COMMAND_ACCEPT_TRADE, second);
	support_ok(&game, 1, &c, NULL);
	c = confirm(second, 1);
	support_ok(&game, 0, &c, NULL);
	c = confirm(first, 1);
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
}
END_TEST

START_TEST(test_only_the_offering_seat_withdraws)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int id = make_offer(&game, 0, &c);
	c = answer(COMMAND_WITHDRAW_TRADE, id);
	support_refused(&game, 1, &c, ERROR_TRADE_NOT_YOURS);
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_TRADE_WITHDRAWN);
	ck_assert_ptr_null(game_find_offer(&game, id));
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_refused(&game, 1, &c, ERROR_TRADE_NOT_FOUND);
	c = answer(COMMAND_WITHDRAW_TRADE, id);
	support_refused(&game, 0, &c, ERROR_TRADE_NOT_FOUND);
}
END_TEST

START_TEST(test_unknown_offer_is_not_found)
{
	struct game game;
	start(&game);
	struct command c = confirm(42, 1);
	support_refused(&game, 0, &c, ERROR_TRADE_NOT_FOUND);
	c = answer(COMMAND_ACCEPT_TRADE, 42);
	support_refused(&game, 1, &c, ERROR_TRADE_NOT_FOUND);
	c = answer(COMMAND_DECLINE_TRADE, 0);
	support_refused(&game, 1, &c, ERROR_TRADE_NOT_FOUND);
}
END_TEST

START_TEST(test_counter_offer_goes_to_the_active_player_who_confirms_it)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 2, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 1, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int id = make_offer(&game, 0, &c);
	/* Seat 1 counters: its grain for two bricks, answering offer id. */
	struct command counter = offer(RESOURCE_GRAIN, 1, RESOURCE_BRICK, 2, 0);
	counter.trade = (uint16_t)id;
	struct event_list events;
	support_ok(&game, 1, &counter, &events);
	const struct event *offered = &events.events[0];
	ck_assert_int_eq(offered->type, EVENT_TRADE_OFFERED);
	ck_assert_int_eq(offered->seat, 1);
	ck_assert_int_eq(offered->to, 1 << 0);
	ck_assert_int_eq(offered->counter_to, id);
	int counter_id = offered->trade;
	ck_assert_int_ne(counter_id, id);
	/* The active player takes a counter-offer with confirm, not accept. */
	c = answer(COMMAND_ACCEPT_TRADE, counter_id);
	support_refused(&game, 0, &c, ERROR_TRADE_CONFIRM_REQUIRED);
	c = answer(COMMAND_ACCEPT_TRADE, counter_id);
	support_refused(&game, 2, &c, ERROR_TRADE_NOT_ADDRESSED);
	c = confirm(counter_id, 2);
	support_refused(&game, 0, &c, ERROR_TRADE_NOT_ACCEPTED);
	c = confirm(counter_id, -1);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_TRADE_COMPLETED);
	ck_assert_int_eq(events.events[0].other, 1);
	support_assert_hand(&game, 0, 0, 0, 0, 1, 0);
	support_assert_hand(&game, 1, 2, 0, 1, 0, 0);
}
END_TEST

START_TEST(test_counter_offer_to_another_inactive_seat_is_refused)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int id = make_offer(&game, 0, &c);
	struct command counter = offer(RESOURCE_WOOL, 1, RESOURCE_BRICK, 1, 1 << 2);
	counter.trade = (uint16_t)id;
	support_refused(&game, 1, &counter, ERROR_INACTIVE_PLAYERS_CANNOT_TRADE);
	counter.to = (1 << 0) | (1 << 2);
	support_refused(&game, 1, &counter, ERROR_INACTIVE_PLAYERS_CANNOT_TRADE);
	counter.to = 0;
	counter.trade = 99;
	support_refused(&game, 1, &counter, ERROR_TRADE_NOT_FOUND);
}
END_TEST

START_TEST(test_counter_offer_answers_only_an_offer_made_to_its_seat)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 3, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 1 << 2);
	int id = make_offer(&game, 0, &c);
	struct command counter = offer(RESOURCE_WOOL, 1, RESOURCE_BRICK, 1, 0);
	counter.trade = (uint16_t)id;
	support_refused(&game, 3, &counter, ERROR_TRADE_NOT_ADDRESSED);
	/* Without naming the offer, seat 3 may still offer to the active player. */
	counter.trade = 0;
	support_ok(&game, 3, &counter, NULL);
}
END_TEST

START_TEST(test_two_inactive_players_never_trade)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	support_set_hand(&game, 2, 1, 0, 0, 0, 0);
	struct command c = offer(RESOURCE_WOOL, 1, RESOURCE_BRICK, 1, 1 << 2);
	support_refused(&game, 1, &c, ERROR_INACTIVE_PLAYERS_CANNOT_TRADE);
}
END_TEST

START_TEST(test_no_gifts)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 0, 0);
	support_refused(&game, 0, &c, ERROR_TRADE_EMPTY_SIDE);
	c = offer(RESOURCE_BRICK, 0, RESOURCE_WOOL, 1, 0);
	support_refused(&game, 0, &c, ERROR_TRADE_EMPTY_SIDE);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	c = offer(RESOURCE_WOOL, 1, RESOURCE_BRICK, 0, 0);
	support_refused(&game, 1, &c, ERROR_TRADE_EMPTY_SIDE);
}
END_TEST

START_TEST(test_no_like_for_like)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 2, 0, 0, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_BRICK, 1, 0);
	support_refused(&game, 0, &c, ERROR_SAME_RESOURCE);
	c = offer(RESOURCE_BRICK, 2, RESOURCE_WOOL, 1, 0);
	c.want[RESOURCE_BRICK] = 1;
	support_refused(&game, 0, &c, ERROR_SAME_RESOURCE);
}
END_TEST

START_TEST(test_offer_needs_the_cards_given)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 2, RESOURCE_WOOL, 1, 0);
	support_refused(&game, 0, &c, ERROR_INSUFFICIENT_RESOURCES);
}
END_TEST

START_TEST(test_too_many_open_offers)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int first = 0;
	for (int i = 0; i < GAME_OFFERS_ACTIVE_SEAT; i++) {
		int id = make_offer(&game, 0, &c);
		if (i == 0)
			first = id;
	}
	support_refused(&game, 0, &c, ERROR_TOO_MANY_OFFERS);
	struct command withdraw = answer(COMMAND_WITHDRAW_TRADE, first);
	support_ok(&game, 0, &withdraw, NULL);
	make_offer(&game, 0, &c);
}
END_TEST

/* RULES.md 7: counter-offers never fill the active player's room. Every other seat makes
 * as many counter-offers as it can; then the active player still offers its full cap, is
 * still listed the offer template, and the inactive seats' extra offers are refused. */
START_TEST(test_counter_offer_flood_never_blocks_the_active_player)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	for (int s = 1; s < 4; s++)
		support_set_hand(&game, s, 0, 0, 3, 0, 0);
	struct command counter = offer(RESOURCE_WOOL, 1, RESOURCE_BRICK, 1, 0);
	for (int s = 1; s < 4; s++) {
		for (int i = 0; i < GAME_OFFERS_PER_OTHER_SEAT; i++)
			make_offer(&game, s, &counter);
		support_refused(&game, s, &counter, ERROR_TOO_MANY_OFFERS);
		/* Nor is the template listed to it any more. */
		static struct command moves[LEGAL_MOVES_MAX];
		int count = legal_moves(&game, s, moves, LEGAL_MOVES_MAX);
		for (int m = 0; m < count; m++)
			ck_assert_int_ne(moves[m].type, COMMAND_OFFER_TRADE);
	}
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	for (int i = 0; i < GAME_OFFERS_ACTIVE_SEAT; i++) {
		static struct command moves[LEGAL_MOVES_MAX];
		int count = legal_moves(&game, 0, moves, LEGAL_MOVES_MAX);
		int template = 0;
		for (int m = 0; m < count; m++)
			template |= moves[m].type == COMMAND_OFFER_TRADE &&moves[m].is_template;
		ck_assert_msg(template, "the active player lost its offer template after %d offers", i);
		make_offer(&game, 0, &c);
	}
	support_refused(&game, 0, &c, ERROR_TOO_MANY_OFFERS);
	/* A seat's withdrawal frees only its own room. */
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		if (game.offers[i].id != 0 && game.offers[i].from == 1) {
			struct command withdraw = answer(COMMAND_WITHDRAW_TRADE, game.offers[i].id);
			support_ok(&game, 1, &withdraw, NULL);
			break;
		}
	}
	support_refused(&game, 2, &counter, ERROR_TOO_MANY_OFFERS);
	make_offer(&game, 1, &counter);
}
END_TEST

/* The caps cover every seat at once within the slots the state has. */
START_TEST(test_offer_caps_fit_the_offer_slots)
{
	ck_assert_int_ge(GAME_OFFERS_PER_OTHER_SEAT, 1);
	ck_assert_int_ge(GAME_OFFERS_ACTIVE_SEAT, 1);
	ck_assert_int_le(GAME_OFFERS_ACTIVE_SEAT + (GAME_MAX_SEATS - 1) * GAME_OFFERS_PER_OTHER_SEAT, GAME_MAX_OFFERS);
	struct game game;
	start(&game);
	ck_assert_int_eq(game_offer_cap(&game, 0), GAME_OFFERS_ACTIVE_SEAT);
	ck_assert_int_eq(game_offer_cap(&game, 2), GAME_OFFERS_PER_OTHER_SEAT);
}
END_TEST

/* An offer naming a seat the game does not have is refused, in 4- and 3-seat games. */
START_TEST(test_offer_to_seats_that_do_not_exist_is_refused)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	static const int missing[] = {1 << 4, 1 << 5, 1 << 7, (1 << 1) | (1 << 4), 0xff};
	for (int i = 0; i < 5; i++) {
		struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, missing[i]);
		support_refused(&game, 0, &c, ERROR_INVALID_SEAT);
	}
	/* A counter-offer goes to the active seat only, never to a missing one. */
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command counter = offer(RESOURCE_WOOL, 1, RESOURCE_BRICK, 1, 1 << 4);
	support_refused(&game, 1, &counter, ERROR_INACTIVE_PLAYERS_CANNOT_TRADE);
	/* Nor may a seat that does not exist act. */
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	support_refused(&game, 4, &c, ERROR_INVALID_SEAT);
	support_refused(&game, -1, &c, ERROR_INVALID_SEAT);

	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_roll(&game, 1, 1);
	support_clear_hands(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 1 << 3);
	support_refused(&game, 0, &c, ERROR_INVALID_SEAT);
	c.to = (1 << 1) | (1 << 3);
	support_refused(&game, 0, &c, ERROR_INVALID_SEAT);
	support_refused(&game, 3, &c, ERROR_INVALID_SEAT);
	c.to = 0;
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].to, (1 << 1) | (1 << 2));
}
END_TEST

START_TEST(test_offers_die_when_the_turn_ends)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int id = make_offer(&game, 0, &c);
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_ok(&game, 1, &c, NULL);
	c = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &c, NULL);
	ck_assert_ptr_null(game_find_offer(&game, id));
	support_roll(&game, 1, 1);
	c = confirm(id, 1);
	support_refused(&game, 1, &c, ERROR_TRADE_NOT_FOUND);
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_refused(&game, 2, &c, ERROR_TRADE_NOT_FOUND);
}
END_TEST

START_TEST(test_trading_before_the_roll_is_refused)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	support_refused(&game, 0, &c, ERROR_MUST_ROLL_FIRST);
	c = offer(RESOURCE_WOOL, 1, RESOURCE_BRICK, 1, 0);
	support_refused(&game, 1, &c, ERROR_MUST_ROLL_FIRST);
}
END_TEST

START_TEST(test_only_the_active_player_confirms)
{
	struct game game;
	start(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 1, 0, 0);
	struct command c = offer(RESOURCE_BRICK, 1, RESOURCE_WOOL, 1, 0);
	int id = make_offer(&game, 0, &c);
	c = answer(COMMAND_ACCEPT_TRADE, id);
	support_ok(&game, 1, &c, NULL);
	c = confirm(id, 1);
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
	c = confirm(id, 0);
	support_refused(&game, 1, &c, ERROR_NOT_YOUR_TURN);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("trade");
	TCase *tc = tcase_create("trade");
	tcase_add_test(tc, test_maritime_four_to_one_always);
	tcase_add_test(tc, test_maritime_must_give_a_rate_times_the_cards_taken);
	tcase_add_test(tc, test_maritime_like_for_like_is_refused);
	tcase_add_test(tc, test_maritime_needs_the_cards_given);
	tcase_add_test(tc, test_maritime_card_taken_must_be_in_the_bank);
	tcase_add_test(tc, test_maritime_generic_harbor_three_to_one);
	tcase_add_test(tc, test_maritime_resource_harbor_two_to_one_for_that_resource_only);
	tcase_add_test(tc, test_maritime_city_on_a_harbor_counts);
	tcase_add_test(tc, test_maritime_four_to_one_stays_legal_beside_a_harbor);
	tcase_add_test(tc, test_maritime_resource_harbor_seat_may_still_trade_that_resource_at_three_or_four);
	tcase_add_test(tc, test_maritime_multiple_of_a_rate_buys_that_many_cards);
	tcase_add_test(tc, test_maritime_legal_moves_list_every_rate_and_multiple);
	tcase_add_test(tc, test_maritime_harbor_reached_only_by_a_road_does_not_count);
	tcase_add_test(tc, test_maritime_only_by_the_active_player);
	tcase_add_test(tc, test_offer_accept_confirm_exchanges_the_cards);
	tcase_add_test(tc, test_confirm_only_with_a_seat_that_accepted);
	tcase_add_test(tc, test_offer_to_chosen_seats_only_reaches_them);
	tcase_add_test(tc, test_answers_once_each);
	tcase_add_test(tc, test_accepting_needs_the_cards_wanted);
	tcase_add_test(tc, test_resources_are_checked_again_at_confirm);
	tcase_add_test(tc, test_confirm_refused_when_the_partner_no_longer_holds_the_cards);
	tcase_add_test(tc, test_only_the_offering_seat_withdraws);
	tcase_add_test(tc, test_unknown_offer_is_not_found);
	tcase_add_test(tc, test_counter_offer_goes_to_the_active_player_who_confirms_it);
	tcase_add_test(tc, test_counter_offer_to_another_inactive_seat_is_refused);
	tcase_add_test(tc, test_counter_offer_answers_only_an_offer_made_to_its_seat);
	tcase_add_test(tc, test_two_inactive_players_never_trade);
	tcase_add_test(tc, test_no_gifts);
	tcase_add_test(tc, test_no_like_for_like);
	tcase_add_test(tc, test_offer_needs_the_cards_given);
	tcase_add_test(tc, test_too_many_open_offers);
	tcase_add_test(tc, test_counter_offer_flood_never_blocks_the_active_player);
	tcase_add_test(tc, test_offer_caps_fit_the_offer_slots);
	tcase_add_test(tc, test_offer_to_seats_that_do_not_exist_is_refused);
	tcase_add_test(tc, test_offers_die_when_the_turn_ends);
	tcase_add_test(tc, test_trading_before_the_roll_is_refused);
	tcase_add_test(tc, test_only_the_active_player_confirms);
	suite_add_tcase(suite, tc);
	return suite;
}
