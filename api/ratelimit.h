/*
 * ratelimit.h - token-bucket rate limits per client IP and per token, in this process.
 *
 * Each key gets a bucket of `burst` requests refilled at `rate` per second. Buckets live
 * in a fixed table (least recently used buckets are recycled), so memory is bounded
 * whatever the number of clients. A rate of 0 disables that limit.
 */
#ifndef CATAN_API_RATELIMIT_H
#define CATAN_API_RATELIMIT_H

#include <stddef.h>

struct ratelimit_config {
	double ip_rate, ip_burst;
	double token_rate, token_burst;
	double create_rate, create_burst; /* games created per client IP */
};

void ratelimit_configure(const struct ratelimit_config *config);

enum ratelimit_kind { RATELIMIT_IP, RATELIMIT_TOKEN, RATELIMIT_CREATE };

/* 1 when a request of this key may go ahead now (and is counted); 0 when it is over the
 * limit, with *retry_after_s set to the seconds until the next request would pass. */
int ratelimit_allow(enum ratelimit_kind kind, const void *key, size_t length, double now, int *retry_after_s);

#endif
