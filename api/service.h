/*
 * service.h - what every game handler does over HTTP: find the game, know who is asking,
 * read the body, make a move through the game service (game/play.h) and answer.
 *
 * The game service owns the write path (load, decide, append, render) and knows nothing of
 * HTTP. This layer turns requests into its calls and its outcomes into answers: bearer
 * tokens and access levels, If-Match (one version for the whole game) and Idempotency-Key
 * (scoped to the token that sends it, so a seat can neither take nor read another seat's
 * keys), and problem+json for every failure.
 */
#ifndef CATAN_API_SERVICE_H
#define CATAN_API_SERVICE_H

#include <jansson.h>
#include <stdint.h>

#include "api/config.h"
#include "api/inputs.h"
#include "codec/error.h"
#include "codec/options.h"
#include "engine/command.h"
#include "engine/game.h"
#include "game/auth.h"
#include "game/play.h"
#include "http/http.h"

struct session {
	struct game_record game;
	int viewer;    /* a seat, VIEW_SPECTATOR or PLAY_ADMIN */
	int has_token; /* the caller sent a token of the game: its hash is token_hash */
	uint8_t token_hash[STORE_HASH_SIZE];
};

/* 1 while the session's token still is the token of its viewer (a stream asks again after
 * each wake-up: a replaced token stops an open stream too, 0015_token_rotation.sql); 1 for
 * a session without a token, and while the database cannot say. */
int service_token_still_valid(const struct session *session);

/* Start the game service (play_init) with this process's hooks: appends wake parked
 * requests (api/notify.h), count in /metrics, and wake the workers when a bot's move is due. */
void service_init(const struct config *config);

/* The settings service_init() was given (borrowed, for the life of the process). */
const struct config *service_config(void);

/* Count a request with this bearer token (any token: a seat's, the admin's, a player's)
 * against the per-token rate (RATE_LIMIT_TOKEN, http/ratelimit.h), before the token is
 * looked up: 1, or 0 with 429 rate_limited (Retry-After) queued. Its quota goes out in
 * the answer's RateLimit-* headers. Every route that takes a token calls it. */
int service_token_admit(struct http_request *request, const char *token, size_t length);

/* Load the request's game (:game) fresh from the log and authenticate the caller with the
 * access its route requires (the route table's `access`). On failure a problem is queued
 * and 0 returned. For a GET or HEAD, "fresh" is the process cache when it is known to be
 * current, and never older than the version the caller names (?min_version=, or the
 * version tags of If-None-Match; a malformed min_version is 400 invalid_field). */
int service_open(struct http_request *request, struct session *session);

/* Like service_open(), but a game that waits for players (open seats) is no failure:
 * *waiting is set to 1 (after the token, if any, proved to be the game's) and only
 * session->game.id is set. *waiting is 0 for a started game, loaded as service_open() does. */
int service_open_or_waiting(struct http_request *request, struct session *session, int *waiting);

/* Like service_open() for a move by a seat, without reading the log first: the decision
 * is made on the cached state and a stale cache is caught by the append (see game/play.c). */
int service_open_for_move(struct http_request *request, struct session *session);

/* service_open_for_move() and service_body() together: the body of a seat's move (new
 * reference), or NULL with a problem queued. */
json_t *service_open_move_body(struct http_request *request, struct session *session);

/* service_open() and service_body() (no empty body) together, for a write that is no
 * move (a message, a webhook): the body (new reference), or NULL with a problem queued. */
json_t *service_open_body(struct http_request *request, struct session *session);

/* Bring session->game.state up to date with the log. 0 (a problem queued) on failure. */
int service_refresh(struct http_request *request, struct session *session);

/* Bring session->game up to date for a read: from the process cache when it is known to be
 * current and at least `known` (a version the caller was answered), else from the log, as
 * service_open() does for a GET. 0 (a problem queued) on failure. */
int service_catch_up(struct http_request *request, struct session *session, long known);

/* Make `command` for the caller's seat (play_move) and answer `success_status` with
 * {version, events} (an offer also gets its trade id as "trade", and once more under
 * `offer_member` when not NULL) or the problem. Honours If-Match and Idempotency-Key. */
void service_move(struct http_request *request, struct session *session, const struct command *command,
		  int success_status, const char *offer_member);

/* The If-Match and Idempotency-Key of a write by the caller's seat that is no move (PUT
 * .../player_seed), read as service_move() reads them: the version it is pinned to (-1:
 * none; a weak tag pins to none there is, LONG_MAX, and needs a key), the key scoped to the
 * caller (NULL: none) and the hash of the request. 1 with *out filled (free with
 * service_write_free()), or 0 with 400 (malformed header) or 412 (a weak tag without a key)
 * queued. */
struct service_write {
	long pinned;
	char *key;
	uint8_t request_hash[STORE_HASH_SIZE];
};
int service_write_headers(struct http_request *request, const struct session *session, struct service_write *out);
void service_write_free(struct service_write *write);

/* Answer with a key's recorded answer (Idempotent-Replayed: true, its ETag). */
void service_replay(struct http_request *request, const struct store_idempotency_record *record);

/* Parse the request body as a JSON object (415/413/400 answered and NULL returned when it
 * is not one; the JSON part is inputs_json_object()). A missing body gives an empty
 * object when `empty_ok`. New reference. */
json_t *service_body(struct http_request *request, int empty_ok);

/* 1 when every member of `body` is one of `members` (NULL-terminated); else 0 with a 400
 * unknown_field naming the member, `detail` saying what the body holds. */
int service_known_members(struct http_request *request, const json_t *body, const char *const *members,
			  const char *detail);

/* A player's name (`value`, a member named `field`): 1 with it copied into out (which
 * holds PLAY_NAME_SIZE bytes, game/play.h), 0 with a 400 naming `field` queued
 * (missing_field when value is NULL). The one rule for every name a client gives:
 * inputs_name() (codec/person_name.h: 1..40 characters without control or bidi-control
 * characters, at least one of which shows); the detail says which part failed. */
int service_read_name(struct http_request *request, const json_t *value, const char *field, char *out);

/* Answer a refused input (api/inputs.h): its problem, detail and member. */
void service_refuse(struct http_request *request, const struct problem_refusal *refusal);

/* The request's token: from Authorization: Bearer, or ?token= on the routes that take one
 * (the streams: an EventSource sends no header). *bearer 1 with *token and *length set, 0
 * when there is none, -1 when it is malformed; 0 returned with 400 queued for a ?token= on
 * any other route (there it would only leak). */
int service_read_token(struct http_request *request, const char **token, size_t *length, int *bearer);

/* A new token of kind `prefix` ("st_", "pt_", "at_", "iv_": game/auth.h) into `token`, and
 * its hash, the only form the store keeps: 1, or 0 with 500 queued (no randomness). */
int service_new_token(struct http_request *request, const char *prefix, char token[AUTH_TOKEN_LENGTH + 1],
		      uint8_t hash[AUTH_HASH_SIZE]);

/* Answer a codec error. */
void service_codec_error(struct http_request *request, const struct codec_error *error);

/* The store failed: answer 503 (unavailable) or 500, counting the error. */
void service_store_error(struct http_request *request, enum store_status status);

/* The link of invite `code` to game `id`: PUBLIC_URL, or http://<Host>, then
 * /#game=<id>&invite=<code> (the code in the fragment, which browsers never send). */
void service_invite_url(struct http_request *request, const char *id, const char *code, char *out, size_t size);

#endif
