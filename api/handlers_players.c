/*
 * handlers_players.c - players across games: making a player, binding seats to players at
 * creation, and "my games" (GET /v1/players/me/games).
 *
 * A player is a name and a token ("pt_" and 43 base64url characters, shown once, kept as
 * its SHA-256 like every token). A seat is bound to a player when the game is created with
 * {"player": "<id>"} in its players, or when the player joins with its token. From then on
 * the player's token acts for that seat exactly as the seat's own token (the token lookup
 * of every game route also looks at the seat's player: db/store.c find_token), and for
 * nothing else: in a game where the player holds no seat it answers 403
 * player_not_seated.
 *
 * "My games" is read, not kept: the player's seats come from one indexed query
 * (seats_player), and each game's summary from the game service's cache (game/play.c: a
 * cached state brought up to date by reading only the events after it, never a replay),
 * plus the game's last event row for the last change and the deadline. That is two small
 * queries per game; a player is served at most MY_GAMES_MAX games, which bounds a
 * request. A summary column written by every append would make it one query (left for the
 * feed, which needs the same per-player index of changes).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/routes.h"
#include "api/service.h"
#include "codec/text.h"
#include "engine/legal.h"
#include "game/auth.h"
#include "game/game_repo.h"
#include "game/lobby.h"

#define MY_GAMES_MAX 500
#define MY_GAMES_PAGE_DEFAULT 20
#define MY_GAMES_PAGE_MAX 100

void handle_create_player(struct http_request *request)
{
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	static const char *const members[] = {"name", NULL};
	if (!service_known_members(request, body, members, "a player has a name")) {
		json_decref(body);
		return;
	}
	char text[PLAY_NAME_SIZE];
	int named = handlers_read_name(request, json_object_get(body, "name"), "name", text);
	json_decref(body);
	if (!named)
		return;
	char token[AUTH_TOKEN_LENGTH + 1];
	uint8_t hash[AUTH_HASH_SIZE];
	if (!auth_new_token("pt_", token)) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		return;
	}
	auth_hash(token, strlen(token), hash);
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

int handlers_seat_player(struct http_request *request, const json_t *value, int seat, int64_t *players, int named,
			 char *name, int excluded)
{
	char field[64];
	snprintf(field, sizeof field, "players[%d].player", seat);
	players[seat] = 0;
	if (!value)
		return 1;
	int64_t id;
	if (!json_is_string(value) || !store_parse_id(json_string_value(value), &id)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "a player id is 16 lowercase hex digits", field, -1);
		return 0;
	}
	if (excluded) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "an open or bot seat has no player", field, -1);
		return 0;
	}
	for (int s = 0; s < seat; s++) {
		if (players[s] == id) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "a player holds one seat of a game", field, -1);
			return 0;
		}
	}
	struct store_player player;
	enum store_status status = lobby_player_get(id, &player);
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "no player has this id", field, -1);
		return 0;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	if (!named)
		snprintf(name, PLAY_NAME_SIZE, "%s", player.name);
	players[seat] = id;
	return 1;
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
	int bearer = auth_bearer(http_header(request, MHD_HTTP_HEADER_AUTHORIZATION), &token, &length);
	const char *query_token = http_query(request, "token");
	if (query_token && !(request->route && request->route->query_token)) {
		/* Only an EventSource needs a token in the URL; anywhere else it would only leak. */
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "?token= is accepted only by the streams: send Authorization: Bearer <token>", "token",
				     -1);
		return 0;
	}
	if (bearer == 0 && query_token) {
		token = query_token;
		length = strlen(query_token);
		bearer = length > 0 && length <= 128 ? 1 : -1;
	}
	if (bearer == 0) {
		http_respond_problem(request, PROBLEM_MISSING_TOKEN, "send Authorization: Bearer <player token>", NULL, -1);
		return 0;
	}
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
	return 1;
}

/* One game of the player, summarised. */
struct my_game {
	int64_t id;
	int seat;
	const char *status;
	int32_t version;
	uint8_t waiting_for;
	int64_t deadline_us;    /* 0: none */
	int64_t last_change_us; /* the last event's time (the creation's while waiting) */
};

/* Summarise one seat of the player; 0 with a problem queued. */
static int summarise(struct http_request *request, const struct store_player_seat *seat, struct my_game *out)
{
	memset(out, 0, sizeof *out);
	out->id = seat->game_id;
	out->seat = seat->seat;
	if (seat->status == STORE_STATUS_WAITING) {
		struct store_waiting_game waiting;
		enum store_status status = lobby_waiting(seat->game_id, &waiting);
		if (status == STORE_OK) {
			out->status = "waiting";
			out->last_change_us = waiting.created_at_us;
			store_waiting_game_free(&waiting);
			return 1;
		}
		if (status != STORE_NOT_FOUND) {
			service_store_error(request, status);
			return 0;
		}
		/* It started since: read it as a started game. */
	}
	struct game_record record;
	enum store_status status = play_load(seat->game_id, 1, &record);
	if (status == STORE_OK)
		status = play_deadline(&record, &out->deadline_us);
	struct store_log log = {0};
	if (status == STORE_OK && record.state.version > 0)
		status = play_read_log(record.id, (int32_t)record.state.version - 1, 1, &log);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	if (log.count == 1)
		out->last_change_us = log.rows[0].created_at_us;
	store_log_free(&log);
	static const char *const statuses[] = {"setup", "playing", "finished"};
	out->status = statuses[game_repo_status_of(&record.state)];
	out->version = (int32_t)record.state.version;
	out->waiting_for = legal_waiting_for(&record.state);
	return 1;
}

enum my_sort { SORT_LAST_CHANGE, SORT_DEADLINE };

static enum my_sort sorting;

/* Deadline: soonest first, games without one after; last change: latest first. Then id. */
static int compare(const void *a, const void *b)
{
	const struct my_game *x = a, *y = b;
	if (sorting == SORT_DEADLINE && x->deadline_us != y->deadline_us) {
		if (!x->deadline_us || !y->deadline_us)
			return x->deadline_us ? -1 : 1;
		return x->deadline_us < y->deadline_us ? -1 : 1;
	}
	if (sorting == SORT_LAST_CHANGE && x->last_change_us != y->last_change_us)
		return x->last_change_us > y->last_change_us ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

void handle_get_my_games(struct http_request *request)
{
	const char *filter = http_query(request, "waiting_for_me");
	if (filter && strcmp(filter, "true") != 0 && strcmp(filter, "false") != 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "waiting_for_me is true or false", "waiting_for_me", -1);
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
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "cursor is the next_cursor of a previous page",
					     "cursor", -1);
			return;
		}
	}
	struct store_player player;
	if (!handlers_authenticate_player(request, &player))
		return;
	struct store_player_seat *seats = calloc(MY_GAMES_MAX, sizeof *seats);
	struct my_game *games = calloc(MY_GAMES_MAX, sizeof *games);
	if (!seats || !games)
		abort();
	int count = 0, kept = 0;
	enum store_status status = store_player_games(play_store(), player.id, MY_GAMES_MAX, seats, &count);
	if (status != STORE_OK) {
		service_store_error(request, status);
		goto done;
	}
	for (int i = 0; i < count; i++) {
		if (!summarise(request, &seats[i], &games[kept]))
			goto done;
		int mine = games[kept].waiting_for >> games[kept].seat & 1u;
		if (filter && (strcmp(filter, "true") == 0) != mine)
			continue;
		kept++;
	}
	sorting = sort && strcmp(sort, "deadline") == 0 ? SORT_DEADLINE : SORT_LAST_CHANGE;
	qsort(games, (size_t)kept, sizeof *games, compare);
	json_t *list = json_array();
	for (int i = (int)offset; i < kept && i < offset + limit; i++) {
		const struct my_game *game = &games[i];
		char id[STORE_ID_TEXT_SIZE], deadline[40], changed[40];
		store_format_id(game->id, id);
		play_format_time(game->last_change_us, changed, sizeof changed);
		if (game->deadline_us)
			play_format_time(game->deadline_us, deadline, sizeof deadline);
		json_t *waiting = json_array();
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			if (game->waiting_for >> s & 1u)
				json_array_append_new(waiting, json_integer(s));
		json_array_append_new(
			list, json_pack("{s:s, s:i, s:s, s:i, s:o, s:b, s:o, s:{s:s, s:i}}", "id", id, "seat", game->seat,
					"status", game->status, "version", (int)game->version, "waiting_for", waiting,
					"waiting_for_me", game->waiting_for >> game->seat & 1u, "deadline",
					game->deadline_us ? json_string(deadline) : json_null(), "last_change", "at",
					changed, "version", (int)game->version));
	}
	json_t *next = json_null();
	if (offset + limit < kept) {
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
	free(seats);
	free(games);
}
