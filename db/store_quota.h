/*
 * store_quota.h - budgets counted in the database (db/migrations/0011_quotas.sql), so a
 * budget holds across every server of one database: one leaky bucket per (kind, key)
 * that drains at `rate` units a second and holds at most `burst` units.
 *
 * `kind` names the budget (1..32 characters) and `key` is the 32-byte hash of what it is
 * counted by; the store never sees the key's text. The rate and burst come with every call
 * (the caller's settings), so changing a setting needs no migration. A rate of 0 or less
 * is no budget: everything fits and nothing is written. Same connection and threading
 * rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_QUOTA_H
#define CATAN_DB_STORE_QUOTA_H

#include <stdint.h>

#include "db/store.h"

enum store_quota_mode {
	STORE_QUOTA_PEEK,  /* would `amount` fit now? nothing written, nothing locked */
	STORE_QUOTA_TAKE,  /* take `amount` only if it fits (atomic: concurrent takes queue) */
	STORE_QUOTA_CHARGE /* add `amount` whatever the level: the work was done */
};

struct store_quota_answer {
	int allowed;	   /* amount fitted (for CHARGE: it fitted before the charge) */
	int retry_after_s; /* when refused: seconds until amount fits; 0 otherwise */
	int64_t remaining; /* whole units left after the call */
};

/* Run one call of the budget `kind` for `key`. *answer is set on STORE_OK. */
enum store_status store_quota(struct store *store, const char *kind, const uint8_t key[STORE_HASH_SIZE], double amount,
			      double rate, double burst, enum store_quota_mode mode, struct store_quota_answer *answer);

/* How many receivers one event of game `game_id` is enqueued for now (its own webhooks,
 * chat channels and mail registrations and those of its seated players, enabled ones),
 * at most the bound of store_set_webhook_receivers_max() (db/store.h). */
enum store_status store_receivers_count(struct store *store, int64_t game_id, int *count);

#endif
