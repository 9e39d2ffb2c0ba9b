-- 0034_quiet_hours_import_and_reliability (issue 28): an imported game keeps its seats'
-- quiet hours, and neither quiet hours nor holidays move a player's reliability.
--
-- 1. Import. A seat's quiet hours are columns of its seats row (0030_seat_clocks.sql), written beside
-- the quiet_hours_set / quiet_hours_cleared event of the log (0032_quiet_hours_events.sql).
-- An imported log carries those events, so the imported game's seats must end with the
-- hours of each seat's last one: catan_restore_quiet_hours() sets them in the statement that
-- creates the game (db/store_events.c, after catan_create_game() has made the seats and
-- before catan_set_timer(), whose deadline the server computed with them), so the game, its
-- seats' hours and its timer are one transaction.
--
-- p_zones[n], p_from[n], p_to[n]: seat n-1's zone and minutes after local midnight; a NULL
-- zone (or NULL arrays): the seat keeps none. Returns how many seats got hours.
CREATE FUNCTION catan_restore_quiet_hours(p_game bigint, p_zones text[], p_from smallint[], p_to smallint[])
RETURNS integer
LANGUAGE sql AS $$
	WITH u AS (UPDATE seats s SET quiet_zone = q.zone, quiet_from = q.from_min, quiet_to = q.to_min
		FROM unnest(p_zones, p_from, p_to) WITH ORDINALITY AS q (zone, from_min, to_min, n)
		WHERE s.game_id = p_game AND s.seat = q.n - 1 AND q.zone IS NOT NULL RETURNING 1)
	SELECT count(*)::integer FROM u
$$;

-- 2. Reliability. catan_player_reliability() (0025_ratings.sql) counts the seat's decisions,
-- runs of consecutive events the seat caused with one origin, made by the player (origin 0)
-- or by its deadline (origin 1). It now reads only the events of the rules: an event that
-- changes who plays a seat (seat_away 24, seat_back 25, resigned 26, seat_released 27,
-- seat_substituted 28), the seat's quiet hours (quiet_hours_set 29, quiet_hours_cleared
-- 30; engine/event.h, event_outside_rules()) or a provably fair game's seeds
-- (player_seed_set 31, seeds_fixed 32, server_seed_revealed 33; event_is_fairness()) is no
-- turn, in time or timed out, and does not cut another seat's run in two. Before, each such event was a decision made by its seat,
-- and one made in the middle of another seat's turn counted that turn twice.
--
-- Additive: a server of the previous version never calls catan_restore_quiet_hours(), and
-- reads the same columns from catan_player_reliability().
CREATE OR REPLACE FUNCTION catan_player_reliability(p_player bigint, OUT made integer, OUT timed_out integer)
LANGUAGE sql STABLE AS $$
	WITH recent AS (
		SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id
		WHERE s.player_id = p_player AND g.status <> 3
		ORDER BY g.created_at DESC, g.id DESC LIMIT 20),
	runs AS (
		SELECT e.origin, e.actor = r.seat AS mine,
			lag(e.actor) OVER w IS DISTINCT FROM e.actor OR lag(e.origin) OVER w IS DISTINCT FROM e.origin AS starts
		FROM recent r JOIN events e ON e.game_id = r.game_id
		WHERE e.type <> ALL (ARRAY[24, 25, 26, 27, 28, 29, 30, 31, 32, 33]::smallint[])
		WINDOW w AS (PARTITION BY e.game_id ORDER BY e.seq))
	SELECT count(*) FILTER (WHERE mine AND starts AND origin = 0)::integer,
		count(*) FILTER (WHERE mine AND starts AND origin = 1)::integer
	FROM runs
$$;
