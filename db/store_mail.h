/*
 * store_mail.h - a seat's mail registration (db/migrations/0007_mail.sql): a webhooks row of
 * format "mail" holding the address, its confirmation state and when it was last mailed.
 *
 * The address is private: these functions are its only readers, for the mail transport
 * (api/mail.h) and the registrant's own masked view; store_webhook_list() never returns
 * mail rows and store_webhook_delete() never removes them.
 */
#ifndef CATAN_DB_STORE_MAIL_H
#define CATAN_DB_STORE_MAIL_H

#include <stdint.h>

#include "db/store.h"

#define STORE_MAIL_ADDRESS_MAX 254

struct store_mail {
	int64_t id; /* the webhooks row */
	int64_t game_id;
	int seat;
	char address[STORE_MAIL_ADDRESS_MAX + 1];
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE]; /* keys the confirm and unsubscribe codes */
	int confirmed;
	int confirm_expired;    /* unconfirmed and the confirmation link's time is up */
	int64_t since_last_ms;  /* since the last turn mail; -1: none yet */
	int64_t last_turn;      /* the turn key of the last turn mail; -1: none yet */
};

/* Register (or replace) the seat's address, unconfirmed, with its confirmation mail queued
 * in the outbox; the link works for expires_s. *id set. STORE_NOT_FOUND: no such game. */
enum store_status store_mail_register(struct store *store, int64_t game_id, int seat, const char *address,
				      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s, int64_t *id);

/* The registration with this id (id > 0) or of this seat of this game (id 0) into *out;
 * STORE_NOT_FOUND when there is none. */
enum store_status store_mail_get(struct store *store, int64_t id, int64_t game_id, int seat, struct store_mail *out);

/* Confirm registration `id` while its link is valid: *confirmed 1, or 0 (already
 * confirmed, expired or gone). */
enum store_status store_mail_confirm(struct store *store, int64_t id, int *confirmed);

/* Remove registration `id` (id > 0) or the seat's (id 0) with its pending mails and log:
 * *removed 1, or 0 when there was none. */
enum store_status store_mail_delete(struct store *store, int64_t id, int64_t game_id, int seat, int *removed);

/* Record that a turn mail about `turn_key` went out now. */
enum store_status store_mail_sent(struct store *store, int64_t id, int64_t turn_key);

#endif
