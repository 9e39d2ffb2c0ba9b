/*
 * marks.h - ids and classes for the elements of an SVG that cairo draws (internal to
 * render/).
 *
 * cairo's SVG surface writes anonymous paths and glyph uses; it has no way to name an
 * element. The drawing code (render.c) stays one path for SVG and PNG; when it draws an SVG
 * it marks where each element it wants named (a hex, a harbor, a piece, a label) begins with
 * a marker, a half-transparent paint in a reserved colour that encodes the index of the
 * name. marks_rewrite() then turns each marker into <g id=".." class=".."> (after a </g>
 * when it also closes the group before it), and the markers never reach the reader.
 *
 * A group ends lazily: marks_end() draws nothing, and the group closes where the next one
 * begins (one marker does both) or at marks_finish(). So what is drawn after marks_end()
 * and before the next marks_begin() or marks_finish() still lands in the ended group: the
 * drawing code draws nothing between groups. Each marker costs the SVG writer six printed
 * numbers, the dearest thing it does, so one marker per group instead of two is worth it.
 */
#ifndef CATAN_RENDER_MARKS_H
#define CATAN_RENDER_MARKS_H

#include <cairo.h>
#include <stddef.h>

#define MARKS_MAX 512
#define MARKS_TEXT_SIZE 64

struct marks {
	int count;
	int pending;				     /* groups ended whose close is not drawn yet: 0 or 1 */
	char attributes[MARKS_MAX][MARKS_TEXT_SIZE]; /* id="..." class="..." */
};

/* Open a group named `id` with `classes`: draws the begin marker on `cr` (leaving its path
 * alone) and records the name. Groups nest; past MARKS_MAX nothing is recorded (no marker drawn either). Returns
 * 1 when a marker was drawn, so the caller knows to close it. */
int marks_begin(struct marks *marks, cairo_t *cr, const char *id, const char *classes);

/* End the innermost open group: it closes where the next group begins or at
 * marks_finish(), whichever comes first (see above). */
void marks_end(struct marks *marks, cairo_t *cr);

/* Close a group still open after marks_end(): once, after the last drawing. */
void marks_finish(struct marks *marks, cairo_t *cr);

/* Replace the markers of the SVG `svg` (length bytes, writable, with room for a NUL after
 * them) in place: every replacement is shorter than its marker. Returns the new length, NUL
 * terminated, or 0 when a marker cannot be read (the buffer is then garbage). */
size_t marks_rewrite(const struct marks *marks, unsigned char *svg, size_t length);

#endif
