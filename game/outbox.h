/*
 * outbox.h - the delivery queue, free of HTTP: the outbox rows the appends wrote in their
 * own transactions (db/migrations/0002_async.sql), claimed with a lease by any delivery
 * thread of any server, and what became of each attempt. The store's door for deliver/,
 * whose loop (deliver/deliver.c) is the one caller: it claims, and it alone records
 * progress, backoff and the attempts' log.
 *
 * Ownership: claimed rows are the caller's to free with store_deliveries_free(); every
 * other argument is borrowed for the call. The thread's store connection; statuses as
 * db/store.h's.
 */
#ifndef CATAN_GAME_OUTBOX_H
#define CATAN_GAME_OUTBOX_H

#include <stdint.h>

#include "db/store.h"
#include "db/store_webhooks.h"

/* Claim up to `max` due rows, leased for lease_ms, into *out (*count of them). */
enum store_status outbox_claim(int max, int lease_ms, struct store_delivery **out, int *count);

/* After an attempt: `done` removes the row; otherwise it keeps next_seq and is due again
 * in due_in_ms (a lease while it is worked on, the backoff after a failure). */
enum store_status outbox_update(int64_t outbox_id, int done, int32_t next_seq, int64_t due_in_ms);

/* Log one attempt in the webhook's delivery log (http_status 0: no answer; error NULL
 * when it was acknowledged). */
enum store_status outbox_log(int64_t webhook_id, int64_t outbox_id, int32_t seq, int attempt, int http_status,
			     int duration_ms, const char *kind, const char *error);

/* After a chat webhook's attempt: success resets its count of failures in a row; the
 * max_failures-th failure disables it with `reason` and drops its rows (*disabled 1). */
enum store_status outbox_channel_result(int64_t webhook_id, int succeeded, int max_failures, const char *reason,
					int *disabled);

/* A chat webhook's digest told the game up to `version` now (its next one is due
 * digest_hours later). */
enum store_status outbox_digest_sent(int64_t webhook_id, int32_t version);

#endif
