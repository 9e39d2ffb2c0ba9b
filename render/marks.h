/*
 * marks.h - ids and classes for the elements of an SVG that cairo draws (internal to
 * render/).
 *
 * cairo's SVG surface writes anonymous paths and glyph uses; it has no way to name an
 * element. The drawing code (render.c) stays one path for SVG and PNG; when it draws an SVG
 * it brackets each element it wants named (a hex, a harbor, a piece, a label) with two
 * markers, half-transparent paints in reserved colours (a begin marker's colour encodes the
 * index of the name). marks_rewrite() then turns each begin marker into <g id=".."
 * class=".."> and each end marker into </g>, and the markers never reach the reader.
 */
#ifndef CATAN_RENDER_MARKS_H
#define CATAN_RENDER_MARKS_H

#include <cairo.h>
#include <stddef.h>

#define MARKS_MAX 512
#define MARKS_TEXT_SIZE 64

struct marks {
	int count;
	char attributes[MARKS_MAX][MARKS_TEXT_SIZE]; /* id="..." class="..." */
};

/* Open a group named `id` with `classes`: draws the begin marker on `cr` (leaving its path
 * alone) and records the name. Groups nest; past MARKS_MAX nothing is recorded (no marker drawn either). Returns
 * 1 when a marker was drawn, so the caller knows to close it. */
int marks_begin(struct marks *marks, cairo_t *cr, const char *id, const char *classes);

/* Close the innermost open group. */
void marks_end(cairo_t *cr);

/* The SVG `svg` (length bytes) with the markers replaced: a new NUL-terminated buffer the
 * caller frees with free(), *out_length its length; NULL when a marker cannot be read. */
unsigned char *marks_rewrite(const struct marks *marks, const unsigned char *svg, size_t length, size_t *out_length);

#endif
