/*
 * bot_eval.c - the bot's evaluation of a seat's view (see bot_eval.h).
 *
 * Values are integers in tenths of a weighted pip: a site touching a 6 (5 pips) of ore is
 * worth 5 * 12 = 60 before the bonuses. The weights (resource_weight, build_preference)
 * were chosen by playing bot against bot: each is the variant that won clearly more than
 * half of several thousand 4-seat games against the one before.
 *
 * Potential. Each open site is worth its settlement value (0 when the seat has no
 * settlement piece left); a node's potential is the best site value reachable from it over
 * empty or own paths, halved per path, through nodes no opponent holds, up to 4 paths away.
 * A road is useful when its new end has more potential than the node it grows from.
 *
 * Longest Road. A road at node n lengthens the route when the longest route of the seat's
 * roads starting at n, plus one, beats its current length (a lower bound of the new length,
 * exact when the road extends an end). Routes stop at opponents' buildings, as in the rules.
 *
 * The plan. Builds the seat can use now are ordered by cards missing plus a preference (a
 * city first, a settlement or a development card next, a road last). Trades and discards
 * serve the plan from its first build on: cards kept for a build are never traded away.
 */
#include "bot_eval.h"

#include <string.h>

#include "game.h"

#define ALL_NODES ((UINT64_C(1) << BOARD_NODES) - 1)
#define NODE_BIT(node) (UINT64_C(1) << (node))

/* A seat at this many public points is too close to winning to trade with. */
#define TRADE_POINTS_LIMIT 8
/* What lengthening the road is worth while Longest Road is within reach (a good site). */
#define LONGEST_ROAD_BONUS 60
/* How far (in paths) a site still draws roads. */
#define POTENTIAL_REACH 4

const uint8_t *const bot_build_cost[BOT_BUILD_COUNT] = {
	game_cost_city,
	game_cost_settlement,
	game_cost_road,
	game_cost_development,
};

/* Tenths of a pip. Ore and grain (cities, development cards) above brick and lumber, wool
 * least: this won 58% of games against weights favouring brick and lumber. */
static const int resource_weight[RESOURCE_COUNT] = {10, 10, 8, 12, 12};

/* Added to a build's missing cards to order the plan. */
static const int build_preference[BOT_BUILD_COUNT] = {0, 1, 2, 1};

static int edge_other_node(int edge, int node)
{
	return board_edge_nodes[edge][0] == node ? board_edge_nodes[edge][1] : board_edge_nodes[edge][0];
}

int bot_eval_pips(int number)
{
	if (number < 2 || number > 12)
		return 0;
	return number < 7 ? number - 1 : 13 - number;
}

static void find_leader(struct bot_eval *eval)
{
	const struct game_view *view = eval->view;
	eval->leader = -1;
	for (int s = 0; s < view->options.seats && s < GAME_MAX_SEATS; s++) {
		if (s == eval->me)
			continue;
		if (eval->leader < 0) {
			eval->leader = s;
			continue;
		}
		const struct view_player *p = &view->players[s], *l = &view->players[eval->leader];
		if (p->victory_points != l->victory_points ? p->victory_points > l->victory_points
		    : p->development_card_count != l->development_card_count
			    ? p->development_card_count > l->development_card_count
			    : p->resource_count > l->resource_count)
			eval->leader = s;
	}
}

static void find_rates(struct bot_eval *eval)
{
	for (int r = 0; r < RESOURCE_COUNT; r++)
		eval->rate[r] = 4;
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		uint64_t nodes = NODE_BIT(board_harbor_nodes[slot][0]) | NODE_BIT(board_harbor_nodes[slot][1]);
		eval->harbor_nodes |= nodes;
		if (!(eval->mine & nodes))
			continue;
		int kind = eval->view->board.harbor[slot];
		if (kind == HARBOR_GENERIC) {
			for (int r = 0; r < RESOURCE_COUNT; r++)
				if (eval->rate[r] > 3)
					eval->rate[r] = 3;
		} else if (kind < RESOURCE_COUNT) {
			eval->rate[kind] = 2;
		}
	}
}

/* Bit i set when bytes[i] == value, for i < count (count <= 64). Eight bytes a step: a
 * zero-byte test on bytes ^ value (exact: no borrow crosses bytes), whose eight high bits
 * one multiplication gathers into the top byte. */
static uint64_t bytes_equal_mask(const uint8_t *bytes, int count, uint8_t value)
{
	const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
	uint64_t mask = 0;
	for (int at = 0; at < count; at += 8) {
		uint8_t chunk[8] = {0};
		int take = count - at < 8 ? count - at : 8;
		memcpy(chunk, bytes + at, (size_t)take);
		uint64_t word = 0;
		for (int i = 7; i >= 0; i--) /* byte i in bits 8i..8i+7, whatever the byte order */
			word = word << 8 | chunk[i];
		uint64_t y = word ^ (UINT64_C(0x0101010101010101) * value);
		uint64_t zero = ~(((y & low7) + low7) | y | low7);
		uint64_t bits = ((zero >> 7) * UINT64_C(0x0102040810204080)) >> 56;
		if (take < 8)
			bits &= (UINT64_C(1) << take) - 1;
		mask |= bits << at;
	}
	return mask;
}

void bot_eval_init(struct bot_eval *eval, const struct game_view *view)
{
	/* Not a full memset: potential[] and reach[] are filled when first needed. */
	eval->view = view;
	eval->me = view->has_you ? view->you.seat : 0;
	eval->self = &view->players[eval->me];
	memcpy(eval->hand, view->you.resources, RESOURCE_COUNT);
	eval->occupied = eval->mine = eval->my_settlements = eval->blocked = 0;
	eval->road_nodes = eval->harbor_nodes = 0;
	eval->my_roads.word[0] = eval->my_roads.word[1] = 0;
	memset(eval->production, 0, sizeof eval->production);
	eval->plan_count = -1;
	eval->has_potential = eval->has_reach = 0;
	eval->lr_interest = eval->best_road = -1;

	const struct board_layout *board = &view->board;
	int own = eval->me + 1;
	/* Eight nodes or paths at a time: most are empty, in no predictable pattern. */
	eval->occupied = ~bytes_equal_mask(view->node_owner, BOARD_NODES, 0) & ALL_NODES;
	eval->mine = bytes_equal_mask(view->node_owner, BOARD_NODES, (uint8_t)own);
	eval->blocked = eval->occupied & ~eval->mine;
	for (uint64_t rest = eval->mine; rest; rest &= rest - 1) {
		int node = __builtin_ctzll(rest);
		int multiplier = view->node_building[node] == BUILDING_CITY ? 2 : 1;
		if (multiplier == 1)
			eval->my_settlements |= NODE_BIT(node);
		for (int k = 0; k < 3; k++) {
			int hex = board_node_hexes[node][k];
			if (hex >= 0 && board->terrain[hex] < TERRAIN_DESERT)
				eval->production[board->terrain[hex]] += multiplier * bot_eval_pips(board->number[hex]);
		}
	}
	uint64_t crowded = eval->occupied;
	for (uint64_t rest = eval->occupied; rest; rest &= rest - 1)
		crowded |= board_node_neighbor_mask[__builtin_ctzll(rest)];
	eval->open = ~crowded & ALL_NODES;
	eval->my_roads.word[0] = bytes_equal_mask(view->edge_owner, 64, (uint8_t)own);
	eval->my_roads.word[1] = bytes_equal_mask(view->edge_owner + 64, BOARD_EDGES - 64, (uint8_t)own);
	for (int half = 0; half < 2; half++)
		for (uint64_t roads = eval->my_roads.word[half]; roads; roads &= roads - 1)
			eval->road_nodes |= board_edge_node_mask[64 * half + __builtin_ctzll(roads)];
	eval->anchors = eval->mine | (eval->road_nodes & ~eval->occupied);
	find_rates(eval);
	find_leader(eval);
}

/* ---- places ---- */

int bot_eval_site(const struct bot_eval *eval, int node)
{
	const struct board_layout *board = &eval->view->board;
	int value = 0;
	int node_pips[RESOURCE_COUNT] = {0};
	unsigned fresh = 0;
	for (int k = 0; k < 3; k++) {
		int hex = board_node_hexes[node][k];
		if (hex < 0 || board->terrain[hex] >= TERRAIN_DESERT)
			continue;
		int resource = board->terrain[hex];
		int p = bot_eval_pips(board->number[hex]);
		value += p * resource_weight[resource];
		node_pips[resource] += p;
		if (eval->production[resource] == 0)
			fresh |= 1u << resource;
	}
	value += 15 * __builtin_popcount(fresh);
	if (!(eval->harbor_nodes >> node & 1))
		return value;
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		if (board_harbor_nodes[slot][0] != node && board_harbor_nodes[slot][1] != node)
			continue;
		int kind = board->harbor[slot];
		if (kind == HARBOR_GENERIC)
			value += 8;
		else if (kind < RESOURCE_COUNT)
			value += 4 * (eval->production[kind] + node_pips[kind]);
	}
	return value;
}

int bot_eval_city(const struct bot_eval *eval, int node)
{
	const struct board_layout *board = &eval->view->board;
	int value = 0;
	for (int k = 0; k < 3; k++) {
		int hex = board_node_hexes[node][k];
		if (hex < 0 || hex == eval->view->robber || board->terrain[hex] >= TERRAIN_DESERT)
			continue;
		value += bot_eval_pips(board->number[hex]) * resource_weight[board->terrain[hex]];
	}
	return value;
}

static int passable_edge(const struct bot_eval *eval, int edge)
{
	int owner = eval->view->edge_owner[edge];
	return owner == 0 || owner == eval->me + 1;
}

static void compute_potential(struct bot_eval *eval)
{
	if (eval->has_potential)
		return;
	eval->has_potential = 1;
	memset(eval->potential, 0, sizeof eval->potential);
	if (eval->self->settlements_left == 0)
		return; /* no site is worth anything */
	for (uint64_t sites = eval->open; sites; sites &= sites - 1) {
		int node = __builtin_ctzll(sites);
		eval->potential[node] = bot_eval_site(eval, node);
	}
	/* Paths a road may follow: empty or own, between nodes no opponent holds (a road may
	 * end at an opponent's building, but no site lies beyond it). */
	int8_t paths[BOARD_EDGES][2];
	int path_count = 0;
	for (int e = 0; e < BOARD_EDGES; e++) {
		int a = board_edge_nodes[e][0], c = board_edge_nodes[e][1];
		if (passable_edge(eval, e) && !((eval->blocked >> a | eval->blocked >> c) & 1)) {
			paths[path_count][0] = (int8_t)a;
			paths[path_count][1] = (int8_t)c;
			path_count++;
		}
	}
	for (int round = 0; round < POTENTIAL_REACH; round++) {
		int changed = 0;
		for (int i = 0; i < path_count; i++) {
			int *a = &eval->potential[paths[i][0]], *c = &eval->potential[paths[i][1]];
			if (*c / 2 > *a) {
				*a = *c / 2;
				changed = 1;
			} else if (*a / 2 > *c) {
				*c = *a / 2;
				changed = 1;
			}
		}
		if (!changed)
			break;
	}
}

int bot_eval_potential(struct bot_eval *eval, int node)
{
	compute_potential(eval);
	return eval->potential[node];
}

int bot_eval_site_reachable(const struct bot_eval *eval)
{
	return eval->self->settlements_left > 0 && (eval->open & eval->road_nodes) != 0;
}

/* ---- Longest Road ---- */

static int trail_from(const struct bot_eval *eval, struct board_edge_set *used, int node)
{
	int best = 0;
	for (int k = 0; k < 3; k++) {
		int edge = board_node_edges[node][k];
		if (edge < 0 || !board_edge_set_has(&eval->my_roads, edge) || board_edge_set_has(used, edge))
			continue;
		int next = edge_other_node(edge, node);
		board_edge_set_add(used, edge);
		int length = 1 + (eval->blocked >> next & 1 ? 0 : trail_from(eval, used, next));
		used->word[edge >> 6] &= ~(UINT64_C(1) << (edge & 63));
		if (length > best)
			best = length;
	}
	return best;
}

static void compute_reach(struct bot_eval *eval)
{
	if (eval->has_reach)
		return;
	eval->has_reach = 1;
	for (uint64_t nodes = eval->anchors & eval->road_nodes; nodes; nodes &= nodes - 1) {
		int node = __builtin_ctzll(nodes);
		struct board_edge_set used = {{0, 0}};
		eval->reach[node] = (int8_t)trail_from(eval, &used, node);
	}
}

int bot_eval_longest_road_interest(struct bot_eval *eval)
{
	if (eval->lr_interest >= 0)
		return eval->lr_interest;
	const struct game_view *view = eval->view;
	int mine = eval->self->road_length;
	int other = 0;
	for (int s = 0; s < view->options.seats; s++)
		if (s != eval->me && view->players[s].road_length > other)
			other = view->players[s].road_length;
	int interest;
	if (view->longest_road == eval->me) {
		interest = other >= mine - 1;
	} else {
		int holder = view->longest_road;
		int to_beat = holder >= 0 ? view->players[holder].road_length : other;
		int target = to_beat + 1 > 5 ? to_beat + 1 : 5;
		interest = mine + 2 >= target && eval->self->roads_left >= target - mine;
	}
	eval->lr_interest = interest;
	return interest;
}

/* 1 when a road on `edge`, growing from its end in `anchors`, lengthens the route. */
static int lengthens_route(struct bot_eval *eval, int edge, uint64_t anchors)
{
	compute_reach(eval);
	int a = board_edge_nodes[edge][0], c = board_edge_nodes[edge][1];
	int from = anchors >> a & 1 ? a : c;
	if (!(eval->road_nodes >> from & 1))
		return eval->self->road_length == 0;
	return eval->reach[from] + 1 > eval->self->road_length;
}

int bot_eval_road(struct bot_eval *eval, int edge, uint64_t anchors)
{
	compute_potential(eval);
	int a = board_edge_nodes[edge][0], c = board_edge_nodes[edge][1];
	int near = anchors >> a & 1 ? a : c;
	int far = near == a ? c : a;
	int value = 0;
	if (!(anchors >> far & 1) && eval->potential[far] > eval->potential[near])
		value = eval->potential[far];
	if (bot_eval_longest_road_interest(eval) && lengthens_route(eval, edge, anchors))
		value += LONGEST_ROAD_BONUS;
	return value;
}

/* The best road value over the paths the seat may build on now. */
static int best_road_value(struct bot_eval *eval)
{
	if (eval->best_road >= 0)
		return eval->best_road;
	int best = 0;
	if (eval->self->roads_left > 0) {
		struct board_edge_set edges = {{0, 0}};
		for (uint64_t rest = eval->anchors; rest; rest &= rest - 1) {
			int node = __builtin_ctzll(rest);
			for (int k = 0; k < 3; k++) {
				int edge = board_node_edges[node][k];
				if (edge >= 0 && !eval->view->edge_owner[edge])
					board_edge_set_add(&edges, edge);
			}
		}
		for (int half = 0; half < 2; half++) {
			for (uint64_t bits = edges.word[half]; bits; bits &= bits - 1) {
				int value = bot_eval_road(eval, 64 * half + __builtin_ctzll(bits), eval->anchors);
				if (value > best)
					best = value;
			}
		}
	}
	eval->best_road = best;
	return best;
}

/* ---- the plan ---- */

static int build_usable(struct bot_eval *eval, int build)
{
	switch (build) {
	case BOT_BUILD_CITY:
		return eval->self->cities_left > 0 && eval->my_settlements != 0;
	case BOT_BUILD_SETTLEMENT:
		return bot_eval_site_reachable(eval);
	case BOT_BUILD_ROAD:
		return eval->self->roads_left > 0 &&
		       (!bot_eval_site_reachable(eval) || bot_eval_longest_road_interest(eval)) &&
		       best_road_value(eval) > 0;
	default:
		return eval->view->development_cards_left > 0;
	}
}

int bot_eval_cards_missing(const uint8_t hand[RESOURCE_COUNT], const uint8_t cost[RESOURCE_COUNT])
{
	int missing = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (cost[r] > hand[r])
			missing += cost[r] - hand[r];
	return missing;
}

void bot_eval_plan(struct bot_eval *eval)
{
	if (eval->plan_count >= 0)
		return;
	int keys[BOT_BUILD_COUNT];
	eval->plan_count = 0;
	for (int build = 0; build < BOT_BUILD_COUNT; build++) {
		if (!build_usable(eval, build))
			continue;
		int key = bot_eval_cards_missing(eval->hand, bot_build_cost[build]) + build_preference[build];
		int at = eval->plan_count++;
		while (at > 0 && keys[at - 1] > key) {
			keys[at] = keys[at - 1];
			eval->plan[at] = eval->plan[at - 1];
			at--;
		}
		keys[at] = key;
		eval->plan[at] = build;
	}
}

int bot_eval_trade_target(struct bot_eval *eval, uint8_t need[RESOURCE_COUNT], uint8_t keep[RESOURCE_COUNT])
{
	bot_eval_plan(eval);
	uint8_t left[RESOURCE_COUNT];
	memcpy(left, eval->hand, RESOURCE_COUNT);
	memset(keep, 0, RESOURCE_COUNT);
	memset(need, 0, RESOURCE_COUNT);
	for (int i = 0; i < eval->plan_count; i++) {
		const uint8_t *cost = bot_build_cost[eval->plan[i]];
		int covered = resource_covers(left, cost);
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			int use = cost[r] < left[r] ? cost[r] : left[r];
			keep[r] = (uint8_t)(keep[r] + use);
			left[r] = (uint8_t)(left[r] - use);
			need[r] = (uint8_t)(cost[r] - use);
		}
		if (!covered)
			return eval->plan[i];
	}
	memset(need, 0, RESOURCE_COUNT);
	return -1;
}

int bot_eval_trade_partner(const struct bot_eval *eval, int partner)
{
	return partner >= 0 && partner < eval->view->options.seats && partner != eval->me &&
	       eval->view->players[partner].victory_points < TRADE_POINTS_LIMIT;
}

int bot_eval_trade_helps(struct bot_eval *eval, const uint8_t get[RESOURCE_COUNT], const uint8_t pay[RESOURCE_COUNT],
			 int partner)
{
	if (partner >= 0 && !bot_eval_trade_partner(eval, partner))
		return 0;
	uint8_t need[RESOURCE_COUNT], keep[RESOURCE_COUNT];
	if (bot_eval_trade_target(eval, need, keep) < 0)
		return 0;
	int gain = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		if (pay[r] > eval->hand[r] - keep[r])
			return 0;
		gain += get[r] < need[r] ? get[r] : need[r];
	}
	return gain > 0 && resource_total(pay) <= 2 * gain;
}

/* ---- the robber ---- */

int bot_eval_robber(const struct bot_eval *eval, int hex, int victim)
{
	const struct game_view *view = eval->view;
	int p = bot_eval_pips(view->board.number[hex]);
	int score = 0;
	for (int k = 0; k < 6; k++) {
		int node = board_hex_nodes[hex][k];
		int owner = view->node_owner[node] - 1;
		if (owner < 0)
			continue;
		int multiplier = view->node_building[node] == BUILDING_CITY ? 2 : 1;
		if (owner == eval->me)
			score -= 40 * (p + 1) * multiplier;
		else
			score += p * multiplier * (owner == eval->leader ? 4 : 1) *
				 (1 + view->players[owner].victory_points);
	}
	score *= 10;
	if (victim >= 0)
		score += (victim == eval->leader ? 50 : 0) + 3 * view->players[victim].resource_count;
	return score;
}
