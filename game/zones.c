/*
 * zones.c - time zones read from the tz files once per name; see zones.h.
 */
#include "game/zones.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* More than the tz database has names (about 600, 1,800 with its aliases): a name is
 * cached only once its file has been read, so the list never fills with made-up names. */
#define ZONE_CACHE 4096
#define ZONE_FILE_MAX (256 * 1024)

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static struct zone *cache[ZONE_CACHE];
static int cached;

static struct zone *read_zone_file(const char *name)
{
	const char *directory = getenv("ZONEINFO_DIR");
	char path[512];
	snprintf(path, sizeof path, "%s/%s", directory && *directory ? directory : "/usr/share/zoneinfo", name);
	FILE *file = fopen(path, "rb");
	if (!file)
		return NULL;
	unsigned char *bytes = xmalloc(ZONE_FILE_MAX);
	size_t length = fread(bytes, 1, ZONE_FILE_MAX, file);
	fclose(file);
	struct zone *zone = xmalloc(sizeof *zone);
	if (length == ZONE_FILE_MAX || !zone_parse(bytes, length, zone)) {
		free(zone);
		zone = NULL;
	} else {
		snprintf(zone->name, sizeof zone->name, "%s", name);
	}
	free(bytes);
	return zone;
}

const struct zone *zones_load(const char *name)
{
	if (!zone_name_valid(name))
		return NULL;
	pthread_mutex_lock(&cache_lock);
	const struct zone *found = NULL;
	for (int i = 0; i < cached && !found; i++)
		if (strcmp(cache[i]->name, name) == 0)
			found = cache[i];
	if (!found) {
		/* Read under the lock: a first use per name, a few kilobytes. */
		struct zone *zone = read_zone_file(name);
		if (zone && cached < ZONE_CACHE) {
			cache[cached++] = zone;
			found = zone;
		} else {
			free(zone); /* full: cannot happen with the files of one tz database */
		}
	}
	pthread_mutex_unlock(&cache_lock);
	return found;
}
