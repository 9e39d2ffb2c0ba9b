-- 0002_async: what asynchronous play needs beside the log, as rows any server can work.
--
-- game_timers: the one thing each game waits for next that the server itself may have to
-- do: a bot seat's move (kind 2, due at once) or the default move when a decision's
-- deadline passes (kind 1, due turn_timeout_s after the last event). Written in the same
-- transaction as the events that made it (catan_set_timer() in the append's statement),
-- so a crash can neither lose nor duplicate it. Workers claim due rows with FOR UPDATE
-- SKIP LOCKED and push their due_at a few seconds ahead as a lease: a worker that dies
-- mid-work delays the move by that lease, no more. `version` is the game's version when
-- the timer was set: a timer whose game moved on is stale and is skipped.
--
-- webhooks: receivers registered for a game, by its admin (seat NULL: every public event)
-- or by a seat (that seat's view, plus your_turn notes). The secret signs deliveries
-- (Standard Webhooks), so it is kept as is: whoever reads this table could sign; it is
-- shown to the registrant once.
--
-- webhook_outbox: one row per (webhook, append): the events first_seq..last_seq still to
-- deliver from next_seq on. Rows are written by the appending statement itself, in the
-- appending transaction (the transactional outbox), so every committed event reaches every
-- receiver registered at that time, at least once, even across crashes. Delivery workers
-- claim due rows with SKIP LOCKED and a lease, record each attempt in webhook_deliveries,
-- move next_seq forward as events are acknowledged, and back off exponentially on failure.

CREATE TABLE game_timers (
	game_id bigint PRIMARY KEY,
	due_at timestamptz NOT NULL,
	version integer NOT NULL,
	kind smallint NOT NULL CHECK (kind IN (1, 2)),
	attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX game_timers_due ON game_timers (due_at);

CREATE TABLE webhooks (
	id bigint PRIMARY KEY CHECK (id > 0),
	game_id bigint NOT NULL REFERENCES games (id),
	created_at timestamptz NOT NULL DEFAULT now(),
	seat smallint CHECK (seat BETWEEN 0 AND 7), -- NULL: registered with the admin token
	your_turn_only boolean NOT NULL DEFAULT false,
	secret bytea NOT NULL CHECK (octet_length(secret) = 32),
	url text NOT NULL CHECK (length(url) <= 2048)
);
CREATE INDEX webhooks_game ON webhooks (game_id);

CREATE TABLE webhook_outbox (
	id bigserial PRIMARY KEY,
	webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
	game_id bigint NOT NULL,
	due_at timestamptz NOT NULL DEFAULT now(),
	created_at timestamptz NOT NULL DEFAULT now(),
	first_seq integer NOT NULL,
	last_seq integer NOT NULL,
	next_seq integer NOT NULL,
	attempts integer NOT NULL DEFAULT 0
);
CREATE INDEX webhook_outbox_due ON webhook_outbox (due_at);
CREATE INDEX webhook_outbox_webhook ON webhook_outbox (webhook_id);

CREATE TABLE webhook_deliveries (
	webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
	at timestamptz NOT NULL DEFAULT now(),
	outbox_id bigint NOT NULL,
	seq integer NOT NULL, -- the event delivered (or the version of a your_turn note)
	attempt integer NOT NULL,
	status integer, -- the receiver's HTTP status; NULL when there was no answer
	duration_ms integer NOT NULL,
	kind text NOT NULL, -- 'event' or 'your_turn'
	error text
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries (webhook_id, at);

-- Appends write the outbox rows of the game's webhooks in their own statement: the events-
-- only statements of db/store.c with a data-modifying WITH, and the statement that calls
-- catan_append() by also calling this function. (A trigger on events would cover every
-- insert, but measured 15-20% slower appends in make bench-http.)
CREATE FUNCTION catan_enqueue_deliveries(p_game bigint, p_first integer, p_last integer)
RETURNS integer
LANGUAGE sql AS $$
	WITH o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)
		SELECT id, p_game, p_first, p_last, p_first FROM webhooks WHERE game_id = p_game
		RETURNING 1)
	SELECT count(*)::integer FROM o
$$;

-- Set what game p_game (now at p_version) waits for from the server: kind 0 none (the
-- timer is removed), 1 a deadline, 2 a bot move; due p_due_ms milliseconds from now.
CREATE FUNCTION catan_set_timer(p_game bigint, p_version integer, p_kind smallint, p_due_ms bigint)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
	IF p_kind IS NULL THEN
		RETURN false;
	END IF;
	IF p_kind = 0 THEN
		DELETE FROM game_timers WHERE game_id = p_game;
		RETURN true;
	END IF;
	INSERT INTO game_timers AS t (game_id, due_at, version, kind)
	VALUES (p_game, now() + make_interval(secs => p_due_ms / 1000.0), p_version, p_kind)
	ON CONFLICT (game_id) DO UPDATE
	SET due_at = excluded.due_at, version = excluded.version, kind = excluded.kind, attempts = 0;
	RETURN true;
END
$$;
