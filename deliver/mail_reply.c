/*
 * mail_reply.c - reply addresses (deliver/mail_reply.h): packing the fields, the HMAC, and
 * base32 both ways.
 *
 * A code is checked by recomputing: decode, recompute the MAC over the 25 bytes of fields
 * with the named registration's secret, compare the 10 bytes with CRYPTO_memcmp. A code
 * that decodes but whose MAC does not match is forged or tampered, whatever its fields
 * say; the caller then changes nothing and answers nothing.
 */
#include "deliver/mail_reply.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <string.h>

#include "codec/text.h"

#define FIELDS_SIZE 25
#define MAC_SIZE 10
#define CODE_BYTES (FIELDS_SIZE + MAC_SIZE)

static const char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";

static void put(uint8_t *at, uint64_t value, int bytes)
{
	for (int i = bytes - 1; i >= 0; i--) {
		at[i] = (uint8_t)(value & 0xff);
		value >>= 8;
	}
}

static uint64_t get(const uint8_t *at, int bytes)
{
	uint64_t value = 0;
	for (int i = 0; i < bytes; i++)
		value = value << 8 | at[i];
	return value;
}

static void pack(const struct mail_reply_code *fields, uint8_t out[FIELDS_SIZE])
{
	put(out, (uint64_t)fields->registration_id, 8);
	put(out + 8, (uint64_t)fields->game_id, 8);
	out[16] = (uint8_t)fields->seat;
	put(out + 17, (uint32_t)fields->version, 4);
	put(out + 21, (uint32_t)fields->expires_s, 4);
}

static void mac(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const uint8_t fields[FIELDS_SIZE],
		uint8_t out[MAC_SIZE])
{
	uint8_t message[6 + FIELDS_SIZE], digest[EVP_MAX_MD_SIZE];
	unsigned int length = 0;
	memcpy(message, "reply:", 6);
	memcpy(message + 6, fields, FIELDS_SIZE);
	HMAC(EVP_sha256(), secret, STORE_WEBHOOK_SECRET_SIZE, message, sizeof message, digest, &length);
	memcpy(out, digest, MAC_SIZE);
}

static void encode(const uint8_t bytes[CODE_BYTES], char out[MAIL_REPLY_CODE_SIZE])
{
	int bits = 0, written = 0;
	uint32_t buffer = 0;
	for (int i = 0; i < CODE_BYTES; i++) {
		buffer = buffer << 8 | bytes[i];
		bits += 8;
		while (bits >= 5) {
			out[written++] = alphabet[buffer >> (bits - 5) & 31];
			bits -= 5;
		}
	}
	out[written] = '\0';
}

static int decode(const char *code, uint8_t bytes[CODE_BYTES])
{
	if (strlen(code) != MAIL_REPLY_CODE_LENGTH)
		return 0;
	int bits = 0, written = 0;
	uint32_t buffer = 0;
	for (const char *c = code; *c; c++) {
		int value;
		if (*c >= 'a' && *c <= 'z')
			value = *c - 'a';
		else if (*c >= 'A' && *c <= 'Z')
			value = *c - 'A';
		else if (*c >= '2' && *c <= '7')
			value = *c - '2' + 26;
		else
			return 0;
		buffer = buffer << 5 | (uint32_t)value;
		bits += 5;
		if (bits >= 8) {
			bytes[written++] = (uint8_t)(buffer >> (bits - 8));
			bits -= 8;
		}
	}
	return written == CODE_BYTES;
}

void mail_reply_code(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const struct mail_reply_code *fields,
		     char out[MAIL_REPLY_CODE_SIZE])
{
	uint8_t bytes[CODE_BYTES];
	pack(fields, bytes);
	mac(secret, bytes, bytes + FIELDS_SIZE);
	encode(bytes, out);
}

int mail_reply_code_read(const char *code, struct mail_reply_code *out)
{
	uint8_t bytes[CODE_BYTES];
	if (!decode(code, bytes))
		return 0;
	out->registration_id = (int64_t)get(bytes, 8);
	out->game_id = (int64_t)get(bytes + 8, 8);
	out->seat = bytes[16];
	out->version = (int32_t)get(bytes + 17, 4);
	out->expires_s = (int64_t)get(bytes + 21, 4);
	return out->registration_id > 0 && out->game_id > 0 && out->version >= 0;
}

int mail_reply_code_matches(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *code)
{
	uint8_t bytes[CODE_BYTES], expected[MAC_SIZE];
	if (!decode(code, bytes))
		return 0;
	mac(secret, bytes, expected);
	return CRYPTO_memcmp(expected, bytes + FIELDS_SIZE, MAC_SIZE) == 0;
}

int mail_reply_address_code(const char *address, const char *domain, char out[MAIL_REPLY_CODE_SIZE])
{
	size_t prefix = strlen(MAIL_REPLY_PREFIX);
	const char *at = strrchr(address, '@');
	if (!at || (size_t)(at - address) != prefix + MAIL_REPLY_CODE_LENGTH ||
	    !text_same_ascii_case(address, MAIL_REPLY_PREFIX, prefix))
		return 0;
	if (domain && (strlen(at + 1) != strlen(domain) || !text_same_ascii_case(at + 1, domain, strlen(domain))))
		return 0;
	memcpy(out, address + prefix, MAIL_REPLY_CODE_LENGTH);
	out[MAIL_REPLY_CODE_LENGTH] = '\0';
	for (int i = 0; i < MAIL_REPLY_CODE_LENGTH; i++)
		if (out[i] >= 'A' && out[i] <= 'Z')
			out[i] = (char)(out[i] - 'A' + 'a');
	uint8_t bytes[CODE_BYTES];
	return decode(out, bytes);
}
