/*
 * log.c - structured log lines (see log.h), written without a JSON library: the floor
 * includes only the C library, and a line is a flat object of strings, so a quoting
 * function and a UTF-8 check are all it takes.
 *
 * Each line is built in a growing text and written with one fputs(): stdio locks the
 * stream per call, so a line is never split by another thread's.
 */
#include "base/log.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/xalloc.h"

void log_timestamp(char *out, size_t size)
{
	struct timespec ts;
	struct tm tm;
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	char base[32];
	strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out, size, "%.24s.%03dZ", base, (int)(ts.tv_nsec / 1000000) % 1000);
}

int log_utf8_valid(const char *text, size_t length)
{
	const unsigned char *at = (const unsigned char *)text, *end = at + length;
	while (at < end) {
		unsigned char lead = *at;
		int more;
		uint32_t point;
		if (lead < 0x80) {
			at++;
			continue;
		}
		if (lead >= 0xc2 && lead <= 0xdf) {
			more = 1;
			point = lead & 0x1fu;
		} else if (lead >= 0xe0 && lead <= 0xef) {
			more = 2;
			point = lead & 0x0fu;
		} else if (lead >= 0xf0 && lead <= 0xf4) {
			more = 3;
			point = lead & 0x07u;
		} else {
			return 0;
		}
		if (end - at <= more)
			return 0;
		for (int i = 1; i <= more; i++) {
			if ((at[i] & 0xc0) != 0x80)
				return 0;
			point = point << 6 | (at[i] & 0x3fu);
		}
		/* overlong, surrogate, beyond Unicode */
		if ((more == 2 && point < 0x800) || (more == 3 && point < 0x10000) ||
		    (point >= 0xd800 && point <= 0xdfff) || point > 0x10ffff)
			return 0;
		at += more + 1;
	}
	return 1;
}

void log_json_string(struct xtext *text, const char *value)
{
	xtext_add(text, "\"");
	const char *run = value;
	for (const char *at = value;; at++) {
		unsigned char c = (unsigned char)*at;
		if (c && c != '"' && c != '\\' && c >= 0x20)
			continue;
		if (at > run)
			xtext_add(text, "%.*s", (int)(at - run), run);
		run = at + 1;
		switch (c) {
		case '\0':
			xtext_add(text, "\"");
			return;
		case '"':
			xtext_add(text, "\\\"");
			break;
		case '\\':
			xtext_add(text, "\\\\");
			break;
		case '\b':
			xtext_add(text, "\\b");
			break;
		case '\f':
			xtext_add(text, "\\f");
			break;
		case '\n':
			xtext_add(text, "\\n");
			break;
		case '\r':
			xtext_add(text, "\\r");
			break;
		case '\t':
			xtext_add(text, "\\t");
			break;
		default:
			xtext_add(text, "\\u%04X", (unsigned)c);
			break;
		}
	}
}

/* ,"key":"value" when both may be written. */
static void add_member(struct xtext *line, const char *key, const char *value)
{
	if (!log_utf8_valid(key, strlen(key)) || !log_utf8_valid(value, strlen(value)))
		return;
	xtext_add(line, ",");
	log_json_string(line, key);
	xtext_add(line, ":");
	log_json_string(line, value);
}

void log_event(const char *level, const char *message, ...)
{
	char ts[40];
	log_timestamp(ts, sizeof ts);
	struct xtext line = xtext_new();
	xtext_add(&line, "{\"ts\":");
	log_json_string(&line, ts);
	add_member(&line, "level", level);
	add_member(&line, "msg", message);
	va_list args;
	va_start(args, message);
	for (;;) {
		const char *key = va_arg(args, const char *);
		if (!key)
			break;
		const char *value = va_arg(args, const char *);
		add_member(&line, key, value ? value : "");
	}
	va_end(args);
	xtext_add(&line, "}\n");
	fputs(line.data, stderr);
	free(line.data);
}
