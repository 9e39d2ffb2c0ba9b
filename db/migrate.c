/*
 * migrate.c - bring a database's schema up to the one this binary was built with.
 *
 * The migrations are compiled in (db/migrations.h). Each is applied at most once and
 * recorded in schema_migrations, in the same transaction as its statements, so a failed
 * migration leaves nothing behind and is tried again next time. The whole run holds a
 * session-level advisory lock: servers starting together queue on it, and the second
 * finds every migration recorded by the first. A database that already has migrations
 * newer than this binary's is left as it is (an older server beside a newer one).
 */
#include "db/store.h"

#include <libpq-fe.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/migrations.h"

/* "catan" in ASCII: the advisory lock key of the migration run. */
#define MIGRATE_LOCK_KEY "426836779374"

__attribute__((format(printf, 3, 4))) static void report(char *message, size_t message_size, const char *format, ...)
{
	if (!message || message_size == 0)
		return;
	va_list args;
	va_start(args, format);
	vsnprintf(message, message_size, format, args);
	va_end(args);
	for (char *c = message; *c; c++)
		if (*c == '\n')
			*c = (c[1] ? ' ' : '\0');
}

/* Run `sql` (one or more statements, no parameters); 1 on success, else 0 with *message. */
static int exec(PGconn *conn, const char *sql, const char *what, char *message, size_t message_size)
{
	PGresult *result = PQexec(conn, sql);
	ExecStatusType state = PQresultStatus(result);
	int ok = state == PGRES_COMMAND_OK || state == PGRES_TUPLES_OK;
	if (!ok)
		report(message, message_size, "%s: %s", what, PQresultErrorMessage(result));
	PQclear(result);
	return ok;
}

/* 1 when migration `version` is recorded, 0 when not, -1 on error. */
static int applied_already(PGconn *conn, int version, char *message, size_t message_size)
{
	char text[16];
	snprintf(text, sizeof text, "%d", version);
	const char *values[] = {text};
	PGresult *result = PQexecParams(conn, "SELECT 1 FROM schema_migrations WHERE version = $1::integer", 1, NULL,
					values, NULL, NULL, 0);
	int answer = -1;
	if (PQresultStatus(result) == PGRES_TUPLES_OK)
		answer = PQntuples(result) > 0;
	else
		report(message, message_size, "reading schema_migrations: %s", PQresultErrorMessage(result));
	PQclear(result);
	return answer;
}

/* 1 when the events table has a row (a database with games in it), else 0. */
static int holds_events(PGconn *conn)
{
	PGresult *result = PQexec(conn, "SELECT 1 FROM events LIMIT 1");
	int answer = PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) > 0;
	PQclear(result);
	return answer;
}

static int apply_one(PGconn *conn, const struct store_migration *migration, char *message, size_t message_size)
{
	char what[128];
	snprintf(what, sizeof what, "migration %s", migration->name);
	if (!exec(conn, "BEGIN", what, message, message_size))
		return 0;
	char version[16];
	snprintf(version, sizeof version, "%d", migration->version);
	const char *values[] = {version, migration->name};
	int ok = exec(conn, migration->sql, what, message, message_size);
	if (ok) {
		PGresult *result = PQexecParams(conn,
						"INSERT INTO schema_migrations (version, name)"
						" VALUES ($1::integer, $2::text)",
						2, NULL, values, NULL, NULL, 0);
		ok = PQresultStatus(result) == PGRES_COMMAND_OK;
		if (!ok)
			report(message, message_size, "%s: recording it: %s", what, PQresultErrorMessage(result));
		PQclear(result);
	}
	if (ok)
		return exec(conn, "COMMIT", what, message, message_size);
	PGresult *rollback = PQexec(conn, "ROLLBACK");
	PQclear(rollback);
	return 0;
}

enum store_status store_migrate(const char *conninfo, int *applied, char *message, size_t message_size)
{
	if (applied)
		*applied = 0;
	report(message, message_size, "ok");
	const char *keywords[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
	const char *values[] = {"5", "catan-migrate", conninfo ? conninfo : "", NULL};
	PGconn *conn = PQconnectdbParams(keywords, values, 1);
	if (!conn)
		abort();
	if (PQstatus(conn) != CONNECTION_OK) {
		report(message, message_size, "cannot connect to the database: %s", PQerrorMessage(conn));
		PQfinish(conn);
		return STORE_UNAVAILABLE;
	}
	int ok = exec(conn, "SET client_min_messages = warning", "configuring the session", message, message_size) &&
		 exec(conn, "SELECT pg_advisory_lock(" MIGRATE_LOCK_KEY ")", "taking the migration lock", message,
		      message_size) &&
		 exec(conn,
		      "CREATE TABLE IF NOT EXISTS schema_migrations ("
		      " version integer PRIMARY KEY,"
		      " name text NOT NULL,"
		      " applied_at timestamptz NOT NULL DEFAULT now())",
		      "creating schema_migrations", message, message_size);
	int applied_now = 0;
	for (int i = 0; ok && i < store_migration_count; i++) {
		int done = applied_already(conn, store_migrations[i].version, message, message_size);
		if (done < 0)
			ok = 0;
		else if (!done && (ok = apply_one(conn, &store_migrations[i], message, message_size)))
			applied_now++;
	}
	if (applied)
		*applied = applied_now;
	/* Statistics for the tables a migration made or changed, before a server plans on
	 * them (its plans are generic and live as long as its connection, db/store.c): only
	 * when something was applied, so a restart does not analyse a large database again,
	 * and only when the database holds events. Statistics of empty tables are worse than
	 * none: a table never analysed is planned as ten pages, so by its indexes, while an
	 * analysed empty one is planned as the page or two it has when the plan is made, and
	 * that plan reads events and seats sequentially as they grow (measured on a fresh
	 * cluster under make bench-http: 45.9M events rows read in 5 s, 2034 -> 1246
	 * moves/s). Autovacuum's ANALYZE later replaces the plans as the tables grow. */
	if (ok && applied_now > 0 && holds_events(conn))
		ok = exec(conn, "ANALYZE", "analysing the migrated tables", message, message_size);
	/* Closing the session releases the lock too; unlocking first lets the next server in
	 * without waiting for the server to notice the closed connection. */
	PGresult *unlock = PQexec(conn, "SELECT pg_advisory_unlock(" MIGRATE_LOCK_KEY ")");
	PQclear(unlock);
	enum store_status status = ok ? STORE_OK : STORE_UNAVAILABLE;
	PQfinish(conn);
	return status;
}
