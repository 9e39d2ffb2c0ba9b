/*
 * handlers_lobby.c - games that wait for players: their view while they wait, joining one
 * with the invite, the admin's seat changes before the start, and the public lobby (GET
 * /v1/games?status=waiting). Creating one (with open seats, its invite shown once) is
 * handlers_create.c's.
 *
 * Everything that decides who gets which seat happens in one SQL statement that locks the
 * game's row (db/store_lobby.c): this file only validates, hashes and renders. The rules
 * for a name are create's (1..40 characters, no control or bidi-control character).
 *
 * A join may bring the joiner's player seed (issue 26, docs/fairness.md): the seat keeps it
 * until the game starts, and the start writes a player_seed_set event for it
 * (db/migrations/0033_join_player_seed.sql); 409 not_provably_fair for a game created with
 * a chosen seed.
 *
 * Answers: 404 game_not_found (no such game, or no longer waiting for a view), 403
 * wrong_invite, 409 game_started / game_finished / game_full / seat_not_changeable /
 * not_provably_fair, 400 naming the field; nothing is changed by a refused request.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "base/xalloc.h"
#include "codec/fairness.h"
#include "game/auth.h"
#include "game/game_repo.h"
#include "game/lobby.h"
#include "game/ratings.h"
#include "game/substitutes.h"

#define LOBBY_PAGE_DEFAULT 20
#define CURSOR_LENGTH 33 /* "c" and two times 16 hex digits */

/* The seats of a waiting game as anyone may see them. New reference. */
static json_t *seats_json(const struct store_waiting_game *game, int *open_count)
{
	json_t *seats = json_array();
	*open_count = 0;
	for (int s = 0; s < game->seats; s++) {
		*open_count += game->open[s];
		char name[PLAY_NAME_SIZE];
		snprintf(name, sizeof name, "Seat %d", s + 1);
		json_array_append_new(seats, json_pack("{s:i, s:s, s:b, s:b}", "seat", s, "name",
						       game->names[s] ? game->names[s] : name, "bot", game->bots[s],
						       "open", game->open[s]));
	}
	return seats;
}

/* The view of a waiting game (no secret in it). New reference. */
static json_t *waiting_json(const struct store_waiting_game *game)
{
	char id[STORE_ID_TEXT_SIZE], created[40];
	store_format_id(game->id, id);
	play_format_time(game->created_at_us, created, sizeof created);
	int open_count;
	json_t *seats = seats_json(game, &open_count);
	json_t *options = json_loads(game->options ? game->options : "{}", 0, NULL);
	/* No "version": the seats change while the game has none (its tag is the content's). */
	json_t *view = json_pack("{s:s, s:s, s:b, s:s, s:i, s:o, s:o}", "id", id, "status",
				 game->status == STORE_STATUS_EXPIRED ? "expired" : "waiting", "public",
				 game->public_game, "created_at", created, "open_seats", open_count, "seats", seats,
				 "options", options ? options : json_object());
	struct codec_fairness fairness = {0};
	fairness.scheme = game->fair ? EVENT_FAIRNESS_HMAC_1 : EVENT_FAIRNESS_NONE;
	fairness.seats = game->seats;
	memcpy(fairness.commitment, game->commitment, sizeof fairness.commitment);
	json_object_set_new(view, "fairness", codec_commitment_to_json(&fairness));
	if (game->status == STORE_STATUS_EXPIRED) {
		char expired[40];
		play_format_time(game->expired_at_us, expired, sizeof expired);
		json_object_set_new(view, "expired_at", json_string(expired));
	}
	return view;
}

static int path_game(struct http_request *request, int64_t *id);

/* The seats of a started game (loaded by service_open()), each with its holiday time of
 * the last 365 days and what is left of the allowance when `used_s` (NULL: not read).
 * New reference. */
static json_t *started_json(const struct session *session, const int64_t *used_s, int64_t allowance_s)
{
	const struct game_record *game = &session->game;
	static const char *const statuses[] = {"setup", "playing", "finished"};
	json_t *seats = json_array();
	for (int s = 0; s < game->state.options.seats; s++) {
		json_t *seat = json_pack("{s:i, s:s, s:b, s:b}", "seat", s, "name", game->names[s], "bot",
					 game->bots[s], "open", 0);
		if (used_s) {
			json_object_set_new(seat, "away", json_boolean(game->away[s]));
			json_object_set_new(seat, "holiday_used_s", json_integer(used_s[s]));
			json_object_set_new(seat, "holiday_left_s",
					    json_integer(used_s[s] < allowance_s ? allowance_s - used_s[s] : 0));
		}
		json_array_append_new(seats, seat);
	}
	return json_pack("{s:s, s:s, s:i, s:i, s:o}", "id", game->id_text, "status",
			 statuses[game_repo_status_of(&game->state)], "version", (int)game->state.version, "open_seats",
			 0, "seats", seats);
}

int handlers_respond_waiting(struct http_request *request, int64_t game_id)
{
	struct store_waiting_game game;
	enum store_status status = lobby_waiting(game_id, &game);
	if (status == STORE_OK) {
		json_t *view = waiting_json(&game);
		store_waiting_game_free(&game);
		/* Seats change at version 0: the tag is the content's. */
		http_respond_json_hashed(request, 200, view, "seats-");
		return 1;
	}
	if (status != STORE_NOT_FOUND) {
		service_store_error(request, status);
		return 1;
	}
	return 0;
}

/* The path's game as its seats: a waiting game's (open or taken), or a started one's. */
static void respond_seats(struct http_request *request, int64_t game_id)
{
	if (handlers_respond_waiting(request, game_id))
		return;
	struct session session;
	if (!service_open(request, &session))
		return;
	int64_t used_s[STORE_MAX_SEATS] = {0}, allowance_s = 0;
	int counted = 0;
	enum store_status status = lobby_holidays(game_id, used_s, &allowance_s, &counted);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	json_t *view = started_json(&session, counted == session.game.state.options.seats ? used_s : NULL, allowance_s);
	if (!handlers_put_substitutes(request, game_id, json_object_get(view, "seats"))) {
		json_decref(view);
		return;
	}
	/* Who holds each seat: a player's public id, as the export shows it to anyone (its
	 * profile, GET /v1/players/{id}, has the rating the game page shows in the row). */
	int64_t players[GAME_MAX_SEATS];
	if ((status = lobby_seat_players(game_id, players)) != STORE_OK) {
		json_decref(view);
		service_store_error(request, status);
		return;
	}
	size_t index;
	json_t *seat;
	json_array_foreach(json_object_get(view, "seats"), index, seat)
	{
		char player[STORE_ID_TEXT_SIZE];
		store_format_id(index < GAME_MAX_SEATS ? players[index] : 0, player);
		json_object_set_new(seat, "player",
				    index < GAME_MAX_SEATS && players[index] ? json_string(player) : json_null());
	}
	/* Tagged by the version like every read of a started game: the holiday figures are the
	 * answer's moment's, and a revalidation (304) of the same version keeps those held. */
	http_respond_json(request, 200, view, (long)session.game.state.version);
}

/* The game id of the path: 1 and *id, or 0 with 404 queued. */
static int path_game(struct http_request *request, int64_t *id)
{
	if (!request->params[0] || !store_parse_id(request->params[0], id)) {
		http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, "game ids are 16 lowercase hex digits", NULL, -1);
		return 0;
	}
	snprintf(request->game, sizeof request->game, "%s", request->params[0]);
	return 1;
}

/* The answer to a seat outcome other than done; 1 when it was done (nothing queued). */
static int seat_outcome(struct http_request *request, const struct store_seat_result *result, int join)
{
	switch (result->outcome) {
	case STORE_SEAT_DONE:
		return 1;
	case STORE_SEAT_NO_GAME:
		http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, "no game has this id", NULL, -1);
		return 0;
	case STORE_SEAT_WRONG_SECRET:
		if (join)
			http_respond_problem(request, PROBLEM_WRONG_INVITE, "this invite is not this game's", "invite",
					     -1);
		else
			http_respond_problem(request, PROBLEM_ADMIN_TOKEN_REQUIRED,
					     "changing a seat needs the game's admin token", NULL, -1);
		return 0;
	case STORE_SEAT_STARTED:
		http_respond_problem(request, PROBLEM_GAME_STARTED, "the game has started: its seats are taken", NULL,
				     -1);
		return 0;
	case STORE_SEAT_FINISHED:
		http_respond_problem(request, PROBLEM_GAME_FINISHED, "the game is over", NULL, -1);
		return 0;
	case STORE_SEAT_EXPIRED:
		http_respond_problem(
			request, PROBLEM_GAME_EXPIRED,
			"nobody filled the game's seats in time (LOBBY_EXPIRE_S): it expired and will not start", NULL,
			-1);
		return 0;
	case STORE_SEAT_BOTS_ONLY:
		http_respond_problem(
			request, PROBLEM_CREATE_KEY_REQUIRED,
			"the last seat a person may take cannot go to a bot: a game of bots only is created "
			"with the server's creation key (or on a server with ALL_BOT_GAMES=1)",
			"seat", -1);
		return 0;
	case STORE_SEAT_ALREADY_SEATED:
		http_respond_problem(request, PROBLEM_ALREADY_SEATED, "this player holds a seat of this game already",
				     NULL, -1);
		return 0;
	default:
		if (join)
			http_respond_problem(request, PROBLEM_GAME_FULL, "every seat of the game is taken", NULL, -1);
		else
			http_respond_problem(
				request, PROBLEM_SEAT_NOT_CHANGEABLE,
				"DELETE takes a seat a player holds (not a bot, not open); .../bot an open seat",
				"seat", -1);
		return 0;
	}
}

/* 1 when waiting game `id` is not rated (options.rated: every seat a player's), or is no
 * waiting game (the join then says why); else 0 with 403 player_token_required queued. */
static int rated_game_refuses(struct http_request *request, int64_t id, const char *detail, enum problem problem)
{
	struct store_waiting_game game;
	enum store_status status = lobby_waiting(id, &game);
	if (status == STORE_NOT_FOUND)
		return 0;
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 1;
	}
	json_t *options = json_loads(game.options ? game.options : "{}", 0, NULL);
	int rated = options && json_is_true(json_object_get(options, "rated"));
	json_decref(options);
	store_waiting_game_free(&game);
	if (rated)
		http_respond_problem(request, problem, detail, NULL, -1);
	return rated;
}

static int anonymous_may_join(struct http_request *request, int64_t id)
{
	return !rated_game_refuses(request, id,
				   "a rated game's seats are players': join with a player token (Authorization: "
				   "Bearer pt_...)",
				   PROBLEM_PLAYER_TOKEN_REQUIRED);
}

/* 1 when waiting game `id` takes a player seed (provably fair), or is no waiting game (the
 * join then says why); else 0 with 409 not_provably_fair queued. */
static int seed_allowed(struct http_request *request, int64_t id)
{
	struct store_waiting_game game;
	enum store_status status = lobby_waiting(id, &game);
	if (status == STORE_NOT_FOUND)
		return 1;
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	int fair = game.fair;
	store_waiting_game_free(&game);
	if (!fair)
		http_respond_problem(request, PROBLEM_NOT_PROVABLY_FAIR,
				     "the game was created with a chosen seed: it takes no player seed", "player_seed",
				     -1);
	return fair;
}

void handle_join_game(struct http_request *request)
{
	int64_t id;
	if (!path_game(request, &id))
		return;
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	char name[PLAY_NAME_SIZE];
	const json_t *invite, *name_value;
	const char *player_seed;
	struct problem_refusal refusal;
	if (!inputs_join(body, &invite, &name_value, &player_seed, &refusal)) {
		service_refuse(request, &refusal);
		json_decref(body);
		return;
	}
	/* With a player's token, the seat is bound to the player (and named after it by default). */
	struct store_player player = {0};
	const char *bearer_token;
	size_t bearer_length;
	int bearer = auth_bearer(http_header(request, MHD_HTTP_HEADER_AUTHORIZATION), &bearer_token, &bearer_length);
	if (bearer > 0 && !service_token_admit(request, bearer_token, bearer_length)) {
		json_decref(body);
		return;
	}
	if (bearer != 0) {
		uint8_t player_hash[AUTH_HASH_SIZE];
		if (bearer > 0)
			auth_hash(bearer_token, bearer_length, player_hash);
		enum store_status found = bearer > 0 ? lobby_player_by_token(player_hash, &player) : STORE_NOT_FOUND;
		if (found == STORE_NOT_FOUND) {
			http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN,
					     "join with a player token (Authorization: Bearer pt_...) or with none",
					     NULL, -1);
			json_decref(body);
			return;
		}
		if (found != STORE_OK) {
			service_store_error(request, found);
			json_decref(body);
			return;
		}
	}
	if (!player.id && !anonymous_may_join(request, id)) {
		json_decref(body);
		return;
	}
	if (player_seed && !seed_allowed(request, id)) {
		json_decref(body);
		return;
	}
	if (player.id && !name_value) {
		snprintf(name, sizeof name, "%s", player.name);
	} else if (!service_read_name(request, name_value, "name", name)) {
		json_decref(body);
		return;
	}
	uint8_t invite_hash[AUTH_HASH_SIZE], token_hash[AUTH_HASH_SIZE];
	auth_hash(json_string_value(invite), json_string_length(invite), invite_hash);
	char seed[CODEC_PLAYER_SEED_MAX + 1] = "";
	if (player_seed)
		snprintf(seed, sizeof seed, "%s", player_seed);
	json_decref(body);
	char token[AUTH_TOKEN_LENGTH + 1];
	if (!service_new_token(request, "st_", token, token_hash))
		return;
	struct store_seat_result result;
	enum store_status status =
		lobby_join(id, invite_hash, name, token_hash, player.id, player_seed ? seed : NULL, &result);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	/* Not the game's invite: it may be a substitute's, for a seat whose player left. */
	if ((result.outcome == STORE_SEAT_STARTED || result.outcome == STORE_SEAT_WRONG_SECRET) &&
	    handlers_join_as_substitute(request, id, invite_hash, name, token, token_hash, player.id,
					player_seed != NULL))
		return;
	if (!seat_outcome(request, &result, 1))
		return;
	request->seat = result.seat;
	json_t *response = json_pack("{s:s, s:i, s:s, s:s, s:i, s:s}", "id", request->game, "seat", result.seat, "name",
				     name, "token", token, "version", (int)result.version, "status",
				     result.version > 0 ? "started" : "waiting");
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 200, response, result.version);
}

/* The admin's change of the path's seat; `action` a store_seat_action. */
static void change_seat(struct http_request *request, int action)
{
	int64_t id;
	if (!path_game(request, &id))
		return;
	const char *seat_text = request->params[1];
	char *end = NULL;
	long seat = seat_text ? strtol(seat_text, &end, 10) : -1;
	if (!seat_text || !*seat_text || *end || seat < 0 || seat >= GAME_MAX_SEATS) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "seat is a seat number, 0..3", "seat", -1);
		return;
	}
	char name[PLAY_NAME_SIZE];
	snprintf(name, sizeof name, "Bot %ld", seat + 1);
	if (action == STORE_SEAT_MAKE_BOT) {
		json_t *body = service_body(request, 1);
		if (!body)
			return;
		static const char *const members[] = {"name", NULL};
		if (!service_known_members(request, body, members, "a bot seat may be given a name")) {
			json_decref(body);
			return;
		}
		json_t *value = json_object_get(body, "name");
		if (value && !service_read_name(request, value, "name", name)) {
			json_decref(body);
			return;
		}
		json_decref(body);
	}
	const char *token;
	size_t length;
	int bearer = auth_bearer(http_header(request, MHD_HTTP_HEADER_AUTHORIZATION), &token, &length);
	if (bearer <= 0) {
		http_respond_problem(request, bearer < 0 ? PROBLEM_UNKNOWN_TOKEN : PROBLEM_MISSING_TOKEN,
				     "send Authorization: Bearer <the game's admin token>", NULL, -1);
		return;
	}
	if (!service_token_admit(request, token, length))
		return;
	uint8_t hash[AUTH_HASH_SIZE];
	auth_hash(token, length, hash);
	if (action == STORE_SEAT_MAKE_BOT &&
	    rated_game_refuses(request, id, "a rated game has no bot seat", PROBLEM_SEAT_NOT_CHANGEABLE))
		return;
	struct store_seat_result result;
	/* A game of bots only is for a server that admits them: the creation key gives them
	 * at creation (api/handlers_create.c), not here, where the bearer is the admin's. */
	enum store_status status =
		lobby_change_seat(id, hash, (int)seat, action, name, service_config()->all_bot_games, &result);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	if (!seat_outcome(request, &result, 0))
		return;
	request->seat = -2;
	if (result.version == 0) {
		respond_seats(request, id);
		return;
	}
	json_t *response =
		json_pack("{s:s, s:s, s:i}", "id", request->game, "status", "started", "version", (int)result.version);
	http_respond_json(request, 200, response, result.version);
}

void handle_get_seats(struct http_request *request)
{
	int64_t id;
	if (path_game(request, &id))
		respond_seats(request, id);
}

void handle_remove_seat(struct http_request *request)
{
	change_seat(request, STORE_SEAT_REMOVE);
}

void handle_seat_bot(struct http_request *request)
{
	change_seat(request, STORE_SEAT_MAKE_BOT);
}

/* ?cursor=: "c" + created_at (µs) + id, each 16 hex digits. 1 when valid. */
static int parse_cursor(const char *text, int64_t *created_us, int64_t *id)
{
	if (strlen(text) != CURSOR_LENGTH || text[0] != 'c')
		return 0;
	for (int i = 1; i < CURSOR_LENGTH; i++)
		if (!((text[i] >= '0' && text[i] <= '9') || (text[i] >= 'a' && text[i] <= 'f')))
			return 0;
	char part[17];
	memcpy(part, text + 1, 16);
	part[16] = '\0';
	*created_us = (int64_t)strtoull(part, NULL, 16);
	return store_parse_id(text + 17, id) && *created_us >= 0;
}

void handle_get_lobby(struct http_request *request)
{
	const char *state = http_query(request, "status");
	/* Games in play whose seat needs a substitute (api/handlers_substitutes.c), or waiting. */
	int substitutes = state && strcmp(state, "needs_substitute") == 0;
	if (!state || (strcmp(state, "waiting") != 0 && !substitutes)) {
		http_respond_problem(request, state ? PROBLEM_INVALID_FIELD : PROBLEM_MISSING_FIELD,
				     "the lobby lists waiting games (?status=waiting) or games whose seat needs a "
				     "substitute (?status=needs_substitute)",
				     "status", -1);
		return;
	}
	int limit = LOBBY_PAGE_DEFAULT;
	const char *limit_text = http_query(request, "limit");
	if (limit_text) {
		char *end = NULL;
		long value = strtol(limit_text, &end, 10);
		if (!*limit_text || *end || value < 1 || value > LOBBY_PAGE_MAX) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "limit is 1..100", "limit", -1);
			return;
		}
		limit = (int)value;
	}
	int64_t after_created = 0, after_id = 0;
	const char *cursor = http_query(request, "cursor");
	if (cursor && !parse_cursor(cursor, &after_created, &after_id)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "cursor is the next_cursor of a previous page",
				     "cursor", -1);
		return;
	}
	/* A rating band (issue 28): the games whose seated players' mean rating is in it. */
	double band[2] = {0, 1e9};
	int banded = http_query(request, "rating_min") || http_query(request, "rating_max");
	long low = http_query_integer(request, "rating_min", 0, 0, 100000);
	if (low < 0)
		return;
	long high = http_query_integer(request, "rating_max", 100000, 0, 100000);
	if (high < 0)
		return;
	band[0] = (double)low;
	band[1] = (double)high;
	struct store_waiting_game *games = xcalloc((size_t)limit, sizeof *games);
	int count = 0;
	enum store_status status = substitutes ? substitutes_lobby(after_created, after_id, limit, games, &count)
				   : banded    ? ratings_lobby(after_created, after_id, limit, band, games, &count)
					       : lobby_list(after_created, after_id, limit, games, &count);
	if (status != STORE_OK) {
		free(games);
		service_store_error(request, status);
		return;
	}
	json_t *list = json_array();
	for (int i = 0; i < count; i++) {
		json_t *entry = waiting_json(&games[i]);
		/* A game in play: its seats that need a substitute are the open ones. */
		if (substitutes)
			json_object_set_new(entry, "status", json_string("needs_substitute"));
		json_array_append_new(list, entry);
	}
	json_t *next = json_null();
	if (count == limit) {
		char text[CURSOR_LENGTH + 1], id[STORE_ID_TEXT_SIZE];
		store_format_id(games[count - 1].id, id);
		snprintf(text, sizeof text, "c%016" PRIx64 "%s", (uint64_t)games[count - 1].created_at_us, id);
		next = json_string(text);
	}
	for (int i = 0; i < count; i++)
		store_waiting_game_free(&games[i]);
	free(games);
	http_respond_json(request, 200, json_pack("{s:o, s:o}", "games", list, "next_cursor", next), -1);
}
