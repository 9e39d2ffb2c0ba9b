/*
 * inputs.h - the parsing and validation of request bodies, without HTTP: the JSON object
 * of a body, the members it may have, a name, a table-talk message, a holiday and a join.
 *
 * Each function decides on its arguments alone (no libmicrohttpd, no store, no clock) and
 * either succeeds or fills a struct problem_refusal (http/problem.h): the problem to
 * answer, the member at fault and the detail, exactly what the handler then answers
 * (service_refuse() in api/service.h). So the fuzz targets of tests/fuzz/ run the very
 * code a request runs, and a handler is the store work around these calls.
 */
#ifndef CATAN_API_INPUTS_H
#define CATAN_API_INPUTS_H

#include <jansson.h>
#include <stddef.h>

#include "codec/person_name.h"
#include "http/problem.h"

/* Room for a name: 40 characters of UTF-8 and the NUL (PLAY_NAME_SIZE of game/play.h). */
#define INPUTS_NAME_SIZE (PERSON_NAME_MAX_CHARACTERS * 4 + 1)

/* The body as a JSON object (new reference), or NULL with *refusal: a missing body is an
 * empty object when `empty_ok`, else 400 invalid_json; bytes that are not JSON (duplicate
 * members refused) or not an object are 400 invalid_json naming "" (the whole body). The
 * Content-Type is the caller's to check (service_body()). */
json_t *inputs_json_object(const char *bytes, size_t length, int empty_ok, struct problem_refusal *refusal);

/* 1 when every member of `body` is one of `members` (NULL-terminated); else 0 with 400
 * unknown_field naming the member and `detail` (static text) as the detail. */
int inputs_known_members(const json_t *body, const char *const *members, const char *detail,
			 struct problem_refusal *refusal);

/* A name a client gives (codec/person_name.h) from `value` (NULL: missing) into `out`:
 * 1, or 0 with 400 (missing_field when NULL, else invalid_field) naming `field` (at most
 * 63 bytes) and saying which part of the rule failed. */
int inputs_name(const json_t *value, const char *field, char out[INPUTS_NAME_SIZE], struct problem_refusal *refusal);

/* POST /v1/players {name}: the name into `out`, or 0 with *refusal. */
int inputs_player(const json_t *body, char out[INPUTS_NAME_SIZE], struct problem_refusal *refusal);

/* POST .../messages {text}: *text (borrowed from body) when the body is {text} and the
 * text may be posted (codec/text.h text_message_length(), MESSAGES_MAX_CHARACTERS); else
 * 0 with *refusal (unknown_field, missing_field or invalid_field naming `text`). */
int inputs_message(const json_t *body, const char **text, struct problem_refusal *refusal);

/* POST and DELETE .../seats/{seat}/away: the body has no member, and `seat_text` (the
 * path's :seat, may be NULL) is a seat of a game of `seats` seats: 1 and *seat, or 0 with
 * 400 (unknown_field, or invalid_field naming `seat`). */
int inputs_away(const json_t *body, const char *seat_text, int seats, int *seat, struct problem_refusal *refusal);

/* PUT .../seats/{seat}/quiet_hours {timezone, from, to}: `seat_text` as inputs_away(),
 * timezone a tz database name the server has (base/zone.h), from and to "HH:MM" of
 * different minutes: 1 with *seat, *zone (borrowed from body), *from_min and *to_min; else
 * 0 with 400 (unknown_field, missing_field or invalid_field naming the member). */
int inputs_quiet_hours(const json_t *body, const char *seat_text, int seats, int *seat, const char **zone,
		       int *from_min, int *to_min, struct problem_refusal *refusal);

/* PUT /v1/games/{id}/seats/{seat}/player_seed {"player_seed": "..."}: the seat and the seed
 * (borrowed from body), 1..64 bytes of UTF-8. */
int inputs_player_seed(const json_t *body, const char *seat_text, int seats, int *seat, const char **seed,
		       struct problem_refusal *refusal);

/* POST .../join {invite, name, player_seed}: the members, the invite (a string of 1..128
 * bytes) and the player seed (optional: inputs_player_seed()'s rule): 1 with *invite, *name
 * (the name member, NULL when absent: its check, inputs_name(), comes once the caller knows
 * whether a player's name stands in for it) and *seed (NULL when absent), or 0 with
 * *refusal. Borrowed from body. */
int inputs_join(const json_t *body, const json_t **invite, const json_t **name, const char **seed,
		struct problem_refusal *refusal);

#endif
