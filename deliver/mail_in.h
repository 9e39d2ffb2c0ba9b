/*
 * mail_in.h - a mail that came in (a reply to a "your turn" mail, issue 29), read with
 * GMime: who it is to and from, whether it is a person's reply at all (not an auto-reply
 * nor a bounce), whether the receiving MTA vouched for its sender, and the reply's own
 * text: the first text/plain part (or the HTML one, roughly as text), above or around the
 * quoted mail, without signature.
 *
 * The text functions (mail_in_html_text(), mail_in_reply_text()) need no GMime and are
 * exposed for the tests and the fuzz targets. Ownership: results the caller frees as each
 * function says; inputs borrowed.
 */
#ifndef CATAN_DELIVER_MAIL_IN_H
#define CATAN_DELIVER_MAIL_IN_H

#include <stddef.h>

#define MAIL_IN_ADDRESS_SIZE 256
#define MAIL_IN_RECIPIENTS_MAX 16
#define MAIL_IN_MAX_BYTES (8 * 1024 * 1024) /* a larger message is not read */

struct mail_in {
	char from[MAIL_IN_ADDRESS_SIZE];			       /* the From address, "" if none */
	char message_id[MAIL_IN_ADDRESS_SIZE];			       /* "<id>", "" if none */
	char recipients[MAIL_IN_RECIPIENTS_MAX][MAIL_IN_ADDRESS_SIZE]; /* To, Cc, Delivered-To, X-Original-To */
	int recipient_count;
	int automatic;	   /* Auto-Submitted (not "no"), Precedence bulk/junk/list, X-Autoreply, X-Autorespond */
	int bounce;	   /* from MAILER-DAEMON or postmaster, or a multipart/report (DSN, MDN) */
	int authenticated; /* Authentication-Results of the given authserv-id: dkim or spf pass, no dmarc fail */
	char *text;	   /* the reply's own text (mail_in_reply_text()), UTF-8; "" when none */
};

/* Read `size` bytes of one RFC 5322 message into *out (free with mail_in_free()), checking
 * Authentication-Results of `auth_servid` (NULL: not checked, authenticated 0). 0 when
 * the bytes are no message at all (*out then empty, still to be freed). */
int mail_in_parse(const char *data, size_t size, const char *auth_servid, struct mail_in *out);

void mail_in_free(struct mail_in *in);

/* HTML as rough text: tags dropped, <br>, <p>, <div>, <li>, <tr> as line ends, <head>,
 * <style>, <script> and <blockquote> (the quoted mail) dropped with their content, the
 * common entities decoded. Caller frees. */
char *mail_in_html_text(const char *html);

/* The reply's own text of a plain-text body: lines quoted with '>' dropped, attribution
 * lines ("On ... wrote:", also wrapped on two lines) dropped, and everything from a
 * signature ("-- "), an Outlook original ("-----Original Message-----", a line of
 * underscores, or a "From:" line followed by "Sent:"/"Date:"), or a phone's footer
 * ("Sent from my ...") on. CRLF as LF. Caller frees. */
char *mail_in_reply_text(const char *text);

#endif
