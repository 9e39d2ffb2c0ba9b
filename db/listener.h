/*
 * listener.h - the wake-up side of the event store: LISTEN on the "catan_events" channel
 * that every append notifies with "<game id as 16 hex digits>:<new version>", every
 * message posted with "<game id>:m<seq>", and every replaced token with "<game id>:t"
 * (0015_token_rotation.sql).
 *
 * A notification is only a wake-up: it may be late, and it is lost while the connection is
 * down. Waiters therefore always re-read the log by version; after a reconnect the caller
 * is told (reconnected = 1) so it can make every waiter re-read.
 *
 * One listener = one dedicated connection, used by one thread.
 */
#ifndef CATAN_DB_LISTENER_H
#define CATAN_DB_LISTENER_H

#include <stdint.h>

#include "db/store.h"

struct listener;

/* Open (connects lazily on the first wait). The caller frees with listener_close(). */
struct listener *listener_open(const char *conninfo);
void listener_close(struct listener *listener);

/* A message posted to the game's table talk ('<id>:m<seq>', 0008_feed.sql) is passed with
 * version LISTENER_MESSAGE. */
#define LISTENER_MESSAGE (-1)
/* A token of the game was replaced ('<id>:t'): cached token lookups of it are stale. */
#define LISTENER_TOKENS (-2)
typedef void (*listener_callback)(void *context, int64_t game_id, int32_t version);

/* Wait up to timeout_ms for notifications and call `on_append` for each. *reconnected is
 * set to 1 when the connection was (re)established during this call: notifications may
 * have been missed. Returns STORE_UNAVAILABLE while the database cannot be reached (after
 * sleeping up to timeout_ms, so a caller's loop never spins). */
enum store_status listener_wait(struct listener *listener, int timeout_ms, listener_callback on_append, void *context,
				int *reconnected);

#endif
