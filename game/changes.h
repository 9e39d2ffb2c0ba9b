/*
 * changes.h - hearing of the changes every server makes: a LISTEN on the database
 * (db/listener.h) that tells of each append ("this game reached that version"), each
 * message posted ("this game has a new message") and each token replaced ("this game's
 * tokens changed"), on a connection of its own.
 *
 * A change heard is only a wake-up: it may be late, and changes are missed while the
 * connection is down, so whoever waits re-reads by version; after a reconnect
 * (*reconnected 1) every waiter should. One listener, one thread.
 */
#ifndef CATAN_GAME_CHANGES_H
#define CATAN_GAME_CHANGES_H

#include <stdint.h>

#include "db/listener.h"

/* The version passed for a message posted (not an append). */
#define CHANGES_MESSAGE LISTENER_MESSAGE
/* The version passed for a token of the game replaced: cached token lookups are stale
 * (0015_token_rotation.sql). */
#define CHANGES_TOKENS LISTENER_TOKENS

/* What is told of each change: the game, and its new version, CHANGES_MESSAGE or
 * CHANGES_TOKENS. */
typedef void (*changes_callback)(void *context, int64_t game_id, int32_t version);

struct changes;

/* A listener on `conninfo` (connected on the first wait); the caller closes it. */
struct changes *changes_open(const char *conninfo);
void changes_close(struct changes *changes);

/* Wait up to timeout_ms and tell each change heard to `on_change`: STORE_UNAVAILABLE
 * while the database cannot be reached (after waiting, so a loop never spins). */
enum store_status changes_wait(struct changes *changes, int timeout_ms, changes_callback on_change, void *context,
			       int *reconnected);

#endif
