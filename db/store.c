/*
 * store.c - the event store's connection: connecting, preparing the statements, running
 * them, and telling from a failure what the caller should do. The operations themselves
 * are in store_write.c and store_read.c; every statement's SQL is in the table below.
 *
 * Every operation is one prepared statement answered in binary (integers in network
 * order, bytea and text as raw bytes), so a row is read without parsing text and a value
 * of the wrong width is caught as STORE_CORRUPT.
 *
 * The connection's life:
 *
 *     (none) --connect+prepare ok--> READY --statement ok/refused--> READY
 *        ^  \--fails: UNAVAILABLE      |
 *        |                             +--connection lost, server shutting down,
 *        +-----------------------------   prepared statement gone: UNAVAILABLE
 *
 * Any call finding no connection first connects and prepares every statement again
 * (after a failed attempt, not again for STORE_RETRY_MS, so an outage does not turn each
 * call into a connection attempt). Before a statement is sent on a connection that has been
 * idle, the socket is polled: a server that went away (a restart ends every session with a
 * FATAL 57P01 and closes it) has left something to read, and the dead connection is
 * replaced before anything is sent. A statement that still fails because an old connection
 * turned out to be dead is sent once more on a new one, so the first requests after a
 * database restart succeed:
 *   - a read always;
 *   - a write only when it cannot have committed: the statement was never completely sent
 *     (its Sync, which ends the implicit transaction, did not leave), or the server
 *     answered it with an error (a statement that failed rolled its transaction back).
 *     A connection lost with no answer after the write was sent leaves the outcome
 *     unknown: STORE_UNAVAILABLE, never a second write.
 *
 * When a write has committed: the server ends the implicit transaction of a statement at
 * the Sync that follows it and only then sends ReadyForQuery. PQexecPrepared() returns
 * success only after ReadyForQuery; in the pipeline of store__run_and_notify() the write
 * counts as committed only once its PGRES_PIPELINE_SYNC has arrived. A connection lost
 * before that leaves the outcome unknown: STORE_UNAVAILABLE, never OK.
 *
 * Errors are classified by SQLSTATE, and unique violations by constraint name: 23505 on
 * events_pkey is a lost race (STORE_CONFLICT), on idempotency_keys_pkey a used key.
 */
#include "db/store_internal.h"

#include <poll.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <time.h>

#define STORE_RETRY_MS 100

static const struct {
	const char *name;
	const char *sql;
} statements[STATEMENT_COUNT] = {
	/* The common append (events only) as one plain INSERT (with the outbox rows of the
	 * game's webhooks and of its seated players' webhooks, catan_receivers() of
	 * 0006_player_webhooks.sql, usually none): it costs about what inserting the rows costs. Nothing
	 * is inserted unless event $2 exists, so no gap can be made. One event (most appends)
	 * with scalar parameters, more as arrays. The result is the number of events inserted. */
	[STATEMENT_APPEND_EVENT] = {"append_event",
		"WITH e AS (INSERT INTO events (game_id, seq, type, actor, origin, payload)"
		"  SELECT $1::bigint, $2::integer + 1, $3::smallint, $4::smallint, $5::smallint, $6::jsonb"
		"  WHERE EXISTS (SELECT FROM events WHERE game_id = $1::bigint AND seq = $2::integer)"
		"  RETURNING seq),"
		" o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)"
		"  SELECT w.webhook_id, $1::bigint, e.seq, e.seq, e.seq FROM catan_receivers($1::bigint) w, e)"
		" SELECT count(*)::integer FROM e"},
	[STATEMENT_APPEND_EVENTS] = {"append_events",
		"WITH e AS (INSERT INTO events (game_id, seq, type, actor, origin, payload)"
		"  SELECT $1::bigint, $2::integer + e.n, e.type, e.actor, e.origin, e.payload::jsonb"
		"  FROM unnest($3::smallint[], $4::smallint[], $5::smallint[], $6::text[])"
		"   WITH ORDINALITY AS e (type, actor, origin, payload, n)"
		"  WHERE EXISTS (SELECT FROM events WHERE game_id = $1::bigint AND seq = $2::integer)"
		"  RETURNING seq),"
		" o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)"
		"  SELECT w.webhook_id, $1::bigint, r.first, r.last, r.first"
		"  FROM catan_receivers($1::bigint) w, (SELECT min(seq) AS first, max(seq) AS last FROM e) r"
		"  WHERE r.first IS NOT NULL)"
		" SELECT count(*)::integer FROM e"},
	/* With a snapshot, a status or an idempotency record: the function does it all. */
	[STATEMENT_APPEND] = {"append",
		"SELECT catan_append($1::bigint, $2::integer, $3::smallint[], $4::smallint[], $5::smallint[],"
		" $6::text[], $7::smallint, $8::integer, $9::bytea, $10::text, $11::bytea, $12::smallint,"
		" $13::text), catan_set_timer($1::bigint, $2::integer + cardinality($3::smallint[]),"
		" $14::smallint, $15::bigint),"
		" catan_enqueue_deliveries($1::bigint, $2::integer + 1, $2::integer + cardinality($3::smallint[]))"},
	[STATEMENT_CREATE_GAME] = {"create_game",
		"SELECT catan_create_game($1::bigint, $2::bigint, $3::smallint, $4::bytea, $5::text,"
		" $6::text[], $7::boolean[], $8::bytea, $9::smallint[], $10::smallint[], $11::smallint[],"
		" $12::text[], $13::integer, $14::bytea),"
		" catan_set_timer($1::bigint, cardinality($9::smallint[]), $15::smallint, $16::bigint),"
		/* After catan_create_game() in the list: the seats exist (it fails loudly if not). */
		" catan_bind_players($1::bigint, $17::bigint[]),"
		/* After the binding: the first events reach the seated players' webhooks. */
		" catan_enqueue_deliveries($1::bigint, 1, cardinality($9::smallint[]))"},
	[STATEMENT_LOAD] = {"load",
		"WITH s AS (SELECT seq, state FROM snapshots"
		"  WHERE game_id = $1::bigint AND format_version = $2::integer"
		"  AND octet_length(state) = $3::integer)"
		" SELECT 0, g.status, g.seats, NULL::smallint, g.seed, NULL::timestamptz,"
		"  coalesce((SELECT seq FROM s), 0), (SELECT state FROM s), NULL::text"
		" FROM games g WHERE g.id = $1::bigint"
		" UNION ALL"
		" SELECT e.seq, e.type, e.actor, e.origin, NULL, e.created_at, NULL, NULL, e.payload::text"
		" FROM events e WHERE e.game_id = $1::bigint AND e.seq > coalesce((SELECT seq FROM s), 0)"
		" ORDER BY 1"},
	[STATEMENT_READ_EVENTS] = {"read_events",
		"SELECT 0, g.status, g.seats, NULL::smallint, NULL::bigint, NULL::timestamptz,"
		"  NULL::integer, NULL::bytea, NULL::text"
		" FROM games g WHERE g.id = $1::bigint"
		" UNION ALL"
		" (SELECT e.seq, e.type, e.actor, e.origin, NULL, e.created_at, NULL, NULL, e.payload::text"
		"  FROM events e WHERE e.game_id = $1::bigint AND e.seq > $2::integer"
		"  ORDER BY e.seq LIMIT $3::integer)"
		" ORDER BY 1"},
	/* The events after a version of a game known to exist: no header row to check. */
	[STATEMENT_READ_TAIL] = {"read_tail",
		"SELECT e.seq, e.type, e.actor, e.origin, NULL::bigint, e.created_at, NULL::integer, NULL::bytea,"
		"  e.payload::text"
		" FROM events e WHERE e.game_id = $1::bigint AND e.seq > $2::integer"
		" ORDER BY e.seq LIMIT $3::integer"},
	[STATEMENT_VERSION] = {"version",
		"SELECT coalesce((SELECT max(seq) FROM events WHERE game_id = $1::bigint), 0)"
		" FROM games WHERE id = $1::bigint"},
	[STATEMENT_FIND_TOKEN] = {"find_token",
		"SELECT seat FROM seats WHERE game_id = $1::bigint AND token_hash = $2::bytea"
		" UNION ALL"
		" SELECT (-2)::smallint FROM games WHERE id = $1::bigint AND admin_token_hash = $2::bytea"
		" UNION ALL" /* a player's token acts for the player's seat (0003_players.sql) */
		" SELECT s.seat FROM players p JOIN seats s ON s.player_id = p.id"
		"  WHERE p.token_hash = $2::bytea AND s.game_id = $1::bigint"
		" LIMIT 1"},
	[STATEMENT_GAME_INFO] = {"game_info",
		"SELECT g.seed, g.status, g.seats, g.created_at, g.updated_at, g.options::text,"
		"  s.seat, s.bot, s.name, s.away"
		" FROM games g LEFT JOIN seats s ON s.game_id = g.id"
		" WHERE g.id = $1::bigint ORDER BY s.seat"},
	[STATEMENT_IDEMPOTENCY_GET] = {"idempotency_get",
		"SELECT request_hash, status, response, created_at FROM idempotency_keys"
		" WHERE game_id = $1::bigint AND key = $2::text"},
	[STATEMENT_IDEMPOTENCY_PUT] = {"idempotency_put",
		"INSERT INTO idempotency_keys (game_id, status, key, request_hash, response)"
		" SELECT id, $2::smallint, $3::text, $4::bytea, $5::text FROM games WHERE id = $1::bigint"},
	[STATEMENT_PUT_SNAPSHOT] = {"put_snapshot",
		"WITH e AS (SELECT seq FROM events WHERE game_id = $1::bigint AND seq = $2::integer),"
		" put AS (INSERT INTO snapshots AS s (game_id, seq, format_version, state)"
		"  SELECT $1::bigint, seq, $3::integer, $4::bytea FROM e"
		"  ON CONFLICT (game_id) DO UPDATE SET created_at = now(), seq = excluded.seq,"
		"   format_version = excluded.format_version, state = excluded.state"
		"  WHERE s.seq < excluded.seq OR s.format_version <> excluded.format_version"
		"  RETURNING 1)"
		" SELECT (SELECT count(*) FROM e)::integer, (SELECT count(*) FROM put)::integer"},
	[STATEMENT_NOTIFY] = {"notify", "SELECT catan_notify($1::bigint, $2::integer)"},
	/* Timers and webhooks (0002_async.sql; store_async.c). */
	[STATEMENT_CLAIM_TIMERS] = {"claim_timers",
		"UPDATE game_timers t SET due_at = now() + make_interval(secs => $2::integer / 1000.0),"
		"  attempts = t.attempts + 1"
		" FROM (SELECT game_id FROM game_timers WHERE due_at <= now() ORDER BY due_at"
		"  LIMIT $1::integer FOR UPDATE SKIP LOCKED) AS d"
		" WHERE t.game_id = d.game_id"
		" RETURNING t.game_id, t.version, t.kind, t.attempts"},
	[STATEMENT_WEBHOOK_CREATE] = {"webhook_create",
		"INSERT INTO webhooks (id, game_id, seat, your_turn_only, secret, url, format, mentions)"
		" SELECT $1::bigint, id, $3::smallint, $4::boolean, $5::bytea, $6::text, $7::text, $8::jsonb"
		" FROM games WHERE id = $2::bigint"
		" RETURNING created_at"},
	[STATEMENT_WEBHOOK_LIST] = {"webhook_list",
		"SELECT w.id, coalesce(w.seat, -1)::smallint, w.your_turn_only, w.created_at, w.url,"
		"  (SELECT count(*) FROM webhook_outbox o WHERE o.webhook_id = w.id),"
		"  w.format, w.failures, w.disabled_at, w.disabled_reason"
		" FROM webhooks w WHERE w.game_id = $1::bigint AND w.format <> 'mail' ORDER BY w.created_at, w.id"},
	[STATEMENT_WEBHOOK_DELETE] = {"webhook_delete",
		"DELETE FROM webhooks WHERE game_id = $1::bigint AND id = $2::bigint AND format <> 'mail'"},
	/* A player's webhooks (0006_player_webhooks.sql): the same rows with player_id set. */
	[STATEMENT_PLAYER_WEBHOOK_CREATE] = {"player_webhook_create",
		"INSERT INTO webhooks (id, player_id, your_turn_only, secret, url, format, mentions)"
		" SELECT $1::bigint, id, $3::boolean, $4::bytea, $5::text, $6::text, $7::jsonb"
		" FROM players WHERE id = $2::bigint"
		" RETURNING created_at"},
	[STATEMENT_PLAYER_WEBHOOK_LIST] = {"player_webhook_list",
		"SELECT w.id, (-1)::smallint, w.your_turn_only, w.created_at, w.url,"
		"  (SELECT count(*) FROM webhook_outbox o WHERE o.webhook_id = w.id),"
		"  w.format, w.failures, w.disabled_at, w.disabled_reason"
		" FROM webhooks w WHERE w.player_id = $1::bigint AND w.format <> 'mail' ORDER BY w.created_at, w.id"},
	[STATEMENT_PLAYER_WEBHOOK_DELETE] = {"player_webhook_delete",
		"DELETE FROM webhooks WHERE player_id = $1::bigint AND id = $2::bigint AND format <> 'mail'"},
	[STATEMENT_CLAIM_DELIVERIES] = {"claim_deliveries",
		"UPDATE webhook_outbox o SET due_at = now() + make_interval(secs => $2::integer / 1000.0),"
		"  attempts = o.attempts + 1"
		" FROM (SELECT id FROM webhook_outbox p WHERE due_at <= now()"
		/* Only a webhook's oldest row: its events go out in order, one append at a time. */
		"  AND NOT EXISTS (SELECT FROM webhook_outbox q WHERE q.webhook_id = p.webhook_id AND q.id < p.id)"
		"  ORDER BY due_at LIMIT $1::integer FOR UPDATE SKIP LOCKED) AS d, webhooks w"
		" WHERE o.id = d.id AND w.id = o.webhook_id"
		/* A player's webhook acts as the player's seat of the row's game (none: -2). */
		" RETURNING o.id, o.webhook_id, o.game_id, coalesce(w.seat, (SELECT s.seat FROM seats s"
		"   WHERE s.game_id = o.game_id AND s.player_id = w.player_id),"
		"   CASE WHEN w.player_id IS NULL THEN -1 ELSE -2 END)::smallint, w.your_turn_only, w.secret,"
		"  w.url, o.first_seq, o.last_seq, o.next_seq, o.attempts, w.format, w.mentions::text,"
		"  coalesce(o.message_seq, 0)"},
	[STATEMENT_DELIVERY_UPDATE] = {"delivery_update",
		"UPDATE webhook_outbox SET next_seq = $2::integer,"
		"  due_at = now() + make_interval(secs => $3::bigint / 1000.0) WHERE id = $1::bigint"},
	[STATEMENT_DELIVERY_DONE] = {"delivery_done", "DELETE FROM webhook_outbox WHERE id = $1::bigint"},
	[STATEMENT_DELIVERY_LOG] = {"delivery_log",
		"INSERT INTO webhook_deliveries (webhook_id, outbox_id, seq, attempt, status, duration_ms, kind, error)"
		" SELECT $1::bigint, $2::bigint, $3::integer, $4::integer, nullif($5::integer, 0), $6::integer,"
		"  $7::text, $8::text WHERE EXISTS (SELECT FROM webhooks WHERE id = $1::bigint)"},
	[STATEMENT_DELIVERY_HISTORY] = {"delivery_history",
		"SELECT at, seq, attempt, coalesce(status, 0), duration_ms, kind, coalesce(error, '')"
		" FROM webhook_deliveries WHERE webhook_id = $1::bigint ORDER BY at DESC LIMIT $2::integer"},
	/* Holidays (0006_player_webhooks.sql; store_write.c): the seat's change, its event and
	 * the timer in one statement. */
	[STATEMENT_SEAT_AWAY] = {"seat_away",
		"SELECT outcome, version FROM catan_seat_away($1::bigint, $2::integer, $3::boolean, $4::integer,"
		" $5::smallint, $6::text, $7::smallint, $8::bigint)"},
	/* Waiting games (0003_players.sql; store_lobby.c). */
	[STATEMENT_CREATE_WAITING] = {"create_waiting",
		"SELECT catan_create_waiting_game($1::bigint, $2::bigint, $3::bytea, $4::text, $5::text[],"
		" $6::boolean[], $7::bytea, $8::boolean[], $9::boolean, $10::bytea, $11::smallint[],"
		" $12::smallint[], $13::smallint[], $14::text[], $15::smallint, $16::smallint, $17::bigint[])"},
	/* A join or seat change that started the game (version > 0) enqueues its first events
	 * for the seated players' webhooks (0006_player_webhooks.sql), in its transaction. */
	[STATEMENT_JOIN] = {"join",
		"SELECT j.outcome, j.seat, j.version,"
		"  CASE WHEN j.version > 0 THEN catan_enqueue_deliveries($1::bigint, 1, j.version) END"
		" FROM catan_join($1::bigint, $2::bytea, $3::text, $4::bytea, $5::bigint) j"},
	[STATEMENT_CHANGE_SEAT] = {"change_seat",
		"SELECT c.outcome, c.seat, c.version,"
		"  CASE WHEN c.version > 0 THEN catan_enqueue_deliveries($1::bigint, 1, c.version) END"
		" FROM catan_change_seat($1::bigint, $2::bytea, $3::integer, $4::integer, $5::text) c"},
	[STATEMENT_WAITING_GAME] = {"waiting_game",
		"SELECT g.id, g.created_at, g.status, g.public, g.seats, g.options::text, s.seat, s.bot, s.name, s.open"
		" FROM games g JOIN seats s ON s.game_id = g.id"
		" WHERE g.id = $1::bigint AND g.status = 3 ORDER BY s.seat"},
	[STATEMENT_LOBBY] = {"lobby",
		"WITH page AS (SELECT id, created_at FROM games WHERE status = 3 AND public"
		"  AND ($2::bigint = 0 OR (created_at, id) < (timestamptz 'epoch' + $1::bigint * interval '1 microsecond', $2::bigint))"
		"  ORDER BY created_at DESC, id DESC LIMIT $3::integer)"
		" SELECT g.id, g.created_at, g.status, g.public, g.seats, g.options::text, s.seat, s.bot, s.name, s.open"
		" FROM page p JOIN games g ON g.id = p.id JOIN seats s ON s.game_id = g.id"
		" ORDER BY p.created_at DESC, p.id DESC, s.seat"},
	[STATEMENT_PLAYER_CREATE] = {"player_create",
		"INSERT INTO players (id, name, token_hash) VALUES ($1::bigint, $2::text, $3::bytea)"},
	[STATEMENT_PLAYER_BY_TOKEN] = {"player_by_token",
		"SELECT id, name FROM players WHERE token_hash = $1::bytea"},
	[STATEMENT_PLAYER_GET] = {"player_get", "SELECT id, name FROM players WHERE id = $1::bigint"},
	/* A token that leaked, replaced (0015_token_rotation.sql). */
	[STATEMENT_REPLACE_SEAT_TOKEN] = {"replace_seat_token",
		"SELECT catan_replace_seat_token($1::bigint, $2::integer, $3::bytea)"},
	[STATEMENT_REPLACE_PLAYER_TOKEN] = {"replace_player_token",
		"SELECT catan_replace_player_token($1::bigint, $2::bytea, $3::bytea)"},
	[STATEMENT_PLAYER_GAMES] = {"player_games",
		"SELECT s.game_id, s.seat, g.status FROM seats s JOIN games g ON g.id = s.game_id"
		" WHERE s.player_id = $1::bigint ORDER BY s.game_id LIMIT $2::integer"},
	/* The same with what "my games" sorts by, in one statement: the last event's time (one
	 * index probe per game) and the current deadline: the deadline timer set by the last
	 * append (kind 1 at the game's last version, catan_set_timer() of 0002_async.sql)
	 * falls turn_timeout_s after that event. */
	[STATEMENT_PLAYER_GAME_SUMMARIES] = {"player_game_summaries",
		"SELECT s.game_id, s.seat, g.status, g.created_at, e.created_at,"
		"  CASE WHEN t.kind = 1 AND t.version = e.seq AND (g.options->>'turn_timeout_s')::integer > 0"
		"   THEN e.created_at + make_interval(secs => (g.options->>'turn_timeout_s')::integer) END"
		" FROM seats s JOIN games g ON g.id = s.game_id"
		" LEFT JOIN LATERAL (SELECT x.seq, x.created_at FROM events x WHERE x.game_id = s.game_id"
		"  ORDER BY x.seq DESC LIMIT 1) e ON true"
		" LEFT JOIN game_timers t ON t.game_id = s.game_id"
		" WHERE s.player_id = $1::bigint ORDER BY s.game_id LIMIT $2::integer"},
	/* Table talk (0004_messages.sql; store_messages.c). */
	[STATEMENT_MESSAGE_POST] = {"message_post",
		"SELECT status, seq, after_version, created_at, retry_after_s"
		" FROM catan_post_message($1::bigint, $2::smallint, $3::text, $4::integer)"},
	[STATEMENT_MESSAGE_READ] = {"message_read",
		"SELECT seq, after_version, seat, created_at, text FROM messages"
		" WHERE game_id = $1::bigint AND seq > $2::integer ORDER BY seq LIMIT $3::integer"},
	/* Channel webhooks (0005_channels.sql): a failed attempt counts, and the bound-th in a
	 * row disables the webhook and drops what it still had to deliver. */
	[STATEMENT_CHANNEL_FAILED] = {"channel_failed",
		"WITH u AS (UPDATE webhooks SET failures = failures + 1,"
		"   disabled_at = CASE WHEN failures + 1 >= $2::integer THEN now() END,"
		"   disabled_reason = CASE WHEN failures + 1 >= $2::integer THEN $3::text END"
		"  WHERE id = $1::bigint AND disabled_at IS NULL RETURNING id, disabled_at IS NOT NULL AS off),"
		" d AS (DELETE FROM webhook_outbox WHERE webhook_id IN (SELECT id FROM u WHERE off) RETURNING 1)"
		" SELECT coalesce((SELECT off FROM u), false)"},
	[STATEMENT_CHANNEL_SUCCEEDED] = {"channel_succeeded",
		"UPDATE webhooks SET failures = 0 WHERE id = $1::bigint AND failures <> 0"},
	/* The feed (0008_feed.sql; store_feed.c): events and messages of games `g` after the
	 * position ($2 xact, $3 game, $4 kind, $5 seq), in order, each with whether its
	 * transaction is below xmin. Per game, the first $6 rows in the order of the
	 * (game_id, xact, seq) indexes: a page reads at most games x limit rows, however far
	 * behind its cursor is. In one game, (xact, game, kind, seq) > the position is
	 * (xact, seq) > (position's xact, a bound on seq), which the index scans in order. */
#define FEED_SQL(GAMES, EVENT_FLOOR, MESSAGE_FLOOR)                                                        \
	"WITH h AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),"                  \
	" c AS MATERIALIZED (SELECT $2::bigint::text::xid8 AS xact),"                                      \
	" g AS MATERIALIZED (" GAMES ")"                                                                     \
	" SELECT x.xact::text::bigint, x.game_id, x.kind, x.seq, x.player_seat, x.xact < h.xmin, x.type,"  \
	"  x.actor, x.origin, x.created_at, x.body, x.seat, x.after_version"                               \
	" FROM (SELECT e.xact, e.game_id, 0 AS kind, e.seq, g.seat AS player_seat, e.type, e.actor,"      \
	"   e.origin, e.created_at, e.payload::text AS body, NULL::smallint AS seat,"                       \
	"   NULL::integer AS after_version"                                                                  \
	"  FROM g CROSS JOIN c CROSS JOIN LATERAL (SELECT * FROM events e"                                   \
	"   WHERE e.game_id = g.game_id AND (e.xact, e.seq) > (c.xact, CASE WHEN g.game_id > $3::bigint THEN 0" \
	"    WHEN g.game_id = $3::bigint AND $4::integer = 0 THEN $5::integer ELSE 2147483647 END)" EVENT_FLOOR \
	"   ORDER BY e.xact, e.seq LIMIT $6::integer) e"                                                     \
	"  UNION ALL"                                                                                        \
	"  SELECT m.xact, m.game_id, 1, m.seq, g.seat, NULL, NULL, NULL, m.created_at, m.text, m.seat,"     \
	"   m.after_version"                                                                                 \
	"  FROM g CROSS JOIN c CROSS JOIN LATERAL (SELECT * FROM messages m"                                 \
	"   WHERE m.game_id = g.game_id AND (m.xact, m.seq) > (c.xact, CASE WHEN g.game_id > $3::bigint THEN 0" \
	"    WHEN g.game_id = $3::bigint THEN CASE WHEN $4::integer = 0 THEN 0 ELSE $5::integer END"          \
	"    ELSE 2147483647 END)" MESSAGE_FLOOR                                                            \
	"   ORDER BY m.xact, m.seq LIMIT $6::integer) m) x CROSS JOIN h"                                      \
	" ORDER BY x.xact, x.game_id, x.kind, x.seq LIMIT $6::integer"
	[STATEMENT_FEED_PLAYER] = {"feed_player",
		FEED_SQL("SELECT s.game_id, s.seat FROM seats s WHERE s.player_id = $1::bigint", "", "")},
	[STATEMENT_FEED_GAME] = {"feed_game",
		FEED_SQL("SELECT $1::bigint AS game_id, (-1)::smallint AS seat", " AND e.seq > $7::integer",
			 " AND m.seq > $8::integer")},
#undef FEED_SQL
	[STATEMENT_FEED_POSITION] = {"feed_position",
		"SELECT xact::text::bigint FROM events WHERE game_id = $1::bigint AND seq = $3::integer AND $2::integer = 0"
		" UNION ALL"
		" SELECT xact::text::bigint FROM messages WHERE game_id = $1::bigint AND seq = $3::integer"
		"  AND $2::integer = 1"},
	[STATEMENT_FEED_XMIN] = {"feed_xmin", "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint"},
	/* Mail registrations (0007_mail.sql; store_mail.c). */
	/* Within the confirmation-mail budgets (0012_registrations.sql): the new id, or NULL with
	 * the seconds until there is room. */
	[STATEMENT_MAIL_REGISTER] = {"mail_register",
		"SELECT id, retry_after_s FROM catan_mail_register_within($1::bigint, $2::bigint, $3::smallint,"
		" $4::bytea, $5::text, $6::integer, $7::integer, $8::integer, $9::integer)"},
	[STATEMENT_MAIL_GET] = {"mail_get",
		"SELECT id, coalesce(game_id, 0), coalesce(seat, (-1)::smallint), mail_address, secret,"
		"  disabled_reason IS DISTINCT FROM 'unconfirmed',"
		"  coalesce(mail_confirm_expires < now(), false),"
		"  coalesce((extract(epoch FROM now() - mail_last_sent_at) * 1000)::bigint, -1),"
		"  coalesce(mail_last_turn, -1), coalesce(player_id, 0)"
		" FROM webhooks WHERE format = 'mail'"
		"  AND (id = $1::bigint OR (game_id = $2::bigint AND seat = $3::smallint) OR player_id = $4::bigint)"},
	[STATEMENT_MAIL_CONFIRM] = {"mail_confirm",
		"UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, mail_confirm_expires = NULL"
		" WHERE id = $1::bigint AND format = 'mail' AND disabled_reason = 'unconfirmed'"
		"  AND mail_confirm_expires > now() RETURNING id"},
	[STATEMENT_MAIL_DELETE] = {"mail_delete",
		"DELETE FROM webhooks WHERE format = 'mail'"
		"  AND (id = $1::bigint OR (game_id = $2::bigint AND seat = $3::smallint) OR player_id = $4::bigint)"
		" RETURNING id"},
	[STATEMENT_MAIL_SENT] = {"mail_sent",
		"UPDATE webhooks SET mail_last_sent_at = now(), mail_last_turn = $2::bigint"
		" WHERE id = $1::bigint AND format = 'mail'"},
	/* A player's mail registration (0010_player_mail.sql; store_mail.c). */
	[STATEMENT_MAIL_REGISTER_PLAYER] = {"mail_register_player",
		"SELECT id, retry_after_s FROM catan_mail_register_player_within($1::bigint, $2::bigint, $3::bytea,"
		" $4::text, $5::integer, $6::integer, $7::integer, $8::integer)"},
	[STATEMENT_MAIL_GAME_STATE] = {"mail_game_state",
		"SELECT coalesce((extract(epoch FROM now() - g.last_sent_at) * 1000)::bigint, -1),"
		"  coalesce(g.last_turn, -1),"
		"  EXISTS (SELECT FROM webhooks s WHERE s.game_id = $2::bigint AND s.seat = $3::smallint"
		"   AND s.format = 'mail' AND s.disabled_reason IS DISTINCT FROM 'unconfirmed')"
		" FROM (SELECT) AS one LEFT JOIN mail_games g ON g.webhook_id = $1::bigint AND g.game_id = $2::bigint"},
	[STATEMENT_MAIL_GAME_SENT] = {"mail_game_sent",
		"INSERT INTO mail_games (webhook_id, game_id, last_sent_at, last_turn)"
		" SELECT $1::bigint, $2::bigint, now(), $3::bigint WHERE EXISTS (SELECT FROM webhooks WHERE id = $1::bigint)"
		" ON CONFLICT (webhook_id, game_id) DO UPDATE SET last_sent_at = now(), last_turn = excluded.last_turn"},
	/* Budgets counted in the database (0011_quotas.sql; store_quota.c). */
	[STATEMENT_QUOTA] = {"quota",
		"SELECT q.allowed, q.retry_after_s, floor(q.remaining)::bigint FROM catan_quota($1::text, $2::bytea,"
		" $3::double precision, $4::double precision, $5::double precision, $6::integer) q"},
	[STATEMENT_RECEIVERS] = {"receivers", "SELECT count(*)::integer FROM catan_receivers($1::bigint)"},
};

static int64_t monotonic_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void store__say(struct store *store, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(store->message, sizeof store->message, format, args);
	va_end(args);
	/* libpq messages end in newlines; one line reads better in logs. */
	for (char *c = store->message; *c; c++)
		if (*c == '\n')
			*c = (c[1] ? ' ' : '\0');
}

enum store_status store__corrupt(struct store *store, int64_t game_id, const char *what)
{
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(game_id, id);
	store__say(store, "game %s: %s", id, what);
	return STORE_CORRUPT;
}

/* ---- Status names and identifiers ---------------------------------------------------------- */

static const char *const status_names[] = {
#define STORE_STATUS_NAME(name, message) #name,
	STORE_STATUS_LIST(STORE_STATUS_NAME)
#undef STORE_STATUS_NAME
};

static const char *const status_messages[] = {
#define STORE_STATUS_MESSAGE(name, message) message,
	STORE_STATUS_LIST(STORE_STATUS_MESSAGE)
#undef STORE_STATUS_MESSAGE
};

const char *store_status_name(enum store_status status)
{
	return (unsigned)status < STORE_STATUS_COUNT ? status_names[status] : "STORE_?";
}

const char *store_status_message(enum store_status status)
{
	return (unsigned)status < STORE_STATUS_COUNT ? status_messages[status] : "unknown store status";
}

void store_format_id(int64_t id, char out[STORE_ID_TEXT_SIZE])
{
	snprintf(out, STORE_ID_TEXT_SIZE, "%016llx", (unsigned long long)id);
}

int store_parse_id(const char *text, int64_t *id)
{
	uint64_t value = 0;
	for (int i = 0; i < 16; i++) {
		char c = text[i];
		int digit;
		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if (c >= 'a' && c <= 'f')
			digit = c - 'a' + 10;
		else
			return 0;
		value = value << 4 | (uint64_t)digit;
	}
	if (text[16] != '\0' || value == 0 || value > (uint64_t)INT64_MAX)
		return 0;
	*id = (int64_t)value;
	return 1;
}

/* ---- Connection ---------------------------------------------------------------------------- */

/* WEBHOOK_RECEIVERS_MAX, told to every connection opened after it is set; -1: not set. */
static atomic_int webhook_receivers_max = -1;

void store_set_webhook_receivers_max(int max)
{
	atomic_store(&webhook_receivers_max, max < 0 ? -1 : max);
}

static void disconnect(struct store *store)
{
	if (store->conn) {
		PQfinish(store->conn);
		store->conn = NULL;
	}
}

/* Connect and prepare every statement. The caller's conninfo comes last, so it overrides
 * the defaults given here. */
static enum store_status connect_store(struct store *store)
{
	int64_t now = monotonic_ms();
	if (now < store->retry_at_ms)
		return STORE_UNAVAILABLE; /* the message of the failed attempt stands */
	const char *keywords[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
	const char *values[] = {"5", "catan", store->conninfo, NULL};
	store->conn = PQconnectdbParams(keywords, values, 1);
	if (!store->conn)
		abort();
	if (PQstatus(store->conn) != CONNECTION_OK) {
		store__say(store, "cannot connect to the database: %s", PQerrorMessage(store->conn));
		goto failed;
	}
	for (int i = 0; i < STATEMENT_COUNT; i++) {
		PGresult *result = PQprepare(store->conn, statements[i].name, statements[i].sql, 0, NULL);
		int ok = PQresultStatus(result) == PGRES_COMMAND_OK;
		if (!ok)
			store__say(store, "cannot prepare %s (is the schema migrated?): %s", statements[i].name,
			    PQresultErrorMessage(result));
		PQclear(result);
		if (!ok)
			goto failed;
	}
	int receivers = atomic_load(&webhook_receivers_max);
	if (receivers >= 0) {
		/* Read by catan_receivers() (0011_quotas.sql) on this connection. */
		char value[16];
		snprintf(value, sizeof value, "%d", receivers);
		const char *values_set[] = {value};
		PGresult *result = PQexecParams(store->conn, "SELECT set_config('catan.webhook_receivers_max', $1, false)",
						1, NULL, values_set, NULL, NULL, 0);
		int ok = PQresultStatus(result) == PGRES_TUPLES_OK;
		if (!ok)
			store__say(store, "cannot set catan.webhook_receivers_max: %s", PQresultErrorMessage(result));
		PQclear(result);
		if (!ok)
			goto failed;
	}
	return STORE_OK;
failed:
	disconnect(store);
	store->retry_at_ms = now + STORE_RETRY_MS;
	return STORE_UNAVAILABLE;
}

char *store_conninfo_for_database(const char *conninfo, const char *dbname, char **error)
{
	char *reason = NULL;
	PQconninfoOption *options = PQconninfoParse(conninfo ? conninfo : "", &reason);
	if (error)
		*error = reason ? store_strndup(reason, strlen(reason)) : NULL;
	if (reason)
		PQfreemem(reason);
	if (!options)
		return NULL;
	size_t capacity = 1, size = 0;
	for (PQconninfoOption *option = options; option->keyword; option++) {
		const char *value = strcmp(option->keyword, "dbname") == 0 ? dbname : option->val;
		if (value)
			capacity += strlen(option->keyword) + 2 * strlen(value) + 8;
	}
	char *text = store_alloc(capacity);
	text[0] = '\0';
	for (PQconninfoOption *option = options; option->keyword; option++) {
		const char *value = strcmp(option->keyword, "dbname") == 0 ? dbname : option->val;
		if (!value)
			continue;
		size += (size_t)sprintf(text + size, "%s%s='", size ? " " : "", option->keyword);
		for (const char *c = value; *c; c++) {
			if (*c == '\'' || *c == '\\')
				text[size++] = '\\';
			text[size++] = *c;
		}
		text[size++] = '\'';
		text[size] = '\0';
	}
	PQconninfoFree(options);
	return text;
}

enum store_status store_open(const char *conninfo, struct store **out)
{
	struct store *store = store_alloc(sizeof *store);
	memset(store, 0, sizeof *store);
	store->conninfo = store_strndup(conninfo ? conninfo : "", conninfo ? strlen(conninfo) : 0);
	*out = store;
	return connect_store(store);
}

void store_close(struct store *store)
{
	if (!store)
		return;
	disconnect(store);
	free(store->conninfo);
	free(store);
}

const char *store_message(const struct store *store)
{
	return store->message;
}

/* Replace nothing, but forget a connection the server has closed while it was idle: there
 * is nothing to read on an idle connection unless the server ended it (a FATAL message,
 * end of file). Costs one poll() with no wait. */
static void drop_if_closed(struct store *store)
{
	if (!store->conn)
		return;
	struct pollfd socket_fd = {PQsocket(store->conn), POLLIN, 0};
	if (socket_fd.fd < 0) {
		disconnect(store);
		return;
	}
	/* The server's FATAL message is read first (libpq takes an error on an idle connection
	 * as a notice); the end of file after it only by a further read. A few rounds at most:
	 * anything else that arrives (a notice) is read past by the next statement anyway. */
	for (int round = 0; round < 4 && poll(&socket_fd, 1, 0) > 0; round++) {
		if (!PQconsumeInput(store->conn) || PQstatus(store->conn) != CONNECTION_OK) {
			store__say(store, "the database closed the connection: %s", PQerrorMessage(store->conn));
			disconnect(store);
			return;
		}
	}
}

/* 1 when a failed statement's result is the server's own error: the statement failed on the
 * server, so its transaction did not commit. libpq's own errors (a lost connection) carry
 * no SQLSTATE. */
static int failed_on_server(const PGresult *result)
{
	return result && PQresultStatus(result) == PGRES_FATAL_ERROR &&
	       PQresultErrorField(result, PG_DIAG_SQLSTATE) != NULL;
}

/* The status of a failed statement. Drops the connection when it cannot be trusted. */
static enum store_status classify(struct store *store, const PGresult *result)
{
	const char *sqlstate = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : NULL;
	store__say(store, "%s", result ? PQresultErrorMessage(result) : PQerrorMessage(store->conn));
	if (!store->message[0])
		store__say(store, "%s", PQerrorMessage(store->conn));
	if (PQstatus(store->conn) != CONNECTION_OK || !sqlstate) {
		disconnect(store);
		return STORE_UNAVAILABLE;
	}
	if (strcmp(sqlstate, "23505") == 0) {
		const char *constraint = PQresultErrorField(result, PG_DIAG_CONSTRAINT_NAME);
		if (constraint && strcmp(constraint, "events_pkey") == 0)
			return STORE_CONFLICT;
		if (constraint && strcmp(constraint, "idempotency_keys_pkey") == 0)
			return STORE_IDEMPOTENCY_CONFLICT;
		if (constraint && (strcmp(constraint, "games_pkey") == 0 || strcmp(constraint, "players_pkey") == 0))
			return STORE_CONFLICT;
		return STORE_INVALID; /* a duplicate token hash: the caller's values */
	}
	if (strcmp(sqlstate, "P0002") == 0)
		return STORE_NOT_FOUND;
	if (strcmp(sqlstate, "CT409") == 0 || strcmp(sqlstate, "40001") == 0 || strcmp(sqlstate, "40P01") == 0)
		return STORE_CONFLICT;
	if (strncmp(sqlstate, "22", 2) == 0 || strncmp(sqlstate, "23", 2) == 0)
		return STORE_INVALID;
	/* Connection exceptions, shutdown, a statement that no longer matches the schema: start
	 * over on a new connection. Anything else (out of resources, timeouts) leaves it. */
	if (strncmp(sqlstate, "08", 2) == 0 || strncmp(sqlstate, "57P", 3) == 0 || strcmp(sqlstate, "0A000") == 0 ||
	    strcmp(sqlstate, "26000") == 0)
		disconnect(store);
	return STORE_UNAVAILABLE;
}

/* Before each attempt at a statement: no result and no message yet, and a live connection
 * (a connection the server closed while idle is replaced before anything is sent; *fresh
 * set when it was made now). */
static enum store_status begin_attempt(struct store *store, PGresult **out, int *fresh)
{
	*out = NULL;
	store->message[0] = '\0';
	*fresh = 0;
	drop_if_closed(store);
	if (store->conn)
		return STORE_OK;
	*fresh = 1;
	return connect_store(store);
}

enum store_status store__run(struct store *store, enum statement statement, const struct params *params, int retry,
			     PGresult **out)
{
	for (int attempt = 0;; attempt++) {
		int fresh;
		enum store_status connected = begin_attempt(store, out, &fresh);
		if (connected != STORE_OK)
			return connected;
		PGresult *result = PQexecPrepared(store->conn, statements[statement].name, params->count,
						  params->values, params->lengths, params->formats, 1);
		ExecStatusType state = PQresultStatus(result);
		if (result && (state == PGRES_TUPLES_OK || state == PGRES_COMMAND_OK)) {
			*out = result;
			return STORE_OK;
		}
		int rolled_back = failed_on_server(result);
		enum store_status status = classify(store, result);
		PQclear(result);
		if (status == STORE_UNAVAILABLE && (retry || rolled_back) && attempt == 0 && !fresh && !store->conn)
			continue;
		return status;
	}
}

/* The results of one pipeline segment, up to and including its Sync: the statement's
 * result goes to *result (caller PQclear()s; NULL if none came). Returns 1 when the Sync
 * arrived, which the server sends after ending the segment's transaction; 0 when the
 * connection failed first. */
static int read_segment(PGconn *conn, PGresult **result)
{
	*result = NULL;
	for (int ends = 0;;) {
		PGresult *next = PQgetResult(conn);
		if (!next) {
			/* One NULL ends the statement's results; more, or a dead connection, mean
			 * the Sync is not coming. */
			if (PQstatus(conn) != CONNECTION_OK || ++ends > 1)
				return 0;
			continue;
		}
		if (PQresultStatus(next) == PGRES_PIPELINE_SYNC) {
			PQclear(next);
			return 1;
		}
		if (*result)
			PQclear(next);
		else
			*result = next;
	}
}

/* Run a write statement, then wake the listeners of (game_id, version) in a transaction of
 * its own (see db/migrations/0001_event_store.sql), both in one libpq pipeline: one
 * round trip. STORE_OK only when the write's result and the Sync after it arrived, i.e. its
 * transaction committed; if the connection fails before that, the outcome is unknown and
 * the status STORE_UNAVAILABLE. The wake-up's own outcome does not change the status. */
static enum store_status run_and_notify_once(struct store *store, enum statement statement,
					     const struct params *params, int64_t game_id, int32_t version, PGresult **out,
					     int *not_committed)
{
	*not_committed = 0;
	PGconn *conn = store->conn;
	struct params notify = {0};
	param_int(&notify, game_id);
	param_int(&notify, version);
	/* Until the first PQpipelineSync() has flushed everything, the write's Sync has not
	 * left: whatever the server received of it cannot commit. */
	int write_sent = 0;
	if (!PQenterPipelineMode(conn) ||
	    !PQsendQueryPrepared(conn, statements[statement].name, params->count, params->values, params->lengths,
				 params->formats, 1) ||
	    !PQpipelineSync(conn) || !(write_sent = 1) ||
	    !PQsendQueryPrepared(conn, statements[STATEMENT_NOTIFY].name, notify.count, notify.values, notify.lengths,
				 notify.formats, 1) ||
	    !PQpipelineSync(conn)) {
		store__say(store, "sending to the database: %s", PQerrorMessage(conn));
		disconnect(store);
		*not_committed = !write_sent;
		return STORE_UNAVAILABLE;
	}
	PGresult *result;
	int committed = read_segment(conn, &result) && result &&
			(PQresultStatus(result) == PGRES_TUPLES_OK || PQresultStatus(result) == PGRES_COMMAND_OK);
	enum store_status status;
	if (committed) {
		status = STORE_OK;
		*out = result;
	} else {
		*not_committed = failed_on_server(result);
		status = classify(store, result);
		PQclear(result);
	}
	if (store->conn) {
		PGresult *woken;
		int synced = read_segment(conn, &woken);
		PQclear(woken);
		if (!synced || !PQexitPipelineMode(conn))
			disconnect(store); /* out of step: start over on the next call */
	}
	return status;
}

enum store_status store__run_and_notify(struct store *store, enum statement statement, const struct params *params,
					int64_t game_id, int32_t version, PGresult **out)
{
	for (int attempt = 0;; attempt++) {
		int fresh;
		enum store_status connected = begin_attempt(store, out, &fresh);
		if (connected != STORE_OK)
			return connected;
		int not_committed;
		enum store_status status =
			run_and_notify_once(store, statement, params, game_id, version, out, &not_committed);
		/* An old connection found dead, and the write certainly not committed: once more on a
		 * new one (a new connection that fails is the outage itself). */
		if (status == STORE_UNAVAILABLE && not_committed && attempt == 0 && !fresh && !store->conn)
			continue;
		return status;
	}
}

