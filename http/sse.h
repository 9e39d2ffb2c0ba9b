/*
 * sse.h - the framing of Server-Sent Events: items ("id:", "event:", "data:" lines and a
 * blank line) and keep-alive comments, kept until libmicrohttpd's content reader takes
 * them (http_respond_stream()), in pieces as small as it asks.
 *
 * A data line is written as it is given: the callers give compact JSON, which holds no
 * line break. Ownership: the struct is the caller's (zeroed to start: no allocation until
 * the first item); sse_free() releases what it holds.
 */
#ifndef CATAN_HTTP_SSE_H
#define CATAN_HTTP_SSE_H

#include <stddef.h>

#include "base/xalloc.h"

struct sse {
	struct xtext text; /* framed bytes; text.data NULL before the first */
	size_t taken;	   /* of text.length, handed out already */
};

/* Append an item: "id: <id>" (unless id is ""), "event: <type>", "data: <data>". */
void sse_item(struct sse *sse, const char *id, const char *type, const char *data);

/* Append a comment line that keeps an idle connection alive (": ping"). */
void sse_ping(struct sse *sse);

/* 1 while framed bytes wait to be taken. */
int sse_pending(const struct sse *sse);

/* Copy up to `max` waiting bytes to `out`: how many. Once all are taken the buffer is
 * empty again (its memory kept for the next items). */
size_t sse_take(struct sse *sse, char *out, size_t max);

void sse_free(struct sse *sse);

#endif
