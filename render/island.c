/*
 * island.c - the island of a picture: hexes with their terrain named, harbors joined to
 * their two intersections, the highlight of the last move, roads (bars), settlements (a
 * house) and cities (a house with a tower, wider), the robber, number tokens with pips, and
 * the id labels asked for. Back to front in that order; every position is a point of the
 * board projection (engine/geometry.h) through canvas_pixel(), and each piece, hex,
 * harbor and label is one named group, the number tokens one group of them all. The words
 * on hexes and harbors are drawn after their layer's shapes, a glyph run per font and
 * colour, outside the groups (island_draw()): in an SVG each run is an element and its own
 * style, and fewer runs are a faster picture.
 */
#include "render/canvas.h"

#include <stdio.h>

#include "engine/board.h"
#include "engine/resource.h"

#include "render/cairo_checked.h" /* last: after every header that declares cairo */

#define TOKEN_RADIUS 0.32
#define HARBOR_RADIUS 0.37

static void hex_path(struct canvas *canvas, int hex)
{
	int corners[6];
	geometry_hex_corners(hex, corners);
	for (int k = 0; k < 6; k++) {
		struct geometry_point p = canvas_pixel(canvas, geometry_node_point(corners[k]));
		if (k == 0)
			cairo_move_to(canvas->cr, p.x, p.y);
		else
			cairo_line_to(canvas->cr, p.x, p.y);
	}
	cairo_close_path(canvas->cr);
}

static const char *const terrain_marks[TERRAIN_COUNT] = {"brick", "lumber", "wool", "grain", "ore", "desert"};
static const char *const terrain_names[TERRAIN_COUNT] = {"hills", "forest", "pasture", "fields", "mountains", "desert"};

static void draw_hexes(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	const struct board_layout *board = &canvas->view->board;
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		int terrain = board->terrain[hex];
		char id[32], classes[48];
		snprintf(id, sizeof id, "hex-%d", hex);
		snprintf(classes, sizeof classes, "hex terrain-%s", terrain_names[terrain]);
		int opened = canvas_group_begin(canvas, id, classes);
		hex_path(canvas, hex);
		canvas_colour(cr, canvas->theme->terrain[terrain]);
		cairo_fill_preserve(cr);
		canvas_colour(cr, canvas->theme->outline);
		cairo_set_line_width(cr, 0.035 * canvas->unit);
		cairo_stroke(cr);
		struct geometry_point centre = geometry_hex_centre(hex);
		struct geometry_point mark = canvas_pixel(canvas, (struct geometry_point){centre.x, centre.y - 0.55});
		canvas_colour(cr, canvas_ink_on(canvas->theme->terrain[terrain]));
		canvas_font(canvas, 0, CANVAS_TEXT * canvas->unit);
		canvas_text_centred(canvas, mark.x, mark.y, terrain_marks[terrain]);
		canvas_group_end(canvas, opened);
	}
}

static const char *harbor_word(int kind)
{
	return kind == HARBOR_GENERIC ? "any" : terrain_marks[kind];
}

static void draw_harbors(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	/* the lines joining harbors to their intersections: one path for all nine, outside the
	 * harbors' groups (an element less for each); each ends under its own harbor's disc */
	canvas_group_settle(canvas);
	cairo_new_path(cr);
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		struct geometry_point anchor = canvas_pixel(canvas, geometry_harbor_anchor(slot, NULL));
		struct geometry_point a = canvas_pixel(canvas, geometry_node_point(board_harbor_nodes[slot][0]));
		struct geometry_point b = canvas_pixel(canvas, geometry_node_point(board_harbor_nodes[slot][1]));
		cairo_move_to(cr, a.x, a.y);
		cairo_line_to(cr, anchor.x, anchor.y);
		cairo_line_to(cr, b.x, b.y);
	}
	canvas_colour(cr, canvas->theme->harbor_line);
	cairo_set_line_width(cr, 0.07 * canvas->unit);
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	cairo_stroke(cr);
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		int kind = canvas->view->board.harbor[slot];
		char id[32], classes[48];
		snprintf(id, sizeof id, "harbor-%d", slot);
		snprintf(classes, sizeof classes, "harbor harbor-%s",
			 kind == HARBOR_GENERIC ? "generic" : resource_name(kind));
		int opened = canvas_group_begin(canvas, id, classes);
		struct geometry_point anchor = canvas_pixel(canvas, geometry_harbor_anchor(slot, NULL));
		uint32_t fill = kind == HARBOR_GENERIC ? 0xFFFFFF : canvas->theme->terrain[kind];
		/* a disc as a round-capped dot over an outline dot, like the tokens' */
		cairo_new_path(cr);
		cairo_move_to(cr, anchor.x, anchor.y);
		cairo_line_to(cr, anchor.x, anchor.y);
		canvas_colour(cr, canvas->theme->outline);
		cairo_set_line_width(cr, (2 * HARBOR_RADIUS + 0.03) * canvas->unit);
		cairo_stroke_preserve(cr);
		canvas_colour(cr, fill);
		cairo_set_line_width(cr, (2 * HARBOR_RADIUS - 0.03) * canvas->unit);
		cairo_stroke(cr);
		canvas_colour(cr, canvas_ink_on(fill));
		canvas_font(canvas, 1, CANVAS_STRONG * canvas->unit);
		canvas_text_centred(canvas, anchor.x, anchor.y - 0.09 * canvas->unit,
				    kind == HARBOR_GENERIC ? "3:1" : "2:1");
		canvas_font(canvas, 0, CANVAS_TEXT * canvas->unit);
		canvas_text_centred(canvas, anchor.x, anchor.y + 0.15 * canvas->unit, harbor_word(kind));
		canvas_group_end(canvas, opened);
	}
}

static void road_line(struct canvas *canvas, int edge, double shorten)
{
	struct geometry_point a = geometry_node_point(board_edge_nodes[edge][0]);
	struct geometry_point b = geometry_node_point(board_edge_nodes[edge][1]);
	struct geometry_point from = {a.x + (b.x - a.x) * shorten, a.y + (b.y - a.y) * shorten};
	struct geometry_point to = {b.x + (a.x - b.x) * shorten, b.y + (a.y - b.y) * shorten};
	from = canvas_pixel(canvas, from);
	to = canvas_pixel(canvas, to);
	cairo_move_to(canvas->cr, from.x, from.y);
	cairo_line_to(canvas->cr, to.x, to.y);
}

static void draw_highlight(struct canvas *canvas)
{
	const struct render_last_move *last = &canvas->scene->last_move;
	cairo_t *cr = canvas->cr;
	int opened = 0;
	cairo_new_path(cr);
	if ((last->type == EVENT_SETTLEMENT_BUILT || last->type == EVENT_CITY_BUILT) && last->node >= 0 &&
	    last->node < BOARD_NODES) {
		opened = canvas_group_begin(canvas, "highlight", "highlight");
		struct geometry_point at = canvas_pixel(canvas, geometry_node_point(last->node));
		canvas_circle(cr, at.x, at.y, 0.33 * canvas->unit);
	} else if (last->type == EVENT_ROAD_BUILT && last->edge >= 0 && last->edge < BOARD_EDGES) {
		opened = canvas_group_begin(canvas, "highlight", "highlight");
		road_line(canvas, last->edge, 0.12);
		cairo_set_line_width(cr, 0.34 * canvas->unit);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		canvas_colour(cr, canvas->theme->highlight);
		cairo_stroke(cr);
		canvas_group_end(canvas, opened);
		return;
	} else if ((last->type == EVENT_ROBBER_MOVED) && last->hex >= 0 && last->hex < BOARD_HEXES) {
		opened = canvas_group_begin(canvas, "highlight", "highlight");
		struct geometry_point centre = geometry_hex_centre(last->hex);
		struct geometry_point at = canvas_pixel(
			canvas, (struct geometry_point){centre.x + RENDER_ROBBER_X, centre.y + RENDER_ROBBER_Y - 0.05});
		canvas_circle(cr, at.x, at.y, 0.3 * canvas->unit);
	} else {
		return;
	}
	canvas_colour(cr, canvas->theme->highlight);
	cairo_fill(cr);
	canvas_group_end(canvas, opened);
}

/* A piece of seat owner - 1: the polygon of `count` projection points, filled with the
 * seat's colour and outlined. */
static void draw_piece(struct canvas *canvas, const struct geometry_point *points, int count, int owner)
{
	cairo_t *cr = canvas->cr;
	for (int k = 0; k < count; k++) {
		struct geometry_point p = canvas_pixel(canvas, points[k]);
		if (k == 0)
			cairo_move_to(cr, p.x, p.y);
		else
			cairo_line_to(cr, p.x, p.y);
	}
	cairo_close_path(cr);
	canvas_colour(cr, canvas_seat_colours[owner - 1]);
	cairo_fill_preserve(cr);
	canvas_colour(cr, canvas->theme->outline);
	cairo_set_line_width(cr, 0.035 * canvas->unit);
	cairo_stroke(cr);
}

static void draw_roads(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	for (int edge = 0; edge < BOARD_EDGES; edge++) {
		int owner = canvas->view->edge_owner[edge];
		if (!owner)
			continue;
		char id[32], classes[48];
		snprintf(id, sizeof id, "road-%d", edge);
		snprintf(classes, sizeof classes, "piece road seat-%d", owner - 1);
		int opened = canvas_group_begin(canvas, id, classes);
		/* a road piece: a bar along the edge, filled and outlined in one path */
		struct geometry_point a = geometry_node_point(board_edge_nodes[edge][0]);
		struct geometry_point b = geometry_node_point(board_edge_nodes[edge][1]);
		double dx = b.x - a.x, dy = b.y - a.y; /* length 1: an edge is a hex side */
		const double inset = 0.17, half = 0.075;
		struct geometry_point corners[4] = {
			{a.x + dx * inset - dy * half, a.y + dy * inset + dx * half},
			{b.x - dx * inset - dy * half, b.y - dy * inset + dx * half},
			{b.x - dx * inset + dy * half, b.y - dy * inset - dx * half},
			{a.x + dx * inset + dy * half, a.y + dy * inset - dx * half},
		};
		draw_piece(canvas, corners, 4, owner);
		canvas_group_end(canvas, opened);
	}
}

/* A settlement: a house. A city: a tower and a hall, wider. (x, y) in projection units
 * from the node; (0, 0) is inside both. */
const double canvas_settlement_shape[5][2] = {{-0.14, 0.13}, {-0.14, -0.04}, {0, -0.17}, {0.14, -0.04}, {0.14, 0.13}};
static const double city_shape[][2] = {{-0.23, 0.16},  {-0.23, -0.09}, {-0.13, -0.2}, {-0.03, -0.09},
				       {-0.03, -0.03}, {0.23, -0.03},  {0.23, 0.16}};

static void draw_buildings(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	for (int node = 0; node < BOARD_NODES; node++) {
		int owner = canvas->view->node_owner[node];
		if (!owner)
			continue;
		int city = canvas->view->node_building[node] == BUILDING_CITY;
		char id[32], classes[48];
		snprintf(id, sizeof id, "%s-%d", city ? "city" : "settlement", node);
		snprintf(classes, sizeof classes, "piece %s seat-%d", city ? "city" : "settlement", owner - 1);
		int opened = canvas_group_begin(canvas, id, classes);
		const double(*shape)[2] = city ? city_shape : canvas_settlement_shape;
		int points = city ? (int)(sizeof city_shape / sizeof city_shape[0])
				  : (int)(sizeof canvas_settlement_shape / sizeof canvas_settlement_shape[0]);
		struct geometry_point at = geometry_node_point(node), corners[8];
		for (int i = 0; i < points; i++)
			corners[i] = (struct geometry_point){at.x + shape[i][0], at.y + shape[i][1]};
		draw_piece(canvas, corners, points, owner);
		canvas_group_end(canvas, opened);
	}
}

static void draw_robber(struct canvas *canvas)
{
	int hex = canvas->view->robber;
	if (hex < 0 || hex >= BOARD_HEXES)
		return;
	cairo_t *cr = canvas->cr;
	int opened = canvas_group_begin(canvas, "robber", "robber");
	cairo_new_path(cr);
	struct geometry_point centre = geometry_hex_centre(hex);
	struct geometry_point body =
		canvas_pixel(canvas, (struct geometry_point){centre.x + RENDER_ROBBER_X, centre.y + RENDER_ROBBER_Y});
	double u = canvas->unit;
	cairo_save(cr);
	cairo_translate(cr, body.x, body.y);
	cairo_scale(cr, 0.13 * u, 0.17 * u);
	canvas_circle(cr, 0, 0, 1);
	cairo_restore(cr);
	cairo_new_sub_path(cr);
	canvas_circle(cr, body.x, body.y - 0.2 * u, 0.085 * u);
	cairo_new_sub_path(cr);
	cairo_rectangle(cr, body.x - 0.15 * u, body.y + 0.1 * u, 0.3 * u, 0.08 * u);
	canvas_colour(cr, canvas->theme->robber);
	cairo_fill_preserve(cr);
	canvas_colour(cr, 0xD0D0D0);
	cairo_set_line_width(cr, 0.02 * u);
	cairo_stroke(cr);
	canvas_group_end(canvas, opened);
}

/* The number tokens: one group and one path of discs (an SVG element for each token would
 * cost its own style and drawing call), then the numbers and pips, a glyph run per font
 * and colour. */
static void draw_tokens(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	double u = canvas->unit;
	int opened = canvas_group_begin(canvas, "tokens", "tokens");
	/* Each disc is a dot: a zero-length line with round caps as wide as the disc (an
	 * outline dot, then the token's colour over it), four numbers in an SVG where a circle
	 * takes twenty-six. SVG strokes a zero-length subpath with round caps as a circle, and so
	 * does cairo. */
	cairo_new_path(cr);
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		if (!canvas->view->board.number[hex])
			continue;
		struct geometry_point at = canvas_pixel(canvas, geometry_hex_centre(hex));
		cairo_move_to(cr, at.x, at.y);
		cairo_line_to(cr, at.x, at.y);
	}
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	canvas_colour(cr, canvas->theme->outline);
	cairo_set_line_width(cr, (2 * TOKEN_RADIUS + 0.025) * u);
	cairo_stroke_preserve(cr);
	canvas_colour(cr, canvas->theme->token);
	cairo_set_line_width(cr, (2 * TOKEN_RADIUS - 0.025) * u);
	cairo_stroke(cr);
	canvas_batch_begin(canvas);
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		int number = canvas->view->board.number[hex];
		if (!number)
			continue;
		char text[16];
		struct geometry_point at = canvas_pixel(canvas, geometry_hex_centre(hex));
		uint32_t ink = number == 6 || number == 8 ? canvas->theme->red : canvas->theme->token_text;
		canvas_colour(cr, ink);
		canvas_font(canvas, 1, CANVAS_STRONG * u);
		snprintf(text, sizeof text, "%d", number);
		canvas_text_centred(canvas, at.x, at.y - 0.05 * u, text);
		/* the pips as bullets of the same font: glyph uses, not five circles each */
		static const char *const pips[6] = {"",
						    "\u2022",
						    "\u2022\u2022",
						    "\u2022\u2022\u2022",
						    "\u2022\u2022\u2022\u2022",
						    "\u2022\u2022\u2022\u2022\u2022"};
		int dots = 6 - (number > 7 ? number - 7 : 7 - number);
		canvas_font(canvas, 0, CANVAS_TEXT * u);
		canvas_text_centred(canvas, at.x, at.y + 0.16 * u, pips[dots]);
	}
	canvas_batch_flush(canvas);
	canvas_group_end(canvas, opened);
}

/* A small id label: a disc (nodes) or a rounded box (edges) with the id. */
static void draw_label(struct canvas *canvas, struct geometry_point at, int id_number, int disc)
{
	cairo_t *cr = canvas->cr;
	double u = canvas->unit;
	char text[16];
	snprintf(text, sizeof text, "%d", id_number);
	cairo_new_path(cr);
	if (disc) {
		canvas_circle(cr, at.x, at.y, 0.12 * u);
	} else {
		double w = 0.2 * u, h = 0.15 * u;
		cairo_rectangle(cr, at.x - w / 2, at.y - h / 2, w, h);
	}
	canvas_colour(cr, disc ? 0x1F1F1F : 0xFFFFFF);
	cairo_fill_preserve(cr);
	canvas_colour(cr, 0x1F1F1F);
	cairo_set_line_width(cr, 0.015 * u);
	cairo_stroke(cr);
	canvas_colour(cr, disc ? 0xFFFFFF : 0x1F1F1F);
	canvas_text_centred(canvas, at.x, at.y, text);
}

static void draw_labels(struct canvas *canvas)
{
	char id[32];
	if (canvas->options->labels & RENDER_LABEL_HEXES) {
		canvas_font(canvas, 1, 0.16 * canvas->unit);
		for (int hex = 0; hex < BOARD_HEXES; hex++) {
			canvas_colour(canvas->cr,
				      canvas_ink_on(canvas->theme->terrain[canvas->view->board.terrain[hex]]));
			snprintf(id, sizeof id, "label-hex-%d", hex);
			int opened = canvas_group_begin(canvas, id, "label label-hex");
			char text[16];
			snprintf(text, sizeof text, "#%d", hex);
			struct geometry_point centre = geometry_hex_centre(hex);
			struct geometry_point at =
				canvas_pixel(canvas, (struct geometry_point){centre.x, centre.y + 0.58});
			canvas_text_centred(canvas, at.x, at.y, text);
			canvas_group_end(canvas, opened);
		}
	}
	if (canvas->options->labels & RENDER_LABEL_EDGES) {
		canvas_font(canvas, 0, 0.11 * canvas->unit);
		for (int edge = 0; edge < BOARD_EDGES; edge++) {
			struct geometry_point a = geometry_node_point(board_edge_nodes[edge][0]);
			struct geometry_point b = geometry_node_point(board_edge_nodes[edge][1]);
			snprintf(id, sizeof id, "label-edge-%d", edge);
			int opened = canvas_group_begin(canvas, id, "label label-edge");
			draw_label(canvas,
				   canvas_pixel(canvas, (struct geometry_point){(a.x + b.x) / 2, (a.y + b.y) / 2}),
				   edge, 0);
			canvas_group_end(canvas, opened);
		}
	}
	if (canvas->options->labels & RENDER_LABEL_NODES) {
		canvas_font(canvas, 1, 0.11 * canvas->unit);
		for (int node = 0; node < BOARD_NODES; node++) {
			snprintf(id, sizeof id, "label-node-%d", node);
			int opened = canvas_group_begin(canvas, id, "label label-node");
			draw_label(canvas, canvas_pixel(canvas, geometry_node_point(node)), node, 1);
			canvas_group_end(canvas, opened);
		}
	}
}

void island_draw(struct canvas *canvas)
{
	/* The text of hexes and harbors goes in batches (canvas_batch_begin()), a glyph
	 * run for each font and colour rather than one for each hex and harbor: on top
	 * of its layer, outside the layer's groups. Labels stay in their groups. */
	canvas_batch_begin(canvas);
	draw_hexes(canvas);
	canvas_batch_flush(canvas);
	canvas_batch_begin(canvas);
	draw_harbors(canvas);
	canvas_batch_flush(canvas);
	draw_highlight(canvas);
	draw_roads(canvas);
	draw_buildings(canvas);
	draw_robber(canvas);
	draw_tokens(canvas);
	draw_labels(canvas);
}
