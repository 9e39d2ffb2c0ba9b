/*
 * handlers_fairness.c - a seat's player seed (issue 26, docs/fairness.md): PUT
 * /v1/games/{id}/seats/{seat}/player_seed {"player_seed": "..."} with the seat's token (or
 * its player's) sets the seed the seat mixes into the game's random outcomes, replacing the
 * one it set before, with a public player_seed_set event (game/play.h
 * play_set_player_seed()). Only in a provably fair game, by a human seat, before the seeds
 * are fixed (the game's first roll, or every human seat having set one).
 *
 * Answers: 200 {seat, player_seed, version, seeds_fixed}; 400 naming `seat` or
 * `player_seed` (1..64 bytes of UTF-8; unknown_field for any other member); 403
 * seat_token_required (the admin token), seat_mismatch (another seat's token); 409
 * not_provably_fair, seeds_fixed, seat_not_changeable (a bot's seat), game_finished.
 */
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
	long version;
	enum store_status status;
	enum play_seed outcome = play_set_player_seed(&session.game, seat, seed, -1, &version, &status);
	json_t *answer = NULL;
	if (outcome == PLAY_SEED_DONE)
		answer = json_pack("{s:i, s:s, s:i, s:b}", "seat", seat, "player_seed", seed, "version", (int)version,
				   "seeds_fixed", play_seeds_fixed(&session.game));
	json_decref(body); /* after the answer: seed is borrowed from it */
	switch (outcome) {
	case PLAY_SEED_DONE:
		http_respond_json(request, 200, answer, version);
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
	case PLAY_SEED_RACED:
		http_respond_problem(request, PROBLEM_VERSION_CONFLICT, NULL, NULL, (long)version);
		break;
	case PLAY_SEED_STOPPING:
		http_respond_problem(request, PROBLEM_SHUTTING_DOWN, NULL, NULL, -1);
		break;
	default:
		service_store_error(request, status);
		break;
	}
}
