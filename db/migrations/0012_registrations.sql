-- 0012_registrations: a seat's registrations go with the person who held the seat, and
-- confirmation mails have a budget (issue 20, items 3 and 5).
--
-- Seats changing hands. A seat's webhooks (signed ones, and the chat channels of format
-- discord or slack) and its mail address are its holder's: a webhook's URL is the
-- credential of the channel it reaches, an address is a person's. When a seat changes
-- hands they are removed by the statement that changes it, in its transaction:
--   catan_join()         an open seat taken by a joining player
--   catan_change_seat()  the admin removing the player who joined (the seat is open again)
--                        or giving an open seat to a bot
-- Removing a webhooks row removes its outbox rows, its delivery log and a player
-- registration's per-game state (ON DELETE CASCADE, 0002 and 0010). A player's own
-- registrations (player_id set) belong to the player, not to a seat: catan_receivers()
-- and the delivery claim read seats.player_id at each append, so they stop reaching a game
-- the moment the player's seat is taken from them, with nothing to delete. A holiday
-- (catan_seat_away(), 0006) lends the seat to the bot for a while; its holder keeps it and
-- its registrations.
--
-- Today every registration route answers a waiting game 409 game_not_started, so a seat
-- that changes hands has nothing registered yet; removing them here makes the rule hold
-- whichever path registers one later, rather than trusting that none will.
CREATE OR REPLACE FUNCTION catan_join(p_game bigint, p_invite_hash bytea, p_name text, p_token_hash bytea,
	p_player bigint, OUT outcome integer, OUT seat integer, OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	g_status smallint;
	g_invite bytea;
BEGIN
	seat := -1;
	version := 0;
	SELECT g.status, g.invite_hash INTO g_status, g_invite FROM games g WHERE g.id = p_game FOR UPDATE;
	IF NOT FOUND THEN
		outcome := 1;
		RETURN;
	END IF;
	IF g_invite IS NULL OR g_invite <> p_invite_hash THEN
		outcome := 2;
		RETURN;
	END IF;
	IF g_status = 2 THEN
		outcome := 4;
		RETURN;
	END IF;
	IF g_status <> 3 THEN
		outcome := 3;
		RETURN;
	END IF;
	IF p_player IS NOT NULL THEN
		PERFORM FROM seats s WHERE s.game_id = p_game AND s.player_id = p_player;
		IF FOUND THEN
			outcome := 6;
			RETURN;
		END IF;
	END IF;
	SELECT s.seat INTO seat FROM seats s WHERE s.game_id = p_game AND s.open ORDER BY s.seat LIMIT 1;
	IF NOT FOUND THEN
		outcome := 5;
		seat := -1;
		RETURN;
	END IF;
	UPDATE seats s SET open = false, name = p_name, token_hash = p_token_hash, bot = false, player_id = p_player
	WHERE s.game_id = p_game AND s.seat = catan_join.seat;
	DELETE FROM webhooks w WHERE w.game_id = p_game AND w.seat = catan_join.seat;
	version := catan_start_if_full(p_game);
	outcome := 0;
END
$$;

CREATE OR REPLACE FUNCTION catan_change_seat(p_game bigint, p_admin_token_hash bytea, p_seat integer,
	p_action integer, p_name text, OUT outcome integer, OUT seat integer, OUT version integer)
LANGUAGE plpgsql AS $$
DECLARE
	g_status smallint;
	g_admin bytea;
	changed integer;
BEGIN
	seat := p_seat;
	version := 0;
	SELECT g.status, g.admin_token_hash INTO g_status, g_admin FROM games g WHERE g.id = p_game FOR UPDATE;
	IF NOT FOUND THEN
		outcome := 1;
		RETURN;
	END IF;
	IF g_admin <> p_admin_token_hash THEN
		outcome := 2;
		RETURN;
	END IF;
	IF g_status = 2 THEN
		outcome := 4;
		RETURN;
	END IF;
	IF g_status <> 3 THEN
		outcome := 3;
		RETURN;
	END IF;
	IF p_action = 1 THEN
		UPDATE seats s SET open = true, name = NULL, token_hash = NULL, bot = false, player_id = NULL
		WHERE s.game_id = p_game AND s.seat = p_seat AND NOT s.open AND NOT s.bot;
	ELSE
		UPDATE seats s SET open = false, name = p_name, token_hash = NULL, bot = true
		WHERE s.game_id = p_game AND s.seat = p_seat AND s.open;
	END IF;
	GET DIAGNOSTICS changed = ROW_COUNT;
	IF changed = 0 THEN
		outcome := 5;
		RETURN;
	END IF;
	DELETE FROM webhooks w WHERE w.game_id = p_game AND w.seat = p_seat;
	IF p_action = 2 THEN
		version := catan_start_if_full(p_game);
	END IF;
	outcome := 0;
END
$$;

-- Confirmation mails. Registering an address sends it a confirmation mail; without a bound
-- anyone could send any address as many as they liked (re-registering, or one new player
-- after another posting the same address). So each is counted, in the database (it holds
-- across servers), against two budgets, each so many mails per window of time:
--   the address's     keyed by the address as mailboxes read it: lower case, without a
--                     "+tag" subaddress in the local part (a+1@x and A+2@X are one mailbox)
--   the registrant's  keyed by the seat (game and seat) or the player registering
-- A registration over either budget writes nothing and sends nothing; the caller is told
-- how many seconds remain until there is room (the 429's Retry-After).
--
-- Keys are SHA-256 of a random salt of this database and the key text: the table holds no
-- address in clear (the address itself stays where it was, in the webhooks row of its
-- registration, and leaves with it), and without the salt a hash cannot be tested against
-- a list of addresses. A budget row is (key, window_start, used): the window starts at the
-- first mail counted and lasts p_window_s; a mail after it starts a new one. Rows of windows
-- that are over are removed as others are charged.
--
-- Two registrations of one key count one after the other: catan_mail_budget_wait() takes a
-- transaction-scoped advisory lock on the key (class 12 of the two-integer lock space,
-- which never meets the one-bigint lock of the migrations), the address's before the
-- registrant's in every caller, so no two callers wait for each other in a cycle.
CREATE TABLE mail_budget_salt (
	salt bytea NOT NULL CHECK (octet_length(salt) = 32)
);
INSERT INTO mail_budget_salt (salt)
SELECT decode(replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), 'hex');

CREATE TABLE mail_budgets (
	key bytea PRIMARY KEY CHECK (octet_length(key) = 32),
	window_start timestamptz NOT NULL,
	used integer NOT NULL CHECK (used > 0)
);
CREATE INDEX mail_budgets_window ON mail_budgets (window_start);

CREATE FUNCTION catan_mail_budget_key(p_what text)
RETURNS bytea
LANGUAGE sql STABLE AS $$
	SELECT sha256((SELECT salt FROM mail_budget_salt) || convert_to(p_what, 'UTF8'))
$$;

CREATE FUNCTION catan_mail_address_key(p_address text)
RETURNS bytea
LANGUAGE sql STABLE AS $$
	SELECT catan_mail_budget_key('address:' || lower(regexp_replace(p_address, '\+[^@]*@', '@')))
$$;

-- Seconds until budget p_key has room for one more mail under p_limit per p_window_s
-- seconds: 0 when it has room now (and always when p_limit is 0: no budget). Locks the key
-- for the rest of the transaction; writes nothing.
CREATE FUNCTION catan_mail_budget_wait(p_key bytea, p_limit integer, p_window_s integer)
RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
	b mail_budgets%ROWTYPE;
BEGIN
	IF p_limit <= 0 THEN
		RETURN 0;
	END IF;
	PERFORM pg_advisory_xact_lock(12, ('x' || encode(substring(p_key FROM 1 FOR 4), 'hex'))::bit(32)::integer);
	SELECT * INTO b FROM mail_budgets WHERE key = p_key;
	IF NOT FOUND OR b.window_start <= now() - make_interval(secs => p_window_s) OR b.used < p_limit THEN
		RETURN 0;
	END IF;
	RETURN greatest(1, ceil(extract(epoch FROM b.window_start + make_interval(secs => p_window_s) - now())))::integer;
END
$$;

-- Count one mail against budget p_key (which catan_mail_budget_wait() found room in, in
-- this transaction), and forget the windows that are over.
CREATE FUNCTION catan_mail_budget_charge(p_key bytea, p_window_s integer)
RETURNS void
LANGUAGE sql AS $$
	DELETE FROM mail_budgets WHERE window_start <= now() - make_interval(secs => p_window_s) AND key <> p_key;
	INSERT INTO mail_budgets AS b (key, window_start, used) VALUES (p_key, now(), 1)
	ON CONFLICT (key) DO UPDATE SET
		window_start = CASE WHEN b.window_start <= now() - make_interval(secs => p_window_s) THEN now()
			ELSE b.window_start END,
		used = CASE WHEN b.window_start <= now() - make_interval(secs => p_window_s) THEN 1 ELSE b.used + 1 END;
$$;

-- catan_mail_register() (0007) within the budgets: id is the new row's (NULL: no such game,
-- or over a budget), retry_after_s > 0 when over a budget (then nothing was written).
CREATE FUNCTION catan_mail_register_within(p_id bigint, p_game bigint, p_seat smallint, p_secret bytea,
	p_address text, p_expires_s integer, p_per_address integer, p_per_registrant integer, p_window_s integer,
	OUT id bigint, OUT retry_after_s integer)
LANGUAGE plpgsql AS $$
DECLARE
	address_key bytea := catan_mail_address_key(p_address);
	registrant_key bytea := catan_mail_budget_key('seat:' || p_game || ':' || p_seat);
	registrant_wait integer;
BEGIN
	retry_after_s := catan_mail_budget_wait(address_key, p_per_address, p_window_s);
	registrant_wait := catan_mail_budget_wait(registrant_key, p_per_registrant, p_window_s);
	retry_after_s := greatest(retry_after_s, registrant_wait);
	IF retry_after_s > 0 THEN
		RETURN;
	END IF;
	id := catan_mail_register(p_id, p_game, p_seat, p_secret, p_address, p_expires_s);
	IF id IS NULL THEN
		RETURN;
	END IF;
	IF p_per_address > 0 THEN
		PERFORM catan_mail_budget_charge(address_key, p_window_s);
	END IF;
	IF p_per_registrant > 0 THEN
		PERFORM catan_mail_budget_charge(registrant_key, p_window_s);
	END IF;
END
$$;

-- catan_mail_register_player() (0010) within the budgets, as above.
CREATE FUNCTION catan_mail_register_player_within(p_id bigint, p_player bigint, p_secret bytea, p_address text,
	p_expires_s integer, p_per_address integer, p_per_registrant integer, p_window_s integer,
	OUT id bigint, OUT retry_after_s integer)
LANGUAGE plpgsql AS $$
DECLARE
	address_key bytea := catan_mail_address_key(p_address);
	registrant_key bytea := catan_mail_budget_key('player:' || p_player);
	registrant_wait integer;
BEGIN
	retry_after_s := catan_mail_budget_wait(address_key, p_per_address, p_window_s);
	registrant_wait := catan_mail_budget_wait(registrant_key, p_per_registrant, p_window_s);
	retry_after_s := greatest(retry_after_s, registrant_wait);
	IF retry_after_s > 0 THEN
		RETURN;
	END IF;
	id := catan_mail_register_player(p_id, p_player, p_secret, p_address, p_expires_s);
	IF id IS NULL THEN
		RETURN;
	END IF;
	IF p_per_address > 0 THEN
		PERFORM catan_mail_budget_charge(address_key, p_window_s);
	END IF;
	IF p_per_registrant > 0 THEN
		PERFORM catan_mail_budget_charge(registrant_key, p_window_s);
	END IF;
END
$$;
