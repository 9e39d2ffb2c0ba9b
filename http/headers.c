/*
 * headers.c - the request text readers of headers.h.
 *
 * Each function takes the text exactly as libmicrohttpd hands it over (NUL-terminated,
 * any bytes) and decides on it alone; the caller answers the problem. Keeping them apart
 * from http.c and service.c lets the fuzz target of the request path call them without a
 * socket or a database.
 */
#include "http/headers.h"

#include <ctype.h>
#include <stdint.h>
#include <string.h>

int headers_integer(const char *text, long low, long high, long *out)
{
	if (!text || !*text)
		return 0;
	long value = 0;
	for (const char *at = text; *at; at++) {
		if (*at < '0' || *at > '9' || at - text >= 18)
			return 0;
		value = value * 10 + (*at - '0');
	}
	if (value < low || value > high)
		return 0;
	*out = value;
	return 1;
}

int headers_if_match(const char *header, long *version)
{
	if (!header || strcmp(header, "*") == 0)
		return 0;
	if (strncmp(header, "W/\"", 3) == 0)
		return 2;
	size_t length = strlen(header);
	if (length < 3 || length > 20 || header[0] != '"' || header[length - 1] != '"')
		return -1;
	char digits[20];
	memcpy(digits, header + 1, length - 2);
	digits[length - 2] = '\0';
	return headers_integer(digits, 0, INT32_MAX, version) ? 1 : -1;
}

int headers_if_none_match(const char *header, const char *etag)
{
	if (!header || !etag)
		return 0;
	size_t etag_length = strlen(etag);
	const char *at = header;
	for (;;) {
		while (*at == ' ' || *at == '\t')
			at++;
		if (*at == '*')
			return 1;
		if (strncmp(at, "W/", 2) == 0)
			at += 2;
		if (*at != '"')
			return 0;
		const char *close = strchr(at + 1, '"');
		if (!close)
			return 0;
		size_t length = (size_t)(close - at) + 1;
		if (length == etag_length && memcmp(at, etag, length) == 0)
			return 1;
		at = close + 1;
		while (*at == ' ' || *at == '\t')
			at++;
		if (*at != ',')
			return 0;
		at++;
	}
}

long headers_known_version(const char *header)
{
	long known = -1;
	const char *at = header;
	while (at && (at = strchr(at, '"')) != NULL) {
		const char *close = strchr(at + 1, '"');
		if (!close)
			break;
		long value = 0;
		const char *digit = at + 1;
		while (digit < close && *digit >= '0' && *digit <= '9' && digit - at <= 10)
			value = value * 10 + (*digit++ - '0');
		if (digit == close && close > at + 1 && value <= INT32_MAX && value > known)
			known = value;
		at = close + 1;
	}
	return known;
}

int headers_idempotency_key_valid(const char *key)
{
	size_t length = strlen(key);
	if (length < 1 || length > 200)
		return 0;
	for (size_t i = 0; i < length; i++)
		if (key[i] < 0x21 || key[i] > 0x7e)
			return 0;
	return 1;
}

int headers_request_id_valid(const char *given)
{
	size_t length = strlen(given);
	int sane = length >= 1 && length <= 40;
	for (size_t i = 0; sane && i < length; i++)
		sane = isalnum((unsigned char)given[i]) || given[i] == '-' || given[i] == '_' || given[i] == '.';
	return sane;
}

static int hex_value(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

size_t headers_unescape(char *text)
{
	char *in = text, *out = text;
	while (*in) {
		int high, low;
		if (in[0] == '%' && (high = hex_value(in[1])) >= 0 && (low = hex_value(in[2])) >= 0 && (high | low)) {
			*out++ = (char)(high << 4 | low);
			in += 3;
		} else {
			*out++ = *in++;
		}
	}
	*out = '\0';
	return (size_t)(out - text);
}
