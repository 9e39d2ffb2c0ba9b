/*
 * bot_easy.c - the easy bot: legal, plausible moves without a plan, for people learning
 * the game (bot.h).
 *
 * It decides from the seat's view and legal moves only, like every level:
 *   setup      a random site among the better half of the listed ones (bot_eval_site()),
 *              then a random listed road.
 *   roll       it rolls (no knight before the dice).
 *   discard    the medium bot's discard (keeping a plan is not what makes a bot hard).
 *   robber     a random listed hex without a building of its own, robbing at random.
 *   main       any build or development card it can pay or play, at random, a road only
 *              where it leads somewhere (bot_eval_road() > 0); with eight cards or more a
 *              4:1-or-better bank trade of its largest pile; else it ends the turn. It
 *              makes no domestic offers and declines every offer made to it.
 * Termination as for the medium bot: every move on its turn spends cards (builds, bank
 * trades), uses the once-per-turn card, or ends the turn.
 */
#include "bot.h"

#include "board.h"
#include "bot_eval.h"

/* The listed move of `type` for the medium bot to fill (templates), or -1. */
static int find_type(const struct command *moves, int count, int type)
{
	for (int i = 0; i < count; i++)
		if (moves[i].type == type)
			return i;
	return -1;
}

static int medium_fill(const struct game_view *view, const struct command *move, struct rng *rng, struct command *out)
{
	return bot_choose(view, move, 1, rng, out);
}

static int own_building_on(const struct game_view *view, int hex, int me)
{
	for (int node = 0; node < BOARD_NODES; node++) {
		if (view->node_owner[node] != me + 1)
			continue;
		for (int k = 0; k < 3; k++)
			if (board_node_hexes[node][k] == hex)
				return 1;
	}
	return 0;
}

static int setup_site(struct bot_eval *eval, const struct command *moves, int count, struct rng *rng)
{
	int values[BOARD_NODES];
	int indices[BOARD_NODES];
	int sites = 0;
	for (int i = 0; i < count && sites < BOARD_NODES; i++) {
		if (moves[i].type != COMMAND_BUILD_SETTLEMENT)
			continue;
		values[sites] = bot_eval_site(eval, moves[i].node);
		indices[sites++] = i;
	}
	if (sites == 0)
		return -1;
	/* The better half: a site at least as good as half the others. */
	int eligible[BOARD_NODES];
	int kept = 0;
	for (int i = 0; i < sites; i++) {
		int better = 0;
		for (int j = 0; j < sites; j++)
			better += values[j] > values[i];
		if (2 * better <= sites)
			eligible[kept++] = indices[i];
	}
	return eligible[rng_below(rng, (uint32_t)kept)];
}

/* A uniformly random listed move for which `keep` says yes, or -1. */
static int random_where(const struct command *moves, int count, struct rng *rng,
			int (*keep)(const struct command *, void *), void *context)
{
	int chosen = -1;
	uint32_t seen = 0;
	for (int i = 0; i < count; i++)
		if (keep(&moves[i], context) && rng_below(rng, ++seen) == 0)
			chosen = i;
	return chosen;
}

struct easy_context {
	struct bot_eval *eval;
	int me;
};

static int is_setup_road(const struct command *move, void *context)
{
	(void)context;
	return move->type == COMMAND_BUILD_ROAD;
}

static int is_robber_choice(const struct command *move, void *context)
{
	const struct easy_context *easy = context;
	return (move->type == COMMAND_MOVE_ROBBER) && !own_building_on(easy->eval->view, move->hex, easy->me);
}

static int is_any_robber(const struct command *move, void *context)
{
	(void)context;
	return move->type == COMMAND_MOVE_ROBBER;
}

static int is_build_or_card(const struct command *move, void *context)
{
	struct easy_context *easy = context;
	switch (move->type) {
	case COMMAND_BUILD_CITY:
	case COMMAND_BUILD_SETTLEMENT:
	case COMMAND_BUY_DEVELOPMENT_CARD:
	case COMMAND_PLAY_YEAR_OF_PLENTY:
	case COMMAND_PLAY_MONOPOLY:
		return 1;
	case COMMAND_PLAY_KNIGHT:
		return !own_building_on(easy->eval->view, move->hex, easy->me);
	case COMMAND_BUILD_ROAD:
		return bot_eval_road(easy->eval, move->edge, easy->eval->anchors) > 0;
	case COMMAND_PLAY_ROAD_BUILDING:
		return move->edge_count > 0 && bot_eval_road(easy->eval, move->edges[0], easy->eval->anchors) > 0;
	default:
		return 0;
	}
}

/* A bank trade giving the largest pile (ties: the first) for a random other resource. */
static int bank_trade(struct bot_eval *eval, const struct command *moves, int count, struct rng *rng)
{
	int largest = 0;
	for (int r = 1; r < RESOURCE_COUNT; r++)
		if (eval->hand[r] > eval->hand[largest])
			largest = r;
	int chosen = -1;
	uint32_t seen = 0;
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_MARITIME_TRADE && moves[i].give[largest] && rng_below(rng, ++seen) == 0)
			chosen = i;
	return chosen;
}

static int decline_move(const struct game_view *view, const struct command *moves, int count)
{
	int id = bot_unanswered_offer(view);
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_DECLINE_TRADE && (id == 0 || moves[i].trade == id))
			return i;
	return -1;
}

int bot_choose_easy(const struct game_view *view, const struct command *moves, int count, struct rng *rng,
		    struct command *out)
{
	if (count <= 0)
		return 0;
	if (!view->has_you)
		return bot_choose(view, moves, count, rng, out);
	struct bot_eval eval;
	bot_eval_init(&eval, view);
	struct easy_context easy = {&eval, view->you.seat};
	int move = -1;
	switch (view->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		move = setup_site(&eval, moves, count, rng);
		break;
	case GAME_PHASE_SETUP_ROAD:
		move = random_where(moves, count, rng, is_setup_road, &easy);
		break;
	case GAME_PHASE_ROLL:
		move = find_type(moves, count, COMMAND_ROLL);
		break;
	case GAME_PHASE_DISCARD:
		move = find_type(moves, count, COMMAND_DISCARD);
		break;
	case GAME_PHASE_MOVE_ROBBER:
		move = random_where(moves, count, rng, is_robber_choice, &easy);
		if (move < 0)
			move = random_where(moves, count, rng, is_any_robber, &easy);
		break;
	case GAME_PHASE_MAIN:
		if (view->you.seat != view->turn_seat) {
			move = decline_move(view, moves, count);
			break;
		}
		move = decline_move(view, moves, count); /* counter-offers to it, should any come */
		if (move < 0)
			move = random_where(moves, count, rng, is_build_or_card, &easy);
		if (move < 0 && resource_total(eval.hand) >= 8)
			move = bank_trade(&eval, moves, count, rng);
		if (move < 0)
			move = find_type(moves, count, COMMAND_END_TURN);
		break;
	default:
		break;
	}
	if (move < 0)
		return bot_choose(view, moves, count, rng, out);
	if (moves[move].is_template)
		return medium_fill(view, &moves[move], rng, out);
	*out = moves[move];
	return 1;
}
