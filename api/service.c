/*
 * service.c - what every game handler does over HTTP: find the game named by the path,
 * know who is asking, read the body, and turn the game service's outcomes (game/play.h)
 * into answers.
 *
 * The game service does the work (load, decide, append, render) and knows nothing of
 * HTTP; this file holds what does: bearer tokens (and ?token= for EventSource), the
 * per-token rate limit, the If-Match and Idempotency-Key headers, problem+json for every
 * outcome, and the hooks through which the service's appends reach this process's parked
 * requests, counters and workers.
 *
 * Reads (GET, HEAD) are answered from the process cache when it is known to be current
 * (catch_up(): the listener connected and nothing newer heard, api/notify.h), without a
 * statement; otherwise the log's tail is read as before. A client that knows a version
 * (the version of an answer it was given, by any server: ?min_version=, or the ETag it
 * sends in If-None-Match) is never answered an older one: a copy older than that reads
 * the tail, so a write's own version, sent along, is read back through any server. A
 * spectator's read (no token) may be answered by a standby (DATABASE_READ_URL,
 * game/play_standby.c) under the same rule: only when the standby has replayed that
 * version and every version this process heard of (load_for_spectator()).
 */
#include "api/service.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "api/notify.h"
#include "api/routes.h"
#include "base/clock.h"
#include "base/counters.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "engine/view.h"
#include "game/auth.h"
#include "game/worker.h"
#include "http/headers.h"
#include "http/ratelimit.h"

static const struct config *settings;

/* ---- The service's hooks ---- */

static void on_appended(int64_t game_id, int32_t version, int events, int bot_due)
{
	notify_version(game_id, version);
	counters_add(COUNTERS_EVENTS_APPENDED, events);
	if (bot_due)
		worker_wake();
}

static void on_append_conflict(void)
{
	counters_add(COUNTERS_APPEND_CONFLICTS, 1);
}

static void on_created(int64_t game_id, int events, int bot_due)
{
	(void)game_id;
	counters_add(COUNTERS_GAMES_CREATED, 1);
	counters_add(COUNTERS_EVENTS_APPENDED, events);
	if (bot_due)
		worker_wake();
}

static void on_problem(const char *what, const char *game, const char *detail)
{
	log_event("error", what, "game", game, "detail", detail, NULL);
}

void service_init(const struct config *config)
{
	settings = config;
	static const struct play_hooks hooks = {on_appended, on_append_conflict, on_created, on_problem};
	play_init(config->database_url, &hooks);
	play_set_read_url(config->database_read_url);
	play_set_group_commit(config->group_commit_connections, config->group_commit_max);
	play_set_unattended_pacing(!config->all_bot_games);
}

const struct config *service_config(void)
{
	return settings;
}

void service_store_error(struct http_request *request, enum store_status status)
{
	if (status == STORE_NOT_STARTED) {
		http_respond_problem(
			request, PROBLEM_GAME_NOT_STARTED,
			"the game has not started: it waits for players to join its open seats (it starts when every "
			"seat is taken), or expired waiting (its view says which)",
			NULL, 0);
		return;
	}
	counters_add(COUNTERS_DATABASE_ERRORS, 1);
	if (status == STORE_UNAVAILABLE) {
		http_add_header(request, "Retry-After", "1");
		http_respond_problem(request, PROBLEM_DATABASE_UNAVAILABLE,
				     "the database cannot be reached; retry shortly", NULL, -1);
	} else {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, store_status_message(status), NULL, -1);
	}
}

int service_token_admit(struct http_request *request, const char *token, size_t length)
{
	/* The token's quota replaces the address's in the answer's RateLimit-* headers. */
	struct ratelimit_quota quota;
	int allowed = ratelimit_take(RATELIMIT_TOKEN, token, length, clock_now(), &quota);
	if (quota.limit > 0)
		request->quota = quota;
	if (!allowed) {
		char seconds[16];
		snprintf(seconds, sizeof seconds, "%d", quota.retry_after_s);
		http_add_header(request, "Retry-After", seconds);
		counters_add(COUNTERS_RATE_LIMITED, 1);
		http_respond_problem(request, PROBLEM_RATE_LIMITED, "too many requests with this token", NULL, -1);
		return 0;
	}
	return 1;
}

/* The caller's seat from its bearer token: 1 and *viewer set, or a problem queued. */
static int authenticate(struct http_request *request, struct session *session, const char *token, size_t length)
{
	uint8_t hash[AUTH_HASH_SIZE];
	auth_hash(token, length, hash);
	int seat;
	enum store_status status = play_find_token(session->game.id, hash, &seat);
	if (status == STORE_NOT_FOUND && length > 3 && memcmp(token, "pt_", 3) == 0) {
		/* A player's token acts for the player's own seats, and for nothing else. */
		http_respond_problem(request, PROBLEM_PLAYER_NOT_SEATED, "this player holds no seat in this game", NULL,
				     -1);
		return 0;
	}
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN, "this token does not belong to this game", NULL,
				     -1);
		return 0;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	session->viewer = seat == STORE_SEAT_ADMIN ? PLAY_ADMIN : seat;
	request->token = token;
	request->token_length = length;
	session->has_token = 1;
	memcpy(session->token_hash, hash, sizeof session->token_hash);
	return 1;
}

int service_token_still_valid(const struct session *session)
{
	if (!session->has_token)
		return 1;
	int seat;
	enum store_status status = play_find_token(session->game.id, session->token_hash, &seat);
	if (status == STORE_NOT_FOUND)
		return 0;
	if (status != STORE_OK)
		return 1;
	return seat == (session->viewer == PLAY_ADMIN ? STORE_SEAT_ADMIN : session->viewer);
}

/* The version the caller says it knows: ?min_version= or the version tags of If-None-Match,
 * the larger; 0 when neither; -1 with the problem queued for a malformed min_version. */
static long known_version(struct http_request *request)
{
	long known = http_query_integer(request, "min_version", 0, 0, INT32_MAX);
	if (known < 0)
		return -1;
	long tagged = headers_known_version(http_header(request, MHD_HTTP_HEADER_IF_NONE_MATCH));
	return tagged > known ? tagged : known;
}

/* Bring game (as cached, or as loaded on a miss) up to what a read must show: itself when
 * it is at least `known` and nothing newer was heard (the ticket was taken before the copy
 * was fetched), else the log's tail (claiming the slot for the next reads). */
static enum store_status catch_up(struct game_record *game, long known, const struct notify_ticket *ticket)
{
	if ((long)game->state.version >= known && notify_fresh(game->id, (int32_t)game->state.version)) {
		counters_add(COUNTERS_READS_CACHED, 1);
		return STORE_OK;
	}
	counters_add(COUNTERS_READS_CAUGHT_UP, 1);
	enum store_status status = play_refresh(game);
	if (status == STORE_OK)
		notify_claim(game->id, (int32_t)game->state.version, ticket);
	return status;
}

/* play_load() for a read (see catch_up()). */
static enum store_status load_for_read(int64_t id, long known, struct game_record *out)
{
	struct notify_ticket ticket;
	notify_ticket(id, &ticket);
	enum store_status status = play_load(id, 0, out);
	return status == STORE_OK ? catch_up(out, known, &ticket) : status;
}

/* A spectator's read (no token: nothing of it is a seat's own view): from the cache when
 * it is current, else from a standby (DATABASE_READ_URL) when the standby has replayed at
 * least what the client knows and what this process heard from its listener, else as any
 * read (load_for_read(), the primary). */
static enum store_status load_for_spectator(int64_t id, long known, struct game_record *out)
{
	if (play_has_standby()) {
		if (play_cached(id, out) && (long)out->state.version >= known &&
		    notify_fresh(id, (int32_t)out->state.version)) {
			counters_add(COUNTERS_READS_CACHED, 1);
			return STORE_OK;
		}
		int32_t heard = notify_heard(id);
		int32_t floor = known > heard ? (int32_t)known : heard;
		if (play_load_standby(id, floor, out) == STORE_OK)
			return STORE_OK;
	}
	return load_for_read(id, known, out);
}

/* Open the request's game; `waiting` (NULL: a waiting game is 409 game_not_started) is
 * set to 1 instead, after the token, if any, was found to be the game's, when the game
 * waits for players: then session->game is not loaded. */
static int open_game(struct http_request *request, struct session *session, int fresh, int *waiting)
{
	if (waiting)
		*waiting = 0;
	enum route_access access = request->route ? request->route->access : ROUTE_ANYONE;
	int64_t id;
	session->viewer = VIEW_SPECTATOR;
	session->has_token = 0;
	if (!request->params[0] || !store_parse_id(request->params[0], &id)) {
		http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, "game ids are 16 lowercase hex digits", NULL, -1);
		return 0;
	}
	snprintf(request->game, sizeof request->game, "%s", request->params[0]);

	const char *token = NULL;
	size_t length = 0;
	int bearer;
	if (!service_read_token(request, &token, &length, &bearer))
		return 0;
	if (bearer < 0) {
		http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN, "Authorization must be \"Bearer <token>\"", NULL,
				     -1);
		return 0;
	}
	if (bearer == 0 && access != ROUTE_ANYONE) {
		http_respond_problem(request, PROBLEM_MISSING_TOKEN, "send Authorization: Bearer <token>", NULL, -1);
		return 0;
	}
	if (bearer > 0 && !service_token_admit(request, token, length))
		return 0;
	int read = fresh && (request->method == HTTP_GET || request->method == HTTP_HEAD);
	long known = read ? known_version(request) : 0;
	if (known < 0)
		return 0;
	enum store_status status = !read	 ? play_load(id, fresh, &session->game)
				   : bearer == 0 ? load_for_spectator(id, known, &session->game)
						 : load_for_read(id, known, &session->game);
	if (status == STORE_NOT_STARTED && waiting) {
		session->game.id = id;
		if (bearer > 0 && !authenticate(request, session, token, length))
			return 0;
		*waiting = 1;
		return 1;
	}
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, "no game has this id", NULL, -1);
		return 0;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	if (bearer > 0 && !authenticate(request, session, token, length))
		return 0;
	request->seat = session->viewer == PLAY_ADMIN ? -2 : session->viewer;
	if (access == ROUTE_SEAT && session->viewer == PLAY_ADMIN) {
		http_respond_problem(request, PROBLEM_SEAT_TOKEN_REQUIRED,
				     "the admin token cannot make moves: use a seat token", NULL, -1);
		return 0;
	}
	return 1;
}

int service_open(struct http_request *request, struct session *session)
{
	return open_game(request, session, 1, NULL);
}

int service_open_or_waiting(struct http_request *request, struct session *session, int *waiting)
{
	return open_game(request, session, 1, waiting);
}

int service_open_for_move(struct http_request *request, struct session *session)
{
	return open_game(request, session, 0, NULL);
}

json_t *service_open_move_body(struct http_request *request, struct session *session)
{
	return service_open_for_move(request, session) ? service_body(request, 0) : NULL;
}

json_t *service_open_body(struct http_request *request, struct session *session)
{
	return service_open(request, session) ? service_body(request, 0) : NULL;
}

int service_refresh(struct http_request *request, struct session *session)
{
	enum store_status status = play_refresh(&session->game);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	return 1;
}

int service_catch_up(struct http_request *request, struct session *session, long known)
{
	struct notify_ticket ticket;
	notify_ticket(session->game.id, &ticket);
	struct game_record *cached = xmalloc(sizeof *cached);
	enum store_status status = play_load(session->game.id, 0, cached);
	if (status == STORE_OK && cached->state.version >= session->game.state.version)
		memcpy(&session->game, cached, sizeof *cached);
	free(cached);
	if (status == STORE_OK)
		status = catch_up(&session->game, known, &ticket);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	return 1;
}

void service_refuse(struct http_request *request, const struct problem_refusal *refusal)
{
	http_respond_problem(request, refusal->problem, refusal->detail, refusal->field, -1);
}

int service_read_token(struct http_request *request, const char **token, size_t *length, int *bearer)
{
	*token = NULL;
	*length = 0;
	*bearer = auth_bearer(http_header(request, MHD_HTTP_HEADER_AUTHORIZATION), token, length);
	const char *query_token = http_query(request, "token");
	if (query_token && !(request->route && request->route->query_token)) {
		/* Only an EventSource needs a token in the URL; anywhere else it would only leak. */
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "?token= is accepted only by the streams: send Authorization: Bearer <token>",
				     "token", -1);
		return 0;
	}
	if (*bearer == 0 && query_token) {
		/* EventSource cannot send headers: the streams accept ?token=. */
		*token = query_token;
		*length = strlen(query_token);
		*bearer = *length > 0 && *length <= 128 ? 1 : -1;
	}
	return 1;
}

int service_new_token(struct http_request *request, const char *prefix, char token[AUTH_TOKEN_LENGTH + 1],
		      uint8_t hash[AUTH_HASH_SIZE])
{
	if (!auth_new_token(prefix, token)) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		return 0;
	}
	auth_hash(token, strlen(token), hash);
	return 1;
}

int service_read_name(struct http_request *request, const json_t *value, const char *field, char *out)
{
	struct problem_refusal refusal;
	if (inputs_name(value, field, out, &refusal))
		return 1;
	service_refuse(request, &refusal);
	return 0;
}

json_t *service_body(struct http_request *request, int empty_ok)
{
	struct problem_refusal refusal;
	json_t *body;
	if (!request->body || request->body_length == 0) {
		if (!(body = inputs_json_object(NULL, 0, empty_ok, &refusal)))
			service_refuse(request, &refusal);
		return body;
	}
	const char *type = http_header(request, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (!type || strncasecmp(type, "application/json", 16) != 0 ||
	    (type[16] && type[16] != ';' && type[16] != ' ')) {
		http_respond_problem(request, PROBLEM_UNSUPPORTED_MEDIA_TYPE, "send Content-Type: application/json",
				     NULL, -1);
		return NULL;
	}
	if (!(body = inputs_json_object(request->body, request->body_length, empty_ok, &refusal)))
		service_refuse(request, &refusal);
	return body;
}

int service_known_members(struct http_request *request, const json_t *body, const char *const *members,
			  const char *detail)
{
	struct problem_refusal refusal;
	if (inputs_known_members(body, members, detail, &refusal))
		return 1;
	service_refuse(request, &refusal);
	return 0;
}

void service_codec_error(struct http_request *request, const struct codec_error *error)
{
	http_respond_problem(request, problem_of_codec_error(error->code), error->message, error->field, -1);
}

/* ---- Moves ---- */

/* The key as the store keeps it: scoped to who sent it ("<viewer>:<key>"), so that a seat
 * cannot take, block or read the answer of another seat's (predictable) keys. */
static char *scoped_key(const struct session *session, const char *key)
{
	return xasprintf("%d:%s", session->viewer, key);
}

/* SHA-256 over what makes two requests "the same": method, path, seat and body. */
static void request_hash(struct http_request *request, int viewer, uint8_t out[STORE_HASH_SIZE])
{
	char *head = xasprintf("%s\n%s\n%d\n", request->method_name, request->path, viewer);
	size_t head_length = strlen(head);
	size_t length = head_length + request->body_length;
	char *text = xmalloc(length + 1);
	memcpy(text, head, head_length);
	if (request->body)
		memcpy(text + head_length, request->body, request->body_length);
	auth_hash(text, length, out);
	free(text);
	free(head);
}

static void replay(struct http_request *request, const struct store_idempotency_record *record)
{
	http_add_header(request, "Idempotent-Replayed", "true");
	if (record->status < 400) {
		json_t *stored = json_loads(record->response, 0, NULL);
		json_t *version = json_object_get(stored, "version");
		if (json_is_integer(version)) {
			char etag[32];
			snprintf(etag, sizeof etag, "\"%lld\"", (long long)json_integer_value(version));
			http_add_header(request, "ETag", etag);
		}
		json_decref(stored);
	}
	const char *type = record->status >= 400 ? "application/problem+json" : "application/json; charset=utf-8";
	http_respond_raw(request, record->status, type, record->response, strlen(record->response));
}

/* The problem+json text of a refusal, recorded with an idempotency key. */
static char *refusal_body(void *context, enum error error, long version, int *status)
{
	json_t *body = http_refusal_body(context, error, version, status);
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	return text;
}

int service_write_headers(struct http_request *request, const struct session *session, struct service_write *out)
{
	memset(out, 0, sizeof *out);
	out->pinned = -1;
	const char *key = http_header(request, "Idempotency-Key");
	if (key && !headers_idempotency_key_valid(key)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "Idempotency-Key must be 1..200 printable characters", "Idempotency-Key", -1);
		return 0;
	}
	long pinned = -1;
	int if_match = headers_if_match(http_header(request, MHD_HTTP_HEADER_IF_MATCH), &pinned);
	if (if_match < 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "If-Match must be a version in quotes, e.g. \"12\"", "If-Match", -1);
		return 0;
	}
	if (if_match == 2 && !key) {
		http_respond_problem(request, PROBLEM_PRECONDITION_FAILED,
				     "a weak tag (W/) never matches: If-Match compares versions strongly", NULL,
				     (long)session->game.state.version);
		return 0;
	}
	/* A weak tag pins to no version there is: 412, unless the key has an answer. */
	out->pinned = if_match == 2 ? LONG_MAX : if_match == 1 ? pinned : -1;
	if (key) {
		out->key = scoped_key(session, key);
		request_hash(request, session->viewer, out->request_hash);
	}
	return 1;
}

void service_write_free(struct service_write *write)
{
	free(write->key);
	write->key = NULL;
}

void service_replay(struct http_request *request, const struct store_idempotency_record *record)
{
	replay(request, record);
}

void service_move(struct http_request *request, struct session *session, const struct command *command,
		  int success_status, const char *offer_member)
{
	struct game_record *game = &session->game;
	const char *key = http_header(request, "Idempotency-Key");
	if (key && !headers_idempotency_key_valid(key)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "Idempotency-Key must be 1..200 printable characters", "Idempotency-Key", -1);
		return;
	}
	long pinned = -1;
	int if_match = headers_if_match(http_header(request, MHD_HTTP_HEADER_IF_MATCH), &pinned);
	if (if_match < 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "If-Match must be a version in quotes, e.g. \"12\"", "If-Match", -1);
		return;
	}
	char *scoped = key ? scoped_key(session, key) : NULL;
	uint8_t hash[STORE_HASH_SIZE] = {0};
	if (scoped)
		request_hash(request, session->viewer, hash);
	if (if_match == 2 && !scoped) {
		http_respond_problem(request, PROBLEM_PRECONDITION_FAILED,
				     "a weak tag (W/) never matches: If-Match compares versions strongly", NULL,
				     (long)game->state.version);
		return;
	}
	struct play_move move = {
		.seat = session->viewer,
		.command = command,
		.origin = STORE_ORIGIN_PLAYER,
		.viewer = session->viewer,
		/* A weak tag pins to no version there is: 412, unless the key has an answer. */
		.pinned = if_match == 2	  ? LONG_MAX
			  : if_match == 1 ? pinned
					  : -1,
		/* An answer to an offer depends on the offer, not on other seats' answers. */
		.pinned_offer = command->type == COMMAND_ACCEPT_TRADE || command->type == COMMAND_DECLINE_TRADE
					? command->trade
					: 0,
		.render = 1,
		.success_status = success_status,
		.offer_member = offer_member,
		.key = scoped,
		.request_hash = hash,
		.refusal_body = refusal_body,
		.context = request,
	};
	struct play_result result;
	play_move(game, &move, &result);
	free(scoped);
	switch (result.outcome) {
	case PLAY_APPLIED: {
		char etag[24];
		snprintf(etag, sizeof etag, "\"%ld\"", result.version);
		http_add_header(request, "ETag", etag);
		http_respond_raw(request, success_status, "application/json; charset=utf-8", result.answer,
				 strlen(result.answer));
		free(result.answer);
		return;
	}
	case PLAY_REFUSED:
		http_respond_refusal(request, result.refused, result.version);
		return;
	case PLAY_REPLAYED:
		replay(request, &result.replay);
		free(result.replay.response);
		return;
	case PLAY_KEY_REUSED:
		http_respond_problem(request, PROBLEM_IDEMPOTENCY_KEY_REUSED,
				     "this Idempotency-Key was used with a different request", NULL, -1);
		return;
	case PLAY_STALE:
		http_respond_problem(request, PROBLEM_PRECONDITION_FAILED,
				     if_match == 2
					     ? "a weak tag (W/) never matches: If-Match compares versions strongly"
					     : "the game has moved on: reload and decide again",
				     NULL, result.version);
		return;
	case PLAY_RACED:
		http_respond_problem(request, PROBLEM_VERSION_CONFLICT, "the game kept changing; retry", NULL,
				     result.version);
		return;
	case PLAY_STOPPING:
		http_add_header(request, "Retry-After", "1");
		http_respond_problem(request, PROBLEM_SHUTTING_DOWN, NULL, NULL, -1);
		return;
	case PLAY_STORE_FAILED:
		service_store_error(request, result.store_status);
		return;
	}
}

/* 1 when `host` is a plausible Host header (name or address and port, nothing else). */
static int plausible_host(const char *host)
{
	size_t length = host ? strlen(host) : 0;
	if (length == 0 || length > 255)
		return 0;
	for (const char *c = host; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		      strchr(".-:[]_", *c)))
			return 0;
	return 1;
}

void service_invite_url(struct http_request *request, const char *id, const char *code, char *out, size_t size)
{
	const struct config *config = service_config();
	char base[512];
	const char *host = http_header(request, "Host");
	if (config && config->public_url && *config->public_url) {
		snprintf(base, sizeof base, "%s", config->public_url);
	} else if (plausible_host(host)) {
		snprintf(base, sizeof base, "http://%s", host);
	} else {
		const char *address = config && config->listen_address ? config->listen_address : "127.0.0.1";
		snprintf(base, sizeof base, "http://%s:%d", strcmp(address, "0.0.0.0") == 0 ? "localhost" : address,
			 config ? config->port : 8080);
	}
	size_t length = strlen(base);
	while (length > 0 && base[length - 1] == '/')
		base[--length] = '\0';
	snprintf(out, size, "%s/#game=%s&invite=%s", base, id, code);
}
