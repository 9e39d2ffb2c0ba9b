/*
 * test_development.c - RULES.md section 6 (and Largest Army from section 8): the 25-card
 * deck, buying, the one-card-per-turn allowance (before or after the roll, never a card
 * bought this turn), victory point cards, and what each card does.
 *
 * Positions: the standard 4-seat beginner draft with every hand emptied. Rolls of 2 (pasture
 * 2) pay only seat 1, so the other hands stay as the test sets them. To make a purchase
 * draw a known kind, support_stack_deck() takes the other kinds out of the deck.
 */
#include "engine/legal.h"
#include "engine/placement.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static void start(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_clear_hands(game);
}

/* End turns (rolling 2s) until `seat` is active again, before its roll. */
static void pass_to(struct game *game, int seat)
{
	do {
		if (game->phase == GAME_PHASE_ROLL)
			support_roll(game, 1, 1);
		struct command c = support_command(COMMAND_END_TURN);
		support_ok(game, game->turn_seat, &c, NULL);
	} while (game->turn_seat != seat);
}

static void buy(struct game *game, int seat, int card, struct event_list *events)
{
	support_stack_deck(game, card);
	support_set_hand(game, seat, 0, 0, 1, 1, 1);
	struct command c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_ok(game, seat, &c, events);
}

/* Play a knight to the desert or to mountains 10 (whichever the robber is not on), robbing
 * the lowest seat there that qualifies. */
static void play_knight(struct game *game, int seat, struct event_list *events)
{
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = game->robber == 9 ? 0 : 9;
	uint8_t victims = placement_robber_victims(game, seat, c.hex);
	c.victim = victims ? (int8_t)__builtin_ctz(victims) : -1;
	support_ok(game, seat, &c, events);
}

static struct command monopoly(int resource)
{
	struct command c = support_command(COMMAND_PLAY_MONOPOLY);
	c.resource = (uint8_t)resource;
	return c;
}

static struct command year_of_plenty(int brick, int lumber, int wool, int grain, int ore)
{
	struct command c = support_command(COMMAND_PLAY_YEAR_OF_PLENTY);
	c.resources[RESOURCE_BRICK] = (uint8_t)brick;
	c.resources[RESOURCE_LUMBER] = (uint8_t)lumber;
	c.resources[RESOURCE_WOOL] = (uint8_t)wool;
	c.resources[RESOURCE_GRAIN] = (uint8_t)grain;
	c.resources[RESOURCE_ORE] = (uint8_t)ore;
	return c;
}

static struct command road_building(int count, int edge1, int edge2)
{
	struct command c = support_command(COMMAND_PLAY_ROAD_BUILDING);
	c.edge_count = (uint8_t)count;
	c.edges[0] = (int8_t)edge1;
	c.edges[1] = (int8_t)edge2;
	return c;
}

START_TEST(test_deck_holds_25_cards_of_five_kinds)
{
	ck_assert_int_eq(game_deck_start[DEVELOPMENT_KNIGHT], 14);
	ck_assert_int_eq(game_deck_start[DEVELOPMENT_VICTORY_POINT], 5);
	ck_assert_int_eq(game_deck_start[DEVELOPMENT_ROAD_BUILDING], 2);
	ck_assert_int_eq(game_deck_start[DEVELOPMENT_YEAR_OF_PLENTY], 2);
	ck_assert_int_eq(game_deck_start[DEVELOPMENT_MONOPOLY], 2);
	struct game game;
	start(&game);
	for (int k = 0; k < DEVELOPMENT_COUNT; k++)
		ck_assert_int_eq(game.deck[k], game_deck_start[k]);
	ck_assert_int_eq(resource_total(game.deck), 25);
}
END_TEST

START_TEST(test_buying_pays_ore_wool_grain_and_draws_a_card)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 1, 0, 1, 1, 1);
	struct event_list events;
	struct command c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.count, 1);
	const struct event *bought = &events.events[0];
	ck_assert_int_eq(bought->type, EVENT_DEVELOPMENT_CARD_BOUGHT);
	ck_assert_int_eq(bought->seat, 0);
	ck_assert_int_lt(bought->card, DEVELOPMENT_COUNT);
	support_assert_hand(&game, 0, 1, 0, 0, 0, 0);
	ck_assert_int_eq(game.bank[RESOURCE_ORE], 19);
	ck_assert_int_eq(game.bank[RESOURCE_GRAIN], 19);
	ck_assert_int_eq(resource_total(game.deck), 24);
	ck_assert_int_eq(game.deck[bought->card], game_deck_start[bought->card] - 1);
	ck_assert_int_eq(game_development_count(&game, 0), 1);
	ck_assert_int_eq(game.players[0].development_cards[bought->card], 1);
	ck_assert_int_eq(game.players[0].bought_this_turn[bought->card], 1);
}
END_TEST

/* RULES.md 6 (the top card of a shuffled deck): the card drawn is uniform over the cards
 * left. A deck of 3 knights, 2 year of plenty, 1 monopoly and 4 victory points (road building
 * gone) bought from 5000 times, one fixed seed each: within a chi-square bound of 3:0:2:1:4
 * (3 degrees of freedom: a fair draw exceeds 30 with probability about 1e-6), never a kind
 * that is gone. Drawing the first kind left, or off by one card, lands far beyond. */
START_TEST(test_development_card_drawn_is_uniform_over_the_deck_left)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	static const int weights[DEVELOPMENT_COUNT] = {3, 0, 2, 1, 4};
	for (int k = 0; k < DEVELOPMENT_COUNT; k++)
		game.deck[k] = (uint8_t)weights[k];
	support_set_hand(&game, 0, 0, 0, 1, 1, 1);
	struct command c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	long observed[DEVELOPMENT_COUNT] = {0};
	for (uint64_t seed = 1; seed <= 5000; seed++) {
		struct event_list events;
		support_decide_seeded(&game, 0, &c, seed, &events);
		const struct event *bought = support_find_event(&events, EVENT_DEVELOPMENT_CARD_BOUGHT);
		ck_assert_ptr_nonnull(bought);
		ck_assert_int_lt(bought->card, DEVELOPMENT_COUNT);
		observed[bought->card]++;
	}
	double chi = support_chi_square(observed, weights, DEVELOPMENT_COUNT);
	ck_assert_msg(chi < 30, "drawn kinds %ld %ld %ld %ld %ld: chi-square %.1f against 3:0:2:1:4", observed[0],
		      observed[1], observed[2], observed[3], observed[4], chi);
}
END_TEST

START_TEST(test_buying_from_an_empty_deck_is_refused)
{
	struct game game;
	start(&game);
	support_give_development(&game, 1, DEVELOPMENT_KNIGHT, 14);
	support_give_development(&game, 2, DEVELOPMENT_ROAD_BUILDING, 2);
	support_give_development(&game, 2, DEVELOPMENT_YEAR_OF_PLENTY, 2);
	support_give_development(&game, 2, DEVELOPMENT_MONOPOLY, 2);
	support_give_development(&game, 3, DEVELOPMENT_VICTORY_POINT, 5);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 0, 0, 1, 1, 1);
	struct command c = support_command(COMMAND_BUY_DEVELOPMENT_CARD);
	support_refused(&game, 0, &c, ERROR_DECK_EMPTY);
}
END_TEST

START_TEST(test_card_is_not_playable_the_turn_it_was_bought)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	buy(&game, 0, DEVELOPMENT_MONOPOLY, NULL);
	ck_assert_int_eq(game.players[0].development_cards[DEVELOPMENT_MONOPOLY], 1);
	struct command c = monopoly(RESOURCE_WOOL);
	support_refused(&game, 0, &c, ERROR_DEV_CARD_BOUGHT_THIS_TURN);
	/* Playable on the owner's next turn, even before the roll. */
	pass_to(&game, 0);
	support_ok(&game, 0, &c, NULL);
}
END_TEST

START_TEST(test_older_card_of_a_kind_bought_again_is_playable)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	support_roll(&game, 1, 1);
	buy(&game, 0, DEVELOPMENT_MONOPOLY, NULL);
	struct command c = monopoly(RESOURCE_WOOL);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.players[0].development_cards[DEVELOPMENT_MONOPOLY], 1);
}
END_TEST

START_TEST(test_one_development_card_per_turn)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 1);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	support_roll(&game, 1, 1);
	struct command yop = year_of_plenty(0, 0, 0, 1, 1);
	support_ok(&game, 0, &yop, NULL);
	struct command mono = monopoly(RESOURCE_WOOL);
	support_refused(&game, 0, &mono, ERROR_DEV_CARD_ALREADY_PLAYED);
	pass_to(&game, 0);
	support_ok(&game, 0, &mono, NULL);
}
END_TEST

START_TEST(test_card_played_before_the_roll_uses_the_allowance)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 2);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	play_knight(&game, 0, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	support_roll(&game, 1, 1);
	struct command c = monopoly(RESOURCE_WOOL);
	support_refused(&game, 0, &c, ERROR_DEV_CARD_ALREADY_PLAYED);
	c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 5;
	c.victim = 1;
	support_refused(&game, 0, &c, ERROR_DEV_CARD_ALREADY_PLAYED);
}
END_TEST

START_TEST(test_playing_a_card_not_held_is_refused)
{
	struct game game;
	start(&game);
	support_roll(&game, 1, 1);
	struct command c = monopoly(RESOURCE_WOOL);
	support_refused(&game, 0, &c, ERROR_NO_DEVELOPMENT_CARD);
	c = year_of_plenty(0, 0, 0, 1, 1);
	support_refused(&game, 0, &c, ERROR_NO_DEVELOPMENT_CARD);
	c = road_building(2, support_edge_between(44, 48), support_edge_between(48, 51));
	support_refused(&game, 0, &c, ERROR_NO_DEVELOPMENT_CARD);
	c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 0;
	c.victim = 2;
	support_refused(&game, 0, &c, ERROR_NO_DEVELOPMENT_CARD);
}
END_TEST

START_TEST(test_victory_point_card_counts_at_once_and_uses_no_allowance)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	support_roll(&game, 1, 1);
	buy(&game, 0, DEVELOPMENT_VICTORY_POINT, NULL);
	ck_assert_int_eq(game_total_points(&game, 0), 3);
	ck_assert_int_eq(game_public_points(&game, 0), 2);
	ck_assert_int_eq(game.development_played, 0);
	struct command c = monopoly(RESOURCE_WOOL);
	support_ok(&game, 0, &c, NULL);
	/* Never played: it stays in the hand and keeps counting. */
	pass_to(&game, 0);
	ck_assert_int_eq(game.players[0].development_cards[DEVELOPMENT_VICTORY_POINT], 1);
	ck_assert_int_eq(game_total_points(&game, 0), 3);
}
END_TEST

START_TEST(test_knight_moves_the_robber_steals_and_stays_face_up)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	support_set_hand(&game, 2, 0, 0, 0, 0, 2);
	int deck_before = resource_total(game.deck);
	struct event_list events;
	struct command c = support_command(COMMAND_PLAY_KNIGHT);
	c.hex = 0; /* mountains 10: seat 2's 12 */
	c.victim = 2;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_KNIGHT_PLAYED);
	ck_assert_int_eq(game.robber, 0);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 1);
	support_assert_hand(&game, 2, 0, 0, 0, 0, 1);
	ck_assert_int_eq(game.players[0].knights_played, 1);
	ck_assert_int_eq(game.players[0].development_cards[DEVELOPMENT_KNIGHT], 0);
	ck_assert_int_eq(resource_total(game.deck), deck_before); /* played cards never return */
}
END_TEST

START_TEST(test_largest_army_goes_to_the_first_with_three_knights)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 3);
	struct event_list events;
	play_knight(&game, 0, &events);
	pass_to(&game, 0);
	play_knight(&game, 0, &events);
	ck_assert_int_eq(support_count_events(&events, EVENT_LARGEST_ARMY_CHANGED), 0);
	ck_assert_int_eq(game.largest_army, GAME_NO_SEAT);
	pass_to(&game, 0);
	play_knight(&game, 0, &events);
	const struct event *army = support_find_event(&events, EVENT_LARGEST_ARMY_CHANGED);
	ck_assert_ptr_nonnull(army);
	ck_assert_int_eq(army->seat, 0);
	ck_assert_int_eq(army->other, GAME_NO_SEAT);
	ck_assert_int_eq(game.largest_army, 0);
	ck_assert_int_eq(game_public_points(&game, 0), 4);
}
END_TEST

START_TEST(test_largest_army_moves_only_to_strictly_more_knights)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 3);
	support_give_development(&game, 1, DEVELOPMENT_KNIGHT, 4);
	struct event_list events;
	for (int round = 0; round < 3; round++) {
		pass_to(&game, 0);
		play_knight(&game, 0, NULL);
		pass_to(&game, 1);
		play_knight(&game, 1, &events);
	}
	/* Three against three: the holder keeps it. */
	ck_assert_int_eq(game.players[1].knights_played, 3);
	ck_assert_int_eq(support_count_events(&events, EVENT_LARGEST_ARMY_CHANGED), 0);
	ck_assert_int_eq(game.largest_army, 0);
	pass_to(&game, 1);
	play_knight(&game, 1, &events);
	const struct event *army = support_find_event(&events, EVENT_LARGEST_ARMY_CHANGED);
	ck_assert_ptr_nonnull(army);
	ck_assert_int_eq(army->seat, 1);
	ck_assert_int_eq(army->other, 0);
	ck_assert_int_eq(game.largest_army, 1);
	ck_assert_int_eq(game_public_points(&game, 0), 2);
	ck_assert_int_eq(game_public_points(&game, 1), 4);
}
END_TEST

START_TEST(test_road_building_places_two_free_roads)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	int first = support_edge_between(44, 48), second = support_edge_between(48, 51);
	struct event_list events;
	struct command c = road_building(2, first, second);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_ROAD_BUILDING_PLAYED);
	ck_assert_int_eq(support_count_events(&events, EVENT_ROAD_BUILT), 2);
	for (int i = 1; i <= 2; i++)
		ck_assert_int_eq(events.events[i].free, 1);
	ck_assert_int_eq(game.edge_owner[first], 1);
	ck_assert_int_eq(game.edge_owner[second], 1);
	ck_assert_int_eq(game.players[0].roads_left, 11);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 0);
	ck_assert_int_eq(game.players[0].development_cards[DEVELOPMENT_ROAD_BUILDING], 0);
}
END_TEST

START_TEST(test_road_building_accepts_either_order)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	/* 48-51 connects only once 44-48 stands; given second-first, it is still accepted. */
	int first = support_edge_between(44, 48), second = support_edge_between(48, 51);
	struct command c = road_building(2, second, first);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.edge_owner[first], 1);
	ck_assert_int_eq(game.edge_owner[second], 1);
}
END_TEST

START_TEST(test_road_building_must_place_as_many_as_possible)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	int edge = support_edge_between(44, 48);
	struct command c = road_building(1, edge, -1);
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	c = road_building(0, -1, -1);
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	c = road_building(3, edge, support_edge_between(48, 51));
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	c = road_building(2, edge, support_edge_between(0, 3));
	support_refused(&game, 0, &c, ERROR_NOT_CONNECTED);
	c = road_building(2, edge, edge);
	support_refused(&game, 0, &c, ERROR_EDGE_OCCUPIED);
	c = road_building(2, edge, 72);
	support_refused(&game, 0, &c, ERROR_INVALID_EDGE);
}
END_TEST

START_TEST(test_road_building_with_one_road_piece_places_one)
{
	struct game game;
	start(&game);
	support_road_path(&game, 0, 0, 3, 7, 11, 16, 21, 27, 33, -1);
	support_road_path(&game, 0, 1, 5, 2, 6, 10, 15, -1);
	ck_assert_int_eq(game.players[0].roads_left, 1);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	int first = support_edge_between(44, 48), second = support_edge_between(48, 51);
	struct command c = road_building(2, first, second);
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	c = road_building(1, first, -1);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.players[0].roads_left, 0);
}
END_TEST

/* Surround seat 0's network (buildings 44 and 43, roads 40-44 and 38-43) with seat 1's roads
 * so that only 44-48 is open, and beyond 48 nothing. */
static void hem_in_seat_0(struct game *game)
{
	support_road_path(game, 1, 44, 39, 43, -1);
	support_road_path(game, 1, 47, 43, -1);
	support_road_path(game, 1, 35, 40, 45, -1);
	support_road_path(game, 1, 33, 38, -1);
	support_road_path(game, 1, 51, 48, 52, -1);
}

START_TEST(test_road_building_with_one_legal_path_places_one)
{
	struct game game;
	start(&game);
	hem_in_seat_0(&game);
	ck_assert_int_eq(placement_free_roads_possible(&game, 0), 1);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	int edge = support_edge_between(44, 48);
	struct command c = road_building(2, edge, support_edge_between(48, 52));
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	c = road_building(1, edge, -1);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.edge_owner[edge], 1);
}
END_TEST

/* RULES.md 6: two free roads are placed by the normal rules one after the other, so a first
 * road that opens the only place for the second makes two possible. Seat 0 hemmed in so that
 * only 44-48 is open now, and beyond 48 only 48-52: both roads must be placed (either order),
 * one alone is refused, and the legal list offers exactly that pair. Checked against explicit
 * edges, not placement_free_roads_possible(), which the list and the rules share. */
START_TEST(test_road_building_first_road_opens_the_place_for_the_second)
{
	struct game game;
	start(&game);
	support_road_path(&game, 1, 44, 39, 43, -1);
	support_road_path(&game, 1, 47, 43, -1);
	support_road_path(&game, 1, 35, 40, 45, -1);
	support_road_path(&game, 1, 33, 38, -1);
	support_road_path(&game, 1, 51, 48, -1);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	int first = support_edge_between(44, 48), second = support_edge_between(48, 52);
	struct command c = road_building(1, first, -1);
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	c = road_building(1, second, -1);
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	static struct command moves[LEGAL_MOVES_MAX];
	int count = legal_moves(&game, 0, moves, LEGAL_MOVES_MAX);
	int listed = 0;
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_PLAY_ROAD_BUILDING)
			continue;
		listed++;
		ck_assert_int_eq(moves[i].edge_count, 2);
		ck_assert_int_eq(moves[i].edges[0], first);
		ck_assert_int_eq(moves[i].edges[1], second);
	}
	ck_assert_int_eq(listed, 1);
	struct game reversed = game;
	c = road_building(2, second, first);
	support_ok(&reversed, 0, &c, NULL);
	c = road_building(2, first, second);
	struct event_list events;
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(support_count_events(&events, EVENT_ROAD_BUILT), 2);
	ck_assert_int_eq(game.edge_owner[first], 1);
	ck_assert_int_eq(game.edge_owner[second], 1);
	ck_assert_int_eq(reversed.edge_owner[first], 1);
	ck_assert_int_eq(reversed.edge_owner[second], 1);
}
END_TEST

/* RULES.md 3 and 6: no card is played while a rolled 7's discards or robber move are
 * pending, a knight included (its own robber move cannot replace the rolled one). */
START_TEST(test_knight_refused_while_the_rolled_robber_move_is_pending)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	support_set_hand(&game, 2, 8, 0, 0, 0, 0);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	struct command knight = support_command(COMMAND_PLAY_KNIGHT);
	knight.hex = 0;
	knight.victim = -1;
	support_refused(&game, 0, &knight, ERROR_DISCARDS_PENDING);
	struct command c = support_command(COMMAND_DISCARD);
	c.resources[RESOURCE_BRICK] = 4;
	support_ok(&game, 2, &c, NULL);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	support_refused(&game, 0, &knight, ERROR_ROBBER_MUST_MOVE);
	knight.hex = 18;
	support_refused(&game, 0, &knight, ERROR_ROBBER_MUST_MOVE);
	static struct command moves[LEGAL_MOVES_MAX];
	int count = legal_moves(&game, 0, moves, LEGAL_MOVES_MAX);
	ck_assert_int_gt(count, 0);
	for (int i = 0; i < count; i++)
		ck_assert_int_eq(moves[i].type, COMMAND_MOVE_ROBBER);
	/* Once the robber has moved, the knight may be played. */
	c = support_command(COMMAND_MOVE_ROBBER);
	c.hex = 0; /* mountains 10: seat 2's 12 */
	c.victim = 2;
	support_ok(&game, 0, &c, NULL);
	knight.hex = 9;
	support_ok(&game, 0, &knight, NULL);
}
END_TEST

START_TEST(test_road_building_with_no_legal_path_places_none)
{
	struct game game;
	start(&game);
	hem_in_seat_0(&game);
	support_road_path(&game, 2, 44, 48, -1);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	support_roll(&game, 1, 1);
	struct command c = road_building(1, support_edge_between(0, 3), -1);
	support_refused(&game, 0, &c, ERROR_ROAD_BUILDING_EDGES);
	struct event_list events;
	c = road_building(0, -1, -1);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.count, 1);
	ck_assert_int_eq(events.events[0].type, EVENT_ROAD_BUILDING_PLAYED);
	ck_assert_int_eq(game.players[0].roads_left, 13);
	ck_assert_int_eq(game.development_played, 1);
}
END_TEST

START_TEST(test_year_of_plenty_takes_two_cards)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 2);
	support_roll(&game, 1, 1);
	struct event_list events;
	struct command c = year_of_plenty(0, 0, 0, 0, 2);
	support_ok(&game, 0, &c, &events);
	ck_assert_int_eq(events.events[0].type, EVENT_YEAR_OF_PLENTY_PLAYED);
	ck_assert_int_eq(events.events[0].resources[RESOURCE_ORE], 2);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 2);
	ck_assert_int_eq(game.bank[RESOURCE_ORE], 17);
	pass_to(&game, 0);
	c = year_of_plenty(1, 0, 0, 1, 0);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 1, 0, 0, 1, 2);
}
END_TEST

START_TEST(test_year_of_plenty_takes_exactly_two)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 1);
	support_roll(&game, 1, 1);
	struct command c = year_of_plenty(0, 0, 0, 0, 1);
	support_refused(&game, 0, &c, ERROR_YEAR_OF_PLENTY_CARDS);
	c = year_of_plenty(1, 0, 0, 0, 2);
	support_refused(&game, 0, &c, ERROR_YEAR_OF_PLENTY_CARDS);
	c = year_of_plenty(0, 0, 0, 0, 0);
	support_refused(&game, 0, &c, ERROR_YEAR_OF_PLENTY_CARDS);
}
END_TEST

START_TEST(test_year_of_plenty_takes_only_what_the_bank_holds)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 1);
	support_roll(&game, 1, 1);
	support_set_bank(&game, RESOURCE_ORE, 1, 2);
	struct command c = year_of_plenty(0, 0, 0, 0, 2);
	support_refused(&game, 0, &c, ERROR_BANK_EMPTY);
	c = year_of_plenty(0, 0, 1, 0, 1);
	support_ok(&game, 0, &c, NULL);
	ck_assert_int_eq(game.bank[RESOURCE_ORE], 0);
}
END_TEST

START_TEST(test_year_of_plenty_with_one_card_in_the_bank_takes_one)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 1);
	support_roll(&game, 1, 1);
	support_set_bank(&game, RESOURCE_BRICK, 0, 1);
	support_set_bank(&game, RESOURCE_LUMBER, 0, 2);
	support_set_bank(&game, RESOURCE_WOOL, 0, 3);
	support_set_bank(&game, RESOURCE_GRAIN, 0, 1);
	support_set_bank(&game, RESOURCE_ORE, 1, 2);
	struct command c = year_of_plenty(0, 0, 0, 0, 2);
	support_refused(&game, 0, &c, ERROR_YEAR_OF_PLENTY_CARDS);
	c = year_of_plenty(0, 0, 1, 0, 1);
	support_refused(&game, 0, &c, ERROR_YEAR_OF_PLENTY_CARDS);
	c = year_of_plenty(0, 0, 1, 0, 0);
	support_refused(&game, 0, &c, ERROR_BANK_EMPTY);
	c = year_of_plenty(0, 0, 0, 0, 1);
	support_ok(&game, 0, &c, NULL);
	support_assert_hand(&game, 0, 0, 0, 0, 0, 1);
}
END_TEST

START_TEST(test_monopoly_takes_every_card_of_a_resource_from_every_other_seat)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	support_roll(&game, 1, 1);
	support_set_hand(&game, 0, 0, 0, 1, 0, 0);
	support_set_hand(&game, 1, 1, 0, 2, 0, 0);
	support_set_hand(&game, 2, 0, 3, 0, 0, 0);
	support_set_hand(&game, 3, 0, 0, 3, 1, 0);
	struct event_list events;
	struct command c = monopoly(RESOURCE_WOOL);
	support_ok(&game, 0, &c, &events);
	const struct event *played = &events.events[0];
	ck_assert_int_eq(played->type, EVENT_MONOPOLY_PLAYED);
	ck_assert_int_eq(played->resource, RESOURCE_WOOL);
	ck_assert_int_eq(played->gains[1][RESOURCE_WOOL], 2);
	ck_assert_int_eq(played->gains[2][RESOURCE_WOOL], 0);
	ck_assert_int_eq(played->gains[3][RESOURCE_WOOL], 3);
	/* Nothing is taken from the player itself: the event (what the log shows) says so too. */
	ck_assert_int_eq(played->gains[0][RESOURCE_WOOL], 0);
	support_assert_hand(&game, 0, 0, 0, 6, 0, 0);
	support_assert_hand(&game, 1, 1, 0, 0, 0, 0);
	support_assert_hand(&game, 2, 0, 3, 0, 0, 0);
	support_assert_hand(&game, 3, 0, 0, 0, 1, 0);
}
END_TEST

START_TEST(test_monopoly_of_an_unknown_resource_is_refused)
{
	struct game game;
	start(&game);
	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	struct command c = monopoly(RESOURCE_COUNT);
	support_refused(&game, 0, &c, ERROR_INVALID_RESOURCE);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("development");
	TCase *tc = tcase_create("development");
	tcase_add_test(tc, test_deck_holds_25_cards_of_five_kinds);
	tcase_add_test(tc, test_buying_pays_ore_wool_grain_and_draws_a_card);
	tcase_add_test(tc, test_development_card_drawn_is_uniform_over_the_deck_left);
	tcase_add_test(tc, test_buying_from_an_empty_deck_is_refused);
	tcase_add_test(tc, test_card_is_not_playable_the_turn_it_was_bought);
	tcase_add_test(tc, test_older_card_of_a_kind_bought_again_is_playable);
	tcase_add_test(tc, test_one_development_card_per_turn);
	tcase_add_test(tc, test_card_played_before_the_roll_uses_the_allowance);
	tcase_add_test(tc, test_playing_a_card_not_held_is_refused);
	tcase_add_test(tc, test_victory_point_card_counts_at_once_and_uses_no_allowance);
	tcase_add_test(tc, test_knight_moves_the_robber_steals_and_stays_face_up);
	tcase_add_test(tc, test_largest_army_goes_to_the_first_with_three_knights);
	tcase_add_test(tc, test_largest_army_moves_only_to_strictly_more_knights);
	tcase_add_test(tc, test_road_building_places_two_free_roads);
	tcase_add_test(tc, test_road_building_accepts_either_order);
	tcase_add_test(tc, test_road_building_must_place_as_many_as_possible);
	tcase_add_test(tc, test_road_building_with_one_road_piece_places_one);
	tcase_add_test(tc, test_road_building_with_one_legal_path_places_one);
	tcase_add_test(tc, test_road_building_first_road_opens_the_place_for_the_second);
	tcase_add_test(tc, test_knight_refused_while_the_rolled_robber_move_is_pending);
	tcase_add_test(tc, test_road_building_with_no_legal_path_places_none);
	tcase_add_test(tc, test_year_of_plenty_takes_two_cards);
	tcase_add_test(tc, test_year_of_plenty_takes_exactly_two);
	tcase_add_test(tc, test_year_of_plenty_takes_only_what_the_bank_holds);
	tcase_add_test(tc, test_year_of_plenty_with_one_card_in_the_bank_takes_one);
	tcase_add_test(tc, test_monopoly_takes_every_card_of_a_resource_from_every_other_seat);
	tcase_add_test(tc, test_monopoly_of_an_unknown_resource_is_refused);
	suite_add_tcase(suite, tc);
	return suite;
}
