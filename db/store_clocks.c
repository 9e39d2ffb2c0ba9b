/*
 * store_clocks.c - the seats' clocks: banks and quiet hours (db/migrations/
 * 0030_seat_clocks.sql). Read in one statement with the time the game's current wait began
 * (the last event at or before the version read that begins a wait: a quiet-hours event
 * does not), so the server computes a deadline or a bank spent from one consistent row
 * set; a change of quiet hours is an event appended at the version the server decided on,
 * with the seat's columns and the game's timer (carried to the new version, a deadline
 * moved) in the same transaction (catan_set_quiet_hours(), 0032_quiet_hours_events.sql),
 * so a reader never sees the new hours with the old version or the old due time.
 */
#include "db/store_clocks.h"

#include <stdio.h>
#include <string.h>

#include "db/store_events.h"
#include "db/store_internal.h"

#define CLOCKS_STATEMENTS(X)                                                                         \
	X(read_clocks, 3,                                                                            \
	  "WITH w AS (SELECT e.created_at FROM events e WHERE e.game_id = $1::bigint"                \
	  "  AND e.seq <= $2::integer AND e.type <> ALL ($3::smallint[])"                            \
	  "  AND EXISTS (SELECT FROM events v WHERE v.game_id = $1::bigint AND v.seq = $2::integer)" \
	  "  ORDER BY e.seq DESC LIMIT 1)"                                                           \
	  " SELECT w.created_at, s.seat, s.bank_ms, s.quiet_zone, s.quiet_from, s.quiet_to"          \
	  " FROM w JOIN seats s ON s.game_id = $1::bigint ORDER BY s.seat")                          \
	X(set_quiet_hours, 9,                                                                        \
	  "SELECT outcome, version FROM catan_set_quiet_hours($1::bigint, $2::integer, $3::integer," \
	  " $4::smallint, $5::text, $6::text, $7::smallint, $8::smallint, $9::bigint)")
STORE_STATEMENTS(clocks, CLOCKS_STATEMENTS);

enum store_status store_read_clocks(struct store *store, int64_t game_id, int32_t version,
				    const struct store_wait_skip *skip, struct store_clocks *out)
{
	memset(out, 0, sizeof *out);
	char types[64] = "{";
	for (int i = 0; skip && i < skip->count && i < STORE_WAIT_SKIP_MAX; i++)
		snprintf(types + strlen(types), sizeof types - strlen(types), "%s%d", i ? "," : "", skip->types[i]);
	snprintf(types + strlen(types), sizeof types - strlen(types), "}");
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, version);
	param_text(&params, types);
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
					int to_min, int32_t version, const struct store_event *event, int64_t due_us,
					int *found)
{
	store->message[0] = '\0';
	*found = 0;
	if (!event || !event->payload) {
		store__say(store, "store_set_quiet_hours: no event");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_int(&params, version);
	param_int(&params, event->type);
	param_text(&params, event->payload);
	if (zone) {
		param_text(&params, zone);
		param_int(&params, from_min);
		param_int(&params, to_min);
	} else {
		param_null(&params);
		param_null(&params);
		param_null(&params);
	}
	param_int(&params, due_us);
	PGresult *result;
	enum store_status status;
	if (store->notifier) {
		status = store__run(store, &statement_set_quiet_hours, &params, 0, &result);
		if (status == STORE_OK)
			store__notifier_post(store->notifier, game_id, version + 1);
	} else {
		status = store__run_and_notify(store, &statement_set_quiet_hours, &params, game_id, version + 1,
					       &result);
	}
	if (status != STORE_OK)
		return status;
	int32_t outcome = 1, after = version;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &outcome) || !get_int32(result, 0, 1, &after))
		status = store__corrupt(store, game_id, "setting quiet hours did not say what it changed");
	*found = outcome == 0;
	PQclear(result);
	return status;
}
