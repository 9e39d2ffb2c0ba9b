/*
 * connections.h - the connection guard: every open connection, what it is doing, and how
 * long it may take, so that idle or trickling clients cannot hold the server's capacity.
 *
 * libmicrohttpd's own timeout is an idle timeout: a client that sends one byte every few
 * seconds keeps a connection forever, and a thousand of them fill every slot. The guard
 * gives each phase of a connection an absolute deadline instead:
 *
 *   opened ----------> request headers complete within REQUEST_TIMEOUT_S
 *   answered --------> next request's headers complete within KEEPALIVE_TIMEOUT_S
 *   headers read ----> body complete within REQUEST_TIMEOUT_S
 *   handled, parked -> no deadline here (handlers and long-polls bound their own time)
 *
 * A reaper thread shuts down (shutdown(2), never close) the socket of a connection past its
 * deadline; libmicrohttpd then sees the end of the stream and closes it itself. The socket
 * is only touched under the guard's lock and before libmicrohttpd's "closed" notification,
 * after which the descriptor may be reused.
 *
 * Capacity is shared out, not first come first served:
 * - A reserve (RESERVE of MAX_CONNECTIONS) is kept free: when a new connection arrives and
 *   the rest is full, the oldest connection that has not yet delivered a request is shed,
 *   so a fresh client (a health check, a move) always gets in while slow ones wait.
 * - Waiting requests (long-polls and event streams) may hold at most MAX_WAITING
 *   connections; past that they are refused with 503 and Retry-After. Within that, one
 *   token may hold at most MAX_WAITING_PER_TOKEN of them and one client address at most
 *   MAX_WAITING_PER_IP (429 and Retry-After past either), so no single client can fill
 *   the places everybody else waits in. A place is given back when its request ends,
 *   which for a parked request whose client has gone is at once (the application looks
 *   at the sockets of parked requests: http_probe_departed()).
 */
#ifndef CATAN_HTTP_CONNECTIONS_H
#define CATAN_HTTP_CONNECTIONS_H

#include <microhttpd.h>

struct connections_config {
	int max_connections;	   /* libmicrohttpd's hard limit */
	int reserve;		   /* kept free for new connections by shedding slow ones */
	int max_waiting;	   /* long-polls and streams at once */
	int max_waiting_per_token; /* of them for one token (0: no limit) */
	int max_waiting_per_ip;	   /* of them for one client address (0: no limit) */
	int request_timeout_s;	   /* to deliver a request's headers, then its body */
	int keepalive_timeout_s;   /* between an answer and the next request's headers */
};

/* Start the reaper thread. Call before the daemon accepts connections. */
void connections_start(const struct connections_config *config);

/* Stop the reaper thread (connections are left to libmicrohttpd). */
void connections_stop(void);

/* libmicrohttpd's MHD_OPTION_NOTIFY_CONNECTION callback. */
void connections_notify(void *cls, struct MHD_Connection *connection, void **socket_context,
			enum MHD_ConnectionNotificationCode code);

/* The request phases of a connection, from the access handler and the completion
 * callback. */
void connections_headers_read(struct MHD_Connection *connection);
void connections_body_read(struct MHD_Connection *connection);
void connections_answered(struct MHD_Connection *connection);

/* Why a place was not given. */
enum connections_wait_refusal {
	CONNECTIONS_WAIT_ADMITTED,
	CONNECTIONS_WAIT_FULL,	     /* every one of the MAX_WAITING places is taken */
	CONNECTIONS_WAIT_TOKEN_FULL, /* the token holds MAX_WAITING_PER_TOKEN places */
	CONNECTIONS_WAIT_IP_FULL     /* the address holds MAX_WAITING_PER_IP places */
};

/* One place taken; opaque. */
struct connections_wait;

/* Take one of the MAX_WAITING places for a long-poll or a stream of the client at
 * `address` (its text, NUL-terminated) with `token` (`token_length` bytes; NULL: a
 * caller without a token, counted by its address only). Returns the place, which the
 * caller gives back with connections_wait_release(), or NULL with *refusal saying which
 * limit was reached. Borrows its arguments. */
struct connections_wait *connections_wait_admit(const char *address, const char *token, size_t token_length,
						enum connections_wait_refusal *refusal);

/* Give a place back (NULL: nothing). The place is freed. */
void connections_wait_release(struct connections_wait *place);

/* Counted in /metrics: catan_connections, catan_connections_shed_total,
 * catan_connections_timed_out_total, catan_waiting_refused_total. */

#endif
