/*
 * log.h - the server's structured log: one JSON object per line on stderr, each written
 * whole with one call, so lines of different threads never interleave.
 *
 * A line of the server itself (log_event()) is {"ts", "level", "msg", then the caller's
 * "key": "value" pairs}, every value a string. The HTTP server's access log
 * (http/access_log.h) writes its lines with the same timestamp (log_timestamp()).
 *
 * Strings are escaped as jansson's compact dump escapes them (\" \\ \b \f \n \r \t, other
 * controls as \u00XX, everything else as it is), and a value that is not valid UTF-8 is
 * left out of its line rather than writing a line that is not JSON. No allocation fails
 * here: out of memory aborts (base/xalloc.h).
 */
#ifndef CATAN_BASE_LOG_H
#define CATAN_BASE_LOG_H

#include <stddef.h>

/* Write a line: `level` ("info", "warn", "error"), `message`, then pairs of strings (a key,
 * then its value; a NULL value is written as ""), ending with a NULL key. Borrows all. */
void log_event(const char *level, const char *message, ...);

/* Now as the log writes it: RFC 3339 UTC with milliseconds ("2026-11-29T20:07:46.668Z"). */
void log_timestamp(char *out, size_t size);

/* 1 when text[0 .. length) is valid UTF-8 (no overlong forms, surrogates or code points
 * past U+10FFFF): what a JSON string may hold. */
int log_utf8_valid(const char *text, size_t length);

/* Append `value` as a JSON string (quoted and escaped, see above) to `text`; `value` must
 * be valid UTF-8 (log_utf8_valid()). */
struct xtext;
void log_json_string(struct xtext *text, const char *value);

#endif
