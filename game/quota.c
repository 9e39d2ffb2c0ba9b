/*
 * quota.c - the glue of budgets counted in the database: a text key hashed with SHA-256
 * (the one hash of game/auth.h) and one store call on this thread's connection.
 */
#include "game/quota.h"

#include <string.h>

#include "game/auth.h"
#include "game/play.h"
#include "game/play_internal.h"

int quota_on(const struct quota_budget *budget)
{
	return budget && budget->rate > 0;
}

static enum store_status run(const struct quota_budget *budget, const char *key, double amount,
			     enum store_quota_mode mode, struct store_quota_answer *answer)
{
	if (!quota_on(budget)) {
		memset(answer, 0, sizeof *answer);
		answer->allowed = 1;
		return STORE_OK;
	}
	uint8_t hash[AUTH_HASH_SIZE];
	auth_hash(key, strlen(key), hash);
	return store_quota(play_thread_store(), budget->kind, hash, amount, budget->rate, budget->burst, mode, answer);
}

enum store_status quota_peek(const struct quota_budget *budget, const char *key, double amount,
			     struct store_quota_answer *answer)
{
	return run(budget, key, amount, STORE_QUOTA_PEEK, answer);
}

enum store_status quota_take(const struct quota_budget *budget, const char *key, double amount,
			     struct store_quota_answer *answer)
{
	return run(budget, key, amount, STORE_QUOTA_TAKE, answer);
}

enum store_status quota_charge(const struct quota_budget *budget, const char *key, double amount)
{
	struct store_quota_answer answer;
	return run(budget, key, amount, STORE_QUOTA_CHARGE, &answer);
}
