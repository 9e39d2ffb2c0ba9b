/*
 * handlers_feed.c - the player's feed: everything of all the player's games in one place,
 * by long-poll (GET /v1/players/me/feed?after=&wait=&limit=) and as Server-Sent Events
 * (GET /v1/players/me/stream), for a player token ("pt_").
 *
 * Items, each naming its game and the player's seat there:
 *   {"kind": "event", "game", "seat", "event": <LogEntry as that seat's GET .../moves shows it>}
 *   {"kind": "message", "game", "seat", "message": <Message of GET .../messages>}
 *   {"kind": "your_turn", "game", "seat", "your_turn": <the seat stream's your_turn>}
 * Events are rendered by play_log_json() for the seat, the one redaction path of the
 * game's own log; the note is handlers_your_turn_json(), the seat stream's.
 *
 * Order and cursor (db/store_feed.h): rows are read in the order (xact, game, kind, seq)
 * of the transactions that wrote them, and only while their transaction is below the
 * database's xmin, so no row can commit behind a cursor already handed out. The cursor is
 * the position of the last row delivered, "<xact>.<game id>.<kind>.<seq>" (opaque to
 * clients, checked strictly). Without `after` the feed starts now (the xmin of this
 * moment: no backlog) and first tells a your_turn for every game that waits for the
 * player. A your_turn note follows the last event of a game in a page when, at that
 * version, the game waits for the seat. A transaction held open anywhere in the database
 * holds xmin back: the feed is late then, never short.
 *
 * Waiting: a long-poll parks (counted in MAX_WAITING) on all the player's games at once
 * (notify_park_games()); any append or message of one of them, heard from any server by
 * LISTEN/NOTIFY, wakes it to read again. A row read but not yet below xmin (its commit is
 * under way, or another transaction is open) is looked for again after FEED_HELD_S.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/notify.h"
#include "api/service.h"
#include "api/stream.h"
#include "base/clock.h"
#include "base/counters.h"
#include "base/xalloc.h"
#include "game/auth.h"
#include "game/feed.h"
#include "game/lobby.h"
#include "game/messages.h"
#include "http/headers.h"

#define FEED_GAMES_MAX 500
#define FEED_LIMIT_DEFAULT 100
#define FEED_LIMIT_MAX 500
#define FEED_HELD_S 0.02
#define FEED_HEARTBEAT_S 15
#define FEED_CURSOR_SIZE 64

/* ---- The cursor ---- */

static void cursor_format(const struct store_feed_position *at, char out[FEED_CURSOR_SIZE])
{
	snprintf(out, FEED_CURSOR_SIZE, "%" PRId64 ".%016" PRIx64 ".%d.%" PRId32, at->xact, (uint64_t)at->game_id,
		 at->kind, at->seq);
}

/* Decimal digits without a sign or a leading zero, up to `high`. */
static int parse_decimal(const char *text, size_t length, int64_t high, int64_t *out)
{
	if (length == 0 || length > 19 || (length > 1 && text[0] == '0'))
		return 0;
	uint64_t value = 0;
	for (size_t i = 0; i < length; i++) {
		if (text[i] < '0' || text[i] > '9')
			return 0;
		value = value * 10 + (uint64_t)(text[i] - '0');
	}
	if (value > (uint64_t)high)
		return 0;
	*out = (int64_t)value;
	return 1;
}

static int cursor_parse(const char *text, struct store_feed_position *out)
{
	const char *parts[4];
	size_t lengths[4];
	const char *at = text;
	for (int i = 0; i < 4; i++) {
		const char *dot = i < 3 ? strchr(at, '.') : at + strlen(at);
		if (!dot)
			return 0;
		parts[i] = at;
		lengths[i] = (size_t)(dot - at);
		at = dot + 1;
	}
	int64_t xact, kind, seq;
	if (!parse_decimal(parts[0], lengths[0], INT64_MAX, &xact) || lengths[1] != 16 ||
	    !parse_decimal(parts[2], lengths[2], 1, &kind) || !parse_decimal(parts[3], lengths[3], INT32_MAX, &seq))
		return 0;
	uint64_t game = 0;
	for (int i = 0; i < 16; i++) {
		char c = parts[1][i];
		int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (digit < 0)
			return 0;
		game = game << 4 | (uint64_t)digit;
	}
	if (game > INT64_MAX)
		return 0;
	out->xact = xact;
	out->game_id = (int64_t)game;
	out->kind = (int)kind;
	out->seq = (int32_t)seq;
	return 1;
}

/* ---- Reading and rendering ---- */

/* What a long-poll and a stream keep between reads. */
struct feed {
	int64_t player_id;
	uint8_t token_hash[AUTH_HASH_SIZE]; /* the player's token, checked again by a stream */
	struct store_feed_position cursor;  /* the last row delivered (or the start) */
	int announce;			    /* started now: tell the games that wait for the player */
	int limit;
	int64_t games[FEED_GAMES_MAX]; /* sorted: the waiter's list */
	int seats[FEED_GAMES_MAX];
	int game_count;
};

/* One rendered item and the cursor after it. */
struct feed_item {
	json_t *json;
	char cursor[FEED_CURSOR_SIZE];
};

struct feed_page {
	struct feed_item *items;
	int count, capacity;
	int held; /* rows follow that are not yet below xmin */
};

static void page_add(struct feed_page *page, json_t *item, const struct store_feed_position *cursor)
{
	if (page->count == page->capacity) {
		page->capacity = page->capacity ? page->capacity * 2 : 16;
		page->items = xrealloc(page->items, sizeof *page->items * (size_t)page->capacity);
	}
	page->items[page->count].json = item;
	cursor_format(cursor, page->items[page->count].cursor);
	page->count++;
}

static void page_free(struct feed_page *page)
{
	for (int i = 0; i < page->count; i++)
		json_decref(page->items[i].json);
	free(page->items);
	memset(page, 0, sizeof *page);
}

static json_t *item_json(const char *kind, int64_t game_id, int seat, json_t *body)
{
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(game_id, id);
	return json_pack("{s:s, s:s, s:i, s:o}", "kind", kind, "game", id, "seat", seat, kind, body);
}

/* The player's games, sorted, into feed->games. */
static enum store_status load_games(struct feed *feed)
{
	struct store_player_seat *seats = xcalloc(FEED_GAMES_MAX, sizeof *seats);
	int count = 0;
	enum store_status status = lobby_player_seats(feed->player_id, FEED_GAMES_MAX, seats, &count);
	if (status == STORE_OK) {
		feed->game_count = count;
		for (int i = 0; i < count; i++) {
			feed->games[i] = seats[i].game_id;
			feed->seats[i] = seats[i].seat;
		}
	}
	free(seats);
	return status;
}

/* The your_turn item of game `game_id` at `version` for `seat`, or NULL. */
static json_t *your_turn_item(int64_t game_id, int seat, int32_t version)
{
	struct session session;
	if (play_load(game_id, 1, &session.game) != STORE_OK)
		return NULL;
	session.viewer = seat;
	if (version < 0)
		version = (int32_t)session.game.state.version;
	json_t *note = handlers_your_turn_json(&session, version);
	return note ? item_json("your_turn", game_id, seat, note) : NULL;
}

/* Games loaded for rendering one page. */
struct page_games {
	struct game_record *records;
	int count;
};

static const struct game_record *page_game(struct page_games *games, int64_t game_id)
{
	for (int i = 0; i < games->count; i++)
		if (games->records[i].id == game_id)
			return &games->records[i];
	games->records = xrealloc(games->records, sizeof *games->records * (size_t)(games->count + 1));
	if (play_load(game_id, 0, &games->records[games->count]) != STORE_OK)
		return NULL;
	return &games->records[games->count++];
}

/* Read what follows feed->cursor into *page (advancing the cursor past what is in it). */
static enum store_status read_page(struct feed *feed, struct feed_page *page)
{
	memset(page, 0, sizeof *page);
	if (feed->announce) {
		feed->announce = 0;
		for (int i = 0; i < feed->game_count; i++) {
			json_t *note = your_turn_item(feed->games[i], feed->seats[i], -1);
			if (note)
				page_add(page, note, &feed->cursor);
		}
	}
	struct store_feed rows;
	enum store_status status = feed_read_player(feed->player_id, &feed->cursor, feed->limit, &rows);
	if (status != STORE_OK)
		return status;
	int settled = 0;
	while (settled < rows.count && rows.items[settled].settled)
		settled++;
	page->held = settled < rows.count;
	struct page_games games = {NULL, 0};
	for (int i = 0; i < settled; i++) {
		const struct store_feed_item *row = &rows.items[i];
		feed->cursor = row->at;
		const struct game_record *game = page_game(&games, row->at.game_id);
		if (!game)
			continue; /* gone: nothing to show */
		if (row->at.kind == STORE_FEED_MESSAGE) {
			page_add(page,
				 item_json("message", row->at.game_id, row->seat,
					   messages_json(game, &row->message, NULL)),
				 &row->at);
			continue;
		}
		struct store_log log = {1, (struct store_event_row *)&row->event};
		json_t *entries = play_log_json(game, row->seat, &log);
		json_t *entry = json_array_get(entries, 0);
		if (entry)
			page_add(page, item_json("event", row->at.game_id, row->seat, json_incref(entry)), &row->at);
		json_decref(entries);
		/* The game's last event in this page: does the game now wait for the seat? */
		int last = 1;
		for (int k = i + 1; k < settled && last; k++)
			last = !(rows.items[k].at.game_id == row->at.game_id &&
				 rows.items[k].at.kind == STORE_FEED_EVENT);
		json_t *note = last ? your_turn_item(row->at.game_id, row->seat, row->at.seq) : NULL;
		if (note)
			page_add(page, note, &row->at);
	}
	free(games.records);
	store_feed_free(&rows);
	return STORE_OK;
}

/* Parse after (or Last-Event-ID), limit and the player; start now without a cursor. 0
 * with a problem queued. */
static int feed_open(struct http_request *request, struct feed *feed, const char *after, const char *after_field)
{
	feed->limit = FEED_LIMIT_DEFAULT;
	const char *limit = http_query(request, "limit");
	if (limit) {
		int64_t value;
		if (!parse_decimal(limit, strlen(limit), FEED_LIMIT_MAX, &value) || value < 1) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "limit is 1..500", "limit", -1);
			return 0;
		}
		feed->limit = (int)value;
	}
	if (after && !cursor_parse(after, &feed->cursor)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "a feed cursor is the `cursor` of a previous answer (or the id of a feed event)",
				     after_field, -1);
		return 0;
	}
	struct store_player player;
	if (!handlers_authenticate_player_hash(request, &player, feed->token_hash))
		return 0;
	feed->player_id = player.id;
	enum store_status status = load_games(feed);
	if (status == STORE_OK && !after) {
		feed->announce = 1;
		status = feed_xmin(&feed->cursor.xact);
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	return 1;
}

/* ---- Long-poll ---- */

struct feed_poll {
	struct notify_waiter waiter;
	double deadline;
	struct feed feed;
};

void handle_get_feed(struct http_request *request)
{
	struct feed_poll *poll = request->state;
	if (!poll) {
		long wait = http_query_integer(request, "wait", 0, 0, HANDLERS_WAIT_MAX_S);
		if (wait < 0)
			return;
		struct feed feed;
		memset(&feed, 0, sizeof feed);
		if (!feed_open(request, &feed, http_query(request, "after"), "after"))
			return;
		if (wait > 0 && !http_wait_admit(request))
			return;
		poll = xcalloc(1, sizeof *poll);
		poll->feed = feed;
		poll->deadline = clock_now() + (double)wait;
		request->state = poll;
		request->free_state = free;
	} else {
		enum store_status status = load_games(&poll->feed);
		if (status != STORE_OK) {
			service_store_error(request, status);
			return;
		}
	}
	for (;;) {
		uint64_t seen = notify_seen();
		struct feed_page page;
		enum store_status status = read_page(&poll->feed, &page);
		if (status != STORE_OK) {
			service_store_error(request, status);
			return;
		}
		double now = clock_now();
		if (page.count == 0 && now < poll->deadline && !notify_stopping()) {
			double until =
				page.held && now + FEED_HELD_S < poll->deadline ? now + FEED_HELD_S : poll->deadline;
			page_free(&page);
			if (notify_park_games(&poll->waiter, request, poll->feed.games, poll->feed.game_count, seen,
					      until))
				return;
			continue;
		}
		json_t *items = json_array();
		for (int i = 0; i < page.count; i++)
			json_array_append(items, page.items[i].json);
		page_free(&page);
		char player[STORE_ID_TEXT_SIZE], cursor[FEED_CURSOR_SIZE];
		store_format_id(poll->feed.player_id, player);
		cursor_format(&poll->feed.cursor, cursor);
		http_add_header(request, "Cache-Control", "no-store");
		http_respond_json(request, 200,
				  json_pack("{s:s, s:s, s:o}", "player", player, "cursor", cursor, "items", items), -1);
		return;
	}
}

/* ---- Server-Sent Events ---- */

/* A player's stream (api/stream.h): the feed and its waiting place. */
struct feed_stream {
	struct notify_waiter waiter;
	struct feed feed;
};

/* Frame the next page; 0 on a database error. */
static int feed_stream_fill(void *state, struct sse *sse, int *held)
{
	struct feed_stream *stream = state;
	struct feed_page page;
	if (load_games(&stream->feed) != STORE_OK || read_page(&stream->feed, &page) != STORE_OK)
		return 0;
	*held = page.held;
	for (int i = 0; i < page.count; i++) {
		char *data = json_dumps(page.items[i].json, JSON_COMPACT);
		if (!data)
			abort();
		const char *kind = json_string_value(json_object_get(page.items[i].json, "kind"));
		sse_item(sse, page.items[i].cursor, kind ? kind : "event", data);
		free(data);
	}
	page_free(&page);
	return 1;
}

static int feed_stream_park(void *state, struct http_request *request, uint64_t seen, double until)
{
	struct feed_stream *stream = state;
	return notify_park_games(&stream->waiter, request, stream->feed.games, stream->feed.game_count, seen, until);
}

/* A replaced token (POST /v1/players/me/token) ends the streams opened with the old one
 * (the replacement wakes them: LISTENER_TOKENS wakes the player's games). */
static int feed_stream_allowed(void *state)
{
	struct feed_stream *stream = state;
	struct store_player player;
	enum store_status known = lobby_player_by_token(stream->feed.token_hash, &player);
	return !(known == STORE_NOT_FOUND || (known == STORE_OK && player.id != stream->feed.player_id));
}

static const struct stream_source feed_stream_source = {feed_stream_allowed, feed_stream_fill, NULL, feed_stream_park};

void handle_get_feed_stream(struct http_request *request)
{
	const char *after = http_header(request, "Last-Event-ID");
	const char *field = "Last-Event-ID";
	if (!after) {
		after = http_query(request, "after");
		field = "after";
	}
	struct feed_stream *stream = xcalloc(1, sizeof *stream);
	if (!feed_open(request, &stream->feed, after, field) || !http_wait_admit(request)) {
		free(stream);
		return;
	}
	stream_respond(request, &feed_stream_source, stream, free, FEED_HEARTBEAT_S, FEED_HELD_S);
}
