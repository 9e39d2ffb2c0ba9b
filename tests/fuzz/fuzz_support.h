/*
 * fuzz_support.h - what the libFuzzer targets of tests/fuzz/ share: the oracles for error
 * text (valid UTF-8, and a problem+json body the server can send), a reader of the fuzzer's
 * bytes as a sequence of choices, and a few game states to decide commands against.
 *
 * A broken oracle prints what broke on stderr and calls abort(), which libFuzzer reports
 * as a crash and saves the input (crash-<sha1>) for tests/fuzz/crashes/<target>/.
 */
#ifndef CATAN_TESTS_FUZZ_FUZZ_SUPPORT_H
#define CATAN_TESTS_FUZZ_FUZZ_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "api/inputs.h"
#include "codec/error.h"
#include "engine/game.h"

/* 1 when text[0..size) is valid UTF-8 (no overlong forms, no surrogates, at most U+10FFFF). */
int fuzz_utf8_valid(const char *text, size_t size);

/* Abort with `what` and the text (escaped) unless it is valid UTF-8. */
void fuzz_expect_utf8(const char *what, const char *text);

/* Abort unless the problem+json body the server would send for these values (through
 * problem_json(), as http/http.c builds it) exists, dumps, and keeps detail and, when
 * given, field. */
void fuzz_expect_problem(const char *instance, const char *code, int status, const char *title, const char *detail,
			 const char *field);

/* Abort unless a codec refusal is well formed (a known code, UTF-8 field and message) and
 * answers as a problem body, mapped to a problem by problem_of_codec_error() as the server does. */
void fuzz_expect_codec_error(const struct codec_error *error);

/* Abort unless a refused input (api/inputs.h) is well formed: a 4xx problem with a
 * detail, answering as a problem body at `instance` as service_refuse() answers it (the
 * detail, which may quote the body, kept when it is UTF-8 and repaired when not). */
void fuzz_expect_refusal(const char *instance, const struct problem_refusal *refusal);

/* The fuzzer's input read front to back; reads past the end give zeros. */
struct fuzz_bytes {
	const uint8_t *data;
	size_t size;
	size_t at;
};

void fuzz_bytes_init(struct fuzz_bytes *bytes, const uint8_t *data, size_t size);
size_t fuzz_bytes_left(const struct fuzz_bytes *bytes);
uint8_t fuzz_bytes_u8(struct fuzz_bytes *bytes);
uint16_t fuzz_bytes_u16(struct fuzz_bytes *bytes);
uint64_t fuzz_bytes_u64(struct fuzz_bytes *bytes);

/* FUZZ_STATES states of random 4- and 3-seat games at various points (setup, the robber,
 * discards, the main phase with offers open, the end), made once from fixed seeds. */
#define FUZZ_STATES 12
const struct game *fuzz_state(int index);
uint64_t fuzz_state_seed(int index);

#endif
