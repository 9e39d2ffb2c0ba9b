/*
 * mail_message.c - what a mail is made of, without sending it: the rules for addresses,
 * the codes of the links, and the message itself (RFC 5322 headers, a MIME
 * multipart/alternative body with a text/plain and a text/html part, both in base64).
 *
 * Nothing a client wrote reaches a header unchecked. The address must be one plain
 * addr-spec: a dot-atom local part (letters, digits and !#$%&'*+/=?^_`{|}~- between single
 * dots) and a domain of at least two DNS labels, at most 254 bytes: no CR, LF, space,
 * comma, quote, angle bracket or comment can pass, so an address can neither end a header
 * nor name a second recipient. The subject is built from the game id and fixed words. The
 * bodies (names and chat-free summaries) travel in base64, so no line of theirs can look
 * like a MIME boundary or end the SMTP DATA. Player text (names, in the summaries) enters
 * the HTML part through codec/escape.h's escape_markup() only (mail_text_add_html()).
 *
 * Codes: "<registration id, 16 hex digits>.<base64url of HMAC-SHA256("confirm:<id>" or
 * "unsubscribe:<id>") under the registration's random secret>" - unguessable, never
 * stored, and dead once the registration (hence its secret) is gone.
 */
#include "deliver/mail_message.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/xalloc.h"
#include "codec/escape.h"
#include "game/auth.h"

/* ---- Addresses -------------------------------------------------------------------------- */

static int atom_char(unsigned char c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+/=?^_`{|}~-", c));
}

int mail_address_valid(const char *address, char *why, size_t why_size)
{
	const char *rule = "address is one plain mail address (local@domain.example), at most 254 characters, "
			   "without spaces, quotes, comments or display name";
	size_t length = address ? strlen(address) : 0;
	const char *at = address ? strrchr(address, '@') : NULL;
	int ok = length > 0 && length <= MAIL_ADDRESS_MAX && at && at != address && (size_t)(at - address) <= 64;
	/* The local part: a dot-atom. */
	for (const char *c = address; ok && c < at; c++)
		if (!(atom_char((unsigned char)*c) || (*c == '.' && c != address && c + 1 != at && c[1] != '.')))
			ok = 0;
	/* The domain: at least two DNS labels of letters, digits and inner hyphens. */
	int labels = 0;
	if (ok) {
		const char *label = at + 1;
		for (;;) {
			const char *end = strchr(label, '.');
			size_t size = end ? (size_t)(end - label) : strlen(label);
			if (size == 0 || size > 63 || label[0] == '-' || label[size - 1] == '-') {
				ok = 0;
				break;
			}
			for (size_t i = 0; i < size; i++)
				if (!(isalnum((unsigned char)label[i]) || label[i] == '-'))
					ok = 0;
			labels++;
			if (!end)
				break;
			label = end + 1;
		}
	}
	if (ok && labels < 2)
		ok = 0;
	if (!ok)
		snprintf(why, why_size, "%s", rule);
	return ok;
}

void mail_mask(const char *address, char *out, size_t size)
{
	const char *at = strrchr(address, '@');
	snprintf(out, size, "%c***%s", address[0], at ? at : "@");
}

/* ---- Codes ------------------------------------------------------------------------------ */

static void code_mac(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
		     char out[48])
{
	char message[48];
	snprintf(message, sizeof message, "%s:%lld", purpose == MAIL_CONFIRM ? "confirm" : "unsubscribe",
		 (long long)id);
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mac_size = 0;
	HMAC(EVP_sha256(), secret, STORE_WEBHOOK_SECRET_SIZE, (const unsigned char *)message, strlen(message), mac,
	     &mac_size);
	unsigned char encoded[48];
	EVP_EncodeBlock(encoded, mac, 32);
	/* base64url without padding: 43 characters. */
	size_t n = 0;
	for (; encoded[n] && encoded[n] != '=' && n < 47; n++)
		out[n] = encoded[n] == '+' ? '-' : encoded[n] == '/' ? '_' : (char)encoded[n];
	out[n] = '\0';
}

void mail_code(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
	       char out[MAIL_CODE_SIZE])
{
	char mac[48];
	code_mac(secret, id, purpose, mac);
	snprintf(out, MAIL_CODE_SIZE, "%016llx.%s", (unsigned long long)id, mac);
}

int mail_code_id(const char *code, int64_t *id)
{
	if (!code || strlen(code) != 16 + 1 + 43 || code[16] != '.')
		return 0;
	unsigned long long value = 0;
	for (int i = 0; i < 16; i++) {
		char c = code[i];
		int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (digit < 0)
			return 0;
		value = value << 4 | (unsigned)digit;
	}
	if (value == 0 || value > INT64_MAX)
		return 0;
	*id = (int64_t)value;
	return 1;
}

int mail_code_matches(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
		      const char *code)
{
	char expected[MAIL_CODE_SIZE];
	mail_code(secret, id, purpose, expected);
	size_t length = strlen(expected);
	if (strlen(code) != length)
		return 0;
	unsigned char difference = 0;
	for (size_t i = 0; i < length; i++)
		difference |= (unsigned char)(expected[i] ^ code[i]);
	return difference == 0;
}

/* ---- Messages --------------------------------------------------------------------------- */

/* `body` as base64 lines of 76 characters (57 bytes each), CRLF after each. */
static void add_base64(struct xtext *text, const char *body)
{
	size_t length = strlen(body);
	for (size_t at = 0; at < length; at += 57) {
		size_t take = length - at < 57 ? length - at : 57;
		unsigned char line[80];
		EVP_EncodeBlock(line, (const unsigned char *)body + at, (int)take);
		xtext_add(text, "%s\r\n", line);
	}
}

/* Text with \n lines as CRLF lines (the wire form of a text part). */
static char *crlf(const char *body)
{
	struct xtext out = xtext_new();
	for (const char *c = body; *c; c++)
		xtext_add(&out, *c == '\n' ? "\r\n" : "%c", *c);
	return out.data;
}

static void rfc5322_date(int64_t seconds, char *out, size_t size)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t t = (time_t)seconds;
	struct tm tm;
	gmtime_r(&t, &tm);
	snprintf(out, size, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday % 7], tm.tm_mday,
		 months[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

char *mail_message(const struct mail_content *content)
{
	uint64_t random = 0;
	if (!auth_random(&random, sizeof random))
		random = (uint64_t)time(NULL);
	const char *domain = strrchr(content->from, '@');
	domain = domain ? domain + 1 : "localhost";
	char date[64], boundary[64];
	rfc5322_date(content->date_s, date, sizeof date);
	snprintf(boundary, sizeof boundary, "=_catan_%016llx", (unsigned long long)random);
	struct xtext out = xtext_new();
	xtext_add(&out, "From: Catan <%s>\r\n", content->from);
	xtext_add(&out, "To: <%s>\r\n", content->to);
	xtext_add(&out, "Subject: %s\r\n", content->subject);
	xtext_add(&out, "Date: %s\r\n", date);
	xtext_add(&out, "Message-ID: <catan.%lld.%016llx@%s>\r\n", (long long)content->unique,
		  (unsigned long long)random, domain);
	xtext_add(&out, "MIME-Version: 1.0\r\n");
	/* Both are the service's own text (an address of base32 letters, a message id checked
	 * to be printable and bracketed by the caller), never a header line of their own. */
	if (content->reply_to && !strpbrk(content->reply_to, "\r\n"))
		xtext_add(&out, "Reply-To: <%s>\r\n", content->reply_to);
	if (content->in_reply_to && !strpbrk(content->in_reply_to, "\r\n")) {
		xtext_add(&out, "In-Reply-To: %s\r\n", content->in_reply_to);
		xtext_add(&out, "References: %s\r\n", content->in_reply_to);
	}
	if (content->unsubscribe_url) {
		xtext_add(&out, "List-Unsubscribe: <%s>\r\n", content->unsubscribe_url);
		xtext_add(&out, "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
	}
	xtext_add(&out, "Auto-Submitted: %s\r\n", content->in_reply_to ? "auto-replied" : "auto-generated");
	xtext_add(&out, "Content-Type: multipart/alternative; boundary=\"%s\"\r\n\r\n", boundary);
	char *text = crlf(content->text), *html = crlf(content->html);
	xtext_add(&out, "--%s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n",
		  boundary);
	add_base64(&out, text);
	xtext_add(&out, "--%s\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n",
		  boundary);
	add_base64(&out, html);
	xtext_add(&out, "--%s--\r\n", boundary);
	free(text);
	free(html);
	return out.data;
}

/* Text as HTML character data or attribute value: each line through the one markup
 * escape (codec/escape.h), the lines joined by <br>. */
void mail_text_add_html(struct xtext *out, const char *text)
{
	const char *line = text;
	for (;;) {
		const char *end = strchr(line, '\n');
		size_t length = end ? (size_t)(end - line) : strlen(line);
		char *raw = xmalloc(length + 1), *escaped = xmalloc(ESCAPE_SIZE(length));
		memcpy(raw, line, length);
		raw[length] = '\0';
		escape_markup(escaped, ESCAPE_SIZE(length), raw);
		xtext_add(out, "%s", escaped);
		free(escaped);
		free(raw);
		if (!end)
			break;
		xtext_add(out, "<br>\n");
		line = end + 1;
	}
}
