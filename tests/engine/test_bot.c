/*
 * test_bot.c - the heuristic bot (engine/bot.h) and the arena that pits it against random
 * players (engine/arena.h).
 *
 * Whole games pin what a bot seat must never do: choose a move that is not listed (or a
 * filled template rules_decide() refuses), stall a game, or lose to random players; a twin
 * of each position that differs only in other seats' private facts pins that the bot sees
 * only its seat's view. Constructed positions pin single decisions: where the robber goes,
 * what a discard keeps, which offers are accepted, that a city is built when it can be, that
 * the bank completes a build, that a turn ends.
 */
#include "tests/check_main.h"

#include <stdio.h>
#include <string.h>

#include "engine/arena.h"
#include "engine/bot.h"
#include "engine/bot_eval.h"
#include "engine/invariants.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "tests/engine/support.h"

#define MAX_GAME_ACTIONS 2000

static struct command scratch[LEGAL_MOVES_MAX];
static struct command listed[LEGAL_MOVES_MAX];

/* ---- helpers ---- */

static void new_game(struct game *game, int seats, int layout, int dice, uint64_t seed)
{
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	options.layout = (uint8_t)layout;
	options.dice = (uint8_t)dice;
	struct event_list events;
	struct rng rng;
	rng_init(&rng, seed, 0);
	memset(game, 0, sizeof *game);
	ck_assert_int_eq(rules_create(&options, &rng, &events), ERROR_OK);
	apply_events(game, &events);
}

/* Decide and apply; the move must be accepted. */
static void play(struct game *game, uint64_t seed, int seat, const struct command *command)
{
	struct event_list events;
	struct game after;
	struct rng rng;
	rng_init(&rng, seed, game->version);
	enum error error = rules_decide(game, seat, command, &rng, &events, &after);
	ck_assert_msg(error == ERROR_OK, "%s by seat %d refused: %s", command_type_name(command->type), seat,
		      error_code(error));
	memcpy(game, &after, sizeof *game);
}

/* 1 when `command` is one of the listed moves, or fills one of the listed templates. */
static int is_listed(const struct command *command, const struct command *moves, int count)
{
	for (int i = 0; i < count; i++) {
		if (moves[i].is_template ? moves[i].type == command->type && !command->is_template
					 : memcmp(&moves[i], command, sizeof *command) == 0)
			return 1;
	}
	return 0;
}

/* The bot's move for `seat` in *game, checked to be listed (rng seeded by `salt`). */
static struct command bot_move(const struct game *game, int seat, uint64_t salt)
{
	int count = legal_moves(game, seat, listed, LEGAL_MOVES_MAX);
	ck_assert_int_gt(count, 0);
	struct game_view view;
	view_game(game, seat, &view);
	struct rng rng;
	rng_init(&rng, salt, game->version);
	struct command command;
	ck_assert_int_eq(bot_choose(&view, listed, count, &rng, &command), 1);
	ck_assert_msg(is_listed(&command, listed, count), "the bot chose an unlisted %s",
		      command_type_name(command.type));
	return command;
}

/* An offer (or counter-offer) a bot seat makes is one it would complete itself: it holds
 * every card it gives, and the exchange helps it (bot_eval_trade_helps()) with every seat
 * it goes to. Returns 1 for an offer, 0 for any other move. */
static int check_own_offer(const struct game *game, int seat, const struct command *command)
{
	if (command->type != COMMAND_OFFER_TRADE)
		return 0;
	ck_assert_msg(resource_covers(game->players[seat].resources, command->give), "seat %d offers cards it lacks",
		      seat);
	struct game_view view;
	view_game(game, seat, &view);
	struct bot_eval eval;
	bot_eval_init(&eval, &view);
	uint8_t others = (uint8_t)(((1u << game->options.seats) - 1) & ~(1u << seat));
	uint8_t to = command->to ? command->to : seat == game->turn_seat ? others : (uint8_t)(1u << game->turn_seat);
	for (int partner = 0; partner < game->options.seats; partner++)
		ck_assert_msg(!(to >> partner & 1u) ||
				      bot_eval_trade_helps(&eval, command->want, command->give, partner),
			      "seat %d offers seat %d an exchange it would not make (version %u)", seat, partner,
			      game->version);
	return 1;
}

struct tally {
	long games;
	long actions;
	long turns;
	long bot_wins;
	long bot_seats; /* bot seats over all games */
	long random_seats;
	long bot_offers; /* offers and counter-offers made by bot seats */
};

/* Play one arena game to the end; checks every bot move is listed and the game ends with a
 * winner within MAX_GAME_ACTIONS. */
static void play_arena_game(int seats, int layout, int dice, uint8_t bots, uint64_t seed, struct tally *tally)
{
	struct game game;
	new_game(&game, seats, layout, dice, seed);
	struct rng chooser;
	rng_init(&chooser, seed, UINT64_C(0xb07));
	long actions = 0;
	int seat;
	struct command command;
	while (actions < MAX_GAME_ACTIONS && arena_choose(&game, bots, &chooser, scratch, &seat, &command)) {
		if (bots >> seat & 1u) {
			int count = legal_moves(&game, seat, listed, LEGAL_MOVES_MAX);
			ck_assert_msg(is_listed(&command, listed, count), "game %llu: bot seat %d chose an unlisted %s",
				      (unsigned long long)seed, seat, command_type_name(command.type));
			tally->bot_offers += check_own_offer(&game, seat, &command);
		}
		play(&game, seed, seat, &command);
		actions++;
	}
	ck_assert_msg(game.phase == GAME_PHASE_FINISHED,
		      "game %llu (%d seats, layout %d) has no winner after %ld actions", (unsigned long long)seed,
		      seats, layout, actions);
	const char *problem = invariants_check(&game);
	ck_assert_msg(problem == NULL, "invariant broken: %s", problem ? problem : "");
	tally->games++;
	tally->actions += actions;
	tally->turns += game.turn_number;
	tally->bot_wins += bots >> game.winner & 1u;
	int bot_count = __builtin_popcount(bots);
	tally->bot_seats += bot_count;
	tally->random_seats += seats - bot_count;
}

/* ---- whole games ---- */

START_TEST(test_eval_masks_match_the_board)
{
	/* bot_eval_init() reads the owners eight bytes at a time: every mask it builds is the
	 * one a scan of the view's nodes and paths gives, for every seat of positions all
	 * through bots' games (edges past 64 and the last nodes included). */
	long checked = 0;
	for (int i = 0; i < 20; i++) {
		uint64_t seed = UINT64_C(77000) + (uint64_t)i;
		struct game game;
		new_game(&game, 3 + (i & 1), i >> 1 & 1, GAME_DICE_RANDOM, seed);
		struct rng chooser;
		rng_init(&chooser, seed, 1);
		int seat;
		struct command command;
		for (long actions = 0;
		     actions < MAX_GAME_ACTIONS && arena_choose(&game, 0x0f, &chooser, scratch, &seat, &command);
		     actions++) {
			for (int s = 0; s < game.options.seats; s++) {
				struct game_view view;
				view_game(&game, s, &view);
				struct bot_eval eval;
				bot_eval_init(&eval, &view);
				uint64_t occupied = 0, mine = 0, roads[2] = {0, 0};
				for (int node = 0; node < BOARD_NODES; node++) {
					occupied |= (uint64_t)(view.node_owner[node] != 0) << node;
					mine |= (uint64_t)(view.node_owner[node] == s + 1) << node;
				}
				for (int edge = 0; edge < BOARD_EDGES; edge++)
					roads[edge >> 6] |= (uint64_t)(view.edge_owner[edge] == s + 1) << (edge & 63);
				ck_assert_uint_eq(eval.occupied, occupied);
				ck_assert_uint_eq(eval.mine, mine);
				ck_assert_uint_eq(eval.blocked, occupied & ~mine);
				ck_assert_uint_eq(eval.my_roads.word[0], roads[0]);
				ck_assert_uint_eq(eval.my_roads.word[1], roads[1]);
				checked += roads[1] != 0 && (mine >> 48) != 0;
			}
			play(&game, seed, seat, &command);
		}
	}
	ck_assert_int_gt(checked, 0); /* the high words were exercised */
}
END_TEST

START_TEST(test_bots_choose_only_listed_moves)
{
	/* Manual dice too, so the roll template is filled by the bot. */
	struct tally tally = {0};
	for (int i = 0; i < 100; i++)
		play_arena_game(3 + (i & 1), (i >> 1) & 1, i % 3 == 0 ? GAME_DICE_MANUAL : GAME_DICE_RANDOM, 0x0f,
				1000 + (uint64_t)i, &tally);
	ck_assert_int_eq(tally.games, 100);
	/* Every one of them checked by check_own_offer(). */
	ck_assert_int_gt(tally.bot_offers, 100);
}
END_TEST

START_TEST(test_bot_games_end_with_a_winner)
{
	static const int seat_counts[2] = {3, 4};
	static const int layouts[2] = {GAME_LAYOUT_BEGINNER, GAME_LAYOUT_RANDOM};
	struct tally all = {0};
	for (int s = 0; s < 2; s++) {
		for (int l = 0; l < 2; l++) {
			struct tally tally = {0};
			for (int i = 0; i < 250; i++)
				play_arena_game(seat_counts[s], layouts[l], GAME_DICE_RANDOM, 0x0f,
						UINT64_C(50000) + (uint64_t)(1000 * (2 * s + l) + i), &tally);
			printf("bots only, %d seats, %s board: %ld games, %.1f actions and %.1f turns per game\n",
			       seat_counts[s], l ? "random" : "beginner", tally.games,
			       (double)tally.actions / (double)tally.games, (double)tally.turns / (double)tally.games);
			all.games += tally.games;
			all.actions += tally.actions;
			all.turns += tally.turns;
		}
	}
	printf("bots only: %ld games, all with a winner, %.1f actions and %.1f turns per game\n", all.games,
	       (double)all.actions / (double)all.games, (double)all.turns / (double)all.games);
	ck_assert_int_eq(all.games, 1000);
}
END_TEST

START_TEST(test_one_bot_beats_three_random_players)
{
	struct tally tally = {0};
	for (int i = 0; i < 500; i++)
		play_arena_game(4, i & 1, GAME_DICE_RANDOM, (uint8_t)(1u << (i % 4)), UINT64_C(70000) + (uint64_t)i,
				&tally);
	printf("1 bot vs 3 random players: the bot won %ld of %ld games, %.1f actions per game\n", tally.bot_wins,
	       tally.games, (double)tally.actions / (double)tally.games);
	ck_assert_msg(tally.bot_wins * 10 > tally.games * 9, "the bot won only %ld of %ld games", tally.bot_wins,
		      tally.games);
}
END_TEST

START_TEST(test_three_bots_leave_a_random_player_no_chance)
{
	struct tally tally = {0};
	for (int i = 0; i < 200; i++)
		play_arena_game(4, i & 1, GAME_DICE_RANDOM, (uint8_t)(0x0f & ~(1u << (i % 4))),
				UINT64_C(80000) + (uint64_t)i, &tally);
	ck_assert_msg(tally.games - tally.bot_wins <= 2, "the random player won %ld of %ld games",
		      tally.games - tally.bot_wins, tally.games);
}
END_TEST

/* A server may never answer a bot's offers: each bot turn must still end on its own. */
START_TEST(test_bot_turns_end_when_no_one_answers_offers)
{
	for (int i = 0; i < 100; i++) {
		uint64_t seed = UINT64_C(90000) + (uint64_t)i;
		struct game game;
		new_game(&game, 4, i & 1, GAME_DICE_RANDOM, seed);
		long actions = 0;
		int turn_actions = 0, turn = game.turn_number;
		uint8_t waiting;
		while (actions < MAX_GAME_ACTIONS && (waiting = legal_waiting_for(&game)) != 0) {
			int seat = __builtin_ctz(waiting);
			struct command command = bot_move(&game, seat, seed);
			play(&game, seed, seat, &command);
			actions++;
			turn_actions = game.turn_number == turn ? turn_actions + 1 : 0;
			turn = game.turn_number;
			ck_assert_msg(turn_actions < 60, "game %d: turn %d did not end after 60 actions", i, turn);
		}
		ck_assert_msg(game.phase == GAME_PHASE_FINISHED, "game %d has no winner after %ld actions", i, actions);
	}
}
END_TEST

/* ---- the bot sees only its view ---- */

START_TEST(test_bot_ignores_other_seats_private_facts)
{
	static struct command twin_listed[LEGAL_MOVES_MAX];
	long compared = 0;
	for (int i = 0; i < 40; i++) {
		uint64_t seed = UINT64_C(110000) + (uint64_t)i;
		struct game game;
		new_game(&game, 3 + (i & 1), (i >> 1) & 1, GAME_DICE_RANDOM, seed);
		struct rng chooser;
		rng_init(&chooser, seed, 1);
		int seat;
		struct command command;
		long actions = 0;
		while (actions++ < MAX_GAME_ACTIONS && arena_choose(&game, 0x0f, &chooser, scratch, &seat, &command)) {
			struct game twin;
			memcpy(&twin, &game, sizeof twin);
			/* Offers aside: confirming one lists only while the partner holds its cards. */
			if (!support_any_open_offer(&game) && support_change_hidden_facts(&twin, seat)) {
				int count = legal_moves(&game, seat, listed, LEGAL_MOVES_MAX);
				int twin_count = legal_moves(&twin, seat, twin_listed, LEGAL_MOVES_MAX);
				ck_assert_int_eq(count, twin_count);
				struct game_view view, twin_view;
				view_game(&game, seat, &view);
				view_game(&twin, seat, &twin_view);
				ck_assert_msg(memcmp(&view, &twin_view, sizeof view) == 0,
					      "game %d version %u: seat %d's view shows other seats' private facts", i,
					      game.version, seat);
				struct rng rng, twin_rng;
				rng_init(&rng, seed, game.version);
				rng_init(&twin_rng, seed, game.version);
				struct command move, twin_move;
				bot_choose(&view, listed, count, &rng, &move);
				bot_choose(&twin_view, twin_listed, twin_count, &twin_rng, &twin_move);
				ck_assert_msg(memcmp(&move, &twin_move, sizeof move) == 0,
					      "game %d version %u: seat %d chose %s, and %s when others' cards differ",
					      i, game.version, seat, command_type_name(move.type),
					      command_type_name(twin_move.type));
				compared++;
			}
			play(&game, seed, seat, &command);
		}
	}
	ck_assert_int_gt(compared, 1000);
}
END_TEST

/* ---- constructed positions ---- */

/* Beginner board, 4 seats, standard draft (seat 0: nodes 43 and 44; seat 1: 28 and 13;
 * seat 2: 31 and 12; seat 3: 14 and 45), turn 1, seat 0 to roll, every hand empty. */
static void start_position(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_clear_hands(game);
}

/* End turns round the table until seat 0 is to roll again (rolling 2 + 3 = 5 for others). */
static void back_to_seat_zero(struct game *game)
{
	do {
		struct command end = support_command(COMMAND_END_TURN);
		support_ok(game, game->turn_seat, &end, NULL);
		if (game->turn_seat != 0)
			support_roll(game, 2, 3);
	} while (game->turn_seat != 0);
}

static int hex_touches_seat(const struct game *game, int hex, int seat)
{
	return (game->players[seat].buildings & board_hex_node_mask[hex]) != 0;
}

/* Seat 2 leads (a city at 31); the robber stands on hex 16 (a 5, touching only seat 0's
 * nodes 43 and 44); seat 0 is to roll; seats 1, 2 and 3 hold a card each. */
static void robber_on_own_hex(struct game *game)
{
	start_position(game);
	support_place_city(game, 2, 31);
	support_roll(game, 3, 4);
	struct command robber = support_command(COMMAND_MOVE_ROBBER);
	robber.hex = 16;
	support_ok(game, 0, &robber, NULL);
	back_to_seat_zero(game);
	support_clear_hands(game);
	support_set_hand(game, 1, 0, 0, 1, 0, 0);
	support_set_hand(game, 2, 0, 0, 1, 0, 0);
	support_set_hand(game, 3, 0, 0, 1, 0, 0);
	ck_assert_int_eq(game->robber, 16);
	ck_assert(hex_touches_seat(game, 16, 0));
}

START_TEST(test_robber_moves_off_own_hex_onto_the_leaders)
{
	struct game game;
	robber_on_own_hex(&game);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_MOVE_ROBBER);
	ck_assert_msg(!hex_touches_seat(&game, move.hex, 0), "the robber went to hex %d, one of seat 0's", move.hex);
	ck_assert_msg(hex_touches_seat(&game, move.hex, 2), "hex %d does not touch the leader (seat 2)", move.hex);
	ck_assert_int_eq(move.victim, 2);
}
END_TEST

START_TEST(test_knight_before_rolling_frees_own_hex)
{
	struct game game;
	robber_on_own_hex(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_PLAY_KNIGHT);
	ck_assert(!hex_touches_seat(&game, move.hex, 0));
	ck_assert(hex_touches_seat(&game, move.hex, 2));
	ck_assert_int_eq(move.victim, 2);
}
END_TEST

START_TEST(test_rolls_when_the_knight_has_no_use)
{
	struct game game;
	start_position(&game);
	support_give_development(&game, 0, DEVELOPMENT_KNIGHT, 1);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_ROLL);
}
END_TEST

START_TEST(test_discard_keeps_the_cards_of_a_city)
{
	struct game game;
	start_position(&game);
	support_set_hand(&game, 1, 2, 1, 2, 2, 3);
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	ck_assert_int_eq(game.players[1].discard_owed, 5);
	struct command move = bot_move(&game, 1, 1);
	ck_assert_int_eq(move.type, COMMAND_DISCARD);
	uint8_t expected[RESOURCE_COUNT] = {2, 1, 2, 0, 0};
	ck_assert_msg(memcmp(move.resources, expected, RESOURCE_COUNT) == 0,
		      "discarded %d brick %d lumber %d wool %d grain %d ore", move.resources[0], move.resources[1],
		      move.resources[2], move.resources[3], move.resources[4]);
	support_ok(&game, 1, &move, NULL);
}
END_TEST

/* Seat 0 (active, main phase) offers `give` for `want` to seat 1, which holds 3 ore, 1
 * grain and 2 wool: one grain short of a city. Returns seat 1's answer. */
static struct command answer_to(int give, int want, int offerer_points)
{
	struct game game;
	start_position(&game);
	if (offerer_points >= 8) {
		support_place_city(&game, 0, 43);
		support_place_city(&game, 0, 44);
		support_place_settlement(&game, 0, 0);
		support_place_settlement(&game, 0, 1);
		support_place_settlement(&game, 0, 2);
		support_place_settlement(&game, 0, 11);
	}
	support_roll(&game, 6, 6);
	support_clear_hands(&game);
	support_set_hand(&game, 0, 1, 1, 1, 1, 1);
	support_set_hand(&game, 1, 0, 0, 2, 1, 3);
	ck_assert_int_ge(game_public_points(&game, 0), offerer_points);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[give] = 1;
	offer.want[want] = 1;
	offer.to = 1u << 1;
	support_ok(&game, 0, &offer, NULL);
	struct game_view view;
	view_game(&game, 1, &view);
	ck_assert_int_ne(bot_unanswered_offer(&view), 0);
	struct command answer = bot_move(&game, 1, 1);
	ck_assert_int_eq(answer.trade, game.offers[0].id);
	support_ok(&game, 1, &answer, NULL);
	view_game(&game, 1, &view);
	ck_assert_int_eq(bot_unanswered_offer(&view), 0);
	return answer;
}

START_TEST(test_accepts_an_offer_that_completes_a_city)
{
	ck_assert_int_eq(answer_to(RESOURCE_GRAIN, RESOURCE_WOOL, 2).type, COMMAND_ACCEPT_TRADE);
}
END_TEST

/* The offer gives the grain the city lacks but takes its ore: instead of giving the ore, a
 * counter-offer of the spare wool for that grain, to the offerer alone, answering the offer
 * (answer_to() checks it is not asked again). */
START_TEST(test_counters_an_offer_taking_the_citys_ore)
{
	struct command answer = answer_to(RESOURCE_GRAIN, RESOURCE_ORE, 2);
	ck_assert_int_eq(answer.type, COMMAND_OFFER_TRADE);
	uint8_t give[RESOURCE_COUNT] = {0, 0, 1, 0, 0}, want[RESOURCE_COUNT] = {0, 0, 0, 1, 0};
	ck_assert(memcmp(answer.give, give, RESOURCE_COUNT) == 0);
	ck_assert(memcmp(answer.want, want, RESOURCE_COUNT) == 0);
	ck_assert_int_eq(answer.to, 1u << 0);
	ck_assert_int_eq(answer.give[RESOURCE_ORE], 0);
}
END_TEST

/* A counter-offer the offerer takes completes the exchange the bot wanted: seat 1 gets the
 * grain of its city for its spare wool, and builds the city on its turn. */
START_TEST(test_a_taken_counter_offer_completes_the_city)
{
	struct game game;
	start_position(&game);
	support_roll(&game, 6, 6);
	support_clear_hands(&game);
	support_set_hand(&game, 0, 1, 1, 1, 1, 1);
	support_set_hand(&game, 1, 0, 0, 2, 1, 3);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[RESOURCE_GRAIN] = 1;
	offer.want[RESOURCE_ORE] = 1;
	offer.to = 1u << 1;
	support_ok(&game, 0, &offer, NULL);
	struct command counter = bot_move(&game, 1, 1);
	ck_assert_int_eq(counter.type, COMMAND_OFFER_TRADE);
	support_ok(&game, 1, &counter, NULL);
	const struct game_offer *made = NULL;
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		if (game.offers[i].id && game.offers[i].from == 1)
			made = &game.offers[i];
	ck_assert_ptr_nonnull(made);
	ck_assert_int_eq(made->counter_to, game.offers[0].id);
	struct command take = support_command(COMMAND_CONFIRM_TRADE);
	take.trade = made->id;
	support_ok(&game, 0, &take, NULL);
	support_assert_hand(&game, 1, 0, 0, 1, 2, 3);
	struct command end = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &end, NULL);
	support_roll(&game, 1, 1);
	ck_assert_int_eq(bot_move(&game, 1, 2).type, COMMAND_BUILD_CITY);
}
END_TEST

START_TEST(test_declines_an_offer_of_nothing_needed)
{
	ck_assert_int_eq(answer_to(RESOURCE_BRICK, RESOURCE_WOOL, 2).type, COMMAND_DECLINE_TRADE);
}
END_TEST

START_TEST(test_declines_helping_a_seat_close_to_winning)
{
	ck_assert_int_eq(answer_to(RESOURCE_GRAIN, RESOURCE_WOOL, 8).type, COMMAND_DECLINE_TRADE);
}
END_TEST

/* Seat 0 in its main phase with the given hand. */
static void main_phase_with(struct game *game, int brick, int lumber, int wool, int grain, int ore)
{
	start_position(game);
	support_roll(game, 6, 6);
	support_clear_hands(game);
	support_set_hand(game, 0, brick, lumber, wool, grain, ore);
}

START_TEST(test_builds_a_city_when_it_can)
{
	struct game game;
	main_phase_with(&game, 0, 0, 0, 2, 3);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_BUILD_CITY);
	ck_assert(move.node == 43 || move.node == 44);
}
END_TEST

START_TEST(test_city_comes_before_a_settlement)
{
	struct game game;
	main_phase_with(&game, 1, 1, 1, 3, 3);
	/* Seat 0's road from 44 ends at 40; one more road reaches the open node 35. */
	support_place_road(&game, 0, support_edge_between(40, 35));
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_BUILD_CITY);
	support_ok(&game, 0, &move, NULL);
	move = bot_move(&game, 0, 2);
	ck_assert_int_eq(move.type, COMMAND_BUILD_SETTLEMENT);
	ck_assert_int_eq(move.node, 35);
}
END_TEST

START_TEST(test_trades_with_the_bank_to_complete_a_city)
{
	struct game game;
	main_phase_with(&game, 0, 0, 4, 1, 3);
	int traded = 0;
	for (int step = 0; step < 4; step++) {
		struct command move = bot_move(&game, 0, (uint64_t)step);
		ck_assert_msg(move.type != COMMAND_END_TURN, "ended the turn without building the city");
		if (move.type == COMMAND_MARITIME_TRADE) {
			ck_assert_int_eq(move.give[RESOURCE_WOOL], 4);
			ck_assert_int_eq(move.want[RESOURCE_GRAIN], 1);
			traded = 1;
		}
		support_ok(&game, 0, &move, NULL);
		if (move.type == COMMAND_BUILD_CITY)
			break;
	}
	ck_assert(traded);
	ck_assert_int_eq(game.players[0].cities_left, GAME_CITIES - 1);
}
END_TEST

START_TEST(test_offers_one_spare_card_for_the_missing_one)
{
	struct game game;
	main_phase_with(&game, 0, 0, 2, 1, 3);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_OFFER_TRADE);
	uint8_t give[RESOURCE_COUNT] = {0, 0, 1, 0, 0}, want[RESOURCE_COUNT] = {0, 0, 0, 1, 0};
	ck_assert(memcmp(move.give, give, RESOURCE_COUNT) == 0);
	ck_assert(memcmp(move.want, want, RESOURCE_COUNT) == 0);
	support_ok(&game, 0, &move, NULL);
	/* One open offer at a time: with no answer the turn goes on and ends. */
	for (int step = 0; game.turn_seat == 0 && step < 10; step++) {
		move = bot_move(&game, 0, 2 + (uint64_t)step);
		ck_assert_int_ne(move.type, COMMAND_OFFER_TRADE);
		support_ok(&game, 0, &move, NULL);
	}
	ck_assert_int_eq(move.type, COMMAND_END_TURN);
}
END_TEST

START_TEST(test_confirms_an_accepted_offer)
{
	struct game game;
	main_phase_with(&game, 0, 0, 2, 1, 3);
	support_set_hand(&game, 2, 0, 0, 0, 1, 0);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_OFFER_TRADE);
	support_ok(&game, 0, &move, NULL);
	struct command accept = support_command(COMMAND_ACCEPT_TRADE);
	accept.trade = game.offers[0].id;
	support_ok(&game, 2, &accept, NULL);
	move = bot_move(&game, 0, 2);
	ck_assert_int_eq(move.type, COMMAND_CONFIRM_TRADE);
	ck_assert_int_eq(move.with, 2);
	support_ok(&game, 0, &move, NULL);
	move = bot_move(&game, 0, 3);
	ck_assert_int_eq(move.type, COMMAND_BUILD_CITY);
}
END_TEST

START_TEST(test_ends_the_turn_with_nothing_useful)
{
	struct game game;
	main_phase_with(&game, 0, 0, 1, 0, 0);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_END_TURN);
}
END_TEST

START_TEST(test_year_of_plenty_completes_a_city)
{
	struct game game;
	main_phase_with(&game, 0, 0, 0, 1, 2);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 1);
	struct command move = bot_move(&game, 0, 1);
	ck_assert_int_eq(move.type, COMMAND_PLAY_YEAR_OF_PLENTY);
	ck_assert_int_eq(move.resources[RESOURCE_GRAIN], 1);
	ck_assert_int_eq(move.resources[RESOURCE_ORE], 1);
}
END_TEST

static int node_pips(const struct game *game, int node)
{
	int total = 0;
	for (int k = 0; k < 3; k++) {
		int hex = board_node_hexes[node][k];
		int number = hex >= 0 ? game->board.number[hex] : 0;
		total += number ? 6 - (number > 7 ? number - 7 : 7 - number) : 0;
	}
	return total;
}

/* On empty boards the first settlement is within two pips of the most productive site (the
 * rest of its value is resource variety and harbors). */
START_TEST(test_first_settlement_is_among_the_most_productive)
{
	for (int i = 0; i < 50; i++) {
		struct game game;
		int layout = i ? GAME_LAYOUT_RANDOM : GAME_LAYOUT_BEGINNER;
		new_game(&game, 4, layout, GAME_DICE_RANDOM, 120000 + (uint64_t)i);
		int best = 0;
		for (int node = 0; node < BOARD_NODES; node++)
			if (node_pips(&game, node) > best)
				best = node_pips(&game, node);
		struct command move = bot_move(&game, game.turn_seat, 1);
		ck_assert_int_eq(move.type, COMMAND_BUILD_SETTLEMENT);
		ck_assert_msg(node_pips(&game, move.node) >= best - 2, "board %d: node %d has %d pips, the best %d", i,
			      move.node, node_pips(&game, move.node), best);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("bot");
	TCase *games = tcase_create("games");
	tcase_set_timeout(games, 3600);
	tcase_add_test(games, test_bots_choose_only_listed_moves);
	tcase_add_test(games, test_eval_masks_match_the_board);
	tcase_add_test(games, test_bot_games_end_with_a_winner);
	tcase_add_test(games, test_one_bot_beats_three_random_players);
	tcase_add_test(games, test_three_bots_leave_a_random_player_no_chance);
	tcase_add_test(games, test_bot_turns_end_when_no_one_answers_offers);
	tcase_add_test(games, test_bot_ignores_other_seats_private_facts);
	suite_add_tcase(suite, games);
	TCase *positions = tcase_create("positions");
	tcase_add_test(positions, test_robber_moves_off_own_hex_onto_the_leaders);
	tcase_add_test(positions, test_knight_before_rolling_frees_own_hex);
	tcase_add_test(positions, test_rolls_when_the_knight_has_no_use);
	tcase_add_test(positions, test_discard_keeps_the_cards_of_a_city);
	tcase_add_test(positions, test_accepts_an_offer_that_completes_a_city);
	tcase_add_test(positions, test_counters_an_offer_taking_the_citys_ore);
	tcase_add_test(positions, test_a_taken_counter_offer_completes_the_city);
	tcase_add_test(positions, test_declines_an_offer_of_nothing_needed);
	tcase_add_test(positions, test_declines_helping_a_seat_close_to_winning);
	tcase_add_test(positions, test_builds_a_city_when_it_can);
	tcase_add_test(positions, test_city_comes_before_a_settlement);
	tcase_add_test(positions, test_trades_with_the_bank_to_complete_a_city);
	tcase_add_test(positions, test_offers_one_spare_card_for_the_missing_one);
	tcase_add_test(positions, test_confirms_an_accepted_offer);
	tcase_add_test(positions, test_ends_the_turn_with_nothing_useful);
	tcase_add_test(positions, test_year_of_plenty_completes_a_city);
	tcase_add_test(positions, test_first_settlement_is_among_the_most_productive);
	suite_add_tcase(suite, positions);
	return suite;
}
