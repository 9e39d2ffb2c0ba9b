/*
 * handlers_clocks.c - a seat's quiet hours (issue 28): PUT /v1/games/{id}/seats/{seat}/
 * quiet_hours {"timezone": "Europe/Berlin", "from": "22:00", "to": "07:00"} with the seat's
 * token (or its player's) sets the daily stretch of the seat's local time during which its
 * correspondence clock does not run; DELETE the same clears it. Like a holiday it is the
 * seat's own choice, never the admin's. The change is an event of the game's log
 * (quiet_hours_set {seat, timezone, from, to} or quiet_hours_cleared {seat}, which the rules
 * ignore), so the game's version and every view's tag move with it; the seat's columns and
 * the game's timer (a deadline moved when the game waits for the seat) change in the same
 * transaction (game/play.h play_set_quiet_hours). Nobody's per-move time restarts. Quiet
 * hours are public: the game view shows every seat's (players[].quiet_hours), with what is
 * left of its time bank (players[].time_bank_s).
 *
 * The zone is a name of the tz database the server has (read from its files, base/zone.h:
 * no setenv("TZ") in a threaded server); the times are "HH:MM", and a stretch whose end is
 * not after its start runs across midnight.
 *
 * Answers: 200 {seat, quiet_hours, version} (tagged with the new version); 400 naming `seat`, `timezone`, `from` or
 * `to` (unknown_field for any other member); 403 seat_token_required (the admin token), seat_mismatch (another seat's
 * token); 409 seat_not_changeable (a game without a turn clock: quiet hours would stop nothing), game_finished,
 * version_conflict (the game kept moving PLAY_RETRIES times); 503 shutting_down.
 */
#include <stdio.h>

#include "api/handlers.h"
#include "api/service.h"

json_t *handlers_quiet_hours_json(const char *zone, int from_min, int to_min)
{
	char from[8], to[8];
	snprintf(from, sizeof from, "%02d:%02d", from_min / 60 % 24, from_min % 60);
	snprintf(to, sizeof to, "%02d:%02d", to_min / 60 % 24, to_min % 60);
	return json_pack("{s:s, s:s, s:s}", "timezone", zone, "from", from, "to", to);
}

static void set_quiet_hours(struct http_request *request, int clear)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	json_t *body = service_body(request, clear);
	if (!body)
		return;
	int seat, from_min = 0, to_min = 0;
	const char *zone = NULL;
	struct problem_refusal refusal;
	int parsed = clear ? inputs_away(body, request->params[1], session.game.state.options.seats, &seat, &refusal)
			   : inputs_quiet_hours(body, request->params[1], session.game.state.options.seats, &seat,
						&zone, &from_min, &to_min, &refusal);
	if (!parsed) {
		service_refuse(request, &refusal);
		json_decref(body);
		return;
	}
	if (session.viewer != seat) {
		json_decref(body);
		http_respond_problem(request, PROBLEM_SEAT_MISMATCH,
				     "only the seat (or its player) sets its quiet hours", NULL, -1);
		return;
	}
	if (session.game.options.turn_timeout_s <= 0) {
		json_decref(body);
		http_respond_problem(
			request, PROBLEM_SEAT_NOT_CHANGEABLE,
			"the game has no turn clock (options.turn_timeout_s): quiet hours would stop nothing", NULL,
			-1);
		return;
	}
	if (!game_in_progress(&session.game.state)) {
		json_decref(body);
		http_respond_problem(request, PROBLEM_GAME_FINISHED, NULL, NULL, -1);
		return;
	}
	enum store_status status;
	long version;
	enum play_quiet outcome = play_set_quiet_hours(&session.game, seat, zone, from_min, to_min, &version, &status);
	json_t *answer = NULL;
	if (outcome == PLAY_QUIET_DONE)
		answer = json_pack("{s:i, s:o, s:i}", "seat", seat, "quiet_hours",
				   zone ? handlers_quiet_hours_json(zone, from_min, to_min) : json_null(), "version",
				   (int)version);
	json_decref(body); /* after the answer: zone is borrowed from it */
	switch (outcome) {
	case PLAY_QUIET_DONE:
		/* The tag is the game's new version: the change is an event of its log. */
		http_respond_json(request, 200, answer, version);
		return;
	case PLAY_QUIET_NO_SEAT:
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "no such seat", "seat", -1);
		return;
	case PLAY_QUIET_FINISHED:
		http_respond_problem(request, PROBLEM_GAME_FINISHED, NULL, NULL, -1);
		return;
	case PLAY_QUIET_RACED:
		http_respond_problem(request, PROBLEM_VERSION_CONFLICT, "the game kept moving: try again", NULL,
				     version);
		return;
	case PLAY_QUIET_STOPPING:
		http_respond_problem(request, PROBLEM_SHUTTING_DOWN, NULL, NULL, -1);
		return;
	case PLAY_QUIET_STORE_FAILED:
	default:
		service_store_error(request, status);
		return;
	}
}

void handle_put_quiet_hours(struct http_request *request)
{
	set_quiet_hours(request, 0);
}

void handle_delete_quiet_hours(struct http_request *request)
{
	set_quiet_hours(request, 1);
}
