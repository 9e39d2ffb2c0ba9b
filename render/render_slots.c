/*
 * render_slots.c - a counting semaphore with a bounded, timed queue for drawing pictures
 * (render_slots.h).
 *
 * One mutex and one condition variable on the monotonic clock (a change of the wall clock
 * neither shortens nor stretches a wait). A waiter re-checks after every wake-up, so a
 * spurious wake-up or a slot taken by a newcomer first only makes it wait on until its
 * deadline; waiters are not served in order, which is fine for pictures (a request that
 * loses answers 503 with Retry-After and its client tries again).
 */
#include "render/render_slots.h"

#include <pthread.h>
#include <time.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int slots = 1, max_waiting = 1, wait_ms = 2000;
static int in_use, waiting;

static void init_condition(void)
{
	pthread_condattr_t attributes;
	pthread_condattr_init(&attributes);
	pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
	pthread_cond_init(&freed, &attributes);
	pthread_condattr_destroy(&attributes);
}

void render_slots_configure(int slot_count, int waiting_count, int milliseconds)
{
	pthread_once(&once, init_condition);
	pthread_mutex_lock(&lock);
	slots = slot_count > 0 ? slot_count : 1;
	max_waiting = waiting_count > 0 ? waiting_count : 1;
	wait_ms = milliseconds > 0 ? milliseconds : 0;
	pthread_mutex_unlock(&lock);
}

enum render_slot render_slots_acquire(void)
{
	pthread_once(&once, init_condition);
	pthread_mutex_lock(&lock);
	if (in_use < slots) {
		in_use++;
		pthread_mutex_unlock(&lock);
		return RENDER_SLOT_TAKEN;
	}
	if (waiting >= max_waiting || wait_ms == 0) {
		pthread_mutex_unlock(&lock);
		return wait_ms == 0 ? RENDER_SLOT_TIMED_OUT : RENDER_SLOT_TOO_MANY_WAITING;
	}
	struct timespec deadline;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += wait_ms / 1000;
	deadline.tv_nsec += (long)(wait_ms % 1000) * 1000000L;
	if (deadline.tv_nsec >= 1000000000L) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000L;
	}
	waiting++;
	int timed_out = 0;
	while (in_use >= slots && !timed_out)
		timed_out = pthread_cond_timedwait(&freed, &lock, &deadline) != 0 && in_use >= slots;
	waiting--;
	if (!timed_out)
		in_use++;
	pthread_mutex_unlock(&lock);
	return timed_out ? RENDER_SLOT_TIMED_OUT : RENDER_SLOT_TAKEN;
}

void render_slots_release(void)
{
	pthread_mutex_lock(&lock);
	in_use--;
	pthread_cond_signal(&freed);
	pthread_mutex_unlock(&lock);
}

int render_slots_in_use(void)
{
	pthread_mutex_lock(&lock);
	int count = in_use;
	pthread_mutex_unlock(&lock);
	return count;
}

int render_slots_waiting(void)
{
	pthread_mutex_lock(&lock);
	int count = waiting;
	pthread_mutex_unlock(&lock);
	return count;
}
