/*
 * handlers_create.c - making a game: POST /v1/games, and what an import shares with it.
 *
 * Who may create, and how many: with CREATE_KEY set only its holders; without it anyone,
 * within CREATE_RATE_IP games an hour per client (api/quotas.h: asked first, paid once the
 * game exists, so a refused body costs nothing). A game without a human seat costs CPU and
 * serves nobody waiting: the creation key's, or ALL_BOT_GAMES=1.
 *
 * The body: `seats` (3 or 4 anonymous seats) or `players` (3 or 4 entries, each a name, a
 * bot, a player's id, or an open seat to join), `options` (codec/options.h) and `public`
 * (a game with open seats listed in the lobby). A game without open seats is created full
 * through the game service (play_create()); one with open seats waits (game/lobby.h:
 * lobby_create()), and its answer carries the invite.
 *
 * The invite is a secret shown once to the creator, like the tokens: "iv_" and 43
 * base64url characters (256 bits), kept only as its SHA-256. Its link is
 * <base>/#game=<id>&invite=<code>: the code rides in the fragment, which browsers never
 * send to a server, with <base> PUBLIC_URL or else the request's own Host.
 *
 * The secrets of a new game (the seed, unless the options fix it; the admin token; a
 * token per seat) are drawn by handlers_new_game() and shown once in the 201 answer of
 * handlers_respond_created(), for creation and import alike. Only hashes are stored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/config.h"
#include "api/handlers.h"
#include "api/quotas.h"
#include "api/service.h"
#include "base/counters.h"
#include "codec/options.h"
#include "codec/text.h"
#include "engine/view.h"
#include "game/auth.h"
#include "game/fairness.h"
#include "game/lobby.h"

_Static_assert(INPUTS_NAME_SIZE == PLAY_NAME_SIZE, "a name of inputs.h fits a game's name");

/* 1 when the rules took the options and the store the game; else 0 with the problem
 * queued (400 naming options for a refusal of the rules). */
static int stored(struct http_request *request, enum error refused, enum store_status status)
{
	if (refused != ERROR_OK) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, error_message(refused), "options", -1);
		return 0;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	return 1;
}

/* The create body's players[seat].player (`value`, may be NULL) into players[seat]: an
 * existing player's id, not already given to another seat, on a seat that is neither a
 * bot's nor open; the seat is named after the player unless `named`. 0 with a 400 naming
 * players[seat].player queued. */
static int seat_player(struct http_request *request, const json_t *value, int seat, int64_t *players, int named,
		       char *name, int excluded)
{
	char field[64];
	snprintf(field, sizeof field, "players[%d].player", seat);
	players[seat] = 0;
	if (!value)
		return 1;
	int64_t id;
	if (!json_is_string(value) || !store_parse_id(json_string_value(value), &id)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "a player id is 16 lowercase hex digits", field,
				     -1);
		return 0;
	}
	if (excluded) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "an open or bot seat has no player", field, -1);
		return 0;
	}
	for (int s = 0; s < seat; s++) {
		if (players[s] == id) {
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "a player holds one seat of a game", field,
					     -1);
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

struct new_seats {
	int count;
	char names[GAME_MAX_SEATS][PLAY_NAME_SIZE];
	int bots[GAME_MAX_SEATS];
	int open[GAME_MAX_SEATS];	 /* {"open": true}: a seat to join (api/handlers_lobby.c) */
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
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "give either seats or players, not both",
				     "players", -1);
		return 0;
	}
	if (!seats && !players) {
		http_respond_problem(request, PROBLEM_MISSING_FIELD, "give seats (3 or 4) or players (3 or 4 entries)",
				     "seats", -1);
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
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "each player is an object {name, bot}",
					     field, -1);
			return 0;
		}
		const char *key;
		json_t *value;
		json_object_foreach(player, key, value)
		{
			if (strcmp(key, "name") != 0 && strcmp(key, "bot") != 0 && strcmp(key, "open") != 0 &&
			    strcmp(key, "player") != 0) {
				char quoted[64];
				snprintf(field, sizeof field, "players[%d].%s", s,
					 text_quote(quoted, sizeof quoted, key, 16));
				http_respond_problem(request, PROBLEM_UNKNOWN_FIELD,
						     "a player has only name, bot and player, or open", field, -1);
				return 0;
			}
		}
		json_t *name = json_object_get(player, "name");
		json_t *bot = json_object_get(player, "bot");
		if (name) {
			snprintf(field, sizeof field, "players[%d].name", s);
			if (!service_read_name(request, name, field, out->names[s]))
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
					     "open is true or false; an open seat has no name and is not a bot", field,
					     -1);
			return 0;
		}
		out->open[s] = open && json_is_true(open);
		out->open_count += out->open[s];
		if (!seat_player(request, json_object_get(player, "player"), s, out->players, name != NULL,
				 out->names[s], out->bots[s] || out->open[s]))
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
				     "this server creates games only with its creation key (Authorization: Bearer)",
				     NULL, -1);
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

int handlers_has_create_key(struct http_request *request)
{
	return has_create_key(request);
}

int handlers_may_create(struct http_request *request)
{
	return may_create(request, has_create_key(request));
}

void handlers_created(struct http_request *request)
{
	if (request->status == 201 && !has_create_key(request))
		quotas_charge(request, QUOTAS_CREATE, quotas_client(request), 1);
}

/* The create body's `public` (a boolean, only with open seats) into *out; 0 with a 400
 * queued. */
static int lobby_public(struct http_request *request, const json_t *body, int open_count, int *out)
{
	json_t *value = json_object_get(body, "public");
	*out = 0;
	if (!value)
		return 1;
	if (!json_is_boolean(value)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "public is true or false", "public", -1);
		return 0;
	}
	if (json_is_true(value) && open_count == 0) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "only a game with open seats ({\"open\": true} in players) is listed in the lobby",
				     "public", -1);
		return 0;
	}
	*out = json_is_true(value);
	return 1;
}

/* Create a waiting game (game/lobby.h) and answer it: 201 with the invite and the tokens
 * of the seats taken (secrets->tokens[s]: unused for open and bot seats), or a problem. */
static void create_waiting(struct http_request *request, const struct handlers_new_game *secrets, const int *open,
			   int public_game)
{
	const struct play_new_game *game = &secrets->game;
	char invite[AUTH_TOKEN_LENGTH + 1];
	uint8_t invite_hash[AUTH_HASH_SIZE];
	if (!service_new_token(request, "iv_", invite, invite_hash))
		return;
	struct lobby_new_game waiting = {game, {0}, public_game, invite_hash};
	int seats = game->options->game.seats;
	for (int s = 0; s < seats; s++)
		waiting.open[s] = open[s];
	int64_t id;
	enum store_status status;
	enum error refused = lobby_create(&waiting, &id, &status);
	if (!stored(request, refused, status))
		return;
	counters_add(COUNTERS_GAMES_CREATED, 1);
	char id_text[STORE_ID_TEXT_SIZE];
	store_format_id(id, id_text);
	snprintf(request->game, sizeof request->game, "%s", id_text);
	json_t *seat_list = json_array();
	for (int s = 0; s < seats; s++) {
		char name[PLAY_NAME_SIZE];
		snprintf(name, sizeof name, "Seat %d", s + 1);
		json_t *token = open[s] || game->bots[s] ? json_null() : json_string(secrets->tokens[s]);
		json_array_append_new(seat_list, json_pack("{s:i, s:s, s:b, s:b, s:o}", "seat", s, "name",
							   open[s] ? name : game->names[s], "bot",
							   !open[s] && game->bots[s], "open", open[s], "token", token));
	}
	char url[1024];
	service_invite_url(request, id_text, invite, url, sizeof url);
	json_t *response = json_pack("{s:s, s:i, s:s, s:s, s:b, s:{s:s, s:s}, s:o}", "id", id_text, "version", 0,
				     "status", "waiting", "admin_token", secrets->admin_token, "public", public_game,
				     "invite", "code", invite, "url", url, "seats", seat_list);
	char location[64];
	snprintf(location, sizeof location, "/v1/games/%s", id_text);
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, response, 0);
}

int handlers_new_game(struct http_request *request, const struct codec_options *options, int has_seed, int64_t seed,
		      const char (*names)[PLAY_NAME_SIZE], const int *bots, const int64_t *players,
		      struct handlers_new_game *out)
{
	int seats = options->game.seats;
	if (!has_seed) {
		uint64_t random_seed;
		if (!auth_random(&random_seed, sizeof random_seed)) {
			http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
			return 0;
		}
		seed = (int64_t)(random_seed >> 1);
	}
	int ok = auth_new_token("at_", out->admin_token);
	auth_hash(out->admin_token, strlen(out->admin_token), out->admin_hash);
	struct play_new_game game = {options, seed, 0, {0}, {NULL}, bots, out->token_hashes, out->admin_hash, players};
	/* No chosen seed: provably fair (game/fairness.h), from a fresh server seed. */
	game.fair = !has_seed;
	if (game.fair && !fairness_new_server_seed(game.server_seed)) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		return 0;
	}
	for (int s = 0; s < seats && ok; s++) {
		game.names[s] = names[s];
		ok = auth_new_token("st_", out->tokens[s]);
		auth_hash(out->tokens[s], strlen(out->tokens[s]), out->token_hashes[s]);
	}
	if (!ok) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		return 0;
	}
	out->game = game;
	return 1;
}

void handlers_respond_created(struct http_request *request, const struct session *session,
			      const struct handlers_new_game *secrets)
{
	const struct play_new_game *game = &secrets->game;
	snprintf(request->game, sizeof request->game, "%s", session->game.id_text);
	json_t *view = handlers_game_view(request, session);
	if (!view)
		return;
	json_t *seat_list = json_array();
	for (int s = 0; s < game->options->game.seats; s++)
		json_array_append_new(seat_list,
				      json_pack("{s:i, s:s, s:b, s:o}", "seat", s, "name", game->names[s], "bot",
						game->bots[s], "token",
						game->bots[s] ? json_null() : json_string(secrets->tokens[s])));
	long version = (long)session->game.state.version;
	json_t *response = json_pack("{s:s, s:i, s:s, s:o, s:o}", "id", session->game.id_text, "version", (int)version,
				     "admin_token", secrets->admin_token, "seats", seat_list, "game", view);
	char location[64];
	snprintf(location, sizeof location, "/v1/games/%s", session->game.id_text);
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, response, version);
}

/* A rated game (options.rated): no explicit seed, no bot seat, and every seat a player's
 * (players[i].player) or open (joined with a player token: api/handlers_lobby.c). 0 with
 * a 400 naming options.rated queued. */
static int ratings_seats_allowed(struct http_request *request, const struct codec_options *options,
				 const struct new_seats *seats)
{
	const char *refusal = NULL;
	if (options->has_seed)
		refusal = "a rated game has no explicit seed: its dice are nobody's choice";
	for (int s = 0; s < seats->count && !refusal; s++) {
		if (seats->bots[s])
			refusal = "a rated game has no bot seat";
		else if (!seats->open[s] && !seats->players[s])
			refusal = "every seat of a rated game is a player's (players[i].player) or open to "
				  "players";
	}
	if (!refusal)
		return 1;
	http_respond_problem(request, PROBLEM_INVALID_FIELD, refusal, "options.rated", -1);
	return 0;
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
	int public_game = 0;
	if (!parse_seats(request, body, &seats) || !lobby_public(request, body, seats.open_count, &public_game) ||
	    !bots_only_allowed(request, keyed, seats.bots, seats.count)) {
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
	/* A rated game has no substitutes: its seats stay their players' through any number of
	 * timeouts (each is the deadline's outcome, counted in the player's reliability). */
	const json_t *after_timeouts = json_object_get(json_object_get(body, "options"), "substitute_after_timeouts");
	int asked_substitutes = json_is_integer(after_timeouts) && json_integer_value(after_timeouts) > 0;
	json_decref(body);
	if (options.rated && asked_substitutes) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD,
				     "a rated game has no substitutes: its seats stay their players' (resign instead)",
				     "options.substitute_after_timeouts", -1);
		return;
	}
	if (options.rated)
		options.substitute_after_timeouts = 0;
	if (options.rated && !ratings_seats_allowed(request, &options, &seats))
		return;
	struct handlers_new_game secrets;
	if (!handlers_new_game(request, &options, options.has_seed, (int64_t)options.seed, seats.names, seats.bots,
			       seats.players, &secrets))
		return;
	if (seats.open_count > 0) {
		create_waiting(request, &secrets, seats.open, public_game);
		return;
	}
	struct session session;
	memset(&session, 0, sizeof session);
	session.viewer = VIEW_SPECTATOR;
	enum store_status status;
	enum error refused = play_create(&secrets.game, &session.game, &status);
	if (stored(request, refused, status))
		handlers_respond_created(request, &session, &secrets);
}
