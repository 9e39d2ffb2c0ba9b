/*
 * xalloc.c - the xmalloc family. Aborting is the right answer to out-of-memory in a server
 * whose state lives in the database: the process restarts and loses nothing.
 */
#include "base/xalloc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void out_of_memory(size_t size)
{
	fprintf(stderr, "{\"level\":\"fatal\",\"msg\":\"out of memory\",\"bytes\":%zu}\n", size);
	abort();
}

void *xmalloc(size_t size)
{
	void *pointer = malloc(size ? size : 1);
	if (!pointer)
		out_of_memory(size);
	return pointer;
}

void *xcalloc(size_t count, size_t size)
{
	void *pointer = calloc(count ? count : 1, size ? size : 1);
	if (!pointer)
		out_of_memory(count * size);
	return pointer;
}

void *xrealloc(void *pointer, size_t size)
{
	void *moved = realloc(pointer, size ? size : 1);
	if (!moved)
		out_of_memory(size);
	return moved;
}

char *xstrndup(const char *text, size_t length)
{
	char *copy = xmalloc(length + 1);
	memcpy(copy, text, length);
	copy[length] = '\0';
	return copy;
}

char *xstrdup(const char *text)
{
	return xstrndup(text, strlen(text));
}

char *xasprintf(const char *format, ...)
{
	va_list args;
	va_start(args, format);
	int length = vsnprintf(NULL, 0, format, args);
	va_end(args);
	if (length < 0)
		abort();
	char *text = xmalloc((size_t)length + 1);
	va_start(args, format);
	vsnprintf(text, (size_t)length + 1, format, args);
	va_end(args);
	return text;
}

void xtext_add(struct xtext *text, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	va_list again;
	va_copy(again, args);
	int need = vsnprintf(NULL, 0, format, args);
	va_end(args);
	if (need < 0) {
		va_end(again);
		return;
	}
	if (text->length + (size_t)need + 1 > text->size) {
		text->size = (text->length + (size_t)need + 1) * 2;
		text->data = xrealloc(text->data, text->size);
	}
	vsnprintf(text->data + text->length, text->size - text->length, format, again);
	va_end(again);
	text->length += (size_t)need;
}

struct xtext xtext_new(void)
{
	struct xtext text = {xmalloc(256), 0, 256};
	text.data[0] = '\0';
	return text;
}

void xbytes_add(struct xbytes *bytes, const void *data, size_t size, size_t first)
{
	if (bytes->length + size + 1 > bytes->capacity) {
		size_t capacity = bytes->capacity ? bytes->capacity : first;
		while (bytes->length + size + 1 > capacity)
			capacity *= 2;
		bytes->data = xrealloc(bytes->data, capacity);
		bytes->capacity = capacity;
	}
	memcpy(bytes->data + bytes->length, data, size);
	bytes->length += size;
	bytes->data[bytes->length] = '\0';
}
