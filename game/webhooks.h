/*
 * webhooks.h - registering webhooks and reading what became of them, free of HTTP: a
 * game's webhooks (a seat's, or the admin's) and a player's, and the delivery log of each.
 * The store's door for the handlers of api/ (db/store.h's webhook area); what is delivered
 * and how is deliver/'s, through game/outbox.h.
 *
 * Ownership: arguments are borrowed for the call; lists are the caller's to free with
 * store_webhooks_free(), delivery logs with free(). Every function uses the thread's store
 * connection and answers its status (STORE_NOT_FOUND: no such game, player or webhook).
 */
#ifndef CATAN_GAME_WEBHOOKS_H
#define CATAN_GAME_WEBHOOKS_H

#include <stdint.h>

#include "db/store.h"
#include "db/store_webhooks.h"

/* Register a webhook of game `game_id` for `seat` (or STORE_WEBHOOK_ADMIN) as
 * store_webhook_create(): *id and *created_at_us set. */
enum store_status webhooks_create(int64_t game_id, int seat, int your_turn_only,
				  const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
				  const char *mentions_json, int digest_hours, int64_t *id, int64_t *created_at_us);

/* The game's webhooks, oldest first (never a mail registration). */
enum store_status webhooks_list(int64_t game_id, struct store_webhook **out, int *count);

/* Remove a webhook of the game with its pending deliveries and log. */
enum store_status webhooks_delete(int64_t game_id, int64_t id);

/* The same for a player's webhooks, which deliver for every game the player sits in. */
enum store_status webhooks_player_create(int64_t player_id, int your_turn_only,
					 const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
					 const char *mentions_json, int digest_hours, int64_t *id,
					 int64_t *created_at_us);
enum store_status webhooks_player_list(int64_t player_id, struct store_webhook **out, int *count);
enum store_status webhooks_player_delete(int64_t player_id, int64_t id);

/* A standard webhook's new signing secret, the old one valid overlap_s seconds more, as
 * store_webhook_rotate_secret() (of_player: `owner` is a player's id, else a game's). */
enum store_status webhooks_rotate_secret(int64_t owner, int of_player, int64_t id,
					 const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int overlap_s,
					 int64_t *previous_until_us);

/* How many receivers one event of the game has now (its webhooks, chat channels and mail,
 * its players' too): the bound WEBHOOK_RECEIVERS_MAX counts these. */
enum store_status webhooks_receivers(int64_t game_id, int *count);

/* The latest `max` delivery attempts of webhook `id`, newest first (free() *out). */
enum store_status webhooks_history(int64_t id, int max, struct store_delivery_entry **out, int *count);

#endif
