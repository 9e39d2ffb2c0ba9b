/*
 * marks.c - naming the elements of cairo's SVG output (see marks.h).
 *
 * A marker is a half-transparent paint of the whole surface in a reserved colour: red 1/255
 * opens a group, red 2/255 closes the open group and opens the next, with the index of the
 * name in green and blue; rgb 3,2,1 closes a group. cairo 1.16 writes each as one line, and
 * the rewrite scans the document once, in place, copying everything else byte for byte. A
 * picture never uses the reserved colours (nor half transparency) for anything else. A
 * marker that does not parse makes the rewrite fail, so a future cairo writing markers
 * differently is caught by the tests rather than producing a picture with stray squares.
 * The root group's id, which cairo numbers across the process ("surface17"), becomes
 * "picture", so the same picture is the same bytes.
 */
#include "render/marks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/cairo_checked.h" /* last: after every header that declares cairo */

/* cairo 1.16 writes each marker's paint as one line, <rect x="0" y="0" width=".."
 * height=".." style="fill:rgb(R%,G%,B%);fill-opacity:0.5;stroke:none;"/>. Red 1/255 opens
 * a group, red 2/255 closes the open one and opens the next, rgb 3,2,1 closes; green and
 * blue are 1 + the index / 255 and 1 + the index % 255, never 0 (cairo prints a 0 through
 * a second, slower snprintf). Nothing else in a picture is half transparent. */
#define MARK_OPEN 1
#define MARK_NEXT 2
#define MARK_CLOSE 3
static const char marker_start[] = "<rect x=\"0\" y=\"0\" ";
static const char marker_opacity[] = "fill-opacity:0.5;";
static const char marker_fill[] = "fill:rgb(";

/* A marker is a paint of the whole surface, half transparent (an opaque paint would make
 * cairo drop everything drawn before it): cairo writes it as one <rect> with six numbers,
 * where a filled rectangle took fourteen. The path being built is left alone. */
static void draw_marker(cairo_t *cr, int kind, int index)
{
	cairo_save(cr);
	if (kind == MARK_CLOSE)
		cairo_set_source_rgba(cr, 3 / 255.0, 2 / 255.0, 1 / 255.0, 0.5);
	else
		cairo_set_source_rgba(cr, kind / 255.0, (1 + index / 255) / 255.0, (1 + index % 255) / 255.0, 0.5);
	cairo_paint(cr);
	cairo_restore(cr);
}

int marks_begin(struct marks *marks, cairo_t *cr, const char *id, const char *classes)
{
	if (!marks || marks->count >= MARKS_MAX)
		return 0;
	snprintf(marks->attributes[marks->count], MARKS_TEXT_SIZE, "id=\"%s\" class=\"%s\"", id, classes);
	draw_marker(cr, marks->pending ? MARK_NEXT : MARK_OPEN, marks->count);
	marks->pending = 0;
	marks->count++;
	return 1;
}

void marks_end(struct marks *marks, cairo_t *cr)
{
	if (marks->pending) /* an outer group ends right after an inner one: close the inner now */
		draw_marker(cr, MARK_CLOSE, 0);
	marks->pending = 1;
}

void marks_finish(struct marks *marks, cairo_t *cr)
{
	if (marks && marks->pending)
		draw_marker(cr, MARK_CLOSE, 0);
	if (marks)
		marks->pending = 0;
}

/* Where `needle` first occurs in the `length` bytes at `text`, or NULL. */
static const char *find(const char *text, size_t length, const char *needle)
{
	size_t size = strlen(needle);
	for (size_t i = 0; i + size <= length; i++)
		if (text[i] == needle[0] && memcmp(text + i, needle, size) == 0)
			return text + i;
	return NULL;
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

/* The marker's kind (MARK_*) and, for an opening one, *index; -1 when it does not parse. */
static int marker_kind(const char *line, size_t length, int *index)
{
	const char *at = find(line, length, marker_fill);
	if (!at)
		return -1;
	at += strlen(marker_fill);
	int red = channel(at, &at);
	if (red < 0 || *at != ',')
		return -1;
	int green = channel(at + 1, &at);
	if (green < 0 || *at != ',')
		return -1;
	int blue = channel(at + 1, &at);
	if (blue < 0)
		return -1;
	if (red == MARK_CLOSE && green == 2 && blue == 1)
		return MARK_CLOSE;
	if ((red != MARK_OPEN && red != MARK_NEXT) || green < 1 || blue < 1)
		return -1;
	*index = (green - 1) * 255 + (blue - 1);
	return red;
}

size_t marks_rewrite(const struct marks *marks, unsigned char *svg, size_t length)
{
	/* Every replacement is shorter than the line it replaces, so writing trails reading.
	 * Lines that stay are copied a span at a time, up to the next line replaced. */
	char *out = (char *)svg;
	size_t written = 0;
	const char *at = (const char *)svg, *end = (const char *)svg + length;
	const char *span = at; /* the start of the lines kept but not yet copied */
	while (at < end) {
		const char *line_end = memchr(at, '\n', (size_t)(end - at));
		line_end = line_end ? line_end + 1 : end;
		size_t line_length = (size_t)(line_end - at);
		char text[MARKS_TEXT_SIZE + 16];
		int size = -1;
		if (at[0] == '<' && line_length > sizeof marker_start &&
		    memcmp(at, marker_start, sizeof marker_start - 1) == 0 && find(at, line_length, marker_opacity)) {
			int index = 0;
			int kind = marker_kind(at, line_length, &index);
			if (kind < 0 || (kind != MARK_CLOSE && index >= marks->count))
				return 0;
			if (kind == MARK_CLOSE)
				size = snprintf(text, sizeof text, "</g>\n");
			else
				size = snprintf(text, sizeof text, "%s<g %s>\n", kind == MARK_NEXT ? "</g>\n" : "",
						marks->attributes[index]);
			if (size < 0 || (size_t)size > line_length)
				return 0;
		} else if (at[0] == '<' && line_length > 17 && memcmp(at, "<g id=\"surface", 14) == 0) {
			/* cairo numbers its surfaces across the process: the same picture drawn twice
			 * would differ in this id alone, and a picture must be the same bytes every time */
			size = snprintf(text, sizeof text, "<g id=\"picture\">\n");
		}
		if (size >= 0) {
			memmove(out + written, span, (size_t)(at - span));
			written += (size_t)(at - span);
			memcpy(out + written, text, (size_t)size);
			written += (size_t)size;
			span = line_end;
		}
		at = line_end;
	}
	memmove(out + written, span, (size_t)(end - span));
	written += (size_t)(end - span);
	out[written] = '\0';
	return written;
}
