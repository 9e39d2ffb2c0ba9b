/*
 * handlers_import.c - POST /v1/games/import: an exported game (GET .../export) becomes a
 * new game, for bug reports, tutorials and puzzles.
 *
 * The body is an export (`events`, and optionally `seed`, `options`, `players` and the
 * export's other members), read and judged by import_body_read() (api/import_body.h says
 * what it takes; game/import.h what the rules check, with and without the seed): a refusal
 * is its problem as it is (400 naming the member, or 422 import_refused naming `events[i]`
 * and the reason), and nothing is written. An accepted log is written as a new game in one
 * transaction (play_import(): a store failure at any event leaves nothing behind) and
 * answered as game creation answers: 201 with the new id, the admin token and one token
 * per seat (none for a bot seat). Without a seed the new game gets a random one for its
 * future draws.
 *
 * Admission is creation's (CREATE_KEY, the per-client quota CREATE_RATE_IP, and a game
 * whose every seat is a bot only with the creation key or ALL_BOT_GAMES=1), plus the
 * client's bytes of imports an hour (IMPORT_BYTES_IP: 429 import_quota) and this process's
 * imports judged at once (IMPORT_CONCURRENCY: 503 import_busy); the body may be up to
 * ROUTES_IMPORT_BODY_LIMIT (api/routes.h), the log IMPORT_MAX_EVENTS events (400 naming
 * `events`), and each seat's seat_away and seat_back events AWAY_RATE_SEAT (a seat's
 * holiday toggles of a day: 422 naming the first past it). Only an import that made a
 * game is charged (api/quotas.c). The worst legal import (4 MiB of holiday toggles, 139,000
 * events) took 30 s, 23 MB of database and exported 14.9 MB before these bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/import_body.h"
#include "api/quotas.h"
#include "api/service.h"
#include "engine/view.h"
#include "game/auth.h"

/* The holiday events of the log within AWAY_RATE_SEAT per seat (what the seat could have
 * sent in a day: an import must not be a way around the toggles' budget). 1, or 0 with
 * 422 import_refused naming the first event past it queued. */
static int holidays_within_budget(struct http_request *request, const struct event *events, int count)
{
	if (!quotas_on(QUOTAS_AWAY))
		return 1;
	double most = quotas_burst(QUOTAS_AWAY);
	int toggles[GAME_MAX_SEATS] = {0};
	for (int i = 0; i < count; i++) {
		const struct event *event = &events[i];
		if ((event->type != EVENT_SEAT_AWAY && event->type != EVENT_SEAT_BACK) || event->seat < 0 ||
		    event->seat >= GAME_MAX_SEATS)
			continue;
		if (++toggles[event->seat] > most) {
			char field[32], detail[200];
			snprintf(field, sizeof field, "events[%d]", i);
			snprintf(detail, sizeof detail,
				 "event %d: seat %d goes away or comes back more than %.0f times (AWAY_RATE_SEAT, its "
				 "budget of a day)",
				 i, event->seat, most);
			http_respond_problem(request, PROBLEM_IMPORT_REFUSED, detail, field, -1);
			return 0;
		}
	}
	return 1;
}

static void import_game(struct http_request *request);

/* Admission: creation's (CREATE_KEY, CREATE_RATE_IP), the client's bytes of imports an
 * hour (IMPORT_BYTES_IP) and this process's imports at once (IMPORT_CONCURRENCY); both
 * quotas are paid only when the game was made (api/quotas.h). */
void handle_import_game(struct http_request *request)
{
	int keyed = handlers_has_create_key(request);
	double bytes = (double)request->body_length;
	if (!handlers_may_create(request))
		return;
	if (!keyed && quotas_on(QUOTAS_IMPORT_BYTES) && bytes > quotas_burst(QUOTAS_IMPORT_BYTES)) {
		char detail[160];
		snprintf(detail, sizeof detail,
			 "this server imports at most %.0f bytes an hour from one client (IMPORT_BYTES_IP)",
			 quotas_burst(QUOTAS_IMPORT_BYTES));
		http_respond_problem(request, PROBLEM_BODY_TOO_LARGE, detail, NULL, -1);
		return;
	}
	if (!keyed && !quotas_admit(request, QUOTAS_IMPORT_BYTES, quotas_client(request), bytes))
		return;
	if (!quotas_import_enter(request))
		return;
	import_game(request);
	quotas_import_leave();
	handlers_created(request);
	if (request->status == 201 && !keyed)
		quotas_charge(request, QUOTAS_IMPORT_BYTES, quotas_client(request), bytes);
}

static void import_game(struct http_request *request)
{
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	struct import_body import;
	memset(&import, 0, sizeof import);
	/* Counted before a single event is read: a log past the cap costs nothing. */
	int most = service_config()->import_max_events;
	if (json_array_size(json_object_get(body, "events")) > (size_t)most) {
		char detail[128];
		snprintf(detail, sizeof detail,
			 "an import is at most %d events (IMPORT_MAX_EVENTS); a whole game is a few thousand", most);
		http_respond_problem(request, PROBLEM_INVALID_FIELD, detail, "events", -1);
		goto done;
	}
	struct problem_refusal error;
	if (!import_body_read(body, &import, &error)) {
		service_refuse(request, &error);
		goto done;
	}
	if (!holidays_within_budget(request, import.events, import.count) ||
	    !handlers_bots_only_allowed(request, import.bots, import.seats))
		goto done;
	struct handlers_new_game secrets;
	/* A server seed judged the log; the new game's own seed (its bots' choices) is fresh. */
	int has_seed = import.has_seed && !import.has_server_seed;
	if (!handlers_new_game(request, &import.options, has_seed, import.seed, import.names, import.bots, NULL,
			       &secrets))
		goto done;
	struct session session;
	memset(&session, 0, sizeof session);
	session.viewer = VIEW_SPECTATOR;
	enum store_status status = play_import(&secrets.game, import.events, import.groups, import.group_count,
					       import.group_origins, &session.game);
	if (status != STORE_OK)
		service_store_error(request, status);
	else
		handlers_respond_created(request, &session, &secrets);
done:
	import_body_free(&import);
	json_decref(body);
}
