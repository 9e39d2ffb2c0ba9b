/*
 * handlers_trades.c - domestic trade as resources: offers (and counter-offers), their
 * answers, completion and withdrawal. Each is the corresponding move (offer_trade,
 * accept_trade ...) decided and appended like any other, so the event log tells the whole
 * negotiation.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "codec/shapes.h"
#include "engine/view.h"
#include "http/headers.h"

/* The :trade parameter as an offer id, or 0 (a 404 queued). */
static int trade_param(struct http_request *request)
{
	long id;
	if (!headers_integer(request->params[1], 1, 65535, &id)) {
		http_respond_problem(request, PROBLEM_TRADE_NOT_FOUND, "trade ids are positive integers", NULL, -1);
		return 0;
	}
	return (int)id;
}

/* Read `body` (stolen) as a move of `type` answering offer `trade` (0: none) and make it. */
static void trade_move(struct http_request *request, struct session *session, json_t *body, enum command_type type,
		       int trade, int status, const char *offer_member)
{
	struct command command;
	struct codec_error error;
	int parsed = codec_command_from_json_as(body, type, (uint16_t)trade, &command, &error);
	json_decref(body);
	if (!parsed) {
		service_codec_error(request, &error);
		return;
	}
	service_move(request, session, &command, status, offer_member);
}

static void answer(struct http_request *request, enum command_type type, int body_allowed)
{
	struct session session;
	if (!service_open_for_move(request, &session))
		return;
	int trade = trade_param(request);
	if (!trade)
		return;
	json_t *body = service_body(request, 1);
	if (!body)
		return;
	if (!body_allowed && json_object_size(body) > 0) {
		const char *first = json_object_iter_key(json_object_iter(body));
		http_respond_problem(request, PROBLEM_UNKNOWN_FIELD, "this request takes no body members", first, -1);
		json_decref(body);
		return;
	}
	trade_move(request, &session, body, type, trade, 200, NULL);
}

void handle_post_trade(struct http_request *request)
{
	struct session session;
	json_t *body = service_open_move_body(request, &session);
	if (!body)
		return;
	/* "trade" as every answer names a new offer; "id" as this route first named it. */
	trade_move(request, &session, body, COMMAND_OFFER_TRADE, 0, 201, "id");
}

void handle_accept_trade(struct http_request *request)
{
	answer(request, COMMAND_ACCEPT_TRADE, 0);
}

void handle_decline_trade(struct http_request *request)
{
	answer(request, COMMAND_DECLINE_TRADE, 0);
}

void handle_confirm_trade(struct http_request *request)
{
	answer(request, COMMAND_CONFIRM_TRADE, 1);
}

void handle_withdraw_trade(struct http_request *request)
{
	answer(request, COMMAND_WITHDRAW_TRADE, 0);
}

void handle_get_trades(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	struct game_view view;
	view_game(&session.game.state, VIEW_SPECTATOR, &view);
	const char *names[GAME_MAX_SEATS];
	play_names(&session.game, names);
	json_t *full = codec_view_to_json(&view, names);
	json_t *body = json_pack("{s:i, s:O}", "version", (int)session.game.state.version, "trades",
				 json_object_get(full, "trades"));
	json_decref(full);
	http_respond_json(request, 200, body, (long)session.game.state.version);
}
