-- 0025_ratings: rated games, resigning, rematches and deleting a player (issue 28, items 3, 4).
--
-- Ratings. A game created with the option `rated` (games.options->>'rated') is rated when it
-- ends: the statement that ends it (catan_append() with status 2, the one write that makes a
-- game finished) fires games_rating_pending below, which writes one row of
-- rating_results_pending in that same transaction, stamped with the transaction's now()
-- (the ending event's created_at). Nothing else happens on the move path: the ratings of
-- the players are written later by whichever server's rating thread (game/ratings.c) takes
-- the row first, in the order games ended, ties by game id, with catan_rating_apply():
--   - the pending row is locked and must still be there (else: applied already, outcome 1);
--   - no pending row may come before it (outcome 2: the earlier one is applied first);
--   - each player's rating must still be what the caller computed from (outcome 3: someone
--     else applied a result meanwhile; the caller reads again);
--   - then the players' ratings, counts and wins are written, the result kept in
--     rating_results (before and after, by player), and the pending row deleted.
-- All in one statement, so a result is applied exactly once even with two servers: the
-- second one waits on the row lock and then finds the row gone.
--
-- players.rating starts at 1200 (the formula: README "Ratings"). rated_games and rated_wins
-- count the rated games applied. deleted_at: the player deleted itself (DELETE
-- /v1/players/me): its name is then "former player", its token hash random, its webhooks
-- and mail gone; the row stays so that the seats of past games keep their player (and
-- their results in rating_results).
--
-- Resigning (POST /v1/games/{id}/seats/{seat}/resign): the seat becomes a bot seat for the
-- rest of the game (bot and not away, as a seat created as a bot: it cannot come back) and
-- seats.resigned says it resigned; a `resigned` event is appended in the same statement
-- (catan_seat_resign(), like catan_seat_away() of 0006). The rating of a rated game scores a
-- resigned seat last, from the event in the log.
--
-- Rematch: games.rematch_id is the game a rematch of this game created (POST
-- /v1/games/{id}/rematch): the request that makes it claims it first (0: being made, set
-- only where it was NULL, so one request of many claims it), then writes the new game's id
-- (db/store_ratings.c); a second request finds it and answers with that game.
--
-- Additive: a server of the previous version ignores the new columns, tables and trigger.

ALTER TABLE players
	ADD COLUMN rating double precision NOT NULL DEFAULT 1200,
	ADD COLUMN rated_games integer NOT NULL DEFAULT 0,
	ADD COLUMN rated_wins integer NOT NULL DEFAULT 0,
	ADD COLUMN deleted_at timestamptz;

ALTER TABLE seats ADD COLUMN resigned boolean NOT NULL DEFAULT false;

ALTER TABLE games ADD COLUMN rematch_id bigint;

CREATE TABLE rating_results_pending (
	game_id bigint PRIMARY KEY,
	ended_at timestamptz NOT NULL
);
CREATE INDEX rating_results_pending_order ON rating_results_pending (ended_at, game_id);

CREATE TABLE rating_results (
	game_id bigint NOT NULL,
	player_id bigint NOT NULL REFERENCES players (id),
	seat smallint NOT NULL,
	applied_at timestamptz NOT NULL DEFAULT now(),
	rating_before double precision NOT NULL,
	rating_after double precision NOT NULL,
	won boolean NOT NULL,
	CONSTRAINT rating_results_pkey PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_results_player ON rating_results (player_id, applied_at);

CREATE FUNCTION catan_rating_pending()
RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF coalesce(NEW.options->>'rated', 'false') = 'true' THEN
		INSERT INTO rating_results_pending (game_id, ended_at) VALUES (NEW.id, now())
		ON CONFLICT (game_id) DO NOTHING;
	END IF;
	RETURN NULL;
END
$$;

CREATE TRIGGER games_rating_pending AFTER UPDATE OF status ON games
FOR EACH ROW WHEN (NEW.status = 2 AND OLD.status IS DISTINCT FROM 2)
EXECUTE FUNCTION catan_rating_pending();

-- Apply game p_game's result: p_players[i] goes from p_before[i] to p_after[i] (p_won[i]:
-- it won), at seat p_seats[i]. Outcomes as above (0 applied).
CREATE FUNCTION catan_rating_apply(p_game bigint, p_players bigint[], p_seats smallint[],
	p_before double precision[], p_after double precision[], p_won boolean[])
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	r rating_results_pending%ROWTYPE;
	n integer := coalesce(cardinality(p_players), 0);
	stale integer;
BEGIN
	IF cardinality(p_seats) IS DISTINCT FROM n OR cardinality(p_before) IS DISTINCT FROM n
			OR cardinality(p_after) IS DISTINCT FROM n OR cardinality(p_won) IS DISTINCT FROM n THEN
		RAISE EXCEPTION 'catan_rating_apply: malformed arrays' USING ERRCODE = '22023';
	END IF;
	SELECT * INTO r FROM rating_results_pending WHERE game_id = p_game FOR UPDATE;
	IF NOT FOUND THEN
		RETURN 1;
	END IF;
	PERFORM FROM rating_results_pending WHERE (ended_at, game_id) < (r.ended_at, r.game_id);
	IF FOUND THEN
		RETURN 2;
	END IF;
	SELECT count(*) INTO stale
	FROM (SELECT p.id, p.rating FROM players p WHERE p.id = ANY (p_players) ORDER BY p.id FOR UPDATE) p
	JOIN generate_series(1, n) AS i ON p_players[i] = p.id
	WHERE p.rating IS DISTINCT FROM p_before[i];
	IF stale > 0 THEN
		RETURN 3;
	END IF;
	UPDATE players p SET rating = p_after[i], rated_games = p.rated_games + 1,
		rated_wins = p.rated_wins + CASE WHEN p_won[i] THEN 1 ELSE 0 END
	FROM generate_series(1, n) AS i WHERE p.id = p_players[i];
	INSERT INTO rating_results (game_id, player_id, seat, rating_before, rating_after, won)
	SELECT p_game, p_players[i], p_seats[i], p_before[i], p_after[i], p_won[i] FROM generate_series(1, n) AS i;
	DELETE FROM rating_results_pending WHERE game_id = p_game;
	RETURN 0;
END
$$;

-- outcome: 0 done (version: the game's new version), 1 no such seat, 2 a bot seat (created as
-- one, or resigned already), 3 the seat is away on holiday (it comes back first).
CREATE FUNCTION catan_seat_resign(p_game bigint, p_seat integer, p_version integer,
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
	UPDATE seats s SET bot = true, away = false, resigned = true WHERE s.game_id = p_game AND s.seat = p_seat;
	version := catan_append(p_game, p_version, ARRAY[p_type], ARRAY[p_seat::smallint], ARRAY[0::smallint],
		ARRAY[p_payload], NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	PERFORM catan_set_timer(p_game, version, p_timer_kind, p_due_ms);
	PERFORM catan_enqueue_deliveries(p_game, version, version);
	outcome := 0;
END
$$;

-- Reliability of player p_player: over its last 20 started games (newest first by creation),
-- the decisions of its seat (a run of consecutive events the seat caused with one origin)
-- made by the player (origin 0) and by its deadline (origin 1); a bot's (origin 2, a
-- holiday or a resigned seat) count for neither.
CREATE FUNCTION catan_player_reliability(p_player bigint, OUT made integer, OUT timed_out integer)
LANGUAGE sql STABLE AS $$
	WITH recent AS (
		SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id
		WHERE s.player_id = p_player AND g.status <> 3
		ORDER BY g.created_at DESC, g.id DESC LIMIT 20),
	runs AS (
		SELECT e.origin, e.actor = r.seat AS mine,
			lag(e.actor) OVER w IS DISTINCT FROM e.actor OR lag(e.origin) OVER w IS DISTINCT FROM e.origin AS starts
		FROM recent r JOIN events e ON e.game_id = r.game_id
		WINDOW w AS (PARTITION BY e.game_id ORDER BY e.seq))
	SELECT count(*) FILTER (WHERE mine AND starts AND origin = 0)::integer,
		count(*) FILTER (WHERE mine AND starts AND origin = 1)::integer
	FROM runs
$$;

-- Delete player p_player whose token has hash p_token_hash: its name becomes p_name, its token
-- hash p_new_hash (random: nobody holds the token), its webhooks and mail go; the names of
-- its seats in games become p_name too. Returns false when the token is not the player's.
CREATE FUNCTION catan_delete_player(p_player bigint, p_token_hash bytea, p_new_hash bytea, p_name text)
RETURNS boolean
LANGUAGE plpgsql AS $$
BEGIN
	UPDATE players SET name = p_name, token_hash = p_new_hash, deleted_at = now()
	WHERE id = p_player AND token_hash = p_token_hash AND deleted_at IS NULL;
	IF NOT FOUND THEN
		RETURN false;
	END IF;
	UPDATE seats SET name = p_name WHERE player_id = p_player;
	-- Every server forgets its cached tokens and names of the player's games (LISTENER_TOKENS).
	PERFORM pg_notify('catan_events', lpad(to_hex(s.game_id), 16, '0') || ':t')
	FROM seats s WHERE s.player_id = p_player;
	-- Its webhooks and mail registrations: the player's own, and those of its seats.
	DELETE FROM webhooks w WHERE w.player_id = p_player
		OR (w.format = 'mail' AND EXISTS (SELECT FROM seats s
			WHERE s.player_id = p_player AND s.game_id = w.game_id AND s.seat = w.seat));
	RETURN true;
END
$$;
