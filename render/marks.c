/*
 * marks.c - naming the elements of cairo's SVG output (see marks.h).
 *
 * A marker is a half-transparent paint of the whole surface in a reserved colour (red 1/255
 * with the index in green and blue opens a group, rgb 3,2,1 closes one). cairo 1.16 writes
 * each as one line, <rect x="0" y="0" width=".." height=".." style="fill:rgb(0.392157%,
 * 0%,1.568627%);fill-opacity:0.5;stroke:none;"/>; the rewrite scans the document once, copying everything else byte for byte. A picture never
 * uses the reserved colours for anything else. A marker that does not parse makes the
 * rewrite fail, so a future cairo writing markers differently is caught by the tests rather
 * than producing a picture with stray squares. The root group's id, which cairo numbers
 * across the process ("surface17"), becomes "picture", so the same picture is the same bytes.
 */
#include "render/marks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The style cairo 1.16 writes for each marker's paint: a begin marker's colour starts with
 * red 1/255, an end marker's is rgb 3,2,1; both half transparent, which nothing else in a
 * picture is. */
static const char begin_colour[] = "fill:rgb(0.392157%,";
static const char end_colour[] = "fill:rgb(1.176471%,0.784314%,0.392157%);fill-opacity:0.5;";
static const char marker_start[] = "<rect x=\"0\" y=\"0\" ";
static const char marker_opacity[] = "fill-opacity:0.5;";

/* A marker is a paint of the whole surface, half transparent (an opaque paint would make
 * cairo drop everything drawn before it): cairo writes it as one <rect> with six numbers,
 * where a filled rectangle took fourteen, and printing numbers is most of an SVG's cost.
 * A begin marker's green and blue are its index. The path being built is left alone. */
static void draw_marker(cairo_t *cr, int index, int begin)
{
	cairo_save(cr);
	if (begin)
		cairo_set_source_rgba(cr, 1 / 255.0, (index >> 8) / 255.0, (index & 0xFF) / 255.0, 0.5);
	else
		cairo_set_source_rgba(cr, 3 / 255.0, 2 / 255.0, 1 / 255.0, 0.5);
	cairo_paint(cr);
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

/* A channel of cairo's "rgb(p%,...": the byte it was written from. */
static int channel(const char *text, const char **next)
{
	char *end;
	double percent = strtod(text, &end);
	if (end == text || *end != '%' || percent < 0 || percent > 100)
		return -1;
	*next = end + 1;
	return (int)(percent * 2.55 + 0.5);
}

/* The index a begin marker's colour encodes (green * 256 + blue), or -1. */
static int marker_index(const char *line, const char *line_end)
{
	const char *at = strstr(line, begin_colour);
	if (!at || at >= line_end)
		return -1;
	at += strlen(begin_colour);
	int high = channel(at, &at);
	if (high < 0 || *at != ',')
		return -1;
	int low = channel(at + 1, &at);
	if (low < 0)
		return -1;
	return high * 256 + low;
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
		int is_marker = line_length > sizeof marker_start && memcmp(at, marker_start, sizeof marker_start - 1) == 0 &&
		                contains(at, line_length, marker_opacity);
		int close = is_marker && contains(at, line_length, end_colour);
		int begin = is_marker && !close;
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
