/*
 * test_view.c - redaction: what each viewer may see of a game (view_game) and of its events
 * (view_event), in specific positions.
 *
 * The rule (view.h, API.md): a seat sees its own hand and development cards under `you`;
 * everyone sees only counts of other seats' cards, public points, and how many development
 * cards are left, never the deck's composition; a stolen card is seen by thief and victim
 * only, a bought card by the buyer only; the winner's victory point cards are revealed.
 * test_properties.c checks the same over random games; these pin it in known positions.
 */
#include "tests/check_main.h"

#include <string.h>

#include "engine/view.h"
#include "tests/engine/support.h"

/* Turn 1, seat 0 to roll, 4 seats on the beginner board, every hand set. */
static void start_position(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_set_hand(game, 0, 1, 1, 1, 0, 0);
	support_set_hand(game, 1, 2, 0, 1, 1, 0);
	support_set_hand(game, 2, 0, 0, 0, 0, 3);
	support_set_hand(game, 3, 1, 1, 1, 1, 1);
}

static struct game_view view_of(const struct game *game, int viewer)
{
	struct game_view view;
	memset(&view, 0x5c, sizeof view);
	view_game(game, viewer, &view);
	return view;
}

START_TEST(test_spectator_sees_counts_and_no_hand)
{
	struct game game;
	start_position(&game);
	struct game_view view = view_of(&game, VIEW_SPECTATOR);
	struct view_you nobody;
	memset(&nobody, 0, sizeof nobody);
	ck_assert_int_eq(view.viewer, VIEW_SPECTATOR);
	ck_assert_int_eq(view.has_you, 0);
	ck_assert(memcmp(&view.you, &nobody, sizeof nobody) == 0);
	ck_assert_int_eq(view.players[0].resource_count, 3);
	ck_assert_int_eq(view.players[1].resource_count, 4);
	ck_assert_int_eq(view.players[2].resource_count, 3);
	ck_assert_int_eq(view.players[3].resource_count, 5);
	ck_assert(memcmp(view.bank, game.bank, sizeof view.bank) == 0);
	ck_assert_int_eq(view.development_cards_left, 25);
}
END_TEST

START_TEST(test_seat_sees_its_own_hand_under_you)
{
	struct game game;
	start_position(&game);
	for (int seat = 0; seat < 4; seat++) {
		struct game_view view = view_of(&game, seat);
		ck_assert_int_eq(view.has_you, 1);
		ck_assert_int_eq(view.you.seat, seat);
		ck_assert(memcmp(view.you.resources, game.players[seat].resources, RESOURCE_COUNT) == 0);
	}
}
END_TEST

START_TEST(test_other_hands_do_not_change_a_seats_view)
{
	struct game game, other;
	start_position(&game);
	memcpy(&other, &game, sizeof other);
	/* Same counts, different cards, for every seat but 1. */
	support_set_hand(&other, 0, 0, 0, 0, 3, 0);
	support_set_hand(&other, 2, 1, 1, 0, 1, 0);
	support_set_hand(&other, 3, 0, 0, 5, 0, 0);
	for (int r = 0; r < RESOURCE_COUNT; r++) /* the bank is public: keep it */
		other.bank[r] = game.bank[r];
	struct game_view a = view_of(&game, 1), b = view_of(&other, 1);
	ck_assert(memcmp(&a, &b, sizeof a) == 0);
	a = view_of(&game, VIEW_SPECTATOR);
	b = view_of(&other, VIEW_SPECTATOR);
	ck_assert(memcmp(&a, &b, sizeof a) == 0);
	/* Seat 0's own view does change: it sees its own new hand. */
	a = view_of(&game, 0);
	b = view_of(&other, 0);
	ck_assert(memcmp(&a, &b, sizeof a) != 0);
}
END_TEST

START_TEST(test_development_cards_are_counted_not_shown)
{
	struct game game, other;
	start_position(&game);
	support_give_development(&game, 2, DEVELOPMENT_KNIGHT, 2);
	support_give_development(&game, 2, DEVELOPMENT_VICTORY_POINT, 1);
	memcpy(&other, &game, sizeof other);
	/* Seat 2 holds monopoly, road building, year of plenty instead; the deck differs too. */
	memset(other.players[2].development_cards, 0, DEVELOPMENT_COUNT);
	other.players[2].development_cards[DEVELOPMENT_MONOPOLY] = 1;
	other.players[2].development_cards[DEVELOPMENT_ROAD_BUILDING] = 1;
	other.players[2].development_cards[DEVELOPMENT_YEAR_OF_PLENTY] = 1;
	memcpy(other.deck, (uint8_t[DEVELOPMENT_COUNT]){14, 1, 1, 1, 5}, DEVELOPMENT_COUNT);

	for (int viewer = VIEW_SPECTATOR; viewer < 4; viewer++) {
		if (viewer == 2)
			continue;
		struct game_view a = view_of(&game, viewer), b = view_of(&other, viewer);
		ck_assert_int_eq(a.players[2].development_card_count, 3);
		ck_assert_int_eq(a.development_cards_left, 22);
		ck_assert_int_eq(a.players[2].victory_points, 2); /* two settlements; the card is hidden */
		ck_assert_msg(memcmp(&a, &b, sizeof a) == 0, "viewer %d tells the two apart", viewer);
	}
	struct game_view own = view_of(&game, 2);
	ck_assert_int_eq(own.you.development_cards[DEVELOPMENT_KNIGHT], 2);
	ck_assert_int_eq(own.you.development_cards[DEVELOPMENT_VICTORY_POINT], 1);
	ck_assert_int_eq(own.you.victory_points, 3);
	ck_assert_int_eq(own.players[2].victory_points, 2);
}
END_TEST

START_TEST(test_viewer_outside_the_seats_is_a_spectator)
{
	struct game game;
	support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	struct game_view spectator = view_of(&game, VIEW_SPECTATOR);
	static const int outsiders[] = {3, 4, 9, -2};
	for (size_t i = 0; i < sizeof outsiders / sizeof outsiders[0]; i++) {
		struct game_view view = view_of(&game, outsiders[i]);
		ck_assert_int_eq(view.has_you, 0);
		view.viewer = VIEW_SPECTATOR;
		ck_assert(memcmp(&view, &spectator, sizeof view) == 0);
	}
	/* A 3-seat game shows nothing for the unused fourth seat. */
	struct view_player empty;
	memset(&empty, 0, sizeof empty);
	ck_assert(memcmp(&spectator.players[3], &empty, sizeof empty) == 0);
}
END_TEST

START_TEST(test_winner_reveals_victory_point_cards)
{
	struct game game;
	start_position(&game);
	/* Seat 0: cities on both settlements, a third settlement, 5 victory point cards = 10. */
	support_place_city(&game, 0, 44);
	support_place_city(&game, 0, 43);
	support_place_settlement(&game, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 5);
	struct game_view before = view_of(&game, 1);
	ck_assert_int_eq(before.players[0].victory_points, 5);

	struct event_list events;
	struct command roll = support_command(COMMAND_ROLL);
	roll.dice[0] = 2;
	roll.dice[1] = 3;
	support_ok(&game, 0, &roll, &events);
	ck_assert_int_eq(game.phase, GAME_PHASE_FINISHED);
	ck_assert_int_eq(game.winner, 0);
	for (int viewer = VIEW_SPECTATOR; viewer < 4; viewer++) {
		struct game_view view = view_of(&game, viewer);
		ck_assert_int_eq(view.winner, 0);
		ck_assert_int_eq(view.players[0].victory_points, 10);
		ck_assert_int_eq(view.players[1].victory_points, 2);
	}
	const struct event *won = &events.events[events.count - 1];
	ck_assert_int_eq(won->type, EVENT_GAME_WON);
	ck_assert_int_eq(won->victory_point_cards, 5);
	struct event seen;
	view_event(won, 2, &seen);
	ck_assert_int_eq(seen.victory_point_cards, 5);
}
END_TEST

START_TEST(test_stolen_card_seen_by_thief_and_victim_only)
{
	struct game game;
	start_position(&game);
	support_set_hand(&game, 1, 0, 0, 0, 2, 0); /* seat 1 holds grain only */
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	/* Hex 7 touches seat 1's settlement on node 28 and no other building. */
	struct command move = support_command(COMMAND_MOVE_ROBBER);
	move.hex = 7;
	move.victim = 1;
	struct event_list events;
	support_ok(&game, 0, &move, &events);
	ck_assert_int_eq(events.count, 2);
	const struct event *stolen = &events.events[1];
	ck_assert_int_eq(stolen->type, EVENT_RESOURCE_STOLEN);
	ck_assert_int_eq(stolen->resource, RESOURCE_GRAIN);
	for (int viewer = VIEW_SPECTATOR; viewer < 4; viewer++) {
		struct event seen, expected = *stolen;
		view_event(stolen, viewer, &seen);
		if (viewer != 0 && viewer != 1)
			expected.resource = RESOURCE_HIDDEN;
		ck_assert_msg(memcmp(&seen, &expected, sizeof seen) == 0, "viewer %d", viewer);
		struct event moved;
		view_event(&events.events[0], viewer, &moved);
		ck_assert(memcmp(&moved, &events.events[0], sizeof moved) == 0);
	}
}
END_TEST

START_TEST(test_bought_card_seen_by_the_buyer_only)
{
	struct game game;
	start_position(&game);
	support_roll(&game, 2, 3);
	support_set_hand(&game, 0, 0, 0, 1, 1, 1);
	struct event_list events;
	struct command buy = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_ok(&game, 0, &buy, &events);
	ck_assert_int_eq(events.count, 1);
	const struct event *bought = &events.events[0];
	ck_assert_int_eq(bought->type, EVENT_DEVELOPMENT_CARD_BOUGHT);
	ck_assert_int_lt(bought->card, DEVELOPMENT_COUNT);
	for (int viewer = VIEW_SPECTATOR; viewer < 4; viewer++) {
		struct event seen, expected = *bought;
		view_event(bought, viewer, &seen);
		if (viewer != 0)
			expected.card = DEVELOPMENT_HIDDEN;
		ck_assert_msg(memcmp(&seen, &expected, sizeof seen) == 0, "viewer %d", viewer);
	}
	/* The state view agrees: others see one more card and one fewer in the deck. */
	struct game_view view = view_of(&game, 1);
	ck_assert_int_eq(view.players[0].development_card_count, 1);
	ck_assert_int_eq(view.development_cards_left, 24);
}
END_TEST

START_TEST(test_public_events_are_unchanged_for_everyone)
{
	struct game game;
	start_position(&game);
	support_set_hand(&game, 2, 0, 0, 0, 0, 9); /* seat 2 will owe 4 */
	struct event_list events;
	struct command roll = support_command(COMMAND_ROLL);
	roll.dice[0] = 6;
	roll.dice[1] = 1;
	support_ok(&game, 0, &roll, &events);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	struct command discard = support_command(COMMAND_DISCARD);
	discard.resources[RESOURCE_ORE] = 4;
	struct event_list discarded;
	support_ok(&game, 2, &discard, &discarded);
	for (int viewer = VIEW_SPECTATOR; viewer < 4; viewer++) {
		struct event seen;
		view_event(&events.events[0], viewer, &seen);
		ck_assert(memcmp(&seen, &events.events[0], sizeof seen) == 0);
		view_event(&discarded.events[0], viewer, &seen);
		ck_assert(memcmp(&seen, &discarded.events[0], sizeof seen) == 0);
		ck_assert_int_eq(seen.resources[RESOURCE_ORE], 4);
	}
}
END_TEST

START_TEST(test_playable_counts_follow_the_card_rules)
{
	struct game game;
	start_position(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 2);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 1);
	support_give_development(&game, 1, DEVELOPMENT_MONOPOLY, 1);
	/* Before the roll: the knights are playable, the VP card never is. */
	struct game_view view = view_of(&game, 0);
	ck_assert_int_eq(view.you.playable[DEVELOPMENT_KNIGHT], 2);
	ck_assert_int_eq(view.you.playable[DEVELOPMENT_VICTORY_POINT], 0);
	/* Not on another seat's turn. */
	ck_assert_int_eq(view_of(&game, 1).you.playable[DEVELOPMENT_MONOPOLY], 0);

	/* A card bought this turn is not playable: with one monopoly held from before and a
	 * second bought now (the deck stacked with monopolies), one is playable. */
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	support_roll(&game, 2, 3);
	support_set_hand(&game, 0, 0, 0, 1, 1, 1);
	memset(game.deck, 0, sizeof game.deck);
	game.deck[DEVELOPMENT_MONOPOLY] = 1;
	struct event_list events;
	struct command buy = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_ok(&game, 0, &buy, &events);
	ck_assert_int_eq(events.events[0].card, DEVELOPMENT_MONOPOLY);
	view = view_of(&game, 0);
	ck_assert_int_eq(view.you.development_cards[DEVELOPMENT_MONOPOLY], 2);
	ck_assert_int_eq(view.you.playable[DEVELOPMENT_MONOPOLY], 1);
	ck_assert_int_eq(view.you.playable[DEVELOPMENT_KNIGHT], 2);
	/* After one card is played, none is. */
	struct command knight = support_command(COMMAND_PLAY_KNIGHT);
	knight.hex = 7; /* seat 1's settlement on node 28 is the only building there */
	knight.victim = 1;
	support_ok(&game, 0, &knight, NULL);
	view = view_of(&game, 0);
	for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++)
		ck_assert_int_eq(view.you.playable[kind], 0);
	ck_assert_int_eq(view.players[0].knights_played, 1);
	ck_assert_int_eq(view.development_played, 1);
}
END_TEST

START_TEST(test_open_offers_are_listed_first)
{
	struct game game;
	start_position(&game);
	support_roll(&game, 2, 3);
	support_set_hand(&game, 0, 2, 2, 0, 0, 0);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[RESOURCE_BRICK] = 1;
	offer.want[RESOURCE_ORE] = 1;
	support_ok(&game, 0, &offer, NULL);
	offer.give[RESOURCE_BRICK] = 0;
	offer.give[RESOURCE_LUMBER] = 1;
	support_ok(&game, 0, &offer, NULL);
	struct command withdraw = support_command(COMMAND_WITHDRAW_TRADE);
	withdraw.trade = 1;
	support_ok(&game, 0, &withdraw, NULL);
	for (int viewer = VIEW_SPECTATOR; viewer < 4; viewer++) {
		struct game_view view = view_of(&game, viewer);
		ck_assert_int_eq(view.offer_count, 1);
		ck_assert_int_eq(view.offers[0].id, 2);
		ck_assert_int_eq(view.offers[0].give[RESOURCE_LUMBER], 1);
		ck_assert_int_eq(view.offers[0].want[RESOURCE_ORE], 1);
		ck_assert_int_eq(view.offers[1].id, 0);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("view");
	TCase *game_views = tcase_create("game");
	tcase_add_test(game_views, test_spectator_sees_counts_and_no_hand);
	tcase_add_test(game_views, test_seat_sees_its_own_hand_under_you);
	tcase_add_test(game_views, test_other_hands_do_not_change_a_seats_view);
	tcase_add_test(game_views, test_development_cards_are_counted_not_shown);
	tcase_add_test(game_views, test_viewer_outside_the_seats_is_a_spectator);
	tcase_add_test(game_views, test_winner_reveals_victory_point_cards);
	tcase_add_test(game_views, test_playable_counts_follow_the_card_rules);
	tcase_add_test(game_views, test_open_offers_are_listed_first);
	suite_add_tcase(suite, game_views);

	TCase *event_views = tcase_create("events");
	tcase_add_test(event_views, test_stolen_card_seen_by_thief_and_victim_only);
	tcase_add_test(event_views, test_bought_card_seen_by_the_buyer_only);
	tcase_add_test(event_views, test_public_events_are_unchanged_for_everyone);
	suite_add_tcase(suite, event_views);
	return suite;
}
