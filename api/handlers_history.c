/*
 * handlers_history.c - the game as it was: GET /v1/games/{id}?version=N and
 * GET /v1/games/{id}/players?version=N (history views), and GET /v1/games/{id}/export.
 *
 * A history view is the engine's view (engine/view.h) of the state play_state_at() rebuilds
 * from the log up to version N, for the caller's viewer: a seat sees its own hand of that
 * moment and never another's, a spectator (or the admin) no hand at all. Nothing of it
 * depends on what happened after N, so the answer never changes: it is cached for a year
 * (`immutable`, `private` for a seat's view since it holds a hand), like the board pictures
 * of a named version. The one member that would depend on the present, `deadline`, is null
 * in a history view. Beyond the log: 404 version_not_found; a malformed value: 400 naming
 * `version`.
 *
 * The export is the log in the form `catan replay` reads (codec/log.c codec_replay_log():
 * an object with an "events" array; the other members, options and board, the seed, the
 * names, are there for people and for the import, and replay ignores them); each event is a
 * log entry as GET .../moves gives it (version, created_at, origin beside the event's own
 * members). While the game is going on, each event is shown as the caller may see it, so a hidden
 * card or stolen resource is null and the export cannot be replayed past it; once the game
 * is finished nothing is secret any more and everyone gets the stored log unredacted, with
 * the seed, so anyone can replay a finished game and check it. A provably fair game's seed is
 * its server seed (64 hex digits), and its "fairness" (docs/fairness.md) the commitment and,
 * once it is finished, the same seed: what `catan verify` and examples/verify_fair.py check
 * the log against.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/service.h"
#include "codec/fairness.h"
#include "codec/shapes.h"
#include "game/lobby.h"

int handlers_history_at(struct http_request *request, struct session *session)
{
	if (!http_query(request, "version"))
		return 0;
	long version = http_query_integer(request, "version", 0, 1, INT32_MAX);
	if (version < 0)
		return -1;
	long current = (long)session->game.state.version;
	if (version > current) {
		char detail[96];
		snprintf(detail, sizeof detail, "the game is at version %ld", current);
		http_respond_problem(request, PROBLEM_VERSION_NOT_FOUND, detail, "version", current);
		return -1;
	}
	if (version != current) {
		struct game past;
		enum store_status status = play_state_at(session->game.id, (int32_t)version, &past);
		if (status != STORE_OK) {
			service_store_error(request, status);
			return -1;
		}
		session->game.state = past;
	}
	http_add_header(request, "Cache-Control",
			session->viewer >= 0 ? "private, max-age=31536000, immutable"
					     : "public, max-age=31536000, immutable");
	return 1;
}

void handle_export_game(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	const struct game_record *game = &session.game;
	int finished = game->state.phase == GAME_PHASE_FINISHED;
	int32_t version = (int32_t)game->state.version;
	json_t *events = json_array();
	int32_t after = 0;
	while (after < version) {
		struct store_log log;
		/* A finished game's log is what a standby has once it has its last version. */
		enum store_status status = finished && session.viewer == VIEW_SPECTATOR
						   ? play_read_log_standby(game->id, after, 1000, version, &log)
						   : play_read_log(game->id, after, 1000, &log);
		if (status != STORE_OK) {
			json_decref(events);
			service_store_error(request, status);
			return;
		}
		int count = log.count;
		if (count > 0) {
			after = log.rows[count - 1].seq;
			json_t *page = play_log_json(game, finished ? PLAY_UNREDACTED : session.viewer, &log);
			json_array_extend(events, page);
			json_decref(page);
		}
		store_log_free(&log);
		if (count == 0)
			break;
	}
	if ((int32_t)json_array_size(events) != version) {
		json_decref(events);
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "the game's log could not be read whole", NULL,
				     -1);
		return;
	}
	const char *names[GAME_MAX_SEATS];
	play_names(game, names);
	/* Who held each seat (a player's public id, issue 28): what a rated game's results are
	 * recomputed from, with the log. */
	int64_t seat_players[GAME_MAX_SEATS];
	enum store_status seated = lobby_seat_players(game->id, seat_players);
	if (seated != STORE_OK) {
		json_decref(events);
		service_store_error(request, seated);
		return;
	}
	json_t *players = json_array();
	for (int s = 0; s < game->state.options.seats; s++) {
		char player[STORE_ID_TEXT_SIZE];
		store_format_id(seat_players[s], player);
		json_array_append_new(players, json_pack("{s:s, s:b, s:o}", "name", names[s] ? names[s] : "", "bot",
							 game->bots[s], "player",
							 seat_players[s] ? json_string(player) : json_null()));
	}
	json_t *board = codec_board_to_json(&game->state.board, game->state.options.edition);
	/* A decimal string: a random seed is up to 2^63-1, which a JavaScript number would round. */
	char seed[2 * CODEC_SERVER_SEED_SIZE + 1];
	snprintf(seed, sizeof seed, "%lld", (long long)game->seed);
	/* A provably fair game's seed is its server seed, in hex (revealed in "fairness" too
	 * once it is over; docs/fairness.md). */
	struct codec_fairness fairness;
	play_fairness_public(game, &fairness);
	if (game->fair)
		codec_hex(game->server_seed, CODEC_SERVER_SEED_SIZE, seed);
	json_t *body = json_pack("{s:s, s:s, s:i, s:b, s:o, s:o, s:o, s:o, s:o, s:o}", "format", "catan-log-1", "game",
				 game->id_text, "version", (int)version, "finished", finished, "seed",
				 finished ? json_string(seed) : json_null(), "options",
				 codec_options_to_json(&game->options), "players", players, "board", board, "fairness",
				 codec_fairness_to_json(&fairness), "events", events);
	http_respond_json(request, 200, body, (long)version);
}
