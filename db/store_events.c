/*
 * store_write.c - the store's writes: creating a game, appending events (with, at times, a
 * snapshot, a status and an idempotency record), keeping a snapshot, keeping a response.
 *
 * Events travel as four parallel array literals (types, actors, origins, payload texts);
 * the payloads are not parsed here, only quoted. An append of events alone is one plain
 * INSERT (STATEMENT_APPEND_EVENTS); anything more goes through catan_append(). Either way
 * it is one statement and one transaction, and the listeners are woken after it commits.
 */
#include "db/store_internal.h"

#include <openssl/rand.h>

#define STORE_ID_ATTEMPTS 4

int store__random_id(int64_t *id)
{
	uint64_t value = 0;
	while (value == 0) {
		unsigned char bytes[8];
		if (RAND_bytes(bytes, sizeof bytes) != 1)
			return 0;
		for (int i = 0; i < 8; i++)
			value = value << 8 | bytes[i];
		value &= (uint64_t)INT64_MAX;
	}
	*id = (int64_t)value;
	return 1;
}

/* Run a write and wake the listeners of (game_id, version) once it has committed: through
 * the store's notifier when it has one, else in the same pipeline. */
static enum store_status write_and_wake(struct store *store, enum statement statement, const struct params *params,
					int64_t game_id, int32_t version, PGresult **out)
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

/* The timer parameters of catan_set_timer(): NULL kind leaves the timer alone. */
static void params_timer(struct params *params, const struct store_timer_set *timer)
{
	if (timer) {
		param_int(params, timer->kind);
		param_int(params, timer->due_ms);
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
 * seats (all "f" without `open`), token hashes and players. */
struct new_game_arrays {
	struct event_arrays events;
	struct buffer names, bots, open, players;
	uint8_t tokens[STORE_MAX_SEATS * STORE_HASH_SIZE];
};

static void new_game_arrays_free(struct new_game_arrays *arrays)
{
	free(arrays->names.data);
	free(arrays->bots.data);
	free(arrays->open.data);
	free(arrays->players.data);
	event_arrays_free(&arrays->events);
}

/* Check `game` and build its arrays (`open`: per seat, or NULL for none); STORE_INVALID
 * (said under the name `what`) when it cannot be a game. */
static enum store_status new_game_arrays_build(struct store *store, const struct store_new_game *game,
					       const int *open, const char *what, struct new_game_arrays *arrays)
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
	PGresult *result;
	enum store_status status = write_and_wake(store, STATEMENT_CREATE_GAME, &params, id, game->event_count, &result);
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
						const struct new_game_arrays *arrays, const struct store_waiting *waiting)
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
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_CREATE_WAITING, &params, 0, &result);
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
		if (append->event_count == 1) {
			/* Most appends are one event: scalar parameters, no arrays to parse. */
			const struct store_event *event = &append->events[0];
			struct params single = {0};
			param_int(&single, append->game_id);
			param_int(&single, append->version);
			param_int(&single, event->type);
			param_int(&single, event->actor);
			param_int(&single, event->origin);
			param_text(&single, event->payload);
			status = write_and_wake(store, STATEMENT_APPEND_EVENT, &single, append->game_id, version, &result);
		} else {
			status = write_and_wake(store, STATEMENT_APPEND_EVENTS, &params, append->game_id, version, &result);
		}
		int32_t inserted = -1;
		if (status == STORE_OK && (PQntuples(result) != 1 || !get_int32(result, 0, 0, &inserted)))
			status = store__corrupt(store, append->game_id, "an append did not say how many events it inserted");
		if (status == STORE_OK && inserted == 0) {
			/* Event `version` is not there: no game, or not this version of it. */
			int32_t current;
			status = store_version(store, append->game_id, &current);
			if (status == STORE_OK) {
				store__say(store, "the game is at version %d, not %d", (int)current, (int)append->version);
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
	status = write_and_wake(store, STATEMENT_APPEND, &params, append->game_id, version, &result);
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
	enum store_status status = store__run(store, STATEMENT_PUT_SNAPSHOT, &params, 0, &result);
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

enum store_status store_idempotency_put(struct store *store, int64_t game_id,
					const struct store_idempotency *record)
{
	if (!record->key) {
		store__say(store, "store_idempotency_put: no key");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, record->status);
	param_text(&params, record->key);
	param_bytes(&params, record->request_hash, STORE_HASH_SIZE);
	param_text(&params, record->response ? record->response : "");
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_IDEMPOTENCY_PUT, &params, 0, &result);
	if (status == STORE_OK && strcmp(PQcmdTuples(result), "1") != 0) {
		store__say(store, "no such game");
		status = STORE_NOT_FOUND;
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
	enum store_status status = write_and_wake(store, STATEMENT_SEAT_AWAY, &params, game_id, version + 1, &result);
	if (status != STORE_OK)
		return status;
	int32_t after;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, outcome) || !get_int32(result, 0, 1, &after))
		status = store__corrupt(store, game_id, "an away answer with malformed columns");
	PQclear(result);
	return status;
}
