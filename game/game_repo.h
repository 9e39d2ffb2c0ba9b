/*
 * game_repo.h - games as the engine sees them, kept in the event store.
 *
 * The glue between db/store_events.h (rows, opaque payloads and snapshots) and the engine
 * (struct game, struct event): loading is the store's load, each payload parsed with
 * codec_event_parse() and checked with apply_event_valid() before apply_event(); appending
 * is codec_event_dump() of each event and one store_append(), with a snapshot of the new
 * state every `snapshot_every` events so that a long game loads as fast as a short one.
 *
 * A struct game_repo borrows one store and so belongs to one thread, like the store. Its
 * functions return store statuses; STORE_CORRUPT covers a stored game the engine cannot
 * rebuild (an unparsable payload, an event that does not apply, a snapshot that is not
 * the state it claims), and game_repo_message() says which row and why.
 */
#ifndef CATAN_GAME_GAME_REPO_H
#define CATAN_GAME_GAME_REPO_H

#include <stdint.h>

#include "db/store_events.h"
#include "db/store_timers.h"
#include "engine/event.h"
#include "engine/game.h"

/* Events between snapshots, chosen with `make bench-store` (see game_repo.c). */
#define GAME_REPO_SNAPSHOT_EVERY 64

/* The game's status as the store keeps it (games.status). */
enum game_repo_status { GAME_REPO_SETUP, GAME_REPO_PLAYING, GAME_REPO_FINISHED };

struct game_repo {
	struct store *store; /* borrowed */
	int snapshot_every;  /* 0: never write snapshots */
	/* Set by game_repo_catch_up() when what it read may have changed who plays a seat (a
	 * seat_away or seat_back event, or a reload): the caller reads the seats again. */
	int seats_changed;
	/* Likewise for the players' seeds (a player_seed_set or seeds_fixed event, or a reload):
	 * the caller reads them again (game/play.c). */
	int seeds_changed;
	char message[256];
};

/* A repo over `store` (borrowed for the repo's life). */
void game_repo_init(struct game_repo *repo, struct store *store, int snapshot_every);

/* What went wrong in the last failing call (the store's message when the store failed).
 * Borrowed. */
const char *game_repo_message(const struct game_repo *repo);

/* The status of a state: setup, playing or finished. */
enum game_repo_status game_repo_status_of(const struct game *game);

/* Create a game: `game` gives the seed, options, seats and token hashes (its events,
 * status and snapshot are ignored); `events` are those rules_create() produced and `after`
 * the state they make. *id is the new game's id. Borrows everything. */
enum store_status game_repo_create(struct game_repo *repo, const struct store_new_game *game,
				   const struct event_list *events, const struct game *after, int64_t *id);

/* Create an imported game with its whole log in one transaction (the games row, its
 * seats, every event, a snapshot of `after`, the timer): events[0 .. count), each with
 * its actors[i] (a seat or STORE_NO_ACTOR) and origins[i]; `after` is the state they
 * make. A failure writes nothing. Borrows everything. */
struct event;
enum store_status game_repo_import(struct game_repo *repo, const struct store_new_game *game,
				   const struct event *events, int count, const int *actors, const int *origins,
				   const struct game *after, int64_t *id);

/* Create a waiting game (open seats, db/store_events.h): as game_repo_create(), with the events
 * kept for the start; sets waiting->start_status from `after`. */
enum store_status game_repo_create_waiting(struct game_repo *repo, const struct store_new_game *game,
					   struct store_waiting *waiting, const struct event_list *events,
					   const struct game *after, int64_t *id);

/* Load game `id` into *game (overwritten), and its secret seed into *seed (may be NULL). */
enum store_status game_repo_load(struct game_repo *repo, int64_t id, struct game *game, int64_t *seed);

/* A game's secrets: its seed, and a provably fair game's server seed (game/fairness.h). */
struct game_repo_secrets {
	int64_t seed;
	int has_server_seed;
	uint8_t server_seed[STORE_SERVER_SEED_SIZE];
};

/* game_repo_load() with every secret of the game. */
enum store_status game_repo_load_secrets(struct game_repo *repo, int64_t id, struct game *game,
					 struct game_repo_secrets *secrets);

/* Bring *game, a state of game `id` loaded earlier (a cached copy), up to the log's last
 * version by applying the events after game->version; when it is far behind, load it
 * whole instead. On failure *game is left as it was. */
enum store_status game_repo_catch_up(struct game_repo *repo, int64_t id, struct game *game);

/* Append `events`, decided by `actor` (a seat or STORE_NO_ACTOR) from `origin` on
 * *before, which they turn into *after. STORE_CONFLICT: someone else moved first; load
 * again and decide again. `idempotency` (may be NULL) is kept with the events, and the
 * game's timer is set to `timer` (NULL: left as it is) in the same transaction. */
enum store_status game_repo_append(struct game_repo *repo, int64_t id, const struct game *before,
				   const struct event_list *events, const struct game *after, int actor, int origin,
				   const struct store_idempotency *idempotency, const struct store_timer_set *timer);

/* The state of game `id` at `version` (history: replayed from the first event, in
 * batches of GAME_REPO_REPLAY_BATCH). STORE_NOT_FOUND when the game has no such version. */
#define GAME_REPO_REPLAY_BATCH 1000
enum store_status game_repo_load_at(struct game_repo *repo, int64_t id, int32_t version, struct game *game);

#endif
