/*
 * stream.c - the reader loop of every event stream (see stream.h).
 *
 * Per call of libmicrohttpd's reader: hand out framed bytes if there are any; else end
 * when the client has gone (an error, so nothing more is written) or the server stops;
 * else fill from the source, and when that framed nothing either end (the source says
 * so), send a keep-alive (when one is due) or park. A parked stream returns 0 bytes: the
 * connection is suspended (notify_park*()) and the reader is asked again once it is woken.
 */
#include "api/stream.h"

#include <stdlib.h>

#include "api/notify.h"
#include "base/clock.h"
#include "base/counters.h"
#include "base/xalloc.h"

struct stream {
	struct http_request *request;
	const struct stream_source *source;
	void *state;
	void (*free_state)(void *state);
	struct sse sse;
	double heartbeat_s, held_s, heartbeat_due;
	int ended; /* the last item is framed: end once it is sent */
};

static void stream_free(void *cls)
{
	struct stream *stream = cls;
	counters_gauge_add(COUNTERS_GAUGE_STREAMS, -1);
	stream->free_state(stream->state);
	sse_free(&stream->sse);
	free(stream);
}

static ssize_t stream_read(void *cls, uint64_t position, char *out, size_t max)
{
	(void)position;
	struct stream *stream = cls;
	const struct stream_source *source = stream->source;
	for (;;) {
		if (http_departed(stream->request))
			return MHD_CONTENT_READER_END_WITH_ERROR; /* its client has gone */
		if (sse_pending(&stream->sse))
			return (ssize_t)sse_take(&stream->sse, out, max);
		if (notify_stopping() || stream->ended)
			return MHD_CONTENT_READER_END_OF_STREAM;
		uint64_t seen = notify_seen();
		int held = 0;
		if (source->allowed && !source->allowed(stream->state))
			return MHD_CONTENT_READER_END_OF_STREAM;
		if (!source->fill(stream->state, &stream->sse, &held))
			return MHD_CONTENT_READER_END_WITH_ERROR;
		if (sse_pending(&stream->sse))
			continue;
		if (!held && source->end && source->end(stream->state, &stream->sse)) {
			stream->ended = 1;
			continue;
		}
		double now = clock_now();
		if (now >= stream->heartbeat_due) {
			stream->heartbeat_due = now + stream->heartbeat_s;
			sse_ping(&stream->sse);
			continue;
		}
		/* Rows held back: look again in a moment (their commit is under way). */
		double until = held && now + stream->held_s < stream->heartbeat_due ? now + stream->held_s
										    : stream->heartbeat_due;
		if (source->park(stream->state, stream->request, seen, until))
			return 0;
	}
}

void stream_respond(struct http_request *request, const struct stream_source *source, void *state,
		    void (*free_state)(void *state), double heartbeat_s, double held_s)
{
	struct stream *stream = xmalloc(sizeof *stream);
	*stream = (struct stream){.request = request,
				  .source = source,
				  .state = state,
				  .free_state = free_state,
				  .heartbeat_s = heartbeat_s,
				  .held_s = held_s,
				  .heartbeat_due = clock_now() + heartbeat_s};
	counters_gauge_add(COUNTERS_GAUGE_STREAMS, 1);
	http_respond_stream(request, "text/event-stream; charset=utf-8", stream_read, stream, stream_free);
}
