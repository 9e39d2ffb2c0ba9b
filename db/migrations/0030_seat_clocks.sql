-- 0030_seat_clocks: correspondence clocks (issue 28, item 1): a time bank per seat with an
-- increment, and quiet hours per seat in the seat's time zone.
--
-- A seat's clock is columns of its seats row, so it is a row like the game's timer
-- (0002_async.sql): it survives restarts and is shared by every server.
--
--   bank_ms     what is left of the seat's bank (options.time_bank_s), in milliseconds;
--               NULL: the whole bank, never touched yet (every seat of a new game, and every
--               seat of a game without a bank). Written only by catan_set_seat_bank(),
--               called in the statement of the append whose move spent it or ended the
--               seat's turn (db/store_events.c): the move and its clock are one
--               transaction, so a move is charged once, and an append that loses its race
--               (the version taken) writes no bank either.
--   quiet_zone, quiet_from, quiet_to
--               the seat's quiet hours: a tz database name (checked against the server's
--               zone files before it is stored, base/zone.h) and minutes after local
--               midnight; all three NULL: none. Written by PUT/DELETE
--               .../seats/{seat}/quiet_hours (db/store_clocks.c), which also moves the
--               game's deadline when it is waiting for that seat.
--
-- The game's deadline timer stays one row per game (game_timers): the server computes its
-- due time from the per-move time, the waiting seats' banks and quiet hours (game/play.c).
-- A timer still names the version it was set at, so a deadline that a move overtook is
-- stale and never fires, and a claim's lease keeps two servers from firing it twice.

ALTER TABLE seats ADD COLUMN bank_ms bigint CHECK (bank_ms >= 0),
	ADD COLUMN quiet_zone text,
	ADD COLUMN quiet_from smallint CHECK (quiet_from BETWEEN 0 AND 1439),
	ADD COLUMN quiet_to smallint CHECK (quiet_to BETWEEN 0 AND 1439),
	ADD CONSTRAINT seats_quiet_hours_whole
		CHECK ((quiet_zone IS NULL) = (quiet_from IS NULL) AND (quiet_from IS NULL) = (quiet_to IS NULL));

-- Seat p_seat of game p_game has p_bank_ms left in its bank (NULL seat: no change).
CREATE FUNCTION catan_set_seat_bank(p_game bigint, p_seat smallint, p_bank_ms bigint)
RETURNS boolean
LANGUAGE sql AS $$
	WITH u AS (UPDATE seats SET bank_ms = greatest(p_bank_ms, 0)
		WHERE p_seat IS NOT NULL AND game_id = p_game AND seat = p_seat RETURNING 1)
	SELECT count(*) > 0 FROM u
$$;

-- A game that waited for players starts here (0003_players.sql): its first deadline is a
-- seat's whole per-move time and bank, as game/play.c sets it for a game created started
-- (no seat has quiet hours yet: they are set on a started game). The rest is as it was.
CREATE OR REPLACE FUNCTION catan_start_if_full(p_game bigint)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	g games%ROWTYPE;
	v integer;
	timeout_ms bigint;
	any_bot boolean;
	first_bot boolean;
BEGIN
	PERFORM FROM seats WHERE game_id = p_game AND open;
	IF FOUND THEN
		RETURN 0;
	END IF;
	SELECT * INTO g FROM games WHERE id = p_game;
	UPDATE games SET status = g.start_status, updated_at = now() WHERE id = p_game;
	v := catan_append(p_game, 0, g.start_types, g.start_actors, g.start_origins, g.start_payloads,
		NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	timeout_ms := coalesce((g.options->>'turn_timeout_s')::bigint, 0) * 1000;
	IF timeout_ms > 0 THEN
		timeout_ms := timeout_ms + coalesce((g.options->>'time_bank_s')::bigint, 0) * 1000;
	END IF;
	SELECT bool_or(bot), bool_or(bot AND seat = g.start_seat) INTO any_bot, first_bot
	FROM seats WHERE game_id = p_game;
	IF any_bot OR timeout_ms > 0 THEN
		IF first_bot THEN
			PERFORM catan_set_timer(p_game, v, 2::smallint, 0);
		ELSIF timeout_ms > 0 THEN
			PERFORM catan_set_timer(p_game, v, 1::smallint, timeout_ms);
		END IF;
	END IF;
	UPDATE games SET start_types = NULL, start_actors = NULL, start_origins = NULL, start_payloads = NULL
	WHERE id = p_game;
	RETURN v;
END
$$;
