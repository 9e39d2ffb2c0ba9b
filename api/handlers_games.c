/*
 * handlers_games.c - creating a game and reading it: the view, the board, the players,
 * the caller's legal actions.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/auth.h"
#include "base/clock.h"
#include "api/config.h"
#include "codec/options.h"
#include "codec/shapes.h"
#include "api/handlers.h"
#include "base/counters.h"
#include "api/notify.h"
#include "api/quotas.h"
#include "api/service.h"
#include "base/xalloc.h"
#include "codec/text.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/rules.h"
#include "engine/view.h"

/* The view of API.md for the session's viewer (the admin sees what a spectator sees). */
static json_t *game_json(const struct session *session)
{
	const struct game_record *game = &session->game;
	struct game_view view;
	view_game(&game->state, session->viewer >= 0 ? session->viewer : VIEW_SPECTATOR, &view);
	const char *names[GAME_MAX_SEATS];
	play_names(game, names);
	json_t *body = json_object();
	json_object_set_new(body, "id", json_string(game->id_text));
	json_t *view_json = codec_view_to_json(&view, names);
	json_object_update(body, view_json);
	json_decref(view_json);
	json_t *players = json_object_get(body, "players");
	size_t index;
	json_t *player;
	json_array_foreach(players, index, player)
		if (index < GAME_MAX_SEATS) {
			json_object_set_new(player, "bot", json_boolean(game->bots[index]));
			json_object_set_new(player, "away", json_boolean(game->away[index]));
		}
	json_t *options = json_object_get(body, "options");
	if (options) {
		json_object_set_new(options, "turn_timeout_s", json_integer(game->options.turn_timeout_s));
		json_object_set_new(options, "on_timeout",
				    json_string(game->options.on_timeout == CODEC_ON_TIMEOUT_BOT ? "bot" : "default"));
	}
	return body;
}

/* The view's `deadline` (when the current wait times out, RFC 3339 UTC, or
 * null) into `view`; 0 with the store's problem queued. */
static int put_deadline(struct http_request *request, const struct session *session, json_t *view)
{
	int64_t deadline_us;
	enum store_status status = play_deadline(&session->game, &deadline_us);
	if (status != STORE_OK) {
		json_decref(view);
		service_store_error(request, status);
		return 0;
	}
	char text[40];
	if (deadline_us)
		play_format_time(deadline_us, text, sizeof text);
	json_object_set_new(view, "deadline", deadline_us ? json_string(text) : json_null());
	return 1;
}

int handlers_read_name(struct http_request *request, const json_t *value, const char *field, char *out)
{
	struct inputs_refusal refusal;
	if (inputs_name(value, field, out, &refusal))
		return 1;
	service_refuse(request, &refusal);
	return 0;
}

_Static_assert(INPUTS_NAME_SIZE == PLAY_NAME_SIZE, "a name of inputs.h fits a game's name");

struct new_seats {
	int count;
	char names[GAME_MAX_SEATS][PLAY_NAME_SIZE];
	int bots[GAME_MAX_SEATS];
	int open[GAME_MAX_SEATS]; /* {"open": true}: a seat to join (api/handlers_lobby.c) */
	int64_t players[GAME_MAX_SEATS]; /* {"player": "<id>"}: the seat's player, 0 none */
	int open_count;
};

/* `seats` or `players` of the create body; 0 with a problem queued. */
static int parse_seats(struct http_request *request, json_t *body, struct new_seats *out)
{
	json_t *seats = json_object_get(body, "seats");
	json_t *players = json_object_get(body, "players");
	memset(out, 0, sizeof *out);
	if (seats && players) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "give either seats or players, not both", "players", -1);
		return 0;
	}
	if (!seats && !players) {
		http_respond_problem(request, PROBLEM_MISSING_FIELD, "give seats (3 or 4) or players (3 or 4 entries)", "seats",
				     -1);
		return 0;
	}
	if (seats) {
		if (!json_is_integer(seats) || json_integer_value(seats) < GAME_MIN_SEATS ||
		    json_integer_value(seats) > GAME_MAX_SEATS) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "seats must be 3 or 4", "seats", -1);
			return 0;
		}
		out->count = (int)json_integer_value(seats);
		for (int s = 0; s < out->count; s++)
			snprintf(out->names[s], PLAY_NAME_SIZE, "Seat %d", s + 1);
		return 1;
	}
	if (!json_is_array(players) || json_array_size(players) < GAME_MIN_SEATS ||
	    json_array_size(players) > GAME_MAX_SEATS) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "players must list 3 or 4 players", "players", -1);
		return 0;
	}
	out->count = (int)json_array_size(players);
	for (int s = 0; s < out->count; s++) {
		json_t *player = json_array_get(players, (size_t)s);
		char field[128];
		if (!json_is_object(player)) {
			snprintf(field, sizeof field, "players[%d]", s);
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "each player is an object {name, bot}", field, -1);
			return 0;
		}
		const char *key;
		json_t *value;
		json_object_foreach(player, key, value) {
			if (strcmp(key, "name") != 0 && strcmp(key, "bot") != 0 && strcmp(key, "open") != 0 &&
			    strcmp(key, "player") != 0) {
				char quoted[64];
				snprintf(field, sizeof field, "players[%d].%s", s, text_quote(quoted, sizeof quoted, key, 16));
				http_respond_problem(request, PROBLEM_UNKNOWN_FIELD,
						     "a player has only name, bot and player, or open", field, -1);
				return 0;
			}
		}
		json_t *name = json_object_get(player, "name");
		json_t *bot = json_object_get(player, "bot");
		if (name) {
			snprintf(field, sizeof field, "players[%d].name", s);
			if (!handlers_read_name(request, name, field, out->names[s]))
				return 0;
		} else {
			snprintf(out->names[s], PLAY_NAME_SIZE, "Seat %d", s + 1);
		}
		if (bot && !json_is_boolean(bot)) {
			snprintf(field, sizeof field, "players[%d].bot", s);
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "bot is true or false", field, -1);
			return 0;
		}
		out->bots[s] = bot && json_is_true(bot);
		json_t *open = json_object_get(player, "open");
		if (open && (!json_is_boolean(open) || (json_is_true(open) && (name || bot)))) {
			snprintf(field, sizeof field, "players[%d].open", s);
			http_respond_problem(request, PROBLEM_INVALID_FIELD,
					     "open is true or false; an open seat has no name and is not a bot", field, -1);
			return 0;
		}
		out->open[s] = open && json_is_true(open);
		out->open_count += out->open[s];
		if (!handlers_seat_player(request, json_object_get(player, "player"), s, out->players, name != NULL, out->names[s],
					  out->bots[s] || out->open[s]))
			return 0;
	}
	return 1;
}

/* 1 when the request carries the server's creation key as its bearer token. */
static int has_create_key(struct http_request *request)
{
	const char *key = service_config()->create_key;
	const char *token;
	size_t length;
	if (!key || !auth_bearer(http_header(request, MHD_HTTP_HEADER_AUTHORIZATION), &token, &length))
		return 0;
	uint8_t given[AUTH_HASH_SIZE], wanted[AUTH_HASH_SIZE];
	auth_hash(token, length, given);
	auth_hash(key, strlen(key), wanted);
	return auth_equal(given, wanted);
}

/* Who may create a game, and how many: with CREATE_KEY set only its holders; without it
 * anyone, within CREATE_RATE_IP games an hour per client (api/quotas.h: asked here,
 * paid by handlers_created() once the game exists). 0 with a problem queued. */
static int may_create(struct http_request *request, int keyed)
{
	if (service_config()->create_key && !keyed) {
		http_respond_problem(request, PROBLEM_CREATE_KEY_REQUIRED,
				     "this server creates games only with its creation key (Authorization: Bearer)", NULL,
				     -1);
		return 0;
	}
	return keyed || quotas_admit(request, QUOTAS_CREATE, quotas_client(request), 1);
}

/* A game with no human seat costs CPU and serves nobody waiting: an operator's choice. */
static int bots_only_allowed(struct http_request *request, int keyed, const int *bots, int seats)
{
	int humans = 0;
	for (int s = 0; s < seats; s++)
		humans += !bots[s];
	if (humans == 0 && !keyed && !service_config()->all_bot_games) {
		http_respond_problem(request, PROBLEM_CREATE_KEY_REQUIRED,
				     "a game of bots only needs the creation key (or ALL_BOT_GAMES=1 on the server)",
				     "players", -1);
		return 0;
	}
	return 1;
}

int handlers_bots_only_allowed(struct http_request *request, const int *bots, int seats)
{
	return bots_only_allowed(request, has_create_key(request), bots, seats);
}
void handlers_created(struct http_request *request)
{
	if (request->status == 201 && !has_create_key(request))
		quotas_charge(request, QUOTAS_CREATE, quotas_client(request), 1);
}

static void create_game(struct http_request *request, int keyed);

void handle_create_game(struct http_request *request)
{
	int keyed = has_create_key(request);
	if (!may_create(request, keyed))
		return;
	create_game(request, keyed);
	/* Only a game made is paid for: a refused body costs the client nothing. */
	handlers_created(request);
}

static void create_game(struct http_request *request, int keyed)
{
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	static const char *const members[] = {"seats", "players", "options", "public", NULL};
	if (!service_known_members(request, body, members,
				   "a game is created with seats or players, options, and public")) {
		json_decref(body);
		return;
	}
	struct new_seats seats;
	if (!parse_seats(request, body, &seats)) {
		json_decref(body);
		return;
	}
	int public_game = 0;
	if (!handlers_lobby_public(request, body, seats.open_count, &public_game)) {
		json_decref(body);
		return;
	}
	if (!bots_only_allowed(request, keyed, seats.bots, seats.count)) {
		json_decref(body);
		return;
	}
	struct codec_options options;
	memset(&options, 0, sizeof options);
	options.game.seats = (uint8_t)seats.count;
	struct codec_error error;
	if (!codec_options_from_json(json_object_get(body, "options"), &options, &error)) {
		service_codec_error(request, &error);
		json_decref(body);
		return;
	}
	json_decref(body);

	int64_t seed = (int64_t)options.seed;
	if (!options.has_seed) {
		uint64_t random_seed;
		if (!auth_random(&random_seed, sizeof random_seed)) {
			http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
			return;
		}
		seed = (int64_t)(random_seed >> 1);
	}
	char admin_token[AUTH_TOKEN_LENGTH + 1];
	char tokens[GAME_MAX_SEATS][AUTH_TOKEN_LENGTH + 1];
	uint8_t admin_hash[AUTH_HASH_SIZE];
	uint8_t token_hashes[GAME_MAX_SEATS][AUTH_HASH_SIZE];
	int ok = auth_new_token("at_", admin_token);
	auth_hash(admin_token, strlen(admin_token), admin_hash);
	struct play_new_game new_game = {&options, seed, {NULL}, seats.bots, token_hashes, admin_hash, seats.players};
	for (int s = 0; s < seats.count && ok; s++) {
		new_game.names[s] = seats.names[s];
		ok = auth_new_token("st_", tokens[s]);
		auth_hash(tokens[s], strlen(tokens[s]), token_hashes[s]);
	}
	if (!ok) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		return;
	}
	if (seats.open_count > 0) {
		/* A game that waits for players to join (api/handlers_lobby.c). */
		handlers_create_waiting(request, &new_game, seats.open, public_game, tokens, admin_token);
		return;
	}
	struct session session;
	memset(&session, 0, sizeof session);
	session.viewer = VIEW_SPECTATOR;
	enum store_status status;
	enum error refused = play_create(&new_game, &session.game, &status);
	if (refused != ERROR_OK) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, error_message(refused), "options", -1);
		return;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	const struct game *after = &session.game.state;
	snprintf(request->game, sizeof request->game, "%s", session.game.id_text);

	json_t *seat_list = json_array();
	for (int s = 0; s < seats.count; s++)
		json_array_append_new(seat_list,
				      json_pack("{s:i, s:s, s:b, s:o}", "seat", s, "name", seats.names[s], "bot", seats.bots[s],
						"token", seats.bots[s] ? json_null() : json_string(tokens[s])));
	json_t *view = game_json(&session);
	if (!put_deadline(request, &session, view)) {
		json_decref(seat_list);
		return;
	}
	json_t *response = json_pack("{s:s, s:i, s:s, s:o, s:o}", "id", session.game.id_text, "version",
				     (int)after->version, "admin_token", admin_token, "seats", seat_list, "game", view);
	char location[64];
	snprintf(location, sizeof location, "/v1/games/%s", session.game.id_text);
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, response, (long)after->version);
}

void handle_get_game(struct http_request *request)
{
	struct session session;
	int waiting;
	if (!service_open_or_waiting(request, &session, &waiting))
		return;
	/* A game that waits for players: its seats, as GET .../seats shows them; when it
	 * started in between, the started game. */
	if (waiting && handlers_respond_waiting(request, session.game.id))
		return;
	if (waiting && !service_open(request, &session))
		return;
	int past = handlers_history_at(request, &session);
	if (past < 0)
		return;
	json_t *view = game_json(&session);
	if (past)
		json_object_set_new(view, "deadline", json_null());
	else if (!put_deadline(request, &session, view))
		return;
	http_respond_json(request, 200, view, (long)session.game.state.version);
}

void handle_get_board(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	json_t *board = codec_board_to_json(&session.game.state.board);
	json_object_set_new(board, "robber", json_integer(session.game.state.robber));
	/* Its own tag, from its content: it changes only when the robber moves, not with
	 * every move as the game's version does. */
	http_respond_json_hashed(request, 200, board, "board-");
}

void handle_get_players(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session) || handlers_history_at(request, &session) < 0)
		return;
	json_t *view = game_json(&session);
	json_t *body = json_pack("{s:i, s:O}", "version", (int)session.game.state.version, "players",
				 json_object_get(view, "players"));
	json_decref(view);
	http_respond_json(request, 200, body, (long)session.game.state.version);
}

json_t *handlers_actions_json(const struct session *session)
{
	const struct game *state = &session->game.state;
	json_t *actions;
	if (session->viewer >= 0) {
		struct command *moves = xmalloc(sizeof *moves * LEGAL_MOVES_MAX);
		int count = legal_moves(state, session->viewer, moves, LEGAL_MOVES_MAX);
		/* Templates carry what completes them (the hand, whom an offer may address). */
		actions = codec_actions_to_json(state, session->viewer, moves,
						count < LEGAL_MOVES_MAX ? count : LEGAL_MOVES_MAX);
		free(moves);
	} else {
		actions = json_array();
	}
	json_t *waiting = json_array();
	uint8_t mask = legal_waiting_for(state);
	for (int s = 0; s < state->options.seats; s++)
		if (mask >> s & 1u)
			json_array_append_new(waiting, json_integer(s));
	json_t *body = json_pack("{s:i, s:o, s:o, s:o}", "version", (int)state->version, "seat",
				 session->viewer >= 0 ? json_integer(session->viewer) : json_null(), "waiting_for", waiting,
				 "actions", actions);
	return body;
}

/* GET /actions?wait=S between its wake-ups (api/notify.h): the session opened on the
 * first run (the token checked and counted once, not on every wake-up), refreshed after. */
struct actions_wait {
	struct notify_waiter waiter;
	double deadline;
	long after; /* the version the caller gave */
	struct session session;
};

/* 1 when the game waits for the caller's seat. */
static int seat_due(const struct session *session)
{
	return session->viewer >= 0 && (legal_waiting_for(&session->game.state) >> session->viewer & 1u);
}

/* GET /actions, and with ?after=N&wait=S the wait for the caller's turn: answered at once
 * when the game is past version N and waits for the caller's seat, or is over (nothing
 * will ever be due: waiting would only cost the client its wait); otherwise parked like a
 * long-poll of the log (counted in MAX_WAITING, woken through LISTEN/NOTIFY by a move on
 * any server) and checked again after each new event, answering the current actions when
 * the wait runs out. A spectator or the admin, never waited for, waits until the game ends
 * or the time runs out. */
void handle_get_actions(struct http_request *request)
{
	struct actions_wait *parked = request->state;
	struct session now;
	struct session *session = parked ? &parked->session : &now;
	long after = 0;
	if (parked) {
		/* Woken: the parameters were read and the caller admitted on the first run. */
		after = parked->after;
		if (!service_refresh(request, session))
			return;
	} else {
		after = http_query_integer(request, "after", 0, 0, INT32_MAX);
		long wait = after < 0 ? -1 : http_query_integer(request, "wait", 0, 0, HANDLERS_WAIT_MAX_S);
		if (after < 0 || wait < 0 || !service_open(request, &now))
			return;
		if (wait > 0) {
			if (!http_wait_admit(request))
				return;
			parked = xcalloc(1, sizeof *parked);
			parked->deadline = clock_now() + (double)wait;
			parked->after = after;
			memcpy(&parked->session, &now, sizeof now);
			request->state = parked;
			request->free_state = free;
			session = &parked->session;
		}
	}
	for (;;) {
		const struct game *state = &session->game.state;
		if (!parked || state->phase == GAME_PHASE_FINISHED || ((long)state->version > after && seat_due(session)) ||
		    clock_now() >= parked->deadline || notify_stopping())
			break;
		/* Woken by every event after the version read: each may make the seat act. */
		if (notify_park(&parked->waiter, request, session->game.id, (int32_t)state->version, parked->deadline))
			return;
		if (!service_refresh(request, session))
			return;
	}
	http_respond_json(request, 200, handlers_actions_json(session), (long)session->game.state.version);
}

int handlers_has_create_key(struct http_request *request)
{
	return has_create_key(request);
}

int handlers_may_create(struct http_request *request)
{
	return may_create(request, has_create_key(request));
}

json_t *handlers_game_view(struct http_request *request, const struct session *session)
{
	json_t *view = game_json(session);
	return put_deadline(request, session, view) ? view : NULL;
}
