/*
 * stream.h - the one reader of every Server-Sent Events stream of the API (a game's
 * GET .../stream, a player's GET /v1/players/me/stream): what to send next, when to end,
 * when to wait, told by the stream's source.
 *
 * The reader is libmicrohttpd's content reader. Each time it is asked for bytes it hands
 * out what is framed (http/sse.h); when nothing is, it asks the source to frame what is
 * new (fill), lets the source end the stream once caught up (end), sends a keep-alive
 * every heartbeat_s, and otherwise parks the request (park: api/notify.h) until the source
 * changes or, while rows are held back (a commit under way), for held_s. A client that has
 * gone, or a server that stops, ends it. Streams are counted in /metrics (catan_streams).
 */
#ifndef CATAN_API_STREAM_H
#define CATAN_API_STREAM_H

#include <stdint.h>

#include "http/http.h"
#include "http/sse.h"

/* What a stream sends; every function gets the stream's state. */
struct stream_source {
	/* May the stream go on? 0 ends it before the next fill: the token it was opened with
	 * was replaced (its replacement wakes the stream), so the reconnection with the old
	 * token is refused (401). NULL: always. */
	int (*allowed)(void *state);
	/* Frame into sse what is new since the last fill: 0 on a database error (the stream
	 * ends). *held: rows follow that may not be sent yet (look again in held_s). */
	int (*fill)(void *state, struct sse *sse, int *held);
	/* Caught up with nothing held: frame the last item and answer 1 when the stream ends
	 * after it, else 0 (NULL: a stream that never ends by itself). */
	int (*end)(void *state, struct sse *sse);
	/* Park `request` until the source changes since `seen` (notify_seen() taken before the
	 * fill) or until `until` (monotonic seconds): 1 when parked, 0 to read again now. */
	int (*park)(void *state, struct http_request *request, uint64_t seen, double until);
};

/* Answer `request` 200 with a stream of `source` over `state` (owned from now on:
 * free_state(state) when the stream ends). */
void stream_respond(struct http_request *request, const struct stream_source *source, void *state,
		    void (*free_state)(void *state), double heartbeat_s, double held_s);

#endif
