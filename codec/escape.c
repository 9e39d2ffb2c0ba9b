/*
 * escape.c - player text written into Discord, Slack and HTML/XML (see escape.h).
 *
 * One loop, write_escaped(), reads the text a character at a time with codec/text.h's
 * decoder and asks the format for the piece that stands for it: the character's own bytes,
 * or an escape. Every character the reader must not get raw (invalid bytes, controls,
 * invisible code points) becomes U+FFFD before a format is asked, so the formats only
 * decide about visible characters, and each decision is one small function. A piece is
 * written whole or not at all, which is what keeps a cut result safe: the text ends before
 * the piece that did not fit, never between a backslash and what it escapes.
 */
#include "codec/escape.h"

#include <stdint.h>
#include <string.h>

#include "codec/text.h"

#define REPLACEMENT "\xef\xbf\xbd" /* U+FFFD */
#define ZERO_WIDTH_SPACE "\xe2\x80\x8b"

/* What a piece is made of: at most 6 bytes (ESCAPE_SIZE counts on it). */
struct piece {
	char bytes[8];
	size_t size;
};

/* Code points shown as U+FFFD in every format (escape.h says which and why). */
static int unshowable(uint32_t c)
{
	if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
		return 1;
	if (c < 0xAD)
		return 0;
	return c == 0x00AD || c == 0x034F || c == 0x061C || (c >= 0x115F && c <= 0x1160) ||
	       (c >= 0x17B4 && c <= 0x17B5) || (c >= 0x180B && c <= 0x180F) || (c >= 0x200B && c <= 0x200F) ||
	       (c >= 0x2028 && c <= 0x202E) || (c >= 0x2060 && c <= 0x206F) || c == 0x3164 || c == 0xFEFF ||
	       c == 0xFFA0 || (c >= 0xFFF0 && c <= 0xFFF8) || (c >= 0x1BCA0 && c <= 0x1BCA3) ||
	       (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE0FFF);
}

static void piece_text(struct piece *piece, const char *text)
{
	piece->size = strlen(text);
	memcpy(piece->bytes, text, piece->size);
}

/* ASCII punctuation: every character of !"#$%&'()*+,-./:;<=>?@[\]^_`{|}~. */
static int punctuation(uint32_t c)
{
	return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
	       (c >= 0x7B && c <= 0x7E);
}

/* A format's piece for visible character `c`: 1 with *piece set, or 0 to keep the
 * character's own bytes. */
typedef int (*escape_rule)(uint32_t c, struct piece *piece);

static int discord_rule(uint32_t c, struct piece *piece)
{
	if (c == '@') {
		piece_text(piece, "@" ZERO_WIDTH_SPACE);
		return 1;
	}
	if (!punctuation(c))
		return 0;
	piece->bytes[0] = '\\';
	piece->bytes[1] = (char)c;
	piece->size = 2;
	return 1;
}

/* The three characters Slack's mrkdwn and HTML/XML both take as markup. */
static int angle_rule(uint32_t c, struct piece *piece)
{
	switch (c) {
	case '&':
		piece_text(piece, "&amp;");
		return 1;
	case '<':
		piece_text(piece, "&lt;");
		return 1;
	case '>':
		piece_text(piece, "&gt;");
		return 1;
	default:
		return 0;
	}
}

static int slack_rule(uint32_t c, struct piece *piece)
{
	if (angle_rule(c, piece))
		return 1;
	if (c != '@')
		return 0;
	piece_text(piece, "@" ZERO_WIDTH_SPACE);
	return 1;
}

static int markup_rule(uint32_t c, struct piece *piece)
{
	if (angle_rule(c, piece))
		return 1;
	switch (c) {
	case '"':
		piece_text(piece, "&quot;");
		return 1;
	case '\'':
		piece_text(piece, "&#39;");
		return 1;
	default:
		return 0;
	}
}

static size_t write_escaped(char *out, size_t size, const char *text, escape_rule rule)
{
	if (size == 0)
		return 0;
	size_t used = 0, left = text ? strlen(text) : 0;
	const char *at = text;
	while (left > 0) {
		uint32_t c = 0;
		size_t taken = text_utf8_next(at, left, &c);
		struct piece piece;
		if (taken == 0) {
			taken = 1;
			piece_text(&piece, REPLACEMENT);
		} else if (unshowable(c)) {
			piece_text(&piece, REPLACEMENT);
		} else if (!rule(c, &piece)) {
			memcpy(piece.bytes, at, taken);
			piece.size = taken;
		}
		if (used + piece.size + 1 > size)
			break;
		memcpy(out + used, piece.bytes, piece.size);
		used += piece.size;
		at += taken;
		left -= taken;
	}
	out[used] = '\0';
	return used;
}

size_t escape_discord(char *out, size_t size, const char *text)
{
	return write_escaped(out, size, text, discord_rule);
}

size_t escape_slack(char *out, size_t size, const char *text)
{
	return write_escaped(out, size, text, slack_rule);
}

size_t escape_markup(char *out, size_t size, const char *text)
{
	return write_escaped(out, size, text, markup_rule);
}
