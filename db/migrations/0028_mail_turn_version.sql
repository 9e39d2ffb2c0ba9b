-- 0028_mail_turn_version.sql - the version a mail registration's last turn was recorded at.
--
-- A turn mail (deliver/mail.c) and the answer to a reply by mail (cmd/catan_mail_in.c) both
-- record which turn the seat was last told about (mail_last_turn; mail_games.last_turn for
-- a player's registration), and they run in different processes. A turn mail composed from
-- an older state can finish after an answer about a newer one; the version each was
-- written for keeps the newer record: a record is written only when its version is at
-- least the stored one. NULL (rows of earlier servers) is older than every version.
--
-- Additive: a server of the previous version neither reads nor writes the columns.
ALTER TABLE webhooks ADD COLUMN mail_last_version integer;
ALTER TABLE mail_games ADD COLUMN last_version integer;
