/*
 * store_idempotency.c - the responses kept for requests made with an idempotency key
 * (db/migrations/0001_event_store.sql): read back for a request that repeats, kept alone for
 * a refusal worth replaying. A request that appends keeps its record in the append's own
 * transaction (catan_append(), store_events.c), so a retried request finds either both the
 * events and the record or neither.
 */
#include "db/store_idempotency.h"

#include "db/store_internal.h"

#define IDEMPOTENCY_STATEMENTS(X)                                                       \
	X(idempotency_get, 2,                                                           \
	  "SELECT request_hash, status, response, created_at FROM idempotency_keys"     \
	  " WHERE game_id = $1::bigint AND key = $2::text")                             \
	X(idempotency_put, 5,                                                           \
	  "INSERT INTO idempotency_keys (game_id, status, key, request_hash, response)" \
	  " SELECT id, $2::smallint, $3::text, $4::bytea, $5::text FROM games WHERE id = $1::bigint")
STORE_STATEMENTS(idempotency, IDEMPOTENCY_STATEMENTS);

enum store_status store_idempotency_get(struct store *store, int64_t game_id, const char *key,
					const uint8_t request_hash[STORE_HASH_SIZE],
					struct store_idempotency_record *out)
{
	memset(out, 0, sizeof *out);
	if (!key) {
		store__say(store, "store_idempotency_get: no key");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_text(&params, key);
	PGresult *result;
	enum store_status status = store__run(store, &statement_idempotency_get, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		PQclear(result);
		store__say(store, "no record for this key");
		return STORE_NOT_FOUND;
	}
	if (PQgetisnull(result, 0, 0) || PQgetlength(result, 0, 0) != STORE_HASH_SIZE ||
	    !get_int16(result, 0, 1, &out->status) || PQgetisnull(result, 0, 2) ||
	    !get_timestamp(result, 0, 3, &out->created_at_us)) {
		PQclear(result);
		return store__corrupt(store, game_id, "an idempotency row with missing or malformed columns");
	}
	memcpy(out->request_hash, PQgetvalue(result, 0, 0), STORE_HASH_SIZE);
	out->response = store_strndup(PQgetvalue(result, 0, 2), (size_t)PQgetlength(result, 0, 2));
	PQclear(result);
	if (memcmp(out->request_hash, request_hash, STORE_HASH_SIZE) != 0) {
		store__say(store, "the key was used for a different request");
		return STORE_IDEMPOTENCY_CONFLICT;
	}
	return STORE_OK;
}

enum store_status store_idempotency_put(struct store *store, int64_t game_id, const struct store_idempotency *record)
{
	if (!record->key) {
		store__say(store, "store_idempotency_put: no key");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, record->status);
	param_text(&params, record->key);
	param_bytes(&params, record->request_hash, STORE_HASH_SIZE);
	param_text(&params, record->response ? record->response : "");
	PGresult *result;
	enum store_status status = store__run(store, &statement_idempotency_put, &params, 0, &result);
	if (status == STORE_OK && strcmp(PQcmdTuples(result), "1") != 0) {
		store__say(store, "no such game");
		status = STORE_NOT_FOUND;
	}
	PQclear(result);
	return status;
}
