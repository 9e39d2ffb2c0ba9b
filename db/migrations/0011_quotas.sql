-- 0011_quotas: budgets counted in the database (issue 20), so that they hold across every
-- server of one database, and the fan-out of one event bounded.
--
-- quotas: one leaky bucket per (kind, key). `kind` names the budget ('create', 'player',
-- 'import_bytes', 'away', ...: api/quotas.c), `key` is the SHA-256 of what it counts by
-- (a client's address key, a game's seat: game/quota.h), so no address is stored. `level`
-- is what was spent as of `updated_at`; it drains at the budget's rate (given with each
-- call: the setting of the server asking), and `empty_at` is when it will have drained to
-- nothing, after which the row means nothing and may be deleted.
--
-- catan_quota() is the one operation: p_mode 0 peeks (would p_amount fit now? no row is
-- written or locked), 1 takes p_amount only if it fits (atomic: the row is locked), 2
-- charges p_amount whatever the level (after the work was done: the client pays for what
-- it got, and waits longer for the next). A level may exceed the burst after charges of
-- requests that passed their peek at the same time: the race the callers accept, bounded
-- by the requests one client has in flight; each is paid back by waiting. Retry-After
-- (retry_after_s) is the time until p_amount fits; a refused call writes nothing.
--
-- Housekeeping: every charge deletes a few rows that drained over a minute ago (SKIP
-- LOCKED, so two servers never wait for each other), which keeps the table about as large
-- as the number of clients active in the longest window.
CREATE TABLE quotas (
	kind text NOT NULL CHECK (length(kind) BETWEEN 1 AND 32),
	key bytea NOT NULL CHECK (octet_length(key) = 32),
	level double precision NOT NULL CHECK (level >= 0),
	updated_at timestamptz NOT NULL,
	empty_at timestamptz NOT NULL,
	PRIMARY KEY (kind, key)
);
CREATE INDEX quotas_empty ON quotas (empty_at);

CREATE FUNCTION catan_quota(p_kind text, p_key bytea, p_amount double precision, p_rate double precision,
	p_burst double precision, p_mode integer,
	OUT allowed boolean, OUT retry_after_s integer, OUT remaining double precision)
LANGUAGE plpgsql AS $$
DECLARE
	now_at timestamptz := clock_timestamp();
	spent double precision := 0;
	after double precision;
BEGIN
	IF p_rate <= 0 THEN -- no budget: everything fits, nothing is counted
		allowed := true;
		retry_after_s := 0;
		remaining := p_burst;
		RETURN;
	END IF;
	IF p_mode = 0 THEN
		SELECT greatest(0, q.level - extract(epoch FROM now_at - q.updated_at) * p_rate) INTO spent
		FROM quotas q WHERE q.kind = p_kind AND q.key = p_key;
	ELSE
		INSERT INTO quotas AS q (kind, key, level, updated_at, empty_at) VALUES (p_kind, p_key, 0, now_at, now_at)
		ON CONFLICT (kind, key) DO NOTHING;
		SELECT greatest(0, q.level - extract(epoch FROM now_at - q.updated_at) * p_rate) INTO spent
		FROM quotas q WHERE q.kind = p_kind AND q.key = p_key FOR UPDATE;
	END IF;
	spent := coalesce(spent, 0);
	-- A hair of slack, so that a level drained to the last microsecond counts as room.
	allowed := spent + p_amount <= p_burst + 1e-9;
	retry_after_s := CASE WHEN allowed THEN 0
		ELSE greatest(1, ceil((spent + p_amount - p_burst) / p_rate))::integer END;
	after := spent;
	IF p_mode = 2 OR (p_mode = 1 AND allowed) THEN
		after := spent + p_amount;
		UPDATE quotas q SET level = after, updated_at = now_at,
			empty_at = now_at + make_interval(secs => after / p_rate)
		WHERE q.kind = p_kind AND q.key = p_key;
		DELETE FROM quotas q WHERE (q.kind, q.key) IN (SELECT o.kind, o.key FROM quotas o
			WHERE o.empty_at < now_at - interval '1 minute' LIMIT 8 FOR UPDATE SKIP LOCKED);
	END IF;
	remaining := greatest(0, p_burst - after);
END
$$;

-- The fan-out of one event: catan_receivers() (0006_player_webhooks.sql) gives at most
-- catan.webhook_receivers_max receivers (the server sets it on each of its connections:
-- WEBHOOK_RECEIVERS_MAX; 20 when unset, 0 for no bound), the oldest registrations first, so that one
-- game's event makes a bounded number of outbound requests however many webhooks its
-- seated players brought along, and a late flood of registrations never displaces the
-- receivers already there. Every statement that enqueues deliveries reads the receivers
-- through it (the appends, creation, joins, holidays, messages), so the bound holds for
-- all of them. Still one SELECT, so it is inlined as before.
CREATE OR REPLACE FUNCTION catan_receivers(p_game bigint)
RETURNS TABLE (webhook_id bigint)
LANGUAGE sql STABLE AS $$
	SELECT r.id FROM (
		SELECT w.id, w.created_at FROM webhooks w WHERE w.game_id = p_game AND w.disabled_at IS NULL
		UNION ALL
		SELECT w.id, w.created_at FROM seats s JOIN webhooks w ON w.player_id = s.player_id
		WHERE s.game_id = p_game AND s.player_id IS NOT NULL AND w.disabled_at IS NULL
	) r
	ORDER BY r.created_at, r.id
	LIMIT nullif(coalesce(nullif(current_setting('catan.webhook_receivers_max', true), '')::integer, 20), 0)
$$;
