/*
 * deliver.h - outbound notices: a game's events, "your turn" notes, table talk, chat
 * messages and mails, delivered from the outbox rows the appends wrote in their own
 * transactions (db/migrations/0002_async.sql, through game/outbox.h).
 *
 * Delivery threads (per server, on any number of servers) claim due rows with a lease and
 * hand each to the format of its registration: standard (signed Standard Webhooks POSTs,
 * deliver/standard.c), discord and slack (chat messages, deliver/chat.c) or mail (SMTP,
 * deliver/mail.c). What became of a row (delivered, retried with backoff, due again later)
 * and every attempt are recorded by one loop (deliver/deliver.c): the formats only say
 * which. Every attempt is logged; a failed one is retried after 1 s, 2 s, 4 s ... up to an
 * hour. Moves never wait for deliveries. Receivers are reached only at addresses
 * deliver/destination.h allows.
 *
 * The library knows nothing of HTTP requests: its settings are handed in at the start.
 */
#ifndef CATAN_DELIVER_DELIVER_H
#define CATAN_DELIVER_DELIVER_H

#include <stddef.h>
#include <stdint.h>

/* What delivery needs to know, copied by deliver_start() (the strings are borrowed for the
 * life of the process). */
struct deliver_config {
	int threads;		/* delivery threads (WEBHOOK_WORKERS) */
	int allow_private;	/* 1: receivers may be private or loopback addresses */
	const char *public_url; /* the server's base URL in links (NULL: http://listen:port) */
	const char *listen_address;
	int port;
	int channel_max_failures; /* failed attempts in a row that disable a chat webhook */
	const char *smtp_url;	  /* NULL: mail is off (rows wait for a server that has it) */
	const char *smtp_user;	  /* NULL: no credentials */
	const char *smtp_password;
	const char *mail_from;
	int mail_min_interval_s;       /* at least this long between two mails to one registration */
	const char *mail_reply_domain; /* NULL: turn mails carry no reply address */
	int mail_reply_expires_s;      /* how long a reply address moves */
};

/* Start config->threads delivery threads. */
void deliver_start(const struct deliver_config *config);

/* Stop them (after the row each is on). */
void deliver_stop(void);

#define DELIVER_SECRET_TEXT_SIZE 56 /* "whsec_" + base64 of 32 bytes (44) + NUL, rounded up */

/* The text form of a signing secret as Standard Webhooks writes it: "whsec_" + base64(key),
 * shown once to the registrant. */
void deliver_secret_text(const uint8_t key[32], char out[DELIVER_SECRET_TEXT_SIZE]);

/* Sign `body` as Standard Webhooks: out = "v1,<base64 HMAC-SHA256(key, id.timestamp.body)>". */
void deliver_sign(const uint8_t *key, size_t key_size, const char *id, long long timestamp, const char *body,
		  size_t body_size, char *out, size_t out_size);

#endif
