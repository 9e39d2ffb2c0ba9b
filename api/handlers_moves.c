/*
 * handlers_moves.c - making moves, and reading the event log: at once, by long-poll, or
 * as a Server-Sent Events stream.
 *
 * Long-poll and streams park their connection (api/notify.h) while there is nothing new,
 * and re-read the log by version whenever they are woken, so a lost or late notification
 * never loses an event. A stream also wakes every STREAM_HEARTBEAT_S to send a comment
 * line, which keeps proxies from closing it and finds clients that went away.
 *
 * A seat is told when the game waits for it: when, after the events given, the game stands
 * at that version and waits for the seat, a stream sends `event: your_turn` (id: the
 * version, so a resume from it sends the note again while it is still due) and a long-poll
 * answer carries a `your_turn` member, each {type, version, seat, actions: <the Actions
 * body of GET /actions>}. Spectators and the admin never get one.
 *
 * A stream ends with the game: once it has sent the event that finished the game (or was
 * opened on a finished game) and has caught up with the log, it sends a last event,
 * `event: end` with `data: {"type": "end", "version": N}` (N the game's final version),
 * and closes. The end has no `id:`, so a browser that reconnects anyway resumes after the
 * last real event, and is told `end` again at once.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/shapes.h"
#include "api/handlers.h"
#include "api/headers.h"
#include "api/metrics.h"
#include "api/notify.h"
#include "api/service.h"
#include "api/xalloc.h"
#include "engine/legal.h"
#include "engine/view.h"

#define LOG_LIMIT_DEFAULT 100
#define LOG_LIMIT_MAX 1000
#define STREAM_HEARTBEAT_S 15
#define STREAM_BATCH 100

/* The note that the game waits for the session's seat, {type: "your_turn", version, seat,
 * actions: <the Actions body>}, when the game stands at `version` (the last event the
 * caller was given) and waits for that seat; NULL when it does not, when the caller is no
 * seat, or when the game has moved past `version` (the note comes with the later events)
 * or cannot be read now (the caller re-reads anyway). Brings session->game.state up to
 * date. New reference. */
static json_t *your_turn_json(struct session *session, int32_t version)
{
	if (session->viewer < 0)
		return NULL;
	if ((int32_t)session->game.state.version < version && play_refresh(&session->game) != STORE_OK)
		return NULL;
	const struct game *state = &session->game.state;
	if ((int32_t)state->version != version || state->phase == GAME_PHASE_FINISHED ||
	    !(legal_waiting_for(state) >> session->viewer & 1u))
		return NULL;
	return json_pack("{s:s, s:i, s:i, s:o}", "type", "your_turn", "version", (int)version, "seat",
			 session->viewer, "actions", handlers_actions_json(session));
}

void handle_post_move(struct http_request *request)
{
	struct session session;
	json_t *body = service_open_move_body(request, &session);
	if (!body)
		return;
	json_t *seat = json_object_get(body, "seat");
	if (seat) {
		if (!json_is_integer(seat)) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "seat is an integer", "seat", -1);
			json_decref(body);
			return;
		}
		if (json_integer_value(seat) != session.viewer) {
			http_respond_problem(request, PROBLEM_SEAT_MISMATCH, "the token belongs to another seat", "seat", -1);
			json_decref(body);
			return;
		}
		json_object_del(body, "seat");
	}
	struct command command;
	struct codec_error error;
	int parsed = codec_command_from_json(body, &command, &error);
	json_decref(body);
	if (!parsed) {
		service_codec_error(request, &error);
		return;
	}
	service_move(request, &session, &command, 201, NULL);
}

struct poll_state {
	struct notify_waiter waiter;
	double deadline;
};

void handle_get_moves(struct http_request *request)
{
	long after = http_query_integer(request, "after", 0, 0, INT32_MAX);
	long limit = after < 0 ? -1 : http_query_integer(request, "limit", LOG_LIMIT_DEFAULT, 1, LOG_LIMIT_MAX);
	long wait = limit < 0 ? -1 : http_query_integer(request, "wait", 0, 0, HANDLERS_WAIT_MAX_S);
	if (after < 0 || limit < 0 || wait < 0)
		return;
	struct poll_state *state = request->state;
	if (!state) {
		if (wait > 0 && !http_wait_admit(request))
			return;
		state = xcalloc(1, sizeof *state);
		state->deadline = http_now() + (double)wait;
		request->state = state;
		request->free_state = free;
	}
	struct session session;
	if (!service_open(request, &session))
		return;
	for (;;) {
		struct store_log log;
		enum store_status status =
			play_read_log(session.game.id, (int32_t)after, (int)limit, &log);
		if (status != STORE_OK) {
			service_store_error(request, status);
			return;
		}
		int32_t last = log.count ? log.rows[log.count - 1].seq : (int32_t)session.game.state.version;
		if (log.count == 0 && http_now() < state->deadline && !notify_stopping()) {
			store_log_free(&log);
			if (notify_park(&state->waiter, request, session.game.id, (int32_t)after, state->deadline))
				return;
			continue;
		}
		int32_t version = last > (int32_t)session.game.state.version ? last : (int32_t)session.game.state.version;
		json_t *body = json_pack("{s:i, s:o}", "version", (int)version, "events", play_log_json(&session.game, session.viewer, &log));
		store_log_free(&log);
		json_t *your_turn = your_turn_json(&session, last);
		if (your_turn)
			json_object_set_new(body, "your_turn", your_turn);
		http_respond_json(request, 200, body, (long)version);
		return;
	}
}

/* ---- Server-Sent Events ---- */

struct stream {
	struct http_request *request;
	struct notify_waiter waiter;
	struct session session;
	int32_t sent; /* last version sent */
	double heartbeat_due;
	char *pending; /* formatted bytes not yet handed to MHD */
	size_t pending_length, pending_offset;
	int counted;
	int finished;          /* the game is over: end once caught up */
	int ended;             /* the end event is formatted: close when it is sent */
	int32_t final_version; /* the newest version seen (read, or the game's at the start) */
	int32_t your_turn_checked; /* the last version whose your_turn was sent or found not due, -1 none */
};

static void stream_free(void *cls)
{
	struct stream *stream = cls;
	if (stream->counted)
		metrics_gauge_add(METRICS_STREAMS, -1);
	free(stream->pending);
	free(stream);
}

/* Read newer events into the pending buffer; 0 on a database error. */
static int stream_fill(struct stream *stream)
{
	struct store_log log;
	enum store_status status =
		play_read_log(stream->session.game.id, stream->sent, STREAM_BATCH, &log);
	if (status != STORE_OK)
		return 0;
	json_t *entries = play_log_json(&stream->session.game, stream->session.viewer, &log);
	size_t index;
	json_t *entry;
	size_t capacity = 256;
	char *buffer = xmalloc(capacity);
	size_t length = 0;
	json_array_foreach(entries, index, entry) {
		char *data = json_dumps(entry, JSON_COMPACT);
		if (!data)
			abort();
		json_int_t version = json_integer_value(json_object_get(entry, "version"));
		const char *type = json_string_value(json_object_get(entry, "type"));
		if (type && strcmp(type, "game_won") == 0)
			stream->finished = 1;
		size_t need = strlen(data) + 96;
		if (length + need > capacity) {
			capacity = (length + need) * 2;
			buffer = xrealloc(buffer, capacity);
		}
		length += (size_t)snprintf(buffer + length, capacity - length, "id: %lld\nevent: %s\ndata: %s\n\n",
					   (long long)version, type ? type : "event", data);
		free(data);
	}
	int caught_up = log.count < STREAM_BATCH;
	if (log.count) {
		stream->sent = log.rows[log.count - 1].seq;
		if (stream->sent > stream->final_version)
			stream->final_version = stream->sent;
	}
	json_decref(entries);
	store_log_free(&log);
	/* Caught up, and the game waits for the seat: tell it once per version. */
	json_t *your_turn = NULL;
	if (caught_up && stream->session.viewer >= 0 && stream->your_turn_checked != stream->sent) {
		your_turn = your_turn_json(&stream->session, stream->sent);
		/* Decided unless the state could not be brought to that version (read again then). */
		if ((int32_t)stream->session.game.state.version >= stream->sent)
			stream->your_turn_checked = stream->sent;
	}
	if (your_turn) {
		char *data = json_dumps(your_turn, JSON_COMPACT);
		json_decref(your_turn);
		if (!data)
			abort();
		size_t need = strlen(data) + 64;
		if (length + need > capacity) {
			capacity = length + need;
			buffer = xrealloc(buffer, capacity);
		}
		length += (size_t)snprintf(buffer + length, capacity - length, "id: %ld\nevent: your_turn\ndata: %s\n\n",
					   (long)stream->sent, data);
		free(data);
	}
	free(stream->pending);
	stream->pending = buffer;
	stream->pending_length = length;
	stream->pending_offset = 0;
	return 1;
}

static ssize_t stream_read(void *cls, uint64_t position, char *out, size_t max)
{
	(void)position;
	struct stream *stream = cls;
	for (;;) {
		if (stream->pending_offset < stream->pending_length) {
			size_t count = stream->pending_length - stream->pending_offset;
			if (count > max)
				count = max;
			memcpy(out, stream->pending + stream->pending_offset, count);
			stream->pending_offset += count;
			return (ssize_t)count;
		}
		if (notify_stopping())
			return MHD_CONTENT_READER_END_OF_STREAM;
		if (stream->ended)
			return MHD_CONTENT_READER_END_OF_STREAM;
		if (!stream_fill(stream))
			return MHD_CONTENT_READER_END_WITH_ERROR;
		if (stream->pending_length)
			continue;
		if (stream->finished) {
			/* Caught up with a finished game: nothing more will come. */
			free(stream->pending);
			stream->pending = xasprintf("event: end\ndata: {\"type\":\"end\",\"version\":%ld}\n\n",
						    (long)stream->final_version);
			stream->pending_length = strlen(stream->pending);
			stream->pending_offset = 0;
			stream->ended = 1;
			continue;
		}
		double now = http_now();
		if (now >= stream->heartbeat_due) {
			stream->heartbeat_due = now + STREAM_HEARTBEAT_S;
			static const char ping[] = ": ping\n\n";
			size_t count = sizeof ping - 1 < max ? sizeof ping - 1 : max;
			memcpy(out, ping, count);
			return (ssize_t)count;
		}
		if (notify_park(&stream->waiter, stream->request, stream->session.game.id, stream->sent,
				stream->heartbeat_due))
			return 0;
	}
}

void handle_get_stream(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	long after = 0;
	const char *last_event_id = http_header(request, "Last-Event-ID");
	if (last_event_id) {
		if (!headers_integer(last_event_id, 0, INT32_MAX, &after)) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "Last-Event-ID must be a version number",
					     "Last-Event-ID", -1);
			return;
		}
	} else {
		after = http_query_integer(request, "after", 0, 0, INT32_MAX);
		if (after < 0)
			return;
	}
	if (!http_wait_admit(request))
		return;
	struct stream *stream = xcalloc(1, sizeof *stream);
	stream->request = request;
	memcpy(&stream->session, &session, sizeof session);
	stream->sent = (int32_t)after;
	stream->your_turn_checked = -1;
	stream->final_version = (int32_t)session.game.state.version;
	stream->finished = session.game.state.phase == GAME_PHASE_FINISHED;
	stream->heartbeat_due = http_now() + STREAM_HEARTBEAT_S;
	stream->counted = 1;
	metrics_gauge_add(METRICS_STREAMS, 1);
	http_respond_stream(request, "text/event-stream; charset=utf-8", stream_read, stream, stream_free);
}
