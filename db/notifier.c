/*
 * notifier.c - wake listeners of many appends at once.
 *
 * Each append must wake the listeners of its game ("<id as 16 hex digits>:<version>" on
 * channel catan_events). Sent by the appending connection, that is one extra transaction
 * per append (see db/migrations/0001_event_store.sql for why it cannot be part of
 * the append), which costs about as much as the append itself. A notifier is one thread
 * with its own connection that sends the wake-ups of every store attached to it, all that
 * have queued up since its last send in one transaction (catan_notify_all()), so under
 * load the cost per append falls to a small fraction.
 *
 * Flow: store_append() commits, then posts (game, version) here (a mutex and a condition
 * variable; posting never touches the network); the thread wakes, takes everything
 * pending, and sends it. While it sends, and until STORE_NOTIFIER_INTERVAL_US after the
 * start of its last send, new posts accumulate for the next batch, so the batch grows with
 * the load while a lone post goes out at once.
 *
 * What a wake-up promises: it follows the commit of its events. It is not durable: if this
 * process dies between an append's commit and the send, listeners are not woken and wait
 * until their own deadline (a long-poll's `wait`), then read the log as always. While the
 * database is unreachable the batch is kept and retried (appends fail then too, so little
 * accumulates); at most STORE_NOTIFIER_MAX_PENDING wait, beyond that posts are counted as
 * dropped. Closing sends what is pending once and gives up on failure.
 */
#include "db/notifier.h"

#include <pthread.h>
#include <time.h>

#include "base/xalloc.h"
#include "db/store_internal.h"

#define STORE_NOTE_SIZE 32 /* "0123456789abcdef:2147483647" and the NUL */
#define STORE_NOTIFIER_MAX_PENDING 65536
#define STORE_NOTIFIER_RETRY_MS 200
/* At most one send per this many microseconds: under load a batch gathers what arrives
 * meanwhile (the wake-up waits at most this long); at rest a post goes out at once. */
#define STORE_NOTIFIER_INTERVAL_US 2000

struct notes {
	char (*text)[STORE_NOTE_SIZE];
	int count;
	int capacity;
};

struct store_notifier {
	char *conninfo;
	PGconn *conn; /* used by the thread only */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stopping;
	struct notes pending; /* posted, not yet taken */
	struct notes sending; /* taken by the thread, kept until sent */
	long sent;
	long dropped;
	long batches;
};

static int notes_add(struct notes *notes, const char *note)
{
	if (notes->count == notes->capacity) {
		if (notes->capacity >= STORE_NOTIFIER_MAX_PENDING)
			return 0;
		int capacity = notes->capacity ? 2 * notes->capacity : 256;
		void *text = xrealloc(notes->text, sizeof notes->text[0] * (size_t)capacity);
		notes->text = text;
		notes->capacity = capacity;
	}
	snprintf(notes->text[notes->count++], STORE_NOTE_SIZE, "%s", note);
	return 1;
}

void store__notifier_post(struct store_notifier *notifier, int64_t game_id, int32_t version)
{
	char note[STORE_NOTE_SIZE];
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(game_id, id);
	snprintf(note, sizeof note, "%s:%d", id, (int)version);
	pthread_mutex_lock(&notifier->lock);
	if (notes_add(&notifier->pending, note))
		pthread_cond_signal(&notifier->wake);
	else
		notifier->dropped++;
	pthread_mutex_unlock(&notifier->lock);
}

/* On a new connection: the one statement prepared, and its plans (catan_notify_all's
 * PERFORM over the notes) made once, generic, rather than planned again for each call.
 * 1 on success. */
static int prepare_notify_all(PGconn *conn)
{
	PGresult *generic = PQexec(conn, "SET plan_cache_mode = force_generic_plan");
	int ok = PQresultStatus(generic) == PGRES_COMMAND_OK;
	PQclear(generic);
	if (!ok)
		return 0;
	PGresult *prepared = PQprepare(conn, "notify_all", "SELECT catan_notify_all($1::text[])", 1, NULL);
	ok = PQresultStatus(prepared) == PGRES_COMMAND_OK;
	PQclear(prepared);
	return ok;
}

/* Send notes in one transaction; 1 on success. Runs on the notifier's thread only. */
static int send_notes(struct store_notifier *notifier, const struct notes *notes)
{
	if (!notifier->conn) {
		const char *keywords[] = {"connect_timeout", "fallback_application_name", "dbname", NULL};
		const char *values[] = {"5", "catan-notifier", notifier->conninfo, NULL};
		notifier->conn = PQconnectdbParams(keywords, values, 1);
		if (!notifier->conn)
			abort();
		if (PQstatus(notifier->conn) != CONNECTION_OK || !prepare_notify_all(notifier->conn)) {
			PQfinish(notifier->conn);
			notifier->conn = NULL;
			return 0;
		}
	}
	/* Notes are hex digits, a colon and digits: nothing to quote in the array literal. */
	size_t size = 3 + (size_t)notes->count * (STORE_NOTE_SIZE + 1);
	char *array = store_alloc(size), *end = array;
	*end++ = '{';
	for (int i = 0; i < notes->count; i++)
		end += sprintf(end, "%s%s", i ? "," : "", notes->text[i]);
	*end++ = '}';
	*end = '\0';
	const char *values[] = {array};
	PGresult *result = PQexecPrepared(notifier->conn, "notify_all", 1, values, NULL, NULL, 0);
	int ok = PQresultStatus(result) == PGRES_TUPLES_OK;
	PQclear(result);
	free(array);
	if (!ok) {
		PQfinish(notifier->conn);
		notifier->conn = NULL;
	}
	return ok;
}

static int64_t monotonic_us(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

static void *run_notifier(void *argument)
{
	struct store_notifier *notifier = argument;
	int64_t last_send_us = 0;
	pthread_mutex_lock(&notifier->lock);
	for (;;) {
		if (notifier->sending.count == 0) {
			while (notifier->pending.count == 0 && !notifier->stopping)
				pthread_cond_wait(&notifier->wake, &notifier->lock);
			if (notifier->pending.count == 0)
				break; /* stopping, nothing left */
			int64_t wait_us = last_send_us + STORE_NOTIFIER_INTERVAL_US - monotonic_us();
			if (wait_us > 0 && !notifier->stopping) {
				pthread_mutex_unlock(&notifier->lock);
				struct timespec pause = {0, (long)wait_us * 1000L};
				nanosleep(&pause, NULL);
				pthread_mutex_lock(&notifier->lock);
			}
			struct notes taken = notifier->pending;
			notifier->pending = notifier->sending;
			notifier->sending = taken;
		}
		pthread_mutex_unlock(&notifier->lock);
		last_send_us = monotonic_us();
		int ok = send_notes(notifier, &notifier->sending);
		pthread_mutex_lock(&notifier->lock);
		if (ok) {
			notifier->sent += notifier->sending.count;
			notifier->batches++;
			notifier->sending.count = 0;
		} else if (notifier->stopping) {
			notifier->dropped += notifier->sending.count + notifier->pending.count;
			notifier->sending.count = notifier->pending.count = 0;
			break;
		} else {
			pthread_mutex_unlock(&notifier->lock);
			struct timespec pause = {0, STORE_NOTIFIER_RETRY_MS * 1000000L};
			nanosleep(&pause, NULL);
			pthread_mutex_lock(&notifier->lock);
		}
	}
	pthread_mutex_unlock(&notifier->lock);
	return NULL;
}

enum store_status store_notifier_open(const char *conninfo, struct store_notifier **out)
{
	struct store_notifier *notifier = store_alloc(sizeof *notifier);
	memset(notifier, 0, sizeof *notifier);
	notifier->conninfo = store_strndup(conninfo ? conninfo : "", conninfo ? strlen(conninfo) : 0);
	pthread_mutex_init(&notifier->lock, NULL);
	pthread_cond_init(&notifier->wake, NULL);
	if (pthread_create(&notifier->thread, NULL, run_notifier, notifier) != 0)
		abort();
	*out = notifier;
	return STORE_OK;
}

void store_notifier_close(struct store_notifier *notifier)
{
	if (!notifier)
		return;
	pthread_mutex_lock(&notifier->lock);
	notifier->stopping = 1;
	pthread_cond_signal(&notifier->wake);
	pthread_mutex_unlock(&notifier->lock);
	pthread_join(notifier->thread, NULL);
	if (notifier->conn)
		PQfinish(notifier->conn);
	pthread_mutex_destroy(&notifier->lock);
	pthread_cond_destroy(&notifier->wake);
	free(notifier->pending.text);
	free(notifier->sending.text);
	free(notifier->conninfo);
	free(notifier);
}

void store_notifier_counts(struct store_notifier *notifier, long *sent, long *dropped, long *batches)
{
	pthread_mutex_lock(&notifier->lock);
	if (sent)
		*sent = notifier->sent;
	if (dropped)
		*dropped = notifier->dropped;
	if (batches)
		*batches = notifier->batches;
	pthread_mutex_unlock(&notifier->lock);
}

void store_use_notifier(struct store *store, struct store_notifier *notifier)
{
	store->notifier = notifier;
}
