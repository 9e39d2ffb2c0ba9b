/*
 * bot.c - a heuristic Catan player that decides from a seat's view and legal moves.
 *
 * Information. bot_choose() reads a struct game_view (public facts plus the seat's own
 * hand and development cards) and the seat's legal-move list, nothing else. Whatever it
 * derives (who owns which node, which sites are open, who leads, what opponents probably
 * hold) comes from those two and the constant tables of board.h.
 *
 * Decisions. Each call first condenses the view into a struct bot (occupancy masks, the
 * seat's production and harbor rates, the leader), then picks by phase:
 *   setup      settlement on the best site (pips 2/12 = 1 ... 6/8 = 5, weighted by
 *              resource, plus resource variety and harbors matching production); the road
 *              toward the best open sites ("potential", below).
 *   roll       a knight before rolling when the robber blocks one of the seat's producing
 *              hexes or a knight takes or keeps Largest Army; otherwise roll.
 *   discard    keep the cards of the builds in plan order, drop the rest.
 *   robber     the hex that hurts the leader (highest public points but the seat itself)
 *              most, never one of the seat's own, robbing the leader when possible.
 *   main       in order: answer counter-offers; confirm an accepted own offer that helps;
 *              city; settlement; a development card worth playing; one 1-for-1 offer
 *              when a build lacks one card; a bank trade that completes a build; a
 *              development card from spare cards; a road toward a site or for Longest
 *              Road; end the turn.
 *   answers    accept an offer that gives a card the next build needs and takes only cards
 *              that build does not need, from a seat below 8 public points; else decline.
 *
 * The plan. The builds the seat can use now (a city on one of its settlements, a
 * settlement on a site its roads touch, a road that leads somewhere, a development card
 * while the deck lasts) ordered by cards missing plus a fixed preference (city, settlement,
 * road, development card). Discards, trades and offers all serve the plan, so the bot
 * never trades away what the build it is saving for needs.
 *
 * Potential. Each open site is worth its settlement value; a node's potential is the best
 * site value reachable from it over empty (or own) paths, halved per path, through nodes no
 * opponent holds. A road is useful when its new end has more potential than the node it
 * grows from, or when it lengthens the seat's route while Longest Road is within reach.
 *
 * Termination. On its own turn every move the bot makes either spends cards (builds,
 * purchases, bank trades at 2:1 or worse), uses a once-per-turn allowance (the development
 * card), consumes an offer (confirm, decline), or ends the turn. The bot proposes at most
 * one open offer at a time, only when one card completes a build; a completed offer makes
 * that build affordable, and builds come first, so offers cannot cycle. Bank trades are
 * made only when the spare cards can complete the build. So a turn always ends.
 */
#include "bot.h"

#include <string.h>

#include "board.h"
#include "game.h"

enum bot_build { BUILD_CITY, BUILD_SETTLEMENT, BUILD_ROAD, BUILD_DEVELOPMENT, BUILD_COUNT };

#define ALL_NODES ((UINT64_C(1) << BOARD_NODES) - 1)
#define NODE_BIT(node) (UINT64_C(1) << (node))

/* A seat at this many public points is too close to winning to trade with. */
#define BOT_TRADE_POINTS_LIMIT 8
/* What lengthening the road is worth while Longest Road is within reach (a good site). */
#define BOT_LONGEST_ROAD_BONUS 60

static const uint8_t *const build_cost[BUILD_COUNT] = {
	game_cost_city, game_cost_settlement, game_cost_road, game_cost_development,
};

/* Tenths of a pip: brick and lumber matter most early, wool least. */
static const int resource_weight[RESOURCE_COUNT] = {11, 11, 8, 10, 10};

struct bot {
	const struct game_view *view;
	const struct command *moves;
	int count;
	struct rng *rng;
	int me;
	const struct view_player *self;
	uint8_t hand[RESOURCE_COUNT];
	uint64_t occupied;       /* nodes holding any building */
	uint64_t mine;           /* the seat's settlements and cities */
	uint64_t my_settlements; /* candidates for a city */
	uint64_t blocked;        /* nodes holding an opponent's building */
	uint64_t open;           /* empty nodes with every neighbour empty */
	uint64_t road_nodes;     /* nodes the seat's roads touch */
	uint64_t anchors;        /* nodes a new road may grow from */
	struct board_edge_set my_roads;
	int production[RESOURCE_COUNT]; /* the seat's pips per resource */
	int rate[RESOURCE_COUNT];       /* the seat's bank rate per resource given */
	int leader;                     /* the opponent with most public points */
	/* Computed on demand. */
	int has_potential;
	int potential[BOARD_NODES];
	int lr_interest; /* -1 unknown, else 0/1 */
	int has_reach;
	int8_t reach[BOARD_NODES]; /* longest route of the seat's roads from a node */
	int best_road;                /* -1 unknown */
	int plan_count;               /* -1 unknown */
	int plan[BUILD_COUNT];
};

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

/* ---- the view condensed ---- */

static int pips(int number)
{
	if (number < 2 || number > 12)
		return 0;
	return number < 7 ? number - 1 : 13 - number;
}

static int edge_other_node(int edge, int node)
{
	return board_edge_nodes[edge][0] == node ? board_edge_nodes[edge][1] : board_edge_nodes[edge][0];
}

static void bot_init(struct bot *b, const struct game_view *view, const struct command *moves, int count,
		     struct rng *rng)
{
	memset(b, 0, sizeof *b);
	b->view = view;
	b->moves = moves;
	b->count = count;
	b->rng = rng;
	b->me = view->has_you ? view->you.seat : 0;
	b->self = &view->players[b->me];
	b->lr_interest = -1;
	b->best_road = -1;
	b->plan_count = -1;
	if (view->has_you)
		memcpy(b->hand, view->you.resources, RESOURCE_COUNT);
	int own = b->me + 1;
	for (int node = 0; node < BOARD_NODES; node++) {
		int owner = view->node_owner[node];
		if (!owner)
			continue;
		b->occupied |= NODE_BIT(node);
		if (owner != own) {
			b->blocked |= NODE_BIT(node);
			continue;
		}
		b->mine |= NODE_BIT(node);
		int multiplier = view->node_building[node] == BUILDING_CITY ? 2 : 1;
		if (multiplier == 1)
			b->my_settlements |= NODE_BIT(node);
		for (int k = 0; k < 3; k++) {
			int hex = board_node_hexes[node][k];
			if (hex >= 0 && view->board.terrain[hex] < TERRAIN_DESERT)
				b->production[view->board.terrain[hex]] += multiplier * pips(view->board.number[hex]);
		}
	}
	uint64_t crowded = b->occupied;
	for (uint64_t rest = b->occupied; rest; rest &= rest - 1)
		crowded |= board_node_neighbor_mask[__builtin_ctzll(rest)];
	b->open = ~crowded & ALL_NODES;
	for (int e = 0; e < BOARD_EDGES; e++) {
		if (view->edge_owner[e] != own)
			continue;
		board_edge_set_add(&b->my_roads, e);
		b->road_nodes |= board_edge_node_mask[e];
	}
	b->anchors = b->mine | (b->road_nodes & ~b->occupied);
	for (int r = 0; r < RESOURCE_COUNT; r++)
		b->rate[r] = 4;
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		if (!(b->mine & (NODE_BIT(board_harbor_nodes[slot][0]) | NODE_BIT(board_harbor_nodes[slot][1]))))
			continue;
		int kind = view->board.harbor[slot];
		if (kind == HARBOR_GENERIC) {
			for (int r = 0; r < RESOURCE_COUNT; r++)
				if (b->rate[r] > 3)
					b->rate[r] = 3;
		} else if (kind < RESOURCE_COUNT) {
			b->rate[kind] = 2;
		}
	}
	b->leader = -1;
	for (int s = 0; s < view->options.seats && s < GAME_MAX_SEATS; s++) {
		if (s == b->me)
			continue;
		const struct view_player *p = &view->players[s];
		if (b->leader < 0) {
			b->leader = s;
			continue;
		}
		const struct view_player *l = &view->players[b->leader];
		if (p->victory_points != l->victory_points ? p->victory_points > l->victory_points
		    : p->development_card_count != l->development_card_count
			    ? p->development_card_count > l->development_card_count
			    : p->resource_count > l->resource_count)
			b->leader = s;
	}
}

static int find_move(const struct bot *b, int type)
{
	for (int i = 0; i < b->count; i++)
		if (b->moves[i].type == type)
			return i;
	return -1;
}

/* ---- values of places ---- */

/* What a settlement on `node` is worth to the seat, in tenths of a weighted pip. */
static int site_value(const struct bot *b, int node)
{
	const struct board_layout *board = &b->view->board;
	int value = 0;
	int node_pips[RESOURCE_COUNT] = {0};
	unsigned fresh = 0;
	for (int k = 0; k < 3; k++) {
		int hex = board_node_hexes[node][k];
		if (hex < 0 || board->terrain[hex] >= TERRAIN_DESERT)
			continue;
		int resource = board->terrain[hex];
		int p = pips(board->number[hex]);
		value += p * resource_weight[resource];
		node_pips[resource] += p;
		if (b->production[resource] == 0)
			fresh |= 1u << resource;
	}
	value += 15 * __builtin_popcount(fresh);
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		if (board_harbor_nodes[slot][0] != node && board_harbor_nodes[slot][1] != node)
			continue;
		int kind = board->harbor[slot];
		if (kind == HARBOR_GENERIC)
			value += 8;
		else if (kind < RESOURCE_COUNT)
			value += 4 * (b->production[kind] + node_pips[kind]);
	}
	return value;
}

/* What a city on `node` adds: its production, the robber's hex aside. */
static int city_value(const struct bot *b, int node)
{
	const struct board_layout *board = &b->view->board;
	int value = 0;
	for (int k = 0; k < 3; k++) {
		int hex = board_node_hexes[node][k];
		if (hex < 0 || hex == b->view->robber || board->terrain[hex] >= TERRAIN_DESERT)
			continue;
		value += pips(board->number[hex]) * resource_weight[board->terrain[hex]];
	}
	return value;
}

static int passable_edge(const struct bot *b, int edge)
{
	int owner = b->view->edge_owner[edge];
	return owner == 0 || owner == b->me + 1;
}

static void compute_potential(struct bot *b)
{
	if (b->has_potential)
		return;
	b->has_potential = 1;
	if (b->self->settlements_left == 0)
		return; /* no site is worth anything: every potential stays 0 */
	for (uint64_t sites = b->open; sites; sites &= sites - 1) {
		int node = __builtin_ctzll(sites);
		b->potential[node] = site_value(b, node);
	}
	/* Paths a road may follow: empty or own, between nodes no opponent holds (a route may
	 * end at an opponent's node, but there is no site beyond it). */
	int8_t paths[BOARD_EDGES][2];
	int path_count = 0;
	for (int e = 0; e < BOARD_EDGES; e++) {
		int a = board_edge_nodes[e][0], c = board_edge_nodes[e][1];
		if (passable_edge(b, e) && !((b->blocked >> a | b->blocked >> c) & 1)) {
			paths[path_count][0] = (int8_t)a;
			paths[path_count][1] = (int8_t)c;
			path_count++;
		}
	}
	for (int round = 0; round < 4; round++) {
		int changed = 0;
		for (int i = 0; i < path_count; i++) {
			int *a = &b->potential[paths[i][0]], *c = &b->potential[paths[i][1]];
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

/* ---- Longest Road ---- */

static int trail_from(const struct bot *b, const struct board_edge_set *roads, struct board_edge_set *used, int node)
{
	int best = 0;
	for (int k = 0; k < 3; k++) {
		int edge = board_node_edges[node][k];
		if (edge < 0 || !board_edge_set_has(roads, edge) || board_edge_set_has(used, edge))
			continue;
		int next = edge_other_node(edge, node);
		board_edge_set_add(used, edge);
		int length = 1 + (b->blocked >> next & 1 ? 0 : trail_from(b, roads, used, next));
		used->word[edge >> 6] &= ~(UINT64_C(1) << (edge & 63));
		if (length > best)
			best = length;
	}
	return best;
}

/* For each node the seat's roads grow from, the longest route of its roads starting
 * there: a new road at that node makes a route one longer. */
static void compute_reach(struct bot *b)
{
	if (b->has_reach)
		return;
	b->has_reach = 1;
	for (uint64_t nodes = b->anchors & b->road_nodes; nodes; nodes &= nodes - 1) {
		int node = __builtin_ctzll(nodes);
		struct board_edge_set used = {{0, 0}};
		b->reach[node] = (int8_t)trail_from(b, &b->my_roads, &used, node);
	}
}

/* 1 when lengthening the route may take Longest Road soon or keep it. */
static int longest_road_interest(struct bot *b)
{
	if (b->lr_interest >= 0)
		return b->lr_interest;
	const struct game_view *view = b->view;
	int mine = b->self->road_length;
	int other = 0;
	for (int s = 0; s < view->options.seats; s++)
		if (s != b->me && view->players[s].road_length > other)
			other = view->players[s].road_length;
	int interest;
	if (view->longest_road == b->me) {
		interest = other >= mine - 1;
	} else {
		int holder = view->longest_road;
		int to_beat = holder >= 0 ? view->players[holder].road_length : other;
		int target = to_beat + 1 > 5 ? to_beat + 1 : 5;
		interest = mine + 2 >= target && b->self->roads_left >= target - mine;
	}
	b->lr_interest = interest;
	return interest;
}

/* 1 when a road on `edge` (growing from the node in `anchors`) lengthens the longest
 * route: it extends a route that is already the longest from its end. A lower bound on
 * the new length, exact when the road extends an end. */
static int lengthens_route(struct bot *b, int edge, uint64_t anchors)
{
	compute_reach(b);
	int a = board_edge_nodes[edge][0], c = board_edge_nodes[edge][1];
	int from = anchors >> a & 1 ? a : c;
	if (!(b->road_nodes >> from & 1))
		return b->self->road_length == 0;
	return b->reach[from] + 1 > b->self->road_length;
}

/* What a road on `edge` is worth when the seat's network reaches the nodes in `anchors`. */
static int road_value(struct bot *b, int edge, uint64_t anchors)
{
	compute_potential(b);
	int a = board_edge_nodes[edge][0], c = board_edge_nodes[edge][1];
	int near = anchors >> a & 1 ? a : c;
	int far = near == a ? c : a;
	int value = 0;
	if (!(anchors >> far & 1) && b->potential[far] > b->potential[near])
		value = b->potential[far];
	if (longest_road_interest(b) && lengthens_route(b, edge, anchors))
		value += BOT_LONGEST_ROAD_BONUS;
	return value;
}

static struct board_edge_set road_edges(const struct bot *b)
{
	struct board_edge_set edges = {{0, 0}};
	for (uint64_t rest = b->anchors; rest; rest &= rest - 1) {
		int node = __builtin_ctzll(rest);
		edges.word[0] |= board_node_edge_set[node].word[0];
		edges.word[1] |= board_node_edge_set[node].word[1];
	}
	for (int e = 0; e < BOARD_EDGES; e++)
		if (board_edge_set_has(&edges, e) && b->view->edge_owner[e])
			edges.word[e >> 6] &= ~(UINT64_C(1) << (e & 63));
	return edges;
}

/* The best road value over the paths the seat may build on now. */
static int best_road_value(struct bot *b)
{
	if (b->best_road >= 0)
		return b->best_road;
	int best = 0;
	if (b->self->roads_left > 0) {
		struct board_edge_set edges = road_edges(b);
		for (int e = 0; e < BOARD_EDGES; e++) {
			if (!board_edge_set_has(&edges, e))
				continue;
			int value = road_value(b, e, b->anchors);
			if (value > best)
				best = value;
		}
	}
	b->best_road = best;
	return best;
}

/* ---- the plan ---- */

static int site_reachable(const struct bot *b)
{
	return b->self->settlements_left > 0 && (b->open & b->road_nodes) != 0;
}

static int build_usable(struct bot *b, int build)
{
	switch (build) {
	case BUILD_CITY:
		return b->self->cities_left > 0 && b->my_settlements != 0;
	case BUILD_SETTLEMENT:
		return site_reachable(b);
	case BUILD_ROAD:
		return b->self->roads_left > 0 && (!site_reachable(b) || longest_road_interest(b)) &&
		       best_road_value(b) > 0;
	default:
		return b->view->development_cards_left > 0;
	}
}

static int cards_missing(const uint8_t hand[RESOURCE_COUNT], const uint8_t cost[RESOURCE_COUNT])
{
	int missing = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (cost[r] > hand[r])
			missing += cost[r] - hand[r];
	return missing;
}

static void make_plan(struct bot *b)
{
	if (b->plan_count >= 0)
		return;
	int keys[BUILD_COUNT];
	b->plan_count = 0;
	for (int build = 0; build < BUILD_COUNT; build++) {
		if (!build_usable(b, build))
			continue;
		int key = cards_missing(b->hand, build_cost[build]) + build;
		int at = b->plan_count++;
		while (at > 0 && keys[at - 1] > key) {
			keys[at] = keys[at - 1];
			b->plan[at] = b->plan[at - 1];
			at--;
		}
		keys[at] = key;
		b->plan[at] = build;
	}
}

/* The first build of the plan the hand does not cover once the builds before it are paid:
 * its missing cards in need[], the cards kept for it and the builds before it in keep[].
 * -1 when the hand covers the whole plan (or there is none). */
static int trade_target(struct bot *b, uint8_t need[RESOURCE_COUNT], uint8_t keep[RESOURCE_COUNT])
{
	make_plan(b);
	uint8_t left[RESOURCE_COUNT];
	memcpy(left, b->hand, RESOURCE_COUNT);
	memset(keep, 0, RESOURCE_COUNT);
	memset(need, 0, RESOURCE_COUNT);
	for (int i = 0; i < b->plan_count; i++) {
		const uint8_t *cost = build_cost[b->plan[i]];
		int covered = resource_covers(left, cost);
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			int use = cost[r] < left[r] ? cost[r] : left[r];
			keep[r] = (uint8_t)(keep[r] + use);
			left[r] = (uint8_t)(left[r] - use);
			need[r] = (uint8_t)(cost[r] - use);
		}
		if (!covered)
			return b->plan[i];
	}
	memset(need, 0, RESOURCE_COUNT);
	return -1;
}

/* 1 when receiving `get` for `pay` from `partner` (-1: the bank) moves the plan on: it
 * brings a card the target build lacks and takes only cards the plan does not keep. */
static int trade_helps(struct bot *b, const uint8_t get[RESOURCE_COUNT], const uint8_t pay[RESOURCE_COUNT],
		       int partner)
{
	if (partner >= 0 && b->view->players[partner].victory_points >= BOT_TRADE_POINTS_LIMIT)
		return 0;
	uint8_t need[RESOURCE_COUNT], keep[RESOURCE_COUNT];
	if (trade_target(b, need, keep) < 0)
		return 0;
	int gain = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		if (pay[r] > b->hand[r] - keep[r])
			return 0;
		gain += get[r] < need[r] ? get[r] : need[r];
	}
	return gain > 0 && resource_total(pay) <= 2 * gain;
}

/* ---- templates ---- */

/* The 1-for-1 offer that completes the target build: one spare card for its one missing
 * card. 0 when the target lacks more than one card or nothing is spare. */
static int targeted_offer(struct bot *b, uint8_t give[RESOURCE_COUNT], uint8_t want[RESOURCE_COUNT])
{
	uint8_t need[RESOURCE_COUNT], keep[RESOURCE_COUNT];
	if (trade_target(b, need, keep) < 0 || resource_total(need) != 1)
		return 0;
	int spare = -1;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (b->hand[r] > keep[r] && (spare < 0 || b->hand[r] - keep[r] > b->hand[spare] - keep[spare]))
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
	/* Asked for an offer with nothing to aim for: the most plentiful card for the scarcest. */
	int most = 0, least = -1;
	for (int r = 1; r < RESOURCE_COUNT; r++)
		if (b->hand[r] > b->hand[most])
			most = r;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (r != most && (least < 0 || b->hand[r] < b->hand[least]))
			least = r;
	out->give[most] = 1;
	out->want[least] = 1;
}

/* Drop `owed` cards, keeping the cards of the plan's builds in plan order. */
static void fill_discard(struct bot *b, int owed, struct command *out)
{
	make_plan(b);
	uint8_t left[RESOURCE_COUNT];
	uint8_t kept[BUILD_COUNT][RESOURCE_COUNT];
	memcpy(left, b->hand, RESOURCE_COUNT);
	memset(kept, 0, sizeof kept);
	for (int i = 0; i < b->plan_count; i++) {
		const uint8_t *cost = build_cost[b->plan[i]];
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			int use = cost[r] < left[r] ? cost[r] : left[r];
			kept[i][r] = (uint8_t)use;
			left[r] = (uint8_t)(left[r] - use);
		}
	}
	memset(out->resources, 0, RESOURCE_COUNT);
	/* Free cards first (largest pile first), then the last build's cards, and so on. */
	for (int level = b->plan_count; level >= 0 && owed > 0; level--) {
		uint8_t *pile = level == b->plan_count ? left : kept[level];
		while (owed > 0 && resource_total(pile) > 0) {
			int r = 0;
			for (int k = 1; k < RESOURCE_COUNT; k++)
				if (pile[k] > pile[r] || (pile[k] == pile[r] && b->production[k] > b->production[r]))
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

/* How much the robber on `hex`, robbing `victim`, hurts the seat's opponents (the leader
 * most) and spares the seat. */
static int robber_score(const struct bot *b, int hex, int victim)
{
	const struct game_view *view = b->view;
	int p = pips(view->board.number[hex]);
	int score = 0;
	for (int k = 0; k < 6; k++) {
		int node = board_hex_nodes[hex][k];
		int owner = view->node_owner[node] - 1;
		if (owner < 0)
			continue;
		int multiplier = view->node_building[node] == BUILDING_CITY ? 2 : 1;
		if (owner == b->me)
			score -= 40 * (p + 1) * multiplier;
		else
			score += p * multiplier * (owner == b->leader ? 4 : 1) * (1 + view->players[owner].victory_points);
	}
	score *= 10;
	if (victim >= 0)
		score += (victim == b->leader ? 50 : 0) + 3 * view->players[victim].resource_count;
	return score;
}

static int best_robber_move(struct bot *b, int type)
{
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++)
		if (b->moves[i].type == type)
			pick_offer(&pick, b->rng, i, robber_score(b, b->moves[i].hex, b->moves[i].victim));
	return pick.index;
}

static int robber_blocks_me(const struct bot *b)
{
	int hex = b->view->robber;
	return hex >= 0 && hex < BOARD_HEXES && b->view->board.number[hex] && (b->mine & board_hex_node_mask[hex]);
}

static int knight_wins_army(const struct bot *b)
{
	const struct game_view *view = b->view;
	int mine = b->self->knights_played;
	int other = 0;
	for (int s = 0; s < view->options.seats; s++)
		if (s != b->me && view->players[s].knights_played > other)
			other = view->players[s].knights_played;
	if (view->largest_army == b->me)
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
	if (main_phase && b->view->robber >= 0 && b->view->robber < BOARD_HEXES) {
		int here = robber_score(b, b->view->robber, -1);
		const struct command *move = &b->moves[best];
		if (robber_score(b, move->hex, -1) >= here + 200)
			return best;
	}
	return -1;
}

/* ---- development cards ---- */

static int year_of_plenty_move(struct bot *b)
{
	if (find_move(b, COMMAND_PLAY_YEAR_OF_PLENTY) < 0)
		return -1;
	make_plan(b);
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_PLAY_YEAR_OF_PLENTY || resource_total(move->resources) == 0)
			continue;
		uint8_t after[RESOURCE_COUNT];
		for (int r = 0; r < RESOURCE_COUNT; r++)
			after[r] = (uint8_t)(b->hand[r] + move->resources[r]);
		int score = 0;
		for (int k = 0; k < b->plan_count; k++) {
			const uint8_t *cost = build_cost[b->plan[k]];
			if (!resource_covers(b->hand, cost) && resource_covers(after, cost)) {
				score = 10 - b->plan[k];
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
	const struct game_view *view = b->view;
	if (find_move(b, COMMAND_PLAY_MONOPOLY) < 0)
		return -1;
	int produce[GAME_MAX_SEATS][RESOURCE_COUNT];
	memset(produce, 0, sizeof produce);
	for (int node = 0; node < BOARD_NODES; node++) {
		int owner = view->node_owner[node] - 1;
		if (owner < 0 || owner == b->me)
			continue;
		int multiplier = view->node_building[node] == BUILDING_CITY ? 2 : 1;
		for (int k = 0; k < 3; k++) {
			int hex = board_node_hexes[node][k];
			if (hex >= 0 && view->board.terrain[hex] < TERRAIN_DESERT)
				produce[owner][view->board.terrain[hex]] += multiplier * pips(view->board.number[hex]);
		}
	}
	int expected[RESOURCE_COUNT] = {0}; /* tenths of a card */
	for (int s = 0; s < view->options.seats; s++) {
		int total = 0;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			total += produce[s][r];
		if (s == b->me || total == 0)
			continue;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			expected[r] += 10 * view->players[s].resource_count * produce[s][r] / total;
	}
	uint8_t need[RESOURCE_COUNT], keep[RESOURCE_COUNT];
	trade_target(b, need, keep);
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
		int score = road_value(b, first, b->anchors);
		if (move->edge_count == 2)
			score += road_value(b, move->edges[1], b->anchors | board_edge_node_mask[first]);
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
		int value = type == COMMAND_BUILD_CITY ? city_value(b, move->node) : site_value(b, move->node);
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
		const struct game_offer *offer = find_offer(b->view, move->trade);
		if (move->type != COMMAND_CONFIRM_TRADE || !offer || offer->from == b->me)
			continue;
		if (trade_helps(b, offer->give, offer->want, offer->from))
			pick_offer(&pick, b->rng, i, -b->view->players[offer->from].victory_points);
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
		const struct game_offer *offer = find_offer(b->view, move->trade);
		if (move->type != COMMAND_CONFIRM_TRADE || !offer || offer->from != b->me || move->with < 0)
			continue;
		if (trade_helps(b, offer->want, offer->give, move->with))
			pick_offer(&pick, b->rng, i, -b->view->players[move->with].victory_points);
	}
	return pick.index;
}

static int has_open_offer(const struct bot *b)
{
	for (int i = 0; i < b->view->offer_count && i < GAME_MAX_OFFERS; i++)
		if (b->view->offers[i].from == b->me)
			return 1;
	return 0;
}

static int offer_move(struct bot *b)
{
	int template_index = find_move(b, COMMAND_OFFER_TRADE);
	uint8_t give[RESOURCE_COUNT], want[RESOURCE_COUNT];
	if (template_index < 0 || has_open_offer(b) || !targeted_offer(b, give, want))
		return -1;
	return template_index;
}

/* A bank trade toward the first plan build that the spare cards can complete (trading
 * for a development card only when no city or settlement is in the plan). */
static int maritime_move(struct bot *b)
{
	make_plan(b);
	int places = 0;
	for (int i = 0; i < b->plan_count; i++)
		places |= b->plan[i] == BUILD_CITY || b->plan[i] == BUILD_SETTLEMENT;
	for (int i = 0; i < b->plan_count; i++) {
		int build = b->plan[i];
		const uint8_t *cost = build_cost[build];
		if (resource_covers(b->hand, cost) || (build == BUILD_DEVELOPMENT && places))
			continue;
		int missing = cards_missing(b->hand, cost);
		int trades = 0;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			if (b->hand[r] > cost[r])
				trades += (b->hand[r] - cost[r]) / b->rate[r];
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
			if (give < 0 || want < 0 || cost[want] <= b->hand[want] ||
			    b->hand[give] - move->give[give] < cost[give])
				continue;
			pick_offer(&pick, b->rng, m, b->hand[give] - cost[give] - move->give[give]);
		}
		if (pick.index >= 0)
			return pick.index;
	}
	return -1;
}

/* Buy with spare cards: not while a city or settlement two cards away needs them. */
static int buy_move(struct bot *b)
{
	int index = find_move(b, COMMAND_BUY_DEVELOPMENT_CARD);
	if (index < 0)
		return -1;
	make_plan(b);
	uint8_t after[RESOURCE_COUNT];
	for (int r = 0; r < RESOURCE_COUNT; r++)
		after[r] = (uint8_t)(b->hand[r] - game_cost_development[r]);
	for (int i = 0; i < b->plan_count; i++) {
		int build = b->plan[i];
		if (build != BUILD_CITY && build != BUILD_SETTLEMENT)
			continue;
		const uint8_t *cost = build_cost[build];
		if (cards_missing(b->hand, cost) <= 2 && cards_missing(after, cost) > cards_missing(b->hand, cost))
			return -1;
	}
	return index;
}

static int road_move(struct bot *b)
{
	if (find_move(b, COMMAND_BUILD_ROAD) < 0)
		return -1;
	/* Keep a reachable settlement's brick and lumber unless both can be paid. */
	if (site_reachable(b) && !longest_road_interest(b)) {
		uint8_t both[RESOURCE_COUNT];
		for (int r = 0; r < RESOURCE_COUNT; r++)
			both[r] = (uint8_t)(game_cost_settlement[r] + game_cost_road[r]);
		if (!resource_covers(b->hand, both))
			return -1;
	}
	struct pick pick;
	pick_init(&pick);
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_BUILD_ROAD)
			continue;
		int value = road_value(b, move->edge, b->anchors);
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
		    !((offer->accepted | offer->declined) >> me & 1u))
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

static int choose_answer(struct bot *b)
{
	int id = bot_unanswered_offer(b->view);
	const struct game_offer *offer = find_offer(b->view, id);
	if (offer) {
		int accept = find_answer(b, COMMAND_ACCEPT_TRADE, id);
		if (accept >= 0 && trade_helps(b, offer->give, offer->want, offer->from))
			return accept;
		int decline = find_answer(b, COMMAND_DECLINE_TRADE, id);
		if (decline >= 0)
			return decline;
	}
	/* Nothing to answer: take back an acceptance that no longer helps, else decline. */
	return find_move(b, COMMAND_DECLINE_TRADE);
}

/* ---- setup ---- */

static int setup_road_move(struct bot *b)
{
	compute_potential(b);
	struct pick pick;
	pick_init(&pick);
	int from = b->view->setup_node;
	for (int i = 0; i < b->count; i++) {
		const struct command *move = &b->moves[i];
		if (move->type != COMMAND_BUILD_ROAD)
			continue;
		int far = from >= 0 ? edge_other_node(move->edge, from) : board_edge_nodes[move->edge][1];
		int value = b->potential[far];
		/* The best site one more path away, so the road points at it. */
		for (int k = 0; k < 3; k++) {
			int edge = board_node_edges[far][k];
			if (edge >= 0 && edge != move->edge && passable_edge(b, edge)) {
				int beyond = b->potential[edge_other_node(edge, far)];
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
	bot_init(&b, view, moves, count, rng);
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
	*out = moves[move];
	if (out->is_template)
		fill_template(&b, out);
	return 1;
}
