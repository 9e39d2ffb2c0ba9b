/*
 * quotas.h - the budgets of this server: how much of what each client (or seat) may have
 * the service do, and the answers past them. The design is in api/quotas.c.
 *
 * A handler asks quotas_admit() before the work and calls quotas_charge() after it
 * succeeded (its 201 or 200 is decided): a refused request costs nothing, and a client
 * past its budget is answered 429 with Retry-After and the budget's problem code before
 * anything is done. Keys: quotas_client() for per-client budgets, quotas_seat_key() for a
 * game's seat.
 */
#ifndef CATAN_API_QUOTAS_H
#define CATAN_API_QUOTAS_H

#include <stdint.h>

#include "api/config.h"
#include "http/http.h"

/* The budgets counted in the database (game/quota.h), for every server of one database. */
enum quotas_budget {
	QUOTAS_CREATE,	     /* games created or imported per client: CREATE_RATE_IP an hour, burst 20 */
	QUOTAS_PLAYER,	     /* players made per client: PLAYER_RATE_IP an hour, burst 10 */
	QUOTAS_IMPORT_BYTES, /* bytes of imports per client: IMPORT_BYTES_IP an hour, burst the same */
	QUOTAS_AWAY,	     /* holiday toggles (away or back) per seat: AWAY_RATE_SEAT a day, burst the same */
	QUOTAS_BUDGET_COUNT
};

/* Fill the budgets from the settings (at start, before serving). */
void quotas_configure(const struct config *config);

/* 1 when the budget is on (its setting is not 0). */
int quotas_on(enum quotas_budget budget);

/* The largest amount the budget ever admits at once (its burst). */
double quotas_burst(enum quotas_budget budget);

/* Would `amount` fit `key`'s budget now? 1 (also when the budget is off), or 0 with a 429
 * (Retry-After, the budget's problem code, the setting named in the detail) or the store's
 * 503 queued. */
int quotas_admit(struct http_request *request, enum quotas_budget budget, const char *key, double amount);

/* Pay `amount` of `key`'s budget for work done (a failure to count is logged, not
 * answered: the work is done and its answer queued). */
void quotas_charge(struct http_request *request, enum quotas_budget budget, const char *key, double amount);

/* The key of per-client budgets: the client as the service sees it (http/client.h). */
const char *quotas_client(const struct http_request *request);

/* The key of a game's seat ("seat:<game id>:<seat>") into out (at least 48 bytes). */
const char *quotas_seat_key(int64_t game_id, int seat, char *out, size_t size);

/* Imports being judged at once in this process: IMPORT_CONCURRENCY. 1 with a place taken
 * (give it back with quotas_import_leave()), or 0 with a 503 import_busy (Retry-After)
 * queued. */
int quotas_import_enter(struct http_request *request);
void quotas_import_leave(void);

#endif
