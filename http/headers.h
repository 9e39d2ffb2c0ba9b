/*
 * headers.h - reading the text of a request: numbers in paths, queries and headers,
 * If-Match, Idempotency-Key, X-Request-Id, and the percent-decoding of paths and query
 * values. Pure functions of the text (no libmicrohttpd, no I/O), so the request path's
 * fuzz target (tests/fuzz/fuzz_http.c) runs them on arbitrary bytes.
 */
#ifndef CATAN_HTTP_HEADERS_H
#define CATAN_HTTP_HEADERS_H

#include <stddef.h>

/* A decimal integer in [low, high] written with digits only (no sign, space or suffix):
 * 1 with *out set, else 0. The one reader of numbers in paths, queries and headers. */
int headers_integer(const char *text, long low, long high, long *out);

/* If-Match with strong comparison (RFC 9110 13.1.1): 0 when absent (NULL) or "*" (no
 * condition), 1 with *version set for "<version>", 2 for a weak tag (W/"..."), which never
 * matches strongly (the caller answers 412), -1 when malformed. Borrows header. */
int headers_if_match(const char *header, long *version);

/* If-None-Match with weak comparison (RFC 9110 13.1.2): 1 when `header` (a list of entity
 * tags, or "*") names `etag` (a tag as sent in ETag, quotes included), with or without
 * W/; 0 when it does not, when it is absent (NULL) or malformed. Borrows both. */
int headers_if_none_match(const char *header, const char *etag);

/* The newest game version an If-None-Match names: the largest of its tags that are plain
 * decimal versions ("57", W/"57"), -1 when none is (absent, `*`, a content hash). */
long headers_known_version(const char *header);

/* 1 when an Idempotency-Key is 1..200 printable ASCII characters. */
int headers_idempotency_key_valid(const char *key);

/* 1 when a client's X-Request-Id can be echoed: 1..40 characters of [A-Za-z0-9._-]. */
int headers_request_id_valid(const char *given);

/* Percent-decode a path or query value in place (libmicrohttpd's unescape callback), except
 * that %00 stays as it is written: a NUL would cut the string and make
 * "/v1/games/ID%00/board" read as "/v1/games/ID". Returns the new length. */
size_t headers_unescape(char *text);

#endif
