/*
 * test_board.c - the island's fixed topology (board_tables.c) and the layouts placed on it.
 *
 * The topology tests recompute each table's facts from the others and from the axial
 * coordinates, so a wrong row in any one table shows up as a disagreement. The layout tests
 * check the beginner board cell by cell against BEGINNER.md and random boards against the
 * component mix and the number rules of RULES.md section 2.
 */
#include "tests/check_main.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/board.h"
#include "engine/game.h"
#include "engine/rules.h"
#include "tests/engine/support.h"

/* Axial direction across hex side k (NE, E, SE, SW, W, NW), r growing southward. */
static const int side_dq[6] = {1, 1, 0, -1, -1, 0};
static const int side_dr[6] = {-1, 0, 1, 1, 0, -1};

static int hex_at(int q, int r)
{
	for (int h = 0; h < BOARD_HEXES; h++)
		if (board_hex_q[h] == q && board_hex_r[h] == r)
			return h;
	return -1;
}

static int hexes_adjacent(int a, int b)
{
	for (int k = 0; k < 6; k++)
		if (board_hex_q[a] + side_dq[k] == board_hex_q[b] && board_hex_r[a] + side_dr[k] == board_hex_r[b])
			return 1;
	return 0;
}

static int row_contains(const int8_t *row, int width, int value)
{
	for (int i = 0; i < width; i++)
		if (row[i] == value)
			return 1;
	return 0;
}

static int land_neighbours(int hex)
{
	int count = 0;
	for (int other = 0; other < BOARD_HEXES; other++)
		count += other != hex && hexes_adjacent(hex, other);
	return count;
}

/* How many hexes have `edge` as a side (1 on the coast, 2 inland). */
static int hexes_on_edge(int edge)
{
	int count = 0;
	for (int h = 0; h < BOARD_HEXES; h++)
		count += row_contains(board_hex_edges[h], 6, edge);
	return count;
}

static int hexes_at_node(int node)
{
	int count = 0;
	for (int h = 0; h < BOARD_HEXES; h++)
		count += row_contains(board_hex_nodes[h], 6, node);
	return count;
}

START_TEST(test_island_has_19_hexes_54_nodes_72_edges_9_harbors)
{
	int node_seen[BOARD_NODES] = {0}, edge_seen[BOARD_EDGES] = {0};
	for (int h = 0; h < BOARD_HEXES; h++) {
		for (int k = 0; k < 6; k++) {
			int node = board_hex_nodes[h][k], edge = board_hex_edges[h][k];
			ck_assert_int_ge(node, 0);
			ck_assert_int_lt(node, BOARD_NODES);
			ck_assert_int_ge(edge, 0);
			ck_assert_int_lt(edge, BOARD_EDGES);
			node_seen[node] = 1;
			edge_seen[edge] = 1;
		}
	}
	int nodes = 0, edges = 0;
	for (int n = 0; n < BOARD_NODES; n++)
		nodes += node_seen[n];
	for (int e = 0; e < BOARD_EDGES; e++)
		edges += edge_seen[e];
	ck_assert_int_eq(nodes, 54);
	ck_assert_int_eq(edges, 72);
	ck_assert_int_eq(BOARD_HEXES, 19);
	ck_assert_int_eq(BOARD_HARBORS, 9);
	/* 9 harbors on 18 distinct intersections. */
	int harbor_node[BOARD_NODES] = {0};
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		for (int i = 0; i < 2; i++) {
			int node = board_harbor_nodes[slot][i];
			ck_assert_int_ge(node, 0);
			ck_assert_int_lt(node, BOARD_NODES);
			ck_assert_msg(!harbor_node[node], "node %d serves two harbors", node);
			harbor_node[node] = 1;
		}
	}
}
END_TEST

START_TEST(test_node_neighbours_are_symmetric)
{
	for (int n = 0; n < BOARD_NODES; n++) {
		uint64_t mask = 0;
		for (int i = 0; i < 3; i++) {
			int m = board_node_neighbors[n][i];
			if (m < 0)
				continue;
			ck_assert_int_ne(m, n);
			ck_assert_msg(row_contains(board_node_neighbors[m], 3, n), "%d lists %d but not back", n, m);
			mask |= UINT64_C(1) << m;
		}
		ck_assert_msg(mask == board_node_neighbor_mask[n], "neighbour mask of node %d", n);
	}
}
END_TEST

START_TEST(test_every_edge_joins_two_neighbours)
{
	int pair_edges[BOARD_NODES][BOARD_NODES];
	memset(pair_edges, 0, sizeof pair_edges);
	for (int e = 0; e < BOARD_EDGES; e++) {
		int a = board_edge_nodes[e][0], b = board_edge_nodes[e][1];
		ck_assert_msg(row_contains(board_node_neighbors[a], 3, b), "edge %d joins non-neighbours %d %d", e, a,
			      b);
		ck_assert_msg(row_contains(board_node_edges[a], 3, e) && row_contains(board_node_edges[b], 3, e),
			      "edge %d missing from its nodes' edge lists", e);
		ck_assert(board_edge_node_mask[e] == ((UINT64_C(1) << a) | (UINT64_C(1) << b)));
		pair_edges[a][b]++;
		pair_edges[b][a]++;
	}
	/* And every pair of neighbours is joined by exactly one edge. */
	for (int n = 0; n < BOARD_NODES; n++)
		for (int i = 0; i < 3; i++)
			if (board_node_neighbors[n][i] >= 0)
				ck_assert_int_eq(pair_edges[n][board_node_neighbors[n][i]], 1);
}
END_TEST

START_TEST(test_every_node_touches_one_to_three_hexes_and_two_to_three_edges)
{
	for (int n = 0; n < BOARD_NODES; n++) {
		int hexes = 0, edges = 0, neighbours = 0;
		struct board_edge_set set = {{0, 0}};
		for (int i = 0; i < 3; i++) {
			int hex = board_node_hexes[n][i];
			if (hex >= 0) {
				hexes++;
				ck_assert_msg(row_contains(board_hex_nodes[hex], 6, n),
					      "node %d not a corner of hex %d", n, hex);
			}
			if (board_node_edges[n][i] >= 0) {
				edges++;
				board_edge_set_add(&set, board_node_edges[n][i]);
			}
			neighbours += board_node_neighbors[n][i] >= 0;
		}
		ck_assert_int_ge(hexes, 1);
		ck_assert_int_le(hexes, 3);
		ck_assert_int_ge(edges, 2);
		ck_assert_int_le(edges, 3);
		ck_assert_int_eq(neighbours, edges);
		ck_assert_int_eq(hexes, hexes_at_node(n));
		ck_assert(memcmp(&set, &board_node_edge_set[n], sizeof set) == 0);
	}
}
END_TEST

START_TEST(test_30_coastal_edges)
{
	int coastal = 0;
	for (int e = 0; e < BOARD_EDGES; e++) {
		int hexes = hexes_on_edge(e);
		ck_assert_int_ge(hexes, 1);
		ck_assert_int_le(hexes, 2);
		coastal += hexes == 1;
	}
	ck_assert_int_eq(coastal, 30);
}
END_TEST

START_TEST(test_harbor_nodes_are_coastal_and_joined_by_a_coastal_edge)
{
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		int a = board_harbor_nodes[slot][0], b = board_harbor_nodes[slot][1];
		ck_assert_int_le(hexes_at_node(a), 2);
		ck_assert_int_le(hexes_at_node(b), 2);
		int edge = support_edge_between(a, b);
		ck_assert_msg(edge >= 0, "harbor %d nodes %d %d are not neighbours", slot, a, b);
		ck_assert_int_eq(hexes_on_edge(edge), 1);
	}
}
END_TEST

START_TEST(test_axial_rows_are_3_4_5_4_3_west_to_east)
{
	/* BEGINNER.md: row k has r = k - 3; q ranges 0..2, -1..2, -2..2, -2..1, -2..0. */
	static const int q_first[5] = {0, -1, -2, -2, -2};
	static const int q_last[5] = {2, 2, 2, 1, 0};
	int h = 0;
	for (int row = 0; row < 5; row++) {
		for (int q = q_first[row]; q <= q_last[row]; q++, h++) {
			ck_assert_int_eq(board_hex_r[h], row - 2);
			ck_assert_int_eq(board_hex_q[h], q);
		}
	}
	ck_assert_int_eq(h, BOARD_HEXES);
}
END_TEST

START_TEST(test_hex_sides_and_corners_agree_with_the_coordinates)
{
	/* Corner offsets N, NE, SE, S, SW, NW from the centre (2q + r, 3r). */
	static const int corner_dx[6] = {0, 1, 1, 0, -1, -1};
	static const int corner_dy[6] = {-2, -1, 1, 2, 1, -1};
	for (int h = 0; h < BOARD_HEXES; h++) {
		int cx = 2 * board_hex_q[h] + board_hex_r[h], cy = 3 * board_hex_r[h];
		uint64_t mask = 0;
		for (int k = 0; k < 6; k++) {
			int node = board_hex_nodes[h][k];
			ck_assert_int_eq(board_node_x[node], cx + corner_dx[k]);
			ck_assert_int_eq(board_node_y[node], cy + corner_dy[k]);
			mask |= UINT64_C(1) << node;
			/* Side k joins corners k and k + 1. */
			int edge = board_hex_edges[h][k];
			ck_assert_int_eq(edge, support_edge_between(node, board_hex_nodes[h][(k + 1) % 6]));
			/* The hex across side k is the axial neighbour in that direction. */
			int across = hex_at(board_hex_q[h] + side_dq[k], board_hex_r[h] + side_dr[k]);
			ck_assert_int_eq(board_hex_neighbors[h][k], across);
			if (across >= 0)
				ck_assert(row_contains(board_hex_edges[across], 6, edge));
		}
		ck_assert(mask == board_hex_node_mask[h]);
	}
}
END_TEST

/* BEGINNER.md, rows north to south, west to east. */
static const uint8_t beginner_terrain[BOARD_HEXES] = {
	TERRAIN_MOUNTAINS, TERRAIN_PASTURE,   TERRAIN_FOREST, TERRAIN_FIELDS,	 TERRAIN_HILLS,
	TERRAIN_PASTURE,   TERRAIN_HILLS,     TERRAIN_FIELDS, TERRAIN_FOREST,	 TERRAIN_DESERT,
	TERRAIN_FOREST,	   TERRAIN_MOUNTAINS, TERRAIN_FOREST, TERRAIN_MOUNTAINS, TERRAIN_FIELDS,
	TERRAIN_PASTURE,   TERRAIN_HILLS,     TERRAIN_FIELDS, TERRAIN_PASTURE,
};
static const uint8_t beginner_number[BOARD_HEXES] = {
	10, 2, 9, 12, 6, 4, 10, 9, 11, 0, 3, 8, 8, 3, 4, 5, 5, 6, 11,
};

START_TEST(test_beginner_board_matches_the_printed_board)
{
	struct board_layout layout;
	memset(&layout, 0xee, sizeof layout);
	board_beginner(&layout);
	for (int h = 0; h < BOARD_HEXES; h++) {
		ck_assert_msg(layout.terrain[h] == beginner_terrain[h], "terrain of hex %d", h);
		ck_assert_msg(layout.number[h] == beginner_number[h], "number of hex %d", h);
	}
	ck_assert_int_eq(board_desert(&layout), 9);
	ck_assert(board_layout_valid(&layout));
	ck_assert(!board_red_numbers_adjacent(&layout));
}
END_TEST

START_TEST(test_beginner_harbors_in_slot_order)
{
	/* BEGINNER.md: slot (row, position, side of that hex) and its piece, clockwise from NW. */
	static const int slot_hex_row[BOARD_HARBORS] = {1, 1, 2, 3, 4, 5, 5, 4, 2};
	static const int slot_hex_pos[BOARD_HARBORS] = {1, 2, 4, 5, 4, 2, 1, 1, 1};
	enum { NE, E, SE, SW, W, NW };
	static const int slot_side[BOARD_HARBORS] = {NW, NE, NE, E, SE, SE, SW, W, W};
	static const uint8_t piece[BOARD_HARBORS] = {
		HARBOR_GENERIC,	 RESOURCE_WOOL,	 HARBOR_GENERIC, HARBOR_GENERIC, RESOURCE_BRICK,
		RESOURCE_LUMBER, HARBOR_GENERIC, RESOURCE_GRAIN, RESOURCE_ORE,
	};
	static const int row_start[5] = {0, 3, 7, 12, 16};
	struct board_layout layout;
	board_beginner(&layout);
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		int hex = row_start[slot_hex_row[slot] - 1] + slot_hex_pos[slot] - 1;
		int side = slot_side[slot];
		ck_assert_msg(board_hex_neighbors[hex][side] == -1, "harbor slot %d is not on the coast", slot + 1);
		int a = board_hex_nodes[hex][side], b = board_hex_nodes[hex][(side + 1) % 6];
		int low = a < b ? a : b, high = a < b ? b : a;
		ck_assert_msg(board_harbor_nodes[slot][0] == low && board_harbor_nodes[slot][1] == high,
			      "harbor slot %d nodes", slot + 1);
		ck_assert_msg(layout.harbor[slot] == piece[slot], "harbor piece in slot %d", slot + 1);
	}
}
END_TEST

START_TEST(test_robber_starts_on_the_desert)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	ck_assert_int_eq(game.robber, 9);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		struct game_options options;
		rules_default_options(&options);
		options.layout = GAME_LAYOUT_RANDOM;
		struct rng rng;
		struct event_list events;
		rng_init(&rng, seed, 0);
		ck_assert_int_eq(rules_create(&options, &rng, &events), ERROR_OK);
		memset(&game, 0, sizeof game);
		apply_events(&game, &events);
		ck_assert_int_eq(game.board.terrain[game.robber], TERRAIN_DESERT);
	}
}
END_TEST

START_TEST(test_layout_validity_rejects_wrong_components)
{
	struct board_layout good, bad;
	board_beginner(&good);
	ck_assert(board_layout_valid(&good));

	bad = good; /* a fifth forest instead of a pasture */
	bad.terrain[1] = TERRAIN_FOREST;
	ck_assert(!board_layout_valid(&bad));
	bad = good; /* a number on the desert */
	bad.number[9] = 7;
	ck_assert(!board_layout_valid(&bad));
	bad = good; /* two 2s, no 12 */
	bad.number[3] = 2;
	ck_assert(!board_layout_valid(&bad));
	bad = good; /* five generic harbors */
	bad.harbor[1] = HARBOR_GENERIC;
	ck_assert(!board_layout_valid(&bad));
	bad = good;
	bad.harbor[0] = HARBOR_KIND_COUNT;
	ck_assert(!board_layout_valid(&bad));
	bad = good;
	bad.terrain[0] = TERRAIN_COUNT;
	ck_assert(!board_layout_valid(&bad));
}
END_TEST

START_TEST(test_red_numbers_adjacent_is_detected)
{
	/* Every pair of hexes, alone red on an otherwise plain board: flagged iff adjacent. */
	struct board_layout layout;
	board_beginner(&layout);
	for (int a = 0; a < BOARD_HEXES; a++) {
		for (int b = 0; b < BOARD_HEXES; b++) {
			if (a == b)
				continue;
			memset(layout.number, 5, sizeof layout.number);
			layout.number[a] = 6;
			layout.number[b] = (uint8_t)(b % 2 ? 8 : 6);
			ck_assert_msg(board_red_numbers_adjacent(&layout) == hexes_adjacent(a, b), "hexes %d and %d", a,
				      b);
		}
	}
	/* On the beginner board: moving the 8 of hex 11 beside the 6 of hex 4. */
	board_beginner(&layout);
	layout.number[11] = layout.number[5];
	layout.number[5] = 8;
	ck_assert(board_layout_valid(&layout));
	ck_assert(board_red_numbers_adjacent(&layout));
}
END_TEST

/* The spirals: from each outer corner, counterclockwise around the outer ring, then the
 * inner ring, then the centre; consecutive hexes adjacent. */
START_TEST(test_spirals_run_counterclockwise_from_each_corner)
{
	int corner_used[BOARD_HEXES] = {0};
	for (int k = 0; k < 6; k++) {
		const int8_t *spiral = board_spirals[k];
		int seen[BOARD_HEXES] = {0};
		for (int i = 0; i < BOARD_HEXES; i++) {
			ck_assert(spiral[i] >= 0 && spiral[i] < BOARD_HEXES);
			ck_assert_msg(!seen[spiral[i]], "spiral %d visits hex %d twice", k, spiral[i]);
			seen[spiral[i]] = 1;
			if (i > 0)
				ck_assert_msg(hexes_adjacent(spiral[i - 1], spiral[i]), "spiral %d jumps at %d", k, i);
			int neighbours = land_neighbours(spiral[i]);
			if (i < 12)
				ck_assert_int_lt(neighbours, 6);
			else
				ck_assert_int_eq(neighbours, 6);
		}
		ck_assert_int_eq(land_neighbours(spiral[0]), 3); /* a corner of the outer ring */
		ck_assert_int_eq(spiral[18], hex_at(0, 0));
		corner_used[spiral[0]]++;
		/* Orientation: signed area of the outer ring with y pointing north. */
		long area = 0;
		for (int i = 0; i < 12; i++) {
			int a = spiral[i], b = spiral[(i + 1) % 12];
			long ax = 2 * board_hex_q[a] + board_hex_r[a], ay = -3 * board_hex_r[a];
			long bx = 2 * board_hex_q[b] + board_hex_r[b], by = -3 * board_hex_r[b];
			area += ax * by - bx * ay;
		}
		ck_assert_msg(area > 0, "spiral %d runs clockwise", k);
		for (int i = 12; i < 18; i++) {
			int a = spiral[i], b = spiral[i == 17 ? 12 : i + 1];
			long ax = 2 * board_hex_q[a] + board_hex_r[a], ay = -3 * board_hex_r[a];
			long bx = 2 * board_hex_q[b] + board_hex_r[b], by = -3 * board_hex_r[b];
			area += ax * by - bx * ay;
		}
		ck_assert_msg(area > 0, "spiral %d's inner ring runs clockwise", k);
	}
	int corners = 0;
	for (int h = 0; h < BOARD_HEXES; h++)
		corners += corner_used[h] == 1;
	ck_assert_int_eq(corners, 6);
}
END_TEST

/* Which spiral (0..5) places `layout`'s numbers in token order, or -1. */
static int spiral_of(const struct board_layout *layout)
{
	for (int k = 0; k < 6; k++) {
		int token = 0, match = 1;
		for (int i = 0; i < BOARD_HEXES && match; i++) {
			int hex = board_spirals[k][i];
			if (layout->terrain[hex] == TERRAIN_DESERT)
				match = layout->number[hex] == 0;
			else
				match = layout->number[hex] == board_token_order[token++];
		}
		if (match)
			return k;
	}
	return -1;
}

START_TEST(test_token_order_is_the_lettered_set)
{
	static const uint8_t letters[18] = {5, 2, 6, 3, 8, 10, 9, 12, 11, 4, 8, 10, 9, 4, 5, 6, 3, 11};
	ck_assert(memcmp(board_token_order, letters, sizeof letters) == 0);
}
END_TEST

START_TEST(test_random_spiral_boards_follow_a_spiral)
{
	int spiral_used[6] = {0};
	int desert_on[BOARD_HEXES] = {0};
	int harbor_kind_on[BOARD_HARBORS][HARBOR_KIND_COUNT];
	memset(harbor_kind_on, 0, sizeof harbor_kind_on);
	for (uint64_t seed = 0; seed < 3000; seed++) {
		struct rng rng;
		struct board_layout layout;
		rng_init(&rng, seed, 0);
		board_random(&layout, BOARD_NUMBERS_SPIRAL, &rng);
		ck_assert_msg(board_layout_valid(&layout), "seed %llu: wrong components", (unsigned long long)seed);
		int k = spiral_of(&layout);
		ck_assert_msg(k >= 0, "seed %llu: numbers follow no spiral", (unsigned long long)seed);
		spiral_used[k]++;
		desert_on[board_desert(&layout)]++;
		for (int slot = 0; slot < BOARD_HARBORS; slot++)
			harbor_kind_on[slot][layout.harbor[slot]]++;
	}
	for (int k = 0; k < 6; k++)
		ck_assert_msg(spiral_used[k] > 0, "spiral %d never chosen", k);
	for (int h = 0; h < BOARD_HEXES; h++)
		ck_assert_msg(desert_on[h] > 0, "the desert never lands on hex %d", h);
	for (int slot = 0; slot < BOARD_HARBORS; slot++)
		for (int kind = 0; kind < HARBOR_KIND_COUNT; kind++)
			ck_assert_msg(harbor_kind_on[slot][kind] > 0, "harbor kind %d never in slot %d", kind, slot);
}
END_TEST

START_TEST(test_random_numbers_never_put_red_numbers_side_by_side)
{
	int follows_spiral = 0;
	for (uint64_t seed = 0; seed < 3000; seed++) {
		struct rng rng;
		struct board_layout layout;
		rng_init(&rng, seed, 7);
		board_random(&layout, BOARD_NUMBERS_RANDOM, &rng);
		ck_assert(board_layout_valid(&layout));
		for (int a = 0; a < BOARD_HEXES; a++) {
			if (layout.number[a] != 6 && layout.number[a] != 8)
				continue;
			for (int b = 0; b < BOARD_HEXES; b++)
				ck_assert_msg(!(b != a && hexes_adjacent(a, b) &&
						(layout.number[b] == 6 || layout.number[b] == 8)),
					      "seed %llu: red numbers on adjacent hexes %d and %d",
					      (unsigned long long)seed, a, b);
		}
		follows_spiral += spiral_of(&layout) >= 0;
	}
	/* The random order is not the spiral in disguise. */
	ck_assert_int_lt(follows_spiral, 10);
}
END_TEST

START_TEST(test_same_seed_same_board_different_seed_different_board)
{
	enum { BOARDS = 200 };
	static struct board_layout boards[BOARDS];
	for (int numbers = BOARD_NUMBERS_SPIRAL; numbers <= BOARD_NUMBERS_RANDOM; numbers++) {
		for (int i = 0; i < BOARDS; i++) {
			struct rng rng;
			struct board_layout again;
			rng_init(&rng, (uint64_t)i, 0);
			board_random(&boards[i], (enum board_numbers)numbers, &rng);
			rng_init(&rng, (uint64_t)i, 0);
			board_random(&again, (enum board_numbers)numbers, &rng);
			ck_assert(memcmp(&boards[i], &again, sizeof again) == 0);
		}
		for (int i = 0; i < BOARDS; i++)
			for (int j = i + 1; j < BOARDS; j++)
				ck_assert_msg(memcmp(&boards[i], &boards[j], sizeof boards[i]) != 0, "seeds %d and %d",
					      i, j);
	}
}
END_TEST

START_TEST(test_generated_tables_match_the_generator)
{
	if (system("command -v python3 >/dev/null 2>&1") != 0) {
		fprintf(stderr, "test_board: python3 not found; skipping the tools/gen_board.py comparison\n");
		return;
	}
	ck_assert_msg(access("tools/gen_board.py", R_OK) == 0 && access("engine/board_tables.c", R_OK) == 0,
		      "run the board tests from the repository root");
	int status = system("python3 tools/gen_board.py | cmp -s - engine/board_tables.c");
	ck_assert_msg(status == 0, "engine/board_tables.c differs from tools/gen_board.py output");
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("board");
	TCase *topology = tcase_create("topology");
	tcase_add_test(topology, test_island_has_19_hexes_54_nodes_72_edges_9_harbors);
	tcase_add_test(topology, test_node_neighbours_are_symmetric);
	tcase_add_test(topology, test_every_edge_joins_two_neighbours);
	tcase_add_test(topology, test_every_node_touches_one_to_three_hexes_and_two_to_three_edges);
	tcase_add_test(topology, test_30_coastal_edges);
	tcase_add_test(topology, test_harbor_nodes_are_coastal_and_joined_by_a_coastal_edge);
	tcase_add_test(topology, test_axial_rows_are_3_4_5_4_3_west_to_east);
	tcase_add_test(topology, test_hex_sides_and_corners_agree_with_the_coordinates);
	tcase_add_test(topology, test_spirals_run_counterclockwise_from_each_corner);
	tcase_add_test(topology, test_generated_tables_match_the_generator);
	suite_add_tcase(suite, topology);

	TCase *layouts = tcase_create("layouts");
	tcase_set_timeout(layouts, 60);
	tcase_add_test(layouts, test_beginner_board_matches_the_printed_board);
	tcase_add_test(layouts, test_beginner_harbors_in_slot_order);
	tcase_add_test(layouts, test_robber_starts_on_the_desert);
	tcase_add_test(layouts, test_layout_validity_rejects_wrong_components);
	tcase_add_test(layouts, test_red_numbers_adjacent_is_detected);
	tcase_add_test(layouts, test_token_order_is_the_lettered_set);
	tcase_add_test(layouts, test_random_spiral_boards_follow_a_spiral);
	tcase_add_test(layouts, test_random_numbers_never_put_red_numbers_side_by_side);
	tcase_add_test(layouts, test_same_seed_same_board_different_seed_different_board);
	suite_add_tcase(suite, layouts);
	return suite;
}
