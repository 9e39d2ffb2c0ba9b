/*
 * text.c - client text made safe to quote (see text.h).
 *
 * One decoder, utf8_decode(), reads a character at a time and says how many bytes it took,
 * or 0 for a byte that does not start a well-formed character (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF). Everything else is built on it, so "valid" means
 * the same thing here as it does to jansson, which refuses the same sequences.
 */
#include "codec/text.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of the character at `at` (1..4), with its code point in *code_point; 0 when the
 * bytes there are not a complete, well-formed character. */
static size_t utf8_decode(const unsigned char *at, size_t length, uint32_t *code_point)
{
	if (length == 0)
		return 0;
	unsigned char lead = at[0];
	if (lead < 0x80) {
		*code_point = lead;
		return 1;
	}
	size_t size;
	uint32_t value, minimum;
	if (lead >= 0xC2 && lead <= 0xDF) {
		size = 2, value = lead & 0x1Fu, minimum = 0x80;
	} else if (lead >= 0xE0 && lead <= 0xEF) {
		size = 3, value = lead & 0x0Fu, minimum = 0x800;
	} else if (lead >= 0xF0 && lead <= 0xF4) {
		size = 4, value = lead & 0x07u, minimum = 0x10000;
	} else {
		return 0;
	}
	if (length < size)
		return 0;
	for (size_t i = 1; i < size; i++) {
		if ((at[i] & 0xC0) != 0x80)
			return 0;
		value = value << 6 | (at[i] & 0x3Fu);
	}
	if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
		return 0;
	*code_point = value;
	return size;
}

/* Characters a reader must see escaped: controls, and the invisible format characters that
 * reorder or hide the text around them. */
static int needs_escape(uint32_t code_point)
{
	if (code_point < 0x20 || (code_point >= 0x7F && code_point <= 0x9F))
		return 1;
	if (code_point == 0x061C || code_point == 0xFEFF || code_point == 0x2028 || code_point == 0x2029)
		return 1;
	if ((code_point >= 0x200B && code_point <= 0x200F) || (code_point >= 0x202A && code_point <= 0x202E) ||
	    (code_point >= 0x2060 && code_point <= 0x2069))
		return 1;
	return 0;
}

size_t text_utf8_next(const char *text, size_t length, uint32_t *code_point)
{
	return utf8_decode((const unsigned char *)text, length, code_point);
}

int text_utf8_valid(const char *text, size_t length)
{
	const unsigned char *at = (const unsigned char *)text;
	while (length > 0) {
		uint32_t code_point;
		size_t size = utf8_decode(at, length, &code_point);
		if (size == 0)
			return 0;
		at += size;
		length -= size;
	}
	return 1;
}

char *text_quote(char *out, size_t size, const char *text, size_t max_chars)
{
	static const char ellipsis[] = "...";
	if (size == 0)
		return out;
	out[0] = '\0';
	if (!text || size < sizeof ellipsis)
		return out;
	const unsigned char *at = (const unsigned char *)text;
	size_t left = strlen(text);
	size_t used = 0, chars = 0;
	/* Room for the ellipsis and the NUL is kept back at every step, so a cut always fits. */
	size_t room = size - sizeof ellipsis;
	while (left > 0) {
		char piece[12];
		size_t piece_size;
		uint32_t code_point;
		size_t taken = utf8_decode(at, left, &code_point);
		if (taken == 0) {
			piece_size = (size_t)snprintf(piece, sizeof piece, "\\x%02x", at[0]);
			taken = 1;
		} else if (needs_escape(code_point)) {
			piece_size = (size_t)snprintf(piece, sizeof piece, "\\u%04x", (unsigned)code_point);
		} else {
			memcpy(piece, at, taken);
			piece_size = taken;
		}
		if (chars == max_chars || used + piece_size > room) {
			memcpy(out + used, ellipsis, sizeof ellipsis);
			return out;
		}
		memcpy(out + used, piece, piece_size);
		used += piece_size;
		chars++;
		at += taken;
		left -= taken;
	}
	out[used] = '\0';
	return out;
}

#define TEXT_JSON_CHARS 200

json_t *text_json(const char *text)
{
	if (text_utf8_valid(text, strlen(text)))
		return json_string(text);
	char quoted[TEXT_JSON_CHARS * 6 + 4];
	return json_string(text_quote(quoted, sizeof quoted, text, TEXT_JSON_CHARS));
}

void text_make_valid(char *buffer)
{
	unsigned char *at = (unsigned char *)buffer;
	size_t left = strlen(buffer);
	while (left > 0) {
		uint32_t code_point;
		size_t size = utf8_decode(at, left, &code_point);
		if (size > 0) {
			at += size;
			left -= size;
			continue;
		}
		/* A lead byte whose continuation bytes run to the end was cut: drop the rest. */
		size_t tail = 1;
		while (tail < left && (at[tail] & 0xC0) == 0x80)
			tail++;
		if (at[0] >= 0xC2 && at[0] <= 0xF4 && tail == left && left < 4) {
			*at = '\0';
			return;
		}
		*at++ = '?';
		left--;
	}
}

int text_name_length(const char *text)
{
	const unsigned char *at = (const unsigned char *)text;
	size_t left = strlen(text);
	int count = 0;
	while (left > 0) {
		uint32_t code_point;
		size_t size = utf8_decode(at, left, &code_point);
		if (size == 0 || needs_escape(code_point))
			return -1;
		at += size;
		left -= size;
		count++;
	}
	return count;
}

int text_message_length(const char *text, int max_characters)
{
	size_t bytes = strlen(text);
	if (!text_utf8_valid(text, bytes))
		return -1;
	char *copy = malloc(bytes + 1);
	if (!copy)
		abort();
	memcpy(copy, text, bytes + 1);
	int total = 0;
	char *line = copy;
	for (;;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		int length = *line ? text_name_length(line) : 0;
		if (length < 0) {
			total = -1;
			break;
		}
		total += length;
		if (!end)
			break;
		total++; /* the line feed */
		line = end + 1;
	}
	free(copy);
	if (total < 1 || total > max_characters || strspn(text, "\n ") == bytes)
		return -1;
	return total;
}

int text_same_ascii_case(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char x = a[i], y = b[i];
		if (x >= 'A' && x <= 'Z')
			x = (char)(x - 'A' + 'a');
		if (y >= 'A' && y <= 'Z')
			y = (char)(y - 'A' + 'a');
		if (x != y)
			return 0;
		if (!x)
			return 1;
	}
	return 1;
}
