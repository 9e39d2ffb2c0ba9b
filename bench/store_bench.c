/*
 * store_bench.c - what the event store costs, measured on a fresh database of the server
 * named by DATABASE_URL (`make bench-store` starts a throwaway cluster when it is unset).
 * PostgreSQL runs with its default durability (fsync on, synchronous_commit on); one
 * connection LISTENs on catan_events throughout, as every server has one.
 *
 *  1. Append throughput: WRITERS threads, each with its own store, replay random complete
 *     games (engine playouts, decided before the clock starts) through game_repo_create()
 *     and game_repo_append(), one append per decision, snapshots every
 *     GAME_REPO_SNAPSHOT_EVERY events; first with a shared notifier (db/notifier.c), then
 *     with each store waking listeners itself.
 *  2. Between the two, pgbench at the same concurrency (-c WRITERS -j 2 -M prepared): one
 *     INSERT of a comparable event row (a copy of the events table, a typical payload) per
 *     transaction. ROUNDS rounds of SECONDS seconds each; ratios are of the sums.
 *  3. Bytes on disk per event: pg_total_relation_size of events + snapshots +
 *     idempotency_keys once GAMES games are complete, divided by the events stored; and
 *     the events table's parts (heap, TOAST, each index) per event.
 *  4. Load time through game_repo_load() (median of 2,000) of a 20-event game and of a
 *     2,000-event game, and of the latter with its snapshot N events back or absent: what
 *     the choice of GAME_REPO_SNAPSHOT_EVERY trades against.
 *
 *   store_bench     environment: BENCH_SECONDS=5 BENCH_ROUNDS=3 BENCH_GAMES=100
 *                   BENCH_WRITERS=16 BENCH_TRADES=1 (random play with domestic trades)
 *                   BENCH_SNAPSHOT_EVERY=32 (writers; loads are measured with the default)
 *                   BENCH_KEEP=1 (keep the database for a look afterwards)
 */
#include <libpq-fe.h>
#include <openssl/rand.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/games.h"
#include "codec/log.h"
#include "db/notifier.h"
#include "db/store_events.h"
#include "engine/apply.h"
#include "game/game_repo.h"

#define MAX_WRITERS 64
#define LOAD_REPEATS 2000

static char *database; /* the fresh database's connection string */
static char database_name[64];

static double now_seconds(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static int env_int(const char *name, int fallback)
{
	const char *value = getenv(name);
	return value && atoi(value) > 0 ? atoi(value) : fallback;
}

__attribute__((noreturn)) static void die(const char *what, const char *detail)
{
	fprintf(stderr, "store_bench: %s: %s\n", what, detail ? detail : "");
	exit(1);
}

/* A connection string for DATABASE_URL's server with another database. */
static char *conninfo_for(const char *url, const char *dbname)
{
	char *error = NULL;
	char *text = store_conninfo_for_database(url, dbname, &error);
	if (!text)
		die("DATABASE_URL does not parse", error);
	free(error);
	return text;
}

static void sql(PGconn *conn, const char *statement)
{
	PGresult *result = PQexec(conn, statement);
	if (PQresultStatus(result) != PGRES_COMMAND_OK && PQresultStatus(result) != PGRES_TUPLES_OK)
		die(statement, PQresultErrorMessage(result));
	PQclear(result);
}

static double sql_number(PGconn *conn, const char *statement)
{
	PGresult *result = PQexec(conn, statement);
	if (PQresultStatus(result) != PGRES_TUPLES_OK || PQntuples(result) != 1)
		die(statement, PQresultErrorMessage(result));
	double value = atof(PQgetvalue(result, 0, 0));
	PQclear(result);
	return value;
}

static PGconn *connect_to(const char *conninfo)
{
	PGconn *conn = PQconnectdb(conninfo);
	if (PQstatus(conn) != CONNECTION_OK)
		die("connect", PQerrorMessage(conn));
	return conn;
}

/* `verb` database_name `rest` (CREATE or DROP) through the server's postgres database. */
static void on_the_bench_database(const char *url, const char *verb, const char *rest)
{
	char *admin = conninfo_for(url, "postgres");
	PGconn *conn = connect_to(admin);
	char statement[160];
	snprintf(statement, sizeof statement, "%s %s%s", verb, database_name, rest);
	sql(conn, statement);
	PQfinish(conn);
	free(admin);
}

static void create_database(void)
{
	const char *url = getenv("DATABASE_URL");
	if (!url || !*url)
		die("DATABASE_URL is not set", "run through scripts/with-postgres.sh (make bench-store)");
	snprintf(database_name, sizeof database_name, "catan_bench_%ld", (long)getpid());
	on_the_bench_database(url, "CREATE DATABASE", "");
	database = conninfo_for(url, database_name);
	char message[256];
	if (store_migrate(database, NULL, message, sizeof message) != STORE_OK)
		die("store_migrate", message);
}

static void drop_database(void)
{
	on_the_bench_database(getenv("DATABASE_URL"), "DROP DATABASE", " WITH (FORCE)");
}

/* ---- Games through the repo ---------------------------------------------------------------- */

static int64_t create_game(struct game_repo *repo, struct games_play *game, uint64_t seed)
{
	struct event_list created;
	games_start(game, seed, 4, 1, &created);
	struct store_new_game row;
	memset(&row, 0, sizeof row);
	row.seed = (int64_t)(seed & INT64_MAX);
	row.options = "{}";
	row.seats = 4;
	for (int seat = 0; seat < 4; seat++)
		if (RAND_bytes(row.token_hashes[seat], STORE_HASH_SIZE) != 1)
			die("RAND_bytes", NULL);
	if (RAND_bytes(row.admin_token_hash, STORE_HASH_SIZE) != 1)
		die("RAND_bytes", NULL);
	int64_t id;
	enum store_status status = game_repo_create(repo, &row, &created, &game->playout.state, &id);
	if (status != STORE_OK)
		die("game_repo_create", game_repo_message(repo));
	return id;
}

/* Random complete games decided before the clock starts, so the timed appends cost the
 * store (and the codec) and not the choice of moves: the writers replay them, each replay
 * stored as a new game. */
struct decision {
	int seat;
	int first; /* into pool_game.events */
	int count;
};

struct pool_game {
	struct event_list created;
	struct event *events;
	struct decision *decisions;
	int decision_count;
};

static struct pool_game *pool;
static int pool_size;

static void build_pool(int size, int trades)
{
	pool = calloc((size_t)size, sizeof *pool);
	if (!pool)
		abort();
	pool_size = size;
	for (int g = 0; g < size; g++) {
		struct pool_game *entry = &pool[g];
		struct games_play game;
		games_start(&game, 500001 + (uint64_t)g, 4, trades, &entry->created);
		int capacity = 4096, event_capacity = 8192, event_count = 0;
		entry->decisions = malloc(sizeof *entry->decisions * (size_t)capacity);
		entry->events = malloc(sizeof *entry->events * (size_t)event_capacity);
		struct game before;
		struct event_list events;
		int seat;
		while (entry->decisions && entry->events && games_step(&game, &before, &seat, &events)) {
			if (entry->decision_count == capacity) {
				capacity *= 2;
				entry->decisions =
					realloc(entry->decisions, sizeof *entry->decisions * (size_t)capacity);
			}
			while (event_count + events.count > event_capacity) {
				event_capacity *= 2;
				entry->events = realloc(entry->events, sizeof *entry->events * (size_t)event_capacity);
			}
			if (!entry->decisions || !entry->events)
				break;
			entry->decisions[entry->decision_count++] = (struct decision){seat, event_count, events.count};
			memcpy(entry->events + event_count, events.events,
			       sizeof events.events[0] * (size_t)events.count);
			event_count += events.count;
		}
		if (!entry->decisions || !entry->events)
			abort();
		games_free(&game);
	}
}

struct writer {
	int index;
	struct store *store;
	struct game_repo repo;
	struct game state;
	const struct pool_game *playing; /* NULL between games */
	int next_decision;
	int64_t id;
	long started;
	long appends;
	long events;
	long games_finished;
};

static atomic_int stop_writers;
static atomic_long games_finished;
static double run_until; /* seconds on the monotonic clock; 0: until games_target */
static long games_target;

static int64_t store_game(struct writer *writer, const struct pool_game *game)
{
	memset(&writer->state, 0, sizeof writer->state);
	apply_events(&writer->state, &game->created);
	struct store_new_game row;
	memset(&row, 0, sizeof row);
	row.seed = writer->index * 1000003 + writer->started;
	row.options = "{}";
	row.seats = writer->state.options.seats;
	for (int seat = 0; seat < row.seats; seat++)
		if (RAND_bytes(row.token_hashes[seat], STORE_HASH_SIZE) != 1)
			die("RAND_bytes", NULL);
	if (RAND_bytes(row.admin_token_hash, STORE_HASH_SIZE) != 1)
		die("RAND_bytes", NULL);
	int64_t id;
	if (game_repo_create(&writer->repo, &row, &game->created, &writer->state, &id) != STORE_OK)
		die("game_repo_create", game_repo_message(&writer->repo));
	return id;
}

static void *write_games(void *argument)
{
	struct writer *writer = argument;
	struct event_list list;
	while (!atomic_load(&stop_writers)) {
		if (!writer->playing) {
			writer->playing = &pool[(writer->index * 7 + writer->started * 13) % pool_size];
			writer->id = store_game(writer, writer->playing);
			writer->started++;
			writer->next_decision = 0;
			writer->appends++;
			writer->events += writer->state.version;
			continue;
		}
		if (writer->next_decision == writer->playing->decision_count) {
			writer->playing = NULL;
			writer->games_finished++;
			if (atomic_fetch_add(&games_finished, 1) + 1 >= games_target && run_until == 0)
				atomic_store(&stop_writers, 1);
			continue;
		}
		const struct decision *decision = &writer->playing->decisions[writer->next_decision++];
		list.count = decision->count;
		memcpy(list.events, writer->playing->events + decision->first,
		       sizeof list.events[0] * (size_t)list.count);
		struct game before;
		memcpy(&before, &writer->state, sizeof before);
		apply_events(&writer->state, &list);
		enum store_status status = game_repo_append(&writer->repo, writer->id, &before, &list, &writer->state,
							    decision->seat, STORE_ORIGIN_PLAYER, NULL, NULL);
		if (status != STORE_OK)
			die("game_repo_append", game_repo_message(&writer->repo));
		writer->appends++;
		writer->events += list.count;
		if (run_until > 0 && (writer->appends & 15) == 0 && now_seconds() >= run_until)
			atomic_store(&stop_writers, 1);
	}
	return NULL;
}

static double cpu_seconds(void)
{
	struct rusage usage;
	getrusage(RUSAGE_SELF, &usage);
	return (double)usage.ru_utime.tv_sec + (double)usage.ru_utime.tv_usec / 1e6 + (double)usage.ru_stime.tv_sec +
	       (double)usage.ru_stime.tv_usec / 1e6;
}

/* Run the writers for `seconds` (or, with 0, until `games` games in all are complete).
 * Returns appends per second; *events_out and *cpu_us_out (client CPU per append) may be
 * NULL. */
static double run_writers(struct writer *writers, int count, double seconds, long games, long *events_out,
			  double *cpu_us_out)
{
	atomic_store(&stop_writers, 0);
	games_target = games;
	long appends_before = 0, events_before = 0;
	for (int i = 0; i < count; i++) {
		appends_before += writers[i].appends;
		events_before += writers[i].events;
	}
	double cpu_before = cpu_seconds();
	double start = now_seconds();
	run_until = seconds > 0 ? start + seconds : 0;
	pthread_t threads[MAX_WRITERS];
	for (int i = 0; i < count; i++)
		if (pthread_create(&threads[i], NULL, write_games, &writers[i]) != 0)
			die("pthread_create", NULL);
	for (int i = 0; i < count; i++)
		pthread_join(threads[i], NULL);
	double elapsed = now_seconds() - start;
	long appends = -appends_before, events = -events_before;
	for (int i = 0; i < count; i++) {
		appends += writers[i].appends;
		events += writers[i].events;
	}
	if (events_out)
		*events_out = events;
	if (cpu_us_out)
		*cpu_us_out = 1e6 * (cpu_seconds() - cpu_before) / (double)appends;
	return (double)appends / elapsed;
}

/* A typical payload for pgbench's rows: a dice roll (54 bytes; the average event is ~60). */
static char *sample_payload(void)
{
	struct event event;
	event_init(&event, EVENT_DICE_ROLLED);
	event.seat = 1;
	event.dice[0] = 3;
	event.dice[1] = 4;
	return codec_event_dump(&event, 4);
}

/* ---- pgbench -------------------------------------------------------------------------------- */

static double run_pgbench(int clients, int seconds, const char *payload)
{
	PGconn *conn = connect_to(database);
	sql(conn, "DROP TABLE IF EXISTS bench_events");
	sql(conn, "CREATE TABLE bench_events (LIKE events INCLUDING ALL)");
	PQfinish(conn);

	char script_path[] = "/tmp/catan-pgbench-XXXXXX";
	int fd = mkstemp(script_path);
	if (fd < 0)
		die("mkstemp", NULL);
	FILE *script = fdopen(fd, "w");
	/* A random 63-bit game id per row: the primary key never collides. */
	fprintf(script,
		"\\set game random(1, 9223372036854775806)\n"
		"INSERT INTO bench_events (game_id, seq, type, actor, origin, payload)"
		" VALUES (:game, 1, 5, 1, 0, '%s');\n",
		payload);
	fclose(script);

	char command[8192];
	snprintf(command, sizeof command, "pgbench -n -M prepared -f %s -c %d -j 2 -T %d \"%s\" 2>&1", script_path,
		 clients, seconds, database);
	FILE *output = popen(command, "r");
	if (!output)
		die("popen pgbench", NULL);
	char line[512];
	double tps = -1;
	while (fgets(line, sizeof line, output)) {
		double value;
		if (sscanf(line, "tps = %lf", &value) == 1 && tps < 0)
			tps = value;
		if (strstr(line, "error") || strstr(line, "ERROR") || strstr(line, "aborted"))
			fprintf(stderr, "pgbench: %s", line);
	}
	int status = pclose(output);
	unlink(script_path);
	if (status != 0 || tps < 0) {
		fprintf(stderr, "store_bench: pgbench failed (is postgresql-contrib installed?)\n");
		return -1;
	}
	conn = connect_to(database);
	sql(conn, "DROP TABLE bench_events");
	PQfinish(conn);
	return tps;
}

/* ---- Load time ------------------------------------------------------------------------------ */

/* A game appended through the repo until its version reaches `events`; `states` (may be
 * NULL) receives the state after every version reached at a decision boundary. */
static int64_t game_of_length(struct game_repo *repo, uint32_t events, uint64_t seed, struct game *states,
			      struct game *final)
{
	for (;; seed += 1000) {
		struct games_play game;
		int64_t id = create_game(repo, &game, seed);
		if (states)
			memcpy(&states[game.playout.state.version], &game.playout.state, sizeof game.playout.state);
		struct game before;
		struct event_list list;
		int seat;
		while (game.playout.state.version < events && games_step(&game, &before, &seat, &list)) {
			if (game_repo_append(repo, id, &before, &list, &game.playout.state, seat, STORE_ORIGIN_PLAYER,
					     NULL, NULL) != STORE_OK)
				die("game_repo_append", game_repo_message(repo));
			if (states && game.playout.state.version <= events + EVENT_LIST_MAX)
				memcpy(&states[game.playout.state.version], &game.playout.state,
				       sizeof game.playout.state);
		}
		int long_enough = game.playout.state.version >= events;
		if (!long_enough && states) /* the next seed's states must not meet this game's */
			memset(states, 0, sizeof *states * (game.playout.state.version + 1));
		memcpy(final, &game.playout.state, sizeof *final);
		games_free(&game);
		if (long_enough)
			return id;
	}
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Median microseconds of one game_repo_load(), checking the result each time. */
static double time_load(struct game_repo *repo, int64_t id, const struct game *expected)
{
	static double samples[LOAD_REPEATS];
	struct game loaded;
	for (int i = 0; i < LOAD_REPEATS; i++) {
		double start = now_seconds();
		if (game_repo_load(repo, id, &loaded, NULL) != STORE_OK)
			die("game_repo_load", game_repo_message(repo));
		samples[i] = 1e6 * (now_seconds() - start);
		if (memcmp(&loaded, expected, sizeof loaded) != 0)
			die("game_repo_load", "the loaded state differs from the live one");
	}
	qsort(samples, LOAD_REPEATS, sizeof samples[0], compare_doubles);
	return samples[LOAD_REPEATS / 2];
}

static void put_snapshot_at(PGconn *conn, int64_t id, const struct game *state)
{
	char statement[128];
	snprintf(statement, sizeof statement, "DELETE FROM snapshots WHERE game_id = %lld", (long long)id);
	sql(conn, statement);
	if (!state)
		return;
	struct store *store;
	if (store_open(database, &store) != STORE_OK)
		die("store_open", store_message(store));
	struct store_snapshot snapshot = {GAME_FORMAT_VERSION, state, sizeof *state};
	if (store_put_snapshot(store, id, (int32_t)state->version, &snapshot) != STORE_OK)
		die("store_put_snapshot", store_message(store));
	store_close(store);
}

static void measure_loads(void)
{
	struct store *store;
	if (store_open(database, &store) != STORE_OK)
		die("store_open", store_message(store));
	struct game_repo repo, reader;
	game_repo_init(&repo, store, GAME_REPO_SNAPSHOT_EVERY);
	game_repo_init(&reader, store, 0); /* loads without writing snapshots */
	struct game short_final, long_final;
	int64_t short_id = game_of_length(&repo, 20, 910001, NULL, &short_final);
	struct game *states = calloc(2000 + 2 * EVENT_LIST_MAX, sizeof *states);
	if (!states)
		abort();
	int64_t long_id = game_of_length(&repo, 2000, 920001, states, &long_final);

	double short_us = time_load(&reader, short_id, &short_final);
	double long_us = time_load(&reader, long_id, &long_final);
	PGconn *conn = connect_to(database);
	char statement[160];
	snprintf(statement, sizeof statement, "SELECT seq FROM snapshots WHERE game_id = %lld", (long long)long_id);
	int snapshot_seq = (int)sql_number(conn, statement);
	printf("load: %u-event game %.0f us; %u-event game %.0f us (snapshot at %d, %u events replayed);"
	       " ratio %.2f (target <= 1.5)\n",
	       short_final.version, short_us, long_final.version, long_us, snapshot_seq,
	       long_final.version - (uint32_t)snapshot_seq, long_us / short_us);

	/* The same long game with its snapshot further back, or none. */
	printf("load of the %u-event game by events replayed after the snapshot:\n", long_final.version);
	const int backs[] = {0, 16, 32, 64, 96, 128, 256, 512};
	for (size_t i = 0; i < sizeof backs / sizeof backs[0]; i++) {
		uint32_t seq = long_final.version - (uint32_t)backs[i];
		while (seq > 0 && states[seq].version != seq)
			seq--;
		put_snapshot_at(conn, long_id, &states[seq]);
		double us = time_load(&reader, long_id, &long_final);
		printf("  %4u replayed: %6.0f us (%.2f x the %u-event game)\n", long_final.version - seq, us,
		       us / short_us, short_final.version);
	}
	put_snapshot_at(conn, long_id, NULL);
	double none_us = time_load(&reader, long_id, &long_final);
	printf("  no snapshot (%u replayed): %6.0f us (%.2f x)\n", long_final.version, none_us, none_us / short_us);
	PQfinish(conn);
	free(states);
	store_close(store);
}

/* ---- A listener ------------------------------------------------------------------------------ */

struct listen_state {
	atomic_int stop;
	atomic_long received;
};

static void *listen_loop(void *argument)
{
	struct listen_state *state = argument;
	PGconn *conn = connect_to(database);
	sql(conn, "LISTEN catan_events");
	while (!atomic_load(&state->stop)) {
		struct pollfd socket = {PQsocket(conn), POLLIN, 0};
		poll(&socket, 1, 100);
		if (!PQconsumeInput(conn))
			die("listener", PQerrorMessage(conn));
		PGnotify *notify;
		while ((notify = PQnotifies(conn))) {
			atomic_fetch_add(&state->received, 1);
			PQfreemem(notify);
		}
	}
	PQfinish(conn);
	return NULL;
}

/* ---- Main ------------------------------------------------------------------------------------ */

int main(void)
{
	int seconds = env_int("BENCH_SECONDS", 5);
	int games = env_int("BENCH_GAMES", 100);
	int count = env_int("BENCH_WRITERS", 16);
	int rounds = env_int("BENCH_ROUNDS", 3);
	int snapshot_every =
		getenv("BENCH_SNAPSHOT_EVERY") ? atoi(getenv("BENCH_SNAPSHOT_EVERY")) : GAME_REPO_SNAPSHOT_EVERY;
	if (count > MAX_WRITERS)
		count = MAX_WRITERS;
	create_database();
	PGconn *conn = connect_to(database);
	PGresult *settings = PQexec(conn, "SELECT current_setting('fsync'), current_setting('synchronous_commit')");
	if (PQresultStatus(settings) != PGRES_TUPLES_OK)
		die("reading settings", PQresultErrorMessage(settings));
	printf("store bench: PostgreSQL %d, fsync %s, synchronous_commit %s, %ld CPUs, snapshot every %d events\n",
	       PQserverVersion(conn) / 10000, PQgetvalue(settings, 0, 0), PQgetvalue(settings, 0, 1),
	       sysconf(_SC_NPROCESSORS_ONLN), snapshot_every);
	PQclear(settings);
	PQfinish(conn);

	int trades = getenv("BENCH_TRADES") ? atoi(getenv("BENCH_TRADES")) != 0 : 1;
	build_pool(32, trades);
	static struct writer writers[MAX_WRITERS];
	for (int i = 0; i < count; i++) {
		writers[i].index = i;
		if (store_open(database, &writers[i].store) != STORE_OK)
			die("store_open", store_message(writers[i].store));
		game_repo_init(&writers[i].repo, writers[i].store, snapshot_every);
	}

	/* A listener, as every server has one, so that wake-ups cost what they cost there. */
	struct listen_state listening = {0};
	pthread_t listen_thread;
	if (pthread_create(&listen_thread, NULL, listen_loop, &listening) != 0)
		die("pthread_create", NULL);
	struct store_notifier *notifier;
	store_notifier_open(database, &notifier);

	/* Rounds of: the store with a shared notifier (as a server should run it), pgbench, the
	 * store waking listeners from each append's own pipeline (the default). One after the
	 * other, so all see the same machine (other work on it moves all); ratios are of sums. */
	double shared_sum = 0, pgbench_sum = 0, own_sum = 0;
	char *payload = sample_payload();
	for (int round = 0; round < rounds; round++) {
		long events = 0;
		double cpu_us = 0;
		for (int i = 0; i < count; i++)
			store_use_notifier(writers[i].store, notifier);
		double shared = run_writers(writers, count, seconds, 0, &events, &cpu_us);
		printf("append: round %d: %d writers on different games, shared notifier, %d s: %.0f appends/s"
		       " (%.2f events per append; client CPU %.0f us per append)\n",
		       round + 1, count, seconds, shared, (double)events / (shared * seconds), cpu_us);
		double pgbench_tps = run_pgbench(count, seconds, payload);
		if (pgbench_tps <= 0)
			break;
		printf("pgbench: round %d: %d clients, one INSERT of an event row per transaction, %d s: %.0f tps\n",
		       round + 1, count, seconds, pgbench_tps);
		for (int i = 0; i < count; i++)
			store_use_notifier(writers[i].store, NULL);
		double own = run_writers(writers, count, seconds, 0, &events, &cpu_us);
		printf("append: round %d: %d writers on different games, wake-up per append, %d s: %.0f appends/s"
		       " (client CPU %.0f us per append)\n",
		       round + 1, count, seconds, own, cpu_us);
		shared_sum += shared;
		own_sum += own;
		pgbench_sum += pgbench_tps;
	}
	free(payload);
	long sent = 0, batches = 0, dropped = 0;
	store_notifier_counts(notifier, &sent, &dropped, &batches);
	if (pgbench_sum > 0) {
		printf("append vs pgbench: %.0f (shared notifier) and %.0f (wake-up per append) vs %.0f per second"
		       " over %d rounds: %.0f%% and %.0f%% (target >= 70%%)\n",
		       shared_sum / rounds, own_sum / rounds, pgbench_sum / rounds, rounds,
		       100.0 * shared_sum / pgbench_sum, 100.0 * own_sum / pgbench_sum);
		printf("notifier: %ld wake-ups in %ld transactions (%.1f per transaction), %ld dropped;"
		       " the listener received %ld notifications\n",
		       sent, batches, batches ? (double)sent / (double)batches : 0.0, dropped,
		       atomic_load(&listening.received));
	}
	for (int i = 0; i < count; i++)
		store_use_notifier(writers[i].store, notifier);

	/* Carry on until `games` games are complete, for the size on disk. */
	run_writers(writers, count, 0, games, NULL, NULL);
	for (int i = 0; i < count; i++)
		store_close(writers[i].store);
	store_notifier_close(notifier);
	atomic_store(&listening.stop, 1);
	pthread_join(listen_thread, NULL);
	conn = connect_to(database);
	sql(conn, "VACUUM ANALYZE events, snapshots, idempotency_keys");
	double stored = sql_number(conn, "SELECT count(*) FROM events");
	double relation_bytes = sql_number(conn, "SELECT pg_total_relation_size('events')"
						 " + pg_total_relation_size('snapshots')"
						 " + pg_total_relation_size('idempotency_keys')");
	double events_bytes = sql_number(conn, "SELECT pg_total_relation_size('events')");
	double index_bytes = sql_number(conn, "SELECT pg_indexes_size('events')");
	double payload_bytes = sql_number(conn, "SELECT avg(pg_column_size(payload)) FROM events");
	double finished = sql_number(conn, "SELECT count(*) FROM games WHERE status = 2");
	printf("size: %.0f complete games%s (%.0f games in all), %.0f events: %.1f bytes per event on disk"
	       " (events %.1f of which index %.1f, payload %.1f; snapshots + idempotency %.1f)\n",
	       finished, trades ? " with trades" : " without trades", sql_number(conn, "SELECT count(*) FROM games"),
	       stored, relation_bytes / stored, events_bytes / stored, index_bytes / stored, payload_bytes,
	       (relation_bytes - events_bytes) / stored);
	/* The events table's parts: heap (main fork with its free space and visibility maps),
	 * TOAST (with its index), and each index by name, so a change shows where it landed. */
	double heap_bytes = sql_number(conn, "SELECT pg_table_size('events') - coalesce((SELECT"
					     " pg_total_relation_size(reltoastrelid) FROM pg_class WHERE oid ="
					     " 'events'::regclass AND reltoastrelid <> 0), 0)");
	double toast_bytes = events_bytes - index_bytes - heap_bytes;
	printf("size: events per event: heap %.1f, TOAST %.1f", heap_bytes / stored, toast_bytes / stored);
	PGresult *indexes = PQexec(conn, "SELECT c.relname, pg_relation_size(c.oid) FROM pg_index i"
					 " JOIN pg_class c ON c.oid = i.indexrelid"
					 " WHERE i.indrelid = 'events'::regclass ORDER BY c.relname");
	if (PQresultStatus(indexes) != PGRES_TUPLES_OK)
		die("the indexes of events", PQresultErrorMessage(indexes));
	for (int i = 0; i < PQntuples(indexes); i++)
		printf(", %s %.1f", PQgetvalue(indexes, i, 0), atof(PQgetvalue(indexes, i, 1)) / stored);
	PQclear(indexes);
	printf("; events in all %.1f (target <= 150)\n", events_bytes / stored);
	PQfinish(conn);

	measure_loads();
	if (getenv("BENCH_KEEP"))
		printf("kept database %s\n", database_name);
	else
		drop_database();
	free(database);
	return 0;
}
