/*
 * import.h - judging an event log before it becomes a game (POST /v1/games/import).
 *
 * import_verify() replays a log (engine events, unredacted) and refuses any the rules
 * refuse. What it verifies:
 *
 *   With the seed: everything. The first events must be exactly what rules_start() makes of
 *   the game_created event's options and the seed (the board, the first-player roll, a
 *   fixed start's placements). Then the log is cut into the decisions that made it: the
 *   command each group comes from is derived from the group's first event (a built piece,
 *   a roll with its dice, a discard, a robber move with the victim of the theft that
 *   follows, a card played with the robber move or roads that follow, a trade step ...),
 *   rules_decide_seeded() decides it on the state so far with the seed, and the events it
 *   produces must equal the logged ones, member for member (the dice, the card drawn, the
 *   resource stolen, every production and every award). The group is the events it produced.
 *
 *   Without the seed: the same decision with an arbitrary randomness, and for every command
 *   whose outcome needs no chance (builds, discards, trades, monopoly, year of plenty, ending
 *   a turn, a robber move without a theft, manual dice) the same equality; so every built
 *   piece is legal where it stands. For a command decided by chance (a roll with random dice,
 *   buying a card, a theft) the command must be legal at that point and each logged event of
 *   its group (the first event and the consequences that follow it: production, the theft
 *   and the robber move of a knight, the awards, the win) must pass apply_event_valid(); the
 *   draws themselves (which dice, which card, which resource) cannot be checked without the
 *   seed. The game_created event must pass apply_event_valid().
 *
 * A refusal names the index (0-based) of the first event that does not follow and why.
 * Borrows everything; pure (engine and codec only).
 */
#ifndef CATAN_GAME_IMPORT_H
#define CATAN_GAME_IMPORT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/event.h"
#include "engine/game.h"

/* The events of one decision: events[first .. first + count), made by `seat` (-1: the
 * game's creation). */
struct import_group {
	int first;
	int count;
	int seat;
};

struct import_refusal {
	int index; /* the event refused */
	char reason[256];
};

/* Judge events[0 .. count). 1 with groups[0 .. *group_count) (room for `count`) and *final,
 * the state after the last event; 0 with *refusal filled. */
int import_verify(const struct event *events, int count, int has_seed, uint64_t seed, struct import_group *groups,
		  int *group_count, struct game *final, struct import_refusal *refusal);

/* The same with the randomness of `fairness` (game/fairness.h; NULL: seedless): a provably
 * fair log is judged with its server seed, which must be the one its game_created event
 * committed to (else event 0 is refused), and a log with a commitment is refused with a
 * plain seed. What `catan verify` checks. */
struct fairness;
int import_verify_fair(const struct event *events, int count, const struct fairness *fairness,
		       struct import_group *groups, int *group_count, struct game *final,
		       struct import_refusal *refusal);

/* import_verify_fair() that also gives the players' seeds the log set and fixed
 * (*seeds_out: player_seeds, seeds_from; FAIRNESS_NO_SEEDS when never fixed) when it
 * accepts. The fairness events (docs/fairness.md) are groups of their own: player_seed_set
 * before the seeds are fixed, seeds_fixed right before the first roll naming its own
 * version (from which every decision mixes the seeds in), server_seed_revealed after the
 * end, the seed the game committed to. */
int import_verify_seeds(const struct event *events, int count, const struct fairness *fairness,
			struct import_group *groups, int *group_count, struct game *final,
			struct import_refusal *refusal, struct fairness *seeds_out);

#endif
