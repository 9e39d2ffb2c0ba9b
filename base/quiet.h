/*
 * quiet.h - a seat's quiet hours: a daily stretch of local wall time (e.g. 22:00 to 07:00
 * in Europe/Berlin) during which its correspondence clock does not run (issue 28).
 *
 * Pure arithmetic over a zone (base/zone.h): how much of a span of real time the clock ran,
 * and when a given amount of running time will have passed. The stretch is taken in the
 * zone's wall time of each day, so across a change to or from daylight time a night is an
 * hour shorter or longer in real time; a stretch whose `to` is not after its `from` ends the
 * next day (across midnight). Times are microseconds since 1970, UTC.
 */
#ifndef CATAN_BASE_QUIET_H
#define CATAN_BASE_QUIET_H

#include <stdint.h>

#include "base/zone.h"

struct quiet_hours {
	const struct zone *zone; /* NULL: no quiet hours, the clock always runs */
	int from_min;		 /* minutes after local midnight, 0 .. 1439 */
	int to_min;		 /* the same; equal to from_min is no quiet time at all */
};

/* Whether quiet hours are in force (a zone and a stretch of some length). */
int quiet_active(const struct quiet_hours *quiet);

/* How long the clock ran between from_us and to_us (0 when to_us <= from_us). */
int64_t quiet_running_us(const struct quiet_hours *quiet, int64_t from_us, int64_t to_us);

/* The moment the clock, starting at start_us, will have run `running_us`: start_us +
 * running_us pushed by every quiet stretch in or across the way. A start inside a stretch
 * waits for its end; a deadline never lands inside one (it is the stretch's end). */
int64_t quiet_deadline_us(const struct quiet_hours *quiet, int64_t start_us, int64_t running_us);

/* Parse "HH:MM" (00:00 .. 23:59) into minutes after midnight; -1 when it is not one. */
int quiet_parse_time(const char *text);

#endif
