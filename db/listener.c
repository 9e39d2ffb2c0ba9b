/*
 * listener.c - LISTEN catan_events on a dedicated libpq connection, polled with a timeout.
 *
 * Across a failover (README's "High availability"): the connection is lost when the
 * primary goes (a demoted primary restarts as a standby, which ends every session; a
 * primary cut off the network is found dead by the TCP keepalives asked for here), the
 * next wait connects again through DATABASE_URL's host list (target_session_attrs
 * =read-write finds the new primary; LISTEN on a standby fails and is tried again), and
 * the caller is told (*reconnected), since notifications sent meanwhile were lost: it wakes
 * every waiter, and each re-reads from the version it last saw (api/notify.c).
 */
#include "db/listener.h"

#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/xalloc.h"
#include "db/store_internal.h" /* the keepalives */

struct listener {
	char *conninfo;
	PGconn *connection;
};

struct listener *listener_open(const char *conninfo)
{
	struct listener *listener = xcalloc(1, sizeof *listener);
	listener->conninfo = xstrdup(conninfo ? conninfo : "");
	return listener;
}

void listener_close(struct listener *listener)
{
	if (!listener)
		return;
	if (listener->connection)
		PQfinish(listener->connection);
	free(listener->conninfo);
	free(listener);
}

static void sleep_ms(int ms)
{
	struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

static int connect_and_listen(struct listener *listener)
{
	if (listener->connection)
		PQfinish(listener->connection);
	/* The caller's conninfo comes last and overrides these, as in db/store.c. */
	const char *keywords[] = {"connect_timeout",  "keepalives",	  "keepalives_idle", "keepalives_interval",
				  "keepalives_count", "tcp_user_timeout", "dbname",	     NULL};
	const char *values[] = {"5",
				"1",
				STORE_KEEPALIVES_IDLE,
				STORE_KEEPALIVES_INTERVAL,
				STORE_KEEPALIVES_COUNT,
				STORE_TCP_USER_TIMEOUT,
				listener->conninfo,
				NULL};
	listener->connection = PQconnectdbParams(keywords, values, 1);
	if (PQstatus(listener->connection) != CONNECTION_OK)
		return 0;
	PGresult *result = PQexec(listener->connection, "LISTEN catan_events");
	int ok = PQresultStatus(result) == PGRES_COMMAND_OK;
	PQclear(result);
	return ok;
}

/* "<16 hex>:<version>", "<16 hex>:m<seq>" for a message (version LISTENER_MESSAGE), or
 * "<16 hex>:t" for a replaced token (LISTENER_TOKENS) */
static int parse_payload(const char *payload, int64_t *game_id, int32_t *version)
{
	const char *colon = strchr(payload, ':');
	if (!colon || colon - payload != 16)
		return 0;
	char id_text[STORE_ID_TEXT_SIZE];
	memcpy(id_text, payload, 16);
	id_text[16] = '\0';
	if (!store_parse_id(id_text, game_id))
		return 0;
	if (strcmp(colon + 1, "t") == 0) {
		*version = LISTENER_TOKENS;
		return 1;
	}
	int message = colon[1] == 'm';
	const char *digits = colon + 1 + message;
	if (*digits < '0' || *digits > '9')
		return 0;
	char *end;
	long value = strtol(digits, &end, 10);
	if (*end || value < 0 || value > INT32_MAX)
		return 0;
	*version = message ? LISTENER_MESSAGE : (int32_t)value;
	return 1;
}

enum store_status listener_wait(struct listener *listener, int timeout_ms, listener_callback on_append, void *context,
				int *reconnected)
{
	*reconnected = 0;
	if (!listener->connection || PQstatus(listener->connection) != CONNECTION_OK) {
		if (!connect_and_listen(listener)) {
			sleep_ms(timeout_ms);
			return STORE_UNAVAILABLE;
		}
		*reconnected = 1;
	}
	struct pollfd fd = {PQsocket(listener->connection), POLLIN, 0};
	int ready = poll(&fd, 1, timeout_ms);
	if (ready < 0 && errno != EINTR)
		return STORE_UNAVAILABLE;
	if (ready > 0 && !PQconsumeInput(listener->connection)) {
		PQfinish(listener->connection);
		listener->connection = NULL;
		return STORE_UNAVAILABLE;
	}
	PGnotify *notification;
	while ((notification = PQnotifies(listener->connection)) != NULL) {
		int64_t game_id;
		int32_t version;
		if (parse_payload(notification->extra, &game_id, &version))
			on_append(context, game_id, version);
		PQfreemem(notification);
	}
	if (PQstatus(listener->connection) != CONNECTION_OK) {
		PQfinish(listener->connection);
		listener->connection = NULL;
		return STORE_UNAVAILABLE;
	}
	return STORE_OK;
}
