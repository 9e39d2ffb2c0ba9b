/*
 * fairness.h - provably fair randomness (docs/fairness.md, issue 26): the server seed a
 * game commits to at creation, and the per-event seed of each version that the game service
 * hands the engine (rules_start() and rules_decide_seeded() draw with rng_init(seed,
 * version), as they always did; only where the seed comes from changes).
 *
 *   EVENT_FAIRNESS_NONE    the game's secret 63-bit seed for every version (games created
 *                          before issue 26, and games created with a chosen seed).
 *   EVENT_FAIRNESS_HMAC_1  "catan-fair-1": the seed of version v is the first 8 bytes
 *                          (big-endian) of HMAC-SHA256(server_seed, message(v)), message(v)
 *                          = "catan-fair-1" 0x00, the game id (8 bytes big-endian), each seat's
 *                          seed in seat order (1 length byte, then its UTF-8 bytes), v (4 bytes
 *                          big-endian). Version 0 (the board, the tokens, the first player)
 *                          uses game id 0 and empty seeds: it comes from the server seed
 *                          alone. The players' seeds count from seeds_from on (before it
 *                          every seat's is empty).
 *
 * One HMAC per decision (not per draw): the engine's generator, keyed with the result, makes
 * the draws. Pure functions of their arguments (OpenSSL's SHA-256 and HMAC).
 */
#ifndef CATAN_GAME_FAIRNESS_H
#define CATAN_GAME_FAIRNESS_H

#include <stdint.h>

#include "codec/fairness.h"
#include "engine/event.h"
#include "engine/game.h"

#define FAIRNESS_LABEL "catan-fair-1"
#define FAIRNESS_NO_SEEDS UINT32_MAX

/* Where a game's randomness comes from. */
struct fairness {
	int scheme;	     /* enum event_fairness */
	int64_t legacy_seed; /* EVENT_FAIRNESS_NONE: the secret seed */
	uint8_t server_seed[CODEC_SERVER_SEED_SIZE];
	int64_t game_id;
	int seats;
	uint32_t seeds_from; /* the first version whose seed mixes in player_seeds; FAIRNESS_NO_SEEDS */
	char player_seeds[GAME_MAX_SEATS][CODEC_PLAYER_SEED_MAX + 1];
};

/* The seed the engine draws version `version`'s outcomes with. */
uint64_t fairness_seed_at(const struct fairness *fairness, uint32_t version);

/* SHA-256 of the server seed: what the game publishes before any outcome exists. */
void fairness_commitment(const uint8_t server_seed[CODEC_SERVER_SEED_SIZE], uint8_t out[EVENT_COMMITMENT_SIZE]);

/* A fresh server seed from the OS (OpenSSL's RAND_bytes); 0 when there is none. */
int fairness_new_server_seed(uint8_t out[CODEC_SERVER_SEED_SIZE]);

/* A player's seed: 1..CODEC_PLAYER_SEED_MAX bytes of valid UTF-8 without NUL. */
int fairness_player_seed_valid(const char *text);

/* Write the scheme and the commitment into a game_created event's setup. */
void fairness_stamp(const struct fairness *fairness, struct event_setup *setup);

#endif
