/*
 * handlers_games.c - reading a game: the view, the board, the players, the caller's legal
 * actions (and waiting for them: GET /actions?wait=). Making one is handlers_create.c's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/notify.h"
#include "api/service.h"
#include "base/clock.h"
#include "base/xalloc.h"
#include "codec/fairness.h"
#include "codec/shapes.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "game/actions.h"

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
	json_array_foreach(players, index, player) if (index < GAME_MAX_SEATS)
	{
		json_object_set_new(player, "bot", json_boolean(game->bots[index]));
		json_object_set_new(player, "away", json_boolean(game->away[index]));
	}
	json_t *options = json_object_get(body, "options");
	if (options) {
		json_object_set_new(options, "turn_timeout_s", json_integer(game->options.turn_timeout_s));
		json_object_set_new(options, "on_timeout",
				    json_string(game->options.on_timeout == CODEC_ON_TIMEOUT_BOT    ? "bot"
						: game->options.on_timeout == CODEC_ON_TIMEOUT_SKIP ? "skip"
												    : "default"));
		json_object_set_new(options, "offer_wait_s", json_integer(game->options.offer_wait_s));
		codec_options_put_bot_levels(options, &game->options);
		if (game->options.holiday_allowance_s != CODEC_HOLIDAY_ALLOWANCE_DEFAULT_S)
			json_object_set_new(options, "holiday_allowance_s",
					    json_integer(game->options.holiday_allowance_s));
		json_object_set_new(options, "substitute_after_timeouts",
				    json_integer(game->options.substitute_after_timeouts));
		/* ViewOptions' `rated`, as the export gives it: a client offers no substitutes then. */
		json_object_set_new(options, "rated", json_boolean(game->options.rated));
		if (game->options.time_bank_s || game->options.time_increment_s) {
			json_object_set_new(options, "time_bank_s", json_integer(game->options.time_bank_s));
			json_object_set_new(options, "time_increment_s", json_integer(game->options.time_increment_s));
		}
	}
	struct codec_fairness fairness;
	play_fairness_public(game, &fairness);
	json_object_set_new(body, "fairness", codec_fairness_to_json(&fairness));
	return body;
}

/* Each seat's clock into the view's players[] (a game with a turn clock only): what is
 * left of its time bank (whole seconds; null without options.time_bank_s or
 * time_increment_s) and its quiet hours (null: none). Public facts: a bank changes only
 * with a move (the view's version and ETag change with it), quiet hours with their PUT. */
static void put_seat_clocks(const struct session *session, const struct play_clocks *clocks, json_t *view)
{
	const struct codec_options *options = &session->game.options;
	int banked = options->time_bank_s > 0 || options->time_increment_s > 0;
	json_t *players = json_object_get(view, "players");
	size_t index;
	json_t *player;
	json_array_foreach(players, index, player) if (index < GAME_MAX_SEATS)
	{
		json_object_set_new(player, "time_bank_s",
				    banked ? json_integer((json_int_t)(clocks->bank_ms[index] / 1000)) : json_null());
		json_object_set_new(player, "quiet_hours",
				    clocks->quiet[index]
					    ? handlers_quiet_hours_json(clocks->zone[index], clocks->from_min[index],
									clocks->to_min[index])
					    : json_null());
	}
}

/* The view's `deadline` (when the current wait times out, RFC 3339 UTC, or
 * null) and the seats' clocks into `view`; 0 with the store's problem queued. */
static int put_deadline(struct http_request *request, const struct session *session, json_t *view)
{
	struct play_clocks clocks;
	enum store_status status = play_clocks(&session->game, &clocks);
	if (status != STORE_OK) {
		json_decref(view);
		service_store_error(request, status);
		return 0;
	}
	int64_t deadline_us = clocks.deadline_us;
	if (clocks.used)
		put_seat_clocks(session, &clocks, view);
	char text[40];
	if (deadline_us)
		play_format_time(deadline_us, text, sizeof text);
	json_object_set_new(view, "deadline", deadline_us ? json_string(text) : json_null());
	return 1;
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
	if (past) {
		json_object_set_new(view, "deadline", json_null());
	} else if (!put_deadline(request, &session, view)) {
		return;
	} else if (!handlers_put_needs_substitute(request, &session.game, json_object_get(view, "players"))) {
		json_decref(view);
		return;
	}
	http_respond_json(request, 200, view, (long)session.game.state.version);
}

void handle_get_board(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	json_t *board = codec_board_to_json(&session.game.state.board, session.game.state.options.edition);
	json_object_set_new(board, "robber", json_integer(session.game.state.robber));
	/* Its own tag, from its content: it changes only when the robber moves, not with
	 * every move as the game's version does. */
	http_respond_json_hashed(request, 200, board, "board-");
}

void handle_get_players(struct http_request *request)
{
	struct session session;
	int past;
	if (!service_open(request, &session) || (past = handlers_history_at(request, &session)) < 0)
		return;
	json_t *view = game_json(&session);
	if (!past && !handlers_put_needs_substitute(request, &session.game, json_object_get(view, "players"))) {
		json_decref(view);
		return;
	}
	json_t *body = json_pack("{s:i, s:O}", "version", (int)session.game.state.version, "players",
				 json_object_get(view, "players"));
	json_decref(view);
	http_respond_json(request, 200, body, (long)session.game.state.version);
}

json_t *handlers_actions_json(const struct session *session)
{
	return actions_body_json(&session->game.state, session->viewer);
}

/* GET /actions?wait=S between its wake-ups (api/notify.h): the session opened on the
 * first run (the token checked and counted once, not on every wake-up), refreshed after. */
struct actions_wait {
	struct notify_waiter waiter;
	double deadline;
	long after; /* the version the caller gave */
	struct session session;
};

/* GET /actions, and with ?wait=S the wait for the caller's turn: answered at once when the
 * game waits for the caller's seat at its current version (if that version has reached
 * `after`, 0 when absent: a reader of a replica that lags behind the version a write
 * answered waits until it has it), or is over (nothing will ever be due: waiting would
 * only cost the client its wait); otherwise parked like a long-poll of the log (counted in
 * MAX_WAITING, woken through LISTEN/NOTIFY by a move on any server) and checked again
 * after each new event, answering the current actions when the wait runs out. A seat
 * that must still act at the version it names is answered at once: the loop "move, then
 * wait from the move's version" never waits out its S seconds in the middle of its own
 * turn. A spectator or the admin, never waited for, waits until the game ends or the time
 * runs out. */
void handle_get_actions(struct http_request *request)
{
	struct actions_wait *parked = request->state;
	struct session now;
	struct session *session = parked ? &parked->session : &now;
	long after = 0;
	if (parked) {
		/* Woken: the parameters were read and the caller admitted on the first run. */
		after = parked->after;
		if (!service_catch_up(request, session, after))
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
		if (!parked || state->phase == GAME_PHASE_FINISHED ||
		    ((long)state->version >= after && play_seat_due(state, session->viewer)) ||
		    clock_now() >= parked->deadline || notify_stopping())
			break;
		/* Woken by every event after the version read: each may make the seat act. */
		if (notify_park(&parked->waiter, request, session->game.id, (int32_t)state->version, parked->deadline))
			return;
		if (!service_catch_up(request, session, after))
			return;
	}
	/* The text a move's answer may have built for this very state (game/actions.h). */
	size_t length;
	char *text = actions_body_text(&session->game.state, session->viewer, &length);
	char etag[32];
	snprintf(etag, sizeof etag, "\"%ld\"", (long)session->game.state.version);
	http_respond_bytes(request, 200, "application/json; charset=utf-8", text, length, etag);
	free(text);
}

json_t *handlers_game_view(struct http_request *request, const struct session *session)
{
	json_t *view = game_json(session);
	return put_deadline(request, session, view) ? view : NULL;
}
