/*
 * store_quota.c - one statement, catan_quota() of db/migrations/0011_quotas.sql: a peek, a
 * conditional take or a charge of a leaky bucket, under the row's lock for the last two;
 * and the count of one event's receivers (catan_receivers() of the same migration).
 */
#include "db/store_quota.h"

#include "db/store_internal.h"

#define QUOTA_STATEMENTS(X)                                                                                     \
	X(quota, 6,                                                                                             \
	  "SELECT q.allowed, q.retry_after_s, floor(q.remaining)::bigint FROM catan_quota($1::text, $2::bytea," \
	  " $3::double precision, $4::double precision, $5::double precision, $6::integer) q")                  \
	X(receivers, 1, "SELECT count(*)::integer FROM catan_receivers($1::bigint)")
STORE_STATEMENTS(quota, QUOTA_STATEMENTS);

/* A number as a text parameter (numbers[] holds 24 bytes: %.15g fits). */
static void param_number(struct params *params, double value)
{
	int i = params->count++;
	snprintf(params->numbers[i], sizeof params->numbers[i], "%.15g", value);
	params->values[i] = params->numbers[i];
	params->lengths[i] = 0;
	params->formats[i] = 0;
}

enum store_status store_quota(struct store *store, const char *kind, const uint8_t key[STORE_HASH_SIZE], double amount,
			      double rate, double burst, enum store_quota_mode mode, struct store_quota_answer *answer)
{
	memset(answer, 0, sizeof *answer);
	if (!kind || !*kind || strlen(kind) > 32 || amount < 0 || burst < 0) {
		store__say(store, "a quota call needs a kind of 1..32 characters and amounts of 0 or more");
		return STORE_INVALID;
	}
	if (rate <= 0) {
		answer->allowed = 1;
		answer->remaining = (int64_t)burst;
		return STORE_OK;
	}
	struct params params = {0};
	param_text(&params, kind);
	param_bytes(&params, key, STORE_HASH_SIZE);
	param_number(&params, amount);
	param_number(&params, rate);
	param_number(&params, burst);
	param_int(&params, (long long)mode);
	PGresult *result;
	/* A peek writes nothing: safe to send again on a fresh connection. */
	enum store_status status = store__run(store, &statement_quota, &params, mode == STORE_QUOTA_PEEK, &result);
	if (status != STORE_OK)
		return status;
	int32_t retry = 0;
	if (PQntuples(result) != 1 || !get_bool(result, 0, 0, &answer->allowed) || !get_int32(result, 0, 1, &retry) ||
	    !get_int64(result, 0, 2, &answer->remaining)) {
		status = store__corrupt(store, 0, "catan_quota answered no row");
	} else {
		answer->retry_after_s = retry;
	}
	PQclear(result);
	return status;
}

enum store_status store_receivers_count(struct store *store, int64_t game_id, int *count)
{
	*count = 0;
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_receivers, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t value = 0;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &value))
		status = store__corrupt(store, game_id, "the receivers were not counted");
	*count = value;
	PQclear(result);
	return status;
}
