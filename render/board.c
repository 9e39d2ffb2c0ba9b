/*
 * board.c - drawing a spectator's view of a game with cairo: render_board() (see render.h).
 *
 * One drawing path: render_board() makes either an SVG surface writing into a memory
 * buffer or an ARGB image surface, and draw_picture() draws on whichever it was given.
 * The only differences are the SVG's element names (render/marks.h), whose markers are
 * drawn only on the SVG surface, and the SVG's coarser tolerance, which changes nothing in
 * the document (SVG_TOLERANCE). PNG bytes come from libpng at fast settings (png_writer.c); text is
 * cairo's toy font API with "DejaVu Sans" found through fontconfig.
 *
 * What is drawn: the sea, the island (island.c) on the board projection of
 * engine/geometry.h through render_to_pixels() (render.c: the frame), so a client's drawing
 * from GET /board lines up with ours, and the side panel (panel.c); canvas.c holds what
 * both share.
 *
 * Threads: cairo and fontconfig are called only under render/lock.h's lock, which
 * render_board() holds from the surface's creation to its destruction; the SVG's names
 * (marks_rewrite()) and the PNG's encoding (png_writer.c: libpng on an image buffer that
 * render_board() owns, so it outlives the surface) run outside it, in parallel.
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
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "render/canvas.h"
#include "render/lock.h"
#include "render/marks.h"
#include "render/png_writer.h"
#include "render/cairo_checked.h" /* last: after every header that declares cairo */

static void draw_picture(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	canvas_colour(cr, canvas->theme->panel);
	cairo_paint(cr);
	cairo_rectangle(cr, 0, 0, canvas->layout.height, canvas->layout.height);
	canvas_colour(cr, canvas->theme->sea);
	cairo_fill(cr);
	island_draw(canvas);
	panel_draw(canvas);
}

/* ---- surfaces ---- */

static cairo_status_t buffer_write(void *closure, const unsigned char *data, unsigned int length)
{
	xbytes_add(closure, data, length, 262144); /* a 1024 px SVG or PNG: ~140 KB */
	return CAIRO_STATUS_SUCCESS;
}

/* The same font options on both surfaces, those the SVG surface asks for anyway: no hinting,
 * unhinted metrics, grey antialiasing. Left to each surface, the PNG's text would depend on
 * which format the process happened to draw first (cairo resolves a toy font face through
 * fontconfig once, with the options of its first use, and keeps that for the process), so
 * the same picture would not be the same bytes from one server to the next. */
static void set_font_options(cairo_t *cr)
{
	cairo_font_options_t *font_options = cairo_font_options_create();
	cairo_font_options_set_hint_style(font_options, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_hint_metrics(font_options, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_antialias(font_options, CAIRO_ANTIALIAS_GRAY);
	cairo_set_font_options(cr, font_options);
	cairo_font_options_destroy(font_options);
}

/* On the SVG surface cairo flattens curves only for itself: to measure each stroke when it
 * sorts out what SVG can say natively (everything here), and in cairo_arc(), which the
 * drawing code does not use (canvas_circle()); the viewer draws the curves. So the SVG is
 * drawn with a coarse tolerance, which makes measuring round caps and joins cheap (~3% of
 * an SVG's time) and leaves the document the same bytes (compared at 0.1 and 1.0, labels
 * or not, when this was written); the PNG keeps cairo's 0.1 pixel. */
#define SVG_TOLERANCE 1.0

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
	canvas.theme = &canvas_themes[options->theme == RENDER_THEME_DARK];
	render_layout(options, &canvas.layout);
	canvas.unit = canvas.layout.scale;
	canvas.pt = canvas.layout.height / 640.0;

	struct xbytes buffer = {0};
	struct marks *marks = NULL;
	unsigned char *pixels = NULL; /* the PNG's image, ours: it outlives the surface */
	int stride = 0;
	if (options->format == RENDER_FORMAT_SVG) {
		marks = xmalloc(sizeof *marks);
		marks->count = 0;
		marks->pending = 0;
	}
	canvas.marks = marks;
	/* Only cairo runs under the lock (render/lock.h): the frame above, the SVG's names and
	 * the PNG's encoding below run in parallel with other pictures. */
	render_lock_acquire();
	cairo_surface_t *surface;
	if (options->format == RENDER_FORMAT_SVG) {
		surface = cairo_svg_surface_create_for_stream(buffer_write, &buffer, canvas.layout.width,
							      canvas.layout.height);
		cairo_svg_surface_set_document_unit(surface, CAIRO_SVG_UNIT_PX);
	} else {
		stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, canvas.layout.width);
		pixels = xmalloc((size_t)stride * (size_t)canvas.layout.height);
		surface = cairo_image_surface_create_for_data(pixels, CAIRO_FORMAT_RGB24, canvas.layout.width,
							      canvas.layout.height, stride);
	}
	canvas.cr = cairo_create(surface);
	set_font_options(canvas.cr);
	if (options->format == RENDER_FORMAT_SVG)
		cairo_set_tolerance(canvas.cr, SVG_TOLERANCE);
	draw_picture(&canvas);
	marks_finish(marks, canvas.cr);
	int ok = cairo_status(canvas.cr) == CAIRO_STATUS_SUCCESS;
	cairo_destroy(canvas.cr);
	canvas_fonts_release(&canvas);
	/* Finishing writes the SVG into the buffer, or the last pixels into the image. */
	cairo_surface_finish(surface);
	ok = ok && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS;
	cairo_surface_destroy(surface);
	render_lock_release();
	if (options->format == RENDER_FORMAT_PNG && ok)
		ok = png_writer_encode(pixels, canvas.layout.width, canvas.layout.height, stride, &buffer.data,
				       &buffer.length);
	free(pixels);
	if (ok && marks) {
		buffer.length = marks_rewrite(marks, buffer.data, buffer.length);
		ok = buffer.length > 0;
	}
	free(marks);
	if (!ok) {
		free(buffer.data);
		return 0;
	}
	*out = buffer.data;
	*length = buffer.length;
	return 1;
}

void render_shutdown(void)
{
	render_lock_acquire();
	cairo_debug_reset_static_data();
	FcFini();
	render_lock_release();
}
