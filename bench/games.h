/*
 * games.h - random games for the benchmarks and the tests, played with the engine's
 * playout (engine/playout.h), so that every random game in the project is played the same
 * way: each step one seat's random legal move, decided by the engine exactly as the API
 * would decide it for one request.
 *
 * Two shapes: games_start()/games_step() play decision by decision (what the store tests
 * and the store benchmark append), games_record_play() plays a whole game and keeps every
 * event (what the codec tests and the codec benchmark dump and parse).
 */
#ifndef CATAN_BENCH_GAMES_H
#define CATAN_BENCH_GAMES_H

#include <stdint.h>

#include "engine/command.h"
#include "engine/event.h"
#include "engine/game.h"
#include "engine/playout.h"
#include "engine/rng.h"

struct games_play {
	struct playout_game playout; /* playout.state is the live state */
	struct command *scratch;     /* room for the legal moves; owned */
};

/* Start a game of `seats` seats from `seed` (default options, random layout when `seed` is
 * odd; domestic trades on unless `trades` is 0): *created holds the creation's events.
 * Free with games_free(). */
void games_start(struct games_play *game, uint64_t seed, int seats, int trades, struct event_list *created);

/* Take over a state loaded from the store: the next moves are drawn from `seed` and the
 * state's version, so a continued game does not depend on the process that began it. */
void games_resume(struct games_play *game, const struct game *state, uint64_t seed);

/* Play one decision: *before is the state it was decided on, *seat the seat that moved and
 * *events what it produced (applied). Returns 0 when the game is over; aborts when the
 * engine refuses a move it listed. */
int games_step(struct games_play *game, struct game *before, int *seat, struct event_list *events);

void games_free(struct games_play *game);

/* A whole game and every event of it. */
struct games_record {
	struct game final;    /* the live state after the last event */
	struct event *events; /* owned; games_record_free() */
	int count;
	int capacity;
};

/* Play one random game to the end (random dice, first seat by roll; random layouts use the
 * given numbers placement; `trades`: domestic offers and answers too). Returns 1 when the
 * game was won, 0 when it hit the action limit. */
int games_record_play(struct games_record *out, int seats, int layout, int numbers, int trades, uint64_t seed);

void games_record_free(struct games_record *game);

#endif
