-- 0033_join_player_seed.sql - a player's seed given when joining a waiting game (issue 26,
-- docs/fairness.md).
--
-- A waiting game has no log until its last seat is taken, so the seed a joining player
-- gives (POST /v1/games/{id}/join {"player_seed": ...}) is kept on its seat until then:
-- seats.player_seed, 1..64 bytes of UTF-8 (api/inputs.c checks it; text cannot hold NUL).
-- The statement that starts the game (catan_start_if_full()) appends, after the kept start
-- events and in the same append, one player_seed_set event (type 31 of engine/event.h,
-- actor the seat, origin 0, payload as codec_payload_dump() writes it) for each seat that
-- is not a bot and kept a seed, in seat order, and forgets the kept seeds: from then on the
-- log alone says them, as it says the seeds set later with PUT .../player_seed.
--
-- catan_join() gains the seed as a sixth argument (an overload); the five-argument
-- catan_join() and catan_join_unexpired() keep working, joining with no seed.
--
-- Additive: a server of the previous version calls the five-argument functions, never sets
-- a seed, and its starts append no player_seed_set event (no seat kept one).
ALTER TABLE seats ADD COLUMN player_seed text CHECK (octet_length(player_seed) BETWEEN 1 AND 64);

-- catan_join() of 0012_registrations.sql, the seat taken keeping p_player_seed (NULL: none;
-- a seat taken again after the admin removed its player keeps the new joiner's, or none).
CREATE FUNCTION catan_join(p_game bigint, p_invite_hash bytea, p_name text, p_token_hash bytea,
	p_player bigint, p_player_seed text, OUT outcome integer, OUT seat integer, OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	g_status smallint;
	g_invite bytea;
BEGIN
	seat := -1;
	version := 0;
	SELECT g.status, g.invite_hash INTO g_status, g_invite FROM games g WHERE g.id = p_game FOR UPDATE;
	IF NOT FOUND THEN
		outcome := 1;
		RETURN;
	END IF;
	IF g_invite IS NULL OR g_invite <> p_invite_hash THEN
		outcome := 2;
		RETURN;
	END IF;
	IF g_status = 2 THEN
		outcome := 4;
		RETURN;
	END IF;
	IF g_status <> 3 THEN
		outcome := 3;
		RETURN;
	END IF;
	IF p_player IS NOT NULL THEN
		PERFORM FROM seats s WHERE s.game_id = p_game AND s.player_id = p_player;
		IF FOUND THEN
			outcome := 6;
			RETURN;
		END IF;
	END IF;
	SELECT s.seat INTO seat FROM seats s WHERE s.game_id = p_game AND s.open ORDER BY s.seat LIMIT 1;
	IF NOT FOUND THEN
		outcome := 5;
		seat := -1;
		RETURN;
	END IF;
	UPDATE seats s SET open = false, name = p_name, token_hash = p_token_hash, bot = false, player_id = p_player,
		player_seed = p_player_seed
	WHERE s.game_id = p_game AND s.seat = catan_join.seat;
	DELETE FROM webhooks w WHERE w.game_id = p_game AND w.seat = catan_join.seat;
	version := catan_start_if_full(p_game);
	outcome := 0;
END
$$;

CREATE OR REPLACE FUNCTION catan_join(p_game bigint, p_invite_hash bytea, p_name text, p_token_hash bytea,
	p_player bigint, OUT outcome integer, OUT seat integer, OUT version integer)
LANGUAGE sql AS $$
	SELECT j.outcome, j.seat, j.version FROM catan_join(p_game, p_invite_hash, p_name, p_token_hash, p_player,
		NULL::text) j
$$;

-- catan_join_unexpired() of 0024_correspondence.sql with the seed.
CREATE FUNCTION catan_join_unexpired(p_game bigint, p_invite_hash bytea, p_name text, p_token_hash bytea,
	p_player bigint, p_player_seed text, OUT outcome integer, OUT seat integer, OUT version integer)
LANGUAGE plpgsql AS $$
BEGIN
	SELECT j.outcome, j.seat, j.version INTO outcome, seat, version
	FROM catan_join(p_game, p_invite_hash, p_name, p_token_hash, p_player, p_player_seed) j;
	IF outcome = 3 THEN
		PERFORM FROM games g WHERE g.id = p_game AND g.status = 4;
		IF FOUND THEN
			outcome := 8;
		END IF;
	END IF;
END
$$;

-- catan_start_if_full() of 0030_seat_clocks.sql, the kept seeds appended after the start
-- events (so the timer it sets is at the version after them).
CREATE OR REPLACE FUNCTION catan_start_if_full(p_game bigint)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	g games%ROWTYPE;
	v integer;
	timeout_ms bigint;
	any_bot boolean;
	first_bot boolean;
	seed_types smallint[];
	seed_actors smallint[];
	seed_origins smallint[];
	seed_payloads text[];
BEGIN
	PERFORM FROM seats WHERE game_id = p_game AND open;
	IF FOUND THEN
		RETURN 0;
	END IF;
	SELECT * INTO g FROM games WHERE id = p_game;
	SELECT array_agg(31::smallint ORDER BY s.seat), array_agg(s.seat ORDER BY s.seat),
		array_agg(0::smallint ORDER BY s.seat),
		array_agg('{"seat":' || s.seat || ',"player_seed":' || to_json(s.player_seed)::text || '}'
			ORDER BY s.seat)
	INTO seed_types, seed_actors, seed_origins, seed_payloads
	FROM seats s WHERE s.game_id = p_game AND s.player_seed IS NOT NULL AND NOT s.bot;
	UPDATE games SET status = g.start_status, updated_at = now() WHERE id = p_game;
	v := catan_append(p_game, 0, g.start_types || seed_types, g.start_actors || seed_actors,
		g.start_origins || seed_origins, g.start_payloads || seed_payloads,
		NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	UPDATE seats SET player_seed = NULL WHERE game_id = p_game AND player_seed IS NOT NULL;
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
