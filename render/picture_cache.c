/*
 * picture_cache.c - a small LRU of board pictures (see picture_cache.h).
 *
 * PICTURE_CACHE_ENTRIES slots in an array, each stamped with the tick of its last use: a
 * lookup is a linear scan (256 compares of a 24-byte key, well under a microsecond next to
 * a render of milliseconds), and eviction drops the smallest stamp until the new picture
 * fits the byte budget and a slot is free. Bytes are copied in and out under the mutex, so
 * no caller ever holds a pointer into the cache.
 */
#include "render/picture_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

struct slot {
	struct picture_key key;
	unsigned char *bytes; /* NULL: free slot */
	size_t length;
	uint64_t used;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct slot slots[PICTURE_CACHE_ENTRIES];
static size_t held;
static uint64_t tick;

static int same_key(const struct picture_key *a, const struct picture_key *b)
{
	return a->game_id == b->game_id && a->version == b->version && a->format == b->format && a->theme == b->theme &&
	       a->labels == b->labels && a->size == b->size;
}

static struct slot *find(const struct picture_key *key)
{
	for (int i = 0; i < PICTURE_CACHE_ENTRIES; i++)
		if (slots[i].bytes && same_key(&slots[i].key, key))
			return &slots[i];
	return NULL;
}

int picture_cache_get(const struct picture_key *key, unsigned char **bytes, size_t *length)
{
	pthread_mutex_lock(&lock);
	struct slot *slot = find(key);
	if (slot) {
		slot->used = ++tick;
		*bytes = xmalloc(slot->length);
		memcpy(*bytes, slot->bytes, slot->length);
		*length = slot->length;
	}
	pthread_mutex_unlock(&lock);
	return slot != NULL;
}

static void drop(struct slot *slot)
{
	held -= slot->length;
	free(slot->bytes);
	slot->bytes = NULL;
	slot->length = 0;
}

/* The least recently used occupied slot, or NULL when none is. */
static struct slot *oldest(void)
{
	struct slot *found = NULL;
	for (int i = 0; i < PICTURE_CACHE_ENTRIES; i++)
		if (slots[i].bytes && (!found || slots[i].used < found->used))
			found = &slots[i];
	return found;
}

void picture_cache_put(const struct picture_key *key, const unsigned char *bytes, size_t length)
{
	if (length == 0 || length > PICTURE_CACHE_BYTES / 4)
		return;
	unsigned char *copy = xmalloc(length);
	memcpy(copy, bytes, length);
	pthread_mutex_lock(&lock);
	struct slot *slot = find(key);
	if (slot)
		drop(slot); /* another thread drew the same picture meanwhile: keep one */
	while (held + length > PICTURE_CACHE_BYTES)
		drop(oldest());
	slot = NULL;
	for (int i = 0; i < PICTURE_CACHE_ENTRIES && !slot; i++)
		if (!slots[i].bytes)
			slot = &slots[i];
	if (!slot) {
		slot = oldest();
		drop(slot);
	}
	slot->key = *key;
	slot->bytes = copy;
	slot->length = length;
	slot->used = ++tick;
	held += length;
	pthread_mutex_unlock(&lock);
}

size_t picture_cache_bytes(void)
{
	pthread_mutex_lock(&lock);
	size_t bytes = held;
	pthread_mutex_unlock(&lock);
	return bytes;
}

int picture_cache_count(void)
{
	pthread_mutex_lock(&lock);
	int count = 0;
	for (int i = 0; i < PICTURE_CACHE_ENTRIES; i++)
		count += slots[i].bytes != NULL;
	pthread_mutex_unlock(&lock);
	return count;
}
