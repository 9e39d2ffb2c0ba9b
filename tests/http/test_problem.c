/*
 * test_problem.c - the problem+json bodies of http/problem.c: every entry of the table
 * builds one, and a body exists whatever bytes its detail, field and instance hold (text
 * that is not UTF-8 is quoted with visible escapes by text_quote()). A NULL body made the
 * server abort in json_dumps(); the inputs here are the ones of issue 8 item 1 and the one
 * tests/fuzz/ found (tests/fuzz/crashes/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/problem.h"
#include "tests/check_main.h"

/* The body as the server sends it; fails the test when there is none. */
static char *body_text(const char *instance, const char *detail, const char *field)
{
	json_t *body = problem_json(instance, "invalid_json", 400, "The body is not valid JSON", detail, field, 7);
	ck_assert_ptr_nonnull(body);
	char *text = json_dumps(body, JSON_COMPACT);
	ck_assert_ptr_nonnull(text);
	json_decref(body);
	return text;
}

START_TEST(test_every_problem_has_a_body_with_its_code_status_and_title)
{
	for (int p = 0; p < PROBLEM_COUNT; p++) {
		json_t *body =
			problem_json("/v1/games", problem_code(p), problem_status(p), problem_title(p), NULL, NULL, -1);
		ck_assert_ptr_nonnull(body);
		char type[96];
		snprintf(type, sizeof type, "urn:catan:problem:%s", problem_code(p));
		ck_assert_str_eq(json_string_value(json_object_get(body, "type")), type);
		ck_assert_str_eq(json_string_value(json_object_get(body, "code")), problem_code(p));
		ck_assert_int_eq(json_integer_value(json_object_get(body, "status")), problem_status(p));
		ck_assert_str_eq(json_string_value(json_object_get(body, "detail")), problem_title(p));
		ck_assert_str_eq(json_string_value(json_object_get(body, "instance")), "/v1/games");
		ck_assert_ptr_null(json_object_get(body, "field"));
		ck_assert_ptr_null(json_object_get(body, "version"));
		json_decref(body);
	}
}
END_TEST

START_TEST(test_valid_text_is_kept_as_given)
{
	char *text = body_text("/v1/games/x", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2 \"quoted\"\n",
			       "options.caf\xc3\xa9");
	ck_assert_str_eq(text,
			 "{\"type\":\"urn:catan:problem:invalid_json\",\"title\":\"The body is not valid JSON\","
			 "\"status\":400,\"detail\":\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2 \\\"quoted\\\"\\n\","
			 "\"code\":\"invalid_json\",\"field\":\"options.caf\xc3\xa9\",\"version\":7,"
			 "\"instance\":\"/v1/games/x\"}");
	free(text);
}
END_TEST

/* Issue 8 item 1: an unknown option key of 39 'a' and an e-acute, quoted with %.40s. */
START_TEST(test_a_detail_cut_inside_a_character_still_gives_a_body)
{
	char detail[128];
	snprintf(detail, sizeof detail, "unknown member \"%.40s\" in options",
		 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3\xa9");
	json_t *body = problem_json("/v1/games", "unknown_field", 400, "Unknown member", detail,
				    "options.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\xc3", -1);
	ck_assert_ptr_nonnull(body);
	const char *kept = json_string_value(json_object_get(body, "detail"));
	ck_assert_ptr_nonnull(kept);
	ck_assert_ptr_nonnull(strstr(kept, "unknown member \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\xc3"));
	const char *field = json_string_value(json_object_get(body, "field"));
	ck_assert_ptr_nonnull(field);
	ck_assert_str_eq(field, "options.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\\xc3");
	char *text = json_dumps(body, JSON_COMPACT);
	ck_assert_ptr_nonnull(text);
	free(text);
	json_decref(body);
}
END_TEST

/* Found by tests/fuzz (crashes/codec_options/jansson-error-text-cut-utf8.json): jansson's
 * error for a bad escape quotes the token up to the first byte of the character after
 * the backslash, and service_body() puts that text into the 400 detail. */
START_TEST(test_jansson_parse_error_of_a_bad_escape_still_gives_a_body)
{
	static const char body[] = "{\"l\xe3\x8c\x8c\\\xe3\x8c\x8c\x8c";
	json_error_t error;
	ck_assert_ptr_null(json_loadb(body, sizeof body - 1, JSON_REJECT_DUPLICATES, &error));
	char detail[256];
	snprintf(detail, sizeof detail, "line %d, column %d: %s", error.line, error.column, error.text);
	char *text = body_text("/v1/games", detail, "");
	ck_assert_ptr_nonnull(strstr(text, "invalid escape"));
	free(text);
}
END_TEST

START_TEST(test_any_bytes_in_the_instance_and_field_give_a_body)
{
	/* Overlong, surrogate, above U+10FFFF, lone continuation, truncated 4-byte, 0xff. */
	static const char *const bad[] = {"/v1/games/\xc0\xaf", "/\xed\xa0\x80", "/\xf4\x90\x80\x80", "/\x80",
					  "/\xf0\x9f\x8e",	"/\xff/board"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		json_t *body = problem_json(bad[i], "route_not_found", 404, "No such resource", bad[i], bad[i], -1);
		ck_assert_ptr_nonnull(body);
		const char *instance = json_string_value(json_object_get(body, "instance"));
		ck_assert_ptr_nonnull(instance);
		ck_assert_ptr_nonnull(strstr(instance, "\\x"));
		ck_assert_str_eq(instance, json_string_value(json_object_get(body, "detail")));
		ck_assert_str_eq(instance, json_string_value(json_object_get(body, "field")));
		json_decref(body);
	}
}
END_TEST

START_TEST(test_each_codec_error_answers_as_the_problem_of_its_name)
{
	static const struct {
		enum codec_error_code code;
		const char *name;
		enum problem problem;
	} expected[] = {
		{CODEC_ERROR_INVALID_JSON, "invalid_json", PROBLEM_INVALID_JSON},
		{CODEC_ERROR_UNKNOWN_FIELD, "unknown_field", PROBLEM_UNKNOWN_FIELD},
		{CODEC_ERROR_MISSING_FIELD, "missing_field", PROBLEM_MISSING_FIELD},
		{CODEC_ERROR_INVALID_FIELD, "invalid_field", PROBLEM_INVALID_FIELD},
	};
	ck_assert_int_eq(CODEC_ERROR_COUNT, 1 + (int)(sizeof expected / sizeof expected[0]));
	for (size_t i = 0; i < sizeof expected / sizeof expected[0]; i++) {
		ck_assert_str_eq(codec_error_code_name(expected[i].code), expected[i].name);
		ck_assert_int_eq(problem_of_codec_error(expected[i].code), expected[i].problem);
		ck_assert_str_eq(problem_code(problem_of_codec_error(expected[i].code)), expected[i].name);
	}
	ck_assert_str_eq(codec_error_code_name(CODEC_ERROR_NONE), "none");
	ck_assert_str_eq(codec_error_code_name(CODEC_ERROR_COUNT), "none");
	ck_assert_int_eq(problem_of_codec_error(CODEC_ERROR_NONE), PROBLEM_INVALID_FIELD);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("problem");
	TCase *tc = tcase_create("bodies");
	tcase_add_test(tc, test_every_problem_has_a_body_with_its_code_status_and_title);
	tcase_add_test(tc, test_valid_text_is_kept_as_given);
	tcase_add_test(tc, test_a_detail_cut_inside_a_character_still_gives_a_body);
	tcase_add_test(tc, test_jansson_parse_error_of_a_bad_escape_still_gives_a_body);
	tcase_add_test(tc, test_any_bytes_in_the_instance_and_field_give_a_body);
	tcase_add_test(tc, test_each_codec_error_answers_as_the_problem_of_its_name);
	suite_add_tcase(suite, tc);
	return suite;
}
