/*
 * test_mail.c - the parts of a mail (deliver/mail_message.c) without a relay: which addresses
 * pass (one plain addr-spec, nothing that could end a header or add a recipient), the
 * masked form, the links' codes (only the registration's own secret and purpose match),
 * and the message (every header once, CRLF lines no longer than RFC 5322 allows, parts in
 * base64 that decode to the texts, so no client text appears raw on the wire).
 */
#include <check.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "deliver/mail_message.h"
#include "tests/check_main.h"

START_TEST(test_plain_addresses_pass_and_anything_that_could_forge_a_header_or_recipient_does_not)
{
	const char *good[] = {"ann@example.org", "a.b+c@sub.example.co.uk", "o'neil@example.org",
			      "x@a-b.example",	 "A_Z{1}@EXAMPLE.ORG",	    NULL};
	char why[200];
	for (int i = 0; good[i]; i++)
		ck_assert_msg(mail_address_valid(good[i], why, sizeof why), "%s passes", good[i]);
	char local65[80], long_address[300];
	memset(local65, 'a', 65);
	strcpy(local65 + 65, "@example.org");
	memset(long_address, 'a', 60);
	long_address[60] = '@';
	size_t at = 61;
	while (at < 252) { /* 264 characters in all */
		memcpy(long_address + at, "abcdefghi.", 10);
		at += 10;
	}
	strcpy(long_address + at, "org");
	const char *bad[] = {"",
			     "ann",
			     "ann@example.org\r\nBcc: all@example.org",
			     "ann@example.org\n",
			     "Ann <ann@example.org>",
			     "<ann@example.org>",
			     "ann@example.org, bob@example.org",
			     "ann example@example.org",
			     "\"ann\"@example.org",
			     "ann(comment)@example.org",
			     "ann@localhost",
			     "ann@@example.org",
			     "@example.org",
			     "ann@",
			     ".ann@example.org",
			     "ann.@example.org",
			     "a..nn@example.org",
			     "ann@-example.org",
			     "ann@example-.org",
			     "ann@example..org",
			     "ann@example.org.",
			     "ann@[127.0.0.1]",
			     "ann@exa_mple.org",
			     "\xc3\xa4nn@example.org",
			     local65,
			     long_address,
			     NULL};
	for (int i = 0; bad[i]; i++) {
		why[0] = '\0';
		ck_assert_msg(!mail_address_valid(bad[i], why, sizeof why), "\"%s\" is refused", bad[i]);
		ck_assert_msg(strstr(why, "address") != NULL, "the rule is named: %s", why);
	}
	ck_assert(!mail_address_valid(NULL, why, sizeof why));
}
END_TEST

START_TEST(test_the_masked_address_keeps_the_first_character_and_the_domain)
{
	char out[300];
	mail_mask("ann.example+catan@example.org", out, sizeof out);
	ck_assert_str_eq(out, "a***@example.org");
	mail_mask("x@sub.example.co.uk", out, sizeof out);
	ck_assert_str_eq(out, "x***@sub.example.co.uk");
}
END_TEST

START_TEST(test_a_code_matches_only_its_registration_secret_and_purpose)
{
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], other[STORE_WEBHOOK_SECRET_SIZE];
	for (int i = 0; i < STORE_WEBHOOK_SECRET_SIZE; i++) {
		secret[i] = (uint8_t)i;
		other[i] = (uint8_t)(i + 1);
	}
	int64_t id = INT64_C(0x4f1c9a2e7b30d856), parsed = 0;
	char confirm[MAIL_CODE_SIZE], unsubscribe[MAIL_CODE_SIZE];
	mail_code(secret, id, MAIL_CONFIRM, confirm);
	mail_code(secret, id, MAIL_UNSUBSCRIBE, unsubscribe);
	ck_assert_int_eq(strlen(confirm), 16 + 1 + 43);
	ck_assert(strncmp(confirm, "4f1c9a2e7b30d856.", 17) == 0);
	for (const char *c = confirm + 17; *c; c++)
		ck_assert_msg((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
				      *c == '-' || *c == '_',
			      "base64url only: %s", confirm);
	ck_assert(strcmp(confirm, unsubscribe) != 0);
	ck_assert(mail_code_id(confirm, &parsed) && parsed == id);
	ck_assert(mail_code_matches(secret, id, MAIL_CONFIRM, confirm));
	ck_assert(mail_code_matches(secret, id, MAIL_UNSUBSCRIBE, unsubscribe));
	ck_assert(!mail_code_matches(secret, id, MAIL_UNSUBSCRIBE, confirm));
	ck_assert(!mail_code_matches(other, id, MAIL_CONFIRM, confirm));
	ck_assert(!mail_code_matches(secret, id + 1, MAIL_CONFIRM, confirm));
	char changed[MAIL_CODE_SIZE];
	strcpy(changed, confirm);
	changed[40] = changed[40] == 'A' ? 'B' : 'A';
	ck_assert(!mail_code_matches(secret, id, MAIL_CONFIRM, changed));
	changed[40] = '\0';
	ck_assert(!mail_code_matches(secret, id, MAIL_CONFIRM, changed));
	const char *malformed[] = {"",
				   "4f1c9a2e7b30d856",
				   "4F1C9A2E7B30D856.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				   "0000000000000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				   "ffffffffffffffff.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
				   NULL};
	for (int i = 0; malformed[i]; i++)
		ck_assert_msg(!mail_code_id(malformed[i], &parsed), "%s is malformed", malformed[i]);
}
END_TEST

/* The body of the MIME part with this content type, base64-decoded. Caller frees. */
static char *part(const char *message, const char *type)
{
	const char *at = strstr(message, type);
	ck_assert_msg(at != NULL, "a %s part", type);
	at = strstr(at, "\r\n\r\n");
	ck_assert(at != NULL);
	at += 4;
	const char *end = strstr(at, "\r\n--");
	ck_assert(end != NULL);
	char *joined = calloc(1, (size_t)(end - at) + 1);
	size_t n = 0;
	for (const char *c = at; c < end; c++)
		if (*c != '\r' && *c != '\n')
			joined[n++] = *c;
	unsigned char *decoded = calloc(1, n + 4);
	int size = EVP_DecodeBlock(decoded, (unsigned char *)joined, (int)n);
	ck_assert(size >= 0);
	while (size > 0 && n >= 2 && joined[n - 1] == '=' && (n--, 1))
		size--;
	decoded[size] = '\0';
	free(joined);
	return (char *)decoded;
}

static int header_count(const char *message, const char *name)
{
	const char *end = strstr(message, "\r\n\r\n");
	int count = 0;
	size_t length = strlen(name);
	for (const char *line = message; line && line < end; line = strstr(line, "\r\n"), line = line ? line + 2 : NULL)
		count += strncmp(line, name, length) == 0 && line[length] == ':';
	return count;
}

START_TEST(test_a_message_has_every_header_once_crlf_lines_and_base64_parts_that_decode_to_the_texts)
{
	const char *text = "Ann: your turn.\n\r\n.\r\nBcc: x@example.org\n--=_catan_0000000000000000\n" /* hostile */
			   "\xc3\x84rger \xe2\x80\x94 UTF-8\n";
	struct mail_content content = {"catan@example.org",
				       "ann@example.org",
				       "Your turn in Catan game 4f1c: roll",
				       text,
				       "<p>Ann &amp; Bob</p>\n",
				       "https://catan.example.org/v1/mail/unsubscribe?code=x",
				       42,
				       0,
				       NULL,
				       NULL};
	char *one = mail_message(&content), *two = mail_message(&content);
	const char *headers[] = {"From",
				 "To",
				 "Subject",
				 "Date",
				 "Message-ID",
				 "MIME-Version",
				 "List-Unsubscribe",
				 "List-Unsubscribe-Post",
				 "Content-Type",
				 NULL};
	for (int i = 0; headers[i]; i++)
		ck_assert_msg(header_count(one, headers[i]) == 1, "%s once in:\n%s", headers[i], one);
	ck_assert(strstr(one, "\r\nDate: Thu, 01 Jan 1970 00:00:00 +0000\r\n"));
	ck_assert(strstr(one, "\r\nTo: <ann@example.org>\r\n"));
	ck_assert(strstr(one, "\r\nList-Unsubscribe: <https://catan.example.org/v1/mail/unsubscribe?code=x>\r\n"));
	ck_assert(strstr(one, "\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"));
	ck_assert(strstr(one, "Content-Type: multipart/alternative; boundary="));
	/* Lines: CRLF only, at most 998 characters (RFC 5322 2.1.1). */
	size_t line = 0;
	for (const char *c = one; *c; c++) {
		if (*c == '\n')
			ck_assert_msg(c > one && c[-1] == '\r', "a bare LF at %ld", (long)(c - one));
		line = *c == '\n' ? 0 : line + 1;
		ck_assert(line <= 998);
	}
	ck_assert_msg(!strstr(one, "Bcc:") && !strstr(one, "\r\n.\r\n") && !strstr(one, "_0000000000000000"),
		      "no client text raw on the wire");
	char *plain = part(one, "Content-Type: text/plain; charset=utf-8");
	ck_assert_msg(strstr(plain, "Ann: your turn.\r\n") && strstr(plain, "\xc3\x84rger \xe2\x80\x94 UTF-8\r\n"),
		      "the text part decodes: %s", plain);
	char *html = part(one, "Content-Type: text/html; charset=utf-8");
	ck_assert_str_eq(html, "<p>Ann &amp; Bob</p>\r\n");
	char id_one[200], id_two[200];
	ck_assert(sscanf(strstr(one, "Message-ID: "), "Message-ID: %199s", id_one) == 1);
	ck_assert(sscanf(strstr(two, "Message-ID: "), "Message-ID: %199s", id_two) == 1);
	ck_assert_msg(strcmp(id_one, id_two) != 0 && strstr(id_one, "@example.org>"), "unique Message-IDs: %s", id_one);
	free(plain);
	free(html);
	free(one);
	free(two);
	/* Without an unsubscribe link (never for a turn mail), no List-Unsubscribe headers. */
	content.unsubscribe_url = NULL;
	one = mail_message(&content);
	ck_assert_int_eq(header_count(one, "List-Unsubscribe"), 0);
	free(one);
}
END_TEST

START_TEST(test_html_text_is_escaped)
{
	struct xtext out = xtext_new();
	mail_text_add_html(&out, "<script>\"a\" & b</script>\nnext");
	ck_assert_str_eq(out.data, "&lt;script&gt;&quot;a&quot; &amp; b&lt;/script&gt;<br>\nnext");
	free(out.data);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("mail");
	TCase *tcase = tcase_create("mail");
	tcase_add_test(tcase, test_plain_addresses_pass_and_anything_that_could_forge_a_header_or_recipient_does_not);
	tcase_add_test(tcase, test_the_masked_address_keeps_the_first_character_and_the_domain);
	tcase_add_test(tcase, test_a_code_matches_only_its_registration_secret_and_purpose);
	tcase_add_test(tcase,
		       test_a_message_has_every_header_once_crlf_lines_and_base64_parts_that_decode_to_the_texts);
	tcase_add_test(tcase, test_html_text_is_escaped);
	suite_add_tcase(suite, tcase);
	return suite;
}
