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
				 "event %d: seat %d goes away or comes back more than %.0f times (AWAY_RATE_SEAT, its budget of a day)",
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
		snprintf(detail, sizeof detail, "this server imports at most %.0f bytes an hour from one client (IMPORT_BYTES_IP)",
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
		snprintf(detail, sizeof detail, "an import is at most %d events (IMPORT_MAX_EVENTS); a whole game is a few thousand",
			 most);
		http_respond_problem(request, PROBLEM_INVALID_FIELD, detail, "events", -1);
		goto done;
	}
	struct import_body_error error;
	if (!import_body_read(body, &import, &error)) {
		http_respond_problem(request, error.code, error.detail, error.field, -1);
		goto done;
	}
	if (!holidays_within_budget(request, import.events, import.count) ||
	    !handlers_bots_only_allowed(request, import.bots, import.seats))
		goto done;
	int seats = import.seats;
	int64_t seed = import.seed;
	if (!import.has_seed) {
		uint64_t random_seed;
		if (!auth_random(&random_seed, sizeof random_seed)) {
			http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
			goto done;
		}
		seed = (int64_t)(random_seed >> 1);
	}
	char admin_token[AUTH_TOKEN_LENGTH + 1];
	char tokens[GAME_MAX_SEATS][AUTH_TOKEN_LENGTH + 1];
	uint8_t admin_hash[AUTH_HASH_SIZE];
	uint8_t token_hashes[GAME_MAX_SEATS][AUTH_HASH_SIZE];
	int ok = auth_new_token("at_", admin_token);
	auth_hash(admin_token, strlen(admin_token), admin_hash);
	struct play_new_game new_game = {&import.options, seed, {NULL}, import.bots, token_hashes, admin_hash, NULL};
	for (int s = 0; s < seats && ok; s++) {
		new_game.names[s] = import.names[s];
		ok = auth_new_token("st_", tokens[s]);
		auth_hash(tokens[s], strlen(tokens[s]), token_hashes[s]);
	}
	if (!ok) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		goto done;
	}
	struct session session;
	memset(&session, 0, sizeof session);
	session.viewer = VIEW_SPECTATOR;
	enum store_status status = play_import(&new_game, import.events, import.groups, import.group_count,
					       import.group_origins, &session.game);
	if (status != STORE_OK) {
		service_store_error(request, status);
		goto done;
	}
	snprintf(request->game, sizeof request->game, "%s", session.game.id_text);
	json_t *view = handlers_game_view(request, &session);
	if (!view)
		goto done;
	json_t *seat_list = json_array();
	for (int s = 0; s < seats; s++)
		json_array_append_new(seat_list,
				      json_pack("{s:i, s:s, s:b, s:o}", "seat", s, "name", import.names[s], "bot",
						import.bots[s], "token",
						import.bots[s] ? json_null() : json_string(tokens[s])));
	long version = (long)session.game.state.version;
	json_t *response = json_pack("{s:s, s:i, s:s, s:o, s:o}", "id", session.game.id_text, "version", (int)version,
				     "admin_token", admin_token, "seats", seat_list, "game", view);
	char location[64];
	snprintf(location, sizeof location, "/v1/games/%s", session.game.id_text);
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, response, version);
done:
	import_body_free(&import);
	json_decref(body);
}
