/*
 * fuzz_support.c - the shared oracles and helpers of fuzz_support.h.
 *
 * The problem oracle builds the body with problem_json() from http/problem.c, the same
 * function http/http.c answers every error with, and dumps it with json_dumps() as the
 * server does; a NULL body or dump is exactly the abort of issue 8 item 1.
 *
 * The prepared game states are played by playout_choose() from fixed seeds, so every run
 * (and every regression input) sees the same states.
 */
#include "tests/fuzz/fuzz_support.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/problem.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"

int fuzz_utf8_valid(const char *text, size_t size)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0;
	while (i < size) {
		unsigned c = p[i];
		size_t extra;
		unsigned minimum;
		if (c < 0x80) {
			i++;
			continue;
		} else if (c >= 0xc2 && c <= 0xdf) {
			extra = 1, minimum = 0x80;
		} else if (c >= 0xe0 && c <= 0xef) {
			extra = 2, minimum = 0x800;
		} else if (c >= 0xf0 && c <= 0xf4) {
			extra = 3, minimum = 0x10000;
		} else {
			return 0;
		}
		if (extra >= size - i)
			return 0;
		unsigned code = c & (0x3fu >> extra);
		for (size_t k = 1; k <= extra; k++) {
			if ((p[i + k] & 0xc0) != 0x80)
				return 0;
			code = code << 6 | (p[i + k] & 0x3fu);
		}
		if (code < minimum || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
			return 0;
		i += extra + 1;
	}
	return 1;
}

static void print_escaped(const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		if (*p >= 0x20 && *p < 0x7f && *p != '\\')
			fputc(*p, stderr);
		else
			fprintf(stderr, "\\x%02x", *p);
}

void fuzz_expect_utf8(const char *what, const char *text)
{
	if (fuzz_utf8_valid(text, strlen(text)))
		return;
	fprintf(stderr, "fuzz: %s is not valid UTF-8: \"", what);
	print_escaped(text);
	fprintf(stderr, "\"\n");
	abort();
}

void fuzz_expect_problem(const char *instance, const char *code, int status, const char *title, const char *detail,
			 const char *field)
{
	json_t *body = problem_json(instance, code, status, title, detail, field, -1);
	if (!body) {
		fprintf(stderr, "fuzz: problem_json() gave NULL (the server would abort in json_dumps) for detail \"");
		print_escaped(detail ? detail : "(null)");
		fprintf(stderr, "\"\n");
		abort();
	}
	char *text = json_dumps(body, JSON_COMPACT);
	if (!text) {
		fprintf(stderr, "fuzz: json_dumps() of a problem body gave NULL\n");
		abort();
	}
	/* Text that is not UTF-8 is repaired (U+FFFD), valid text is kept as it is. */
	const char *kept = json_string_value(json_object_get(body, "detail"));
	const char *given = detail ? detail : title;
	if (!kept || (fuzz_utf8_valid(given, strlen(given)) && strcmp(kept, given) != 0)) {
		fprintf(stderr, "fuzz: the problem body lost its detail: %s\n", text);
		abort();
	}
	if ((field && !json_is_string(json_object_get(body, "field"))) ||
	    !json_is_string(json_object_get(body, "instance"))) {
		fprintf(stderr, "fuzz: the problem body lost its field or instance \"");
		print_escaped(field);
		fprintf(stderr, "\": %s\n", text);
		abort();
	}
	free(text);
	json_decref(body);
}

void fuzz_expect_codec_error(const struct codec_error *error)
{
	if (error->code == CODEC_ERROR_NONE || (unsigned)error->code >= CODEC_ERROR_COUNT) {
		fprintf(stderr, "fuzz: a codec refusal has code %d\n", (int)error->code);
		abort();
	}
	enum problem problem = problem_of_codec_error(error->code);
	if (!memchr(error->field, '\0', sizeof error->field) || !memchr(error->message, '\0', sizeof error->message)) {
		fprintf(stderr, "fuzz: a codec refusal's field or message is not terminated\n");
		abort();
	}
	fuzz_expect_utf8("a codec refusal's message", error->message);
	fuzz_expect_utf8("a codec refusal's field", error->field);
	fuzz_expect_problem("/v1/games", problem_code(problem), problem_status(problem), problem_title(problem),
			    error->message, error->field);
}

void fuzz_expect_refusal(const char *instance, const struct problem_refusal *refusal)
{
	int status = problem_status(refusal->problem);
	if (refusal->problem < 0 || refusal->problem >= PROBLEM_COUNT || status < 400 || status > 499 ||
	    !refusal->detail[0]) {
		fprintf(stderr, "fuzz: a refusal is not a client error with a detail (problem %d)\n",
			(int)refusal->problem);
		abort();
	}
	/* A parse error's detail quotes the body near the error, which may be cut inside a
	 * character: the problem writer (fuzz_expect_problem) must repair it, as it does. */
	fuzz_expect_problem(instance, problem_code(refusal->problem), status, problem_title(refusal->problem),
			    refusal->detail, refusal->field);
}

void fuzz_bytes_init(struct fuzz_bytes *bytes, const uint8_t *data, size_t size)
{
	bytes->data = data;
	bytes->size = size;
	bytes->at = 0;
}

size_t fuzz_bytes_left(const struct fuzz_bytes *bytes)
{
	return bytes->size - bytes->at;
}

uint8_t fuzz_bytes_u8(struct fuzz_bytes *bytes)
{
	return bytes->at < bytes->size ? bytes->data[bytes->at++] : 0;
}

uint16_t fuzz_bytes_u16(struct fuzz_bytes *bytes)
{
	uint16_t high = fuzz_bytes_u8(bytes);
	return (uint16_t)(high << 8 | fuzz_bytes_u8(bytes));
}

uint64_t fuzz_bytes_u64(struct fuzz_bytes *bytes)
{
	uint64_t value = 0;
	for (int i = 0; i < 8; i++)
		value = value << 8 | fuzz_bytes_u8(bytes);
	return value;
}

/* ---- prepared states ---- */

static struct game states[FUZZ_STATES];
static int states_ready;

uint64_t fuzz_state_seed(int index)
{
	return UINT64_C(0xf022) + (uint64_t)index * UINT64_C(7919);
}

/* Play game `index` until `stop` moves were made (or it ended) into states[index]. */
static void prepare_state(int index, long stop)
{
	static struct command scratch[LEGAL_MOVES_MAX];
	static struct event_list events;
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)(index % 3 == 2 ? 3 : 4);
	options.layout = (uint8_t)(index % 2 ? GAME_LAYOUT_RANDOM : GAME_LAYOUT_BEGINNER);
	options.dice = (uint8_t)(index % 4 == 3 ? GAME_DICE_MANUAL : GAME_DICE_RANDOM);
	options.edition = (uint8_t)(index % 5 == 4 ? GAME_EDITION_2025 : GAME_EDITION_CLASSIC);
	uint64_t seed = fuzz_state_seed(index);
	struct game *game = &states[index];
	memset(game, 0, sizeof *game);
	struct rng rng;
	rng_init(&rng, seed, 0);
	if (rules_create(&options, &rng, &events) != ERROR_OK)
		abort();
	apply_events(game, &events);
	struct playout_options playout = {1};
	struct rng chooser;
	rng_init(&chooser, seed, 1);
	for (long move = 0; move < stop; move++) {
		int seat;
		struct command command;
		if (!playout_choose(game, &playout, &chooser, scratch, &seat, &command))
			break;
		rng_init(&rng, seed, game->version);
		if (rules_decide(game, seat, &command, &rng, &events, NULL) != ERROR_OK)
			abort();
		apply_events(game, &events);
	}
}

const struct game *fuzz_state(int index)
{
	static const long stops[FUZZ_STATES] = {0, 3, 9, 16, 40, 80, 120, 200, 300, 450, 700, 100000};
	if (!states_ready) {
		for (int i = 0; i < FUZZ_STATES; i++)
			prepare_state(i, stops[i]);
		states_ready = 1;
	}
	return &states[(unsigned)index % FUZZ_STATES];
}
