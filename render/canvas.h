/*
 * canvas.h - what the drawing code of render/ shares (internal to render/): the colours of
 * each theme, the picture being drawn (struct canvas: the cairo context, the scene, the
 * frame), and text and group helpers that work the same on the SVG and the PNG surface.
 */
#ifndef CATAN_RENDER_CANVAS_H
#define CATAN_RENDER_CANVAS_H

#include <cairo.h>
#include <stdint.h>

#include "render/marks.h"
#include "render/render.h"

#define CANVAS_PI 3.14159265358979323846
#define CANVAS_NAME_SIZE 168 /* a seat name: 40 characters of UTF-8, and more */

/* Two fonts for everything a default picture shows, both sized in projection units (the
 * panel too): in an SVG each face and size is a separate set of glyph outlines, and those
 * outlines are most of the document and of the time it takes to write. Labels, drawn only
 * when asked, add their own small sizes. */
#define CANVAS_TEXT 0.19   /* normal: terrain marks, harbor resources, pips, the panel's lines */
#define CANVAS_STRONG 0.26 /* bold: numbers, harbor rates, names, points, headings */

struct theme {
	uint32_t background, sea, panel, text, muted, outline, token, token_text, red, harbor_line, highlight;
	uint32_t robber;
	uint32_t terrain[TERRAIN_COUNT];
	uint32_t current_seat; /* the panel row of the seat to move */
};

extern const struct theme canvas_themes[2];
extern const uint32_t canvas_seat_colours[GAME_MAX_SEATS];

/* A settlement's outline around its node, in projection units (the panel's swatches too). */
extern const double canvas_settlement_shape[5][2];

#define CANVAS_FONTS 6
#define CANVAS_BATCHES 8

struct canvas {
	cairo_t *cr;
	const struct render_scene *scene;
	const struct game_view *view;
	const struct render_options *options;
	const struct theme *theme;
	struct render_layout layout;
	double unit;	     /* pixels per projection unit */
	double pt;	     /* pixels per panel point: the panel is laid out for a 640 px height */
	struct marks *marks; /* NULL on the PNG surface */
	struct canvas_font {
		int bold;
		double pixels;
		cairo_scaled_font_t *font; /* a reference, released by canvas_fonts_release() */
	} fonts[CANVAS_FONTS];		   /* the fonts canvas_font() selected so far */
	int font_count;
	/* While batching (canvas_batch_begin()), text is kept here by font and colour and drawn
	 * by canvas_batch_flush(): one glyph run, so one SVG element, for each. */
	int batching;
	int batch_count;
	struct canvas_batch {
		cairo_scaled_font_t *font; /* borrowed from fonts[] */
		double red, green, blue;
		cairo_glyph_t *glyphs; /* owned, malloc'ed */
		int count, capacity;
	} batches[CANVAS_BATCHES];
};

void canvas_colour(cairo_t *cr, uint32_t rgb);

/* A circle as a new subpath: four cubic curves, whatever the cairo_t's tolerance (which
 * cairo_arc() would follow, and the SVG surface is drawn with a coarse one). */
void canvas_circle(cairo_t *cr, double x, double y, double radius);

/* White or near-black, whichever reads on `rgb`. */
uint32_t canvas_ink_on(uint32_t rgb);

/* A projection point in pixels. */
struct geometry_point canvas_pixel(const struct canvas *canvas, struct geometry_point point);

/* Name what is drawn until canvas_group_end() (an SVG group; nothing on a PNG). Returns
 * what canvas_group_end() must be given. Groups close lazily (render/marks.h): draw nothing
 * between a canvas_group_end() and the next canvas_group_begin(). */
int canvas_group_begin(struct canvas *canvas, const char *id, const char *classes);
void canvas_group_end(struct canvas *canvas, int opened);

/* Close the group that ended last now, before drawing something outside every group. */
void canvas_group_settle(struct canvas *canvas);

/* Select DejaVu Sans, bold or not, `pixels` high. */
void canvas_font(struct canvas *canvas, int bold, double pixels);

/* Release the fonts canvas_font() keeps for the picture: once, when it is drawn. */
void canvas_fonts_release(struct canvas *canvas);

/* Text in the current font centred on (x, y); text from (x, baseline), returning its
 * advance. Spaces take room but draw no glyph. */
void canvas_text_centred(struct canvas *canvas, double x, double y, const char *text);
double canvas_text_at(struct canvas *canvas, double x, double baseline, const char *text);

/* Keep the text drawn from now on and draw it at canvas_batch_flush(), all of a font and
 * colour at once, on top of what was drawn meanwhile: for text that nothing drawn later
 * covers (the panel). */
void canvas_batch_begin(struct canvas *canvas);
void canvas_batch_flush(struct canvas *canvas);

/* A line of the panel from (x, baseline): its digits in the strong font, the rest in the
 * normal one, which then stays selected. The digits are glyphs the number tokens draw
 * already, so in an SVG the normal font carries no digit outlines of its own. Returns the
 * advance; canvas_line_advance() measures without drawing. */
#define CANVAS_LINE_SIZE 1024
double canvas_line_at(struct canvas *canvas, double x, double baseline, const char *text);
double canvas_line_advance(struct canvas *canvas, const char *text);

/* The island (island.c) and the side panel (panel.c). */
void island_draw(struct canvas *canvas);
void panel_draw(struct canvas *canvas);

#endif
