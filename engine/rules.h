/*
 * rules.h - decide: validate a command against the rules and produce the events it causes.
 *
 * rules_decide() is pure: it reads the state, draws any randomness from the caller's
 * generator, and either refuses (an error naming the rule, nothing produced) or fills an
 * event list that apply_event() folds into the state. Consequences are events too: a
 * change of Longest Road or Largest Army and the win are decided here and logged, so a
 * reader of the log sees them and apply never has to decide anything.
 */
#ifndef CATAN_ENGINE_RULES_H
#define CATAN_ENGINE_RULES_H

#include "command.h"
#include "error.h"
#include "event.h"
#include "game.h"
#include "rng.h"

/* Defaults: 4 seats, beginner board, draft start, spiral numbers, classic edition, random
 * dice, first seat by roll. */
void rules_default_options(struct game_options *options);

/* ERROR_OK when the options describe a game this engine plays, else ERROR_INVALID_OPTIONS. */
enum error rules_check_options(const struct game_options *options);

/* The events that create a game: GAME_CREATED (the board and the first player drawn from
 * *rng) and, with the fixed start, the preset opening's placements. */
enum error rules_create(const struct game_options *options, struct rng *rng, struct event_list *out);

/* Decide `command` by `seat` (0..seats-1) on *game. On ERROR_OK, *out holds the events (at
 * least one) and, when `after` is not NULL, *after is the state with them applied (it may
 * alias nothing else). On refusal *out is empty and *after untouched. */
enum error rules_decide(const struct game *game, int seat, const struct command *command, struct rng *rng,
			struct event_list *out, struct game *after);

/* rules_decide() on *game itself, without a copy: on ERROR_OK *game is the state after
 * *out; on refusal *out is empty and *game untouched (every check of a command comes before
 * its first event). */
enum error rules_decide_in_place(struct game *game, int seat, const struct command *command, struct rng *rng,
				 struct event_list *out);

/* The one way every caller seeds a decision: rules_decide() with the randomness of the
 * game's secret `seed` at the game's version (rng_init(seed, version)), so a game's seed
 * and its commands replay it exactly, in the server, the CLI, the benchmarks and the tests. */
enum error rules_decide_seeded(const struct game *game, uint64_t seed, int seat, const struct command *command,
			       struct event_list *out, struct game *after);

/* rules_decide_in_place() with the seeded randomness of rules_decide_seeded(). */
enum error rules_decide_seeded_in_place(struct game *game, uint64_t seed, int seat, const struct command *command,
					struct event_list *out);

/* rules_decide_seeded_in_place() for a move of the seat's legal list (legal_moves(), or
 * legal_tally_move(), with a template filled by playout_fill_template()) on this very state:
 * the same events, without the checks the listing made: a build's placement, pieces and
 * resources, the robber's target, the free roads, the maritime rate, hand and bank (whose
 * turn, the phase and a card's being playable are still checked). For
 * random play only: a command from anywhere else goes through the functions above, which
 * check everything, and a command not listed may be applied wrongly here. */
enum error rules_decide_listed_seeded_in_place(struct game *game, uint64_t seed, int seat,
					       const struct command *command, struct event_list *out);

/* Create a game from its options and seed (rules_create() with rng_init(seed, 0)) and apply
 * the events to *game, which is cleared first. *events keeps what was applied. */
enum error rules_start(const struct game_options *options, uint64_t seed, struct event_list *events, struct game *game);

/* The preset opening of `start: "fixed"` (this service's choice, not the printed start) on
 * the beginner board: settlement node and road edge for each seat's first and second
 * placement. Each second settlement touches three producing hexes. */
extern const int8_t rules_fixed_start[GAME_MAX_SEATS][2][2];

#endif
