/*
 * fuzz_import.c - libFuzzer target: the body of POST /v1/games/import, and the log in it.
 *
 * The input is the request body. It is parsed as api/service.c's service_body() does
 * (jansson, duplicate members refused, an object required), then given to
 * import_body_read() (api/import_body.c), the function the handler calls: the members an
 * export may carry, the seed, every event through codec_event_from_json() with its
 * envelope (version, created_at, origin), the first event, the service's options, the
 * players and their names, and the rules' judgement of the whole log (import_verify(),
 * game/import.c) with each decision's origin. So it reaches everything the handler decides
 * before it writes; what it does not reach is the store (play_import()) and the answer.
 *
 * Oracles: a refusal is a problem the server can send (a 4xx code of http/problem.h, UTF-8
 * field and detail, a problem+json body that keeps both) and names events[i] inside the
 * log when it is import_refused; an accepted body has 3 or 4 seats with names, decisions
 * that cut the log into consecutive groups from its first event to its last, each with an
 * origin, and a final state at the log's version that survives view and legal-move listing
 * for every seat. import_body_free() is called twice on every outcome (issue 20 item 1 was
 * a double free on a refused event: the second call must do nothing).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/import_body.h"
#include "db/store_events.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define INSTANCE "/v1/games/import"

static void fail(const char *what)
{
	fprintf(stderr, "fuzz: %s\n", what);
	abort();
}

static void check_refusal(const struct import_body *body, const struct problem_refusal *error)
{
	if ((int)error->problem < 0 || error->problem >= PROBLEM_COUNT)
		fail("a refusal's problem is outside http/problem.h's table");
	int status = problem_status(error->problem);
	if (status != 400 && status != 422)
		fail("a refusal of the body is neither 400 nor 422");
	fuzz_expect_utf8("the refusal's detail", error->detail);
	if (!error->detail[0])
		fail("a refusal without a detail");
	if (error->field)
		fuzz_expect_utf8("the refusal's field", error->field);
	fuzz_expect_problem(INSTANCE, problem_code(error->problem), status, problem_title(error->problem),
			    error->detail, error->field);
	if (error->problem == PROBLEM_IMPORT_REFUSED) {
		int index = -1;
		if (!error->field || sscanf(error->field, "events[%d]", &index) != 1 || index < 0 ||
		    index >= body->count)
			fail("import_refused does not name an event of the log");
	}
}

static void check_accepted(const struct import_body *body)
{
	static struct game_view view;
	static struct command moves[LEGAL_MOVES_MAX];
	if (body->seats < GAME_MIN_SEATS || body->seats > GAME_MAX_SEATS || body->options.game.seats != body->seats)
		fail("an accepted import has no 3 or 4 seats");
	for (int s = 0; s < body->seats; s++) {
		if (!body->names[s][0])
			fail("an accepted seat has no name");
		fuzz_expect_utf8("an accepted seat's name", body->names[s]);
	}
	if (body->count < 1 || body->events[0].type != EVENT_GAME_CREATED)
		fail("an accepted log does not begin with game_created");
	int next = 0;
	for (int g = 0; g < body->group_count; g++) {
		const struct import_group *group = &body->groups[g];
		if (group->first != next || group->count < 1)
			fail("the decisions do not cut the log into consecutive groups");
		next += group->count;
		int origin = body->group_origins[g];
		if (origin != STORE_ORIGIN_PLAYER && origin != STORE_ORIGIN_BOT && origin != STORE_ORIGIN_TIMEOUT)
			fail("a decision has no origin");
	}
	if (next != body->count)
		fail("the decisions do not end at the log's last event");
	if ((int)body->final->version != body->count)
		fail("the final state is not at the log's version");
	for (int viewer = VIEW_SPECTATOR; viewer < body->seats; viewer++) {
		view_game(body->final, viewer, &view);
		if (viewer >= 0)
			legal_moves(body->final, viewer, moves, LEGAL_MOVES_MAX);
	}
	legal_waiting_for(body->final);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_error_t parse_error;
	json_t *json = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!json || !json_is_object(json)) {
		json_decref(json); /* the handler answers invalid_json here (service_body()) */
		return 0;
	}
	struct import_body body;
	struct problem_refusal error;
	if (import_body_read(json, &body, &error))
		check_accepted(&body);
	else
		check_refusal(&body, &error);
	import_body_free(&body);
	import_body_free(&body);
	json_decref(json);
	return 0;
}
