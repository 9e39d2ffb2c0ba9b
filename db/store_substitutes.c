/*
 * store_substitutes.c - seats whose player left and their substitutes
 * (db/store_substitutes.h, db/migrations/0029_substitutes.sql).
 *
 * The writes run through the same notifying paths as an append (the released or taken
 * seat's event wakes every long-poll and stream of the game), and take the event's payload
 * as the codec wrote it; the reads are single small queries on the seats of one game.
 */
#include "db/store_substitutes.h"

#include <string.h>

#include "db/store_internal.h"

#define SUBSTITUTES_STATEMENTS(X)                                                                               \
	X(seat_release, 8,                                                                                      \
	  "SELECT outcome, version FROM catan_seat_release($1::bigint, $2::integer, $3::integer, $4::smallint," \
	  " $5::smallint, $6::text, $7::smallint, $8::bigint)")                                                 \
	X(seat_substitute, 11,                                                                                  \
	  "SELECT outcome, version FROM catan_seat_substitute($1::bigint, $2::integer, $3::integer,"            \
	  " $4::bytea, $5::bytea, $6::bigint, $7::text, $8::smallint, $9::text, $10::smallint, $11::bigint)")   \
	X(substitute_invite, 3, "SELECT catan_substitute_invite($1::bigint, $2::integer, $3::bytea)")           \
	X(substitute_seat_of, 2,                                                                                \
	  "SELECT seat FROM seats WHERE game_id = $1::bigint AND needs_substitute"                              \
	  " AND substitute_invite_hash = $2::bytea")                                                            \
	X(substitute_seats, 1,                                                                                  \
	  "SELECT seat, needs_substitute, substitute_invite_hash IS NOT NULL FROM seats"                        \
	  " WHERE game_id = $1::bigint ORDER BY seat")                                                          \
	X(seat_timed_out, 2, "SELECT catan_seat_timed_out($1::bigint, $2::integer)")
STORE_STATEMENTS(substitutes, SUBSTITUTES_STATEMENTS);

/* Run a seat change that appends one event at `version`, notifying as an append does;
 * *outcome from its first column. */
static enum store_status run_seat_change(struct store *store, const struct store_statement *statement,
					 struct params *params, int64_t game_id, int32_t version, int *outcome)
{
	PGresult *result;
	enum store_status status;
	if (store->notifier) {
		status = store__run(store, statement, params, 0, &result);
		if (status == STORE_OK)
			store__notifier_post(store->notifier, game_id, version + 1);
	} else {
		status = store__run_and_notify(store, statement, params, game_id, version + 1, &result);
	}
	if (status != STORE_OK)
		return status;
	int32_t after;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, outcome) || !get_int32(result, 0, 1, &after))
		status = store__corrupt(store, game_id, "a seat change answer with malformed columns");
	PQclear(result);
	return status;
}

enum store_status store_seat_release(struct store *store, int64_t game_id, int seat, int32_t version, int origin,
				     int event_type, const char *payload, const struct store_timer_set *timer,
				     int *outcome)
{
	store->message[0] = '\0';
	*outcome = STORE_SUBSTITUTE_NO_SEAT;
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_int(&params, version);
	param_int(&params, origin);
	param_int(&params, event_type);
	param_text(&params, payload);
	params_timer(&params, timer);
	return run_seat_change(store, &statement_seat_release, &params, game_id, version, outcome);
}

enum store_status store_seat_substitute(struct store *store, int64_t game_id, int seat, int32_t version,
					const struct store_substitute *substitute, int event_type, const char *payload,
					const struct store_timer_set *timer, int *outcome)
{
	store->message[0] = '\0';
	*outcome = STORE_SUBSTITUTE_NO_SEAT;
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_int(&params, version);
	param_bytes(&params, substitute->invite_hash, STORE_HASH_SIZE);
	param_bytes(&params, substitute->token_hash, STORE_HASH_SIZE);
	param_int(&params, substitute->player);
	param_text(&params, substitute->name);
	param_int(&params, event_type);
	param_text(&params, payload);
	params_timer(&params, timer);
	return run_seat_change(store, &statement_seat_substitute, &params, game_id, version, outcome);
}

enum store_status store_substitute_invite(struct store *store, int64_t game_id, int seat,
					  const uint8_t invite_hash[STORE_HASH_SIZE], int *outcome)
{
	store->message[0] = '\0';
	*outcome = STORE_SUBSTITUTE_NO_SEAT;
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_bytes(&params, invite_hash, STORE_HASH_SIZE);
	PGresult *result;
	enum store_status status = store__run(store, &statement_substitute_invite, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, outcome))
		status = store__corrupt(store, game_id, "a substitute invite answer with malformed columns");
	PQclear(result);
	return status;
}

enum store_status store_substitute_seat_of(struct store *store, int64_t game_id,
					   const uint8_t invite_hash[STORE_HASH_SIZE], int *seat)
{
	store->message[0] = '\0';
	struct params params = {0};
	param_int(&params, game_id);
	param_bytes(&params, invite_hash, STORE_HASH_SIZE);
	PGresult *result;
	enum store_status status = store__run(store, &statement_substitute_seat_of, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0)
		status = STORE_NOT_FOUND;
	else if (!get_int16(result, 0, 0, seat))
		status = store__corrupt(store, game_id, "a substitute's seat with malformed columns");
	PQclear(result);
	return status;
}

enum store_status store_substitute_seats(struct store *store, int64_t game_id, unsigned *needed, unsigned *invited)
{
	store->message[0] = '\0';
	*needed = *invited = 0;
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_substitute_seats, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	for (int row = 0; row < PQntuples(result); row++) {
		int seat, need, invite;
		if (!get_int16(result, row, 0, &seat) || seat < 0 || seat >= STORE_MAX_SEATS ||
		    !get_bool(result, row, 1, &need) || !get_bool(result, row, 2, &invite)) {
			status = store__corrupt(store, game_id, "a seat's substitute row with malformed columns");
			break;
		}
		*needed |= (unsigned)need << seat;
		*invited |= (unsigned)invite << seat;
	}
	PQclear(result);
	return status;
}

enum store_status store_seat_timed_out(struct store *store, int64_t game_id, int seat, int *count)
{
	store->message[0] = '\0';
	*count = 0;
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	PGresult *result;
	enum store_status status = store__run(store, &statement_seat_timed_out, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, count))
		status = store__corrupt(store, game_id, "a seat's timeouts with malformed columns");
	PQclear(result);
	return status;
}
