-- 0029_substitutes: a seat whose player left, held by the bot until a substitute takes it
-- (issue 28, point 2).
--
-- A seat "needs a substitute" (seats.needs_substitute) once its player left it: released it
-- (POST /v1/games/{id}/seats/{seat}/release, origin 0) or timed out
-- options.substitute_after_timeouts decisions in a row (the deadline worker, origin 1). The
-- seat is then a bot seat (bot, not away), as a resigned one, and a `seat_released` event is
-- appended in the same statement (catan_seat_release(), like catan_seat_resign() of 0025).
--
-- The game's admin or the seat's own holder invites a substitute (POST .../substitute):
-- seats.substitute_invite_hash is the SHA-256 of a fresh invite code (a new one replaces the
-- old, which stops). The lobby (GET /v1/games?status=needs_substitute) lists the public games
-- in play with a seat that needs one (index seats_needs_substitute), as it lists public
-- waiting games: public facts only, no code.
--
-- The substitute takes the seat with catan_seat_substitute(): under the seat's row lock it
-- checks the seat still needs one and the invite, then the seat gets the
-- substitute's token hash (the old token stops: the row keeps one hash), name and player (or
-- none), the bot lets go, the seat's webhooks and mail registrations go (they were the
-- leaver's), a `seat_substituted` event is appended with the timer, and every server drops
-- its cached tokens and names of the game (':t', as catan_replace_seat_token() of 0015).
-- Two substitutes at once: the second waits on the row lock and finds the seat taken.
--
-- catan_seat_timed_out() counts the seat's deadlines in a row (each expiry that decided for the
-- seat, whatever on_timeout made of it) since the seat's last event of its own (seats.
-- timeout_streak, timeout_streak_after).
--
-- Additive: a server of the previous version ignores the new columns and functions (it shows
-- a released seat as a bot seat).

ALTER TABLE seats
	ADD COLUMN needs_substitute boolean NOT NULL DEFAULT false,
	ADD COLUMN substitute_invite_hash bytea CHECK (octet_length(substitute_invite_hash) = 32),
	ADD COLUMN timeout_streak integer NOT NULL DEFAULT 0,
	ADD COLUMN timeout_streak_after integer NOT NULL DEFAULT 0;

CREATE INDEX seats_needs_substitute ON seats (game_id) WHERE needs_substitute;

-- outcome: 0 done (version: the game's new version), 1 no such seat, 2 a bot seat already
-- (created as one, resigned, or released).
CREATE FUNCTION catan_seat_release(p_game bigint, p_seat integer, p_version integer, p_origin smallint,
	p_type smallint, p_payload text, p_timer_kind smallint, p_due_ms bigint,
	OUT outcome integer, OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	s_bot boolean;
	s_away boolean;
BEGIN
	version := p_version;
	SELECT s.bot, s.away INTO s_bot, s_away FROM seats s
	WHERE s.game_id = p_game AND s.seat = p_seat FOR UPDATE;
	IF NOT FOUND THEN
		outcome := 1;
		RETURN;
	END IF;
	IF s_bot AND NOT s_away THEN
		outcome := 2;
		RETURN;
	END IF;
	UPDATE seats s SET bot = true, away = false, needs_substitute = true, substitute_invite_hash = NULL
	WHERE s.game_id = p_game AND s.seat = p_seat;
	version := catan_append(p_game, p_version, ARRAY[p_type], ARRAY[p_seat::smallint], ARRAY[p_origin],
		ARRAY[p_payload], NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	PERFORM catan_set_timer(p_game, version, p_timer_kind, p_due_ms);
	PERFORM catan_enqueue_deliveries(p_game, version, version);
	outcome := 0;
END
$$;

-- A new invite for the seat's substitute: outcome 0 done, 1 no such seat, 3 the seat needs no
-- substitute.
CREATE FUNCTION catan_substitute_invite(p_game bigint, p_seat integer, p_invite_hash bytea)
RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
	UPDATE seats s SET substitute_invite_hash = p_invite_hash
	WHERE s.game_id = p_game AND s.seat = p_seat AND s.needs_substitute;
	IF FOUND THEN
		RETURN 0;
	END IF;
	PERFORM FROM seats s WHERE s.game_id = p_game AND s.seat = p_seat;
	RETURN CASE WHEN FOUND THEN 3 ELSE 1 END;
END
$$;

-- The substitute takes the seat. p_player 0: none. outcome: 0 done, 1 no such seat, 2 wrong
-- invite, 3 the
-- seat needs no substitute (any more), 4 the player holds another seat of the game.
CREATE FUNCTION catan_seat_substitute(p_game bigint, p_seat integer, p_version integer, p_invite_hash bytea,
	p_token_hash bytea, p_player bigint, p_name text, p_type smallint, p_payload text, p_timer_kind smallint,
	p_due_ms bigint, OUT outcome integer, OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	s seats%ROWTYPE;
BEGIN
	version := p_version;
	SELECT * INTO s FROM seats x WHERE x.game_id = p_game AND x.seat = p_seat FOR UPDATE;
	IF NOT FOUND THEN
		outcome := 1;
		RETURN;
	END IF;
	IF NOT s.needs_substitute THEN
		outcome := 3;
		RETURN;
	END IF;
	IF s.substitute_invite_hash IS NULL OR s.substitute_invite_hash <> p_invite_hash THEN
		outcome := 2;
		RETURN;
	END IF;
	IF p_player <> 0 THEN
		PERFORM FROM seats x WHERE x.game_id = p_game AND x.seat <> p_seat AND x.player_id = p_player;
		IF FOUND THEN
			outcome := 4;
			RETURN;
		END IF;
	END IF;
	UPDATE seats x SET bot = false, away = false, needs_substitute = false, substitute_invite_hash = NULL,
		token_hash = p_token_hash, name = p_name, player_id = nullif(p_player, 0)
	WHERE x.game_id = p_game AND x.seat = p_seat;
	DELETE FROM webhooks w WHERE w.game_id = p_game AND w.seat = p_seat;
	version := catan_append(p_game, p_version, ARRAY[p_type], ARRAY[p_seat::smallint], ARRAY[0::smallint],
		ARRAY[p_payload], NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	PERFORM catan_set_timer(p_game, version, p_timer_kind, p_due_ms);
	PERFORM catan_enqueue_deliveries(p_game, version, version);
	PERFORM pg_notify('catan_events', lpad(to_hex(p_game), 16, '0') || ':t');
	outcome := 0;
END
$$;

-- The deadline decided for seat p_seat once more: the count of its deadlines in a row since
-- its last event of its own (origin 0 or 3: a move, a mail move, coming back, taking the seat),
-- kept in seats.timeout_streak and started again whenever such an event is newer than the one
-- the streak counted from (seats.timeout_streak_after). The move path writes nothing for it:
-- only the deadline worker calls this, once per seat and deadline.
CREATE FUNCTION catan_seat_timed_out(p_game bigint, p_seat integer)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	s seats%ROWTYPE;
	own integer;
BEGIN
	SELECT * INTO s FROM seats x WHERE x.game_id = p_game AND x.seat = p_seat FOR UPDATE;
	IF NOT FOUND THEN
		RETURN 0;
	END IF;
	SELECT coalesce(max(e.seq), 0) INTO own FROM events e
	WHERE e.game_id = p_game AND e.actor = p_seat AND e.origin IN (0, 3);
	IF own <> s.timeout_streak_after THEN
		s.timeout_streak := 0;
	END IF;
	UPDATE seats x SET timeout_streak = s.timeout_streak + 1, timeout_streak_after = own
	WHERE x.game_id = p_game AND x.seat = p_seat;
	RETURN s.timeout_streak + 1;
END
$$;
