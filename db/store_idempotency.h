/*
 * store_idempotency.h - the responses kept for requests made with an idempotency key
 * (db/migrations/0001_event_store.sql): one record per (game, key), written with the events
 * the request produced (struct store_append, db/store_events.h) or alone, and read back when
 * the request repeats. Same connection and threading rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_IDEMPOTENCY_H
#define CATAN_DB_STORE_IDEMPOTENCY_H

#include <stdint.h>

#include "db/store.h"

/* The response to a request made with an idempotency key, stored with the events the
 * request produced (or alone with store_idempotency_put()). Borrowed. */
struct store_idempotency {
	const char *key;
	uint8_t request_hash[STORE_HASH_SIZE];
	int status; /* the response's HTTP status */
	const char *response;
};

struct store_idempotency_record {
	uint8_t request_hash[STORE_HASH_SIZE];
	int status;
	char *response; /* caller frees with free() */
	int64_t created_at_us;
};

/* The record kept for `key`: STORE_OK when it was made by a request with this hash (answer
 * with the stored response), STORE_IDEMPOTENCY_CONFLICT when by a different request (the
 * record is filled too: refuse the reuse of the key), STORE_NOT_FOUND when there is none. */
enum store_status store_idempotency_get(struct store *store, int64_t game_id, const char *key,
					const uint8_t request_hash[STORE_HASH_SIZE],
					struct store_idempotency_record *out);

/* Keep a record for a request that appended nothing (a refusal worth replaying).
 * STORE_IDEMPOTENCY_CONFLICT when the key exists, STORE_NOT_FOUND for an unknown game. */
enum store_status store_idempotency_put(struct store *store, int64_t game_id, const struct store_idempotency *record);

#endif
