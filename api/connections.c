/*
 * connections.c - the connection guard (see connections.h).
 *
 * Every connection has a record (its libmicrohttpd socket context) on one list, kept in
 * the order connections entered their present phase; the head is the oldest. One lock
 * guards the list and the counters; it is held for list moves and for the reaper's scan,
 * never across a system call that can block (shutdown(2) on a socket does not).
 *
 * A record is freed by the "closed" notification, which libmicrohttpd sends before it
 * closes the descriptor; so a shutdown made under the lock always hits the connection the
 * record names, never a newer one that reused its descriptor number.
 */
#include "api/connections.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "api/http.h"
#include "api/metrics.h"
#include "api/xalloc.h"

#define REAPER_TICK_MS 250

enum phase {
	PHASE_AWAITING, /* no complete request headers yet */
	PHASE_READING,  /* headers read, body not complete */
	PHASE_BUSY      /* being handled, answering, parked or streaming */
};

struct guarded {
	struct guarded *prev, *next;
	int fd;
	enum phase phase;
	double deadline; /* monotonic seconds; meaningful unless PHASE_BUSY */
	int shut;        /* shutdown(2) done; waiting for libmicrohttpd to close it */
	int listed;      /* on the list */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct guarded *head, *tail;
static struct connections_config settings = {1024, 64, 512, 10, 15};
static long open_count, shut_count;
static atomic_long waiting;
static atomic_int reaper_running;
static pthread_t reaper;

static void unlink_record(struct guarded *record)
{
	if (!record->listed)
		return;
	record->listed = 0;
	if (record->prev)
		record->prev->next = record->next;
	else
		head = record->next;
	if (record->next)
		record->next->prev = record->prev;
	else
		tail = record->prev;
	record->prev = record->next = NULL;
}

static void append_record(struct guarded *record)
{
	record->listed = 1;
	record->prev = tail;
	record->next = NULL;
	if (tail)
		tail->next = record;
	else
		head = record;
	tail = record;
}

/* Move to a phase; a phase with a deadline moves the record to the tail (the newest). */
static void enter(struct guarded *record, enum phase phase, int timeout_s)
{
	record->phase = phase;
	if (phase == PHASE_BUSY)
		return;
	record->deadline = http_now() + timeout_s;
	unlink_record(record);
	append_record(record);
}

/* Shut a connection down (lock held): libmicrohttpd reads the end and closes it. */
static void shut(struct guarded *record)
{
	if (record->shut)
		return;
	record->shut = 1;
	shut_count++;
	shutdown(record->fd, SHUT_RDWR);
}

static struct guarded *record_of(struct MHD_Connection *connection)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return info ? info->socket_context : NULL;
}

void connections_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
			enum MHD_ConnectionNotificationCode code)
{
	(void)cls;
	if (code == MHD_CONNECTION_NOTIFY_STARTED) {
		const union MHD_ConnectionInfo *info =
			MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
		struct guarded *record = xcalloc(1, sizeof *record);
		record->fd = info ? info->connect_fd : -1;
		pthread_mutex_lock(&lock);
		open_count++;
		metrics_gauge_add(METRICS_CONNECTIONS, 1);
		enter(record, PHASE_AWAITING, settings.request_timeout_s);
		/* Keep the reserve free: shed the oldest connection still owing its request. */
		if (open_count - shut_count > settings.max_connections - settings.reserve) {
			for (struct guarded *at = head; at && at != record; at = at->next) {
				if (at->phase != PHASE_BUSY && !at->shut && at->fd >= 0) {
					shut(at);
					metrics_add(METRICS_CONNECTIONS_SHED, 1);
					break;
				}
			}
		}
		pthread_mutex_unlock(&lock);
		*socket_context = record;
		return;
	}
	struct guarded *record = *socket_context;
	if (!record)
		return;
	pthread_mutex_lock(&lock);
	unlink_record(record);
	open_count--;
	metrics_gauge_add(METRICS_CONNECTIONS, -1);
	if (record->shut)
		shut_count--;
	pthread_mutex_unlock(&lock);
	free(record);
	*socket_context = NULL;
}

static void set_phase(struct MHD_Connection *connection, enum phase phase, int timeout_s)
{
	struct guarded *record = record_of(connection);
	if (!record)
		return;
	pthread_mutex_lock(&lock);
	enter(record, phase, timeout_s);
	pthread_mutex_unlock(&lock);
}

void connections_headers_read(struct MHD_Connection *connection)
{
	set_phase(connection, PHASE_READING, settings.request_timeout_s);
}

void connections_body_read(struct MHD_Connection *connection)
{
	set_phase(connection, PHASE_BUSY, 0);
}

void connections_answered(struct MHD_Connection *connection)
{
	set_phase(connection, PHASE_AWAITING, settings.keepalive_timeout_s);
}

int connections_wait_admit(void)
{
	long now = atomic_fetch_add(&waiting, 1);
	if (now < settings.max_waiting)
		return 1;
	atomic_fetch_sub(&waiting, 1);
	metrics_add(METRICS_WAITING_REFUSED, 1);
	return 0;
}

void connections_wait_release(void)
{
	atomic_fetch_sub(&waiting, 1);
}

static void *reap(void *unused)
{
	(void)unused;
	while (atomic_load(&reaper_running)) {
		struct timespec tick = {0, REAPER_TICK_MS * 1000000L};
		nanosleep(&tick, NULL);
		double now = http_now();
		pthread_mutex_lock(&lock);
		for (struct guarded *at = head; at; at = at->next) {
			if (at->phase != PHASE_BUSY && !at->shut && at->fd >= 0 && now > at->deadline) {
				shut(at);
				metrics_add(METRICS_CONNECTIONS_TIMED_OUT, 1);
			}
		}
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

void connections_start(const struct connections_config *config)
{
	settings = *config;
	atomic_store(&reaper_running, 1);
	if (pthread_create(&reaper, NULL, reap, NULL) != 0)
		abort();
}

void connections_stop(void)
{
	if (!atomic_exchange(&reaper_running, 0))
		return;
	pthread_join(reaper, NULL);
}
