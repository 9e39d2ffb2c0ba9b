/*
 * render.c - drawing a spectator's view of a game with cairo (see render.h).
 *
 * One drawing path: render_board() makes either an SVG surface writing into a memory
 * buffer or an ARGB image surface, and draw_picture() draws on whichever it was given.
 * The only difference is the SVG's element names (render/marks.h), whose markers are drawn
 * only on the SVG surface. PNG bytes come from cairo_surface_write_to_png_stream(); text is
 * cairo's toy font API with "DejaVu Sans" found through fontconfig.
 *
 * Drawing order, back to front: background and sea; hexes (terrain fill, mark, hex label),
 * harbors (a disc at the anchor joined to its two nodes), the highlight of the last move,
 * roads, buildings, the robber, number tokens; node and edge labels; the side panel. Every
 * position on the island is a point of the board projection (engine/geometry.h) through
 * render_to_pixels(), so a client's drawing from GET /board lines up with ours.
 *
 * Pictures are deterministic: the same scene and options give the same bytes (cairo writes
 * no dates), which is what lets the server tag a picture by (version, options).
 *
 * Colours: seats use the Okabe-Ito colour-blind-safe palette (blue, vermillion, reddish
 * purple, orange) and settlements and cities differ in shape as well (a house; a house with
 * a tower, wider), so nothing depends on telling colours apart.
 */
#include "render/render.h"

#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/board.h"
#include "engine/resource.h"
#include "render/marks.h"

#define PI 3.14159265358979323846
#define NAME_SIZE 168 /* a seat name: 40 characters of UTF-8, and more */

/* ---- colours ---- */

struct theme {
	uint32_t background, sea, panel, text, muted, outline, token, token_text, red, harbor_line, highlight;
	uint32_t robber;
	uint32_t terrain[TERRAIN_COUNT];
};

static const struct theme themes[2] = {
        [RENDER_THEME_LIGHT] = {0xF7F4EC, 0x7FB6D9, 0xF7F4EC, 0x1F1F1F, 0x5A5A5A, 0x222222, 0xF6EBCB, 0x1F1F1F,
                                0xC0261F, 0x8A6A4F, 0xFFD400, 0x2B2B2B,
                                {0xB5653A, 0x2E7D32, 0x9CCC65, 0xEBC553, 0x8D9096, 0xE3D2A2}},
        [RENDER_THEME_DARK] = {0x15191F, 0x1F4B6E, 0x15191F, 0xECECEC, 0xA8A8A8, 0x0A0A0A, 0xE4D8B4, 0x1F1F1F,
                               0xC0261F, 0xB89B7F, 0xFFD400, 0x111111,
                               {0x94502D, 0x23612A, 0x7DA651, 0xC4A13F, 0x6E7177, 0xBFAE80}},
};

/* Okabe-Ito: blue, vermillion, reddish purple, orange. */
static const uint32_t seat_colours[GAME_MAX_SEATS] = {0x0072B2, 0xD55E00, 0xCC79A7, 0xE69F00};

uint32_t render_terrain_colour(enum render_theme theme, int terrain)
{
	return themes[theme == RENDER_THEME_DARK].terrain[terrain];
}

uint32_t render_seat_colour(int seat)
{
	return seat_colours[seat];
}

uint32_t render_robber_colour(enum render_theme theme)
{
	return themes[theme == RENDER_THEME_DARK].robber;
}

static void set_colour(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0, (rgb & 0xFF) / 255.0);
}

/* White or near-black, whichever reads on `rgb`. */
static uint32_t ink_on(uint32_t rgb)
{
	double luminance = 0.299 * ((rgb >> 16) & 0xFF) + 0.587 * ((rgb >> 8) & 0xFF) + 0.114 * (rgb & 0xFF);
	return luminance < 140 ? 0xFFFFFF : 0x1F1F1F;
}

/* ---- the frame ---- */

/* Margin around the projection's box, in projection units: room for the harbor discs. */
#define ISLAND_MARGIN 0.45

void render_layout(const struct render_options *options, struct render_layout *out)
{
	out->width = options->size;
	out->height = RENDER_HEIGHT(options->size);
	struct geometry_box box = geometry_bounds();
	double width = box.max_x - box.min_x + 2 * ISLAND_MARGIN, height = box.max_y - box.min_y + 2 * ISLAND_MARGIN;
	double square = out->height;
	double scale_x = square / width, scale_y = square / height;
	out->scale = scale_x < scale_y ? scale_x : scale_y;
	out->origin_x = square / 2 - out->scale * (box.min_x + box.max_x) / 2;
	out->origin_y = square / 2 - out->scale * (box.min_y + box.max_y) / 2;
}

struct geometry_point render_to_pixels(const struct render_layout *layout, struct geometry_point point)
{
	struct geometry_point pixel = {layout->origin_x + layout->scale * point.x,
	                               layout->origin_y + layout->scale * point.y};
	return pixel;
}

/* ---- options ---- */

int render_labels_parse(const char *text, unsigned *out)
{
	static const char *const words[3] = {"nodes", "edges", "hexes"};
	unsigned labels = 0;
	const char *at = text;
	while (*at) {
		const char *comma = strchr(at, ',');
		size_t length = comma ? (size_t)(comma - at) : strlen(at);
		int found = -1;
		for (int i = 0; i < 3; i++)
			if (strlen(words[i]) == length && strncmp(at, words[i], length) == 0)
				found = i;
		if (found < 0 || (labels >> found & 1u))
			return 0;
		labels |= 1u << found;
		if (!comma)
			break;
		at = comma + 1;
		if (!*at)
			return 0; /* a trailing comma */
	}
	*out = labels;
	return 1;
}

int render_theme_parse(const char *text, enum render_theme *out)
{
	if (strcmp(text, "light") == 0)
		*out = RENDER_THEME_LIGHT;
	else if (strcmp(text, "dark") == 0)
		*out = RENDER_THEME_DARK;
	else
		return 0;
	return 1;
}

/* ---- the last move ---- */

static int is_consequence(int type)
{
	return type == EVENT_RESOURCES_PRODUCED || type == EVENT_RESOURCE_STOLEN || type == EVENT_LONGEST_ROAD_CHANGED ||
	       type == EVENT_LARGEST_ARMY_CHANGED || type == EVENT_GAME_WON;
}

void render_last_move_of(const struct event *events, int count, struct render_last_move *out)
{
	out->type = -1;
	out->seat = out->node = out->edge = out->hex = -1;
	out->dice[0] = out->dice[1] = 0;
	for (int i = count - 1; i >= 0; i--) {
		const struct event *event = &events[i];
		if (is_consequence(event->type))
			continue;
		out->type = event->type;
		out->seat = event->seat;
		out->node = event->node;
		out->edge = event->edge;
		out->hex = event->hex;
		out->dice[0] = event->dice[0];
		out->dice[1] = event->dice[1];
		return;
	}
}

/* ---- drawing ---- */

struct canvas {
	cairo_t *cr;
	const struct render_scene *scene;
	const struct game_view *view;
	const struct render_options *options;
	const struct theme *theme;
	struct render_layout layout;
	double unit;          /* pixels per projection unit */
	double pt;            /* pixels per panel point: the panel is laid out for a 640 px height */
	struct marks *marks;  /* NULL on the PNG surface */
};

static struct geometry_point pixel_of(const struct canvas *canvas, struct geometry_point point)
{
	return render_to_pixels(&canvas->layout, point);
}

static int group_begin(struct canvas *canvas, const char *id, const char *classes)
{
	return marks_begin(canvas->marks, canvas->cr, id, classes);
}

static void group_end(struct canvas *canvas, int opened)
{
	if (opened)
		marks_end(canvas->cr);
}

/* Two fonts for everything a default picture shows, both sized in projection units (the
 * panel too): in an SVG each face and size is a separate set of glyph outlines, and those
 * outlines are most of the document and of the time it takes to write. Labels, drawn only
 * when asked, add their own small sizes. */
#define TEXT 0.19   /* normal: terrain marks, harbor resources, pips, the panel's lines */
#define STRONG 0.26 /* bold: numbers, harbor rates, names, points, headings */
#define TOKEN_RADIUS 0.32
#define HARBOR_RADIUS 0.37

static void font(struct canvas *canvas, int bold, double pixels)
{
	cairo_select_font_face(canvas->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
	                       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(canvas->cr, pixels);
}

/* Text centred on (x, y) in the current font. */
static void text_centred(struct canvas *canvas, double x, double y, const char *text)
{
	cairo_text_extents_t extents;
	cairo_text_extents(canvas->cr, text, &extents);
	cairo_move_to(canvas->cr, x - extents.width / 2 - extents.x_bearing, y - extents.height / 2 - extents.y_bearing);
	cairo_show_text(canvas->cr, text);
}

/* Text starting at (x, baseline); returns its advance. */
static double text_at(struct canvas *canvas, double x, double baseline, const char *text)
{
	cairo_text_extents_t extents;
	cairo_text_extents(canvas->cr, text, &extents);
	cairo_move_to(canvas->cr, x, baseline);
	cairo_show_text(canvas->cr, text);
	return extents.x_advance;
}

static void hex_path(struct canvas *canvas, int hex)
{
	int corners[6];
	geometry_hex_corners(hex, corners);
	for (int k = 0; k < 6; k++) {
		struct geometry_point p = pixel_of(canvas, geometry_node_point(corners[k]));
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
		int opened = group_begin(canvas, id, classes);
		hex_path(canvas, hex);
		set_colour(cr, canvas->theme->terrain[terrain]);
		cairo_fill_preserve(cr);
		set_colour(cr, canvas->theme->outline);
		cairo_set_line_width(cr, 0.035 * canvas->unit);
		cairo_stroke(cr);
		struct geometry_point centre = geometry_hex_centre(hex);
		struct geometry_point mark = pixel_of(canvas, (struct geometry_point){centre.x, centre.y - 0.55});
		set_colour(cr, ink_on(canvas->theme->terrain[terrain]));
		font(canvas, 0, TEXT * canvas->unit);
		text_centred(canvas, mark.x, mark.y, terrain_marks[terrain]);
		group_end(canvas, opened);
		if (canvas->options->labels & RENDER_LABEL_HEXES) {
			snprintf(id, sizeof id, "label-hex-%d", hex);
			opened = group_begin(canvas, id, "label label-hex");
			char text[16];
			snprintf(text, sizeof text, "#%d", hex);
			struct geometry_point at = pixel_of(canvas, (struct geometry_point){centre.x, centre.y + 0.58});
			font(canvas, 1, 0.16 * canvas->unit);
			text_centred(canvas, at.x, at.y, text);
			group_end(canvas, opened);
		}
	}
}

static const char *harbor_word(int kind)
{
	return kind == HARBOR_GENERIC ? "any" : terrain_marks[kind];
}

static void draw_harbors(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	for (int slot = 0; slot < BOARD_HARBORS; slot++) {
		int kind = canvas->view->board.harbor[slot];
		char id[32], classes[48];
		snprintf(id, sizeof id, "harbor-%d", slot);
		snprintf(classes, sizeof classes, "harbor harbor-%s", kind == HARBOR_GENERIC ? "generic" : resource_name(kind));
		int opened = group_begin(canvas, id, classes);
		struct geometry_point anchor = pixel_of(canvas, geometry_harbor_anchor(slot, NULL));
		set_colour(cr, canvas->theme->harbor_line);
		cairo_set_line_width(cr, 0.07 * canvas->unit);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		/* one path from node to anchor to node: one element, not two */
		struct geometry_point a = pixel_of(canvas, geometry_node_point(board_harbor_nodes[slot][0]));
		struct geometry_point b = pixel_of(canvas, geometry_node_point(board_harbor_nodes[slot][1]));
		cairo_move_to(cr, a.x, a.y);
		cairo_line_to(cr, anchor.x, anchor.y);
		cairo_line_to(cr, b.x, b.y);
		cairo_stroke(cr);
		uint32_t fill = kind == HARBOR_GENERIC ? 0xFFFFFF : canvas->theme->terrain[kind];
		cairo_new_path(cr);
		cairo_arc(cr, anchor.x, anchor.y, HARBOR_RADIUS * canvas->unit, 0, 2 * PI);
		set_colour(cr, fill);
		cairo_fill_preserve(cr);
		set_colour(cr, canvas->theme->outline);
		cairo_set_line_width(cr, 0.03 * canvas->unit);
		cairo_stroke(cr);
		set_colour(cr, ink_on(fill));
		font(canvas, 1, STRONG * canvas->unit);
		text_centred(canvas, anchor.x, anchor.y - 0.09 * canvas->unit, kind == HARBOR_GENERIC ? "3:1" : "2:1");
		font(canvas, 0, TEXT * canvas->unit);
		text_centred(canvas, anchor.x, anchor.y + 0.15 * canvas->unit, harbor_word(kind));
		group_end(canvas, opened);
	}
}

static void road_line(struct canvas *canvas, int edge, double shorten)
{
	struct geometry_point a = geometry_node_point(board_edge_nodes[edge][0]);
	struct geometry_point b = geometry_node_point(board_edge_nodes[edge][1]);
	struct geometry_point from = {a.x + (b.x - a.x) * shorten, a.y + (b.y - a.y) * shorten};
	struct geometry_point to = {b.x + (a.x - b.x) * shorten, b.y + (a.y - b.y) * shorten};
	from = pixel_of(canvas, from);
	to = pixel_of(canvas, to);
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
		opened = group_begin(canvas, "highlight", "highlight");
		struct geometry_point at = pixel_of(canvas, geometry_node_point(last->node));
		cairo_arc(cr, at.x, at.y, 0.33 * canvas->unit, 0, 2 * PI);
	} else if (last->type == EVENT_ROAD_BUILT && last->edge >= 0 && last->edge < BOARD_EDGES) {
		opened = group_begin(canvas, "highlight", "highlight");
		road_line(canvas, last->edge, 0.12);
		cairo_set_line_width(cr, 0.34 * canvas->unit);
		cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
		set_colour(cr, canvas->theme->highlight);
		cairo_stroke(cr);
		group_end(canvas, opened);
		return;
	} else if ((last->type == EVENT_ROBBER_MOVED) && last->hex >= 0 && last->hex < BOARD_HEXES) {
		opened = group_begin(canvas, "highlight", "highlight");
		struct geometry_point centre = geometry_hex_centre(last->hex);
		struct geometry_point at =
		        pixel_of(canvas, (struct geometry_point){centre.x + RENDER_ROBBER_X, centre.y + RENDER_ROBBER_Y - 0.05});
		cairo_arc(cr, at.x, at.y, 0.3 * canvas->unit, 0, 2 * PI);
	} else {
		return;
	}
	set_colour(cr, canvas->theme->highlight);
	cairo_fill(cr);
	group_end(canvas, opened);
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
		int opened = group_begin(canvas, id, classes);
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
		for (int k = 0; k < 4; k++) {
			struct geometry_point p = pixel_of(canvas, corners[k]);
			if (k == 0)
				cairo_move_to(cr, p.x, p.y);
			else
				cairo_line_to(cr, p.x, p.y);
		}
		cairo_close_path(cr);
		set_colour(cr, seat_colours[owner - 1]);
		cairo_fill_preserve(cr);
		set_colour(cr, canvas->theme->outline);
		cairo_set_line_width(cr, 0.035 * canvas->unit);
		cairo_stroke(cr);
		group_end(canvas, opened);
	}
}

/* A settlement: a house. A city: a tower and a hall, wider. (x, y) in projection units
 * from the node; (0, 0) is inside both. */
static const double settlement_shape[][2] = {{-0.14, 0.13}, {-0.14, -0.04}, {0, -0.17}, {0.14, -0.04}, {0.14, 0.13}};
static const double city_shape[][2] = {{-0.23, 0.16}, {-0.23, -0.09}, {-0.13, -0.2}, {-0.03, -0.09},
                                       {-0.03, -0.03}, {0.23, -0.03}, {0.23, 0.16}};

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
		int opened = group_begin(canvas, id, classes);
		const double(*shape)[2] = city ? city_shape : settlement_shape;
		int points = city ? (int)(sizeof city_shape / sizeof city_shape[0])
		                  : (int)(sizeof settlement_shape / sizeof settlement_shape[0]);
		struct geometry_point at = geometry_node_point(node);
		for (int i = 0; i < points; i++) {
			struct geometry_point p = pixel_of(canvas, (struct geometry_point){at.x + shape[i][0], at.y + shape[i][1]});
			if (i == 0)
				cairo_move_to(cr, p.x, p.y);
			else
				cairo_line_to(cr, p.x, p.y);
		}
		cairo_close_path(cr);
		set_colour(cr, seat_colours[owner - 1]);
		cairo_fill_preserve(cr);
		set_colour(cr, canvas->theme->outline);
		cairo_set_line_width(cr, 0.035 * canvas->unit);
		cairo_stroke(cr);
		group_end(canvas, opened);
	}
}

static void draw_robber(struct canvas *canvas)
{
	int hex = canvas->view->robber;
	if (hex < 0 || hex >= BOARD_HEXES)
		return;
	cairo_t *cr = canvas->cr;
	int opened = group_begin(canvas, "robber", "robber");
	cairo_new_path(cr);
	struct geometry_point centre = geometry_hex_centre(hex);
	struct geometry_point body =
	        pixel_of(canvas, (struct geometry_point){centre.x + RENDER_ROBBER_X, centre.y + RENDER_ROBBER_Y});
	double u = canvas->unit;
	cairo_save(cr);
	cairo_translate(cr, body.x, body.y);
	cairo_scale(cr, 0.13 * u, 0.17 * u);
	cairo_arc(cr, 0, 0, 1, 0, 2 * PI);
	cairo_restore(cr);
	cairo_new_sub_path(cr);
	cairo_arc(cr, body.x, body.y - 0.2 * u, 0.085 * u, 0, 2 * PI);
	cairo_new_sub_path(cr);
	cairo_rectangle(cr, body.x - 0.15 * u, body.y + 0.1 * u, 0.3 * u, 0.08 * u);
	set_colour(cr, canvas->theme->robber);
	cairo_fill_preserve(cr);
	set_colour(cr, 0xD0D0D0);
	cairo_set_line_width(cr, 0.02 * u);
	cairo_stroke(cr);
	group_end(canvas, opened);
}

static void draw_tokens(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	double u = canvas->unit;
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		int number = canvas->view->board.number[hex];
		if (!number)
			continue;
		char id[32], text[16];
		snprintf(id, sizeof id, "token-%d", hex);
		int opened = group_begin(canvas, id, number == 6 || number == 8 ? "token token-red" : "token");
		struct geometry_point at = pixel_of(canvas, geometry_hex_centre(hex));
		cairo_new_path(cr); /* show_text leaves a current point an arc would join */
		cairo_arc(cr, at.x, at.y, TOKEN_RADIUS * u, 0, 2 * PI);
		set_colour(cr, canvas->theme->token);
		cairo_fill_preserve(cr);
		set_colour(cr, canvas->theme->outline);
		cairo_set_line_width(cr, 0.025 * u);
		cairo_stroke(cr);
		uint32_t ink = number == 6 || number == 8 ? canvas->theme->red : canvas->theme->token_text;
		set_colour(cr, ink);
		font(canvas, 1, STRONG * u);
		snprintf(text, sizeof text, "%d", number);
		text_centred(canvas, at.x, at.y - 0.05 * u, text);
		/* the pips as bullets of the same font: glyph uses, not five circles each */
		static const char *const pips[6] = {"", "\u2022", "\u2022\u2022", "\u2022\u2022\u2022",
		                                    "\u2022\u2022\u2022\u2022", "\u2022\u2022\u2022\u2022\u2022"};
		int dots = 6 - (number > 7 ? number - 7 : 7 - number);
		font(canvas, 0, TEXT * u);
		text_centred(canvas, at.x, at.y + 0.16 * u, pips[dots]);
		group_end(canvas, opened);
	}
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
		cairo_arc(cr, at.x, at.y, 0.12 * u, 0, 2 * PI);
	} else {
		double w = 0.2 * u, h = 0.15 * u;
		cairo_rectangle(cr, at.x - w / 2, at.y - h / 2, w, h);
	}
	set_colour(cr, disc ? 0x1F1F1F : 0xFFFFFF);
	cairo_fill_preserve(cr);
	set_colour(cr, 0x1F1F1F);
	cairo_set_line_width(cr, 0.015 * u);
	cairo_stroke(cr);
	set_colour(cr, disc ? 0xFFFFFF : 0x1F1F1F);
	text_centred(canvas, at.x, at.y, text);
}

static void draw_labels(struct canvas *canvas)
{
	char id[32];
	if (canvas->options->labels & RENDER_LABEL_EDGES) {
		font(canvas, 0, 0.11 * canvas->unit);
		for (int edge = 0; edge < BOARD_EDGES; edge++) {
			struct geometry_point a = geometry_node_point(board_edge_nodes[edge][0]);
			struct geometry_point b = geometry_node_point(board_edge_nodes[edge][1]);
			snprintf(id, sizeof id, "label-edge-%d", edge);
			int opened = group_begin(canvas, id, "label label-edge");
			draw_label(canvas, pixel_of(canvas, (struct geometry_point){(a.x + b.x) / 2, (a.y + b.y) / 2}), edge, 0);
			group_end(canvas, opened);
		}
	}
	if (canvas->options->labels & RENDER_LABEL_NODES) {
		font(canvas, 1, 0.11 * canvas->unit);
		for (int node = 0; node < BOARD_NODES; node++) {
			snprintf(id, sizeof id, "label-node-%d", node);
			int opened = group_begin(canvas, id, "label label-node");
			draw_label(canvas, pixel_of(canvas, geometry_node_point(node)), node, 1);
			group_end(canvas, opened);
		}
	}
}

/* ---- the panel ---- */

static void seat_name(const struct render_scene *scene, int seat, char *out, size_t size)
{
	const char *name = scene->names[seat];
	if (name && *name)
		snprintf(out, size, "%s", name);
	else
		snprintf(out, size, "Seat %d", seat + 1);
}

/* What the last move was, in words. */
static void describe_last_move(const struct render_scene *scene, char *out, size_t size)
{
	const struct render_last_move *last = &scene->last_move;
	char who[NAME_SIZE];
	if (last->seat >= 0 && last->seat < scene->view->options.seats)
		seat_name(scene, last->seat, who, sizeof who);
	else
		snprintf(who, sizeof who, "The game");
	switch (last->type) {
	case -1:
		snprintf(out, size, "-");
		break;
	case EVENT_GAME_CREATED:
		snprintf(out, size, "game created");
		break;
	case EVENT_SETTLEMENT_BUILT:
		snprintf(out, size, "%s built a settlement at %d", who, last->node);
		break;
	case EVENT_CITY_BUILT:
		snprintf(out, size, "%s built a city at %d", who, last->node);
		break;
	case EVENT_ROAD_BUILT:
		snprintf(out, size, "%s built a road at %d", who, last->edge);
		break;
	case EVENT_ROBBER_MOVED:
		snprintf(out, size, "%s moved the robber to #%d", who, last->hex);
		break;
	case EVENT_DICE_ROLLED:
		snprintf(out, size, "%s rolled %d", who, last->dice[0] + last->dice[1]);
		break;
	default: {
		const char *name = event_type_name(last->type);
		char words[40];
		snprintf(words, sizeof words, "%s", name ? name : "moved");
		for (char *c = words; *c; c++)
			if (*c == '_')
				*c = ' ';
		snprintf(out, size, "%s: %s", who, words);
	}
	}
}

static void draw_panel(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	const struct render_scene *scene = canvas->scene;
	const struct game_view *view = canvas->view;
	const struct theme *theme = canvas->theme;
	double pt = canvas->pt;
	double left = canvas->layout.height + 8 * pt, right = canvas->layout.width - 10 * pt;
	double y = 30 * pt;
	int opened = group_begin(canvas, "panel", "panel");
	char line[1024], name[NAME_SIZE];

	set_colour(cr, theme->text);
	font(canvas, 1, STRONG * canvas->unit);
	snprintf(line, sizeof line, "Catan");
	text_at(canvas, left, y, line);
	font(canvas, 0, TEXT * canvas->unit);
	snprintf(line, sizeof line, "version %u  turn %u", view->version, view->turn_number);
	cairo_text_extents_t extents;
	cairo_text_extents(cr, line, &extents);
	text_at(canvas, right - extents.x_advance, y, line);
	y += 22 * pt;

	for (int seat = 0; seat < view->options.seats; seat++) {
		const struct view_player *player = &view->players[seat];
		double top = y;
		int to_move = scene->waiting_for >> seat & 1u;
		if (view->turn_seat == seat || to_move) {
			cairo_rectangle(cr, left - 4 * pt, top - 2 * pt, right - left + 8 * pt, 66 * pt);
			set_colour(cr, theme == &themes[RENDER_THEME_DARK] ? 0x2A323C : 0xE9E2D0);
			cairo_fill(cr);
		}
		/* the seat's colour, as a settlement */
		double sx = left + 9 * pt, sy = top + 11 * pt, s = 60 * pt;
		for (int i = 0; i < 5; i++) {
			double px = sx + settlement_shape[i][0] * s, py = sy + settlement_shape[i][1] * s;
			if (i == 0)
				cairo_move_to(cr, px, py);
			else
				cairo_line_to(cr, px, py);
		}
		cairo_close_path(cr);
		set_colour(cr, seat_colours[seat]);
		cairo_fill_preserve(cr);
		set_colour(cr, theme->outline);
		cairo_set_line_width(cr, 1.2 * pt);
		cairo_stroke(cr);

		seat_name(scene, seat, name, sizeof name);
		set_colour(cr, theme->text);
		font(canvas, 1, STRONG * canvas->unit);
		double x = left + 24 * pt;
		x += text_at(canvas, x, top + 16 * pt, name);
		if (to_move) {
			font(canvas, 0, TEXT * canvas->unit);
			text_at(canvas, x + 6 * pt, top + 16 * pt, view->turn_seat == seat ? "\xe2\x97\x80 to move" : "\xe2\x97\x80 to answer");
		}
		font(canvas, 1, STRONG * canvas->unit);
		snprintf(line, sizeof line, "%u VP", player->victory_points);
		cairo_text_extents(cr, line, &extents);
		text_at(canvas, right - extents.x_advance, top + 16 * pt, line);

		font(canvas, 0, TEXT * canvas->unit);
		set_colour(cr, theme->muted);
		snprintf(line, sizeof line, "cards %u   development %u   knights %u   road %u", player->resource_count,
		         player->development_card_count, player->knights_played, player->road_length);
		text_at(canvas, left + 24 * pt, top + 34 * pt, line);
		line[0] = '\0';
		if (view->longest_road == seat)
			strcat(line, "Longest Road   ");
		if (view->largest_army == seat)
			strcat(line, "Largest Army");
		if (line[0]) {
			set_colour(cr, theme->text);
			font(canvas, 1, STRONG * canvas->unit);
			text_at(canvas, left + 24 * pt, top + 51 * pt, line);
		}
		y += 72 * pt;
	}

	y += 8 * pt;
	set_colour(cr, theme->text);
	font(canvas, 0, TEXT * canvas->unit);
	const char *phase = game_phase_name(view->phase);
	if (view->winner >= 0 && view->winner < view->options.seats) {
		seat_name(scene, view->winner, name, sizeof name);
		font(canvas, 1, STRONG * canvas->unit);
		snprintf(line, sizeof line, "Winner: %s", name);
		text_at(canvas, left, y, line);
		y += 24 * pt;
		font(canvas, 0, TEXT * canvas->unit);
	} else {
		line[0] = '\0';
		for (int seat = 0; seat < view->options.seats; seat++)
			if (scene->waiting_for >> seat & 1u) {
				seat_name(scene, seat, name, sizeof name);
				size_t used = strlen(line);
				snprintf(line + used, sizeof line - used, "%s%s", used ? ", " : "Waiting for: ", name);
			}
		if (line[0]) {
			size_t used = strlen(line);
			snprintf(line + used, sizeof line - used, " (%s)", phase ? phase : "-");
			text_at(canvas, left, y, line);
			y += 18 * pt;
		}
	}
	if (view->dice[0] && view->dice[1])
		snprintf(line, sizeof line, "Last dice: %u + %u = %u", view->dice[0], view->dice[1],
		         view->dice[0] + view->dice[1]);
	else if (scene->last_move.type == EVENT_DICE_ROLLED)
		snprintf(line, sizeof line, "Last dice: %u + %u = %u", scene->last_move.dice[0], scene->last_move.dice[1],
		         scene->last_move.dice[0] + scene->last_move.dice[1]);
	else
		snprintf(line, sizeof line, "Last dice: -");
	text_at(canvas, left, y, line);
	y += 18 * pt;
	char move[256];
	describe_last_move(scene, move, sizeof move);
	snprintf(line, sizeof line, "Last move: %s", move);
	text_at(canvas, left, y, line);
	group_end(canvas, opened);
}

static void draw_picture(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	set_colour(cr, canvas->theme->panel);
	cairo_paint(cr);
	cairo_rectangle(cr, 0, 0, canvas->layout.height, canvas->layout.height);
	set_colour(cr, canvas->theme->sea);
	cairo_fill(cr);
	draw_hexes(canvas);
	draw_harbors(canvas);
	draw_highlight(canvas);
	draw_roads(canvas);
	draw_buildings(canvas);
	draw_robber(canvas);
	draw_tokens(canvas);
	draw_labels(canvas);
	draw_panel(canvas);
}

/* ---- surfaces ---- */

struct buffer {
	unsigned char *bytes;
	size_t length;
	size_t capacity;
};

static cairo_status_t buffer_write(void *closure, const unsigned char *data, unsigned int length)
{
	struct buffer *buffer = closure;
	if (buffer->length + length + 1 > buffer->capacity) {
		size_t capacity = buffer->capacity ? buffer->capacity : 65536;
		while (buffer->length + length + 1 > capacity)
			capacity *= 2;
		unsigned char *grown = realloc(buffer->bytes, capacity);
		if (!grown)
			abort();
		buffer->bytes = grown;
		buffer->capacity = capacity;
	}
	memcpy(buffer->bytes + buffer->length, data, length);
	buffer->length += length;
	buffer->bytes[buffer->length] = '\0';
	return CAIRO_STATUS_SUCCESS;
}

int render_board(const struct render_scene *scene, const struct render_options *options, unsigned char **out,
		 size_t *length)
{
	const struct game_view *view = scene->view;
	if (!view || view->has_you || view->viewer != VIEW_SPECTATOR || options->size < RENDER_SIZE_MIN ||
	    options->size > RENDER_SIZE_MAX || view->options.seats > GAME_MAX_SEATS)
		return 0;
	struct canvas canvas = {0};
	canvas.scene = scene;
	canvas.view = view;
	canvas.options = options;
	canvas.theme = &themes[options->theme == RENDER_THEME_DARK];
	render_layout(options, &canvas.layout);
	canvas.unit = canvas.layout.scale;
	canvas.pt = canvas.layout.height / 640.0;

	struct buffer buffer = {0};
	cairo_surface_t *surface;
	struct marks *marks = NULL;
	if (options->format == RENDER_FORMAT_SVG) {
		surface = cairo_svg_surface_create_for_stream(buffer_write, &buffer, canvas.layout.width,
		                                              canvas.layout.height);
		cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
		marks = malloc(sizeof *marks);
		if (!marks)
			abort();
		marks->count = 0;
	} else {
		surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, canvas.layout.width, canvas.layout.height);
	}
	canvas.marks = marks;
	canvas.cr = cairo_create(surface);
	draw_picture(&canvas);
	int ok = cairo_status(canvas.cr) == CAIRO_STATUS_SUCCESS;
	cairo_destroy(canvas.cr);
	if (options->format == RENDER_FORMAT_PNG && ok)
		ok = cairo_surface_write_to_png_stream(surface, buffer_write, &buffer) == CAIRO_STATUS_SUCCESS;
	cairo_surface_finish(surface);
	ok = ok && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS;
	cairo_surface_destroy(surface);
	if (ok && marks) {
		size_t rewritten_length;
		unsigned char *rewritten = marks_rewrite(marks, buffer.bytes, buffer.length, &rewritten_length);
		free(buffer.bytes);
		buffer.bytes = rewritten;
		buffer.length = rewritten_length;
		ok = rewritten != NULL;
	}
	free(marks);
	if (!ok) {
		free(buffer.bytes);
		return 0;
	}
	*out = buffer.bytes;
	*length = buffer.length;
	return 1;
}

void render_shutdown(void)
{
	cairo_debug_reset_static_data();
	FcFini();
}
