/*
 * ratings.c - rated games' results (ratings.h): ranks from the log, the multiplayer Elo,
 * and the thread that applies them.
 *
 * The thread asks the store for the oldest pending result, loads the game through the game
 * service (its final state: the winner and every seat's points), reads its log for
 * `resigned` events, reads the seated players' ratings, computes, and hands the result to
 * store_rating_apply(), which writes it only if the game is still pending, nothing ended
 * before it is, and no player's rating changed since it was read. Any of those refused
 * means another server did the work or got there first: the thread reads again. So every
 * result is applied once, in order, and the move path writes nothing but one row at the
 * end (the trigger of db/migrations/0025_ratings.sql).
 */
#include "game/ratings.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "engine/event.h"
#include "game/play.h"
#include "game/play_internal.h"

#define RATINGS_POLL_MS 250
#define RATINGS_ATTEMPTS 8

void ratings_ranks(const struct game *state, unsigned resigned, int ranks[GAME_MAX_SEATS])
{
	int keys[GAME_MAX_SEATS];
	int seats = state->options.seats;
	for (int s = 0; s < seats; s++) {
		if (resigned >> s & 1u)
			keys[s] = -1;
		else if (s == state->winner)
			keys[s] = 1000;
		else
			keys[s] = game_total_points(state, s);
	}
	for (int s = 0; s < seats; s++) {
		ranks[s] = 1;
		for (int other = 0; other < seats; other++)
			if (keys[other] > keys[s])
				ranks[s]++;
	}
}

void ratings_elo(int count, const double *before, const int32_t *rated_games, const int *ranks, double *after)
{
	for (int i = 0; i < count; i++) {
		after[i] = before[i];
		if (count < 2)
			continue;
		double sum = 0.0;
		for (int j = 0; j < count; j++) {
			if (j == i)
				continue;
			double score = ranks[i] < ranks[j] ? 1.0 : ranks[i] == ranks[j] ? 0.5 : 0.0;
			double expected = 1.0 / (1.0 + pow(10.0, (before[j] - before[i]) / 400.0));
			sum += score - expected;
		}
		double k = rated_games[i] < RATINGS_NEW_GAMES ? RATINGS_K_NEW : RATINGS_K;
		after[i] = before[i] + k / (double)(count - 1) * sum;
	}
}

enum store_status ratings_resigned_seats(int64_t game_id, int32_t version, unsigned *resigned)
{
	*resigned = 0;
	int32_t after = 0;
	while (after < version) {
		struct store_log log;
		enum store_status status = play_read_log(game_id, after, 1000, &log);
		if (status != STORE_OK)
			return status;
		int count = log.count;
		for (int i = 0; i < count; i++)
			if (log.rows[i].type == EVENT_RESIGNED && log.rows[i].actor >= 0 &&
			    log.rows[i].actor < GAME_MAX_SEATS)
				*resigned |= 1u << log.rows[i].actor;
		if (count > 0)
			after = log.rows[count - 1].seq;
		store_log_free(&log);
		if (count == 0)
			break;
	}
	return STORE_OK;
}

/* Compute and apply game `game_id`'s result once: *outcome from store_rating_apply(). */
static enum store_status apply_one(int64_t game_id, int *outcome)
{
	struct game_record *record = xcalloc(1, sizeof *record);
	enum store_status status = play_load(game_id, 1, record);
	unsigned resigned = 0;
	if (status == STORE_OK && record->state.phase != GAME_PHASE_FINISHED)
		status = STORE_CORRUPT; /* a pending row is written only as the game finishes */
	if (status == STORE_OK)
		status = ratings_resigned_seats(game_id, (int32_t)record->state.version, &resigned);
	struct store_rating_seat seats[STORE_MAX_SEATS];
	int count = 0;
	if (status == STORE_OK)
		status = store_rating_seats(play_thread_store(), game_id, seats, &count);
	if (status != STORE_OK) {
		free(record);
		return status;
	}
	int seat_ranks[GAME_MAX_SEATS] = {0}, ranks[STORE_MAX_SEATS] = {0};
	ratings_ranks(&record->state, resigned, seat_ranks);
	double before[STORE_MAX_SEATS] = {0}, after[STORE_MAX_SEATS] = {0};
	int32_t games[STORE_MAX_SEATS] = {0};
	struct store_rating_change changes[STORE_MAX_SEATS];
	for (int i = 0; i < count; i++) {
		before[i] = seats[i].rating;
		games[i] = seats[i].rated_games;
		ranks[i] = seats[i].seat < GAME_MAX_SEATS ? seat_ranks[seats[i].seat] : GAME_MAX_SEATS;
	}
	ratings_elo(count, before, games, ranks, after);
	for (int i = 0; i < count; i++)
		changes[i] = (struct store_rating_change){seats[i].seat, seats[i].player_id, before[i], after[i],
							  seats[i].seat == record->state.winner &&
								  !(resigned >> seats[i].seat & 1u)};
	free(record);
	return store_rating_apply(play_thread_store(), game_id, changes, count, outcome);
}

int ratings_work(enum store_status *status)
{
	int applied = 0, attempts = 0;
	*status = STORE_OK;
	while (attempts < RATINGS_ATTEMPTS) {
		int64_t game_id;
		*status = store_rating_next(play_thread_store(), &game_id);
		if (*status == STORE_NOT_FOUND) {
			*status = STORE_OK;
			return applied;
		}
		if (*status != STORE_OK)
			return applied;
		int outcome = STORE_RATING_DONE_ALREADY;
		*status = apply_one(game_id, &outcome);
		if (*status != STORE_OK) {
			char id[STORE_ID_TEXT_SIZE];
			store_format_id(game_id, id);
			log_event("warn", "rating not applied", "game", id, "detail", store_status_name(*status), NULL);
			return applied;
		}
		if (outcome == STORE_RATING_APPLIED) {
			applied++;
			attempts = 0;
		} else {
			attempts++; /* someone else applied it, or got in first: read again */
		}
	}
	return applied;
}

static atomic_int running;
static pthread_t thread;
static int started;

static void *work(void *unused)
{
	(void)unused;
	while (atomic_load(&running)) {
		enum store_status status;
		ratings_work(&status);
		struct timespec pause = {0, RATINGS_POLL_MS * 1000000L};
		if (status != STORE_OK)
			pause.tv_sec = 2; /* an outage, or a result that cannot be computed yet */
		nanosleep(&pause, NULL);
	}
	return NULL;
}

void ratings_start(void)
{
	atomic_store(&running, 1);
	if (pthread_create(&thread, NULL, work, NULL) != 0)
		abort();
	started = 1;
}

void ratings_stop(void)
{
	if (!started || !atomic_exchange(&running, 0))
		return;
	pthread_join(thread, NULL);
	started = 0;
}

enum store_status ratings_profile(int64_t id, struct store_player_profile *out)
{
	return store_player_profile(play_thread_store(), id, out);
}

enum store_status ratings_lobby(int64_t after_created_us, int64_t after_id, int limit, const double band[2],
				struct store_waiting_game *out, int *count)
{
	return store_lobby_band(play_thread_store(), after_created_us, after_id, limit, band, out, count);
}
