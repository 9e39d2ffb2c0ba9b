/*
 * committer.c - group commit: the common appends of many games in one statement.
 *
 * A move is, most of the time, one event or a few appended at the version it was decided
 * on, with no snapshot, status, idempotency record or timer. Written alone, each is its own
 * transaction and its own durable commit, and PostgreSQL spends far more on starting and
 * ending statements and transactions than on the rows. A committer is a few threads, each
 * with its own connection: request threads hand it their append (store__committer_append(),
 * a mutex and a condition variable, no network) and wait; a free thread takes everything
 * pending (at most max_batch appends), sends it as one statement, and hands each caller its
 * own outcome. There is no waiting timer: a lone append goes at once (a lone one-event
 * append with single_append, today's statement, cheaper than the batch's for one row), and
 * batches form while statements are in flight.
 *
 * The statement (group_append below) inserts the events of every item whose previous event
 * exists (a scalar subquery per row, not EXISTS: a semi-join's generic plan, frozen on a
 * fresh cluster, hashes the items and scans every event), with ON CONFLICT DO NOTHING, and
 * answers one row per item: its events inserted, all or none. An item inserted is in the
 * log; any other was refused alone (a version taken, or no such event to follow), and the
 * caller tells which by reading the game's version, as store_append() always did. An item
 * half inserted (a writer elsewhere took some of its versions, not all) stops the statement
 * (CT409, 0021_group_append.sql), which is then retried item by item (below). Each row is
 * its own game's: the existence check reads the item's own game, the outbox rows come from
 * the game's own receivers, an item's answer counts its own game's rows; nothing is joined
 * across games, so the store can still be split by game id.
 *
 * Wake-ups: posted to the notifier (the server's, or one of the committer's own) after the
 * commit, like every other append's. Sending them from the batch's own transaction would
 * save that transaction, but the lock NOTIFY takes at commit is held through the flush
 * (db/migrations/0001_event_store.sql), so the batches of several connections would commit
 * one at a time.
 *
 * Connections: a single one would make one durable flush at a time, each waited for before
 * the next batch goes (PostgreSQL groups the flushes of concurrent transactions, not of one
 * connection's in turn); a few (STORE_COMMITTER_CONNECTIONS) keep that many batches in
 * flight, each thread taking what is pending when it is free.
 *
 * Items of one batch are sorted by (game, version), so two committers (two servers) insert
 * the games they share in the same order and do not deadlock on each other's rows; two
 * items of one game at one version in one batch cannot both win, so only the first is sent
 * and the others are refused (not inserted) without asking.
 *
 * When the batch fails: a failure the server reported (the transaction rolled back: nothing
 * of it committed, e.g. a deadlock with a writer elsewhere) is retried item by item, so one
 * item never fails another; a lost connection with the outcome unknown gives every item
 * STORE_UNAVAILABLE, never a second write (store__run() already resends, once, what cannot
 * have committed, as for any write).
 */
#include "db/committer.h"

#include <pthread.h>

#include "base/xalloc.h"
#include "db/notifier.h"
#include "db/store_events.h"
#include "db/store_internal.h"

#define COMMITTER_MAX_BATCH_LIMIT 1024

/* One append handed in: owned by the waiting caller (on its stack), written by the thread
 * until `done`. */
struct pending {
	int64_t game_id;
	int32_t version;
	const struct store_event *events; /* borrowed */
	int event_count;
	int order; /* arrival within its batch: the first of a duplicate wins */
	enum store_status status;
	int inserted;
	int done;
	char message[STORE_MESSAGE_SIZE];
	pthread_cond_t finished;
	struct pending *next;
};

/* One connection of the committer, and its thread. */
struct committer_line {
	struct store_committer *committer;
	struct store *store; /* used by the line's thread only */
	pthread_t thread;
	long statements; /* statements sent: the thread's own count */
};

struct store_committer {
	struct committer_line lines[STORE_COMMITTER_MAX_CONNECTIONS];
	int connections;
	int max_batch;
	struct store_notifier *notifier;     /* where the wake-ups go after each commit */
	struct store_notifier *own_notifier; /* opened here when none was given, else NULL */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stopping;
	struct pending *head; /* handed in, not yet taken */
	struct pending **tail;
	long appends;
	long batches; /* statements sent, as last published under the lock */
};

/* One row of the arrays per event: the item's game, the version it was decided on, the
 * event's place k (1..n) among the item's n events, and the event. The rows inserted (e),
 * their outbox rows (o: per game, the first and last version inserted, for each of the
 * game's receivers: catan_receivers(), as in append_events of store_events.c), and one row
 * per item: (game_id, version, events inserted), 0 or n, never between
 * (catan_group_refuse() of 0021_group_append.sql stops the statement then). */
#define COMMITTER_STATEMENTS(X)                                                                        \
	X(group_append, 8,                                                                             \
	  "WITH i AS (SELECT * FROM unnest($1::bigint[], $2::integer[], $3::integer[], $4::integer[]," \
	  "  $5::smallint[], $6::smallint[], $7::smallint[], $8::text[])"                              \
	  "  AS i (game_id, version, k, n, type, actor, origin, payload)),"                            \
	  " e AS (INSERT INTO events (game_id, seq, type, actor, origin, payload)"                     \
	  "  SELECT i.game_id, i.version + i.k, i.type, i.actor, i.origin, i.payload::json FROM i"     \
	  "  WHERE (SELECT true FROM events p WHERE p.game_id = i.game_id AND p.seq = i.version)"      \
	  "  ON CONFLICT DO NOTHING RETURNING game_id, seq),"                                          \
	  " o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)"     \
	  "  SELECT w.webhook_id, r.game_id, r.first, r.last, r.first"                                 \
	  "  FROM (SELECT game_id, min(seq) AS first, max(seq) AS last FROM e GROUP BY game_id) r"     \
	  "  CROSS JOIN LATERAL catan_receivers(r.game_id) w),"                                        \
	  " c AS (SELECT i.game_id, i.version, i.n, count(e.seq) AS inserted"                          \
	  "  FROM i LEFT JOIN e ON e.game_id = i.game_id AND e.seq = i.version + i.k"                  \
	  "  GROUP BY i.game_id, i.version, i.n)"                                                      \
	  " SELECT game_id, version, CASE WHEN inserted = 0 OR inserted = n THEN inserted::integer"    \
	  "  ELSE catan_group_refuse(game_id, version) END FROM c")                                    \
	/* A lone append of one event: append_event of store_events.c, as cheap as ever (a taken       \
	 * version fails on events_pkey: STORE_CONFLICT). */                                           \
	X(single_append, 6, STORE_SQL_APPEND_EVENT)
STORE_STATEMENTS(committer, COMMITTER_STATEMENTS);

static int compare_pending(const void *a, const void *b)
{
	const struct pending *x = *(const struct pending *const *)a, *y = *(const struct pending *const *)b;
	if (x->game_id != y->game_id)
		return x->game_id < y->game_id ? -1 : 1;
	if (x->version != y->version)
		return x->version < y->version ? -1 : 1;
	return (x->order > y->order) - (x->order < y->order);
}

static void buffer_int64(struct buffer *buffer, long long value, int first)
{
	char text[32];
	int length = snprintf(text, sizeof text, "%s%lld", first ? "" : ",", value);
	buffer_append(buffer, text, (size_t)length);
}

/* The item of `items` (sorted, distinct (game, version)) of game `game_id` at `version`. */
static struct pending *find_item(struct pending **items, int count, int64_t game_id, int32_t version)
{
	int low = 0, high = count - 1;
	while (low <= high) {
		int middle = low + (high - low) / 2;
		struct pending *item = items[middle];
		if (item->game_id == game_id && item->version == version)
			return item;
		if (item->game_id < game_id || (item->game_id == game_id && item->version < version))
			low = middle + 1;
		else
			high = middle - 1;
	}
	return NULL;
}

/* Send `items` (sorted, distinct (game, version)) in one statement and set each one's
 * outcome. */
/* Send one item of one event alone, with the cheaper statement of a lone append. */
static void send_single(struct committer_line *line, struct pending *item)
{
	const struct store_event *event = &item->events[0];
	struct params params = {0};
	param_int(&params, item->game_id);
	param_int(&params, item->version);
	param_int(&params, event->type);
	param_int(&params, event->actor);
	param_int(&params, event->origin);
	param_text(&params, event->payload);
	PGresult *result;
	struct store *store = line->store;
	item->status = store__run(store, &statement_single_append, &params, 0, &result);
	line->statements++;
	item->inserted = 0;
	int32_t inserted = -1;
	if (item->status == STORE_OK) {
		if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &inserted) || inserted < 0 || inserted > 1)
			item->status = store__corrupt(store, item->game_id, "an append did not say what it inserted");
		else
			item->inserted = inserted;
		PQclear(result);
	}
	if (item->status != STORE_OK)
		snprintf(item->message, sizeof item->message, "%s", store->message);
	else if (item->inserted)
		store__notifier_post(line->committer->notifier, item->game_id, item->version + 1);
}

static void send_batch(struct committer_line *line, struct pending **items, int count)
{
	if (count == 1 && items[0]->event_count == 1) {
		send_single(line, items[0]);
		return;
	}
	enum { COLUMNS = 8 };
	struct buffer columns[COLUMNS];
	memset(columns, 0, sizeof columns);
	for (int c = 0; c < COLUMNS; c++)
		buffer_string(&columns[c], "{");
	int rows = 0;
	for (int i = 0; i < count; i++) {
		for (int k = 0; k < items[i]->event_count; k++, rows++) {
			const struct store_event *event = &items[i]->events[k];
			buffer_int64(&columns[0], items[i]->game_id, rows == 0);
			buffer_array_int(&columns[1], items[i]->version, rows == 0);
			buffer_array_int(&columns[2], k + 1, rows == 0);
			buffer_array_int(&columns[3], items[i]->event_count, rows == 0);
			buffer_array_int(&columns[4], event->type, rows == 0);
			buffer_array_int(&columns[5], event->actor, rows == 0);
			buffer_array_int(&columns[6], event->origin, rows == 0);
			if (rows)
				buffer_string(&columns[7], ",");
			buffer_array_text(&columns[7], event->payload);
		}
	}
	struct params params = {0};
	for (int c = 0; c < COLUMNS; c++) {
		buffer_string(&columns[c], "}");
		param_text(&params, columns[c].data);
	}
	PGresult *result;
	struct store *store = line->store;
	enum store_status status = store__run(store, &statement_group_append, &params, 0, &result);
	for (int c = 0; c < COLUMNS; c++)
		free(columns[c].data);
	line->statements++;
	if (status == STORE_OK) {
		int answered = 0;
		for (int row = 0; row < PQntuples(result); row++) {
			int64_t game_id;
			int32_t version, inserted;
			struct pending *item = NULL;
			if (get_int64(result, row, 0, &game_id) && get_int32(result, row, 1, &version) &&
			    get_int32(result, row, 2, &inserted))
				item = find_item(items, count, game_id, version);
			if (!item || (inserted != 0 && inserted != item->event_count)) {
				answered = -1;
				break;
			}
			item->status = STORE_OK;
			item->inserted = inserted > 0;
			answered++;
			if (inserted)
				store__notifier_post(line->committer->notifier, game_id, version + inserted);
		}
		PQclear(result);
		if (answered != count) {
			/* Not one row per item: the store answered what it was not asked. The items'
			 * outcome is unknown to us, so unknown to their callers. */
			store__corrupt(store, items[0]->game_id,
				       "a batch append did not answer each of its appends once");
			for (int i = 0; i < count; i++) {
				items[i]->status = STORE_CORRUPT;
				snprintf(items[i]->message, sizeof items[i]->message, "%s", store->message);
			}
		}
		return;
	}
	if (status != STORE_UNAVAILABLE && count > 1) {
		/* The server refused the statement, so nothing of it committed: each item alone,
		 * so that one item's failure is its own. */
		for (int i = 0; i < count; i++)
			send_batch(line, &items[i], 1);
		return;
	}
	for (int i = 0; i < count; i++) {
		items[i]->status = status;
		items[i]->inserted = 0;
		snprintf(items[i]->message, sizeof items[i]->message, "%s", store->message);
	}
}

/* Write `items` (in order of arrival) and set each one's outcome. */
static void write_items(struct committer_line *line, struct pending **items, int count)
{
	for (int i = 0; i < count; i++)
		items[i]->order = i;
	qsort(items, (size_t)count, sizeof items[0], compare_pending);
	/* Of items of one game at one version, the first to arrive is sent; the others cannot
	 * win (not inserted: their callers find the version taken, or the game missing). */
	int sent = 0;
	for (int i = 0; i < count; i++) {
		if (sent && items[sent - 1]->game_id == items[i]->game_id &&
		    items[sent - 1]->version == items[i]->version) {
			items[i]->status = STORE_OK;
			items[i]->inserted = 0;
			continue;
		}
		struct pending *keep = items[i];
		items[i] = items[sent];
		items[sent++] = keep;
	}
	send_batch(line, items, sent);
}

static void *committer_main(void *argument)
{
	struct committer_line *line = argument;
	struct store_committer *committer = line->committer;
	struct pending **items = xcalloc((size_t)committer->max_batch, sizeof *items);
	pthread_mutex_lock(&committer->lock);
	for (;;) {
		while (!committer->head && !committer->stopping)
			pthread_cond_wait(&committer->wake, &committer->lock);
		if (!committer->head)
			break;
		int count = 0;
		while (committer->head && count < committer->max_batch) {
			items[count++] = committer->head;
			committer->head = committer->head->next;
		}
		if (!committer->head)
			committer->tail = &committer->head;
		pthread_mutex_unlock(&committer->lock);
		long before = line->statements;
		write_items(line, items, count);
		pthread_mutex_lock(&committer->lock);
		committer->batches += line->statements - before;
		for (int i = 0; i < count; i++) {
			items[i]->done = 1;
			pthread_cond_signal(&items[i]->finished);
		}
	}
	pthread_mutex_unlock(&committer->lock);
	free(items);
	return NULL;
}

enum store_status store_committer_open(const char *conninfo, int connections, int max_batch,
				       struct store_notifier *notifier, struct store_committer **out)
{
	struct store_committer *committer = xcalloc(1, sizeof *committer);
	committer->connections = connections < 1				 ? 1
				 : connections > STORE_COMMITTER_MAX_CONNECTIONS ? STORE_COMMITTER_MAX_CONNECTIONS
										 : connections;
	committer->max_batch = max_batch < 1			       ? 1
			       : max_batch > COMMITTER_MAX_BATCH_LIMIT ? COMMITTER_MAX_BATCH_LIMIT
								       : max_batch;
	if (!notifier) {
		store_notifier_open(conninfo, &committer->own_notifier);
		notifier = committer->own_notifier;
	}
	committer->notifier = notifier;
	committer->tail = &committer->head;
	pthread_mutex_init(&committer->lock, NULL);
	pthread_cond_init(&committer->wake, NULL);
	/* Each connection prepares only what it runs; a failed first connection is retried by
	 * the first batch. */
	static const struct store_area *const areas[] = {&store__area_connection, &store__area_committer};
	for (int i = 0; i < committer->connections; i++) {
		struct committer_line *line = &committer->lines[i];
		line->committer = committer;
		store__open(conninfo, areas, 2, &line->store);
		if (pthread_create(&line->thread, NULL, committer_main, line) != 0)
			abort();
	}
	*out = committer;
	return STORE_OK;
}

void store_committer_close(struct store_committer *committer)
{
	if (!committer)
		return;
	pthread_mutex_lock(&committer->lock);
	committer->stopping = 1;
	pthread_cond_broadcast(&committer->wake);
	pthread_mutex_unlock(&committer->lock);
	for (int i = 0; i < committer->connections; i++) {
		pthread_join(committer->lines[i].thread, NULL);
		store_close(committer->lines[i].store);
	}
	pthread_cond_destroy(&committer->wake);
	pthread_mutex_destroy(&committer->lock);
	store_notifier_close(committer->own_notifier);
	free(committer);
}

void store_committer_counts(struct store_committer *committer, long *appends, long *batches)
{
	pthread_mutex_lock(&committer->lock);
	if (appends)
		*appends = committer->appends;
	if (batches)
		*batches = committer->batches;
	pthread_mutex_unlock(&committer->lock);
}

void store_use_committer(struct store *store, struct store_committer *committer)
{
	store->committer = committer;
}

enum store_status store__committer_append(struct store_committer *committer, int64_t game_id, int32_t version,
					  const struct store_event *events, int event_count, int *inserted,
					  char message[STORE_MESSAGE_SIZE])
{
	struct pending item = {.game_id = game_id, .version = version, .events = events, .event_count = event_count};
	pthread_cond_init(&item.finished, NULL);
	pthread_mutex_lock(&committer->lock);
	*committer->tail = &item;
	committer->tail = &item.next;
	committer->appends++;
	pthread_cond_signal(&committer->wake);
	while (!item.done)
		pthread_cond_wait(&item.finished, &committer->lock);
	pthread_mutex_unlock(&committer->lock);
	pthread_cond_destroy(&item.finished);
	*inserted = item.inserted;
	if (item.status != STORE_OK)
		snprintf(message, STORE_MESSAGE_SIZE, "%s", item.message);
	return item.status;
}
