/*
 * fuzz_names.c - libFuzzer target: the names people give (players, seats, joiners, bots).
 *
 * What it reaches: the one name rule every route that takes a name runs,
 * inputs_name() (api/inputs.c, called by service_read_name() for creation's
 * players[i].name, the import's players, a join's and a bot seat's name) and
 * inputs_player() (the body of POST /v1/players), with person_name_check()
 * (codec/person_name.c: the form of codec/text.h, NFC and the visibility of each code point
 * through ICU) under them. Not reached: parse_seats() of handlers_games.c around the name
 * (its player binding reads the store).
 *
 * Input: the first byte picks how the rest is read:
 *   even  the bytes are a name as the client's JSON string holds it: person_name_check()
 *         on them, and (when they are UTF-8, as a parsed JSON string always is) the same
 *         string through inputs_name() with the field creation names;
 *   odd   the bytes are a body (inputs_json_object(), as service_body() reads it): through
 *         inputs_player(), and each players[i].name of it through inputs_name().
 * Oracles: the verdict of the two paths agree; an accepted name is valid UTF-8, 1..40 code
 * points, holds no NUL, is copied whole, and holds a character that is not ASCII white
 * space; a name of ASCII letters or digits (with spaces) is accepted; ASCII spaces alone
 * are refused as invisible; every refusal answers as a problem body (400, the field
 * named, a UTF-8 detail).
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/inputs.h"
#include "codec/person_name.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *text, size_t length)
{
	fprintf(stderr, "fuzz: %s: \"", what);
	for (size_t i = 0; i < length; i++)
		fprintf(stderr, (unsigned char)text[i] >= 0x20 && (unsigned char)text[i] < 0x7f ? "%c" : "\\x%02x",
			(unsigned char)text[i]);
	fprintf(stderr, "\"\n");
	abort();
}

/* What any accepted name must be, and what a plain one must get. */
static void check_verdict(const char *text, size_t length, enum person_name_verdict verdict, int characters)
{
	int plain = length > 0, blank = length > 0, letters = 0;
	for (size_t i = 0; i < length; i++) {
		unsigned char c = (unsigned char)text[i];
		int alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
		letters += alnum;
		plain &= alnum || c == ' ';
		blank &= c == ' ';
	}
	if (verdict == PERSON_NAME_OK) {
		if (!fuzz_utf8_valid(text, length) || memchr(text, '\0', length) || characters < 1 ||
		    characters > PERSON_NAME_MAX_CHARACTERS || blank)
			fail("an accepted name is not 1..40 visible characters of UTF-8", text, length);
	}
	if (plain && letters && length <= PERSON_NAME_MAX_CHARACTERS && verdict != PERSON_NAME_OK)
		fail("a plain name is refused", text, length);
	if (blank && length <= PERSON_NAME_MAX_CHARACTERS && verdict != PERSON_NAME_INVISIBLE)
		fail("spaces alone are not refused as invisible", text, length);
}

static void check_name(const json_t *value, const char *field)
{
	char out[INPUTS_NAME_SIZE];
	struct problem_refusal refusal;
	if (inputs_name(value, field, out, &refusal)) {
		const char *given = json_string_value(value);
		if (!given || strcmp(out, given) != 0 || strlen(given) != json_string_length(value))
			fail("an accepted name is not kept whole", given ? given : "", given ? strlen(given) : 0);
		int characters = 0;
		check_verdict(given, strlen(given), person_name_check(given, strlen(given), &characters), characters);
		return;
	}
	if (!refusal.field || strcmp(refusal.field, field) != 0)
		fail("a refused name does not name its field", field, strlen(field));
	fuzz_expect_refusal("/v1/games", &refusal);
}

static void check_raw(const char *text, size_t length)
{
	int characters = 0;
	enum person_name_verdict verdict = person_name_check(text, length, &characters);
	check_verdict(text, length, verdict, characters);
	if (!fuzz_utf8_valid(text, length))
		return;
	json_t *string = json_stringn(text, length);
	if (!string)
		return;
	char out[INPUTS_NAME_SIZE];
	struct problem_refusal refusal;
	int accepted = inputs_name(string, "players[0].name", out, &refusal);
	if (accepted != (verdict == PERSON_NAME_OK))
		fail("inputs_name() and person_name_check() disagree", text, length);
	if (!accepted)
		fuzz_expect_refusal("/v1/games", &refusal);
	json_decref(string);
}

static void check_body(const char *bytes, size_t length)
{
	struct problem_refusal refusal;
	json_t *body = inputs_json_object(bytes, length, 0, &refusal);
	if (!body) {
		fuzz_expect_refusal("/v1/players", &refusal);
		return;
	}
	char out[INPUTS_NAME_SIZE];
	if (!inputs_player(body, out, &refusal))
		fuzz_expect_refusal("/v1/players", &refusal);
	json_t *players = json_object_get(body, "players");
	size_t index;
	json_t *player;
	json_array_foreach(players, index, player)
	{
		char field[64];
		snprintf(field, sizeof field, "players[%d].name", (int)index);
		json_t *name = json_object_get(player, "name");
		if (name)
			check_name(name, field);
	}
	json_decref(body);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	const char *rest = (const char *)data + 1;
	if (data[0] % 2 == 0)
		check_raw(rest, size - 1);
	else
		check_body(rest, size - 1);
	return 0;
}
