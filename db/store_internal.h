/*
 * store_internal.h - what the files of the store share (internal to db/): the struct
 * behind struct store, the prepared statements, and small helpers to pass parameters and
 * read binary results. store.c owns the connection and runs statements; every other store_*.c
 * file is one area of the store's operations, with its own header (store_events.h ...) and
 * its own statements.
 */
#ifndef CATAN_DB_STORE_INTERNAL_H
#define CATAN_DB_STORE_INTERNAL_H

#include <libpq-fe.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store.h"

#define STORE_MESSAGE_SIZE 512

/* How a connection finds its peer gone silent (a primary cut off the network: README's
 * "High availability"), for every connection of db/ (store.c, listener.c): an idle one
 * by TCP keepalives after KEEPALIVES_IDLE + KEEPALIVES_COUNT x KEEPALIVES_INTERVAL
 * seconds (8 s), one with data sent and not acknowledged after TCP_USER_TIMEOUT (9 s).
 * A living server's kernel acknowledges at once however long a statement runs, so only a
 * dead or cut-off peer trips them. Below Patroni's ttl (10 s) plus a connect_timeout:
 * the servers' connections are found dead by the time a standby is promoted. */
#define STORE_KEEPALIVES_IDLE "4"
#define STORE_KEEPALIVES_INTERVAL "2"
#define STORE_KEEPALIVES_COUNT "2"
#define STORE_TCP_USER_TIMEOUT "9000"
#define STORE_MAX_PARAMS 24
/* Microseconds from 1970-01-01 to PostgreSQL's epoch 2000-01-01. */
#define STORE_PG_EPOCH_US INT64_C(946684800000000)

/* Appending one event at version $2 + 1 of game $1 (type $3, actor $4, origin $5, payload
 * $6), with the outbox rows of the game's webhooks and of its seated players' webhooks
 * (catan_receivers() of 0006_player_webhooks.sql, usually none), as one plain INSERT: it
 * costs about what inserting the row costs. Nothing is inserted unless event $2 exists, so
 * no gap can be made; a version taken fails on events_pkey. The result is the number of
 * events inserted. The common append (store_events.c) and the committer's lone append
 * (committer.c) both send it. */
#define STORE_SQL_APPEND_EVENT                                                                          \
	"WITH e AS (INSERT INTO events (game_id, seq, type, actor, origin, payload)"                    \
	"  SELECT $1::bigint, $2::integer + 1, $3::smallint, $4::smallint, $5::smallint, $6::json"      \
	"  WHERE EXISTS (SELECT FROM events WHERE game_id = $1::bigint AND seq = $2::integer)"          \
	"  RETURNING seq),"                                                                             \
	" o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)"        \
	"  SELECT w.webhook_id, $1::bigint, e.seq, e.seq, e.seq FROM catan_receivers($1::bigint) w, e)" \
	" SELECT count(*)::integer FROM e"

/* ---- Statements ----------------------------------------------------------------------------
 * Every statement is written once, as a row of the X-macro list of the file that binds its
 * parameters and reads its rows (its area):
 *
 *     #define LOBBY_STATEMENTS(X)                                                  \
 *             X(player_get, 1, "SELECT id, name FROM players WHERE id = $1::bigint") \
 *             ...
 *     STORE_STATEMENTS(lobby, LOBBY_STATEMENTS);
 *
 * A row is (name, parameters, SQL). STORE_STATEMENTS defines for each row a static
 * `struct store_statement statement_<name>`, prepared under <name> on every connection and
 * run by its address (store__run(store, &statement_player_get, ...)), and the area
 * store__area_<area>, the list of them store.c prepares; STORE_AREAS names every area. The
 * number of parameters travels with the SQL: the statement is prepared with that many (a
 * parameter the SQL never reads fails the preparation), a run that binds another number is
 * refused before anything is sent (STORE_INVALID), and tests/db/test_statements.c checks it
 * against the server's own count for every statement. */

struct store_statement {
	const char *name; /* the prepared statement's name on every connection: unique */
	int params;	  /* $1..$params, each bound by every run */
	const char *sql;
};

/* The statements of one file of the store. */
struct store_area {
	const char *name;
	const struct store_statement *const *statements;
	int count;
};

#define STORE__STATEMENT_DEFINE(name, params, sql)                                                        \
	_Static_assert((params) >= 0 && (params) <= STORE_MAX_PARAMS, "statement " #name ": parameters"); \
	static const struct store_statement statement_##name = {#name, (params), sql};
#define STORE__STATEMENT_ADDRESS(name, params, sql) &statement_##name,

/* Define the statements of LIST (an X-macro list of (name, parameters, SQL)) and the area
 * store__area_<area> that holds them. */
#define STORE_STATEMENTS(area, LIST)                                                                       \
	LIST(STORE__STATEMENT_DEFINE)                                                                      \
	static const struct store_statement *const area##_statements[] = {LIST(STORE__STATEMENT_ADDRESS)}; \
	const struct store_area store__area_##area = {#area, area##_statements,                            \
						      (int)(sizeof area##_statements / sizeof area##_statements[0])}

/* Every area, one per file that runs statements: store.c prepares them all on each new
 * connection. The list is read in store_areas.c, whose store_open() hands it to
 * store__open(): store.c itself names no area but its own, so the areas, which run their
 * statements through store.c, and store.c call no circle (scripts/check-cycles.py). */
#define STORE_AREAS(X)                           \
	X(connection)  /* store.c */             \
	X(events)      /* store_events.c */      \
	X(idempotency) /* store_idempotency.c */ \
	X(timers)      /* store_timers.c */      \
	X(webhooks)    /* store_webhooks.c */    \
	X(lobby)       /* store_lobby.c */       \
	X(messages)    /* store_messages.c */    \
	X(feed)	       /* store_feed.c */        \
	X(mail)	       /* store_mail.c */        \
	X(quota)       /* store_quota.c */       \
	X(ratings)     /* store_ratings.c */     \
	X(substitutes) /* store_substitutes.c */ \
	X(committer)   /* committer.c */         \
	X(clocks)      /* store_clocks.c */

#define STORE__AREA_DECLARE(area) extern const struct store_area store__area_##area;
STORE_AREAS(STORE__AREA_DECLARE)
#undef STORE__AREA_DECLARE

struct store_notifier;
struct store_committer;

struct store {
	char *conninfo;
	const struct store_area *const *areas; /* every area's statements (store_areas.c) */
	int area_count;
	PGconn *conn;			   /* NULL when there is no usable connection */
	int64_t retry_at_ms;		   /* no connection attempt before this (monotonic) */
	struct store_notifier *notifier;   /* NULL: wake listeners in each append's own pipeline */
	struct store_committer *committer; /* NULL: write the common append on conn */
	int unreplicated;		   /* the current statement's commit was not confirmed by the
					      synchronous standby (store.c's receive_notice()) */
	int for_reads;			   /* store_open_for_reads(): prefer a standby, give up sooner */
	int on_standby;			   /* the connection is to a hot standby (in_hot_standby on) */
	char message[STORE_MESSAGE_SIZE];
};

/* Open a store that prepares the statements of `areas` on every connection (store_open()
 * of store_areas.c hands in every area of STORE_AREAS). */
enum store_status store__open(const char *conninfo, const struct store_area *const *areas, int area_count,
			      struct store **out);

/* store__open() for a store of reads that may be served by a standby (store_open_for_reads()). */
enum store_status store__open_for_reads(const char *conninfo, const struct store_area *const *areas, int area_count,
					struct store **out);

/* Set the store's message (one line). */
__attribute__((format(printf, 2, 3))) void store__say(struct store *store, const char *format, ...);

/* Say that a row of game `game_id` is not what the store wrote; returns STORE_CORRUPT. */
enum store_status store__corrupt(struct store *store, int64_t game_id, const char *what);

/* Run a prepared statement; *out is the result on STORE_OK (caller PQclear()s). A read
 * (`retry` 1) that finds an old connection dead is sent once more on a new one. */
struct params;
enum store_status store__run(struct store *store, const struct store_statement *statement, const struct params *params,
			     int retry, PGresult **out);

/* Run a write statement and wake the listeners of (game_id, version): see store.c. */
enum store_status store__run_and_notify(struct store *store, const struct store_statement *statement,
					const struct params *params, int64_t game_id, int32_t version, PGresult **out);

/* Wake the listeners of (game_id, version) after a write that committed by itself: through
 * the store's notifier, or with a statement of its own (best effort: the write stands
 * whatever the wake-up does). */
void store__wake(struct store *store, int64_t game_id, int32_t version);

/* A new random positive 63-bit id (games, webhooks) from OpenSSL's generator; 0 when the
 * generator fails (store.c). */
int store__random_id(int64_t *id);

/* Queue the wake-up of (game_id, version) on a notifier (notifier.c). */
void store__notifier_post(struct store_notifier *notifier, int64_t game_id, int32_t version);

/* Hand events version+1.. of `game_id` (events[0..event_count), borrowed, payloads set)
 * to the committer and wait until its batch is written (committer.c): *inserted 1 when
 * they are in the log, 0 when none is (a version taken, or event `version` missing; never
 * some of them), STORE_OK either way; any other status says the batch failed, `message`
 * why. */
struct store_event;
enum store_status store__committer_append(struct store_committer *committer, int64_t game_id, int32_t version,
					  const struct store_event *events, int event_count, int *inserted,
					  char message[STORE_MESSAGE_SIZE]);

/* ---- Helpers ------------------------------------------------------------------------------- */

static inline void *store_alloc(size_t size)
{
	void *pointer = malloc(size ? size : 1);
	if (!pointer)
		abort();
	return pointer;
}

static inline char *store_strndup(const char *text, size_t length)
{
	char *copy = store_alloc(length + 1);
	memcpy(copy, text, length);
	copy[length] = '\0';
	return copy;
}

/* A growing byte buffer for array literals. */
struct buffer {
	char *data;
	size_t size;
	size_t capacity;
};

static inline void buffer_append(struct buffer *buffer, const char *bytes, size_t size)
{
	if (buffer->size + size + 1 > buffer->capacity) {
		size_t capacity = buffer->capacity ? buffer->capacity : 256;
		while (capacity < buffer->size + size + 1)
			capacity *= 2;
		char *data = realloc(buffer->data, capacity);
		if (!data)
			abort();
		buffer->data = data;
		buffer->capacity = capacity;
	}
	memcpy(buffer->data + buffer->size, bytes, size);
	buffer->size += size;
	buffer->data[buffer->size] = '\0';
}

static inline void buffer_string(struct buffer *buffer, const char *text)
{
	buffer_append(buffer, text, strlen(text));
}

/* An array literal element: quoted, with backslash and double quote escaped; NULL as NULL. */
static inline void buffer_array_text(struct buffer *buffer, const char *text)
{
	if (!text) {
		buffer_string(buffer, "NULL");
		return;
	}
	buffer_append(buffer, "\"", 1);
	const char *run = text;
	for (const char *c = text; *c; c++) {
		if (*c == '"' || *c == '\\') {
			buffer_append(buffer, run, (size_t)(c - run));
			buffer_append(buffer, "\\", 1);
			run = c;
		}
	}
	buffer_string(buffer, run);
	buffer_append(buffer, "\"", 1);
}

static inline void buffer_array_int(struct buffer *buffer, int value, int first)
{
	char text[16];
	int length = snprintf(text, sizeof text, "%s%d", first ? "" : ",", value);
	buffer_append(buffer, text, (size_t)length);
}

/* Parameters of one statement: numbers as text, bytes in binary. */
struct params {
	int count;
	const char *values[STORE_MAX_PARAMS];
	int lengths[STORE_MAX_PARAMS];
	int formats[STORE_MAX_PARAMS];
	char numbers[STORE_MAX_PARAMS][24];
};

static inline void param_int(struct params *params, long long value)
{
	int i = params->count++;
	snprintf(params->numbers[i], sizeof params->numbers[i], "%lld", value);
	params->values[i] = params->numbers[i];
	params->lengths[i] = 0;
	params->formats[i] = 0;
}

/* Borrows text (NULL for SQL NULL) until the statement is sent. */
static inline void param_text(struct params *params, const char *text)
{
	int i = params->count++;
	params->values[i] = text;
	params->lengths[i] = 0;
	params->formats[i] = 0;
}

static inline void param_bytes(struct params *params, const void *bytes, size_t size)
{
	int i = params->count++;
	params->values[i] = bytes ? bytes : "";
	params->lengths[i] = (int)size;
	params->formats[i] = 1;
}

static inline void param_null(struct params *params)
{
	param_text(params, NULL);
}

/* The timer parameters of catan_set_timer() (kind, due_ms): NULL (two NULLs) leaves the
 * timer alone (store_timers.c). */
struct store_timer_set;
void params_timer(struct params *params, const struct store_timer_set *timer);

/* Binary result values. Each returns 0 when the value is NULL or has the wrong width. */
static inline int get_int16(const PGresult *result, int row, int column, int *out)
{
	if (PQgetisnull(result, row, column) || PQgetlength(result, row, column) != 2)
		return 0;
	const unsigned char *bytes = (const unsigned char *)PQgetvalue(result, row, column);
	*out = (int16_t)(uint16_t)((unsigned)bytes[0] << 8 | bytes[1]);
	return 1;
}

static inline int get_int32(const PGresult *result, int row, int column, int32_t *out)
{
	if (PQgetisnull(result, row, column) || PQgetlength(result, row, column) != 4)
		return 0;
	const unsigned char *bytes = (const unsigned char *)PQgetvalue(result, row, column);
	*out = (int32_t)((uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3]);
	return 1;
}

static inline int get_int64(const PGresult *result, int row, int column, int64_t *out)
{
	if (PQgetisnull(result, row, column) || PQgetlength(result, row, column) != 8)
		return 0;
	const unsigned char *bytes = (const unsigned char *)PQgetvalue(result, row, column);
	uint64_t value = 0;
	for (int i = 0; i < 8; i++)
		value = value << 8 | bytes[i];
	*out = (int64_t)value;
	return 1;
}

static inline int get_timestamp(const PGresult *result, int row, int column, int64_t *out)
{
	int64_t since_2000;
	if (!get_int64(result, row, column, &since_2000))
		return 0;
	*out = since_2000 + STORE_PG_EPOCH_US;
	return 1;
}

static inline int get_bool(const PGresult *result, int row, int column, int *out)
{
	if (PQgetisnull(result, row, column) || PQgetlength(result, row, column) != 1)
		return 0;
	*out = PQgetvalue(result, row, column)[0] != 0;
	return 1;
}

#endif
