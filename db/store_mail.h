/*
 * store_mail.h - a seat's or a player's mail registration (db/migrations/0007_mail.sql,
 * 0010_player_mail.sql): a webhooks row of format "mail" holding the address, its
 * confirmation state and when it was last mailed (a player's: per game, in mail_games).
 *
 * The address is private: these functions are its only readers, for the mail transport
 * (deliver/mail_message.h) and the registrant's own masked view; store_webhook_list() never returns
 * mail rows and store_webhook_delete() never removes them.
 */
#ifndef CATAN_DB_STORE_MAIL_H
#define CATAN_DB_STORE_MAIL_H

#include <stdint.h>

#include "db/store.h"
#include "db/store_webhooks.h"

#define STORE_MAIL_ADDRESS_MAX 254

struct store_mail {
	int64_t id;	   /* the webhooks row */
	int64_t game_id;   /* 0 for a player's registration */
	int seat;	   /* -1 for a player's registration */
	int64_t player_id; /* the player's registration: its player; else 0 */
	char address[STORE_MAIL_ADDRESS_MAX + 1];
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE]; /* keys the confirm and unsubscribe codes */
	int confirmed;
	int confirm_expired;   /* unconfirmed and the confirmation link's time is up */
	int64_t since_last_ms; /* since the last turn mail; -1: none yet (a player's: -1) */
	int64_t last_turn;     /* the turn key of the last turn mail; -1: none yet (a player's: -1) */
};

/* The confirmation mails a registration may cost (0012_registrations.sql): at most
 * per_address to one address and per_registrant from one seat or player in every window of
 * window_s seconds; 0 for no bound. Counted in the database, so it holds across servers. */
struct store_mail_budget {
	int per_address;
	int per_registrant;
	int window_s;
};

/* Register (or replace) the seat's address, unconfirmed, with its confirmation mail queued
 * in the outbox; the link works for expires_s. *id set and *retry_after_s 0; or, when the
 * confirmation mail is over a budget, *retry_after_s > 0 (the seconds until there is room)
 * and nothing written. STORE_NOT_FOUND: no such game. */
enum store_status store_mail_register(struct store *store, int64_t game_id, int seat, const char *address,
				      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
				      const struct store_mail_budget *budget, int64_t *id, int *retry_after_s);

/* The registration with this id (id > 0) or of this seat of this game (id 0) into *out;
 * STORE_NOT_FOUND when there is none. */
enum store_status store_mail_get(struct store *store, int64_t id, int64_t game_id, int seat, struct store_mail *out);

/* Confirm registration `id` while its link is valid: *confirmed 1, or 0 (already
 * confirmed, expired or gone). */
enum store_status store_mail_confirm(struct store *store, int64_t id, int *confirmed);

/* Remove registration `id` (id > 0) or the seat's (id 0) with its pending mails and log:
 * *removed 1, or 0 when there was none. */
enum store_status store_mail_delete(struct store *store, int64_t id, int64_t game_id, int seat, int *removed);

/* Record that a mail about `turn_key`, written for game version `version`, went out now: a
 * turn mail (counts_for_interval 1: MAIL_MIN_INTERVAL_S runs from now), or the answer to a
 * reply by mail (0: it names the turn the seat was told about, so no turn mail repeats it,
 * without holding back the next one). A record older than the stored one (a smaller
 * version) changes nothing. */
enum store_status store_mail_sent(struct store *store, int64_t id, int64_t turn_key, int32_t version,
				  int counts_for_interval);

/* ---- A player's registration (0010_player_mail.sql): one per player, for all its seats. */

/* Register (or replace) the player's address, unconfirmed, with its confirmation mail
 * queued (an outbox row of game 0), within `budget` as store_mail_register(). *id set.
 * STORE_NOT_FOUND: no such player. */
enum store_status store_mail_register_player(struct store *store, int64_t player_id, const char *address,
					     const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
					     const struct store_mail_budget *budget, int64_t *id, int *retry_after_s);

/* The player's registration into *out; STORE_NOT_FOUND when there is none. */
enum store_status store_mail_get_player(struct store *store, int64_t player_id, struct store_mail *out);

/* Remove the player's registration, its pending mails, log and per-game state: *removed 1,
 * or 0 when there was none. */
enum store_status store_mail_delete_player(struct store *store, int64_t player_id, int *removed);

/* A player registration's state in one game, where the player holds `seat`: since its last
 * turn mail there (-1: none), that mail's turn key (-1: none), and *seat_has_own 1 when the
 * seat has a confirmed registration of its own (which then mails that game instead). */
enum store_status store_mail_game_state(struct store *store, int64_t id, int64_t game_id, int seat,
					int64_t *since_last_ms, int64_t *last_turn, int *seat_has_own);

/* Record that registration `id` mailed game `game_id` about `turn_key` now (as above). */
enum store_status store_mail_game_sent(struct store *store, int64_t id, int64_t game_id, int64_t turn_key,
				       int32_t version, int counts_for_interval);

#endif
