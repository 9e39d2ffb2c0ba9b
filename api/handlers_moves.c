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
 * Table talk on the stream: the game's messages (game/messages.h) come as `event: message`
 * ({"type": "message", "version": V, "message": <the Message of GET .../messages>}, V the
 * last event version sent before it), merged with the events in the order of the feed
 * (db/store_feed.h: the order of the transactions that wrote them, read only below the
 * database's xmin, so nothing can commit behind what was sent). An event keeps `id: <V>`;
 * a message has `id: <V>.<seq>`. A resume from "V" goes on after event V's place in that
 * order, from "V.S" after message S's: nothing missed, nothing repeated. A your_turn
 * carries the id of the item before it. The long-poll of GET .../moves carries events only.
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

#include "api/handlers.h"
#include "api/notify.h"
#include "api/service.h"
#include "api/stream.h"
#include "base/clock.h"
#include "base/counters.h"
#include "base/xalloc.h"
#include "codec/shapes.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "game/feed.h"
#include "game/messages.h"
#include "http/headers.h"

#define LOG_LIMIT_DEFAULT 100
#define LOG_LIMIT_MAX 1000
#define STREAM_HEARTBEAT_S 15
#define STREAM_BATCH 100
#define STREAM_HELD_S 0.02

/* The note that the game waits for the session's seat, {type: "your_turn", version, seat,
 * actions: <the Actions body>}, when the game stands at `version` (the last event the
 * caller was given) and waits for that seat; NULL when it does not, when the caller is no
 * seat, or when the game has moved past `version` (the note comes with the later events)
 * or cannot be read now (the caller re-reads anyway). Brings session->game.state up to
 * date. New reference. */
json_t *handlers_your_turn_json(struct session *session, int32_t version)
{
	if (session->viewer < 0)
		return NULL;
	if ((int32_t)session->game.state.version < version && play_refresh(&session->game) != STORE_OK)
		return NULL;
	const struct game *state = &session->game.state;
	if ((int32_t)state->version != version || state->phase == GAME_PHASE_FINISHED ||
	    !(legal_waiting_for(state) >> session->viewer & 1u))
		return NULL;
	return json_pack("{s:s, s:i, s:i, s:o}", "type", "your_turn", "version", (int)version, "seat", session->viewer,
			 "actions", handlers_actions_json(session));
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
			http_respond_problem(request, PROBLEM_SEAT_MISMATCH, "the token belongs to another seat",
					     "seat", -1);
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
	struct session session;
	if (!service_open(request, &session))
		return;
	if (!state) {
		/* Admitted once its token is known (the places are counted per token too). */
		if (wait > 0 && !http_wait_admit(request))
			return;
		state = xcalloc(1, sizeof *state);
		state->deadline = clock_now() + (double)wait;
		request->state = state;
		request->free_state = free;
	}
	for (;;) {
		struct store_log log;
		enum store_status status = play_read_log(session.game.id, (int32_t)after, (int)limit, &log);
		if (status != STORE_OK) {
			service_store_error(request, status);
			return;
		}
		int32_t last = log.count ? log.rows[log.count - 1].seq : (int32_t)session.game.state.version;
		if (log.count == 0 && clock_now() < state->deadline && !notify_stopping()) {
			store_log_free(&log);
			if (notify_park(&state->waiter, request, session.game.id, (int32_t)after, state->deadline))
				return;
			continue;
		}
		int32_t version =
			last > (int32_t)session.game.state.version ? last : (int32_t)session.game.state.version;
		json_t *body = json_pack("{s:i, s:o}", "version", (int)version, "events",
					 play_log_json(&session.game, session.viewer, &log));
		store_log_free(&log);
		json_t *your_turn = handlers_your_turn_json(&session, last);
		if (your_turn)
			json_object_set_new(body, "your_turn", your_turn);
		http_respond_json(request, 200, body, (long)version);
		return;
	}
}

/* ---- Server-Sent Events ---- */

/* A game's stream (api/stream.h): what was sent, and where it goes on. */
struct game_stream {
	struct notify_waiter waiter;
	struct session session;
	int32_t sent;			     /* last version sent */
	int finished;			     /* the game is over: end once caught up */
	int32_t final_version;		     /* the newest version seen (read, or the game's at the start) */
	int32_t your_turn_checked;	     /* the last version whose your_turn was sent or found not due, -1 none */
	struct store_feed_position position; /* of the last item sent (game/feed.h) */
	int32_t event_floor;		     /* a resume from a version the log has no place for: events after it */
	char last_id[40];		     /* the id of the last item sent */
};

/* Frame newer events and messages; 0 on a database error. Sets *held when rows follow
 * that are not yet below xmin (read again shortly). */
static int game_stream_fill(void *state, struct sse *sse, int *held)
{
	struct game_stream *stream = state;
	*held = 0;
	struct store_feed feed;
	enum store_status status =
		feed_read_game(stream->session.game.id, &stream->position, stream->event_floor, 0, STREAM_BATCH, &feed);
	if (status != STORE_OK)
		return 0;
	int settled = 0;
	while (settled < feed.count && feed.items[settled].settled)
		settled++;
	*held = settled < feed.count;
	for (int i = 0; i < settled; i++) {
		const struct store_feed_item *item = &feed.items[i];
		json_t *entry;
		if (item->at.kind == STORE_FEED_EVENT) {
			struct store_log log = {1, (struct store_event_row *)&item->event};
			json_t *entries = play_log_json(&stream->session.game, stream->session.viewer, &log);
			entry = json_incref(json_array_get(entries, 0));
			json_decref(entries);
			stream->sent = item->at.seq;
			if (stream->sent > stream->final_version)
				stream->final_version = stream->sent;
			snprintf(stream->last_id, sizeof stream->last_id, "%ld", (long)item->at.seq);
		} else {
			entry = json_pack("{s:s, s:i, s:o}", "type", "message", "version", (int)stream->sent, "message",
					  messages_json(&stream->session.game, &item->message, NULL));
			snprintf(stream->last_id, sizeof stream->last_id, "%ld.%ld", (long)stream->sent,
				 (long)item->at.seq);
		}
		stream->position = item->at;
		if (!entry)
			continue; /* an unparsable event: told to the operator by play_log_json() */
		char *data = json_dumps(entry, JSON_COMPACT);
		if (!data)
			abort();
		const char *type = json_string_value(json_object_get(entry, "type"));
		if (type && strcmp(type, "game_won") == 0)
			stream->finished = 1;
		sse_item(sse, stream->last_id, type ? type : "event", data);
		free(data);
		json_decref(entry);
	}
	int caught_up = feed.count < STREAM_BATCH && !*held;
	store_feed_free(&feed);
	/* Caught up, and the game waits for the seat: tell it once per version. */
	json_t *your_turn = NULL;
	if (caught_up && stream->session.viewer >= 0 && stream->your_turn_checked != stream->sent) {
		your_turn = handlers_your_turn_json(&stream->session, stream->sent);
		/* Decided unless the state could not be brought to that version (read again then). */
		if ((int32_t)stream->session.game.state.version >= stream->sent)
			stream->your_turn_checked = stream->sent;
	}
	if (your_turn) {
		char *data = json_dumps(your_turn, JSON_COMPACT);
		json_decref(your_turn);
		if (!data)
			abort();
		sse_item(sse, stream->last_id[0] ? stream->last_id : "0", "your_turn", data);
		free(data);
	}
	return 1;
}

/* Caught up with a finished game (every row below xmin): nothing more will come. */
static int game_stream_end(void *state, struct sse *sse)
{
	struct game_stream *stream = state;
	if (!stream->finished)
		return 0;
	char data[64];
	snprintf(data, sizeof data, "{\"type\":\"end\",\"version\":%ld}", (long)stream->final_version);
	sse_item(sse, "", "end", data);
	return 1;
}

static int game_stream_park(void *state, struct http_request *request, uint64_t seen, double until)
{
	struct game_stream *stream = state;
	return notify_park_messages(&stream->waiter, request, stream->session.game.id, stream->sent, seen, until);
}

/* A replaced token ends the streams opened with it (its replacement wakes them). */
static int game_stream_allowed(void *state)
{
	struct game_stream *stream = state;
	return service_token_still_valid(&stream->session);
}

static const struct stream_source game_stream_source = {game_stream_allowed, game_stream_fill, game_stream_end,
							game_stream_park};

void handle_get_stream(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	long after = 0, message = 0;
	const char *last_event_id = http_header(request, "Last-Event-ID");
	if (last_event_id) {
		const char *dot = strchr(last_event_id, '.');
		char version_text[16] = "";
		if (dot && (size_t)(dot - last_event_id) < sizeof version_text)
			memcpy(version_text, last_event_id, (size_t)(dot - last_event_id));
		if (dot ? !headers_integer(version_text, 0, INT32_MAX, &after) ||
				    !headers_integer(dot + 1, 1, INT32_MAX, &message)
			: !headers_integer(last_event_id, 0, INT32_MAX, &after)) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD,
					     "Last-Event-ID is a version number, or <version>.<message seq>",
					     "Last-Event-ID", -1);
			return;
		}
	} else {
		after = http_query_integer(request, "after", 0, 0, INT32_MAX);
		if (after < 0)
			return;
	}
	/* Where the stream goes on: after the place of message `message`, or of event `after`;
	 * a version the log has not reached (or 0) goes on after that version from the start. */
	struct store_feed_position position = {0, 0, 0, 0};
	int32_t event_floor = 0;
	enum store_status status = STORE_NOT_FOUND;
	if (message > 0)
		status = feed_position_of(session.game.id, STORE_FEED_MESSAGE, (int32_t)message, &position);
	else if (after > 0)
		status = feed_position_of(session.game.id, STORE_FEED_EVENT, (int32_t)after, &position);
	if (status == STORE_NOT_FOUND && message > 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "Last-Event-ID names no message of this game",
				     "Last-Event-ID", -1);
		return;
	}
	if (status == STORE_NOT_FOUND) {
		memset(&position, 0, sizeof position);
		event_floor = (int32_t)after;
	} else if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	if (!http_wait_admit(request))
		return;
	struct game_stream *stream = xcalloc(1, sizeof *stream);
	memcpy(&stream->session, &session, sizeof session);
	stream->position = position;
	stream->event_floor = event_floor;
	if (message > 0)
		snprintf(stream->last_id, sizeof stream->last_id, "%ld.%ld", after, message);
	else if (after > 0)
		snprintf(stream->last_id, sizeof stream->last_id, "%ld", after);
	stream->sent = (int32_t)after;
	stream->your_turn_checked = -1;
	stream->final_version = (int32_t)session.game.state.version;
	stream->finished = session.game.state.phase == GAME_PHASE_FINISHED;
	stream_respond(request, &game_stream_source, stream, free, STREAM_HEARTBEAT_S, STREAM_HELD_S);
}
