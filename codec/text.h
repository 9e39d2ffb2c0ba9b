/*
 * text.h - client text made safe to quote: UTF-8 checks, cutting on character boundaries,
 * and escaping what a reader must not be shown raw.
 *
 * Every string a client sends can end up in a JSON answer (a problem's detail quoting an
 * unknown member), a log line, or a chat summary. JSON demands valid UTF-8, so a byte cut
 * through a character makes jansson refuse the whole body; a control or bidi-override
 * character in a name rewrites what a reader sees around it. These functions are the one
 * place that decides how such text is cut and shown. Only text_json() allocates (a jansson
 * string); the caller owns every other buffer.
 */
#ifndef CATAN_CODEC_TEXT_H
#define CATAN_CODEC_TEXT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* 1 when the `length` bytes at `text` are well-formed UTF-8 (no overlong forms, no
 * surrogates, nothing above U+10FFFF), else 0. */
int text_utf8_valid(const char *text, size_t length);

/* Copy client text into `out` (of `size` bytes, always NUL-terminated) for quoting: at most
 * `max_chars` characters, cut only on a character boundary and marked with "..." when cut;
 * control characters, bidi controls and invalid bytes written as visible escapes (\u001b,
 * \u202e, \xff). The result is valid UTF-8. Returns `out`. */
char *text_quote(char *out, size_t size, const char *text, size_t max_chars);

/* A JSON string of client text (a path, a member name, a message quoting one): the text
 * itself when it is valid UTF-8 (jansson escapes controls on output), else its
 * text_quote() (at most 200 characters), so a body or a log line can always be built.
 * New reference; NULL only when jansson cannot allocate. */
json_t *text_json(const char *text);

/* 1 when the first `n` bytes of a and b are the same but for ASCII case (a NUL both have at
 * the same place ends the comparison there, equal), else 0. Not locale-dependent, as
 * strncasecmp() may be. */
int text_same_ascii_case(const char *a, const char *b, size_t n);

/* The character at `text` (of `length` bytes left): its size in bytes (1..4) with its code
 * point in *code_point, or 0 when the bytes there are not one well-formed character (the
 * decoder every function here uses; codec/escape.c reads with it too). */
size_t text_utf8_next(const char *text, size_t length, uint32_t *code_point);

/* Make the NUL-terminated `buffer` valid UTF-8 in place: an incomplete character at the end
 * (left by a cut) is removed and every other invalid byte becomes '?'. */
void text_make_valid(char *buffer);

/* The number of characters of `text` (NUL-terminated) when it is fit to show as a name:
 * valid UTF-8 with no control characters (C0, DEL, C1), no bidi or other invisible format
 * controls (U+200B..U+200F, U+202A..U+202E, U+2060..U+2069, U+061C, U+FEFF), and no line
 * or paragraph separators; else -1. */
int text_name_length(const char *text);

/* The number of characters of `text` (NUL-terminated) when it may be posted as table
 * talk: valid UTF-8, 1..max_characters characters, not only spaces and line feeds, each
 * line as text_name_length() wants it (so line feeds are the only control allowed); else
 * -1. (game/messages.h: messages_text_length() is this with its limit.) */
int text_message_length(const char *text, int max_characters);

#endif
