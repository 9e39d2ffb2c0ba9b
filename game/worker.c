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
 * robber after the discards, the next player's roll) get a deadline of their own. on_timeout "skip" is the
 * default move minus what could profit the timed-out seat: the seat's turn passes (rolled if it must be, then
 * ended), discards are random as by default, setup placements are made as by default (the game cannot go on
 * without them), and the robber goes to a hex where it robs nobody (no other seat with cards beside it; the
 * seat's own buildings may be there) when there is one, else to a random hex as by default.
 *
 * A seat whose deadline has decided options.substitute_after_timeouts times in a row since its
 * player's last own move is left by its player (game/substitutes.h): the bot holds it until a
 * substitute takes it.
 *
 * Choices draw from a stream of the game's seed distinct from the one decide() uses.
 *
 * Bot levels. A bot seat, a seat on holiday and a seat a deadline gives to the bot play at
 * the game's level for that seat (options bot_level / bot_levels, codec/options.h). The hard
 * level's budget (BOT_PLAYOUTS, worker_set_bot_playouts()) shrinks with the load before
 * latency grows: it is divided by the timers claimed and not yet handled per worker thread
 * (at most CLAIM_BATCH each), and halved again while claims come back full (more are due
 * than the workers take), never below BOT_PLAYOUTS_MIN (bot_playouts_under_load()). Strength degrades, not delay.
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
#include "base/clock.h"
#include "base/counters.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "engine/autoplay.h"
#include "engine/legal.h"
#include "game/play.h"
#include "game/play_internal.h"
#include "game/substitutes.h"

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
static atomic_int bot_playouts = BOT_PLAYOUTS_DEFAULT;
static atomic_int claimed;   /* timers claimed, not yet handled, by every worker */
static atomic_int saturated; /* the last claim came back full */

void worker_set_bot_playouts(int playouts)
{
	atomic_store(&bot_playouts, playouts > 0 ? playouts : BOT_PLAYOUTS_DEFAULT);
}

/* The level and budget of the bot playing `seat` now. */
static struct bot_settings bot_settings_for(const struct game_record *record, int seat)
{
	struct bot_settings settings;
	settings.level = codec_options_bot_level(&record->options, seat);
	settings.playouts = bot_playouts_under_load(atomic_load(&bot_playouts), atomic_load(&claimed), thread_count,
						    atomic_load(&saturated));
	return settings;
}

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

/* A bot move stored now: it fell due at *due (clock_now() seconds); the next move of the
 * chain is due from now. */
static void observe_bot_move(double *due)
{
	double now = clock_now();
	counters_observe(COUNTERS_HISTOGRAM_BOT_MOVE_LATENESS, now - *due);
	*due = now;
}

/* The bots' moves of a timer that fell due at `due` (clock_now() seconds). */
static void play_bots(struct game_record *record, struct command *scratch, double due)
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
		struct bot_settings settings = bot_settings_for(record, seat);
		if (!autoplay_bot_move_at(&record->state, seat, &settings, &rng, scratch, &command) ||
		    !apply(record, seat, &command, STORE_ORIGIN_BOT, keep_lease, &waits))
			return;
		observe_bot_move(&due);
		if (paced || waits)
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

/* on_timeout "skip": a robber move of `seat` that robs nobody, chosen at random among the
 * legal ones; 0 when every hex it may go to robs someone. */
static int robber_robbing_nobody(const struct game *state, int seat, struct rng *rng, struct command *scratch,
				 struct command *command)
{
	int count = legal_moves(state, seat, scratch, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	int matching = 0;
	for (int i = 0; i < count; i++)
		if (scratch[i].type == COMMAND_MOVE_ROBBER && scratch[i].victim < 0)
			scratch[matching++] = scratch[i];
	if (matching == 0)
		return 0;
	*command = scratch[rng_below(rng, (uint32_t)matching)];
	return 1;
}

static void expire_deadline(struct game_record *record, struct command *scratch)
{
	const struct game start = record->state;
	uint8_t waiting = legal_waiting_for(&start);
	int takeover = record->options.on_timeout == CODEC_ON_TIMEOUT_BOT;
	int skip = record->options.on_timeout == CODEC_ON_TIMEOUT_SKIP;
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
			struct bot_settings settings = bot_settings_for(record, seat);
			if (!autoplay_bot_move_at(state, seat, &settings, &rng, scratch, &command))
				return;
		} else if (!same_decision || state->phase != start.phase) {
			return;
		} else if (skip && command.type == COMMAND_MOVE_ROBBER) {
			struct command harmless;
			rng = choice_rng(record);
			if (robber_robbing_nobody(state, seat, &rng, scratch, &harmless))
				command = harmless;
		}
		if (!apply(record, seat, &command, takeover ? STORE_ORIGIN_BOT : STORE_ORIGIN_TIMEOUT, 0, NULL))
			return;
	}
}

/* `claimed_at`: clock_now() when the claim that took `timer` returned. */
static void handle(const struct store_timer *timer, double claimed_at, struct command *scratch)
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
	if (timer->kind == STORE_TIMER_BOT) {
		play_bots(&record, scratch, claimed_at - timer->late_ms / 1000.0);
		return;
	}
	/* The seats the deadline decided for, some of which may have left by now. */
	uint8_t timed_out = legal_waiting_for(&record.state) & (uint8_t)~play_bot_seats(&record);
	expire_deadline(&record, scratch);
	substitutes_after_deadline(&record, timed_out);
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
		double claimed_at = clock_now();
		backoff_succeeded(&backoff);
		atomic_store(&saturated, count == CLAIM_BATCH);
		atomic_fetch_add(&claimed, count);
		for (int i = 0; i < count; i++) {
			if (atomic_load(&running))
				handle(&timers[i], claimed_at, scratch);
			atomic_fetch_sub(&claimed, 1);
		}
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
