/*
 * picture_cache.h - the board pictures this process drew lately, so that a hundred chat
 * clients asking for the same turn cost one render.
 *
 * A picture is fixed by (game, version, options): the renderer is deterministic and a
 * version of a game never changes, so an entry never goes stale and needs no invalidation;
 * it only ages out. Least recently used entries are dropped to keep the bytes held under a
 * budget (PICTURE_CACHE_BYTES). Thread-safe (one mutex; lookups copy the bytes out).
 */
#ifndef CATAN_RENDER_PICTURE_CACHE_H
#define CATAN_RENDER_PICTURE_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define PICTURE_CACHE_BYTES (24u << 20)
#define PICTURE_CACHE_ENTRIES 256

struct picture_key {
	int64_t game_id;
	int32_t version;
	uint8_t format; /* enum render_format */
	uint8_t theme;	/* enum render_theme */
	uint8_t labels; /* RENDER_LABEL_* */
	uint16_t size;
};

/* A copy of the picture cached under *key (caller frees *bytes with free()): 1, or 0 when
 * it is not cached. */
int picture_cache_get(const struct picture_key *key, unsigned char **bytes, size_t *length);

/* Keep a copy of `bytes` under *key (borrowed), dropping the least recently used pictures
 * to stay within the budget; a picture larger than a quarter of the budget is not kept. */
void picture_cache_put(const struct picture_key *key, const unsigned char *bytes, size_t length);

/* Bytes and entries held now (for tests and /metrics). */
size_t picture_cache_bytes(void);
int picture_cache_count(void);

#endif
