/*
 * outbox.c - the delivery queue on the thread's store connection (see outbox.h): one store
 * call each.
 */
#include "game/outbox.h"

#include "game/play_internal.h"

enum store_status outbox_claim(int max, int lease_ms, struct store_delivery **out, int *count)
{
	return store_claim_deliveries(play_thread_store(), max, lease_ms, out, count);
}

enum store_status outbox_update(int64_t outbox_id, int done, int32_t next_seq, int64_t due_in_ms)
{
	return store_delivery_update(play_thread_store(), outbox_id, done, next_seq, due_in_ms);
}

enum store_status outbox_log(int64_t webhook_id, int64_t outbox_id, int32_t seq, int attempt, int http_status,
			     int duration_ms, const char *kind, const char *error)
{
	return store_delivery_log(play_thread_store(), webhook_id, outbox_id, seq, attempt, http_status, duration_ms,
				  kind, error);
}

enum store_status outbox_channel_result(int64_t webhook_id, int succeeded, int max_failures, const char *reason,
					int *disabled)
{
	return store_channel_result(play_thread_store(), webhook_id, succeeded, max_failures, reason, disabled);
}

enum store_status outbox_digest_sent(int64_t webhook_id, int32_t version)
{
	return store_webhook_digest_sent(play_thread_store(), webhook_id, version);
}
