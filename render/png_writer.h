/*
 * png_writer.h - a drawn picture as PNG bytes, written with libpng at settings chosen for
 * speed (internal to render/).
 *
 * cairo's own PNG writer (cairo_surface_write_to_png_stream) uses libpng's default zlib
 * level and adaptive filtering, which cairo does not let us change: most of a PNG's time.
 * This writer takes the pixels of an RGB24 image (as cairo keeps them) and writes 8-bit
 * RGB, unfiltered, at zlib level 3 (png_writer.c has the measurements behind that choice).
 * It calls libpng only, never cairo, so it runs outside render/lock.h's lock.
 */
#ifndef CATAN_RENDER_PNG_WRITER_H
#define CATAN_RENDER_PNG_WRITER_H

#include <stddef.h>

/* Write the `width` x `height` image at `pixels` (borrowed; rows `stride` bytes apart, each
 * pixel a native-endian 32-bit 0x??RRGGBB word, CAIRO_FORMAT_RGB24's layout) as an opaque
 * 8-bit RGB PNG: 1 with *out (malloc'ed, the caller frees it with free()) and *length set,
 * 0 when libpng failed (nothing allocated then). The same pixels give the same bytes: no
 * time or text chunk is written. */
int png_writer_encode(const unsigned char *pixels, int width, int height, int stride, unsigned char **out,
		      size_t *length);

#endif
