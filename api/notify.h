/*
 * notify.h - parking requests until a game changes: long-polls and event streams.
 *
 * One thread per process LISTENs for appends (game/changes.h) made by any server on the
 * database, and resumes the parked requests of that game; it also resumes requests whose
 * deadline passed. A parked request holds no thread (MHD_suspend_connection). A wake-up
 * only means "read again": handlers always re-read the log by version, so a late or lost
 * notification costs latency, never an event. After the listener reconnects, every parked
 * request is woken to re-read.
 *
 * Three kinds of waiters: a game's (a version after which to wake), a game's that also
 * wakes on table talk (its stream), and a player's feed, which waits on many games at
 * once. Feeds are few next to games' waiters and are kept in one list, scanned per
 * notification (their game lists are sorted: a binary search each).
 */
#ifndef CATAN_API_NOTIFY_H
#define CATAN_API_NOTIFY_H

#include <stdint.h>

#include "http/http.h"

/* Room for one parked request; owned by the request (e.g. inside its handler state). */
struct notify_waiter {
	struct notify_waiter *next;
	struct http_request *request;
	int64_t game_id;
	int32_t after;
	double deadline;
	int parked;
	int messages;	      /* woken by the game's messages too */
	uint64_t seen;	      /* the notify_seen() before the waiter's last read */
	const int64_t *games; /* a feed's games (borrowed while parked), else NULL */
	int game_count;
};

/* Start the listener thread on `conninfo`. */
void notify_start(const char *conninfo);

/* Wake every parked request, refuse new parking, stop the thread. */
void notify_stop(void);

/* Park `request` (suspending its connection) until game `game_id` passes version `after`
 * or until `deadline` (monotonic seconds). Returns 1 when parked: the handler returns and
 * runs again when woken. Returns 0 without parking when a newer version is already known
 * or the server is stopping: the handler re-reads now. */
int notify_park(struct notify_waiter *waiter, struct http_request *request, int64_t game_id, int32_t after,
		double deadline);

/* Like notify_park(), also woken by a message posted to the game (notify_message()):
 * `seen` is notify_seen() taken before the handler's last read; a notification of the
 * game since then returns 0 (read again). */
int notify_park_messages(struct notify_waiter *waiter, struct http_request *request, int64_t game_id, int32_t after,
			 uint64_t seen, double deadline);

/* Park a feed (a player's games): woken by any append or message of games[0 .. count)
 * (borrowed until woken), or at `deadline`. Returns 0 without parking when one of them
 * was notified since `seen` (notify_seen() before the last read), or when stopping. */
int notify_park_games(struct notify_waiter *waiter, struct http_request *request, const int64_t *games, int count,
		      uint64_t seen, double deadline);

/* How many notifications this process has heard so far: taken before a read, so a
 * notification between the read and the parking is not slept through. */
uint64_t notify_seen(void);

/* Tell this process that a message was posted to `game_id` (after its own post, or
 * heard from the database). */
void notify_message(int64_t game_id);

/* Tell this process that `game_id` reached `version` (after its own append, so its own
 * waiters wake without waiting for the database's notification). */
void notify_version(int64_t game_id, int32_t version);

/* Whether this process's cached copy of a game may answer a read without the database:
 * the listener is connected and has heard of no version of the game newer than the copy's
 * since a read or a notification made its slot complete (see notify.c). The ticket, taken
 * before a read of the log's tail, lets that read make the slot complete again. */
struct notify_ticket {
	uint64_t epoch;
	uint64_t notes;
};

/* Take the ticket of a read of game_id's tail (before reading). */
void notify_ticket(int64_t game_id, struct notify_ticket *ticket);

/* 1 when a copy of game_id at `version` is as new as anything heard, and nothing can have
 * gone unheard (the listener has been connected since the slot was made complete). */
int notify_fresh(int64_t game_id, int32_t version);

/* A read of game_id's tail, begun after notify_ticket(), found `version`: the slot is
 * complete again, unless the listener's connection changed or the slot heard a
 * notification since the ticket (then the next read tries again). */
void notify_claim(int64_t game_id, int32_t version, const struct notify_ticket *ticket);

/* The newest version of game_id this process heard of (its listener, its own appends),
 * 0 when none is known (the game's slot holds another game, or nothing yet). */
int32_t notify_heard(int64_t game_id);

/* 1 while the server is stopping. */
int notify_stopping(void);

#endif
