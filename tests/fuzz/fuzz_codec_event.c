/*
 * fuzz_codec_event.c - libFuzzer target: stored events, as the event log's rows hold them.
 *
 * The first byte is the row's type column (any value, in range or not); the rest is the
 * payload text. It is read both as a whole event (codec_event_parse, the older rows and
 * `catan replay`) and as a payload of that type (codec_payload_parse, what api/service.c
 * and deliver/deliver.c read from the store). Oracles: refusals are well formed and answer as
 * problem bodies; an accepted event dumps and parses back byte for byte (whole and as a
 * payload); apply_event_valid() against prepared games either refuses it or lets
 * apply_event() run (under ASan and UBSan) without going out of bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/log.h"
#include "engine/apply.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_accepted(const struct event *event, unsigned pick)
{
	struct codec_error error;
	struct event again;
	int seats = event->type == EVENT_GAME_CREATED ? event->setup.options.seats : GAME_MAX_SEATS;
	char *text = codec_event_dump(event, seats);
	if (!text) {
		fprintf(stderr, "fuzz: an accepted event does not dump\n");
		abort();
	}
	if (!codec_event_parse(text, strlen(text), &again, &error) || memcmp(&again, event, sizeof again) != 0) {
		fprintf(stderr, "fuzz: dumped event %s does not parse back the same\n", text);
		abort();
	}
	free(text);
	text = codec_payload_dump(event, seats);
	if (!text || !codec_payload_parse(event->type, text, strlen(text), &again, &error) ||
	    memcmp(&again, event, sizeof again) != 0) {
		fprintf(stderr, "fuzz: payload %s does not parse back the same\n", text ? text : "(null)");
		abort();
	}
	free(text);
	static struct game game;
	for (int k = 0; k < 2; k++) {
		memcpy(&game, fuzz_state((int)(pick + (unsigned)k * 7u)), sizeof game);
		if (apply_event_valid(&game, event))
			apply_event(&game, event);
	}
	memset(&game, 0, sizeof game);
	if (apply_event_valid(&game, event))
		apply_event(&game, event);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int type = data[0] < 0x80 ? data[0] % (EVENT_TYPE_COUNT + 1) : (int)(int8_t)data[0];
	const char *text = (const char *)data + 1;
	size_t length = size - 1;
	struct event event;
	struct codec_error error;
	memset(&error, 0, sizeof error);
	if (codec_event_parse(text, length, &event, &error))
		check_accepted(&event, (unsigned)size);
	else
		fuzz_expect_codec_error(&error);
	memset(&error, 0, sizeof error);
	if (codec_payload_parse(type, text, length, &event, &error))
		check_accepted(&event, (unsigned)size + 1u);
	else
		fuzz_expect_codec_error(&error);
	return 0;
}
