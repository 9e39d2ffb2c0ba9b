/*
 * geometry.c - the board projection of geometry.h, computed from the topology tables.
 *
 * board_tables.c places nodes on an integer grid where a hex is 2 units wide and its
 * corners sit at y offsets -2, -1, 1, 2 from its centre row; scaling x by sqrt(3)/2 and y by
 * 1/2 turns that grid into true pointy-top hexes of circumradius 1. Hex centres follow from
 * the axial coordinates, (2q + r, 3r) on the grid. A harbor's coast side is side k of the
 * one land hex holding both its nodes; the outward normal of side k of a pointy-top hex
 * points at 60k - 60 degrees (NE, E, SE, SW, W, NW), and the middle of that side lies one
 * apothem from the centre, so the anchor is the centre plus (apothem + offset) along the
 * normal. Everything here needs only multiplication: no libm.
 */
#include "geometry.h"

#include <stddef.h>

#include "board.h"

/* cos and sin of the six side normals, 60k - 60 degrees for side k. */
static const double normal_x[6] = {0.5, 1.0, 0.5, -0.5, -1.0, -0.5};
static const double normal_y[6] = {-GEOMETRY_APOTHEM, 0.0, GEOMETRY_APOTHEM, GEOMETRY_APOTHEM, 0.0, -GEOMETRY_APOTHEM};

struct geometry_point geometry_node_point(int node)
{
	struct geometry_point point = {board_node_x[node] * GEOMETRY_APOTHEM, board_node_y[node] * 0.5};
	return point;
}

struct geometry_point geometry_hex_centre(int hex)
{
	int q = board_hex_q[hex], r = board_hex_r[hex];
	struct geometry_point point = {(2 * q + r) * GEOMETRY_APOTHEM, 3 * r * 0.5};
	return point;
}

void geometry_hex_corners(int hex, int corners[6])
{
	/* board_hex_nodes lists N, NE, SE, S, SW, NW: clockwise from north with y southward. */
	for (int k = 0; k < 6; k++)
		corners[k] = board_hex_nodes[hex][k];
}

struct geometry_point geometry_harbor_anchor(int slot, int *facing)
{
	int a = board_harbor_nodes[slot][0], b = board_harbor_nodes[slot][1];
	for (int hex = 0; hex < BOARD_HEXES; hex++)
		for (int k = 0; k < 6; k++) {
			int from = board_hex_nodes[hex][k], to = board_hex_nodes[hex][(k + 1) % 6];
			if (!((from == a && to == b) || (from == b && to == a)))
				continue;
			struct geometry_point centre = geometry_hex_centre(hex);
			double reach = GEOMETRY_APOTHEM + GEOMETRY_HARBOR_OFFSET;
			if (facing)
				*facing = (300 + 60 * k) % 360;
			struct geometry_point anchor = {centre.x + reach * normal_x[k], centre.y + reach * normal_y[k]};
			return anchor;
		}
	/* Unreachable: every harbor slot is a side of a coast hex (gen_board.py asserts it). */
	struct geometry_point none = {0.0, 0.0};
	if (facing)
		*facing = 0;
	return none;
}

static void include_point(struct geometry_box *box, double x, double y)
{
	if (x < box->min_x)
		box->min_x = x;
	if (x > box->max_x)
		box->max_x = x;
	if (y < box->min_y)
		box->min_y = y;
	if (y > box->max_y)
		box->max_y = y;
}

struct geometry_box geometry_bounds(void)
{
	struct geometry_box box = {0.0, 0.0, 0.0, 0.0};
	for (int node = 0; node < BOARD_NODES; node++) {
		struct geometry_point point = geometry_node_point(node);
		include_point(&box, point.x, point.y);
	}
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		struct geometry_point anchor = geometry_harbor_anchor(slot, NULL);
		include_point(&box, anchor.x, anchor.y);
	}
	return box;
}
