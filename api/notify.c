/*
 * notify.c - the waiter registry and the listener thread.
 *
 * Registry: waiters hashed by game id into lists, under one mutex (parking and waking are
 * rare next to requests). Latest versions: a fixed table of the newest version heard per
 * game; notify_park() consults it to close the race between a handler's last read and its
 * parking (an append notified in between would otherwise be missed until the deadline).
 *
 * Departed clients: libmicrohttpd does not watch the socket of a suspended connection, so
 * a client that closes a parked long-poll or stream would keep its waiting place (and its
 * socket) until the wait ran out. The listener thread looks at the sockets of every parked
 * request every PROBE_MS (http_probe_departed(): a poll(2) that does not block, under the
 * registry lock, so the request is still parked and its socket still open), and wakes the
 * ones whose client has gone; they end without an answer and give their places back.
 *
 * Trusting the cache (notify_fresh()): a slot of the latest versions also says whether
 * what it holds is the whole story while the listener stays connected. The listener's
 * connections are counted (the epoch: a new one on each connect and each loss), and a slot
 * is trusted in the epoch it was written in: by a notification heard on that connection
 * (committed after its LISTEN, so every later append of the game will be heard too), by
 * a read of the log's tail that began in that epoch and saw no notification of the slot
 * meanwhile (notify_claim(), with the ticket taken before the read), or by an own append
 * that raises a slot already trusted. While the listener is down, or after a reconnect
 * until a read claims the slot again, nothing is trusted: notifications may have been
 * missed. A slot shared by two games is trusted for the one that wrote it last.
 */
#include "api/notify.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "base/clock.h"
#include "base/counters.h"
#include "game/changes.h"
#include "game/play.h"

#define WAITER_BUCKETS 1024
#define VERSION_SLOTS 16384
#define TICK_MS 250
/* While a waiter waits only a moment (a feed whose next rows are not yet below xmin),
 * deadlines are checked this often. */
#define HURRY_TICK_MS 20
#define HURRY_WITHIN_S 0.2
/* How often the sockets of parked requests are looked at (a departed client's place is
 * free again within about this long). */
#define PROBE_MS 250

struct version_slot {
	int64_t game_id;
	int32_t version;
	uint64_t epoch; /* the listener's epoch in which the slot is complete; 0: never */
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct notify_waiter *buckets[WAITER_BUCKETS];
static struct notify_waiter *feeds; /* waiters of many games */
static struct version_slot versions[VERSION_SLOTS];
/* The count of notifications heard, and per slot the count at its last notification (a
 * slot shared by two games only wakes a waiter once too often, never too late). */
static uint64_t notes;
static uint64_t note_slots[VERSION_SLOTS];
static int stopping;
static atomic_int thread_running;
static double hurry_until; /* until then a waiter's deadline is near: tick fast (registry_lock) */
static pthread_t listener_thread;
/* The listener's connection (registry_lock): odd while connected and listening, even while
 * down; a new value on each change, so a ticket of another connection never matches. */
static uint64_t epoch;
static struct changes *changes;

static size_t bucket_of(int64_t game_id)
{
	uint64_t h = (uint64_t)game_id * UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(h >> 54) % WAITER_BUCKETS;
}

static size_t slot_of(int64_t game_id)
{
	uint64_t h = (uint64_t)game_id * UINT64_C(0xbf58476d1ce4e5b9);
	return (size_t)(h >> 40) % VERSION_SLOTS;
}

/* Unlink and resume; registry_lock held. */
static void wake(struct notify_waiter **link)
{
	struct notify_waiter *waiter = *link;
	*link = waiter->next;
	waiter->next = NULL;
	waiter->parked = 0;
	counters_gauge_add(COUNTERS_GAUGE_WAITERS, -1);
	http_resume(waiter->request);
}

/* version CHANGES_MESSAGE: a message, waking the waiters that want messages. */
static void wake_game(int64_t game_id, int32_t version)
{
	struct notify_waiter **link = &buckets[bucket_of(game_id)];
	while (*link) {
		const struct notify_waiter *waiter = *link;
		if (waiter->game_id == game_id &&
		    (version == CHANGES_MESSAGE ? waiter->messages : waiter->after < version))
			wake(link);
		else
			link = &(*link)->next;
	}
}

static int has_game(const struct notify_waiter *waiter, int64_t game_id)
{
	int low = 0, high = waiter->game_count;
	while (low < high) {
		int middle = low + (high - low) / 2;
		if (waiter->games[middle] < game_id)
			low = middle + 1;
		else
			high = middle;
	}
	return low < waiter->game_count && waiter->games[low] == game_id;
}

/* A notification of game_id: count it, wake the feeds that hold the game. */
static void note_game(int64_t game_id)
{
	note_slots[slot_of(game_id)] = ++notes;
	struct notify_waiter **link = &feeds;
	while (*link) {
		if (has_game(*link, game_id))
			wake(link);
		else
			link = &(*link)->next;
	}
}

/* A version of game_id: heard by the listener (`heard`), or appended here (trusted only
 * when the slot already is: the append may have committed while the listener was down). */
static void note_version(int64_t game_id, int32_t version, int heard)
{
	pthread_mutex_lock(&registry_lock);
	struct version_slot *slot = &versions[slot_of(game_id)];
	int trusted = slot->game_id == game_id && slot->epoch == epoch && (epoch & 1);
	if (slot->game_id != game_id || slot->version < version) {
		slot->game_id = game_id;
		slot->version = version;
	}
	slot->epoch = (heard || trusted) && (epoch & 1) ? epoch : 0;
	note_game(game_id);
	wake_game(game_id, version);
	pthread_mutex_unlock(&registry_lock);
}

void notify_version(int64_t game_id, int32_t version)
{
	note_version(game_id, version, 0);
}

void notify_ticket(int64_t game_id, struct notify_ticket *ticket)
{
	pthread_mutex_lock(&registry_lock);
	ticket->epoch = epoch;
	ticket->notes = note_slots[slot_of(game_id)];
	pthread_mutex_unlock(&registry_lock);
}

int notify_fresh(int64_t game_id, int32_t version)
{
	pthread_mutex_lock(&registry_lock);
	const struct version_slot *slot = &versions[slot_of(game_id)];
	int fresh = (epoch & 1) && slot->epoch == epoch && slot->game_id == game_id && slot->version <= version;
	pthread_mutex_unlock(&registry_lock);
	return fresh;
}

int32_t notify_heard(int64_t game_id)
{
	pthread_mutex_lock(&registry_lock);
	const struct version_slot *slot = &versions[slot_of(game_id)];
	int32_t version = slot->game_id == game_id ? slot->version : 0;
	pthread_mutex_unlock(&registry_lock);
	return version;
}

void notify_claim(int64_t game_id, int32_t version, const struct notify_ticket *ticket)
{
	pthread_mutex_lock(&registry_lock);
	size_t index = slot_of(game_id);
	struct version_slot *slot = &versions[index];
	if ((epoch & 1) && ticket->epoch == epoch && note_slots[index] == ticket->notes) {
		if (slot->game_id != game_id || slot->epoch != epoch || slot->version < version)
			slot->version = version;
		slot->game_id = game_id;
		slot->epoch = epoch;
	}
	pthread_mutex_unlock(&registry_lock);
}

/* The listener connected (`up`) or lost its connection: a new epoch either way. */
static void listener_epoch(int up)
{
	pthread_mutex_lock(&registry_lock);
	if (up != (int)(epoch & 1))
		epoch++;
	else if (up)
		epoch += 2; /* a reconnect seen only after the fact */
	pthread_mutex_unlock(&registry_lock);
}

void notify_message(int64_t game_id)
{
	pthread_mutex_lock(&registry_lock);
	note_game(game_id);
	wake_game(game_id, CHANGES_MESSAGE);
	pthread_mutex_unlock(&registry_lock);
}

uint64_t notify_seen(void)
{
	pthread_mutex_lock(&registry_lock);
	uint64_t result = notes;
	pthread_mutex_unlock(&registry_lock);
	return result;
}

static void on_append(void *context, int64_t game_id, int32_t version)
{
	(void)context;
	if (version == CHANGES_MESSAGE) {
		notify_message(game_id);
	} else if (version == CHANGES_TOKENS) {
		/* A token was replaced: forget the cached lookups, and wake the game's streams,
		 * which check their token again (api/handlers_moves.c). */
		play_forget_tokens(game_id);
		notify_message(game_id);
	} else {
		note_version(game_id, version, 1);
	}
}

/* Wake waiters past their deadline, or all of them. */
static void wake_expired(double now, int all)
{
	pthread_mutex_lock(&registry_lock);
	for (size_t b = 0; b <= WAITER_BUCKETS; b++) {
		struct notify_waiter **link = b < WAITER_BUCKETS ? &buckets[b] : &feeds;
		while (*link) {
			if (all || (*link)->deadline <= now)
				wake(link);
			else
				link = &(*link)->next;
		}
	}
	pthread_mutex_unlock(&registry_lock);
}

/* Wake the parked requests whose client has gone. */
static void wake_departed(void)
{
	long departed = 0;
	pthread_mutex_lock(&registry_lock);
	for (size_t b = 0; b <= WAITER_BUCKETS; b++) {
		struct notify_waiter **link = b < WAITER_BUCKETS ? &buckets[b] : &feeds;
		while (*link) {
			if (http_probe_departed((*link)->request)) {
				wake(link);
				departed++;
			} else {
				link = &(*link)->next;
			}
		}
	}
	pthread_mutex_unlock(&registry_lock);
	if (departed)
		counters_add(COUNTERS_WAITERS_DEPARTED, departed);
}

/* Put `waiter` on `list` and suspend its request (registry_lock held). */
static void park(struct notify_waiter *waiter, struct notify_waiter **list, struct http_request *request,
		 double deadline)
{
	waiter->request = request;
	waiter->deadline = deadline;
	waiter->parked = 1;
	if (deadline < clock_now() + HURRY_WITHIN_S && deadline > hurry_until)
		hurry_until = deadline;
	waiter->next = *list;
	*list = waiter;
	counters_gauge_add(COUNTERS_GAUGE_WAITERS, 1);
	http_suspend(request);
}

static int park_game(struct notify_waiter *waiter, struct http_request *request, int64_t game_id, int32_t after,
		     int messages, uint64_t seen, double deadline)
{
	pthread_mutex_lock(&registry_lock);
	const struct version_slot *slot = &versions[slot_of(game_id)];
	if (stopping || (slot->game_id == game_id && slot->version > after) ||
	    (messages && note_slots[slot_of(game_id)] > seen)) {
		pthread_mutex_unlock(&registry_lock);
		return 0;
	}
	waiter->messages = messages;
	waiter->seen = seen;
	waiter->games = NULL;
	waiter->game_count = 0;
	waiter->game_id = game_id;
	waiter->after = after;
	park(waiter, &buckets[bucket_of(game_id)], request, deadline);
	pthread_mutex_unlock(&registry_lock);
	return 1;
}

int notify_park(struct notify_waiter *waiter, struct http_request *request, int64_t game_id, int32_t after,
		double deadline)
{
	return park_game(waiter, request, game_id, after, 0, 0, deadline);
}

int notify_park_messages(struct notify_waiter *waiter, struct http_request *request, int64_t game_id, int32_t after,
			 uint64_t seen, double deadline)
{
	return park_game(waiter, request, game_id, after, 1, seen, deadline);
}

int notify_park_games(struct notify_waiter *waiter, struct http_request *request, const int64_t *games, int count,
		      uint64_t seen, double deadline)
{
	pthread_mutex_lock(&registry_lock);
	int noted = stopping;
	for (int i = 0; i < count && !noted; i++)
		noted = note_slots[slot_of(games[i])] > seen;
	if (noted) {
		pthread_mutex_unlock(&registry_lock);
		return 0;
	}
	waiter->game_id = 0;
	waiter->after = 0;
	waiter->messages = 0;
	waiter->seen = seen;
	waiter->games = games;
	waiter->game_count = count;
	park(waiter, &feeds, request, deadline);
	pthread_mutex_unlock(&registry_lock);
	return 1;
}

static void *listen_loop(void *unused)
{
	(void)unused;
	double probe_due = 0;
	while (atomic_load(&thread_running)) {
		int reconnected = 0;
		pthread_mutex_lock(&registry_lock);
		int fast = clock_now() < hurry_until;
		pthread_mutex_unlock(&registry_lock);
		enum store_status status =
			changes_wait(changes, fast ? HURRY_TICK_MS : TICK_MS, on_append, NULL, &reconnected);
		if (status != STORE_OK)
			listener_epoch(0);
		else if (reconnected)
			listener_epoch(1);
		if (reconnected) {
			/* Notifications may have been missed, a replaced token's among them. */
			play_forget_tokens(0);
			wake_expired(0, 1);
		}
		double now = clock_now();
		wake_expired(now, 0);
		if (now >= probe_due) {
			probe_due = now + PROBE_MS / 1000.0;
			wake_departed();
		}
	}
	return NULL;
}

void notify_start(const char *conninfo)
{
	changes = changes_open(conninfo);
	atomic_store(&thread_running, 1);
	if (pthread_create(&listener_thread, NULL, listen_loop, NULL) != 0)
		abort();
}

void notify_stop(void)
{
	pthread_mutex_lock(&registry_lock);
	stopping = 1;
	pthread_mutex_unlock(&registry_lock);
	wake_expired(0, 1);
	if (atomic_exchange(&thread_running, 0)) {
		pthread_join(listener_thread, NULL);
		changes_close(changes);
		changes = NULL;
	}
}

int notify_stopping(void)
{
	pthread_mutex_lock(&registry_lock);
	int result = stopping;
	pthread_mutex_unlock(&registry_lock);
	return result;
}
