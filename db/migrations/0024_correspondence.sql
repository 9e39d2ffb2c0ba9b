-- 0024_correspondence: waiting games nobody filled end by themselves (issue 28, item 5), and holidays spend a yearly allowance (item 1).
--
-- A game created with open seats waits (status 3) until its last seat is taken. One that is
-- still waiting LOBBY_EXPIRE_S (default 14 days) after its creation expires: status 4, and
-- expired_at says when. The period counts from the creation, whether or not some seats were
-- taken meanwhile: a table that cannot fill in that time is as dead as one nobody joined,
-- and a count from the creation is what the game's view (created_at) already shows.
--
-- Status 4 is terminal: only a waiting game becomes expired (catan_expire_waiting below, the
-- one writer), and nothing makes an expired game anything else. So every statement that
-- locks the game's row (catan_join, catan_change_seat_gated) and finds a status that is not
-- 3 keeps answering as it did ("started"); the server's own statement (db/store_lobby.c)
-- tells an expired game apart by reading status 4 after the call, in the same statement. A
-- server of the previous version sees an expired game as not waiting: it answers joins
-- "started"/"full" and cannot load the game (it has no events), which is all it could do.
--
-- The sweep is one statement: any server runs it every few seconds (game/lobby_expiry.c);
-- FOR UPDATE SKIP LOCKED leaves a game whose row a join holds to the next sweep, so a join
-- and the expiry never both succeed, and two servers' sweeps never expire a game twice
-- (the UPDATE is conditional on status 3 under the row lock). The expiry is the event that
-- says so: a waiting game has no log (its start events are kept aside, 0003_players.sql),
-- so the change is its row's, shown by its view (status "expired", expired_at) and logged
-- by the server that made it.

ALTER TABLE games ADD COLUMN expired_at timestamptz;

CREATE INDEX games_waiting_created ON games (created_at, id) WHERE status = 3;

-- Expire at most p_limit games waiting since more than p_age_s seconds, oldest first.
-- Returns their ids.
CREATE FUNCTION catan_expire_waiting(p_age_s bigint, p_limit integer)
RETURNS SETOF bigint
LANGUAGE sql AS $$
	WITH due AS (
		SELECT id FROM games
		WHERE status = 3 AND created_at < now() - make_interval(secs => p_age_s)
		ORDER BY created_at, id
		LIMIT p_limit
		FOR UPDATE SKIP LOCKED)
	UPDATE games g SET status = 4, expired_at = now(), updated_at = now(),
		start_types = NULL, start_actors = NULL, start_origins = NULL, start_payloads = NULL
	FROM due WHERE g.id = due.id AND g.status = 3
	RETURNING g.id
$$;

-- catan_join() and catan_change_seat_gated() as they are, but outcome 8 for an expired game
-- (their own answer to it is 3, "started"). The status is read again after the call, in a
-- statement of its own: the call holds the game's row lock until the transaction ends, and
-- this statement's snapshot is newer than the lock, so it sees what the call judged.
CREATE FUNCTION catan_join_unexpired(p_game bigint, p_invite_hash bytea, p_name text, p_token_hash bytea,
	p_player bigint, OUT outcome integer, OUT seat integer, OUT version integer)
LANGUAGE plpgsql AS $$
BEGIN
	SELECT j.outcome, j.seat, j.version INTO outcome, seat, version
	FROM catan_join(p_game, p_invite_hash, p_name, p_token_hash, p_player) j;
	IF outcome = 3 THEN
		PERFORM FROM games g WHERE g.id = p_game AND g.status = 4;
		IF FOUND THEN
			outcome := 8;
		END IF;
	END IF;
END
$$;

CREATE FUNCTION catan_change_seat_unexpired(p_game bigint, p_admin_token_hash bytea, p_seat integer,
	p_action integer, p_name text, p_bots_only boolean, OUT outcome integer, OUT seat integer,
	OUT version integer)
LANGUAGE plpgsql AS $$
BEGIN
	SELECT c.outcome, c.seat, c.version INTO outcome, seat, version
	FROM catan_change_seat_gated(p_game, p_admin_token_hash, p_seat, p_action, p_name, p_bots_only) c;
	IF outcome = 3 THEN
		PERFORM FROM games g WHERE g.id = p_game AND g.status = 4;
		IF FOUND THEN
			outcome := 8;
		END IF;
	END IF;
END
$$;

-- Holidays spend a yearly allowance (issue 28, item 1): a seat may be away at most the
-- game's options.holiday_allowance_s (absent: 10 days) in any 365 days, counted from its
-- seat_away and seat_back events (types 24 and 25 of engine/event.h), an away still going
-- on counted up to now. Going away with the allowance spent is refused (outcome 4); a
-- holiday that began within it runs on until the seat comes back (the seat chose it when it
-- had time left: cutting it short would hand the seat back to nobody), and what it runs
-- over is spent, so the next one is refused. Coming back is never refused.
CREATE FUNCTION catan_holiday_used_s(p_game bigint, p_seat integer)
RETURNS bigint
LANGUAGE sql STABLE AS $$
	WITH toggles AS (
		SELECT e.type, e.created_at,
			lead(e.created_at) OVER (ORDER BY e.seq) AS next_at
		FROM events e
		WHERE e.game_id = p_game AND e.actor = p_seat AND e.type IN (24, 25))
	SELECT coalesce(sum(extract(epoch FROM
		coalesce(next_at, now()) - greatest(created_at, now() - interval '365 days'))), 0)::bigint
	FROM toggles
	WHERE type = 24 AND coalesce(next_at, now()) > now() - interval '365 days'
$$;

-- catan_seat_away() with the allowance: outcome 4 when the seat would go away with its
-- allowance spent. The game's row is read, the seat's locked by catan_seat_away() itself;
-- two requests of one seat at once are settled there (the second finds it away already).
CREATE FUNCTION catan_seat_away_allowed(p_game bigint, p_seat integer, p_away boolean, p_version integer,
	p_type smallint, p_payload text, p_timer_kind smallint, p_due_ms bigint,
	OUT outcome integer, OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	allowance bigint;
BEGIN
	IF p_away THEN
		SELECT coalesce((g.options->>'holiday_allowance_s')::bigint, 864000) INTO allowance
		FROM games g WHERE g.id = p_game;
		IF FOUND AND catan_holiday_used_s(p_game, p_seat) >= allowance THEN
			PERFORM FROM seats s WHERE s.game_id = p_game AND s.seat = p_seat AND NOT s.away AND NOT s.bot;
			IF FOUND THEN
				outcome := 4;
				version := p_version;
				RETURN;
			END IF;
		END IF;
	END IF;
	SELECT a.outcome, a.version INTO outcome, version
	FROM catan_seat_away(p_game, p_seat, p_away, p_version, p_type, p_payload, p_timer_kind, p_due_ms) a;
END
$$;
