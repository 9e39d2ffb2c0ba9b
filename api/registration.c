/*
 * registration.c - registration bodies read and checked (see registration.h).
 *
 * The checks run in the order the handlers always ran them, so a body with several faults
 * is answered about the same one as before: unknown members first, then each member in
 * the order of the list (url, events, format, mentions; address). Each refusal names the
 * member, so a client can tell which field to fix.
 */
#include "api/registration.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/inputs.h"
#include "deliver/channels.h"
#include "deliver/destination.h"
#include "deliver/mail_message.h"
#include "game/webhooks.h"

static int valid_url(const char *url)
{
	size_t length = strlen(url);
	if (length > REGISTRATION_URL_MAX || length < 8)
		return 0;
	if (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0)
		return 0;
	for (size_t i = 0; i < length; i++)
		if ((unsigned char)url[i] <= 0x20 || url[i] == 0x7f)
			return 0;
	return 1;
}

const char *const registration_webhook_members[] = {"url",	"events",	"format", "mentions",
						    "schedule", "digest_hours", NULL};

int registration_read_webhook(const json_t *body, int seats, int for_seat, int allow_private,
			      struct registration_webhook *out, struct problem_refusal *refusal)
{
	memset(out, 0, sizeof *out);
	if (!inputs_known_members(body, registration_webhook_members,
				  "a webhook has url, events, format, mentions, schedule and digest_hours", refusal))
		return 0;
	json_t *url = json_object_get(body, "url");
	json_t *events = json_object_get(body, "events");
	if (!url)
		return problem_refuse(refusal, PROBLEM_MISSING_FIELD, "url", "url is required");
	if (!json_is_string(url) || !valid_url(json_string_value(url)))
		return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "url",
				      "url must be an http:// or https:// URL of at most 2048 characters");
	char why[128];
	if (!destination_url_allowed(json_string_value(url), allow_private, why, sizeof why))
		return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "url", "%s", why);
	out->url = json_string_value(url);
	if (events && !json_is_null(events)) {
		const char *which = json_is_string(events) ? json_string_value(events) : "";
		if (strcmp(which, "your_turn") == 0 && for_seat)
			out->your_turn_only = 1;
		else if (strcmp(which, "all") != 0)
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "events",
					      "events is \"all\", or \"your_turn\" for a seat's webhook");
	}
	out->format = STORE_FORMAT_STANDARD;
	json_t *format_json = json_object_get(body, "format");
	if (format_json && !json_is_null(format_json)) {
		out->format = json_is_string(format_json) ? store_format_parse(json_string_value(format_json)) : -1;
		/* Mail has its own route (POST .../mail): its registrations are not webhooks to list. */
		if (out->format < 0 || out->format == STORE_FORMAT_MAIL)
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "format",
					      "format is \"standard\", \"discord\" or \"slack\"");
	}
	/* A chat webhook's schedule: a message per turn, or a digest at most every N hours. */
	json_t *schedule = json_object_get(body, "schedule"), *hours = json_object_get(body, "digest_hours");
	int digest = 0;
	if (schedule && !json_is_null(schedule)) {
		const char *which = json_is_string(schedule) ? json_string_value(schedule) : "";
		digest = strcmp(which, "digest") == 0;
		if (!digest && strcmp(which, "every_turn") != 0)
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "schedule",
					      "schedule is \"every_turn\" or \"digest\"");
		if (digest && out->format == STORE_FORMAT_STANDARD)
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "schedule",
					      "a digest is for \"discord\" and \"slack\" webhooks only");
	}
	if (hours && !json_is_null(hours)) {
		json_int_t value = json_is_integer(hours) ? json_integer_value(hours) : -1;
		if (!digest)
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "digest_hours",
					      "digest_hours goes with schedule \"digest\"");
		if (value < 1 || value > REGISTRATION_DIGEST_HOURS_MAX)
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "digest_hours",
					      "digest_hours is an integer from 1 to %d", REGISTRATION_DIGEST_HOURS_MAX);
		out->digest_hours = (int)value;
	} else if (digest) {
		out->digest_hours = REGISTRATION_DIGEST_HOURS;
	}
	json_t *mentions = json_object_get(body, "mentions");
	if (mentions && !json_is_null(mentions)) {
		char why_mentions[160];
		if (out->format == STORE_FORMAT_STANDARD)
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "mentions",
					      "mentions are for \"discord\" and \"slack\" webhooks only");
		if (!channels_mentions_valid(mentions, seats, out->format, why_mentions, sizeof why_mentions))
			return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "mentions", "%s", why_mentions);
		out->mentions = json_dumps(mentions, JSON_COMPACT);
		if (!out->mentions)
			abort();
	}
	return 1;
}

int registration_read_mail(const json_t *body, const char **address, struct problem_refusal *refusal)
{
	static const char *const members[] = {"address", NULL};
	if (!inputs_known_members(body, members, "a mail registration has an address", refusal))
		return 0;
	json_t *value = json_object_get(body, "address");
	char why[200];
	if (!value)
		return problem_refuse(refusal, PROBLEM_MISSING_FIELD, "address", "address is required");
	if (!json_is_string(value))
		return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "address",
				      "address is a string: one plain mail address");
	if (!mail_address_valid(json_string_value(value), why, sizeof why))
		return problem_refuse(refusal, PROBLEM_INVALID_FIELD, "address", "%s", why);
	*address = json_string_value(value);
	return 1;
}
