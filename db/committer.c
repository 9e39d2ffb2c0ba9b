/*
 * committer.c - group commit: the common appends of many games in one statement.
 *
 * A move is, most of the time, one event appended at the version it was decided on, with
 * no snapshot, status, idempotency record or timer. Written alone, each is its own
 * transaction and its own durable commit, and PostgreSQL spends far more on starting and
 * ending statements and transactions than on the row. A committer is a few threads, each
 * with its own connection: request threads hand it their append (store__committer_append(), a
 * mutex and a condition variable, no network) and wait; a free thread takes everything
 * pending (at most max_batch), sends it as one statement, and hands each caller its own
 * outcome. There is no waiting timer: a lone append goes at once, and batches form while a
 * statement is in flight.
 *
 * The statement (group_append below) inserts every item whose previous event exists (a
 * scalar subquery per item, not EXISTS: a semi-join's generic plan, frozen on a fresh
 * cluster, hashes the items and scans every event), with ON CONFLICT DO NOTHING, and returns (game_id, seq) of the rows
 * it inserted: an item among them is in the log, any other was refused alone (its version taken, or no such event to
 * follow), and the caller tells which by reading the game's version, as store_append()
 * always did. Each row is its own game's: the existence check reads the item's own game,
 * the outbox rows come from the item's own receivers, nothing is joined across games.
 *
 * Wake-ups: with a notifier (the server's), posted to it after the commit, like every
 * other append's. Without one, sent from the batch's own transaction (pg_notify() per row,
 * group_append_notify): one commit for the lot, but the lock NOTIFY takes at commit
 * (db/migrations/0001_event_store.sql) is held through the flush, so the batches of several
 * connections then commit one at a time.
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
#include "db/store_internal.h"

#define COMMITTER_MAX_BATCH_LIMIT 1024

/* One append handed in: owned by the waiting caller (on its stack), written by the thread
 * until `done`. */
struct pending {
	int64_t game_id;
	int32_t version;
	int type, actor, origin;
	const char *payload;
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
	struct store_notifier *notifier; /* NULL: wake-ups from the batch's own transaction */
	pthread_mutex_t lock;
	pthread_cond_t wake;
	int stopping;
	struct pending *head; /* handed in, not yet taken */
	struct pending **tail;
	long appends;
	long batches; /* statements sent, as last published under the lock */
};

/* The items (six parallel arrays), the rows inserted (e) and their outbox rows (o). */
#define COMMITTER_GROUP_ROWS                                                                           \
	"WITH i AS (SELECT * FROM unnest($1::bigint[], $2::integer[], $3::smallint[], $4::smallint[]," \
	"  $5::smallint[], $6::text[]) AS i (game_id, version, type, actor, origin, payload)),"        \
	" e AS (INSERT INTO events (game_id, seq, type, actor, origin, payload)"                       \
	"  SELECT i.game_id, i.version + 1, i.type, i.actor, i.origin, i.payload::jsonb FROM i"        \
	"  WHERE (SELECT true FROM events p WHERE p.game_id = i.game_id AND p.seq = i.version)"        \
	"  ON CONFLICT DO NOTHING RETURNING game_id, seq),"                                            \
	" o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)"       \
	"  SELECT w.webhook_id, e.game_id, e.seq, e.seq, e.seq"                                        \
	"  FROM e CROSS JOIN LATERAL catan_receivers(e.game_id) w)"
/* Rows inserted: (game_id, seq), and in group_append_notify the wake-up of each from the
 * same transaction. Inserted rows are the items' own games' rows; the outbox rows are
 * those of each row's own game (catan_receivers(), as in append_event of store_events.c). */
#define COMMITTER_STATEMENTS(X)                                                                               \
	X(group_append, 6, COMMITTER_GROUP_ROWS " SELECT e.game_id, e.seq FROM e")                            \
	X(group_append_notify, 6,                                                                             \
	  COMMITTER_GROUP_ROWS " SELECT e.game_id, e.seq,"                                                    \
			       " pg_notify('catan_events', lpad(to_hex(e.game_id), 16, '0') || ':' || e.seq)" \
			       " FROM e")
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

/* The item of `items` (sorted, distinct (game, version)) that row (game_id, seq) is. */
static struct pending *find_item(struct pending **items, int count, int64_t game_id, int32_t seq)
{
	int low = 0, high = count - 1;
	while (low <= high) {
		int middle = low + (high - low) / 2;
		struct pending *item = items[middle];
		if (item->game_id == game_id && item->version + 1 == seq)
			return item;
		if (item->game_id < game_id || (item->game_id == game_id && item->version + 1 < seq))
			low = middle + 1;
		else
			high = middle - 1;
	}
	return NULL;
}

/* Send `items` (sorted, distinct (game, version)) in one statement and set each one's
 * outcome. */
static void send_batch(struct committer_line *line, struct pending **items, int count)
{
	struct buffer columns[6];
	memset(columns, 0, sizeof columns);
	for (int c = 0; c < 6; c++)
		buffer_string(&columns[c], "{");
	for (int i = 0; i < count; i++) {
		buffer_int64(&columns[0], items[i]->game_id, i == 0);
		buffer_array_int(&columns[1], items[i]->version, i == 0);
		buffer_array_int(&columns[2], items[i]->type, i == 0);
		buffer_array_int(&columns[3], items[i]->actor, i == 0);
		buffer_array_int(&columns[4], items[i]->origin, i == 0);
		if (i)
			buffer_string(&columns[5], ",");
		buffer_array_text(&columns[5], items[i]->payload);
	}
	struct params params = {0};
	for (int c = 0; c < 6; c++) {
		buffer_string(&columns[c], "}");
		param_text(&params, columns[c].data);
	}
	PGresult *result;
	struct store *store = line->store;
	struct store_notifier *notifier = line->committer->notifier;
	enum store_status status = store__run(
		store, notifier ? &statement_group_append : &statement_group_append_notify, &params, 0, &result);
	for (int c = 0; c < 6; c++)
		free(columns[c].data);
	line->statements++;
	if (status == STORE_OK) {
		for (int i = 0; i < count; i++) {
			items[i]->status = STORE_OK;
			items[i]->inserted = 0;
		}
		for (int row = 0; row < PQntuples(result); row++) {
			int64_t game_id;
			int32_t seq;
			struct pending *item = NULL;
			if (get_int64(result, row, 0, &game_id) && get_int32(result, row, 1, &seq))
				item = find_item(items, count, game_id, seq);
			if (item) {
				item->inserted = 1;
				if (notifier)
					store__notifier_post(notifier, game_id, seq);
			} else {
				/* Not a row of this batch: nothing to tell its caller but that the store
				 * answered what it did not write. */
				for (int i = 0; i < count; i++) {
					items[i]->status =
						store__corrupt(store, items[i]->game_id,
							       "a batch append returned a row it was not given");
					snprintf(items[i]->message, sizeof items[i]->message, "%s", store->message);
				}
				break;
			}
		}
		PQclear(result);
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

enum store_status store__committer_append(struct store_committer *committer, int64_t game_id, int32_t version, int type,
					  int actor, int origin, const char *payload, int *inserted,
					  char message[STORE_MESSAGE_SIZE])
{
	struct pending item = {.game_id = game_id,
			       .version = version,
			       .type = type,
			       .actor = actor,
			       .origin = origin,
			       .payload = payload};
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
