/*
 * quiet.c - running time outside daily quiet stretches; see quiet.h.
 *
 * The stretches are walked day by day in the zone's wall time: the one that begins on local
 * day D runs from D + from to D + to (to the next day's `to` when it wraps midnight), each
 * end turned into UTC by zone_utc_of_local(). They are disjoint and ascending, so one pass
 * from the day before the start (whose stretch may reach past midnight into it) adds the
 * running gaps between them. A walk is bounded (WALK_DAYS): budgets longer than that many
 * days of running time are not a correspondence clock.
 */
#include "base/quiet.h"

#include <stddef.h>

#define SECOND_US INT64_C(1000000)
#define DAY_S INT64_C(86400)
/* Twenty years of days: a year-long budget with one running minute a day stays inside. */
#define WALK_DAYS 7400

int quiet_active(const struct quiet_hours *quiet)
{
	return quiet && quiet->zone && quiet->from_min != quiet->to_min;
}

static int64_t floor_div(int64_t value, int64_t by)
{
	int64_t quotient = value / by;
	return value % by != 0 && (value < 0) != (by < 0) ? quotient - 1 : quotient;
}

/* The stretch that begins on local day `day`, in UTC microseconds. */
static void stretch_of_day(const struct quiet_hours *quiet, int64_t day, int64_t *begin_us, int64_t *end_us)
{
	int64_t begin_local = day * DAY_S + quiet->from_min * 60;
	int64_t end_local = (day + (quiet->to_min <= quiet->from_min)) * DAY_S + quiet->to_min * 60;
	*begin_us = zone_utc_of_local(quiet->zone, begin_local) * SECOND_US;
	*end_us = zone_utc_of_local(quiet->zone, end_local) * SECOND_US;
}

/* The local day of `utc_us`. */
static int64_t local_day(const struct quiet_hours *quiet, int64_t utc_us)
{
	int64_t utc_s = floor_div(utc_us, SECOND_US);
	return floor_div(utc_s + zone_offset_at(quiet->zone, utc_s), DAY_S);
}

int64_t quiet_running_us(const struct quiet_hours *quiet, int64_t from_us, int64_t to_us)
{
	if (to_us <= from_us)
		return 0;
	if (!quiet_active(quiet))
		return to_us - from_us;
	int64_t running = 0, at = from_us;
	for (int64_t day = local_day(quiet, from_us) - 1; at < to_us; day++) {
		int64_t begin, end;
		stretch_of_day(quiet, day, &begin, &end);
		if (end <= at)
			continue;
		if (begin >= to_us)
			break;
		if (begin > at)
			running += begin - at;
		at = end;
	}
	if (at < to_us)
		running += to_us - at;
	return running;
}

int64_t quiet_deadline_us(const struct quiet_hours *quiet, int64_t start_us, int64_t running_us)
{
	if (running_us < 0)
		running_us = 0;
	if (!quiet_active(quiet))
		return start_us + running_us;
	int64_t left = running_us, at = start_us;
	int64_t first = local_day(quiet, start_us) - 1;
	for (int64_t day = first; day < first + WALK_DAYS; day++) {
		int64_t begin, end;
		stretch_of_day(quiet, day, &begin, &end);
		if (end <= at)
			continue;
		if (begin > at) {
			if (begin - at >= left)
				return at + left;
			left -= begin - at;
		}
		at = end;
	}
	return at + left;
}

int quiet_parse_time(const char *text)
{
	if (!text)
		return -1;
	for (int i = 0; i < 5; i++)
		if (i == 2 ? text[i] != ':' : !(text[i] >= '0' && text[i] <= '9'))
			return -1;
	if (text[5] != '\0')
		return -1;
	int hours = (text[0] - '0') * 10 + (text[1] - '0');
	int minutes = (text[3] - '0') * 10 + (text[4] - '0');
	if (hours > 23 || minutes > 59)
		return -1;
	return hours * 60 + minutes;
}
