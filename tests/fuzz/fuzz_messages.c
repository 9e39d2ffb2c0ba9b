/*
 * fuzz_messages.c - libFuzzer target: the body of POST /v1/games/{id}/messages (table talk).
 *
 * What it reaches: everything handle_post_message() (api/handlers_messages.c) does with
 * the body before the store: inputs_json_object() (the JSON part of service_body()),
 * inputs_message() (members, the text member, codec/text.h text_message_length() with
 * MESSAGES_MAX_CHARACTERS), and the problem body of a refusal. Not reached: the session,
 * the per-seat rate and the post itself (the store), the Content-Type check.
 *
 * Input: the first byte picks how the rest is read: even, the bytes are the body as sent;
 * odd, the bytes (when UTF-8) are the text of a body {"text": ...} built here, so the text
 * rule is fuzzed past the JSON parser. Oracles: an accepted text is valid UTF-8 without
 * NUL, of 1..500 characters, holds a character other than space and line feed, and no
 * control character but line feeds; every refusal answers as a problem body (400, naming
 * `text` or the unknown member).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/inputs.h"
#include "game/messages.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_accepted(const char *text)
{
	size_t length = strlen(text);
	size_t characters = 0;
	int shows = 0;
	for (size_t i = 0; i < length; i++) {
		unsigned char c = (unsigned char)text[i];
		if ((c & 0xC0) != 0x80)
			characters++;
		if ((c < 0x20 && c != '\n') || c == 0x7f) {
			fprintf(stderr, "fuzz: an accepted message holds control character %#x\n", c);
			abort();
		}
		shows |= c != ' ' && c != '\n';
	}
	if (!fuzz_utf8_valid(text, length) || characters < 1 || characters > MESSAGES_MAX_CHARACTERS || !shows) {
		fprintf(stderr, "fuzz: an accepted message is not 1..500 characters of UTF-8 (%zu)\n", characters);
		abort();
	}
}

static void check(json_t *body)
{
	const char *text = NULL;
	struct problem_refusal refusal;
	if (inputs_message(body, &text, &refusal))
		check_accepted(text);
	else
		fuzz_expect_refusal("/v1/games/0123456789abcdef/messages", &refusal);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	const char *rest = (const char *)data + 1;
	size_t length = size - 1;
	struct problem_refusal refusal;
	if (data[0] % 2 == 0) {
		json_t *body = inputs_json_object(rest, length, 0, &refusal);
		if (!body) {
			fuzz_expect_refusal("/v1/games/0123456789abcdef/messages", &refusal);
			return 0;
		}
		check(body);
		json_decref(body);
		return 0;
	}
	if (!fuzz_utf8_valid(rest, length))
		return 0;
	json_t *text = json_stringn(rest, length);
	if (!text)
		return 0;
	json_t *body = json_object();
	json_object_set_new(body, "text", text);
	check(body);
	json_decref(body);
	return 0;
}
