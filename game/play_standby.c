/*
 * play_standby.c - reads a standby may answer (issue 25, item 3; README's "High
 * availability"): with DATABASE_READ_URL set, each thread has a second store, opened with
 * target_session_attrs=prefer-standby (store_open_for_reads()), that carries the reads
 * whose answer may lag the primary by a moment: a spectator's view of a game, its board
 * picture, a finished game's export, the lobby.
 *
 * Never older than the caller knows. A standby replays the primary's log some time after
 * the primary committed it, so what it answers may be older than what the client was told
 * (a min_version, an ETag) or older than what this process heard from its listener. The
 * caller names that floor; a game the standby has below it is not answered from the
 * standby: the caller reads from the primary instead, exactly as without a standby. A copy
 * read from the standby is a state that is in the log at its version, so it may join the
 * process cache (the cache keeps the newer of two copies), but it never makes a cache slot
 * "complete" (notify_claim()): only a read of the primary does, so a seat's read that trusts
 * the cache is as new as before.
 *
 * A dead or hung standby never fails a read: any failure on the read store (no connection,
 * a query cancelled by recovery, a game the standby does not have yet) sends the caller to
 * the primary, and the read store, after a failed connection attempt, tries again only
 * after STORE_READS_RETRY_MS (db/store.h), so an outage costs one attempt per thread every
 * few seconds. The move path (appends and the reads they decide on) never comes here.
 *
 * Counted on /metrics: catan_reads_standby_total (answered by a hot standby),
 * catan_reads_standby_fallback_total (meant for the standby, answered by the primary).
 */
#include <pthread.h>
#include <string.h>

#include "base/counters.h"
#include "base/xalloc.h"
#include "db/store_lobby.h"
#include "game/play.h"
#include "game/play_internal.h"

static char *read_conninfo; /* NULL: every read on the primary */
static pthread_key_t read_store_key;
static pthread_once_t read_store_once = PTHREAD_ONCE_INIT;

static void close_read_store(void *store)
{
	store_close(store);
}

static void make_read_store_key(void)
{
	pthread_key_create(&read_store_key, close_read_store);
}

void play_set_read_url(const char *url)
{
	pthread_once(&read_store_once, make_read_store_key);
	free(read_conninfo);
	read_conninfo = url && url[0] ? xstrdup(url) : NULL;
}

int play_has_standby(void)
{
	return read_conninfo != NULL;
}

struct store *play__read_store(void)
{
	if (!read_conninfo)
		return NULL;
	struct store *store = pthread_getspecific(read_store_key);
	if (!store) {
		/* Opened even when the standby is down: the store connects on a later call. */
		store_open_for_reads(read_conninfo, &store);
		pthread_setspecific(read_store_key, store);
	}
	return store;
}

void play_standby_shutdown(void)
{
	if (!read_conninfo)
		return;
	struct store *store = pthread_getspecific(read_store_key);
	store_close(store);
	pthread_setspecific(read_store_key, NULL);
	free(read_conninfo);
	read_conninfo = NULL;
}

/* Count a read that went to the read store: answered there (`ok`), or sent on to the
 * primary. A read store on the primary (no standby up) counts as neither. */
static void count(struct store *store, int ok)
{
	if (!ok)
		counters_add(COUNTERS_READS_STANDBY_FALLBACK, 1);
	else if (store_on_standby(store))
		counters_add(COUNTERS_READS_STANDBY, 1);
}

enum store_status play_load_standby(int64_t game_id, int32_t floor, struct game_record *out)
{
	struct store *store = play__read_store();
	if (!store)
		return STORE_UNAVAILABLE;
	enum store_status status = play__load_from(store, game_id, out);
	if (status == STORE_OK && (int32_t)out->state.version < floor)
		status = STORE_CONFLICT; /* the standby has not replayed what the caller knows */
	count(store, status == STORE_OK);
	return status;
}

enum store_status play_read_log_standby(int64_t game_id, int32_t after, int limit, int32_t through,
					struct store_log *out)
{
	struct store *store = play__read_store();
	if (store) {
		enum store_status status = store_read_events(store, game_id, after, limit, out);
		/* Every row after `after` up to `through` (or `limit` of them): else the standby
		 * is behind (another standby than the one the state came from, after a
		 * reconnect), and the primary answers. */
		int32_t want = through - after < limit ? through : after + limit;
		int whole = status == STORE_OK &&
			    (out->count == limit || (out->count > 0 && out->rows[out->count - 1].seq >= want));
		if (status == STORE_OK && !whole)
			store_log_free(out);
		count(store, whole);
		if (whole)
			return STORE_OK;
	}
	return play_read_log(game_id, after, limit, out);
}

enum store_status play__lobby_standby(int64_t after_created_us, int64_t after_id, int limit,
				      struct store_waiting_game *out, int *count_out)
{
	struct store *store = play__read_store();
	if (store) {
		enum store_status status = store_lobby(store, after_created_us, after_id, limit, out, count_out);
		count(store, status == STORE_OK);
		if (status == STORE_OK)
			return STORE_OK;
	}
	return store_lobby(play_thread_store(), after_created_us, after_id, limit, out, count_out);
}
