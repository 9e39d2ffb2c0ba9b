/*
 * notifier.h - waking listeners of many stores at once (db/notifier.c).
 *
 * Every create and append wakes the listeners of channel "catan_events" with
 * "<id as 16 hex digits>:<new version>", after its transaction has committed (db/listener.h
 * is the waiting side). By default the store sends the wake-up itself, as a second
 * transaction in the same round trip as the write. A process with many writers should
 * instead share one notifier: a thread with its own connection that sends the wake-ups of
 * all its stores in batches, one transaction per batch, which is what keeps appends near
 * the speed of plain inserts (db/notifier.c says what it costs in guarantees: a wake-up
 * pending when the process dies is lost; listeners then wait for their own deadline).
 */
#ifndef CATAN_DB_NOTIFIER_H
#define CATAN_DB_NOTIFIER_H

#include "db/store.h"

struct store_notifier;

/* Start a notifier thread for the database of `conninfo` (it connects when it first
 * sends, and reconnects by itself). Always STORE_OK; free with store_notifier_close(). */
enum store_status store_notifier_open(const char *conninfo, struct store_notifier **out);

/* Send what is pending (one attempt), stop the thread, free. Close the notifier after the
 * stores that use it. NULL is allowed. */
void store_notifier_close(struct store_notifier *notifier);

/* Wake-ups sent, dropped (the database unreachable for long, or at close), and
 * transactions used, so far. Any out-parameter may be NULL. */
void store_notifier_counts(struct store_notifier *notifier, long *sent, long *dropped, long *batches);

/* Have `store` post its wake-ups to `notifier` (borrowed; it must outlive the store's use
 * of it), or with NULL send them itself again. */
void store_use_notifier(struct store *store, struct store_notifier *notifier);

#endif
