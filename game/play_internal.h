/*
 * play_internal.h - what the modules of game/ share and nothing above them sees: this
 * thread's store connection. The floors above reach the store only through game/'s
 * functions (scripts/check-layers.sh refuses this header outside game/, and any include of
 * db/ from http/, deliver/ or api/), so every SQL statement a request, a worker or a
 * delivery causes is one a function of game/ names.
 */
#ifndef CATAN_GAME_PLAY_INTERNAL_H
#define CATAN_GAME_PLAY_INTERNAL_H

#include "db/store.h"

/* This thread's store (opened on first use, with the service's notifier; closed when the
 * thread ends). Borrowed: valid for the thread's life. */
struct store *play_thread_store(void);

#endif
