/*
 * bot.c - a heuristic Catan player that decides from a seat's view and legal moves: the
 * policy. What places, hands and trades are worth comes from bot_eval.h.
 *
 * Information. bot_choose() reads a struct game_view (public facts plus the seat's own
 * hand and development cards) and the seat's legal-move list, nothing else: every choice
 * is one of the listed moves, with templates filled from the seat's own hand.
 *
 * Decisions by phase:
 *   setup      the settlement on the best site (pips 2/12 = 1 ... 6/8 = 5, weighted by
 *              resource, plus resources the seat lacks and harbors matching its
 *              production); the road toward the best open sites.
 *   roll       a knight before rolling when the robber blocks one of the seat's producing
 *              hexes or a knight takes or keeps Largest Army; otherwise roll.
 *   discard    keep the cards of the plan's builds in plan order, drop the rest (largest
 *              pile first).
 *   robber     the hex that hurts the leader (highest public points but the seat itself)
 *              most, never one of the seat's own, robbing the leader when possible.
 *   main       in order: answer counter-offers; confirm an accepted own offer that still
 *              helps; a city; a settlement; a development card worth playing; one
 *              1-for-1 offer when a build lacks one card, of a spare card, to the seats
 *              below 8 public points (so it is an offer the bot confirms with whoever
 *              accepts it, and can pay); a bank trade that completes a build; a
 *              development card with what is left; a road toward a site or for Longest
 *              Road; end the turn.
 *   answers    accept an offer that gives a card the next build needs and takes only cards
 *              the plan does not keep, from a seat below 8 public points; else, when the
 *              offer gives a card the build needs, counter with one spare card for one of
 *              it (an offer the bot itself would accept); else decline. A counter-offer is
 *              the seat's answer (game_offer_answered()): it is not asked again.
 *
 * Termination. On its own turn every move the bot makes either spends cards (builds,
 * purchases, bank trades at 2:1 or worse), uses the once-per-turn development card,
 * consumes an offer (confirm, decline), opens an offer while it has none open, or ends the
 * turn. It offers only when one card completes a build, so a completed offer makes that
 * build affordable and the build (which comes first) follows; bank trades are made only
 * when the spare cards can complete the build. So a turn always ends, whether or not anyone
 * answers its offers.
 *
 * Its own offers are never withdrawn: one it no longer wants is ignored and dies with the
 * turn. The view does not show offers that were completed, so "one offer per turn" is
 * kept as "one open offer at a time". How long the bot's turn waits for people to answer
 * its offer is the server's concern (autoplay_offer_awaits(), game/play.c): the bot only
 * ever sees the position, answered or not.
 */
#include "bot.h"

#include <string.h>

#include "board.h"
#include "bot_eval.h"
#include "game.h"

struct bot {
	struct bot_eval eval;
	const struct command *moves;
	int count;
	struct rng *rng;
	/* A template the policy filled itself while choosing (an offer with its partners, a
	 * counter-offer): moves[planned_index] is played as `planned`. -1 when none. */
	int planned_index;
	struct command planned;
};

static int edge_other_node(int edge, int node)
{
	return board_edge_nodes[edge][0] == node ? board_edge_nodes[edge][1] : board_edge_nodes[edge][0];
}

/* A running arg-max over moves with uniform tie breaks from the rng. */
struct pick {
	int index;
	int score;
	uint32_t ties;
};

static void pick_init(struct pick *pick)
{
	pick->index = -1;
	pick->score = 0;
	pick->ties = 0;
}

static void pick_offer(struct pick *pick, struct rng *rng, int index, int score)
{
	if (pick->index < 0 || score > pick->score) {
		pick->index = index;
		pick->score = score;
		pick->ties = 1;
	} else if (score == pick->score && rng_below(rng, ++pick->ties) == 0) {
		pick->index = index;
	}
}

static int find_move(const struct bot *b, int type)
{
	for (int i = 0; i < b->count; i++)
		if (b->moves[i].type == type)
			return i;
	return -1;
}

/* Play the offer template moves[index] as give for want, to the seats of `to`, answering
 * offer `trade` (0: a new offer); returns index. */
static int plan_offer(struct bot *b, int index, const uint8_t give[RESOURCE_COUNT], const uint8_t want[RESOURCE_COUNT],
		      uint8_t to, int trade)
{
	b->planned = b->moves[index];
	b->planned.is_template = 0;
	memcpy(b->planned.give, give, RESOURCE_COUNT);
	memcpy(b->planned.want, want, RESOURCE_COUNT);
	b->planned.to = to;
	b->planned.trade = (uint16_t)trade;
	b->planned_index = index;
	return index;
}

/* ---- templates ---- */

/* The 1-for-1 offer that completes the target build: one spare card for its one missing
 * card. 0 when the target lacks more than one card or nothing is spare. */
static int targeted_offer(struct bot *b, uint8_t give[RESOURCE_COUNT], uint8_t want[RESOURCE_COUNT])
{
	uint8_t need[RESOURCE_COUNT], keep[RESOURCE_COUNT];
	if (bot_eval_trade_target(&b->eval, need, keep) < 0 || resource_total(need) != 1)
		return 0;
	const uint8_t *hand = b->eval.hand;
	int spare = -1;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (hand[r] > keep[r] && (spare < 0 || hand[r] - keep[r] > hand[spare] - keep[spare]))
			spare = r;
	if (spare < 0)
		return 0;
	memset(give, 0, RESOURCE_COUNT);
	memcpy(want, need, RESOURCE_COUNT);
	give[spare] = 1;
	return 1;
}

static void fill_offer(struct bot *b, struct command *out)
{
	memset(out->give, 0, RESOURCE_COUNT);
	memset(out->want, 0, RESOURCE_COUNT);
	out->to = 0;
	if (targeted_offer(b, out->give, out->want))
		return;
	/* Not chosen by the policy (offer_move() plans its offers): only a template picked as
	 * the last resort gets here. */
	/* Asked for an offer with nothing to aim for: the most plentiful card for the scarcest. */
	int most = 0, least = -1;
	for (int r = 1; r < RESOURCE_COUNT; r++)
		if (b->eval.hand[r] > b->eval.hand[most])
			most = r;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (r != most && (least < 0 || b->eval.hand[r] < b->eval.hand[least]))
			least = r;
	out->give[most] = 1;
	out->want[least] = 1;
}

/* Drop `owed` cards, keeping the cards of the plan's builds in plan order. */
static void fill_discard(struct bot *b, int owed, struct command *out)
{
	bot_eval_plan(&b->eval);
	uint8_t left[RESOURCE_COUNT];
	uint8_t kept[BOT_BUILD_COUNT][RESOURCE_COUNT];
	memcpy(left, b->eval.hand, RESOURCE_COUNT);
	memset(kept, 0, sizeof kept);
	for (int i = 0; i < b->eval.plan_count; i++) {
		const uint8_t *cost = bot_build_cost[b->eval.plan[i]];
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			int use = cost[r] < left[r] ? cost[r] : left[r];
			kept[i][r] = (uint8_t)use;
			left[r] = (uint8_t)(left[r] - use);
		}
	}
	memset(out->resources, 0, RESOURCE_COUNT);
	/* Free cards first (largest pile first), then the last build's cards, and so on. */
	for (int level = b->eval.plan_count; level >= 0 && owed > 0; level--) {
		uint8_t *pile = level == b->eval.plan_count ? left : kept[level];
		while (owed > 0 && resource_total(pile) > 0) {
			int r = 0;
			for (int k = 1; k < RESOURCE_COUNT; k++)
				if (pile[k] > pile[r] ||
				    (pile[k] == pile[r] && b->eval.production[k] > b->eval.production[r]))
					r = k;
			pile[r]--;
			out->resources[r]++;
			owed--;
		}
	}
}

static void fill_template(struct bot *b, struct command *out)
{
	switch (out->type) {
	case COMMAND_DISCARD:
		fill_discard(b, out->count, out);
		break;
	case COMMAND_OFFER_TRADE:
		fill_offer(b, out);
		break;
	case COMMAND_ROLL:
		out->dice[0] = (uint8_t)rng_die(b->rng);
		out->dice[1] = (uint8_t)rng_die(b->rng);
		break;
	default:
		break;
	}
	out->is_template = 0;
}

/* ---- the robber ---- */

static int best_robber_move(struct bot *b, int type)
{
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++)
		if (b->moves[i].type == type)
			pick_offer(&pick, b->rng, i, bot_eval_robber(&b->eval, b->moves[i].hex, b->moves[i].victim));
	return pick.index;
}

static int robber_blocks_me(const struct bot *b)
{
	int hex = b->eval.view->robber;
	return hex >= 0 && hex < BOARD_HEXES && b->eval.view->board.number[hex] &&
	       (b->eval.mine & board_hex_node_mask[hex]);
}

static int knight_wins_army(const struct bot *b)
{
	const struct game_view *view = b->eval.view;
	int mine = b->eval.self->knights_played;
	int other = 0;
	for (int s = 0; s < view->options.seats; s++)
		if (s != b->eval.me && view->players[s].knights_played > other)
			other = view->players[s].knights_played;
	if (view->largest_army == b->eval.me)
		return other >= mine;
	return mine + 1 >= 3 && mine + 1 > other;
}

/* A knight worth playing now, or -1. In the main phase it is also worth playing when it
 * moves the robber somewhere clearly worse for the opponents than where it stands. */
static int knight_move(struct bot *b, int main_phase)
{
	int best = best_robber_move(b, COMMAND_PLAY_KNIGHT);
	if (best < 0)
		return -1;
	if (robber_blocks_me(b) || knight_wins_army(b))
		return best;
	if (main_phase && b->eval.view->robber >= 0 && b->eval.view->robber < BOARD_HEXES) {
		int here = bot_eval_robber(&b->eval, b->eval.view->robber, -1);
		const struct command *move = &b->moves[best];
		if (bot_eval_robber(&b->eval, move->hex, -1) >= here + 200)
			return best;
	}
	return -1;
}

/* ---- development cards ---- */

static int year_of_plenty_move(struct bot *b)
{
	if (find_move(b, COMMAND_PLAY_YEAR_OF_PLENTY) < 0)
		return -1;
	bot_eval_plan(&b->eval);
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_PLAY_YEAR_OF_PLENTY || resource_total(move->resources) == 0)
			continue;
		uint8_t after[RESOURCE_COUNT];
		for (int r = 0; r < RESOURCE_COUNT; r++)
			after[r] = (uint8_t)(b->eval.hand[r] + move->resources[r]);
		int score = 0;
		for (int k = 0; k < b->eval.plan_count; k++) {
			const uint8_t *cost = bot_build_cost[b->eval.plan[k]];
			if (!resource_covers(b->eval.hand, cost) && resource_covers(after, cost)) {
				score = 10 - b->eval.plan[k];
				break;
			}
		}
		if (score > 0)
			pick_offer(&pick, b->rng, i, score);
	}
	return pick.index;
}

/* Monopoly on the resource opponents probably hold most: each opponent's cards split by
 * its production, the target build's missing resources counted double. */
static int monopoly_move(struct bot *b)
{
	const struct game_view *view = b->eval.view;
	if (find_move(b, COMMAND_PLAY_MONOPOLY) < 0)
		return -1;
	int produce[GAME_MAX_SEATS][RESOURCE_COUNT];
	memset(produce, 0, sizeof produce);
	for (int node = 0; node < BOARD_NODES; node++) {
		int owner = view->node_owner[node] - 1;
		if (owner < 0 || owner == b->eval.me)
			continue;
		int multiplier = view->node_building[node] == BUILDING_CITY ? 2 : 1;
		for (int k = 0; k < 3; k++) {
			int hex = board_node_hexes[node][k];
			if (hex >= 0 && view->board.terrain[hex] < TERRAIN_DESERT)
				produce[owner][view->board.terrain[hex]] +=
					multiplier * bot_eval_pips(view->board.number[hex]);
		}
	}
	int expected[RESOURCE_COUNT] = {0}; /* tenths of a card */
	for (int s = 0; s < view->options.seats; s++) {
		int total = 0;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			total += produce[s][r];
		if (s == b->eval.me || total == 0)
			continue;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			expected[r] += 10 * view->players[s].resource_count * produce[s][r] / total;
	}
	uint8_t need[RESOURCE_COUNT], keep[RESOURCE_COUNT];
	bot_eval_trade_target(&b->eval, need, keep);
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_PLAY_MONOPOLY)
			continue;
		int score = expected[move->resource] * (need[move->resource] ? 2 : 1);
		if (score >= 30)
			pick_offer(&pick, b->rng, i, score);
	}
	return pick.index;
}

static int road_building_move(struct bot *b)
{
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_PLAY_ROAD_BUILDING || move->edge_count == 0)
			continue;
		int first = move->edges[0];
		int score = bot_eval_road(&b->eval, first, b->eval.anchors);
		if (move->edge_count == 2)
			score += bot_eval_road(&b->eval, move->edges[1], b->eval.anchors | board_edge_node_mask[first]);
		if (score > 0)
			pick_offer(&pick, b->rng, i, score);
	}
	return pick.index;
}

static int development_play(struct bot *b)
{
	int move = knight_move(b, 1);
	if (move < 0)
		move = year_of_plenty_move(b);
	if (move < 0)
		move = road_building_move(b);
	if (move < 0)
		move = monopoly_move(b);
	return move;
}

/* ---- the main phase ---- */

static const struct game_offer *find_offer(const struct game_view *view, int id)
{
	for (int i = 0; i < view->offer_count && i < GAME_MAX_OFFERS; i++)
		if (view->offers[i].id == id && id != 0)
			return &view->offers[i];
	return NULL;
}

static int best_node_move(struct bot *b, int type)
{
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != type)
			continue;
		int value = type == COMMAND_BUILD_CITY ? bot_eval_city(&b->eval, move->node)
						       : bot_eval_site(&b->eval, move->node);
		pick_offer(&pick, b->rng, i, value);
	}
	return pick.index;
}

/* Counter-offers to the active seat: confirm one that helps, decline the others. */
static int answer_counter_offers(struct bot *b)
{
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		const struct game_offer *offer = find_offer(b->eval.view, move->trade);
		if (move->type != COMMAND_CONFIRM_TRADE || !offer || offer->from == b->eval.me)
			continue;
		if (bot_eval_trade_helps(&b->eval, offer->give, offer->want, offer->from))
			pick_offer(&pick, b->rng, i, -b->eval.view->players[offer->from].victory_points);
	}
	if (pick.index >= 0)
		return pick.index;
	return find_move(b, COMMAND_DECLINE_TRADE);
}

/* The seat's own offer, accepted by someone, still helping: confirm with the acceptor
 * with fewest public points. */
static int confirm_own_offer(struct bot *b)
{
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		const struct game_offer *offer = find_offer(b->eval.view, move->trade);
		if (move->type != COMMAND_CONFIRM_TRADE || !offer || offer->from != b->eval.me || move->with < 0)
			continue;
		if (bot_eval_trade_helps(&b->eval, offer->want, offer->give, move->with))
			pick_offer(&pick, b->rng, i, -b->eval.view->players[move->with].victory_points);
	}
	return pick.index;
}

static int has_open_offer(const struct bot *b)
{
	for (int i = 0; i < b->eval.view->offer_count && i < GAME_MAX_OFFERS; i++)
		if (b->eval.view->offers[i].from == b->eval.me)
			return 1;
	return 0;
}

/* The seats the bot's offers go to: those it would complete a trade with (not close to
 * winning), so that every acceptance it gets is one it confirms. */
static uint8_t offer_partners(const struct bot *b)
{
	uint8_t to = 0;
	for (int s = 0; s < b->eval.view->options.seats; s++)
		if (bot_eval_trade_partner(&b->eval, s))
			to |= (uint8_t)(1u << s);
	return to;
}

static int offer_move(struct bot *b)
{
	int template_index = find_move(b, COMMAND_OFFER_TRADE);
	uint8_t give[RESOURCE_COUNT], want[RESOURCE_COUNT];
	uint8_t to = offer_partners(b);
	if (template_index < 0 || has_open_offer(b) || !to || !targeted_offer(b, give, want))
		return -1;
	return plan_offer(b, template_index, give, want, to, 0);
}

/* A bank trade toward the first plan build that the spare cards can complete. */
static int maritime_move(struct bot *b)
{
	bot_eval_plan(&b->eval);
	for (int i = 0; i < b->eval.plan_count; i++) {
		int build = b->eval.plan[i];
		const uint8_t *cost = bot_build_cost[build];
		if (resource_covers(b->eval.hand, cost))
			continue;
		int missing = bot_eval_cards_missing(b->eval.hand, cost);
		int trades = 0;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			if (b->eval.hand[r] > cost[r])
				trades += (b->eval.hand[r] - cost[r]) / b->eval.rate[r];
		if (trades < missing)
			continue;
		struct pick pick;
		pick_init(&pick);
		for (int m = 0; m < b->count; m++) {
			const struct command *move = &b->moves[m];
			if (move->type != COMMAND_MARITIME_TRADE)
				continue;
			int give = -1, want = -1;
			for (int r = 0; r < RESOURCE_COUNT; r++) {
				if (move->give[r])
					give = r;
				if (move->want[r])
					want = r;
			}
			if (give < 0 || want < 0 || cost[want] <= b->eval.hand[want] ||
			    b->eval.hand[give] - move->give[give] < cost[give])
				continue;
			pick_offer(&pick, b->rng, m, b->eval.hand[give] - cost[give] - move->give[give]);
		}
		if (pick.index >= 0)
			return pick.index;
	}
	return -1;
}

/* Buy with what the city and settlement left: those come first, and in bot-against-bot
 * games buying at once beat saving the cards for a build two cards away (54% of wins). */
static int buy_move(struct bot *b)
{
	return find_move(b, COMMAND_BUY_DEVELOPMENT_CARD);
}

static int road_move(struct bot *b)
{
	if (find_move(b, COMMAND_BUILD_ROAD) < 0)
		return -1;
	/* Keep a reachable settlement's brick and lumber unless both can be paid. */
	if (bot_eval_site_reachable(&b->eval) && !bot_eval_longest_road_interest(&b->eval)) {
		uint8_t both[RESOURCE_COUNT];
		for (int r = 0; r < RESOURCE_COUNT; r++)
			both[r] = (uint8_t)(game_cost_settlement[r] + game_cost_road[r]);
		if (!resource_covers(b->eval.hand, both))
			return -1;
	}
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_BUILD_ROAD)
			continue;
		int value = bot_eval_road(&b->eval, move->edge, b->eval.anchors);
		if (value > 0)
			pick_offer(&pick, b->rng, i, value);
	}
	return pick.index;
}

static int choose_main(struct bot *b)
{
	int move = answer_counter_offers(b);
	if (move < 0)
		move = confirm_own_offer(b);
	if (move < 0)
		move = best_node_move(b, COMMAND_BUILD_CITY);
	if (move < 0)
		move = best_node_move(b, COMMAND_BUILD_SETTLEMENT);
	if (move < 0)
		move = development_play(b);
	if (move < 0)
		move = offer_move(b);
	if (move < 0)
		move = maritime_move(b);
	if (move < 0)
		move = buy_move(b);
	if (move < 0)
		move = road_move(b);
	if (move < 0)
		move = find_move(b, COMMAND_END_TURN);
	return move;
}

/* ---- answering offers ---- */

int bot_unanswered_offer(const struct game_view *view)
{
	if (!view->has_you || view->phase != GAME_PHASE_MAIN)
		return 0;
	int me = view->you.seat;
	for (int i = 0; i < view->offer_count && i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &view->offers[i];
		if (offer->id != 0 && offer->from != me && (offer->to >> me & 1u) &&
		    !game_offer_answered(view->offers, view->offer_count, offer, me))
			return offer->id;
	}
	return 0;
}

static int find_answer(const struct bot *b, int type, int id)
{
	for (int i = 0; i < b->count; i++)
		if (b->moves[i].type == type && b->moves[i].trade == id)
			return i;
	return -1;
}

/* A counter-offer to `offer` (made to the seat by the active player) that the seat would
 * accept itself: one spare card (one the offerer asked for when there is one) for one card
 * its target build lacks that the offer gives, so the offerer holds it; to the offerer
 * alone. -1 when there is none (the offer gives nothing the seat needs). */
static int counter_move(struct bot *b, const struct game_offer *offer)
{
	int template_index = find_move(b, COMMAND_OFFER_TRADE);
	uint8_t need[RESOURCE_COUNT], keep[RESOURCE_COUNT];
	if (template_index < 0 || bot_eval_trade_target(&b->eval, need, keep) < 0)
		return -1;
	const uint8_t *hand = b->eval.hand;
	int want = -1, give = -1;
	for (int r = 0; r < RESOURCE_COUNT && want < 0; r++)
		if (need[r] && offer->give[r])
			want = r;
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		if (r == want || hand[r] <= keep[r])
			continue;
		if (give < 0 || (offer->want[r] && !offer->want[give]) ||
		    (!offer->want[r] == !offer->want[give] && hand[r] - keep[r] > hand[give] - keep[give]))
			give = r;
	}
	if (want < 0 || give < 0)
		return -1;
	uint8_t get[RESOURCE_COUNT] = {0}, pay[RESOURCE_COUNT] = {0};
	get[want] = 1;
	pay[give] = 1;
	if (!bot_eval_trade_helps(&b->eval, get, pay, offer->from))
		return -1;
	return plan_offer(b, template_index, pay, get, (uint8_t)(1u << offer->from), offer->id);
}

static int choose_answer(struct bot *b)
{
	int id = bot_unanswered_offer(b->eval.view);
	const struct game_offer *offer = find_offer(b->eval.view, id);
	if (offer) {
		int accept = find_answer(b, COMMAND_ACCEPT_TRADE, id);
		if (accept >= 0 && bot_eval_trade_helps(&b->eval, offer->give, offer->want, offer->from))
			return accept;
		int counter = counter_move(b, offer);
		if (counter >= 0)
			return counter;
		int decline = find_answer(b, COMMAND_DECLINE_TRADE, id);
		if (decline >= 0)
			return decline;
	}
	/* Asked with nothing to answer (the caller should not): decline the first offer still
	 * open to the seat, else the fallback move. */
	return find_move(b, COMMAND_DECLINE_TRADE);
}

/* ---- setup ---- */

static int setup_road_move(struct bot *b)
{
	struct bot_eval *eval = &b->eval;
	struct pick pick;
	pick_init(&pick);
	int from = b->eval.view->setup_node;
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_BUILD_ROAD)
			continue;
		int far = from >= 0 ? edge_other_node(move->edge, from) : board_edge_nodes[move->edge][1];
		int value = bot_eval_potential(eval, far);
		/* The best site one more path away, so the road points at it. */
		for (int k = 0; k < 3; k++) {
			int edge = board_node_edges[far][k];
			int owner = edge >= 0 ? eval->view->edge_owner[edge] : -1;
			if (edge != move->edge && (owner == 0 || owner == eval->me + 1)) {
				int beyond = bot_eval_potential(eval, edge_other_node(edge, far));
				if (beyond > value)
					value = beyond;
			}
		}
		pick_offer(&pick, b->rng, i, value);
	}
	return pick.index;
}

static int choose_before_roll(struct bot *b)
{
	int knight = knight_move(b, 0);
	return knight >= 0 ? knight : find_move(b, COMMAND_ROLL);
}

/* The first move that needs no choice, or the first move. */
static int fallback_move(const struct bot *b)
{
	int move = find_move(b, COMMAND_END_TURN);
	for (int i = 0; i < b->count && move < 0; i++)
		if (!b->moves[i].is_template)
			move = i;
	return move >= 0 ? move : 0;
}

int bot_choose(const struct game_view *view, const struct command *moves, int count, struct rng *rng,
	       struct command *out)
{
	if (count <= 0)
		return 0;
	struct bot b;
	bot_eval_init(&b.eval, view);
	b.moves = moves;
	b.count = count;
	b.rng = rng;
	b.planned_index = -1;
	int move = -1;
	switch (view->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		move = best_node_move(&b, COMMAND_BUILD_SETTLEMENT);
		break;
	case GAME_PHASE_SETUP_ROAD:
		move = setup_road_move(&b);
		break;
	case GAME_PHASE_ROLL:
		move = choose_before_roll(&b);
		break;
	case GAME_PHASE_DISCARD:
		move = find_move(&b, COMMAND_DISCARD);
		break;
	case GAME_PHASE_MOVE_ROBBER:
		move = best_robber_move(&b, COMMAND_MOVE_ROBBER);
		break;
	case GAME_PHASE_MAIN:
		move = view->has_you && view->you.seat == view->turn_seat ? choose_main(&b) : choose_answer(&b);
		break;
	default:
		break;
	}
	if (move < 0)
		move = fallback_move(&b);
	if (move == b.planned_index) {
		*out = b.planned;
		return 1;
	}
	*out = moves[move];
	if (out->is_template)
		fill_template(&b, out);
	return 1;
}
