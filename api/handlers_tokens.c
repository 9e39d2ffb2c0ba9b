/*
 * handlers_tokens.c - replacing a link that leaked: POST /v1/games/{id}/seats/{seat}/token
 * gives the seat a new token, POST /v1/players/me/token gives the player a new one; the
 * old token stops at once, on every server, and so do the streams opened with it.
 *
 * A seat's token is its private link (#game=<id>&token=st_...): pasted in the wrong chat,
 * it lets anyone play the seat and read its hand. Whoever holds the seat (its token, or
 * its player's token) replaces it; never the admin, since the seat is its player's. A
 * player's token replaces only itself (the seat tokens of its games stay as they are: a
 * seat's own link was handed out apart). The new token is shown once, in the answer
 * (Cache-Control: no-store), and stored as its hash only (game/auth.h), like every token.
 *
 * How "at once" holds with caches: the row keeps one hash, so the database forgets the
 * old token with the commit; the servers' cached lookups are dropped by the notification
 * of the same transaction (db/migrations/0015_token_rotation.sql), here before answering;
 * open streams check their token after every wake-up (api/service.h
 * service_token_still_valid(), and the feed's).
 *
 * Answers: 200 {id, seat, token, version} or {id, name, token}; 400 naming `seat` (not a
 * seat of the game) or a body with members; 401 missing or unknown token; 403
 * seat_token_required (the admin token), seat_mismatch (another seat's token); 409
 * seat_not_changeable (a bot's seat, which has no token).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "game/lobby.h"

/* The request's body may be absent or {}: 1, or 0 with a 400 queued. */
static int empty_body(struct http_request *request)
{
	json_t *body = service_body(request, 1);
	if (!body)
		return 0;
	static const char *const members[] = {NULL};
	int known = service_known_members(request, body, members, "replacing a token takes no body (or {})");
	json_decref(body);
	return known;
}

void handle_replace_seat_token(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session) || !empty_body(request))
		return;
	const char *text = request->params[1];
	char *end = NULL;
	long seat = text ? strtol(text, &end, 10) : -1;
	if (!text || !*text || *end || seat < 0 || seat >= session.game.state.options.seats) {
		char detail[96];
		snprintf(detail, sizeof detail, "seat is a seat number of the game, 0 to %d",
			 session.game.state.options.seats - 1);
		http_respond_problem(request, PROBLEM_INVALID_FIELD, detail, "seat", -1);
		return;
	}
	if (session.viewer != seat) {
		http_respond_problem(request, PROBLEM_SEAT_MISMATCH,
				     "only the seat (its token, or its player's) replaces its token", NULL, -1);
		return;
	}
	char token[AUTH_TOKEN_LENGTH + 1];
	uint8_t hash[AUTH_HASH_SIZE];
	if (!service_new_token(request, "st_", token, hash))
		return;
	enum store_status status = play_replace_seat_token(session.game.id, (int)seat, hash);
	if (status == STORE_NOT_FOUND) {
		http_respond_problem(request, PROBLEM_SEAT_NOT_CHANGEABLE, "the seat has no token to replace", "seat",
				     -1);
		return;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	long version = (long)session.game.state.version;
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 200,
			  json_pack("{s:s, s:i, s:s, s:i}", "id", session.game.id_text, "seat", (int)seat, "token",
				    token, "version", (int)version),
			  version);
}

void handle_replace_player_token(struct http_request *request)
{
	struct store_player player;
	uint8_t old_hash[AUTH_HASH_SIZE];
	if (!handlers_authenticate_player_hash(request, &player, old_hash) || !empty_body(request))
		return;
	char token[AUTH_TOKEN_LENGTH + 1];
	uint8_t hash[AUTH_HASH_SIZE];
	if (!service_new_token(request, "pt_", token, hash))
		return;
	enum store_status status = lobby_player_replace_token(player.id, old_hash, hash);
	if (status == STORE_NOT_FOUND) {
		/* Replaced in between by another request with the same old token. */
		http_respond_problem(request, PROBLEM_UNKNOWN_TOKEN, "this is not a player token (any more)", NULL, -1);
		return;
	}
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	char id[STORE_ID_TEXT_SIZE];
	store_format_id(player.id, id);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 200, json_pack("{s:s, s:s, s:s}", "id", id, "name", player.name, "token", token),
			  -1);
}
