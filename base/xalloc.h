/*
 * xalloc.h - allocation that never returns NULL: out of memory aborts the process (as in
 * Redis), so callers need no NULL checks. Every pointer returned is freed with free().
 */
#ifndef CATAN_BASE_XALLOC_H
#define CATAN_BASE_XALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *pointer, size_t size);
char *xstrdup(const char *text);
char *xstrndup(const char *text, size_t length);

/* A growing text: xtext_new() starts it empty ("" in data); xtext_add() appends printf
 * output, growing it as needed. The caller frees data. */
struct xtext {
	char *data;
	size_t length, size;
};
struct xtext xtext_new(void);
void xtext_add(struct xtext *text, const char *format, ...) __attribute__((format(printf, 2, 3)));

/* A growing run of bytes (a picture, a document), kept NUL-terminated after its length:
 * zeroed to start, nothing allocated until the first bytes; data is the caller's to
 * free(). */
struct xbytes {
	unsigned char *data;
	size_t length, capacity;
};
/* Append `size` bytes; the first growth makes room for `first` bytes (what the whole is
 * expected to take), each next one doubles. */
void xbytes_add(struct xbytes *bytes, const void *data, size_t size, size_t first);

/* printf into a new string; caller frees. */
char *xasprintf(const char *format, ...) __attribute__((format(printf, 1, 2)));

#endif
