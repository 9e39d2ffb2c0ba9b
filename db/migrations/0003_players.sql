-- 0003_players: games that wait for players (open seats, invitations, the lobby).
--
-- A game created with open seats is a games row with status 3 (waiting) and its seats, but
-- no events: its version is 0 until it starts. What its start appends is decided when it
-- is created (the engine's start depends only on the options and the secret seed, never on
-- who sits where) and kept in start_* beside the row, so the statement that fills the last
-- seat (a join, or the admin turning the last open seat into a bot) appends those events in
-- its own transaction, with catan_append() at version 0, and sets the game's timer from
-- the seats as they are then. There is no moment at which a full game has not started,
-- and no server has to finish the job after a crash.
--
-- Joining is one statement (catan_join): the games row is locked (FOR UPDATE), so two
-- joins of the same game run one after the other; the second sees the seat taken and, when
-- it was the last, the game started. Nothing is checked in C and written later.
--
-- The invite is a secret like a token: only its SHA-256 is kept (invite_hash).
--
-- The lobby (public waiting games, newest first) reads the partial index games_lobby.
--
-- Players: an identity across games (POST /v1/players): a name and a token, kept as its
-- SHA-256 like every token. A seat bound to a player (seats.player_id) answers to the
-- player's token as to its own seat token (catan find_token in db/store.c); the binding is
-- written by the statement that creates the game or takes the seat.
--
-- Waiting games are never loaded by the game service (catan_load sees status 3 and the
-- service answers game_not_started), so no process caches their names or seat tokens:
-- a removed player's token is dead at once on every server.

CREATE TABLE players (
	id bigint PRIMARY KEY CHECK (id > 0),
	created_at timestamptz NOT NULL DEFAULT now(),
	name text NOT NULL,
	token_hash bytea NOT NULL CHECK (octet_length(token_hash) = 32),
	CONSTRAINT players_token_hash_key UNIQUE (token_hash)
);

ALTER TABLE seats ADD COLUMN open boolean NOT NULL DEFAULT false;
ALTER TABLE seats ADD COLUMN player_id bigint REFERENCES players (id);
CREATE INDEX seats_player ON seats (player_id, game_id) WHERE player_id IS NOT NULL;

ALTER TABLE games
	ADD COLUMN public boolean NOT NULL DEFAULT false,
	ADD COLUMN invite_hash bytea CHECK (octet_length(invite_hash) = 32),
	ADD COLUMN start_status smallint,
	ADD COLUMN start_seat smallint, -- the seat the game waits for once started
	ADD COLUMN start_types smallint[],
	ADD COLUMN start_actors smallint[],
	ADD COLUMN start_origins smallint[],
	ADD COLUMN start_payloads text[];

CREATE INDEX games_lobby ON games (created_at DESC, id DESC) WHERE status = 3 AND public;

-- Bind seat i-1 of p_game to player p_players[i] where it is not NULL (the seats exist).
-- Returns how many seats were bound; 23503 (foreign key) for an unknown player.
CREATE FUNCTION catan_bind_players(p_game bigint, p_players bigint[])
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	wanted integer;
	bound integer;
BEGIN
	SELECT count(*) INTO wanted FROM unnest(p_players) AS p WHERE p IS NOT NULL;
	IF wanted = 0 THEN
		RETURN 0;
	END IF;
	UPDATE seats s SET player_id = b.player
	FROM (SELECT i - 1 AS seat, p_players[i] AS player FROM generate_series(1, cardinality(p_players)) AS i) b
	WHERE s.game_id = p_game AND s.seat = b.seat AND b.player IS NOT NULL;
	GET DIAGNOSTICS bound = ROW_COUNT;
	IF bound <> wanted THEN
		RAISE EXCEPTION 'catan_bind_players: % of % seats of game % bound', bound, wanted, p_game
			USING ERRCODE = '22023';
	END IF;
	RETURN bound;
END
$$;

-- Create a waiting game: like catan_create_game(), but the events are kept for the start.
-- Seat i is open when p_open[i+1] (no name, no token, not a bot).
CREATE FUNCTION catan_create_waiting_game(
	p_game bigint, p_seed bigint, p_admin_token_hash bytea, p_options text,
	p_names text[], p_bots boolean[], p_token_hashes bytea, p_open boolean[],
	p_public boolean, p_invite_hash bytea,
	p_types smallint[], p_actors smallint[], p_origins smallint[], p_payloads text[],
	p_start_status smallint, p_start_seat smallint, p_players bigint[])
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	n integer := coalesce(cardinality(p_bots), 0);
BEGIN
	IF cardinality(p_names) IS DISTINCT FROM n OR cardinality(p_open) IS DISTINCT FROM n
			OR octet_length(p_token_hashes) IS DISTINCT FROM 32 * n
			OR coalesce(cardinality(p_types), 0) = 0 THEN
		RAISE EXCEPTION 'catan_create_waiting_game: malformed arrays' USING ERRCODE = '22023';
	END IF;
	INSERT INTO games (id, seed, status, seats, admin_token_hash, options, public, invite_hash,
		start_status, start_seat, start_types, start_actors, start_origins, start_payloads)
	VALUES (p_game, p_seed, 3, n, p_admin_token_hash, p_options::jsonb, p_public, p_invite_hash,
		p_start_status, p_start_seat, p_types, p_actors, p_origins, p_payloads);
	INSERT INTO seats (game_id, seat, bot, name, token_hash, open)
	SELECT p_game, i - 1, p_bots[i] AND NOT p_open[i], CASE WHEN p_open[i] THEN NULL ELSE p_names[i] END,
		CASE WHEN p_bots[i] OR p_open[i] THEN NULL
		     ELSE substring(p_token_hashes FROM 32 * (i - 1) + 1 FOR 32) END,
		p_open[i]
	FROM generate_series(1, n) AS i;
	PERFORM catan_bind_players(p_game, p_players);
	RETURN 0;
END
$$;

-- Start game p_game (locked by the caller, status 3) when no seat is open: append the kept
-- start events at version 0 and set the timer as catan_create_game() would have. Returns
-- the new version, or 0 when a seat is still open.
CREATE FUNCTION catan_start_if_full(p_game bigint)
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

-- What a join or a seat change found: 0 done, 1 no such game, 2 wrong invite or admin
-- token, 3 the game has started, 4 it has finished, 5 no open seat (or not that seat), 6 the
-- joining player already holds a seat of the game.
-- `seat` is the seat taken or changed, `version` the game's version after (0: still waiting).

-- Take the first open seat of p_game with name p_name and seat token hash p_token_hash,
-- bound to player p_player (NULL: none).
CREATE FUNCTION catan_join(p_game bigint, p_invite_hash bytea, p_name text, p_token_hash bytea, p_player bigint,
	OUT outcome integer, OUT seat integer, OUT version integer)
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
	UPDATE seats s SET open = false, name = p_name, token_hash = p_token_hash, bot = false, player_id = p_player
	WHERE s.game_id = p_game AND s.seat = catan_join.seat;
	version := catan_start_if_full(p_game);
	outcome := 0;
END
$$;

-- The admin's changes before the start, on seat p_seat: p_action 1 removes the player who
-- joined it (open again, its token forgotten), 2 turns the open seat into a bot named
-- p_name (which may start the game).
CREATE FUNCTION catan_change_seat(p_game bigint, p_admin_token_hash bytea, p_seat integer, p_action integer,
	p_name text, OUT outcome integer, OUT seat integer, OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	g_status smallint;
	g_admin bytea;
	changed integer;
BEGIN
	seat := p_seat;
	version := 0;
	SELECT g.status, g.admin_token_hash INTO g_status, g_admin FROM games g WHERE g.id = p_game FOR UPDATE;
	IF NOT FOUND THEN
		outcome := 1;
		RETURN;
	END IF;
	IF g_admin <> p_admin_token_hash THEN
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
	IF p_action = 1 THEN
		UPDATE seats s SET open = true, name = NULL, token_hash = NULL, bot = false, player_id = NULL
		WHERE s.game_id = p_game AND s.seat = p_seat AND NOT s.open AND NOT s.bot;
	ELSE
		UPDATE seats s SET open = false, name = p_name, token_hash = NULL, bot = true
		WHERE s.game_id = p_game AND s.seat = p_seat AND s.open;
	END IF;
	GET DIAGNOSTICS changed = ROW_COUNT;
	IF changed = 0 THEN
		outcome := 5;
		RETURN;
	END IF;
	IF p_action = 2 THEN
		version := catan_start_if_full(p_game);
	END IF;
	outcome := 0;
END
$$;
