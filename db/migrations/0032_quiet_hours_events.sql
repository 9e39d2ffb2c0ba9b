-- 0032_quiet_hours_events: a change of a seat's quiet hours is an event of the game's log
-- (issue 28): `quiet_hours_set` {seat, timezone, from, to} or `quiet_hours_cleared` {seat},
-- which the rules ignore. Before, PUT/DELETE .../seats/{seat}/quiet_hours changed only the
-- seat's columns (0030_seat_clocks.sql), so the game's version did not move and a
-- conditional GET with the version's tag could answer 304 with the old hours.
--
-- catan_set_quiet_hours() does it all in one transaction, at the version the server decided
-- on (catan_append() refuses another: CT409, the server decides again on the new one): the
-- seat's columns, the event (actor the seat, origin 0), the game's timer carried over to the
-- new version (a timer names the version it was set at, and one left at the old version
-- would be stale and never fire: a bot's timer keeps its due time; a deadline moves to
-- p_due_us when it is given, the deadline as the new hours make it), the webhooks' outbox,
-- and the notification of the append (the caller's, as for every append).
--
-- The wait that a seat's clock runs against still begins with the game's last event that is
-- not a quiet-hours event (db/store_clocks.c reads it): changing quiet hours never restarts
-- anyone's per-move time.
--
-- outcome: 0 done (version: the game's new version), 1 no such seat.
--
-- Additive: a server of the previous version still calls catan_set_quiet_hours' statement of
-- 0030 (no event) and cannot read a log with the new event types; roll servers forward
-- before anyone sets quiet hours.
CREATE FUNCTION catan_set_quiet_hours(p_game bigint, p_seat integer, p_version integer, p_type smallint,
	p_payload text, p_zone text, p_from smallint, p_to smallint, p_due_us bigint,
	OUT outcome integer, OUT version integer)
LANGUAGE plpgsql AS $$
BEGIN
	version := p_version;
	UPDATE seats s SET quiet_zone = p_zone, quiet_from = p_from, quiet_to = p_to
	WHERE s.game_id = p_game AND s.seat = p_seat;
	IF NOT FOUND THEN
		outcome := 1;
		RETURN;
	END IF;
	version := catan_append(p_game, p_version, ARRAY[p_type], ARRAY[p_seat::smallint], ARRAY[0::smallint],
		ARRAY[p_payload], NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	UPDATE game_timers t SET version = catan_set_quiet_hours.version,
		due_at = CASE WHEN t.kind = 1 AND p_due_us > 0
			THEN 'epoch'::timestamptz + make_interval(secs => p_due_us / 1000000.0)
			ELSE t.due_at END
	WHERE t.game_id = p_game AND t.version = p_version;
	PERFORM catan_enqueue_deliveries(p_game, version, version);
	outcome := 0;
END
$$;
