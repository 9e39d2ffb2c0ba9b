/*
 * inputs.c - request bodies parsed and checked without HTTP (see inputs.h).
 *
 * Every refusal goes through problem_refuse() (http/problem.h), which fills the one struct
 * the handler answers from; the texts are the ones the handlers answered before they were moved here, so a
 * client sees the same problem, member and detail as before. Nothing here allocates but
 * jansson (the parsed body, owned by the caller).
 */
#include "api/inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/quiet.h"
#include "game/fairness.h"
#include "game/zones.h"
#include "codec/text.h"
#include "game/messages.h"

json_t *inputs_json_object(const char *bytes, size_t length, int empty_ok, struct problem_refusal *refusal)
{
	if (!bytes || length == 0) {
		if (empty_ok)
			return json_object();
		problem_refuse(refusal, PROBLEM_INVALID_JSON, "", "a JSON object body is required");
		return NULL;
	}
	json_error_t error;
	json_t *body = json_loadb(bytes, length, JSON_REJECT_DUPLICATES, &error);
	if (!body) {
		problem_refuse(refusal, PROBLEM_INVALID_JSON, "", "line %d, column %d: %s", error.line, error.column,
			       error.text);
		return NULL;
	}
	if (!json_is_object(body)) {
		json_decref(body);
		problem_refuse(refusal, PROBLEM_INVALID_JSON, "", "the body must be a JSON object");
		return NULL;
	}
	return body;
}

int inputs_known_members(const json_t *body, const char *const *members, const char *detail,
			 struct problem_refusal *refusal)
{
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)body, key, value)
	{
		int known = 0;
		for (const char *const *member = members; *member && !known; member++)
			known = strcmp(key, *member) == 0;
		if (!known)
			return problem_refuse(refusal, PROBLEM_UNKNOWN_FIELD, key, "%s", detail);
	}
	return 1;
}

int inputs_name(const json_t *value, const char *field, char out[INPUTS_NAME_SIZE], struct problem_refusal *refusal)
{
	int characters;
	enum person_name_verdict verdict =
		json_is_string(value)
			? person_name_check(json_string_value(value), json_string_length(value), &characters)
			: PERSON_NAME_MALFORMED;
	if (verdict != PERSON_NAME_OK) {
		/* The member's name is the caller's (often a local buffer): copied. */
		if (field != refusal->field_text)
			snprintf(refusal->field_text, sizeof refusal->field_text, "%s", field);
		return problem_refuse(refusal, value ? PROBLEM_INVALID_FIELD : PROBLEM_MISSING_FIELD,
				      refusal->field_text, "%s", person_name_reason(verdict));
	}
	snprintf(out, INPUTS_NAME_SIZE, "%s", json_string_value(value));
	return 1;
}

int inputs_player(const json_t *body, char out[INPUTS_NAME_SIZE], struct problem_refusal *refusal)
{
	static const char *const members[] = {"name", NULL};
	return inputs_known_members(body, members, "a player has a name", refusal) &&
	       inputs_name(json_object_get(body, "name"), "name", out, refusal);
}

int inputs_message(const json_t *body, const char **text, struct problem_refusal *refusal)
{
	static const char *const members[] = {"text", NULL};
	if (!inputs_known_members(body, members, "a message is {text}", refusal))
		return 0;
	json_t *value = json_object_get(body, "text");
	if (!value)
		return problem_refuse(refusal, PROBLEM_MISSING_FIELD, "text", "a message needs its text");
	if (!json_is_string(value) || strlen(json_string_value(value)) != json_string_length(value) ||
	    text_message_length(json_string_value(value), MESSAGES_MAX_CHARACTERS) < 0)
		return problem_refuse(
			refusal, PROBLEM_INVALID_FIELD, "text",
			"text is 1..500 characters of UTF-8, without control characters (line feeds allowed) or "
			"bidi controls");
	*text = json_string_value(value);
	return 1;
}

/* The path's :seat (may be NULL), a seat of a game of `seats` seats. */
static int read_seat(const char *seat_text, int seats, int *seat, struct problem_refusal *refusal)
{
	char *end = NULL;
	long value = seat_text ? strtol(seat_text, &end, 10) : -1;
	if (!seat_text || !*seat_text || *end || value < 0 || value >= seats)
		return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "seat",
				      "seat is a seat number of the game, 0 to %d", seats - 1);
	*seat = (int)value;
	return 1;
}

int inputs_away(const json_t *body, const char *seat_text, int seats, int *seat, struct problem_refusal *refusal)
{
	static const char *const members[] = {NULL};
	return inputs_known_members(body, members, "away takes no body (or {})", refusal) &&
	       read_seat(seat_text, seats, seat, refusal);
}

/* A quiet hours member, "HH:MM": its minutes after midnight, or -1 with *refusal. */
static int quiet_time(const json_t *body, const char *member, struct problem_refusal *refusal)
{
	const json_t *value = json_object_get(body, member);
	int minutes = json_is_string(value) ? quiet_parse_time(json_string_value(value)) : -1;
	if (minutes < 0)
		problem_refuse(refusal, value ? PROBLEM_INVALID_FIELD : PROBLEM_MISSING_FIELD, member,
			       "%s is a local time of day, \"HH:MM\" from 00:00 to 23:59", member);
	return minutes;
}

int inputs_quiet_hours(const json_t *body, const char *seat_text, int seats, int *seat, const char **zone,
		       int *from_min, int *to_min, struct problem_refusal *refusal)
{
	static const char *const members[] = {"timezone", "from", "to", NULL};
	if (!inputs_known_members(body, members, "quiet hours are a timezone, from and to", refusal) ||
	    !read_seat(seat_text, seats, seat, refusal))
		return 0;
	const json_t *name = json_object_get(body, "timezone");
	if (!json_is_string(name) || !zones_load(json_string_value(name)))
		return problem_refuse(refusal, name ? PROBLEM_INVALID_FIELD : PROBLEM_MISSING_FIELD, "timezone",
				      "timezone is a name of the tz database, such as \"Europe/Berlin\"");
	if ((*from_min = quiet_time(body, "from", refusal)) < 0 || (*to_min = quiet_time(body, "to", refusal)) < 0)
		return 0;
	if (*from_min == *to_min)
		return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "to",
				      "quiet hours end at another time than they begin (to differs from from)");
	*zone = json_string_value(name);
	return 1;
}

/* A player seed (issue 26): 1..64 bytes of UTF-8, no NUL (fairness_player_seed_valid()).
 * `value` NULL: missing. */
static int read_player_seed(const json_t *value, const char **seed, struct problem_refusal *refusal)
{
	const char *text = json_string_value(value);
	if (!text || json_string_length(value) != strlen(text) || !fairness_player_seed_valid(text))
		return problem_refuse(refusal, value ? PROBLEM_INVALID_FIELD : PROBLEM_MISSING_FIELD, "player_seed",
				      "player_seed is 1 to 64 bytes of UTF-8 (no NUL)");
	*seed = text;
	return 1;
}

int inputs_player_seed(const json_t *body, const char *seat_text, int seats, int *seat, const char **seed,
		       struct problem_refusal *refusal)
{
	static const char *const members[] = {"player_seed", NULL};
	if (!inputs_known_members(body, members, "a player seed is {\"player_seed\": \"...\"}", refusal) ||
	    !read_seat(seat_text, seats, seat, refusal))
		return 0;
	return read_player_seed(json_object_get(body, "player_seed"), seed, refusal);
}

int inputs_join(const json_t *body, const json_t **invite, const json_t **name, const char **seed,
		struct problem_refusal *refusal)
{
	static const char *const members[] = {"invite", "name", "player_seed", NULL};
	if (!inputs_known_members(body, members, "a join has the invite, a name and a player seed", refusal))
		return 0;
	json_t *code = json_object_get(body, "invite");
	if (!json_is_string(code) || json_string_length(code) < 1 || json_string_length(code) > 128)
		return problem_refuse(refusal, code ? PROBLEM_INVALID_FIELD : PROBLEM_MISSING_FIELD, "invite",
				      "invite is the code of the game's invite (a string)");
	*seed = NULL;
	const json_t *seed_value = json_object_get(body, "player_seed");
	if (seed_value && !read_player_seed(seed_value, seed, refusal))
		return 0;
	*invite = code;
	*name = json_object_get(body, "name");
	return 1;
}
