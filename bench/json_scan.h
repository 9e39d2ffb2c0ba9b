/*
 * json_scan.h - reading a few members out of a JSON text in place, for the HTTP load
 * generator (bench/http_bench.c).
 *
 * A span is a pointer pair into text the caller owns (the connection's receive buffer):
 * nothing is copied, decoded or allocated, so a span lives as long as that buffer's
 * contents. The scanner trusts its input to be JSON (the server's answers); on text that
 * is not, every function fails (returns 0) instead of reading past `end`. Strings are
 * compared raw: a key is matched only when written without escapes, as the server writes
 * every key.
 */
#ifndef CATAN_BENCH_JSON_SCAN_H
#define CATAN_BENCH_JSON_SCAN_H

#include <stddef.h>

struct scan_span {
	const char *start, *end; /* [start, end): one JSON value, whitespace trimmed */
};

/* The value starting at (or after whitespace from) `from`: its span in *value, 1; 0 when
 * `from` holds no complete value before `end`. */
int scan_value(const char *from, const char *end, struct scan_span *value);

/* The value of member `key` (an unescaped name) of the object `object`, at its top level;
 * 1 and *value, or 0 when `object` is not an object or has no such member. */
int scan_member(struct scan_span object, const char *key, struct scan_span *value);

/* Walking an object's members or an array's elements: *cursor starts as 0 (NULL); each call
 * sets *element (and for an object *key, the name's span without its quotes) to the next
 * one and returns 1, or returns 0 after the last or on malformed text. `key` may be NULL
 * for arrays. */
int scan_next(struct scan_span container, const char **cursor, struct scan_span *key, struct scan_span *element);

/* The integer in `value` (an optional '-' and digits); 0 when it is none. */
int scan_integer(struct scan_span value, long long *out);

/* 1 when `value` is exactly the literal `text` (e.g. "true", "\"offer_trade\""). */
int scan_is(struct scan_span value, const char *text);

#endif
