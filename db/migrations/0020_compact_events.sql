-- 0020_compact_events: the events table in fewer bytes per event (issue 24).
--
-- Two changes, measured with `make bench-store` (bytes on disk per event after whole
-- games: heap, TOAST and every index of events):
--
-- 1. The feed's index is sparse. 0008 indexed every event by (game_id, xact, seq); its
--    entries are as wide as the pkey's plus a 64-bit xid, and consecutive inserts of a game
--    land in the middle of its key range (xact grows between them), so its leaves split in
--    halves: about 69 B an event, more than the pkey (35 B). The feed needs it only to find,
--    in each game, the first row after a cursor in (xact, seq) order. Within a game xact
--    never decreases along seq (the transaction that appends v+1 saw v committed before it
--    wrote anything, so its xid is larger: 0008_feed.sql), so (xact, seq) order is seq order
--    and the rows after a cursor are a suffix of the log. An anchor every 16th event (seq 1,
--    17, 33, ...) is enough to find where the suffix starts: the last anchor at or before
--    the cursor is at most 16 rows before the first row after it, and the feed reads on by
--    the primary key from that anchor, skipping those rows (db/store_feed.c). Exact, and at
--    most 16 rows read for nothing per game and page.
--
-- 2. Payloads are json, not jsonb. No SQL reads inside a payload (the codec parses it, by
--    member, duplicates refused: codec/log.c); jsonb stored the average payload in about
--    70 B where its text is about 34 B. json keeps the text as the codec wrote it, checked
--    to be JSON on the way in. Rows already stored keep jsonb's spelling of their text
--    (members sorted, ", " and ": "): the codec reads either.
--
-- Rolling upgrade: a server of the previous version keeps working on this schema. Its
-- feed reads order each of the player's games by (xact, seq) without the dense index (a
-- sort of the game's rows, by the primary key: slower for long games, still exact); its
-- appends cast the payload to jsonb, which the assignment cast jsonb -> json stores (in
-- jsonb's spelling); every payload it reads is cast to text. The type change rewrites the
-- table under an exclusive lock: appends and reads wait for this migration to commit
-- (23 s for a million events on a loaded 2-core machine), so run it when the service can
-- pause for that long.
ALTER TABLE events ALTER COLUMN payload TYPE json USING payload::json;

CREATE INDEX events_feed_anchor ON events (game_id, xact, seq) WHERE seq % 16 = 1;
DROP INDEX events_game_xact;

-- catan_append() of 0001, the payloads cast to json (kept as written) instead of jsonb.
CREATE OR REPLACE FUNCTION catan_append(
	p_game bigint, p_version integer,
	p_types smallint[], p_actors smallint[], p_origins smallint[], p_payloads text[],
	p_status smallint,
	p_snapshot_format integer, p_snapshot bytea,
	p_key text, p_request_hash bytea, p_response_status smallint, p_response text)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	n integer := coalesce(cardinality(p_types), 0);
	v integer := p_version + n;
BEGIN
	IF n = 0 OR p_version < 0 OR cardinality(p_actors) IS DISTINCT FROM n
			OR cardinality(p_origins) IS DISTINCT FROM n
			OR cardinality(p_payloads) IS DISTINCT FROM n THEN
		RAISE EXCEPTION 'catan_append: % events with % actors, % origins, % payloads at version %',
			n, cardinality(p_actors), cardinality(p_origins), cardinality(p_payloads), p_version
			USING ERRCODE = '22023';
	END IF;
	IF p_version = 0 THEN
		PERFORM FROM games WHERE id = p_game;
	ELSE
		PERFORM FROM events WHERE game_id = p_game AND seq = p_version;
	END IF;
	IF NOT FOUND THEN
		PERFORM FROM games WHERE id = p_game;
		IF NOT FOUND THEN
			RAISE EXCEPTION 'catan_append: no game %', p_game USING ERRCODE = 'P0002';
		END IF;
		RAISE EXCEPTION 'catan_append: game % has no version %', p_game, p_version
			USING ERRCODE = 'CT409';
	END IF;
	IF p_key IS NOT NULL THEN
		INSERT INTO idempotency_keys (game_id, status, key, request_hash, response)
		VALUES (p_game, p_response_status, p_key, p_request_hash, p_response);
	END IF;
	IF n = 1 THEN
		INSERT INTO events (game_id, seq, type, actor, origin, payload)
		VALUES (p_game, v, p_types[1], p_actors[1], p_origins[1], p_payloads[1]::json);
	ELSE
		INSERT INTO events (game_id, seq, type, actor, origin, payload)
		SELECT p_game, p_version + i, p_types[i], p_actors[i], p_origins[i], p_payloads[i]::json
		FROM generate_series(1, n) AS i;
	END IF;
	IF p_snapshot IS NOT NULL THEN
		INSERT INTO snapshots AS s (game_id, seq, format_version, state)
		VALUES (p_game, v, p_snapshot_format, p_snapshot)
		ON CONFLICT (game_id) DO UPDATE
		SET created_at = now(), seq = excluded.seq, format_version = excluded.format_version,
			state = excluded.state
		WHERE s.seq < excluded.seq OR s.format_version <> excluded.format_version;
	END IF;
	IF p_snapshot IS NOT NULL OR p_status IS NOT NULL THEN
		UPDATE games SET updated_at = now(), status = coalesce(p_status, status) WHERE id = p_game;
	END IF;
	RETURN v;
END
$$;
