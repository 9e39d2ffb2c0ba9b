/*
 * json_scan.c - the in-place JSON reader of the load generator (see json_scan.h).
 *
 * The generator's measured loop reads three things from each answer: a version, a list
 * of seats and a list of actions, one of which it sends back verbatim. Parsing whole
 * documents into trees (jansson) cost the old generator most of its ~117 us per move; here
 * a member is found by skipping the values before it, which only counts brackets outside
 * strings. Skipping is the one primitive: `scan_value` finds where a value ends, and the
 * rest walks containers with it. Nothing is validated beyond what skipping needs, since
 * the server's answers are JSON; a truncated or foreign text makes a function return 0,
 * never read past `end`.
 */
#include "bench/json_scan.h"

#include <string.h>

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
		p++;
	return p;
}

/* Past the string whose opening quote is at p; NULL when it does not close before end. */
static const char *skip_string(const char *p, const char *end)
{
	for (p++; p < end; p++) {
		if (*p == '\\')
			p++;
		else if (*p == '"')
			return p + 1;
	}
	return NULL;
}

int scan_value(const char *from, const char *end, struct scan_span *value)
{
	const char *p = skip_space(from, end);
	if (p >= end)
		return 0;
	const char *start = p;
	if (*p == '"') {
		p = skip_string(p, end);
	} else if (*p == '{' || *p == '[') {
		int depth = 0;
		while (p && p < end) {
			if (*p == '"') {
				p = skip_string(p, end);
				continue;
			}
			if (*p == '{' || *p == '[')
				depth++;
			else if (*p == '}' || *p == ']') {
				if (--depth == 0) {
					p++;
					break;
				}
			}
			p++;
		}
		if (depth != 0)
			p = NULL;
	} else {
		while (p < end && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n' && *p != '\r' &&
		       *p != '\t')
			p++;
		if (p == start)
			p = NULL;
	}
	if (!p)
		return 0;
	value->start = start;
	value->end = p;
	return 1;
}

int scan_next(struct scan_span container, const char **cursor, struct scan_span *key, struct scan_span *element)
{
	const char *end = container.end - 1; /* the closing bracket */
	if (container.end - container.start < 2 || (*container.start != '{' && *container.start != '['))
		return 0;
	int object = *container.start == '{';
	const char *p = *cursor ? *cursor : container.start + 1;
	p = skip_space(p, end);
	if (p < end && *p == ',')
		p = skip_space(p + 1, end);
	if (p >= end)
		return 0;
	if (object) {
		if (*p != '"')
			return 0;
		const char *after = skip_string(p, end);
		if (!after)
			return 0;
		if (key) {
			key->start = p + 1;
			key->end = after - 1;
		}
		p = skip_space(after, end);
		if (p >= end || *p != ':')
			return 0;
		p++;
	}
	if (!scan_value(p, end, element))
		return 0;
	*cursor = element->end;
	return 1;
}

int scan_member(struct scan_span object, const char *key, struct scan_span *value)
{
	if (object.start >= object.end || *object.start != '{')
		return 0;
	size_t length = strlen(key);
	const char *cursor = NULL;
	struct scan_span name;
	while (scan_next(object, &cursor, &name, value))
		if ((size_t)(name.end - name.start) == length && memcmp(name.start, key, length) == 0)
			return 1;
	return 0;
}

int scan_integer(struct scan_span value, long long *out)
{
	const char *p = value.start;
	int negative = p < value.end && *p == '-';
	if (negative)
		p++;
	if (p >= value.end)
		return 0;
	long long number = 0;
	for (; p < value.end; p++) {
		if (*p < '0' || *p > '9' || number > (long long)1e17)
			return 0;
		number = number * 10 + (*p - '0');
	}
	*out = negative ? -number : number;
	return 1;
}

int scan_is(struct scan_span value, const char *text)
{
	size_t length = strlen(text);
	return (size_t)(value.end - value.start) == length && memcmp(value.start, text, length) == 0;
}
