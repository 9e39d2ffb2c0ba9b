/*
 * destination.h - where the server may send webhooks: a check of the URL when a webhook is
 * registered, and of every address at the moment of connecting.
 *
 * Anyone can create a game and register a webhook, so a webhook URL is a stranger asking
 * the server to make requests on its behalf. Unless the operator allows private targets
 * (WEBHOOK_ALLOW_PRIVATE=1, for tests and on-premise receivers), a webhook may not reach
 * loopback, private, shared, link-local, multicast, reserved or documentation addresses,
 * nor any address of this machine's own interfaces. The URL check refuses what it can see
 * (credentials, IP literals, localhost); the connect-time check sees the address DNS gave,
 * so a name that resolves (or later re-resolves) to an inner address is refused too.
 */
#ifndef CATAN_DELIVER_DESTINATION_H
#define CATAN_DELIVER_DESTINATION_H

#include <stddef.h>
#include <sys/socket.h>

/* 1 when `url` may be registered: http or https, a host, no user or password, no inner
 * address written as an IP literal or localhost (unless allow_private). Else 0 with the
 * reason in `why`. */
int destination_url_allowed(const char *url, int allow_private, char *why, size_t why_size);

/* 1 when a connection to `address` is allowed (always, with allow_private). */
int destination_address_allowed(const struct sockaddr *address, int allow_private);

#endif
