/*
 * rng.h - the engine's only source of randomness: splitmix64, keyed by a game's secret seed
 * and a stream number (the game's version), so any server can draw the next outcome of a
 * game without stored generator state. The caller owns the struct; nothing is global.
 */
#ifndef CATAN_ENGINE_RNG_H
#define CATAN_ENGINE_RNG_H

#include <stdint.h>

struct rng {
	uint64_t state;
};

/* Start a generator for (seed, stream). Different streams of one seed are independent. */
void rng_init(struct rng *rng, uint64_t seed, uint64_t stream);

/* The next 64 random bits. */
uint64_t rng_next(struct rng *rng);

/* A uniform integer in [0, bound), bound > 0, without modulo bias. */
uint32_t rng_below(struct rng *rng, uint32_t bound);

/* One die: 1..6. */
int rng_die(struct rng *rng);

#endif
