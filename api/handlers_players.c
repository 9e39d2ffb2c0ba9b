/*
 * handlers_players.c - players across games: making a player, who a player's token is, and
 * "my games" (GET /v1/players/me/games). Binding seats to players at creation is
 * handlers_create.c's.
 *
 * A player is a name and a token ("pt_" and 43 base64url characters, shown once, kept as
 * its SHA-256 like every token). A seat is bound to a player when the game is created with
 * {"player": "<id>"} in its players, or when the player joins with its token. From then on
 * the player's token acts for that seat exactly as the seat's own token (the token lookup
 * of every game route also looks at the seat's player: db/store.c find_token), and for
 * nothing else: in a game where the player holds no seat it answers 403
 * player_not_seated.
 *
 * "My games" is read, not kept: the player's seats and what they are sorted by (the last
 * event's time, the current deadline) come from one query (lobby_player_games()),
 * so the list is sorted and paged before any game is read; then only the games of the
 * page are read from the game service's cache (game/play.c: a cached state brought up to
 * date by reading only the events after it, never a replay), one small query each for
 * whom the game waits for. A page of `limit` games costs 1 + limit queries, whatever the
 * number of games. With waiting_for_me the games before the page are read too, until the
 * page is full (whom a game waits for is in its state only): at most MY_GAMES_MAX, which
 * bounds a request. A column of whom each game waits for, written by every append, would
 * bound that one too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/quotas.h"
#include "api/service.h"
#include "base/xalloc.h"
#include "engine/legal.h"
#include "game/auth.h"
#include "game/game_repo.h"
#include "game/lobby.h"

#define MY_GAMES_MAX 500
#define MY_GAMES_PAGE_DEFAULT 20
#define MY_GAMES_PAGE_MAX 100

static void create_player(struct http_request *request);

/* POST /v1/players: within PLAYER_RATE_IP players an hour per client (api/quotas.h),
 * asked before and paid only when the player was made. */
void handle_create_player(struct http_request *request)
{
	if (!quotas_admit(request, QUOTAS_PLAYER, quotas_client(request), 1))
		return;
	create_player(request);
	if (request->status == 201)
		quotas_charge(request, QUOTAS_PLAYER, quotas_client(request), 1);
}

static void create_player(struct http_request *request)
{
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	char text[PLAY_NAME_SIZE];
	struct problem_refusal refusal;
	int named = inputs_player(body, text, &refusal);
	if (!named)
		service_refuse(request, &refusal);
	json_decref(body);
	if (!named)
		return;
	char token[AUTH_TOKEN_LENGTH + 1];
	uint8_t hash[AUTH_HASH_SIZE];
	if (!service_new_token(request, "pt_", token, hash))
		return;
	int64_t id;
	enum store_status status = lobby_player_create(text, hash, &id);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	char id_text[STORE_ID_TEXT_SIZE], location[64];
	store_format_id(id, id_text);
	snprintf(location, sizeof location, "/v1/players/%s", id_text);
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, json_pack("{s:s, s:s, s:s}", "id", id_text, "name", text, "token", token), -1);
}

/* The player of the request's bearer token: 1 and *out, or 0 with 401 queued. */
int handlers_authenticate_player(struct http_request *request, struct store_player *out)
{
	uint8_t hash[AUTH_HASH_SIZE];
	return handlers_authenticate_player_hash(request, out, hash);
}

int handlers_authenticate_player_hash(struct http_request *request, struct store_player *out,
				      uint8_t hash[AUTH_HASH_SIZE])
{
	const char *token;
	size_t length;
	int bearer;
	if (!service_read_token(request, &token, &length, &bearer))
		return 0;
	if (bearer == 0) {
		http_respond_problem(request, PROBLEM_MISSING_TOKEN, "send Authorization: Bearer <player token>", NULL,
				     -1);
		return 0;
	}
	/* A player's token is limited as a seat's is (it acts for all the player's seats). */
	if (bearer > 0 && !service_token_admit(request, token, length))
		return 0;
	memset(hash, 0, AUTH_HASH_SIZE);
	if (bearer > 0)
		auth_hash(token, length, hash);
	enum store_status status = bearer > 0 ? lobby_player_by_token(hash, out) : STORE_NOT_FOUND;
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN, "this is not a player token", NULL, -1);
		return 0;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	request->token = token;
	request->token_length = length;
	return 1;
}

/* One game of the player, summarised. */
struct my_game {
	int64_t id;
	int seat;
	const char *status; /* NULL until complete() read the game (a waiting game needs no read) */
	int32_t version;
	uint8_t waiting_for;
	int64_t deadline_us;	/* 0: none */
	int64_t last_change_us; /* the last event's time (the creation's while waiting) */
};

/* What the one query of the player's games tells: enough to sort and page, no read. */
static void summarise(const struct store_player_game *row, struct my_game *out)
{
	memset(out, 0, sizeof *out);
	out->id = row->seat.game_id;
	out->seat = row->seat.seat;
	out->deadline_us = row->deadline_us;
	out->last_change_us = row->last_event_at_us ? row->last_event_at_us : row->created_at_us;
	if (row->seat.status == STORE_STATUS_WAITING)
		out->status = "waiting";
	else if (row->seat.status == STORE_STATUS_EXPIRED)
		out->status = "expired"; /* no events: nothing to read */
}

/* The rest of a started game (its status, version and whom it waits for) from the game
 * service's cache, brought up to date by the events after it: one query. 0 with a
 * problem queued. */
static int complete(struct http_request *request, struct my_game *game)
{
	if (game->status)
		return 1;
	struct game_record record;
	enum store_status status = play_load(game->id, 1, &record);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	static const char *const statuses[] = {"setup", "playing", "finished"};
	game->status = statuses[game_repo_status_of(&record.state)];
	game->version = (int32_t)record.state.version;
	game->waiting_for = legal_waiting_for(&record.state);
	return 1;
}

/* Ties are broken by id, so an order is total and pages never overlap. Each order is its
 * own comparator, chosen per request: a comparator reads nothing but its two games, so
 * concurrent requests cannot see each other's order (issue 20 item 13: one shared static
 * variable chose it). */
static int compare_ids(const struct my_game *x, const struct my_game *y)
{
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Deadline: soonest first, games without one after. */
static int compare_deadlines(const void *a, const void *b)
{
	const struct my_game *x = a, *y = b;
	if (x->deadline_us != y->deadline_us) {
		if (!x->deadline_us || !y->deadline_us)
			return x->deadline_us ? -1 : 1;
		return x->deadline_us < y->deadline_us ? -1 : 1;
	}
	return compare_ids(x, y);
}

/* Last change: latest first. */
static int compare_last_changes(const void *a, const void *b)
{
	const struct my_game *x = a, *y = b;
	if (x->last_change_us != y->last_change_us)
		return x->last_change_us > y->last_change_us ? -1 : 1;
	return compare_ids(x, y);
}

void handle_get_my_games(struct http_request *request)
{
	const char *filter = http_query(request, "waiting_for_me");
	if (filter && strcmp(filter, "true") != 0 && strcmp(filter, "false") != 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "waiting_for_me is true or false",
				     "waiting_for_me", -1);
		return;
	}
	const char *sort = http_query(request, "sort");
	if (sort && strcmp(sort, "deadline") != 0 && strcmp(sort, "last_change") != 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "sort is deadline or last_change", "sort", -1);
		return;
	}
	int limit = MY_GAMES_PAGE_DEFAULT;
	const char *limit_text = http_query(request, "limit");
	if (limit_text) {
		char *end = NULL;
		long value = strtol(limit_text, &end, 10);
		if (!*limit_text || *end || value < 1 || value > MY_GAMES_PAGE_MAX) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "limit is 1..100", "limit", -1);
			return;
		}
		limit = (int)value;
	}
	/* The cursor is the position after the last game of the previous page, in this order. */
	long offset = 0;
	const char *cursor = http_query(request, "cursor");
	if (cursor) {
		char *end = NULL;
		offset = cursor[0] == 'o' ? strtol(cursor + 1, &end, 10) : -1;
		if (offset < 0 || offset > MY_GAMES_MAX || !end || *end || end == cursor + 1) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD,
					     "cursor is the next_cursor of a previous page", "cursor", -1);
			return;
		}
	}
	struct store_player player;
	if (!handlers_authenticate_player(request, &player))
		return;
	struct store_player_game *rows = xcalloc(MY_GAMES_MAX, sizeof *rows);
	struct my_game *games = xcalloc(MY_GAMES_MAX, sizeof *games);
	int count = 0;
	enum store_status status = lobby_player_games(player.id, MY_GAMES_MAX, rows, &count);
	if (status != STORE_OK) {
		service_store_error(request, status);
		goto done;
	}
	for (int i = 0; i < count; i++)
		summarise(&rows[i], &games[i]);
	qsort(games, (size_t)count, sizeof *games,
	      sort && strcmp(sort, "deadline") == 0 ? compare_deadlines : compare_last_changes);
	/* Only the games of the page are read; with waiting_for_me also those before them, until
	 * the page is full (whom a game waits for is known only from its state). */
	json_t *list = json_array();
	long position = 0, end = offset + limit;
	int more = 0;
	for (int i = 0; i < count; i++) {
		struct my_game *game = &games[i];
		if (filter) {
			if (!complete(request, game)) {
				json_decref(list);
				goto done;
			}
			int mine = game->waiting_for >> game->seat & 1u;
			if ((strcmp(filter, "true") == 0) != mine)
				continue;
		}
		if (position++ < offset)
			continue;
		if (position > end) {
			more = 1;
			break;
		}
		if (!complete(request, game)) {
			json_decref(list);
			goto done;
		}
		char id[STORE_ID_TEXT_SIZE], deadline[40], changed[40];
		store_format_id(game->id, id);
		play_format_time(game->last_change_us, changed, sizeof changed);
		if (game->deadline_us)
			play_format_time(game->deadline_us, deadline, sizeof deadline);
		json_t *waiting = json_array();
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			if (game->waiting_for >> s & 1u)
				json_array_append_new(waiting, json_integer(s));
		json_array_append_new(list, json_pack("{s:s, s:i, s:s, s:i, s:o, s:b, s:o, s:{s:s, s:i}}", "id", id,
						      "seat", game->seat, "status", game->status, "version",
						      (int)game->version, "waiting_for", waiting, "waiting_for_me",
						      game->waiting_for >> game->seat & 1u, "deadline",
						      game->deadline_us ? json_string(deadline) : json_null(),
						      "last_change", "at", changed, "version", (int)game->version));
	}
	json_t *next = json_null();
	if (more) {
		char text[24];
		snprintf(text, sizeof text, "o%ld", offset + limit);
		next = json_string(text);
	}
	char player_id[STORE_ID_TEXT_SIZE];
	store_format_id(player.id, player_id);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 200,
			  json_pack("{s:s, s:s, s:o, s:o}", "player", player_id, "name", player.name, "games", list,
				    "next_cursor", next),
			  -1);
done:
	free(rows);
	free(games);
}
