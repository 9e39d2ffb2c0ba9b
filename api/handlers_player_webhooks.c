/*
 * handlers_player_webhooks.c - a player's webhooks: /v1/players/me/webhooks (issue 14).
 *
 * A person in eight games wants one receiver, not eight registrations made again for every
 * new game. A webhook registered with a player token belongs to the player, not to a game:
 * every append to a game the player sits in (read from seats at append time, so a game
 * joined later counts from then on) enqueues a delivery for it, in the same statement as
 * the events (db/migrations/0006_player_webhooks.sql, catan_receivers), and the delivery
 * worker sends it exactly as it would send a webhook registered by the player's seat of
 * that game: the events redacted for that seat, its your_turn notes, or, in a chat format,
 * the turn changes (deliver/deliver.c; the claim resolves the seat). Every delivery names its
 * game (game_id), since one receiver hears many games.
 *
 * The body is a game webhook's (api/handlers_webhooks.c reads it): url, events ("all" or
 * "your_turn"), format, mentions. Mentions are keyed by seat number as for a game webhook
 * (the seat a message names, in whichever game). The player sees, reads the delivery log
 * of, and removes only its own webhooks: another player's id answers 404, as an unknown
 * one does, so ids cannot be probed. At most PLAYER_WEBHOOKS_MAX per player.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "game/auth.h"
#include "game/lobby.h"
#include "game/webhooks.h"

#define PLAYER_WEBHOOKS_MAX 10

/* A player webhook as listings show it: a game webhook's fields, with the player's id in
 * place of the seat. New reference. */
static json_t *player_webhook_json(const struct store_webhook *webhook, int64_t player_id)
{
	json_t *json = handlers_webhook_json(webhook);
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(player_id, id);
	json_object_del(json, "seat");
	json_object_set_new(json, "player", json_string(id));
	return json;
}

/* The player's webhooks (free with store_webhooks_free): 1, or 0 with a problem queued. */
static int list_own(struct http_request *request, const struct store_player *player, struct store_webhook **webhooks,
		    int *count)
{
	enum store_status status = webhooks_player_list(player->id, webhooks, count);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	return 1;
}

void handle_post_player_webhook(struct http_request *request)
{
	struct store_player player;
	if (!handlers_authenticate_player(request, &player))
		return;
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	struct handlers_webhook_request wanted;
	if (!handlers_read_webhook(request, body, GAME_MAX_SEATS, 1, &wanted)) {
		json_decref(body);
		return;
	}
	struct store_webhook *webhooks;
	int count;
	if (!list_own(request, &player, &webhooks, &count)) {
		free(wanted.mentions);
		json_decref(body);
		return;
	}
	store_webhooks_free(webhooks, count);
	if (count >= PLAYER_WEBHOOKS_MAX) {
		char detail[96];
		snprintf(detail, sizeof detail, "at most %d webhooks per player", PLAYER_WEBHOOKS_MAX);
		http_respond_problem(request, PROBLEM_TOO_MANY_WEBHOOKS, detail, NULL, -1);
		free(wanted.mentions);
		json_decref(body);
		return;
	}
	struct store_webhook webhook = {
		0,    STORE_WEBHOOK_ADMIN, wanted.your_turn_only, 0, 0, (char *)wanted.url, wanted.format, 0, 0,
		NULL, wanted.digest_hours};
	enum store_status status =
		webhooks_player_create(player.id, wanted.your_turn_only, wanted.secret, webhook.url, wanted.format,
				       wanted.mentions, wanted.digest_hours, &webhook.id, &webhook.created_at_us);
	free(wanted.mentions);
	if (status != STORE_OK) {
		json_decref(body);
		service_store_error(request, status);
		return;
	}
	json_t *answer = player_webhook_json(&webhook, player.id);
	json_decref(body);
	char id[24], location[96];
	handlers_webhook_id_text(webhook.id, id);
	snprintf(location, sizeof location, "/v1/players/me/webhooks/%s", id);
	handlers_webhook_created(request, answer, wanted.secret, wanted.format, location);
}

void handle_get_player_webhooks(struct http_request *request)
{
	struct store_player player;
	struct store_webhook *webhooks;
	int count;
	if (!handlers_authenticate_player(request, &player) || !list_own(request, &player, &webhooks, &count))
		return;
	json_t *list = json_array();
	for (int i = 0; i < count; i++)
		json_array_append_new(list, player_webhook_json(&webhooks[i], player.id));
	store_webhooks_free(webhooks, count);
	http_respond_json(request, 200, json_pack("{s:o}", "webhooks", list), -1);
}

/* The player's webhook named by the route's first parameter, as JSON (new reference) with
 * its id in *id; NULL with a problem queued (401, or 404 webhook_not_found). */
static json_t *find_own(struct http_request *request, struct store_player *player, int64_t *id)
{
	if (!handlers_authenticate_player(request, player))
		return NULL;
	if (!handlers_webhook_param(request, request->params[0], id))
		return NULL;
	struct store_webhook *webhooks;
	int count;
	if (!list_own(request, player, &webhooks, &count))
		return NULL;
	int at = handlers_webhook_find(request, webhooks, count, *id, HANDLERS_ANY_OWNER, "");
	json_t *found = at >= 0 ? player_webhook_json(&webhooks[at], player->id) : NULL;
	store_webhooks_free(webhooks, count);
	return found;
}

void handle_get_player_webhook(struct http_request *request)
{
	struct store_player player;
	int64_t id;
	json_t *webhook = find_own(request, &player, &id);
	if (webhook)
		http_respond_json(request, 200, webhook, -1);
}

/* As find_own(), for a route that needs only the id: 1, or 0 with a problem queued. */
static int own_id(struct http_request *request, struct store_player *player, int64_t *id)
{
	json_t *webhook = find_own(request, player, id);
	json_decref(webhook);
	return webhook != NULL;
}

void handle_delete_player_webhook(struct http_request *request)
{
	struct store_player player;
	int64_t id;
	if (own_id(request, &player, &id))
		handlers_webhook_deleted(request, webhooks_player_delete(player.id, id));
}

void handle_get_player_webhook_deliveries(struct http_request *request)
{
	struct store_player player;
	int64_t id;
	if (own_id(request, &player, &id))
		handlers_webhook_deliveries(request, id);
}

void handle_rotate_player_webhook_secret(struct http_request *request)
{
	struct store_player player;
	int64_t id;
	int overlap_s;
	if (!handlers_authenticate_player(request, &player) || !handlers_read_rotation(request, &overlap_s))
		return;
	json_t *webhook = find_own(request, &player, &id);
	if (!webhook)
		return;
	int format = store_format_parse(json_string_value(json_object_get(webhook, "format")));
	json_decref(webhook);
	handlers_webhook_rotate(request, player.id, 1, id, format, overlap_s);
}
