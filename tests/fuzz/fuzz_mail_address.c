/*
 * fuzz_mail_address.c - libFuzzer target: the body of POST /v1/games/{id}/mail and
 * POST /v1/players/me/mail, and the address in the mail it is sent.
 *
 * What it reaches: the input as a body, read as service_body() reads one and then by
 * registration_read_mail() (api/registration.c), the function both handlers call (known
 * members, address present, a string, mail_address_valid() of deliver/mail_message.c); and the
 * input itself, NUL-cut, as an address straight into mail_address_valid(), so the address
 * rules see any bytes, not only those a JSON string can hold. An accepted address goes
 * into mail_mask() (what GET .../mail answers) and mail_message() as the To of a mail
 * (deliver/mail_message.c), as the delivery thread builds it.
 *
 * Oracles: a refusal is a 400 naming address (or the unknown member) with a UTF-8 detail
 * and a problem body; an accepted address is one plain addr-spec: at most 254 bytes, one
 * "@" with a local part and a domain of at least two labels, and none of CR, LF, space,
 * tab, comma, semicolon, colon, quotes, angle brackets, parentheses, backslash or any
 * byte above 0x7e; its mask holds none of those either; and the mail built for it has
 * exactly the headers the service writes, with the address once, in To, so an address
 * can neither end a header nor add a recipient.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deliver/mail_message.h"
#include "api/registration.h"
#include "tests/fuzz/fuzz_support.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *text)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, text ? text : "(null)");
	abort();
}

static int plain(const char *text)
{
	for (const unsigned char *c = (const unsigned char *)text; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f || strchr(",;:\"<>()[]\\", *c))
			return 0;
	return 1;
}

/* The headers of the mail to `address`: each line of the head, checked. */
static void check_mail(const char *address)
{
	struct mail_content content = {"catan@example.org",
				       address,
				       "Your turn in Catan game 0123456789abcdef",
				       "text\n",
				       "<p>html</p>\n",
				       "https://catan.example.org/v1/mail/unsubscribe?code=x",
				       1,
				       1700000000,
				       NULL,
				       NULL};
	char *message = mail_message(&content);
	const char *end = strstr(message, "\r\n\r\n");
	if (!end)
		fail("a mail without a head", address);
	static const char *const names[] = {"From:",
					    "To:",
					    "Subject:",
					    "Date:",
					    "Message-ID:",
					    "MIME-Version:",
					    "List-Unsubscribe:",
					    "List-Unsubscribe-Post:",
					    "Auto-Submitted:",
					    "Content-Type:",
					    NULL};
	int lines = 0;
	for (const char *line = message; line < end; lines++) {
		const char *stop = strstr(line, "\r\n");
		int known = 0;
		for (int i = 0; names[i]; i++)
			known |= strncmp(line, names[i], strlen(names[i])) == 0;
		if (!known)
			fail("a mail header the service does not write", address);
		line = stop + 2;
	}
	if (lines != 10)
		fail("a mail with another number of header lines", address);
	/* The address as a mailbox, "<address>": in To, and in From only when it is the
	 * sender's own. */
	char to[300], mailbox[300];
	snprintf(to, sizeof to, "\r\nTo: <%s>\r\n", address);
	snprintf(mailbox, sizeof mailbox, "<%s>", address);
	int found = 0;
	for (const char *at = strstr(message, mailbox); at; at = strstr(at + 1, mailbox))
		found++;
	if (!strstr(message, to) || found != 1 + (strcmp(address, content.from) == 0))
		fail("the address not once, in To", address);
	free(message);
}

static void check_address(const char *address)
{
	size_t length = strlen(address);
	const char *at = strchr(address, '@');
	if (length == 0 || length > MAIL_ADDRESS_MAX || !at || at == address || strchr(at + 1, '@') ||
	    !strchr(at + 1, '.') || !plain(address))
		fail("an accepted address that is not one plain addr-spec", address);
	char masked[MAIL_ADDRESS_MAX + 8];
	mail_mask(address, masked, sizeof masked);
	if (!plain(masked) || !strstr(masked, "***@"))
		fail("a mask that is not plain", masked);
	check_mail(address);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The bytes as an address, up to the first NUL. */
	char *raw = malloc(size + 1);
	memcpy(raw, data, size);
	raw[size] = '\0';
	char why[200];
	if (mail_address_valid(raw, why, sizeof why))
		check_address(raw);
	else
		fuzz_expect_utf8("the address rule", why);
	free(raw);

	/* The bytes as a body. */
	json_error_t error;
	json_t *body = json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, &error);
	if (!json_is_object(body)) {
		json_decref(body);
		return 0;
	}
	const char *address = NULL;
	struct problem_refusal refusal;
	if (registration_read_mail(body, &address, &refusal)) {
		check_address(address);
	} else {
		if (refusal.problem != PROBLEM_UNKNOWN_FIELD && refusal.problem != PROBLEM_MISSING_FIELD &&
		    refusal.problem != PROBLEM_INVALID_FIELD)
			fail("a refusal that is not a 400 about a member", refusal.detail);
		if (!refusal.field ||
		    (strcmp(refusal.field, "address") != 0 && refusal.problem != PROBLEM_UNKNOWN_FIELD) ||
		    (refusal.problem == PROBLEM_UNKNOWN_FIELD && !json_object_get(body, refusal.field)))
			fail("a refusal naming no member of the body", refusal.field);
		fuzz_expect_utf8("a refusal's detail", refusal.detail);
		fuzz_expect_problem("/v1/games/0123456789abcdef/mail", problem_code(refusal.problem),
				    problem_status(refusal.problem), problem_title(refusal.problem), refusal.detail,
				    refusal.field);
	}
	json_decref(body);
	return 0;
}
