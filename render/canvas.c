/*
 * canvas.c - colours, text and naming shared by the island and the panel (canvas.h).
 *
 * Text goes through cairo's toy font API ("DejaVu Sans", found by fontconfig), each font
 * looked up once per picture and then set by its scaled font, converted to glyphs once
 * (measured and shown from the same glyphs) and shown without the glyphs of spaces, which
 * draw nothing but would be one element each in an SVG. Text of a layer can be batched
 * (canvas_batch_begin): one glyph run per font and colour, as an SVG writes each run with
 * its own style. Groups (canvas_group_begin) are the SVG's element names (render/marks.h);
 * on a PNG they draw nothing.
 *
 * What makes an SVG slow to write is cairo 1.16 printing each number through snprintf,
 * and each drawing call passing three times through its paginated surface (recorded,
 * measured, written): glyph outlines (one set per font and size), glyph uses, path points,
 * styles and markers. The drawing code keeps all of these few: two fonts, runs rather than
 * words, discs as round-capped dots, shared paths where no element needs its own.
 */
#include "render/canvas.h"

#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "engine/board.h"

#include "render/cairo_checked.h" /* last: after every header that declares cairo */

/* ---- colours ---- */

const struct theme canvas_themes[2] = {
	[RENDER_THEME_LIGHT] = {0xF7F4EC,
				0x7FB6D9,
				0xF7F4EC,
				0x1F1F1F,
				0x5A5A5A,
				0x222222,
				0xF6EBCB,
				0x1F1F1F,
				0xC0261F,
				0x8A6A4F,
				0xFFD400,
				0x2B2B2B,
				{0xB5653A, 0x2E7D32, 0x9CCC65, 0xEBC553, 0x8D9096, 0xE3D2A2},
				0xE9E2D0},
	[RENDER_THEME_DARK] = {0x15191F,
			       0x1F4B6E,
			       0x15191F,
			       0xECECEC,
			       0xA8A8A8,
			       0x0A0A0A,
			       0xE4D8B4,
			       0x1F1F1F,
			       0xC0261F,
			       0xB89B7F,
			       0xFFD400,
			       0x111111,
			       {0x94502D, 0x23612A, 0x7DA651, 0xC4A13F, 0x6E7177, 0xBFAE80},
			       0x2A323C},
};

/* Okabe-Ito: blue, vermillion, reddish purple, orange. */
const uint32_t canvas_seat_colours[GAME_MAX_SEATS] = {0x0072B2, 0xD55E00, 0xCC79A7, 0xE69F00};

uint32_t render_terrain_colour(enum render_theme theme, int terrain)
{
	return canvas_themes[theme == RENDER_THEME_DARK].terrain[terrain];
}

uint32_t render_seat_colour(int seat)
{
	return canvas_seat_colours[seat];
}

uint32_t render_robber_colour(enum render_theme theme)
{
	return canvas_themes[theme == RENDER_THEME_DARK].robber;
}

void canvas_colour(cairo_t *cr, uint32_t rgb)
{
	cairo_set_source_rgb(cr, ((rgb >> 16) & 0xFF) / 255.0, ((rgb >> 8) & 0xFF) / 255.0, (rgb & 0xFF) / 255.0);
}

void canvas_circle(cairo_t *cr, double x, double y, double r)
{
	const double k = 0.55228474983079334 * r; /* 4/3 tan(pi/8): a quarter circle's handles */
	cairo_move_to(cr, x + r, y);
	cairo_curve_to(cr, x + r, y + k, x + k, y + r, x, y + r);
	cairo_curve_to(cr, x - k, y + r, x - r, y + k, x - r, y);
	cairo_curve_to(cr, x - r, y - k, x - k, y - r, x, y - r);
	cairo_curve_to(cr, x + k, y - r, x + r, y - k, x + r, y);
}

uint32_t canvas_ink_on(uint32_t rgb)
{
	double luminance = 0.299 * ((rgb >> 16) & 0xFF) + 0.587 * ((rgb >> 8) & 0xFF) + 0.114 * (rgb & 0xFF);
	return luminance < 140 ? 0xFFFFFF : 0x1F1F1F;
}

struct geometry_point canvas_pixel(const struct canvas *canvas, struct geometry_point point)
{
	return render_to_pixels(&canvas->layout, point);
}

int canvas_group_begin(struct canvas *canvas, const char *id, const char *classes)
{
	return marks_begin(canvas->marks, canvas->cr, id, classes);
}

void canvas_group_end(struct canvas *canvas, int opened)
{
	if (opened)
		marks_end(canvas->marks, canvas->cr);
}

void canvas_group_settle(struct canvas *canvas)
{
	marks_finish(canvas->marks, canvas->cr);
}

void canvas_font(struct canvas *canvas, int bold, double pixels)
{
	/* Selecting a font by name makes cairo look its scaled font up again at the next text,
	 * a dear hash lookup: each font is looked up once and then set by its scaled font. */
	struct canvas_font *fonts = canvas->fonts;
	int i;
	for (i = 0; i < canvas->font_count; i++)
		if (fonts[i].bold == bold && fonts[i].pixels == pixels) {
			cairo_set_scaled_font(canvas->cr, fonts[i].font);
			return;
		}
	cairo_select_font_face(canvas->cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL,
			       bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
	cairo_set_font_size(canvas->cr, pixels);
	if (i == CANVAS_FONTS)
		return;
	fonts[i].bold = bold;
	fonts[i].pixels = pixels;
	fonts[i].font = cairo_scaled_font_reference(cairo_get_scaled_font(canvas->cr));
	canvas->font_count++;
}

void canvas_fonts_release(struct canvas *canvas)
{
	for (int i = 0; i < canvas->font_count; i++)
		cairo_scaled_font_destroy(canvas->fonts[i].font);
	canvas->font_count = 0;
}

/* Keep `count` glyphs of `font` in the current colour for canvas_batch_flush(). */
static void batch_add(struct canvas *canvas, cairo_scaled_font_t *font, const cairo_glyph_t *glyphs, int count)
{
	double red, green, blue, alpha;
	cairo_pattern_get_rgba(cairo_get_source(canvas->cr), &red, &green, &blue, &alpha);
	struct canvas_batch *batch = NULL;
	for (int i = 0; i < canvas->batch_count && !batch; i++) {
		struct canvas_batch *b = &canvas->batches[i];
		if (b->font == font && b->red == red && b->green == green && b->blue == blue)
			batch = b;
	}
	if (!batch) {
		if (canvas->batch_count == CANVAS_BATCHES) { /* more kinds of text than kept: draw now */
			cairo_show_glyphs(canvas->cr, glyphs, count);
			return;
		}
		batch = &canvas->batches[canvas->batch_count++];
		*batch = (struct canvas_batch){font, red, green, blue, NULL, 0, 0};
	}
	if (batch->count + count > batch->capacity) {
		int capacity = batch->capacity ? batch->capacity : 128;
		while (batch->count + count > capacity)
			capacity *= 2;
		cairo_glyph_t *grown = xrealloc(batch->glyphs, sizeof *grown * (size_t)capacity);
		batch->glyphs = grown;
		batch->capacity = capacity;
	}
	memcpy(batch->glyphs + batch->count, glyphs, sizeof *glyphs * (size_t)count);
	batch->count += count;
}

void canvas_batch_begin(struct canvas *canvas)
{
	canvas->batching = 1;
}

void canvas_batch_flush(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	canvas->batching = 0;
	canvas_group_settle(canvas); /* or the group that ended last would take the batch in */
	cairo_save(cr);
	for (int i = 0; i < canvas->batch_count; i++) {
		struct canvas_batch *batch = &canvas->batches[i];
		cairo_set_source_rgb(cr, batch->red, batch->green, batch->blue);
		cairo_set_scaled_font(cr, batch->font);
		cairo_show_glyphs(cr, batch->glyphs, batch->count);
		free(batch->glyphs);
	}
	cairo_restore(cr);
	canvas->batch_count = 0;
}

/* `text` in the current font, converted to glyphs once: measured, then (when `draw`) shown
 * with its origin at (x, y), or centred on (x, y) when `centred`, leaving out the glyphs
 * of spaces: they draw nothing, yet an SVG would carry an element for each. Returns the
 * advance. */
static double text_run(struct canvas *canvas, double x, double y, const char *text, int centred, int draw)
{
	cairo_t *cr = canvas->cr;
	cairo_scaled_font_t *font = cairo_get_scaled_font(cr);
	cairo_glyph_t *glyphs = NULL;
	int count = 0;
	if (cairo_scaled_font_text_to_glyphs(font, 0, 0, text, -1, &glyphs, &count, NULL, NULL, NULL) !=
	    CAIRO_STATUS_SUCCESS)
		return 0;
	cairo_text_extents_t extents;
	cairo_scaled_font_glyph_extents(font, glyphs, count, &extents);
	if (centred) {
		x -= extents.width / 2 + extents.x_bearing;
		y -= extents.height / 2 + extents.y_bearing;
	}
	int kept = 0;
	const char *at = text;
	for (int i = 0; i < count; i++) {
		/* one glyph per character for this font's text: skip the spaces' */
		while (*at && (*at & 0xC0) == 0x80)
			at++;
		int space = *at == ' ';
		if (*at)
			at++;
		if (!space) {
			glyphs[kept] = glyphs[i];
			glyphs[kept].x += x;
			glyphs[kept].y += y;
			kept++;
		}
	}
	if (draw && canvas->batching)
		batch_add(canvas, font, glyphs, kept);
	else if (draw)
		cairo_show_glyphs(cr, glyphs, kept);
	cairo_glyph_free(glyphs);
	return extents.x_advance;
}

/* Text centred on (x, y) in the current font. */
void canvas_text_centred(struct canvas *canvas, double x, double y, const char *text)
{
	text_run(canvas, x, y, text, 1, 1);
}

/* Text starting at (x, baseline); returns its advance. */
double canvas_text_at(struct canvas *canvas, double x, double baseline, const char *text)
{
	return text_run(canvas, x, baseline, text, 0, 1);
}

/* The runs of `text`: digits in the strong font, the rest in the normal one. Draws them from
 * (x, baseline) when `draw`, and returns the advance. */
static double runs(struct canvas *canvas, double x, double baseline, const char *text, int draw)
{
	char run[CANVAS_LINE_SIZE];
	double start = x;
	const char *at = text;
	while (*at) {
		int digits = *at >= '0' && *at <= '9';
		size_t length = 0;
		while (at[length] && (at[length] >= '0' && at[length] <= '9') == digits && length + 1 < sizeof run)
			length++;
		memcpy(run, at, length);
		run[length] = '\0';
		at += length;
		canvas_font(canvas, digits, (digits ? CANVAS_STRONG : CANVAS_TEXT) * canvas->unit);
		x += text_run(canvas, x, baseline, run, 0, draw);
	}
	canvas_font(canvas, 0, CANVAS_TEXT * canvas->unit);
	return x - start;
}

double canvas_line_at(struct canvas *canvas, double x, double baseline, const char *text)
{
	return runs(canvas, x, baseline, text, 1);
}

double canvas_line_advance(struct canvas *canvas, const char *text)
{
	return runs(canvas, 0, 0, text, 0);
}
