/*
 * problem.h - every error the HTTP API answers, as RFC 9457 problem details.
 *
 * One X-macro table gives each problem its code (the `code` member and the tail of the
 * `type` URI "urn:catan:problem:<code>"), its HTTP status and its title. Refusals of the
 * rules come from the engine's own table (engine/error.h): input errors answer 400, rule
 * refusals 422, except trade_not_found, which is 404 like any unknown resource.
 */
#ifndef CATAN_HTTP_PROBLEM_H
#define CATAN_HTTP_PROBLEM_H

#include <jansson.h>

#include "codec/error.h"
#include "engine/error.h"

/* X(name, code, status, title) */
#define PROBLEM_TABLE(X)                                                                                             \
	X(INVALID_JSON, "invalid_json", 400, "The body is not valid JSON")                                           \
	X(UNKNOWN_FIELD, "unknown_field", 400, "Unknown member")                                                     \
	X(MISSING_FIELD, "missing_field", 400, "Missing member")                                                     \
	X(INVALID_FIELD, "invalid_field", 400, "Invalid value")                                                      \
	X(MISSING_TOKEN, "missing_token", 401, "A seat token is required")                                           \
	X(UNKNOWN_TOKEN, "unknown_token", 401, "The token is not valid for this game")                               \
	X(SEAT_TOKEN_REQUIRED, "seat_token_required", 403, "Only a seat can make moves")                             \
	X(SEAT_MISMATCH, "seat_mismatch", 403, "The token belongs to another seat")                                  \
	X(ADMIN_TOKEN_REQUIRED, "admin_token_required", 403, "The game's admin token is required")                   \
	X(CREATE_KEY_REQUIRED, "create_key_required", 403, "Creating this game needs the server's creation key")     \
	X(GAME_NOT_FOUND, "game_not_found", 404, "No such game")                                                     \
	X(PLAYER_NOT_FOUND, "player_not_found", 404, "No such player")                                               \
	X(TRADE_NOT_FOUND, "trade_not_found", 404, "No such open trade offer")                                       \
	X(WEBHOOK_NOT_FOUND, "webhook_not_found", 404, "No such webhook")                                            \
	X(ROUTE_NOT_FOUND, "route_not_found", 404, "No such resource")                                               \
	X(MAIL_LINK_INVALID, "mail_link_invalid", 404, "This mail link is not valid (any more)")                     \
	X(VERSION_NOT_FOUND, "version_not_found", 404, "The game has no such version yet")                           \
	X(METHOD_NOT_ALLOWED, "method_not_allowed", 405, "Method not allowed on this resource")                      \
	X(VERSION_CONFLICT, "version_conflict", 409, "The game changed while the move was being applied")            \
	X(TOO_MANY_WEBHOOKS, "too_many_webhooks", 409, "This game or seat has as many webhooks as it may")           \
	X(WEBHOOK_NOT_SIGNED, "webhook_not_signed", 409, "This webhook's messages are not signed: it has no secret") \
	X(GAME_NOT_STARTED, "game_not_started", 409, "The game waits for players to join")                           \
	X(GAME_STARTED, "game_started", 409, "The game has started: no seat is open")                                \
	X(GAME_FINISHED, "game_finished", 409, "The game is over")                                                   \
	X(GAME_EXPIRED, "game_expired", 409, "The game expired waiting for players")                                 \
	X(HOLIDAY_ALLOWANCE_SPENT, "holiday_allowance_spent", 409, "The seat's holiday allowance is spent")          \
	X(GAME_NOT_FINISHED, "game_not_finished", 409, "The game is not over yet")                                   \
	X(GAME_FULL, "game_full", 409, "Every seat of the game is taken")                                            \
	X(SEAT_NOT_CHANGEABLE, "seat_not_changeable", 409, "The seat is not in the state this change needs")         \
	X(ALREADY_SEATED, "already_seated", 409, "The player holds a seat of this game already")                     \
	X(SUBSTITUTE_NOT_NEEDED, "substitute_not_needed", 409, "The seat needs no substitute")                       \
	X(RATED_GAME, "rated_game", 409, "A rated game's seats stay their players'")                                 \
	X(SEEDS_FIXED, "seeds_fixed", 409, "The players' seeds are fixed (the game rolled, or every seat set one)")  \
	X(NOT_PROVABLY_FAIR, "not_provably_fair", 409, "The game is not provably fair: it has no players' seeds")    \
	X(WRONG_INVITE, "wrong_invite", 403, "The invite is not this game's")                                        \
	X(PLAYER_NOT_SEATED, "player_not_seated", 403, "The player holds no seat in this game")                      \
	X(PLAYER_TOKEN_REQUIRED, "player_token_required", 403, "A rated game is joined with a player token")         \
	X(PRECONDITION_FAILED, "precondition_failed", 412, "The game is not at the version in If-Match")             \
	X(BODY_TOO_LARGE, "body_too_large", 413, "The body is too large")                                            \
	X(UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", 415, "The body must be application/json")                \
	X(IDEMPOTENCY_KEY_REUSED, "idempotency_key_reused", 422, "The Idempotency-Key was used for another request") \
	X(IMPORT_REFUSED, "import_refused", 422, "The rules refuse this log")                                        \
	X(RATE_LIMITED, "rate_limited", 429, "Too many requests")                                                    \
	X(CREATE_QUOTA, "create_quota", 429, "Too many games created from this address")                             \
	X(WAITING_QUOTA, "waiting_quota", 429, "This client holds as many waiting requests as it may")               \
	X(PLAYER_QUOTA, "player_quota", 429, "Too many players made from this address")                              \
	X(IMPORT_QUOTA, "import_quota", 429, "Too many bytes imported from this address")                            \
	X(AWAY_QUOTA, "away_quota", 429, "This seat went away and came back too often")                              \
	X(MAIL_QUOTA, "mail_quota", 429, "Too many confirmation mails for this address or registrant")               \
	X(INTERNAL_ERROR, "internal_error", 500, "Internal error")                                                   \
	X(DATABASE_UNAVAILABLE, "database_unavailable", 503, "The database is unavailable")                          \
	X(SHUTTING_DOWN, "shutting_down", 503, "The server is shutting down")                                        \
	X(TOO_MANY_WAITING, "too_many_waiting", 503, "Too many requests are waiting for changes")                    \
	X(RENDER_BUSY, "render_busy", 503, "Too many board pictures are being drawn")                                \
	X(IMPORT_BUSY, "import_busy", 503, "Too many imports are being judged")                                      \
	X(MAIL_DISABLED, "mail_disabled", 503, "This server sends no mail (no SMTP_URL)")

enum problem {
#define PROBLEM_ENUM(name, code, status, title) PROBLEM_##name,
	PROBLEM_TABLE(PROBLEM_ENUM)
#undef PROBLEM_ENUM
		PROBLEM_COUNT
};

const char *problem_code(enum problem problem);
int problem_status(enum problem problem);
const char *problem_title(enum problem problem);

/* The HTTP status for an engine refusal (400, 404 or 422). */
int problem_status_of_error(enum error error);

/* The title of an engine refusal's problem, by its status. */
const char *problem_title_of_error(enum error error);

/* The problem for a codec refusal: the one of the same name (each code of
 * CODEC_ERROR_TABLE has one); invalid_field for CODEC_ERROR_NONE or a value outside the
 * enum. */
enum problem problem_of_codec_error(enum codec_error_code code);

/* Why an input is refused, the one shape every reader of a body fills (api/inputs.h,
 * api/registration.h, api/import_body.h) and a handler answers as it is: the problem, the
 * member at fault (NULL: none; else a literal, a member name of the body read, or
 * field_text, borrowed: valid while the body is) and the detail. */
struct problem_refusal {
	enum problem problem;
	const char *field;
	char field_text[96];
	char detail[400];
};

/* Fill *refusal with `problem`, `field` (borrowed, as above) and the detail (printf);
 * returns 0, for `return problem_refuse(...)` from a reader that answers 1 or 0. */
int problem_refuse(struct problem_refusal *refusal, enum problem problem, const char *field, const char *format, ...)
	__attribute__((format(printf, 4, 5)));

/* The problem+json body every error answer carries: type "urn:catan:problem:<code>",
 * title, status, detail (the title when NULL), code, then field when not NULL, version
 * when >= 0 and instance (the request path). detail, field and instance may hold any
 * bytes: text that is not valid UTF-8 is quoted through text_json() (codec/text.h), so the
 * body exists whatever a client sent. No I/O: the fuzz targets of tests/fuzz/ build the
 * very bodies the server sends. New reference (caller decrefs); NULL only if jansson
 * fails to allocate. */
json_t *problem_json(const char *instance, const char *code, int status, const char *title, const char *detail,
		     const char *field, long version);

#endif
