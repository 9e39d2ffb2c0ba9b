/*
 * client.h - who a request comes from, as the service sees it: the one answer every
 * per-client limit (http/ratelimit.h, api/quotas.h) and the access log use.
 *
 * The client is the socket's peer, unless the peer is a proxy the operator trusts
 * (TRUSTED_PROXIES: addresses and CIDR ranges, comma-separated). A trusted proxy reports
 * whom it serves in X-Forwarded-For (HAProxy's `option forwardfor`, nginx's
 * `proxy_add_x_forwarded_for`): each hop appends the address it received the request
 * from, so the list is read from the right, skipping trusted hops, and the first address
 * that is not a trusted proxy is the client. Entries to its left were written by that
 * client and are never believed. X-Forwarded-For from a peer that is not trusted is
 * ignored, and so is everything left of an entry that is not a plain IP address (the
 * client is then the last trusted hop: a shared key, never a key the sender chose).
 *
 * The key a quota counts by is the address, except that an IPv6 client is keyed by its
 * /64: one subscriber gets a /64 (or more) and could otherwise take a fresh address for
 * every request. IPv4 inside IPv6 (::ffff:a.b.c.d, a dual-stack socket) is the IPv4.
 */
#ifndef CATAN_HTTP_CLIENT_H
#define CATAN_HTTP_CLIENT_H

#include <stddef.h>
#include <sys/socket.h>

/* Room for an address as text (INET6_ADDRSTRLEN) and for a key ("ip6:<prefix>/64"). */
#define CLIENT_ADDRESS_SIZE 48
#define CLIENT_KEY_SIZE 56

/* Trust X-Forwarded-For from these peers: `list` is "10.0.0.0/8,192.0.2.7,2001:db8::/32"
 * (spaces around entries allowed; NULL or "" trusts nobody). Call once at start, before
 * serving. 0 with a message on stderr when an entry is malformed (nothing is trusted then). */
int client_configure(const char *list);

/* The client of a request from socket peer `peer` (NULL: unknown) whose X-Forwarded-For
 * headers, in the order received and joined with ",", are `forwarded` (NULL: none): its
 * address as text into `address` (CLIENT_ADDRESS_SIZE; "unknown" without a peer) and its
 * quota key into `key` (CLIENT_KEY_SIZE). `via` (CLIENT_ADDRESS_SIZE, may be NULL) gets
 * the peer's address when the client is another (a proxy forwarded it), else "". */
void client_identify(const struct sockaddr *peer, const char *forwarded, char *address, char *key, char *via);

#endif
