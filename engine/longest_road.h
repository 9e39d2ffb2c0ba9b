/*
 * longest_road.h - the length of a seat's longest road (RULES.md section 8) and who holds
 * the Longest Road card after a change on the board.
 */
#ifndef CATAN_ENGINE_LONGEST_ROAD_H
#define CATAN_ENGINE_LONGEST_ROAD_H

#include "game.h"

/* The longest simple route of the seat's connected roads: each road counted once, branches
 * not added, cycles allowed, never passing through an intersection that holds an
 * opponent's building (a route may end there). */
int longest_road_length(const struct game *game, int seat);

/* longest_road_length() after the seat built the road at `edge`, given its length `before`
 * it: a road only adds trails, so the longest is the old one or one through the new road;
 * where the new road's network is a tree that one is found from the road's two ends alone,
 * and otherwise by the whole search. */
int longest_road_after_road(const struct game *game, int seat, int edge, int before);

/* Who holds the card given every seat's current road_length, under the rules: the holder
 * keeps it while no one is strictly longer and it still has 5+; otherwise exactly one seat
 * with the strictly longest 5+ route takes it; otherwise it is set aside (-1). */
int longest_road_holder(const struct game *game);

#endif
