/*
 * game_repo.c - load and append engine games through the event store.
 *
 * Loading: the store returns the latest snapshot of this engine's state format (if any)
 * and the events after it, in one statement. The snapshot is copied into the state as is
 * (same format version, same size: the store checks both), then each event row is parsed
 * by the codec, checked with apply_event_valid() against the state so far and applied. A
 * row that fails any step stops the load with STORE_CORRUPT naming its seq: a damaged
 * table is reported, never applied into memory. The payload does not repeat the event's
 * type, which the row's type column holds (codec_payload_dump/parse: 25 bytes less per
 * event); a payload that does not fit its type is corrupt. The rebuilt version must agree
 * with the log.
 *
 * Appending: each event is dumped to its compact JSON text, and all of a decision's events
 * go to the store in one append. A snapshot of the state after them goes with the append
 * whenever the version crosses a multiple of snapshot_every, so at most snapshot_every - 1
 * plus one decision's events are ever replayed. The status column follows the phase
 * (setup, playing, finished) and is only sent when it changes.
 *
 * Choice of GAME_REPO_SNAPSHOT_EVERY, measured with `make bench-store` (2 CPUs, a local
 * socket): a load costs a round trip plus about 2 us per event replayed (fetch, parse,
 * check, apply): 120-180 us for a 20-event game (no snapshot), and for a 2,000-event game
 * 0.9x that with 16 events replayed, 1.1x with 32, 1.4-1.5x with 64, 1.8x with 97. Each
 * snapshot written costs the appends: with 16 writers, 77% of pgbench's insert rate with
 * no snapshots, 64-69% with one every 32 events, 69-79% every 64. At 64 a long game
 * replays 32 events on average (1.1x a 20-event game) and about 64 at worst (the 1.5x of
 * the target); a snapshot (664 bytes) rides along with one append in ~55.
 *
 * A game whose snapshot is missing or of another format (an engine upgrade) is replayed
 * from its first event; when that replays many events the load writes a snapshot of the
 * current format, so the next load is fast again.
 */
#include "game/game_repo.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "codec/log.h"
#include "engine/apply.h"

__attribute__((format(printf, 2, 3))) static void say(struct game_repo *repo, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	vsnprintf(repo->message, sizeof repo->message, format, args);
	va_end(args);
}

static enum store_status store_failed(struct game_repo *repo, enum store_status status)
{
	say(repo, "%s: %s", store_status_message(status), store_message(repo->store));
	return status;
}

void game_repo_init(struct game_repo *repo, struct store *store, int snapshot_every)
{
	memset(repo, 0, sizeof *repo);
	repo->store = store;
	repo->snapshot_every = snapshot_every > 0 ? snapshot_every : 0;
}

const char *game_repo_message(const struct game_repo *repo)
{
	return repo->message;
}

enum game_repo_status game_repo_status_of(const struct game *game)
{
	if (game->phase == GAME_PHASE_FINISHED)
		return GAME_REPO_FINISHED;
	if (game->phase == GAME_PHASE_NONE || game_in_setup(game))
		return GAME_REPO_SETUP;
	return GAME_REPO_PLAYING;
}

/* Whether going from version `before` to `after` crosses a multiple of snapshot_every. */
static int snapshot_due(const struct game_repo *repo, uint32_t before, uint32_t after)
{
	return repo->snapshot_every > 0 &&
	       before / (uint32_t)repo->snapshot_every != after / (uint32_t)repo->snapshot_every;
}

/* The events' texts (caller frees each) and store rows. */
static void dump_events(const struct event_list *events, int seats, int actor, int origin, char **texts,
			struct store_event *rows)
{
	for (int i = 0; i < events->count; i++) {
		texts[i] = codec_payload_dump(&events->events[i], seats);
		rows[i].type = events->events[i].type;
		rows[i].actor = actor;
		rows[i].origin = origin;
		rows[i].payload = texts[i];
	}
}

static void free_texts(char **texts, int count)
{
	for (int i = 0; i < count; i++)
		free(texts[i]);
}

enum store_status game_repo_create(struct game_repo *repo, const struct store_new_game *game,
				   const struct event_list *events, const struct game *after, int64_t *id)
{
	repo->message[0] = '\0';
	char *texts[EVENT_LIST_MAX];
	struct store_event rows[EVENT_LIST_MAX];
	dump_events(events, after->options.seats, STORE_NO_ACTOR, STORE_ORIGIN_PLAYER, texts, rows);
	struct store_new_game create = *game;
	create.status = game_repo_status_of(after);
	create.events = rows;
	create.event_count = events->count;
	struct store_snapshot snapshot = {GAME_FORMAT_VERSION, after, sizeof *after};
	create.snapshot = snapshot_due(repo, 0, after->version) ? &snapshot : NULL;
	enum store_status status = store_create_game(repo->store, &create, id);
	free_texts(texts, events->count);
	return status == STORE_OK ? STORE_OK : store_failed(repo, status);
}

enum store_status game_repo_import(struct game_repo *repo, const struct store_new_game *game,
				   const struct event *events, int count, const int *actors, const int *origins,
				   const struct game *after, int64_t *id)
{
	repo->message[0] = '\0';
	char **texts = xmalloc(sizeof *texts * (size_t)(count > 0 ? count : 1));
	struct store_event *rows = xmalloc(sizeof *rows * (size_t)(count > 0 ? count : 1));
	for (int i = 0; i < count; i++) {
		struct event_list one;
		one.count = 1;
		one.events[0] = events[i];
		dump_events(&one, after->options.seats, actors[i], origins[i], &texts[i], &rows[i]);
	}
	struct store_new_game create = *game;
	create.status = game_repo_status_of(after);
	create.events = rows;
	create.event_count = count;
	/* The state after the whole log beside it: the first load replays nothing. */
	struct store_snapshot snapshot = {GAME_FORMAT_VERSION, after, sizeof *after};
	create.snapshot = &snapshot;
	enum store_status status = store_create_game(repo->store, &create, id);
	free_texts(texts, count);
	free(texts);
	free(rows);
	return status == STORE_OK ? STORE_OK : store_failed(repo, status);
}

enum store_status game_repo_create_waiting(struct game_repo *repo, const struct store_new_game *game,
					   struct store_waiting *waiting, const struct event_list *events,
					   const struct game *after, int64_t *id)
{
	repo->message[0] = '\0';
	char *texts[EVENT_LIST_MAX];
	struct store_event rows[EVENT_LIST_MAX];
	dump_events(events, after->options.seats, STORE_NO_ACTOR, STORE_ORIGIN_PLAYER, texts, rows);
	struct store_new_game create = *game;
	create.events = rows;
	create.event_count = events->count;
	waiting->start_status = game_repo_status_of(after);
	enum store_status status = store_create_waiting_game(repo->store, &create, waiting, id);
	free_texts(texts, events->count);
	return status == STORE_OK ? STORE_OK : store_failed(repo, status);
}

enum store_status game_repo_append(struct game_repo *repo, int64_t id, const struct game *before,
				   const struct event_list *events, const struct game *after, int actor, int origin,
				   const struct store_idempotency *idempotency, const struct store_timer_set *timer)
{
	repo->message[0] = '\0';
	char *texts[EVENT_LIST_MAX];
	struct store_event rows[EVENT_LIST_MAX];
	dump_events(events, after->options.seats, actor, origin, texts, rows);
	struct store_snapshot snapshot = {GAME_FORMAT_VERSION, after, sizeof *after};
	enum game_repo_status was = game_repo_status_of(before), is = game_repo_status_of(after);
	struct store_append append = {
		.game_id = id,
		.version = (int32_t)before->version,
		.events = rows,
		.event_count = events->count,
		.status = was != is ? (int)is : STORE_NO_STATUS,
		.snapshot = snapshot_due(repo, before->version, after->version) ? &snapshot : NULL,
		.idempotency = idempotency,
		.timer = timer,
	};
	enum store_status status = store_append(repo->store, &append);
	free_texts(texts, events->count);
	return status == STORE_OK ? STORE_OK : store_failed(repo, status);
}

/* A snapshot is only bytes; these are the facts a state of that version must show before
 * events are applied to it. */
static int snapshot_plausible(const struct game *game, int32_t seq)
{
	return game->version == (uint32_t)seq && game->options.seats >= GAME_MIN_SEATS &&
	       game->options.seats <= GAME_MAX_SEATS && game->phase > GAME_PHASE_NONE && game->phase < GAME_PHASE_COUNT;
}

static enum store_status corrupt(struct game_repo *repo, int64_t id, int32_t seq, const char *what, const char *detail)
{
	char text[STORE_ID_TEXT_SIZE];
	store_format_id(id, text);
	say(repo, "game %s, event %d: %s%s%s", text, (int)seq, what, detail ? ": " : "", detail ? detail : "");
	return STORE_CORRUPT;
}

/* Parse, check and apply each row of `log` to *game, stopping at the first bad one. */
static enum store_status replay(struct game_repo *repo, int64_t id, const struct store_log *log, struct game *game)
{
	for (int i = 0; i < log->count; i++) {
		const struct store_event_row *row = &log->rows[i];
		struct event event;
		struct codec_error error;
		if (!codec_payload_parse(row->type, row->payload, row->payload_size, &event, &error))
			return corrupt(repo, id, row->seq, "unreadable payload", error.message);
		if (!apply_event_valid(game, &event))
			return corrupt(repo, id, row->seq, "the event cannot apply to the game",
				       event_type_name(event.type));
		apply_event(game, &event);
		if (event_changes_seat_holder(event.type))
			repo->seats_changed = 1;
		if (event.type == EVENT_PLAYER_SEED_SET || event.type == EVENT_SEEDS_FIXED)
			repo->seeds_changed = 1;
	}
	return STORE_OK;
}

enum store_status game_repo_load(struct game_repo *repo, int64_t id, struct game *game, int64_t *seed)
{
	struct game_repo_secrets secrets;
	enum store_status status = game_repo_load_secrets(repo, id, game, &secrets);
	if (status == STORE_OK && seed)
		*seed = secrets.seed;
	return status;
}

enum store_status game_repo_load_secrets(struct game_repo *repo, int64_t id, struct game *game,
					 struct game_repo_secrets *secrets)
{
	repo->message[0] = '\0';
	memset(game, 0, sizeof *game);
	struct store_loaded loaded;
	enum store_status status = store_load(repo->store, id, GAME_FORMAT_VERSION, game, sizeof *game, &loaded);
	if (status != STORE_OK)
		return store_failed(repo, status);
	if (loaded.status == STORE_STATUS_WAITING || loaded.status == STORE_STATUS_EXPIRED) {
		/* Open seats: the game has no events until its last seat is taken (game/lobby.h),
		 * and never will once it expired waiting. */
		store_log_free(&loaded.log);
		snprintf(repo->message, sizeof repo->message, "%s",
			 loaded.status == STORE_STATUS_EXPIRED ? "the game expired waiting for players"
							       : "the game waits for players");
		return STORE_NOT_STARTED;
	}
	if (loaded.snapshot_seq > 0 && !snapshot_plausible(game, loaded.snapshot_seq)) {
		store_log_free(&loaded.log);
		memset(game, 0, sizeof *game);
		return corrupt(repo, id, loaded.snapshot_seq, "the snapshot is not a state of this version", NULL);
	}
	status = replay(repo, id, &loaded.log, game);
	int32_t version = loaded.log.count ? loaded.log.rows[loaded.log.count - 1].seq : loaded.snapshot_seq;
	if (status == STORE_OK && game->version != (uint32_t)version)
		status = corrupt(repo, id, version, "the rebuilt state has another version", NULL);
	if (status == STORE_OK && repo->snapshot_every > 0 && loaded.log.count >= 2 * repo->snapshot_every) {
		/* Best effort: a failure here only means the next load replays again. */
		struct store_snapshot snapshot = {GAME_FORMAT_VERSION, game, sizeof *game};
		(void)store_put_snapshot(repo->store, id, version, &snapshot);
	}
	if (status == STORE_OK) {
		secrets->seed = loaded.seed;
		secrets->has_server_seed = loaded.has_server_seed;
		memcpy(secrets->server_seed, loaded.server_seed, sizeof secrets->server_seed);
	}
	if (status != STORE_OK)
		memset(game, 0, sizeof *game);
	store_log_free(&loaded.log);
	return status;
}

enum store_status game_repo_catch_up(struct game_repo *repo, int64_t id, struct game *game)
{
	repo->message[0] = '\0';
	/* Beyond a few snapshots' worth of events a fresh load (snapshot + tail) is cheaper. */
	int limit = 4 * (repo->snapshot_every > 0 ? repo->snapshot_every : GAME_REPO_SNAPSHOT_EVERY);
	struct store_log log;
	enum store_status status = store_read_tail(repo->store, id, (int32_t)game->version, limit, &log);
	if (status != STORE_OK)
		return store_failed(repo, status);
	if (log.count == limit) {
		store_log_free(&log);
		repo->seats_changed = 1;
		repo->seeds_changed = 1;
		struct game fresh;
		status = game_repo_load(repo, id, &fresh, NULL);
		if (status == STORE_OK)
			memcpy(game, &fresh, sizeof fresh);
		return status;
	}
	struct game caught_up;
	memcpy(&caught_up, game, sizeof caught_up);
	status = replay(repo, id, &log, &caught_up);
	if (status == STORE_OK)
		memcpy(game, &caught_up, sizeof caught_up);
	store_log_free(&log);
	return status;
}

enum store_status game_repo_load_at(struct game_repo *repo, int64_t id, int32_t version, struct game *game)
{
	repo->message[0] = '\0';
	struct game state;
	memset(&state, 0, sizeof state);
	while ((int32_t)state.version < version) {
		int limit = version - (int32_t)state.version;
		if (limit > GAME_REPO_REPLAY_BATCH)
			limit = GAME_REPO_REPLAY_BATCH;
		struct store_log log;
		enum store_status status = store_read_events(repo->store, id, (int32_t)state.version, limit, &log);
		if (status != STORE_OK)
			return store_failed(repo, status);
		int count = log.count;
		status = replay(repo, id, &log, &state);
		store_log_free(&log);
		if (status != STORE_OK)
			return status;
		if (count == 0) {
			say(repo, "game has no version %d", (int)version);
			return STORE_NOT_FOUND;
		}
	}
	memcpy(game, &state, sizeof state);
	return STORE_OK;
}
