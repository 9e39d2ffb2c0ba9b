/*
 * backoff.h - how long a background thread waits after its database call failed: doubling
 * from BACKOFF_FIRST_MS up to BACKOFF_MAX_MS, with jitter, so a lost database costs a few
 * wake-ups a second across every thread of every server instead of a spinning core, and
 * servers that lost it together do not come back in lockstep.
 */
#ifndef CATAN_BASE_BACKOFF_H
#define CATAN_BASE_BACKOFF_H

#define BACKOFF_FIRST_MS 100
#define BACKOFF_MAX_MS 5000

struct backoff {
	int failures;  /* in a row */
	unsigned seed; /* for the jitter */
};

/* After a failure: the milliseconds to wait before trying again (counted in /metrics as
 * catan_background_retries_total; catan_background_backing_off counts the threads whose
 * last call failed: base/counters.h). The caller owns *backoff (one per thread). */
int backoff_failed(struct backoff *backoff);

/* After a success: the next failure starts again from BACKOFF_FIRST_MS. */
void backoff_succeeded(struct backoff *backoff);

#endif
