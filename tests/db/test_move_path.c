/*
 * test_move_path.c - every statement of the move path touches the rows of one game and
 * joins nothing across games, so the store can be distributed by game_id (Citus with
 * co-located tables, or a directory of game_id -> Patroni cluster: docs/scaling.md) without
 * a schema change.
 *
 * The move path is what one move costs the store, from the request to the wake-up of the
 * waiters, and what a server needs to serve the game afterwards:
 *
 *   token lookup   find_token (whose seat a token is: the seat's, the admin's, a player's)
 *   load           load (snapshot + the events after it), read_events (the log), read_tail
 *                  (a cached state brought up to date), version
 *   append         append_event, append_events (events alone), append (catan_append() with
 *                  a snapshot, a status, an idempotency record; catan_set_timer(),
 *                  catan_enqueue_deliveries() and catan_receivers() of the migrations),
 *                  put_snapshot, idempotency_get and idempotency_put (a move retried with
 *                  its Idempotency-Key)
 *   notify         notify (catan_notify(): the wake-up after the commit)
 *   creation       create_game (catan_create_game(), catan_bind_players() ...): a game's
 *                  first rows, on the same rule
 *
 * MOVE_PATH lists them; every statement of the `events` and `connection` areas
 * (db/store_events.c, db/store.c) is either in it or in OFF_THE_MOVE_PATH with the reason,
 * so a new statement there fails this test until it is placed.
 *
 * How it is read: the statements are not parsed here. The store's own connection loads
 * auto_explain (log_nested_statements, so the statements inside the SQL functions of
 * db/migrations are seen too, as they run) with its plans sent to the client as notices,
 * and the store's own functions make the moves of a game through every branch above.
 * Every plan the server ran is then walked: each scan of a table is on rows of one game
 * when it is *pinned*: one of the table's keys (game_id, or player_id for the rows of a
 * seated player, or id of games and players) is equated, in the scan's own conditions or
 * in a join above it, to a parameter or constant, to a column of the statement's own input
 * rows (unnest() of the arrays of a batch, a CTE of the rows it wrote), or to a key of
 * another scan that is pinned. A batch of appends for several games is therefore allowed
 * when each row finds its rows by its own game_id (`events.game_id = b.game_id` with b the
 * batch's unnest()), and so is `game_id = ANY ($1)` (each row by its own key); a scan with
 * no key condition, or keyed only to an unpinned scan (a join across games), is refused.
 * Inserts touch only the rows they write, which carry their own game_id.
 *
 * test_the_check_refuses_statements_across_games runs the same check on statements that
 * break the rule (and on a per-row batch that keeps it), so the check itself can fail.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db/store_events.h"
#include "db/store_idempotency.h"
#include "db/store_internal.h"
#include "db/store_timers.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

/* (area, statement, what it is for) */
#define MOVE_PATH(X)                                                                 \
	X(events, find_token, "token lookup")                                        \
	X(events, load, "load: snapshot and the events after it")                    \
	X(events, read_events, "load: the log")                                      \
	X(events, read_tail, "load: a cached state brought up to date")              \
	X(events, read_types, "load: a provably fair game's players' seeds")         \
	X(events, version, "version")                                                \
	X(events, append_event, "append: one event")                                 \
	X(events, append_events, "append: several events")                           \
	X(events, append, "append with snapshot, status, idempotency record, timer") \
	X(events, put_snapshot, "append: the snapshot kept beside the log")          \
	X(idempotency, idempotency_get, "a retried move: its record")                \
	X(idempotency, idempotency_put, "a refused move worth replaying")            \
	X(connection, notify, "the wake-up after the commit")                        \
	X(events, create_game, "a game's first rows")

/* (area, statement, why it is not checked here) */
#define OFF_THE_MOVE_PATH(X)                                                                                         \
	X(events, create_waiting, "a waiting game's first rows (the lobby, store_lobby.c, lists them across games)") \
	X(events, seat_away, "a holiday toggle: one game's rows, but not a move")                                    \
	X(events, game_info, "the game's description, not a move")

struct listed {
	const char *area, *name, *why;
};
#define LISTED_ROW(area, name, why) {#area, #name, why},
static const struct listed move_path[] = {MOVE_PATH(LISTED_ROW)};
static const struct listed off_the_move_path[] = {OFF_THE_MOVE_PATH(LISTED_ROW)};
#undef LISTED_ROW
#define COUNT(array) ((int)(sizeof array / sizeof array[0]))

#define AREA_ADDRESS(area) &store__area_##area,
static const struct store_area *const areas[] = {STORE_AREAS(AREA_ADDRESS)};
#undef AREA_ADDRESS

static const struct store_statement *statement_named(const char *area, const char *name)
{
	for (int a = 0; a < COUNT(areas); a++)
		if (strcmp(areas[a]->name, area) == 0)
			for (int i = 0; i < areas[a]->count; i++)
				if (strcmp(areas[a]->statements[i]->name, name) == 0)
					return areas[a]->statements[i];
	return NULL;
}

/* ---- The keys of the tables ---------------------------------------------------------------- */

#define MAX_TABLES 64
struct table_keys {
	int count;
	struct {
		char name[64];
		int game_id, player_id, id; /* which key columns it has */
	} tables[MAX_TABLES];
};

/* Every table of the schema with its keys: game_id and player_id where it has them, and
 * id for games and players (whose rows are the game and the player themselves). */
static void table_keys_read(struct table_keys *keys, PGconn *conn)
{
	PGresult *result =
		PQexec(conn, "SELECT c.relname, bool_or(a.attname = 'game_id'), bool_or(a.attname = 'player_id')"
			     " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
			     " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0"
			     " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
			     " GROUP BY c.relname ORDER BY c.relname");
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s", PQresultErrorMessage(result));
	keys->count = 0;
	for (int row = 0; row < PQntuples(result) && keys->count < MAX_TABLES; row++) {
		const char *name = PQgetvalue(result, row, 0);
		snprintf(keys->tables[keys->count].name, sizeof keys->tables[0].name, "%s", name);
		keys->tables[keys->count].game_id = PQgetvalue(result, row, 1)[0] == 't';
		keys->tables[keys->count].player_id = PQgetvalue(result, row, 2)[0] == 't';
		keys->tables[keys->count].id = strcmp(name, "games") == 0 || strcmp(name, "players") == 0;
		keys->count++;
	}
	PQclear(result);
	ck_assert_int_gt(keys->count, 5);
}

/* ---- Plans --------------------------------------------------------------------------------- */

#define MAX_NODES 256
struct plan_node {
	const json_t *node;
	const char *alias; /* a scan of a table: its alias; NULL for any other node */
	int table;	   /* index in table_keys, -1 when the table has no key */
	int pinned;
};

struct plan {
	int count;
	struct plan_node nodes[MAX_NODES];
};

static void plan_add(struct plan *plan, const struct table_keys *keys, const json_t *node)
{
	ck_assert_int_lt(plan->count, MAX_NODES);
	struct plan_node *entry = &plan->nodes[plan->count++];
	memset(entry, 0, sizeof *entry);
	entry->node = node;
	entry->table = -1;
	const char *type = json_string_value(json_object_get(node, "Node Type"));
	const char *relation = json_string_value(json_object_get(node, "Relation Name"));
	/* A ModifyTable names its table too: an insert touches the rows it writes, an update or
	 * a delete the rows its scan below it finds (checked there). */
	if (relation && type && strcmp(type, "ModifyTable") != 0) {
		entry->alias = json_string_value(json_object_get(node, "Alias"));
		for (int t = 0; t < keys->count; t++)
			if (strcmp(keys->tables[t].name, relation) == 0)
				entry->table = t;
	}
	const json_t *children = json_object_get(node, "Plans");
	size_t i;
	const json_t *child;
	json_array_foreach(children, i, child)
	{
		plan_add(plan, keys, child);
	}
}

static const char *const condition_fields[] = {"Index Cond",  "Recheck Cond", "Filter",	    "TID Cond",
					       "Join Filter", "Hash Cond",    "Merge Cond", "One-Time Filter"};

/* The node of the table scan whose alias is alias[0, length), or -1. */
static int plan_scan_of(const struct plan *plan, const char *alias, size_t length)
{
	for (int i = 0; i < plan->count; i++)
		if (plan->nodes[i].alias && strlen(plan->nodes[i].alias) == length &&
		    strncmp(plan->nodes[i].alias, alias, length) == 0)
			return i;
	return -1;
}

static int is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Whether the operand text[start, end) refers only to what pins: parameters, constants,
 * columns of non-table sources (a batch's unnest(), a CTE) and columns of pinned scans. */
static int operand_pins(const struct plan *plan, const char *text, size_t start, size_t end)
{
	for (size_t i = start; i < end; i++) {
		if (text[i] == '\'') { /* a constant: skip to its closing quote */
			for (i++; i < end && text[i] != '\''; i++)
				;
			continue;
		}
		if (!is_name_char(text[i]) || (i > start && (is_name_char(text[i - 1]) || text[i - 1] == '$' ||
							     text[i - 1] == ':' || text[i - 1] == '.')))
			continue;
		size_t name_end = i;
		while (name_end < end && is_name_char(text[name_end]))
			name_end++;
		if (name_end < end && text[name_end] == '.' && name_end + 1 < end && is_name_char(text[name_end + 1])) {
			int scan = plan_scan_of(plan, text + i, name_end - i);
			if (scan >= 0 && !plan->nodes[scan].pinned)
				return 0;
		}
		i = name_end;
	}
	return 1;
}

/* The end of the operand that starts at text[start] (a balanced parenthesis, or a run up
 * to a space or a closing parenthesis). */
static size_t operand_end(const char *text, size_t start)
{
	int depth = 0;
	size_t i = start;
	for (; text[i]; i++) {
		if (text[i] == '\'') {
			for (i++; text[i] && text[i] != '\''; i++)
				;
			if (!text[i])
				break;
			continue;
		}
		if (text[i] == '(')
			depth++;
		else if (text[i] == ')') {
			if (depth == 0)
				break;
			if (--depth == 0 && text[start] == '(')
				return i + 1;
		} else if (text[i] == ' ' && depth == 0)
			break;
	}
	return i;
}

/* Whether `condition` equates alias.column to something that pins. */
static int condition_pins(const struct plan *plan, const char *condition, const char *alias, const char *column)
{
	char name[160];
	snprintf(name, sizeof name, "%s.%s", alias, column);
	size_t length = strlen(name);
	for (const char *at = strstr(condition, name); at; at = strstr(at + 1, name)) {
		size_t position = (size_t)(at - condition);
		if ((position > 0 && (is_name_char(condition[position - 1]) || condition[position - 1] == '.')) ||
		    is_name_char(condition[position + length]))
			continue;
		/* alias.column = operand, or = ANY (operand) */
		if (strncmp(at + length, " = ", 3) == 0) {
			size_t start = position + length + 3;
			if (strncmp(condition + start, "ANY ", 4) == 0)
				start += 4;
			if (operand_pins(plan, condition, start, operand_end(condition, start)))
				return 1;
		}
		/* operand = alias.column: the operand ends just before " = " */
		if (position >= 4 && strncmp(at - 3, " = ", 3) == 0) {
			size_t end = position - 3, start = end;
			int depth = 0;
			while (start > 0) {
				char c = condition[start - 1];
				if (c == ')')
					depth++;
				else if (c == '(') {
					if (depth == 0)
						break;
					depth--;
				} else if (c == ' ' && depth == 0)
					break;
				start--;
			}
			if (operand_pins(plan, condition, start, end))
				return 1;
		}
	}
	return 0;
}

/* Whether scan `index` is pinned by a condition anywhere in the plan: its own, a join's
 * above it, or the inner side's of a nested loop (whose index condition carries the join:
 * `s.player_id = w.player_id AND s.game_id = $1` pins the webhooks w of the seats s). The
 * aliases of one plan are unique (EXPLAIN VERBOSE numbers them: w, w_1), so a condition
 * naming the scan's alias is about its rows wherever it stands. */
static int scan_pinned(const struct plan *plan, const struct table_keys *keys, int index)
{
	const struct plan_node *scan = &plan->nodes[index];
	const char *columns[3];
	int count = 0;
	if (keys->tables[scan->table].game_id)
		columns[count++] = "game_id";
	if (keys->tables[scan->table].player_id)
		columns[count++] = "player_id";
	if (keys->tables[scan->table].id)
		columns[count++] = "id";
	for (int at = 0; at < plan->count; at++)
		for (size_t f = 0; f < sizeof condition_fields / sizeof condition_fields[0]; f++) {
			const char *condition =
				json_string_value(json_object_get(plan->nodes[at].node, condition_fields[f]));
			if (!condition)
				continue;
			for (int c = 0; c < count; c++)
				if (condition_pins(plan, condition, scan->alias, columns[c]))
					return 1;
		}
	return 0;
}

/* Check one plan (auto_explain's JSON: {"Query Text", "Plan"}): "" when every scan is
 * pinned, else what is not, into why. */
static const char *plan_check(const json_t *explained, const struct table_keys *keys, char *why, size_t size)
{
	static struct plan plan;
	plan.count = 0;
	plan_add(&plan, keys, json_object_get(explained, "Plan"));
	why[0] = '\0';
	for (int changed = 1; changed;) {
		changed = 0;
		for (int i = 0; i < plan.count; i++)
			if (plan.nodes[i].alias && !plan.nodes[i].pinned && plan.nodes[i].table >= 0 &&
			    scan_pinned(&plan, keys, i))
				plan.nodes[i].pinned = changed = 1;
	}
	for (int i = 0; i < plan.count; i++) {
		const struct plan_node *node = &plan.nodes[i];
		if (!node->alias || node->pinned)
			continue;
		const char *relation = json_string_value(json_object_get(node->node, "Relation Name"));
		size_t used = strlen(why);
		snprintf(why + used, size - used, "%s%s %s (%s)%s", used ? "; " : "",
			 json_string_value(json_object_get(node->node, "Node Type")), relation, node->alias,
			 node->table < 0 ? ": a table keyed by neither game nor player" : ": no key of one game");
	}
	return why;
}

/* ---- Plans as the server ran them ------------------------------------------------------------- */

struct collected {
	json_t *plans; /* array of auto_explain's JSON objects */
};

static void collect_notice(void *context, const PGresult *result)
{
	struct collected *collected = context;
	const char *message = PQresultErrorMessage(result);
	const char *plan = strstr(message, "plan:\n");
	if (!plan)
		return;
	json_t *parsed = json_loads(plan + strlen("plan:\n"), JSON_DISABLE_EOF_CHECK, NULL);
	if (parsed)
		json_array_append_new(collected->plans, parsed);
}

/* auto_explain on the connection, its plans (with those of the statements inside SQL
 * functions) collected as notices. */
static void explain_start(PGconn *conn, struct collected *collected)
{
	collected->plans = json_array();
	test_db_exec(conn, "LOAD 'auto_explain'");
	test_db_exec(conn, "SET auto_explain.log_min_duration = 0");
	test_db_exec(conn, "SET auto_explain.log_nested_statements = on");
	test_db_exec(conn, "SET auto_explain.log_verbose = on");
	test_db_exec(conn, "SET auto_explain.log_format = json");
	test_db_exec(conn, "SET auto_explain.log_level = notice");
	test_db_exec(conn, "SET client_min_messages = notice");
	PQsetNoticeReceiver(conn, collect_notice, collected);
}

static void explain_stop(PGconn *conn)
{
	test_db_exec(conn, "SET auto_explain.log_min_duration = -1");
	PQsetNoticeReceiver(conn, NULL, NULL);
}

static int ran(const struct collected *collected, const char *sql)
{
	size_t i;
	const json_t *plan;
	json_array_foreach(collected->plans, i, plan)
	{
		const char *text = json_string_value(json_object_get(plan, "Query Text"));
		if (text && strcmp(text, sql) == 0)
			return 1;
	}
	return 0;
}

START_TEST(test_every_statement_of_the_areas_is_placed_on_or_off_the_move_path)
{
	for (int i = 0; i < COUNT(move_path); i++)
		ck_assert_msg(statement_named(move_path[i].area, move_path[i].name) != NULL,
			      "the move path names %s.%s, which the store no longer has", move_path[i].area,
			      move_path[i].name);
	for (int i = 0; i < COUNT(off_the_move_path); i++)
		ck_assert_msg(statement_named(off_the_move_path[i].area, off_the_move_path[i].name) != NULL,
			      "%s.%s is listed off the move path, and the store no longer has it",
			      off_the_move_path[i].area, off_the_move_path[i].name);
	for (int a = 0; a < COUNT(areas); a++) {
		if (strcmp(areas[a]->name, "events") != 0 && strcmp(areas[a]->name, "connection") != 0)
			continue;
		for (int s = 0; s < areas[a]->count; s++) {
			const char *name = areas[a]->statements[s]->name;
			int placed = 0;
			for (int i = 0; i < COUNT(move_path); i++)
				placed += strcmp(move_path[i].name, name) == 0 &&
					  strcmp(move_path[i].area, areas[a]->name) == 0;
			for (int i = 0; i < COUNT(off_the_move_path); i++)
				placed += strcmp(off_the_move_path[i].name, name) == 0 &&
					  strcmp(off_the_move_path[i].area, areas[a]->name) == 0;
			ck_assert_msg(
				placed == 1,
				"%s.%s: list it in MOVE_PATH or in OFF_THE_MOVE_PATH of tests/db/test_move_path.c",
				areas[a]->name, name);
		}
	}
}
END_TEST

START_TEST(test_every_statement_of_the_move_path_touches_one_game)
{
	struct store *store = test_db_fixture.store;
	PGconn *check = test_db_connect(test_db_fixture.db.conninfo);
	static struct table_keys keys;
	table_keys_read(&keys, check);
	ck_assert_ptr_nonnull(store->conn);
	struct collected collected;
	explain_start(store->conn, &collected);

	/* Creation, a seat given to a player (the player's token and webhooks are reached
	 * through it), then every kind of append. */
	int64_t game = test_db_new_game(store, 3, 2);
	char sql[512];
	snprintf(sql, sizeof sql,
		 "INSERT INTO players (id, name, token_hash) VALUES (%lld, 'Pat', '\\x%064d');"
		 "UPDATE seats SET player_id = %lld WHERE game_id = %lld AND seat = 1",
		 (long long)game, 7, (long long)game, (long long)game);
	test_db_exec(check, sql);
	struct store_event events[4];
	char text[4][64];
	test_db_fake_events(events, text, 1, 3);
	struct store_append append = {
		.game_id = game, .version = 2, .events = events, .event_count = 1, .status = STORE_NO_STATUS};
	ck_assert_int_eq(store_append(store, &append), STORE_OK);
	test_db_fake_events(events, text, 3, 4);
	append.version = 3;
	append.event_count = 3;
	ck_assert_int_eq(store_append(store, &append), STORE_OK);
	static const char state[64] = "a state";
	struct store_snapshot snapshot = {.format_version = 1, .state = state, .size = sizeof state};
	struct store_idempotency record = {.key = "move-7", .status = 201, .response = "{}"};
	memset(record.request_hash, 7, sizeof record.request_hash);
	struct store_timer_set timer = {.kind = 1, .due_ms = 60000};
	test_db_fake_events(events, text, 1, 7);
	struct store_append full = {.game_id = game,
				    .version = 6,
				    .events = events,
				    .event_count = 1,
				    .status = 1,
				    .snapshot = &snapshot,
				    .idempotency = &record,
				    .timer = &timer};
	ck_assert_int_eq(store_append(store, &full), STORE_OK);
	test_db_fake_events(events, text, 2, 8);
	struct store_timer_set no_timer = {.kind = 0, .due_ms = 0};
	struct store_append two = {.game_id = game,
				   .version = 7,
				   .events = events,
				   .event_count = 2,
				   .status = STORE_NO_STATUS,
				   .timer = &no_timer};
	ck_assert_int_eq(store_append(store, &two), STORE_OK);
	ck_assert_int_eq(store_put_snapshot(store, game, 9, &snapshot), STORE_OK);
	struct store_idempotency refused = {.key = "move-8", .status = 422, .response = "{}"};
	ck_assert_int_eq(store_idempotency_put(store, game, &refused), STORE_OK);
	struct store_idempotency_record found;
	ck_assert_int_eq(store_idempotency_get(store, game, "move-7", record.request_hash, &found), STORE_OK);
	free(found.response);

	/* reads */
	static char loaded_state[64];
	struct store_loaded loaded;
	ck_assert_int_eq(store_load(store, game, 1, loaded_state, sizeof loaded_state, &loaded), STORE_OK);
	store_log_free(&loaded.log);
	struct store_log log;
	ck_assert_int_eq(store_read_events(store, game, 0, 100, &log), STORE_OK);
	ck_assert_int_eq(log.count, 9);
	store_log_free(&log);
	ck_assert_int_eq(store_read_tail(store, game, 5, 100, &log), STORE_OK);
	store_log_free(&log);
	ck_assert_int_eq(store_read_events_of_types(store, game, 0, 101, 102, 100, &log), STORE_OK);
	ck_assert_int_gt(log.count, 0); /* the fake events' types are 100 + seq % 7 */
	for (int i = 0; i < log.count; i++)
		ck_assert(log.rows[i].type == 101 || log.rows[i].type == 102);
	int32_t first = log.rows[0].seq;
	store_log_free(&log);
	/* A page: after a seq, at most `limit` rows (game/play.c's load_seeds() pages so). */
	ck_assert_int_eq(store_read_events_of_types(store, game, first, 101, 102, 1, &log), STORE_OK);
	ck_assert_int_le(log.count, 1);
	for (int i = 0; i < log.count; i++)
		ck_assert_int_gt(log.rows[i].seq, first);
	store_log_free(&log);
	int32_t version;
	ck_assert_int_eq(store_version(store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 9);
	uint8_t admin[STORE_HASH_SIZE];
	memset(admin, 0xad, sizeof admin);
	int seat;
	ck_assert_int_eq(store_find_token(store, game, admin, &seat), STORE_OK);
	ck_assert_int_eq(seat, STORE_SEAT_ADMIN);
	explain_stop(store->conn);

	/* Every statement of the move path ran, and every plan the server ran is on one game. */
	for (int i = 0; i < COUNT(move_path); i++) {
		const struct store_statement *statement = statement_named(move_path[i].area, move_path[i].name);
		ck_assert_msg(ran(&collected, statement->sql), "%s (%s) did not run", move_path[i].name,
			      move_path[i].why);
	}
	ck_assert_int_gt(json_array_size(collected.plans), COUNT(move_path));
	/* ... and so did the statements inside the functions of db/migrations, each branch. */
	static const char *const nested[] = {
		"INSERT INTO idempotency_keys", /* catan_append(), with a key */
		"FROM generate_series(1, n)",	/* catan_append(), several events (at creation) */
		"INSERT INTO snapshots AS s",	/* catan_append(), with a snapshot */
		"UPDATE games SET updated_at",	/* catan_append(), with a status */
		"INSERT INTO game_timers",	/* catan_set_timer() */
		"DELETE FROM game_timers",	/* catan_set_timer(), no timer */
		"INSERT INTO webhook_outbox",	/* catan_enqueue_deliveries() */
		"pg_notify",			/* catan_notify() */
	};
	for (size_t n = 0; n < sizeof nested / sizeof nested[0]; n++) {
		int seen = 0;
		size_t p;
		const json_t *explained;
		json_array_foreach(collected.plans, p, explained)
		{
			const char *query = json_string_value(json_object_get(explained, "Query Text"));
			seen |= query && strstr(query, nested[n]) != NULL;
		}
		ck_assert_msg(seen, "no plan of a statement with %s ran", nested[n]);
	}
	size_t i;
	const json_t *plan;
	int failures = 0;
	json_array_foreach(collected.plans, i, plan)
	{
		char why[1024];
		if (plan_check(plan, &keys, why, sizeof why)[0]) {
			fprintf(stderr, "touches more than one game: %s\n  in: %s\n", why,
				json_string_value(json_object_get(plan, "Query Text")));
			if (getenv("MOVE_PATH_PLANS")) {
				char *dump = json_dumps(json_object_get(plan, "Plan"), JSON_INDENT(1));
				fprintf(stderr, "%s\n", dump);
				free(dump);
			}
			failures++;
		}
	}
	ck_assert_msg(failures == 0, "%d statements of the move path touch more than one game (listed above)",
		      failures);
	json_decref(collected.plans);
	PQfinish(check);
}
END_TEST

/* The plan of `sql` on `conn` (auto_explain on), checked: 1 when it passes. */
static int passes(PGconn *conn, const struct table_keys *keys, const char *sql, char *why, size_t size)
{
	struct collected collected;
	explain_start(conn, &collected);
	PGresult *result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s: %s", sql, PQresultErrorMessage(result));
	PQclear(result);
	explain_stop(conn);
	ck_assert_int_eq(json_array_size(collected.plans), 1);
	int ok = plan_check(json_array_get(collected.plans, 0), keys, why, size)[0] == '\0';
	json_decref(collected.plans);
	return ok;
}

START_TEST(test_the_check_refuses_statements_across_games)
{
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	static struct table_keys keys;
	table_keys_read(&keys, conn);
	char why[1024];
	static const char *const across[] = {
		/* every game's events */
		"SELECT count(*) FROM events",
		/* a join on a key that is not pinned: the events of every game with a status */
		"SELECT e.seq FROM games g JOIN events e ON e.game_id = g.id WHERE g.status = 1",
		/* one game's events joined to another game's by seq */
		"SELECT b.seq FROM events a JOIN events b ON b.seq = a.seq WHERE a.game_id = 1",
		/* a table keyed by neither */
		"SELECT count(*) FROM quotas",
	};
	for (size_t i = 0; i < sizeof across / sizeof across[0]; i++)
		ck_assert_msg(!passes(conn, &keys, across[i], why, sizeof why), "passed: %s", across[i]);
	static const char *const one_game[] = {
		"SELECT max(seq) FROM events WHERE game_id = 1",
		/* a batch of appends for several games: each row by its own game_id */
		"SELECT b.game_id FROM unnest('{1,2}'::bigint[], '{3,4}'::integer[]) AS b (game_id, version)"
		" WHERE EXISTS (SELECT FROM events e WHERE e.game_id = b.game_id AND e.seq = b.version)",
		"SELECT e.seq FROM events e WHERE e.game_id = ANY ('{1,2}'::bigint[])",
		/* a join within one game, and a seated player's rows */
		"SELECT e.seq FROM games g JOIN events e ON e.game_id = g.id WHERE g.id = 1",
		"SELECT p.name FROM seats s JOIN players p ON p.id = s.player_id WHERE s.game_id = 1",
	};
	for (size_t i = 0; i < sizeof one_game / sizeof one_game[0]; i++)
		ck_assert_msg(passes(conn, &keys, one_game[i], why, sizeof why), "refused: %s: %s", one_game[i], why);
	PQfinish(conn);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("move path");
	TCase *lists = tcase_create("lists");
	tcase_add_test(lists, test_every_statement_of_the_areas_is_placed_on_or_off_the_move_path);
	suite_add_tcase(suite, lists);
	TCase *plans = tcase_create("plans");
	test_db_fixture_add(plans, TEST_DB_WITH_STORE);
	tcase_set_timeout(plans, 60);
	tcase_add_test(plans, test_every_statement_of_the_move_path_touches_one_game);
	tcase_add_test(plans, test_the_check_refuses_statements_across_games);
	suite_add_tcase(suite, plans);
	return suite;
}
