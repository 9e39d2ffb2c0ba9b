/*
 * handlers_messages.c - table talk: POST /v1/games/{id}/messages {text} by a seat, and
 * GET /v1/games/{id}/messages?after=S&limit=N for anyone (spectators too).
 *
 * Messages are kept beside the log (game/messages.h): posting one leaves the game's version
 * as it is, so a move's If-Match, the game's ETag and long-polls of moves never notice it,
 * and the answers here carry no game ETag but a tag of their content ("messages-<hash>",
 * so If-None-Match answers 304 while nothing new was said). A seat may post
 * MESSAGE_RATE_SEAT messages a minute (api/config.h, default 10; the seat's budget, keyed by
 * the game and the seat, api/quotas.c): past that, 429 rate_limited with Retry-After (the seconds until the oldest
 * message of the last minute leaves the window), counted in the database so it holds across servers. Text: 1..500
 * characters of valid UTF-8, no control characters but line feeds, no bidi controls (400 naming `text`).
 */
#include <stdio.h>
#include <string.h>

#include "api/handlers.h"
#include "api/notify.h"
#include "api/service.h"
#include "base/counters.h"
#include "game/messages.h"

#define MESSAGES_PAGE_DEFAULT 100

void handle_post_message(struct http_request *request)
{
	struct session session;
	json_t *body = service_open_body(request, &session);
	if (!body)
		return;
	const char *text;
	struct problem_refusal refusal;
	if (!inputs_message(body, &text, &refusal)) {
		service_refuse(request, &refusal);
		json_decref(body);
		return;
	}
	struct store_message posted;
	int retry_after;
	int per_minute = service_config()->messages_per_minute;
	enum store_status status =
		messages_post(session.game.id, session.viewer, text, per_minute, &posted, &retry_after);
	if (status != STORE_OK) {
		json_decref(body);
		service_store_error(request, status);
		return;
	}
	if (retry_after > 0) {
		json_decref(body);
		char seconds[16], detail[128];
		snprintf(seconds, sizeof seconds, "%d", retry_after);
		snprintf(detail, sizeof detail,
			 "a seat may post %d messages a minute (MESSAGE_RATE_SEAT): retry in %d s", per_minute,
			 retry_after);
		http_add_header(request, "Retry-After", seconds);
		counters_add(COUNTERS_RATE_LIMITED, 1);
		http_respond_problem(request, PROBLEM_RATE_LIMITED, detail, NULL, -1);
		return;
	}
	/* This process's streams and feeds wake now; others by the post's own NOTIFY. */
	notify_message(session.game.id);
	json_t *answer = messages_json(&session.game, &posted, text);
	json_decref(body);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json_hashed(request, 201, answer, "messages-");
}

void handle_get_messages(struct http_request *request)
{
	struct session session;
	long after = http_query_integer(request, "after", 0, 0, INT32_MAX);
	if (after < 0)
		return;
	long limit = http_query_integer(request, "limit", MESSAGES_PAGE_DEFAULT, 1, MESSAGES_PAGE_MAX);
	if (limit < 0 || !service_open(request, &session))
		return;
	struct store_messages messages;
	enum store_status status = messages_read(session.game.id, (int32_t)after, (int)limit, &messages);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	json_t *list = json_array();
	long last = after;
	for (int i = 0; i < messages.count; i++) {
		json_array_append_new(list, messages_json(&session.game, &messages.rows[i], NULL));
		last = messages.rows[i].seq;
	}
	store_messages_free(&messages);
	json_t *body = json_pack("{s:o, s:i, s:i}", "messages", list, "last_seq", (int)last, "version",
				 (int)session.game.state.version);
	http_respond_json_hashed(request, 200, body, "messages-");
}
