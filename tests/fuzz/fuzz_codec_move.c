/*
 * fuzz_codec_move.c - libFuzzer target: move bodies (POST .../moves) and trade bodies
 * (POST .../trades and the answers under .../trades/:trade) as JSON text.
 *
 * The body is read as service_body() reads it; a move body loses an integer "seat" as
 * handle_post_move() does; a body without "type" is also read as each trade route reads it
 * (api/handlers_trades.c adds the type and the trade id of the path). Every body then goes
 * through codec_command_from_json(). Oracles: refusals are well formed and answer as
 * problem bodies; an accepted command renders (codec_command_to_json) and parses back to
 * the same command; and it is decided by every seat of a few prepared games: a refusal
 * leaves no events, an acceptance gives events that are valid for apply and reproduce
 * rules_decide()'s state, which keeps every invariant.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "engine/apply.h"
#include "engine/invariants.h"
#include "engine/rules.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void decide_everywhere(const struct command *command, unsigned pick)
{
	static struct event_list events;
	static struct game after, applied;
	/* Three of the prepared states per input keep the target fast; the input picks which. */
	for (int k = 0; k < 3; k++) {
		int index = (int)((pick + (unsigned)k * 5u) % FUZZ_STATES);
		const struct game *game = fuzz_state(index);
		for (int seat = -1; seat <= game->options.seats; seat++) {
			struct rng rng;
			rng_init(&rng, fuzz_state_seed(index), game->version);
			enum error error = rules_decide(game, seat, command, &rng, &events, &after);
			if (error != ERROR_OK) {
				if (events.count != 0) {
					fprintf(stderr, "fuzz: a refused command left %d events\n", events.count);
					abort();
				}
				continue;
			}
			memcpy(&applied, game, sizeof applied);
			for (int i = 0; i < events.count; i++) {
				if (!apply_event_valid(&applied, &events.events[i])) {
					fprintf(stderr, "fuzz: decided event %d is not valid for apply\n", i);
					abort();
				}
				apply_event(&applied, &events.events[i]);
			}
			if (memcmp(&applied, &after, sizeof after) != 0) {
				fprintf(stderr, "fuzz: applying the events differs from rules_decide's state\n");
				abort();
			}
			const char *broken = invariants_check(&applied);
			if (broken) {
				fprintf(stderr, "fuzz: an accepted %s breaks an invariant: %s\n",
					command_type_name(command->type), broken);
				abort();
			}
		}
	}
}

static void read_move(json_t *body, unsigned pick)
{
	struct command command;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	if (!codec_command_from_json(body, &command, &error)) {
		fuzz_expect_codec_error(&error);
		return;
	}
	json_t *rendered = codec_command_to_json(&command);
	char *text = rendered ? json_dumps(rendered, JSON_COMPACT) : NULL;
	if (!text) {
		fprintf(stderr, "fuzz: an accepted command does not render\n");
		abort();
	}
	struct command again;
	if (!codec_command_from_json(rendered, &again, &error)) {
		fprintf(stderr, "fuzz: rendered command %s does not parse: %s\n", text, error.message);
		abort();
	}
	if (memcmp(&again, &command, sizeof again) != 0) {
		fprintf(stderr, "fuzz: rendered command %s parses to another command\n", text);
		abort();
	}
	free(text);
	json_decref(rendered);
	decide_everywhere(&command, pick);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const trade_types[] = {"offer_trade", "accept_trade", "decline_trade", "confirm_trade",
						  "withdraw_trade"};
	json_error_t parse_error;
	json_t *body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!body) {
		char detail[256];
		snprintf(detail, sizeof detail, "line %d, column %d: %s", parse_error.line, parse_error.column,
			 parse_error.text);
		fuzz_expect_problem("/v1/games/0000000000000001/moves", "invalid_json", 400, "The body is not valid JSON",
				    detail, "");
		return 0;
	}
	if (!json_is_object(body)) {
		json_decref(body);
		return 0;
	}
	unsigned pick = (unsigned)size;
	if (json_is_integer(json_object_get(body, "seat")))
		json_object_del(body, "seat");
	read_move(body, pick);
	if (!json_object_get(body, "type")) {
		int which = (int)(pick % 5);
		json_object_set_new(body, "type", json_string(trade_types[which]));
		if (which > 0 && !json_object_get(body, "trade"))
			json_object_set_new(body, "trade", json_integer(1 + (json_int_t)(pick % 3)));
		read_move(body, pick);
	}
	json_decref(body);
	return 0;
}
