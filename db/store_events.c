/*
 * store_events.c - a game's rows: creating it (started, or waiting for players), appending
 * events (with, at times, a snapshot, a status, an idempotency record and the next timer),
 * keeping a snapshot, a seat's holiday; and reading them back: loading a game (snapshot and
 * the events after it, in one statement, so one consistent view), its log, its version, its
 * seats, whose a token is.
 *
 * Events travel as four parallel array literals (types, actors, origins, payload texts);
 * the payloads are not parsed here, only quoted. An append of events alone is one plain
 * INSERT (append_event, append_events); anything more goes through catan_append(). Either
 * way it is one statement and one transaction, and the listeners are woken after it
 * commits. A store with a committer (db/committer.h) hands those appends of events alone to
 * it instead: one statement and one commit for many games' appends.
 *
 * Results come in binary; every value is checked for NULL and width as it is read, and the
 * event rows for continuity of seq, so a damaged row is STORE_CORRUPT, never misread.
 */
#include "db/store_events.h"

#include "db/store_internal.h"

#define EVENTS_STATEMENTS(X)                                                                                   \
	/* catan_bind_players() after catan_create_game() in the list: the seats exist (it fails               \
	 * loudly if not); catan_enqueue_deliveries() after the binding: the first events reach                \
	 * the seated players' webhooks. */                                                                    \
	X(create_game, 21,                                                                                     \
	  "SELECT catan_create_game($1::bigint, $2::bigint, $3::smallint, $4::bytea, $5::text,"                \
	  " $6::text[], $7::boolean[], $8::bytea, $9::smallint[], $10::smallint[], $11::smallint[],"           \
	  " $12::text[], $13::integer, $14::bytea),"                                                           \
	  " catan_set_server_seed($1::bigint, $18::bytea),"                                                    \
	  " catan_restore_quiet_hours($1::bigint, $19::text[], $20::smallint[], $21::smallint[]),"             \
	  " catan_set_timer($1::bigint, cardinality($9::smallint[]), $15::smallint, $16::bigint),"             \
	  " catan_bind_players($1::bigint, $17::bigint[]),"                                                    \
	  " catan_enqueue_deliveries($1::bigint, 1, cardinality($9::smallint[]))")                             \
	/* A game that waits for players (0003_players.sql; joined in store_lobby.c). */                       \
	X(create_waiting, 18,                                                                                  \
	  "SELECT catan_create_waiting_game($1::bigint, $2::bigint, $3::bytea, $4::text, $5::text[],"          \
	  " $6::boolean[], $7::bytea, $8::boolean[], $9::boolean, $10::bytea, $11::smallint[],"                \
	  " $12::smallint[], $13::smallint[], $14::text[], $15::smallint, $16::smallint, $17::bigint[]),"      \
	  " catan_set_server_seed($1::bigint, $18::bytea)")                                                    \
	/* The common append (events only): one event (most appends) with scalar parameters                    \
	 * (STORE_SQL_APPEND_EVENT of store_internal.h), more as arrays. */                                    \
	X(append_event, 6, STORE_SQL_APPEND_EVENT)                                                             \
	X(append_events, 6,                                                                                    \
	  "WITH e AS (INSERT INTO events (game_id, seq, type, actor, origin, payload)"                         \
	  "  SELECT $1::bigint, $2::integer + e.n, e.type, e.actor, e.origin, e.payload::json"                 \
	  "  FROM unnest($3::smallint[], $4::smallint[], $5::smallint[], $6::text[])"                          \
	  "   WITH ORDINALITY AS e (type, actor, origin, payload, n)"                                          \
	  "  WHERE EXISTS (SELECT FROM events WHERE game_id = $1::bigint AND seq = $2::integer)"               \
	  "  RETURNING seq),"                                                                                  \
	  " o AS (INSERT INTO webhook_outbox (webhook_id, game_id, first_seq, last_seq, next_seq)"             \
	  "  SELECT w.webhook_id, $1::bigint, r.first, r.last, r.first"                                        \
	  "  FROM catan_receivers($1::bigint) w, (SELECT min(seq) AS first, max(seq) AS last FROM e) r"        \
	  "  WHERE r.first IS NOT NULL)"                                                                       \
	  " SELECT count(*)::integer FROM e")                                                                  \
	/* With a snapshot, a status or an idempotency record: the function does it all. */                    \
	X(append, 17,                                                                                          \
	  "SELECT catan_append($1::bigint, $2::integer, $3::smallint[], $4::smallint[], $5::smallint[],"       \
	  " $6::text[], $7::smallint, $8::integer, $9::bytea, $10::text, $11::bytea, $12::smallint,"           \
	  " $13::text), catan_set_timer($1::bigint, $2::integer + cardinality($3::smallint[]),"                \
	  " $14::smallint, $15::bigint),"                                                                      \
	  " catan_set_seat_bank($1::bigint, $16::smallint, $17::bigint),"                                      \
	  " catan_enqueue_deliveries($1::bigint, $2::integer + 1, $2::integer + cardinality($3::smallint[]))") \
	X(put_snapshot, 4,                                                                                     \
	  "WITH e AS (SELECT seq FROM events WHERE game_id = $1::bigint AND seq = $2::integer),"               \
	  " put AS (INSERT INTO snapshots AS s (game_id, seq, format_version, state)"                          \
	  "  SELECT $1::bigint, seq, $3::integer, $4::bytea FROM e"                                            \
	  "  ON CONFLICT (game_id) DO UPDATE SET created_at = now(), seq = excluded.seq,"                      \
	  "   format_version = excluded.format_version, state = excluded.state"                                \
	  "  WHERE s.seq < excluded.seq OR s.format_version <> excluded.format_version"                        \
	  "  RETURNING 1)"                                                                                     \
	  " SELECT (SELECT count(*) FROM e)::integer, (SELECT count(*) FROM put)::integer")                    \
	/* Holidays (0006_player_webhooks.sql): the seat's change, its event and                               \
	 * the timer in one statement, within the seat's allowance (0024_correspondence.sql). */               \
	X(seat_away, 8,                                                                                        \
	  "SELECT outcome, version FROM catan_seat_away_allowed($1::bigint, $2::integer, $3::boolean,"         \
	  " $4::integer,"                                                                                      \
	  " $5::smallint, $6::text, $7::smallint, $8::bigint)")                                                \
	X(load, 3,                                                                                             \
	  "WITH s AS (SELECT seq, state FROM snapshots"                                                        \
	  "  WHERE game_id = $1::bigint AND format_version = $2::integer"                                      \
	  "  AND octet_length(state) = $3::integer)"                                                           \
	  " SELECT 0, g.status, g.seats, NULL::smallint, g.seed, NULL::timestamptz,"                           \
	  "  coalesce((SELECT seq FROM s), 0), (SELECT state FROM s), NULL::text, g.server_seed"               \
	  " FROM games g WHERE g.id = $1::bigint"                                                              \
	  " UNION ALL"                                                                                         \
	  " SELECT e.seq, e.type, e.actor, e.origin, NULL, e.created_at, NULL, NULL, e.payload::text, NULL"    \
	  " FROM events e WHERE e.game_id = $1::bigint AND e.seq > coalesce((SELECT seq FROM s), 0)"           \
	  " ORDER BY 1")                                                                                       \
	X(read_events, 3,                                                                                      \
	  "SELECT 0, g.status, g.seats, NULL::smallint, NULL::bigint, NULL::timestamptz,"                      \
	  "  NULL::integer, NULL::bytea, NULL::text"                                                           \
	  " FROM games g WHERE g.id = $1::bigint"                                                              \
	  " UNION ALL"                                                                                         \
	  " (SELECT e.seq, e.type, e.actor, e.origin, NULL, e.created_at, NULL, NULL, e.payload::text"         \
	  "  FROM events e WHERE e.game_id = $1::bigint AND e.seq > $2::integer"                               \
	  "  ORDER BY e.seq LIMIT $3::integer)"                                                                \
	  " ORDER BY 1")                                                                                       \
	/* The events after a version of a game known to exist: no header row to check. */                     \
	X(read_tail, 3,                                                                                        \
	  "SELECT e.seq, e.type, e.actor, e.origin, NULL::bigint, e.created_at, NULL::integer, NULL::bytea,"   \
	  "  e.payload::text"                                                                                  \
	  " FROM events e WHERE e.game_id = $1::bigint AND e.seq > $2::integer"                                \
	  " ORDER BY e.seq LIMIT $3::integer")                                                                 \
	/* A game's events after seq $2 of the types low..high (its fairness events: game/play.c). */          \
	X(read_types, 5,                                                                                       \
	  "SELECT e.seq, e.type, e.actor, e.origin, NULL::bigint, e.created_at, NULL::integer, NULL::bytea,"   \
	  "  e.payload::text"                                                                                  \
	  " FROM events e WHERE e.game_id = $1::bigint AND e.seq > $2::integer"                                \
	  "  AND e.type BETWEEN $3::smallint AND $4::smallint"                                                 \
	  " ORDER BY e.seq LIMIT $5::integer")                                                                 \
	X(version, 1,                                                                                          \
	  "SELECT coalesce((SELECT max(seq) FROM events WHERE game_id = $1::bigint), 0)"                       \
	  " FROM games WHERE id = $1::bigint")                                                                 \
	X(find_token, 2,                                                                                       \
	  "SELECT seat FROM seats WHERE game_id = $1::bigint AND token_hash = $2::bytea"                       \
	  " UNION ALL"                                                                                         \
	  " SELECT (-2)::smallint FROM games WHERE id = $1::bigint AND admin_token_hash = $2::bytea"           \
	  " UNION ALL" /* a player's token acts for the player's seat (0003_players.sql) */                    \
	  " SELECT s.seat FROM players p JOIN seats s ON s.player_id = p.id"                                   \
	  "  WHERE p.token_hash = $2::bytea AND s.game_id = $1::bigint"                                        \
	  " LIMIT 1")                                                                                          \
	X(game_info, 1,                                                                                        \
	  "SELECT g.seed, g.status, g.seats, g.created_at, g.updated_at, g.options::text,"                     \
	  "  s.seat, s.bot, s.name, s.away"                                                                    \
	  " FROM games g LEFT JOIN seats s ON s.game_id = g.id"                                                \
	  " WHERE g.id = $1::bigint ORDER BY s.seat")
STORE_STATEMENTS(events, EVENTS_STATEMENTS);

/* Columns of the load and read statements. */
enum log_column {
	LOG_SEQ,	  /* int4: 0 for the header row */
	LOG_TYPE,	  /* int2: header: games.status */
	LOG_ACTOR,	  /* int2: header: games.seats */
	LOG_ORIGIN,	  /* int2 */
	LOG_SEED,	  /* int8: header only */
	LOG_CREATED_AT,	  /* timestamptz: events only */
	LOG_SNAPSHOT_SEQ, /* int4: header only, 0 for no usable snapshot */
	LOG_STATE,	  /* bytea: header only */
	LOG_PAYLOAD,	  /* text: events only */
	LOG_SERVER_SEED	  /* bytea: the load's header only, NULL when not provably fair (0031) */
};

#define STORE_ID_ATTEMPTS 4

/* Run a write and wake the listeners of (game_id, version) once it has committed: through
 * the store's notifier when it has one, else in the same pipeline. */
static enum store_status write_and_wake(struct store *store, const struct store_statement *statement,
					const struct params *params, int64_t game_id, int32_t version, PGresult **out)
{
	if (!store->notifier)
		return store__run_and_notify(store, statement, params, game_id, version, out);
	enum store_status status = store__run(store, statement, params, 0, out);
	if (status == STORE_OK)
		store__notifier_post(store->notifier, game_id, version);
	return status;
}

/* The arrays of an event list as literals: types, actors, origins, payloads. */
struct event_arrays {
	struct buffer types;
	struct buffer actors;
	struct buffer origins;
	struct buffer payloads;
};

static int event_arrays_build(struct event_arrays *arrays, const struct store_event *events, int count)
{
	memset(arrays, 0, sizeof *arrays);
	buffer_string(&arrays->types, "{");
	buffer_string(&arrays->actors, "{");
	buffer_string(&arrays->origins, "{");
	buffer_string(&arrays->payloads, "{");
	for (int i = 0; i < count; i++) {
		if (!events[i].payload)
			return 0;
		buffer_array_int(&arrays->types, events[i].type, i == 0);
		buffer_array_int(&arrays->actors, events[i].actor, i == 0);
		buffer_array_int(&arrays->origins, events[i].origin, i == 0);
		if (i)
			buffer_string(&arrays->payloads, ",");
		buffer_array_text(&arrays->payloads, events[i].payload);
	}
	buffer_string(&arrays->types, "}");
	buffer_string(&arrays->actors, "}");
	buffer_string(&arrays->origins, "}");
	buffer_string(&arrays->payloads, "}");
	return 1;
}

static void event_arrays_free(struct event_arrays *arrays)
{
	free(arrays->types.data);
	free(arrays->actors.data);
	free(arrays->origins.data);
	free(arrays->payloads.data);
}

static void params_events(struct params *params, const struct event_arrays *arrays)
{
	param_text(params, arrays->types.data);
	param_text(params, arrays->actors.data);
	param_text(params, arrays->origins.data);
	param_text(params, arrays->payloads.data);
}

static void params_snapshot(struct params *params, const struct store_snapshot *snapshot)
{
	if (snapshot) {
		param_int(params, snapshot->format_version);
		param_bytes(params, snapshot->state, snapshot->size);
	} else {
		param_null(params);
		param_null(params);
	}
}

/* The seats' players as a bigint[] literal (NULL for a seat without one). */
static void players_array(struct buffer *out, const struct store_new_game *game)
{
	buffer_string(out, "{");
	for (int seat = 0; seat < game->seats; seat++) {
		char text[32];
		snprintf(text, sizeof text, "%s%lld", seat ? "," : "", (long long)game->players[seat]);
		buffer_string(out, game->players[seat] ? text : seat ? ",NULL" : "NULL");
	}
	buffer_string(out, "}");
}

/* A new game's rows as the creating statements take them: events, seat names, bots, open
 * seats (all "f" without `open`), token hashes, players and the seats' quiet hours (zones,
 * from, to: no data, so SQL NULLs, when no seat has any). */
struct new_game_arrays {
	struct event_arrays events;
	struct buffer names, bots, open, players;
	struct buffer quiet_zones, quiet_from, quiet_to;
	uint8_t tokens[STORE_MAX_SEATS * STORE_HASH_SIZE];
};

static void new_game_arrays_free(struct new_game_arrays *arrays)
{
	free(arrays->names.data);
	free(arrays->bots.data);
	free(arrays->open.data);
	free(arrays->players.data);
	free(arrays->quiet_zones.data);
	free(arrays->quiet_from.data);
	free(arrays->quiet_to.data);
	event_arrays_free(&arrays->events);
}

static void quiet_hours_arrays(struct new_game_arrays *arrays, const struct store_new_game *game)
{
	int any = 0;
	for (int seat = 0; seat < game->seats; seat++)
		any |= game->quiet_zones[seat] != NULL;
	if (!any)
		return;
	buffer_string(&arrays->quiet_zones, "{");
	buffer_string(&arrays->quiet_from, "{");
	buffer_string(&arrays->quiet_to, "{");
	for (int seat = 0; seat < game->seats; seat++) {
		const char *zone = game->quiet_zones[seat];
		if (seat)
			buffer_string(&arrays->quiet_zones, ",");
		buffer_array_text(&arrays->quiet_zones, zone);
		buffer_array_int(&arrays->quiet_from, zone ? game->quiet_from[seat] : 0, seat == 0);
		buffer_array_int(&arrays->quiet_to, zone ? game->quiet_to[seat] : 0, seat == 0);
	}
	buffer_string(&arrays->quiet_zones, "}");
	buffer_string(&arrays->quiet_from, "}");
	buffer_string(&arrays->quiet_to, "}");
}

/* Check `game` and build its arrays (`open`: per seat, or NULL for none); STORE_INVALID
 * (said under the name `what`) when it cannot be a game. */
static enum store_status new_game_arrays_build(struct store *store, const struct store_new_game *game, const int *open,
					       const char *what, struct new_game_arrays *arrays)
{
	memset(arrays, 0, sizeof *arrays);
	if (game->seats < 1 || game->seats > STORE_MAX_SEATS || game->event_count < 1 || !game->events ||
	    !game->options) {
		store__say(store, "%s: %d seats, %d events", what, game->seats, game->event_count);
		return STORE_INVALID;
	}
	if (!event_arrays_build(&arrays->events, game->events, game->event_count)) {
		new_game_arrays_free(arrays);
		store__say(store, "%s: an event without payload", what);
		return STORE_INVALID;
	}
	buffer_string(&arrays->names, "{");
	buffer_string(&arrays->bots, "{");
	buffer_string(&arrays->open, "{");
	for (int seat = 0; seat < game->seats; seat++) {
		int is_open = open && open[seat];
		if (seat) {
			buffer_string(&arrays->names, ",");
			buffer_string(&arrays->bots, ",");
			buffer_string(&arrays->open, ",");
		}
		buffer_array_text(&arrays->names, is_open ? NULL : game->names[seat]);
		buffer_string(&arrays->bots, game->bots[seat] ? "t" : "f");
		buffer_string(&arrays->open, is_open ? "t" : "f");
		memcpy(arrays->tokens + seat * STORE_HASH_SIZE, game->token_hashes[seat], STORE_HASH_SIZE);
	}
	buffer_string(&arrays->names, "}");
	buffer_string(&arrays->bots, "}");
	buffer_string(&arrays->open, "}");
	players_array(&arrays->players, game);
	quiet_hours_arrays(arrays, game);
	return STORE_OK;
}

/* One attempt at writing a new game under id `id`; STORE_CONFLICT when the id is taken. */
typedef enum store_status (*create_attempt)(struct store *store, int64_t id, const struct store_new_game *game,
					    const struct new_game_arrays *arrays, const struct store_waiting *waiting);

/* Write a new game under a new random id (*id), drawing another while the id is taken
 * (games_pkey is the only conflict possible: at most STORE_ID_ATTEMPTS draws). */
static enum store_status create_with_new_id(struct store *store, create_attempt attempt,
					    const struct store_new_game *game, const struct new_game_arrays *arrays,
					    const struct store_waiting *waiting, int64_t *id)
{
	enum store_status status = STORE_CONFLICT;
	for (int i = 0; i < STORE_ID_ATTEMPTS && status == STORE_CONFLICT; i++) {
		if (!store__random_id(id)) {
			store__say(store, "the system random generator failed");
			return STORE_UNAVAILABLE;
		}
		status = attempt(store, *id, game, arrays, waiting);
	}
	return status;
}

/* A provably fair game's server seed, or NULL (0031_fairness.sql). */
static void param_server_seed(struct params *params, const struct store_new_game *game)
{
	if (game->has_server_seed)
		param_bytes(params, game->server_seed, STORE_SERVER_SEED_SIZE);
	else
		param_null(params);
}

/* The seats' first quiet hours as the creating statement takes them (three NULLs when no
 * seat has any: 0034_import_quiet_hours.sql). */
static void params_quiet_hours(struct params *params, const struct new_game_arrays *arrays)
{
	param_text(params, arrays->quiet_zones.data);
	param_text(params, arrays->quiet_from.data);
	param_text(params, arrays->quiet_to.data);
}

static enum store_status create_game_attempt(struct store *store, int64_t id, const struct store_new_game *game,
					     const struct new_game_arrays *arrays, const struct store_waiting *waiting)
{
	(void)waiting;
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game->seed);
	param_int(&params, game->status);
	param_bytes(&params, game->admin_token_hash, STORE_HASH_SIZE);
	param_text(&params, game->options);
	param_text(&params, arrays->names.data);
	param_text(&params, arrays->bots.data);
	param_bytes(&params, arrays->tokens, (size_t)game->seats * STORE_HASH_SIZE);
	params_events(&params, &arrays->events);
	params_snapshot(&params, game->snapshot);
	params_timer(&params, game->timer);
	param_text(&params, arrays->players.data);
	param_server_seed(&params, game);
	params_quiet_hours(&params, arrays);
	PGresult *result;
	enum store_status status =
		write_and_wake(store, &statement_create_game, &params, id, game->event_count, &result);
	PQclear(result);
	return status;
}

enum store_status store_create_game(struct store *store, const struct store_new_game *game, int64_t *id)
{
	store->message[0] = '\0';
	struct new_game_arrays arrays;
	enum store_status status = new_game_arrays_build(store, game, NULL, "store_create_game", &arrays);
	if (status != STORE_OK)
		return status;
	status = create_with_new_id(store, create_game_attempt, game, &arrays, NULL, id);
	new_game_arrays_free(&arrays);
	return status;
}

static enum store_status create_waiting_attempt(struct store *store, int64_t id, const struct store_new_game *game,
						const struct new_game_arrays *arrays,
						const struct store_waiting *waiting)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game->seed);
	param_bytes(&params, game->admin_token_hash, STORE_HASH_SIZE);
	param_text(&params, game->options);
	param_text(&params, arrays->names.data);
	param_text(&params, arrays->bots.data);
	param_bytes(&params, arrays->tokens, (size_t)game->seats * STORE_HASH_SIZE);
	param_text(&params, arrays->open.data);
	param_text(&params, waiting->public_game ? "t" : "f");
	param_bytes(&params, waiting->invite_hash, STORE_HASH_SIZE);
	params_events(&params, &arrays->events);
	param_int(&params, waiting->start_status);
	param_int(&params, waiting->start_seat);
	param_text(&params, arrays->players.data);
	param_server_seed(&params, game);
	PGresult *result;
	enum store_status status = store__run(store, &statement_create_waiting, &params, 0, &result);
	PQclear(result);
	return status;
}

enum store_status store_create_waiting_game(struct store *store, const struct store_new_game *game,
					    const struct store_waiting *waiting, int64_t *id)
{
	store->message[0] = '\0';
	struct new_game_arrays arrays;
	enum store_status status =
		new_game_arrays_build(store, game, waiting->open, "store_create_waiting_game", &arrays);
	if (status != STORE_OK)
		return status;
	status = create_with_new_id(store, create_waiting_attempt, game, &arrays, waiting, id);
	new_game_arrays_free(&arrays);
	return status;
}

enum store_status store_append(struct store *store, const struct store_append *append)
{
	store->message[0] = '\0';
	if (append->event_count < 1 || !append->events || append->version < 0) {
		store__say(store, "store_append: %d events at version %d", append->event_count, (int)append->version);
		return STORE_INVALID;
	}
	struct event_arrays arrays;
	if (!event_arrays_build(&arrays, append->events, append->event_count)) {
		event_arrays_free(&arrays);
		store__say(store, "store_append: an event without payload");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, append->game_id);
	param_int(&params, append->version);
	params_events(&params, &arrays);
	int32_t version = append->version + append->event_count;
	const struct store_idempotency *record = append->idempotency;
	if (record && !record->key) {
		event_arrays_free(&arrays);
		store__say(store, "store_append: an idempotency record without key");
		return STORE_INVALID;
	}
	PGresult *result;
	enum store_status status;
	if (!append->snapshot && !record && !append->timer && append->status == STORE_NO_STATUS &&
	    append->version > 0) {
		int32_t inserted = -1;
		if (store->committer) {
			/* With a committer, in one statement with other games' appends
			 * (db/committer.c). */
			int all = 0;
			result = NULL;
			status = store__committer_append(store->committer, append->game_id, append->version,
							 append->events, append->event_count, &all, store->message);
			inserted = all ? append->event_count : 0;
		} else if (append->event_count == 1) {
			/* Most appends are one event: scalar parameters, no arrays to parse. */
			const struct store_event *event = &append->events[0];
			struct params single = {0};
			param_int(&single, append->game_id);
			param_int(&single, append->version);
			param_int(&single, event->type);
			param_int(&single, event->actor);
			param_int(&single, event->origin);
			param_text(&single, event->payload);
			status = write_and_wake(store, &statement_append_event, &single, append->game_id, version,
						&result);
		} else {
			status = write_and_wake(store, &statement_append_events, &params, append->game_id, version,
						&result);
		}
		if (status == STORE_OK && result && (PQntuples(result) != 1 || !get_int32(result, 0, 0, &inserted)))
			status = store__corrupt(store, append->game_id,
						"an append did not say how many events it inserted");
		if (status == STORE_OK && inserted == 0) {
			/* Event `version` is not there: no game, or not this version of it. */
			int32_t current;
			status = store_version(store, append->game_id, &current);
			if (status == STORE_OK) {
				store__say(store, "the game is at version %d, not %d", (int)current,
					   (int)append->version);
				status = STORE_CONFLICT;
			}
		} else if (status == STORE_OK && inserted != append->event_count) {
			status = store__corrupt(store, append->game_id, "an append inserted another number of events");
		}
		PQclear(result);
		event_arrays_free(&arrays);
		return status;
	}
	if (append->status == STORE_NO_STATUS)
		param_null(&params);
	else
		param_int(&params, append->status);
	params_snapshot(&params, append->snapshot);
	if (record) {
		param_text(&params, record->key);
		param_bytes(&params, record->request_hash, STORE_HASH_SIZE);
		param_int(&params, record->status);
		param_text(&params, record->response ? record->response : "");
	} else {
		for (int i = 0; i < 4; i++)
			param_null(&params);
	}
	params_timer(&params, append->timer);
	/* A seat's bank the move changed (0030_seat_clocks.sql): NULL seat, no change. */
	if (append->timer && append->timer->banked) {
		param_int(&params, append->timer->bank_seat);
		param_int(&params, append->timer->bank_ms);
	} else {
		param_null(&params);
		param_null(&params);
	}
	status = write_and_wake(store, &statement_append, &params, append->game_id, version, &result);
	if (status == STORE_OK) {
		int32_t returned;
		if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &returned) || returned != version)
			status = store__corrupt(store, append->game_id, "catan_append returned an unexpected version");
	}
	PQclear(result);
	event_arrays_free(&arrays);
	return status;
}

enum store_status store_put_snapshot(struct store *store, int64_t game_id, int32_t seq,
				     const struct store_snapshot *snapshot)
{
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seq);
	param_int(&params, snapshot->format_version);
	param_bytes(&params, snapshot->state, snapshot->size);
	PGresult *result;
	enum store_status status = store__run(store, &statement_put_snapshot, &params, 0, &result);
	if (status == STORE_OK) {
		int32_t found;
		if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &found))
			status = store__corrupt(store, game_id, "put_snapshot returned no row");
		else if (!found) {
			store__say(store, "no version %d to keep a snapshot of", (int)seq);
			status = STORE_NOT_FOUND;
		}
	}
	PQclear(result);
	return status;
}

enum store_status store_set_away(struct store *store, int64_t game_id, int seat, int away, int32_t version,
				 const struct store_event *event, const struct store_timer_set *timer, int *outcome)
{
	store->message[0] = '\0';
	*outcome = STORE_AWAY_NO_SEAT;
	if (!event || !event->payload) {
		store__say(store, "store_set_away: no event");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_text(&params, away ? "t" : "f");
	param_int(&params, version);
	param_int(&params, event->type);
	param_text(&params, event->payload);
	params_timer(&params, timer);
	PGresult *result;
	enum store_status status = write_and_wake(store, &statement_seat_away, &params, game_id, version + 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t after;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, outcome) || !get_int32(result, 0, 1, &after))
		status = store__corrupt(store, game_id, "an away answer with malformed columns");
	PQclear(result);
	return status;
}

/* ---- Reading ---------------------------------------------------------------------------------- */

void store_log_free(struct store_log *log)
{
	free(log->rows);
	log->rows = NULL;
	log->count = 0;
}

/* Copy the event rows first..PQntuples-1 of a load/read result into *log (one allocation:
 * the rows, then their payloads). The rows must follow on from seq `after`. */
static enum store_status copy_log(struct store *store, int64_t game_id, const PGresult *result, int first,
				  int32_t after, struct store_log *log)
{
	int count = PQntuples(result) - first;
	size_t text_size = 0;
	for (int row = first; row < first + count; row++)
		text_size += (size_t)PQgetlength(result, row, LOG_PAYLOAD) + 1;
	char *block = store_alloc(sizeof(struct store_event_row) * (size_t)count + text_size);
	log->rows = (struct store_event_row *)(void *)block;
	log->count = count;
	char *text = block + sizeof(struct store_event_row) * (size_t)count;
	for (int i = 0; i < count; i++) {
		int row = first + i;
		struct store_event_row *event = &log->rows[i];
		if (!get_int32(result, row, LOG_SEQ, &event->seq) || !get_int16(result, row, LOG_TYPE, &event->type) ||
		    !get_int16(result, row, LOG_ACTOR, &event->actor) ||
		    !get_int16(result, row, LOG_ORIGIN, &event->origin) ||
		    !get_timestamp(result, row, LOG_CREATED_AT, &event->created_at_us) ||
		    PQgetisnull(result, row, LOG_PAYLOAD)) {
			store_log_free(log);
			return store__corrupt(store, game_id, "an event row with missing or malformed columns");
		}
		if (after >= 0 && event->seq != after + 1 + i) {
			store_log_free(log);
			return store__corrupt(store, game_id, "the event log has a gap");
		}
		size_t size = (size_t)PQgetlength(result, row, LOG_PAYLOAD);
		memcpy(text, PQgetvalue(result, row, LOG_PAYLOAD), size);
		text[size] = '\0';
		event->payload = text;
		event->payload_size = size;
		text += size + 1;
	}
	return STORE_OK;
}

enum store_status store_load(struct store *store, int64_t game_id, int format_version, void *state, size_t state_size,
			     struct store_loaded *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, format_version);
	param_int(&params, (long long)state_size);
	PGresult *result;
	enum store_status status = store__run(store, &statement_load, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t header_seq;
	if (PQntuples(result) == 0 || !get_int32(result, 0, LOG_SEQ, &header_seq) || header_seq != 0) {
		PQclear(result);
		store__say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	if (!get_int16(result, 0, LOG_TYPE, &out->status) || !get_int16(result, 0, LOG_ACTOR, &out->seats) ||
	    !get_int64(result, 0, LOG_SEED, &out->seed) ||
	    !get_int32(result, 0, LOG_SNAPSHOT_SEQ, &out->snapshot_seq) || out->snapshot_seq < 0) {
		PQclear(result);
		return store__corrupt(store, game_id, "a games row with missing or malformed columns");
	}
	if (out->snapshot_seq > 0) {
		/* The statement only returns a state of exactly state_size bytes. */
		if (PQgetisnull(result, 0, LOG_STATE) || (size_t)PQgetlength(result, 0, LOG_STATE) != state_size) {
			PQclear(result);
			return store__corrupt(store, game_id, "a snapshot of the wrong size");
		}
		memcpy(state, PQgetvalue(result, 0, LOG_STATE), state_size);
	}
	if (!PQgetisnull(result, 0, LOG_SERVER_SEED)) {
		if (PQgetlength(result, 0, LOG_SERVER_SEED) != STORE_SERVER_SEED_SIZE) {
			PQclear(result);
			return store__corrupt(store, game_id, "a server seed of the wrong size");
		}
		memcpy(out->server_seed, PQgetvalue(result, 0, LOG_SERVER_SEED), STORE_SERVER_SEED_SIZE);
		out->has_server_seed = 1;
	}
	status = copy_log(store, game_id, result, 1, out->snapshot_seq, &out->log);
	PQclear(result);
	return status;
}

/* The events of game_id after `after`, at most `limit`, by `statement`: READ_EVENTS (a
 * header row first, none for an unknown game) or READ_TAIL (the events alone). */
static enum store_status read_log(struct store *store, const struct store_statement *statement, int64_t game_id,
				  int32_t after, int limit, struct store_log *out)
{
	memset(out, 0, sizeof *out);
	if (after < 0 || limit < 0) {
		store__say(store, "reading the log: after %d, limit %d", (int)after, limit);
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, after);
	param_int(&params, limit);
	PGresult *result;
	enum store_status status = store__run(store, statement, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int first = 0;
	if (statement == &statement_read_events) {
		int32_t header_seq;
		if (PQntuples(result) == 0 || !get_int32(result, 0, LOG_SEQ, &header_seq) || header_seq != 0) {
			PQclear(result);
			store__say(store, "no such game");
			return STORE_NOT_FOUND;
		}
		first = 1;
	}
	status = copy_log(store, game_id, result, first, after, out);
	PQclear(result);
	return status;
}

enum store_status store_read_events(struct store *store, int64_t game_id, int32_t after, int limit,
				    struct store_log *out)
{
	return read_log(store, &statement_read_events, game_id, after, limit, out);
}

enum store_status store_read_tail(struct store *store, int64_t game_id, int32_t after, int limit, struct store_log *out)
{
	return read_log(store, &statement_read_tail, game_id, after, limit, out);
}

enum store_status store_read_events_of_types(struct store *store, int64_t game_id, int32_t after, int type_low,
					     int type_high, int limit, struct store_log *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, after);
	param_int(&params, type_low);
	param_int(&params, type_high);
	param_int(&params, limit);
	PGresult *result;
	enum store_status status = store__run(store, &statement_read_types, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	status = copy_log(store, game_id, result, 0, -1, out); /* not contiguous: no gap check */
	PQclear(result);
	return status;
}

enum store_status store_version(struct store *store, int64_t game_id, int32_t *version)
{
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_version, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		store__say(store, "no such game");
		status = STORE_NOT_FOUND;
	} else if (!get_int32(result, 0, 0, version)) {
		status = store__corrupt(store, game_id, "a version that is not an integer");
	}
	PQclear(result);
	return status;
}

enum store_status store_find_token(struct store *store, int64_t game_id, const uint8_t hash[STORE_HASH_SIZE], int *seat)
{
	struct params params = {0};
	param_int(&params, game_id);
	param_bytes(&params, hash, STORE_HASH_SIZE);
	PGresult *result;
	enum store_status status = store__run(store, &statement_find_token, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		store__say(store, "no such token");
		status = STORE_NOT_FOUND;
	} else if (!get_int16(result, 0, 0, seat)) {
		status = store__corrupt(store, game_id, "a seat that is not an integer");
	}
	PQclear(result);
	return status;
}

void store_game_info_free(struct store_game_info *info)
{
	free(info->options);
	for (int seat = 0; seat < STORE_MAX_SEATS; seat++)
		free(info->names[seat]);
	memset(info, 0, sizeof *info);
}

enum store_status store_game_info(struct store *store, int64_t game_id, struct store_game_info *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_game_info, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		PQclear(result);
		store__say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	if (!get_int64(result, 0, 0, &out->seed) || !get_int16(result, 0, 1, &out->status) ||
	    !get_int16(result, 0, 2, &out->seats) || !get_timestamp(result, 0, 3, &out->created_at_us) ||
	    !get_timestamp(result, 0, 4, &out->updated_at_us) || PQgetisnull(result, 0, 5) || out->seats < 1 ||
	    out->seats > STORE_MAX_SEATS || PQntuples(result) != out->seats) {
		PQclear(result);
		return store__corrupt(store, game_id, "a games row that does not match its seats");
	}
	out->options = store_strndup(PQgetvalue(result, 0, 5), (size_t)PQgetlength(result, 0, 5));
	for (int row = 0; row < out->seats; row++) {
		int seat, bot;
		if (!get_int16(result, row, 6, &seat) || seat != row || !get_bool(result, row, 7, &bot)) {
			PQclear(result);
			store_game_info_free(out);
			return store__corrupt(store, game_id, "seats that are not numbered 0, 1, 2 ...");
		}
		out->bots[seat] = bot;
		int away = 0;
		if (!PQgetisnull(result, row, 9) && !get_bool(result, row, 9, &away)) {
			PQclear(result);
			store_game_info_free(out);
			return store__corrupt(store, game_id, "a seat's away flag is not a boolean");
		}
		out->away[seat] = away;
		if (!PQgetisnull(result, row, 8))
			out->names[seat] =
				store_strndup(PQgetvalue(result, row, 8), (size_t)PQgetlength(result, row, 8));
	}
	PQclear(result);
	return STORE_OK;
}
