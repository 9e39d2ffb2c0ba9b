/*
 * person_name.c - names that a person can see (see person_name.h).
 *
 * The name is checked for its form first (codec/text.h: valid UTF-8, no controls, at most
 * 40 code points), so the ICU part only ever sees at most 160 bytes: it is converted to
 * UTF-16 in a stack buffer, put in NFC (unorm2, the NFC instance: no allocation of ours),
 * and scanned for one code point that is none of what person_name.h lists as invisible.
 * A combining mark is never counted as visible itself, so a run of marks without a base
 * (40 of them, or after a space) leaves nothing, and a mark on a letter adds nothing the
 * letter does not already show.
 */
#include "codec/person_name.h"

#include <stdio.h>
#include <string.h>
#include <unicode/uchar.h>
#include <unicode/unorm2.h>
#include <unicode/ustring.h>

#include "codec/text.h"

/* 40 code points are at most 80 UTF-16 units; NFC may grow a text a little (a few code
 * points decompose without recomposing): room for three times that. */
#define UNITS_MAX (PERSON_NAME_MAX_CHARACTERS * 2 * 3)

/* 1 when `c` shows something by itself. */
static int shows(UChar32 c)
{
	if (c == 0x2800 || u_hasBinaryProperty(c, UCHAR_DEFAULT_IGNORABLE_CODE_POINT) ||
	    u_hasBinaryProperty(c, UCHAR_WHITE_SPACE))
		return 0;
	switch (u_charType(c)) {
	case U_NON_SPACING_MARK:
	case U_ENCLOSING_MARK:
	case U_COMBINING_SPACING_MARK:
	case U_SPACE_SEPARATOR:
	case U_LINE_SEPARATOR:
	case U_PARAGRAPH_SEPARATOR:
	case U_CONTROL_CHAR:
	case U_FORMAT_CHAR:
	case U_PRIVATE_USE_CHAR:
	case U_SURROGATE:
	case U_UNASSIGNED:
		return 0;
	default:
		return 1;
	}
}

enum person_name_verdict person_name_check(const char *text, size_t length, int *characters)
{
	char copy[PERSON_NAME_MAX_CHARACTERS * 4 + 1];
	/* More bytes than 40 characters can take, or a NUL inside: not a name. */
	if (!text || length == 0 || length >= sizeof copy || memchr(text, '\0', length))
		return PERSON_NAME_MALFORMED;
	memcpy(copy, text, length);
	copy[length] = '\0';
	int count = text_name_length(copy);
	if (count < 1 || count > PERSON_NAME_MAX_CHARACTERS)
		return PERSON_NAME_MALFORMED;
	*characters = count;
	UChar units[UNITS_MAX], normal[UNITS_MAX];
	int32_t unit_count = 0;
	UErrorCode status = U_ZERO_ERROR;
	u_strFromUTF8(units, UNITS_MAX, &unit_count, copy, (int32_t)length, &status);
	if (U_FAILURE(status))
		return PERSON_NAME_MALFORMED; /* cannot happen: the text is valid UTF-8 */
	const UNormalizer2 *nfc = unorm2_getNFCInstance(&status);
	int32_t normal_count =
		U_SUCCESS(status) ? unorm2_normalize(nfc, units, unit_count, normal, UNITS_MAX, &status) : 0;
	const UChar *scan = normal;
	if (U_FAILURE(status)) {
		/* No NFC data (or no room): judge the text as given, which NFC never makes
		 * more visible (composition joins a mark to its base, both already judged). */
		scan = units;
		normal_count = unit_count;
	}
	for (int32_t at = 0; at < normal_count;) {
		UChar32 c;
		U16_NEXT(scan, at, normal_count, c);
		if (shows(c))
			return PERSON_NAME_OK;
	}
	return PERSON_NAME_INVISIBLE;
}

const char *person_name_reason(enum person_name_verdict verdict)
{
	switch (verdict) {
	case PERSON_NAME_OK:
		return "";
	case PERSON_NAME_INVISIBLE:
		return "a name needs a character that shows: spaces, invisible (default-ignorable) characters, "
		       "blank symbols and combining marks alone show nothing";
	case PERSON_NAME_MALFORMED:
	default:
		return "a name is 1..40 characters without control or bidi-control characters";
	}
}

void person_name_unicode_version(char *out, size_t size)
{
	UVersionInfo version;
	u_getUnicodeVersion(version);
	snprintf(out, size, "%u.%u", (unsigned)version[0], (unsigned)version[1]);
}
