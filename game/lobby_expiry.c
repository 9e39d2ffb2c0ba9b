/*
 * lobby_expiry.c - the sweep that expires waiting games (see lobby_expiry.h).
 *
 * The thread sleeps on a condition variable so that stopping does not wait out a period;
 * each wake-up runs sweeps of EXPIRY_BATCH games until one finds fewer (a backlog after a
 * long downtime drains at once, a quiet store costs one indexed probe per period:
 * games_waiting_created). A store that fails is tried again at the next period: nothing is
 * lost, since the statement judges age from the rows, not from the thread's memory, which
 * is also why a restart or a second server never expires a game early or twice.
 */
#include "game/lobby_expiry.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

#include "base/log.h"
#include "db/store_lobby.h"
#include "game/play_internal.h"

#define EXPIRY_BATCH 64

static pthread_mutex_t expiry_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t expiry_cond = PTHREAD_COND_INITIALIZER;
static atomic_int expiry_running;
static int expiry_started;
static pthread_t expiry_thread;
static int64_t expiry_age_s;

int lobby_expiry_sweep(int64_t age_s, int *count)
{
	if (count)
		*count = 0;
	for (;;) {
		int64_t ids[EXPIRY_BATCH];
		int found = 0;
		enum store_status status =
			store_expire_waiting_games(play_thread_store(), age_s, EXPIRY_BATCH, ids, &found);
		if (status != STORE_OK) {
			log_event("warn", "waiting games not expired", "detail", store_status_name(status), NULL);
			return 0;
		}
		for (int i = 0; i < found; i++) {
			char id[STORE_ID_TEXT_SIZE];
			store_format_id(ids[i], id);
			log_event("info", "waiting game expired", "game", id, NULL);
		}
		if (count)
			*count += found;
		if (found < EXPIRY_BATCH)
			return 1;
	}
}

static void *sweep_loop(void *unused)
{
	(void)unused;
	int64_t period_s = expiry_age_s / 4;
	if (period_s < 1)
		period_s = 1;
	if (period_s > 60)
		period_s = 60;
	while (atomic_load(&expiry_running)) {
		(void)lobby_expiry_sweep(expiry_age_s, NULL);
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += (time_t)period_s;
		pthread_mutex_lock(&expiry_lock);
		while (atomic_load(&expiry_running))
			if (pthread_cond_timedwait(&expiry_cond, &expiry_lock, &until) != 0)
				break;
		pthread_mutex_unlock(&expiry_lock);
	}
	return NULL;
}

void lobby_expiry_start(int64_t age_s)
{
	if (age_s <= 0 || expiry_started)
		return;
	expiry_age_s = age_s;
	atomic_store(&expiry_running, 1);
	if (pthread_create(&expiry_thread, NULL, sweep_loop, NULL) != 0) {
		atomic_store(&expiry_running, 0);
		log_event("error", "lobby expiry not started", NULL);
		return;
	}
	expiry_started = 1;
}

void lobby_expiry_stop(void)
{
	if (!expiry_started)
		return;
	pthread_mutex_lock(&expiry_lock);
	atomic_store(&expiry_running, 0);
	pthread_cond_broadcast(&expiry_cond);
	pthread_mutex_unlock(&expiry_lock);
	pthread_join(expiry_thread, NULL);
	expiry_started = 0;
}
