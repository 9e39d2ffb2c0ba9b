/*
 * quota.h - budgets counted in the database for every server of one database
 * (db/store_quota.h): the calls the HTTP layer makes before work and after it.
 *
 * A budget is a name, a rate and a burst (struct quota_budget, filled from the server's
 * settings: api/quotas.c holds this server's). What it is counted by is a text key of the
 * caller's choosing: a client's key (http/client.h: "ip:203.0.113.7", "ip6:2001:db8::/64"),
 * a game's seat ("seat:<game id>:<seat>"), a mail address ... The store keeps only its
 * SHA-256, so a budget row names no address.
 *
 * The usual order: quota_peek() before the work (a client past its budget costs a single
 * read), then the work, then quota_charge() once it succeeded: only work actually done is
 * paid for, and a refused request (a wrong body, a rule) costs nothing. quota_take() is
 * for a caller that must not go over at all (it takes the amount only if it fits, under the
 * row's lock) and gives back nothing by itself.
 *
 * A budget with rate 0 is off: every call answers allowed without a query.
 */
#ifndef CATAN_GAME_QUOTA_H
#define CATAN_GAME_QUOTA_H

#include "db/store.h"
#include "db/store_quota.h"

struct quota_budget {
	const char *kind; /* the budget's name in the store: 1..32 characters */
	double rate;	  /* units regained a second; 0: no budget */
	double burst;	  /* units at most at once (and after a long pause) */
};

/* 1 when the budget is on. */
int quota_on(const struct quota_budget *budget);

/* Would `amount` fit `key`'s budget now? *answer (allowed, retry_after_s, remaining). */
enum store_status quota_peek(const struct quota_budget *budget, const char *key, double amount,
			     struct store_quota_answer *answer);

/* Take `amount` only if it fits. */
enum store_status quota_take(const struct quota_budget *budget, const char *key, double amount,
			     struct store_quota_answer *answer);

/* Pay `amount` for work done, whether or not it still fitted. */
enum store_status quota_charge(const struct quota_budget *budget, const char *key, double amount);

#endif
