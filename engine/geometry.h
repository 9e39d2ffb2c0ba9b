/*
 * geometry.h - the board projection: where every hex, intersection and harbor of the fixed
 * island lies in a plane with equal units on both axes.
 *
 * One projection is shared by everything that draws the island (the board JSON of GET
 * /v1/games/{id}/board, the server's board pictures, every web client): pointy-top hexes
 * of circumradius 1, y growing southward, origin at the centre of the middle hex. A node
 * at grid position (x, y) of board_tables.c lies at (x * sqrt(3)/2, y / 2). Pure functions
 * of the topology tables: no state, nothing to free.
 */
#ifndef CATAN_ENGINE_GEOMETRY_H
#define CATAN_ENGINE_GEOMETRY_H

/* sqrt(3)/2: the apothem of a hex of circumradius 1, and the x unit of the node grid. */
#define GEOMETRY_APOTHEM 0.86602540378443864676

/* How far out to sea a harbor's anchor lies from the middle of its coast side. */
#define GEOMETRY_HARBOR_OFFSET 0.75

struct geometry_point {
	double x;
	double y;
};

/* The bounding box of every hex and every harbor anchor. */
struct geometry_box {
	double min_x;
	double min_y;
	double max_x;
	double max_y;
};

/* Intersection `node` (0..53). */
struct geometry_point geometry_node_point(int node);

/* The centre of hex `hex` (0..18). */
struct geometry_point geometry_hex_centre(int hex);

/* The six corner nodes of `hex`, clockwise (y southward) from the north corner, into
 * corners[0..5]. */
void geometry_hex_corners(int hex, int corners[6]);

/* The anchor of harbor `slot` (0..8): GEOMETRY_HARBOR_OFFSET out to sea from the midpoint of
 * its two nodes along the outward normal of that coast side. *facing (when not NULL) gets
 * the direction from the coast to the sea in whole degrees, 0 east, 90 south (clockwise
 * with y southward), 0..359 and a multiple of 60. */
struct geometry_point geometry_harbor_anchor(int slot, int *facing);

/* The bounding box of the 19 hexes (corners included) and the 9 harbor anchors. */
struct geometry_box geometry_bounds(void);

#endif
