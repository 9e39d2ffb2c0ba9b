/*
 * handlers_ratings.c - what issue 28 adds around players across games: a player's public
 * profile (GET /v1/players/{id}), resigning a seat (POST .../seats/{seat}/resign), a
 * rematch of a finished game (POST /v1/games/{id}/rematch) and deleting one's player
 * (DELETE /v1/players/me).
 *
 * The profile is public and holds nothing private: the name, the rating (game/ratings.h:
 * the formula), rated games and wins, and the reliability over the last 20 games (the
 * share of the seat's decisions the player made, of those made by the player or by its
 * deadline; null before any). A deleted player's profile shows LOBBY_FORMER_PLAYER.
 *
 * Resigning is the seat's own (its token or its player's), never the admin's: the seat
 * becomes a bot seat for the rest of the game (game/play.h play_resign()).
 *
 * A rematch (a seat's or the admin's token, once the game is over) is a new game with the
 * same options (and a new seed) and the same seats: a seat that was a player's is held
 * for that player (bound to it, as players[i].player binds one at creation), whose player
 * token acts for it at once and whose games list and feed show it; a bot seat stays a bot;
 * any other seat is open, to join with the new game's invite. A game with open seats waits;
 * one without starts at once. The answer holds no seat token (the held seats answer to
 * their players' tokens): the admin token and the invite go to the caller that made it,
 * 201. Made once (games.rematch_id, db/store_ratings.h): every later request answers 200
 * with the same game, without its secrets; while another request is making it, 409
 * version_conflict.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "base/counters.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "game/auth.h"
#include "game/lobby.h"
#include "game/ratings.h"

void handle_get_player(struct http_request *request)
{
	int64_t id;
	if (!store_parse_id(request->params[0], &id)) {
		http_respond_problem(request, PROBLEM_PLAYER_NOT_FOUND, "a player id is 16 lowercase hex digits",
				     "player", -1);
		return;
	}
	struct store_player_profile profile;
	enum store_status status = ratings_profile(id, &profile);
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_PLAYER_NOT_FOUND, NULL, "player", -1);
		return;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	int decisions = profile.decisions_made + profile.decisions_timed_out;
	json_t *reliability = decisions > 0 ? json_real((double)profile.decisions_made / decisions) : json_null();
	json_t *body = json_pack("{s:s, s:s, s:f, s:i, s:i, s:o, s:{s:i, s:i, s:i}, s:b}", "id", request->params[0],
				 "name", profile.name, "rating", profile.rating, "games", (int)profile.rated_games,
				 "wins", (int)profile.rated_wins, "reliability", reliability, "decisions", "made",
				 (int)profile.decisions_made, "timed_out", (int)profile.decisions_timed_out, "games",
				 RATINGS_RELIABILITY_GAMES, "deleted", profile.deleted);
	http_add_header(request, "Cache-Control", "no-cache");
	http_respond_json(request, 200, body, -1);
}

void handle_resign(struct http_request *request)
{
	struct session session;
	int seat;
	if (!handlers_open_seat(request, &session, &seat))
		return;
	if (session.viewer != seat) {
		http_respond_problem(request, PROBLEM_SEAT_MISMATCH, "only the seat (or its player) resigns it", NULL,
				     -1);
		return;
	}
	long version;
	enum store_status status;
	enum play_away outcome = play_resign(&session.game, seat, &version, &status);
	if (handlers_seat_change_failed(request, outcome, version, status))
		return;
	if (outcome == PLAY_AWAY_DONE)
		http_respond_json(request, 200,
				  json_pack("{s:i, s:b, s:i}", "seat", seat, "resigned", 1, "version", (int)version),
				  version);
	else /* a bot seat, or resigned already */
		http_respond_problem(request, PROBLEM_SEAT_NOT_CHANGEABLE,
				     "the seat is a bot's already (created as one, or resigned)", NULL, -1);
}

void handle_delete_player(struct http_request *request)
{
	struct store_player player;
	uint8_t hash[AUTH_HASH_SIZE];
	if (!handlers_authenticate_player_hash(request, &player, hash))
		return;
	enum store_status status = lobby_player_delete(player.id, hash);
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN, "this is not a player token (any more)", NULL, -1);
		return;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	http_respond_empty(request, 204);
}

/* The seats of the rematch of `game` (its players from the store): 1, or 0 with a problem. */
static int rematch_seats(struct http_request *request, const struct game_record *game, char (*names)[PLAY_NAME_SIZE],
			 int *bots, int64_t *players, int *open, int *open_count)
{
	enum store_status status = lobby_seat_players(game->id, players);
	unsigned resigned = 0;
	if (status == STORE_OK)
		status = ratings_resigned_seats(game->id, (int32_t)game->state.version, &resigned);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	*open_count = 0;
	for (int s = 0; s < game->state.options.seats; s++) {
		struct store_player player;
		bots[s] = 0;
		open[s] = 0;
		snprintf(names[s], PLAY_NAME_SIZE, "%s", game->names[s]);
		if (players[s]) {
			status = lobby_player_get(players[s], &player);
			if (status != STORE_OK && status != STORE_NOT_FOUND) {
				service_store_error(request, status);
				return 0;
			}
			/* A deleted player has no token to play with: its seat is open. */
			if (status == STORE_OK && strcmp(player.name, LOBBY_FORMER_PLAYER) != 0) {
				snprintf(names[s], PLAY_NAME_SIZE, "%s", player.name);
				continue;
			}
			players[s] = 0;
		} else if (game->bots[s] && !game->away[s] && !(resigned >> s & 1u)) {
			bots[s] = 1;
			continue;
		}
		open[s] = 1;
		(*open_count)++;
	}
	return 1;
}

/* The rematch's seats as anyone may see them. New reference. */
static json_t *rematch_seats_json(int seats, char (*names)[PLAY_NAME_SIZE], const int *bots, const int64_t *players,
				  const int *open)
{
	json_t *list = json_array();
	for (int s = 0; s < seats; s++) {
		char id[STORE_ID_TEXT_SIZE], name[PLAY_NAME_SIZE];
		store_format_id(players[s], id);
		snprintf(name, sizeof name, "Seat %d", s + 1);
		json_array_append_new(list, json_pack("{s:i, s:s, s:b, s:b, s:o}", "seat", s, "name",
						      open[s] ? name : names[s], "bot", bots[s], "open", open[s],
						      "player", players[s] ? json_string(id) : json_null()));
	}
	return list;
}

/* Make the rematch of `session`'s game: 1 with *new_id and the 201 queued. */
static int make_rematch(struct http_request *request, const struct session *session, int64_t *new_id)
{
	const struct game_record *game = &session->game;
	int seats = game->state.options.seats;
	char names[GAME_MAX_SEATS][PLAY_NAME_SIZE];
	int bots[GAME_MAX_SEATS], open[GAME_MAX_SEATS], open_count = 0;
	int64_t players[GAME_MAX_SEATS];
	if (!rematch_seats(request, game, names, bots, players, open, &open_count))
		return 0;
	/* A game of bots only is the creation key's, for a rematch as for a creation. */
	if (!handlers_bots_only_allowed(request, bots, seats))
		return 0;
	struct codec_options options = game->options;
	options.game = game->state.options;
	options.has_seed = 0;
	/* A rated game's seats are players' or open to players: the rematch's are too. */
	struct handlers_new_game secrets;
	if (!handlers_new_game(request, &options, 0, 0, (const char(*)[PLAY_NAME_SIZE])names, bots, players, &secrets))
		return 0;
	enum store_status status = STORE_OK;
	enum error refused = ERROR_OK;
	char invite[AUTH_TOKEN_LENGTH + 1] = "";
	if (open_count > 0) {
		uint8_t invite_hash[AUTH_HASH_SIZE];
		if (!service_new_token(request, "iv_", invite, invite_hash))
			return 0;
		struct lobby_new_game waiting = {&secrets.game, {0}, 0, invite_hash};
		for (int s = 0; s < seats; s++)
			waiting.open[s] = open[s];
		refused = lobby_create(&waiting, new_id, &status);
	} else {
		struct game_record *made = xcalloc(1, sizeof *made);
		refused = play_create(&secrets.game, made, &status);
		*new_id = made->id;
		free(made);
	}
	if (refused != ERROR_OK || status != STORE_OK) {
		if (refused != ERROR_OK)
			http_respond_problem(request, PROBLEM_INVALID_FIELD, error_message(refused), "options", -1);
		else
			service_store_error(request, status);
		return 0;
	}
	counters_add(COUNTERS_GAMES_CREATED, 1);
	char id_text[STORE_ID_TEXT_SIZE], location[64];
	store_format_id(*new_id, id_text);
	json_t *body = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "id", id_text, "rematch_of", game->id_text, "status",
				 open_count > 0 ? "waiting" : "started", "admin_token", secrets.admin_token, "invite",
				 open_count > 0 ? json_string(invite) : json_null(), "seats",
				 rematch_seats_json(seats, names, bots, players, open));
	snprintf(location, sizeof location, "/v1/games/%s", id_text);
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, body, (long)game->state.version);
	return 1;
}

void handle_rematch(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	json_t *body = service_body(request, 1);
	if (!body)
		return;
	static const char *const members[] = {NULL};
	int known = service_known_members(request, body, members, "a rematch takes no body (or {})");
	json_decref(body);
	if (!known)
		return;
	if (session.game.state.phase != GAME_PHASE_FINISHED) {
		http_respond_problem(request, PROBLEM_GAME_NOT_FINISHED, "a rematch follows a finished game", NULL,
				     (long)session.game.state.version);
		return;
	}
	int claimed;
	int64_t rematch_id;
	enum store_status status = lobby_rematch_claim(session.game.id, &claimed, &rematch_id);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	if (!claimed) {
		if (!rematch_id) {
			http_respond_problem(request, PROBLEM_VERSION_CONFLICT,
					     "another request is making the rematch: try again", NULL,
					     (long)session.game.state.version);
			return;
		}
		char id_text[STORE_ID_TEXT_SIZE], location[64];
		store_format_id(rematch_id, id_text);
		snprintf(location, sizeof location, "/v1/games/%s", id_text);
		http_add_header(request, "Location", location);
		http_respond_json(request, 200,
				  json_pack("{s:s, s:s}", "id", id_text, "rematch_of", session.game.id_text),
				  (long)session.game.state.version);
		return;
	}
	int64_t new_id = 0;
	int made = make_rematch(request, &session, &new_id);
	/* Recorded, or the claim given up so that a later request may try again. */
	status = lobby_rematch_done(session.game.id, made ? new_id : 0);
	if (status != STORE_OK && made) {
		char id_text[STORE_ID_TEXT_SIZE];
		store_format_id(new_id, id_text);
		log_event("warn", "rematch not recorded", "game", session.game.id_text, "detail", id_text, NULL);
	}
}
