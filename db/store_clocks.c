/*
 * store_clocks.c - the seats' clocks: banks and quiet hours (db/migrations/
 * 0030_seat_clocks.sql). Read in one statement with the time the game's current wait began
 * (its event at the version read), so the server computes a deadline or a bank spent from
 * one consistent row set; quiet hours are written with the game's deadline moved in the
 * same statement, so a reader never sees the new hours with the old due time committed.
 */
#include "db/store_clocks.h"

#include <string.h>

#include "db/store_internal.h"

#define CLOCKS_STATEMENTS(X)                                                                           \
	X(read_clocks, 2,                                                                              \
	  "SELECT e.created_at, s.seat, s.bank_ms, s.quiet_zone, s.quiet_from, s.quiet_to"             \
	  " FROM events e JOIN seats s ON s.game_id = e.game_id"                                       \
	  " WHERE e.game_id = $1::bigint AND e.seq = $2::integer ORDER BY s.seat")                     \
	X(set_quiet_hours, 7,                                                                          \
	  "WITH s AS (UPDATE seats SET quiet_zone = $3::text, quiet_from = $4::smallint,"              \
	  "  quiet_to = $5::smallint WHERE game_id = $1::bigint AND seat = $2::smallint RETURNING 1)," \
	  " t AS (UPDATE game_timers SET due_at = 'epoch'::timestamptz"                                \
	  "  + make_interval(secs => $7::bigint / 1000000.0)"                                          \
	  "  WHERE game_id = $1::bigint AND version = $6::integer AND kind = 1 AND $7::bigint > 0"     \
	  "  AND EXISTS (SELECT FROM s) RETURNING 1)"                                                  \
	  " SELECT (SELECT count(*) FROM s)::integer, (SELECT count(*) FROM t)::integer")
STORE_STATEMENTS(clocks, CLOCKS_STATEMENTS);

enum store_status store_read_clocks(struct store *store, int64_t game_id, int32_t version, struct store_clocks *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, version);
	PGresult *result;
	enum store_status status = store__run(store, &statement_read_clocks, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	if (rows == 0) {
		PQclear(result);
		store__say(store, "no such game or version");
		return STORE_NOT_FOUND;
	}
	for (int row = 0; row < rows; row++) {
		int seat;
		if (!get_timestamp(result, row, 0, &out->since_us) || !get_int16(result, row, 1, &seat) || seat < 0 ||
		    seat >= (int)(sizeof out->seat / sizeof out->seat[0])) {
			PQclear(result);
			return store__corrupt(store, game_id, "a seat clock row with malformed columns");
		}
		struct store_seat_clock *clock = &out->seat[seat];
		clock->bank_ms = -1;
		if (!PQgetisnull(result, row, 2) && !get_int64(result, row, 2, &clock->bank_ms)) {
			PQclear(result);
			return store__corrupt(store, game_id, "a seat's bank is malformed");
		}
		if (!PQgetisnull(result, row, 3)) {
			int length = PQgetlength(result, row, 3);
			if (length <= 0 || length >= STORE_ZONE_NAME_SIZE ||
			    !get_int16(result, row, 4, &clock->from_min) ||
			    !get_int16(result, row, 5, &clock->to_min)) {
				PQclear(result);
				return store__corrupt(store, game_id, "a seat's quiet hours are malformed");
			}
			memcpy(clock->zone, PQgetvalue(result, row, 3), (size_t)length);
			clock->zone[length] = '\0';
			clock->quiet = 1;
		}
		if (seat + 1 > out->seats)
			out->seats = seat + 1;
	}
	PQclear(result);
	return STORE_OK;
}

enum store_status store_set_quiet_hours(struct store *store, int64_t game_id, int seat, const char *zone, int from_min,
					int to_min, int32_t version, int64_t due_us, int *found)
{
	*found = 0;
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	if (zone) {
		param_text(&params, zone);
		param_int(&params, from_min);
		param_int(&params, to_min);
	} else {
		param_null(&params);
		param_null(&params);
		param_null(&params);
	}
	param_int(&params, version);
	param_int(&params, due_us);
	PGresult *result;
	enum store_status status = store__run(store, &statement_set_quiet_hours, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t seats = 0;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &seats))
		status = store__corrupt(store, game_id, "setting quiet hours did not say what it changed");
	*found = seats > 0;
	PQclear(result);
	return status;
}
