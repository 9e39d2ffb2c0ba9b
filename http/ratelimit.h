/*
 * ratelimit.h - token-bucket rate limits per client and per token, in this process (the
 * budgets that hold across servers are api/quotas.h's; the client is http/client.h's).
 *
 * Each key gets a bucket of `burst` requests refilled at `rate` per second. Buckets live
 * in a fixed table (least recently used buckets are recycled), so memory is bounded
 * whatever the number of clients. A rate of 0 disables that limit.
 */
#ifndef CATAN_HTTP_RATELIMIT_H
#define CATAN_HTTP_RATELIMIT_H

#include <stddef.h>

struct ratelimit_config {
	double ip_rate, ip_burst;
	double token_rate, token_burst;
};

void ratelimit_configure(const struct ratelimit_config *config);

enum ratelimit_kind { RATELIMIT_IP, RATELIMIT_TOKEN };

/* What a bucket holds after a request was counted against it, as the RateLimit-* headers
 * (IETF draft httpapi-ratelimit-headers) tell it: `limit` requests at most in a burst (0:
 * this kind is not limited, and the rest is meaningless), `remaining` of them left now,
 * `reset_s` seconds until the bucket is full again, and when the request was refused
 * `retry_after_s`, the seconds until the next one passes. */
struct ratelimit_quota {
	int limit;
	int remaining;
	int reset_s;
	int retry_after_s;
};

/* 1 when a request of this key may go ahead now (and is counted); 0 when it is over the
 * limit. *quota is filled either way. */
int ratelimit_take(enum ratelimit_kind kind, const void *key, size_t length, double now, struct ratelimit_quota *quota);

#endif
