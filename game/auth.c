/*
 * auth.c - tokens with OpenSSL's libcrypto: RAND_bytes, SHA256, CRYPTO_memcmp. No
 * hand-written cryptography.
 */
#include "game/auth.h"

#include <openssl/crypto.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <string.h>
#include <strings.h>

int auth_random(void *out, size_t size)
{
	return RAND_bytes(out, (int)size) == 1;
}

void auth_base64url(const uint8_t *bytes, size_t size, char *out)
{
	static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t o = 0;
	for (size_t i = 0; i < size; i += 3) {
		uint32_t chunk = (uint32_t)bytes[i] << 16;
		if (i + 1 < size)
			chunk |= (uint32_t)bytes[i + 1] << 8;
		if (i + 2 < size)
			chunk |= bytes[i + 2];
		out[o++] = alphabet[chunk >> 18 & 63];
		out[o++] = alphabet[chunk >> 12 & 63];
		if (i + 1 < size)
			out[o++] = alphabet[chunk >> 6 & 63];
		if (i + 2 < size)
			out[o++] = alphabet[chunk & 63];
	}
	out[o] = '\0';
}

int auth_new_token(const char *prefix, char out[AUTH_TOKEN_LENGTH + 1])
{
	uint8_t secret[32];
	if (!auth_random(secret, sizeof secret))
		return 0;
	memcpy(out, prefix, 3);
	auth_base64url(secret, sizeof secret, out + 3);
	OPENSSL_cleanse(secret, sizeof secret);
	return 1;
}

void auth_hash(const char *token, size_t length, uint8_t out[AUTH_HASH_SIZE])
{
	SHA256((const unsigned char *)token, length, out);
}

int auth_equal(const uint8_t a[AUTH_HASH_SIZE], const uint8_t b[AUTH_HASH_SIZE])
{
	return CRYPTO_memcmp(a, b, AUTH_HASH_SIZE) == 0;
}

int auth_bearer(const char *header, const char **token, size_t *length)
{
	if (!header)
		return 0;
	if (strncasecmp(header, "Bearer ", 7) != 0)
		return -1;
	const char *value = header + 7;
	while (*value == ' ')
		value++;
	size_t n = strlen(value);
	while (n && value[n - 1] == ' ')
		n--;
	if (n == 0 || n > 128)
		return -1;
	for (size_t i = 0; i < n; i++) {
		char c = value[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
		      c == '_'))
			return -1;
	}
	*token = value;
	*length = n;
	return 1;
}
