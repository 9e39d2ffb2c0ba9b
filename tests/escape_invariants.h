/*
 * escape_invariants.h - what must hold of any output of codec/escape.h, whatever the
 * input: the unit tests (tests/codec/test_escape.c) check it on a table of hostile
 * names, the fuzz target (tests/fuzz/fuzz_escape.c) on whatever libFuzzer makes up.
 *
 * Each check returns NULL when the output keeps to its format's rules, else what is wrong
 * (static text). They read the output only, byte by byte, without the escaping code's own
 * tables, so a mistake there cannot hide itself here:
 *   every format  valid UTF-8; no C0 or C1 control, DEL, bidi control (U+202A..U+202E,
 *                 U+2066..U+2069) or zero-width character (U+200B..U+200F, U+2060, U+FEFF)
 *                 except the U+200B an escape puts after "@"
 *   discord       every ASCII punctuation character but "@" follows a backslash that is
 *                 itself not escaped; every "@" is followed by U+200B; so no "<@", "<#",
 *                 "@everyone", "@here", "](" or "://" can be read by Discord
 *   slack         no "<" or ">"; "&" only as "&amp;", "&lt;" or "&gt;"; "@" + U+200B
 *   markup        no "<", ">", '"' or "'"; "&" only as "&amp;", "&lt;", "&gt;", "&quot;",
 *                 "&#39;"
 * escape_unescaped_discord() undoes a Discord escape (for the check that printable ASCII
 * comes back as it was: nothing is lost, only marked).
 */
#ifndef CATAN_TESTS_ESCAPE_INVARIANTS_H
#define CATAN_TESTS_ESCAPE_INVARIANTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec/text.h"

#define ESCAPE_ZWSP "\xe2\x80\x8b"

static inline int escape_is_punctuation(unsigned char c)
{
	return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
	       (c >= 0x7B && c <= 0x7E);
}

/* The checks every format shares (U+200B allowed right after "@" only). */
static inline const char *escape_check_common(const char *out)
{
	size_t length = strlen(out);
	if (!text_utf8_valid(out, length))
		return "the output is not valid UTF-8";
	for (size_t i = 0; i < length;) {
		uint32_t c = 0;
		size_t size = text_utf8_next(out + i, length - i, &c);
		if (size == 0)
			return "the output is not valid UTF-8";
		if (c < 0x20 || (c >= 0x7F && c <= 0x9F))
			return "a control character in the output";
		if ((c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069))
			return "a bidi control in the output";
		if (((c >= 0x200C && c <= 0x200F) || c == 0x2060 || c == 0xFEFF))
			return "a zero-width character in the output";
		if (c == 0x200B && !(i > 0 && out[i - 1] == '@'))
			return "a zero-width space that does not follow an escaped @";
		i += size;
	}
	return NULL;
}

static inline const char *escape_check_discord(const char *out)
{
	const char *common = escape_check_common(out);
	if (common)
		return common;
	for (const char *at = out; *at; at++) {
		unsigned char c = (unsigned char)*at;
		if (c == '\\') {
			if (!escape_is_punctuation((unsigned char)at[1]) || at[1] == '@')
				return "a backslash that escapes no punctuation";
			at++;
		} else if (c == '@') {
			if (strncmp(at + 1, ESCAPE_ZWSP, 3) != 0)
				return "an @ without the zero-width space after it";
		} else if (escape_is_punctuation(c)) {
			return "ASCII punctuation without a backslash";
		}
	}
	/* What the rules above imply, said outright: with every escaped character blotted out
	 * (as Discord reads it: plain text), nothing is left that Discord would act on. */
	static const char *const readable[] = {"<@", "<#", "<:", "<t:", "@everyone", "@here", "](", "://", NULL};
	size_t length = strlen(out);
	char *read = malloc(length + 1);
	size_t used = 0;
	for (const char *at = out; *at; at++) {
		if (*at == '\\' && at[1]) {
			read[used++] = '\x1a';
			at++;
		} else if (*at == '@' && strncmp(at + 1, ESCAPE_ZWSP, 3) == 0) {
			read[used++] = '\x1a';
			at += 3;
		} else {
			read[used++] = *at;
		}
	}
	read[used] = '\0';
	const char *found = NULL;
	for (int i = 0; readable[i] && !found; i++)
		if (strstr(read, readable[i]))
			found = "a mention, link or emoji Discord can read";
	free(read);
	return found;
}

/* "&" at `at` starts one of `entities` (NULL-terminated). */
static inline int escape_entity_at(const char *at, const char *const *entities)
{
	for (int i = 0; entities[i]; i++)
		if (strncmp(at, entities[i], strlen(entities[i])) == 0)
			return 1;
	return 0;
}

static inline const char *escape_check_slack(const char *out)
{
	static const char *const entities[] = {"&amp;", "&lt;", "&gt;", NULL};
	const char *common = escape_check_common(out);
	if (common)
		return common;
	for (const char *at = out; *at; at++) {
		if (*at == '<' || *at == '>')
			return "an angle bracket in Slack text";
		if (*at == '&' && !escape_entity_at(at, entities))
			return "an & that starts no entity";
		if (*at == '@' && strncmp(at + 1, ESCAPE_ZWSP, 3) != 0)
			return "an @ without the zero-width space after it";
	}
	return NULL;
}

static inline const char *escape_check_markup(const char *out)
{
	static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;", NULL};
	for (const char *at = out; *at; at++) {
		if (*at == '<' || *at == '>' || *at == '"' || *at == '\'')
			return "a markup character in markup text";
		if (*at == '&' && !escape_entity_at(at, entities))
			return "an & that starts no entity";
	}
	/* U+200B never comes from the markup escape: any is the input's, replaced. */
	const char *common = escape_check_common(out);
	if (common)
		return common;
	return strstr(out, ESCAPE_ZWSP) ? "a zero-width space in markup text" : NULL;
}

/* Undo a Discord escape into `plain` (at least strlen(escaped) + 1 bytes): backslashes
 * dropped, the U+200B after "@" dropped. */
static inline void escape_unescaped_discord(const char *escaped, char *plain)
{
	size_t used = 0;
	for (const char *at = escaped; *at; at++) {
		if (*at == '\\' && at[1]) {
			plain[used++] = *++at;
		} else if (*at == '@' && strncmp(at + 1, ESCAPE_ZWSP, 3) == 0) {
			plain[used++] = '@';
			at += 3;
		} else {
			plain[used++] = *at;
		}
	}
	plain[used] = '\0';
}

#endif
