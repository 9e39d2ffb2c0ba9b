-- 0009_message_deliveries: table talk delivered to webhooks (issue 14), in order with the
-- events.
--
-- A posted message becomes, in the posting transaction, one webhook_outbox row per enabled
-- `standard`-format receiver of the game (catan_receivers(): the game's own webhooks and
-- those of the players seated in it) that is not your_turn_only. The row carries the
-- message's number (message_seq); its first_seq, last_seq and next_seq are all the
-- message's after_version, so code that reads them without looking at message_seq sees an
-- empty, harmless range. The delivery worker (deliver/deliver.c) claims a webhook's oldest row
-- first, so a message posted after an append is delivered after that append's events and
-- before the events of later appends. Chat formats and mail get no rows for messages: a
-- chat channel or a mailbox is told whose turn it is, not what the table says.
--
-- A delivery is logged with kind 'message' and seq = the message's seq.
ALTER TABLE webhook_outbox ADD COLUMN message_seq integer CHECK (message_seq IS NULL OR message_seq > 0);

-- As in 0008_feed.sql (its rate limit, numbering and NOTIFY unchanged), plus the outbox rows.
CREATE OR REPLACE FUNCTION catan_post_message(p_game bigint, p_seat smallint, p_text text, p_limit integer,
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
	INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq, message_seq)
	SELECT r.webhook_id, p_game, after_version, after_version, after_version, seq
	FROM catan_receivers(p_game) r JOIN webhooks w ON w.id = r.webhook_id
	WHERE w.format = 'standard' AND NOT w.your_turn_only;
	PERFORM pg_notify('catan_events', lpad(to_hex(p_game), 16, '0') || ':m' || seq);
	status := 0;
END
$$;
