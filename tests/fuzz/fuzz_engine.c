/*
 * fuzz_engine.c - libFuzzer target: the engine driven by the fuzzer's bytes as a sequence
 * of choices, with the property test's invariants (tests/engine/test_properties.c) as the
 * oracle.
 *
 * Input: one byte of options (bit 0 seats 3/4, 1 random layout, 2 fixed start or random
 * numbers, 3 2025 edition, 4-5 manual dice when both set, 6 first seat fixed), eight
 * bytes of seed, then steps. A step's first byte chooses what happens: below 0xe0 a legal
 * move (the next bytes pick the seat among those with moves, the move, and a template's
 * filling); from 0xe0 a raw command of any type with every field taken from the bytes,
 * decided by any seat (-1..seats). After every step:
 *   - every listed move of every seat (templates filled) is accepted by rules_decide()
 *     (all of them when there are at most FUZZ_LISTED_CHECKS, else a sample),
 *   - an accepted decision's events are each valid for apply, applying them gives the state
 *     rules_decide() returned, and invariants_check() holds; a refusal gives no events,
 *   - each event dumps to its stored payload and parses back byte for byte.
 * At the end the logged events replayed into a zeroed struct give the live state byte for
 * byte.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/log.h"
#include "engine/apply.h"
#include "engine/invariants.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"
#include "tests/fuzz/fuzz_support.h"

#define FUZZ_MAX_STEPS 4000
#define FUZZ_LISTED_CHECKS 32
#define FUZZ_MAX_EVENTS (FUZZ_MAX_STEPS * 32)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct engine_run {
	struct game game;
	struct game after;
	struct game scratch_state;
	struct event_list events;
	struct event_list scratch_events;
	struct command moves[GAME_MAX_SEATS][LEGAL_MOVES_MAX];
	int move_count[GAME_MAX_SEATS];
	struct event log[FUZZ_MAX_EVENTS];
	int log_count;
	uint64_t seed;
	long step;
};

static struct engine_run run_storage;

static void fail(const struct engine_run *run, const char *what, const char *detail)
{
	fprintf(stderr, "fuzz: step %ld, version %u, phase %s: %s%s%s\n", run->step, run->game.version,
		game_phase_name(run->game.phase), what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static void check_round_trip(struct engine_run *run, const struct event *event)
{
	struct event again;
	struct codec_error error;
	char *text = codec_payload_dump(event, run->game.options.seats);
	if (!text || !codec_payload_parse(event->type, text, strlen(text), &again, &error) ||
	    memcmp(&again, event, sizeof again) != 0)
		fail(run, "an event's payload does not parse back byte for byte", text);
	free(text);
}

/* Apply a decision's events to the live game, checking each and the result. */
static void apply_checked(struct engine_run *run, const struct game *expected)
{
	for (int i = 0; i < run->events.count; i++) {
		const struct event *event = &run->events.events[i];
		if (!apply_event_valid(&run->game, event))
			fail(run, "a decided event is not valid for apply", event_type_name(event->type));
		check_round_trip(run, event);
		apply_event(&run->game, event);
		if (run->log_count < FUZZ_MAX_EVENTS)
			run->log[run->log_count++] = *event;
	}
	if (expected && memcmp(&run->game, expected, sizeof run->game) != 0)
		fail(run, "applying the events differs from rules_decide's state", NULL);
	const char *broken = invariants_check(&run->game);
	if (broken)
		fail(run, "invariant broken", broken);
}

/* Every listed move of every seat is accepted (a sample when there are many). */
static void check_listed(struct engine_run *run, struct rng *sampler)
{
	int total = 0;
	for (int s = 0; s < run->game.options.seats; s++) {
		run->move_count[s] = legal_moves(&run->game, s, run->moves[s], LEGAL_MOVES_MAX);
		if (run->move_count[s] > LEGAL_MOVES_MAX)
			fail(run, "more legal moves than LEGAL_MOVES_MAX", NULL);
		if ((legal_waiting_for(&run->game) >> s & 1u) && run->move_count[s] == 0)
			fail(run, "a waited-for seat has no legal move", NULL);
		total += run->move_count[s];
	}
	for (int s = 0; s < run->game.options.seats; s++) {
		for (int i = 0; i < run->move_count[s]; i++) {
			if (total > FUZZ_LISTED_CHECKS && rng_below(sampler, (uint32_t)total) >= FUZZ_LISTED_CHECKS)
				continue;
			struct command move = run->moves[s][i];
			playout_fill_template(&run->game, s, &move, sampler);
			struct rng rng;
			rng_init(&rng, run->seed, run->game.version);
			enum error error =
				rules_decide(&run->game, s, &move, &rng, &run->scratch_events, &run->scratch_state);
			if (error != ERROR_OK || run->scratch_events.count < 1)
				fail(run, "a listed move is refused", error_code(error));
		}
	}
}

static void raw_command(struct fuzz_bytes *bytes, struct command *command)
{
	command_init(command, (enum command_type)(fuzz_bytes_u8(bytes) % (COMMAND_TYPE_COUNT + 1)));
	command->is_template = fuzz_bytes_u8(bytes) & 1u;
	command->node = (int8_t)fuzz_bytes_u8(bytes);
	command->edge = (int8_t)fuzz_bytes_u8(bytes);
	command->hex = (int8_t)fuzz_bytes_u8(bytes);
	command->victim = (int8_t)fuzz_bytes_u8(bytes);
	command->with = (int8_t)fuzz_bytes_u8(bytes);
	command->edge_count = fuzz_bytes_u8(bytes);
	command->edges[0] = (int8_t)fuzz_bytes_u8(bytes);
	command->edges[1] = (int8_t)fuzz_bytes_u8(bytes);
	command->dice[0] = fuzz_bytes_u8(bytes);
	command->dice[1] = fuzz_bytes_u8(bytes);
	command->resource = fuzz_bytes_u8(bytes);
	command->to = fuzz_bytes_u8(bytes);
	command->trade = fuzz_bytes_u16(bytes);
	command->count = fuzz_bytes_u8(bytes);
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		/* Small counts mostly, so trades and discards can be affordable. */
		uint8_t b = fuzz_bytes_u8(bytes);
		command->resources[r] = b & 0x80 ? b : b & 3u;
		b = fuzz_bytes_u8(bytes);
		command->give[r] = b & 0x80 ? b : b & 3u;
		b = fuzz_bytes_u8(bytes);
		command->want[r] = b & 0x80 ? b : b & 3u;
	}
}

/* One step: a listed move or a raw command. 0 when the game is over and the step was a
 * listed move (nothing to choose). */
static int step(struct engine_run *run, struct fuzz_bytes *bytes)
{
	struct command command;
	int seat;
	uint8_t kind = fuzz_bytes_u8(bytes);
	if (kind < 0xe0) {
		int with_moves = 0;
		for (int s = 0; s < run->game.options.seats; s++)
			with_moves += run->move_count[s] > 0;
		if (with_moves == 0)
			return 0;
		/* Mostly a seat the game waits for, so games progress. */
		uint8_t waiting = legal_waiting_for(&run->game);
		int choice = fuzz_bytes_u8(bytes);
		seat = -1;
		if ((choice & 3) != 0 && waiting) {
			int n = choice >> 2;
			for (int k = 0; seat < 0; k++) {
				int s = k % run->game.options.seats;
				if ((waiting >> s & 1u) && run->move_count[s] > 0 && n-- <= 0)
					seat = s;
			}
		}
		for (int k = 0; seat < 0; k++) {
			int s = k % run->game.options.seats;
			if (run->move_count[s] > 0 && choice-- <= 0)
				seat = s;
		}
		command = run->moves[seat][fuzz_bytes_u16(bytes) % run->move_count[seat]];
		struct rng filler;
		rng_init(&filler, fuzz_bytes_u16(bytes), run->game.version);
		playout_fill_template(&run->game, seat, &command, &filler);
	} else {
		raw_command(bytes, &command);
		seat = (int)(fuzz_bytes_u8(bytes) % (run->game.options.seats + 2)) - 1;
	}
	struct rng rng;
	rng_init(&rng, run->seed, run->game.version);
	enum error error = rules_decide(&run->game, seat, &command, &rng, &run->events, &run->after);
	if (error != ERROR_OK) {
		if (kind < 0xe0)
			fail(run, "the chosen listed move is refused", error_code(error));
		if (run->events.count != 0)
			fail(run, "a refused command left events", error_code(error));
		return 1;
	}
	apply_checked(run, &run->after);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct engine_run *run = &run_storage;
	struct fuzz_bytes bytes;
	fuzz_bytes_init(&bytes, data, size);
	uint8_t bits = fuzz_bytes_u8(&bytes);
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)(bits & 1u ? 3 : 4);
	options.layout = (uint8_t)(bits >> 1 & 1u ? GAME_LAYOUT_RANDOM : GAME_LAYOUT_BEGINNER);
	if (options.layout == GAME_LAYOUT_BEGINNER)
		options.start = (uint8_t)(bits >> 2 & 1u ? GAME_START_FIXED : GAME_START_DRAFT);
	else
		options.numbers = (uint8_t)(bits >> 2 & 1u ? BOARD_NUMBERS_RANDOM : BOARD_NUMBERS_SPIRAL);
	options.edition = (uint8_t)(bits >> 3 & 1u ? GAME_EDITION_2025 : GAME_EDITION_CLASSIC);
	options.dice = (uint8_t)((bits >> 4 & 3u) == 3u ? GAME_DICE_MANUAL : GAME_DICE_RANDOM);
	run->seed = fuzz_bytes_u64(&bytes);
	options.first_seat = (int8_t)(bits >> 6 & 1u ? (int)(run->seed % options.seats) : GAME_NO_SEAT);

	memset(&run->game, 0, sizeof run->game);
	run->log_count = 0;
	run->step = 0;
	struct rng rng;
	rng_init(&rng, run->seed, 0);
	if (rules_create(&options, &rng, &run->events) != ERROR_OK)
		fail(run, "rules_create refused the options", NULL);
	apply_checked(run, NULL);

	struct rng sampler;
	rng_init(&sampler, run->seed, UINT64_C(0x5a3b1e));
	while (fuzz_bytes_left(&bytes) > 0 && run->step < FUZZ_MAX_STEPS) {
		check_listed(run, &sampler);
		if (!step(run, &bytes))
			break;
		run->step++;
	}

	if (run->log_count < FUZZ_MAX_EVENTS) {
		struct game *replayed = &run->scratch_state;
		memset(replayed, 0, sizeof *replayed);
		for (int i = 0; i < run->log_count; i++) {
			if (!apply_event_valid(replayed, &run->log[i]))
				fail(run, "replay: a logged event is not valid", event_type_name(run->log[i].type));
			apply_event(replayed, &run->log[i]);
		}
		if (memcmp(replayed, &run->game, sizeof *replayed) != 0)
			fail(run, "replaying the log does not reproduce the state byte for byte", NULL);
	}
	return 0;
}
