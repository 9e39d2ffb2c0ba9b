/*
 * test_log.c - the floor's log lines (base/log.c), which quote strings without a JSON
 * library: quoted exactly as jansson's compact dump quotes them (the access log's lines
 * are jansson's, and both kinds of line must read alike), UTF-8 judged exactly as jansson
 * judges it (a value jansson would refuse is left out, as it was when jansson wrote these
 * lines), and a line that is one JSON object whatever its values hold.
 */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/xalloc.h"
#include "tests/check_main.h"

/* jansson's text of the string `value`, or NULL when jansson refuses it. Caller frees. */
static char *jansson_quoted(const char *value, size_t length)
{
	json_t *string = json_stringn(value, length);
	if (!string)
		return NULL;
	char *text = json_dumps(string, JSON_ENCODE_ANY | JSON_COMPACT);
	json_decref(string);
	return text;
}

static char *quoted(const char *value)
{
	struct xtext text = xtext_new();
	log_json_string(&text, value);
	return text.data;
}

START_TEST(test_strings_are_quoted_as_jansson_quotes_them)
{
	static const char *const samples[] = {"",
					      "plain",
					      "a \"quoted\" word",
					      "back\\slash",
					      "tab\tnew\nline\rreturn",
					      "\b\f\x01\x1f\x7f",
					      "slash / stays",
					      "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x8e\xb2",
					      "\xe2\x80\xae bidi control"};
	for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
		char *ours = quoted(samples[i]);
		char *theirs = jansson_quoted(samples[i], strlen(samples[i]));
		ck_assert_ptr_nonnull(theirs);
		ck_assert_msg(strcmp(ours, theirs) == 0, "sample %zu: %s, jansson %s", i, ours, theirs);
		free(ours);
		free(theirs);
	}
}
END_TEST

/* Random bytes: UTF-8 is valid exactly when jansson takes the string, and then quoted as
 * jansson quotes it. Bytes drawn mostly from the places where UTF-8 is decided. */
START_TEST(test_random_bytes_are_judged_and_quoted_as_jansson_does)
{
	static const unsigned char interesting[] = {0x01, 0x0a, 0x1f, '"',  '\\', 'a',	0x7f, 0x80,
						    0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xed, 0xef,
						    0xf0, 0xf4, 0xf5, 0xff, 0xa0, 0x9f, 0x8f, 0x90};
	uint64_t state = 0x9e3779b97f4a7c15u;
	int valid = 0;
	for (int round = 0; round < 200000; round++) {
		char bytes[8];
		size_t length = 1 + round % 7;
		for (size_t i = 0; i < length; i++) {
			state = state * 6364136223846793005u + 1442695040888963407u;
			unsigned pick = (unsigned)(state >> 33);
			bytes[i] =
				(char)(pick & 1 ? interesting[(pick >> 1) % sizeof interesting] : (pick >> 8) & 0xff);
			if (!bytes[i])
				bytes[i] = 'z';
		}
		bytes[length] = '\0';
		char *theirs = jansson_quoted(bytes, length);
		int ours_valid = log_utf8_valid(bytes, length);
		ck_assert_msg(ours_valid == (theirs != NULL), "round %d: valid %d, jansson %s", round, ours_valid,
			      theirs ? "takes it" : "refuses it");
		if (theirs) {
			valid++;
			char *ours = quoted(bytes);
			ck_assert_msg(strcmp(ours, theirs) == 0, "round %d: %s, jansson %s", round, ours, theirs);
			free(ours);
			free(theirs);
		}
	}
	ck_assert_msg(valid > 1000 && valid < 199000, "%d of the random strings valid: the sample says little", valid);
}
END_TEST

/* What log_event() writes to stderr, captured. Caller frees. */
static char *captured_line(void (*write_line)(void))
{
	char path[] = "/tmp/test_log_XXXXXX";
	int file = mkstemp(path);
	ck_assert_int_ge(file, 0);
	fflush(stderr);
	int saved = dup(2);
	dup2(file, 2);
	write_line();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	off_t size = lseek(file, 0, SEEK_END);
	char *text = xcalloc(1, (size_t)size + 1);
	ck_assert_int_eq(pread(file, text, (size_t)size, 0), size);
	close(file);
	unlink(path);
	return text;
}

static void hostile_line(void)
{
	log_event("warn", "a \"quoted\"\nmessage", "game", "0123456789abcdef", "detail", "tab\there \\ and \x01",
		  "invalid", "\xc3\x28", "missing", NULL, NULL);
}

START_TEST(test_a_line_is_one_json_object_in_order_without_invalid_values)
{
	char *line = captured_line(hostile_line);
	size_t length = strlen(line);
	ck_assert_msg(length > 0 && line[length - 1] == '\n' && !memchr(line, '\n', length - 1), "one line: %s", line);
	json_error_t error;
	json_t *object = json_loads(line, 0, &error);
	ck_assert_msg(json_is_object(object), "not a JSON object (%s): %s", error.text, line);
	const char *order[] = {"ts", "level", "msg", "game", "detail", "missing"};
	const char *key;
	json_t *value;
	size_t at = 0;
	json_object_foreach(object, key, value)
	{
		ck_assert_msg(at < sizeof order / sizeof order[0] && strcmp(key, order[at]) == 0,
			      "member %zu is %s: %s", at, key, line);
		ck_assert(json_is_string(value));
		at++;
	}
	ck_assert_uint_eq(at, sizeof order / sizeof order[0]);
	ck_assert_str_eq(json_string_value(json_object_get(object, "msg")), "a \"quoted\"\nmessage");
	ck_assert_str_eq(json_string_value(json_object_get(object, "detail")), "tab\there \\ and \x01");
	ck_assert_str_eq(json_string_value(json_object_get(object, "missing")), "");
	/* The timestamp as the access log writes it: 2026-11-29T20:07:46.668Z. */
	const char *ts = json_string_value(json_object_get(object, "ts"));
	ck_assert_msg(strlen(ts) == 24 && ts[10] == 'T' && ts[19] == '.' && ts[23] == 'Z', "ts %s", ts);
	json_decref(object);
	free(line);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("log");
	TCase *quoting = tcase_create("quoting");
	tcase_add_test(quoting, test_strings_are_quoted_as_jansson_quotes_them);
	tcase_add_test(quoting, test_random_bytes_are_judged_and_quoted_as_jansson_does);
	tcase_add_test(quoting, test_a_line_is_one_json_object_in_order_without_invalid_values);
	suite_add_tcase(suite, quoting);
	return suite;
}
