/*
 * mail_message.h - the parts of "your turn" mails (issue 15), without any I/O: addresses
 * and their masked form, the codes of the mails' links, and the message itself (RFC 5322,
 * MIME). For the mail registrations' handlers (api/handlers_mail.c) and the mail format of
 * delivery (deliver/mail.c, which sends them over SMTP).
 *
 * A registration is a webhook of format "mail" (game/mailing.h): the delivery threads
 * claim its outbox rows like any other, so mails get the outbox's crash safety, retries,
 * backoff and delivery log. The address is private: it goes into the SMTP envelope and
 * the To header, nowhere else (not in any log, answer or delivery).
 */
#ifndef CATAN_DELIVER_MAIL_MESSAGE_H
#define CATAN_DELIVER_MAIL_MESSAGE_H

#include <stddef.h>
#include <stdint.h>

#include "base/xalloc.h"
#include "game/mailing.h"

#define MAIL_ADDRESS_MAX 254
#define MAIL_CODE_SIZE 72 /* a link's code as text: 16 hex digits, ".", 43 base64url, NUL (rounded up) */
#define MAIL_CONFIRM_EXPIRES_S (24 * 3600)

/* What a link's code is for: each purpose has its own code. */
enum mail_purpose { MAIL_CONFIRM, MAIL_UNSUBSCRIBE };

/* 1 when `address` is one plain addr-spec (dot-atom local part @ a domain of DNS labels),
 * at most MAIL_ADDRESS_MAX bytes; else 0 with the rule in why. */
int mail_address_valid(const char *address, char *why, size_t why_size);

/* The address as the registrant's view shows it: its first character, "***@", the domain
 * ("a***@example.org"). */
void mail_mask(const char *address, char *out, size_t size);

/* The code of registration `id` for `purpose`: "<id in hex>.<base64url HMAC-SHA256 of the
 * purpose under the registration's secret>". */
void mail_code(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
	       char out[MAIL_CODE_SIZE]);

/* The registration id a code names (1), or 0 when it is malformed. The code is only valid
 * when mail_code_matches() says so with that registration's secret. */
int mail_code_id(const char *code, int64_t *id);
int mail_code_matches(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
		      const char *code);

/* What a mail says; every pointer borrowed. */
struct mail_content {
	const char *from, *to, *subject;
	const char *text;	     /* the plain-text part (UTF-8, lines by \n) */
	const char *html;	     /* the HTML part */
	const char *unsubscribe_url; /* List-Unsubscribe (RFC 8058), or NULL */
	int64_t unique;		     /* part of the Message-ID */
	int64_t date_s;		     /* the Date header, Unix seconds */
	const char *reply_to;	     /* Reply-To: a move's reply address (deliver/mail_reply.h), or NULL */
	const char *in_reply_to;     /* In-Reply-To and References: a message id with its <>, or NULL */
};

/* The whole message (RFC 5322, MIME multipart/alternative, CRLF lines, parts in base64).
 * Caller frees. */
char *mail_message(const struct mail_content *content);

/* `text` as HTML character data or attribute value: escape_markup() (codec/escape.h: &, <,
 * >, " and ' as entities, controls and invisible characters as U+FFFD), \n as <br>. */
void mail_text_add_html(struct xtext *text, const char *text_to_add);

#endif
