/*
 * fairness.c - the per-event seeds of provably fair games (game/fairness.h).
 */
#include "game/fairness.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <string.h>

#include "codec/text.h"

#define MESSAGE_MAX (sizeof FAIRNESS_LABEL + 8 + GAME_MAX_SEATS * (1 + CODEC_PLAYER_SEED_MAX) + 4)

static size_t put_be(uint8_t *out, uint64_t value, int bytes)
{
	for (int i = 0; i < bytes; i++)
		out[i] = (uint8_t)(value >> (8 * (bytes - 1 - i)));
	return (size_t)bytes;
}

uint64_t fairness_seed_at(const struct fairness *fairness, uint32_t version)
{
	if (fairness->scheme != EVENT_FAIRNESS_HMAC_1)
		return (uint64_t)fairness->legacy_seed;
	uint8_t message[MESSAGE_MAX];
	size_t size = sizeof FAIRNESS_LABEL; /* the label and its NUL */
	memcpy(message, FAIRNESS_LABEL, size);
	size += put_be(message + size, version == 0 ? 0 : (uint64_t)fairness->game_id, 8);
	int mixed = version != 0 && fairness->seeds_from != FAIRNESS_NO_SEEDS && version >= fairness->seeds_from;
	for (int s = 0; s < fairness->seats && s < GAME_MAX_SEATS; s++) {
		size_t length = mixed ? strnlen(fairness->player_seeds[s], CODEC_PLAYER_SEED_MAX) : 0;
		message[size++] = (uint8_t)length;
		memcpy(message + size, fairness->player_seeds[s], length);
		size += length;
	}
	size += put_be(message + size, version, 4);
	uint8_t mac[EVP_MAX_MD_SIZE];
	unsigned int mac_size = 0;
	HMAC(EVP_sha256(), fairness->server_seed, CODEC_SERVER_SEED_SIZE, message, size, mac, &mac_size);
	uint64_t seed = 0;
	for (int i = 0; i < 8; i++)
		seed = seed << 8 | mac[i];
	return seed;
}

void fairness_commitment(const uint8_t server_seed[CODEC_SERVER_SEED_SIZE], uint8_t out[EVENT_COMMITMENT_SIZE])
{
	SHA256(server_seed, CODEC_SERVER_SEED_SIZE, out);
}

int fairness_new_server_seed(uint8_t out[CODEC_SERVER_SEED_SIZE])
{
	return RAND_bytes(out, CODEC_SERVER_SEED_SIZE) == 1;
}

int fairness_player_seed_valid(const char *text)
{
	size_t size = text ? strlen(text) : 0;
	if (size < 1 || size > CODEC_PLAYER_SEED_MAX)
		return 0;
	return text_utf8_valid(text, size);
}

void fairness_stamp(const struct fairness *fairness, struct event_setup *setup)
{
	setup->fairness = (uint8_t)fairness->scheme;
	if (fairness->scheme != EVENT_FAIRNESS_NONE)
		fairness_commitment(fairness->server_seed, setup->commitment);
	else
		memset(setup->commitment, 0, sizeof setup->commitment);
}
