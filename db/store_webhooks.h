/*
 * store_webhooks.h - webhooks in the store (db/migrations/0002_async.sql): a game's and a
 * player's registrations (0006_player_webhooks.sql), signed or chat formats with their
 * failure counts (0005_channels.sql), the outbox every append fills for them, claims of due
 * deliveries, and the log of every attempt. Mail registrations are rows of the same table,
 * registered and read only through db/store_mail.h (never listed or deleted here). Same connection and threading rules
 * as db/store.h.
 */
#ifndef CATAN_DB_STORE_WEBHOOKS_H
#define CATAN_DB_STORE_WEBHOOKS_H

#include <stdint.h>

#include "db/store.h"

#define STORE_WEBHOOK_SECRET_SIZE 32
#define STORE_WEBHOOK_ADMIN (-1)    /* a webhook registered with the admin token */
#define STORE_WEBHOOK_UNSEATED (-2) /* a delivery of a player's webhook in a game the player left */

/* What a webhook's deliveries look like (0005_channels.sql): signed Standard Webhooks
 * deliveries, or chat messages for a Discord or Slack incoming webhook; or mails to a
 * seat's address (0007_mail.sql, db/store_mail.h: never listed by store_webhook_list). */
enum store_webhook_format {
	STORE_FORMAT_STANDARD,
	STORE_FORMAT_DISCORD,
	STORE_FORMAT_SLACK,
	STORE_FORMAT_MAIL,
	STORE_FORMAT_COUNT
};

/* "standard", "discord", "slack"; and back (-1 when unknown). */
const char *store_format_name(int format);
int store_format_parse(const char *name);

struct store_webhook {
	int64_t id;
	int seat; /* or STORE_WEBHOOK_ADMIN */
	int your_turn_only;
	int64_t created_at_us;
	long pending; /* outbox rows not yet delivered */
	char *url;
	int format;		/* enum store_webhook_format */
	int failures;		/* failed attempts in a row (chat formats) */
	int64_t disabled_at_us; /* 0: enabled */
	char *disabled_reason;	/* NULL unless disabled; owned */
	int digest_hours;	/* 0: a chat message per turn; else a digest at most this often */
};

/* Register a webhook; *id and *created_at_us are set. mentions_json: NULL, or a JSON
 * object from seat to mention text (chat formats; never read back by store_webhook_list).
 * digest_hours: 0 (a chat message per turn), or 1..168 (a chat webhook's digest at most
 * that often: 0019_webhook_secrets_and_digests.sql). STORE_NOT_FOUND: no such game. */
enum store_status store_webhook_create(struct store *store, int64_t game_id, int seat, int your_turn_only,
				       const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
				       const char *mentions_json, int digest_hours, int64_t *id,
				       int64_t *created_at_us);

/* The game's webhooks, oldest first; free with store_webhooks_free(). */
enum store_status store_webhook_list(struct store *store, int64_t game_id, struct store_webhook **out, int *count);
void store_webhooks_free(struct store_webhook *webhooks, int count);

/* Remove a webhook of the game (and its pending deliveries and log). STORE_NOT_FOUND when
 * it is not there. */
enum store_status store_webhook_delete(struct store *store, int64_t game_id, int64_t id);

/* A player's webhooks (db/migrations/0006_player_webhooks.sql): registered on the player,
 * delivering for every game the player sits in what the player's seat of that game may
 * see. As the game's webhooks above (their seat is STORE_WEBHOOK_ADMIN in a list: a player
 * webhook has no seat of its own); STORE_NOT_FOUND: no such player, or no such webhook of
 * the player. */
enum store_status store_player_webhook_create(struct store *store, int64_t player_id, int your_turn_only,
					      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url,
					      int format, const char *mentions_json, int digest_hours, int64_t *id,
					      int64_t *created_at_us);
enum store_status store_player_webhook_list(struct store *store, int64_t player_id, struct store_webhook **out,
					    int *count);
enum store_status store_player_webhook_delete(struct store *store, int64_t player_id, int64_t id);

/* Give standard webhook `id` of game `owner` (of player `owner` when of_player) a new
 * signing secret; the one it replaces stays valid for overlap_s seconds (0: it stops at
 * once, as does any older one still in its overlap). *previous_until_us: when the old one
 * stops. STORE_NOT_FOUND: no such webhook of that owner, or a chat or mail one (nothing
 * of theirs is signed). */
enum store_status store_webhook_rotate_secret(struct store *store, int64_t owner, int of_player, int64_t id,
					      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int overlap_s,
					      int64_t *previous_until_us);

/* A claimed outbox row: the events first..last of game_id still to deliver from next_seq. */
struct store_delivery {
	int64_t outbox_id;
	int64_t webhook_id;
	int64_t game_id;
	int seat; /* or STORE_WEBHOOK_ADMIN, or STORE_WEBHOOK_UNSEATED (deliver nothing) */
	int your_turn_only;
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE];
	char *url;
	int32_t first_seq, last_seq, next_seq;
	int attempts;	     /* claims so far, this one included */
	int format;	     /* enum store_webhook_format */
	char *mentions;	     /* the mentions JSON object as text, or NULL; owned */
	int32_t message_seq; /* > 0: the row delivers this table-talk message, not events
			      * (0009_message_deliveries.sql) */
	/* The secret a rotation replaced, while its overlap lasts (0019_webhook_secrets_and_digests.sql):
	 * deliveries are signed with both. */
	int has_previous_secret;
	uint8_t previous_secret[STORE_WEBHOOK_SECRET_SIZE];
	/* A chat webhook's digest (0019_webhook_secrets_and_digests.sql): digest_hours 0 for
	 * none; the last version a digest told, and the milliseconds since it was posted (-1:
	 * never). */
	int digest_hours;
	int32_t digest_version;
	int64_t digest_since_ms;
};

/* A digest of webhook `id` told the game up to `version` just now. */
enum store_status store_webhook_digest_sent(struct store *store, int64_t id, int32_t version);

/* Claim up to `max` due deliveries (lease as for timers). Free with store_deliveries_free(). */
enum store_status store_claim_deliveries(struct store *store, int max, int lease_ms, struct store_delivery **out,
					 int *count);
void store_deliveries_free(struct store_delivery *deliveries, int count);

/* After an attempt: `done` removes the row; otherwise it keeps next_seq and is due again in
 * retry_ms. */
enum store_status store_delivery_update(struct store *store, int64_t outbox_id, int done, int32_t next_seq,
					int64_t retry_ms);

/* Record one attempt in the webhook's delivery log (http_status 0: no answer). */
enum store_status store_delivery_log(struct store *store, int64_t webhook_id, int64_t outbox_id, int32_t seq,
				     int attempt, int http_status, int duration_ms, const char *kind,
				     const char *error);

struct store_delivery_entry {
	int64_t at_us;
	int32_t seq;
	int attempt;
	int http_status; /* 0: no answer */
	int duration_ms;
	char kind[16];
	char error[160];
};

/* The latest `max` attempts for a webhook, newest first. Free with free(). */
enum store_status store_delivery_history(struct store *store, int64_t webhook_id, int max,
					 struct store_delivery_entry **out, int *count);

/* After a chat webhook's attempt: success resets its failure count; a failure counts one
 * more, and the max_failures-th in a row disables it with `reason` and drops its pending
 * deliveries (*disabled = 1 then). */
enum store_status store_channel_result(struct store *store, int64_t webhook_id, int succeeded, int max_failures,
				       const char *reason, int *disabled);

#endif
