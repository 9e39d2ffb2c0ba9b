/*
 * test_escape.c - player text written into Discord, Slack and HTML/XML
 * (codec/escape.h): a table of hostile names, each with what every format makes of it, and
 * the invariants of tests/escape_invariants.h on each; a result cut by a small buffer is a
 * safe prefix, never a dangling escape; printable text comes back whole when unescaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/escape.h"
#include "tests/check_main.h"
#include "tests/escape_invariants.h"

#define ZWSP ESCAPE_ZWSP
#define FFFD "\xef\xbf\xbd"

struct hostile {
	const char *text;
	const char *discord, *slack, *markup;
};

/* Each row: a name a seat could be given (or a player could type), and what each format
 * makes of it. */
static const struct hostile hostile[] = {
	{"Ann", "Ann", "Ann", "Ann"},
	{"<@&1>", "\\<@" ZWSP "\\&1\\>", "&lt;@" ZWSP "&amp;1&gt;", "&lt;@&amp;1&gt;"},
	{"<@1>", "\\<@" ZWSP "1\\>", "&lt;@" ZWSP "1&gt;", "&lt;@1&gt;"},
	{"<@!80351110224678912>", "\\<@" ZWSP "\\!80351110224678912\\>", "&lt;@" ZWSP "!80351110224678912&gt;",
	 "&lt;@!80351110224678912&gt;"},
	{"<#123>", "\\<\\#123\\>", "&lt;#123&gt;", "&lt;#123&gt;"},
	{"@everyone", "@" ZWSP "everyone", "@" ZWSP "everyone", "@everyone"},
	{"@here", "@" ZWSP "here", "@" ZWSP "here", "@here"},
	{"[x](https://evil)", "\\[x\\]\\(https\\:\\/\\/evil\\)", "[x](https://evil)", "[x](https://evil)"},
	{"[Open the game](https://evil.example/)", "\\[Open the game\\]\\(https\\:\\/\\/evil\\.example\\/\\)",
	 "[Open the game](https://evil.example/)", "[Open the game](https://evil.example/)"},
	{"`code` ```", "\\`code\\` \\`\\`\\`", "`code` ```", "`code` ```"},
	{"*_~|>", "\\*\\_\\~\\|\\>", "*_~|&gt;", "*_~|&gt;"},
	{"||spoiler||", "\\|\\|spoiler\\|\\|", "||spoiler||", "||spoiler||"},
	{"# Heading", "\\# Heading", "# Heading", "# Heading"},
	{"-# small", "\\-\\# small", "-# small", "-# small"},
	{"<!channel>", "\\<\\!channel\\>", "&lt;!channel&gt;", "&lt;!channel&gt;"},
	{"<!here|here>", "\\<\\!here\\|here\\>", "&lt;!here|here&gt;", "&lt;!here|here&gt;"},
	{"<https://evil|x>", "\\<https\\:\\/\\/evil\\|x\\>", "&lt;https://evil|x&gt;", "&lt;https://evil|x&gt;"},
	{"<:emoji:123>", "\\<\\:emoji\\:123\\>", "&lt;:emoji:123&gt;", "&lt;:emoji:123&gt;"},
	{"<t:1700000000:R>", "\\<t\\:1700000000\\:R\\>", "&lt;t:1700000000:R&gt;", "&lt;t:1700000000:R&gt;"},
	{"&amp;", "\\&amp\\;", "&amp;amp;", "&amp;amp;"},
	{"&lt;@1&gt;", "\\&lt\\;@" ZWSP "1\\&gt\\;", "&amp;lt;@" ZWSP "1&amp;gt;", "&amp;lt;@1&amp;gt;"},
	{"a\\b", "a\\\\b", "a\\b", "a\\b"},
	{"\\<@1>", "\\\\\\<@" ZWSP "1\\>", "\\&lt;@" ZWSP "1&gt;", "\\&lt;@1&gt;"},
	{"line\n# heading", "line" FFFD "\\# heading", "line" FFFD "# heading", "line" FFFD "# heading"},
	{"tab\tcr\r", "tab" FFFD "cr" FFFD, "tab" FFFD "cr" FFFD, "tab" FFFD "cr" FFFD},
	{"@\xe2\x80\x8b"
	 "everyone",
	 "@" ZWSP FFFD "everyone", "@" ZWSP FFFD "everyone", "@" FFFD "everyone"},
	{"<\xe2\x80\x8b@1>", "\\<" FFFD "@" ZWSP "1\\>", "&lt;" FFFD "@" ZWSP "1&gt;", "&lt;" FFFD "@1&gt;"},
	{"\xe2\x80\xae"
	 "nimda",
	 FFFD "nimda", FFFD "nimda", FFFD "nimda"},
	{"a\xe2\x81\xa0"
	 "b\xef\xbb\xbf"
	 "c",
	 "a" FFFD "b" FFFD "c", "a" FFFD "b" FFFD "c", "a" FFFD "b" FFFD "c"},
	{"soft\xc2\xad"
	 "hyphen",
	 "soft" FFFD "hyphen", "soft" FFFD "hyphen", "soft" FFFD "hyphen"},
	{"\xe3\x85\xa4", FFFD, FFFD, FFFD},
	{"\xf3\xa0\x80\x81tag", FFFD "tag", FFFD "tag", FFFD "tag"},
	{"bad \xff\xc0 bytes \xe2\x82", "bad " FFFD FFFD " bytes " FFFD FFFD, "bad " FFFD FFFD " bytes " FFFD FFFD,
	 "bad " FFFD FFFD " bytes " FFFD FFFD},
	{"\xc2\x85"
	 "nel \x7f"
	 "del",
	 FFFD "nel " FFFD "del", FFFD "nel " FFFD "del", FFFD "nel " FFFD "del"},
	{"</p><script>alert(\"x\")</script>", "\\<\\/p\\>\\<script\\>alert\\(\\\"x\\\"\\)\\<\\/script\\>",
	 "&lt;/p&gt;&lt;script&gt;alert(\"x\")&lt;/script&gt;",
	 "&lt;/p&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"},
	{"O'Neil \"Jr\"", "O\\'Neil \\\"Jr\\\"", "O'Neil \"Jr\"", "O&#39;Neil &quot;Jr&quot;"},
	{"J\xc3\xbcrgen \xe2\x9d\xa4\xef\xb8\x8f \xf0\x9f\x8e\xb2",
	 "J\xc3\xbcrgen \xe2\x9d\xa4\xef\xb8\x8f \xf0\x9f\x8e\xb2",
	 "J\xc3\xbcrgen \xe2\x9d\xa4\xef\xb8\x8f \xf0\x9f\x8e\xb2",
	 "J\xc3\xbcrgen \xe2\x9d\xa4\xef\xb8\x8f \xf0\x9f\x8e\xb2"},
	{"", "", "", ""},
};

#define HOSTILE_COUNT ((int)(sizeof hostile / sizeof hostile[0]))

typedef size_t (*escape_function)(char *, size_t, const char *);
typedef const char *(*escape_check)(const char *);

static const struct format {
	const char *name;
	escape_function escape;
	escape_check check;
} formats[] = {
	{"discord", escape_discord, escape_check_discord},
	{"slack", escape_slack, escape_check_slack},
	{"markup", escape_markup, escape_check_markup},
};

static const char *expected_of(const struct hostile *row, int format)
{
	return format == 0 ? row->discord : format == 1 ? row->slack : row->markup;
}

START_TEST(test_every_hostile_name_comes_out_as_each_format_needs_it)
{
	for (int f = 0; f < 3; f++) {
		for (int i = 0; i < HOSTILE_COUNT; i++) {
			size_t length = strlen(hostile[i].text);
			char *out = malloc(ESCAPE_SIZE(length));
			size_t written = formats[f].escape(out, ESCAPE_SIZE(length), hostile[i].text);
			ck_assert_msg(strcmp(out, expected_of(&hostile[i], f)) == 0, "%s of \"%s\": got \"%s\"",
				      formats[f].name, hostile[i].text, out);
			ck_assert_uint_eq(written, strlen(out));
			const char *wrong = formats[f].check(out);
			ck_assert_msg(wrong == NULL, "%s of \"%s\" (\"%s\"): %s", formats[f].name, hostile[i].text, out,
				      wrong);
			free(out);
		}
	}
}
END_TEST

START_TEST(test_a_cut_result_is_a_safe_prefix_never_half_an_escape)
{
	for (int f = 0; f < 3; f++) {
		for (int i = 0; i < HOSTILE_COUNT; i++) {
			const char *whole = expected_of(&hostile[i], f);
			for (size_t size = 1; size <= strlen(whole) + 1; size++) {
				char out[512];
				size_t written = formats[f].escape(out, size, hostile[i].text);
				ck_assert_msg(written < size && strlen(out) == written, "%s: %zu bytes in %zu",
					      formats[f].name, written, size);
				ck_assert_msg(strncmp(out, whole, written) == 0, "%s of \"%s\" cut at %zu: a prefix",
					      formats[f].name, hostile[i].text, size);
				const char *wrong = formats[f].check(out);
				ck_assert_msg(wrong == NULL, "%s of \"%s\" cut at %zu (\"%s\"): %s", formats[f].name,
					      hostile[i].text, size, out, wrong);
			}
		}
	}
}
END_TEST

START_TEST(test_the_worst_case_fits_escape_size)
{
	/* Every byte its longest piece: '"' (6 in markup), '@' (4 in Discord), an invalid byte (3). */
	const char *worst[] = {"\"\"\"\"", "@@@@", "\xff\xff\xff", "\xe2\x80\xae\xe2\x80\xae", NULL};
	for (int f = 0; f < 3; f++) {
		for (int i = 0; worst[i]; i++) {
			char out[64];
			size_t length = strlen(worst[i]);
			memset(out, 'x', sizeof out);
			size_t written = formats[f].escape(out, ESCAPE_SIZE(length), worst[i]);
			char whole[256];
			formats[f].escape(whole, sizeof whole, worst[i]);
			ck_assert_msg(strcmp(out, whole) == 0 && written + 1 <= ESCAPE_SIZE(length), "%s: %s",
				      formats[f].name, worst[i]);
		}
	}
	char out[4] = "xyz";
	ck_assert_uint_eq(escape_discord(out, 0, "abc"), 0);
	ck_assert_str_eq(out, "xyz"); /* no room: nothing written */
	ck_assert_uint_eq(escape_slack(out, sizeof out, NULL), 0);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(test_printable_text_comes_back_whole_from_discord)
{
	char text[96], out[ESCAPE_SIZE(96)], plain[sizeof out];
	int at = 0;
	for (int c = 0x20; c < 0x7f; c++)
		text[at++] = (char)c;
	text[at] = '\0';
	escape_discord(out, sizeof out, text);
	ck_assert_ptr_null(escape_check_discord(out));
	escape_unescaped_discord(out, plain);
	ck_assert_str_eq(plain, text);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("codec_escape");
	TCase *tcase = tcase_create("escape");
	tcase_add_test(tcase, test_every_hostile_name_comes_out_as_each_format_needs_it);
	tcase_add_test(tcase, test_a_cut_result_is_a_safe_prefix_never_half_an_escape);
	tcase_add_test(tcase, test_the_worst_case_fits_escape_size);
	tcase_add_test(tcase, test_printable_text_comes_back_whole_from_discord);
	suite_add_tcase(suite, tcase);
	return suite;
}
