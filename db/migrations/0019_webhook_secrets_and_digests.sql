-- 0019_webhook_secrets_and_digests: a standard webhook's signing secret can be replaced
-- without a moment in which its receiver refuses deliveries (issue 23).
--
-- Rotating (POST .../webhooks/{wid}/secret) writes a new secret and keeps the one it
-- replaces as previous_secret until previous_secret_until: while that is in the future,
-- every delivery carries two signatures in webhook-signature ("v1,<new> v1,<old>", as
-- Standard Webhooks allows several), so a receiver still verifying with the old secret
-- and one already verifying with the new both accept it; after it, only the new one is
-- sent. Rotating again during an overlap keeps only the secret just replaced (the older
-- one stops at once). Chat webhooks (discord, slack) sign nothing and are never rotated.
ALTER TABLE webhooks
	ADD COLUMN previous_secret bytea CHECK (previous_secret IS NULL OR length(previous_secret) = 32),
	ADD COLUMN previous_secret_until timestamptz,
	ADD CONSTRAINT webhooks_previous_secret_whole CHECK ((previous_secret IS NULL) = (previous_secret_until IS NULL));

-- A chat webhook (discord, slack) posts one message per turn of a person's seat
-- (schedule "every_turn", digest_hours NULL), or, for slow games, a digest at most every
-- digest_hours hours (schedule "digest"): what happened since the last one and whom the
-- game waits for. digest_version is the last version a digest told (0: none yet),
-- digest_sent_at when it was posted; an outbox row that comes sooner waits until the
-- interval is over and then tells everything up to the game's version of that moment,
-- so the rows behind it that it covered are dropped unsent (deliver/chat.c).
ALTER TABLE webhooks
	ADD COLUMN digest_hours integer CHECK (digest_hours BETWEEN 1 AND 168),
	ADD COLUMN digest_version integer NOT NULL DEFAULT 0,
	ADD COLUMN digest_sent_at timestamptz,
	ADD CONSTRAINT webhooks_digest_chat CHECK (digest_hours IS NULL OR format IN ('discord', 'slack'));
