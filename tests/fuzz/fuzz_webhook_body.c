/*
 * fuzz_webhook_body.c - libFuzzer target: the body of POST /v1/games/{id}/webhooks and
 * POST /v1/players/me/webhooks, and the chat message its mentions end up in.
 *
 * What it reaches: the first byte says who registers (a game of 3 or 4 seats or a player
 * (GAME_MAX_SEATS), a seat or the admin, private targets allowed or not); the rest is the
 * body, read as service_body() reads one (json_loadb, duplicates refused, an object) and
 * then by registration_read_webhook() (api/registration.c), the very function both
 * handlers call: known members (registration_webhook_members), url (deliver/destination.c's
 * rules), events, format, schedule and digest_hours,
 * mentions (deliver/channels.c channels_mentions_valid(), channels_mention_parse()). An
 * accepted chat registration's mentions then go into channels_message() for a game state
 * waiting for each seat in turn (fuzz_state()), with seat names taken from the body's url
 * and events members (client text, escaped by codec/escape.h).
 *
 * Oracles: a refusal is a 400 naming one of the members (an unknown one: that member) with
 * a UTF-8 detail and a problem body the server can send; an accepted body keeps to every
 * rule (an http(s) URL of at most 2048 characters, no control or space, allowed by
 * destination_url_allowed(); mentions only with a chat format, each one mention of it);
 * and the message is JSON whose only mentions are the registered ones: for Discord,
 * allowed_mentions is {"parse": [], "users", "roles"} and the ids listed are exactly the
 * ids of the "<@" mentions in the content; for Slack, every "<" in the text starts a
 * registered mention or the game link.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deliver/channels.h"
#include "deliver/destination.h"
#include "api/registration.h"
#include "db/store_webhooks.h"
#include "engine/legal.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *text)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, text ? text : "(null)");
	abort();
}

static void check_refusal(const json_t *body, const struct problem_refusal *refusal)
{
	const char *const *members = registration_webhook_members;
	if (refusal->problem != PROBLEM_UNKNOWN_FIELD && refusal->problem != PROBLEM_MISSING_FIELD &&
	    refusal->problem != PROBLEM_INVALID_FIELD)
		fail("a refusal that is not a 400 about a member", problem_code(refusal->problem));
	if (!refusal->field || !refusal->detail[0])
		fail("a refusal without its field or detail", refusal->detail);
	int named = 0;
	for (int i = 0; members[i]; i++)
		named |= strcmp(refusal->field, members[i]) == 0;
	if (refusal->problem == PROBLEM_UNKNOWN_FIELD)
		named = json_object_get(body, refusal->field) != NULL && !named;
	if (!named)
		fail("a refusal naming no member of the body", refusal->field);
	fuzz_expect_utf8("a refusal's detail", refusal->detail);
	fuzz_expect_problem("/v1/games/0123456789abcdef/webhooks", problem_code(refusal->problem),
			    problem_status(refusal->problem), problem_title(refusal->problem), refusal->detail,
			    refusal->field);
}

static void check_accepted(const struct registration_webhook *read, int seats, int for_seat, int allow_private)
{
	const char *url = read->url;
	size_t length = url ? strlen(url) : 0;
	if (!url || length > REGISTRATION_URL_MAX ||
	    (strncmp(url, "http://", 7) != 0 && strncmp(url, "https://", 8) != 0))
		fail("an accepted url that is no http(s) URL", url);
	for (size_t i = 0; i < length; i++)
		if ((unsigned char)url[i] <= 0x20 || url[i] == 0x7f)
			fail("an accepted url with a space or control", url);
	char why[128];
	if (!destination_url_allowed(url, allow_private, why, sizeof why))
		fail("an accepted url the destination rules refuse", url);
	if (read->format != STORE_FORMAT_STANDARD && read->format != STORE_FORMAT_DISCORD &&
	    read->format != STORE_FORMAT_SLACK)
		fail("an accepted format that is not a webhook's", store_format_name(read->format));
	if (read->your_turn_only && !for_seat)
		fail("your_turn accepted for the admin", url);
	if (read->digest_hours < 0 || read->digest_hours > REGISTRATION_DIGEST_HOURS_MAX)
		fail("an accepted digest interval out of range", url);
	if (read->digest_hours && read->format == STORE_FORMAT_STANDARD)
		fail("a digest accepted on a standard webhook", url);
	if (!read->mentions)
		return;
	if (read->format == STORE_FORMAT_STANDARD)
		fail("mentions accepted on a standard webhook", read->mentions);
	json_t *mentions = json_loads(read->mentions, 0, NULL);
	if (!json_is_object(mentions))
		fail("accepted mentions that are not an object", read->mentions);
	const char *key;
	json_t *value;
	json_object_foreach(mentions, key, value)
	{
		struct channels_mention mention;
		if (!(key[0] >= '0' && key[0] < '0' + seats && !key[1]) || !json_is_string(value) ||
		    !channels_mention_parse(read->format, json_string_value(value), &mention))
			fail("an accepted mention that is none", read->mentions);
	}
	json_decref(mentions);
}

/* The ids of "<@id>" (users) and "<@&id>" (roles) mentions in Discord text, in `ids` as
 * "u:id;" and "r:id;" pieces; any other unescaped "<@" fails. */
static void discord_mentions_in(const char *text, char *ids, size_t size)
{
	ids[0] = '\0';
	for (const char *at = strstr(text, "<@"); at; at = strstr(at + 2, "<@")) {
		size_t backslashes = 0;
		while (at - backslashes > text && at[-1 - (long)backslashes] == '\\')
			backslashes++;
		if (backslashes % 2)
			continue; /* an escaped "<": Discord shows it, reads nothing into it */
		int role = at[2] == '&';
		const char *id = at + 2 + role;
		size_t digits = strspn(id, "0123456789");
		if (digits == 0 || id[digits] != '>')
			fail("a <@ in a Discord message that is no mention", text);
		size_t used = strlen(ids);
		snprintf(ids + used, size - used, "%s:%.*s;", role ? "r" : "u", (int)digits, id);
	}
}

static void check_discord(const json_t *body, const char *text)
{
	const char *content = json_string_value(json_object_get(body, "content"));
	json_t *embed = json_array_get(json_object_get(body, "embeds"), 0);
	const char *description = json_string_value(json_object_get(embed, "description"));
	json_t *allowed = json_object_get(body, "allowed_mentions");
	json_t *parse = json_object_get(allowed, "parse");
	if (!content || !description || !json_is_array(parse) || json_array_size(parse) != 0)
		fail("a Discord message without content, description or an empty parse", text);
	char in_content[512], in_description[512], listed[512] = "";
	discord_mentions_in(content, in_content, sizeof in_content);
	discord_mentions_in(description, in_description, sizeof in_description);
	if (in_description[0])
		fail("a mention in the last moves", description);
	const char *lists[] = {"users", "roles"};
	for (int l = 0; l < 2; l++) {
		json_t *ids = json_object_get(allowed, lists[l]);
		if (!json_is_array(ids))
			fail("allowed_mentions without users or roles", text);
		size_t i;
		json_t *id;
		json_array_foreach(ids, i, id)
		{
			char needle[64];
			snprintf(needle, sizeof needle, "%s:%s;", l ? "r" : "u", json_string_value(id));
			if (!strstr(in_content, needle))
				fail("allowed_mentions lists an id the message does not mention", text);
			size_t used = strlen(listed);
			snprintf(listed + used, sizeof listed - used, "%s", needle);
		}
	}
	/* Every mention in the content is listed (and so registered). */
	for (const char *piece = in_content; *piece;) {
		const char *end = strchr(piece, ';');
		char needle[64];
		snprintf(needle, sizeof needle, "%.*s", (int)(end - piece + 1), piece);
		if (!strstr(listed, needle))
			fail("a mention in the content that allowed_mentions does not list", text);
		piece = end + 1;
	}
}

static void check_slack(const json_t *body, const char *text, const char *game_url)
{
	const char *section = json_string_value(
		json_object_get(json_object_get(json_array_get(json_object_get(body, "blocks"), 0), "text"), "text"));
	if (!section)
		fail("a Slack message without its section", text);
	for (const char *at = strchr(section, '<'); at; at = strchr(at + 1, '<')) {
		if (strncmp(at + 1, game_url, strlen(game_url)) == 0)
			continue;
		struct channels_mention mention;
		const char *end = strchr(at, '>');
		char sequence[80];
		if (!end || (size_t)(end - at + 1) >= sizeof sequence)
			fail("a < in a Slack message that is no sequence", section);
		snprintf(sequence, sizeof sequence, "%.*s", (int)(end - at + 1), at);
		if (!channels_mention_parse(STORE_FORMAT_SLACK, sequence, &mention))
			fail("a control sequence in a Slack message that is no registered mention", section);
	}
}

static void check_messages(const json_t *body, const struct registration_webhook *read)
{
	/* Client text of the body as seat names: the url and, when a string, events. */
	const char *events = json_string_value(json_object_get(body, "events"));
	static char names_text[GAME_MAX_SEATS][41 * 4];
	const char *sources[GAME_MAX_SEATS] = {read->url, events ? events : "<@&1> @everyone", "[x](https://evil)",
					       "<!channel> *b*"};
	struct channels_turn turn = {"0123456789abcdef",
				     {NULL},
				     "https://catan.example.org/board.png?version=1",
				     "https://catan.example.org/#game=0123456789abcdef",
				     1,
				     {CHANNELS_TURN, 0x0f, {0}},
				     NULL,
				     0,
				     0};
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		snprintf(names_text[s], sizeof names_text[s], "%s", sources[s]);
		turn.names[s] = names_text[s];
	}
	struct event recent[2];
	memset(recent, 0, sizeof recent);
	recent[0].type = EVENT_TURN_ENDED;
	recent[0].seat = 0;
	recent[1].type = EVENT_TRADE_COMPLETED;
	recent[1].seat = 1;
	recent[1].other = 2;
	turn.recent = recent;
	turn.recent_count = 2;
	for (int index = 0; index < FUZZ_STATES; index++) {
		const struct game *state = fuzz_state(index);
		/* Every kind of message, calling every seat. */
		turn.moment.kind = (enum channels_kind)(CHANNELS_TURN + index % (CHANNELS_DIGEST - CHANNELS_TURN + 1));
		turn.moment.offer.from = 1;
		turn.moment.offer.id = 3;
		char *text = channels_message(read->format, read->mentions, state, &turn);
		json_t *message = json_loads(text, 0, NULL);
		if (!json_is_object(message))
			fail("a chat message that is not JSON", text);
		if (read->format == STORE_FORMAT_DISCORD)
			check_discord(message, text);
		else
			check_slack(message, text, turn.game_url);
		json_decref(message);
		free(text);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	uint8_t who = data[0];
	int player = who & 8u;
	int seats = player ? GAME_MAX_SEATS : 3 + (who & 1u);
	int for_seat = player || (who & 2u);
	int allow_private = (who & 4u) != 0;
	json_error_t error;
	json_t *body = json_loadb((const char *)data + 1, size - 1, JSON_REJECT_DUPLICATES, &error);
	if (!body) {
		/* As service_body() answers it: jansson's text may quote half a character, and the
		 * problem body must exist all the same. */
		char detail[256];
		snprintf(detail, sizeof detail, "line %d, column %d: %s", error.line, error.column, error.text);
		fuzz_expect_problem("/v1/games/0123456789abcdef/webhooks", "invalid_json", 400,
				    "The body is not valid JSON", detail, "");
		return 0;
	}
	if (!json_is_object(body)) {
		json_decref(body);
		return 0;
	}
	struct registration_webhook read;
	struct problem_refusal refusal;
	if (!registration_read_webhook(body, seats, for_seat, allow_private, &read, &refusal)) {
		if (read.mentions)
			fail("a refused body with mentions kept", read.mentions);
		check_refusal(body, &refusal);
	} else {
		check_accepted(&read, seats, for_seat, allow_private);
		if (read.format != STORE_FORMAT_STANDARD)
			check_messages(body, &read);
		free(read.mentions);
	}
	json_decref(body);
	return 0;
}
