/*
 * support.h - what the codec suites (tests/codec/) share: JSON from test text, text from
 * JSON, and an event parsed from a buffer of exactly its size. Each fails the calling test
 * (Check's ck_assert) when the test's own input is broken.
 */
#ifndef CATAN_TESTS_CODEC_SUPPORT_H
#define CATAN_TESTS_CODEC_SUPPORT_H

#include <jansson.h>
#include <stddef.h>

#include "codec/error.h"
#include "engine/event.h"

/* The JSON of `text`, which must parse (duplicate members refused); caller json_decref()s. */
json_t *support_json_load(const char *text);

/* Compact text of `json`; caller frees with free(). */
char *support_json_dump(const json_t *json);

/* codec_event_parse() of `size` bytes of `text` copied to a buffer of exactly that size (no
 * terminator: ASan sees over-reads). */
int support_event_parse_exact(const char *text, size_t size, struct event *event, struct codec_error *error);

#endif
