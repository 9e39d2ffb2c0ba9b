-- 0031_fairness.sql - provably fair games (issue 26, docs/fairness.md).
--
-- games.server_seed: the 32 secret bytes a provably fair game's random outcomes derive from
-- (HMAC-SHA256, game/fairness.h); its SHA-256 is the commitment the game_created event
-- publishes, and the seed itself is published when the game is over. NULL for a game that
-- is not provably fair (created before, or created with a chosen seed): games.seed keys it.
-- catan_set_server_seed() sets it in the statement that creates the game, so a game never
-- exists without the seed its first event committed to.
--
-- Additive: a server of the previous version neither reads nor writes the column.
ALTER TABLE games ADD COLUMN server_seed bytea CHECK (octet_length(server_seed) = 32);

CREATE FUNCTION catan_set_server_seed(p_game bigint, p_seed bytea) RETURNS void
LANGUAGE sql AS $$
	UPDATE games SET server_seed = p_seed WHERE id = p_game AND p_seed IS NOT NULL;
$$;
