/*
 * mail_sink.h - a mailbox for the mail tests: a local SMTP relay (tests/api/smtp_sink.py on
 * Debian's python3-aiosmtpd) that keeps every message it accepts as files NNNN.eml (the raw
 * message) and NNNN.txt (the envelope and the text part), numbered from 1 in the order they
 * arrived, in a temporary folder of its own; and the readers of those files.
 *
 * Every helper fails the test with Check's ck_assert_msg. Ownership: strings returned through
 * `char **` are the caller's to free; the rest is borrowed.
 */
#ifndef CATAN_TESTS_API_MAIL_SINK_H
#define CATAN_TESTS_API_MAIL_SINK_H

#include <stddef.h>
#include <sys/types.h>

/* How long a mail may take to arrive, before http_slowdown(). */
#define MAIL_SINK_TIMEOUT_S 40

struct mail_sink {
	pid_t pid; /* the relay's process; 0 when stopped */
	int port;  /* on 127.0.0.1 */
	char dir[256];
};

/* A port of 127.0.0.1 free now (bound and released: the relay binds it again), chosen
 * while the suite is made, before the server's settings; aborts when there is none. */
int mail_sink_free_port(void);

/* A new folder under TMPDIR and the relay on `port` writing into it, once it listens. */
void mail_sink_start(struct mail_sink *sink, int port);

/* The relay again on the same folder and port (after mail_sink_stop(): a relay back up). */
void mail_sink_run(struct mail_sink *sink);

/* Stop the relay (the folder stays, for a failure's post-mortem). */
void mail_sink_stop(struct mail_sink *sink);

/* How many mails arrived so far. */
int mail_sink_count(const struct mail_sink *sink);

/* Wait until `count` mails arrived (MAIL_SINK_TIMEOUT_S). */
void mail_sink_wait(const struct mail_sink *sink, int count);

/* A whole file (the test fails when it cannot be read). */
char *mail_read_file(const char *path);

/* Mail n's file of this extension: "eml" (the raw message) or "txt" (the envelope and the
 * text part). */
char *mail_sink_file(const struct mail_sink *sink, int n, const char *extension);

/* Mail n (1-based): the raw message and the envelope + text part. */
void mail_sink_read(const struct mail_sink *sink, int n, char **eml, char **txt);

/* When mail n arrived, Unix seconds (its received_at line). */
double mail_sink_received_at(const struct mail_sink *sink, int n);

/* The value of header `name` of a raw message (its head only) into out; NULL if absent. */
const char *mail_header(const char *eml, const char *name, char *out, size_t size);

/* The code of a link "<path>?code=" in text into out (the test fails when there is none). */
void mail_link_code(const char *text, const char *path, char *out, size_t size);

#endif
