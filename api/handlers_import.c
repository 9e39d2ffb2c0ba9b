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
 * Admission is creation's (CREATE_KEY, the per-address quota), and the body may be up to
 * HTTP_IMPORT_BODY_LIMIT (api/http.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/import_body.h"
#include "api/service.h"
#include "engine/view.h"
#include "game/auth.h"

void handle_import_game(struct http_request *request)
{
	if (!handlers_may_create(request))
		return;
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	struct import_body import;
	struct import_body_error error;
	if (!import_body_read(body, &import, &error)) {
		http_respond_problem(request, error.code, error.detail, error.field, -1);
		goto done;
	}
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
