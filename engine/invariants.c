/*
 * invariants.c - recompute what the state caches and compare.
 */
#include "invariants.h"

#include <stddef.h>

#include "longest_road.h"

static int popcount_edges(const struct board_edge_set *set)
{
	return board_edge_set_count(set);
}

static const char *check_seat(const struct game *g, int s)
{
	const struct game_player *p = &g->players[s];
	int settlements = 0, cities = 0, roads = 0;
	uint64_t buildings = 0, road_nodes = 0;
	for (int n = 0; n < BOARD_NODES; n++) {
		if (g->node_owner[n] != s + 1)
			continue;
		buildings |= UINT64_C(1) << n;
		if (g->node_building[n] == BUILDING_SETTLEMENT)
			settlements++;
		else if (g->node_building[n] == BUILDING_CITY)
			cities++;
		else
			return "an owned node holds no building";
	}
	for (int e = 0; e < BOARD_EDGES; e++) {
		if (g->edge_owner[e] != s + 1)
			continue;
		roads++;
		road_nodes |= board_edge_node_mask[e];
		if (!board_edge_set_has(&p->roads, e))
			return "road mask differs from the edge owners";
	}
	if (p->roads_left > GAME_ROADS || p->settlements_left > GAME_SETTLEMENTS || p->cities_left > GAME_CITIES)
		return "more pieces in supply than a seat owns";
	if (roads + p->roads_left != GAME_ROADS)
		return "roads on the board and in supply do not add up to 15";
	if (cities + p->cities_left != GAME_CITIES)
		return "cities on the board and in supply do not add up to 4";
	if (settlements + p->settlements_left != GAME_SETTLEMENTS)
		return "settlements on the board and in supply do not add up to 5";
	if (buildings != p->buildings || road_nodes != p->road_nodes || popcount_edges(&p->roads) != roads)
		return "a seat's bit masks differ from the board arrays";
	int points = settlements + 2 * cities + 2 * (g->longest_road == s) + 2 * (g->largest_army == s);
	if (points != game_public_points(g, s))
		return "public points differ from the formula";
	if (points + p->development_cards[DEVELOPMENT_VICTORY_POINT] != game_total_points(g, s))
		return "total points differ from the formula";
	if (p->road_length != longest_road_length(g, s))
		return "cached road length differs from the longest route";
	for (int k = 0; k < DEVELOPMENT_COUNT; k++)
		if (p->bought_this_turn[k] > p->development_cards[k])
			return "more cards bought this turn than held";
	return NULL;
}

const char *invariants_check(const struct game *g)
{
	if (g->phase == GAME_PHASE_NONE)
		return NULL;
	int seats = g->options.seats;
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		int total = g->bank[r];
		for (int s = 0; s < seats; s++)
			total += g->players[s].resources[r];
		if (total != RESOURCE_BANK_START)
			return "resources not conserved: bank + hands != 19";
	}
	uint64_t occupied = 0;
	for (int n = 0; n < BOARD_NODES; n++) {
		if (g->node_owner[n] > seats || (g->node_owner[n] == 0) != (g->node_building[n] == BUILDING_NONE))
			return "node owner and building disagree";
		if (g->node_owner[n])
			occupied |= UINT64_C(1) << n;
	}
	if (occupied != g->occupied_nodes)
		return "occupied node mask differs";
	for (int n = 0; n < BOARD_NODES; n++)
		if ((occupied >> n & 1u) && (occupied & board_node_neighbor_mask[n]))
			return "two buildings on adjacent intersections";
	/* Roads are counted per seat against its supply in check_seat(). */
	for (int e = 0; e < BOARD_EDGES; e++) {
		if (g->edge_owner[e] > seats)
			return "edge owner out of range";
		if ((g->edge_owner[e] != 0) != board_edge_set_has(&g->occupied_edges, e))
			return "occupied edge mask differs";
	}
	int development = 0, knights = 0;
	for (int k = 0; k < DEVELOPMENT_COUNT; k++) {
		development += g->deck[k];
		for (int s = 0; s < seats; s++)
			development += g->players[s].development_cards[k];
	}
	for (int s = 0; s < seats; s++) {
		knights += g->players[s].knights_played;
		const char *problem = check_seat(g, s);
		if (problem)
			return problem;
	}
	if (development + knights > 25)
		return "more than 25 development cards";
	if (g->deck[DEVELOPMENT_KNIGHT] + knights > 14)
		return "more than 14 knights";
	if (g->longest_road >= 0) {
		int holder_length = g->players[g->longest_road].road_length;
		if (holder_length < 5)
			return "Longest Road held with a route under 5";
		for (int s = 0; s < seats; s++)
			if (g->players[s].road_length > holder_length)
				return "Longest Road held while another seat is strictly longer";
	}
	if (g->largest_army >= 0) {
		int holder_knights = g->players[g->largest_army].knights_played;
		if (holder_knights < 3)
			return "Largest Army held with under 3 knights";
		for (int s = 0; s < seats; s++)
			if (g->players[s].knights_played > holder_knights)
				return "Largest Army held while another seat has more knights";
	}
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		if (g->offers[i].id && g->offers[i].id >= g->next_offer_id)
			return "an open offer with an id not yet given out";
	if (g->phase == GAME_PHASE_FINISHED) {
		if (g->winner < 0 || g->winner != g->turn_seat)
			return "the game ended without a winner on its own turn";
		if (game_total_points(g, g->winner) < GAME_POINTS_TO_WIN)
			return "the winner has fewer than 10 points";
	} else if (g->winner != GAME_NO_SEAT) {
		return "a winner while the game goes on";
	}
	if (!game_in_setup(g) && g->phase != GAME_PHASE_FINISHED) {
		for (int s = 0; s < seats; s++)
			if (s == g->turn_seat && game_total_points(g, s) >= GAME_POINTS_TO_WIN)
				return "the active player has 10 points but has not won";
	}
	return NULL;
}
