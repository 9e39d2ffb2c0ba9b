/*
 * handlers_fairness.c - a seat's player seed (issue 26, docs/fairness.md): PUT
 * /v1/games/{id}/seats/{seat}/player_seed {"player_seed": "..."} with the seat's token (or
 * its player's) sets the seed the seat mixes into the game's random outcomes, replacing the
 * one it set before, with a public player_seed_set event (game/play.h
 * play_set_player_seed()). Only in a provably fair game, by a human seat, before the seeds
 * are fixed (the game's first roll, or every human seat having set one).
 *
 * If-Match and Idempotency-Key as for a move (api/service.h service_write_headers()): a
 * seed set pinned to another version than the game's is 412 precondition_failed; a keyed
 * PUT's answer is recorded with its event and replayed for the same request
 * (Idempotent-Replayed: true), 422 idempotency_key_reused for another; a refusal is not
 * recorded (it changed nothing, and is judged again).
 *
 * Answers: 200 {seat, player_seed, version, seeds_fixed} with ETag; 400 naming `seat`,
 * `player_seed` (1..64 bytes of UTF-8; unknown_field for any other member), If-Match or
 * Idempotency-Key; 403 seat_token_required (the admin token), seat_mismatch (another seat's
 * token); 409 not_provably_fair, seeds_fixed, seat_not_changeable (a bot's seat),
 * game_finished, version_conflict; 412 precondition_failed; 422 idempotency_key_reused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"

void handle_put_player_seed(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	int seat;
	const char *seed = NULL;
	struct problem_refusal refusal;
	if (!inputs_player_seed(body, request->params[1], session.game.state.options.seats, &seat, &seed, &refusal)) {
		service_refuse(request, &refusal);
		json_decref(body);
		return;
	}
	if (session.viewer != seat) {
		json_decref(body);
		http_respond_problem(request, PROBLEM_SEAT_MISMATCH,
				     "only the seat (or its player) sets its player seed", NULL, -1);
		return;
	}
	struct service_write write;
	if (!service_write_headers(request, &session, &write)) {
		json_decref(body);
		return;
	}
	struct play_seed_set set = {seat, seed, write.pinned, write.key, write.request_hash};
	struct play_seed_result result;
	enum play_seed outcome = play_set_player_seed(&session.game, &set, &result);
	json_decref(body); /* seed is borrowed from it */
	service_write_free(&write);
	switch (outcome) {
	case PLAY_SEED_DONE: {
		char etag[24];
		snprintf(etag, sizeof etag, "\"%ld\"", result.version);
		http_add_header(request, "ETag", etag);
		http_respond_raw(request, 200, "application/json; charset=utf-8", result.answer, strlen(result.answer));
		free(result.answer);
		break;
	}
	case PLAY_SEED_REPLAYED:
		service_replay(request, &result.replay);
		free(result.replay.response);
		break;
	case PLAY_SEED_KEY_REUSED:
		http_respond_problem(request, PROBLEM_IDEMPOTENCY_KEY_REUSED,
				     "this Idempotency-Key was used with a different request", NULL, -1);
		break;
	case PLAY_SEED_NO_SEAT:
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "no such seat", "seat", -1);
		break;
	case PLAY_SEED_BOT_SEAT:
		http_respond_problem(request, PROBLEM_SEAT_NOT_CHANGEABLE,
				     "the server's bot plays this seat: it has no seed", NULL, -1);
		break;
	case PLAY_SEED_NOT_FAIR:
		http_respond_problem(
			request, PROBLEM_NOT_PROVABLY_FAIR,
			"the game was created with a chosen seed (or imported): nothing to mix a seed into", NULL, -1);
		break;
	case PLAY_SEED_FIXED:
		if (!game_in_progress(&session.game.state))
			http_respond_problem(request, PROBLEM_GAME_FINISHED, NULL, NULL, -1);
		else
			http_respond_problem(
				request, PROBLEM_SEEDS_FIXED,
				"the players' seeds are fixed: the game rolled, or every human seat set one", NULL, -1);
		break;
	case PLAY_SEED_STALE:
		http_respond_problem(request, PROBLEM_PRECONDITION_FAILED,
				     "the game has moved on: reload and decide again", NULL, result.version);
		break;
	case PLAY_SEED_RACED:
		http_respond_problem(request, PROBLEM_VERSION_CONFLICT, "the game kept changing; retry", NULL,
				     result.version);
		break;
	case PLAY_SEED_STOPPING:
		http_add_header(request, "Retry-After", "1");
		http_respond_problem(request, PROBLEM_SHUTTING_DOWN, NULL, NULL, -1);
		break;
	default:
		service_store_error(request, result.status);
		break;
	}
}
