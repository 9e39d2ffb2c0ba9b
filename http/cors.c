/*
 * cors.c - the origin allow-list of cors.h.
 *
 * The list is read once at start and only read afterwards, so the request threads share
 * it without a lock. Origins compare case-insensitively (scheme and host are; browsers
 * send them in lower case anyway) and exactly otherwise: "https://a.example" does not
 * allow "https://a.example:8443" or "http://a.example".
 */
#include "http/cors.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#define CORS_MAX_ORIGINS 32
#define CORS_ORIGIN_MAX 200

static char allowed[CORS_MAX_ORIGINS][CORS_ORIGIN_MAX + 1];
static int allowed_count; /* 0: any origin */

/* 1 when text[0..length) is an origin: http(s)://host[:port], no path, no blanks. */
static int is_origin(const char *text, size_t length)
{
	size_t scheme = length >= 8 && strncasecmp(text, "https://", 8) == 0  ? 8
			: length >= 7 && strncasecmp(text, "http://", 7) == 0 ? 7
									      : 0;
	if (!scheme || length == scheme || length > CORS_ORIGIN_MAX)
		return 0;
	for (size_t i = scheme; i < length; i++)
		if ((unsigned char)text[i] <= 0x20 || text[i] == 0x7f || text[i] == '/' || text[i] == ',')
			return 0;
	return 1;
}

int cors_configure(const char *origins)
{
	allowed_count = 0;
	if (!origins)
		return 1;
	const char *at = origins;
	int any = 0, count = 0;
	while (*at) {
		while (*at == ' ' || *at == '\t' || *at == ',')
			at++;
		if (!*at)
			break;
		const char *end = at;
		while (*end && *end != ',')
			end++;
		size_t length = (size_t)(end - at);
		while (length && (at[length - 1] == ' ' || at[length - 1] == '\t'))
			length--;
		if (length == 1 && *at == '*') {
			any = 1;
		} else if (!is_origin(at, length) || count >= CORS_MAX_ORIGINS) {
			fprintf(stderr, "{\"level\":\"error\",\"msg\":\"bad setting\",\"name\":\"CORS_ORIGINS\","
					"\"range\":\"comma-separated origins such as https://play.example.com "
					"(scheme://host[:port], at most 32)\"}\n");
			return 0;
		} else {
			memcpy(allowed[count], at, length);
			allowed[count][length] = '\0';
			count++;
		}
		at = end;
	}
	allowed_count = any ? 0 : count;
	return 1;
}

const char *cors_allow_origin(const char *origin)
{
	if (allowed_count == 0)
		return "*";
	if (!origin)
		return NULL;
	for (int i = 0; i < allowed_count; i++)
		if (strcasecmp(allowed[i], origin) == 0)
			return origin;
	return NULL;
}

int cors_varies_by_origin(void)
{
	return allowed_count > 0;
}
