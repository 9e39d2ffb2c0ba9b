/*
 * person_name.h - the one rule for a name a person gives (a seat's, a player's, a bot's
 * given by an admin): what it may hold, and that it shows something.
 *
 * A name is 1..PERSON_NAME_MAX_CHARACTERS code points of valid UTF-8 with no control or
 * bidi / invisible format character (text_name_length() of codec/text.h), and it must
 * hold at least one character a reader can see. Visibility is judged on the name's NFC
 * form, with these removed: default-ignorable code points (Unicode's
 * Default_Ignorable_Code_Point: U+00AD SOFT HYPHEN, U+3164 HANGUL FILLER, U+115F/U+1160,
 * U+FFA0, variation selectors, the tag characters U+E0000..U+E007F ...), combining marks
 * (Mn, Mc, Me: with no base they show nothing, on a base they are part of its character),
 * white space (White_Space, and the separators Zs, Zl, Zp), the other format characters
 * (Cf), unassigned and private-use code points (Cn, Co: no font has a glyph for them), and
 * U+2800 BRAILLE PATTERN BLANK (a symbol that is drawn as nothing). What is left must not
 * be empty. The name itself is kept as given (not normalized): the rule only decides.
 *
 * The Unicode data is ICU's (libicuuc; Debian 12's ICU 72 carries Unicode 15.0);
 * person_name_unicode_version() says which version the running library has. Pure: no
 * allocation outside ICU's stack buffers, no I/O, callable from a fuzz target.
 */
#ifndef CATAN_CODEC_PERSON_NAME_H
#define CATAN_CODEC_PERSON_NAME_H

#include <stddef.h>

#define PERSON_NAME_MAX_CHARACTERS 40

enum person_name_verdict {
	PERSON_NAME_OK,
	PERSON_NAME_MALFORMED, /* not 1..40 characters of valid UTF-8 without controls (and no NUL) */
	PERSON_NAME_INVISIBLE  /* well formed, but nothing in it shows */
};

/* The verdict on the `length` bytes at `text` (a NUL among them is a control character).
 * *characters gets the number of code points when the name is not MALFORMED. */
enum person_name_verdict person_name_check(const char *text, size_t length, int *characters);

/* The reason of a refusal, for a problem's detail ("" for PERSON_NAME_OK). Static. */
const char *person_name_reason(enum person_name_verdict verdict);

/* The Unicode version of the data the rule uses ("15.0"), into out (at least 16 bytes). */
void person_name_unicode_version(char *out, size_t size);

#endif
