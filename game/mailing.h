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
#include "engine/game.h"

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

/* The turn a mail to `seat` is about: the turn number, the setup step and the seats the game
 * waits for (so rolling and then building is one turn, while a discard asked in someone
 * else's turn is another); MAILING_TURN_FINISHED for a finished game; -1 when the game does
 * not wait for the seat. */
#define MAILING_TURN_FINISHED INT64_C(0x7fffffff)
int64_t mailing_turn_key(const struct game *game, int seat);

/* A mail about `turn_key`, written at game version `version`, went out now: of a seat's
 * registration, or of a player's in game `game_id` (store_mail_sent(): a turn mail counts
 * for MAIL_MIN_INTERVAL_S, an answer to a reply does not; the newer version's record wins). */
enum store_status mailing_sent(int64_t id, int64_t turn_key, int32_t version, int counts_for_interval);
enum store_status mailing_game_sent(int64_t id, int64_t game_id, int64_t turn_key, int32_t version,
				    int counts_for_interval);

/* Replies by mail (cmd/catan_mail_in.c): *seen 1 when the reply of idempotency key `key`
 * (of game `game_id`) was answered already; mailing_reply_answered() marks it so. */
enum store_status mailing_reply_seen(int64_t game_id, const char *key, int *seen);
enum store_status mailing_reply_answered(int64_t game_id, const char *key);

#endif
