/*
 * marks.c - naming the elements of cairo's SVG output (see marks.h).
 *
 * A marker is a fill of the 1x1 rectangle at (index % 256, index / 256) in a reserved colour
 * (rgb 1,2,3 opens a group, rgb 3,2,1 closes one). cairo 1.16 writes each such fill as one
 * line, <path style="...fill:rgb(0.392157%,0.784314%,1.176471%)..." d="M x y L ..."/>; the
 * rewrite scans the document once, copying everything else byte for byte. A picture never
 * uses the reserved colours for anything else. A marker that does not parse makes the
 * rewrite fail, so a future cairo writing markers differently is caught by the tests rather
 * than producing a picture with stray squares. The root group's id, which cairo numbers
 * across the process ("surface17"), becomes "picture", so the same picture is the same bytes.
 */
#include "render/marks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char begin_colour[] = "fill:rgb(0.392157%,0.784314%,1.176471%)";
static const char end_colour[] = "fill:rgb(1.176471%,0.784314%,0.392157%)";

static void draw_marker(cairo_t *cr, int index, int begin)
{
	cairo_save(cr);
	cairo_new_path(cr);
	cairo_rectangle(cr, index % 256, index / 256, 1, 1);
	if (begin)
		cairo_set_source_rgb(cr, 1 / 255.0, 2 / 255.0, 3 / 255.0);
	else
		cairo_set_source_rgb(cr, 3 / 255.0, 2 / 255.0, 1 / 255.0);
	cairo_fill(cr);
	cairo_restore(cr);
}

int marks_begin(struct marks *marks, cairo_t *cr, const char *id, const char *classes)
{
	if (!marks || marks->count >= MARKS_MAX)
		return 0;
	snprintf(marks->attributes[marks->count], MARKS_TEXT_SIZE, "id=\"%s\" class=\"%s\"", id, classes);
	draw_marker(cr, marks->count, 1);
	marks->count++;
	return 1;
}

void marks_end(cairo_t *cr)
{
	draw_marker(cr, 0, 0);
}

/* 1 when `needle` occurs in the `length` bytes at `text`. */
static int contains(const char *text, size_t length, const char *needle)
{
	size_t size = strlen(needle);
	for (size_t i = 0; i + size <= length; i++)
		if (text[i] == needle[0] && memcmp(text + i, needle, size) == 0)
			return 1;
	return 0;
}

/* The index a begin marker's path encodes: its first point "M x y". */
static int marker_index(const char *line, const char *line_end)
{
	const char *d = strstr(line, " d=\"M ");
	if (!d || d >= line_end)
		return -1;
	int x, y;
	if (sscanf(d + 6, "%d %d", &x, &y) != 2 || x < 0 || x > 255 || y < 0)
		return -1;
	return y * 256 + x;
}

unsigned char *marks_rewrite(const struct marks *marks, const unsigned char *svg, size_t length, size_t *out_length)
{
	/* Every begin marker line is longer than its replacement, so the output fits. */
	char *out = malloc(length + 1);
	if (!out)
		abort();
	size_t written = 0;
	const char *at = (const char *)svg, *end = (const char *)svg + length;
	while (at < end) {
		const char *line_end = memchr(at, '\n', (size_t)(end - at));
		line_end = line_end ? line_end + 1 : end;
		size_t line_length = (size_t)(line_end - at);
		int is_path = line_length > 6 && memcmp(at, "<path ", 6) == 0;
		int begin = is_path && contains(at, line_length, begin_colour);
		int close = is_path && !begin && contains(at, line_length, end_colour);
		if (begin) {
			int index = marker_index(at, line_end);
			if (index < 0 || index >= marks->count) {
				free(out);
				return NULL;
			}
			written += (size_t)sprintf(out + written, "<g %s>\n", marks->attributes[index]);
		} else if (line_length > 14 && memcmp(at, "<g id=\"surface", 14) == 0) {
			/* cairo numbers its surfaces across the process: the same picture drawn twice
			 * would differ in this id alone, and a picture must be the same bytes every time */
			memcpy(out + written, "<g id=\"picture\">\n", 17);
			written += 17;
		} else if (close) {
			memcpy(out + written, "</g>\n", 5);
			written += 5;
		} else {
			memcpy(out + written, at, line_length);
			written += line_length;
		}
		at = line_end;
	}
	out[written] = '\0';
	*out_length = written;
	return (unsigned char *)out;
}
