/*
 * sse.c - Server-Sent Events framing into a growing text (see sse.h).
 */
#include "http/sse.h"

#include <stdlib.h>
#include <string.h>

static void ensure(struct sse *sse)
{
	if (!sse->text.data)
		sse->text = xtext_new();
}

void sse_item(struct sse *sse, const char *id, const char *type, const char *data)
{
	ensure(sse);
	if (*id)
		xtext_add(&sse->text, "id: %s\n", id);
	xtext_add(&sse->text, "event: %s\ndata: %s\n\n", type, data);
}

void sse_ping(struct sse *sse)
{
	ensure(sse);
	xtext_add(&sse->text, ": ping\n\n");
}

int sse_pending(const struct sse *sse)
{
	return sse->taken < sse->text.length;
}

size_t sse_take(struct sse *sse, char *out, size_t max)
{
	size_t count = sse->text.length - sse->taken;
	if (count > max)
		count = max;
	memcpy(out, sse->text.data + sse->taken, count);
	sse->taken += count;
	if (sse->taken == sse->text.length) {
		sse->taken = sse->text.length = 0;
		sse->text.data[0] = '\0';
	}
	return count;
}

void sse_free(struct sse *sse)
{
	free(sse->text.data);
	memset(sse, 0, sizeof *sse);
}
