-- Mail notifications (issue 15): a seat's "your turn" mails, as webhooks of format 'mail'.
--
-- A mail registration is a webhooks row, so its mails go through the same transactional
-- outbox, claims, retries, backoff and delivery log as every other delivery
-- (0002_async.sql, deliver/deliver.c), sent by deliver/mail.c over SMTP instead of HTTP.
--
--   url               the fixed placeholder 'mail:' (never the address)
--   mail_address      the address; private: read only by the mail transport (to send) and by
--                     the registrant's GET (masked). Never in a list, view, log or export.
--   mail_confirm_expires  until when the confirmation link works (NULL once confirmed)
--   mail_last_sent_at when the last turn mail went out (MAIL_MIN_INTERVAL_S counts from it)
--   mail_last_turn    the turn the last mail was about (turn number, seats waited for and
--                     phase: deliver/channels.h channels_turn_key), so one turn gets one mail
--
-- An unconfirmed registration is disabled (disabled_at set, disabled_reason
-- 'unconfirmed'): the appends enqueue nothing for it. Its confirmation mail is one outbox
-- row with first_seq = last_seq = 0, written with the registration. The links' codes are
-- not stored: they are HMACs under the row's random secret (deliver/mail_message.h), so whoever could
-- read them here could read the secret as well; nothing else derives from it.
ALTER TABLE webhooks DROP CONSTRAINT webhooks_format_check;
ALTER TABLE webhooks
	ADD CONSTRAINT webhooks_format_check CHECK (format IN ('standard', 'discord', 'slack', 'mail')),
	ADD COLUMN mail_address text CHECK (length(mail_address) <= 254),
	ADD COLUMN mail_confirm_expires timestamptz,
	ADD COLUMN mail_last_sent_at timestamptz,
	ADD COLUMN mail_last_turn bigint,
	ADD CONSTRAINT webhooks_mail_address CHECK ((format = 'mail') = (mail_address IS NOT NULL));
-- One mail registration per seat of a game.
CREATE UNIQUE INDEX webhooks_mail_seat ON webhooks (game_id, seat) WHERE format = 'mail';

-- Register (or replace) seat p_seat's mail address in game p_game, unconfirmed, with the
-- outbox row of its confirmation mail. The new row's id, or NULL when there is no such game.
CREATE FUNCTION catan_mail_register(p_id bigint, p_game bigint, p_seat smallint, p_secret bytea,
	p_address text, p_expires_s integer)
RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
	IF NOT EXISTS (SELECT FROM games WHERE id = p_game) THEN
		RETURN NULL;
	END IF;
	DELETE FROM webhooks WHERE game_id = p_game AND seat = p_seat AND format = 'mail';
	INSERT INTO webhooks (id, game_id, seat, your_turn_only, secret, url, format, disabled_at, disabled_reason,
		mail_address, mail_confirm_expires)
	VALUES (p_id, p_game, p_seat, true, p_secret, 'mail:', 'mail', now(), 'unconfirmed', p_address,
		now() + make_interval(secs => p_expires_s));
	INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)
	VALUES (p_id, p_game, 0, 0, 0);
	RETURN p_id;
END
$$;
