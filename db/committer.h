/*
 * committer.h - group commit across games (db/committer.c).
 *
 * A committer is one thread with its own connection that writes the common append (one
 * event; no snapshot, status, idempotency record or timer) of every store attached to it:
 * everything that is pending when it is free goes in one statement, one transaction, one
 * durable commit, with the wake-ups of all of them in the same transaction. Each append is
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

/* The most appends one statement carries when nothing says otherwise. */
#define STORE_COMMITTER_MAX_BATCH 64

/* Start a committer thread for the database of `conninfo` (it connects when it first
 * sends, and reconnects by itself), sending at most `max_batch` appends per statement
 * (1..1024). Always STORE_OK; free with store_committer_close(). */
enum store_status store_committer_open(const char *conninfo, int max_batch, struct store_committer **out);

/* Send what is pending, stop the thread, free. Close the committer after the stores that
 * use it. NULL is allowed. */
void store_committer_close(struct store_committer *committer);

/* Appends handed in and statements sent, so far. Either out-parameter may be NULL. */
void store_committer_counts(struct store_committer *committer, long *appends, long *batches);

/* Have `store` hand its common appends to `committer` (borrowed; it must outlive the
 * store's use of it), or with NULL write them itself again. */
void store_use_committer(struct store *store, struct store_committer *committer);

#endif
