/*
 * invariants.h - facts that hold in every reachable state; checked after every move by
 * `catan sim` and the property tests.
 */
#ifndef CATAN_ENGINE_INVARIANTS_H
#define CATAN_ENGINE_INVARIANTS_H

#include "game.h"

/* NULL when every invariant holds, else a static description of the first broken one:
 * resources conserved (bank + hands = 19 of each), pieces within 15/5/4 and matching the
 * board, bit masks matching the arrays, points by the formula, road lengths as recomputed,
 * Longest Road and Largest Army holders qualified, development cards conserved. */
const char *invariants_check(const struct game *game);

#endif
