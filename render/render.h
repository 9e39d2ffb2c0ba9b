/*
 * render.h - board pictures: a spectator's view of a game drawn as SVG or PNG with cairo.
 *
 * The renderer takes what anyone may see of a game (a VIEW_SPECTATOR engine view, the seat
 * names, whose move the game waits for and the last move, all public) and draws the island
 * and a side panel. It never sees a hand or a development card: render_board() refuses a
 * view that carries a seat's private part. It knows nothing of HTTP, the database or JSON.
 *
 * Geometry: the island is drawn with the board projection of engine/geometry.h, scaled by
 * one factor and shifted (render_layout()), so a client drawing its own board from the
 * `px`/`py` of GET /v1/games/{id}/board lines up with the picture.
 *
 * Picture layout: width `size`, height RENDER_HEIGHT(size); the island fills the left
 * square (height x height), the panel the rest on the right.
 *
 * Threads: render_board() may be called from any number of threads at once. render/
 * calls cairo and fontconfig (and through them the font faces and scaled fonts cairo
 * caches for the whole process) only under one lock of its own (render/lock.h): cairo 1.16
 * raced between drawing threads aborts the process (issue 20 item 2). So the drawing
 * itself is one picture at a time; what needs no cairo (the frame, the SVG's element
 * names, encoding the PNG with libpng) runs in parallel. Every cairo call of render/ is
 * checked for the lock (render/cairo_checked.h, scripts/check-cairo-calls.sh), and
 * nothing outside render/ in the server calls cairo.
 */
#ifndef CATAN_RENDER_RENDER_H
#define CATAN_RENDER_RENDER_H

#include <stddef.h>
#include <stdint.h>

#include "engine/event.h"
#include "engine/geometry.h"
#include "engine/view.h"

#define RENDER_SIZE_MIN 320
#define RENDER_SIZE_MAX 2048
#define RENDER_SIZE_DEFAULT 1024
#define RENDER_HEIGHT(size) (((size)*5 + 4) / 8)

/* The label subsets (labels=nodes,edges,hexes). */
#define RENDER_LABEL_NODES 1u
#define RENDER_LABEL_EDGES 2u
#define RENDER_LABEL_HEXES 4u

/* Where, in projection units from a hex's centre, its terrain shows unobstructed (no token,
 * mark, label or robber), and where the robber's body stands. For tests and clients that
 * probe pictures. */
#define RENDER_TERRAIN_PROBE_X 0.45
#define RENDER_TERRAIN_PROBE_Y 0.30
#define RENDER_ROBBER_X (-0.48)
#define RENDER_ROBBER_Y 0.12

enum render_format { RENDER_FORMAT_SVG, RENDER_FORMAT_PNG };
enum render_theme { RENDER_THEME_LIGHT, RENDER_THEME_DARK };

struct render_options {
	enum render_format format;
	enum render_theme theme;
	int size;	 /* width in pixels, RENDER_SIZE_MIN..RENDER_SIZE_MAX */
	unsigned labels; /* RENDER_LABEL_* */
};

/* The last move, from the public fields of the last events (render_last_move_of()). */
struct render_last_move {
	int type; /* an enum event_type, or -1: none */
	int seat;
	int node;
	int edge;
	int hex;
	uint8_t dice[2];
};

/* What is drawn. Borrowed for the call. */
struct render_scene {
	const struct game_view *view;	   /* a VIEW_SPECTATOR view (has_you 0) */
	const char *names[GAME_MAX_SEATS]; /* NULL: "Seat N" */
	uint8_t waiting_for;		   /* seat mask: whose move the game waits for */
	struct render_last_move last_move;
};

/* The pixel frame: picture size, and projection point (x, y) at pixel
 * (origin_x + scale * x, origin_y + scale * y). */
struct render_layout {
	int width;
	int height;
	double scale;
	double origin_x;
	double origin_y;
};

/* The frame of a picture drawn with `options`. */
void render_layout(const struct render_options *options, struct render_layout *out);

/* A projection point in pixels. */
struct geometry_point render_to_pixels(const struct render_layout *layout, struct geometry_point point);

/* The last move among `events` (oldest first, as a spectator sees them): the newest event
 * that is a move of its own (a piece built, the robber moved, dice rolled, a card played, a
 * trade ...), skipping what follows from one (production, a stolen card, Longest Road
 * changing hands, the win). Reads only public fields. */
void render_last_move_of(const struct event *events, int count, struct render_last_move *out);

/* Draw `scene` with `options`: 1 with *out (the SVG or PNG bytes, caller frees with free())
 * and *length set; 0 when the view is not a spectator's, an option is out of range or cairo
 * failed. One drawing path for both formats. */
int render_board(const struct render_scene *scene, const struct render_options *options, unsigned char **out,
		 size_t *length);

/* Read a labels list ("nodes,edges,hexes", any subset in any order, "" for none) into
 * *out: 1, or 0 when a word is not one of the three or is repeated. */
int render_labels_parse(const char *text, unsigned *out);

/* Read "light" or "dark": 1, or 0 when it is neither. */
int render_theme_parse(const char *text, enum render_theme *out);

/* Release the process-wide caches of cairo and fontconfig (fonts, glyphs), under the lock:
 * for leak checkers, once at exit when no picture is being drawn. */
void render_shutdown(void);

/* The fill colours the picture uses, as 0xRRGGBB, for tests that probe pixels. */
uint32_t render_terrain_colour(enum render_theme theme, int terrain);
uint32_t render_seat_colour(int seat);
uint32_t render_robber_colour(enum render_theme theme);

#endif
