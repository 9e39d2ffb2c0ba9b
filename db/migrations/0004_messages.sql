-- Table talk (POST/GET /v1/games/{id}/messages): public messages of the seats, kept beside
-- the log, never in it, so a message never moves the game's version (If-Match, ETag,
-- long-polls of moves are untouched). Each game numbers its messages 1, 2, 3 ... (seq) and
-- each message records the game's version when it was posted (after_version): the place
-- where it falls between the moves.
CREATE TABLE messages (
	game_id bigint NOT NULL REFERENCES games (id),
	seq integer NOT NULL CHECK (seq > 0),
	created_at timestamptz NOT NULL DEFAULT now(),
	seat smallint NOT NULL CHECK (seat BETWEEN 0 AND 7),
	after_version integer NOT NULL CHECK (after_version >= 0),
	text text NOT NULL,
	CONSTRAINT messages_pkey PRIMARY KEY (game_id, seq)
);

-- The per-seat rate limit reads a seat's recent messages.
CREATE INDEX messages_seat_time ON messages (game_id, seat, created_at);

-- Post a message by p_seat unless the seat has posted p_limit messages in the last 60
-- seconds. Messages of a game are serialised by a lock on its games row (appends of moves
-- take no such lock, so a message never delays or fails a move). Returns one row:
-- status 0 posted (seq, after_version, created_at), 1 no such game, 2 over the limit
-- (retry_after_s: seconds until the oldest message of the window leaves it).
CREATE FUNCTION catan_post_message(p_game bigint, p_seat smallint, p_text text, p_limit integer,
	OUT status integer, OUT seq integer, OUT after_version integer, OUT created_at timestamptz,
	OUT retry_after_s integer)
LANGUAGE plpgsql AS $$
DECLARE
	recent integer;
	oldest timestamptz;
BEGIN
	PERFORM FROM games WHERE id = p_game FOR NO KEY UPDATE;
	IF NOT FOUND THEN
		status := 1;
		RETURN;
	END IF;
	SELECT count(*), min(m.created_at) INTO recent, oldest FROM messages m
	WHERE m.game_id = p_game AND m.seat = p_seat AND m.created_at > clock_timestamp() - interval '60 seconds';
	IF recent >= p_limit THEN
		status := 2;
		retry_after_s := greatest(1, ceil(extract(epoch FROM oldest + interval '60 seconds' - clock_timestamp()))::integer);
		RETURN;
	END IF;
	INSERT INTO messages AS m (game_id, seq, seat, after_version, text, created_at)
	VALUES (p_game,
		coalesce((SELECT max(x.seq) FROM messages x WHERE x.game_id = p_game), 0) + 1,
		p_seat,
		coalesce((SELECT max(e.seq) FROM events e WHERE e.game_id = p_game), 0),
		p_text, clock_timestamp())
	RETURNING m.seq, m.after_version, m.created_at INTO seq, after_version, created_at;
	status := 0;
END
$$;
