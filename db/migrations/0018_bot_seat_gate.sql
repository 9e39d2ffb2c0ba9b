-- 0018_bot_seat_gate: no game of bots only by way of the seats.
--
-- Creation and import take a game whose every seat is a bot only from a server that admits
-- such games (its creation key, or ALL_BOT_GAMES=1: api/handlers_create.c): a game nobody
-- plays is CPU for nobody. The admin of a waiting game could still make one by giving
-- every open seat to a bot (POST /v1/games/{id}/seats/{seat}/bot), the last gift starting
-- it. catan_change_seat_gated() is catan_change_seat() (0012_registrations.sql) with that
-- gate: when p_bots_only is false, making seat p_seat a bot is refused (outcome 7) if no
-- other seat would be left that is not a bot (an open seat counts: a person may still
-- join it). The game row is locked first, so two gifts at once are judged one after the
-- other; the answers a stranger gets (no game, wrong token, started, finished) come before
-- the gate, as catan_change_seat() gives them.
CREATE FUNCTION catan_change_seat_gated(p_game bigint, p_admin_token_hash bytea, p_seat integer,
	p_action integer, p_name text, p_bots_only boolean, OUT outcome integer, OUT seat integer,
	OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	g_status smallint;
	g_admin bytea;
BEGIN
	IF p_action = 2 AND NOT p_bots_only THEN
		SELECT g.status, g.admin_token_hash INTO g_status, g_admin FROM games g WHERE g.id = p_game FOR UPDATE;
		IF FOUND AND g_admin = p_admin_token_hash AND g_status = 3
		   AND EXISTS (SELECT FROM seats s WHERE s.game_id = p_game AND s.seat = p_seat AND s.open)
		   AND NOT EXISTS (SELECT FROM seats s WHERE s.game_id = p_game AND s.seat <> p_seat AND NOT s.bot) THEN
			outcome := 7;
			seat := p_seat;
			version := 0;
			RETURN;
		END IF;
	END IF;
	SELECT c.outcome, c.seat, c.version INTO outcome, seat, version
	FROM catan_change_seat(p_game, p_admin_token_hash, p_seat, p_action, p_name) c;
END
$$;
