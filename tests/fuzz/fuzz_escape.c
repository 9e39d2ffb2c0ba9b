/*
 * fuzz_escape.c - libFuzzer target: player text through the escape of each format
 * (codec/escape.h: escape_discord(), escape_slack(), escape_markup()).
 *
 * What it reaches: the first byte picks the format and a buffer size for a cut result; the
 * rest, NUL-cut, is the text, as a seat name or any client text would reach the function.
 * Oracles (tests/escape_invariants.h, shared with tests/codec/test_escape.c): the
 * whole result fits ESCAPE_SIZE() and keeps to its format's rules (Discord: every ASCII
 * punctuation character escaped, every "@" followed by U+200B, so no "<@", "@everyone",
 * "@here", "](" or "://" Discord can read; Slack: no "<" or ">", "&" only in an entity;
 * markup: no < > " ', "&" only in an entity; all: valid UTF-8, no control, bidi or
 * zero-width character), a cut result is a prefix of the whole that keeps to the rules
 * too, and printable ASCII comes back whole when a Discord escape is undone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/escape.h"
#include "tests/escape_invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef size_t (*escape_function)(char *, size_t, const char *);
typedef const char *(*escape_check)(const char *);

static void fail(const char *format, const char *what, const char *text)
{
	fprintf(stderr, "fuzz: %s escape: %s: %s\n", format, what, text);
	abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static const struct {
		const char *name;
		escape_function escape;
		escape_check check;
	} formats[] = {{"discord", escape_discord, escape_check_discord},
		       {"slack", escape_slack, escape_check_slack},
		       {"markup", escape_markup, escape_check_markup}};
	int f = data[0] % 3;
	char *text = malloc(size);
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	size_t length = strlen(text);
	size_t room = ESCAPE_SIZE(length);
	char *whole = malloc(room + 1);
	whole[room] = '\x7f'; /* a guard: nothing is written past the size given */
	size_t written = formats[f].escape(whole, room, text);
	if (whole[room] != '\x7f' || written >= room || strlen(whole) != written)
		fail(formats[f].name, "the result does not fit ESCAPE_SIZE", text);
	const char *wrong = formats[f].check(whole);
	if (wrong)
		fail(formats[f].name, wrong, whole);
	/* A cut result: a prefix, and as safe. */
	size_t cut = 1 + (size_t)(data[0] / 3) % (written + 2);
	char *part = malloc(cut);
	size_t part_written = formats[f].escape(part, cut, text);
	if (part_written >= cut || strncmp(part, whole, part_written) != 0)
		fail(formats[f].name, "a cut result is not a prefix", text);
	wrong = formats[f].check(part);
	if (wrong)
		fail(formats[f].name, wrong, part);
	free(part);
	if (f == 0) {
		int printable = 1;
		for (size_t i = 0; i < length; i++)
			printable &= text[i] >= 0x20 && text[i] < 0x7f;
		if (printable) {
			char *plain = malloc(written + 1);
			escape_unescaped_discord(whole, plain);
			if (strcmp(plain, text) != 0)
				fail(formats[f].name, "printable text does not come back whole", whole);
			free(plain);
		}
	}
	free(whole);
	free(text);
	return 0;
}
