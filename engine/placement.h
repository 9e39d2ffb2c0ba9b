/*
 * placement.h - where pieces may go and whom the robber may rob: the placement rules of
 * RULES.md sections 2, 4 and 5 as bit-mask queries on a state.
 *
 * rules_decide() validates a command by asking these functions, and legal.h lists moves by
 * iterating their results, so the two agree by construction. None checks whose turn it is,
 * pieces left or resources: that is the caller's part.
 */
#ifndef CATAN_ENGINE_PLACEMENT_H
#define CATAN_ENGINE_PLACEMENT_H

#include <stdint.h>

#include "game.h"

/* Nodes where the distance rule allows a settlement: empty, and every neighbour empty. */
uint64_t placement_open_nodes(const struct game *game);

/* Main-phase settlement sites for `seat`: open nodes touched by its roads. */
uint64_t placement_settlement_nodes(const struct game *game, int seat);

/* Main-phase road paths for `seat`: empty edges touching its building, or its road at an
 * intersection no opponent occupies. */
struct board_edge_set placement_road_edges(const struct game *game, int seat);

/* Setup road paths: empty edges touching `node`. */
struct board_edge_set placement_setup_road_edges(const struct game *game, int node);

/* The seat's settlements (candidates for a city). */
uint64_t placement_city_nodes(const struct game *game, int seat);

/* Seats `seat` may rob with the robber on `hex`: opponents with a building on it holding at
 * least one resource card. A seat mask. */
uint8_t placement_robber_victims(const struct game *game, int seat, int hex);

/* The opponents of `seat` holding at least one resource card, wherever they build: a seat
 * mask. */
uint8_t placement_robbable_seats(const struct game *game, int seat);

/* The seats placement_robbable_seats() names (returned), and for each of them the hexes
 * its buildings touch: hexes[s] has bit h for hex h (0 for a seat not robbable). The
 * victims on hex h are the seats s with bit h of hexes[s]. */
uint8_t placement_robbable_hexes(const struct game *game, int seat, uint32_t hexes[GAME_MAX_SEATS]);

/* How many free roads (0..2) a road building card lets `seat` place in a row now, by the
 * normal rules and its pieces left. */
int placement_free_roads_possible(const struct game *game, int seat);

/* The main-phase road paths `seat` has after also owning `edge` (a first free road). */
struct board_edge_set placement_road_edges_after(const struct game *game, int seat, int edge);

#endif
