/*
 * access_log.c - the access log's lines, formatted by hand: one line per finished request
 * is the server's most frequent piece of output, and building a jansson object, dumping
 * it and formatting a double with "%.17g" cost more than a quarter of the server's
 * instructions per durable move (issue 24). A line is built in a buffer on the writing
 * thread's stack (the heap only for a line longer than that, a path of kilobytes) and
 * handed to the kernel with one write() of the whole line: lines of different threads
 * never interleave, a reader of the log sees a request's line as soon as it is answered
 * (the HTTP suites read it right after the answer), and a kill -9 loses no line that was
 * finished.
 *
 * The line is the object jansson's compact dump of the same members would be, in the same
 * order: strings escaped as base/log.h says (\" \\ \b \f \n \r \t, other controls as
 * \u00XX, everything else as it is; tests/http/test_access_log.c compares with jansson's
 * dump); the client's path is text_quote()d when it is not valid UTF-8 (codec/text.h), as
 * text_json() did; an optional string that is not valid UTF-8 is left out, as jansson
 * refused it. The one difference: "duration_ms" has three decimals (microseconds), not
 * seventeen significant digits. The timestamp is the server log's (base/log.h), so both
 * kinds of line sort together.
 */
#include "http/access_log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "codec/text.h"

/* Big enough for every line of the benchmark's and the tests' requests. */
#define LINE_STACK_BYTES 1024

/* A line being built: in `stack` until it outgrows it, then on the heap. */
struct line {
	char *data;
	size_t length, capacity;
	char stack[LINE_STACK_BYTES];
};

static void line_reserve(struct line *line, size_t more)
{
	if (line->length + more <= line->capacity)
		return;
	size_t capacity = line->capacity * 2;
	while (capacity < line->length + more)
		capacity *= 2;
	char *grown = xmalloc(capacity);
	memcpy(grown, line->data, line->length);
	if (line->data != line->stack)
		free(line->data);
	line->data = grown;
	line->capacity = capacity;
}

static void line_bytes(struct line *line, const char *bytes, size_t size)
{
	line_reserve(line, size);
	memcpy(line->data + line->length, bytes, size);
	line->length += size;
}

#define line_literal(line, literal) line_bytes(line, literal, sizeof literal - 1)

static void line_unsigned(struct line *line, unsigned long long value)
{
	char digits[24];
	size_t at = sizeof digits;
	do {
		digits[--at] = (char)('0' + value % 10);
		value /= 10;
	} while (value);
	line_bytes(line, digits + at, sizeof digits - at);
}

static void line_integer(struct line *line, long long value)
{
	if (value < 0) {
		line_literal(line, "-");
		line_unsigned(line, 0ull - (unsigned long long)value);
	} else {
		line_unsigned(line, (unsigned long long)value);
	}
}

/* `value` (valid UTF-8) as a JSON string. */
static void line_string(struct line *line, const char *value)
{
	static const char hex[] = "0123456789ABCDEF";
	line_literal(line, "\"");
	const char *run = value;
	for (const char *at = value;; at++) {
		unsigned char c = (unsigned char)*at;
		if (c && c != '"' && c != '\\' && c >= 0x20)
			continue;
		line_bytes(line, run, (size_t)(at - run));
		run = at + 1;
		switch (c) {
		case '\0':
			line_literal(line, "\"");
			return;
		case '"':
			line_literal(line, "\\\"");
			break;
		case '\\':
			line_literal(line, "\\\\");
			break;
		case '\b':
			line_literal(line, "\\b");
			break;
		case '\f':
			line_literal(line, "\\f");
			break;
		case '\n':
			line_literal(line, "\\n");
			break;
		case '\r':
			line_literal(line, "\\r");
			break;
		case '\t':
			line_literal(line, "\\t");
			break;
		default: {
			char escape[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
			line_bytes(line, escape, sizeof escape);
			break;
		}
		}
	}
}

/* ,"key":"value", where `key` is a literal; left out when `value` is not valid UTF-8. */
static void line_member(struct line *line, const char *key_with_quotes, size_t key_size, const char *value)
{
	if (!text_utf8_valid(value, strlen(value)))
		return;
	line_bytes(line, key_with_quotes, key_size);
	line_string(line, value);
}

#define line_member_literal(line, key, value) line_member(line, ",\"" key "\":", sizeof ",\"" key "\":" - 1, value)

/* A string every line has: the text itself, or its text_quote() when it is not UTF-8. */
static void line_required(struct line *line, const char *value)
{
	if (text_utf8_valid(value, strlen(value))) {
		line_string(line, value);
		return;
	}
	char quoted[200 * 6 + 4];
	line_string(line, text_quote(quoted, sizeof quoted, value, 200));
}

/* Milliseconds with three decimals, from seconds. */
static void line_milliseconds(struct line *line, double seconds)
{
	double micro = seconds > 0 ? seconds * 1e6 + 0.5 : 0;
	unsigned long long us = micro < 1e18 ? (unsigned long long)micro : 999999999999999999ull;
	line_unsigned(line, us / 1000);
	char fraction[4] = {'.', (char)('0' + us / 100 % 10), (char)('0' + us / 10 % 10), (char)('0' + us % 10)};
	line_bytes(line, fraction, sizeof fraction);
}

/* The whole line with one write(), resumed after a short write or a signal. */
static void line_emit(const struct line *line)
{
	const char *at = line->data;
	size_t left = line->length;
	while (left > 0) {
		ssize_t wrote = write(STDERR_FILENO, at, left);
		if (wrote < 0 && errno == EINTR)
			continue;
		if (wrote <= 0)
			return;
		at += wrote;
		left -= (size_t)wrote;
	}
}

void access_log_write(const struct access_log_line *request)
{
	struct line line;
	line.data = line.stack;
	line.length = 0;
	line.capacity = sizeof line.stack;
	char ts[40];
	log_timestamp(ts, sizeof ts);
	line_literal(&line, "{\"ts\":");
	line_string(&line, ts);
	line_literal(&line, ",\"level\":\"info\",\"msg\":\"request\",\"request_id\":");
	line_required(&line, request->request_id);
	line_literal(&line, ",\"method\":");
	line_required(&line, request->method);
	/* The path is the client's: quoted when it is not UTF-8, so the line stays JSON. */
	line_literal(&line, ",\"path\":");
	line_required(&line, request->path ? request->path : "");
	line_literal(&line, ",\"status\":");
	line_integer(&line, request->status);
	line_literal(&line, ",\"duration_ms\":");
	line_milliseconds(&line, request->seconds);
	line_literal(&line, ",\"ip\":");
	line_required(&line, request->ip);
	line_literal(&line, ",\"bytes\":");
	line_unsigned(&line, request->bytes);
	if (request->via[0])
		line_member_literal(&line, "via", request->via);
	if (request->route)
		line_member_literal(&line, "route", request->route);
	if (request->game[0])
		line_member_literal(&line, "game", request->game);
	if (request->seat >= 0) {
		line_literal(&line, ",\"seat\":");
		line_integer(&line, request->seat);
	} else if (request->seat == -2) {
		line_literal(&line, ",\"seat\":\"admin\"");
	}
	if (request->code)
		line_member_literal(&line, "code", request->code);
	if (request->aborted)
		line_literal(&line, ",\"aborted\":true");
	line_literal(&line, "}\n");
	line_emit(&line);
	if (line.data != line.stack)
		free(line.data);
}
