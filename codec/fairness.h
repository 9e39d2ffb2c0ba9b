/*
 * fairness.h - the JSON of a game's fairness (docs/fairness.md): the hex of its commitment
 * and seeds, the scheme's name, and the "fairness" object of the views, the lobby entry and
 * the export. What the object says is the game service's; this only writes it.
 */
#ifndef CATAN_CODEC_FAIRNESS_H
#define CATAN_CODEC_FAIRNESS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/event.h"
#include "engine/game.h"

#define CODEC_SERVER_SEED_SIZE 32
#define CODEC_PLAYER_SEED_MAX 64

/* The name of a scheme ("catan-fair-1"), NULL for EVENT_FAIRNESS_NONE; and back (-1 when
 * unknown). */
const char *codec_fairness_name(int scheme);
int codec_fairness_from_name(const char *name);

/* Lower-case hex of bytes[0 .. size) into out (2 * size + 1 bytes). */
void codec_hex(const uint8_t *bytes, size_t size, char *out);

/* Read exactly `size` bytes of hex (either case) from text; 0 when it is not that. */
int codec_hex_read(const char *text, uint8_t *out, size_t size);

/* What a reader learns of a game's fairness. */
struct codec_fairness {
	/* enum event_fairness; EVENT_FAIRNESS_NONE: not provably fair (a chosen seed, an
	 * imported game, or one created before: a secret seed nobody committed to) */
	int scheme;
	uint8_t commitment[EVENT_COMMITMENT_SIZE];
	int revealed; /* the game is over: server_seed is published */
	uint8_t server_seed[CODEC_SERVER_SEED_SIZE];
	int seats;
	int seeds_fixed; /* the players' seeds are fixed: player_seeds is what the scheme mixes in */
	char player_seeds[GAME_MAX_SEATS][CODEC_PLAYER_SEED_MAX + 1];
	int64_t seeds_from; /* the version the seeds mix in from (the first roll's decision), -1: not yet */
};

/* {"provably_fair", "scheme", "commitment", "server_seed", "seeds_fixed", "player_seeds",
 * "seeds_from"}
 * (openapi.yaml's Fairness). New reference. */
json_t *codec_fairness_to_json(const struct codec_fairness *fairness);

/* The part of it a waiting game (and the lobby's entry) has: {"provably_fair", "scheme",
 * "commitment"} (openapi.yaml's Commitment). New reference. */
json_t *codec_commitment_to_json(const struct codec_fairness *fairness);

#endif
