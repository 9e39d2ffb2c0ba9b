/*
 * http.h - the HTTP layer on libmicrohttpd: one struct http_request per request, body
 * accumulation with a size limit, routing to handlers, and the response helpers every
 * handler uses (JSON, problem+json, raw). Handlers never touch libmicrohttpd directly
 * except to suspend a connection (long-poll, streams).
 *
 * Life of a request: created on the first callback (headers read); body chunks appended
 * up to HTTP_BODY_LIMIT; on the last callback the route's handler runs and queues exactly
 * one response through http_respond_*(), or suspends the connection and runs again after
 * it is resumed; when the connection is done the completion callback writes the access log
 * line, counts the metrics and frees the request.
 */
#ifndef CATAN_HTTP_HTTP_H
#define CATAN_HTTP_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <stddef.h>
#include <stdint.h>

#include "http/client.h"
#include "http/problem.h"
#include "http/ratelimit.h"
#include "http/router.h"

/* The largest body of a route without a body_limit of its own (http/router.h). */
#define HTTP_BODY_LIMIT 16384
#define HTTP_MAX_PARAMS ROUTER_MAX_PARAMS
#define HTTP_MAX_EXTRA_HEADERS 8

struct connections_wait;

struct http_request {
	struct MHD_Connection *connection;
	enum http_method method;
	char method_name[12];
	char *path; /* owned; without the query string */
	char *body; /* owned; NUL-terminated; NULL when there is none */
	size_t body_length;
	size_t body_capacity; /* bytes allocated at body (it grows by doubling) */
	size_t body_limit;    /* the largest body its route takes (known from the path at once) */
	int body_too_large;
	/* Who sent it (http/client.h): the address, the key every per-client limit counts by,
	 * and the proxy's address when a trusted proxy forwarded it ("" otherwise). */
	char client_ip[CLIENT_ADDRESS_SIZE];
	char client_key[CLIENT_KEY_SIZE];
	char client_via[CLIENT_ADDRESS_SIZE];
	char request_id[48];
	double started; /* monotonic seconds */
	const struct route *route;
	char *params[HTTP_MAX_PARAMS]; /* path parameters, owned */
	int status;		       /* of the queued response, 0 before */
	size_t response_bytes;
	int suspended; /* set by http_suspend, cleared when the handler runs again */
	/* Handler state kept across a suspension; free_state(state) runs when the request ends. */
	void *state;
	void (*free_state)(void *state);
	/* For the access log, set by the application: the game the request is about ("" none)
	 * and the seat it acted as (-1 none, -2 the game's admin). */
	char game[20];
	int seat;
	const char *problem_code;
	char *extra_headers[HTTP_MAX_EXTRA_HEADERS][2];
	int extra_header_count;
	struct connections_wait *waiting; /* one of the connection guard's places for waiting requests, or NULL */
	/* The bearer token the request was authenticated with (borrowed from its headers or
	 * query, set by the authentication of service.h and handlers.h), NULL without one:
	 * the key of its waiting places per token. */
	const char *token;
	size_t token_length;
	/* Set (by the notifier, while the request is parked) when its client has gone: the
	 * request then ends at once, answering nothing (http_departed()). */
	_Atomic int departed;
	/* The rate limit the request was counted against (the token's, else the address's),
	 * told in RateLimit-* headers; limit 0: none. */
	struct ratelimit_quota quota;
};

/* Request accessors (borrowed strings, valid for the request's life). NULL when absent. */
const char *http_header(struct http_request *request, const char *name);
const char *http_query(struct http_request *request, const char *name);

/* The query parameter `name` as headers_integer() (http/headers.h) reads it, `fallback` when absent;
 * -1 with a 400 problem naming the parameter queued when it is malformed (low >= 0). */
long http_query_integer(struct http_request *request, const char *name, long fallback, long low, long high);

/* Add a header to the response that will be queued (copied). */
void http_add_header(struct http_request *request, const char *name, const char *value);

/* Queue a JSON response; steals `body`. `etag_version` >= 0 adds ETag: "<version>".
 * A GET or HEAD answered 200 whose If-None-Match names that tag is answered 304 instead:
 * the same headers, no body. */
void http_respond_json(struct http_request *request, int status, json_t *body, long etag_version);

/* http_respond_json() with ETag: "<prefix><64-bit hash of the body's text>", for a resource
 * whose content, not the game's version, says when it changed (the board). */
void http_respond_json_hashed(struct http_request *request, int status, json_t *body, const char *prefix);

/* Queue `length` bytes copied from `body` with `etag` (the quoted tag, or NULL), answered
 * 304 instead like http_respond_json() when If-None-Match names the tag (binary bodies:
 * the board pictures). */
void http_respond_bytes(struct http_request *request, int status, const char *content_type, const void *body,
			size_t length, const char *etag);

/* Queue a response with a body copied from `body`. */
void http_respond_raw(struct http_request *request, int status, const char *content_type, const char *body,
		      size_t length);

/* Queue a 200 answer whose body `read` produces as it goes (a stream: Server-Sent Events);
 * libmicrohttpd's content reader contract, `free_state(state)` when it ends. */
void http_respond_stream(struct http_request *request, const char *content_type, MHD_ContentReaderCallback read,
			 void *state, MHD_ContentReaderFreeCallback free_state);

/* Queue an empty response (204 and the like). */
void http_respond_empty(struct http_request *request, int status);

/* Queue a problem+json. `detail` may be NULL (the title is used), `field` names the input
 * member at fault (400) or is NULL, `version` >= 0 adds the current game version. */
void http_respond_problem(struct http_request *request, enum problem problem, const char *detail, const char *field,
			  long version);

/* Queue the problem for an engine refusal (400/404/422 by problem_status_of_error). */
void http_respond_refusal(struct http_request *request, enum error error, long version);

/* The problem+json body of an engine refusal, for storing with an idempotency key. New
 * reference. */
json_t *http_refusal_body(struct http_request *request, enum error error, long version, int *status);

/* Before a request waits for changes (a long-poll or a stream), after its token (if any)
 * was authenticated: 1 when it may, else 0 with a problem queued: 429 waiting_quota when
 * its token or its address holds as many waiting places as it may (MAX_WAITING_PER_TOKEN,
 * MAX_WAITING_PER_IP), 503 too_many_waiting when the server's MAX_WAITING are all taken,
 * both with Retry-After. The place is given back when the request ends. */
int http_wait_admit(struct http_request *request);

/* For the notifier, on a parked (suspended) request: 1 when its client has closed its
 * side of the connection (or the connection failed), and the request is then marked
 * departed; 0 while the client is there. A check without blocking (poll(2), no wait). */
int http_probe_departed(struct http_request *request);

/* 1 when the request was marked departed: its handler (or its stream's reader) ends it
 * without an answer. */
int http_departed(struct http_request *request);

/* Suspend the connection (MHD_suspend_connection): the handler returns without a
 * response and runs again after http_resume(). */
void http_suspend(struct http_request *request);
void http_resume(struct http_request *request);

/* Server lifecycle. */
struct http_config {
	const struct router *router; /* the routes served (borrowed for the server's life) */
	/* Requests whose path starts so are counted against the per-address rate limit
	 * (http/ratelimit.h); others (probes, metrics) are not. NULL: every request. */
	const char *rate_limited_prefix;
	const char *listen_address;
	int port;
	int threads;
	int max_connections;
	int max_connections_per_ip;
	int connection_timeout_s;  /* libmicrohttpd's idle timeout (slow readers of answers) */
	int request_timeout_s;	   /* to deliver a request's headers, then its body */
	int keepalive_timeout_s;   /* idle between requests */
	int max_waiting;	   /* long-polls and streams at once */
	int max_waiting_per_token; /* of them for one token (0: no limit) */
	int max_waiting_per_ip;	   /* of them for one client address (0: no limit) */
};

/* Start serving; returns NULL with a message on stderr when the socket cannot be bound. */
struct MHD_Daemon *http_start(const struct http_config *config);

/* Stop accepting new connections (the listening socket is shut down: connecting is refused;
 * http_stop() closes it); from now on every response closes its connection. */
void http_quiesce(struct MHD_Daemon *daemon);

/* Wait up to grace_s for open connections to finish (their answers sent), then stop. */
void http_stop(struct MHD_Daemon *daemon, double grace_s);

/* The port actually bound (useful with port 0). */
int http_bound_port(struct MHD_Daemon *daemon);

#endif
