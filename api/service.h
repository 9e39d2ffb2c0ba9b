/*
 * service.h - what every game handler does: find the game, know who is asking, decide a
 * move and append it, render events for the caller.
 *
 * The write path of ARCHITECTURE.md lives here once: authenticate -> load (the process
 * cache brought up to date from the log, or a full load) -> engine decide -> append ->
 * respond. An append that loses the race for the next version is decided again on the
 * fresh state (up to SERVICE_RETRIES times) unless the client pinned the version with
 * If-Match, which then answers 412. Idempotency-Key requests are answered from the stored
 * record when the key was seen; keys are scoped to the token (seat) that sends them, and
 * concurrent requests with one key, on any servers, all get the answer of the one whose
 * record was stored first (accepted or refused). Nothing about a game lives only in memory: the cache
 * holds copies of states that are in the log, keyed by (game id, version).
 *
 * Each HTTP worker thread owns one store connection (thread-local), opened on first use.
 */
#ifndef CATAN_API_SERVICE_H
#define CATAN_API_SERVICE_H

#include <jansson.h>
#include <stdint.h>

#include "codec/error.h"
#include "codec/options.h"
#include "api/config.h"
#include "api/http.h"
#include "db/store.h"
#include "engine/command.h"
#include "engine/game.h"

#define SERVICE_ADMIN (-2)
#define SERVICE_NAME_SIZE 161 /* 40 characters of UTF-8 and the NUL */
#define SERVICE_RETRIES 8

/* A game as the service knows it: its state and what the store keeps beside the log. */
struct game_record {
	int64_t id;
	char id_text[STORE_ID_TEXT_SIZE];
	struct game state;
	int64_t seed;
	struct codec_options options;
	char names[GAME_MAX_SEATS][SERVICE_NAME_SIZE];
	uint8_t bots[GAME_MAX_SEATS];
};

/* Who may call: anyone (spectators too), a seat token, or a seat or the admin token. */
enum service_access { SERVICE_ANYONE, SERVICE_SEAT, SERVICE_SEAT_OR_ADMIN };

struct session {
	struct game_record game;
	int viewer; /* a seat, VIEW_SPECTATOR or SERVICE_ADMIN */
};

void service_init(const struct config *config);

/* The settings service_init() was given (borrowed, for the life of the process). */
const struct config *service_config(void);

/* Shutdown: refuse new writes, then release the caches. */
void service_shutdown_begin(void);
void service_shutdown(void);

/* This thread's store (opened on first use). */
struct store *service_store(void);

/* Load the request's game (:game) fresh from the log and authenticate the caller with the
 * access required. On failure a problem is queued and 0 returned. */
int service_open(struct http_request *request, struct session *session, enum service_access access);

/* Like service_open() for a move by a seat, without reading the log first: the decision
 * is made on the cached state and a stale cache is caught by the append (see service.c). */
int service_open_for_move(struct http_request *request, struct session *session);

/* Bring session->game.state up to date with the log. 0 (a problem queued) on failure. */
int service_refresh(struct http_request *request, struct session *session);

/* Decide `command` for the caller's seat and append the events: answers `success_status`
 * with {version, events} (an offer also gets its trade id, under `offer_member`, "trade"
 * when NULL) or the problem. Honours If-Match and Idempotency-Key. */
void service_move(struct http_request *request, struct session *session, const struct command *command,
		  int success_status, const char *offer_member);

/* Parse the request body as a JSON object (415/413/400 answered and NULL returned when it
 * is not one). A missing body gives an empty object when `empty_ok`. New reference. */
json_t *service_body(struct http_request *request, int empty_ok);

/* Answer an engine refusal or a codec error. */
void service_codec_error(struct http_request *request, const struct codec_error *error);

/* The log entries of rows as the viewer may see them: each the event object plus
 * "version", "created_at" and "origin". New reference. */
json_t *service_log_json(struct session *session, const struct store_log *log);

/* The store failed: answer 503 (unavailable) or 500, counting the error. */
void service_store_error(struct http_request *request, enum store_status status);

/* An RFC 3339 UTC time with microseconds ("2026-11-29T20:07:46.668745Z"). */
void service_format_time(int64_t microseconds, char *out, size_t size);

/* Names of seats as a NULL-padded array for the codec. */
void service_names(const struct game_record *game, const char *names[GAME_MAX_SEATS]);

/* Events before a bot chain's next move is due when the worker making the chain dies. */
#define SERVICE_BOT_LEASE_MS 5000

/* Seats of the game that are bots, as a mask. */
uint8_t service_bot_seats(const struct game_record *game);

/* What the game waits for from the server itself at `state`: a bot's move (due at once),
 * a deadline (turn_timeout_s), or nothing. NULL when the game never needs a timer (no bot
 * seat, no deadline), so its appends carry no timer at all. Fills *out. */
const struct store_timer_set *service_next_timer(const struct game_record *game, const struct game *state,
						 struct store_timer_set *out);

/* After a write with this timer committed: a bot move due at once wakes this process's
 * workers (other servers' workers find it by polling). */
void service_timer_committed(const struct store_timer_set *timer);

/* For workers (no HTTP request around): load a game fresh (cache + log). */
enum store_status service_load(int64_t game_id, struct game_record *record);

/* Decide `command` for `seat` on record->state and append it from `origin` (timeout or
 * bot), setting the next timer; with keep_lease a next bot move is due only after
 * SERVICE_BOT_LEASE_MS (the caller goes on with the chain itself). On STORE_OK the record
 * is the new state, unless *refused says the engine refused (nothing appended). */
enum store_status service_apply_system(struct game_record *record, int seat, const struct command *command,
				       int origin, int keep_lease, enum error *refused);

#endif
