/*
 * store_feed.c - reading events and messages of many games in one order
 * (db/migrations/0008_feed.sql).
 *
 * One statement per read: for each game (the player's seats, or one game), the events and
 * the messages after the position (the events from the sparse anchor index and the primary
 * key, the messages by their (game_id, xact) index), merged and ordered by
 * (xact, game_id, kind, seq), each marked settled when its xact is below
 * pg_snapshot_xmin(pg_current_snapshot()) taken by the same statement. The caller delivers
 * the settled prefix only. xid8 travels as bigint (a 64-bit transaction id fits below
 * 2^63 for any database that lives less than a few million years).
 *
 * Columns of both reads: xact, game_id, kind, seq, seat (the player's), settled, type,
 * actor, origin, created_at, payload or text, message seat, after_version.
 */
#include "db/store_feed.h"

#include "db/store_internal.h"

/* The SQL of both reads (0008_feed.sql, 0020_compact_events.sql): events and messages of
 * games `g` after the position ($2 xact, $3 game, $4 kind, $5 seq), in order, each with
 * whether its transaction is below xmin. Per game, the first $6 rows in (xact, seq) order:
 * a page reads at most games x limit rows (and up to 16 more per game for events), however
 * far behind its cursor is. In one game, (xact, game, kind, seq) > the position is
 * (xact, seq) > (position's xact, a bound on seq: `b`).
 *
 * Messages are few and keep a dense (game_id, xact, seq) index, scanned in order. Events
 * have an anchor every 16th seq (events_feed_anchor, seq % 16 = 1, the predicate repeated
 * here so the index serves): since xact never decreases along seq in a game, the rows after
 * the position are the log from some seq on, and the last anchor at or before the position
 * (`a`) is at most 16 rows before it. The events are read by the primary key from that
 * anchor (from seq 1 with none) in seq order, which is their (xact, seq) order, the rows
 * not after the position skipped. */
#define FEED_BOUND                                                                                                 \
	"CASE WHEN g.game_id > $3::bigint THEN 0 WHEN g.game_id = $3::bigint AND $4::integer = 0 THEN $5::integer" \
	" ELSE 2147483647 END"
#define FEED_SQL(GAMES, EVENT_FLOOR, MESSAGE_FLOOR)                                                               \
	"WITH h AS MATERIALIZED (SELECT pg_snapshot_xmin(pg_current_snapshot()) AS xmin),"                        \
	" c AS MATERIALIZED (SELECT $2::bigint::text::xid8 AS xact),"                                             \
	" g AS MATERIALIZED (" GAMES ")"                                                                          \
	" SELECT x.xact::text::bigint, x.game_id, x.kind, x.seq, x.player_seat, x.xact < h.xmin, x.type,"         \
	"  x.actor, x.origin, x.created_at, x.body, x.seat, x.after_version"                                      \
	" FROM (SELECT e.xact, e.game_id, 0 AS kind, e.seq, g.seat AS player_seat, e.type, e.actor,"              \
	"   e.origin, e.created_at, e.payload::text AS body, NULL::smallint AS seat,"                             \
	"   NULL::integer AS after_version"                                                                       \
	"  FROM g CROSS JOIN c CROSS JOIN LATERAL (SELECT " FEED_BOUND " AS seq) b"                               \
	"  CROSS JOIN LATERAL (SELECT coalesce((SELECT a.seq FROM events a WHERE a.game_id = g.game_id"           \
	"    AND a.seq % 16 = 1 AND (a.xact, a.seq) <= (c.xact, b.seq)"                                           \
	"    ORDER BY a.xact DESC, a.seq DESC LIMIT 1), 1) AS seq) a"                                             \
	"  CROSS JOIN LATERAL (SELECT * FROM events e"                                                            \
	"   WHERE e.game_id = g.game_id AND e.seq >= a.seq AND (e.xact, e.seq) > (c.xact, b.seq)" EVENT_FLOOR     \
	"   ORDER BY e.seq LIMIT $6::integer) e"                                                                  \
	"  UNION ALL"                                                                                             \
	"  SELECT m.xact, m.game_id, 1, m.seq, g.seat, NULL, NULL, NULL, m.created_at, m.text, m.seat,"           \
	"   m.after_version"                                                                                      \
	"  FROM g CROSS JOIN c CROSS JOIN LATERAL (SELECT * FROM messages m"                                      \
	"   WHERE m.game_id = g.game_id AND (m.xact, m.seq) > (c.xact, CASE WHEN g.game_id > $3::bigint THEN 0"   \
	"    WHEN g.game_id = $3::bigint THEN CASE WHEN $4::integer = 0 THEN 0 ELSE $5::integer END"              \
	"    ELSE 2147483647 END)" MESSAGE_FLOOR "   ORDER BY m.xact, m.seq LIMIT $6::integer) m) x CROSS JOIN h" \
	" ORDER BY x.xact, x.game_id, x.kind, x.seq LIMIT $6::integer"
#define FEED_STATEMENTS(X)                                                                                             \
	X(feed_player, 6, FEED_SQL("SELECT s.game_id, s.seat FROM seats s WHERE s.player_id = $1::bigint", "", ""))    \
	X(feed_game, 8,                                                                                                \
	  FEED_SQL("SELECT $1::bigint AS game_id, (-1)::smallint AS seat", " AND e.seq > $7::integer",                 \
		   " AND m.seq > $8::integer"))                                                                        \
	X(feed_position, 3,                                                                                            \
	  "SELECT xact::text::bigint FROM events WHERE game_id = $1::bigint AND seq = $3::integer AND $2::integer = 0" \
	  " UNION ALL"                                                                                                 \
	  " SELECT xact::text::bigint FROM messages WHERE game_id = $1::bigint AND seq = $3::integer"                  \
	  "  AND $2::integer = 1")                                                                                     \
	X(feed_xmin, 0, "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint")
STORE_STATEMENTS(feed, FEED_STATEMENTS);
#undef FEED_SQL
#undef FEED_BOUND

enum feed_column {
	FEED_XACT,
	FEED_GAME,
	FEED_KIND,
	FEED_SEQ,
	FEED_SEAT,
	FEED_SETTLED,
	FEED_TYPE,
	FEED_ACTOR,
	FEED_ORIGIN,
	FEED_CREATED_AT,
	FEED_TEXT,
	FEED_MESSAGE_SEAT,
	FEED_AFTER_VERSION
};

static enum store_status copy_feed(struct store *store, PGresult *result, struct store_feed *out)
{
	int count = PQntuples(result);
	out->items = store_alloc(sizeof *out->items * (size_t)(count ? count : 1));
	out->count = 0;
	for (int i = 0; i < count; i++) {
		struct store_feed_item *item = &out->items[i];
		memset(item, 0, sizeof *item);
		int32_t kind = -1;
		int settled = 0;
		if (!get_int64(result, i, FEED_XACT, &item->at.xact) ||
		    !get_int64(result, i, FEED_GAME, &item->at.game_id) || !get_int32(result, i, FEED_KIND, &kind) ||
		    !get_int32(result, i, FEED_SEQ, &item->at.seq) || !get_int16(result, i, FEED_SEAT, &item->seat) ||
		    !get_bool(result, i, FEED_SETTLED, &settled) ||
		    !get_timestamp(result, i, FEED_CREATED_AT, &item->event.created_at_us) ||
		    PQgetisnull(result, i, FEED_TEXT) || (kind != STORE_FEED_EVENT && kind != STORE_FEED_MESSAGE)) {
			store_feed_free(out);
			return store__corrupt(store, item->at.game_id, "a feed row with missing or malformed columns");
		}
		item->at.kind = kind;
		item->settled = settled;
		size_t size = (size_t)PQgetlength(result, i, FEED_TEXT);
		char *text = store_strndup(PQgetvalue(result, i, FEED_TEXT), size);
		out->count++;
		if (kind == STORE_FEED_EVENT) {
			item->event.seq = item->at.seq;
			item->event.payload = text;
			item->event.payload_size = size;
			if (!get_int16(result, i, FEED_TYPE, &item->event.type) ||
			    !get_int16(result, i, FEED_ACTOR, &item->event.actor) ||
			    !get_int16(result, i, FEED_ORIGIN, &item->event.origin)) {
				store_feed_free(out);
				return store__corrupt(store, item->at.game_id, "a feed event row");
			}
		} else {
			item->message.seq = item->at.seq;
			item->message.created_at_us = item->event.created_at_us;
			item->message.text = text;
			if (!get_int16(result, i, FEED_MESSAGE_SEAT, &item->message.seat) ||
			    !get_int32(result, i, FEED_AFTER_VERSION, &item->message.after_version)) {
				store_feed_free(out);
				return store__corrupt(store, item->at.game_id, "a feed message row");
			}
		}
	}
	return STORE_OK;
}

static void position_params(struct params *params, const struct store_feed_position *after)
{
	param_int(params, after->xact);
	param_int(params, after->game_id);
	param_int(params, after->kind);
	param_int(params, after->seq);
}

static enum store_status read_feed(struct store *store, const struct store_statement *statement, struct params *params,
				   struct store_feed *out)
{
	out->count = 0;
	out->items = NULL;
	PGresult *result;
	enum store_status status = store__run(store, statement, params, 1, &result);
	if (status != STORE_OK)
		return status;
	status = copy_feed(store, result, out);
	PQclear(result);
	return status;
}

enum store_status store_feed_read_player(struct store *store, int64_t player_id,
					 const struct store_feed_position *after, int limit, struct store_feed *out)
{
	struct params params = {0};
	param_int(&params, player_id);
	position_params(&params, after);
	param_int(&params, limit);
	return read_feed(store, &statement_feed_player, &params, out);
}

enum store_status store_feed_read_game(struct store *store, int64_t game_id, const struct store_feed_position *after,
				       int32_t event_floor, int32_t message_floor, int limit, struct store_feed *out)
{
	struct params params = {0};
	param_int(&params, game_id);
	position_params(&params, after);
	param_int(&params, limit);
	param_int(&params, event_floor);
	param_int(&params, message_floor);
	return read_feed(store, &statement_feed_game, &params, out);
}

enum store_status store_feed_position_of(struct store *store, int64_t game_id, int kind, int32_t seq,
					 struct store_feed_position *out)
{
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, kind);
	param_int(&params, seq);
	PGresult *result;
	enum store_status status = store__run(store, &statement_feed_position, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		status = STORE_NOT_FOUND;
	} else if (!get_int64(result, 0, 0, &out->xact)) {
		status = store__corrupt(store, game_id, "a row without its transaction");
	} else {
		out->game_id = game_id;
		out->kind = kind;
		out->seq = seq;
	}
	PQclear(result);
	return status;
}

enum store_status store_feed_xmin(struct store *store, int64_t *xmin)
{
	struct params params = {0};
	PGresult *result;
	enum store_status status = store__run(store, &statement_feed_xmin, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) != 1 || !get_int64(result, 0, 0, xmin))
		status = store__corrupt(store, 0, "no xmin");
	PQclear(result);
	return status;
}

void store_feed_free(struct store_feed *feed)
{
	for (int i = 0; i < feed->count; i++) {
		if (feed->items[i].at.kind == STORE_FEED_EVENT)
			free((char *)feed->items[i].event.payload);
		else
			free(feed->items[i].message.text);
	}
	free(feed->items);
	feed->items = NULL;
	feed->count = 0;
}
