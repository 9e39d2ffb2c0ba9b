/*
 * test_person_name.c - the rule for names a person can see (codec/person_name.h),
 * pinned as a table of names accepted and refused (issue 20, item 13: U+3164, spaces only,
 * a soft hyphen, tag characters and 40 combining marks were all accepted as names).
 *
 * The verdicts rest on Unicode properties that do not change between versions (the
 * default-ignorables, the marks and spaces listed); the test says which version ICU has.
 */
#include <stdio.h>
#include <string.h>

#include "codec/person_name.h"
#include "tests/check_main.h"

struct name_case {
	const char *what;
	const char *text;
	enum person_name_verdict verdict;
};

/* 40 combining acute accents (U+0301), and a letter carrying 39 of them. */
#define ACUTE "\xcc\x81"
#define ACUTE_8 ACUTE ACUTE ACUTE ACUTE ACUTE ACUTE ACUTE ACUTE
#define ACUTE_39 ACUTE_8 ACUTE_8 ACUTE_8 ACUTE_8 ACUTE ACUTE ACUTE ACUTE ACUTE ACUTE ACUTE

static const struct name_case cases[] = {
	/* Accepted: anything with one character that shows. */
	{"plain", "Ann", PERSON_NAME_OK},
	{"inner spaces", "Ann Lee", PERSON_NAME_OK},
	{"accents, precomposed", "Ren\xc3\xa9", PERSON_NAME_OK},
	{"accents, combining (NFD)", "Rene\xcc\x81", PERSON_NAME_OK},
	{"one letter and 39 combining marks", "a" ACUTE_39, PERSON_NAME_OK},
	{"CJK", "\xe5\xbc\xa0\xe4\xbc\x9f", PERSON_NAME_OK},
	{"Hangul syllables", "\xed\x95\x9c\xea\xb8\x80", PERSON_NAME_OK},
	{"Devanagari with a spacing mark", "\xe0\xa4\x95\xe0\xa4\xbe", PERSON_NAME_OK},
	{"an emoji", "\xf0\x9f\x8e\xb2", PERSON_NAME_OK},
	{"an emoji with a variation selector", "\xe2\x9d\xa4\xef\xb8\x8f", PERSON_NAME_OK},
	{"a digit", "7", PERSON_NAME_OK},
	{"punctuation", "-", PERSON_NAME_OK},
	{"a filler beside a letter",
	 "\xe3\x85\xa4"
	 "A",
	 PERSON_NAME_OK},
	{"a soft hyphen inside a name", "An\xc2\xadna", PERSON_NAME_OK},
	{"spaces around a name", "  Bo  ", PERSON_NAME_OK},
	{"40 characters", "abcdefghijabcdefghijabcdefghijabcdefghij", PERSON_NAME_OK},

	/* Refused: nothing shows. */
	{"one space", " ", PERSON_NAME_INVISIBLE},
	{"spaces only", "     ", PERSON_NAME_INVISIBLE},
	{"no-break spaces", "\xc2\xa0\xc2\xa0", PERSON_NAME_INVISIBLE},
	{"ideographic space", "\xe3\x80\x80", PERSON_NAME_INVISIBLE},
	{"em space and thin space", "\xe2\x80\x83\xe2\x80\x89", PERSON_NAME_INVISIBLE},
	{"U+3164 HANGUL FILLER", "\xe3\x85\xa4", PERSON_NAME_INVISIBLE},
	{"U+115F HANGUL CHOSEONG FILLER", "\xe1\x85\x9f", PERSON_NAME_INVISIBLE},
	{"U+FFA0 HALFWIDTH HANGUL FILLER", "\xef\xbe\xa0", PERSON_NAME_INVISIBLE},
	{"soft hyphen", "\xc2\xad", PERSON_NAME_INVISIBLE},
	{"soft hyphens and spaces", "\xc2\xad \xc2\xad", PERSON_NAME_INVISIBLE},
	{"tag characters", "\xf3\xa0\x81\x81\xf3\xa0\x81\x82\xf3\xa0\x81\xbf", PERSON_NAME_INVISIBLE},
	{"40 combining marks", ACUTE ACUTE_39, PERSON_NAME_INVISIBLE},
	{"a space and combining marks", " " ACUTE ACUTE, PERSON_NAME_INVISIBLE},
	{"an enclosing mark", "\xe2\x83\x9d", PERSON_NAME_INVISIBLE},
	{"variation selectors", "\xef\xb8\x8f\xef\xb8\x8e", PERSON_NAME_INVISIBLE},
	{"Mongolian free variation selector", "\xe1\xa0\x8b", PERSON_NAME_INVISIBLE},
	{"braille pattern blank", "\xe2\xa0\x80\xe2\xa0\x80", PERSON_NAME_INVISIBLE},
	{"combining grapheme joiner", "\xcd\x8f", PERSON_NAME_INVISIBLE},
	{"private use", "\xee\x80\x80", PERSON_NAME_INVISIBLE},
	{"unassigned (U+0378)", "\xcd\xb8", PERSON_NAME_INVISIBLE},
	{"Arabic end of ayah, a format character", "\xd8\x80", PERSON_NAME_INVISIBLE},
	{"interlinear annotation anchor", "\xef\xbf\xb9", PERSON_NAME_INVISIBLE},

	/* Refused before visibility: malformed (the rule of codec/text.h). */
	{"empty", "", PERSON_NAME_MALFORMED},
	{"41 characters", "abcdefghijabcdefghijabcdefghijabcdefghijk", PERSON_NAME_MALFORMED},
	{"a bidi override", "Ann\xe2\x80\xae", PERSON_NAME_MALFORMED},
	{"a zero width space", "\xe2\x80\x8b", PERSON_NAME_MALFORMED},
	{"a control character", "Ann\x07", PERSON_NAME_MALFORMED},
	{"a line feed", "Ann\nLee", PERSON_NAME_MALFORMED},
	{"invalid UTF-8", "Ann\xff", PERSON_NAME_MALFORMED},
	{"a cut character", "Ann\xc3", PERSON_NAME_MALFORMED},
};

START_TEST(test_names_are_accepted_and_refused_as_the_table_says)
{
	char version[16];
	person_name_unicode_version(version, sizeof version);
	fprintf(stderr, "test_person_name: ICU's Unicode %s\n", version);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int characters = -1;
		enum person_name_verdict verdict = person_name_check(cases[i].text, strlen(cases[i].text), &characters);
		ck_assert_msg(verdict == cases[i].verdict, "%s: verdict %d, expected %d", cases[i].what, verdict,
			      cases[i].verdict);
		ck_assert_msg((verdict == PERSON_NAME_OK) == (person_name_reason(verdict)[0] == '\0'), "%s: reason",
			      cases[i].what);
	}
}
END_TEST

START_TEST(test_a_nul_inside_a_name_is_refused)
{
	int characters;
	ck_assert_int_eq(person_name_check("Ann\0Bob", 7, &characters), PERSON_NAME_MALFORMED);
	ck_assert_int_eq(person_name_check("Ann", 3, &characters), PERSON_NAME_OK);
	ck_assert_int_eq(characters, 3);
	ck_assert_int_eq(person_name_check(NULL, 0, &characters), PERSON_NAME_MALFORMED);
}
END_TEST

START_TEST(test_the_reason_of_an_invisible_name_says_why)
{
	ck_assert_ptr_nonnull(strstr(person_name_reason(PERSON_NAME_INVISIBLE), "show"));
	ck_assert_ptr_nonnull(strstr(person_name_reason(PERSON_NAME_MALFORMED), "1..40"));
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("codec_person_name");
	TCase *names = tcase_create("names");
	tcase_add_test(names, test_names_are_accepted_and_refused_as_the_table_says);
	tcase_add_test(names, test_a_nul_inside_a_name_is_refused);
	tcase_add_test(names, test_the_reason_of_an_invisible_name_says_why);
	suite_add_tcase(suite, names);
	return suite;
}
