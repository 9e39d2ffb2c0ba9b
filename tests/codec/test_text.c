/*
 * test_text.c - codec/text.h's comparison without case: ASCII letters only, never the
 * locale's, and never past a NUL both strings end at.
 */
#include "codec/text.h"
#include "tests/check_main.h"

START_TEST(test_ascii_letters_compare_without_case)
{
	ck_assert_int_eq(text_same_ascii_case("Turn+AB@Example.ORG", "turn+ab@example.org", 19), 1);
	ck_assert_int_eq(text_same_ascii_case("Seat 2", "seat 3", 5), 1);
	ck_assert_int_eq(text_same_ascii_case("Seat 2", "seat 3", 6), 0);
	ck_assert_int_eq(text_same_ascii_case("@[", "`{", 2), 0); /* the bytes beside the letters */
}
END_TEST

START_TEST(test_only_ascii_is_folded)
{
	/* "Ä" and "ä" in UTF-8 differ in their second byte: no folding outside ASCII. */
	ck_assert_int_eq(text_same_ascii_case("\xc3\x84", "\xc3\xa4", 2), 0);
	ck_assert_int_eq(text_same_ascii_case("\xc3\x84", "\xc3\x84", 2), 1);
}
END_TEST

START_TEST(test_a_shared_end_stops_the_comparison)
{
	char a[8] = "ab\0x", b[8] = "AB\0y";
	ck_assert_int_eq(text_same_ascii_case(a, b, 8), 1);
	ck_assert_int_eq(text_same_ascii_case("ab", "abc", 3), 0);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("text");
	TCase *tcase = tcase_create("text");
	tcase_add_test(tcase, test_ascii_letters_compare_without_case);
	tcase_add_test(tcase, test_only_ascii_is_folded);
	tcase_add_test(tcase, test_a_shared_end_stops_the_comparison);
	suite_add_tcase(suite, tcase);
	return suite;
}
