/*
 * mail_smtp.h - one mail handed to the relay over SMTP (libcurl): the transport of the
 * outbox's mails (deliver/mail.c) and of the answers to mailed moves (cmd/catan_mail_in.c).
 *
 * Ownership: every argument borrowed for the call; `curl` is the caller's handle (reset
 * here), reused across calls for its connection cache.
 */
#ifndef CATAN_DELIVER_MAIL_SMTP_H
#define CATAN_DELIVER_MAIL_SMTP_H

#include <curl/curl.h>
#include <stddef.h>

struct mail_smtp {
	const char *url;      /* smtp://relay:25, smtps://relay:465 */
	const char *user;     /* NULL: no credentials (then STARTTLS when offered) */
	const char *password; /* with user: STARTTLS is required */
	const char *from;     /* the envelope sender */
};

/* Send `message` (the whole RFC 5322 text) to `to`: 1 when the relay took it, else 0 with
 * a coarse reason in error (never the address, nor the relay's words). *reply: the last
 * SMTP code; *duration_ms: the time it took. */
int mail_smtp_send(CURL *curl, const struct mail_smtp *smtp, const char *to, const char *message, char *error,
		   size_t error_size, long *reply, int *duration_ms);

#endif
