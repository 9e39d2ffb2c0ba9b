/*
 * store.h - the event store: every game as rows in PostgreSQL (libpq).
 *
 * A game is a row of options and secrets, its seats, and its log of events numbered
 * 1, 2, 3 ...; its version is the number of its last event. The store keeps each event as
 * the caller gives it (a type, an actor seat, an origin and a JSON payload it never parses)
 * and each snapshot as opaque bytes tagged with the caller's format version: it knows
 * nothing of the rules. game/game_repo.h is the glue that turns these rows into a
 * struct game and back.
 *
 * Appends are optimistic: the caller loads version v, decides, and appends v+1..v+n in one
 * transaction (one round trip). If another writer took v+1 first the append fails with
 * STORE_CONFLICT, never overwriting anything; the caller reloads and decides again.
 *
 * A struct store is one database connection with its prepared statements, used by one
 * thread at a time (one store per worker thread). When the server goes away a call
 * reports STORE_UNAVAILABLE; a later call reconnects and prepares the statements again by
 * itself. A connection found dead (the database restarted) is replaced before a statement
 * is sent, and a statement that fails on an old dead connection is sent once more on a new
 * one when it cannot have committed (db/store.c says when). An append whose commit is not
 * known to have happened is never reported OK.
 *
 * Every function returns a status; results go through out-parameters, which are only
 * meaningful on STORE_OK unless said otherwise. store_message() says what went wrong.
 */
#ifndef CATAN_DB_STORE_H
#define CATAN_DB_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_STATUS_LIST(X)                                                                   \
	X(STORE_OK, "ok")                                                                      \
	X(STORE_NOT_FOUND, "no such game or record")                                           \
	X(STORE_CONFLICT, "the game is no longer at the version the write was decided on")     \
	X(STORE_IDEMPOTENCY_CONFLICT, "the idempotency key was already used for this game")    \
	X(STORE_UNAVAILABLE, "the database is unavailable")                                    \
	X(STORE_CORRUPT, "a stored row is not what the store wrote")                           \
	X(STORE_INVALID, "the store was called with malformed arguments")                     \
	X(STORE_NOT_STARTED, "the game waits for players and has not started")

enum store_status {
#define STORE_STATUS_ENUM(name, message) name,
	STORE_STATUS_LIST(STORE_STATUS_ENUM)
#undef STORE_STATUS_ENUM
	STORE_STATUS_COUNT
};

/* "STORE_CONFLICT" ... and a sentence; static strings. */
const char *store_status_name(enum store_status status);
const char *store_status_message(enum store_status status);

#define STORE_HASH_SIZE 32  /* SHA-256: seat and admin tokens, idempotent request bodies */
#define STORE_MAX_SEATS 8
#define STORE_ID_TEXT_SIZE 17 /* 16 lowercase hex digits and the NUL */
#define STORE_SEAT_ADMIN (-2) /* store_find_token(): the token is the game's admin token */
#define STORE_NO_ACTOR (-1)
#define STORE_NO_STATUS (-1) /* struct store_append: leave the game's status as it is */

/* Who caused an event. */
enum store_origin { STORE_ORIGIN_PLAYER, STORE_ORIGIN_TIMEOUT, STORE_ORIGIN_BOT };

/* ---- Identifiers ----------------------------------------------------------------------
 * Game ids are random positive 63-bit integers, shown as 16 lowercase hex digits. */

void store_format_id(int64_t id, char out[STORE_ID_TEXT_SIZE]);

/* 1 and *id set when text is exactly 16 lowercase hex digits naming a positive id. */
int store_parse_id(const char *text, int64_t *id);

/* ---- Connection -------------------------------------------------------------------------- */

struct store;

/* The most receivers (webhooks, chat channels, mail registrations) one event of a game is
 * enqueued for: told to every connection opened from now on (catan_receivers() of
 * db/migrations/0011_quotas.sql reads it; 0: no bound; never called: 20). Call at start,
 * before the first store is opened. */
void store_set_webhook_receivers_max(int max);

/* A connection string for the server of `conninfo` (a keyword string or URI) with the
 * database `dbname` instead: for tools and tests that create and drop databases. NULL when
 * `conninfo` does not parse (*error, if not NULL, then holds libpq's reason, freed with
 * free()). The caller frees the result with free(). */
char *store_conninfo_for_database(const char *conninfo, const char *dbname, char **error);

/* Open a store on `conninfo` (a libpq keyword string or URI; NULL or "" for libpq's PG*
 * environment defaults). *out is always set, even when the database cannot be reached
 * (the status is then STORE_UNAVAILABLE and the store connects on a later call); the caller
 * frees it with store_close(). The schema must have been migrated (store_migrate()). */
enum store_status store_open(const char *conninfo, struct store **out);

/* Close the connection and free the store. NULL is allowed. */
void store_close(struct store *store);

/* What the last failing call said (the server's message when there was one). Borrowed,
 * valid until the next call on the store. */
const char *store_message(const struct store *store);

/* Apply the migrations compiled into the binary (db/migrations/NNNN_name.sql) that the
 * database has not recorded, in order, each in its own transaction, under an advisory lock
 * so that servers starting together apply each once. *applied (may be NULL) is set to the
 * number applied now. On failure message (may be NULL) says why. */
enum store_status store_migrate(const char *conninfo, int *applied, char *message, size_t message_size);

/* ---- Waking listeners ---------------------------------------------------------------------
 * Every create and append wakes the listeners of channel "catan_events" with
 * "<id as 16 hex digits>:<new version>", after its transaction has committed. By default
 * the store sends the wake-up itself, as a second transaction in the same round trip as
 * the write. A process with many writers should instead share one notifier: a thread with
 * its own connection that sends the wake-ups of all its stores in batches, one
 * transaction per batch, which is what keeps appends near the speed of plain inserts
 * (db/notifier.c says what it costs in guarantees: a wake-up pending when the process dies
 * is lost; listeners then wait for their own deadline). */

struct store_notifier;

/* Start a notifier thread for the database of `conninfo` (it connects when it first
 * sends, and reconnects by itself). Always STORE_OK; free with store_notifier_close(). */
enum store_status store_notifier_open(const char *conninfo, struct store_notifier **out);

/* Send what is pending (one attempt), stop the thread, free. Close the notifier after the
 * stores that use it. NULL is allowed. */
void store_notifier_close(struct store_notifier *notifier);

/* Wake-ups sent, dropped (the database unreachable for long, or at close), and
 * transactions used, so far. Any out-parameter may be NULL. */
void store_notifier_counts(struct store_notifier *notifier, long *sent, long *dropped, long *batches);

/* Have `store` post its wake-ups to `notifier` (borrowed; it must outlive the store's use
 * of it), or with NULL send them itself again. */
void store_use_notifier(struct store *store, struct store_notifier *notifier);

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

/* The response to a request made with an idempotency key, stored with the events the
 * request produced (or alone with store_idempotency_put()). Borrowed. */
struct store_idempotency {
	const char *key;
	uint8_t request_hash[STORE_HASH_SIZE];
	int status; /* the response's HTTP status */
	const char *response;
};

/* What a game waits for from the server itself after a write (see db/migrations/
 * 0002_async.sql): nothing (the timer is removed), a deadline, or a bot's move, due
 * `due_ms` milliseconds from the commit. STORE_TIMER_BOT_KEEP is a bot's move that keeps
 * the due time of the game's bot timer when that is sooner (a wait going on across the
 * write: db/migrations/0017_offer_wait.sql); it is stored as a bot timer. Borrowed. */
enum store_timer_kind {
	STORE_TIMER_NONE = 0,
	STORE_TIMER_DEADLINE = 1,
	STORE_TIMER_BOT = 2,
	STORE_TIMER_BOT_KEEP = 3
};

struct store_timer_set {
	int kind; /* enum store_timer_kind */
	int64_t due_ms;
};

struct store_new_game {
	int64_t seed;
	int status;
	const char *options; /* JSON text */
	uint8_t admin_token_hash[STORE_HASH_SIZE];
	int seats; /* 1..STORE_MAX_SEATS */
	const char *names[STORE_MAX_SEATS];  /* NULL for none */
	int bots[STORE_MAX_SEATS];           /* a bot seat has no token */
	uint8_t token_hashes[STORE_MAX_SEATS][STORE_HASH_SIZE]; /* distinct */
	const struct store_event *events;    /* the first events, at least one */
	int event_count;
	const struct store_snapshot *snapshot; /* NULL, or the state after the events */
	const struct store_timer_set *timer;   /* NULL: no timer */
	int64_t players[STORE_MAX_SEATS];      /* the player a seat is bound to, 0 for none */
};

/* Holidays (db/migrations/0006_player_webhooks.sql): seat `seat` of game `game_id` hands
 * itself to the server's bot (away) or takes itself back, with `event` (seat_away or
 * seat_back, its payload) appended at `version` and the game's timer set to `timer` (NULL:
 * left alone), in one transaction; then listeners are woken. STORE_OK with *outcome:
 * STORE_AWAY_DONE, STORE_AWAY_NO_SEAT, STORE_AWAY_BOT_SEAT (created as a bot: it has no
 * player to come back), STORE_AWAY_UNCHANGED (already so); STORE_CONFLICT when a move took
 * the version first (decide again). */
enum store_away_outcome { STORE_AWAY_DONE, STORE_AWAY_NO_SEAT, STORE_AWAY_BOT_SEAT, STORE_AWAY_UNCHANGED };
struct store_event;
struct store_timer_set;
enum store_status store_set_away(struct store *store, int64_t game_id, int seat, int away, int32_t version,
				 const struct store_event *event, const struct store_timer_set *timer, int *outcome);

/* Create a game with a new random id (*id), its seats and its first events, in one
 * transaction, then wake listeners. The game is then at version event_count. */
enum store_status store_create_game(struct store *store, const struct store_new_game *game, int64_t *id);

struct store_append {
	int64_t game_id;
	int32_t version; /* the version the events were decided on: they become version+1.. */
	const struct store_event *events;
	int event_count; /* at least one */
	int status;      /* the game's new status, or STORE_NO_STATUS */
	const struct store_snapshot *snapshot;         /* NULL, or the state after the events */
	const struct store_idempotency *idempotency;   /* NULL, or the record to keep */
	const struct store_timer_set *timer;           /* NULL: leave the game's timer as it is */
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
enum store_status store_load(struct store *store, int64_t game_id, int format_version, void *state,
			     size_t state_size, struct store_loaded *out);

/* Up to `limit` events with seq > after, in order (an empty log when there are none).
 * The caller frees *out with store_log_free(). */
enum store_status store_read_events(struct store *store, int64_t game_id, int32_t after, int limit,
				    struct store_log *out);

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
	int64_t updated_at_us; /* when the status or the snapshot last changed */
	char *options;         /* JSON text */
	char *names[STORE_MAX_SEATS]; /* NULL for none */
	int bots[STORE_MAX_SEATS];    /* played by the server: a bot seat, or a seat away */
	int away[STORE_MAX_SEATS];    /* on holiday: handed to the bot by its player (bots[] set too) */
};

/* The game's row and seats. The caller frees with store_game_info_free(). */
enum store_status store_game_info(struct store *store, int64_t game_id, struct store_game_info *out);
void store_game_info_free(struct store_game_info *info);

/* ---- Idempotency --------------------------------------------------------------------------- */

struct store_idempotency_record {
	uint8_t request_hash[STORE_HASH_SIZE];
	int status;
	char *response; /* caller frees with free() */
	int64_t created_at_us;
};

/* The record kept for `key`: STORE_OK when it was made by a request with this hash (answer
 * with the stored response), STORE_IDEMPOTENCY_CONFLICT when by a different request (the
 * record is filled too: refuse the reuse of the key), STORE_NOT_FOUND when there is none. */
enum store_status store_idempotency_get(struct store *store, int64_t game_id, const char *key,
					const uint8_t request_hash[STORE_HASH_SIZE],
					struct store_idempotency_record *out);

/* Keep a record for a request that appended nothing (a refusal worth replaying).
 * STORE_IDEMPOTENCY_CONFLICT when the key exists, STORE_NOT_FOUND for an unknown game. */
enum store_status store_idempotency_put(struct store *store, int64_t game_id,
					const struct store_idempotency *record);

/* ---- Timers ----------------------------------------------------------------------------------
 * Any server's worker claims due timers; the claim pushes due_at `lease_ms` ahead, so a
 * worker that dies delays the game by the lease only. The append that follows a timer's
 * move sets the game's next timer (or removes it). */

struct store_timer {
	int64_t game_id;
	int32_t version; /* the game's version when the timer was set */
	int kind;        /* enum store_timer_kind */
	int attempts;    /* claims so far, this one included */
};

/* Claim up to `max` due timers into out[0..*count). */
enum store_status store_claim_timers(struct store *store, int max, int lease_ms, struct store_timer *out,
				     int *count);

/* ---- Webhooks ----------------------------------------------------------------------------- */

#define STORE_WEBHOOK_SECRET_SIZE 32
#define STORE_WEBHOOK_ADMIN (-1) /* a webhook registered with the admin token */
#define STORE_WEBHOOK_UNSEATED (-2) /* a delivery of a player's webhook in a game the player left */

/* What a webhook's deliveries look like (0005_channels.sql): signed Standard Webhooks
 * deliveries, or chat messages for a Discord or Slack incoming webhook; or mails to a
 * seat's address (0007_mail.sql, db/store_mail.h: never listed by store_webhook_list). */
enum store_webhook_format {
	STORE_FORMAT_STANDARD,
	STORE_FORMAT_DISCORD,
	STORE_FORMAT_SLACK,
	STORE_FORMAT_MAIL,
	STORE_FORMAT_COUNT
};

/* "standard", "discord", "slack"; and back (-1 when unknown). */
const char *store_format_name(int format);
int store_format_parse(const char *name);

struct store_webhook {
	int64_t id;
	int seat; /* or STORE_WEBHOOK_ADMIN */
	int your_turn_only;
	int64_t created_at_us;
	long pending; /* outbox rows not yet delivered */
	char *url;
	int format;              /* enum store_webhook_format */
	int failures;            /* failed attempts in a row (chat formats) */
	int64_t disabled_at_us;  /* 0: enabled */
	char *disabled_reason;   /* NULL unless disabled; owned */
};

/* Register a webhook; *id and *created_at_us are set. mentions_json: NULL, or a JSON
 * object from seat to mention text (chat formats; never read back by store_webhook_list).
 * STORE_NOT_FOUND: no such game. */
enum store_status store_webhook_create(struct store *store, int64_t game_id, int seat, int your_turn_only,
				       const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url, int format,
				       const char *mentions_json, int64_t *id, int64_t *created_at_us);

/* The game's webhooks, oldest first; free with store_webhooks_free(). */
enum store_status store_webhook_list(struct store *store, int64_t game_id, struct store_webhook **out, int *count);
void store_webhooks_free(struct store_webhook *webhooks, int count);

/* Remove a webhook of the game (and its pending deliveries and log). STORE_NOT_FOUND when
 * it is not there. */
enum store_status store_webhook_delete(struct store *store, int64_t game_id, int64_t id);

/* A player's webhooks (db/migrations/0006_player_webhooks.sql): registered on the player,
 * delivering for every game the player sits in what the player's seat of that game may
 * see. As the game's webhooks above (their seat is STORE_WEBHOOK_ADMIN in a list: a player
 * webhook has no seat of its own); STORE_NOT_FOUND: no such player, or no such webhook of
 * the player. */
enum store_status store_player_webhook_create(struct store *store, int64_t player_id, int your_turn_only,
					      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *url,
					      int format, const char *mentions_json, int64_t *id,
					      int64_t *created_at_us);
enum store_status store_player_webhook_list(struct store *store, int64_t player_id, struct store_webhook **out,
					    int *count);
enum store_status store_player_webhook_delete(struct store *store, int64_t player_id, int64_t id);

/* A claimed outbox row: the events first..last of game_id still to deliver from next_seq. */
struct store_delivery {
	int64_t outbox_id;
	int64_t webhook_id;
	int64_t game_id;
	int seat; /* or STORE_WEBHOOK_ADMIN, or STORE_WEBHOOK_UNSEATED (deliver nothing) */
	int your_turn_only;
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE];
	char *url;
	int32_t first_seq, last_seq, next_seq;
	int attempts; /* claims so far, this one included */
	int format;      /* enum store_webhook_format */
	char *mentions;  /* the mentions JSON object as text, or NULL; owned */
	int32_t message_seq; /* > 0: the row delivers this table-talk message, not events
			      * (0009_message_deliveries.sql) */
};

/* Claim up to `max` due deliveries (lease as for timers). Free with store_deliveries_free(). */
enum store_status store_claim_deliveries(struct store *store, int max, int lease_ms, struct store_delivery **out,
					 int *count);
void store_deliveries_free(struct store_delivery *deliveries, int count);

/* After an attempt: `done` removes the row; otherwise it keeps next_seq and is due again in
 * retry_ms. */
enum store_status store_delivery_update(struct store *store, int64_t outbox_id, int done, int32_t next_seq,
					int64_t retry_ms);

/* Record one attempt in the webhook's delivery log (http_status 0: no answer). */
enum store_status store_delivery_log(struct store *store, int64_t webhook_id, int64_t outbox_id, int32_t seq,
				     int attempt, int http_status, int duration_ms, const char *kind, const char *error);

struct store_delivery_entry {
	int64_t at_us;
	int32_t seq;
	int attempt;
	int http_status; /* 0: no answer */
	int duration_ms;
	char kind[16];
	char error[160];
};

/* The latest `max` attempts for a webhook, newest first. Free with free(). */
enum store_status store_delivery_history(struct store *store, int64_t webhook_id, int max,
					 struct store_delivery_entry **out, int *count);

/* ---- Waiting games (db/migrations/0003_players.sql) ----------------------------------------
 * A game created with open seats waits (games.status STORE_STATUS_WAITING, version 0, no
 * events) until every seat is taken; the statement that takes the last seat appends the
 * start events kept at creation, in its own transaction. */

#define STORE_STATUS_WAITING 3

struct store_waiting {
	int open[STORE_MAX_SEATS];          /* 1: the seat is open (its name, bot and token ignored) */
	int public_game;                    /* listed in the lobby */
	uint8_t invite_hash[STORE_HASH_SIZE];
	int start_status;                   /* the status once started */
	int start_seat;                     /* the seat the game waits for once started */
};

/* Create a waiting game: `game` as for store_create_game() (its events are kept for the
 * start, its status, snapshot and timer ignored). No listener is woken. */
enum store_status store_create_waiting_game(struct store *store, const struct store_new_game *game,
					    const struct store_waiting *waiting, int64_t *id);

/* What a join or an admin's seat change found. */
enum store_seat_outcome {
	STORE_SEAT_DONE = 0,
	STORE_SEAT_NO_GAME = 1,
	STORE_SEAT_WRONG_SECRET = 2, /* the invite (join) or the admin token (change) */
	STORE_SEAT_STARTED = 3,
	STORE_SEAT_FINISHED = 4,
	STORE_SEAT_NONE_OPEN = 5,    /* join: no open seat; change: the seat is not as required */
	STORE_SEAT_ALREADY_SEATED = 6 /* join: the player holds a seat of this game already */
};

struct store_seat_result {
	int outcome;     /* enum store_seat_outcome */
	int seat;        /* the seat taken or changed */
	int32_t version; /* the game's version now: > 0 when this statement started it */
};

/* Take the first open seat of a waiting game (the game's row locked: concurrent joins run
 * one after the other), named `name`, with the seat token hash `token_hash`, bound to
 * `player` (0: none); starts the game
 * when it was the last. Wakes listeners when the game started. */
enum store_status store_join(struct store *store, int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE],
			     const char *name, const uint8_t token_hash[STORE_HASH_SIZE], int64_t player,
			     struct store_seat_result *out);

enum store_seat_action { STORE_SEAT_REMOVE = 1, STORE_SEAT_MAKE_BOT = 2 };

/* The admin's change of `seat` before the start: remove the player who holds it (the seat
 * opens again, its token is forgotten), or make an open seat a bot named `name` (which
 * may start the game). */
enum store_status store_change_seat(struct store *store, int64_t game_id, const uint8_t admin_hash[STORE_HASH_SIZE],
				    int seat, int action, const char *name, struct store_seat_result *out);

/* A waiting game as anyone may see it. */
struct store_waiting_game {
	int64_t id;
	int64_t created_at_us;
	int status;
	int public_game;
	int seats;
	char *options; /* JSON text */
	char *names[STORE_MAX_SEATS]; /* NULL for an open seat */
	int bots[STORE_MAX_SEATS];
	int open[STORE_MAX_SEATS];
};

void store_waiting_game_free(struct store_waiting_game *game);

/* The waiting game `game_id` (STORE_NOT_FOUND when there is none, or it has started). */
enum store_status store_waiting_game(struct store *store, int64_t game_id, struct store_waiting_game *out);

/* Public waiting games, newest first, strictly after the cursor (created_at_us, id) when
 * `after_id` > 0; at most `limit` into out[] (the caller's array). *count set. The caller
 * frees each with store_waiting_game_free(). */
enum store_status store_lobby(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
			      struct store_waiting_game *out, int *count);

/* ---- Players (0003_players.sql) ------------------------------------------------------------
 * An identity across games: a name and a token (stored as its hash). A seat bound to a
 * player answers to the player's token as to its own (store_find_token()). */

struct store_player {
	int64_t id;
	char name[161];
};

/* A new player with a random id (*id). */
enum store_status store_player_create(struct store *store, const char *name, const uint8_t token_hash[STORE_HASH_SIZE],
				      int64_t *id);

/* The player whose token has this hash, or STORE_NOT_FOUND. */
enum store_status store_player_by_token(struct store *store, const uint8_t token_hash[STORE_HASH_SIZE],
					struct store_player *out);

/* Player `id`, or STORE_NOT_FOUND. */
enum store_status store_player_get(struct store *store, int64_t id, struct store_player *out);

/* ---- Replacing a token that leaked (0015_token_rotation.sql) -------------------------------
 * One statement each; its transaction notifies catan_events with '<game>:t' for every game
 * whose cached token lookups it makes stale (db/listener.h: LISTENER_TOKENS). */

/* Seat `seat` of game `game_id` gets the token of hash `token_hash`: STORE_OK, or
 * STORE_NOT_FOUND when the seat has no token (a bot's seat, no such seat or game). */
enum store_status store_replace_seat_token(struct store *store, int64_t game_id, int seat,
					   const uint8_t token_hash[STORE_HASH_SIZE]);

/* Player `player`, whose token has hash `old_hash`, gets the token of hash `new_hash`:
 * STORE_OK, or STORE_NOT_FOUND when `old_hash` is not the player's token (any more). */
enum store_status store_replace_player_token(struct store *store, int64_t player, const uint8_t old_hash[STORE_HASH_SIZE],
					     const uint8_t new_hash[STORE_HASH_SIZE]);

/* A game seat of a player. */
struct store_player_seat {
	int64_t game_id;
	int seat;
	int status; /* games.status */
};

/* The player's seats, at most `max` into out[], ordered by game id. *count set. */
enum store_status store_player_games(struct store *store, int64_t player, int max, struct store_player_seat *out,
				     int *count);
/* A player's seat with what lists of the player's games sort by. */
struct store_player_game {
	struct store_player_seat seat;
	int64_t created_at_us;    /* the game's creation */
	int64_t last_event_at_us; /* its last event's time; 0: no event yet (waiting) */
	int64_t deadline_us;      /* when its current wait times out; 0: none */
};

/* store_player_games() with those times, in one statement. */
enum store_status store_player_game_summaries(struct store *store, int64_t player, int max,
					      struct store_player_game *out, int *count);
/* After a chat webhook's attempt: success resets its failure count; a failure counts one
 * more, and the max_failures-th in a row disables it with `reason` and drops its pending
 * deliveries (*disabled = 1 then). */
enum store_status store_channel_result(struct store *store, int64_t webhook_id, int succeeded, int max_failures,
				       const char *reason, int *disabled);

#endif
