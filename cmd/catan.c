/*
 * cli.c - `catan`, the engine's command-line front end (not part of the pure engine: it
 * does I/O, reads the clock and uses the JSON codec).
 *
 *   catan sim    --games N --players P --seed S [--layout beginner|random] [--trades]
 *   catan bench  --games N --players P --seed S
 *   catan bots   --games N --players P --seed S [--bots K] [--layout beginner|random]
 *   catan ladder --level L --against L2|random ...   (cmd/ladder.c: bot levels' strength)
 *   catan bot --level L < view-and-moves.json          (cmd/bot_cli.c: one bot move)
 *   catan replay FILE
 *   catan verify EXPORT.json                         (cmd/verify.c: a game's dice were fair)
 *   catan render FILE --out board.png|board.svg [--version N] [--labels nodes,edges,hexes]
 *                [--size PX] [--theme light|dark]
 *
 * sim plays N random games (each move uniform among the legal moves of whoever must act),
 * checks every invariant after every move and fails loudly (exit 1) when one breaks;
 * bench does the same with the cheap checks only and prints one line for `make bench`.
 * bots plays N games in which K seats (default all) are heuristic bots (engine/bot.h) and
 * the others random players, through engine/arena.h; it prints games per second of CPU
 * time, how often bot and random seats win, actions and turns per game, and fails when a
 * game ends without a winner or a chosen move is refused.
 * replay applies a JSON event log (an array of events, or {"events": [...]}, as the API's
 * event log returns) and prints the final state summary.
 * render replays the same log (up to --version N) and draws the board as a spectator sees
 * it (render/render.h), PNG or SVG by the output's extension.
 */
#include <errno.h>
#include <stddef.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/ladder.h"
#include "cmd/verify.h"
#include "codec/log.h"
#include "engine/apply.h"
#include "engine/arena.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "render/render.h"

#define SIM_MAX_ACTIONS 100000

struct sim_args {
	long games;
	int players;
	uint64_t seed;
	int layout; /* -1: alternate beginner and random */
	int trades;
	int full_checks;
};

struct sim_totals {
	long games;
	long winners;
	long actions;
	uint64_t hash; /* over every game's final state and action count, in order */
};

static void usage(void)
{
	fprintf(stderr,
		"usage: catan sim --games N --players P --seed S [--layout beginner|random] [--trades]\n"
		"       catan bench --games N --players P --seed S\n"
		"       catan bots --games N --players P --seed S [--bots K] [--layout beginner|random]\n"
		"       catan ladder --level L --against L2|random [--games N] [--seed S] [--playouts K]\n"
		"       catan bot --level easy|medium|hard [--seed S] [--playouts K] < game.json\n"
		"       catan replay FILE\n"
		"       catan verify EXPORT.json\n"
		"       catan render FILE --out board.png|board.svg [--version N] [--labels nodes,edges,hexes]\n"
		"                    [--size PX] [--theme light|dark]\n");
	exit(2);
}

static long parse_long(const char *text, long low, long high, const char *what)
{
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno || *end || value < low || value > high) {
		fprintf(stderr, "catan: %s must be an integer in %ld..%ld\n", what, low, high);
		exit(2);
	}
	return value;
}

/* The options sim, bench and bots share; 1 when `arg` was one of them. */
static int parse_common(const char *arg, const char *value, long *games, int *players, uint64_t *seed, int *layout)
{
	if (strcmp(arg, "--games") == 0)
		*games = parse_long(value, 1, 100000000, "--games");
	else if (strcmp(arg, "--players") == 0)
		*players = (int)parse_long(value, GAME_MIN_SEATS, GAME_MAX_SEATS, "--players");
	else if (strcmp(arg, "--seed") == 0)
		*seed = (uint64_t)parse_long(value, 0, INT64_MAX, "--seed");
	else if (strcmp(arg, "--layout") == 0 && strcmp(value, "beginner") == 0)
		*layout = GAME_LAYOUT_BEGINNER;
	else if (strcmp(arg, "--layout") == 0 && strcmp(value, "random") == 0)
		*layout = GAME_LAYOUT_RANDOM;
	else
		return 0;
	return 1;
}

static void parse_sim_args(int argc, char **argv, struct sim_args *args)
{
	args->games = 1000;
	args->players = 4;
	args->seed = 1;
	args->layout = -1;
	args->trades = 0;
	for (int i = 2; i < argc; i++) {
		const char *arg = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (strcmp(arg, "--trades") == 0) {
			args->trades = 1;
			continue;
		}
		if (!value)
			usage();
		i++;
		if (!parse_common(arg, value, &args->games, &args->players, &args->seed, &args->layout))
			usage();
	}
}

static void fail(long game_index, const struct game *game, const char *what)
{
	fprintf(stderr, "catan sim: INVARIANT BROKEN in game %ld at version %" PRIu32 ": %s\n", game_index,
		game->version, what);
	exit(1);
}

/* The bench's conservation check reads a holder's five resource counts as one word and
 * adds them in 16-bit lanes, counts 0, 2, 4 in one sum and 1, 3 in the other: a lane holds
 * any sum of five counts (5 x 255 < 65536) without a carry into the next, so the sums are
 * exact. The word starts at the counts and runs on into the fields after them, which the
 * masks drop. */
struct resource_lanes {
	uint64_t even, odd;
};

static void resource_lanes_add(struct resource_lanes *sums, const void *counts)
{
	uint64_t word;
	memcpy(&word, counts, sizeof word);
	sums->even += word & UINT64_C(0x000000ff00ff00ff);
	sums->odd += word >> 8 & UINT64_C(0x0000000000ff00ff);
}

_Static_assert(RESOURCE_COUNT == 5 && GAME_MAX_SEATS + 1 <= 5, "resource_lanes: five lanes, at most five counts added");
_Static_assert(offsetof(struct game, bank) + 8 <= sizeof(struct game) &&
		       offsetof(struct game_player, resources) + 8 <= sizeof(struct game_player),
	       "resource_lanes_add reads 8 bytes from the counts");

/* What resource_lanes_add() sums to when every resource is back to the bank's start. */
static struct resource_lanes resource_lanes_bank_start(void)
{
	uint8_t counts[8] = {0};
	for (int r = 0; r < RESOURCE_COUNT; r++)
		counts[r] = RESOURCE_BANK_START;
	struct resource_lanes sums = {0, 0};
	resource_lanes_add(&sums, counts);
	return sums;
}

/* FNV-1a over `size` bytes, from `hash`: the bench's fingerprint of the games it played, so
 * that a change meant to leave the games as they were can be checked by comparing two runs.
 * The state has no padding holes (game.h), so its bytes are its value. */
static uint64_t fingerprint(uint64_t hash, const void *data, size_t size)
{
	const unsigned char *bytes = data;
	for (size_t i = 0; i < size; i++)
		hash = (hash ^ bytes[i]) * UINT64_C(0x100000001b3);
	return hash;
}

/* One random game; returns the number of actions, sets *won and folds the final state and
 * the action count into *hash. */
static long play_one(const struct sim_args *args, long index, struct command *scratch, int *won, uint64_t *hash)
{
	const struct resource_lanes bank_start = resource_lanes_bank_start();
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)args->players;
	options.layout = (uint8_t)(args->layout >= 0 ? args->layout : (int)(index & 1));
	uint64_t game_seed = args->seed * UINT64_C(1000003) + (uint64_t)index;

	struct playout_options choices = {args->trades};
	struct playout_game playout;
	struct event_list events;
	if (playout_start(&playout, &options, &choices, game_seed, UINT64_C(0xc4005e), &events) != ERROR_OK)
		fail(index, &playout.state, "rules_create refused default options");
	const struct game *game = &playout.state;
	long actions = 0;
	int seat;
	struct command command;
	enum error error;
	enum playout_result result;
	while (actions < SIM_MAX_ACTIONS &&
	       (result = playout_step(&playout, scratch, &seat, &command, &events, &error)) != PLAYOUT_OVER) {
		if (result == PLAYOUT_REFUSED) {
			fprintf(stderr, "catan sim: listed move %s by seat %d refused: %s\n",
				command_type_name(command.type), seat, error_code(error));
			fail(index, game, "a legal move was refused");
		}
		actions++;
		if (args->full_checks) {
			const char *problem = invariants_check(game);
			if (problem)
				fail(index, game, problem);
		} else {
			struct resource_lanes sums = {0, 0};
			resource_lanes_add(&sums, (const unsigned char *)game + offsetof(struct game, bank));
			for (int s = 0; s < game->options.seats; s++)
				resource_lanes_add(&sums, (const unsigned char *)&game->players[s] +
								  offsetof(struct game_player, resources));
			if (sums.even != bank_start.even || sums.odd != bank_start.odd)
				fail(index, game, "resources not conserved");
		}
	}
	*won = game->phase == GAME_PHASE_FINISHED;
	*hash = fingerprint(*hash, game, sizeof *game);
	*hash = fingerprint(*hash, &actions, sizeof actions);
	if (*won && game_total_points(game, game->winner) < GAME_POINTS_TO_WIN)
		fail(index, game, "winner below 10 points");
	return actions;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int run_sim(int argc, char **argv, int bench)
{
	struct sim_args args;
	parse_sim_args(argc, argv, &args);
	args.full_checks = !bench;
	if (bench && args.layout < 0)
		args.layout = GAME_LAYOUT_RANDOM;
	struct command *scratch = malloc(sizeof *scratch * LEGAL_MOVES_MAX);
	if (!scratch)
		abort();
	struct sim_totals totals = {0, 0, 0, UINT64_C(0xcbf29ce484222325)};
	double start = now_seconds();
	for (long i = 0; i < args.games; i++) {
		int won;
		totals.actions += play_one(&args, i, scratch, &won, &totals.hash);
		totals.games++;
		totals.winners += won;
	}
	double elapsed = now_seconds() - start;
	free(scratch);
	double per_second = elapsed > 0 ? (double)totals.games / elapsed : 0;
	double per_game = (double)totals.actions / (double)totals.games;
	if (bench) {
		printf("bench engine: %ld games, %.0f games/s, %.1f actions/game, games hash %016" PRIx64 "\n",
		       totals.games, per_second, per_game, totals.hash);
	} else {
		printf("sim: %ld games, %ld with a winner, %.1f actions/game, %.0f games/s, all invariants held\n",
		       totals.games, totals.winners, per_game, per_second);
	}
	if (totals.winners != totals.games) {
		fprintf(stderr, "catan sim: %ld games ended without a winner\n", totals.games - totals.winners);
		return 1;
	}
	return 0;
}

struct bots_args {
	long games;
	int players;
	int bots;
	uint64_t seed;
	int layout; /* -1: alternate beginner and random */
};

static void parse_bots_args(int argc, char **argv, struct bots_args *args)
{
	args->games = 1000;
	args->players = 4;
	args->bots = -1;
	args->seed = 1;
	args->layout = -1;
	for (int i = 2; i < argc; i++) {
		const char *arg = argv[i];
		const char *value = i + 1 < argc ? argv[i + 1] : NULL;
		if (!value)
			usage();
		i++;
		if (strcmp(arg, "--bots") == 0)
			args->bots = (int)parse_long(value, 0, GAME_MAX_SEATS, "--bots");
		else if (!parse_common(arg, value, &args->games, &args->players, &args->seed, &args->layout))
			usage();
	}
	if (args->bots < 0 || args->bots > args->players)
		args->bots = args->players;
}

struct bots_totals {
	long games;
	long winners;
	long bot_wins;
	long actions;
	long turns;
	double seconds; /* CPU time in the engine and the bots: machine load does not count */
};

static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One game with `bots` bot seats; the bot seats rotate with the game index so that no seat
 * order favours either side. Returns 0 when a chosen move was refused. */
static int play_bots_game(const struct bots_args *args, long index, struct command *scratch, struct bots_totals *totals)
{
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)args->players;
	options.layout = (uint8_t)(args->layout >= 0 ? args->layout : (int)(index & 1));
	uint64_t game_seed = args->seed * UINT64_C(1000003) + (uint64_t)index;
	uint8_t bots = 0;
	for (int i = 0; i < args->bots; i++)
		bots |= (uint8_t)(1u << ((index + i) % args->players));

	double start = cpu_seconds();
	struct game game;
	struct event_list events;
	if (rules_start(&options, game_seed, &events, &game) != ERROR_OK)
		return 0;
	struct rng chooser;
	rng_init(&chooser, game_seed, UINT64_C(0xb075));
	long actions = 0;
	int seat;
	struct command command;
	while (actions < SIM_MAX_ACTIONS && arena_choose(&game, bots, &chooser, scratch, &seat, &command)) {
		struct game after;
		enum error error = rules_decide_seeded(&game, game_seed, seat, &command, &events, &after);
		if (error != ERROR_OK) {
			fprintf(stderr, "catan bots: game %ld: %s by %s seat %d refused: %s\n", index,
				command_type_name(command.type), bots >> seat & 1u ? "bot" : "random", seat,
				error_code(error));
			return 0;
		}
		memcpy(&game, &after, sizeof game);
		actions++;
	}
	totals->seconds += cpu_seconds() - start;
	totals->games++;
	totals->actions += actions;
	totals->turns += game.turn_number;
	if (game.phase == GAME_PHASE_FINISHED) {
		totals->winners++;
		totals->bot_wins += bots >> game.winner & 1u;
	} else {
		fprintf(stderr, "catan bots: game %ld has no winner after %ld actions\n", index, actions);
	}
	return 1;
}

static int run_bots(int argc, char **argv)
{
	struct bots_args args;
	parse_bots_args(argc, argv, &args);
	struct command *scratch = malloc(sizeof *scratch * LEGAL_MOVES_MAX);
	if (!scratch)
		abort();
	struct bots_totals totals = {0, 0, 0, 0, 0, 0.0};
	int refused = 0;
	for (long i = 0; i < args.games && !refused; i++)
		refused = !play_bots_game(&args, i, scratch, &totals);
	free(scratch);
	if (refused)
		return 1;
	double games = (double)totals.games;
	int randoms = args.players - args.bots;
	printf("bots: %ld games, %d bot and %d random seats, %.0f games/s (CPU), %.1f actions and %.1f turns per "
	       "game\n",
	       totals.games, args.bots, randoms, totals.seconds > 0 ? games / totals.seconds : 0,
	       (double)totals.actions / games, (double)totals.turns / games);
	long random_wins = totals.winners - totals.bot_wins;
	if (args.bots > 0)
		printf("bot seats won %.1f%% of games (%.1f%% per bot seat)\n", 100.0 * (double)totals.bot_wins / games,
		       100.0 * (double)totals.bot_wins / games / args.bots);
	if (randoms > 0)
		printf("random seats won %.1f%% of games (%.1f%% per random seat)\n",
		       100.0 * (double)random_wins / games, 100.0 * (double)random_wins / games / randoms);
	if (totals.winners != totals.games) {
		fprintf(stderr, "catan bots: %ld games ended without a winner\n", totals.games - totals.winners);
		return 1;
	}
	return 0;
}

static char *read_file(const char *path, size_t *size)
{
	FILE *file = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (!file)
		return NULL;
	size_t capacity = 1 << 16, length = 0;
	char *text = malloc(capacity);
	if (!text)
		abort();
	size_t got;
	while ((got = fread(text + length, 1, capacity - length - 1, file)) > 0) {
		length += got;
		if (capacity - length - 1 == 0) {
			capacity *= 2;
			text = realloc(text, capacity);
			if (!text)
				abort();
		}
	}
	text[length] = '\0';
	if (file != stdin)
		fclose(file);
	*size = length;
	return text;
}

static int run_verify(int argc, char **argv)
{
	if (argc != 3)
		usage();
	size_t size;
	char *text = read_file(argv[2], &size);
	if (!text) {
		fprintf(stderr, "catan verify: cannot read %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	int status = verify_export(text, size, stdout, stderr);
	free(text);
	return status;
}

static int run_replay(int argc, char **argv)
{
	if (argc != 3)
		usage();
	size_t size;
	char *text = read_file(argv[2], &size);
	if (!text) {
		fprintf(stderr, "catan replay: cannot read %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	struct game game;
	char message[256];
	int ok = codec_replay_log(text, size, &game, message, sizeof message);
	free(text);
	if (!ok) {
		fprintf(stderr, "catan replay: %s\n", message);
		return 1;
	}
	const char *problem = invariants_check(&game);
	if (problem) {
		fprintf(stderr, "catan replay: the replayed state breaks an invariant: %s\n", problem);
		return 1;
	}
	printf("version %" PRIu32 ", phase %s, turn %u (seat %d)", game.version, game_phase_name(game.phase),
	       game.turn_number, game.turn_seat);
	if (game.phase == GAME_PHASE_FINISHED)
		printf(", winner seat %d", game.winner);
	printf("\n");
	for (int s = 0; s < game.options.seats; s++) {
		const struct game_player *p = &game.players[s];
		printf("seat %d: %d points (%d public), %d cards, %d development cards, %d knights, road %d%s%s\n", s,
		       game_total_points(&game, s), game_public_points(&game, s), game_resource_count(&game, s),
		       game_development_count(&game, s), p->knights_played, p->road_length,
		       game.longest_road == s ? ", Longest Road" : "", game.largest_army == s ? ", Largest Army" : "");
	}
	return 0;
}

static int ends_with(const char *text, const char *suffix)
{
	size_t length = strlen(text), suffix_length = strlen(suffix);
	return length >= suffix_length && strcmp(text + length - suffix_length, suffix) == 0;
}

#define RENDER_RECENT 8

static int run_render(int argc, char **argv)
{
	if (argc < 3)
		usage();
	const char *path = argv[2], *out_path = NULL;
	long version = 0;
	struct render_options options = {RENDER_FORMAT_PNG, RENDER_THEME_LIGHT, RENDER_SIZE_DEFAULT, 0};
	for (int i = 3; i < argc; i++) {
		if (i + 1 >= argc)
			usage();
		if (strcmp(argv[i], "--out") == 0) {
			out_path = argv[++i];
		} else if (strcmp(argv[i], "--version") == 0) {
			version = parse_long(argv[++i], 1, 1000000000, "--version");
		} else if (strcmp(argv[i], "--size") == 0) {
			options.size = (int)parse_long(argv[++i], RENDER_SIZE_MIN, RENDER_SIZE_MAX, "--size");
		} else if (strcmp(argv[i], "--labels") == 0) {
			if (!render_labels_parse(argv[++i], &options.labels)) {
				fprintf(stderr, "catan render: --labels is a list of nodes, edges, hexes\n");
				return 2;
			}
		} else if (strcmp(argv[i], "--theme") == 0) {
			if (!render_theme_parse(argv[++i], &options.theme)) {
				fprintf(stderr, "catan render: --theme is light or dark\n");
				return 2;
			}
		} else {
			usage();
		}
	}
	if (!out_path)
		usage();
	if (ends_with(out_path, ".svg")) {
		options.format = RENDER_FORMAT_SVG;
	} else if (!ends_with(out_path, ".png")) {
		fprintf(stderr, "catan render: --out must end in .png or .svg\n");
		return 2;
	}
	size_t size;
	char *text = read_file(path, &size);
	if (!text) {
		fprintf(stderr, "catan render: cannot read %s: %s\n", path, strerror(errno));
		return 1;
	}
	struct game game;
	struct event recent[RENDER_RECENT];
	int recent_count;
	char message[256];
	int ok = codec_replay_log_to(text, size, (uint32_t)version, &game, recent, RENDER_RECENT, &recent_count,
				     message, sizeof message);
	free(text);
	if (!ok) {
		fprintf(stderr, "catan render: %s\n", message);
		return 1;
	}
	/* Only what a spectator sees reaches the renderer. */
	struct game_view view;
	view_game(&game, VIEW_SPECTATOR, &view);
	for (int i = 0; i < recent_count; i++) {
		struct event seen;
		view_event(&recent[i], VIEW_SPECTATOR, &seen);
		recent[i] = seen;
	}
	struct render_scene scene = {.view = &view, .waiting_for = legal_waiting_for(&game)};
	render_last_move_of(recent, recent_count, &scene.last_move);
	unsigned char *bytes;
	size_t length;
	if (!render_board(&scene, &options, &bytes, &length)) {
		fprintf(stderr, "catan render: the picture could not be drawn\n");
		return 1;
	}
	FILE *file = fopen(out_path, "wb");
	if (!file || fwrite(bytes, 1, length, file) != length || fclose(file) != 0) {
		fprintf(stderr, "catan render: cannot write %s: %s\n", out_path, strerror(errno));
		free(bytes);
		return 1;
	}
	free(bytes);
	render_shutdown();
	printf("%s: version %" PRIu32 ", %zu bytes\n", out_path, game.version, length);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		usage();
	if (strcmp(argv[1], "sim") == 0)
		return run_sim(argc, argv, 0);
	if (strcmp(argv[1], "bench") == 0)
		return run_sim(argc, argv, 1);
	if (strcmp(argv[1], "bots") == 0)
		return run_bots(argc, argv);
	if (strcmp(argv[1], "ladder") == 0)
		return ladder_run(argc, argv);
	if (strcmp(argv[1], "bot") == 0)
		return bot_cli_run(argc, argv);
	if (strcmp(argv[1], "replay") == 0)
		return run_replay(argc, argv);
	if (strcmp(argv[1], "render") == 0)
		return run_render(argc, argv);
	if (strcmp(argv[1], "verify") == 0)
		return run_verify(argc, argv);
	usage();
	return 2;
}
