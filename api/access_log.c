/*
 * access_log.c - structured logs. Each line is built in a buffer and written with one
 * fputs, so lines from different threads never interleave (stdio locks the stream per call).
 * Strings are JSON-escaped by jansson.
 */
#include "api/access_log.h"

#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "api/routes.h"
#include "codec/text.h"

static void timestamp(char *out, size_t size)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	char base[32];
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, size, "%.24s.%03dZ", base, (int)(ts.tv_nsec / 1000000) % 1000);
}

static void emit(json_t *line)
{
	char *text = json_dumps(line, JSON_COMPACT);
	json_decref(line);
	if (!text)
		return;
	fprintf(stderr, "%s\n", text);
	free(text);
}

void access_log_write(const struct http_request *request, double seconds, int aborted)
{
	char ts[40];
	timestamp(ts, sizeof ts);
	/* The path is the client's: text_json() keeps the line writable whatever its bytes. */
	json_t *line = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o, s:i, s:f, s:s, s:I}", "ts", ts, "level", "info", "msg",
				 "request", "request_id", request->request_id, "method", request->method_name, "path",
				 text_json(request->path ? request->path : ""), "status", request->status, "duration_ms",
				 seconds * 1000.0, "ip", request->client_ip, "bytes", (json_int_t)request->response_bytes);
	if (request->client_via[0])
		json_object_set_new(line, "via", json_string(request->client_via));
	if (request->route)
		json_object_set_new(line, "route", json_string(request->route->pattern));
	if (request->game[0])
		json_object_set_new(line, "game", json_string(request->game));
	if (request->seat >= 0)
		json_object_set_new(line, "seat", json_integer(request->seat));
	else if (request->seat == -2)
		json_object_set_new(line, "seat", json_string("admin"));
	if (request->problem_code)
		json_object_set_new(line, "code", json_string(request->problem_code));
	if (aborted)
		json_object_set_new(line, "aborted", json_true());
	emit(line);
}

void access_log_event(const char *level, const char *message, ...)
{
	char ts[40];
	timestamp(ts, sizeof ts);
	json_t *line = json_pack("{s:s, s:s, s:s}", "ts", ts, "level", level, "msg", message);
	va_list args;
	va_start(args, message);
	for (;;) {
		const char *key = va_arg(args, const char *);
		if (!key)
			break;
		const char *value = va_arg(args, const char *);
		json_object_set_new(line, key, json_string(value ? value : ""));
	}
	va_end(args);
	emit(line);
}
