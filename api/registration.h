/*
 * registration.h - the bodies of registrations, read and checked without HTTP: a webhook
 * (POST /v1/games/{id}/webhooks, POST /v1/players/me/webhooks: url, events, format,
 * mentions, schedule, digest_hours) and a mail address (POST /v1/games/{id}/mail, POST /v1/players/me/mail:
 * address).
 *
 * The handlers (api/handlers_webhooks.c, api/handlers_player_webhooks.c,
 * api/handlers_mail.c) call these and answer a refusal as the problem it names; the fuzz
 * targets (tests/fuzz/fuzz_webhook_body.c, tests/fuzz/fuzz_mail_address.c) call the very
 * same functions, so what they reach is what a client reaches. Nothing here touches a
 * socket, the database or a random generator: the secret of a webhook is drawn by the
 * handler once the body is known to be good.
 *
 * Ownership: the body is borrowed; what the results point into (url, address, a refusal's
 * field naming an unknown member) lives as long as the body. out->mentions is the caller's
 * to free().
 */
#ifndef CATAN_API_REGISTRATION_H
#define CATAN_API_REGISTRATION_H

#include <jansson.h>

#include "http/problem.h"

#define REGISTRATION_URL_MAX 2048

/* A webhook registration's body, read. */
struct registration_webhook {
	const char *url;
	int your_turn_only;
	int format;	  /* enum store_webhook_format: standard, discord or slack */
	char *mentions;	  /* the mentions object as compact JSON text, or NULL */
	int digest_hours; /* 0: schedule "every_turn"; 1..168: "digest" at most that often */
};

#define REGISTRATION_DIGEST_HOURS 24 /* a digest's interval when the body names none */
#define REGISTRATION_DIGEST_HOURS_MAX 168

/* The members a webhook registration may have, NULL-terminated: what
 * registration_read_webhook() knows, and what a refusal of an unknown member lists. */
extern const char *const registration_webhook_members[];

/* Read a webhook registration: members url (an http:// or https:// URL of at most
 * REGISTRATION_URL_MAX characters whose destination deliver/destination.h allows, with private
 * targets when `allow_private`), events ("all", or "your_turn" when `for_seat`), format
 * ("standard", "discord", "slack"), mentions (chat formats only; keyed by seats below
 * `seats`; deliver/channels.h), schedule ("every_turn", or "digest" for chat formats) and
 * digest_hours (1..REGISTRATION_DIGEST_HOURS_MAX, with schedule "digest" only). 1 with *out set, or 0 with *refusal set
 * (out->mentions NULL). */
int registration_read_webhook(const json_t *body, int seats, int for_seat, int allow_private,
			      struct registration_webhook *out, struct problem_refusal *refusal);

/* Read a mail registration: the one member address, one plain mail address
 * (mail_address_valid(), deliver/mail_message.h). 1 with *address set, or 0 with *refusal set. */
int registration_read_mail(const json_t *body, const char **address, struct problem_refusal *refusal);

#endif
