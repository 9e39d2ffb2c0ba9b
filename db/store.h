/*
 * store.h - the event store: every game as rows in PostgreSQL (libpq). This header is what
 * every part of the store shares: the store handle (one connection), its status codes, ids,
 * opening, closing and migrating. The operations are in one header per area:
 *
 *     db/store_events.h       a game's rows: creating it, appending events, snapshots, the log
 *     db/store_idempotency.h  responses kept for requests made with an idempotency key
 *     db/store_timers.h       what a game waits for from the server: deadlines, bot moves
 *     db/store_webhooks.h     webhooks and chat channels, their outbox and delivery log
 *     db/store_lobby.h        waiting games, joining, seat changes; players
 *     db/store_messages.h     table talk
 *     db/store_feed.h         one order over the events and messages of many games
 *     db/store_mail.h         mail registrations, the only reader of an address
 *     db/store_quota.h        budgets counted in the database
 *     db/notifier.h           wake-ups of many stores sent in batches
 *     db/listener.h           the other side: waiting for wake-ups
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
 * thread at a time (one store per worker thread); every area's functions take it. When the
 * server goes away a call reports STORE_UNAVAILABLE; a later call reconnects and prepares
 * the statements again by itself. A connection found dead (the database restarted) is
 * replaced before a statement is sent, and a statement that fails on an old dead connection
 * is sent once more on a new one when it cannot have committed (db/store.c says when). An
 * append whose commit is not known to have happened is never reported OK.
 *
 * Every function returns a status; results go through out-parameters, which are only
 * meaningful on STORE_OK unless said otherwise. store_message() says what went wrong.
 */
#ifndef CATAN_DB_STORE_H
#define CATAN_DB_STORE_H

#include <stddef.h>
#include <stdint.h>

#define STORE_STATUS_LIST(X)                                                                \
	X(STORE_OK, "ok")                                                                   \
	X(STORE_NOT_FOUND, "no such game or record")                                        \
	X(STORE_CONFLICT, "the game is no longer at the version the write was decided on")  \
	X(STORE_IDEMPOTENCY_CONFLICT, "the idempotency key was already used for this game") \
	X(STORE_UNAVAILABLE, "the database is unavailable")                                 \
	X(STORE_CORRUPT, "a stored row is not what the store wrote")                        \
	X(STORE_INVALID, "the store was called with malformed arguments")                   \
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

#define STORE_HASH_SIZE 32 /* SHA-256: seat and admin tokens, idempotent request bodies */
#define STORE_MAX_SEATS 8
#define STORE_ID_TEXT_SIZE 17 /* 16 lowercase hex digits and the NUL */

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

/* Open a store for reads that a standby may answer (DATABASE_READ_URL, README's "High
 * availability"): like store_open(), but the connection asks for
 * target_session_attrs=prefer-standby unless `conninfo` says otherwise, waits at most 2 s
 * per host, and after a failed attempt makes no other for STORE_READS_RETRY_MS, so that a
 * dead or hung standby costs its callers (who fall back to the primary's store) one
 * attempt every few seconds, not one per call. Writes on it fail on a standby: callers run
 * only reads whose answer may be older than the primary's, and check what they got. */
#define STORE_READS_RETRY_MS 3000
enum store_status store_open_for_reads(const char *conninfo, struct store **out);

/* 1 when the store's current connection is to a hot standby (the server reports
 * in_hot_standby on; PostgreSQL 14 and later), 0 when it is to a primary or there is none. */
int store_on_standby(const struct store *store);

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

#endif
