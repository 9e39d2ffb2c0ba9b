/*
 * rng.c - splitmix64 (Steele, Lea and Flood, 2014), the generator Java's SplittableRandom
 * and xoshiro's seeding use. It passes BigCrush, needs 8 bytes of state and is fast.
 * rng_below uses Lemire's multiply-and-reject method, so bounds that do not divide 2^32
 * carry no bias.
 */
#include "rng.h"

#define GOLDEN_GAMMA UINT64_C(0x9e3779b97f4a7c15)

static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void rng_init(struct rng *rng, uint64_t seed, uint64_t stream)
{
	/* Mixing the stream before combining keeps (seed, n) and (seed + k, n - k) apart. */
	rng->state = mix64(seed) ^ mix64(stream * GOLDEN_GAMMA + UINT64_C(0x632be59bd9b4e019));
}

uint64_t rng_next(struct rng *rng)
{
	rng->state += GOLDEN_GAMMA;
	return mix64(rng->state);
}

uint32_t rng_below(struct rng *rng, uint32_t bound)
{
	uint64_t product = (rng_next(rng) >> 32) * (uint64_t)bound;
	uint32_t low = (uint32_t)product;
	if (low < bound) {
		uint32_t threshold = (uint32_t)(-bound) % bound;
		while (low < threshold) {
			product = (rng_next(rng) >> 32) * (uint64_t)bound;
			low = (uint32_t)product;
		}
	}
	return (uint32_t)(product >> 32);
}

int rng_die(struct rng *rng)
{
	return 1 + (int)rng_below(rng, 6);
}
