/*
 * store_read.c - the store's reads: loading a game (snapshot and the events after it, in one
 * statement, so one consistent view), reading its log, its version, its seats, a token, an
 * idempotency record.
 *
 * Results come in binary; every value is checked for NULL and width as it is read, and the
 * event rows for continuity of seq, so a damaged row is STORE_CORRUPT, never misread.
 */
#include "db/store_internal.h"

void store_log_free(struct store_log *log)
{
	free(log->rows);
	log->rows = NULL;
	log->count = 0;
}

/* Copy the event rows first..PQntuples-1 of a load/read result into *log (one allocation:
 * the rows, then their payloads). The rows must follow on from seq `after`. */
static enum store_status copy_log(struct store *store, int64_t game_id, const PGresult *result, int first,
				  int32_t after, struct store_log *log)
{
	int count = PQntuples(result) - first;
	size_t text_size = 0;
	for (int row = first; row < first + count; row++)
		text_size += (size_t)PQgetlength(result, row, LOG_PAYLOAD) + 1;
	char *block = store_alloc(sizeof(struct store_event_row) * (size_t)count + text_size);
	log->rows = (struct store_event_row *)(void *)block;
	log->count = count;
	char *text = block + sizeof(struct store_event_row) * (size_t)count;
	for (int i = 0; i < count; i++) {
		int row = first + i;
		struct store_event_row *event = &log->rows[i];
		if (!get_int32(result, row, LOG_SEQ, &event->seq) || !get_int16(result, row, LOG_TYPE, &event->type) ||
		    !get_int16(result, row, LOG_ACTOR, &event->actor) ||
		    !get_int16(result, row, LOG_ORIGIN, &event->origin) ||
		    !get_timestamp(result, row, LOG_CREATED_AT, &event->created_at_us) ||
		    PQgetisnull(result, row, LOG_PAYLOAD)) {
			store_log_free(log);
			return store__corrupt(store, game_id, "an event row with missing or malformed columns");
		}
		if (event->seq != after + 1 + i) {
			store_log_free(log);
			return store__corrupt(store, game_id, "the event log has a gap");
		}
		size_t size = (size_t)PQgetlength(result, row, LOG_PAYLOAD);
		memcpy(text, PQgetvalue(result, row, LOG_PAYLOAD), size);
		text[size] = '\0';
		event->payload = text;
		event->payload_size = size;
		text += size + 1;
	}
	return STORE_OK;
}

enum store_status store_load(struct store *store, int64_t game_id, int format_version, void *state,
			     size_t state_size, struct store_loaded *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, format_version);
	param_int(&params, (long long)state_size);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_LOAD, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t header_seq;
	if (PQntuples(result) == 0 || !get_int32(result, 0, LOG_SEQ, &header_seq) || header_seq != 0) {
		PQclear(result);
		store__say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	if (!get_int16(result, 0, LOG_TYPE, &out->status) || !get_int16(result, 0, LOG_ACTOR, &out->seats) ||
	    !get_int64(result, 0, LOG_SEED, &out->seed) ||
	    !get_int32(result, 0, LOG_SNAPSHOT_SEQ, &out->snapshot_seq) || out->snapshot_seq < 0) {
		PQclear(result);
		return store__corrupt(store, game_id, "a games row with missing or malformed columns");
	}
	if (out->snapshot_seq > 0) {
		/* The statement only returns a state of exactly state_size bytes. */
		if (PQgetisnull(result, 0, LOG_STATE) || (size_t)PQgetlength(result, 0, LOG_STATE) != state_size) {
			PQclear(result);
			return store__corrupt(store, game_id, "a snapshot of the wrong size");
		}
		memcpy(state, PQgetvalue(result, 0, LOG_STATE), state_size);
	}
	status = copy_log(store, game_id, result, 1, out->snapshot_seq, &out->log);
	PQclear(result);
	return status;
}

/* The events of game_id after `after`, at most `limit`, by `statement`: READ_EVENTS (a
 * header row first, none for an unknown game) or READ_TAIL (the events alone). */
static enum store_status read_log(struct store *store, enum statement statement, int64_t game_id, int32_t after,
				  int limit, struct store_log *out)
{
	memset(out, 0, sizeof *out);
	if (after < 0 || limit < 0) {
		store__say(store, "reading the log: after %d, limit %d", (int)after, limit);
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, after);
	param_int(&params, limit);
	PGresult *result;
	enum store_status status = store__run(store, statement, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int first = 0;
	if (statement == STATEMENT_READ_EVENTS) {
		int32_t header_seq;
		if (PQntuples(result) == 0 || !get_int32(result, 0, LOG_SEQ, &header_seq) || header_seq != 0) {
			PQclear(result);
			store__say(store, "no such game");
			return STORE_NOT_FOUND;
		}
		first = 1;
	}
	status = copy_log(store, game_id, result, first, after, out);
	PQclear(result);
	return status;
}

enum store_status store_read_events(struct store *store, int64_t game_id, int32_t after, int limit,
				    struct store_log *out)
{
	return read_log(store, STATEMENT_READ_EVENTS, game_id, after, limit, out);
}

enum store_status store_read_tail(struct store *store, int64_t game_id, int32_t after, int limit,
				  struct store_log *out)
{
	return read_log(store, STATEMENT_READ_TAIL, game_id, after, limit, out);
}

enum store_status store_version(struct store *store, int64_t game_id, int32_t *version)
{
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_VERSION, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		store__say(store, "no such game");
		status = STORE_NOT_FOUND;
	} else if (!get_int32(result, 0, 0, version)) {
		status = store__corrupt(store, game_id, "a version that is not an integer");
	}
	PQclear(result);
	return status;
}

enum store_status store_find_token(struct store *store, int64_t game_id, const uint8_t hash[STORE_HASH_SIZE],
				   int *seat)
{
	struct params params = {0};
	param_int(&params, game_id);
	param_bytes(&params, hash, STORE_HASH_SIZE);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_FIND_TOKEN, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		store__say(store, "no such token");
		status = STORE_NOT_FOUND;
	} else if (!get_int16(result, 0, 0, seat)) {
		status = store__corrupt(store, game_id, "a seat that is not an integer");
	}
	PQclear(result);
	return status;
}

void store_game_info_free(struct store_game_info *info)
{
	free(info->options);
	for (int seat = 0; seat < STORE_MAX_SEATS; seat++)
		free(info->names[seat]);
	memset(info, 0, sizeof *info);
}

enum store_status store_game_info(struct store *store, int64_t game_id, struct store_game_info *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_GAME_INFO, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		PQclear(result);
		store__say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	if (!get_int64(result, 0, 0, &out->seed) || !get_int16(result, 0, 1, &out->status) ||
	    !get_int16(result, 0, 2, &out->seats) || !get_timestamp(result, 0, 3, &out->created_at_us) ||
	    !get_timestamp(result, 0, 4, &out->updated_at_us) || PQgetisnull(result, 0, 5) || out->seats < 1 ||
	    out->seats > STORE_MAX_SEATS || PQntuples(result) != out->seats) {
		PQclear(result);
		return store__corrupt(store, game_id, "a games row that does not match its seats");
	}
	out->options = store_strndup(PQgetvalue(result, 0, 5), (size_t)PQgetlength(result, 0, 5));
	for (int row = 0; row < out->seats; row++) {
		int seat, bot;
		if (!get_int16(result, row, 6, &seat) || seat != row || !get_bool(result, row, 7, &bot)) {
			PQclear(result);
			store_game_info_free(out);
			return store__corrupt(store, game_id, "seats that are not numbered 0, 1, 2 ...");
		}
		out->bots[seat] = bot;
		int away = 0;
		if (!PQgetisnull(result, row, 9) && !get_bool(result, row, 9, &away)) {
			PQclear(result);
			store_game_info_free(out);
			return store__corrupt(store, game_id, "a seat's away flag is not a boolean");
		}
		out->away[seat] = away;
		if (!PQgetisnull(result, row, 8))
			out->names[seat] = store_strndup(PQgetvalue(result, row, 8), (size_t)PQgetlength(result, row, 8));
	}
	PQclear(result);
	return STORE_OK;
}

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
	enum store_status status = store__run(store, STATEMENT_IDEMPOTENCY_GET, &params, 1, &result);
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

