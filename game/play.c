/*
 * play.c - the game service (see play.h).
 *
 * The cache: a fixed table of game records (state + what the games row keeps), one mutex
 * per slot, copied in and out whole. An entry is a copy of a state that is in the log at
 * its version; a reader brings its copy up to date by reading the events after that
 * version (one small query), a writer appends at that version and learns from a conflict
 * that it was stale. Token lookups are cached with the entry (the hash compared in constant
 * time) until a token of the game is replaced: play_forget_tokens(), called here for a
 * replacement made by this server and by the listener (api/notify.c) for every other's.
 *
 * A move is decided on the state the caller loaded, often the cached one, without a
 * database read; a stale copy shows up as an append conflict (decide again on the fresh
 * state) or as a refusal (refresh, and decide again before answering it). So a move costs
 * one round trip to the database in the common case.
 */
#include "game/play.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/xalloc.h"
#include "codec/log.h"
#include "codec/shapes.h"
#include "db/committer.h"
#include "db/notifier.h"
#include "db/store_events.h"
#include "db/store_idempotency.h"
#include "db/store_lobby.h"
#include "db/store_ratings.h"
#include "db/store_timers.h"
#include "engine/apply.h"
#include "engine/autoplay.h"
#include "engine/legal.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "game/actions.h"
#include "game/auth.h"
#include "game/fairness.h"
#include "game/game_repo.h"
#include "game/import.h"
#include "game/play_internal.h"
#include "game/seat_clocks.h"
#include "game/zones.h"

#define CACHE_SLOTS 4096
#define TOKEN_CACHE 8

struct cache_entry {
	pthread_mutex_t lock;
	int used;
	struct game_record record;
	int token_count;
	uint8_t token_hashes[TOKEN_CACHE][AUTH_HASH_SIZE];
	int token_seats[TOKEN_CACHE];
};

static struct cache_entry *cache;
static char *conninfo;
static struct play_hooks hooks;
static pthread_key_t store_key;
static struct store_notifier *notifier;	  /* shared by every thread's store: see db/notifier.c */
static struct store_committer *committer; /* shared likewise, NULL for none: db/committer.c */
static atomic_int stopping;

static void close_store(void *store)
{
	store_close(store);
}

void play_init(const char *database_url, const struct play_hooks *given)
{
	memset(&hooks, 0, sizeof hooks);
	if (given)
		hooks = *given;
	conninfo = database_url ? xstrdup(database_url) : NULL;
	cache = xcalloc(CACHE_SLOTS, sizeof *cache);
	for (int i = 0; i < CACHE_SLOTS; i++)
		pthread_mutex_init(&cache[i].lock, NULL);
	pthread_key_create(&store_key, close_store);
	store_notifier_open(database_url, &notifier);
	store_committer_open(database_url, STORE_COMMITTER_CONNECTIONS, STORE_COMMITTER_MAX_BATCH, notifier,
			     &committer);
	atomic_store(&stopping, 0);
}

void play_set_group_commit(int connections, int max_batch)
{
	store_committer_close(committer);
	committer = NULL;
	if (connections > 0 && max_batch > 0)
		store_committer_open(conninfo, connections, max_batch, notifier, &committer);
}

void play_shutdown_begin(void)
{
	atomic_store(&stopping, 1);
}

void play_shutdown(void)
{
	struct store *store = pthread_getspecific(store_key);
	if (store) {
		store_close(store);
		pthread_setspecific(store_key, NULL);
	}
	for (int i = 0; i < CACHE_SLOTS; i++)
		pthread_mutex_destroy(&cache[i].lock);
	free(cache);
	cache = NULL;
	store_committer_close(committer);
	committer = NULL;
	store_notifier_close(notifier);
	notifier = NULL;
	free(conninfo);
	conninfo = NULL;
}

struct store *play_thread_store(void)
{
	struct store *store = pthread_getspecific(store_key);
	if (!store) {
		store_open(conninfo, &store);
		store_use_notifier(store, notifier);
		store_use_committer(store, committer);
		pthread_setspecific(store_key, store);
	}
	return store;
}

/* ---- The cache ---- */

static struct cache_entry *slot_for(int64_t id)
{
	uint64_t h = (uint64_t)id * UINT64_C(0x9e3779b97f4a7c15);
	return &cache[(h >> 40) % CACHE_SLOTS];
}

static int cache_get(int64_t id, struct game_record *out)
{
	struct cache_entry *entry = slot_for(id);
	pthread_mutex_lock(&entry->lock);
	int hit = entry->used && entry->record.id == id;
	if (hit)
		memcpy(out, &entry->record, sizeof *out);
	pthread_mutex_unlock(&entry->lock);
	return hit;
}

/* Keep `record` unless the slot holds a newer state of the same game. */
static void cache_put(const struct game_record *record)
{
	struct cache_entry *entry = slot_for(record->id);
	pthread_mutex_lock(&entry->lock);
	if (!entry->used || entry->record.id != record->id) {
		entry->used = 1;
		entry->token_count = 0;
		memcpy(&entry->record, record, sizeof *record);
	} else if (entry->record.state.version < record->state.version) {
		memcpy(&entry->record.state, &record->state, sizeof record->state);
		/* Who plays each seat moves with the log (seat_away, seat_back). */
		memcpy(entry->record.bots, record->bots, sizeof record->bots);
		memcpy(entry->record.away, record->away, sizeof record->away);
		/* And the players' seeds (player_seed_set, seeds_fixed). */
		memcpy(entry->record.player_seeds, record->player_seeds, sizeof record->player_seeds);
		entry->record.seeds_from = record->seeds_from;
	}
	pthread_mutex_unlock(&entry->lock);
}

static int cache_find_token(int64_t id, const uint8_t hash[AUTH_HASH_SIZE], int *seat)
{
	struct cache_entry *entry = slot_for(id);
	int found = 0;
	pthread_mutex_lock(&entry->lock);
	if (entry->used && entry->record.id == id) {
		for (int i = 0; i < entry->token_count; i++) {
			if (auth_equal(entry->token_hashes[i], hash)) {
				*seat = entry->token_seats[i];
				found = 1;
			}
		}
	}
	pthread_mutex_unlock(&entry->lock);
	return found;
}

static void cache_add_token(int64_t id, const uint8_t hash[AUTH_HASH_SIZE], int seat)
{
	struct cache_entry *entry = slot_for(id);
	pthread_mutex_lock(&entry->lock);
	if (entry->used && entry->record.id == id && entry->token_count < TOKEN_CACHE) {
		memcpy(entry->token_hashes[entry->token_count], hash, AUTH_HASH_SIZE);
		entry->token_seats[entry->token_count] = seat;
		entry->token_count++;
	}
	pthread_mutex_unlock(&entry->lock);
}

/* ---- Reading ---- */

static void tell_problem(const char *what, const char *game, const char *detail)
{
	if (hooks.problem)
		hooks.problem(what, game, detail);
}

/* Names, bot flags and options from the games row. */
static enum store_status load_info(struct store *store, struct game_record *record)
{
	struct store_game_info info;
	enum store_status status = store_game_info(store, record->id, &info);
	if (status != STORE_OK)
		return status;
	for (int s = 0; s < GAME_MAX_SEATS && s < info.seats; s++) {
		snprintf(record->names[s], PLAY_NAME_SIZE, "%s", info.names[s] ? info.names[s] : "");
		record->bots[s] = (uint8_t)info.bots[s];
		record->away[s] = (uint8_t)info.away[s];
	}
	memset(&record->options, 0, sizeof record->options);
	record->options.game = record->state.options;
	record->options.holiday_allowance_s = CODEC_HOLIDAY_ALLOWANCE_DEFAULT_S;
	json_t *options = json_loads(info.options ? info.options : "{}", 0, NULL);
	if (options) {
		json_t *timeout = json_object_get(options, "turn_timeout_s");
		json_t *on_timeout = json_object_get(options, "on_timeout");
		json_t *offer_wait = json_object_get(options, "offer_wait_s");
		json_t *holidays = json_object_get(options, "holiday_allowance_s");
		record->options.holiday_allowance_s = json_is_integer(holidays) ? (int32_t)json_integer_value(holidays)
										: CODEC_HOLIDAY_ALLOWANCE_DEFAULT_S;
		record->options.rated = json_is_true(json_object_get(options, "rated"));
		/* Games stored before the option never lose a seat to their timeouts. */
		json_t *substitute = json_object_get(options, "substitute_after_timeouts");
		record->options.substitute_after_timeouts =
			json_is_integer(substitute) ? (int32_t)json_integer_value(substitute) : 0;
		json_t *bank = json_object_get(options, "time_bank_s");
		json_t *increment = json_object_get(options, "time_increment_s");
		record->options.time_bank_s = json_is_integer(bank) ? (int32_t)json_integer_value(bank) : 0;
		record->options.time_increment_s =
			json_is_integer(increment) ? (int32_t)json_integer_value(increment) : 0;
		if (json_is_integer(timeout))
			record->options.turn_timeout_s = (int32_t)json_integer_value(timeout);
		if (json_is_string(on_timeout) && strcmp(json_string_value(on_timeout), "bot") == 0)
			record->options.on_timeout = CODEC_ON_TIMEOUT_BOT;
		else if (json_is_string(on_timeout) && strcmp(json_string_value(on_timeout), "skip") == 0)
			record->options.on_timeout = CODEC_ON_TIMEOUT_SKIP;
		codec_options_read_bot_levels(options, &record->options);
		/* Games stored before the option have the default of their turn clock. */
		record->options.offer_wait_s = json_is_integer(offer_wait)
						       ? (int32_t)json_integer_value(offer_wait)
						       : codec_offer_wait_default(record->options.turn_timeout_s);
		json_decref(options);
	}
	store_game_info_free(&info);
	return STORE_OK;
}

/* The players' seeds of a provably fair game from its log (its player_seed_set and
 * seeds_fixed events): the seed each seat set last, up to the fixing. Read a page at a
 * time, so that the scan of a long game's rows stops at its seeds_fixed (at its first roll,
 * near the start) instead of running through the whole log. */
#define SEED_EVENTS_PAGE 16
static enum store_status load_seeds(struct store *store, struct game_record *record)
{
	memset(record->player_seeds, 0, sizeof record->player_seeds);
	record->seeds_from = FAIRNESS_NO_SEEDS;
	if (!record->fair)
		return STORE_OK;
	int32_t after = 0;
	enum store_status status = STORE_OK;
	for (int more = 1; more && status == STORE_OK && record->seeds_from == FAIRNESS_NO_SEEDS;) {
		struct store_log log;
		status = store_read_events_of_types(store, record->id, after, EVENT_PLAYER_SEED_SET, EVENT_SEEDS_FIXED,
						    SEED_EVENTS_PAGE, &log);
		if (status != STORE_OK)
			return status;
		for (int i = 0; i < log.count && record->seeds_from == FAIRNESS_NO_SEEDS; i++) {
			struct event event;
			struct codec_error error;
			if (!codec_payload_parse(log.rows[i].type, log.rows[i].payload, log.rows[i].payload_size,
						 &event, &error)) {
				tell_problem("corrupt game", record->id_text, error.message);
				status = STORE_CORRUPT;
				break;
			}
			if (event.type == EVENT_SEEDS_FIXED)
				record->seeds_from = event.fair.from;
			else if (event.seat >= 0 && event.seat < GAME_MAX_SEATS)
				memcpy(record->player_seeds[event.seat], event.fair.text, sizeof event.fair.text);
		}
		more = log.count == SEED_EVENTS_PAGE;
		if (log.count > 0)
			after = log.rows[log.count - 1].seq;
		store_log_free(&log);
	}
	return status;
}

/* Full load of a game into *record (writing a snapshot when the log since the last one is
 * long and `snapshot_every` is not 0). */
static enum store_status load_record(struct store *store, int64_t id, struct game_record *record, int snapshot_every)
{
	struct game_repo repo;
	game_repo_init(&repo, store, snapshot_every);
	memset(record, 0, sizeof *record);
	record->id = id;
	store_format_id(id, record->id_text);
	struct game_repo_secrets secrets;
	enum store_status status = game_repo_load_secrets(&repo, id, &record->state, &secrets);
	if (status == STORE_OK) {
		record->seed = secrets.seed;
		record->fair = secrets.has_server_seed;
		memcpy(record->server_seed, secrets.server_seed, sizeof record->server_seed);
	}
	if (status == STORE_OK)
		status = load_info(store, record);
	if (status == STORE_CORRUPT)
		tell_problem("corrupt game", record->id_text, game_repo_message(&repo));
	if (status == STORE_OK)
		status = load_seeds(store, record);
	return status;
}

/* Bring game up to the last version `store` has (see play_refresh()); `snapshot_every` as
 * for load_record(). */
static enum store_status refresh_from(struct store *store, struct game_record *game, int snapshot_every)
{
	struct game_repo repo;
	game_repo_init(&repo, store, snapshot_every);
	uint32_t before = game->state.version;
	enum store_status status = game_repo_catch_up(&repo, game->id, &game->state);
	/* A seat went away or came back: its bot flag is in the seats, read them again. */
	if (status == STORE_OK && repo.seats_changed)
		status = load_info(store, game);
	if (status == STORE_OK && repo.seeds_changed)
		status = load_seeds(store, game);
	if (status == STORE_OK && game->state.version != before)
		cache_put(game);
	return status;
}

enum store_status play_refresh(struct game_record *game)
{
	return refresh_from(play_thread_store(), game, GAME_REPO_SNAPSHOT_EVERY);
}

enum store_status play_load(int64_t game_id, int fresh, struct game_record *out)
{
	if (cache_get(game_id, out))
		return fresh ? play_refresh(out) : STORE_OK;
	enum store_status status = load_record(play_thread_store(), game_id, out, GAME_REPO_SNAPSHOT_EVERY);
	if (status == STORE_OK)
		cache_put(out);
	return status;
}

int play_cached(int64_t game_id, struct game_record *out)
{
	return cache_get(game_id, out);
}

enum store_status play__load_from(struct store *store, int64_t game_id, struct game_record *out)
{
	if (cache_get(game_id, out))
		return refresh_from(store, out, 0);
	/* No snapshot is written from here: the store may be a standby's (read-only). */
	enum store_status status = load_record(store, game_id, out, 0);
	if (status == STORE_OK)
		cache_put(out);
	return status;
}

enum store_status play_read_log(int64_t game_id, int32_t after, int limit, struct store_log *out)
{
	return store_read_events(play_thread_store(), game_id, after, limit, out);
}

enum store_status play_state_at(int64_t game_id, int32_t version, struct game *out)
{
	struct game_repo repo;
	game_repo_init(&repo, play_thread_store(), GAME_REPO_SNAPSHOT_EVERY);
	return game_repo_load_at(&repo, game_id, version, out);
}

int play_database_ready(void)
{
	int32_t version;
	enum store_status status = store_version(play_thread_store(), 0, &version);
	return status == STORE_OK || status == STORE_NOT_FOUND;
}

enum store_status play_find_token(int64_t game_id, const uint8_t hash[STORE_HASH_SIZE], int *seat)
{
	if (cache_find_token(game_id, hash, seat))
		return STORE_OK;
	enum store_status status = store_find_token(play_thread_store(), game_id, hash, seat);
	if (status == STORE_OK)
		cache_add_token(game_id, hash, *seat);
	return status;
}

void play_forget_tokens(int64_t game_id)
{
	for (int i = 0; i < CACHE_SLOTS; i++) {
		struct cache_entry *entry = game_id ? slot_for(game_id) : &cache[i];
		pthread_mutex_lock(&entry->lock);
		/* The whole entry: a deleted player's name goes with its token (issue 28). */
		if (!game_id || (entry->used && entry->record.id == game_id)) {
			entry->token_count = 0;
			entry->used = 0;
		}
		pthread_mutex_unlock(&entry->lock);
		if (game_id)
			break;
	}
}

enum store_status play_replace_seat_token(int64_t game_id, int seat, const uint8_t hash[STORE_HASH_SIZE])
{
	enum store_status status = store_replace_seat_token(play_thread_store(), game_id, seat, hash);
	if (status == STORE_OK)
		play_forget_tokens(game_id);
	return status;
}

void play_started(int64_t game_id, int32_t version)
{
	/* The start's timer may be a bot's move due at once: wake the workers. */
	if (hooks.appended)
		hooks.appended(game_id, version, (int)version, 1);
}

/* ---- Timers ---- */

uint8_t play_bot_seats(const struct game_record *game)
{
	uint8_t bots = 0;
	for (int s = 0; s < game->state.options.seats; s++)
		if (game->bots[s])
			bots |= (uint8_t)(1u << s);
	return bots;
}

static atomic_int unattended_pacing = 1;

void play_set_unattended_pacing(int on)
{
	atomic_store(&unattended_pacing, on != 0);
}

int play_unattended(const struct game_record *game)
{
	if (!atomic_load(&unattended_pacing))
		return 0;
	int away = 0;
	for (int s = 0; s < game->state.options.seats; s++) {
		if (!game->bots[s])
			return 0;
		away |= game->away[s];
	}
	return away;
}

/* How a write leaves the wait for people to answer a bot's offer (offer_wait_s): none (the
 * bot moves when it has something to do), a wait that begins (the bot's next move is due
 * offer_wait_s from now), or a wait that goes on across the write (the due time stays). */
enum offer_wait { OFFER_WAIT_NONE, OFFER_WAIT_BEGINS, OFFER_WAIT_GOES_ON };

/* The wait after a write that takes the game from `before` (NULL: none, a new game), with
 * bot seats `bots_before`, to `after` (with the game's bot seats now). The game waits while
 * the active seat is a bot whose open offer some addressed person has not answered
 * (autoplay_offer_awaits()), and only until the bot moves again: `bot_moved` is a move of
 * the active bot other than an offer (the first of which is made when the wait is over, the
 * timer having come due), after which the offer, still open, is waited for no longer. */
static enum offer_wait offer_wait_after(const struct game_record *game, uint8_t bots_before, const struct game *before,
					const struct game *after, int bot_moved)
{
	if (game->options.offer_wait_s <= 0 || bot_moved)
		return OFFER_WAIT_NONE;
	int offer_after, offer_before;
	if (!autoplay_offer_awaits(after, play_bot_seats(game), &offer_after))
		return OFFER_WAIT_NONE;
	if (before && autoplay_offer_awaits(before, bots_before, &offer_before) && offer_before == offer_after)
		return OFFER_WAIT_GOES_ON;
	return OFFER_WAIT_BEGINS;
}

/* Milliseconds from clocks->start_us (the wait's start) to the deadline of the seats the
 * game waits for at `state`: the latest of their per-move time and bank, pushed by their
 * quiet hours (game/seat_clocks.h); rounded up, so the timer never comes before it. NULL
 * clocks: full banks and no quiet hours (a new game). */
static int64_t deadline_ms(const struct game_record *game, const struct game *state, const struct seat_clocks *clocks)
{
	int64_t per_move_ms = (int64_t)game->options.turn_timeout_s * 1000;
	if (!clocks)
		return per_move_ms + (int64_t)game->options.time_bank_s * 1000;
	uint8_t waiting = legal_waiting_for(state);
	if (!waiting)
		return per_move_ms;
	int64_t due_us = seat_clocks_deadline_us(&game->options, clocks, waiting, clocks->start_us);
	return (due_us - clocks->start_us + 999) / 1000;
}

/* What the game waits for from the server itself at `state`: a bot's move (due at once;
 * in an unattended game one turn clock later, or never without one; when the game waits
 * for people to answer the bot's offer, at the end of that wait), a deadline
 * (turn_timeout_s, then the waiting seats' banks, none of it in their quiet hours:
 * `clocks`, whose start_us is the wait's start), or nothing. NULL when the game never needs
 * a timer (no bot seat, no deadline), so its appends carry no timer at all. Fills *out, no
 * bank changed. */
static const struct store_timer_set *next_timer(const struct game_record *game, const struct game *state,
						enum offer_wait wait, const struct seat_clocks *clocks,
						struct store_timer_set *out)
{
	uint8_t bots = play_bot_seats(game);
	if (!bots && game->options.turn_timeout_s <= 0)
		return NULL;
	memset(out, 0, sizeof *out);
	out->kind = STORE_TIMER_NONE;
	out->due_ms = 0;
	if (!game_in_progress(state))
		return out;
	if (autoplay_bot_to_move(state, bots) >= 0 && play_unattended(game)) {
		/* Nobody at the table: at the turn clock's pace, or paused without one. */
		if (game->options.turn_timeout_s > 0) {
			out->kind = STORE_TIMER_BOT;
			out->due_ms = (int64_t)game->options.turn_timeout_s * 1000;
		}
	} else if (wait != OFFER_WAIT_NONE) {
		out->kind = wait == OFFER_WAIT_GOES_ON ? STORE_TIMER_BOT_KEEP : STORE_TIMER_BOT;
		out->due_ms = (int64_t)game->options.offer_wait_s * 1000;
	} else if (autoplay_bot_to_move(state, bots) >= 0) {
		out->kind = STORE_TIMER_BOT;
	} else if (game->options.turn_timeout_s > 0) {
		out->kind = STORE_TIMER_DEADLINE;
		out->due_ms = deadline_ms(game, state, clocks);
	}
	return out;
}

/* The seats' clocks at the game's current version, their wait starting at `start_us` (0:
 * at that version's event); NULL (*out untouched) for a game without clocks. */
static enum store_status read_clocks(const struct game_record *game, int64_t start_us, struct seat_clocks *out,
				     const struct seat_clocks **clocks)
{
	*clocks = NULL;
	if (!seat_clocks_used(&game->options) || game->state.version < 1)
		return STORE_OK;
	enum store_status status =
		seat_clocks_read(play_thread_store(), &game->options, game->id, (int32_t)game->state.version, out);
	if (status != STORE_OK)
		return status;
	if (start_us)
		out->start_us = start_us;
	*clocks = out;
	return STORE_OK;
}

enum store_status play_clocks(const struct game_record *game, struct play_clocks *out)
{
	memset(out, 0, sizeof *out);
	struct seat_clocks clocks;
	const struct seat_clocks *read;
	enum store_status status = read_clocks(game, 0, &clocks, &read);
	if (status != STORE_OK || !read)
		return status;
	out->used = 1;
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++) {
		out->bank_ms[seat] = clocks.bank_ms[seat];
		out->quiet[seat] = clocks.zone[seat][0] != '\0';
		memcpy(out->zone[seat], clocks.zone[seat], sizeof out->zone[seat]);
		out->from_min[seat] = clocks.quiet[seat].from_min;
		out->to_min[seat] = clocks.quiet[seat].to_min;
	}
	struct store_timer_set timer;
	const struct store_timer_set *next = next_timer(game, &game->state, OFFER_WAIT_NONE, read, &timer);
	if (next && next->kind == STORE_TIMER_DEADLINE)
		out->deadline_us = clocks.start_us + next->due_ms * 1000;
	return STORE_OK;
}

enum store_status play_deadline(const struct game_record *game, int64_t *deadline_us)
{
	struct play_clocks clocks;
	enum store_status status = play_clocks(game, &clocks);
	*deadline_us = clocks.deadline_us;
	return status;
}

static int bot_due_now(const struct store_timer_set *timer)
{
	return timer && timer->kind == STORE_TIMER_BOT && timer->due_ms == 0;
}

/* ---- Rendering ---- */

static const char *origin_name(int origin)
{
	switch (origin) {
	case STORE_ORIGIN_TIMEOUT:
		return "timeout";
	case STORE_ORIGIN_BOT:
		return "bot";
	case STORE_ORIGIN_MAIL:
		return "mail";
	default:
		return "player";
	}
}

void play_format_time(int64_t microseconds, char *out, size_t size)
{
	time_t seconds = (time_t)(microseconds / 1000000);
	struct tm tm;
	gmtime_r(&seconds, &tm);
	char base[32];
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, size, "%s.%06lldZ", base, (long long)(microseconds % 1000000));
}

static int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static json_t *log_entry(const struct event *event, int viewer, int seats, int32_t version, int64_t created_us,
			 int origin)
{
	struct event seen = *event;
	if (viewer != PLAY_UNREDACTED)
		view_event(event, viewer == PLAY_ADMIN ? VIEW_SPECTATOR : viewer, &seen);
	json_t *entry = codec_event_to_json(&seen, seats);
	char when[48];
	play_format_time(created_us, when, sizeof when);
	json_object_set_new(entry, "version", json_integer(version));
	json_object_set_new(entry, "created_at", json_string(when));
	json_object_set_new(entry, "origin", json_string(origin_name(origin)));
	return entry;
}

json_t *play_log_json(const struct game_record *game, int viewer, const struct store_log *log)
{
	json_t *entries = json_array();
	int seats = game->state.options.seats;
	for (int i = 0; i < log->count; i++) {
		const struct store_event_row *row = &log->rows[i];
		struct event event;
		struct codec_error error;
		if (!codec_payload_parse(row->type, row->payload, row->payload_size, &event, &error)) {
			tell_problem("unparsable event", game->id_text, error.message);
			continue;
		}
		json_array_append_new(entries,
				      log_entry(&event, viewer, seats, row->seq, row->created_at_us, row->origin));
	}
	return entries;
}

void play_names(const struct game_record *game, const char *names[GAME_MAX_SEATS])
{
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		names[s] = s < game->state.options.seats ? game->names[s] : NULL;
}

int play_seat_due(const struct game *state, int seat)
{
	if (seat < 0 || state->phase == GAME_PHASE_FINISHED)
		return 0;
	if (legal_waiting_for(state) >> seat & 1u)
		return 1;
	/* An open offer made to the seat that it has not answered: the offerer (a bot's offer
	 * waits for people: offer_wait_s) waits for it. */
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &state->offers[i];
		if (offer->id && (offer->to >> seat & 1u) && !((offer->accepted | offer->declined) >> seat & 1u))
			return 1;
	}
	return 0;
}

/* A move's answer: {version, events[, trade[, <offer_member>]][, actions]} as the mover sees
 * it; `actions` (the Actions body at the new state `after`) when the game then waits for
 * the mover again, so a client playing a turn of several moves needs no read between them. */
static char *move_answer(const struct game_record *game, const struct play_move *move, const struct event_list *events,
			 int32_t first_version, const struct game *after)
{
	json_t *list = json_array();
	int64_t now = now_us();
	int trade_id = 0;
	for (int i = 0; i < events->count; i++) {
		const struct event *event = &events->events[i];
		if (event->type == EVENT_TRADE_OFFERED && move->command->type == COMMAND_OFFER_TRADE)
			trade_id = event->trade;
		json_array_append_new(list, log_entry(event, move->viewer, game->state.options.seats, first_version + i,
						      now, move->origin));
	}
	json_t *body = json_pack("{s:i, s:o}", "version", (int)(first_version + events->count - 1), "events", list);
	/* The new offer's id is "trade" in every answer; `offer_member` names it a second time
	 * (POST .../trades keeps its former "id"). */
	if (trade_id) {
		json_object_set_new(body, "trade", json_integer(trade_id));
		if (move->offer_member)
			json_object_set_new(body, move->offer_member, json_integer(trade_id));
	}
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	if (!play_seat_due(after, move->viewer))
		return text;
	/* "actions", the last member, spliced in as text: the mover's next GET .../actions
	 * asks for the same body at the same state and finds it remembered (game/actions.h). */
	size_t actions_length, length = strlen(text);
	char *actions = actions_body_text(after, move->viewer, &actions_length);
	static const char member[] = ",\"actions\":";
	char *answer = xmalloc(length - 1 + sizeof member - 1 + actions_length + 2);
	memcpy(answer, text, length - 1);
	memcpy(answer + length - 1, member, sizeof member - 1);
	memcpy(answer + length - 1 + sizeof member - 1, actions, actions_length);
	memcpy(answer + length - 1 + sizeof member - 1 + actions_length, "}", 2);
	free(actions);
	free(text);
	return answer;
}

/* ---- Writing ---- */

/* The recorded answer of the move's key: 1 when result is filled (replayed, reused, or a
 * store failure), 0 when the key has no answer yet. */
static int answer_of_key(const struct game_record *game, const struct play_move *move, struct play_result *result)
{
	enum store_status status =
		store_idempotency_get(play_thread_store(), game->id, move->key, move->request_hash, &result->replay);
	if (status == STORE_NOT_FOUND)
		return 0;
	if (status == STORE_OK) {
		result->outcome = PLAY_REPLAYED;
	} else if (status == STORE_IDEMPOTENCY_CONFLICT) {
		free(result->replay.response);
		result->replay.response = NULL;
		result->outcome = PLAY_KEY_REUSED;
	} else {
		result->outcome = PLAY_STORE_FAILED;
		result->store_status = status;
	}
	return 1;
}

/* An outcome that no record holds (stale, raced): if a concurrent request with the key has
 * recorded its answer meanwhile, that answer is the key's. */
static void settle(const struct game_record *game, const struct play_move *move, enum play_outcome outcome,
		   struct play_result *result)
{
	if (move->key && answer_of_key(game, move, result))
		return;
	result->outcome = outcome;
}

/* The rules refused: record the refusal with the key, unless another request with the key
 * recorded its answer first (then that one is the key's). */
static void refuse(const struct game_record *game, const struct play_move *move, enum error error,
		   struct play_result *result)
{
	result->refused = error;
	result->outcome = PLAY_REFUSED;
	if (!move->key)
		return;
	int status_code;
	char *text = move->refusal_body(move->context, error, (long)game->state.version, &status_code);
	struct store_idempotency record = {move->key, {0}, status_code, text};
	memcpy(record.request_hash, move->request_hash, STORE_HASH_SIZE);
	enum store_status stored = store_idempotency_put(play_thread_store(), game->id, &record);
	free(text);
	if (stored == STORE_IDEMPOTENCY_CONFLICT) {
		if (!answer_of_key(game, move, result)) {
			result->outcome = PLAY_STORE_FAILED;
			result->store_status = STORE_NOT_FOUND; /* the key's record vanished */
		}
	} else if (stored != STORE_OK) {
		/* Unrecorded, a retry could be answered otherwise: the caller must retry now. */
		result->outcome = PLAY_STORE_FAILED;
		result->store_status = stored;
	}
}

static void committed(struct game_record *game, const struct game *after, const struct event_list *list,
		      const struct store_timer_set *timer, int keep_lease)
{
	int events = list->count;
	for (int i = 0; i < list->count; i++)
		if (list->events[i].type == EVENT_SEEDS_FIXED)
			game->seeds_from = list->events[i].fair.from;
	memcpy(&game->state, after, sizeof *after);
	cache_put(game);
	if (hooks.appended)
		hooks.appended(game->id, (int32_t)after->version, events, !keep_lease && bot_due_now(timer));
}

/* Whether a pin scoped to an offer holds (see play_move.pinned_offer): the offer was open
 * at the pinned version and is open in game->state (fresh). Offers never change terms and
 * their ids are never reused, so the same id open at both is the offer the caller saw. */
static enum store_status offer_pin_holds(const struct game_record *game, long pinned, int offer, int *holds)
{
	*holds = 0;
	if (pinned < 1 || pinned > (long)game->state.version || !game_find_offer(&game->state, offer))
		return STORE_OK;
	struct game then;
	enum store_status status = play_state_at(game->id, (int32_t)pinned, &then);
	if (status == STORE_OK)
		*holds = game_find_offer(&then, offer) != NULL;
	return status;
}

/* A provably fair game's own events around a move decided on game->state (docs/fairness.md):
 *  - the game's first roll fixes the players' seeds: a seeds_fixed event (version v+1) comes
 *    first, and the move is decided again on the state after it, at version v+1, which is
 *    seeds_from: that decision and every later one mix the seeds in (no decision between
 *    the creation and the first roll draws anything, so none is left out);
 *  - the move that ends the game is followed by server_seed_revealed (the server seed).
 * Both in the move's own append. */
static void fair_events(const struct game_record *game, const struct fairness *fairness, const struct play_move *move,
			struct event_list *events, struct game *after)
{
	int rolls = 0;
	for (int i = 0; i < events->count; i++)
		rolls |= events->events[i].type == EVENT_DICE_ROLLED;
	if (rolls && game->seeds_from == FAIRNESS_NO_SEEDS && game->state.last_roll[0] == 0 &&
	    events->count < EVENT_LIST_MAX - 1) {
		struct event fixed;
		event_init(&fixed, EVENT_SEEDS_FIXED);
		event_set_text(&fixed, NULL);
		fixed.fair.from = game->state.version + 1;
		struct game *base = xmalloc(sizeof *base);
		*base = game->state;
		apply_event(base, &fixed);
		struct fairness mixed = *fairness;
		mixed.seeds_from = fixed.fair.from;
		struct event_list *again = xmalloc(sizeof *again);
		if (rules_decide_seeded(base, fairness_seed_at(&mixed, base->version), move->seat, move->command, again,
					after) == ERROR_OK &&
		    again->count < EVENT_LIST_MAX) {
			events->events[0] = fixed;
			memcpy(&events->events[1], again->events, sizeof again->events[0] * (size_t)again->count);
			events->count = again->count + 1;
		} else {
			/* Never: the same move on the same position (only the version moved). */
			abort();
		}
		free(again);
		free(base);
	}
	if (after->phase == GAME_PHASE_FINISHED && game->state.phase != GAME_PHASE_FINISHED &&
	    events->count < EVENT_LIST_MAX) {
		struct event *revealed = &events->events[events->count++];
		char hex[2 * STORE_SERVER_SEED_SIZE + 1];
		codec_hex(game->server_seed, STORE_SERVER_SEED_SIZE, hex);
		event_init(revealed, EVENT_SERVER_SEED_REVEALED);
		event_set_text(revealed, hex);
		apply_event(after, revealed);
	}
}

void play_move(struct game_record *game, const struct play_move *move, struct play_result *result)
{
	memset(result, 0, sizeof *result);
	if (move->key && answer_of_key(game, move, result))
		return;
	if (atomic_load(&stopping)) {
		result->outcome = PLAY_STOPPING;
		return;
	}
	int fresh = 0; /* whether the state was read from the log for this move */
	long pinned = move->pinned;
	for (int attempt = 0; attempt < PLAY_RETRIES; attempt++) {
		enum store_status status;
		if (pinned >= 0 && (long)game->state.version != pinned && !fresh) {
			if ((status = play_refresh(game)) != STORE_OK)
				goto store_failed;
			fresh = 1;
		}
		result->version = (long)game->state.version;
		if (pinned >= 0 && (long)game->state.version != pinned) {
			int holds = 0;
			if (move->pinned_offer &&
			    (status = offer_pin_holds(game, pinned, move->pinned_offer, &holds)) != STORE_OK)
				goto store_failed;
			if (!holds) {
				settle(game, move, PLAY_STALE, result);
				return;
			}
			pinned = -1; /* it holds: decided on the current state like any answer */
		}
		struct event_list events;
		struct game after;
		struct fairness fairness;
		play_fairness(game, &fairness);
		enum error error = rules_decide_seeded(&game->state, fairness_seed_at(&fairness, game->state.version),
						       move->seat, move->command, &events, &after);
		if (error != ERROR_OK && !fresh &&
		    (move->origin == STORE_ORIGIN_PLAYER || move->origin == STORE_ORIGIN_MAIL)) {
			/* Perhaps refused only because the copy was stale: decide again on the log. */
			if ((status = play_refresh(game)) != STORE_OK)
				goto store_failed;
			fresh = 1;
			attempt--;
			continue;
		}
		if (error != ERROR_OK) {
			refuse(game, move, error, result);
			return;
		}
		if (game->fair)
			fair_events(game, &fairness, move, &events, &after);
		int32_t first = (int32_t)game->state.version + 1;
		char *answer = move->render ? move_answer(game, move, &events, first, &after) : NULL;
		struct store_idempotency record;
		if (move->key) {
			record.key = move->key;
			memcpy(record.request_hash, move->request_hash, STORE_HASH_SIZE);
			record.status = move->success_status;
			record.response = answer;
		}
		struct store_timer_set timer;
		int bot_moved = move->seat == game->state.turn_seat && move->command->type != COMMAND_OFFER_TRADE;
		enum offer_wait wait = offer_wait_after(game, play_bot_seats(game), &game->state, &after, bot_moved);
		/* The mover's bank charged for its wait (the clocks as of the version decided on),
		 * the next wait starting now. */
		struct seat_clocks clock_rows;
		const struct seat_clocks *clocks;
		int64_t now = now_us(), bank_ms = 0;
		if ((status = read_clocks(game, 0, &clock_rows, &clocks)) != STORE_OK)
			goto store_failed;
		int banked = clocks && seat_clocks_spend(&game->options, &clock_rows, move->seat, &game->state, &after,
							 now, &bank_ms);
		clock_rows.start_us = now;
		const struct store_timer_set *next = next_timer(game, &after, wait, clocks, &timer);
		if (next && banked) {
			timer.banked = 1;
			timer.bank_seat = move->seat;
			timer.bank_ms = bank_ms;
		}
		if (next && move->keep_lease && next->kind == STORE_TIMER_BOT && wait == OFFER_WAIT_NONE &&
		    !play_unattended(game))
			timer.due_ms = PLAY_BOT_LEASE_MS;
		struct game_repo repo;
		game_repo_init(&repo, play_thread_store(), GAME_REPO_SNAPSHOT_EVERY);
		status = game_repo_append(&repo, game->id, &game->state, &events, &after, move->seat, move->origin,
					  move->key ? &record : NULL, next);
		if (status == STORE_OK) {
			committed(game, &after, &events, next, move->keep_lease);
			result->outcome = PLAY_APPLIED;
			result->bot_waits = wait != OFFER_WAIT_NONE;
			result->version = (long)after.version;
			result->answer = answer;
			return;
		}
		free(answer);
		if (status == STORE_IDEMPOTENCY_CONFLICT) {
			if (!answer_of_key(game, move, result)) {
				result->outcome = PLAY_STORE_FAILED;
				result->store_status = STORE_NOT_FOUND; /* the key's record vanished */
			}
			return;
		}
		if (status != STORE_CONFLICT)
			goto store_failed;
		if (hooks.append_conflict)
			hooks.append_conflict();
		if ((status = play_refresh(game)) != STORE_OK)
			goto store_failed;
		fresh = 1;
		continue;
	store_failed:
		result->outcome = PLAY_STORE_FAILED;
		result->store_status = status;
		return;
	}
	result->version = (long)game->state.version;
	settle(game, move, PLAY_RACED, result);
}

/* The holidays' and resigning's writes (play__change_seat()'s `write`): the store's
 * outcome as a play_away. */
static enum play_away write_away_or_resign(const struct play_seat_change *change, struct game_record *game, int seat,
					   const char *payload, const struct store_timer_set *timer,
					   enum store_status *status)
{
	int outcome;
	if (change->event_type == EVENT_RESIGNED) {
		*status = store_seat_resign(play_thread_store(), game->id, seat, (int32_t)game->state.version,
					    change->event_type, payload, timer, &outcome);
		if (*status != STORE_OK)
			return PLAY_AWAY_STORE_FAILED;
		return outcome == STORE_RESIGN_DONE	  ? PLAY_AWAY_DONE
		       : outcome == STORE_RESIGN_BOT_SEAT ? PLAY_AWAY_BOT_SEAT
							  : PLAY_AWAY_NO_SEAT;
	}
	struct store_event row = {change->event_type, seat, STORE_ORIGIN_PLAYER, payload};
	*status = store_set_away(play_thread_store(), game->id, seat, change->away, (int32_t)game->state.version, &row,
				 timer, &outcome);
	if (*status != STORE_OK)
		return PLAY_AWAY_STORE_FAILED;
	switch (outcome) {
	case STORE_AWAY_DONE:
		return PLAY_AWAY_DONE;
	case STORE_AWAY_BOT_SEAT:
		return PLAY_AWAY_BOT_SEAT;
	case STORE_AWAY_UNCHANGED:
		return PLAY_AWAY_UNCHANGED;
	case STORE_AWAY_ALLOWANCE_SPENT:
		return PLAY_AWAY_ALLOWANCE_SPENT;
	default:
		return PLAY_AWAY_NO_SEAT;
	}
}

enum play_away play__change_seat(struct game_record *game, int seat, const struct play_seat_change *change,
				 long *version, enum store_status *status)
{
	*status = STORE_OK;
	*version = (long)game->state.version;
	if (seat < 0 || seat >= game->state.options.seats)
		return PLAY_AWAY_NO_SEAT;
	for (int attempt = 0; attempt < PLAY_RETRIES; attempt++) {
		if (atomic_load(&stopping))
			return PLAY_AWAY_STOPPING;
		*status = play_refresh(game);
		if (*status != STORE_OK)
			return PLAY_AWAY_STORE_FAILED;
		*version = (long)game->state.version;
		if (!game_in_progress(&game->state))
			return PLAY_AWAY_FINISHED;
		struct event event;
		event_init(&event, (enum event_type)change->event_type);
		event.seat = (int8_t)seat;
		struct game after = game->state;
		apply_event(&after, &event);
		/* The timer as the seats will be: a bot's move at once when the game waits for
		 * the seat the bot now holds; the deadline or nothing when it waits for a person. */
		struct game_record *changed = xcalloc(1, sizeof *changed);
		*changed = *game;
		changed->bots[seat] = (uint8_t)change->bot;
		changed->away[seat] = (uint8_t)change->away;
		struct store_timer_set timer, none = {.kind = STORE_TIMER_NONE};
		enum offer_wait wait = offer_wait_after(changed, play_bot_seats(game), &game->state, &after, 0);
		/* The seats' clocks as they are (no move charged), the wait starting now. */
		struct seat_clocks clock_rows;
		const struct seat_clocks *clocks;
		*status = read_clocks(game, now_us(), &clock_rows, &clocks);
		if (*status != STORE_OK) {
			free(changed);
			return PLAY_AWAY_STORE_FAILED;
		}
		const struct store_timer_set *next = next_timer(changed, &after, wait, clocks, &timer);
		free(changed);
		if (!next)
			next = &none; /* no bot and no deadline left: no timer either */
		char *payload = codec_payload_dump(&event, game->state.options.seats);
		enum play_away outcome = change->write(change, game, seat, payload, next, status);
		free(payload);
		if (outcome == PLAY_AWAY_STORE_FAILED && *status == STORE_CONFLICT)
			continue; /* a move took the version: decide again on the new one */
		if (outcome != PLAY_AWAY_DONE)
			return outcome;
		game->state = after;
		game->bots[seat] = (uint8_t)change->bot;
		game->away[seat] = (uint8_t)change->away;
		cache_put(game);
		*version = (long)after.version;
		if (hooks.appended)
			hooks.appended(game->id, (int32_t)after.version, 1, bot_due_now(next));
		return PLAY_AWAY_DONE;
	}
	return PLAY_AWAY_RACED;
}

enum play_away play_set_away(struct game_record *game, int seat, int away, long *version, enum store_status *status)
{
	struct play_seat_change change = {away ? EVENT_SEAT_AWAY : EVENT_SEAT_BACK, away, away, write_away_or_resign,
					  NULL};
	return play__change_seat(game, seat, &change, version, status);
}

/* The answer to a player seed set: {seat, player_seed, version, seeds_fixed}. */
static char *seed_answer(const struct game_record *game, int seat, const char *seed, long version)
{
	json_t *body = json_pack("{s:i, s:s, s:i, s:b}", "seat", seat, "player_seed", seed, "version", (int)version,
				 "seeds_fixed", play_seeds_fixed(game));
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	json_decref(body);
	if (!text)
		abort();
	return text;
}

/* The key's recorded answer for a seed set: 1 with *outcome (replayed, reused, or a store
 * failure), 0 when the key has none yet. */
static int seed_key_answered(const struct game_record *game, const struct play_seed_set *set,
			     struct play_seed_result *result, enum play_seed *outcome)
{
	result->status =
		store_idempotency_get(play_thread_store(), game->id, set->key, set->request_hash, &result->replay);
	if (result->status == STORE_NOT_FOUND) {
		result->status = STORE_OK;
		return 0;
	}
	if (result->status == STORE_OK) {
		*outcome = PLAY_SEED_REPLAYED;
	} else if (result->status == STORE_IDEMPOTENCY_CONFLICT) {
		free(result->replay.response);
		result->replay.response = NULL;
		result->status = STORE_OK;
		*outcome = PLAY_SEED_KEY_REUSED;
	} else {
		*outcome = PLAY_SEED_STORE_FAILED;
	}
	return 1;
}

enum play_seed play_set_player_seed(struct game_record *game, const struct play_seed_set *set,
				    struct play_seed_result *result)
{
	memset(result, 0, sizeof *result);
	result->status = STORE_OK;
	result->version = (long)game->state.version;
	int seat = set->seat;
	enum play_seed outcome;
	if (set->key && seed_key_answered(game, set, result, &outcome))
		return outcome;
	if (seat < 0 || seat >= game->state.options.seats)
		return PLAY_SEED_NO_SEAT;
	if (!game->fair)
		return PLAY_SEED_NOT_FAIR;
	for (int attempt = 0; attempt < PLAY_RETRIES; attempt++) {
		if (atomic_load(&stopping))
			return PLAY_SEED_STOPPING;
		if ((result->status = play_refresh(game)) != STORE_OK)
			return PLAY_SEED_STORE_FAILED;
		result->version = (long)game->state.version;
		if (set->pinned >= 0 && set->pinned != result->version)
			return set->key && seed_key_answered(game, set, result, &outcome) ? outcome : PLAY_SEED_STALE;
		if (game->bots[seat] && !game->away[seat])
			return PLAY_SEED_BOT_SEAT;
		if (play_seeds_fixed(game) || !game_in_progress(&game->state))
			return PLAY_SEED_FIXED;
		struct event_list *events = xmalloc(sizeof *events);
		event_init(&events->events[0], EVENT_PLAYER_SEED_SET);
		events->events[0].seat = (int8_t)seat;
		event_set_text(&events->events[0], set->seed);
		events->count = 1;
		struct game after = game->state;
		apply_event(&after, &events->events[0]);
		/* A seed is no move: the game waits for what it waited for, and a deadline stays
		 * where it was (the timer moves to the new version, due when it was due). */
		struct seat_clocks clock_rows;
		const struct seat_clocks *clocks;
		if ((result->status = read_clocks(game, 0, &clock_rows, &clocks)) != STORE_OK) {
			free(events);
			return PLAY_SEED_STORE_FAILED;
		}
		struct store_timer_set timer;
		enum offer_wait wait = offer_wait_after(game, play_bot_seats(game), &game->state, &after, 0);
		const struct store_timer_set *next = next_timer(game, &after, wait, clocks, &timer);
		if (next && timer.kind == STORE_TIMER_DEADLINE && clocks) {
			int64_t waited_ms = (now_us() - clocks->start_us) / 1000;
			timer.due_ms = timer.due_ms > waited_ms ? timer.due_ms - waited_ms : 0;
		}
		/* The answer as it will be once appended, recorded with the key in the append. */
		struct game_record *changed = xmalloc(sizeof *changed);
		*changed = *game;
		changed->state = after;
		snprintf(changed->player_seeds[seat], sizeof changed->player_seeds[seat], "%s", set->seed);
		char *answer = seed_answer(changed, seat, set->seed, (long)after.version);
		free(changed);
		struct store_idempotency record = {set->key, {0}, 200, answer};
		if (set->key)
			memcpy(record.request_hash, set->request_hash, STORE_HASH_SIZE);
		struct game_repo repo;
		game_repo_init(&repo, play_thread_store(), GAME_REPO_SNAPSHOT_EVERY);
		result->status = game_repo_append(&repo, game->id, &game->state, events, &after, seat,
						  STORE_ORIGIN_PLAYER, set->key ? &record : NULL, next);
		free(events);
		if (result->status == STORE_IDEMPOTENCY_CONFLICT) {
			free(answer);
			if (seed_key_answered(game, set, result, &outcome))
				return outcome;
			result->status = STORE_NOT_FOUND; /* the key's record vanished */
			return PLAY_SEED_STORE_FAILED;
		}
		if (result->status == STORE_CONFLICT) {
			free(answer);
			continue;
		}
		if (result->status != STORE_OK) {
			free(answer);
			return PLAY_SEED_STORE_FAILED;
		}
		snprintf(game->player_seeds[seat], sizeof game->player_seeds[seat], "%s", set->seed);
		game->state = after;
		cache_put(game);
		result->version = (long)after.version;
		result->answer = answer;
		if (hooks.appended)
			hooks.appended(game->id, (int32_t)after.version, 1, bot_due_now(next));
		return PLAY_SEED_DONE;
	}
	return set->key && seed_key_answered(game, set, result, &outcome) ? outcome : PLAY_SEED_RACED;
}

enum play_away play_resign(struct game_record *game, int seat, long *version, enum store_status *status)
{
	struct play_seat_change change = {EVENT_RESIGNED, 1, 0, write_away_or_resign, NULL};
	return play__change_seat(game, seat, &change, version, status);
}

/* The store's row of a new game (its seed, seats, tokens, players and options) and the
 * record's copy of the same, for creation and import alike. *options_text is the stored
 * options' JSON (row->options points at it; the caller frees it). `fair`: the row keeps the
 * new game's server seed. */
static void new_game_row(const struct play_new_game *new_game, int fair, struct game_record *out,
			 struct store_new_game *row, char **options_text)
{
	int seats = new_game->options->game.seats;
	out->seed = new_game->seed;
	out->options = *new_game->options;
	out->seeds_from = FAIRNESS_NO_SEEDS;
	memset(row, 0, sizeof *row);
	row->seed = new_game->seed;
	if (fair) {
		out->fair = row->has_server_seed = 1;
		memcpy(out->server_seed, new_game->server_seed, STORE_SERVER_SEED_SIZE);
		memcpy(row->server_seed, new_game->server_seed, STORE_SERVER_SEED_SIZE);
	}
	row->seats = seats;
	memcpy(row->admin_token_hash, new_game->admin_token_hash, STORE_HASH_SIZE);
	for (int s = 0; s < seats; s++) {
		row->names[s] = new_game->names[s];
		row->bots[s] = new_game->bots[s];
		memcpy(row->token_hashes[s], new_game->token_hashes[s], STORE_HASH_SIZE);
		row->players[s] = new_game->players ? new_game->players[s] : 0;
		snprintf(out->names[s], PLAY_NAME_SIZE, "%s", new_game->names[s]);
		out->bots[s] = (uint8_t)new_game->bots[s];
	}
	json_t *stored_options = codec_options_to_json(new_game->options);
	*options_text = json_dumps(stored_options, JSON_COMPACT);
	json_decref(stored_options);
	if (!*options_text)
		abort();
	row->options = *options_text;
}

void play_fairness(const struct game_record *game, struct fairness *out)
{
	memset(out, 0, sizeof *out);
	out->scheme = game->fair ? EVENT_FAIRNESS_HMAC_1 : EVENT_FAIRNESS_NONE;
	out->legacy_seed = game->seed;
	memcpy(out->server_seed, game->server_seed, sizeof out->server_seed);
	out->game_id = game->id;
	out->seats = game->state.options.seats;
	out->seeds_from = game->seeds_from;
	memcpy(out->player_seeds, game->player_seeds, sizeof out->player_seeds);
}

int play_seeds_fixed(const struct game_record *game)
{
	if (game->seeds_from != FAIRNESS_NO_SEEDS || game->state.last_roll[0] != 0)
		return 1;
	for (int s = 0; s < game->state.options.seats; s++)
		if ((!game->bots[s] || game->away[s]) && !game->player_seeds[s][0])
			return 0;
	return 1;
}

void play_fairness_public(const struct game_record *game, struct codec_fairness *out)
{
	memset(out, 0, sizeof *out);
	out->scheme = game->fair ? EVENT_FAIRNESS_HMAC_1 : EVENT_FAIRNESS_NONE;
	out->seats = game->state.options.seats;
	if (!game->fair)
		return;
	fairness_commitment(game->server_seed, out->commitment);
	out->seeds_fixed = play_seeds_fixed(game);
	out->seeds_from = game->seeds_from == FAIRNESS_NO_SEEDS ? -1 : (int64_t)game->seeds_from;
	memcpy(out->player_seeds, game->player_seeds, sizeof out->player_seeds);
	out->revealed = game->state.phase == GAME_PHASE_FINISHED;
	if (out->revealed)
		memcpy(out->server_seed, game->server_seed, sizeof out->server_seed);
}

enum error play_start(const struct play_new_game *new_game, struct event_list *events, struct game *after)
{
	struct fairness fairness;
	memset(&fairness, 0, sizeof fairness);
	fairness.scheme = new_game->fair ? EVENT_FAIRNESS_HMAC_1 : EVENT_FAIRNESS_NONE;
	fairness.legacy_seed = new_game->seed;
	memcpy(fairness.server_seed, new_game->server_seed, sizeof fairness.server_seed);
	fairness.seats = new_game->options->game.seats;
	fairness.seeds_from = FAIRNESS_NO_SEEDS;
	enum error refused = rules_start(&new_game->options->game, fairness_seed_at(&fairness, 0), events, after);
	if (refused == ERROR_OK)
		fairness_stamp(&fairness, &events->events[0].setup);
	return refused;
}

enum error play_create(const struct play_new_game *new_game, struct game_record *out, enum store_status *status)
{
	*status = STORE_OK;
	memset(out, 0, sizeof *out);
	struct event_list events;
	enum error refused = play_start(new_game, &events, &out->state);
	if (refused != ERROR_OK)
		return refused;
	struct store_new_game row;
	char *options_text;
	new_game_row(new_game, new_game->fair, out, &row, &options_text);
	struct store_timer_set timer;
	row.timer = next_timer(out, &out->state, offer_wait_after(out, 0, NULL, &out->state, 0), NULL, &timer);
	struct game_repo repo;
	game_repo_init(&repo, play_thread_store(), GAME_REPO_SNAPSHOT_EVERY);
	*status = game_repo_create(&repo, &row, &events, &out->state, &out->id);
	free(options_text);
	if (*status != STORE_OK)
		return ERROR_OK;
	store_format_id(out->id, out->id_text);
	if (hooks.created)
		hooks.created(out->id, events.count, bot_due_now(row.timer));
	return ERROR_OK;
}

/* The seats' quiet hours after events[0 .. count) into row->quiet_* (pointing into the
 * events); 1 when some seat has hours. */
static int import_quiet_hours(const struct event *events, int count, struct store_new_game *row)
{
	int any = 0;
	for (int s = 0; s < row->seats && s < STORE_MAX_SEATS; s++)
		row->quiet_zones[s] = NULL;
	for (int i = 0; i < count; i++) {
		const struct event *event = &events[i];
		int s = event->seat;
		if ((event->type != EVENT_QUIET_HOURS_SET && event->type != EVENT_QUIET_HOURS_CLEARED) || s < 0 ||
		    s >= row->seats || s >= STORE_MAX_SEATS)
			continue;
		row->quiet_zones[s] = event->type == EVENT_QUIET_HOURS_SET ? event->quiet.zone : NULL;
		row->quiet_from[s] = event->quiet.from_min;
		row->quiet_to[s] = event->quiet.to_min;
	}
	for (int s = 0; s < row->seats && s < STORE_MAX_SEATS; s++)
		any |= row->quiet_zones[s] != NULL;
	return any;
}

enum store_status play_import(const struct play_new_game *new_game, const struct event *events,
			      const struct import_group *groups, int group_count, const int *origins,
			      struct game_record *out)
{
	memset(out, 0, sizeof *out);
	struct store_new_game row;
	char *options_text;
	/* Never provably fair: the log's first event committed to no seed of this server. */
	new_game_row(new_game, 0, out, &row, &options_text);
	/* Each event with its group's actor and origin (the creation's: no actor), and the
	 * state after them all. */
	int count = groups[group_count - 1].first + groups[group_count - 1].count;
	int *actors = xmalloc(sizeof *actors * (size_t)count),
	    *event_origins = xmalloc(sizeof *event_origins * (size_t)count);
	memset(&out->state, 0, sizeof out->state);
	for (int g = 0; g < group_count; g++) {
		for (int i = groups[g].first; i < groups[g].first + groups[g].count; i++) {
			actors[i] = g == 0 ? STORE_NO_ACTOR : groups[g].seat;
			event_origins[i] = g == 0 ? STORE_ORIGIN_PLAYER : origins[g];
			apply_event(&out->state, &events[i]);
		}
	}
	/* Each seat's quiet hours as its last quiet_hours_set or quiet_hours_cleared left them,
	 * kept in its row as the game exported kept them, and the first deadline pushed by
	 * them as the clock of a game played here would be (every event is written now, so the
	 * wait begins now). */
	struct seat_clocks clock_rows;
	const struct seat_clocks *clocks = NULL;
	if (import_quiet_hours(events, count, &row) && seat_clocks_used(&out->options)) {
		seat_clocks_fresh(&out->options, now_us(), &clock_rows);
		for (int s = 0; s < row.seats && s < GAME_MAX_SEATS; s++) {
			if (!row.quiet_zones[s])
				continue;
			snprintf(clock_rows.zone[s], sizeof clock_rows.zone[s], "%s", row.quiet_zones[s]);
			clock_rows.quiet[s] = (struct quiet_hours){zones_load(row.quiet_zones[s]), row.quiet_from[s],
								   row.quiet_to[s]};
		}
		clocks = &clock_rows;
	}
	struct store_timer_set timer;
	row.timer = next_timer(out, &out->state, offer_wait_after(out, 0, NULL, &out->state, 0), clocks, &timer);
	struct game_repo repo;
	game_repo_init(&repo, play_thread_store(), GAME_REPO_SNAPSHOT_EVERY);
	enum store_status status =
		game_repo_import(&repo, &row, events, count, actors, event_origins, &out->state, &out->id);
	free(options_text);
	free(actors);
	free(event_origins);
	if (status != STORE_OK)
		return status;
	store_format_id(out->id, out->id_text);
	if (hooks.created)
		hooks.created(out->id, (int)out->state.version, bot_due_now(row.timer));
	return STORE_OK;
}

enum play_quiet play_set_quiet_hours(struct game_record *game, int seat, const char *zone, int from_min, int to_min,
				     long *version, enum store_status *status)
{
	*status = STORE_OK;
	*version = (long)game->state.version;
	if (seat < 0 || seat >= game->state.options.seats)
		return PLAY_QUIET_NO_SEAT;
	if (zone && strlen(zone) >= EVENT_ZONE_SIZE)
		return PLAY_QUIET_NO_SEAT; /* inputs_quiet_hours() admits only names the server has */
	struct event event;
	event_init(&event, zone ? EVENT_QUIET_HOURS_SET : EVENT_QUIET_HOURS_CLEARED);
	event.seat = (int8_t)seat;
	if (zone) {
		memcpy(event.quiet.zone, zone, strlen(zone));
		event.quiet.from_min = (uint16_t)from_min;
		event.quiet.to_min = (uint16_t)to_min;
	}
	for (int attempt = 0; attempt < PLAY_RETRIES; attempt++) {
		if (atomic_load(&stopping))
			return PLAY_QUIET_STOPPING;
		if ((*status = play_refresh(game)) != STORE_OK)
			return PLAY_QUIET_STORE_FAILED;
		*version = (long)game->state.version;
		if (!game_in_progress(&game->state) || !apply_event_valid(&game->state, &event))
			return PLAY_QUIET_FINISHED;
		/* The deadline as the new hours make it, when the game waits with one now (its wait
		 * began with the last move, which the new event does not change). */
		struct seat_clocks clock_rows;
		const struct seat_clocks *clocks;
		if ((*status = read_clocks(game, 0, &clock_rows, &clocks)) != STORE_OK)
			return PLAY_QUIET_STORE_FAILED;
		int64_t due_us = 0;
		if (clocks) {
			struct quiet_hours quiet = {zone ? zones_load(zone) : NULL, from_min, to_min};
			clock_rows.quiet[seat] = quiet;
			struct store_timer_set timer;
			const struct store_timer_set *next =
				next_timer(game, &game->state, OFFER_WAIT_NONE, clocks, &timer);
			if (next && next->kind == STORE_TIMER_DEADLINE)
				due_us = clock_rows.start_us + next->due_ms * 1000;
		}
		char *payload = codec_payload_dump(&event, game->state.options.seats);
		struct store_event row = {event.type, seat, STORE_ORIGIN_PLAYER, payload};
		int found;
		*status = store_set_quiet_hours(play_thread_store(), game->id, seat, zone, from_min, to_min,
						(int32_t)game->state.version, &row, due_us, &found);
		free(payload);
		if (*status == STORE_CONFLICT)
			continue; /* a move took the version: decide again on the new one */
		if (*status != STORE_OK)
			return PLAY_QUIET_STORE_FAILED;
		if (!found)
			return PLAY_QUIET_NO_SEAT;
		apply_event(&game->state, &event);
		cache_put(game);
		*version = (long)game->state.version;
		if (hooks.appended)
			hooks.appended(game->id, (int32_t)game->state.version, 1, 0);
		return PLAY_QUIET_DONE;
	}
	return PLAY_QUIET_RACED;
}
