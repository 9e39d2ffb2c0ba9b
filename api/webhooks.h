/*
 * webhooks.h - delivering a game's events to registered receivers, signed as Standard
 * Webhooks, from the outbox rows the appends wrote (db/migrations/0002_async.sql).
 *
 * Delivery threads (per server, on any number of servers) claim due outbox rows with a
 * lease, POST each event the receiver may see (redacted like the event log for the
 * registering seat, or as a spectator for the admin's webhooks) and, for a seat's
 * webhook, a "your_turn" note when the game then waits for that seat. Every attempt is
 * logged; a failed one is retried with exponential backoff (1 s, 2 s, 4 s ... up to an
 * hour). The same event always carries the same webhook-id, so a receiver can drop the
 * duplicates that at-least-once delivery implies. Moves never wait for deliveries.
 * Webhooks of format discord or slack get chat messages instead (api/channels.h).
 */
#ifndef CATAN_API_WEBHOOKS_H
#define CATAN_API_WEBHOOKS_H

#include <stddef.h>
#include <stdint.h>

#define WEBHOOKS_SECRET_TEXT_SIZE 56 /* "whsec_" + base64 of 32 bytes (44) + NUL, rounded up */

/* Start `count` delivery threads. */
void webhooks_start(int count, int allow_private_targets);
void webhooks_stop(void);

/* Sign `body` as Standard Webhooks: out = "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>". */
void webhooks_sign(const uint8_t *key, size_t key_size, const char *id, long long timestamp, const char *body,
		   size_t body_size, char *out, size_t out_size);

/* The text form of a secret: "whsec_" + base64(key). */
void webhooks_secret_text(const uint8_t key[32], char out[WEBHOOKS_SECRET_TEXT_SIZE]);

/* The API's id of a webhook ("wh_" + 16 hex digits) and back (0 when malformed). */
void webhooks_format_id(int64_t id, char out[24]);
int webhooks_parse_id(const char *text, int64_t *id);

/* Shared with the mail transport (api/mail.c). The server's public base URL without a
 * trailing slash (PUBLIC_URL, or http://LISTEN:PORT); the absolute URL of the game's PNG at
 * `version`; the last WEBHOOKS_RECENT_EVENTS events up to `version` as `viewer` sees them,
 * oldest first, into recent (their number). */
#define WEBHOOKS_RECENT_EVENTS 6
struct game_record;
struct event;
void webhooks_public_base(char *out, size_t size);
void webhooks_board_url(const struct game_record *record, int32_t version, char *out, size_t size);
int webhooks_recent_events(int64_t game_id, int32_t version, int viewer, struct event *recent);

/* Backoff before attempt `attempt` + 1 after `attempt` failures, in milliseconds. */
int64_t webhooks_backoff_ms(int attempt);

#endif
