/*
 * mail_in.c - a mail that came in, read with GMime (deliver/mail_in.h).
 *
 * GMime does the MIME: the header's encoded words and folding, multiparts, the transfer
 * encodings (quoted-printable, base64) and charsets (converted to UTF-8 with its charset
 * filter). This file chooses what to read: the first text/plain part that is no
 * attachment, else the first text/html one (as rough text); never a part inside an
 * attached message (message/rfc822: GMime's walk does not enter them).
 *
 * Then the reply's own lines. Mail clients quote in a few shapes:
 *   Gmail, Apple Mail, Thunderbird, mutt: an attribution ("On <date>, <name> wrote:",
 *     Gmail wraps it on two lines when long) and the original quoted with '>'; the reply
 *     above (top-posted) or below (bottom-posted), or between quoted lines;
 *   Outlook: "-----Original Message-----" or a line of underscores, then "From:",
 *     "Sent:", ... and the original NOT quoted: everything from there on goes;
 *   signatures after "-- " (RFC 3676), phones' "Sent from my iPhone" footers.
 * Quoted lines and attributions are dropped wherever they are (so a bottom-posted reply
 * keeps its lines); an Outlook original, a signature or a footer ends the text.
 *
 * Loops: a mail is automatic when it says so (Auto-Submitted other than "no", RFC 3834),
 * by Precedence (bulk, junk, list), or by the vacation programs' X-Autoreply/X-Autorespond;
 * a bounce when it comes from MAILER-DAEMON or postmaster, or is a multipart/report. The
 * caller answers neither.
 */
#include "deliver/mail_in.h"

#include <gmime/gmime.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* ---- Text ------------------------------------------------------------------------------- */

static int prefix_nocase(const char *text, const char *prefix)
{
	return g_ascii_strncasecmp(text, prefix, strlen(prefix)) == 0;
}

static int ends_with(const char *text, size_t length, const char *suffix)
{
	size_t n = strlen(suffix);
	while (length > 0 && (text[length - 1] == ' ' || text[length - 1] == '\t' || text[length - 1] == '\r'))
		length--;
	return length >= n && g_ascii_strncasecmp(text + length - n, suffix, n) == 0;
}

static const char *skip_spaces(const char *text)
{
	while (*text == ' ' || *text == '\t')
		text++;
	return text;
}

/* An attribution line: "On ... wrote:" and its kin in a few languages. */
static int attribution(const char *line, size_t length)
{
	return ends_with(line, length, "wrote:") ||
	       ends_with(line, length,
			 "a \xc3\xa9"
			 "crit :") ||
	       ends_with(line, length, "schrieb:") || ends_with(line, length, "escribi\xc3\xb3:");
}

static int starts_attribution(const char *line)
{
	return prefix_nocase(line, "On ") || prefix_nocase(line, "Le ") || prefix_nocase(line, "Am ") ||
	       prefix_nocase(line, "El ");
}

/* A line that ends the reply's text. */
static int ends_reply(const char *line, size_t length, const char *next, size_t next_length)
{
	if ((length == 3 && strncmp(line, "-- ", 3) == 0) || (length == 2 && strncmp(line, "--", 2) == 0))
		return 1;
	const char *text = skip_spaces(line);
	if (prefix_nocase(text, "-----Original Message-----") || prefix_nocase(text, "----- Original Message"))
		return 1;
	if (prefix_nocase(text, "________________________________"))
		return 1;
	if (prefix_nocase(text, "Sent from my ") || prefix_nocase(text, "Get Outlook for ") ||
	    prefix_nocase(text, "Sent from Mail for ") || prefix_nocase(text, "Sent from Outlook"))
		return 1;
	/* Outlook without its marker: "From: ..." then "Sent: ..." or "Date: ..." */
	if ((prefix_nocase(text, "From: ") || prefix_nocase(text, "*From:*")) && next &&
	    (prefix_nocase(skip_spaces(next), "Sent: ") || prefix_nocase(skip_spaces(next), "Date: ") ||
	     prefix_nocase(skip_spaces(next), "*Sent:*")))
		return 1;
	(void)next_length;
	return 0;
}

char *mail_in_reply_text(const char *text)
{
	struct xtext out = xtext_new();
	const char *line = text;
	int skip_next = 0;
	while (*line) {
		const char *end = strchr(line, '\n');
		size_t length = end ? (size_t)(end - line) : strlen(line);
		while (length > 0 && line[length - 1] == '\r')
			length--;
		const char *next = end ? end + 1 : NULL;
		size_t next_length = 0;
		if (next) {
			const char *next_end = strchr(next, '\n');
			next_length = next_end ? (size_t)(next_end - next) : strlen(next);
			while (next_length > 0 && next[next_length - 1] == '\r')
				next_length--;
			if (!*next)
				next = NULL;
		}
		if (skip_next) {
			skip_next = 0;
		} else if (ends_reply(line, length, next, next_length)) {
			break;
		} else if (*skip_spaces(line) == '>') {
			/* quoted */
		} else if (starts_attribution(line) && attribution(line, length)) {
			/* "On ... wrote:" */
		} else if (starts_attribution(line) && next && attribution(next, next_length) &&
			   *skip_spaces(next) != '>') {
			skip_next = 1; /* an attribution wrapped on two lines */
		} else {
			xtext_add(&out, "%.*s\n", (int)length, line);
		}
		if (!end)
			break;
		line = end + 1;
	}
	return out.data;
}

/* ---- HTML ------------------------------------------------------------------------------- */

static int tag_is(const char *tag, const char *name)
{
	size_t n = strlen(name);
	if (*tag == '/')
		tag++;
	return g_ascii_strncasecmp(tag, name, n) == 0 &&
	       (tag[n] == '>' || tag[n] == ' ' || tag[n] == '/' || tag[n] == '\t' || tag[n] == '\n' || tag[n] == '\r');
}

static const struct {
	const char *entity;
	const char *text;
} entities[] = {{"&amp;", "&"}, {"&lt;", "<"},	 {"&gt;", ">"},	  {"&quot;", "\""},
		{"&#39;", "'"}, {"&apos;", "'"}, {"&nbsp;", " "}, {"&#160;", " "}};

char *mail_in_html_text(const char *html)
{
	struct xtext out = xtext_new();
	const char *at = html;
	int dropped = 0; /* depth inside head, style, script, blockquote */
	while (*at) {
		if (*at == '<') {
			const char *tag = at + 1;
			const char *close = strchr(at, '>');
			if (!close)
				break;
			if (strncmp(tag, "!--", 3) == 0) {
				const char *comment_end = strstr(tag, "-->");
				at = comment_end ? comment_end + 3 : tag + strlen(tag);
				continue;
			}
			int closing = *tag == '/';
			if (tag_is(tag, "head") || tag_is(tag, "style") || tag_is(tag, "script") ||
			    tag_is(tag, "blockquote")) {
				dropped += closing ? -1 : 1;
				if (dropped < 0)
					dropped = 0;
			} else if (!dropped && (tag_is(tag, "br") || tag_is(tag, "p") || tag_is(tag, "div") ||
						tag_is(tag, "li") || tag_is(tag, "tr") || tag_is(tag, "pre"))) {
				xtext_add(&out, "\n");
			}
			at = close + 1;
			continue;
		}
		if (dropped) {
			at++;
			continue;
		}
		if (*at == '&') {
			int matched = 0;
			for (size_t i = 0; i < sizeof entities / sizeof entities[0]; i++)
				if (prefix_nocase(at, entities[i].entity)) {
					xtext_add(&out, "%s", entities[i].text);
					at += strlen(entities[i].entity);
					matched = 1;
					break;
				}
			if (matched)
				continue;
		}
		if (*at == '\r' || *at == '\n') {
			xtext_add(&out, " ");
			at++;
			continue;
		}
		xtext_add(&out, "%c", *at);
		at++;
	}
	return out.data;
}

/* ---- MIME ------------------------------------------------------------------------------- */

struct walk {
	GMimePart *plain, *html;
};

static void find_text(GMimeObject *parent, GMimeObject *part, gpointer user)
{
	(void)parent;
	struct walk *walk = user;
	if (!GMIME_IS_PART(part) || g_mime_part_is_attachment(GMIME_PART(part)))
		return;
	GMimeContentType *type = g_mime_object_get_content_type(part);
	if (!walk->plain && g_mime_content_type_is_type(type, "text", "plain"))
		walk->plain = GMIME_PART(part);
	else if (!walk->html && g_mime_content_type_is_type(type, "text", "html"))
		walk->html = GMIME_PART(part);
}

/* The part's content decoded and in UTF-8. Caller frees. */
static char *part_text(GMimePart *part)
{
	GMimeDataWrapper *content = g_mime_part_get_content(part);
	if (!content)
		return xstrdup("");
	GMimeStream *memory = g_mime_stream_mem_new();
	GMimeStream *filtered = g_mime_stream_filter_new(memory);
	const char *charset = g_mime_object_get_content_type_parameter(GMIME_OBJECT(part), "charset");
	if (charset && g_ascii_strcasecmp(charset, "utf-8") != 0 && g_ascii_strcasecmp(charset, "us-ascii") != 0) {
		GMimeFilter *filter = g_mime_filter_charset_new(charset, "utf-8");
		if (filter) {
			g_mime_stream_filter_add(GMIME_STREAM_FILTER(filtered), filter);
			g_object_unref(filter);
		}
	}
	g_mime_data_wrapper_write_to_stream(content, filtered);
	g_mime_stream_flush(filtered);
	GByteArray *bytes = g_mime_stream_mem_get_byte_array(GMIME_STREAM_MEM(memory));
	char *text = xmalloc(bytes->len + 1);
	if (bytes->len)
		memcpy(text, bytes->data, bytes->len);
	text[bytes->len] = '\0';
	/* A NUL inside ends the text, as it would any C reader's. */
	g_object_unref(filtered);
	g_object_unref(memory);
	return text;
}

static void copy_address(char *out, const char *address)
{
	snprintf(out, MAIL_IN_ADDRESS_SIZE, "%s", address ? address : "");
}

static void add_recipients(struct mail_in *in, InternetAddressList *list)
{
	if (!list)
		return;
	int count = internet_address_list_length(list);
	for (int i = 0; i < count && in->recipient_count < MAIL_IN_RECIPIENTS_MAX; i++) {
		InternetAddress *address = internet_address_list_get_address(list, i);
		if (INTERNET_ADDRESS_IS_MAILBOX(address))
			copy_address(in->recipients[in->recipient_count++],
				     internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(address)));
	}
}

static int header_has(GMimeObject *object, const char *name, const char *const values[])
{
	const char *value = g_mime_object_get_header(object, name);
	if (!value)
		return 0;
	value = skip_spaces(value);
	if (!values)
		return 1;
	for (int i = 0; values[i]; i++)
		if (prefix_nocase(value, values[i]))
			return 1;
	return 0;
}

/* Authentication-Results of `servid` (RFC 8601): its first token before ';'. */
static int authenticated(GMimeObject *object, const char *servid)
{
	GMimeHeaderList *headers = g_mime_object_get_header_list(object);
	int count = g_mime_header_list_get_count(headers), vouched = 0;
	for (int i = 0; i < count; i++) {
		GMimeHeader *header = g_mime_header_list_get_header_at(headers, i);
		if (g_ascii_strcasecmp(g_mime_header_get_name(header), "Authentication-Results") != 0)
			continue;
		const char *value = skip_spaces(g_mime_header_get_value(header));
		size_t n = strlen(servid);
		if (g_ascii_strncasecmp(value, servid, n) != 0 || (value[n] != ';' && value[n] != ' '))
			continue;
		char *lower = g_ascii_strdown(value, -1);
		int pass = strstr(lower, "dkim=pass") || strstr(lower, "spf=pass");
		int fail = strstr(lower, "dmarc=fail") != NULL;
		g_free(lower);
		if (fail)
			return 0;
		vouched |= pass;
	}
	return vouched;
}

int mail_in_parse(const char *data, size_t size, const char *auth_servid, struct mail_in *out)
{
	static int initialised;
	if (!initialised) {
		g_mime_init();
		initialised = 1;
	}
	memset(out, 0, sizeof *out);
	out->text = xstrdup("");
	if (size > MAIL_IN_MAX_BYTES)
		return 0;
	GMimeStream *stream = g_mime_stream_mem_new_with_buffer(data, size);
	GMimeParser *parser = g_mime_parser_new_with_stream(stream);
	GMimeMessage *message = g_mime_parser_construct_message(parser, NULL);
	g_object_unref(parser);
	g_object_unref(stream);
	if (!message)
		return 0;
	GMimeObject *object = GMIME_OBJECT(message);
	InternetAddressList *from = g_mime_message_get_from(message);
	if (from && internet_address_list_length(from) > 0) {
		InternetAddress *address = internet_address_list_get_address(from, 0);
		if (INTERNET_ADDRESS_IS_MAILBOX(address))
			copy_address(out->from, internet_address_mailbox_get_addr(INTERNET_ADDRESS_MAILBOX(address)));
	}
	const char *id = g_mime_message_get_message_id(message);
	if (id && *id)
		snprintf(out->message_id, sizeof out->message_id, "<%.250s>", id);
	add_recipients(out, g_mime_message_get_addresses(message, GMIME_ADDRESS_TYPE_TO));
	add_recipients(out, g_mime_message_get_addresses(message, GMIME_ADDRESS_TYPE_CC));
	const char *const envelope[] = {"Delivered-To", "X-Original-To", NULL};
	for (int i = 0; envelope[i]; i++) {
		const char *value = g_mime_object_get_header(object, envelope[i]);
		if (value && out->recipient_count < MAIL_IN_RECIPIENTS_MAX) {
			InternetAddressList *list = internet_address_list_parse(NULL, value);
			if (list) {
				add_recipients(out, list);
				g_object_unref(list);
			} else {
				copy_address(out->recipients[out->recipient_count++], skip_spaces(value));
			}
		}
	}
	const char *const not_no[] = {"auto-generated", "auto-replied", "auto-notified", NULL};
	const char *const bulk[] = {"bulk", "junk", "list", NULL};
	const char *auto_submitted = g_mime_object_get_header(object, "Auto-Submitted");
	out->automatic = (auto_submitted && g_ascii_strncasecmp(skip_spaces(auto_submitted), "no", 2) != 0) ||
			 header_has(object, "Auto-Submitted", not_no) || header_has(object, "Precedence", bulk) ||
			 header_has(object, "X-Autoreply", NULL) || header_has(object, "X-Autorespond", NULL);
	GMimeObject *body = g_mime_message_get_mime_part(message);
	GMimeContentType *type = body ? g_mime_object_get_content_type(body) : NULL;
	out->bounce = prefix_nocase(out->from, "mailer-daemon@") || prefix_nocase(out->from, "postmaster@") ||
		      (type && g_mime_content_type_is_type(type, "multipart", "report"));
	const char *return_path = g_mime_object_get_header(object, "Return-Path");
	if (return_path && strcmp(skip_spaces(return_path), "<>") == 0)
		out->bounce = 1;
	out->authenticated = auth_servid ? authenticated(object, auth_servid) : 0;
	struct walk walk = {NULL, NULL};
	if (body)
		g_mime_message_foreach(message, find_text, &walk);
	if (walk.plain || walk.html) {
		char *raw = part_text(walk.plain ? walk.plain : walk.html);
		char *text = raw;
		if (!walk.plain) {
			text = mail_in_html_text(raw);
			free(raw);
		}
		free(out->text);
		out->text = mail_in_reply_text(text);
		free(text);
	}
	g_object_unref(message);
	return 1;
}

void mail_in_free(struct mail_in *in)
{
	free(in->text);
	in->text = NULL;
}
