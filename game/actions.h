/*
 * actions.h - the Actions body as text ({version, seat, waiting_for, actions}: the JSON of
 * actions_body_json(), dumped compact), remembered for the states it was last asked for.
 *
 * A move whose mover must act again answers the Actions body of the new state, and the
 * mover's next GET .../actions asks for the same body at the same state: the second one is
 * a copy of the first's text, not a second listing of the legal moves and a second dump.
 * The body is a function of the state and the seat alone (the engine is pure), and an
 * entry is found only for a state equal byte for byte to the one it was made from, so a
 * remembered body is always the body that would be built.
 */
#ifndef CATAN_GAME_ACTIONS_H
#define CATAN_GAME_ACTIONS_H

#include <jansson.h>
#include <stddef.h>

#include "engine/game.h"

/* The Actions body of GET .../actions for `viewer` (a seat, or -1 for a spectator or the
 * admin: no actions) at `state`: {version, seat, waiting_for, actions}, every action a
 * move body ready to send (codec_actions_to_json). The same body answers a move whose
 * mover must act again, and rides in your_turn notes (streams, long-polls, webhooks).
 * New reference. */
json_t *actions_body_json(const struct game *state, int viewer);

/* actions_body_json() as compact text for `viewer` at `state`, NUL-terminated,
 * its length in *length. Caller frees with free(). Thread-safe. */
char *actions_body_text(const struct game *state, int viewer, size_t *length);

#endif
