/*
 * test_bot_levels.c - the three bot levels (engine/bot.h: easy, medium, hard), the
 * determinization the hard level searches on (engine/bot_sample.h) and the arena that
 * seats them (engine/arena.h).
 *
 * A sample must be a state the seat cannot tell from the real one: its view of the sample
 * is its view of the game, byte for byte, and every invariant holds. No level may peek:
 * twins of a position that differ only in what the seat cannot see (another hand's
 * composition, the kinds of another seat's development cards and of the deck) give the
 * same decision for the same rng. Whole games pin that every level plays listed moves to a
 * winner and that no bot gives a card to a seat at 8 or more public points or offers what
 * it cannot pay. A short ladder with fixed seeds pins the order of strength with margins a
 * deterministic run cannot miss by chance.
 */
#include "tests/check_main.h"

#include <stdio.h>
#include <string.h>

#include "engine/arena.h"
#include "engine/arena_levels.h"
#include "engine/bot.h"
#include "engine/bot_sample.h"
#include "engine/invariants.h"
#include "engine/legal.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "tests/engine/support.h"

#define MAX_GAME_ACTIONS 3000

static struct command scratch[LEGAL_MOVES_MAX];
static struct command listed[LEGAL_MOVES_MAX];
static struct command twin_listed[LEGAL_MOVES_MAX];

static void start_game(struct game *game, int seats, int layout, uint64_t seed)
{
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	options.layout = (uint8_t)layout;
	struct event_list events;
	ck_assert_int_eq(rules_start(&options, seed, &events, game), ERROR_OK);
}

static void play(struct game *game, uint64_t seed, int seat, const struct command *command)
{
	struct event_list events;
	enum error error = rules_decide_seeded_in_place(game, seed, seat, command, &events);
	ck_assert_msg(error == ERROR_OK, "%s by seat %d refused: %s", command_type_name(command->type), seat,
		      error_code(error));
}

START_TEST(test_a_sample_shows_the_seat_exactly_its_view)
{
	long checked = 0;
	for (int i = 0; i < 12; i++) {
		uint64_t seed = UINT64_C(270000) + (uint64_t)i;
		struct game game;
		start_game(&game, 3 + (i & 1), i >> 1 & 1, seed);
		struct rng chooser;
		rng_init(&chooser, seed, 1);
		int seat;
		struct command command;
		for (long actions = 0;
		     actions < MAX_GAME_ACTIONS && arena_choose(&game, 0x0f, &chooser, scratch, &seat, &command);
		     actions++) {
			struct game_view view, again;
			view_game(&game, seat, &view);
			struct bot_public facts;
			bot_public_of_game(&game, &facts);
			struct rng sampler;
			rng_init(&sampler, seed, game.version);
			struct game sample;
			bot_sample_state(&view, &facts, &sampler, &sample);
			view_game(&sample, seat, &again);
			ck_assert_msg(memcmp(&view, &again, sizeof view) == 0,
				      "game %d version %u: seat %d's view of its sample differs", i, game.version,
				      seat);
			const char *broken = invariants_check(&sample);
			ck_assert_msg(broken == NULL, "game %d version %u: the sample breaks %s", i, game.version,
				      broken);
			int count = legal_moves(&game, seat, listed, LEGAL_MOVES_MAX);
			int sample_count = legal_moves(&sample, seat, twin_listed, LEGAL_MOVES_MAX);
			if (!support_any_open_offer(&game)) {
				ck_assert_int_eq(count, sample_count);
				ck_assert(memcmp(listed, twin_listed, sizeof listed[0] * (size_t)count) == 0);
			}
			checked++;
			play(&game, seed, seat, &command);
		}
		ck_assert_int_eq(game.phase, GAME_PHASE_FINISHED);
	}
	ck_assert_int_gt(checked, 3000);
}
END_TEST

START_TEST(test_no_level_sees_what_its_seat_cannot)
{
	long compared[BOT_LEVEL_COUNT] = {0};
	for (int i = 0; i < 8; i++) {
		uint64_t seed = UINT64_C(271000) + (uint64_t)i;
		struct game game;
		start_game(&game, 3 + (i & 1), i >> 1 & 1, seed);
		struct rng chooser;
		rng_init(&chooser, seed, 1);
		int seat;
		struct command command;
		for (long actions = 0;
		     actions < MAX_GAME_ACTIONS && arena_choose(&game, 0x0f, &chooser, scratch, &seat, &command);
		     actions++) {
			struct game twin;
			memcpy(&twin, &game, sizeof twin);
			if (!support_any_open_offer(&game) && support_change_hidden_facts(&twin, seat)) {
				int count = legal_moves(&game, seat, listed, LEGAL_MOVES_MAX);
				int twin_count = legal_moves(&twin, seat, twin_listed, LEGAL_MOVES_MAX);
				ck_assert_int_eq(count, twin_count);
				struct game_view view, twin_view;
				view_game(&game, seat, &view);
				view_game(&twin, seat, &twin_view);
				struct bot_public facts, twin_facts;
				bot_public_of_game(&game, &facts);
				bot_public_of_game(&twin, &twin_facts);
				ck_assert(memcmp(&facts, &twin_facts, sizeof facts) == 0);
				for (int level = 0; level < BOT_LEVEL_COUNT; level++) {
					/* The hard level's search is costly: every fifth decision. */
					if (level == BOT_LEVEL_HARD && actions % 5)
						continue;
					struct bot_settings settings = {level, 24};
					struct rng rng, twin_rng;
					rng_init(&rng, seed, game.version);
					rng_init(&twin_rng, seed, game.version);
					struct command move, twin_move;
					bot_decide(&settings, &view, &facts, listed, count, &rng, &move);
					bot_decide(&settings, &twin_view, &twin_facts, twin_listed, twin_count,
						   &twin_rng, &twin_move);
					ck_assert_msg(memcmp(&move, &twin_move, sizeof move) == 0,
						      "game %d version %u: %s seat %d chose %s, and %s when others' "
						      "cards differ",
						      i, game.version, bot_level_name(level), seat,
						      command_type_name(move.type), command_type_name(twin_move.type));
					compared[level]++;
				}
			}
			play(&game, seed, seat, &command);
		}
	}
	ck_assert_int_gt(compared[BOT_LEVEL_EASY], 500);
	ck_assert_int_gt(compared[BOT_LEVEL_HARD], 100);
}
END_TEST

/* A bot's move that gives cards: to whom, and whether it holds them. Domestic trades only. */
static void check_trade_move(const struct game *game, int seat, const struct command *move)
{
	const uint8_t *hand = game->players[seat].resources;
	if (move->type == COMMAND_OFFER_TRADE) {
		ck_assert_msg(resource_covers(hand, move->give), "seat %d offers cards it does not hold", seat);
		for (int s = 0; s < game->options.seats; s++)
			if (s != seat && (move->to >> s & 1u))
				ck_assert_msg(game_public_points(game, s) < 8,
					      "seat %d offers a card to seat %d at %d points", seat, s,
					      game_public_points(game, s));
	}
	const struct game_offer *offer = game_find_offer(game, move->trade);
	if (!offer)
		return;
	int partner = move->type == COMMAND_ACCEPT_TRADE    ? offer->from
		      : move->type == COMMAND_CONFIRM_TRADE ? (offer->from == seat ? move->with : offer->from)
							    : -1;
	if (partner >= 0)
		ck_assert_msg(game_public_points(game, partner) < 8, "seat %d trades a card to seat %d at %d points",
			      seat, partner, game_public_points(game, partner));
}

START_TEST(test_every_level_plays_listed_moves_to_a_winner_and_trades_safely)
{
	static const int8_t tables[][GAME_MAX_SEATS] = {
		{BOT_LEVEL_EASY, BOT_LEVEL_MEDIUM, BOT_LEVEL_HARD, ARENA_RANDOM},
		{BOT_LEVEL_HARD, BOT_LEVEL_EASY, BOT_LEVEL_MEDIUM, BOT_LEVEL_MEDIUM},
		{BOT_LEVEL_MEDIUM, BOT_LEVEL_HARD, BOT_LEVEL_EASY, BOT_LEVEL_EASY},
	};
	long trades = 0;
	for (int i = 0; i < 6; i++) {
		uint64_t seed = UINT64_C(272000) + (uint64_t)i;
		struct arena_players players;
		memcpy(players.level, tables[i % 3], sizeof players.level);
		players.playouts = 24;
		struct game game;
		start_game(&game, 4 - (i & 1), i >> 1 & 1, seed);
		struct rng chooser;
		rng_init(&chooser, seed, 1);
		int seat;
		struct command command;
		long actions = 0;
		while (actions++ < MAX_GAME_ACTIONS &&
		       arena_choose_players(&game, &players, &chooser, scratch, &seat, &command)) {
			if (players.level[seat] != ARENA_RANDOM && command.type >= COMMAND_OFFER_TRADE) {
				check_trade_move(&game, seat, &command);
				trades++;
			}
			play(&game, seed, seat, &command);
		}
		ck_assert_msg(game.phase == GAME_PHASE_FINISHED, "game %d has no winner after %ld actions", i, actions);
	}
	ck_assert_int_gt(trades, 10);
}
END_TEST

/* Wins of `level` at seat i mod 4 of game i against three `against`, over `games`. */
static int ladder_wins(int level, int against, int games, int playouts, uint64_t seed_base)
{
	int wins = 0;
	for (int i = 0; i < games; i++) {
		uint64_t seed = seed_base + (uint64_t)i;
		struct arena_players players;
		players.playouts = playouts;
		int tested = i % 4;
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			players.level[s] = (int8_t)(s == tested ? level : against);
		struct game game;
		start_game(&game, 4, i & 1, seed);
		struct rng chooser;
		rng_init(&chooser, seed, 0xb075);
		int seat;
		struct command command;
		for (long actions = 0;
		     actions < 20000 && arena_choose_players(&game, &players, &chooser, scratch, &seat, &command);
		     actions++)
			play(&game, seed, seat, &command);
		ck_assert_int_eq(game.phase, GAME_PHASE_FINISHED);
		wins += game.winner == tested;
	}
	return wins;
}

START_TEST(test_a_short_ladder_orders_the_levels)
{
	/* Parity is a quarter: 10 of 40. The full ladder (make bench-bots) has easy at ~83%
	 * against random players and medium at ~99% against easy bots. */
	int easy = ladder_wins(BOT_LEVEL_EASY, ARENA_RANDOM, 40, 0, UINT64_C(273000));
	ck_assert_msg(easy >= 20, "easy won %d of 40 against three random players", easy);
	int medium = ladder_wins(BOT_LEVEL_MEDIUM, BOT_LEVEL_EASY, 40, 0, UINT64_C(274000));
	ck_assert_msg(medium >= 25, "medium won %d of 40 against three easy bots", medium);
}
END_TEST

START_TEST(test_hard_wins_at_least_as_often_as_medium_in_its_seat)
{
	/* The same 40 games (seeds, seats, boards), the tested seat played by hard, then by
	 * medium (whose share is parity by symmetry: about 10). Deterministic, so the margin
	 * is the whole gap of the full ladder (hard ~35% against three medium bots). */
	int hard = ladder_wins(BOT_LEVEL_HARD, BOT_LEVEL_MEDIUM, 40, 0, UINT64_C(276000));
	int medium = ladder_wins(BOT_LEVEL_MEDIUM, BOT_LEVEL_MEDIUM, 40, 0, UINT64_C(276000));
	fprintf(stderr, "short ladder: hard %d, medium %d of 40 against three medium bots\n", hard, medium);
	ck_assert_msg(hard >= medium, "hard won %d of 40 against three medium bots, medium %d", hard, medium);
}
END_TEST

START_TEST(test_the_budget_shrinks_with_the_backlog_never_below_the_floor)
{
	ck_assert_int_eq(bot_playouts_under_load(80, 0, 2, 0), 80);
	ck_assert_int_eq(bot_playouts_under_load(80, 2, 2, 0), 80);
	ck_assert_int_eq(bot_playouts_under_load(80, 4, 2, 0), 40);
	ck_assert_int_eq(bot_playouts_under_load(80, 8, 2, 0), 20);
	ck_assert_int_eq(bot_playouts_under_load(80, 8, 2, 1), 10);
	ck_assert_int_eq(bot_playouts_under_load(80, 64, 2, 1), BOT_PLAYOUTS_MIN);
	ck_assert_int_eq(bot_playouts_under_load(0, 0, 0, 0), BOT_PLAYOUTS_DEFAULT);
	/* Fewer playouts, fewer rollouts: a decision at the floor costs a tenth of one at 80. */
	for (int playouts = 80, last = 81; playouts >= BOT_PLAYOUTS_MIN; playouts /= 2) {
		ck_assert_int_lt(bot_playouts_under_load(playouts, 0, 1, 0), last);
		last = bot_playouts_under_load(playouts, 0, 1, 0);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("bot_levels");
	TCase *sample = tcase_create("sample");
	tcase_add_test(sample, test_a_sample_shows_the_seat_exactly_its_view);
	suite_add_tcase(suite, sample);
	TCase *peeking = tcase_create("peeking");
	tcase_set_timeout(peeking, 120);
	tcase_add_test(peeking, test_no_level_sees_what_its_seat_cannot);
	suite_add_tcase(suite, peeking);
	tcase_add_test(sample, test_the_budget_shrinks_with_the_backlog_never_below_the_floor);
	TCase *games = tcase_create("games");
	/* ~40 s of CPU (the hard games); the wall clock of a loaded machine is longer. */
	tcase_set_timeout(games, 900);
	tcase_add_test(games, test_every_level_plays_listed_moves_to_a_winner_and_trades_safely);
	tcase_add_test(games, test_a_short_ladder_orders_the_levels);
	tcase_add_test(games, test_hard_wins_at_least_as_often_as_medium_in_its_seat);
	suite_add_tcase(suite, games);
	return suite;
}
