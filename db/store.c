/*
 * store.c - the event store over one libpq connection.
 *
 * Every operation is one prepared statement, sent with PQexecPrepared() and answered in
 * binary (integers in network order, bytea and text as raw bytes), so a row is read
 * without parsing text and a value of the wrong width is caught as STORE_CORRUPT. The
 * writes are PL/pgSQL functions of the schema (db/migrations/0001_event_store.sql), so
 * an append is one round trip and one transaction however many parts it has.
 *
 * The connection's life:
 *
 *     (none) --connect+prepare ok--> READY --statement ok/refused--> READY
 *        ^  \--fails: UNAVAILABLE      |
 *        |                             +--connection lost, server shutting down,
 *        +-----------------------------   prepared statement gone: UNAVAILABLE
 *
 * Any call finding no connection first connects and prepares every statement again
 * (after a failed attempt, not again for STORE_RETRY_MS, so an outage does not turn each
 * call into a connection attempt). A read that fails because an old connection turned out
 * to be dead is retried once on a new one, so the first request after a database restart
 * still succeeds; a write never is: it may have committed, and the caller must not be told
 * OK unless it did, nor made to write twice. PQexecPrepared() returns success only after
 * the server's ReadyForQuery, which follows the commit of the implicit transaction; any
 * failure before that (the connection lost while waiting) is reported UNAVAILABLE.
 *
 * Errors are classified by SQLSTATE, and unique violations by constraint name: 23505 on
 * events_pkey is a lost race (STORE_CONFLICT), on idempotency_keys_pkey a used key.
 */
#include "db/store.h"

#include <libpq-fe.h>
#include <openssl/rand.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STORE_RETRY_MS 100
#define STORE_MESSAGE_SIZE 512
#define STORE_MAX_PARAMS 16
#define STORE_ID_ATTEMPTS 4
/* Microseconds from 1970-01-01 to PostgreSQL's epoch 2000-01-01. */
#define STORE_PG_EPOCH_US INT64_C(946684800000000)

/* ---- Statements ---------------------------------------------------------------------------
 * Each is prepared under its enum name on every new connection. Row layouts shared by
 * load and read: a header row (seq 0) from games, then event rows. */

enum statement {
	STATEMENT_APPEND,
	STATEMENT_CREATE_GAME,
	STATEMENT_LOAD,
	STATEMENT_READ_EVENTS,
	STATEMENT_VERSION,
	STATEMENT_FIND_TOKEN,
	STATEMENT_GAME_INFO,
	STATEMENT_IDEMPOTENCY_GET,
	STATEMENT_IDEMPOTENCY_PUT,
	STATEMENT_PUT_SNAPSHOT,
	STATEMENT_COUNT
};

/* Columns of the load and read statements. */
enum log_column {
	LOG_SEQ,          /* int4: 0 for the header row */
	LOG_TYPE,         /* int2: header: games.status */
	LOG_ACTOR,        /* int2: header: games.seats */
	LOG_ORIGIN,       /* int2 */
	LOG_SEED,         /* int8: header only */
	LOG_CREATED_AT,   /* timestamptz: events only */
	LOG_SNAPSHOT_SEQ, /* int4: header only, 0 for no usable snapshot */
	LOG_STATE,        /* bytea: header only */
	LOG_PAYLOAD       /* text: events only */
};

static const struct {
	const char *name;
	const char *sql;
} statements[STATEMENT_COUNT] = {
	[STATEMENT_APPEND] = {"append",
		"SELECT catan_append($1::bigint, $2::integer, $3::smallint[], $4::smallint[], $5::smallint[],"
		" $6::text[], $7::smallint, $8::integer, $9::bytea, $10::text, $11::bytea, $12::smallint,"
		" $13::text)"},
	[STATEMENT_CREATE_GAME] = {"create_game",
		"SELECT catan_create_game($1::bigint, $2::bigint, $3::smallint, $4::bytea, $5::text,"
		" $6::text[], $7::boolean[], $8::bytea, $9::smallint[], $10::smallint[], $11::smallint[],"
		" $12::text[], $13::integer, $14::bytea)"},
	[STATEMENT_LOAD] = {"load",
		"WITH s AS (SELECT seq, state FROM snapshots"
		"  WHERE game_id = $1::bigint AND format_version = $2::integer"
		"  AND octet_length(state) = $3::integer)"
		" SELECT 0, g.status, g.seats, NULL::smallint, g.seed, NULL::timestamptz,"
		"  coalesce((SELECT seq FROM s), 0), (SELECT state FROM s), NULL::text"
		" FROM games g WHERE g.id = $1::bigint"
		" UNION ALL"
		" SELECT e.seq, e.type, e.actor, e.origin, NULL, e.created_at, NULL, NULL, e.payload::text"
		" FROM events e WHERE e.game_id = $1::bigint AND e.seq > coalesce((SELECT seq FROM s), 0)"
		" ORDER BY 1"},
	[STATEMENT_READ_EVENTS] = {"read_events",
		"SELECT 0, g.status, g.seats, NULL::smallint, NULL::bigint, NULL::timestamptz,"
		"  NULL::integer, NULL::bytea, NULL::text"
		" FROM games g WHERE g.id = $1::bigint"
		" UNION ALL"
		" (SELECT e.seq, e.type, e.actor, e.origin, NULL, e.created_at, NULL, NULL, e.payload::text"
		"  FROM events e WHERE e.game_id = $1::bigint AND e.seq > $2::integer"
		"  ORDER BY e.seq LIMIT $3::integer)"
		" ORDER BY 1"},
	[STATEMENT_VERSION] = {"version",
		"SELECT coalesce((SELECT max(seq) FROM events WHERE game_id = $1::bigint), 0)"
		" FROM games WHERE id = $1::bigint"},
	[STATEMENT_FIND_TOKEN] = {"find_token",
		"SELECT seat FROM seats WHERE game_id = $1::bigint AND token_hash = $2::bytea"
		" UNION ALL"
		" SELECT (-2)::smallint FROM games WHERE id = $1::bigint AND admin_token_hash = $2::bytea"
		" LIMIT 1"},
	[STATEMENT_GAME_INFO] = {"game_info",
		"SELECT g.seed, g.status, g.seats, g.created_at, g.updated_at, g.options::text,"
		"  s.seat, s.bot, s.name"
		" FROM games g LEFT JOIN seats s ON s.game_id = g.id"
		" WHERE g.id = $1::bigint ORDER BY s.seat"},
	[STATEMENT_IDEMPOTENCY_GET] = {"idempotency_get",
		"SELECT request_hash, status, response, created_at FROM idempotency_keys"
		" WHERE game_id = $1::bigint AND key = $2::text"},
	[STATEMENT_IDEMPOTENCY_PUT] = {"idempotency_put",
		"INSERT INTO idempotency_keys (game_id, status, key, request_hash, response)"
		" SELECT id, $2::smallint, $3::text, $4::bytea, $5::text FROM games WHERE id = $1::bigint"},
	[STATEMENT_PUT_SNAPSHOT] = {"put_snapshot",
		"WITH e AS (SELECT seq FROM events WHERE game_id = $1::bigint AND seq = $2::integer),"
		" put AS (INSERT INTO snapshots AS s (game_id, seq, format_version, state)"
		"  SELECT $1::bigint, seq, $3::integer, $4::bytea FROM e"
		"  ON CONFLICT (game_id) DO UPDATE SET created_at = now(), seq = excluded.seq,"
		"   format_version = excluded.format_version, state = excluded.state"
		"  WHERE s.seq < excluded.seq OR s.format_version <> excluded.format_version"
		"  RETURNING 1)"
		" SELECT (SELECT count(*) FROM e)::integer, (SELECT count(*) FROM put)::integer"},
};

struct store {
	char *conninfo;
	PGconn *conn;          /* NULL when there is no usable connection */
	int64_t retry_at_ms;   /* no connection attempt before this (monotonic) */
	char message[STORE_MESSAGE_SIZE];
};

/* ---- Small helpers ------------------------------------------------------------------------ */

static void *store_alloc(size_t size)
{
	void *pointer = malloc(size ? size : 1);
	if (!pointer)
		abort();
	return pointer;
}

static char *store_strndup(const char *text, size_t length)
{
	char *copy = store_alloc(length + 1);
	memcpy(copy, text, length);
	copy[length] = '\0';
	return copy;
}

static int64_t monotonic_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

__attribute__((format(printf, 2, 3))) static void say(struct store *store, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(store->message, sizeof store->message, format, args);
	va_end(args);
	/* libpq messages end in newlines; one line reads better in logs. */
	for (char *c = store->message; *c; c++)
		if (*c == '\n')
			*c = (c[1] ? ' ' : '\0');
}

/* A growing byte buffer for array literals. */
struct buffer {
	char *data;
	size_t size;
	size_t capacity;
};

static void buffer_append(struct buffer *buffer, const char *bytes, size_t size)
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

static void buffer_string(struct buffer *buffer, const char *text)
{
	buffer_append(buffer, text, strlen(text));
}

/* An array literal element: quoted, with backslash and double quote escaped; NULL as NULL. */
static void buffer_array_text(struct buffer *buffer, const char *text)
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

static void buffer_array_int(struct buffer *buffer, int value, int first)
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

static void param_int(struct params *params, long long value)
{
	int i = params->count++;
	snprintf(params->numbers[i], sizeof params->numbers[i], "%lld", value);
	params->values[i] = params->numbers[i];
	params->lengths[i] = 0;
	params->formats[i] = 0;
}

/* Borrows text (NULL for SQL NULL) until the statement is sent. */
static void param_text(struct params *params, const char *text)
{
	int i = params->count++;
	params->values[i] = text;
	params->lengths[i] = 0;
	params->formats[i] = 0;
}

static void param_bytes(struct params *params, const void *bytes, size_t size)
{
	int i = params->count++;
	params->values[i] = bytes ? bytes : "";
	params->lengths[i] = (int)size;
	params->formats[i] = 1;
}

static void param_null(struct params *params)
{
	param_text(params, NULL);
}

/* Binary result values. Each returns 0 when the value is NULL or has the wrong width. */
static int get_int16(const PGresult *result, int row, int column, int *out)
{
	if (PQgetisnull(result, row, column) || PQgetlength(result, row, column) != 2)
		return 0;
	const unsigned char *bytes = (const unsigned char *)PQgetvalue(result, row, column);
	*out = (int16_t)(uint16_t)((unsigned)bytes[0] << 8 | bytes[1]);
	return 1;
}

static int get_int32(const PGresult *result, int row, int column, int32_t *out)
{
	if (PQgetisnull(result, row, column) || PQgetlength(result, row, column) != 4)
		return 0;
	const unsigned char *bytes = (const unsigned char *)PQgetvalue(result, row, column);
	*out = (int32_t)((uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3]);
	return 1;
}

static int get_int64(const PGresult *result, int row, int column, int64_t *out)
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

static int get_timestamp(const PGresult *result, int row, int column, int64_t *out)
{
	int64_t since_2000;
	if (!get_int64(result, row, column, &since_2000))
		return 0;
	*out = since_2000 + STORE_PG_EPOCH_US;
	return 1;
}

static int get_bool(const PGresult *result, int row, int column, int *out)
{
	if (PQgetisnull(result, row, column) || PQgetlength(result, row, column) != 1)
		return 0;
	*out = PQgetvalue(result, row, column)[0] != 0;
	return 1;
}

static enum store_status corrupt(struct store *store, int64_t game_id, const char *what)
{
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(game_id, id);
	say(store, "game %s: %s", id, what);
	return STORE_CORRUPT;
}

/* ---- Status names and identifiers ---------------------------------------------------------- */

static const char *const status_names[] = {
#define STORE_STATUS_NAME(name, message) #name,
	STORE_STATUS_LIST(STORE_STATUS_NAME)
#undef STORE_STATUS_NAME
};

static const char *const status_messages[] = {
#define STORE_STATUS_MESSAGE(name, message) message,
	STORE_STATUS_LIST(STORE_STATUS_MESSAGE)
#undef STORE_STATUS_MESSAGE
};

const char *store_status_name(enum store_status status)
{
	return (unsigned)status < STORE_STATUS_COUNT ? status_names[status] : "STORE_?";
}

const char *store_status_message(enum store_status status)
{
	return (unsigned)status < STORE_STATUS_COUNT ? status_messages[status] : "unknown store status";
}

void store_format_id(int64_t id, char out[STORE_ID_TEXT_SIZE])
{
	snprintf(out, STORE_ID_TEXT_SIZE, "%016llx", (unsigned long long)id);
}

int store_parse_id(const char *text, int64_t *id)
{
	uint64_t value = 0;
	for (int i = 0; i < 16; i++) {
		char c = text[i];
		int digit;
		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if (c >= 'a' && c <= 'f')
			digit = c - 'a' + 10;
		else
			return 0;
		value = value << 4 | (uint64_t)digit;
	}
	if (text[16] != '\0' || value == 0 || value > (uint64_t)INT64_MAX)
		return 0;
	*id = (int64_t)value;
	return 1;
}

/* A new random positive 63-bit id from OpenSSL's generator. */
static int new_game_id(int64_t *id)
{
	uint64_t value = 0;
	while (value == 0) {
		unsigned char bytes[8];
		if (RAND_bytes(bytes, sizeof bytes) != 1)
			return 0;
		for (int i = 0; i < 8; i++)
			value = value << 8 | bytes[i];
		value &= (uint64_t)INT64_MAX;
	}
	*id = (int64_t)value;
	return 1;
}

/* ---- Connection ---------------------------------------------------------------------------- */

static void disconnect(struct store *store)
{
	if (store->conn) {
		PQfinish(store->conn);
		store->conn = NULL;
	}
}

/* Connect and prepare every statement. The caller's conninfo comes last, so it overrides
 * the defaults given here. */
static enum store_status connect_store(struct store *store)
{
	int64_t now = monotonic_ms();
	if (now < store->retry_at_ms)
		return STORE_UNAVAILABLE; /* the message of the failed attempt stands */
	const char *keywords[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
	const char *values[] = {"5", "catan", store->conninfo, NULL};
	store->conn = PQconnectdbParams(keywords, values, 1);
	if (!store->conn)
		abort();
	if (PQstatus(store->conn) != CONNECTION_OK) {
		say(store, "cannot connect to the database: %s", PQerrorMessage(store->conn));
		goto failed;
	}
	for (int i = 0; i < STATEMENT_COUNT; i++) {
		PGresult *result = PQprepare(store->conn, statements[i].name, statements[i].sql, 0, NULL);
		int ok = PQresultStatus(result) == PGRES_COMMAND_OK;
		if (!ok)
			say(store, "cannot prepare %s (is the schema migrated?): %s", statements[i].name,
			    PQresultErrorMessage(result));
		PQclear(result);
		if (!ok)
			goto failed;
	}
	return STORE_OK;
failed:
	disconnect(store);
	store->retry_at_ms = now + STORE_RETRY_MS;
	return STORE_UNAVAILABLE;
}

enum store_status store_open(const char *conninfo, struct store **out)
{
	struct store *store = store_alloc(sizeof *store);
	memset(store, 0, sizeof *store);
	store->conninfo = store_strndup(conninfo ? conninfo : "", conninfo ? strlen(conninfo) : 0);
	*out = store;
	return connect_store(store);
}

void store_close(struct store *store)
{
	if (!store)
		return;
	disconnect(store);
	free(store->conninfo);
	free(store);
}

const char *store_message(const struct store *store)
{
	return store->message;
}

/* The status of a failed statement. Drops the connection when it cannot be trusted. */
static enum store_status classify(struct store *store, const PGresult *result)
{
	const char *sqlstate = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : NULL;
	say(store, "%s", result ? PQresultErrorMessage(result) : PQerrorMessage(store->conn));
	if (!store->message[0])
		say(store, "%s", PQerrorMessage(store->conn));
	if (PQstatus(store->conn) != CONNECTION_OK || !sqlstate) {
		disconnect(store);
		return STORE_UNAVAILABLE;
	}
	if (strcmp(sqlstate, "23505") == 0) {
		const char *constraint = PQresultErrorField(result, PG_DIAG_CONSTRAINT_NAME);
		if (constraint && strcmp(constraint, "events_pkey") == 0)
			return STORE_CONFLICT;
		if (constraint && strcmp(constraint, "idempotency_keys_pkey") == 0)
			return STORE_IDEMPOTENCY_CONFLICT;
		if (constraint && strcmp(constraint, "games_pkey") == 0)
			return STORE_CONFLICT;
		return STORE_INVALID; /* a duplicate token hash: the caller's values */
	}
	if (strcmp(sqlstate, "P0002") == 0)
		return STORE_NOT_FOUND;
	if (strcmp(sqlstate, "CT409") == 0 || strcmp(sqlstate, "40001") == 0 || strcmp(sqlstate, "40P01") == 0)
		return STORE_CONFLICT;
	if (strncmp(sqlstate, "22", 2) == 0 || strncmp(sqlstate, "23", 2) == 0)
		return STORE_INVALID;
	/* Connection exceptions, shutdown, a statement that no longer matches the schema: start
	 * over on a new connection. Anything else (out of resources, timeouts) leaves it. */
	if (strncmp(sqlstate, "08", 2) == 0 || strncmp(sqlstate, "57P", 3) == 0 || strcmp(sqlstate, "0A000") == 0 ||
	    strcmp(sqlstate, "26000") == 0)
		disconnect(store);
	return STORE_UNAVAILABLE;
}

/* Run a prepared statement; *out is the result on STORE_OK (caller PQclear()s). A read
 * (`retry` 1) that finds an old connection dead is sent once more on a new one. */
static enum store_status run(struct store *store, enum statement statement, const struct params *params, int retry,
			     PGresult **out)
{
	*out = NULL;
	store->message[0] = '\0';
	for (int attempt = 0;; attempt++) {
		int fresh = 0;
		if (!store->conn) {
			enum store_status status = connect_store(store);
			if (status != STORE_OK)
				return status;
			fresh = 1;
		}
		PGresult *result = PQexecPrepared(store->conn, statements[statement].name, params->count,
						  params->values, params->lengths, params->formats, 1);
		ExecStatusType state = PQresultStatus(result);
		if (result && (state == PGRES_TUPLES_OK || state == PGRES_COMMAND_OK)) {
			*out = result;
			return STORE_OK;
		}
		enum store_status status = classify(store, result);
		PQclear(result);
		if (status == STORE_UNAVAILABLE && retry && attempt == 0 && !fresh && !store->conn)
			continue;
		return status;
	}
}

/* ---- Writing ------------------------------------------------------------------------------- */

/* The arrays of an event list as literals: types, actors, origins, payloads. */
struct event_arrays {
	struct buffer types;
	struct buffer actors;
	struct buffer origins;
	struct buffer payloads;
};

static int event_arrays_build(struct event_arrays *arrays, const struct store_event *events, int count)
{
	memset(arrays, 0, sizeof *arrays);
	buffer_string(&arrays->types, "{");
	buffer_string(&arrays->actors, "{");
	buffer_string(&arrays->origins, "{");
	buffer_string(&arrays->payloads, "{");
	for (int i = 0; i < count; i++) {
		if (!events[i].payload)
			return 0;
		buffer_array_int(&arrays->types, events[i].type, i == 0);
		buffer_array_int(&arrays->actors, events[i].actor, i == 0);
		buffer_array_int(&arrays->origins, events[i].origin, i == 0);
		if (i)
			buffer_string(&arrays->payloads, ",");
		buffer_array_text(&arrays->payloads, events[i].payload);
	}
	buffer_string(&arrays->types, "}");
	buffer_string(&arrays->actors, "}");
	buffer_string(&arrays->origins, "}");
	buffer_string(&arrays->payloads, "}");
	return 1;
}

static void event_arrays_free(struct event_arrays *arrays)
{
	free(arrays->types.data);
	free(arrays->actors.data);
	free(arrays->origins.data);
	free(arrays->payloads.data);
}

static void params_events(struct params *params, const struct event_arrays *arrays)
{
	param_text(params, arrays->types.data);
	param_text(params, arrays->actors.data);
	param_text(params, arrays->origins.data);
	param_text(params, arrays->payloads.data);
}

static void params_snapshot(struct params *params, const struct store_snapshot *snapshot)
{
	if (snapshot) {
		param_int(params, snapshot->format_version);
		param_bytes(params, snapshot->state, snapshot->size);
	} else {
		param_null(params);
		param_null(params);
	}
}

enum store_status store_create_game(struct store *store, const struct store_new_game *game, int64_t *id)
{
	store->message[0] = '\0';
	if (game->seats < 1 || game->seats > STORE_MAX_SEATS || game->event_count < 1 || !game->events ||
	    !game->options) {
		say(store, "store_create_game: %d seats, %d events", game->seats, game->event_count);
		return STORE_INVALID;
	}
	struct event_arrays arrays;
	if (!event_arrays_build(&arrays, game->events, game->event_count)) {
		event_arrays_free(&arrays);
		say(store, "store_create_game: an event without payload");
		return STORE_INVALID;
	}
	struct buffer names = {0}, bots = {0};
	uint8_t tokens[STORE_MAX_SEATS * STORE_HASH_SIZE];
	buffer_string(&names, "{");
	buffer_string(&bots, "{");
	for (int seat = 0; seat < game->seats; seat++) {
		if (seat) {
			buffer_string(&names, ",");
			buffer_string(&bots, ",");
		}
		buffer_array_text(&names, game->names[seat]);
		buffer_string(&bots, game->bots[seat] ? "t" : "f");
		memcpy(tokens + seat * STORE_HASH_SIZE, game->token_hashes[seat], STORE_HASH_SIZE);
	}
	buffer_string(&names, "}");
	buffer_string(&bots, "}");

	enum store_status status = STORE_CONFLICT;
	for (int attempt = 0; attempt < STORE_ID_ATTEMPTS && status == STORE_CONFLICT; attempt++) {
		if (!new_game_id(id)) {
			say(store, "the system random generator failed");
			status = STORE_UNAVAILABLE;
			break;
		}
		struct params params = {0};
		param_int(&params, *id);
		param_int(&params, game->seed);
		param_int(&params, game->status);
		param_bytes(&params, game->admin_token_hash, STORE_HASH_SIZE);
		param_text(&params, game->options);
		param_text(&params, names.data);
		param_text(&params, bots.data);
		param_bytes(&params, tokens, (size_t)game->seats * STORE_HASH_SIZE);
		params_events(&params, &arrays);
		params_snapshot(&params, game->snapshot);
		PGresult *result;
		/* A taken id (games_pkey) is the only conflict possible here: draw another. */
		status = run(store, STATEMENT_CREATE_GAME, &params, 0, &result);
		PQclear(result);
	}
	free(names.data);
	free(bots.data);
	event_arrays_free(&arrays);
	return status;
}

enum store_status store_append(struct store *store, const struct store_append *append)
{
	store->message[0] = '\0';
	if (append->event_count < 1 || !append->events || append->version < 0) {
		say(store, "store_append: %d events at version %d", append->event_count, (int)append->version);
		return STORE_INVALID;
	}
	struct event_arrays arrays;
	if (!event_arrays_build(&arrays, append->events, append->event_count)) {
		event_arrays_free(&arrays);
		say(store, "store_append: an event without payload");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, append->game_id);
	param_int(&params, append->version);
	params_events(&params, &arrays);
	if (append->status == STORE_NO_STATUS)
		param_null(&params);
	else
		param_int(&params, append->status);
	params_snapshot(&params, append->snapshot);
	const struct store_idempotency *record = append->idempotency;
	if (record) {
		param_text(&params, record->key);
		param_bytes(&params, record->request_hash, STORE_HASH_SIZE);
		param_int(&params, record->status);
		param_text(&params, record->response ? record->response : "");
	} else {
		for (int i = 0; i < 4; i++)
			param_null(&params);
	}
	PGresult *result;
	enum store_status status = run(store, STATEMENT_APPEND, &params, 0, &result);
	if (status == STORE_OK) {
		int32_t version;
		if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &version) ||
		    version != append->version + append->event_count)
			status = corrupt(store, append->game_id, "catan_append returned an unexpected version");
	}
	PQclear(result);
	event_arrays_free(&arrays);
	return status;
}

enum store_status store_put_snapshot(struct store *store, int64_t game_id, int32_t seq,
				     const struct store_snapshot *snapshot)
{
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seq);
	param_int(&params, snapshot->format_version);
	param_bytes(&params, snapshot->state, snapshot->size);
	PGresult *result;
	enum store_status status = run(store, STATEMENT_PUT_SNAPSHOT, &params, 0, &result);
	if (status == STORE_OK) {
		int32_t found;
		if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &found))
			status = corrupt(store, game_id, "put_snapshot returned no row");
		else if (!found) {
			say(store, "no version %d to keep a snapshot of", (int)seq);
			status = STORE_NOT_FOUND;
		}
	}
	PQclear(result);
	return status;
}

/* ---- Reading -------------------------------------------------------------------------------- */

void store_log_free(struct store_log *log)
{
	free(log->rows);
	log->rows = NULL;
	log->count = 0;
}

/* Copy the event rows first..PQntuples-1 of a load/read result into *log (one allocation:
 * the rows, then their payloads). The rows must follow on from seq `after`. */
static enum store_status copy_log(struct store *store, int64_t game_id, const PGresult *result, int first,
				  int32_t after, struct store_log *log)
{
	int count = PQntuples(result) - first;
	size_t text_size = 0;
	for (int row = first; row < first + count; row++)
		text_size += (size_t)PQgetlength(result, row, LOG_PAYLOAD) + 1;
	char *block = store_alloc(sizeof(struct store_event_row) * (size_t)count + text_size);
	log->rows = (struct store_event_row *)(void *)block;
	log->count = count;
	char *text = block + sizeof(struct store_event_row) * (size_t)count;
	for (int i = 0; i < count; i++) {
		int row = first + i;
		struct store_event_row *event = &log->rows[i];
		if (!get_int32(result, row, LOG_SEQ, &event->seq) || !get_int16(result, row, LOG_TYPE, &event->type) ||
		    !get_int16(result, row, LOG_ACTOR, &event->actor) ||
		    !get_int16(result, row, LOG_ORIGIN, &event->origin) ||
		    !get_timestamp(result, row, LOG_CREATED_AT, &event->created_at_us) ||
		    PQgetisnull(result, row, LOG_PAYLOAD)) {
			store_log_free(log);
			return corrupt(store, game_id, "an event row with missing or malformed columns");
		}
		if (event->seq != after + 1 + i) {
			store_log_free(log);
			return corrupt(store, game_id, "the event log has a gap");
		}
		size_t size = (size_t)PQgetlength(result, row, LOG_PAYLOAD);
		memcpy(text, PQgetvalue(result, row, LOG_PAYLOAD), size);
		text[size] = '\0';
		event->payload = text;
		event->payload_size = size;
		text += size + 1;
	}
	return STORE_OK;
}

enum store_status store_load(struct store *store, int64_t game_id, int format_version, void *state,
			     size_t state_size, struct store_loaded *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, format_version);
	param_int(&params, (long long)state_size);
	PGresult *result;
	enum store_status status = run(store, STATEMENT_LOAD, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t header_seq;
	if (PQntuples(result) == 0 || !get_int32(result, 0, LOG_SEQ, &header_seq) || header_seq != 0) {
		PQclear(result);
		say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	if (!get_int16(result, 0, LOG_TYPE, &out->status) || !get_int16(result, 0, LOG_ACTOR, &out->seats) ||
	    !get_int64(result, 0, LOG_SEED, &out->seed) ||
	    !get_int32(result, 0, LOG_SNAPSHOT_SEQ, &out->snapshot_seq) || out->snapshot_seq < 0) {
		PQclear(result);
		return corrupt(store, game_id, "a games row with missing or malformed columns");
	}
	if (out->snapshot_seq > 0) {
		/* The statement only returns a state of exactly state_size bytes. */
		if (PQgetisnull(result, 0, LOG_STATE) || (size_t)PQgetlength(result, 0, LOG_STATE) != state_size) {
			PQclear(result);
			return corrupt(store, game_id, "a snapshot of the wrong size");
		}
		memcpy(state, PQgetvalue(result, 0, LOG_STATE), state_size);
	}
	status = copy_log(store, game_id, result, 1, out->snapshot_seq, &out->log);
	PQclear(result);
	return status;
}

enum store_status store_read_events(struct store *store, int64_t game_id, int32_t after, int limit,
				    struct store_log *out)
{
	memset(out, 0, sizeof *out);
	if (after < 0 || limit < 0) {
		say(store, "store_read_events: after %d, limit %d", (int)after, limit);
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, after);
	param_int(&params, limit);
	PGresult *result;
	enum store_status status = run(store, STATEMENT_READ_EVENTS, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t header_seq;
	if (PQntuples(result) == 0 || !get_int32(result, 0, LOG_SEQ, &header_seq) || header_seq != 0) {
		PQclear(result);
		say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	status = copy_log(store, game_id, result, 1, after, out);
	PQclear(result);
	return status;
}

enum store_status store_version(struct store *store, int64_t game_id, int32_t *version)
{
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = run(store, STATEMENT_VERSION, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		say(store, "no such game");
		status = STORE_NOT_FOUND;
	} else if (!get_int32(result, 0, 0, version)) {
		status = corrupt(store, game_id, "a version that is not an integer");
	}
	PQclear(result);
	return status;
}

enum store_status store_find_token(struct store *store, int64_t game_id, const uint8_t hash[STORE_HASH_SIZE],
				   int *seat)
{
	struct params params = {0};
	param_int(&params, game_id);
	param_bytes(&params, hash, STORE_HASH_SIZE);
	PGresult *result;
	enum store_status status = run(store, STATEMENT_FIND_TOKEN, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		say(store, "no such token");
		status = STORE_NOT_FOUND;
	} else if (!get_int16(result, 0, 0, seat)) {
		status = corrupt(store, game_id, "a seat that is not an integer");
	}
	PQclear(result);
	return status;
}

void store_game_info_free(struct store_game_info *info)
{
	free(info->options);
	for (int seat = 0; seat < STORE_MAX_SEATS; seat++)
		free(info->names[seat]);
	memset(info, 0, sizeof *info);
}

enum store_status store_game_info(struct store *store, int64_t game_id, struct store_game_info *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = run(store, STATEMENT_GAME_INFO, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		PQclear(result);
		say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	if (!get_int64(result, 0, 0, &out->seed) || !get_int16(result, 0, 1, &out->status) ||
	    !get_int16(result, 0, 2, &out->seats) || !get_timestamp(result, 0, 3, &out->created_at_us) ||
	    !get_timestamp(result, 0, 4, &out->updated_at_us) || PQgetisnull(result, 0, 5) || out->seats < 1 ||
	    out->seats > STORE_MAX_SEATS || PQntuples(result) != out->seats) {
		PQclear(result);
		return corrupt(store, game_id, "a games row that does not match its seats");
	}
	out->options = store_strndup(PQgetvalue(result, 0, 5), (size_t)PQgetlength(result, 0, 5));
	for (int row = 0; row < out->seats; row++) {
		int seat, bot;
		if (!get_int16(result, row, 6, &seat) || seat != row || !get_bool(result, row, 7, &bot)) {
			PQclear(result);
			store_game_info_free(out);
			return corrupt(store, game_id, "seats that are not numbered 0, 1, 2 ...");
		}
		out->bots[seat] = bot;
		if (!PQgetisnull(result, row, 8))
			out->names[seat] = store_strndup(PQgetvalue(result, row, 8), (size_t)PQgetlength(result, row, 8));
	}
	PQclear(result);
	return STORE_OK;
}

/* ---- Idempotency ---------------------------------------------------------------------------- */

enum store_status store_idempotency_get(struct store *store, int64_t game_id, const char *key,
					const uint8_t request_hash[STORE_HASH_SIZE],
					struct store_idempotency_record *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	param_text(&params, key);
	PGresult *result;
	enum store_status status = run(store, STATEMENT_IDEMPOTENCY_GET, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		PQclear(result);
		say(store, "no record for this key");
		return STORE_NOT_FOUND;
	}
	if (PQgetisnull(result, 0, 0) || PQgetlength(result, 0, 0) != STORE_HASH_SIZE ||
	    !get_int16(result, 0, 1, &out->status) || PQgetisnull(result, 0, 2) ||
	    !get_timestamp(result, 0, 3, &out->created_at_us)) {
		PQclear(result);
		return corrupt(store, game_id, "an idempotency row with missing or malformed columns");
	}
	memcpy(out->request_hash, PQgetvalue(result, 0, 0), STORE_HASH_SIZE);
	out->response = store_strndup(PQgetvalue(result, 0, 2), (size_t)PQgetlength(result, 0, 2));
	PQclear(result);
	if (memcmp(out->request_hash, request_hash, STORE_HASH_SIZE) != 0) {
		say(store, "the key was used for a different request");
		return STORE_IDEMPOTENCY_CONFLICT;
	}
	return STORE_OK;
}

enum store_status store_idempotency_put(struct store *store, int64_t game_id,
					const struct store_idempotency *record)
{
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, record->status);
	param_text(&params, record->key);
	param_bytes(&params, record->request_hash, STORE_HASH_SIZE);
	param_text(&params, record->response ? record->response : "");
	PGresult *result;
	enum store_status status = run(store, STATEMENT_IDEMPOTENCY_PUT, &params, 0, &result);
	if (status == STORE_OK && strcmp(PQcmdTuples(result), "1") != 0) {
		say(store, "no such game");
		status = STORE_NOT_FOUND;
	}
	PQclear(result);
	return status;
}
