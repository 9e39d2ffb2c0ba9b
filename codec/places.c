/*
 * places.c - the names of places (places.h for the rule).
 *
 * Everything is read from the topology tables of engine/board.h and the projection of
 * engine/geometry.h: a hex's ring from its axial coordinates, its clock hour from the
 * angle of its centre (clockwise from north, y growing southward), a node's compass
 * point from its index among the hex's corners (N, NE, SE, S, SW, NW), an edge's from its
 * index among the hex's sides (NE, E, SE, SW, W, NW). A hex's name is qualified by its
 * place only when another hex of the same board has the same short name, so the common
 * names stay short.
 */
#include "codec/places.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/game.h"
#include "engine/geometry.h"

static const char *const corner_points[6] = {"north", "north-east", "south-east", "south", "south-west", "north-west"};
static const char *const side_points[6] = {"north-east", "east", "south-east", "south-west", "west", "north-west"};

const char *places_resource_word(int resource, int edition)
{
	static const char *const classic[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};
	static const char *const edition_2025[RESOURCE_COUNT] = {"brick", "wood", "wool", "wheat", "ore"};
	if (resource < 0 || resource >= RESOURCE_COUNT)
		return NULL;
	return edition == GAME_EDITION_2025 ? edition_2025[resource] : classic[resource];
}

/* "ore 8" or "the desert": the hex without its place. */
static void short_name(const struct board_layout *board, int edition, int hex, char *out, size_t size)
{
	int terrain = board->terrain[hex];
	if (terrain >= RESOURCE_COUNT)
		snprintf(out, size, "the desert");
	else
		snprintf(out, size, "%s %d", places_resource_word(terrain, edition), board->number[hex]);
}

static int shares_short_name(const struct board_layout *board, int hex)
{
	for (int other = 0; other < BOARD_HEXES; other++)
		if (other != hex && board->terrain[other] == board->terrain[hex] &&
		    (board->terrain[hex] >= RESOURCE_COUNT || board->number[other] == board->number[hex]))
			return 1;
	return 0;
}

static int ring_of(int hex)
{
	int q = board_hex_q[hex], r = board_hex_r[hex], s = -q - r;
	int ring = q < 0 ? -q : q;
	if ((r < 0 ? -r : r) > ring)
		ring = r < 0 ? -r : r;
	if ((s < 0 ? -s : s) > ring)
		ring = s < 0 ? -s : s;
	return ring;
}

/* The hour (1..12) of the hex's centre on a clock face laid over the island. */
static int clock_hour(int hex)
{
	struct geometry_point centre = geometry_hex_centre(hex);
	double angle = atan2(centre.x, -centre.y); /* clockwise from north */
	long hour = lround(angle / (acos(-1.0) / 6.0));
	hour = ((hour % 12) + 12) % 12;
	return hour == 0 ? 12 : (int)hour;
}

/* The hex as named inside other names: its short name, with its place when shared. */
static void hex_part(const struct board_layout *board, int edition, int hex, char *out, size_t size)
{
	char base[64];
	short_name(board, edition, hex, base, sizeof base);
	if (!shares_short_name(board, hex)) {
		snprintf(out, size, "%s", base);
		return;
	}
	int ring = ring_of(hex);
	if (ring == 0)
		snprintf(out, size, "%s in the middle", base);
	else
		snprintf(out, size, "%s at %d o'clock %s", base, clock_hour(hex),
			 ring == 2 ? "on the coast" : "inland");
}

void places_hex(const struct board_layout *board, int edition, int hex, char *out, size_t size)
{
	if (size == 0)
		return;
	out[0] = '\0';
	if (hex < 0 || hex >= BOARD_HEXES)
		return;
	char part[96];
	hex_part(board, edition, hex, part, sizeof part);
	snprintf(out, size, "%s%s", strncmp(part, "the ", 4) == 0 ? "" : "the ", part);
}

/* The land hex both nodes of harbor slot `slot` touch (the coast side it lies off). */
static int harbor_hex(int slot)
{
	int a = board_harbor_nodes[slot][0], b = board_harbor_nodes[slot][1];
	for (int i = 0; i < 3; i++) {
		int hex = board_node_hexes[a][i];
		if (hex < 0)
			continue;
		for (int k = 0; k < 3; k++)
			if (board_node_hexes[b][k] == hex)
				return hex;
	}
	return -1;
}

void places_harbor(const struct board_layout *board, int edition, int slot, char *out, size_t size)
{
	if (size == 0)
		return;
	out[0] = '\0';
	if (slot < 0 || slot >= BOARD_HARBORS)
		return;
	int kind = board->harbor[slot];
	if (kind < RESOURCE_COUNT) {
		snprintf(out, size, "the 2:1 %s harbor", places_resource_word(kind, edition));
		return;
	}
	char part[96] = "the sea";
	int hex = harbor_hex(slot);
	if (hex >= 0)
		hex_part(board, edition, hex, part, sizeof part);
	snprintf(out, size, "the 3:1 harbor by %s", part);
}

/* The node's hexes in id order, and how many (1..3). */
static int node_hexes(int node, int hexes[3])
{
	int count = 0;
	for (int i = 0; i < 3; i++)
		if (board_node_hexes[node][i] >= 0)
			hexes[count++] = board_node_hexes[node][i];
	for (int i = 1; i < count; i++)
		for (int k = i; k > 0 && hexes[k - 1] > hexes[k]; k--) {
			int swap = hexes[k];
			hexes[k] = hexes[k - 1];
			hexes[k - 1] = swap;
		}
	return count;
}

void places_node(const struct board_layout *board, int edition, int node, char *out, size_t size)
{
	if (size == 0)
		return;
	out[0] = '\0';
	if (node < 0 || node >= BOARD_NODES)
		return;
	int hexes[3];
	int count = node_hexes(node, hexes);
	char parts[3][96];
	for (int i = 0; i < count; i++)
		hex_part(board, edition, hexes[i], parts[i], sizeof parts[i]);
	char name[PLACES_NAME_SIZE * 2];
	if (count == 3) {
		snprintf(name, sizeof name, "the corner of %s, %s and %s", parts[0], parts[1], parts[2]);
	} else if (count == 2) {
		snprintf(name, sizeof name, "the corner of %s, %s and the coast", parts[0], parts[1]);
	} else {
		const char *point = "";
		for (int k = 0; k < 6; k++)
			if (board_hex_nodes[hexes[0]][k] == node)
				point = corner_points[k];
		snprintf(name, sizeof name, "the %s corner of %s, on the coast", point, parts[0]);
	}
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		if (board_harbor_nodes[slot][0] != node && board_harbor_nodes[slot][1] != node)
			continue;
		char harbor[PLACES_NAME_SIZE];
		places_harbor(board, edition, slot, harbor, sizeof harbor);
		size_t used = strlen(name);
		snprintf(name + used, sizeof name - used, ", at %s", harbor);
	}
	snprintf(out, size, "%s", name);
}

void places_edge(const struct board_layout *board, int edition, int edge, char *out, size_t size)
{
	if (size == 0)
		return;
	out[0] = '\0';
	if (edge < 0 || edge >= BOARD_EDGES)
		return;
	int hexes[2], sides[2], count = 0;
	for (int hex = 0; hex < BOARD_HEXES && count < 2; hex++)
		for (int k = 0; k < 6; k++)
			if (board_hex_edges[hex][k] == edge) {
				hexes[count] = hex;
				sides[count] = k;
				count++;
				break;
			}
	if (count == 0)
		return;
	char first[96], second[96];
	hex_part(board, edition, hexes[0], first, sizeof first);
	if (count == 2) {
		hex_part(board, edition, hexes[1], second, sizeof second);
		snprintf(out, size, "the path between %s and %s", first, second);
	} else {
		snprintf(out, size, "the path on the %s coast of %s", side_points[sides[0]], first);
	}
}
