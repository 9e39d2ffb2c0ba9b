-- 0006_player_webhooks: webhooks registered on a player (issue 14), not on one game.
--
-- A player webhook (player_id set, game_id NULL) receives, for every game the player sits
-- in, what the player's seat of that game may see: the events redacted for the seat and
-- its your_turn notes (or, in a chat format, the turn changes), exactly as a webhook that
-- seat had registered on the game. Exactly one of game_id and player_id is set.
--
-- The outbox row of a player webhook keeps the game (webhook_outbox.game_id), so the
-- delivery worker knows which game's events to read; the seat is resolved at delivery from
-- seats(game_id, player_id) (the claim in db/store.c), never stored twice.
--
-- catan_enqueue_deliveries() (and the events-only append statements of db/store.c, which
-- inline the same select) enqueue for the game's own webhooks and for the enabled webhooks
-- of every player seated in the game, read at append time: a player who joins a game later
-- receives its events from then on. One statement, on two indexes (webhooks_game and
-- webhooks_player below, seats_player of 0003 is not needed: seats are read by game).
ALTER TABLE webhooks
	ALTER COLUMN game_id DROP NOT NULL,
	ADD COLUMN player_id bigint REFERENCES players (id),
	ADD CONSTRAINT webhooks_one_owner CHECK ((game_id IS NULL) <> (player_id IS NULL));
CREATE INDEX webhooks_player ON webhooks (player_id) WHERE player_id IS NOT NULL;

-- The enabled webhooks an append to p_game enqueues for: the game's own, then those of the
-- players seated in it (a player holds at most one seat of a game, so none comes twice).
-- STABLE and one SELECT, so PostgreSQL inlines it into the statements that call it.
CREATE FUNCTION catan_receivers(p_game bigint)
RETURNS TABLE (webhook_id bigint)
LANGUAGE sql STABLE AS $$
	SELECT w.id FROM webhooks w WHERE w.game_id = p_game AND w.disabled_at IS NULL
	UNION ALL
	SELECT w.id FROM seats s JOIN webhooks w ON w.player_id = s.player_id
	WHERE s.game_id = p_game AND s.player_id IS NOT NULL AND w.disabled_at IS NULL
$$;

CREATE OR REPLACE FUNCTION catan_enqueue_deliveries(p_game bigint, p_first integer, p_last integer)
RETURNS integer
LANGUAGE sql AS $$
	WITH o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)
		SELECT r.webhook_id, p_game, p_first, p_last, p_first FROM catan_receivers(p_game) r
		RETURNING 1)
	SELECT count(*)::integer FROM o
$$;

-- A game's first events, appended at its creation or at its start (the join or seat change
-- that filled a waiting game), reach the webhooks of the players seated in it: the
-- statements of db/store.c that create a game or call catan_join()/catan_change_seat() call
-- catan_enqueue_deliveries() for them, in the same statement.

-- Holidays (issue 14): a seat hands itself to the server's bot for a while and takes itself
-- back. seats.away says the seat is away: its bot flag is then set too (so every reader of
-- seats.bot, the bot timer included, sees a bot seat), and only an away seat may come back:
-- a seat created as a bot (bot and not away) cannot. The change, the seat_away or seat_back
-- event (the rules ignore it; the log records it) and the game's timer are one statement:
-- catan_seat_away() below, called by db/store.c. The event is appended at p_version with
-- catan_append(), so a move that took that version first makes it fail (23505 on
-- events_pkey) and the caller decides again on the new version.
ALTER TABLE seats ADD COLUMN away boolean NOT NULL DEFAULT false;

-- outcome: 0 done (version: the game's new version), 1 no such seat, 2 a seat created as a
-- bot, 3 nothing to change (already away, or not away).
CREATE FUNCTION catan_seat_away(p_game bigint, p_seat integer, p_away boolean, p_version integer,
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
	IF s_away = p_away THEN
		outcome := 3;
		RETURN;
	END IF;
	UPDATE seats s SET bot = p_away, away = p_away WHERE s.game_id = p_game AND s.seat = p_seat;
	version := catan_append(p_game, p_version, ARRAY[p_type], ARRAY[p_seat::smallint], ARRAY[0::smallint],
		ARRAY[p_payload], NULL, NULL, NULL, NULL, NULL, NULL, NULL);
	PERFORM catan_set_timer(p_game, version, p_timer_kind, p_due_ms);
	PERFORM catan_enqueue_deliveries(p_game, version, version);
	outcome := 0;
END
$$;
