/*
 * support.c - the codec suites' shared helpers (tests/codec/support.h).
 */
#include "tests/codec/support.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "codec/log.h"

json_t *support_json_load(const char *text)
{
	json_error_t error;
	json_t *json = json_loads(text, JSON_REJECT_DUPLICATES, &error);
	ck_assert_msg(json != NULL, "test JSON does not parse: %s (%s)", text, error.text);
	return json;
}

char *support_json_dump(const json_t *json)
{
	char *text = json_dumps(json, JSON_COMPACT);
	ck_assert_ptr_nonnull(text);
	return text;
}

int support_event_parse_exact(const char *text, size_t size, struct event *event, struct codec_error *error)
{
	char *copy = malloc(size ? size : 1);
	ck_assert_ptr_nonnull(copy);
	memcpy(copy, text, size);
	int ok = codec_event_parse(copy, size, event, error);
	free(copy);
	return ok;
}
