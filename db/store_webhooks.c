/*
 * store_async.c - the rows of asynchronous play: timers (bot moves and deadlines) and
 * webhooks with their outbox and delivery log (db/migrations/0002_async.sql).
 *
 * Claims are one UPDATE over a FOR UPDATE SKIP LOCKED subquery, so concurrent workers of
 * any number of servers never take the same row, and each claim moves the row's due time
 * a lease ahead instead of holding a transaction open while the work is done.
 */
#include "db/store_internal.h"

enum store_status store_claim_timers(struct store *store, int max, int lease_ms, struct store_timer *out,
				     int *count)
{
	*count = 0;
	struct params params = {0};
	param_int(&params, max);
	param_int(&params, lease_ms);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_CLAIM_TIMERS, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	for (int row = 0; row < rows && row < max; row++) {
		struct store_timer *timer = &out[*count];
		if (!get_int64(result, row, 0, &timer->game_id) || !get_int32(result, row, 1, &timer->version) ||
		    !get_int16(result, row, 2, &timer->kind) || !get_int32(result, row, 3, &timer->attempts)) {
			status = store__corrupt(store, 0, "a timer row with malformed columns");
			break;
		}
		(*count)++;
	}
	PQclear(result);
	return status;
}

/* Register a webhook of a game (STATEMENT_WEBHOOK_CREATE, with the seat) or of a player
 * (STATEMENT_PLAYER_WEBHOOK_CREATE, no seat: with_seat 0); `owner` is the game's or the
 * player's id. */
static enum store_status create_webhook(struct store *store, enum statement statement, int64_t owner, int with_seat,
					int seat, int your_turn_only, const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE],
					const char *url, int format, const char *mentions_json, int64_t *id,
					int64_t *created_at_us)
{
	if (!store__random_id(id)) {
		store__say(store, "the system random generator failed");
		return STORE_UNAVAILABLE;
	}
	struct params params = {0};
	param_int(&params, *id);
	param_int(&params, owner);
	if (with_seat && seat == STORE_WEBHOOK_ADMIN)
		param_null(&params);
	else if (with_seat)
		param_int(&params, seat);
	param_text(&params, your_turn_only ? "t" : "f");
	param_bytes(&params, secret, STORE_WEBHOOK_SECRET_SIZE);
	param_text(&params, url);
	param_text(&params, store_format_name(format));
	param_text(&params, mentions_json);
	PGresult *result;
	enum store_status status = store__run(store, statement, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		store__say(store, with_seat ? "no such game" : "no such player");
		status = STORE_NOT_FOUND;
	} else if (!get_timestamp(result, 0, 0, created_at_us)) {
		status = store__corrupt(store, with_seat ? owner : 0, "a webhook without creation time");
	}
	PQclear(result);
	return status;
}

enum store_status store_webhook_create(struct store *store, int64_t game_id, int seat, int your_turn_only,
				       const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
				       const char *mentions_json, int64_t *id, int64_t *created_at_us)
{
	return create_webhook(store, STATEMENT_WEBHOOK_CREATE, game_id, 1, seat, your_turn_only, secret, url, format,
			      mentions_json, id, created_at_us);
}

enum store_status store_player_webhook_create(struct store *store, int64_t player_id, int your_turn_only,
					      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url,
					      int format, const char *mentions_json, int64_t *id,
					      int64_t *created_at_us)
{
	return create_webhook(store, STATEMENT_PLAYER_WEBHOOK_CREATE, player_id, 0, STORE_WEBHOOK_ADMIN,
			      your_turn_only, secret, url, format, mentions_json, id, created_at_us);
}

void store_webhooks_free(struct store_webhook *webhooks, int count)
{
	for (int i = 0; i < count; i++) {
		free(webhooks[i].url);
		free(webhooks[i].disabled_reason);
	}
	free(webhooks);
}

/* The webhooks of a game (STATEMENT_WEBHOOK_LIST) or of a player
 * (STATEMENT_PLAYER_WEBHOOK_LIST), `owner` being its id. */
static enum store_status list_webhooks(struct store *store, enum statement statement, int64_t owner,
				       struct store_webhook **out, int *count)
{
	int64_t game_id = statement == STATEMENT_WEBHOOK_LIST ? owner : 0; /* for corruption reports */
	*out = NULL;
	*count = 0;
	struct params params = {0};
	param_int(&params, owner);
	PGresult *result;
	enum store_status status = store__run(store, statement, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	struct store_webhook *list = store_alloc(sizeof *list * (size_t)(rows ? rows : 1));
	for (int row = 0; row < rows; row++) {
		struct store_webhook *webhook = &list[row];
		int64_t pending;
		webhook->url = NULL;
		webhook->disabled_reason = NULL;
		if (!get_int64(result, row, 0, &webhook->id) || !get_int16(result, row, 1, &webhook->seat) ||
		    !get_bool(result, row, 2, &webhook->your_turn_only) ||
		    !get_timestamp(result, row, 3, &webhook->created_at_us) || PQgetisnull(result, row, 4) ||
		    !get_int64(result, row, 5, &pending)) {
			store_webhooks_free(list, row);
			PQclear(result);
			return store__corrupt(store, game_id, "a webhook row with malformed columns");
		}
		webhook->pending = (long)pending;
		webhook->url = store_strndup(PQgetvalue(result, row, 4), (size_t)PQgetlength(result, row, 4));
		webhook->format = store_format_parse(PQgetvalue(result, row, 6));
		webhook->disabled_at_us = 0;
		if (webhook->format < 0 || !get_int32(result, row, 7, &webhook->failures) ||
		    (!PQgetisnull(result, row, 8) && !get_timestamp(result, row, 8, &webhook->disabled_at_us))) {
			store_webhooks_free(list, row + 1);
			PQclear(result);
			return store__corrupt(store, game_id, "a webhook row with malformed channel columns");
		}
		if (!PQgetisnull(result, row, 9))
			webhook->disabled_reason =
				store_strndup(PQgetvalue(result, row, 9), (size_t)PQgetlength(result, row, 9));
	}
	PQclear(result);
	*out = list;
	*count = rows;
	return STORE_OK;
}

enum store_status store_webhook_list(struct store *store, int64_t game_id, struct store_webhook **out, int *count)
{
	return list_webhooks(store, STATEMENT_WEBHOOK_LIST, game_id, out, count);
}

enum store_status store_player_webhook_list(struct store *store, int64_t player_id, struct store_webhook **out,
					    int *count)
{
	return list_webhooks(store, STATEMENT_PLAYER_WEBHOOK_LIST, player_id, out, count);
}

/* Remove webhook `id` of a game (STATEMENT_WEBHOOK_DELETE) or of a player
 * (STATEMENT_PLAYER_WEBHOOK_DELETE). */
static enum store_status delete_webhook(struct store *store, enum statement statement, int64_t owner, int64_t id)
{
	struct params params = {0};
	param_int(&params, owner);
	param_int(&params, id);
	PGresult *result;
	enum store_status status = store__run(store, statement, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	if (strcmp(PQcmdTuples(result), "0") == 0) {
		store__say(store, "no such webhook");
		status = STORE_NOT_FOUND;
	}
	PQclear(result);
	return status;
}

enum store_status store_webhook_delete(struct store *store, int64_t game_id, int64_t id)
{
	return delete_webhook(store, STATEMENT_WEBHOOK_DELETE, game_id, id);
}

enum store_status store_player_webhook_delete(struct store *store, int64_t player_id, int64_t id)
{
	return delete_webhook(store, STATEMENT_PLAYER_WEBHOOK_DELETE, player_id, id);
}

void store_deliveries_free(struct store_delivery *deliveries, int count)
{
	for (int i = 0; i < count; i++) {
		free(deliveries[i].url);
		free(deliveries[i].mentions);
	}
	free(deliveries);
}

enum store_status store_claim_deliveries(struct store *store, int max, int lease_ms, struct store_delivery **out,
					 int *count)
{
	*out = NULL;
	*count = 0;
	struct params params = {0};
	param_int(&params, max);
	param_int(&params, lease_ms);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_CLAIM_DELIVERIES, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	struct store_delivery *list = store_alloc(sizeof *list * (size_t)(rows ? rows : 1));
	for (int row = 0; row < rows; row++) {
		struct store_delivery *d = &list[row];
		d->url = NULL;
		d->mentions = NULL;
		d->format = store_format_parse(PQgetvalue(result, row, 11));
		if (d->format < 0 || !get_int64(result, row, 0, &d->outbox_id) || !get_int64(result, row, 1, &d->webhook_id) ||
		    !get_int64(result, row, 2, &d->game_id) || !get_int16(result, row, 3, &d->seat) ||
		    !get_bool(result, row, 4, &d->your_turn_only) ||
		    PQgetlength(result, row, 5) != STORE_WEBHOOK_SECRET_SIZE || PQgetisnull(result, row, 6) ||
		    !get_int32(result, row, 7, &d->first_seq) || !get_int32(result, row, 8, &d->last_seq) ||
		    !get_int32(result, row, 9, &d->next_seq) || !get_int32(result, row, 10, &d->attempts) ||
		    !get_int32(result, row, 13, &d->message_seq)) {
			store_deliveries_free(list, row);
			PQclear(result);
			return store__corrupt(store, 0, "an outbox row with malformed columns");
		}
		memcpy(d->secret, PQgetvalue(result, row, 5), STORE_WEBHOOK_SECRET_SIZE);
		d->url = store_strndup(PQgetvalue(result, row, 6), (size_t)PQgetlength(result, row, 6));
		if (!PQgetisnull(result, row, 12))
			d->mentions = store_strndup(PQgetvalue(result, row, 12), (size_t)PQgetlength(result, row, 12));
	}
	PQclear(result);
	*out = list;
	*count = rows;
	return STORE_OK;
}

enum store_status store_delivery_update(struct store *store, int64_t outbox_id, int done, int32_t next_seq,
					int64_t retry_ms)
{
	struct params params = {0};
	param_int(&params, outbox_id);
	if (!done) {
		param_int(&params, next_seq);
		param_int(&params, retry_ms);
	}
	PGresult *result;
	enum store_status status =
		store__run(store, done ? STATEMENT_DELIVERY_DONE : STATEMENT_DELIVERY_UPDATE, &params, 0, &result);
	PQclear(result);
	return status;
}

enum store_status store_delivery_log(struct store *store, int64_t webhook_id, int64_t outbox_id, int32_t seq,
				     int attempt, int http_status, int duration_ms, const char *kind, const char *error)
{
	struct params params = {0};
	param_int(&params, webhook_id);
	param_int(&params, outbox_id);
	param_int(&params, seq);
	param_int(&params, attempt);
	param_int(&params, http_status);
	param_int(&params, duration_ms);
	param_text(&params, kind);
	param_text(&params, error && *error ? error : NULL);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_DELIVERY_LOG, &params, 0, &result);
	PQclear(result);
	return status;
}

enum store_status store_delivery_history(struct store *store, int64_t webhook_id, int max,
					 struct store_delivery_entry **out, int *count)
{
	*out = NULL;
	*count = 0;
	struct params params = {0};
	param_int(&params, webhook_id);
	param_int(&params, max);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_DELIVERY_HISTORY, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	struct store_delivery_entry *list = store_alloc(sizeof *list * (size_t)(rows ? rows : 1));
	for (int row = 0; row < rows; row++) {
		struct store_delivery_entry *e = &list[row];
		int32_t attempt, http_status, duration;
		if (!get_timestamp(result, row, 0, &e->at_us) || !get_int32(result, row, 1, &e->seq) ||
		    !get_int32(result, row, 2, &attempt) || !get_int32(result, row, 3, &http_status) ||
		    !get_int32(result, row, 4, &duration) || PQgetisnull(result, row, 5) || PQgetisnull(result, row, 6)) {
			free(list);
			PQclear(result);
			return store__corrupt(store, 0, "a delivery log row with malformed columns");
		}
		e->attempt = attempt;
		e->http_status = http_status;
		e->duration_ms = duration;
		snprintf(e->kind, sizeof e->kind, "%s", PQgetvalue(result, row, 5));
		snprintf(e->error, sizeof e->error, "%s", PQgetvalue(result, row, 6));
	}
	PQclear(result);
	*out = list;
	*count = rows;
	return STORE_OK;
}

enum store_status store_channel_result(struct store *store, int64_t webhook_id, int succeeded, int max_failures,
				       const char *reason, int *disabled)
{
	*disabled = 0;
	struct params params = {0};
	param_int(&params, webhook_id);
	if (!succeeded) {
		param_int(&params, max_failures);
		param_text(&params, reason);
	}
	PGresult *result;
	enum store_status status = store__run(
		store, succeeded ? STATEMENT_CHANNEL_SUCCEEDED : STATEMENT_CHANNEL_FAILED, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	if (!succeeded && PQntuples(result) == 1)
		get_bool(result, 0, 0, disabled);
	PQclear(result);
	return STORE_OK;
}
