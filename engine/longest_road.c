/*
 * longest_road.c - longest trail search over one seat's roads.
 *
 * A route is a trail: it may revisit an intersection (a loop, a figure-eight) but uses each
 * road at most once. It may start or end at an intersection holding an opponent's building
 * but never pass through one. A seat has at most 15 roads, so an exhaustive depth-first
 * search (the used roads are a bit mask) is cheap; it starts only from the nodes a longest
 * trail can be made to start at (build_graph()), not from every node the roads touch.
 *
 * Holder rule (RULES.md 8, ruling from 000's FAQ and 001): a holder keeps the card while it
 * still has 5+ and nobody is strictly longer; when that fails (someone built past it, or
 * its route was broken), the card goes to the single seat with the strictly longest 5+
 * route, or is set aside when there is none or a tie. With no holder, the same "single
 * strictly longest 5+" test awards it. This one function covers both the ordinary
 * "strictly longer takes it" case and every break case.
 */
#include "longest_road.h"

/* One seat's road graph as the search walks it: its roads numbered 0..count-1 (a trail's
 * used roads are then a small mask), each node's incident roads, and the nodes a route may
 * end at but not pass through. */
struct road_graph {
	int count;
	int8_t ends[BOARD_EDGES][2];
	uint32_t incident[BOARD_NODES]; /* road numbers at the node, as a mask */
	uint64_t blocked;		/* nodes holding an opponent's building */
};

static int extend(const struct road_graph *graph, int node, uint32_t used)
{
	int best = 0;
	uint32_t open = graph->incident[node] & ~used;
	while (open) {
		int road = __builtin_ctz(open);
		open &= open - 1;
		int other = graph->ends[road][0] == node ? graph->ends[road][1] : graph->ends[road][0];
		int length = 1 + (graph->blocked >> other & 1u ? 0 : extend(graph, other, used | 1u << road));
		if (length > best)
			best = length;
	}
	return best;
}

/* Number the seat's roads into the graph, with the nodes its roads touch once, twice and
 * three times; the number of road `edge` (-1 when it is none of them or edge is -1). */
static int fill_graph(const struct game *game, int seat, struct road_graph *graph, int edge_wanted, uint64_t *once_out,
		      uint64_t *twice_out, uint64_t *thrice_out)
{
	const struct game_player *player = &game->players[seat];
	for (uint64_t bits = player->road_nodes; bits; bits &= bits - 1)
		graph->incident[__builtin_ctzll(bits)] = 0;
	uint64_t once = 0, twice = 0, thrice = 0;
	int count = 0, wanted = -1;
	for (int w = 0; w < 2; w++) {
		uint64_t bits = player->roads.word[w];
		while (bits) {
			int edge = 64 * w + __builtin_ctzll(bits);
			bits &= bits - 1;
			int a = board_edge_nodes[edge][0], b = board_edge_nodes[edge][1];
			if (edge == edge_wanted)
				wanted = count;
			graph->ends[count][0] = (int8_t)a;
			graph->ends[count][1] = (int8_t)b;
			graph->incident[a] |= 1u << count;
			graph->incident[b] |= 1u << count;
			count++;
			uint64_t ends = board_edge_node_mask[edge];
			thrice |= twice & ends;
			twice |= once & ends;
			once |= ends;
		}
	}
	graph->count = count;
	graph->blocked = game->occupied_nodes & ~player->buildings;
	*once_out = once;
	*twice_out = twice;
	*thrice_out = thrice;
	return wanted;
}

/* Build the graph and return the nodes a longest trail need not start elsewhere than.
 *
 * Take a longest trail T starting at an open node v (no opponent's building on it) and
 * say a road r at v is not in T: prepending r gives a longer trail, so every road at v is
 * in T. If v has degree 2, T comes back to v by its second road and ends there: T is
 * closed and can start as well at any of its nodes, one of degree 3 if it has one; if it
 * has none, T is its whole component, a bare cycle, searched from all its nodes. If v has
 * degree 3, T leaves v, comes back and leaves again: the roads hold a cycle. So without a
 * cycle the ends of the roads (degree 1) and the blocked nodes are enough; with one, every
 * node but the open degree-2 ones, and the nodes of bare cycles. */
static uint64_t build_graph(const struct game *game, int seat, struct road_graph *graph)
{
	uint64_t once, twice, thrice;
	fill_graph(game, seat, graph, -1, &once, &twice, &thrice);
	uint64_t nodes = game->players[seat].road_nodes;
	int count = graph->count;

	/* Components by flooding: a component with as many roads as nodes or more has a cycle
	 * (a tree has one road fewer than nodes). */
	int cyclic = 0;
	uint64_t bare_cycles = 0, left = nodes;
	while (left) {
		uint64_t component = left & -left, before;
		do {
			before = component;
			for (int road = 0; road < count; road++) {
				uint64_t ends = UINT64_C(1) << graph->ends[road][0] | UINT64_C(1)
											      << graph->ends[road][1];
				if (component & ends)
					component |= ends;
			}
		} while (component != before);
		left &= ~component;
		int roads = 0;
		for (int road = 0; road < count; road++)
			roads += (int)(component >> graph->ends[road][0] & 1u);
		if (roads >= board_bits_count64(component)) {
			cyclic = 1;
			if (!(component & ((twice & ~thrice) ^ once)) && !(component & thrice) &&
			    !(component & graph->blocked))
				bare_cycles |= component;
		}
	}
	uint64_t ends_of_roads = once & ~twice;
	if (!cyclic)
		return ends_of_roads | (nodes & graph->blocked);
	return (nodes & (~(twice & ~thrice) | graph->blocked)) | bare_cycles;
}

int longest_road_length(const struct game *game, int seat)
{
	struct road_graph graph;
	uint64_t nodes = build_graph(game, seat, &graph);
	int best = 0;
	while (nodes) {
		int node = __builtin_ctzll(nodes);
		nodes &= nodes - 1;
		int length = extend(&graph, node, 0);
		if (length > best)
			best = length;
	}
	return best;
}

int longest_road_after_road(const struct game *game, int seat, int edge, int before)
{
	struct road_graph graph;
	uint64_t once, twice, thrice;
	int road = fill_graph(game, seat, &graph, edge, &once, &twice, &thrice);
	if (road < 0)
		return longest_road_length(game, seat);
	/* The component of the new road: its nodes, flooded along the roads, and its roads. */
	uint64_t component = board_edge_node_mask[edge], frontier = component;
	uint32_t roads = 0;
	while (frontier) {
		int node = __builtin_ctzll(frontier);
		frontier &= frontier - 1;
		uint32_t found = graph.incident[node] & ~roads;
		roads |= found;
		for (; found; found &= found - 1) {
			int r = __builtin_ctz(found);
			uint64_t ends = UINT64_C(1) << graph.ends[r][0] | UINT64_C(1) << graph.ends[r][1];
			frontier |= ends & ~component;
			component |= ends;
		}
	}
	if (board_bits_count32(roads) != board_bits_count64(component) - 1)
		return longest_road_length(game, seat); /* a cycle: the whole search */
	/* A tree: a trail through the new road is a path on each side of it, and the two
	 * sides share no road, so the longest is the longest from each end without it. A
	 * trail may end at an opponent's building but not pass it: then that side adds none. */
	int length = 1;
	for (int end = 0; end < 2; end++) {
		int node = graph.ends[road][end];
		if (!(graph.blocked >> node & 1u))
			length += extend(&graph, node, 1u << road);
	}
	return length > before ? length : before;
}

int longest_road_holder(const struct game *game)
{
	int seats = game->options.seats;
	int holder = game->longest_road;
	if (holder >= 0) {
		int keeps = game->players[holder].road_length >= 5;
		for (int s = 0; s < seats && keeps; s++)
			if (s != holder && game->players[s].road_length > game->players[holder].road_length)
				keeps = 0;
		if (keeps)
			return holder;
	}
	int best = -1, best_length = 4, tied = 0;
	for (int s = 0; s < seats; s++) {
		int length = game->players[s].road_length;
		if (length > best_length) {
			best = s;
			best_length = length;
			tied = 0;
		} else if (length == best_length && best >= 0) {
			tied = 1;
		}
	}
	return tied ? -1 : best;
}
