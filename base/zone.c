/*
 * zone.c - TZif files (RFC 8536) read into offsets over time; see zone.h.
 *
 * Only the version 2+ part is read (64-bit transition times); the first, 32-bit part is
 * skipped by its counts. Pure: the files are read by game/zones.c.
 */
#include "base/zone.h"

#include <string.h>

int zone_name_valid(const char *name)
{
	size_t length = strlen(name);
	if (length == 0 || length >= ZONE_NAME_SIZE || name[0] == '/' || name[length - 1] == '/')
		return 0;
	const char *part = name;
	for (const char *at = name;; at++) {
		if (*at == '/' || *at == '\0') {
			if (at == part || part[0] == '.')
				return 0; /* an empty part, or ".", ".." or a hidden file */
			if (*at == '\0')
				return 1;
			part = at + 1;
			continue;
		}
		char c = *at;
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
		      c == '-' || c == '+' || c == '.'))
			return 0;
	}
}

static uint32_t read_u32(const unsigned char *at)
{
	return (uint32_t)at[0] << 24 | (uint32_t)at[1] << 16 | (uint32_t)at[2] << 8 | (uint32_t)at[3];
}

static int64_t read_i64(const unsigned char *at)
{
	uint64_t value = (uint64_t)read_u32(at) << 32 | read_u32(at + 4);
	return (int64_t)value;
}

struct tzif_counts {
	uint32_t isut, isstd, leap, time, type, chars;
};

/* The header at bytes (44 bytes); 0 when it is not one. */
static int read_header(const unsigned char *bytes, size_t length, struct tzif_counts *counts)
{
	if (length < 44 || memcmp(bytes, "TZif", 4) != 0)
		return 0;
	counts->isut = read_u32(bytes + 20);
	counts->isstd = read_u32(bytes + 24);
	counts->leap = read_u32(bytes + 28);
	counts->time = read_u32(bytes + 32);
	counts->type = read_u32(bytes + 36);
	counts->chars = read_u32(bytes + 40);
	return counts->type > 0 && counts->type <= 256 && counts->time <= 100000 && counts->leap <= 10000 &&
	       counts->chars <= 100000 && counts->isut <= 256 && counts->isstd <= 256;
}

int zone_parse(const unsigned char *bytes, size_t length, struct zone *out)
{
	memset(out, 0, sizeof *out);
	struct tzif_counts counts;
	if (!read_header(bytes, length, &counts) || bytes[4] < '2')
		return 0;
	size_t first = 44 + (size_t)counts.time * 5 + (size_t)counts.type * 6 + counts.chars + (size_t)counts.leap * 8 +
		       counts.isstd + counts.isut;
	if (first > length || !read_header(bytes + first, length - first, &counts))
		return 0;
	const unsigned char *times = bytes + first + 44;
	const unsigned char *indices = times + (size_t)counts.time * 8;
	const unsigned char *types = indices + counts.time;
	if ((size_t)(types + (size_t)counts.type * 6 - bytes) > length || counts.time > ZONE_MAX_TRANSITIONS)
		return 0;
	/* Before the first transition: the first type that is not daylight time, as RFC 8536
	 * 3.2 suggests readers do, else type 0. */
	int initial = 0;
	for (uint32_t t = 0; t < counts.type; t++)
		if (types[t * 6 + 4] == 0) {
			initial = (int)t;
			break;
		}
	out->initial_offset = (int32_t)read_u32(types + initial * 6);
	for (uint32_t i = 0; i < counts.time; i++) {
		if (indices[i] >= counts.type)
			return 0;
		out->at[i] = read_i64(times + (size_t)i * 8);
		if (i > 0 && out->at[i] <= out->at[i - 1])
			return 0;
		out->offset[i] = (int32_t)read_u32(types + (size_t)indices[i] * 6);
		if (out->offset[i] < -26 * 3600 || out->offset[i] > 26 * 3600)
			return 0;
	}
	out->count = (int)counts.time;
	return 1;
}

int32_t zone_offset_at(const struct zone *zone, int64_t utc_s)
{
	if (zone->count == 0 || utc_s < zone->at[0])
		return zone->initial_offset;
	int low = 0, high = zone->count - 1; /* the last transition at or before utc_s */
	while (low < high) {
		int middle = (low + high + 1) / 2;
		if (zone->at[middle] <= utc_s)
			low = middle;
		else
			high = middle - 1;
	}
	return zone->offset[low];
}

int64_t zone_utc_of_local(const struct zone *zone, int64_t local_s)
{
	/* The earlier of the candidate readings that is consistent; else (a gap) the reading
	 * with the offset in force before it. */
	int64_t before = local_s - zone_offset_at(zone, local_s - 26 * 3600);
	int64_t after = local_s - zone_offset_at(zone, local_s + 26 * 3600);
	int64_t earlier = before < after ? before : after, later = before < after ? after : before;
	if (earlier + zone_offset_at(zone, earlier) == local_s)
		return earlier;
	if (later + zone_offset_at(zone, later) == local_s)
		return later;
	return before;
}
