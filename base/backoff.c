/*
 * backoff.c - capped exponential backoff with jitter (see backoff.h).
 */
#include "base/backoff.h"

#include <stdlib.h>

#include "base/counters.h"

int backoff_failed(struct backoff *backoff)
{
	if (backoff->failures == 0)
		counters_gauge_add(COUNTERS_GAUGE_BACKING_OFF, 1);
	if (backoff->failures < 30)
		backoff->failures++;
	counters_add(COUNTERS_BACKGROUND_RETRIES, 1);
	long delay = BACKOFF_FIRST_MS;
	for (int i = 1; i < backoff->failures && delay < BACKOFF_MAX_MS; i++)
		delay *= 2;
	if (delay > BACKOFF_MAX_MS)
		delay = BACKOFF_MAX_MS;
	/* Full jitter over the upper half: [delay / 2, delay]. */
	long jitter = (long)(rand_r(&backoff->seed) % (unsigned)(delay / 2 + 1));
	return (int)(delay / 2 + jitter);
}

void backoff_succeeded(struct backoff *backoff)
{
	if (backoff->failures > 0)
		counters_gauge_add(COUNTERS_GAUGE_BACKING_OFF, -1);
	backoff->failures = 0;
}
