/*
 * error.h - why the codec refused input: one X-macro table of codes, and the error a
 * reader fills.
 *
 * Every reader of codec/ (move bodies, options, stored events, payloads) returns 1, or 0
 * with a struct codec_error: the code, the JSON member at fault and a sentence. The codes
 * are the problem codes of the HTTP API for input (http/problem.h has a problem of the same
 * name for each, and problem_of_codec_error() maps one to the other by that name), so the
 * strings below are part of the API.
 */
#ifndef CATAN_CODEC_ERROR_H
#define CATAN_CODEC_ERROR_H

/* X(name, code) */
#define CODEC_ERROR_TABLE(X)              \
	X(INVALID_JSON, "invalid_json")   \
	X(UNKNOWN_FIELD, "unknown_field") \
	X(MISSING_FIELD, "missing_field") \
	X(INVALID_FIELD, "invalid_field")

/* CODEC_ERROR_NONE (0) is what a zeroed struct codec_error holds: no refusal. */
enum codec_error_code {
	CODEC_ERROR_NONE,
#define CODEC_ERROR_ENUM(name, code) CODEC_ERROR_##name,
	CODEC_ERROR_TABLE(CODEC_ERROR_ENUM)
#undef CODEC_ERROR_ENUM
		CODEC_ERROR_COUNT
};

/* Why input was refused: the code, the JSON member at fault (a path like "resources.ore",
 * or "" for the whole body) and a sentence for humans. field and message are always
 * NUL-terminated valid UTF-8 (client text in them is quoted through codec/text.h). */
struct codec_error {
	enum codec_error_code code;
	char field[64];
	char message[192];
};

/* The code's stable string ("invalid_json" ...); "none" for CODEC_ERROR_NONE and for a value
 * outside the enum. Static storage. */
const char *codec_error_code_name(enum codec_error_code code);

#endif
