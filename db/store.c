/*
 * store.c - the event store's connection: connecting, preparing the statements, running
 * them, and telling from a failure what the caller should do. The operations themselves
 * are in the files of their areas (store_events.c, store_webhooks.c ...), each with the SQL
 * of its statements in one X-macro list (store_internal.h); every area's list is prepared
 * here, on every new connection.
 *
 * Every operation is one prepared statement answered in binary (integers in network
 * order, bytea and text as raw bytes), so a row is read without parsing text and a value
 * of the wrong width is caught as STORE_CORRUPT.
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
 * call into a connection attempt). Before a statement is sent on a connection that has been
 * idle, the socket is polled: a server that went away (a restart ends every session with a
 * FATAL 57P01 and closes it) has left something to read, and the dead connection is
 * replaced before anything is sent. A statement that still fails because an old connection
 * turned out to be dead is sent once more on a new one, so the first requests after a
 * database restart succeed:
 *   - a read always;
 *   - a write only when it cannot have committed: the statement was never completely sent
 *     (its Sync, which ends the implicit transaction, did not leave), or the server
 *     answered it with an error (a statement that failed rolled its transaction back).
 *     A connection lost with no answer after the write was sent leaves the outcome
 *     unknown: STORE_UNAVAILABLE, never a second write.
 *
 * When a write has committed: the server ends the implicit transaction of a statement at
 * the Sync that follows it and only then sends ReadyForQuery. PQexecPrepared() returns
 * success only after ReadyForQuery; in the pipeline of store__run_and_notify() the write
 * counts as committed only once its PGRES_PIPELINE_SYNC has arrived. A connection lost
 * before that leaves the outcome unknown: STORE_UNAVAILABLE, never OK.
 *
 * Errors are classified by SQLSTATE, and unique violations by constraint name: 23505 on
 * events_pkey is a lost race (STORE_CONFLICT), on idempotency_keys_pkey a used key.
 *
 * Following the primary (a Patroni cluster, README's "High availability"): DATABASE_URL
 * may list several hosts with target_session_attrs=read-write, and libpq then connects to
 * whichever is the primary. A failover shows here only as a lost connection (no SQLSTATE),
 * or, when a connection reached a node that is a standby now, as 25006 (read-only
 * transaction): both drop the connection, so the next attempt goes through the host list
 * again, prepares every statement anew, and a statement that failed on the server is sent
 * once more as above. A commit is durable only when the synchronous standby has it too:
 * PostgreSQL answers a COMMIT whose wait for the standby was cancelled with success and a
 * WARNING ("canceling wait for synchronous replication ... committed locally, but might
 * not have been replicated"). The store never cancels: nothing here calls PQcancel(), every
 * statement is its own implicit transaction, whose commit at the Sync a statement_timeout
 * does not cover (postgres.c disables the timeout before committing; tests/db/
 * test_failover.c found no cancel with a 50 ms timeout), and every session sets
 * statement_timeout 0 all the same, for any explicit transaction. Should someone cancel
 * the wait, the warning is caught by the connection's notice receiver and the write
 * reported STORE_UNAVAILABLE, its outcome unknown, like a lost connection (the caller's
 * expected version and idempotency key make the retry safe). Every connection also asks
 * for synchronous_commit on when the server's default is weaker, so that a commit that
 * returns is on the standby (the outbox workers rely on it: game/outbox.c), and for TCP
 * keepalives, so that a primary cut off the network is found dead in seconds, not minutes.
 */
#include "db/store_internal.h"

#include <openssl/rand.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <time.h>

#define STORE_RETRY_MS 100

/* The connection's own statement: the wake-up that follows a write (run_and_notify_once(),
 * store__wake()). */
#define CONNECTION_STATEMENTS(X) X(notify, 2, "SELECT catan_notify($1::bigint, $2::integer)")
STORE_STATEMENTS(connection, CONNECTION_STATEMENTS);

static int64_t monotonic_ms(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void store__say(struct store *store, const char *format, ...)
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

enum store_status store__corrupt(struct store *store, int64_t game_id, const char *what)
{
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(game_id, id);
	store__say(store, "game %s: %s", id, what);
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

int store__random_id(int64_t *id)
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

/* WEBHOOK_RECEIVERS_MAX, told to every connection opened after it is set; -1: not set. */
static atomic_int webhook_receivers_max = -1;

void store_set_webhook_receivers_max(int max)
{
	atomic_store(&webhook_receivers_max, max < 0 ? -1 : max);
}

/* The notice receiver of every connection: a WARNING that a commit's wait for the
 * synchronous standby was cancelled (xact.c's SyncRepWaitForLSN(); the server's messages
 * are in English unless lc_messages says otherwise) marks the statement's result as not
 * durable. Other notices are dropped, as libpq's default would print them to stderr. */
static void receive_notice(void *context, const PGresult *notice)
{
	struct store *store = context;
	const char *message = PQresultErrorField(notice, PG_DIAG_MESSAGE_PRIMARY);
	const char *detail = PQresultErrorField(notice, PG_DIAG_MESSAGE_DETAIL);
	if ((message && strstr(message, "synchronous replication")) || (detail && strstr(detail, "committed locally")))
		store->unreplicated = 1;
}

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
	/* connect_timeout is per host (libpq's floor is 2 s); the keepalives and
	 * tcp_user_timeout find a peer that went silent (store_internal.h). */
	const char *keywords[] = {"connect_timeout",
				  "keepalives",
				  "keepalives_idle",
				  "keepalives_interval",
				  "keepalives_count",
				  "tcp_user_timeout",
				  "fallback_application_name",
				  "target_session_attrs",
				  "dbname",
				  NULL};
	/* A store of reads (store_open_for_reads()) prefers a standby and waits less for one
	 * that does not answer: its caller falls back to the primary. */
	const char *values[] = {store->for_reads ? "2" : "5",
				"1",
				STORE_KEEPALIVES_IDLE,
				STORE_KEEPALIVES_INTERVAL,
				STORE_KEEPALIVES_COUNT,
				STORE_TCP_USER_TIMEOUT,
				"catan",
				store->for_reads ? "prefer-standby" : "any",
				store->conninfo,
				NULL};
	store->on_standby = 0;
	store->conn = PQconnectdbParams(keywords, values, 1);
	if (!store->conn)
		abort();
	if (PQstatus(store->conn) != CONNECTION_OK) {
		store__say(store, "cannot connect to the database: %s", PQerrorMessage(store->conn));
		goto failed;
	}
	PQsetNoticeReceiver(store->conn, receive_notice, store);
	const char *hot_standby = PQparameterStatus(store->conn, "in_hot_standby");
	store->on_standby = hot_standby && strcmp(hot_standby, "on") == 0;
	for (int area = 0; area < store->area_count; area++) {
		for (int i = 0; i < store->areas[area]->count; i++) {
			const struct store_statement *statement = store->areas[area]->statements[i];
			/* As many parameters as the list says, their types left to the SQL's casts: a
			 * parameter the SQL never reads has no type, and fails here. */
			static const Oid unspecified[STORE_MAX_PARAMS];
			PGresult *result =
				PQprepare(store->conn, statement->name, statement->sql, statement->params, unspecified);
			int ok = PQresultStatus(result) == PGRES_COMMAND_OK;
			if (!ok)
				store__say(store, "cannot prepare %s (is the schema migrated?): %s", statement->name,
					   PQresultErrorMessage(result));
			PQclear(result);
			if (!ok)
				goto failed;
		}
	}
	/* Generic plans, made once per connection: the statements are the same few shapes
	 * with different keys, and in "auto" mode PostgreSQL re-plans those whose custom plans
	 * it estimates cheaper (read_tail, the appends' functions) on every call, for the
	 * same plan. A generic plan is made again when a table's statistics change. */
	/* statement_timeout 0: no commit of an explicit transaction is cancelled while it waits
	 * for the synchronous standby (it would return success without being replicated); a weaker
	 * synchronous_commit than on is raised to on, and remote_apply left as it is. */
	PGresult *generic =
		PQexec(store->conn, "SET plan_cache_mode = force_generic_plan; SET statement_timeout = 0;"
				    " SELECT set_config('synchronous_commit', 'on', false)"
				    " WHERE current_setting('synchronous_commit') IN ('off', 'local', 'remote_write')");
	int generic_ok = PQresultStatus(generic) == PGRES_TUPLES_OK;
	if (!generic_ok)
		store__say(store, "cannot set the session's settings: %s", PQresultErrorMessage(generic));
	PQclear(generic);
	if (!generic_ok)
		goto failed;
	int receivers = atomic_load(&webhook_receivers_max);
	if (receivers >= 0) {
		/* Read by catan_receivers() (0011_quotas.sql) on this connection. */
		char value[16];
		snprintf(value, sizeof value, "%d", receivers);
		const char *values_set[] = {value};
		PGresult *result =
			PQexecParams(store->conn, "SELECT set_config('catan.webhook_receivers_max', $1, false)", 1,
				     NULL, values_set, NULL, NULL, 0);
		int ok = PQresultStatus(result) == PGRES_TUPLES_OK;
		if (!ok)
			store__say(store, "cannot set catan.webhook_receivers_max: %s", PQresultErrorMessage(result));
		PQclear(result);
		if (!ok)
			goto failed;
	}
	return STORE_OK;
failed:
	disconnect(store);
	store->retry_at_ms = now + (store->for_reads ? STORE_READS_RETRY_MS : STORE_RETRY_MS);
	return STORE_UNAVAILABLE;
}

char *store_conninfo_for_database(const char *conninfo, const char *dbname, char **error)
{
	char *reason = NULL;
	PQconninfoOption *options = PQconninfoParse(conninfo ? conninfo : "", &reason);
	if (error)
		*error = reason ? store_strndup(reason, strlen(reason)) : NULL;
	if (reason)
		PQfreemem(reason);
	if (!options)
		return NULL;
	size_t capacity = 1, size = 0;
	for (PQconninfoOption *option = options; option->keyword; option++) {
		const char *value = strcmp(option->keyword, "dbname") == 0 ? dbname : option->val;
		if (value)
			capacity += strlen(option->keyword) + 2 * strlen(value) + 8;
	}
	char *text = store_alloc(capacity);
	text[0] = '\0';
	for (PQconninfoOption *option = options; option->keyword; option++) {
		const char *value = strcmp(option->keyword, "dbname") == 0 ? dbname : option->val;
		if (!value)
			continue;
		size += (size_t)sprintf(text + size, "%s%s='", size ? " " : "", option->keyword);
		for (const char *c = value; *c; c++) {
			if (*c == '\'' || *c == '\\')
				text[size++] = '\\';
			text[size++] = *c;
		}
		text[size++] = '\'';
		text[size] = '\0';
	}
	PQconninfoFree(options);
	return text;
}

enum store_status store__open(const char *conninfo, const struct store_area *const *areas, int area_count,
			      struct store **out)
{
	struct store *store = store_alloc(sizeof *store);
	memset(store, 0, sizeof *store);
	store->areas = areas;
	store->area_count = area_count;
	store->conninfo = store_strndup(conninfo ? conninfo : "", conninfo ? strlen(conninfo) : 0);
	*out = store;
	return connect_store(store);
}

enum store_status store__open_for_reads(const char *conninfo, const struct store_area *const *areas, int area_count,
					struct store **out)
{
	struct store *store = store_alloc(sizeof *store);
	memset(store, 0, sizeof *store);
	store->areas = areas;
	store->area_count = area_count;
	store->for_reads = 1;
	store->conninfo = store_strndup(conninfo ? conninfo : "", conninfo ? strlen(conninfo) : 0);
	*out = store;
	return connect_store(store);
}

int store_on_standby(const struct store *store)
{
	return store->conn && store->on_standby;
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

/* Replace nothing, but forget a connection the server has closed while it was idle: there
 * is nothing to read on an idle connection unless the server ended it (a FATAL message,
 * end of file). Costs one poll() with no wait. */
static void drop_if_closed(struct store *store)
{
	if (!store->conn)
		return;
	struct pollfd socket_fd = {PQsocket(store->conn), POLLIN, 0};
	if (socket_fd.fd < 0) {
		disconnect(store);
		return;
	}
	/* The server's FATAL message is read first (libpq takes an error on an idle connection
	 * as a notice); the end of file after it only by a further read. A few rounds at most:
	 * anything else that arrives (a notice) is read past by the next statement anyway. */
	for (int round = 0; round < 4 && poll(&socket_fd, 1, 0) > 0; round++) {
		if (!PQconsumeInput(store->conn) || PQstatus(store->conn) != CONNECTION_OK) {
			store__say(store, "the database closed the connection: %s", PQerrorMessage(store->conn));
			disconnect(store);
			return;
		}
	}
}

/* 1 when a failed statement's result is the server's own error: the statement failed on the
 * server, so its transaction did not commit. libpq's own errors (a lost connection) carry
 * no SQLSTATE. */
static int failed_on_server(const PGresult *result)
{
	return result && PQresultStatus(result) == PGRES_FATAL_ERROR &&
	       PQresultErrorField(result, PG_DIAG_SQLSTATE) != NULL;
}

/* The status of a failed statement. Drops the connection when it cannot be trusted. */
static enum store_status classify(struct store *store, const PGresult *result)
{
	const char *sqlstate = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : NULL;
	store__say(store, "%s", result ? PQresultErrorMessage(result) : PQerrorMessage(store->conn));
	if (!store->message[0])
		store__say(store, "%s", PQerrorMessage(store->conn));
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
		if (constraint && (strcmp(constraint, "games_pkey") == 0 || strcmp(constraint, "players_pkey") == 0))
			return STORE_CONFLICT;
		return STORE_INVALID; /* a duplicate token hash: the caller's values */
	}
	if (strcmp(sqlstate, "P0002") == 0)
		return STORE_NOT_FOUND;
	if (strcmp(sqlstate, "CT409") == 0 || strcmp(sqlstate, "40001") == 0 || strcmp(sqlstate, "40P01") == 0)
		return STORE_CONFLICT;
	if (strncmp(sqlstate, "22", 2) == 0 || strncmp(sqlstate, "23", 2) == 0)
		return STORE_INVALID;
	/* Connection exceptions, shutdown, a statement that no longer matches the schema, a
	 * read-only answer (the node is a standby now: the host list finds the primary): start
	 * over on a new connection. Anything else (out of resources, timeouts) leaves it. */
	if (strncmp(sqlstate, "08", 2) == 0 || strncmp(sqlstate, "57P", 3) == 0 || strcmp(sqlstate, "0A000") == 0 ||
	    strcmp(sqlstate, "26000") == 0 || strcmp(sqlstate, "25006") == 0)
		disconnect(store);
	return STORE_UNAVAILABLE;
}

/* Before each attempt at a statement: no result and no message yet, as many parameters as
 * the statement takes (else STORE_INVALID, and nothing is sent), and a live connection (a
 * connection the server closed while idle is replaced before anything is sent; *fresh set
 * when it was made now). */
static enum store_status begin_attempt(struct store *store, const struct store_statement *statement,
				       const struct params *params, PGresult **out, int *fresh)
{
	*out = NULL;
	store->message[0] = '\0';
	store->unreplicated = 0;
	*fresh = 0;
	if (params->count != statement->params) {
		store__say(store, "statement %s takes %d parameters, not %d", statement->name, statement->params,
			   params->count);
		return STORE_INVALID;
	}
	drop_if_closed(store);
	if (store->conn)
		return STORE_OK;
	*fresh = 1;
	return connect_store(store);
}

/* A write that returned success although its commit's wait for the synchronous standby was
 * cancelled (receive_notice()): committed on this node only, so it may be lost in a
 * failover. Its outcome is unknown to the caller: STORE_UNAVAILABLE, and the connection is
 * dropped (the node may be on its way out). */
static enum store_status not_durable(struct store *store, PGresult *result)
{
	PQclear(result);
	store__say(store, "the commit was not confirmed by the synchronous standby (its wait was cancelled)");
	disconnect(store);
	return STORE_UNAVAILABLE;
}

enum store_status store__run(struct store *store, const struct store_statement *statement, const struct params *params,
			     int retry, PGresult **out)
{
	for (int attempt = 0;; attempt++) {
		int fresh;
		enum store_status connected = begin_attempt(store, statement, params, out, &fresh);
		if (connected != STORE_OK)
			return connected;
		PGresult *result = PQexecPrepared(store->conn, statement->name, params->count, params->values,
						  params->lengths, params->formats, 1);
		ExecStatusType state = PQresultStatus(result);
		if (result && (state == PGRES_TUPLES_OK || state == PGRES_COMMAND_OK)) {
			if (store->unreplicated)
				return not_durable(store, result);
			*out = result;
			return STORE_OK;
		}
		int rolled_back = failed_on_server(result);
		enum store_status status = classify(store, result);
		PQclear(result);
		if (status == STORE_UNAVAILABLE && (retry || rolled_back) && attempt == 0 && !fresh && !store->conn)
			continue;
		return status;
	}
}

/* The results of one pipeline segment, up to and including its Sync: the statement's
 * result goes to *result (caller PQclear()s; NULL if none came). Returns 1 when the Sync
 * arrived, which the server sends after ending the segment's transaction; 0 when the
 * connection failed first. */
static int read_segment(PGconn *conn, PGresult **result)
{
	*result = NULL;
	for (int ends = 0;;) {
		PGresult *next = PQgetResult(conn);
		if (!next) {
			/* One NULL ends the statement's results; more, or a dead connection, mean
			 * the Sync is not coming. */
			if (PQstatus(conn) != CONNECTION_OK || ++ends > 1)
				return 0;
			continue;
		}
		if (PQresultStatus(next) == PGRES_PIPELINE_SYNC) {
			PQclear(next);
			return 1;
		}
		if (*result)
			PQclear(next);
		else
			*result = next;
	}
}

/* Run a write statement, then wake the listeners of (game_id, version) in a transaction of
 * its own (see db/migrations/0001_event_store.sql), both in one libpq pipeline: one
 * round trip. STORE_OK only when the write's result and the Sync after it arrived, i.e. its
 * transaction committed; if the connection fails before that, the outcome is unknown and
 * the status STORE_UNAVAILABLE. The wake-up's own outcome does not change the status. */
static enum store_status run_and_notify_once(struct store *store, const struct store_statement *statement,
					     const struct params *params, int64_t game_id, int32_t version,
					     PGresult **out, int *not_committed)
{
	*not_committed = 0;
	PGconn *conn = store->conn;
	struct params notify = {0};
	param_int(&notify, game_id);
	param_int(&notify, version);
	/* Until the first PQpipelineSync() has flushed everything, the write's Sync has not
	 * left: whatever the server received of it cannot commit. */
	int write_sent = 0;
	if (!PQenterPipelineMode(conn) ||
	    !PQsendQueryPrepared(conn, statement->name, params->count, params->values, params->lengths, params->formats,
				 1) ||
	    !PQpipelineSync(conn) || !(write_sent = 1) ||
	    !PQsendQueryPrepared(conn, statement_notify.name, notify.count, notify.values, notify.lengths,
				 notify.formats, 1) ||
	    !PQpipelineSync(conn)) {
		store__say(store, "sending to the database: %s", PQerrorMessage(conn));
		disconnect(store);
		*not_committed = !write_sent;
		return STORE_UNAVAILABLE;
	}
	PGresult *result;
	int committed = read_segment(conn, &result) && result &&
			(PQresultStatus(result) == PGRES_TUPLES_OK || PQresultStatus(result) == PGRES_COMMAND_OK);
	enum store_status status;
	if (committed && store->unreplicated) {
		status = not_durable(store, result);
	} else if (committed) {
		status = STORE_OK;
		*out = result;
	} else {
		*not_committed = failed_on_server(result);
		status = classify(store, result);
		PQclear(result);
	}
	if (store->conn) {
		PGresult *woken;
		int synced = read_segment(conn, &woken);
		PQclear(woken);
		if (!synced || !PQexitPipelineMode(conn))
			disconnect(store); /* out of step: start over on the next call */
	}
	return status;
}

enum store_status store__run_and_notify(struct store *store, const struct store_statement *statement,
					const struct params *params, int64_t game_id, int32_t version, PGresult **out)
{
	for (int attempt = 0;; attempt++) {
		int fresh;
		enum store_status connected = begin_attempt(store, statement, params, out, &fresh);
		if (connected != STORE_OK)
			return connected;
		int not_committed;
		enum store_status status =
			run_and_notify_once(store, statement, params, game_id, version, out, &not_committed);
		/* An old connection found dead, and the write certainly not committed: once more on a
		 * new one (a new connection that fails is the outage itself). */
		if (status == STORE_UNAVAILABLE && not_committed && attempt == 0 && !fresh && !store->conn)
			continue;
		return status;
	}
}

void store__wake(struct store *store, int64_t game_id, int32_t version)
{
	if (store->notifier) {
		store__notifier_post(store->notifier, game_id, version);
		return;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, version);
	PGresult *notified;
	if (store__run(store, &statement_notify, &params, 0, &notified) == STORE_OK)
		PQclear(notified);
}
