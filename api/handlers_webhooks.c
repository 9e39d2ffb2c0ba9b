/*
 * handlers_webhooks.c - registering webhooks (delivery: deliver/deliver.c).
 *
 * The admin token registers receivers of every public event of the game; a seat token
 * registers receivers of that seat's view of the events plus "your_turn" notes. The
 * signing secret is shown once, in the answer to the registration.
 *
 * A webhook is its registrant's: a URL is the credential of what it reaches (a Discord or
 * Slack incoming webhook URL lets whoever holds it post to that channel), so the holder of
 * the token that registered it - that seat, or the admin for the admin's own - is the only
 * one who sees it, reads its delivery log and removes it. The admin sees its own webhooks
 * only, never a seat's: for a public lobby game the admin is whoever created it, a
 * stranger to the seats. Any other caller's webhook answers 404 webhook_not_found, exactly
 * as an id that does not exist, so ids cannot be probed. (The admin does not even learn
 * that a seat has one: nothing the admin could do with that knowledge needs it.) When a
 * seat changes hands before the start, its registrations go with the old holder
 * (db/migrations/0012_registrations.sql).
 *
 * format: "standard" (the default: signed deliveries of events and your_turn notes),
 * "discord" or "slack" (chat messages: deliver/channels.h), with schedule "every_turn" (a
 * message per turn of a person's seat) or "digest" (at most every digest_hours hours).
 * A chat webhook may carry mentions (seat -> mention); they are stored but never shown
 * again, not even to the registrant: no answer of this file holds them. A chat webhook
 * that kept failing is listed with "disabled": true and the reason. The body is read by
 * api/registration.c.
 *
 * Only a standard webhook is answered with its secret; POST .../webhooks/{wid}/secret
 * gives it a new one, the old one still valid for `overlap_seconds` (default
 * HANDLERS_SECRET_OVERLAP_S) while both sign every delivery
 * (db/migrations/0019_webhook_secrets_and_digests.sql); a chat webhook, which signs nothing,
 * answers 409 webhook_not_signed there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/config.h"
#include "api/handlers.h"
#include "api/registration.h"
#include "api/service.h"
#include "deliver/deliver.h"
#include "game/auth.h"
#include "game/webhooks.h"

#define WEBHOOKS_PER_OWNER 5
#define WEBHOOKS_PER_GAME 20
#define HISTORY_DEFAULT 50
#define HISTORY_MAX 500

void handlers_webhook_id_text(int64_t id, char out[24])
{
	char hex[STORE_ID_TEXT_SIZE];
	store_format_id(id, hex);
	snprintf(out, 24, "wh_%s", hex);
}

int handlers_webhook_param(struct http_request *request, const char *param, int64_t *id)
{
	if (param && strncmp(param, "wh_", 3) == 0 && store_parse_id(param + 3, id))
		return 1;
	http_respond_problem(request, PROBLEM_WEBHOOK_NOT_FOUND, "webhook ids look like wh_<16 hex digits>", NULL, -1);
	return 0;
}

static int owner_of(const struct session *session)
{
	return session->viewer == PLAY_ADMIN ? STORE_WEBHOOK_ADMIN : session->viewer;
}

json_t *handlers_webhook_json(const struct store_webhook *webhook)
{
	char id[24], created[40];
	handlers_webhook_id_text(webhook->id, id);
	play_format_time(webhook->created_at_us, created, sizeof created);
	json_t *json = json_pack("{s:s, s:s, s:s, s:o, s:s, s:i, s:s, s:b}", "id", id, "url", webhook->url, "events",
				 webhook->your_turn_only ? "your_turn" : "all", "seat",
				 webhook->seat >= 0 ? json_integer(webhook->seat) : json_null(), "created_at", created,
				 "pending", (int)webhook->pending, "format", store_format_name(webhook->format),
				 "disabled", webhook->disabled_at_us != 0);
	if (webhook->format != STORE_FORMAT_STANDARD) {
		json_object_set_new(json, "schedule", json_string(webhook->digest_hours ? "digest" : "every_turn"));
		if (webhook->digest_hours)
			json_object_set_new(json, "digest_hours", json_integer(webhook->digest_hours));
	}
	if (webhook->disabled_at_us) {
		char at[40];
		play_format_time(webhook->disabled_at_us, at, sizeof at);
		json_object_set_new(json, "disabled_at", json_string(at));
		json_object_set_new(json, "disabled_reason",
				    json_string(webhook->disabled_reason ? webhook->disabled_reason : ""));
	}
	return json;
}

/* The game's webhooks (free with store_webhooks_free): 1, or 0 with a problem queued. */
static int list_webhooks(struct http_request *request, const struct session *session, struct store_webhook **webhooks,
			 int *count)
{
	enum store_status status = webhooks_list(session->game.id, webhooks, count);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	return 1;
}

/* At most WEBHOOKS_PER_OWNER webhooks for each seat and for the admin, WEBHOOKS_PER_GAME in
 * all: 1, or 0 with a problem queued. */
static int room_for_webhook(struct http_request *request, struct session *session)
{
	struct store_webhook *webhooks;
	int count;
	if (!list_webhooks(request, session, &webhooks, &count))
		return 0;
	int owner = owner_of(session), mine = 0;
	for (int i = 0; i < count; i++)
		mine += webhooks[i].seat == owner;
	store_webhooks_free(webhooks, count);
	if (mine >= WEBHOOKS_PER_OWNER || count >= WEBHOOKS_PER_GAME) {
		char detail[128];
		snprintf(detail, sizeof detail, "at most %d webhooks per seat (and for the admin) and %d per game",
			 WEBHOOKS_PER_OWNER, WEBHOOKS_PER_GAME);
		http_respond_problem(request, PROBLEM_TOO_MANY_WEBHOOKS, detail, NULL, -1);
		return 0;
	}
	/* One event reaches at most WEBHOOK_RECEIVERS_MAX receivers, the game's and its
	 * players' together (db/migrations/0011_quotas.sql): one more would receive nothing. */
	int receivers, most = service_config()->webhook_receivers_max;
	enum store_status status = most > 0 ? webhooks_receivers(session->game.id, &receivers) : STORE_OK;
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	if (most > 0 && receivers >= most) {
		char detail[160];
		snprintf(
			detail, sizeof detail,
			"an event of this game already reaches %d receivers, with its players' (WEBHOOK_RECEIVERS_MAX)",
			most);
		http_respond_problem(request, PROBLEM_TOO_MANY_WEBHOOKS, detail, NULL, -1);
		return 0;
	}
	return 1;
}

int handlers_read_webhook(struct http_request *request, const json_t *body, int seats, int for_seat,
			  struct handlers_webhook_request *out)
{
	memset(out, 0, sizeof *out);
	struct registration_webhook read;
	struct problem_refusal refusal;
	if (!registration_read_webhook(body, seats, for_seat, service_config()->webhook_allow_private, &read,
				       &refusal)) {
		service_refuse(request, &refusal);
		return 0;
	}
	out->url = read.url;
	out->your_turn_only = read.your_turn_only;
	out->format = read.format;
	out->mentions = read.mentions;
	out->digest_hours = read.digest_hours;
	if (!auth_random(out->secret, sizeof out->secret)) {
		free(out->mentions);
		out->mentions = NULL;
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		return 0;
	}
	return 1;
}

void handlers_webhook_created(struct http_request *request, json_t *answer, const uint8_t *secret, int format,
			      const char *location)
{
	/* Only signed deliveries have a use for a secret: a chat webhook's is never shown. */
	if (format == STORE_FORMAT_STANDARD) {
		char secret_text[DELIVER_SECRET_TEXT_SIZE];
		deliver_secret_text(secret, secret_text);
		json_object_set_new(answer, "secret", json_string(secret_text));
	}
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, answer, -1);
}

void handle_post_webhook(struct http_request *request)
{
	struct session session;
	json_t *body = service_open_body(request, &session);
	if (!body)
		return;
	struct handlers_webhook_request wanted;
	if (!handlers_read_webhook(request, body, session.game.state.options.seats, session.viewer >= 0, &wanted) ||
	    !room_for_webhook(request, &session)) {
		free(wanted.mentions);
		json_decref(body);
		return;
	}
	struct store_webhook webhook = {
		0,    owner_of(&session), wanted.your_turn_only, 0, 0, (char *)wanted.url, wanted.format, 0, 0,
		NULL, wanted.digest_hours};
	enum store_status status = webhooks_create(session.game.id, webhook.seat, wanted.your_turn_only, wanted.secret,
						   webhook.url, wanted.format, wanted.mentions, wanted.digest_hours,
						   &webhook.id, &webhook.created_at_us);
	free(wanted.mentions);
	if (status != STORE_OK) {
		json_decref(body);
		if (status == STORE_NOT_FOUND)
			http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, NULL, NULL, -1);
		else
			service_store_error(request, status);
		return;
	}
	json_t *answer = handlers_webhook_json(&webhook);
	json_decref(body);
	char id[24], location[96];
	handlers_webhook_id_text(webhook.id, id);
	snprintf(location, sizeof location, "/v1/games/%s/webhooks/%s", session.game.id_text, id);
	handlers_webhook_created(request, answer, wanted.secret, wanted.format, location);
}

void handle_get_webhooks(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	struct store_webhook *webhooks;
	int count;
	enum store_status status = webhooks_list(session.game.id, &webhooks, &count);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	json_t *list = json_array();
	for (int i = 0; i < count; i++)
		if (webhooks[i].seat == owner_of(&session))
			json_array_append_new(list, handlers_webhook_json(&webhooks[i]));
	store_webhooks_free(webhooks, count);
	http_respond_json(request, 200, json_pack("{s:o}", "webhooks", list), -1);
}

/* The caller's own webhook named by :webhook (registered with the caller's token: the
 * seat's, or the admin's), or 0 with a 404 queued, whoever else's it is. */
static int find_own(struct http_request *request, const struct session *session, int64_t *id)
{
	if (!handlers_webhook_param(request, request->params[1], id))
		return 0;
	struct store_webhook *webhooks;
	int count;
	if (!list_webhooks(request, session, &webhooks, &count))
		return 0;
	int at = handlers_webhook_find(request, webhooks, count, *id, owner_of(session), " in this game");
	store_webhooks_free(webhooks, count);
	return at >= 0;
}

/* The body of a rotation: absent, {} or {"overlap_seconds": 0..HANDLERS_SECRET_OVERLAP_MAX_S}:
 * 1 and *overlap_s, or 0 with a 400 queued. */
int handlers_read_rotation(struct http_request *request, int *overlap_s)
{
	json_t *body = service_body(request, 1);
	if (!body)
		return 0;
	static const char *const members[] = {"overlap_seconds", NULL};
	if (!service_known_members(request, body, members, "a rotation takes {\"overlap_seconds\": N} or no body")) {
		json_decref(body);
		return 0;
	}
	*overlap_s = HANDLERS_SECRET_OVERLAP_S;
	json_t *overlap = json_object_get(body, "overlap_seconds");
	if (overlap) {
		json_int_t value = json_is_integer(overlap) ? json_integer_value(overlap) : -1;
		if (value < 0 || value > HANDLERS_SECRET_OVERLAP_MAX_S) {
			json_decref(body);
			char detail[96];
			snprintf(detail, sizeof detail, "overlap_seconds is an integer from 0 to %d",
				 HANDLERS_SECRET_OVERLAP_MAX_S);
			http_respond_problem(request, PROBLEM_INVALID_FIELD, detail, "overlap_seconds", -1);
			return 0;
		}
		*overlap_s = (int)value;
	}
	json_decref(body);
	return 1;
}

void handlers_webhook_rotate(struct http_request *request, int64_t owner, int of_player, int64_t id, int format,
			     int overlap_s)
{
	if (format != STORE_FORMAT_STANDARD) {
		http_respond_problem(request, PROBLEM_WEBHOOK_NOT_SIGNED,
				     "a chat webhook's messages are not signed: it has no secret to rotate", NULL, -1);
		return;
	}
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE];
	if (!auth_random(secret, sizeof secret)) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		return;
	}
	int64_t until_us;
	enum store_status status = webhooks_rotate_secret(owner, of_player, id, secret, overlap_s, &until_us);
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_WEBHOOK_NOT_FOUND, NULL, NULL, -1);
		return;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	char id_text[24], secret_text[DELIVER_SECRET_TEXT_SIZE], until[40];
	handlers_webhook_id_text(id, id_text);
	deliver_secret_text(secret, secret_text);
	play_format_time(until_us, until, sizeof until);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 200,
			  json_pack("{s:s, s:s, s:s, s:i}", "id", id_text, "secret", secret_text,
				    "previous_secret_expires_at", until, "overlap_seconds", overlap_s),
			  -1);
}

void handle_rotate_webhook_secret(struct http_request *request)
{
	struct session session;
	int64_t id;
	int overlap_s;
	if (!service_open(request, &session) || !handlers_read_rotation(request, &overlap_s) ||
	    !handlers_webhook_param(request, request->params[1], &id))
		return;
	struct store_webhook *webhooks;
	int count;
	if (!list_webhooks(request, &session, &webhooks, &count))
		return;
	int at = handlers_webhook_find(request, webhooks, count, id, owner_of(&session), " in this game");
	int format = at >= 0 ? webhooks[at].format : -1;
	store_webhooks_free(webhooks, count);
	if (at >= 0)
		handlers_webhook_rotate(request, session.game.id, 0, id, format, overlap_s);
}

void handle_delete_webhook(struct http_request *request)
{
	struct session session;
	int64_t id;
	if (!service_open(request, &session) || !find_own(request, &session, &id))
		return;
	handlers_webhook_deleted(request, webhooks_delete(session.game.id, id));
}

int handlers_webhook_find(struct http_request *request, const struct store_webhook *webhooks, int count, int64_t id,
			  int owner, const char *where)
{
	for (int i = 0; i < count; i++)
		if (webhooks[i].id == id && (owner == HANDLERS_ANY_OWNER || webhooks[i].seat == owner))
			return i;
	char detail[96];
	snprintf(detail, sizeof detail, "no such webhook of yours%s", where);
	http_respond_problem(request, PROBLEM_WEBHOOK_NOT_FOUND, detail, NULL, -1);
	return -1;
}

void handlers_webhook_deleted(struct http_request *request, enum store_status status)
{
	if (status == STORE_NOT_FOUND)
		http_respond_problem(request, PROBLEM_WEBHOOK_NOT_FOUND, NULL, NULL, -1);
	else if (status != STORE_OK)
		service_store_error(request, status);
	else
		http_respond_empty(request, 204);
}

void handle_get_webhook_deliveries(struct http_request *request)
{
	struct session session;
	int64_t id;
	if (!service_open(request, &session) || !find_own(request, &session, &id))
		return;
	handlers_webhook_deliveries(request, id);
}

void handlers_webhook_deliveries(struct http_request *request, int64_t id)
{
	long limit = http_query_integer(request, "limit", HISTORY_DEFAULT, 1, HISTORY_MAX);
	if (limit < 0)
		return;
	struct store_delivery_entry *entries;
	int count;
	enum store_status status = webhooks_history(id, (int)limit, &entries, &count);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	json_t *list = json_array();
	for (int i = 0; i < count; i++) {
		char at[40];
		play_format_time(entries[i].at_us, at, sizeof at);
		json_t *entry = json_pack("{s:s, s:s, s:i, s:i, s:o, s:i}", "at", at, "kind", entries[i].kind,
					  "version", (int)entries[i].seq, "attempt", entries[i].attempt, "status",
					  entries[i].http_status ? json_integer(entries[i].http_status) : json_null(),
					  "duration_ms", entries[i].duration_ms);
		if (entries[i].error[0])
			json_object_set_new(entry, "error", json_string(entries[i].error));
		json_array_append_new(list, entry);
	}
	free(entries);
	http_respond_json(request, 200, json_pack("{s:o}", "deliveries", list), -1);
}
