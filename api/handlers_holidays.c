/*
 * handlers_holidays.c - a seat on holiday: POST /v1/games/{id}/seats/{seat}/away hands the
 * seat to the server's bot, DELETE the same takes it back (issue 14).
 *
 * A person in eight correspondence games who leaves for a week should not stall eight
 * tables nor lose their seats. The seat's own token (or its player's) decides, never the
 * admin's: the seat is the player's to lend. While away the seat is played by the bot as a
 * bot seat is (the bot timer, game/worker.c), at once whenever the game waits for it; back,
 * the game waits for the seat again (or for its deadline). Both are events of the log
 * (seat_away, seat_back: the rules ignore them), so every reader, replay, export and import
 * sees when the seat was whose; the change, its event and the timer are one transaction
 * (game/play.h play_set_away). Views show the seat with `away: true`. When every human
 * seat is away nobody is at the table: the bots then move one decision per turn clock, or
 * the game pauses without one (game/play.h play_unattended()). The body and the :seat are
 * read by api/inputs.c inputs_away().
 *
 * A seat may go away or come back AWAY_RATE_SEAT times a day (api/quotas.h, counted in the
 * database per game and seat, paid only for a change made): every toggle is an event that
 * every receiver of the game gets, so it is a writer of permanent rows and a sender of
 * outbound messages that no rule bounds. Past it: 429 away_quota with Retry-After.
 *
 * Answers: 200 {seat, away, version}; 400 naming `seat` for a seat that is not a number of
 * the game, or a body with members; 403 seat_token_required (the admin token),
 * seat_mismatch (another seat's token); 409 seat_not_changeable (a seat created as a bot,
 * or already away / not away), game_finished, version_conflict (raced too often).
 */
#include "api/handlers.h"
#include "api/quotas.h"
#include "api/service.h"

static void set_away(struct http_request *request, int away)
{
	struct session session;
	int seat;
	if (!handlers_open_seat(request, &session, &seat))
		return;
	if (session.viewer != seat) {
		http_respond_problem(request, PROBLEM_SEAT_MISMATCH, "only the seat (or its player) sends itself away",
				     NULL, -1);
		return;
	}
	/* The seat's holiday toggles of a day (AWAY_RATE_SEAT), paid only for a toggle made:
	 * each is an event fanned out to every receiver of the game. */
	char key[48];
	quotas_seat_key(session.game.id, seat, key, sizeof key);
	if (!quotas_admit(request, QUOTAS_AWAY, key, 1))
		return;
	long version;
	enum store_status status;
	enum play_away outcome = play_set_away(&session.game, seat, away, &version, &status);
	if (handlers_seat_change_failed(request, outcome, version, status))
		return;
	switch (outcome) {
	case PLAY_AWAY_DONE:
		quotas_charge(request, QUOTAS_AWAY, key, 1);
		http_respond_json(request, 200,
				  json_pack("{s:i, s:b, s:i}", "seat", seat, "away", away, "version", (int)version),
				  version);
		return;
	case PLAY_AWAY_BOT_SEAT:
		http_respond_problem(request, PROBLEM_SEAT_NOT_CHANGEABLE,
				     "the seat was created as a bot: it has no player to go away or come back", NULL,
				     -1);
		return;
	case PLAY_AWAY_UNCHANGED:
		http_respond_problem(request, PROBLEM_SEAT_NOT_CHANGEABLE,
				     away ? "the seat is away already" : "the seat is not away", NULL, -1);
		return;
	case PLAY_AWAY_ALLOWANCE_SPENT:
	default:
		http_respond_problem(request, PROBLEM_HOLIDAY_ALLOWANCE_SPENT,
				     "the seat has been away as long as the game allows in 365 days "
				     "(options.holiday_allowance_s): it plays its turns itself",
				     NULL, -1);
		return;
	}
}

int handlers_open_seat(struct http_request *request, struct session *session, int *seat)
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

int handlers_seat_change_failed(struct http_request *request, enum play_away outcome, long version,
				enum store_status status)
{
	switch (outcome) {
	case PLAY_AWAY_NO_SEAT:
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "no such seat", "seat", -1);
		return 1;
	case PLAY_AWAY_FINISHED:
		http_respond_problem(request, PROBLEM_GAME_FINISHED, NULL, NULL, -1);
		return 1;
	case PLAY_AWAY_RACED:
		http_respond_problem(request, PROBLEM_VERSION_CONFLICT, "the game kept moving: try again", NULL,
				     version);
		return 1;
	case PLAY_AWAY_STOPPING:
		http_respond_problem(request, PROBLEM_SHUTTING_DOWN, NULL, NULL, -1);
		return 1;
	case PLAY_AWAY_STORE_FAILED:
		service_store_error(request, status);
		return 1;
	case PLAY_AWAY_DONE:
	case PLAY_AWAY_BOT_SEAT:
	case PLAY_AWAY_UNCHANGED:
	case PLAY_AWAY_ALLOWANCE_SPENT:
	case PLAY_AWAY_WRONG_INVITE:
	case PLAY_AWAY_NOT_NEEDED:
	case PLAY_AWAY_ALREADY_SEATED:
	case PLAY_AWAY_RATED:
		return 0;
	}
	service_store_error(request, status);
	return 1;
}

void handle_seat_away(struct http_request *request)
{
	set_away(request, 1);
}

void handle_seat_back(struct http_request *request)
{
	set_away(request, 0);
}
