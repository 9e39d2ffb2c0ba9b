/*
 * ratelimit.c - buckets in a 4096-entry table, 4-way associative by a 64-bit FNV-1a hash of
 * (kind, key), with one mutex per 64 entries. A full set recycles its least recently used
 * bucket, which at worst forgives a client some requests: never a refusal by mistake.
 *
 * A bucket holds at most `burst` tokens and gains `rate` a second; a request takes one.
 * What the client is told (struct ratelimit_quota) is read off the bucket under its lock
 * right after the request was counted: whole tokens left, and the time until it is full.
 */
#include "http/ratelimit.h"

#include <math.h>
#include <pthread.h>
#include <stdint.h>

#define TABLE_SIZE 4096
#define WAYS 4
#define LOCKS (TABLE_SIZE / 64)

struct bucket {
	uint64_t key;
	double tokens;
	double last;
};

static struct bucket buckets[TABLE_SIZE];
static pthread_mutex_t locks[LOCKS];
static pthread_once_t locks_once = PTHREAD_ONCE_INIT;
static struct ratelimit_config limits;

static void init_locks(void)
{
	for (int i = 0; i < LOCKS; i++)
		pthread_mutex_init(&locks[i], NULL);
}

void ratelimit_configure(const struct ratelimit_config *config)
{
	pthread_once(&locks_once, init_locks);
	limits = *config;
}

static uint64_t hash_key(int kind, const void *key, size_t length)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325) ^ (uint64_t)kind;
	const unsigned char *bytes = key;
	for (size_t i = 0; i < length; i++) {
		h ^= bytes[i];
		h *= UINT64_C(0x100000001b3);
	}
	return h | 1; /* 0 marks an empty bucket */
}

int ratelimit_take(enum ratelimit_kind kind, const void *key, size_t length, double now, struct ratelimit_quota *quota)
{
	pthread_once(&locks_once, init_locks);
	double rate = kind == RATELIMIT_IP ? limits.ip_rate : limits.token_rate;
	double burst = kind == RATELIMIT_IP ? limits.ip_burst : limits.token_burst;
	quota->limit = quota->remaining = quota->reset_s = quota->retry_after_s = 0;
	if (rate <= 0)
		return 1;
	if (burst < 1)
		burst = 1;
	quota->limit = (int)burst;
	uint64_t h = hash_key(kind, key, length);
	size_t set = (size_t)(h % (TABLE_SIZE / WAYS)) * WAYS;
	pthread_mutex_t *lock = &locks[set / 64];
	pthread_mutex_lock(lock);
	struct bucket *found = NULL, *oldest = &buckets[set];
	for (int w = 0; w < WAYS; w++) {
		struct bucket *b = &buckets[set + (size_t)w];
		if (b->key == h) {
			found = b;
			break;
		}
		if (b->key == 0 || b->last < oldest->last)
			oldest = b;
	}
	if (!found) {
		found = oldest;
		found->key = h;
		found->tokens = burst;
		found->last = now;
	}
	found->tokens = fmin(burst, found->tokens + (now - found->last) * rate);
	found->last = now;
	int allowed = found->tokens >= 1.0;
	if (allowed) {
		found->tokens -= 1.0;
	} else {
		quota->retry_after_s = (int)ceil((1.0 - found->tokens) / rate);
		if (quota->retry_after_s < 1)
			quota->retry_after_s = 1;
	}
	quota->remaining = (int)floor(found->tokens);
	quota->reset_s = (int)ceil((burst - found->tokens) / rate);
	pthread_mutex_unlock(lock);
	return allowed;
}
