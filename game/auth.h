/*
 * auth.h - seat and admin tokens: random, shown once, stored only as SHA-256 hashes,
 * compared in constant time.
 *
 * A token is a prefix ("st_" for a seat, "at_" for a game's admin) and 43 base64url
 * characters: 32 bytes (256 bits) from the operating system's generator (OpenSSL's
 * RAND_bytes). The hash covers the whole token string.
 */
#ifndef CATAN_GAME_AUTH_H
#define CATAN_GAME_AUTH_H

#include <stddef.h>
#include <stdint.h>

#define AUTH_TOKEN_LENGTH 46
#define AUTH_HASH_SIZE 32

/* A new token with `prefix` (3 characters) into out (AUTH_TOKEN_LENGTH + 1 bytes). Returns
 * 0 when the system generator fails (the caller answers 500). */
int auth_new_token(const char *prefix, char out[AUTH_TOKEN_LENGTH + 1]);

/* SHA-256 of a token. */
void auth_hash(const char *token, size_t length, uint8_t out[AUTH_HASH_SIZE]);

/* Constant-time equality of two hashes. */
int auth_equal(const uint8_t a[AUTH_HASH_SIZE], const uint8_t b[AUTH_HASH_SIZE]);

/* Parse "Bearer <token>": 1 with *token and *length set, 0 when the header is absent, -1 when
 * it is present but not a well-formed bearer token. Borrows from header. */
int auth_bearer(const char *header, const char **token, size_t *length);

/* Random bytes from the system generator; 0 on failure. */
int auth_random(void *out, size_t size);

/* base64url without padding of `size` bytes into out (4 * ceil(size / 3) + 1 bytes). */
void auth_base64url(const uint8_t *bytes, size_t size, char *out);

#endif
