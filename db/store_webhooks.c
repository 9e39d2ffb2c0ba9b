/*
 * store_webhooks.c - webhooks with their outbox and delivery log (db/migrations/0002_async.sql):
 * a game's and a player's registrations (0006_player_webhooks.sql), chat channels and their
 * failure counts (0005_channels.sql), claiming due deliveries and recording each attempt.
 * Mail registrations are rows of the same table: their deliveries are claimed here like any
 * other, but only store_mail.c registers them or reads their address.
 *
 * Claims are one UPDATE over a FOR UPDATE SKIP LOCKED subquery, so concurrent workers of
 * any number of servers never take the same row, and each claim moves the row's due time
 * a lease ahead instead of holding a transaction open while the work is done.
 */
#include "db/store_webhooks.h"

#include "db/store_internal.h"

#define WEBHOOKS_STATEMENTS(X)                                                                                       \
	X(webhook_create, 9,                                                                                         \
	  "INSERT INTO webhooks (id, game_id, seat, your_turn_only, secret, url, format, mentions, digest_hours)"    \
	  " SELECT $1::bigint, id, $3::smallint, $4::boolean, $5::bytea, $6::text, $7::text, $8::jsonb,"             \
	  "  nullif($9::integer, 0)"                                                                                 \
	  " FROM games WHERE id = $2::bigint"                                                                        \
	  " RETURNING created_at")                                                                                   \
	X(webhook_list, 1,                                                                                           \
	  "SELECT w.id, coalesce(w.seat, -1)::smallint, w.your_turn_only, w.created_at, w.url,"                      \
	  "  (SELECT count(*) FROM webhook_outbox o WHERE o.webhook_id = w.id),"                                     \
	  "  w.format, w.failures, w.disabled_at, w.disabled_reason, coalesce(w.digest_hours, 0)"                    \
	  " FROM webhooks w WHERE w.game_id = $1::bigint AND w.format <> 'mail' ORDER BY w.created_at, w.id")        \
	X(webhook_delete, 2,                                                                                         \
	  "DELETE FROM webhooks WHERE game_id = $1::bigint AND id = $2::bigint AND format <> 'mail'")                \
	/* A player's webhooks (0006_player_webhooks.sql): the same rows with player_id set. */                      \
	X(player_webhook_create, 8,                                                                                  \
	  "INSERT INTO webhooks (id, player_id, your_turn_only, secret, url, format, mentions, digest_hours)"        \
	  " SELECT $1::bigint, id, $3::boolean, $4::bytea, $5::text, $6::text, $7::jsonb, nullif($8::integer, 0)"    \
	  " FROM players WHERE id = $2::bigint"                                                                      \
	  " RETURNING created_at")                                                                                   \
	X(player_webhook_list, 1,                                                                                    \
	  "SELECT w.id, (-1)::smallint, w.your_turn_only, w.created_at, w.url,"                                      \
	  "  (SELECT count(*) FROM webhook_outbox o WHERE o.webhook_id = w.id),"                                     \
	  "  w.format, w.failures, w.disabled_at, w.disabled_reason, coalesce(w.digest_hours, 0)"                    \
	  " FROM webhooks w WHERE w.player_id = $1::bigint AND w.format <> 'mail' ORDER BY w.created_at, w.id")      \
	X(player_webhook_delete, 2,                                                                                  \
	  "DELETE FROM webhooks WHERE player_id = $1::bigint AND id = $2::bigint AND format <> 'mail'")              \
	/* Each webhook's oldest row only: its events go out in order, one append at a time. A                       \
	 * player's webhook acts as the player's seat of the row's game (none: -2). */                               \
	X(claim_deliveries, 2,                                                                                       \
	  "UPDATE webhook_outbox o SET due_at = now() + make_interval(secs => $2::integer / 1000.0),"                \
	  "  attempts = o.attempts + 1"                                                                              \
	  " FROM (SELECT id FROM webhook_outbox p WHERE due_at <= now()"                                             \
	  "  AND NOT EXISTS (SELECT FROM webhook_outbox q WHERE q.webhook_id = p.webhook_id AND q.id < p.id)"        \
	  "  ORDER BY due_at LIMIT $1::integer FOR UPDATE SKIP LOCKED) AS d, webhooks w"                             \
	  " WHERE o.id = d.id AND w.id = o.webhook_id"                                                               \
	  " RETURNING o.id, o.webhook_id, o.game_id, coalesce(w.seat, (SELECT s.seat FROM seats s"                   \
	  "   WHERE s.game_id = o.game_id AND s.player_id = w.player_id),"                                           \
	  "   CASE WHEN w.player_id IS NULL THEN -1 ELSE -2 END)::smallint, w.your_turn_only, w.secret,"             \
	  "  w.url, o.first_seq, o.last_seq, o.next_seq, o.attempts, w.format, w.mentions::text,"                    \
	  "  coalesce(o.message_seq, 0),"                                                                            \
	  "  CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END,"                                  \
	  "  coalesce(w.digest_hours, 0), w.digest_version,"                                                         \
	  "  coalesce((extract(epoch FROM now() - w.digest_sent_at) * 1000)::bigint, -1)")                           \
	X(webhook_digest_sent, 2,                                                                                    \
	  "UPDATE webhooks SET digest_version = greatest(digest_version, $2::integer), digest_sent_at = now()"       \
	  " WHERE id = $1::bigint")                                                                                  \
	/* A standard webhook's new secret (0019_webhook_secrets_and_digests.sql): the one it                        \
	 * replaces stays valid for $4 seconds (0: not at all). */                                                   \
	X(webhook_rotate_secret, 5,                                                                                  \
	  "UPDATE webhooks SET previous_secret = CASE WHEN $4::integer > 0 THEN secret END,"                         \
	  "  previous_secret_until = CASE WHEN $4::integer > 0 THEN now() + make_interval(secs => $4::integer) END," \
	  "  secret = $3::bytea"                                                                                     \
	  " WHERE id = $2::bigint AND format = 'standard'"                                                           \
	  "  AND CASE WHEN $5::boolean THEN player_id = $1::bigint ELSE game_id = $1::bigint END"                    \
	  " RETURNING coalesce(previous_secret_until, now())")                                                       \
	X(delivery_update, 3,                                                                                        \
	  "UPDATE webhook_outbox SET next_seq = $2::integer,"                                                        \
	  "  due_at = now() + make_interval(secs => $3::bigint / 1000.0) WHERE id = $1::bigint")                     \
	X(delivery_done, 1, "DELETE FROM webhook_outbox WHERE id = $1::bigint")                                      \
	X(delivery_log, 8,                                                                                           \
	  "INSERT INTO webhook_deliveries (webhook_id, outbox_id, seq, attempt, status, duration_ms, kind, error)"   \
	  " SELECT $1::bigint, $2::bigint, $3::integer, $4::integer, nullif($5::integer, 0), $6::integer,"           \
	  "  $7::text, $8::text WHERE EXISTS (SELECT FROM webhooks WHERE id = $1::bigint)")                          \
	X(delivery_history, 2,                                                                                       \
	  "SELECT at, seq, attempt, coalesce(status, 0), duration_ms, kind, coalesce(error, '')"                     \
	  " FROM webhook_deliveries WHERE webhook_id = $1::bigint ORDER BY at DESC LIMIT $2::integer")               \
	/* Channel webhooks (0005_channels.sql): a failed attempt counts, and the bound-th in a                      \
	 * row disables the webhook and drops what it still had to deliver. */                                       \
	X(channel_failed, 3,                                                                                         \
	  "WITH u AS (UPDATE webhooks SET failures = failures + 1,"                                                  \
	  "   disabled_at = CASE WHEN failures + 1 >= $2::integer THEN now() END,"                                   \
	  "   disabled_reason = CASE WHEN failures + 1 >= $2::integer THEN $3::text END"                             \
	  "  WHERE id = $1::bigint AND disabled_at IS NULL RETURNING id, disabled_at IS NOT NULL AS off),"           \
	  " d AS (DELETE FROM webhook_outbox WHERE webhook_id IN (SELECT id FROM u WHERE off) RETURNING 1)"          \
	  " SELECT coalesce((SELECT off FROM u), false)")                                                            \
	X(channel_succeeded, 1, "UPDATE webhooks SET failures = 0 WHERE id = $1::bigint AND failures <> 0")
STORE_STATEMENTS(webhooks, WEBHOOKS_STATEMENTS);

/* Register a webhook of a game (webhook_create, with the seat) or of a player
 * (player_webhook_create, no seat: with_seat 0); `owner` is the game's or the
 * player's id. */
static enum store_status create_webhook(struct store *store, const struct store_statement *statement, int64_t owner,
					int with_seat, int seat, int your_turn_only,
					const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
					const char *mentions_json, int digest_hours, int64_t *id,
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
	param_int(&params, digest_hours);
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
				       const char *mentions_json, int digest_hours, int64_t *id, int64_t *created_at_us)
{
	return create_webhook(store, &statement_webhook_create, game_id, 1, seat, your_turn_only, secret, url, format,
			      mentions_json, digest_hours, id, created_at_us);
}

enum store_status store_player_webhook_create(struct store *store, int64_t player_id, int your_turn_only,
					      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url,
					      int format, const char *mentions_json, int digest_hours, int64_t *id,
					      int64_t *created_at_us)
{
	return create_webhook(store, &statement_player_webhook_create, player_id, 0, STORE_WEBHOOK_ADMIN,
			      your_turn_only, secret, url, format, mentions_json, digest_hours, id, created_at_us);
}

void store_webhooks_free(struct store_webhook *webhooks, int count)
{
	for (int i = 0; i < count; i++) {
		free(webhooks[i].url);
		free(webhooks[i].disabled_reason);
	}
	free(webhooks);
}

/* The webhooks of a game (webhook_list) or of a player
 * (player_webhook_list), `owner` being its id. */
static enum store_status list_webhooks(struct store *store, const struct store_statement *statement, int64_t owner,
				       struct store_webhook **out, int *count)
{
	int64_t game_id = statement == &statement_webhook_list ? owner : 0; /* for corruption reports */
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
		int32_t digest_hours = 0;
		if (!get_int32(result, row, 10, &digest_hours)) {
			store_webhooks_free(list, row + 1);
			PQclear(result);
			return store__corrupt(store, game_id, "a webhook row without its schedule");
		}
		webhook->digest_hours = digest_hours;
	}
	PQclear(result);
	*out = list;
	*count = rows;
	return STORE_OK;
}

enum store_status store_webhook_list(struct store *store, int64_t game_id, struct store_webhook **out, int *count)
{
	return list_webhooks(store, &statement_webhook_list, game_id, out, count);
}

enum store_status store_player_webhook_list(struct store *store, int64_t player_id, struct store_webhook **out,
					    int *count)
{
	return list_webhooks(store, &statement_player_webhook_list, player_id, out, count);
}

/* Remove webhook `id` of a game (webhook_delete) or of a player
 * (player_webhook_delete). */
static enum store_status delete_webhook(struct store *store, const struct store_statement *statement, int64_t owner,
					int64_t id)
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
	return delete_webhook(store, &statement_webhook_delete, game_id, id);
}

enum store_status store_player_webhook_delete(struct store *store, int64_t player_id, int64_t id)
{
	return delete_webhook(store, &statement_player_webhook_delete, player_id, id);
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
	enum store_status status = store__run(store, &statement_claim_deliveries, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	struct store_delivery *list = store_alloc(sizeof *list * (size_t)(rows ? rows : 1));
	for (int row = 0; row < rows; row++) {
		struct store_delivery *d = &list[row];
		d->url = NULL;
		d->mentions = NULL;
		d->format = store_format_parse(PQgetvalue(result, row, 11));
		if (d->format < 0 || !get_int64(result, row, 0, &d->outbox_id) ||
		    !get_int64(result, row, 1, &d->webhook_id) || !get_int64(result, row, 2, &d->game_id) ||
		    !get_int16(result, row, 3, &d->seat) || !get_bool(result, row, 4, &d->your_turn_only) ||
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
		d->has_previous_secret = PQgetlength(result, row, 14) == STORE_WEBHOOK_SECRET_SIZE;
		if (d->has_previous_secret)
			memcpy(d->previous_secret, PQgetvalue(result, row, 14), STORE_WEBHOOK_SECRET_SIZE);
		int32_t digest_hours = 0;
		if (!get_int32(result, row, 15, &digest_hours) || !get_int32(result, row, 16, &d->digest_version) ||
		    !get_int64(result, row, 17, &d->digest_since_ms)) {
			store_deliveries_free(list, row + 1);
			PQclear(result);
			return store__corrupt(store, 0, "an outbox row without its webhook's schedule");
		}
		d->digest_hours = digest_hours;
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
		store__run(store, done ? &statement_delivery_done : &statement_delivery_update, &params, 0, &result);
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
	enum store_status status = store__run(store, &statement_delivery_log, &params, 0, &result);
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
	enum store_status status = store__run(store, &statement_delivery_history, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	struct store_delivery_entry *list = store_alloc(sizeof *list * (size_t)(rows ? rows : 1));
	for (int row = 0; row < rows; row++) {
		struct store_delivery_entry *e = &list[row];
		int32_t attempt, http_status, duration;
		if (!get_timestamp(result, row, 0, &e->at_us) || !get_int32(result, row, 1, &e->seq) ||
		    !get_int32(result, row, 2, &attempt) || !get_int32(result, row, 3, &http_status) ||
		    !get_int32(result, row, 4, &duration) || PQgetisnull(result, row, 5) ||
		    PQgetisnull(result, row, 6)) {
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

enum store_status store_webhook_rotate_secret(struct store *store, int64_t owner, int of_player, int64_t id,
					      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int overlap_s,
					      int64_t *previous_until_us)
{
	struct params params = {0};
	param_int(&params, owner);
	param_int(&params, id);
	param_bytes(&params, secret, STORE_WEBHOOK_SECRET_SIZE);
	param_int(&params, overlap_s);
	param_text(&params, of_player ? "t" : "f");
	PGresult *result;
	enum store_status status = store__run(store, &statement_webhook_rotate_secret, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		store__say(store, "no such standard webhook");
		status = STORE_NOT_FOUND;
	} else if (!get_timestamp(result, 0, 0, previous_until_us)) {
		status = store__corrupt(store, 0, "a rotated webhook without a time");
	}
	PQclear(result);
	return status;
}

enum store_status store_webhook_digest_sent(struct store *store, int64_t id, int32_t version)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, version);
	PGresult *result;
	enum store_status status = store__run(store, &statement_webhook_digest_sent, &params, 0, &result);
	PQclear(result);
	return status;
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
		store, succeeded ? &statement_channel_succeeded : &statement_channel_failed, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	if (!succeeded && PQntuples(result) == 1)
		get_bool(result, 0, 0, disabled);
	PQclear(result);
	return STORE_OK;
}
