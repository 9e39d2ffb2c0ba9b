/*
 * test_mail_in.c - the way in of play by mail, without a database: real-world reply shapes
 * (the .eml files of tests/mail/corpus: plain, HTML-only, quoted-printable, base64, Gmail, Outlook and
 * Apple quotes, top- and bottom-posted, signatures, non-ASCII names and charsets,
 * auto-replies and bounces) read by GMime (deliver/mail_in.c) and then by the command
 * reader (game/mail_commands.c), against each file's .expected: "reply", "automatic" or
 * "bounce", then the commands read, one a line (as mail_commands_format() writes them), up
 * to the first line refused ("error <NAME>"). And the reply addresses (deliver/mail_reply.c):
 * a code reads back as its fields, and any change of a character, or another secret, makes
 * it not match.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "deliver/mail_in.h"
#include "deliver/mail_message.h"
#include "deliver/mail_reply.h"
#include "game/mail_commands.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

#define CORPUS "tests/mail/corpus"

static const char *const names[GAME_MAX_SEATS] = {"Ann", "Bob", "Cy", "Zo\xc3\xab"};

static char *slurp(const char *path, size_t *size)
{
	FILE *file = fopen(path, "rb");
	ck_assert_msg(file != NULL, "%s opens", path);
	fseek(file, 0, SEEK_END);
	long length = ftell(file);
	fseek(file, 0, SEEK_SET);
	char *data = xmalloc((size_t)length + 1);
	ck_assert_int_eq(fread(data, 1, (size_t)length, file), (size_t)length);
	data[length] = '\0';
	fclose(file);
	if (size)
		*size = (size_t)length;
	return data;
}

/* What the corpus file reads as, in the .expected form. Caller frees. */
static char *read_as(const char *data, size_t size, const struct game *game)
{
	struct mail_in in;
	ck_assert(mail_in_parse(data, size, NULL, &in));
	struct xtext out = xtext_new();
	if (in.bounce)
		xtext_add(&out, "bounce\n");
	else if (in.automatic)
		xtext_add(&out, "automatic\n");
	else {
		xtext_add(&out, "reply\n");
		const char *cursor = in.text;
		char line[MAIL_COMMANDS_LINE_MAX + 2];
		while (mail_commands_next_line(&cursor, line, sizeof line)) {
			if (mail_commands_blank(line))
				continue;
			struct command command;
			enum mail_commands_error error = mail_commands_parse(line, game, 0, names, &command);
			if (error != MAIL_COMMANDS_OK) {
				xtext_add(&out, "error %s\n", mail_commands_error_name(error));
				break;
			}
			char written[256];
			mail_commands_format(&command, names, written, sizeof written);
			xtext_add(&out, "%s\n", written);
		}
	}
	mail_in_free(&in);
	return out.data;
}

START_TEST(test_the_corpus_of_reply_shapes_reads_as_expected)
{
	struct game game;
	support_new_game(&game, 4, 0);
	game.options.dice = GAME_DICE_RANDOM; /* "roll" alone is a command */
	DIR *dir = opendir(CORPUS);
	ck_assert_msg(dir != NULL, "the corpus is at " CORPUS);
	int files = 0;
	struct dirent *entry;
	while ((entry = readdir(dir))) {
		size_t length = strlen(entry->d_name);
		if (length < 5 || strcmp(entry->d_name + length - 4, ".eml") != 0)
			continue;
		char path[600], expected_path[600];
		snprintf(path, sizeof path, "%s/%s", CORPUS, entry->d_name);
		snprintf(expected_path, sizeof expected_path, "%s/%.*s.expected", CORPUS, (int)(length - 4),
			 entry->d_name);
		size_t size;
		char *data = slurp(path, &size);
		char *expected = slurp(expected_path, NULL);
		char *got = read_as(data, size, &game);
		ck_assert_msg(strcmp(got, expected) == 0, "%s reads as\n%s\nnot\n%s", entry->d_name, got, expected);
		free(got);
		free(expected);
		free(data);
		files++;
	}
	closedir(dir);
	ck_assert_int_ge(files, 15);
}
END_TEST

START_TEST(test_quotes_attributions_and_signatures_are_left_out_wherever_they_are)
{
	char *text = mail_in_reply_text("road 1\r\n> road 2\r\n  > road 3\r\nroad 4\r\nOn Mon, Ann wrote:\r\n>> road "
					"5\r\nroad 6\r\n-- \r\nroad 7\r\n");
	ck_assert_str_eq(text, "road 1\nroad 4\nroad 6\n");
	free(text);
	/* "--" inside a line, and a line merely starting with "On", are the reply's */
	text = mail_in_reply_text("On second thought: end\nroad 1 -- fast\n");
	ck_assert_str_eq(text, "On second thought: end\nroad 1 -- fast\n");
	free(text);
	/* CRs before a line end all go (the fuzzer's CR CR LF) */
	text = mail_in_reply_text("road 1\r\r\nend\r");
	ck_assert_str_eq(text, "road 1\nend\n");
	free(text);
	text = mail_in_reply_text("city 3\nFrom: Catan <c@example.org>\nDate: today\nroad 9\n");
	ck_assert_str_eq(text, "city 3\n");
	free(text);
	text = mail_in_html_text(
		"<html><head><style>p{}</style></head><body><p>a &amp; "
		"b</p>c<br>d<blockquote>e<blockquote>f</blockquote>g</blockquote>h<!-- i --></body></html>");
	ck_assert_str_eq(text, "\na & b\nc\ndh");
	free(text);
}
END_TEST

START_TEST(test_a_message_that_is_no_mail_or_an_empty_one_reads_as_nothing)
{
	struct mail_in in;
	mail_in_parse("", 0, NULL, &in);
	ck_assert_str_eq(in.text, "");
	mail_in_free(&in);
	const char *bare = "Subject: x\r\n\r\n";
	ck_assert(mail_in_parse(bare, strlen(bare), NULL, &in));
	ck_assert_str_eq(in.text, "");
	ck_assert_str_eq(in.message_id, "");
	mail_in_free(&in);
}
END_TEST

START_TEST(test_authentication_results_count_only_from_the_named_mta)
{
	const char *base = "From: ann@example.org\r\nTo: x@example.org\r\n%sContent-Type: text/plain\r\n\r\nend\r\n";
	const struct {
		const char *headers;
		int authenticated;
	} cases[] = {
		{"Authentication-Results: mx.catan.test; dkim=pass header.d=example.org\r\n", 1},
		{"Authentication-Results: mx.catan.test; spf=pass smtp.mailfrom=example.org\r\n", 1},
		{"Authentication-Results: mx.catan.test; spf=pass; dmarc=fail\r\n", 0},
		{"Authentication-Results: mx.other.test; dkim=pass\r\n", 0},
		{"Authentication-Results: mx.catan.test; dkim=fail; spf=softfail\r\n", 0},
		{"", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char message[512];
		snprintf(message, sizeof message, base, cases[i].headers);
		struct mail_in in;
		ck_assert(mail_in_parse(message, strlen(message), "mx.catan.test", &in));
		ck_assert_msg(in.authenticated == cases[i].authenticated, "%s", cases[i].headers);
		mail_in_free(&in);
	}
}
END_TEST

START_TEST(test_a_reply_code_reads_back_and_any_change_or_other_secret_does_not_match)
{
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], other[STORE_WEBHOOK_SECRET_SIZE];
	memset(secret, 7, sizeof secret);
	memset(other, 7, sizeof other);
	other[31] = 8;
	struct mail_reply_code fields = {123456789, 987654321, 3, 4242, 1800000000}, read;
	char code[MAIL_REPLY_CODE_SIZE];
	mail_reply_code(secret, &fields, code);
	ck_assert_int_eq(strlen(code), MAIL_REPLY_CODE_LENGTH);
	ck_assert(mail_reply_code_read(code, &read));
	ck_assert(read.registration_id == fields.registration_id && read.game_id == fields.game_id);
	ck_assert(read.seat == 3 && read.version == 4242 && read.expires_s == 1800000000);
	ck_assert(mail_reply_code_matches(secret, code));
	ck_assert(!mail_reply_code_matches(other, code));
	for (int i = 0; i < MAIL_REPLY_CODE_LENGTH; i++) {
		char changed[MAIL_REPLY_CODE_SIZE];
		strcpy(changed, code);
		changed[i] = changed[i] == 'a' ? 'b' : 'a';
		ck_assert_msg(!mail_reply_code_matches(secret, changed), "a change at %d does not match", i);
	}
	char address[200], upper[200], found[MAIL_REPLY_CODE_SIZE];
	snprintf(address, sizeof address, "turn+%s@play.example.org", code);
	ck_assert_int_le(strlen(address) - strlen("@play.example.org"), 64);
	ck_assert(mail_reply_address_code(address, "play.example.org", found));
	ck_assert_str_eq(found, code);
	for (size_t i = 0; address[i]; i++)
		upper[i] = (char)(address[i] >= 'a' && address[i] <= 'z' ? address[i] - 32 : address[i]);
	upper[strlen(address)] = '\0';
	ck_assert(mail_reply_address_code(upper, "play.example.org", found));
	ck_assert(mail_reply_code_matches(secret, found));
	ck_assert(!mail_reply_address_code(address, "other.example.org", found));
	ck_assert(!mail_reply_address_code("turn+abc@play.example.org", NULL, found));
	ck_assert(!mail_reply_address_code("catan@play.example.org", NULL, found));
}
END_TEST

START_TEST(test_a_turn_mail_carries_its_reply_address_and_no_token)
{
	struct mail_content content = {
		"catan@example.org", "ann@example.org",		  "Your turn", "roll\n", "<p>roll</p>", NULL, 1,
		1800000000,	     "turn+abc@play.example.org", NULL};
	char *message = mail_message(&content);
	ck_assert(strstr(message, "\r\nReply-To: <turn+abc@play.example.org>\r\n"));
	ck_assert(strstr(message, "Auto-Submitted: auto-generated\r\n"));
	ck_assert(!strstr(message, "In-Reply-To"));
	free(message);
	content.in_reply_to = "<m1@example.org>";
	content.reply_to = "turn+abc@play.example.org\r\nBcc: x@example.org";
	message = mail_message(&content);
	ck_assert(strstr(message, "\r\nIn-Reply-To: <m1@example.org>\r\n"));
	ck_assert(strstr(message, "Auto-Submitted: auto-replied\r\n"));
	ck_assert(!strstr(message, "Bcc"));
	free(message);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("mail_in");
	TCase *tcase = tcase_create("mail_in");
	tcase_add_test(tcase, test_the_corpus_of_reply_shapes_reads_as_expected);
	tcase_add_test(tcase, test_quotes_attributions_and_signatures_are_left_out_wherever_they_are);
	tcase_add_test(tcase, test_a_message_that_is_no_mail_or_an_empty_one_reads_as_nothing);
	tcase_add_test(tcase, test_authentication_results_count_only_from_the_named_mta);
	tcase_add_test(tcase, test_a_reply_code_reads_back_and_any_change_or_other_secret_does_not_match);
	tcase_add_test(tcase, test_a_turn_mail_carries_its_reply_address_and_no_token);
	suite_add_tcase(suite, tcase);
	return suite;
}
