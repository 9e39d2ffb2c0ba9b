/*
 * bot_search.c - the hard bot: determinized flat Monte Carlo over the engine (bot.h), and
 * bot_decide(), the one entry point of every level.
 *
 * Information. Like the other levels it is given the seat's view, the public facts of the
 * log and the seat's legal moves, never a struct game. Each playout starts from a state
 * drawn by bot_sample_state() (opponents' hands and development cards from the unseen
 * pools, the deck's order from a fresh seed), so what it cannot see is guessed, not read.
 *
 * Search. At the decisions where a plan matters -- the opening settlements and the seat's
 * own main phase -- it lists candidates: the medium policy's own choice, and for each kind
 * of move (a city, a settlement, a road, a development card bought or played, a bank trade)
 * the medium policy's pick among the moves of that kind alone, and ending the turn. Every
 * candidate is played on the same samples with the same seeds (common random numbers, so
 * their differences are not the dice's), then every seat follows the medium policy
 * (arena_choose()) until the game ends (or PLAYOUT_TURNS turns have passed). A playout is
 * worth 1 when the seat wins, 0 when another does, and between by the points margin when it
 * stops first. A candidate replaces the medium policy's choice only when its mean gain over
 * that choice, sample by sample, is clearly positive (SEARCH_MARGIN, SEARCH_SIGMAS): picking
 * the best of a dozen noisy means alone played worse than the medium policy itself. In the
 * ladder the gain comes mostly from the opening sites (setup search alone: 27%, main
 * phase alone: 24%, both: 35% against three medium bots, 100 games each; parity 25%). Domestic trades
 * (offers, answers, confirmations) stay with the medium policy, whose partner rule never
 * trades with a seat at 8 or more public points: no card of this bot lets such a seat win.
 * Every other decision (rolls, discards, the robber, answers) is the medium policy's.
 *
 * Dice. Inside the playouts the dice are manual, drawn from (sample seed, turn number):
 * every candidate on a sample sees the same rolls turn by turn. The engine's own draw is
 * keyed by the state's version, which differs as soon as two candidates take different
 * numbers of actions, so the pairing was lost after the first move.
 *
 * Budget. `playouts` times SEARCH_ACTIONS_PER_PLAYOUT (~one playout from the opening) is
 * the decision's budget in playout actions: samples are drawn until it is spent (at least
 * one), so a decision late in the game, whose playouts are short, gets more samples.
 * Racing: after SEARCH_RACE_MIN samples a candidate clearly short of the gate gets no more
 * playouts; when none is left the search stops. The server lowers `playouts` under load
 * (game/worker.c). A seat with one legal move in a playout makes it without a view.
 *
 * Measured (2026-12-02, 400 games each, --seed 2): these changes 32.0% [27.6, 36.7],
 * p99 33 ms; four times the budget at the seat's last opening site as well, 32.0% (max
 * 137 ms); at both opening sites, 35.5% [31.0, 40.3] but p99 109 ms (the openings are
 * 1.6% of the seat's decisions): not kept. Playouts stopped after 40 turns and scored by
 * points, for the openings: 23% of 100 games. Below the 45% target.
 * Tried after (2026-12-02, 400 games each against three medium bots; this version 35.0%
 * [30.5, 39.8] at --seed 7, 36.5% at --seed 1), none kept: a finished playout worth the win
 * plus the seat's points / 10 (weight 1.0: 37.0% at seed 7 but 32.2% [27.9, 37.0] at seed
 * 1; weight 0.3: 34.5% at seed 7); playouts stopped 20 turns on and scored by points, cards
 * and pips of production (0.08 points a pip): 32.2%; searching the opening roads and the
 * robber too (4 candidates by bot_eval_robber()): 38% against 42% over 100 games at seed 5.
 * Deterministic: the playouts draw only from the rng given.
 */
#include "bot.h"

#include <string.h>

#include "arena.h"
#include "bot_eval.h"
#include "legal.h"
#include "rules.h"
#include "view.h"

/* Turns a playout runs past the decision before it is scored by points: in effect to the
 * end. Shorter playouts scored by the points margin were weaker in the ladder (a 4-turn
 * horizon won 15% against three medium bots, whole games 33%). */
#define PLAYOUT_TURNS 1000
/* Actions a playout may take at most (a game of bots takes ~500 in all). */
#define PLAYOUT_ACTIONS 1500
/* Candidates considered at one decision at most. */
#define SEARCH_CANDIDATES 16
/* How much better than the medium choice a candidate must look to be taken: its mean gain
 * over the medium choice on the same samples, absolute and in standard errors. */
#define SEARCH_MARGIN 0.05
#define SEARCH_SIGMAS 2.0
/* The budget in playout actions: `playouts` times this (a playout from the opening takes
 * ~480 actions, one near the end a few dozen), so late decisions get more samples. */
#define SEARCH_ACTIONS_PER_PLAYOUT 450
/* Samples per decision at most. */
#define SEARCH_SAMPLES_MAX 400
/* Racing: after SEARCH_RACE_MIN samples, a candidate whose mean gain is SEARCH_RACE_SIGMAS
 * standard errors below SEARCH_MARGIN gets no more playouts. */
#define SEARCH_RACE_MIN 8
#define SEARCH_RACE_SIGMAS 1.5
/* Opening sites considered. */
#define SEARCH_SITES 6

static const char *const level_names[BOT_LEVEL_COUNT] = {"easy", "medium", "hard"};

const char *bot_level_name(int level)
{
	return level >= 0 && level < BOT_LEVEL_COUNT ? level_names[level] : NULL;
}

int bot_level_parse(const char *name)
{
	for (int level = 0; name && level < BOT_LEVEL_COUNT; level++)
		if (strcmp(name, level_names[level]) == 0)
			return level;
	return -1;
}

int bot_decide(const struct bot_settings *settings, const struct game_view *view, const struct bot_public *facts,
	       const struct command *moves, int count, struct rng *rng, struct command *out)
{
	int level = settings ? settings->level : BOT_LEVEL_DEFAULT;
	if (level == BOT_LEVEL_EASY)
		return bot_choose_easy(view, moves, count, rng, out);
	if (level == BOT_LEVEL_HARD)
		return bot_choose_hard(view, facts, moves, count, settings->playouts, rng, out);
	return bot_choose(view, moves, count, rng, out);
}

int bot_playouts_under_load(int playouts, int backlog, int workers, int full)
{
	if (workers < 1)
		workers = 1;
	long budget = playouts > 0 ? playouts : BOT_PLAYOUTS_DEFAULT;
	if (backlog > workers)
		budget = budget * workers / backlog;
	if (full)
		budget /= 2;
	return budget < BOT_PLAYOUTS_MIN ? BOT_PLAYOUTS_MIN : (int)budget;
}

struct search {
	const struct game_view *view;
	const struct bot_public *facts;
	int me;
	struct command candidates[SEARCH_CANDIDATES];
	int candidate_count;
	struct command scratch[LEGAL_MOVES_MAX];
	struct command subset[LEGAL_MOVES_MAX];
	struct event_list events;
	long actions; /* playout actions taken so far at this decision */
};

static void add_candidate(struct search *search, const struct command *move)
{
	if (search->candidate_count >= SEARCH_CANDIDATES || move->is_template)
		return;
	for (int i = 0; i < search->candidate_count; i++)
		if (memcmp(&search->candidates[i], move, sizeof *move) == 0)
			return;
	search->candidates[search->candidate_count++] = *move;
}

static int is_trade_move(int type)
{
	return type == COMMAND_OFFER_TRADE || type == COMMAND_ACCEPT_TRADE || type == COMMAND_DECLINE_TRADE ||
	       type == COMMAND_CONFIRM_TRADE || type == COMMAND_WITHDRAW_TRADE;
}

/* The medium policy's pick among the moves of `type` (with ending the turn beside them),
 * added when it is one of them. */
static void add_medium_pick(struct search *search, const struct command *moves, int count, int type, struct rng *rng)
{
	int kept = 0;
	for (int i = 0; i < count; i++)
		if (moves[i].type == type || moves[i].type == COMMAND_END_TURN)
			search->subset[kept++] = moves[i];
	if (kept == 0)
		return;
	struct command pick;
	if (bot_choose(search->view, search->subset, kept, rng, &pick) && pick.type == type)
		add_candidate(search, &pick);
}

static void main_candidates(struct search *search, const struct command *moves, int count, struct rng *rng)
{
	static const int kinds[] = {
		COMMAND_BUILD_CITY,	      COMMAND_BUILD_SETTLEMENT,	  COMMAND_BUILD_ROAD,
		COMMAND_BUY_DEVELOPMENT_CARD, COMMAND_PLAY_KNIGHT,	  COMMAND_PLAY_YEAR_OF_PLENTY,
		COMMAND_PLAY_MONOPOLY,	      COMMAND_PLAY_ROAD_BUILDING, COMMAND_MARITIME_TRADE};
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		add_medium_pick(search, moves, count, kinds[k], rng);
	/* A road toward the best site even when the medium policy would save its cards. */
	struct bot_eval eval;
	bot_eval_init(&eval, search->view);
	int best = -1, best_value = 0;
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_BUILD_ROAD)
			continue;
		int value = bot_eval_road(&eval, moves[i].edge, eval.anchors);
		if (value > best_value) {
			best = i;
			best_value = value;
		}
	}
	if (best >= 0)
		add_candidate(search, &moves[best]);
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_END_TURN)
			add_candidate(search, &moves[i]);
}

static void site_candidates(struct search *search, const struct command *moves, int count)
{
	struct bot_eval eval;
	bot_eval_init(&eval, search->view);
	int taken[SEARCH_SITES];
	int values[SEARCH_SITES];
	int kept = 0;
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_BUILD_SETTLEMENT)
			continue;
		int value = bot_eval_site(&eval, moves[i].node);
		int at = kept < SEARCH_SITES ? kept++ : SEARCH_SITES;
		if (at == SEARCH_SITES && value <= values[SEARCH_SITES - 1])
			continue;
		if (at == SEARCH_SITES)
			at = SEARCH_SITES - 1;
		while (at > 0 && values[at - 1] < value) {
			values[at] = values[at - 1];
			taken[at] = taken[at - 1];
			at--;
		}
		values[at] = value;
		taken[at] = i;
	}
	for (int i = 0; i < kept; i++)
		add_candidate(search, &moves[taken[i]]);
}

/* What the playout's end is worth to the seat: 1 won, 0 lost, else by the margin. */
static double playout_value(const struct game *game, int me)
{
	if (game->phase == GAME_PHASE_FINISHED)
		return game->winner == me ? 1.0 : 0.0;
	int mine = game_total_points(game, me), best = 0;
	for (int s = 0; s < game->options.seats; s++)
		if (s != me && game_total_points(game, s) > best)
			best = game_total_points(game, s);
	double value = 0.5 + 0.07 * (mine - best);
	return value < 0.02 ? 0.02 : value > 0.98 ? 0.98 : value;
}

/* The next move of a playout: arena_choose() with every seat the medium policy, except
 * that a seat with one move only (a roll without a knight to play, most often) makes it
 * without building a view and an evaluation first: the policy could choose nothing else.
 * A roll's dice are the caller's (turn_dice()). */
static int playout_choose(struct search *search, const struct game *game, struct rng *chooser, int *seat,
			  struct command *command)
{
	int trade;
	int mover = arena_mover(game, &trade);
	if (mover < 0)
		return 0;
	int count = legal_moves(game, mover, search->scratch, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	*seat = mover;
	if (count == 1 && (!search->scratch[0].is_template || search->scratch[0].type == COMMAND_ROLL)) {
		*command = search->scratch[0];
		command->is_template = 0;
		return 1;
	}
	struct game_view view;
	view_game(game, mover, &view);
	return bot_choose(&view, search->scratch, count, chooser, command);
}

/* The dice of turn `turn` in the playouts of one sample. */
static void turn_dice(uint64_t seed, int turn, uint8_t dice[2])
{
	struct rng rng;
	rng_init(&rng, seed, UINT64_C(0xd1ce000000) + (uint64_t)turn);
	dice[0] = (uint8_t)rng_die(&rng);
	dice[1] = (uint8_t)rng_die(&rng);
}

/* One playout of candidate `move` from the sampled *start, dice and draws from `seed`. */
static double playout(struct search *search, const struct game *start, uint64_t seed, uint64_t stream,
		      const struct command *move)
{
	struct game game;
	memcpy(&game, start, sizeof game);
	/* The dice of turn t are the same for every candidate on this sample: manual dice
	 * drawn from (seed, t), not the engine's draw keyed by the state's version, which
	 * differs as soon as two candidates take different numbers of actions. */
	game.options.dice = GAME_DICE_MANUAL;
	if (rules_decide_seeded_in_place(&game, seed, search->me, move, &search->events) != ERROR_OK)
		return -1.0; /* a candidate the sample refuses (cannot happen: own facts are exact) */
	int last_turn = start->turn_number + PLAYOUT_TURNS;
	struct rng chooser;
	rng_init(&chooser, seed, stream);
	for (int actions = 0;
	     actions < PLAYOUT_ACTIONS && game.phase != GAME_PHASE_FINISHED && game.turn_number <= last_turn;
	     actions++) {
		int seat;
		struct command command;
		if (!playout_choose(search, &game, &chooser, &seat, &command))
			break;
		if (command.type == COMMAND_ROLL)
			turn_dice(seed, game.turn_number, command.dice);
		if (rules_decide_seeded_in_place(&game, seed, seat, &command, &search->events) != ERROR_OK)
			break;
		search->actions++;
	}
	return playout_value(&game, search->me);
}

int bot_choose_hard(const struct game_view *view, const struct bot_public *facts, const struct command *moves,
		    int count, int playouts, struct rng *rng, struct command *out)
{
	if (count <= 0)
		return 0;
	struct command medium;
	bot_choose(view, moves, count, rng, &medium);
	*out = medium;
	if (!view->has_you || !(view->phase == GAME_PHASE_SETUP_SETTLEMENT ||
				(view->phase == GAME_PHASE_MAIN && view->turn_seat == view->you.seat)))
		return 1;
	if (is_trade_move(medium.type))
		return 1;
	struct search search; /* ~250 KB of stack: the move lists */
	search.view = view;
	search.facts = facts;
	search.me = view->you.seat;
	search.candidate_count = 0;
	add_candidate(&search, &medium);
	if (view->phase == GAME_PHASE_SETUP_SETTLEMENT)
		site_candidates(&search, moves, count);
	else
		main_candidates(&search, moves, count, rng);
	if (search.candidate_count < 2)
		return 1;
	if (playouts <= 0)
		playouts = BOT_PLAYOUTS_DEFAULT;
	long budget = (long)playouts * SEARCH_ACTIONS_PER_PLAYOUT;
	search.actions = 0;
	/* Paired with the medium choice (candidate 0) on each sample: the samples, the sum and
	 * the sum of squares of each candidate's difference from it. */
	int samples[SEARCH_CANDIDATES] = {0};
	double gain[SEARCH_CANDIDATES] = {0}, square[SEARCH_CANDIDATES] = {0};
	int alive[SEARCH_CANDIDATES];
	int alive_count = search.candidate_count - 1;
	for (int c = 0; c < search.candidate_count; c++)
		alive[c] = 1;
	for (int i = 0; alive_count > 0 && i < SEARCH_SAMPLES_MAX && (i == 0 || search.actions < budget); i++) {
		struct game start;
		struct rng sampler;
		rng_init(&sampler, rng_next(rng), 0);
		bot_sample_state(view, facts, &sampler, &start);
		uint64_t seed = rng_next(rng);
		double base = playout(&search, &start, seed, (uint64_t)i + 1, &search.candidates[0]);
		for (int c = 1; c < search.candidate_count; c++) {
			if (!alive[c])
				continue;
			double difference =
				playout(&search, &start, seed, (uint64_t)i + 1, &search.candidates[c]) - base;
			samples[c]++;
			gain[c] += difference;
			square[c] += difference * difference;
			/* Racing: a candidate whose gain is clearly below the margin cannot pass the
			 * gate below; its playouts go to the others. */
			int n = samples[c];
			if (n >= SEARCH_RACE_MIN) {
				double mean = gain[c] / n, variance = square[c] / n - mean * mean;
				double error_squared = (variance > 0 ? variance : 0) / (n - 1);
				double short_of = SEARCH_MARGIN - mean;
				if (short_of > 0 &&
				    short_of * short_of > SEARCH_RACE_SIGMAS * SEARCH_RACE_SIGMAS * error_squared) {
					alive[c] = 0;
					alive_count--;
				}
			}
		}
	}
	/* Leave the medium choice only for a candidate clearly better: its mean gain above
	 * SEARCH_MARGIN and SEARCH_SIGMAS standard errors. */
	int best = 0;
	double best_gain = 0;
	for (int c = 1; c < search.candidate_count; c++) {
		int n = samples[c];
		if (n == 0)
			continue;
		double mean = gain[c] / n;
		double variance = square[c] / n - mean * mean;
		/* mean > SIGMAS standard errors, squared (mean > 0): no libm in the engine. */
		double error_squared = n > 1 ? (variance > 0 ? variance : 0) / (n - 1) : 1.0;
		if (mean > SEARCH_MARGIN && mean * mean > SEARCH_SIGMAS * SEARCH_SIGMAS * error_squared &&
		    mean > best_gain) {
			best = c;
			best_gain = mean;
		}
	}
	*out = search.candidates[best];
	return 1;
}
