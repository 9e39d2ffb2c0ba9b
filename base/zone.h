/*
 * zone.h - time zones from the tz database's compiled files (TZif, RFC 8536), read by this
 * module, never through setenv("TZ")/localtime(): the process's TZ is one global that a
 * threaded server cannot swap for one request without racing every other thread.
 *
 * A zone is its UTC offsets over time: the transitions of the file's 64-bit part and the
 * offset of each. After the last transition the last offset holds (Debian's files are
 * "fat": transitions are listed up to 2037; the POSIX rule of the footer is not read).
 */
#ifndef CATAN_BASE_ZONE_H
#define CATAN_BASE_ZONE_H

#include <stddef.h>
#include <stdint.h>

#define ZONE_MAX_TRANSITIONS 512
#define ZONE_NAME_SIZE 64

struct zone {
	char name[ZONE_NAME_SIZE];
	int count;			      /* transitions */
	int64_t at[ZONE_MAX_TRANSITIONS];     /* seconds since 1970 UTC, ascending */
	int32_t offset[ZONE_MAX_TRANSITIONS]; /* seconds east of UTC from at[i] on */
	int32_t initial_offset;		      /* before at[0] */
};

/* Whether `name` has the form of a tz database name ("Europe/Berlin", "UTC",
 * "America/Argentina/Buenos_Aires"): letters, digits, '_', '-', '+', '/' between parts,
 * no "." part, at most ZONE_NAME_SIZE - 1 characters. */
int zone_name_valid(const char *name);

/* Parse the TZif bytes[0 .. length) into *out (name left empty). 1, or 0 when they are not
 * a TZif file of version 2 or later this module can read. Pure. */
int zone_parse(const unsigned char *bytes, size_t length, struct zone *out);

/* The offset east of UTC, in seconds, of the zone at `utc_s` (seconds since 1970). */
int32_t zone_offset_at(const struct zone *zone, int64_t utc_s);

/* The UTC time of the local wall time `local_s` (seconds since 1970 as if local were UTC).
 * A wall time that falls in a gap (spring forward) comes out as the moment the clocks
 * jumped past it would be read with the offset before the jump; one that occurs twice
 * (fall back) as its first occurrence. */
int64_t zone_utc_of_local(const struct zone *zone, int64_t local_s);

#endif
