-- 0001_event_store: games as event-sourced rows.
--
-- A game is its `games` row (what it was created with, its secret seed, a coarse status),
-- its `seats` (names, bots, token hashes), and its log: `events` numbered 1, 2, 3 ... per
-- game. The version of a game is its highest `seq`. Everything else can be rebuilt from
-- the log; `snapshots` only saves the replay of a long one.
--
-- Writes go through catan_create_game() and catan_append(), each one statement (one round
-- trip, one transaction) from db/store.c:
--   - events v+1..v+n are inserted under the primary key (game_id, seq): a concurrent writer
--     that already took v+1 makes the append fail with SQLSTATE 23505 on events_pkey, never
--     a silent overwrite;
--   - the idempotency row (when given) is inserted first, in the same transaction, so a
--     repeated key fails on idempotency_keys_pkey and stores nothing;
--   - listeners are woken on channel catan_events with '<game id as 16 hex digits>:<new
--     version>' after the commit, by catan_notify() or catan_notify_all() (below).
--
-- The games row is NOT touched by an ordinary append: updating it on every move would
-- serialise appends on one row, write a new row version (and WAL) each time and bloat the
-- table. games.updated_at and games.status are refreshed only when an append writes a
-- snapshot or changes the status; the exact last activity is max(events.created_at).
-- For the same reason events and idempotency_keys carry no foreign key to games (a foreign
-- key check locks the games row on every insert): catan_append() checks instead that the
-- game exists and that event v is in the log before inserting v+1, so no gap can be made.
--
-- Columns are ordered widest first so rows carry no alignment padding.
--
-- Waking listeners: from a transaction of its own, just after the append commits, never
-- inside the append.
--
-- Why: a transaction that has called NOTIFY takes a database-wide lock at commit and holds
-- it until its commit record is flushed, so notifying appends commit one at a time and
-- lose group commit. Measured with `make bench-store` (16 writers, fsync on, 2 CPUs): 717
-- appends/s with pg_notify() inside catan_append(), 12,093 without it.
--
-- By default db/store.c sends the append and then `SELECT catan_notify(game, version)` in
-- one libpq pipeline: still one round trip, but two transactions. The first commits the
-- events (durably, its flush grouped with other appends' flushes); the second
-- notifies with synchronous_commit off, so it holds the lock only for a moment. The event
-- rows are durable before anyone is woken, and a wake-up is only a hint (listeners re-read
-- by seq, and re-read everything after reconnecting), so the wake-up itself need not be
-- durable: it can only be lost with a server crash, which drops every listener anyway.
--
-- The notify transaction still costs about what the append does: with a wake-up per append
-- the appends of 16 writers ran at 44-55% of pgbench's rate of plain inserts, against
-- 67-83% when the process attaches a notifier (db/notifier.c): one thread that sends the
-- wake-ups of all its stores, many per transaction, with catan_notify_all().

CREATE TABLE games (
	id bigint PRIMARY KEY CHECK (id > 0),
	seed bigint NOT NULL, -- secret: keys the game's random draws
	created_at timestamptz NOT NULL DEFAULT now(),
	updated_at timestamptz NOT NULL DEFAULT now(),
	status smallint NOT NULL,
	seats smallint NOT NULL CHECK (seats BETWEEN 1 AND 8),
	admin_token_hash bytea NOT NULL CHECK (octet_length(admin_token_hash) = 32),
	options jsonb NOT NULL
);

CREATE TABLE seats (
	game_id bigint NOT NULL REFERENCES games (id),
	seat smallint NOT NULL CHECK (seat BETWEEN 0 AND 7),
	bot boolean NOT NULL,
	name text,
	token_hash bytea CHECK (octet_length(token_hash) = 32), -- NULL for a bot seat
	CONSTRAINT seats_pkey PRIMARY KEY (game_id, seat),
	CONSTRAINT seats_token_hash_key UNIQUE (token_hash)
);

CREATE TABLE events (
	game_id bigint NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	seq integer NOT NULL CHECK (seq > 0),
	type smallint NOT NULL,
	actor smallint NOT NULL, -- the seat whose move caused it, -1 for none
	origin smallint NOT NULL, -- 0 a player's move, 1 a timeout, 2 a bot
	payload jsonb NOT NULL,
	CONSTRAINT events_pkey PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency_keys (
	game_id bigint NOT NULL,
	created_at timestamptz NOT NULL DEFAULT now(),
	status smallint NOT NULL, -- the HTTP status of the stored response
	key text NOT NULL,
	request_hash bytea NOT NULL CHECK (octet_length(request_hash) = 32),
	response text NOT NULL,
	CONSTRAINT idempotency_keys_pkey PRIMARY KEY (game_id, key)
);

-- The latest snapshot of each game only. format_version is the engine's state format: a
-- reader with another format (or another state size) ignores the row and replays the log.
CREATE TABLE snapshots (
	game_id bigint PRIMARY KEY REFERENCES games (id),
	created_at timestamptz NOT NULL DEFAULT now(),
	seq integer NOT NULL CHECK (seq > 0),
	format_version integer NOT NULL,
	state bytea NOT NULL
);

-- Append events p_version+1 .. p_version+n to game p_game, which must be at p_version.
-- Optional parts are NULL when absent: p_status (the new status), the snapshot (the state
-- after the new events), the idempotency record. Returns the new version.
-- Errors: P0002 no such game; CT409 the game exists but p_version is not in its log (a
-- stale or invented version: the caller reloads); 23505 on events_pkey (v+1 taken) or on
-- idempotency_keys_pkey (the key was used); 22023 malformed arrays.
CREATE FUNCTION catan_append(
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
		VALUES (p_game, v, p_types[1], p_actors[1], p_origins[1], p_payloads[1]::jsonb);
	ELSE
		INSERT INTO events (game_id, seq, type, actor, origin, payload)
		SELECT p_game, p_version + i, p_types[i], p_actors[i], p_origins[i], p_payloads[i]::jsonb
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

-- Create game p_game with its seats and its first events, in one transaction. Seat i
-- (0-based) has p_names[i+1], p_bots[i+1] and the 32 bytes of p_token_hashes at 32*i, or
-- no token when p_bots[i+1] (bot seats are not addressed by a token). Returns the version.
-- Errors: 23505 on games_pkey (the random id is taken: the caller draws another).
CREATE FUNCTION catan_create_game(
	p_game bigint, p_seed bigint, p_status smallint, p_admin_token_hash bytea, p_options text,
	p_names text[], p_bots boolean[], p_token_hashes bytea,
	p_types smallint[], p_actors smallint[], p_origins smallint[], p_payloads text[],
	p_snapshot_format integer, p_snapshot bytea)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	n integer := coalesce(cardinality(p_bots), 0);
BEGIN
	IF cardinality(p_names) IS DISTINCT FROM n OR octet_length(p_token_hashes) IS DISTINCT FROM 32 * n THEN
		RAISE EXCEPTION 'catan_create_game: % seats, % names, % token bytes',
			n, cardinality(p_names), octet_length(p_token_hashes) USING ERRCODE = '22023';
	END IF;
	INSERT INTO games (id, seed, status, seats, admin_token_hash, options)
	VALUES (p_game, p_seed, p_status, n, p_admin_token_hash, p_options::jsonb);
	INSERT INTO seats (game_id, seat, bot, name, token_hash)
	SELECT p_game, i - 1, p_bots[i], p_names[i],
		CASE WHEN p_bots[i] THEN NULL ELSE substring(p_token_hashes FROM 32 * (i - 1) + 1 FOR 32) END
	FROM generate_series(1, n) AS i;
	RETURN catan_append(p_game, 0, p_types, p_actors, p_origins, p_payloads, NULL,
		p_snapshot_format, p_snapshot, NULL, NULL, NULL, NULL);
END
$$;

-- Notify channel catan_events with '<game id as 16 hex digits>:<version>' when the game has
-- that version (an append that failed does not wake anyone). Returns whether it notified.
CREATE FUNCTION catan_notify(p_game bigint, p_version integer)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM FROM events WHERE game_id = p_game AND seq = p_version;
	IF NOT FOUND THEN
		RETURN false;
	END IF;
	PERFORM set_config('synchronous_commit', 'off', true); -- for this transaction only
	PERFORM pg_notify('catan_events', lpad(to_hex(p_game), 16, '0') || ':' || p_version);
	RETURN true;
END
$$;

-- Send every note ('<game id as 16 hex digits>:<version>') of p_notes on catan_events, in
-- one transaction. Returns how many.
CREATE FUNCTION catan_notify_all(p_notes text[])
RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM set_config('synchronous_commit', 'off', true);
	PERFORM pg_notify('catan_events', note) FROM unnest(p_notes) AS note;
	RETURN coalesce(cardinality(p_notes), 0);
END
$$;
