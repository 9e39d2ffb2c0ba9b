/*
 * png_writer.c - writing the pixels of an RGB24 image (cairo's layout) as PNG with libpng (png_writer.h).
 *
 * cairo keeps an RGB24 pixel as a native-endian 32-bit word 0x00RRGGBB; render_board()
 * hands over the image of a finished surface as such words (no cairo call here). Each row is
 * converted to 3-byte RGB in a scratch row and handed to libpng; the PNG is collected in a
 * growing memory buffer. libpng reports errors by longjmp to the setjmp below, after which
 * everything is released and 0 returned.
 *
 * Settings, measured on the benchmark's mid-game picture at 1024 px (bench/render_bench.c
 * --only png, CPU time of one thread on a busy 2-core machine; drawing alone is about
 * 5.5 ms of each figure):
 *
 *   cairo's writer (RGB, level 6, adaptive filters)    25 ms   163 kB
 *   RGB, level 0 (stored, no compression)                5.6 ms 1970 kB
 *   RGB, filter NONE, level 1 / 2 / 3 / 4 / 6 / 9     8.6 / 8.6 / 8.8 / 11.9 / 15.6 / 52 ms
 *                                                      140 / 138 / 135 / 130 / 125 / 119 kB
 *   RGB, filter SUB, level 1 / 3 / 6                  10.5 / 10.9 / 17.4 ms  173 / 170 / 160 kB
 *   RGB, filter UP, level 1                           10.4 ms  169 kB
 *   RGB, filter PAETH, level 1                        12.4 ms  172 kB
 *   RGB, all five filters (adaptive), level 1         17.3 ms  170 kB
 *   RGB, SUB, level 1, Z_RLE                           10.0 ms  211 kB
 *
 * A picture of flat colours compresses best unfiltered: zlib finds the repeated runs of
 * pixels itself, and a filter turns the edges of every shape into noise. Level 3 with no
 * filter is as fast as level 1 and smaller than cairo's own PNG; from level 4 on zlib's
 * lazy matching costs more than it saves.
 *
 * Nothing varies between runs (no tIME chunk, no text): the same pixels, the same bytes.
 */
#include "render/png_writer.h"

#include <png.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

#define ZLIB_LEVEL 3
#define ROW_FILTER PNG_FILTER_NONE

static void sink_write(png_structp png, png_bytep data, png_size_t length)
{
	xbytes_add(png_get_io_ptr(png), data, length, 65536);
}

static void sink_flush(png_structp png)
{
	(void)png;
}

/* Everything the setjmp below must see after a longjmp lives here, not in locals. */
struct job {
	png_structp png;
	png_infop info;
	struct xbytes sink;
	unsigned char *row;
};

static int encode(struct job *job, const unsigned char *pixels, int width, int height, int stride)
{
	if (setjmp(png_jmpbuf(job->png)))
		return 0;
	png_set_write_fn(job->png, &job->sink, sink_write, sink_flush);
	png_set_IHDR(job->png, job->info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_set_compression_level(job->png, ZLIB_LEVEL);
	png_set_filter(job->png, PNG_FILTER_TYPE_BASE, ROW_FILTER);
	png_write_info(job->png, job->info);
	for (int y = 0; y < height; y++) {
		const uint32_t *from = (const uint32_t *)(const void *)(pixels + (size_t)y * (size_t)stride);
		unsigned char *to = job->row;
		for (int x = 0; x < width; x++) {
			uint32_t pixel = from[x];
			*to++ = (unsigned char)(pixel >> 16);
			*to++ = (unsigned char)(pixel >> 8);
			*to++ = (unsigned char)pixel;
		}
		png_write_row(job->png, job->row);
	}
	png_write_end(job->png, NULL);
	return 1;
}

int png_writer_encode(const unsigned char *pixels, int width, int height, int stride, unsigned char **out,
		      size_t *length)
{
	if (!pixels || width <= 0 || height <= 0 || stride < width * 4)
		return 0;
	struct job job = {0};
	job.png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!job.png)
		return 0;
	job.info = png_create_info_struct(job.png);
	job.row = xmalloc((size_t)width * 3 + 1);
	int ok = job.info && encode(&job, pixels, width, height, stride);
	png_destroy_write_struct(&job.png, job.info ? &job.info : NULL);
	free(job.row);
	if (!ok) {
		free(job.sink.data);
		return 0;
	}
	*out = job.sink.data;
	*length = job.sink.length;
	return 1;
}
