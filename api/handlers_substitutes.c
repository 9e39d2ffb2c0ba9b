/*
 * handlers_substitutes.c - a seat whose player left, and the substitute who takes it
 * (issue 28, point 2; game/substitutes.h):
 *
 *   POST /v1/games/{id}/seats/{seat}/release      the seat's own token (or its player's):
 *                                                  the player leaves; the bot holds the seat
 *   POST /v1/games/{id}/seats/{seat}/substitute   the admin token, or the seat's own: a
 *                                                  fresh invite for a substitute (shown once)
 *   POST /v1/games/{id}/join {invite, name}        with that invite, once the game started:
 *                                                  the substitute takes the seat, new token
 *
 * A seat also leaves when its deadline decided options.substitute_after_timeouts times in a
 * row (game/worker.c). While it needs a substitute the bot plays it, GET .../seats shows it
 * with `needs_substitute: true`, and a public game is in the lobby's
 * ?status=needs_substitute (api/handlers_lobby.c). The substitute's answer is the join's:
 * {id, seat, name, token, version, status: "started"}, the token shown once; from then on
 * the old token (and the old player's) answers 401 unknown_token on every server, and the
 * substitute sees what the seat sees, as any seat's token does (the views are the seat's,
 * never more).
 *
 * Answers: 400 naming `seat` (not a seat of the game) or a body with members; 403
 * seat_token_required / seat_mismatch (another seat's token; release is the seat's own),
 * wrong_invite; 409 seat_not_changeable (a bot's seat already: created as one, resigned,
 * released), substitute_not_needed (the seat's player has not left, or a substitute took
 * it), already_seated (the substitute's player holds another seat), rated_game,
 * game_finished, version_conflict. Nothing is changed by a refused request.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "base/xalloc.h"
#include "game/substitutes.h"

/* The answer to a seat change that was not done (PLAY_AWAY_DONE: nothing queued, 1). */
static int refused(struct http_request *request, enum play_away outcome, long version, enum store_status status)
{
	if (handlers_seat_change_failed(request, outcome, version, status))
		return 1;
	switch (outcome) {
	case PLAY_AWAY_DONE:
		return 0;
	case PLAY_AWAY_BOT_SEAT:
	case PLAY_AWAY_UNCHANGED:
		http_respond_problem(request, PROBLEM_SEAT_NOT_CHANGEABLE,
				     "the seat is a bot's already (created as one, resigned or released)", NULL, -1);
		break;
	case PLAY_AWAY_WRONG_INVITE:
		http_respond_problem(request, PROBLEM_WRONG_INVITE, "this invite is not the seat's (any more)",
				     "invite", -1);
		break;
	case PLAY_AWAY_NOT_NEEDED:
		http_respond_problem(request, PROBLEM_SUBSTITUTE_NOT_NEEDED,
				     "the seat's player has not left it, or a substitute took it already", "seat", -1);
		break;
	case PLAY_AWAY_ALREADY_SEATED:
		http_respond_problem(request, PROBLEM_ALREADY_SEATED, "this player holds a seat of this game already",
				     NULL, -1);
		break;
	case PLAY_AWAY_RATED:
		http_respond_problem(request, PROBLEM_RATED_GAME,
				     "a rated game has no substitutes: its seats stay their players' (resign instead)",
				     NULL, -1);
		break;
	case PLAY_AWAY_ALLOWANCE_SPENT:
	default: /* a holiday's outcome: not one of these changes' */
		service_store_error(request, status);
		break;
	}
	return 1;
}

/* The session and the path's seat, with a body absent or {}: 1, or 0 with a problem queued. */
static int open_seat(struct http_request *request, struct session *session, int *seat)
{
	if (!service_open(request, session))
		return 0;
	json_t *body = service_body(request, 1);
	if (!body)
		return 0;
	struct problem_refusal refusal;
	int parsed = inputs_away(body, request->params[1], session->game.state.options.seats, seat, &refusal);
	if (!parsed)
		service_refuse(request, &refusal);
	json_decref(body);
	return parsed;
}

void handle_release_seat(struct http_request *request)
{
	struct session session;
	int seat;
	if (!open_seat(request, &session, &seat))
		return;
	if (session.viewer != seat) {
		http_respond_problem(request, PROBLEM_SEAT_MISMATCH, "only the seat (or its player) releases it", NULL,
				     -1);
		return;
	}
	long version;
	enum store_status status;
	enum play_away outcome = substitutes_release(&session.game, seat, STORE_ORIGIN_PLAYER, &version, &status);
	if (refused(request, outcome, version, status))
		return;
	http_respond_json(request, 200,
			  json_pack("{s:i, s:b, s:i}", "seat", seat, "needs_substitute", 1, "version", (int)version),
			  version);
}

void handle_invite_substitute(struct http_request *request)
{
	struct session session;
	int seat;
	if (!open_seat(request, &session, &seat))
		return;
	if (session.viewer != seat && session.viewer != PLAY_ADMIN) {
		http_respond_problem(request, PROBLEM_SEAT_MISMATCH,
				     "the game's admin or the seat itself invites the seat's substitute", NULL, -1);
		return;
	}
	long version = (long)session.game.state.version;
	if (!game_in_progress(&session.game.state)) {
		refused(request, PLAY_AWAY_FINISHED, version, STORE_OK);
		return;
	}
	if (session.game.options.rated) {
		refused(request, PLAY_AWAY_RATED, version, STORE_OK);
		return;
	}
	char code[AUTH_TOKEN_LENGTH + 1];
	uint8_t hash[AUTH_HASH_SIZE];
	if (!service_new_token(request, "iv_", code, hash))
		return;
	int outcome;
	enum store_status status = substitutes_invite(session.game.id, seat, hash, &outcome);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	if (outcome != STORE_SUBSTITUTE_DONE) {
		refused(request, outcome == STORE_SUBSTITUTE_NOT_NEEDED ? PLAY_AWAY_NOT_NEEDED : PLAY_AWAY_NO_SEAT,
			version, STORE_OK);
		return;
	}
	char url[768];
	service_invite_url(request, session.game.id_text, code, url, sizeof url);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201,
			  json_pack("{s:s, s:i, s:{s:s, s:s}}", "id", session.game.id_text, "seat", seat, "invite",
				    "code", code, "url", url),
			  version);
}

int handlers_join_as_substitute(struct http_request *request, int64_t game_id, const uint8_t *invite_hash,
				const char *name, const char *token, const uint8_t *token_hash, int64_t player)
{
	int seat;
	enum store_status status = substitutes_seat_of(game_id, invite_hash, &seat);
	if (status == STORE_NOT_FOUND)
		return 0;
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 1;
	}
	struct game_record *game = xcalloc(1, sizeof *game);
	status = play_load(game_id, 1, game);
	long version = 0;
	if (status == STORE_OK) {
		struct store_substitute who = {invite_hash, token_hash, player, name};
		enum play_away outcome = substitutes_take(game, seat, &who, &version, &status);
		if (!refused(request, outcome, version, status)) {
			request->seat = seat;
			http_add_header(request, "Cache-Control", "no-store");
			http_respond_json(request, 200,
					  json_pack("{s:s, s:i, s:s, s:s, s:i, s:s}", "id", game->id_text, "seat", seat,
						    "name", name, "token", token, "version", (int)version, "status",
						    "started"),
					  version);
		}
	} else {
		service_store_error(request, status);
	}
	free(game);
	return 1;
}

int handlers_put_substitutes(struct http_request *request, int64_t game_id, json_t *seats)
{
	unsigned needed, invited;
	enum store_status status = substitutes_seats(game_id, &needed, &invited);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	size_t index;
	json_t *seat;
	json_array_foreach(seats, index, seat)
	{
		json_object_set_new(seat, "needs_substitute", json_boolean(needed >> index & 1u));
		json_object_set_new(seat, "substitute_invited", json_boolean(invited >> index & 1u));
	}
	return 1;
}

int handlers_put_needs_substitute(struct http_request *request, const struct game_record *game, json_t *players)
{
	unsigned needed = 0, invited;
	if (game_in_progress(&game->state)) {
		enum store_status status = substitutes_seats(game->id, &needed, &invited);
		if (status != STORE_OK) {
			service_store_error(request, status);
			return 0;
		}
	}
	size_t index;
	json_t *player;
	json_array_foreach(players, index, player)
	{
		json_object_set_new(player, "needs_substitute", json_boolean(needed >> index & 1u));
	}
	return 1;
}
