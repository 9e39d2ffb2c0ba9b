/*
 * store_events.h - a game's rows in the store: creating a game (started, or waiting for
 * players), appending events with, at times, a snapshot, a new status, an idempotency
 * record and the game's next timer; a seat's holiday; and reading it all back: a game's
 * snapshot and log in one view, pages of its log, its version, its seats and tokens.
 * Same connection and threading rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_EVENTS_H
#define CATAN_DB_STORE_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "db/store.h"
#include "db/store_idempotency.h"
#include "db/store_timers.h"

#define STORE_SEAT_ADMIN (-2) /* store_find_token(): the token is the game's admin token */
#define STORE_NO_ACTOR (-1)
#define STORE_NO_STATUS (-1) /* struct store_append: leave the game's status as it is */

/* Who caused an event. */
/* Who caused an event: a request (player), a deadline, the server's bot, or a seat's reply
 * by mail (cmd/catan_mail_in.c: a player's move through the same path, logged apart). */
enum store_origin { STORE_ORIGIN_PLAYER, STORE_ORIGIN_TIMEOUT, STORE_ORIGIN_BOT, STORE_ORIGIN_MAIL };

/* ---- Writing ------------------------------------------------------------------------------ */

/* One event to store. payload is JSON text (NUL-terminated), borrowed for the call. */
struct store_event {
	int type;
	int actor;  /* a seat, or STORE_NO_ACTOR */
	int origin; /* enum store_origin */
	const char *payload;
};

/* A state to keep beside the log: opaque bytes in the caller's format. Borrowed. */
struct store_snapshot {
	int format_version;
	const void *state;
	size_t size;
};

#define STORE_SERVER_SEED_SIZE 32

struct store_new_game {
	int64_t seed;
	int has_server_seed; /* a provably fair game (0031_fairness.sql): server_seed is its seed */
	uint8_t server_seed[STORE_SERVER_SEED_SIZE];
	int status;
	const char *options; /* JSON text */
	uint8_t admin_token_hash[STORE_HASH_SIZE];
	int seats;						/* 1..STORE_MAX_SEATS */
	const char *names[STORE_MAX_SEATS];			/* NULL for none */
	int bots[STORE_MAX_SEATS];				/* a bot seat has no token */
	uint8_t token_hashes[STORE_MAX_SEATS][STORE_HASH_SIZE]; /* distinct */
	const struct store_event *events;			/* the first events, at least one */
	int event_count;
	const struct store_snapshot *snapshot; /* NULL, or the state after the events */
	const struct store_timer_set *timer;   /* NULL: no timer */
	int64_t players[STORE_MAX_SEATS];      /* the player a seat is bound to, 0 for none */
	/* Quiet hours the seats start with (0034_import_quiet_hours.sql: an imported game's, as
	 * its log's last quiet_hours_set left them): a tz database name, NULL for none, and
	 * minutes after local midnight. Only store_create_game() reads them. */
	const char *quiet_zones[STORE_MAX_SEATS];
	int quiet_from[STORE_MAX_SEATS], quiet_to[STORE_MAX_SEATS];
};

/* Holidays (db/migrations/0006_player_webhooks.sql): seat `seat` of game `game_id` hands
 * itself to the server's bot (away) or takes itself back, with `event` (seat_away or
 * seat_back, its payload) appended at `version` and the game's timer set to `timer` (NULL:
 * left alone), in one transaction; then listeners are woken. STORE_OK with *outcome:
 * STORE_AWAY_DONE, STORE_AWAY_NO_SEAT, STORE_AWAY_BOT_SEAT (created as a bot: it has no
 * player to come back), STORE_AWAY_UNCHANGED (already so); STORE_CONFLICT when a move took
 * the version first (decide again). */
enum store_away_outcome {
	STORE_AWAY_DONE,
	STORE_AWAY_NO_SEAT,
	STORE_AWAY_BOT_SEAT,
	STORE_AWAY_UNCHANGED,
	STORE_AWAY_ALLOWANCE_SPENT /* going away with the year's holiday allowance spent (0024) */
};
enum store_status store_set_away(struct store *store, int64_t game_id, int seat, int away, int32_t version,
				 const struct store_event *event, const struct store_timer_set *timer, int *outcome);

/* Create a game with a new random id (*id), its seats and its first events, in one
 * transaction, then wake listeners. The game is then at version event_count. */
enum store_status store_create_game(struct store *store, const struct store_new_game *game, int64_t *id);

struct store_append {
	int64_t game_id;
	int32_t version; /* the version the events were decided on: they become version+1.. */
	const struct store_event *events;
	int event_count;			     /* at least one */
	int status;				     /* the game's new status, or STORE_NO_STATUS */
	const struct store_snapshot *snapshot;	     /* NULL, or the state after the events */
	const struct store_idempotency *idempotency; /* NULL, or the record to keep */
	const struct store_timer_set *timer;	     /* NULL: leave the game's timer as it is */
};

/* Append events in one transaction, then wake listeners (see above). STORE_CONFLICT: version+1 is taken or version is
 * not the game's (reload and decide again). STORE_IDEMPOTENCY_CONFLICT: the key was used
 * (nothing stored; read the record with store_idempotency_get()). STORE_NOT_FOUND: no such
 * game. STORE_UNAVAILABLE: not known to be committed. */
enum store_status store_append(struct store *store, const struct store_append *append);

/* Keep `snapshot` as the state of the game at version `seq` (an existing version), unless
 * a later one of the same format is already kept. */
enum store_status store_put_snapshot(struct store *store, int64_t game_id, int32_t seq,
				     const struct store_snapshot *snapshot);

/* ---- Reading ------------------------------------------------------------------------------ */

struct store_event_row {
	int32_t seq;
	int type;
	int actor;
	int origin;
	int64_t created_at_us; /* microseconds since 1970-01-01 UTC */
	const char *payload;   /* NUL-terminated JSON text, owned by the log */
	size_t payload_size;
};

/* Events in order of seq. The caller frees with store_log_free(). */
struct store_log {
	int count;
	struct store_event_row *rows;
};

void store_log_free(struct store_log *log);

struct store_loaded {
	int64_t seed;
	int has_server_seed; /* with server_seed: a provably fair game's (0031_fairness.sql) */
	uint8_t server_seed[STORE_SERVER_SEED_SIZE];
	int status;
	int seats;
	int32_t snapshot_seq; /* 0: no usable snapshot, *state untouched */
	struct store_log log; /* the events after snapshot_seq: seq snapshot_seq+1, +2 ... */
};

/* Load what rebuilds game `game_id`: the kept snapshot, if it has format `format_version`
 * and exactly `state_size` bytes (into *state; any other is ignored, never read), and the
 * events after it, read in one statement (one consistent view). The game's version is
 * the last row's seq (or snapshot_seq when there are none after it). The caller frees
 * out->log with store_log_free(). STORE_CORRUPT when the rows have a gap. */
enum store_status store_load(struct store *store, int64_t game_id, int format_version, void *state, size_t state_size,
			     struct store_loaded *out);

/* Up to `limit` events with seq > after, in order (an empty log when there are none).
 * The caller frees *out with store_log_free(). */
enum store_status store_read_events(struct store *store, int64_t game_id, int32_t after, int limit,
				    struct store_log *out);

/* Up to `limit` of the game's events after seq `after` whose type is in type_low..type_high,
 * in order of seq (not contiguous; none for no such game): the scan stops at the `limit`th.
 * The caller frees *out with store_log_free(). */
enum store_status store_read_events_of_types(struct store *store, int64_t game_id, int32_t after, int type_low,
					     int type_high, int limit, struct store_log *out);

/* Like store_read_events() for a game the caller knows exists (bringing a cached state up
 * to date): one cheaper statement, and an empty log for an unknown game. */
enum store_status store_read_tail(struct store *store, int64_t game_id, int32_t after, int limit,
				  struct store_log *out);

/* The game's current version. */
enum store_status store_version(struct store *store, int64_t game_id, int32_t *version);

/* Whose token has this hash in game `game_id`: *seat is the seat, or STORE_SEAT_ADMIN.
 * STORE_NOT_FOUND for an unknown token or game. */
enum store_status store_find_token(struct store *store, int64_t game_id, const uint8_t hash[STORE_HASH_SIZE],
				   int *seat);

struct store_game_info {
	int64_t seed;
	int status;
	int seats;
	int64_t created_at_us;
	int64_t updated_at_us;	      /* when the status or the snapshot last changed */
	char *options;		      /* JSON text */
	char *names[STORE_MAX_SEATS]; /* NULL for none */
	int bots[STORE_MAX_SEATS];    /* played by the server: a bot seat, or a seat away */
	int away[STORE_MAX_SEATS];    /* on holiday: handed to the bot by its player (bots[] set too) */
};

/* The game's row and seats. The caller frees with store_game_info_free(). */
enum store_status store_game_info(struct store *store, int64_t game_id, struct store_game_info *out);
void store_game_info_free(struct store_game_info *info);

/* ---- Waiting games (db/migrations/0003_players.sql) ----------------------------------------
 * A game created with open seats waits (games.status STORE_STATUS_WAITING, version 0, no
 * events) until every seat is taken (db/store_lobby.h: joins and seat changes); the
 * statement that takes the last seat appends the start events kept at creation, in its own
 * transaction. */

#define STORE_STATUS_WAITING 3
/* A waiting game nobody filled in time (db/migrations/0024_correspondence.sql): terminal, no
 * events, loaded like a waiting game (STORE_NOT_STARTED). */
#define STORE_STATUS_EXPIRED 4

struct store_waiting {
	int open[STORE_MAX_SEATS]; /* 1: the seat is open (its name, bot and token ignored) */
	int public_game;	   /* listed in the lobby */
	uint8_t invite_hash[STORE_HASH_SIZE];
	int start_status; /* the status once started */
	int start_seat;	  /* the seat the game waits for once started */
};

/* Create a waiting game: `game` as for store_create_game() (its events are kept for the
 * start, its status, snapshot and timer ignored). No listener is woken. */
enum store_status store_create_waiting_game(struct store *store, const struct store_new_game *game,
					    const struct store_waiting *waiting, int64_t *id);

#endif
