/*
 * mailing.h - mail registrations, free of HTTP: a seat's or a player's address for "your
 * turn" mails (db/store_mail.h: 0007_mail.sql, 0010_player_mail.sql), its confirmation,
 * its removal, and what the mail delivery records of each turn mailed. The store's door
 * for the handlers of api/ and for deliver/'s mail row; what a mail says and how it goes
 * out is deliver/'s.
 *
 * The address is private: these functions and the mail delivery are its only readers.
 * Ownership: arguments borrowed for the call; results in the caller's structs. The
 * thread's store connection; statuses as db/store.h's.
 */
#ifndef CATAN_GAME_MAILING_H
#define CATAN_GAME_MAILING_H

#include <stdint.h>

#include "db/store_mail.h"
#include "db/store_webhooks.h"

/* Register (or replace) a seat's address, unconfirmed, its confirmation mail queued
 * within `budget` (store_mail_register(): *retry_after_s > 0 when over it). */
enum store_status mailing_register(int64_t game_id, int seat, const char *address,
				   const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
				   const struct store_mail_budget *budget, int64_t *id, int *retry_after_s);

/* The same for a player's address, for all the player's seats. */
enum store_status mailing_register_player(int64_t player_id, const char *address,
					  const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
					  const struct store_mail_budget *budget, int64_t *id, int *retry_after_s);

/* Registration `id` (id > 0), or the seat's of the game (id 0); or the player's. */
enum store_status mailing_get(int64_t id, int64_t game_id, int seat, struct store_mail *out);
enum store_status mailing_get_player(int64_t player_id, struct store_mail *out);

/* Confirm registration `id` while its link holds: *confirmed 1, else 0. */
enum store_status mailing_confirm(int64_t id, int *confirmed);

/* Remove registration `id` (id > 0) or the seat's (id 0); or the player's: *removed 1, or
 * 0 when there was none. */
enum store_status mailing_delete(int64_t id, int64_t game_id, int seat, int *removed);
enum store_status mailing_delete_player(int64_t player_id, int *removed);

/* A player registration's state in one game (store_mail_game_state()). */
enum store_status mailing_game_state(int64_t id, int64_t game_id, int seat, int64_t *since_last_ms, int64_t *last_turn,
				     int *seat_has_own);

/* A turn mail about `turn_key` went out now: of a seat's registration, or of a player's
 * in game `game_id`. */
enum store_status mailing_sent(int64_t id, int64_t turn_key);
enum store_status mailing_game_sent(int64_t id, int64_t game_id, int64_t turn_key);

#endif
