/*
 * mail_reply.h - the reply address of a "your turn" mail (issue 29): a capability to move
 * for one seat of one game, at the version the mail was written for or the next few of the
 * same turn, until it expires.
 *
 * The address is turn+<code>@<MAIL_REPLY_DOMAIN>; the code is base32 (RFC 4648 alphabet,
 * lower case, no padding: MTAs and people may change the case of a local part, so the code
 * reads back in either) of 35 bytes, big-endian:
 *
 *   registration id (8) | game id (8) | seat (1) | version (4) | expiry, Unix s (4) |
 *   HMAC-SHA256("reply:" + the 25 bytes before it) under the registration's secret,
 *   truncated to 10 bytes (80 bits)
 *
 * 56 characters, so the local part (61) stays within RFC 5321's 64. The secret is the
 * mail registration's (the one that keys its confirm and unsubscribe codes), never a token:
 * removing the registration, or registering another address, kills every reply address it
 * gave. The registration id tells which secret to check with; the game and seat are the
 * registration's own for a seat's registration, and one of the player's seats for a
 * player's (checked by the caller).
 */
#ifndef CATAN_DELIVER_MAIL_REPLY_H
#define CATAN_DELIVER_MAIL_REPLY_H

#include <stddef.h>
#include <stdint.h>

#include "game/mailing.h" /* STORE_WEBHOOK_SECRET_SIZE, the secret of a registration */

#define MAIL_REPLY_CODE_LENGTH 56
#define MAIL_REPLY_CODE_SIZE (MAIL_REPLY_CODE_LENGTH + 1)
#define MAIL_REPLY_PREFIX "turn+"

struct mail_reply_code {
	int64_t registration_id;
	int64_t game_id;
	int seat;
	int32_t version;
	int64_t expires_s; /* Unix seconds */
};

/* The code of `fields` under `secret`. */
void mail_reply_code(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const struct mail_reply_code *fields,
		     char out[MAIL_REPLY_CODE_SIZE]);

/* The fields a code names (1), or 0 when it is not the shape of a code. Only
 * mail_reply_code_matches() with the named registration's secret makes it valid. */
int mail_reply_code_read(const char *code, struct mail_reply_code *out);

/* 1 when `code` is the code of its fields under `secret` (compared in constant time). */
int mail_reply_code_matches(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], const char *code);

/* The code in an address "turn+<code>@domain" (any case; `domain` checked when not NULL),
 * into out: 1, or 0 when the address is not a reply address. */
int mail_reply_address_code(const char *address, const char *domain, char out[MAIL_REPLY_CODE_SIZE]);

#endif
