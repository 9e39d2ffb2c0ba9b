/*
 * fuzz_codec_move.c - libFuzzer target: move bodies (POST .../moves) and trade bodies
 * (POST .../trades and the answers under .../trades/:trade) as JSON text.
 *
 * The body is read as service_body() reads it; a move body loses an integer "seat" as
 * handle_post_move() does, and goes through codec_command_from_json(); a body without
 * "type" is also read as a trade route reads it, through codec_command_from_json_as() with
 * the route's type and trade id. Oracles: refusals are well formed and answer as problem
 * bodies; a trade route's answer is the one of the body with "type" and "trade" added (or,
 * when the body names a trade the path names too, the handlers' unknown_field "trade"); an
 * accepted command renders (codec_command_to_json) and parses back to the same command; and it is decided by every seat
 * of a few prepared games: a refusal leaves no events, an acceptance gives events that are valid for apply and
 * reproduce rules_decide()'s state, which keeps every invariant.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/shapes.h"
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

/* An accepted command renders (codec_command_to_json) as a body that parses back to it, and
 * is decided everywhere. */
static void check_accepted(const struct command *command, unsigned pick)
{
	struct codec_error error;
	json_t *rendered = codec_command_to_json(command);
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
	if (memcmp(&again, command, sizeof again) != 0) {
		fprintf(stderr, "fuzz: rendered command %s parses to another command\n", text);
		abort();
	}
	free(text);
	json_decref(rendered);
	decide_everywhere(command, pick);
}

static void read_move(const json_t *body, unsigned pick)
{
	struct command command;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	if (!codec_command_from_json(body, &command, &error)) {
		fuzz_expect_codec_error(&error);
		return;
	}
	check_accepted(&command, pick);
}

/* A body as a trade route reads it: with the route's move type and trade id (0: none), as
 * api/handlers_trades.c does. The answer must be the one of reading the body with "type"
 * and "trade" added, as the handler did before the reader took the type: the same command,
 * or the same refusal. */
static void read_trade_move(const json_t *body, enum command_type type, uint16_t trade, unsigned pick)
{
	struct command command, added_command;
	struct codec_error error, added_error;
	memset(&error, 0, sizeof error);
	memset(&added_error, 0, sizeof added_error);
	int ok = codec_command_from_json_as(body, type, trade, &command, &error);
	if (trade && json_object_get(body, "trade")) {
		if (ok || error.code != CODEC_ERROR_UNKNOWN_FIELD || strcmp(error.field, "trade") != 0) {
			fprintf(stderr,
				"fuzz: a body naming the trade of the path is not refused as unknown_field trade\n");
			abort();
		}
		fuzz_expect_codec_error(&error);
		return;
	}
	json_t *added = json_deep_copy(body);
	if (!added)
		abort();
	json_object_set_new(added, "type", json_string(command_type_name(type)));
	if (trade)
		json_object_set_new(added, "trade", json_integer(trade));
	int added_ok = codec_command_from_json(added, &added_command, &added_error);
	json_decref(added);
	if (ok != added_ok || (ok && memcmp(&command, &added_command, sizeof command) != 0) ||
	    (!ok && (error.code != added_error.code || strcmp(error.field, added_error.field) != 0 ||
		     strcmp(error.message, added_error.message) != 0))) {
		fprintf(stderr, "fuzz: %s read as the route's move differs from the body with its type: %s / %s\n",
			command_type_name(type), ok ? "accepted" : error.message,
			added_ok ? "accepted" : added_error.message);
		abort();
	}
	if (!ok) {
		fuzz_expect_codec_error(&error);
		return;
	}
	check_accepted(&command, pick);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum command_type trade_types[] = {COMMAND_OFFER_TRADE, COMMAND_ACCEPT_TRADE,
							COMMAND_DECLINE_TRADE, COMMAND_CONFIRM_TRADE,
							COMMAND_WITHDRAW_TRADE};
	json_error_t parse_error;
	json_t *body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &parse_error);
	if (!body) {
		char detail[256];
		snprintf(detail, sizeof detail, "line %d, column %d: %s", parse_error.line, parse_error.column,
			 parse_error.text);
		fuzz_expect_problem("/v1/games/0000000000000001/moves", "invalid_json", 400,
				    "The body is not valid JSON", detail, "");
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
		read_trade_move(body, trade_types[which], which > 0 ? (uint16_t)(1 + pick % 3) : 0, pick);
	}
	json_decref(body);
	return 0;
}
