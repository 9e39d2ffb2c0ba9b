-- 0015_token_rotation: a link that leaked is replaced. A seat's token (POST
-- /v1/games/{id}/seats/{seat}/token) or a player's token (POST /v1/players/me/token) gets
-- a new hash in one statement, and the old token stops at once, on every server:
--
--   - the row holds one hash, so the old token is unknown to the database from the commit
--     on (find_token and player_by_token read the row);
--   - servers keep the seat-token lookups of a game with their cached state (game/play.c),
--     so the same transaction notifies catan_events with '<game id as 16 hex digits>:t'
--     for the game (a player's token: for every game the player sits in). A listener that
--     hears it drops that game's cached lookups and wakes the game's streams, which check
--     their token again (db/listener.c, api/notify.c); a listener that reconnects drops
--     every cached lookup, since it may have missed some. NOTIFY inside the transaction
--     (rather than after it, as appends do: 0001_event_store.sql) costs the commit lock
--     once per rotation, which is rare.
--
-- The server that served the rotation drops its own cached lookups before answering.

-- Seat p_seat of the started game p_game gets token hash p_hash: true, or false when the
-- seat has no token to replace (a bot's seat, no such seat or game). A seat on holiday
-- keeps its token (its player takes it back with it), so it may be replaced too.
CREATE FUNCTION catan_replace_seat_token(p_game bigint, p_seat integer, p_hash bytea)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	UPDATE seats SET token_hash = p_hash
	WHERE game_id = p_game AND seat = p_seat AND token_hash IS NOT NULL; -- a bot's seat has none
	IF NOT FOUND THEN
		RETURN false;
	END IF;
	PERFORM pg_notify('catan_events', lpad(to_hex(p_game), 16, '0') || ':t');
	RETURN true;
END
$$;

-- The player p_player whose token has hash p_old gets token hash p_new: true, or false when
-- the old hash is not the player's (any more: two rotations at once, one wins).
CREATE FUNCTION catan_replace_player_token(p_player bigint, p_old bytea, p_new bytea)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
	UPDATE players SET token_hash = p_new WHERE id = p_player AND token_hash = p_old;
	IF NOT FOUND THEN
		RETURN false;
	END IF;
	PERFORM pg_notify('catan_events', lpad(to_hex(s.game_id), 16, '0') || ':t')
	FROM seats s WHERE s.player_id = p_player;
	RETURN true;
END
$$;
