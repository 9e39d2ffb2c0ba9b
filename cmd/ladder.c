/*
 * ladder.c - `catan ladder`: one bot level against another on one core, with fixed seeds.
 *
 *   catan ladder --level L --against L2|random [--games N] [--seed S] [--players P]
 *                [--playouts K] [--layout beginner|random]
 *
 * Game i seats the level under test at seat i mod P and the other level at the other
 * seats (the layout alternates beginner and random unless given), plays it out through
 * arena_choose_players() and rules_decide_seeded(), and counts who won. It prints the
 * level's win share with a 95% Wilson interval (parity is 1/P) and the CPU time per
 * decision (p50, p99, max) of each side, measured around each arena_choose_players() call
 * on this thread's clock, so other load on the machine does not count. Exit 1 when a
 * chosen move is refused or a game ends without a winner: a bot must never do either.
 */
#include "cmd/ladder.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/arena.h"
#include "engine/arena_levels.h"
#include "engine/bot.h"
#include "engine/legal.h"
#include "engine/rules.h"

#define LADDER_MAX_ACTIONS 100000

struct ladder_args {
	long games;
	int players;
	uint64_t seed;
	int layout; /* -1: alternate */
	int level;
	int against; /* a level or ARENA_RANDOM */
	int playouts;
};

/* Decision times in nanoseconds, grown as needed. */
struct ladder_times {
	long count;
	long room;
	int64_t *ns;
};

static void ladder_usage(void)
{
	fprintf(stderr, "usage: catan ladder --level easy|medium|hard --against easy|medium|hard|random [--games N]\n"
			"                    [--seed S] [--players P] [--playouts K] [--layout beginner|random]\n");
	exit(2);
}

static long ladder_long(const char *text, long low, long high, const char *what)
{
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno || *end || value < low || value > high) {
		fprintf(stderr, "catan ladder: %s must be an integer in %ld..%ld\n", what, low, high);
		exit(2);
	}
	return value;
}

static void parse_args(int argc, char **argv, struct ladder_args *args)
{
	*args = (struct ladder_args){400, 4, 1, -1, -1, -2, 0};
	for (int i = 2; i < argc; i += 2) {
		const char *arg = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (!value)
			ladder_usage();
		if (strcmp(arg, "--games") == 0)
			args->games = ladder_long(value, 1, 10000000, "--games");
		else if (strcmp(arg, "--players") == 0)
			args->players = (int)ladder_long(value, GAME_MIN_SEATS, GAME_MAX_SEATS, "--players");
		else if (strcmp(arg, "--seed") == 0)
			args->seed = (uint64_t)ladder_long(value, 0, INT64_MAX, "--seed");
		else if (strcmp(arg, "--playouts") == 0)
			args->playouts = (int)ladder_long(value, 1, 1000000, "--playouts");
		else if (strcmp(arg, "--layout") == 0)
			args->layout = strcmp(value, "beginner") == 0 ? GAME_LAYOUT_BEGINNER
				       : strcmp(value, "random") == 0 ? GAME_LAYOUT_RANDOM
								      : (ladder_usage(), 0);
		else if (strcmp(arg, "--level") == 0)
			args->level = bot_level_parse(value);
		else if (strcmp(arg, "--against") == 0)
			args->against = strcmp(value, "random") == 0 ? ARENA_RANDOM : bot_level_parse(value);
		else
			ladder_usage();
	}
	if (args->level < 0 || args->against < ARENA_RANDOM)
		ladder_usage();
}

static int64_t thread_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void times_add(struct ladder_times *times, int64_t ns)
{
	if (times->count == times->room) {
		times->room = times->room ? 2 * times->room : 4096;
		times->ns = realloc(times->ns, sizeof *times->ns * (size_t)times->room);
		if (!times->ns)
			abort();
	}
	times->ns[times->count++] = ns;
}

static int compare_ns(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static void times_print(const char *who, struct ladder_times *times)
{
	if (times->count == 0)
		return;
	qsort(times->ns, (size_t)times->count, sizeof *times->ns, compare_ns);
	long p50 = times->count / 2, p99 = times->count * 99 / 100;
	printf("  %-7s decisions %ld: p50 %.1f us, p99 %.1f us, max %.1f us\n", who, times->count,
	       (double)times->ns[p50] / 1e3, (double)times->ns[p99] / 1e3, (double)times->ns[times->count - 1] / 1e3);
}

/* One game; returns the winner's seat, -1 without one, -2 when a move was refused. */
static int play_game(const struct ladder_args *args, long index, struct command *scratch,
		     struct ladder_times *level_times, struct ladder_times *against_times, int *tested_seat)
{
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)args->players;
	options.layout = (uint8_t)(args->layout >= 0 ? args->layout : (int)(index & 1));
	uint64_t game_seed = args->seed * UINT64_C(1000003) + (uint64_t)index;
	struct arena_players players;
	players.playouts = args->playouts;
	*tested_seat = (int)(index % args->players);
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		players.level[s] = (int8_t)(s == *tested_seat ? args->level : args->against);
	struct game game;
	struct event_list events;
	if (rules_start(&options, game_seed, &events, &game) != ERROR_OK)
		return -2;
	struct rng chooser;
	rng_init(&chooser, game_seed, UINT64_C(0xb075));
	for (long actions = 0; actions < LADDER_MAX_ACTIONS; actions++) {
		int seat;
		struct command command;
		int64_t start = thread_ns();
		if (!arena_choose_players(&game, &players, &chooser, scratch, &seat, &command))
			break;
		int64_t spent = thread_ns() - start;
		if (players.level[seat] != ARENA_RANDOM)
			times_add(seat == *tested_seat ? level_times : against_times, spent);
		enum error error = rules_decide_seeded_in_place(&game, game_seed, seat, &command, &events);
		if (error != ERROR_OK) {
			fprintf(stderr, "catan ladder: game %ld: %s by seat %d refused: %s\n", index,
				command_type_name(command.type), seat, error_code(error));
			return -2;
		}
	}
	return game.phase == GAME_PHASE_FINISHED ? game.winner : -1;
}

int ladder_run(int argc, char **argv)
{
	struct ladder_args args;
	parse_args(argc, argv, &args);
	struct command *scratch = malloc(sizeof *scratch * LEGAL_MOVES_MAX);
	if (!scratch)
		abort();
	struct ladder_times level_times = {0, 0, NULL}, against_times = {0, 0, NULL};
	long wins = 0, unfinished = 0;
	for (long i = 0; i < args.games; i++) {
		int tested;
		int winner = play_game(&args, i, scratch, &level_times, &against_times, &tested);
		if (winner == -2) {
			free(scratch);
			return 1;
		}
		unfinished += winner < 0;
		wins += winner == tested;
	}
	free(scratch);
	double n = (double)args.games, p = (double)wins / n, z = 1.96;
	double centre = (p + z * z / (2 * n)) / (1 + z * z / n);
	double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
	const char *against = args.against == ARENA_RANDOM ? "random" : bot_level_name(args.against);
	printf("ladder: %s vs %d %s, %ld games (seed %" PRIu64 ", playouts %d): %s won %ld = %.1f%% "
	       "[95%% %.1f, %.1f] (parity %.1f%%)\n",
	       bot_level_name(args.level), args.players - 1, against, args.games, args.seed,
	       args.playouts ? args.playouts : BOT_PLAYOUTS_DEFAULT, bot_level_name(args.level), wins, 100 * p,
	       100 * (centre - half), 100 * (centre + half), 100.0 / args.players);
	times_print(bot_level_name(args.level), &level_times);
	times_print(against, &against_times);
	free(level_times.ns);
	free(against_times.ns);
	if (unfinished) {
		fprintf(stderr, "catan ladder: %ld games ended without a winner\n", unfinished);
		return 1;
	}
	return 0;
}
