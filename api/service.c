/*
 * service.c - loading, authenticating, deciding and appending, for every game handler.
 *
 * The cache: a fixed table of game records (state + what the games row keeps), one mutex
 * per slot, copied in and out whole. An entry is a copy of a state that is in the log at
 * its version; a reader brings its copy up to date by reading the events after that
 * version (one small query), a writer appends at that version and learns from a conflict
 * that it was stale. Seat-token lookups are cached with the entry (tokens never change):
 * the hash is compared in constant time.
 *
 * Write path (service_move): the decision is made on the cached state without a database
 * read; a stale cache shows up as an append conflict (decide again on the fresh state) or
 * as a refusal (refresh, and decide again before answering 422). So a move costs one
 * round trip to the database in the common case.
 */
#include "api/service.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "api/access_log.h"
#include "api/auth.h"
#include "game/game_repo.h"
#include "api/headers.h"
#include "api/metrics.h"
#include "api/notify.h"
#include "api/ratelimit.h"
#include "api/xalloc.h"
#include "api/worker.h"
#include "codec/log.h"
#include "engine/autoplay.h"
#include "engine/rules.h"
#include "engine/view.h"

#define CACHE_SLOTS 4096
#define TOKEN_CACHE 8

struct cache_entry {
	pthread_mutex_t lock;
	int used;
	struct game_record record;
	int token_count;
	uint8_t token_hashes[TOKEN_CACHE][AUTH_HASH_SIZE];
	int token_seats[TOKEN_CACHE];
};

static struct cache_entry *cache;
static const struct config *settings;
static pthread_key_t store_key;
static struct store_notifier *notifier; /* shared by every thread's store: see db/notifier.c */
static volatile int shutting_down;

static void close_store(void *store)
{
	store_close(store);
}

void service_init(const struct config *config)
{
	settings = config;
	cache = xcalloc(CACHE_SLOTS, sizeof *cache);
	for (int i = 0; i < CACHE_SLOTS; i++)
		pthread_mutex_init(&cache[i].lock, NULL);
	pthread_key_create(&store_key, close_store);
	store_notifier_open(config->database_url, &notifier);
}

const struct config *service_config(void)
{
	return settings;
}

void service_shutdown_begin(void)
{
	shutting_down = 1;
}

void service_shutdown(void)
{
	struct store *store = pthread_getspecific(store_key);
	if (store) {
		store_close(store);
		pthread_setspecific(store_key, NULL);
	}
	for (int i = 0; i < CACHE_SLOTS; i++)
		pthread_mutex_destroy(&cache[i].lock);
	free(cache);
	cache = NULL;
	store_notifier_close(notifier);
	notifier = NULL;
}

struct store *service_store(void)
{
	struct store *store = pthread_getspecific(store_key);
	if (!store) {
		store_open(settings->database_url, &store);
		store_use_notifier(store, notifier);
		pthread_setspecific(store_key, store);
	}
	return store;
}

static struct cache_entry *slot_for(int64_t id)
{
	uint64_t h = (uint64_t)id * UINT64_C(0x9e3779b97f4a7c15);
	return &cache[(h >> 40) % CACHE_SLOTS];
}

static int cache_get(int64_t id, struct game_record *out)
{
	struct cache_entry *entry = slot_for(id);
	pthread_mutex_lock(&entry->lock);
	int hit = entry->used && entry->record.id == id;
	if (hit)
		memcpy(out, &entry->record, sizeof *out);
	pthread_mutex_unlock(&entry->lock);
	return hit;
}

/* Keep `record` unless the slot holds a newer state of the same game. */
static void cache_put(const struct game_record *record)
{
	struct cache_entry *entry = slot_for(record->id);
	pthread_mutex_lock(&entry->lock);
	if (!entry->used || entry->record.id != record->id) {
		entry->used = 1;
		entry->token_count = 0;
		memcpy(&entry->record, record, sizeof *record);
	} else if (entry->record.state.version < record->state.version) {
		memcpy(&entry->record.state, &record->state, sizeof record->state);
	}
	pthread_mutex_unlock(&entry->lock);
}

static int cache_find_token(int64_t id, const uint8_t hash[AUTH_HASH_SIZE], int *seat)
{
	struct cache_entry *entry = slot_for(id);
	int found = 0;
	pthread_mutex_lock(&entry->lock);
	if (entry->used && entry->record.id == id) {
		for (int i = 0; i < entry->token_count; i++) {
			if (auth_equal(entry->token_hashes[i], hash)) {
				*seat = entry->token_seats[i];
				found = 1;
			}
		}
	}
	pthread_mutex_unlock(&entry->lock);
	return found;
}

static void cache_add_token(int64_t id, const uint8_t hash[AUTH_HASH_SIZE], int seat)
{
	struct cache_entry *entry = slot_for(id);
	pthread_mutex_lock(&entry->lock);
	if (entry->used && entry->record.id == id && entry->token_count < TOKEN_CACHE) {
		memcpy(entry->token_hashes[entry->token_count], hash, AUTH_HASH_SIZE);
		entry->token_seats[entry->token_count] = seat;
		entry->token_count++;
	}
	pthread_mutex_unlock(&entry->lock);
}

void service_store_error(struct http_request *request, enum store_status status)
{
	metrics_add(METRICS_DATABASE_ERRORS, 1);
	if (status == STORE_UNAVAILABLE) {
		http_add_header(request, "Retry-After", "1");
		http_respond_problem(request, PROBLEM_DATABASE_UNAVAILABLE, "the database cannot be reached; retry shortly",
				     NULL, -1);
	} else {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, store_status_message(status), NULL, -1);
	}
}

/* Names, bot flags and options from the games row. */
static enum store_status load_info(struct store *store, struct game_record *record)
{
	struct store_game_info info;
	enum store_status status = store_game_info(store, record->id, &info);
	if (status != STORE_OK)
		return status;
	for (int s = 0; s < GAME_MAX_SEATS && s < info.seats; s++) {
		snprintf(record->names[s], SERVICE_NAME_SIZE, "%s", info.names[s] ? info.names[s] : "");
		record->bots[s] = (uint8_t)info.bots[s];
	}
	memset(&record->options, 0, sizeof record->options);
	record->options.game = record->state.options;
	json_t *options = json_loads(info.options ? info.options : "{}", 0, NULL);
	if (options) {
		json_t *timeout = json_object_get(options, "turn_timeout_s");
		json_t *on_timeout = json_object_get(options, "on_timeout");
		if (json_is_integer(timeout))
			record->options.turn_timeout_s = (int32_t)json_integer_value(timeout);
		if (json_is_string(on_timeout) && strcmp(json_string_value(on_timeout), "bot") == 0)
			record->options.on_timeout = CODEC_ON_TIMEOUT_BOT;
		json_decref(options);
	}
	store_game_info_free(&info);
	return STORE_OK;
}

/* Full load of a game into *record. */
static enum store_status load_record(struct store *store, int64_t id, struct game_record *record)
{
	struct game_repo repo;
	game_repo_init(&repo, store, GAME_REPO_SNAPSHOT_EVERY);
	memset(record, 0, sizeof *record);
	record->id = id;
	store_format_id(id, record->id_text);
	enum store_status status = game_repo_load(&repo, id, &record->state, &record->seed);
	if (status == STORE_OK)
		status = load_info(store, record);
	if (status == STORE_CORRUPT)
		access_log_event("error", "corrupt game", "game", record->id_text, "detail", game_repo_message(&repo),
				 NULL);
	return status;
}

/* Bring the record's state up to the log's last version. */
static enum store_status catch_up(struct store *store, struct game_record *record)
{
	struct game_repo repo;
	game_repo_init(&repo, store, GAME_REPO_SNAPSHOT_EVERY);
	uint32_t before = record->state.version;
	enum store_status status = game_repo_catch_up(&repo, record->id, &record->state);
	if (status == STORE_OK && record->state.version != before)
		cache_put(record);
	return status;
}

static int fetch(struct http_request *request, struct session *session, int64_t id, int fresh)
{
	struct store *store = service_store();
	enum store_status status;
	if (cache_get(id, &session->game)) {
		status = fresh ? catch_up(store, &session->game) : STORE_OK;
	} else {
		status = load_record(store, id, &session->game);
		if (status == STORE_OK)
			cache_put(&session->game);
	}
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, "no game has this id", NULL, -1);
		return 0;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	return 1;
}

int service_refresh(struct http_request *request, struct session *session)
{
	enum store_status status = catch_up(service_store(), &session->game);
	if (status != STORE_OK) {
		service_store_error(request, status);
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
	if (cache_find_token(session->game.id, hash, &seat)) {
		session->viewer = seat == STORE_SEAT_ADMIN ? SERVICE_ADMIN : seat;
		return 1;
	}
	enum store_status status = store_find_token(service_store(), session->game.id, hash, &seat);
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN, "this token does not belong to this game", NULL, -1);
		return 0;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	cache_add_token(session->game.id, hash, seat);
	session->viewer = seat == STORE_SEAT_ADMIN ? SERVICE_ADMIN : seat;
	return 1;
}

static int open_game(struct http_request *request, struct session *session, enum service_access access, int fresh)
{
	int64_t id;
	session->viewer = VIEW_SPECTATOR;
	if (!request->params[0] || !store_parse_id(request->params[0], &id)) {
		http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, "game ids are 16 lowercase hex digits", NULL, -1);
		return 0;
	}
	snprintf(request->game, sizeof request->game, "%s", request->params[0]);

	const char *token = NULL;
	size_t length = 0;
	const char *header = http_header(request, MHD_HTTP_HEADER_AUTHORIZATION);
	int bearer = auth_bearer(header, &token, &length);
	if (bearer == 0 && request->route && request->method == HTTP_GET) {
		/* EventSource cannot send headers: streams (and other reads) accept ?token=. */
		const char *query_token = http_query(request, "token");
		if (query_token) {
			token = query_token;
			length = strlen(query_token);
			bearer = length > 0 && length <= 128 ? 1 : -1;
		}
	}
	if (bearer < 0) {
		http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN, "Authorization must be \"Bearer <token>\"", NULL, -1);
		return 0;
	}
	if (bearer == 0 && access != SERVICE_ANYONE) {
		http_respond_problem(request, PROBLEM_MISSING_TOKEN, "send Authorization: Bearer <token>", NULL, -1);
		return 0;
	}
	if (bearer > 0) {
		int retry_after;
		if (!ratelimit_allow(RATELIMIT_TOKEN, token, length, http_now(), &retry_after)) {
			char seconds[16];
			snprintf(seconds, sizeof seconds, "%d", retry_after);
			http_add_header(request, "Retry-After", seconds);
			metrics_add(METRICS_RATE_LIMITED, 1);
			http_respond_problem(request, PROBLEM_RATE_LIMITED, "too many requests with this token", NULL, -1);
			return 0;
		}
	}
	if (!fetch(request, session, id, fresh))
		return 0;
	if (bearer > 0 && !authenticate(request, session, token, length))
		return 0;
	request->seat = session->viewer == SERVICE_ADMIN ? -2 : session->viewer;
	if (access == SERVICE_SEAT && session->viewer == SERVICE_ADMIN) {
		http_respond_problem(request, PROBLEM_SEAT_TOKEN_REQUIRED, "the admin token cannot make moves: use a seat token",
				     NULL, -1);
		return 0;
	}
	return 1;
}

int service_open(struct http_request *request, struct session *session, enum service_access access)
{
	return open_game(request, session, access, 1);
}

int service_open_for_move(struct http_request *request, struct session *session)
{
	return open_game(request, session, SERVICE_SEAT, 0);
}

void service_names(const struct game_record *game, const char *names[GAME_MAX_SEATS])
{
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		names[s] = s < game->state.options.seats ? game->names[s] : NULL;
}

json_t *service_body(struct http_request *request, int empty_ok)
{
	if (!request->body || request->body_length == 0) {
		if (empty_ok)
			return json_object();
		http_respond_problem(request, PROBLEM_INVALID_JSON, "a JSON object body is required", "", -1);
		return NULL;
	}
	const char *type = http_header(request, MHD_HTTP_HEADER_CONTENT_TYPE);
	if (!type || strncasecmp(type, "application/json", 16) != 0 || (type[16] && type[16] != ';' && type[16] != ' ')) {
		http_respond_problem(request, PROBLEM_UNSUPPORTED_MEDIA_TYPE, "send Content-Type: application/json", NULL, -1);
		return NULL;
	}
	json_error_t error;
	json_t *body = json_loadb(request->body, request->body_length, JSON_REJECT_DUPLICATES, &error);
	if (!body) {
		char detail[256];
		snprintf(detail, sizeof detail, "line %d, column %d: %s", error.line, error.column, error.text);
		http_respond_problem(request, PROBLEM_INVALID_JSON, detail, "", -1);
		return NULL;
	}
	if (!json_is_object(body)) {
		json_decref(body);
		http_respond_problem(request, PROBLEM_INVALID_JSON, "the body must be a JSON object", "", -1);
		return NULL;
	}
	return body;
}

void service_codec_error(struct http_request *request, const struct codec_error *error)
{
	http_respond_problem(request, problem_of_codec_error(error->code), error->message, error->field, -1);
}

static const char *origin_name(int origin)
{
	switch (origin) {
	case STORE_ORIGIN_TIMEOUT:
		return "timeout";
	case STORE_ORIGIN_BOT:
		return "bot";
	default:
		return "player";
	}
}

void service_format_time(int64_t microseconds, char *out, size_t size)
{
	time_t seconds = (time_t)(microseconds / 1000000);
	struct tm tm;
	gmtime_r(&seconds, &tm);
	char base[32];
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, size, "%s.%06lldZ", base, (long long)(microseconds % 1000000));
}

static int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static json_t *log_entry(const struct event *event, int viewer, int seats, int32_t version, int64_t created_us,
			 int origin)
{
	struct event seen;
	view_event(event, viewer == SERVICE_ADMIN ? VIEW_SPECTATOR : viewer, &seen);
	json_t *entry = codec_event_to_json(&seen, seats);
	char when[48];
	service_format_time(created_us, when, sizeof when);
	json_object_set_new(entry, "version", json_integer(version));
	json_object_set_new(entry, "created_at", json_string(when));
	json_object_set_new(entry, "origin", json_string(origin_name(origin)));
	return entry;
}

json_t *service_log_json(struct session *session, const struct store_log *log)
{
	json_t *entries = json_array();
	int seats = session->game.state.options.seats;
	for (int i = 0; i < log->count; i++) {
		const struct store_event_row *row = &log->rows[i];
		struct event event;
		struct codec_error error;
		if (!codec_payload_parse(row->type, row->payload, row->payload_size, &event, &error)) {
			access_log_event("error", "unparsable event", "game", session->game.id_text, "detail", error.message,
					 NULL);
			continue;
		}
		json_array_append_new(entries,
				      log_entry(&event, session->viewer, seats, row->seq, row->created_at_us, row->origin));
	}
	return entries;
}

/* ---- moves ---- */

uint8_t service_bot_seats(const struct game_record *game)
{
	uint8_t bots = 0;
	for (int s = 0; s < game->state.options.seats; s++)
		if (game->bots[s])
			bots |= (uint8_t)(1u << s);
	return bots;
}

void service_timer_committed(const struct store_timer_set *timer)
{
	if (timer && timer->kind == STORE_TIMER_BOT && timer->due_ms == 0)
		worker_wake();
}

const struct store_timer_set *service_next_timer(const struct game_record *game, const struct game *state,
						 struct store_timer_set *out)
{
	uint8_t bots = service_bot_seats(game);
	if (!bots && game->options.turn_timeout_s <= 0)
		return NULL;
	out->kind = STORE_TIMER_NONE;
	out->due_ms = 0;
	if (!game_in_progress(state))
		return out;
	if (autoplay_bot_to_move(state, bots) >= 0) {
		out->kind = STORE_TIMER_BOT;
	} else if (game->options.turn_timeout_s > 0) {
		out->kind = STORE_TIMER_DEADLINE;
		out->due_ms = (int64_t)game->options.turn_timeout_s * 1000;
	}
	return out;
}

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

/* The stored outcome of a key: 1 when a response was queued (replayed or refused). */
static int answer_from_key(struct http_request *request, int64_t game_id, const char *key,
			   const uint8_t hash[STORE_HASH_SIZE])
{
	struct store_idempotency_record record;
	enum store_status status = store_idempotency_get(service_store(), game_id, key, hash, &record);
	if (status == STORE_NOT_FOUND)
		return 0;
	if (status == STORE_OK) {
		replay(request, &record);
		free(record.response);
		return 1;
	}
	if (status == STORE_IDEMPOTENCY_CONFLICT) {
		free(record.response);
		http_respond_problem(request, PROBLEM_IDEMPOTENCY_KEY_REUSED,
				     "this Idempotency-Key was used with a different request", NULL, -1);
		return 1;
	}
	service_store_error(request, status);
	return 1;
}

static char *move_response(struct session *session, const struct event_list *events, int32_t first_version,
			   const struct command *command, const char *offer_member, int *trade_id)
{
	json_t *list = json_array();
	int64_t now = now_us();
	*trade_id = 0;
	for (int i = 0; i < events->count; i++) {
		const struct event *event = &events->events[i];
		if (event->type == EVENT_TRADE_OFFERED && command->type == COMMAND_OFFER_TRADE)
			*trade_id = event->trade;
		json_array_append_new(list, log_entry(event, session->viewer, session->game.state.options.seats,
						      first_version + i, now, STORE_ORIGIN_PLAYER));
	}
	json_t *body = json_pack("{s:i, s:o}", "version", (int)(first_version + events->count - 1), "events", list);
	if (*trade_id)
		json_object_set_new(body, offer_member ? offer_member : "trade", json_integer(*trade_id));
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	return text;
}

/* A keyed request's answer that no record holds (412, 409): if a concurrent request with
 * the key has recorded its answer meanwhile, that answer is the key's; 1 when replayed. */
static int answer_from_key_instead(struct http_request *request, int64_t game_id, const char *key,
				   const uint8_t hash[STORE_HASH_SIZE])
{
	return key && answer_from_key(request, game_id, key, hash);
}

/*
 * A move with an Idempotency-Key: every request with the key gets the answer of the one
 * whose record was stored first. The record is written with the outcome, whatever it is:
 * with the events in the append's transaction when the move is accepted, alone when it is
 * refused; the unique key (game, scoped key) admits one record, and a request whose record
 * loses answers with the winner's instead (the insert of the loser waits for the winner's
 * transaction, so it never answers before the winner's outcome is known). Answers that
 * are not recorded (412, 409 version_conflict) look for a record first: a concurrent
 * request with the key may have been the move that made the game move on.
 */
static void move_with_key(struct http_request *request, struct session *session, const struct command *command,
			  int success_status, const char *offer_member, const char *key);

void service_move(struct http_request *request, struct session *session, const struct command *command,
		  int success_status, const char *offer_member)
{
	const char *key = http_header(request, "Idempotency-Key");
	if (key && !headers_idempotency_key_valid(key)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "Idempotency-Key must be 1..200 printable characters",
				     "Idempotency-Key", -1);
		return;
	}
	char *scoped = key ? scoped_key(session, key) : NULL;
	move_with_key(request, session, command, success_status, offer_member, scoped);
	free(scoped);
}

static void move_with_key(struct http_request *request, struct session *session, const struct command *command,
			  int success_status, const char *offer_member, const char *key)
{
	struct game_record *game = &session->game;
	uint8_t hash[STORE_HASH_SIZE] = {0};
	if (key) {
		request_hash(request, session->viewer, hash);
		if (answer_from_key(request, game->id, key, hash))
			return;
	}
	long pinned = -1;
	int if_match = headers_if_match(http_header(request, MHD_HTTP_HEADER_IF_MATCH), &pinned);
	if (if_match < 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "If-Match must be a version in quotes, e.g. \"12\"",
				     "If-Match", -1);
		return;
	}
	if (if_match == 2) {
		http_respond_problem(request, PROBLEM_PRECONDITION_FAILED,
				     "a weak tag (W/) never matches: If-Match compares versions strongly", NULL,
				     (long)game->state.version);
		return;
	}
	if (shutting_down) {
		http_add_header(request, "Retry-After", "1");
		http_respond_problem(request, PROBLEM_SHUTTING_DOWN, NULL, NULL, -1);
		return;
	}

	int fresh = 0; /* whether the state was read from the log for this request */
	for (int attempt = 0; attempt < SERVICE_RETRIES; attempt++) {
		if (if_match > 0 && (long)game->state.version != pinned && !fresh) {
			if (!service_refresh(request, session))
				return;
			fresh = 1;
		}
		if (if_match > 0 && (long)game->state.version != pinned) {
			if (answer_from_key_instead(request, game->id, key, hash))
				return;
			http_respond_problem(request, PROBLEM_PRECONDITION_FAILED, "the game has moved on: reload and decide again",
					     NULL, (long)game->state.version);
			return;
		}
		struct rng rng;
		rng_init(&rng, (uint64_t)game->seed, game->state.version);
		struct event_list events;
		struct game after;
		enum error error = rules_decide(&game->state, session->viewer, command, &rng, &events, &after);
		if (error != ERROR_OK && !fresh) {
			if (!service_refresh(request, session))
				return;
			fresh = 1;
			attempt--;
			continue;
		}
		if (error != ERROR_OK) {
			int status;
			json_t *body = http_refusal_body(request, error, (long)game->state.version, &status);
			enum store_status stored = STORE_OK;
			if (key) {
				char *text = json_dumps(body, JSON_COMPACT);
				if (!text)
					abort();
				struct store_idempotency record = {key, {0}, status, text};
				memcpy(record.request_hash, hash, STORE_HASH_SIZE);
				stored = store_idempotency_put(service_store(), game->id, &record);
				free(text);
			}
			json_decref(body);
			if (stored == STORE_IDEMPOTENCY_CONFLICT) {
				/* A request with this key recorded its answer first: that one is the key's. */
				if (!answer_from_key(request, game->id, key, hash))
					http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "idempotency record vanished", NULL, -1);
				return;
			}
			if (stored != STORE_OK) {
				/* Unrecorded, a retry could be answered otherwise: have the client retry now. */
				service_store_error(request, stored);
				return;
			}
			http_respond_refusal(request, error, (long)game->state.version);
			return;
		}

		int trade_id;
		int32_t first = (int32_t)game->state.version + 1;
		char *response = move_response(session, &events, first, command, offer_member, &trade_id);
		struct store_idempotency record;
		if (key) {
			record.key = key;
			memcpy(record.request_hash, hash, STORE_HASH_SIZE);
			record.status = success_status;
			record.response = response;
		}
		struct game_repo repo;
		game_repo_init(&repo, service_store(), GAME_REPO_SNAPSHOT_EVERY);
		struct store_timer_set timer;
		const struct store_timer_set *next = service_next_timer(game, &after, &timer);
		enum store_status status = game_repo_append(&repo, game->id, &game->state, &events, &after,
							    session->viewer, STORE_ORIGIN_PLAYER, key ? &record : NULL, next);
		if (status == STORE_OK) {
			service_timer_committed(next);
			memcpy(&game->state, &after, sizeof after);
			cache_put(game);
			notify_version(game->id, (int32_t)after.version);
			metrics_add(METRICS_EVENTS_APPENDED, events.count);
			char etag[24];
			snprintf(etag, sizeof etag, "\"%u\"", after.version);
			http_add_header(request, "ETag", etag);
			http_respond_raw(request, success_status, "application/json; charset=utf-8", response,
					 strlen(response));
			free(response);
			return;
		}
		free(response);
		if (status == STORE_IDEMPOTENCY_CONFLICT) {
			if (!answer_from_key(request, game->id, key, hash))
				http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "idempotency record vanished", NULL, -1);
			return;
		}
		if (status != STORE_CONFLICT) {
			service_store_error(request, status);
			return;
		}
		metrics_add(METRICS_APPEND_CONFLICTS, 1);
		if (!service_refresh(request, session))
			return;
		fresh = 1;
	}
	if (answer_from_key_instead(request, game->id, key, hash))
		return;
	http_respond_problem(request, PROBLEM_VERSION_CONFLICT, "the game kept changing; retry", NULL,
			     (long)game->state.version);
}

enum store_status service_load(int64_t game_id, struct game_record *record)
{
	struct store *store = service_store();
	if (cache_get(game_id, record))
		return catch_up(store, record);
	enum store_status status = load_record(store, game_id, record);
	if (status == STORE_OK)
		cache_put(record);
	return status;
}

enum store_status service_apply_system(struct game_record *record, int seat, const struct command *command,
				       int origin, int keep_lease, enum error *refused)
{
	struct rng rng;
	rng_init(&rng, (uint64_t)record->seed, record->state.version);
	struct event_list events;
	struct game after;
	*refused = rules_decide(&record->state, seat, command, &rng, &events, &after);
	if (*refused != ERROR_OK)
		return STORE_OK;
	struct store_timer_set timer;
	const struct store_timer_set *next = service_next_timer(record, &after, &timer);
	if (next && keep_lease && next->kind == STORE_TIMER_BOT)
		timer.due_ms = SERVICE_BOT_LEASE_MS;
	struct game_repo repo;
	game_repo_init(&repo, service_store(), GAME_REPO_SNAPSHOT_EVERY);
	enum store_status status =
		game_repo_append(&repo, record->id, &record->state, &events, &after, seat, origin, NULL, next);
	if (status != STORE_OK)
		return status;
	if (!keep_lease)
		service_timer_committed(next);
	memcpy(&record->state, &after, sizeof after);
	cache_put(record);
	notify_version(record->id, (int32_t)after.version);
	metrics_add(METRICS_EVENTS_APPENDED, events.count);
	return STORE_OK;
}
