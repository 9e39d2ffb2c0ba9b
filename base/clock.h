/*
 * clock.h - the process's monotonic clock, in seconds: what every deadline, timeout and
 * duration of the server is measured with (never the wall clock, which jumps).
 */
#ifndef CATAN_BASE_CLOCK_H
#define CATAN_BASE_CLOCK_H

/* Seconds on CLOCK_MONOTONIC (an arbitrary origin: only differences mean anything). */
double clock_now(void);

#endif
