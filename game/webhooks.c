/*
 * webhooks.c - webhook registrations and their logs on the thread's store connection (see
 * webhooks.h): each function is one store call, so the rules of a registration (bounds,
 * secrets, formats) stay where they are decided (the handlers and db/'s statements) and
 * this file is only the door between them.
 */
#include "game/webhooks.h"

#include "db/store_quota.h"
#include "db/store_mail.h"
#include "db/store_webhooks.h"
#include "game/play_internal.h"

enum store_status webhooks_create(int64_t game_id, int seat, int your_turn_only,
				  const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
				  const char *mentions_json, int digest_hours, int64_t *id, int64_t *created_at_us)
{
	return store_webhook_create(play_thread_store(), game_id, seat, your_turn_only, secret, url, format,
				    mentions_json, digest_hours, id, created_at_us);
}

enum store_status webhooks_list(int64_t game_id, struct store_webhook **out, int *count)
{
	return store_webhook_list(play_thread_store(), game_id, out, count);
}

enum store_status webhooks_delete(int64_t game_id, int64_t id)
{
	return store_webhook_delete(play_thread_store(), game_id, id);
}

enum store_status webhooks_player_create(int64_t player_id, int your_turn_only,
					 const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
					 const char *mentions_json, int digest_hours, int64_t *id,
					 int64_t *created_at_us)
{
	return store_player_webhook_create(play_thread_store(), player_id, your_turn_only, secret, url, format,
					   mentions_json, digest_hours, id, created_at_us);
}

enum store_status webhooks_player_list(int64_t player_id, struct store_webhook **out, int *count)
{
	return store_player_webhook_list(play_thread_store(), player_id, out, count);
}

enum store_status webhooks_player_delete(int64_t player_id, int64_t id)
{
	return store_player_webhook_delete(play_thread_store(), player_id, id);
}

enum store_status webhooks_receivers(int64_t game_id, int *count)
{
	return store_receivers_count(play_thread_store(), game_id, count);
}

enum store_status webhooks_history(int64_t id, int max, struct store_delivery_entry **out, int *count)
{
	return store_delivery_history(play_thread_store(), id, max, out, count);
}

enum store_status webhooks_rotate_secret(int64_t owner, int of_player, int64_t id,
					 const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int overlap_s,
					 int64_t *previous_until_us)
{
	return store_webhook_rotate_secret(play_thread_store(), owner, of_player, id, secret, overlap_s,
					   previous_until_us);
}
