/*
 * playout.h - random legal play: pick a uniformly random move among the legal moves of the
 * seats the game waits for, with templates filled in at random. Used by `catan sim`, the
 * property tests, the store and API tests, and as the fallback of bots.
 */
#ifndef CATAN_ENGINE_PLAYOUT_H
#define CATAN_ENGINE_PLAYOUT_H

#include "command.h"
#include "error.h"
#include "event.h"
#include "game.h"
#include "rng.h"

struct playout_options {
	int trades; /* 1: the active player may make domestic offers and others answer them */
};

/* Choose a move for *game: *seat and *command are set and 1 returned; 0 when no one can
 * move (the game is over). `scratch` is caller-owned room for LEGAL_MOVES_MAX commands. */
int playout_choose(const struct game *game, const struct playout_options *options, struct rng *rng,
		   struct command *scratch, int *seat, struct command *command);

/* A whole random game played move by move, as `catan sim`, the benchmarks and the tests
 * play one: each decision drawn by rules_decide_seeded() from the game's seed, each move
 * chosen from `chooser`, a stream of its own. Caller-owned; no allocation. */
struct playout_game {
	struct game state;
	uint64_t seed;
	struct rng chooser;
	struct playout_options options;
};

/* Start a game (rules_start()); the moves are chosen from rng_init(seed, chooser_stream).
 * *created holds the creation's events. */
enum error playout_start(struct playout_game *playout, const struct game_options *options,
			 const struct playout_options *choices, uint64_t seed, uint64_t chooser_stream,
			 struct event_list *created);

/* Go on from a state (e.g. loaded from a store), choosing from `chooser`. */
void playout_resume(struct playout_game *playout, const struct game *state, const struct playout_options *choices,
		    uint64_t seed, const struct rng *chooser);

enum playout_result { PLAYOUT_OVER = 0, PLAYOUT_MOVED = 1, PLAYOUT_REFUSED = -1 };

/* One move: PLAYOUT_MOVED with *seat, *command and *events (applied to playout->state);
 * PLAYOUT_OVER when no one can move; PLAYOUT_REFUSED (a defect: a listed move the rules
 * refuse) with *refused set and the state untouched. `scratch` is room for LEGAL_MOVES_MAX
 * commands. */
enum playout_result playout_step(struct playout_game *playout, struct command *scratch, int *seat,
				 struct command *command, struct event_list *events, enum error *refused);

/* Fill a template move (discard, offer, manual roll) with a random concrete choice that
 * rules_decide() accepts; other moves are left as they are. */
void playout_fill_template(const struct game *game, int seat, struct command *command, struct rng *rng);

#endif
