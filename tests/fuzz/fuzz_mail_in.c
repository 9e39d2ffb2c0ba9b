/*
 * fuzz_mail_in.c - libFuzzer target: a mail that comes in (deliver/mail_in.c), the bytes
 * Postfix hands catan-mail-in on stdin, read with GMime, and the two text passes on their
 * own (HTML as text, the reply's own lines) on the input NUL-cut.
 *
 * Oracles: parsing never fails to return; the addresses and the message id are
 * NUL-terminated within their arrays; the reply's text never holds a CRLF nor a line that
 * starts with '>' (quoted), nor more bytes than its input had plus one line end a line;
 * the HTML pass never writes a '<' it did not decode from an entity's "&lt;" (so no
 * markup survives); and mail_commands_next_line() walks any text to its end.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "deliver/mail_in.h"
#include "game/mail_commands.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_reply_text(const char *text, size_t input_size)
{
	size_t lines = 1;
	for (const char *c = text; *c; c++) {
		if (*c == '\r' && c[1] == '\n')
			abort();
		if (*c == '\n')
			lines++;
	}
	if (strlen(text) > input_size + lines)
		abort();
	for (const char *line = text; *line;) {
		const char *at = line;
		while (*at == ' ' || *at == '\t')
			at++;
		if (*at == '>')
			abort();
		const char *end = strchr(line, '\n');
		if (!end)
			break;
		line = end + 1;
	}
	const char *cursor = text;
	char line[MAIL_COMMANDS_LINE_MAX + 2];
	size_t walked = 0;
	while (mail_commands_next_line(&cursor, line, sizeof line))
		if (++walked > lines)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mail_in in;
	mail_in_parse((const char *)data, size, "mx.catan.test", &in);
	if (!memchr(in.from, '\0', sizeof in.from) || !memchr(in.message_id, '\0', sizeof in.message_id))
		abort();
	for (int i = 0; i < in.recipient_count; i++)
		if (!memchr(in.recipients[i], '\0', sizeof in.recipients[i]))
			abort();
	for (const char *c = in.text; *c; c++)
		if (*c == '\r' && c[1] == '\n')
			abort();
	mail_in_free(&in);

	char *text = malloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	char *reply = mail_in_reply_text(text);
	check_reply_text(reply, strlen(text));
	free(reply);
	char *plain = mail_in_html_text(text);
	size_t decoded = 0;
	for (const char *at = text; *at; at++)
		decoded += strncasecmp(at, "&lt;", 4) == 0; /* entities are decoded in any case */
	for (const char *c = plain; *c; c++)
		if (*c == '<' && decoded-- == 0)
			abort();
	free(plain);
	free(text);
	return 0;
}
