/*
 * support.h - helpers for engine tests: build positions through the real rules and poke
 * the few facts a test needs (a hand, a phase) without going around apply's bookkeeping.
 *
 * Every helper that changes a game goes through rules_decide() + apply, or through a
 * synthetic event applied with apply_event(), so the state stays internally consistent
 * (invariants_check() holds). Failures are reported with Check's ck_assert_msg, so a helper
 * failing fails the calling test.
 */
#ifndef CATAN_TESTS_ENGINE_SUPPORT_H
#define CATAN_TESTS_ENGINE_SUPPORT_H

#include <stdint.h>

#include "engine/apply.h"
#include "engine/command.h"
#include "engine/error.h"
#include "engine/event.h"
#include "engine/game.h"
#include "engine/rules.h"

/* A fresh game after GAME_CREATED: default options with `seats` seats, the given layout,
 * first seat 0, manual dice (so tests choose every roll), seed 1. */
void support_new_game(struct game *game, int seats, int layout);

/* Same, with full options (seed 1 for the board and the first-player roll). */
void support_new_game_with(struct game *game, const struct game_options *options);

/* Play the whole setup draft: placements[i] = {node, edge} for draft step i (seat order
 * 0..n-1 then n-1..0 with first seat 0). Each step must be legal. */
void support_draft(struct game *game, const int placements[][2]);

/* A standard draft for 3 or 4 seats on any board (spread-out nodes), leaving the game at
 * turn 1, seat 0, phase roll. */
void support_standard_draft(struct game *game);

/* Decide and apply a command that must be accepted; returns the event list (static storage
 * of the caller: out may be NULL). */
void support_ok(struct game *game, int seat, const struct command *command, struct event_list *out);

/* Decide a command that must be refused with `expected`, and check the state is unchanged. */
void support_refused(const struct game *game, int seat, const struct command *command, enum error expected);

/* Set a seat's hand exactly (moving cards between the bank and the hand). */
void support_set_hand(struct game *game, int seat, int brick, int lumber, int wool, int grain, int ore);

/* Give a seat development cards (taken from the deck) as if bought on an earlier turn. */
void support_give_development(struct game *game, int seat, int card, int count);

/* Roll the given dice for the active seat (manual-dice games). */
void support_roll(struct game *game, int d1, int d2);

/* End the active seat's turn, then roll d1 + d2 for the next seat (not 7, so it stands in
 * the main phase afterwards). */
void support_next_turn(struct game *game, int d1, int d2);

/* Place a road / settlement / city for `seat` directly (a synthetic free event, no rules
 * checked; a city upgrade pays nothing). For building positions quickly in tests of other
 * rules. Resources are untouched; Longest Road is re-evaluated like rules_decide() does. */
void support_place_road(struct game *game, int seat, int edge);
void support_place_settlement(struct game *game, int seat, int node);
void support_place_city(struct game *game, int seat, int node);

/* Convenience command constructors. */
struct command support_command(enum command_type type);
struct command support_build(enum command_type type, int id);

/* The edge joining two adjacent nodes, or -1. */
int support_edge_between(int node_a, int node_b);

/* ---- Added for the rule-by-rule suites ---- */

/* Options for a test game: `seats` seats, `layout`, first seat 0, manual dice, the rest default. */
void support_options(struct game_options *options, int seats, int layout);

/* A roll command with the given dice (0 0 means "no dice given"). */
struct command support_dice(int d1, int d2);

/* Place roads for `seat` directly (support_place_road) along a path of adjacent nodes:
 * support_road_path(game, seat, a, b, c, -1) places roads a-b and b-c. The list ends with -1. */
void support_road_path(struct game *game, int seat, ...);

/* Move cards of `resource` between the bank and `seat`'s hand until the bank holds `left`. */
void support_set_bank(struct game *game, int resource, int left, int seat);

/* Empty every seat's hand into the bank. */
void support_clear_hands(struct game *game);

/* Take every other kind out of the deck (out of the game), so the next card bought is `card`.
 * The deck keeps its `card` count. */
void support_stack_deck(struct game *game, int card);

/* The first event of `type` in the list, or NULL. Borrows from *events. */
const struct event *support_find_event(const struct event_list *events, int type);

/* How many events of `type` the list holds. */
int support_count_events(const struct event_list *events, int type);

/* Decide `command` on a copy of *game with the generator keyed by `seed` (and the game's
 * version), for drawing many outcomes of one random decision; the command must be accepted.
 * The events go to *out. */
void support_decide_seeded(const struct game *game, int seat, const struct command *command, uint64_t seed,
			   struct event_list *out);

/* Pearson's chi-square of `observed` counts over `kinds` outcomes against the expected
 * `weights` (any scale; outcomes of weight 0 must never be observed, else the result is
 * huge). */
double support_chi_square(const long *observed, const int *weights, int kinds);

/* Assert a seat's hand is exactly these counts. */
void support_assert_hand(const struct game *game, int seat, int brick, int lumber, int wool, int grain, int ore);

/* Change what `seat` may not see: other seats' cards (same counts, same totals) and the kinds
 * of their development cards (a knight held since an earlier turn swapped with a victory
 * point card of the deck). Returns 1 when something changed. For tests that a bot decides
 * from its view alone. */
int support_change_hidden_facts(struct game *game, int seat);

/* 1 when the game has an open trade offer. */
int support_any_open_offer(const struct game *game);

#endif
