/*
 * clock.c - CLOCK_MONOTONIC as a double (see clock.h): microsecond resolution for about
 * 285 years of uptime, which is all a deadline needs.
 */
#include "base/clock.h"

#include <time.h>

double clock_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
