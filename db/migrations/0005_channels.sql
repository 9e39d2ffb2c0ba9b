-- Channel webhooks (issue 15): a webhook's format says what its deliveries look like.
--
--   standard  signed Standard Webhooks deliveries of events and your_turn notes (0002)
--   discord   one chat message per turn change and at the game's end, as Discord's
--             incoming webhooks take it ({"content", "embeds"}); no signature
--   slack     the same as Slack's incoming webhooks take it ({"text", "blocks"})
--
-- mentions: for a chat format only, a JSON object from seat (as text) to the mention text
-- a chat message names the seat with ("<@123>"); private to the registrant: never in a
-- view, the event log, an export or a standard delivery.
--
-- failures counts a chat webhook's failed attempts in a row (a 2xx answer resets it);
-- after CHANNEL_MAX_FAILURES of them it is disabled: disabled_at and disabled_reason are
-- set, its pending outbox rows are dropped and appends enqueue nothing more for it.
ALTER TABLE webhooks
	ADD COLUMN format text NOT NULL DEFAULT 'standard' CHECK (format IN ('standard', 'discord', 'slack')),
	ADD COLUMN mentions jsonb CHECK (mentions IS NULL OR jsonb_typeof(mentions) = 'object'),
	ADD COLUMN failures integer NOT NULL DEFAULT 0,
	ADD COLUMN disabled_at timestamptz,
	ADD COLUMN disabled_reason text CHECK (length(disabled_reason) <= 200);

CREATE OR REPLACE FUNCTION catan_enqueue_deliveries(p_game bigint, p_first integer, p_last integer)
RETURNS integer
LANGUAGE sql AS $$
	WITH o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)
		SELECT id, p_game, p_first, p_last, p_first FROM webhooks
		WHERE game_id = p_game AND disabled_at IS NULL
		RETURNING 1)
	SELECT count(*)::integer FROM o
$$;
