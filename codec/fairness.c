/*
 * fairness.c - the fairness object and its hex (codec/fairness.h).
 */
#include "codec/fairness.h"

#include <string.h>

#include "codec/writer.h"

static const char *const scheme_names[EVENT_FAIRNESS_COUNT] = {
	[EVENT_FAIRNESS_NONE] = NULL,
	[EVENT_FAIRNESS_HMAC_1] = "catan-fair-1",
};

const char *codec_fairness_name(int scheme)
{
	return scheme >= 0 && scheme < EVENT_FAIRNESS_COUNT ? scheme_names[scheme] : NULL;
}

int codec_fairness_from_name(const char *name)
{
	for (int scheme = 0; scheme < EVENT_FAIRNESS_COUNT; scheme++)
		if (name && scheme_names[scheme] && strcmp(name, scheme_names[scheme]) == 0)
			return scheme;
	return -1;
}

void codec_hex(const uint8_t *bytes, size_t size, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < size; i++) {
		out[2 * i] = digits[bytes[i] >> 4];
		out[2 * i + 1] = digits[bytes[i] & 15];
	}
	out[2 * size] = '\0';
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int codec_hex_read(const char *text, uint8_t *out, size_t size)
{
	if (!text || strlen(text) != 2 * size)
		return 0;
	for (size_t i = 0; i < size; i++) {
		int high = hex_digit(text[2 * i]), low = hex_digit(text[2 * i + 1]);
		if (high < 0 || low < 0)
			return 0;
		out[i] = (uint8_t)(high << 4 | low);
	}
	return 1;
}

static json_t *hex_new(const uint8_t *bytes, size_t size)
{
	char text[2 * CODEC_SERVER_SEED_SIZE + 1];
	codec_hex(bytes, size, text);
	return writer_made(json_string(text));
}

json_t *codec_fairness_to_json(const struct codec_fairness *fairness)
{
	json_t *object = writer_made(json_object());
	int fair = fairness->scheme != EVENT_FAIRNESS_NONE;
	writer_put_new(object, "provably_fair", json_boolean(fair));
	writer_put_new(object, "scheme", writer_text_or_null(codec_fairness_name(fairness->scheme)));
	writer_put_new(object, "commitment", fair ? hex_new(fairness->commitment, EVENT_COMMITMENT_SIZE) : json_null());
	writer_put_new(object, "server_seed",
		       fair && fairness->revealed ? hex_new(fairness->server_seed, CODEC_SERVER_SEED_SIZE)
						  : json_null());
	writer_put_new(object, "seeds_fixed", json_boolean(fair && fairness->seeds_fixed));
	json_t *seeds = writer_made(json_array());
	for (int s = 0; fair && s < writer_clamp_seats(fairness->seats); s++)
		writer_append_new(seeds, writer_made(json_string(fairness->player_seeds[s])));
	writer_put_new(object, "player_seeds", seeds);
	writer_put_new(object, "seeds_from",
		       fair && fairness->seeds_from >= 0 ? json_integer(fairness->seeds_from) : json_null());
	return object;
}

json_t *codec_commitment_to_json(const struct codec_fairness *fairness)
{
	json_t *object = writer_made(json_object());
	int fair = fairness->scheme != EVENT_FAIRNESS_NONE;
	writer_put_new(object, "provably_fair", json_boolean(fair));
	writer_put_new(object, "scheme", writer_text_or_null(codec_fairness_name(fairness->scheme)));
	writer_put_new(object, "commitment", fair ? hex_new(fairness->commitment, EVENT_COMMITMENT_SIZE) : json_null());
	return object;
}
