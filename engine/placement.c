/*
 * placement.c - placement rules as bit masks over the 54 nodes and 72 edges.
 *
 * A node is "open" when it and its neighbours are empty (the distance rule, own buildings
 * included). A seat's road network can grow from any of its buildings and from any node its
 * roads touch unless an opponent's building sits there (a road never connects through an
 * opponent's settlement or city).
 */
#include "placement.h"

uint64_t placement_open_nodes(const struct game *game)
{
	uint64_t blocked = game->occupied_nodes;
	uint64_t rest = game->occupied_nodes;
	while (rest) {
		int node = __builtin_ctzll(rest);
		rest &= rest - 1;
		blocked |= board_node_neighbor_mask[node];
	}
	return ~blocked & ((UINT64_C(1) << BOARD_NODES) - 1);
}

uint64_t placement_settlement_nodes(const struct game *game, int seat)
{
	return placement_open_nodes(game) & game->players[seat].road_nodes;
}

static struct board_edge_set road_edges_from(const struct game *game, uint64_t buildings, uint64_t road_nodes,
					     struct board_edge_set occupied)
{
	uint64_t anchors = buildings | (road_nodes & ~game->occupied_nodes);
	struct board_edge_set edges = {{0, 0}};
	while (anchors) {
		int node = __builtin_ctzll(anchors);
		anchors &= anchors - 1;
		edges.word[0] |= board_node_edge_set[node].word[0];
		edges.word[1] |= board_node_edge_set[node].word[1];
	}
	edges.word[0] &= ~occupied.word[0];
	edges.word[1] &= ~occupied.word[1];
	return edges;
}

struct board_edge_set placement_road_edges(const struct game *game, int seat)
{
	const struct game_player *player = &game->players[seat];
	return road_edges_from(game, player->buildings, player->road_nodes, game->occupied_edges);
}

struct board_edge_set placement_setup_road_edges(const struct game *game, int node)
{
	struct board_edge_set edges = board_node_edge_set[node];
	edges.word[0] &= ~game->occupied_edges.word[0];
	edges.word[1] &= ~game->occupied_edges.word[1];
	return edges;
}

uint64_t placement_city_nodes(const struct game *game, int seat)
{
	uint64_t nodes = game->players[seat].buildings;
	uint64_t settlements = 0;
	while (nodes) {
		int node = __builtin_ctzll(nodes);
		nodes &= nodes - 1;
		if (game->node_building[node] == BUILDING_SETTLEMENT)
			settlements |= UINT64_C(1) << node;
	}
	return settlements;
}

uint8_t placement_robbable_seats(const struct game *game, int seat)
{
	uint8_t robbable = 0;
	for (int s = 0; s < game->options.seats; s++)
		if (s != seat && resource_total(game->players[s].resources) > 0)
			robbable |= (uint8_t)(1u << s);
	return robbable;
}

uint8_t placement_robbable_hexes(const struct game *game, int seat, uint32_t hexes[GAME_MAX_SEATS])
{
	uint8_t robbable = placement_robbable_seats(game, seat);
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		uint32_t touched = 0;
		if (robbable >> s & 1u) {
			uint64_t nodes = game->players[s].buildings;
			while (nodes) {
				int node = __builtin_ctzll(nodes);
				nodes &= nodes - 1;
				touched |= board_node_hex_mask[node];
			}
		}
		hexes[s] = touched;
	}
	return robbable;
}

uint8_t placement_robber_victims(const struct game *game, int seat, int hex)
{
	uint8_t victims = 0;
	uint8_t robbable = placement_robbable_seats(game, seat);
	for (int s = 0; s < game->options.seats; s++)
		if ((robbable >> s & 1u) && (game->players[s].buildings & board_hex_node_mask[hex]))
			victims |= (uint8_t)(1u << s);
	return victims;
}

struct board_edge_set placement_road_edges_after(const struct game *game, int seat, int edge)
{
	const struct game_player *player = &game->players[seat];
	struct board_edge_set occupied = game->occupied_edges;
	board_edge_set_add(&occupied, edge);
	return road_edges_from(game, player->buildings, player->road_nodes | board_edge_node_mask[edge], occupied);
}

int placement_free_roads_possible(const struct game *game, int seat)
{
	int pieces = game->players[seat].roads_left;
	struct board_edge_set legal = placement_road_edges(game, seat);
	int first = board_edge_set_count(&legal);
	if (pieces == 0 || first == 0)
		return 0;
	if (pieces == 1)
		return 1;
	if (first >= 2)
		return 2;
	/* A single path now: does building it open another? */
	int edge = legal.word[0] ? __builtin_ctzll(legal.word[0]) : 64 + __builtin_ctzll(legal.word[1]);
	struct board_edge_set next = placement_road_edges_after(game, seat, edge);
	return board_edge_set_count(&next) > 0 ? 2 : 1;
}
