-- 0017_offer_wait: a bot's trade offer waits for the people it was made to.
--
-- When a bot's offer goes to seats the server does not play, the game's timer is the bot's
-- next move, due when the game's offer_wait_s has passed (game/play.c), instead of at once.
-- The people's answers are appends of their own, each of which sets the game's timer
-- again; they must not prolong the wait (a seat toggling its answer could otherwise hold
-- the bot's turn for ever). So catan_set_timer() takes a fourth kind, 3: a bot's move that
-- keeps the due time of the game's bot timer when that is sooner than p_due_ms from now
-- (the wait goes on), and is otherwise due in p_due_ms (a wait begins). It is stored as a
-- bot timer (kind 2) at the new version, so workers, claims and the stale-version check
-- see nothing new. The other kinds behave as in 0002_async.sql.
CREATE OR REPLACE FUNCTION catan_set_timer(p_game bigint, p_version integer, p_kind smallint, p_due_ms bigint)
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
	VALUES (p_game, now() + make_interval(secs => p_due_ms / 1000.0), p_version,
		CASE WHEN p_kind = 3 THEN 2::smallint ELSE p_kind END)
	ON CONFLICT (game_id) DO UPDATE
	SET due_at = CASE WHEN p_kind = 3 AND t.kind = 2 THEN least(t.due_at, excluded.due_at) ELSE excluded.due_at END,
		version = excluded.version, kind = excluded.kind, attempts = 0;
	RETURN true;
END
$$;
