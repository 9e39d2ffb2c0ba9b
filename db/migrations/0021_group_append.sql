-- 0021_group_append: what the committer's statement (db/committer.c) needs beyond plain SQL.
--
-- The committer writes the appends of many games in one INSERT ... ON CONFLICT DO NOTHING,
-- each item one game's events v+1..v+n. An item is all or nothing: when a writer elsewhere
-- has taken some of its versions but not all (a shorter append at the same version,
-- committed while the statement waited), the item would be left half in the log, so the
-- statement stops instead, with this function: SQLSTATE CT409, a lost race
-- (STORE_CONFLICT), the whole batch rolled back. The committer then sends each item alone,
-- and the item that lost gets its conflict alone.
CREATE FUNCTION catan_group_refuse(p_game bigint, p_version integer)
RETURNS integer
LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'game %: an append at version % lost some of its versions to another writer',
		lpad(to_hex(p_game), 16, '0'), p_version
		USING ERRCODE = 'CT409';
END
$$;
