/*
 * handlers_summary.c - GET /v1/games/{id}/summary: a finished game in figures (the final
 * points of every seat by source, the dice histogram, each seat's resources gained, spent,
 * stolen, lost and traded), computed by game/statistics.h from the stored log.
 *
 * Only a finished game has a summary: the figures need every stolen and every bought card,
 * which stay private while the game goes on; once it is over the whole log is public (the
 * export gives it to anyone), and so are its figures, for every caller alike. Before the
 * end: 409 game_not_finished. A finished game never changes, so the answer is cached like a
 * named version (immutable, public) under the game's version as its tag.
 *
 * The log is read in pages (as the export reads it) and each row parsed back into an
 * engine event: the figures are those of the stored log, whatever the cache holds.
 */
#include <stdlib.h>

#include "api/handlers.h"
#include "api/service.h"
#include "base/xalloc.h"
#include "codec/log.h"
#include "game/statistics.h"

#define SUMMARY_PAGE 1000

void handle_get_summary(struct http_request *request)
{
	struct session session;
	if (!service_open(request, &session))
		return;
	const struct game_record *game = &session.game;
	if (game->state.phase != GAME_PHASE_FINISHED) {
		http_respond_problem(request, PROBLEM_GAME_NOT_FINISHED,
				     "the summary of a game is given once it is finished (its log is then public)",
				     NULL, (long)game->state.version);
		return;
	}
	int32_t version = (int32_t)game->state.version;
	struct event *events = xmalloc(sizeof *events * (size_t)(version > 0 ? version : 1));
	int count = 0;
	while (count < version) {
		struct store_log log;
		enum store_status status = play_read_log(game->id, count, SUMMARY_PAGE, &log);
		if (status != STORE_OK) {
			free(events);
			service_store_error(request, status);
			return;
		}
		int read = log.count, parsed = 1;
		for (int i = 0; i < read && parsed; i++) {
			struct codec_error error;
			const struct store_event_row *row = &log.rows[i];
			parsed =
				row->seq == count + 1 && count < version &&
				codec_payload_parse(row->type, row->payload, row->payload_size, &events[count], &error);
			count += parsed;
		}
		store_log_free(&log);
		if (read == 0 || !parsed)
			break;
	}
	struct statistics stats;
	if (count != version || !statistics_compute(events, count, &stats, NULL, NULL)) {
		free(events);
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "the game's log could not be read whole", NULL,
				     -1);
		return;
	}
	free(events);
	const char *names[GAME_MAX_SEATS];
	play_names(game, names);
	uint8_t bots[GAME_MAX_SEATS] = {0}; /* created as bots: a seat on holiday is a player's */
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		bots[s] = game->bots[s] && !game->away[s];
	json_t *body = statistics_to_json(&stats, names, bots);
	json_object_set_new(body, "id", json_string(game->id_text));
	http_add_header(request, "Cache-Control", "public, max-age=31536000, immutable");
	http_respond_json(request, 200, body, (long)version);
}
