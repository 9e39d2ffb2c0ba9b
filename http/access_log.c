/*
 * access_log.c - the access log's lines. Each line is built in a buffer and written with
 * one call, so lines from different threads never interleave (stdio locks the stream per
 * call). Strings are JSON-escaped by jansson; the timestamp is the server log's
 * (base/log.h), so both kinds of line sort together.
 */
#include "http/access_log.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/log.h"
#include "codec/text.h"

static void emit(json_t *line)
{
	char *text = json_dumps(line, JSON_COMPACT);
	json_decref(line);
	if (!text)
		return;
	fprintf(stderr, "%s\n", text);
	free(text);
}

void access_log_write(const struct access_log_line *request)
{
	char ts[40];
	log_timestamp(ts, sizeof ts);
	/* The path is the client's: text_json() keeps the line writable whatever its bytes. */
	json_t *line =
		json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:i, s:f, s:s, s:I}", "ts", ts, "level", "info", "msg",
			  "request", "request_id", request->request_id, "method", request->method, "path",
			  text_json(request->path ? request->path : ""), "status", request->status, "duration_ms",
			  request->seconds * 1000.0, "ip", request->ip, "bytes", (json_int_t)request->bytes);
	if (request->via[0])
		json_object_set_new(line, "via", json_string(request->via));
	if (request->route)
		json_object_set_new(line, "route", json_string(request->route));
	if (request->game[0])
		json_object_set_new(line, "game", json_string(request->game));
	if (request->seat >= 0)
		json_object_set_new(line, "seat", json_integer(request->seat));
	else if (request->seat == -2)
		json_object_set_new(line, "seat", json_string("admin"));
	if (request->code)
		json_object_set_new(line, "code", json_string(request->code));
	if (request->aborted)
		json_object_set_new(line, "aborted", json_true());
	emit(line);
}
