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
 *
 * Waiting places: one count for the whole process and one per client (a token, by its
 * SHA-256, and an address, by its text) in a small hash table whose entries live while a
 * place is held: the table holds at most two entries per waiting request, so it is
 * bounded by MAX_WAITING. A place (struct connections_wait) points at its two entries and
 * is all that release needs. One lock (wait_lock, never held with `lock`) guards them.
 */
#include "http/connections.h"

#include <openssl/sha.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/counters.h"
#include "base/xalloc.h"

#define REAPER_TICK_MS 250

enum phase {
	PHASE_AWAITING, /* no complete request headers yet */
	PHASE_READING,	/* headers read, body not complete */
	PHASE_BUSY	/* being handled, answering, parked or streaming */
};

struct guarded {
	struct guarded *prev, *next;
	int fd;
	enum phase phase;
	double deadline; /* monotonic seconds; meaningful unless PHASE_BUSY */
	int shut;	 /* shutdown(2) done; waiting for libmicrohttpd to close it */
	int listed;	 /* on the list */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct guarded *head, *tail;
static struct connections_config settings = {1024, 64, 512, 8, 64, 10, 15};
static long open_count, shut_count;
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
	record->deadline = clock_now() + timeout_s;
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
		counters_gauge_add(COUNTERS_GAUGE_CONNECTIONS, 1);
		enter(record, PHASE_AWAITING, settings.request_timeout_s);
		/* Keep the reserve free: shed the oldest connection still owing its request. */
		if (open_count - shut_count > settings.max_connections - settings.reserve) {
			for (struct guarded *at = head; at && at != record; at = at->next) {
				if (at->phase != PHASE_BUSY && !at->shut && at->fd >= 0) {
					shut(at);
					counters_add(COUNTERS_CONNECTIONS_SHED, 1);
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
	counters_gauge_add(COUNTERS_GAUGE_CONNECTIONS, -1);
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

/* ---- Waiting places ---- */

#define CLIENT_BUCKETS 256
#define CLIENT_KEY_MAX 64

/* The places one client holds: key is 'T' and a token's hash, or 'A' and an address. */
struct client_places {
	struct client_places *next;
	int count;
	size_t length;
	unsigned char key[CLIENT_KEY_MAX];
};

struct connections_wait {
	struct client_places *token; /* NULL: no token */
	struct client_places *address;
};

static pthread_mutex_t wait_lock = PTHREAD_MUTEX_INITIALIZER;
static long waiting;
static struct client_places *clients[CLIENT_BUCKETS];

static size_t client_bucket(const unsigned char *key, size_t length)
{
	uint64_t hash = UINT64_C(0xcbf29ce484222325);
	for (size_t i = 0; i < length; i++)
		hash = (hash ^ key[i]) * UINT64_C(0x100000001b3);
	return (size_t)(hash % CLIENT_BUCKETS);
}

/* The entry of `key` (wait_lock held), or NULL when the client holds no place. */
static struct client_places *client_find(const unsigned char *key, size_t length)
{
	for (struct client_places *at = clients[client_bucket(key, length)]; at; at = at->next)
		if (at->length == length && memcmp(at->key, key, length) == 0)
			return at;
	return NULL;
}

/* Count one more place for `key` (wait_lock held), adding its entry when new. */
static struct client_places *client_take(const unsigned char *key, size_t length, struct client_places *found)
{
	if (!found) {
		found = xcalloc(1, sizeof *found);
		memcpy(found->key, key, length);
		found->length = length;
		size_t bucket = client_bucket(key, length);
		found->next = clients[bucket];
		clients[bucket] = found;
	}
	found->count++;
	return found;
}

/* One place fewer for `entry` (wait_lock held); the entry goes with its last place. */
static void client_give(struct client_places *entry)
{
	if (!entry || --entry->count > 0)
		return;
	struct client_places **link = &clients[client_bucket(entry->key, entry->length)];
	while (*link != entry)
		link = &(*link)->next;
	*link = entry->next;
	free(entry);
}

struct connections_wait *connections_wait_admit(const char *address, const char *token, size_t token_length,
						enum connections_wait_refusal *refusal)
{
	unsigned char token_key[1 + SHA256_DIGEST_LENGTH], address_key[CLIENT_KEY_MAX];
	size_t address_length = strlen(address);
	if (address_length > CLIENT_KEY_MAX - 1)
		address_length = CLIENT_KEY_MAX - 1;
	address_key[0] = 'A';
	memcpy(address_key + 1, address, address_length);
	address_length++;
	if (token) {
		token_key[0] = 'T';
		SHA256((const unsigned char *)token, token_length, token_key + 1);
	}
	pthread_mutex_lock(&wait_lock);
	struct client_places *by_token = token ? client_find(token_key, sizeof token_key) : NULL;
	struct client_places *by_address = client_find(address_key, address_length);
	*refusal = CONNECTIONS_WAIT_ADMITTED;
	/* A client at its own limit hears so (429) before it hears that the server is full. */
	if (settings.max_waiting_per_token > 0 && by_token && by_token->count >= settings.max_waiting_per_token)
		*refusal = CONNECTIONS_WAIT_TOKEN_FULL;
	else if (settings.max_waiting_per_ip > 0 && by_address && by_address->count >= settings.max_waiting_per_ip)
		*refusal = CONNECTIONS_WAIT_IP_FULL;
	else if (waiting >= settings.max_waiting)
		*refusal = CONNECTIONS_WAIT_FULL;
	struct connections_wait *place = NULL;
	if (*refusal == CONNECTIONS_WAIT_ADMITTED) {
		place = xcalloc(1, sizeof *place);
		waiting++;
		place->token = token ? client_take(token_key, sizeof token_key, by_token) : NULL;
		place->address = client_take(address_key, address_length, by_address);
	}
	pthread_mutex_unlock(&wait_lock);
	if (!place)
		counters_add(COUNTERS_WAITING_REFUSED, 1);
	return place;
}

void connections_wait_release(struct connections_wait *place)
{
	if (!place)
		return;
	pthread_mutex_lock(&wait_lock);
	waiting--;
	client_give(place->token);
	client_give(place->address);
	pthread_mutex_unlock(&wait_lock);
	free(place);
}

static void *reap(void *unused)
{
	(void)unused;
	while (atomic_load(&reaper_running)) {
		struct timespec tick = {0, REAPER_TICK_MS * 1000000L};
		nanosleep(&tick, NULL);
		double now = clock_now();
		pthread_mutex_lock(&lock);
		for (struct guarded *at = head; at; at = at->next) {
			if (at->phase != PHASE_BUSY && !at->shut && at->fd >= 0 && now > at->deadline) {
				shut(at);
				counters_add(COUNTERS_CONNECTIONS_TIMED_OUT, 1);
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
