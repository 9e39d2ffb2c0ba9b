/*
 * notify.h - parking requests until a game changes: long-polls and event streams.
 *
 * One thread per process LISTENs for appends (db/listener.h) made by any server on the
 * database, and resumes the parked requests of that game; it also resumes requests whose
 * deadline passed. A parked request holds no thread (MHD_suspend_connection). A wake-up
 * only means "read again": handlers always re-read the log by version, so a late or lost
 * notification costs latency, never an event. After the listener reconnects, every parked
 * request is woken to re-read.
 */
#ifndef CATAN_API_NOTIFY_H
#define CATAN_API_NOTIFY_H

#include <stdint.h>

#include "api/http.h"

/* Room for one parked request; owned by the request (e.g. inside its handler state). */
struct notify_waiter {
	struct notify_waiter *next;
	struct http_request *request;
	int64_t game_id;
	int32_t after;
	double deadline;
	int parked;
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

/* Tell this process that `game_id` reached `version` (after its own append, so its own
 * waiters wake without waiting for the database's notification). */
void notify_version(int64_t game_id, int32_t version);

/* 1 while the server is stopping. */
int notify_stopping(void);

#endif
