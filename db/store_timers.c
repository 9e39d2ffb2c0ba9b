/*
 * store_timers.c - what games wait for from the server itself: bot moves and deadlines
 * (db/migrations/0002_async.sql). An append sets or removes its game's timer in its own
 * transaction (store_events.c); here due timers are claimed.
 *
 * A claim is one UPDATE over a FOR UPDATE SKIP LOCKED subquery, so concurrent workers of
 * any number of servers never take the same row, and it moves the row's due time a lease
 * ahead instead of holding a transaction open while the move is made.
 */
#include "db/store_timers.h"

#include "db/store_internal.h"

#define TIMERS_STATEMENTS(X)                                                                       \
	X(claim_timers, 2,                                                                         \
	  "UPDATE game_timers t SET due_at = now() + make_interval(secs => $2::integer / 1000.0)," \
	  "  attempts = t.attempts + 1"                                                            \
	  " FROM (SELECT game_id, due_at AS was_due FROM game_timers WHERE due_at <= now()"        \
	  "  ORDER BY due_at LIMIT $1::integer FOR UPDATE SKIP LOCKED) AS d"                       \
	  " WHERE t.game_id = d.game_id"                                                           \
	  " RETURNING t.game_id, t.version, t.kind, t.attempts,"                                   \
	  "  least(extract(epoch FROM now() - d.was_due) * 1000, 2000000000)::integer")
STORE_STATEMENTS(timers, TIMERS_STATEMENTS);

void params_timer(struct params *params, const struct store_timer_set *timer)
{
	if (timer) {
		param_int(params, timer->kind);
		param_int(params, timer->due_ms);
	} else {
		param_null(params);
		param_null(params);
	}
}

enum store_status store_claim_timers(struct store *store, int max, int lease_ms, struct store_timer *out, int *count)
{
	*count = 0;
	struct params params = {0};
	param_int(&params, max);
	param_int(&params, lease_ms);
	PGresult *result;
	enum store_status status = store__run(store, &statement_claim_timers, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	for (int row = 0; row < rows && row < max; row++) {
		struct store_timer *timer = &out[*count];
		if (!get_int64(result, row, 0, &timer->game_id) || !get_int32(result, row, 1, &timer->version) ||
		    !get_int16(result, row, 2, &timer->kind) || !get_int32(result, row, 3, &timer->attempts) ||
		    !get_int32(result, row, 4, &timer->late_ms)) {
			status = store__corrupt(store, 0, "a timer row with malformed columns");
			break;
		}
		(*count)++;
	}
	PQclear(result);
	return status;
}
