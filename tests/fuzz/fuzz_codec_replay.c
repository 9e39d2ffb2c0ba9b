/*
 * fuzz_codec_replay.c - libFuzzer target: a replay log (`catan replay`, the API's event
 * log saved to a file) as JSON text, through codec_replay_log().
 *
 * Oracles: a refusal's message is UTF-8 and answers as a problem body (it quotes the
 * codec's refusals, so issue 8 item 1 shows here too); an accepted log is one every event
 * of which passed apply_event_valid(), so the state must survive view and legal-move
 * listing for every seat under ASan and UBSan. Invariants are not asserted: a forged but
 * well-formed log is not re-checked against the rules (engine/apply.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/log.h"
#include "engine/legal.h"
#include "engine/view.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct game game;
	static struct game_view view;
	static struct command moves[LEGAL_MOVES_MAX];
	char message[256];
	message[0] = '\0';
	if (!codec_replay_log((const char *)data, size, &game, message, sizeof message)) {
		fuzz_expect_utf8("codec_replay_log's message", message);
		fuzz_expect_problem("/v1/replay", "invalid_json", 400, "The body is not valid JSON", message, NULL);
		return 0;
	}
	for (int viewer = VIEW_SPECTATOR; viewer < game.options.seats; viewer++) {
		view_game(&game, viewer, &view);
		if (viewer >= 0)
			legal_moves(&game, viewer, moves, LEGAL_MOVES_MAX);
	}
	legal_waiting_for(&game);
	return 0;
}
