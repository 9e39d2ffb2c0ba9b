/*
 * lock.c - the lock of render/lock.h: one process-wide mutex, and a flag per thread saying
 * whether this thread holds it (what the assertions of render/cairo_checked.h read; a
 * thread reads only its own flag, so the flag needs no lock of its own).
 */
#include "render/lock.h"

#include <assert.h>
#include <pthread.h>

static pthread_mutex_t cairo_mutex = PTHREAD_MUTEX_INITIALIZER;
static _Thread_local int held;

void render_lock_acquire(void)
{
	assert(!held && "render/lock.h's lock is not recursive");
	pthread_mutex_lock(&cairo_mutex);
	held = 1;
}

void render_lock_release(void)
{
	assert(held && "render/lock.h's lock released by a thread that does not hold it");
	held = 0;
	pthread_mutex_unlock(&cairo_mutex);
}

int render_lock_held(void)
{
	return held;
}
