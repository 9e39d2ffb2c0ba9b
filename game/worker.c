/*
 * worker.c - timer workers: claim due timers, make the bot's or the default move.
 *
 * A timer names the game version it was set at. If the game has moved on, the timer is
 * stale (the append that moved it set the next timer) and is skipped. Otherwise:
 *
 *   bot      every bot seat with something to do moves (engine/autoplay.h), one append
 *            each, until the game waits for a human; while the chain goes on, the timer
 *            each append leaves is a lease (PLAY_BOT_LEASE_MS), not "due now", so other
 *            workers do not race the chain. A bot's trade offer to people ends the chain
 *            too: its timer is then due at the end of the wait for their answers
 *            (offer_wait_s, game/play.h), and the claim that comes due plays on. An unattended game (every human seat
 * away on holiday, game/play.h play_unattended()) makes one move per timer, and its append sets the next one a turn
 * clock later (or none: the game pauses). deadline the decisions pending at that version get their default move:
 * unanswered offers declined, discards chosen at random, the robber moved at random, the dice rolled, the turn ended,
 * or (on_timeout "bot") the bot plays the timed-out seat until its turn ends. Decisions that arise afterwards (the
 * robber after the discards, the next player's roll) get a deadline of their own.
 *
 * Choices draw from a stream of the game's seed distinct from the one decide() uses.
 */
#include "game/worker.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/backoff.h"
#include "base/counters.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "engine/autoplay.h"
#include "engine/legal.h"
#include "game/play.h"
#include "game/play_internal.h"

#define CLAIM_BATCH 4
#define LEASE_MS 10000
#define POLL_MS 100
/* Moves in one chain before the worker lets go; its last move's timer is due at once, so
 * the game goes to the back of the queue (claims take the oldest due timers first) and a
 * game of bots cannot hold a worker while other games wait for their bots. */
#define CHAIN_LIMIT 12
#define CHOICE_STREAM (UINT64_C(1) << 40)

static pthread_mutex_t wake_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake_cond = PTHREAD_COND_INITIALIZER;
static int wake_pending;
static atomic_int running;
static pthread_t *threads;
static int thread_count;

void worker_wake(void)
{
	pthread_mutex_lock(&wake_lock);
	wake_pending = 1;
	pthread_cond_broadcast(&wake_cond);
	pthread_mutex_unlock(&wake_lock);
}

/* Wait up to `milliseconds`, or until woken (worker_wake) when `wakeable`; stopping always
 * ends the wait. */
static void wait_for_work(int milliseconds, int wakeable)
{
	struct timespec until;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += (long)milliseconds * 1000000L;
	until.tv_sec += until.tv_nsec / 1000000000L;
	until.tv_nsec %= 1000000000L;
	pthread_mutex_lock(&wake_lock);
	while ((!wakeable || !wake_pending) && atomic_load(&running))
		if (pthread_cond_timedwait(&wake_cond, &wake_lock, &until) != 0)
			break;
	if (wakeable)
		wake_pending = 0;
	pthread_mutex_unlock(&wake_lock);
}

static void log_failure(const struct game_record *record, const char *what, const char *detail)
{
	log_event("warn", what, "game", record->id_text, "detail", detail, NULL);
}

static struct rng choice_rng(const struct game_record *record)
{
	struct rng rng;
	rng_init(&rng, (uint64_t)record->seed, CHOICE_STREAM + record->state.version);
	return rng;
}

/* Apply one server move; 1 when it was appended (*bot_waits, may be NULL: the game now
 * waits for people to answer a bot's offer, play_result.bot_waits). */
static int apply(struct game_record *record, int seat, const struct command *command, int origin, int keep_lease,
		 int *bot_waits)
{
	struct play_move move = {.seat = seat,
				 .command = command,
				 .origin = origin,
				 .viewer = seat,
				 .pinned = (long)record->state.version,
				 .keep_lease = keep_lease};
	struct play_result result;
	play_move(record, &move, &result);
	if (result.outcome == PLAY_STORE_FAILED) {
		log_failure(record, "server move not stored", store_status_name(result.store_status));
		return 0;
	}
	if (result.outcome == PLAY_REFUSED) {
		log_failure(record, "server move refused", error_code(result.refused));
		return 0;
	}
	if (result.outcome != PLAY_APPLIED)
		return 0; /* the game moved on (another server's move): its own timer goes on */
	counters_add(origin == STORE_ORIGIN_BOT ? COUNTERS_BOT_MOVES : COUNTERS_DEADLINES_FIRED, 1);
	if (bot_waits)
		*bot_waits = result.bot_waits;
	return 1;
}

static void play_bots(struct game_record *record, struct command *scratch)
{
	for (int moves = 0; moves < CHAIN_LIMIT && atomic_load(&running); moves++) {
		/* Read each time: a move may have found the seats changed (a holiday began). */
		uint8_t bots = play_bot_seats(record);
		int seat = autoplay_bot_to_move(&record->state, bots);
		if (seat < 0)
			return;
		/* Nobody at the table: one move per timer (the first of the claim), whose next
		 * one the append paces by the turn clock (play_unattended()). */
		int paced = play_unattended(record);
		if (paced && moves > 0)
			return;
		struct rng rng = choice_rng(record);
		struct command command;
		/* The chain's last move leaves the next one due at once, not leased: letting go of
		 * a long game must not pause it for PLAY_BOT_LEASE_MS. */
		int keep_lease = !paced && moves < CHAIN_LIMIT - 1;
		/* A bot's offer to people: the chain stops, its timer is the end of the wait. */
		int waits = 0;
		if (!autoplay_bot_move(&record->state, seat, &rng, scratch, &command) ||
		    !apply(record, seat, &command, STORE_ORIGIN_BOT, keep_lease, &waits) || paced || waits)
			return;
	}
}

/* An open offer addressed to `seat` it has not answered (by id), at the deadline. */
static int offer_pending(const struct game *state, int seat, int offer_id)
{
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &state->offers[i];
		if (offer->id == offer_id)
			return (offer->to >> seat & 1u) && !((offer->accepted | offer->declined) >> seat & 1u);
	}
	return 0;
}

static void expire_deadline(struct game_record *record, struct command *scratch)
{
	const struct game start = record->state;
	uint8_t waiting = legal_waiting_for(&start);
	int takeover = record->options.on_timeout == CODEC_ON_TIMEOUT_BOT;
	for (int moves = 0; moves < CHAIN_LIMIT && atomic_load(&running); moves++) {
		const struct game *state = &record->state;
		struct rng rng = choice_rng(record);
		int seat;
		struct command command;
		if (!autoplay_timeout_move(state, &rng, scratch, &seat, &command))
			return;
		int same_decision = state->turn_number == start.turn_number && (waiting >> seat & 1u);
		if (command.type == COMMAND_DECLINE_TRADE) {
			/* Offers made before the deadline are answered; later ones get their own. */
			if (!offer_pending(&start, seat, command.trade))
				return;
		} else if (takeover) {
			/* The bot plays the timed-out seat for the rest of its turn. */
			if (!same_decision)
				return;
			rng = choice_rng(record);
			if (!autoplay_bot_move(state, seat, &rng, scratch, &command))
				return;
		} else if (!same_decision || state->phase != start.phase) {
			return;
		}
		if (!apply(record, seat, &command, takeover ? STORE_ORIGIN_BOT : STORE_ORIGIN_TIMEOUT, 0, NULL))
			return;
	}
}

static void handle(const struct store_timer *timer, struct command *scratch)
{
	struct game_record record;
	enum store_status status = play_load(timer->game_id, 1, &record);
	if (status != STORE_OK) {
		char id[STORE_ID_TEXT_SIZE];
		store_format_id(timer->game_id, id);
		log_event("warn", "timer game not loaded", "game", id, "detail", store_status_name(status), NULL);
		return;
	}
	if ((int32_t)record.state.version != timer->version)
		return; /* stale: a newer append set the game's current timer */
	if (timer->kind == STORE_TIMER_BOT)
		play_bots(&record, scratch);
	else
		expire_deadline(&record, scratch);
}

static void *work(void *unused)
{
	(void)unused;
	struct command *scratch = xmalloc(sizeof *scratch * LEGAL_MOVES_MAX);
	struct backoff backoff = {0, (unsigned)(uintptr_t)&backoff};
	while (atomic_load(&running)) {
		struct store_timer timers[CLAIM_BATCH];
		int count = 0;
		enum store_status status =
			store_claim_timers(play_thread_store(), CLAIM_BATCH, LEASE_MS, timers, &count);
		if (status != STORE_OK) {
			/* Wake-ups are ignored while backing off: an outage is not work. */
			wait_for_work(backoff_failed(&backoff), 0);
			continue;
		}
		backoff_succeeded(&backoff);
		for (int i = 0; i < count && atomic_load(&running); i++)
			handle(&timers[i], scratch);
		if (count < CLAIM_BATCH)
			wait_for_work(POLL_MS, 1);
	}
	free(scratch);
	return NULL;
}

void worker_start(int count)
{
	atomic_store(&running, 1);
	thread_count = count;
	threads = xcalloc((size_t)(count ? count : 1), sizeof *threads);
	for (int i = 0; i < count; i++)
		if (pthread_create(&threads[i], NULL, work, NULL) != 0)
			abort();
}

void worker_stop(void)
{
	if (!atomic_exchange(&running, 0))
		return;
	worker_wake();
	for (int i = 0; i < thread_count; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	threads = NULL;
	thread_count = 0;
}
