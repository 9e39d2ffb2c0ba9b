/*
 * import_body.h - reading and judging the body of POST /v1/games/import, without HTTP.
 *
 * import_body_read() is everything the import handler (api/handlers_import.c) decides
 * about a body before it writes anything: the members an export may carry, the seed, the
 * events (each through codec_event_from_json(), with its envelope removed, and its
 * origin), that the log begins with game_created, the service's own options, the players,
 * and the judgement of the rules (import_verify(), game/import.h) with each decision's
 * origin. A refusal is a struct problem_refusal (http/problem.h), the problem the handler
 * answers with as it is: code, field and detail. The fuzz target tests/fuzz/fuzz_import.c calls the same
 * function, so what it reaches is what a client reaches.
 *
 * Ownership: the one owner of everything a read allocates is the struct import_body;
 * import_body_free() releases it, once, whether the read succeeded or not, and leaves it
 * empty (a second call does nothing). A failed read leaves nothing allocated that
 * import_body_free() would not release.
 */
#ifndef CATAN_API_IMPORT_BODY_H
#define CATAN_API_IMPORT_BODY_H

#include <jansson.h>
#include <stdint.h>

#include "codec/fairness.h"
#include "codec/options.h"
#include "engine/event.h"
#include "engine/game.h"
#include "game/import.h"
#include "game/play.h"
#include "http/problem.h"

struct import_body {
	/* The log: events[0 .. count), each entry's origin (STORE_ORIGIN_*). Owned. */
	struct event *events;
	int *entry_origins;
	int count;
	int64_t seed; /* with has_seed */
	int has_seed;
	/* A provably fair game's revealed server seed (has_seed too) and the exported game's id
	 * (docs/fairness.md): the import is judged with them. */
	int has_server_seed;
	uint8_t server_seed[CODEC_SERVER_SEED_SIZE];
	int64_t game_id;
	struct codec_options options; /* the log's game options and the export's own */
	int seats;
	char names[GAME_MAX_SEATS][PLAY_NAME_SIZE];
	int bots[GAME_MAX_SEATS];
	/* The judged log: its decisions and each one's origin, the state after the last event.
	 * Owned. */
	struct import_group *groups;
	int *group_origins;
	int group_count;
	struct game *final;
};

/* Read and judge `body` (a JSON object, borrowed) into *out: 1, or 0 with *error filled.
 * Either way *out owns what it holds: release it with import_body_free(). */
int import_body_read(const json_t *body, struct import_body *out, struct problem_refusal *error);

/* Release what *body owns and empty it (a second call does nothing). */
void import_body_free(struct import_body *body);

#endif
