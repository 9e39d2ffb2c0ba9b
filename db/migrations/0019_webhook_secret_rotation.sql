-- 0019_webhook_secret_rotation: a standard webhook's signing secret can be replaced
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
