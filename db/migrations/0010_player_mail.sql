-- 0010_player_mail: a mail address registered by a player for all their seats (issue 15).
--
-- A player registration is a webhooks row of format 'mail' with player_id set and game_id
-- (and seat) NULL, like a player webhook (0006_player_webhooks.sql): catan_receivers()
-- enqueues it for every game the player sits in once it is confirmed (enabled), and the
-- delivery claim resolves the player's seat of the outbox row's game. Registering,
-- confirming and the links work as for a seat (0007_mail.sql): disabled 'unconfirmed'
-- until the link is opened, the codes HMACs under the row's secret.
--
-- The confirmation mail of a player registration is about no game: its outbox row has
-- game_id 0 (no game has id 0; webhook_outbox.game_id has no foreign key) and
-- first_seq = last_seq = 0, as a seat's.
--
-- mail_games keeps what a registration spans games with: per (registration, game) when the
-- last turn mail went out and which turn it was about, so MAIL_MIN_INTERVAL_S and "one mail
-- per turn" count per game. Only player rows use it; a seat row keeps the same state on
-- itself (mail_last_sent_at, mail_last_turn). It goes with the registration (cascade).
--
-- One address per turn change: a player's game whose seat has a confirmed registration of
-- its own is mailed by that one only; the player registration skips that game (deliver/mail.c).
CREATE UNIQUE INDEX webhooks_mail_player ON webhooks (player_id) WHERE format = 'mail';

CREATE TABLE mail_games (
	webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
	game_id bigint NOT NULL,
	last_sent_at timestamptz NOT NULL,
	last_turn bigint NOT NULL,
	PRIMARY KEY (webhook_id, game_id)
);

-- Register (or replace) player p_player's mail address, unconfirmed, with the outbox row of
-- its confirmation mail. The new row's id, or NULL when there is no such player.
CREATE FUNCTION catan_mail_register_player(p_id bigint, p_player bigint, p_secret bytea, p_address text,
	p_expires_s integer)
RETURNS bigint
LANGUAGE plpgsql AS $$
BEGIN
	IF NOT EXISTS (SELECT FROM players WHERE id = p_player) THEN
		RETURN NULL;
	END IF;
	DELETE FROM webhooks WHERE player_id = p_player AND format = 'mail';
	INSERT INTO webhooks (id, game_id, player_id, your_turn_only, secret, url, format, disabled_at,
		disabled_reason, mail_address, mail_confirm_expires)
	VALUES (p_id, NULL, p_player, true, p_secret, 'mail:', 'mail', now(), 'unconfirmed', p_address,
		now() + make_interval(secs => p_expires_s));
	INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)
	VALUES (p_id, 0, 0, 0, 0);
	RETURN p_id;
END
$$;
