/*
 * longest_road.c - longest trail search over one seat's roads.
 *
 * A route is a trail: it may revisit an intersection (a loop, a figure-eight) but uses each
 * road at most once. It may start or end at an intersection holding an opponent's building
 * but never pass through one. A seat has at most 15 roads, so an exhaustive depth-first
 * search (the used roads are a bit mask) is cheap; it starts only from the nodes a longest
 * trail can be made to start at (start_nodes()), not from every node the roads touch.
 *
 * Holder rule (RULES.md 8, ruling from 000's FAQ and 001): a holder keeps the card while it
 * still has 5+ and nobody is strictly longer; when that fails (someone built past it, or
 * its route was broken), the card goes to the single seat with the strictly longest 5+
 * route, or is set aside when there is none or a tie. With no holder, the same "single
 * strictly longest 5+" test awards it. This one function covers both the ordinary
 * "strictly longer takes it" case and every break case.
 */
#include "longest_road.h"

static int passable(const struct game *game, int seat, int node)
{
	int owner = game->node_owner[node];
	return owner == 0 || owner == seat + 1;
}

static int extend(const struct game *game, int seat, int node, struct board_edge_set *used)
{
	int best = 0;
	for (int k = 0; k < 3; k++) {
		int edge = board_node_edges[node][k];
		if (edge < 0 || game->edge_owner[edge] != seat + 1 || board_edge_set_has(used, edge))
			continue;
		int other = board_edge_nodes[edge][0] == node ? board_edge_nodes[edge][1] : board_edge_nodes[edge][0];
		board_edge_set_add(used, edge);
		int length = 1 + (passable(game, seat, other) ? extend(game, seat, other, used) : 0);
		used->word[edge >> 6] &= ~(UINT64_C(1) << (edge & 63));
		if (length > best)
			best = length;
	}
	return best;
}

/* The seat's roads as a list, and the nodes a longest trail need not start elsewhere than:
 * every node of degree 1 or 3 in the seat's road graph and every node holding an
 * opponent's building. A longest trail from a degree-2 open node v either leaves v's
 * second road unused (then prepending it gives a longer trail, so it was not the longest)
 * or comes back through it and ends at v: a closed trail, which can start as well at any
 * of its nodes; one of degree 3 if it has one, and if it has none, the trail is its whole
 * component, a bare cycle, searched from all its nodes. */
static uint64_t start_nodes(const struct game *game, int seat, int8_t *edges, int *edge_count)
{
	const struct game_player *player = &game->players[seat];
	uint64_t once = 0, twice = 0, thrice = 0;
	int count = 0;
	for (int w = 0; w < 2; w++) {
		uint64_t bits = player->roads.word[w];
		while (bits) {
			int edge = 64 * w + __builtin_ctzll(bits);
			bits &= bits - 1;
			edges[count++] = (int8_t)edge;
			uint64_t ends = board_edge_node_mask[edge];
			thrice |= twice & ends;
			twice |= once & ends;
			once |= ends;
		}
	}
	*edge_count = count;
	uint64_t blocked = game->occupied_nodes & ~player->buildings;
	uint64_t starts = player->road_nodes & (~(twice & ~thrice) | blocked);
	uint64_t reached = starts, before;
	do {
		before = reached;
		for (int i = 0; i < count; i++) {
			uint64_t ends = board_edge_node_mask[edges[i]];
			if (reached & ends)
				reached |= ends;
		}
	} while (reached != before && (player->road_nodes & ~reached));
	return starts | (player->road_nodes & ~reached);
}

int longest_road_length(const struct game *game, int seat)
{
	int8_t edges[BOARD_EDGES];
	int edge_count;
	uint64_t nodes = start_nodes(game, seat, edges, &edge_count);
	int best = 0;
	while (nodes) {
		int node = __builtin_ctzll(nodes);
		nodes &= nodes - 1;
		struct board_edge_set used = {{0, 0}};
		int length = extend(game, seat, node, &used);
		if (length > best)
			best = length;
	}
	return best;
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
