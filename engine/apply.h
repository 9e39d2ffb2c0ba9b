/*
 * apply.h - fold an event into a game state.
 *
 * apply_event() never fails and never draws randomness: events come from rules_decide() or
 * from a stored log whose values the codec range-checked, and carry every outcome. Starting
 * from a zeroed struct game and applying a game's events in order rebuilds the state byte
 * for byte.
 */
#ifndef CATAN_ENGINE_APPLY_H
#define CATAN_ENGINE_APPLY_H

#include "event.h"
#include "game.h"

/* 1 when *event can be applied to *game: its type exists, the seats, ids, resources and
 * cards it names are in range for this game, the pieces and cards it moves exist, and what
 * it pays is held. Events from rules_decide() always pass; a stored log is checked event by
 * event before it is applied, so a corrupt row is reported instead of corrupting memory.
 * It does not re-check the rules (a forged but well-formed log is the store's concern). */
int apply_event_valid(const struct game *game, const struct event *event);

/* Apply one event to *game (modified in place). */
void apply_event(struct game *game, const struct event *event);

/* Apply a list of events in order. */
void apply_events(struct game *game, const struct event_list *events);

#endif
