/*
 * committer.h - group commit across games (db/committer.c).
 *
 * A committer is a few threads, each with its own connection, that write the common append
 * (events alone: no snapshot, status, idempotency record or timer) of every store attached
 * to it: everything that is pending when a thread is free goes in one statement, one
 * transaction, one durable commit. Each append is
 * still refused on its own when its version is taken: a conflict in one game never fails
 * another game's append, and no row is joined with another game's (the store can still be
 * split by game id).
 *
 * A store attached with store_use_committer() hands its common appends to the committer
 * and waits for the outcome (store_append() keeps its contract: STORE_OK, STORE_CONFLICT,
 * STORE_NOT_FOUND, STORE_UNAVAILABLE when the outcome is unknown); other writes stay on the
 * store's own connection.
 */
#ifndef CATAN_DB_COMMITTER_H
#define CATAN_DB_COMMITTER_H

#include "db/store.h"

struct store_committer;

struct store_notifier;

/* The most appends one statement carries, and statements in flight, when nothing says
 * otherwise. */
#define STORE_COMMITTER_MAX_BATCH 64
#define STORE_COMMITTER_CONNECTIONS 2
#define STORE_COMMITTER_MAX_CONNECTIONS 16

/* Start a committer for the database of `conninfo`: `connections` threads (1..16), each
 * with its own connection (made when it first sends, and again after a loss), each taking
 * what is pending when it is free, at most `max_batch` appends per statement (1..1024).
 * Wake-ups: posted to `notifier` (borrowed; it must outlive the committer) after each
 * commit, or with NULL to a notifier of the committer's own. Always STORE_OK; free with
 * store_committer_close(). */
enum store_status store_committer_open(const char *conninfo, int connections, int max_batch,
				       struct store_notifier *notifier, struct store_committer **out);

/* Send what is pending, stop the thread, free. Close the committer after the stores that
 * use it. NULL is allowed. */
void store_committer_close(struct store_committer *committer);

/* Appends handed in and statements sent, so far. Either out-parameter may be NULL. */
void store_committer_counts(struct store_committer *committer, long *appends, long *batches);

/* Have `store` hand its common appends to `committer` (borrowed; it must outlive the
 * store's use of it), or with NULL write them itself again. */
void store_use_committer(struct store *store, struct store_committer *committer);

#endif
