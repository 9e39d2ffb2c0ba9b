-- The player's feed (GET /v1/players/me/feed and /stream) and table talk on the game's
-- stream: one order over every game's events and messages, exact across transactions.
--
-- Each row records the transaction that wrote it (xact, a 64-bit xid8). The order of the
-- feed is (xact, game_id, kind, seq), kind 0 an event and 1 a message. A reader delivers
-- only rows with xact < pg_snapshot_xmin(pg_current_snapshot()): every transaction below
-- xmin has ended, so no row can later commit behind a cursor already handed out. Within a
-- game this order is the log's: the transaction that appends version v+1 saw v committed
-- before it wrote anything, so its xid (assigned at its first write) is larger.
--
-- Rows written before this migration keep xact 0 (ADD COLUMN with a constant default
-- rewrites no table); new rows take pg_current_xact_id(). A transaction held open anywhere
-- holds xmin back: the feed is then late, never short.
ALTER TABLE events ADD COLUMN xact xid8 NOT NULL DEFAULT '0';
ALTER TABLE events ALTER COLUMN xact SET DEFAULT pg_current_xact_id();
ALTER TABLE messages ADD COLUMN xact xid8 NOT NULL DEFAULT '0';
ALTER TABLE messages ALTER COLUMN xact SET DEFAULT pg_current_xact_id();

-- The feed reads, for each game of the player, the first rows after the cursor in this
-- order (a LATERAL ... ORDER BY xact, seq LIMIT page), then merges the games' rows.
CREATE INDEX events_game_xact ON events (game_id, xact, seq);
CREATE INDEX messages_game_xact ON messages (game_id, xact, seq);

-- A posted message wakes the game's streams and its players' feeds, like an append:
-- '<game id as 16 hex digits>:m<seq>' on catan_events (db/listener.c). Sent from the
-- posting transaction itself (a NOTIFY is delivered at commit): messages are few (a rate
-- per seat), so the commit lock a NOTIFY takes (0001_event_store.sql) costs appends
-- nothing worth a second transaction.
CREATE OR REPLACE FUNCTION catan_post_message(p_game bigint, p_seat smallint, p_text text, p_limit integer,
	OUT status integer, OUT seq integer, OUT after_version integer, OUT created_at timestamptz,
	OUT retry_after_s integer)
LANGUAGE plpgsql AS $$
DECLARE
	recent integer;
	oldest timestamptz;
BEGIN
	PERFORM FROM games WHERE id = p_game FOR NO KEY UPDATE;
	IF NOT FOUND THEN
		status := 1;
		RETURN;
	END IF;
	SELECT count(*), min(m.created_at) INTO recent, oldest FROM messages m
	WHERE m.game_id = p_game AND m.seat = p_seat AND m.created_at > clock_timestamp() - interval '60 seconds';
	IF recent >= p_limit THEN
		status := 2;
		retry_after_s := greatest(1, ceil(extract(epoch FROM oldest + interval '60 seconds' - clock_timestamp()))::integer);
		RETURN;
	END IF;
	INSERT INTO messages AS m (game_id, seq, seat, after_version, text, created_at)
	VALUES (p_game,
		coalesce((SELECT max(x.seq) FROM messages x WHERE x.game_id = p_game), 0) + 1,
		p_seat,
		coalesce((SELECT max(e.seq) FROM events e WHERE e.game_id = p_game), 0),
		p_text, clock_timestamp())
	RETURNING m.seq, m.after_version, m.created_at INTO seq, after_version, created_at;
	PERFORM pg_notify('catan_events', lpad(to_hex(p_game), 16, '0') || ':m' || seq);
	status := 0;
END
$$;
