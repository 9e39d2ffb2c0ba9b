/*
 * deliver.c - the delivery threads: claim, hand to the format, record (see deliver.h and
 * deliver_internal.h).
 *
 * The loop. Each thread claims one due row at a time (CLAIM_BATCH) with a lease of
 * LEASE_MS, finds its format in the table, lets the format's send() work, and records
 * what send() said: the row removed (delivered, or nothing to deliver), due again after
 * the backoff of its attempts (1 s doubling to an hour), or due again at a time the format
 * names (a rate limit's Retry-After, a mail's interval). This file (with deliver_progress()
 * of job.c, within a row) is the only writer of a row's progress and due time; the formats
 * only log their attempts. A database that
 * cannot be reached makes the thread back off (base/backoff.h), in short sleeps so that
 * stopping never waits for a whole backoff.
 *
 * The lease (DELIVER_LEASE_MS) covers a row's worst case (one event timing out, then its
 * your_turn note), and is extended after each acknowledged event (deliver_progress(),
 * deliver/job.c): a thread that dies holds a row at most that long, and a crash re-sends
 * at most the event in flight. The
 * same event always carries the same id, so receivers can drop the duplicates that
 * at-least-once delivery implies.
 *
 * A player's registration (0006_player_webhooks.sql) is delivered as one of the player's
 * seat in the row's game: the claim resolves that seat, and a row of a game the player has
 * left (STORE_WEBHOOK_UNSEATED) is dropped here, before any format sees it, unless the
 * format judges such rows itself (mail: a player's confirmation is about no game).
 */
#include "deliver/deliver.h"

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/backoff.h"
#include "base/counters.h"
#include "base/xalloc.h"
#include "deliver/deliver_internal.h"

#define CLAIM_BATCH 1
#define POLL_MS 200
#define RETRY_MAX_MS (3600 * 1000)

/* The formats, by enum store_webhook_format. */
static const struct deliver_format *const formats[] = {&deliver_standard, &deliver_discord, &deliver_slack,
						       &deliver_mail};

static struct deliver_config settings;
static atomic_int running;
static pthread_t *threads;
static int thread_count;

/* ---- Recording what send() said ---- */

/* Backoff before attempt `attempt` + 1 after `attempt` failures, in milliseconds. */
static int64_t backoff_ms(int attempt)
{
	if (attempt < 1)
		attempt = 1;
	if (attempt > 22)
		return RETRY_MAX_MS;
	int64_t delay = (int64_t)1000 << (attempt - 1);
	return delay < RETRY_MAX_MS ? delay : RETRY_MAX_MS;
}

/* The one place a row's progress and due time are written. */
static void record(const struct deliver_job *job)
{
	int64_t outbox = job->row->outbox_id;
	switch (job->outcome) {
	case DELIVER_DONE:
		outbox_update(outbox, 1, job->next_seq, 0);
		break;
	case DELIVER_RETRY:
		outbox_update(outbox, 0, job->next_seq, backoff_ms(job->row->attempts));
		break;
	case DELIVER_LATER:
		outbox_update(outbox, 0, job->next_seq, job->later_ms);
		break;
	case DELIVER_GONE:
		break;
	}
}

/* ---- The loop ---- */

static void deliver_row(CURL *curl, const struct store_delivery *row)
{
	struct deliver_job job = {row, curl, &settings, DELIVER_RETRY, row->next_seq, 0};
	const struct deliver_format *format =
		row->format >= 0 && row->format < (int)(sizeof formats / sizeof formats[0]) ? formats[row->format]
											    : NULL;
	if (!format || (row->seat == STORE_WEBHOOK_UNSEATED && !format->unseated))
		deliver_done(&job, row->last_seq + 1); /* nothing here is anyone's to receive */
	else
		format->send(&job);
	record(&job);
}

static void *work(void *unused)
{
	(void)unused;
	CURL *curl = curl_easy_init();
	if (!curl)
		abort();
	struct backoff backoff = {0, (unsigned)(uintptr_t)&backoff};
	while (atomic_load(&running)) {
		struct store_delivery *rows;
		int count = 0;
		enum store_status status = outbox_claim(CLAIM_BATCH, DELIVER_LEASE_MS, &rows, &count);
		int pause_ms = POLL_MS;
		if (status == STORE_OK) {
			backoff_succeeded(&backoff);
			for (int i = 0; i < count && atomic_load(&running); i++)
				deliver_row(curl, &rows[i]);
			store_deliveries_free(rows, count);
		} else {
			count = 0;
			pause_ms = backoff_failed(&backoff);
		}
		/* Sleep in short steps, so that stopping never waits for a whole backoff. */
		for (int slept = 0; count < CLAIM_BATCH && slept < pause_ms && atomic_load(&running); slept += 50) {
			struct timespec step = {0, 50 * 1000000L};
			nanosleep(&step, NULL);
		}
	}
	curl_easy_cleanup(curl);
	return NULL;
}

void deliver_start(const struct deliver_config *config)
{
	settings = *config;
	if (settings.channel_max_failures <= 0)
		settings.channel_max_failures = 10;
	curl_global_init(CURL_GLOBAL_DEFAULT);
	atomic_store(&running, 1);
	thread_count = config->threads;
	threads = xcalloc((size_t)(thread_count ? thread_count : 1), sizeof *threads);
	for (int i = 0; i < thread_count; i++)
		if (pthread_create(&threads[i], NULL, work, NULL) != 0)
			abort();
}

void deliver_stop(void)
{
	if (!atomic_exchange(&running, 0))
		return;
	for (int i = 0; i < thread_count; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	threads = NULL;
	thread_count = 0;
	curl_global_cleanup();
}
