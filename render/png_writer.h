/*
 * png_writer.h - a drawn picture as PNG bytes, written with libpng at settings chosen for
 * speed (internal to render/).
 *
 * cairo's own PNG writer (cairo_surface_write_to_png_stream) uses libpng's default zlib
 * level and adaptive filtering, which cairo does not let us change: most of a PNG's time.
 * This writer takes the same image surface and writes 8-bit RGB, unfiltered, at zlib
 * level 3 (png_writer.c has the measurements behind that choice).
 */
#ifndef CATAN_RENDER_PNG_WRITER_H
#define CATAN_RENDER_PNG_WRITER_H

#include <cairo.h>
#include <stddef.h>

/* Write `surface` (a finished CAIRO_FORMAT_RGB24 image surface, borrowed) as an opaque 8-bit
 * RGB PNG: 1 with *out (malloc'ed, the caller frees it with free()) and *length set, 0 when
 * the surface is not an RGB24 image or libpng failed (nothing allocated then). The same
 * pixels give the same bytes: no time or text chunk is written. */
int png_writer_encode(cairo_surface_t *surface, unsigned char **out, size_t *length);

#endif
