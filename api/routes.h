/*
 * routes.h - the route table: method + path pattern -> handler. Patterns are literal
 * segments and ":name" captures (a game id, a trade id, a webhook id), captured in order
 * into the request's params.
 */
#ifndef CATAN_API_ROUTES_H
#define CATAN_API_ROUTES_H

#include <stddef.h>

#include "api/http.h"

typedef void (*route_handler)(struct http_request *request);

/* Who may call a route of a game: anyone (spectators too), a seat token only (moves), or
 * a seat or the admin token (webhooks). ROUTE_NO_GAME for routes outside games. The table
 * is the one place that says it; service_open() enforces it for every game route. */
enum route_access { ROUTE_NO_GAME, ROUTE_ANYONE, ROUTE_SEAT, ROUTE_SEAT_OR_ADMIN };

struct route {
	enum http_method method;
	const char *pattern; /* also the metrics label */
	route_handler handler;
	enum route_access access;
	/* 1: the token may also come as ?token= (GET only), for browsers' EventSource, which
	 * cannot send Authorization. Only where a browser has no other way: a token in a URL
	 * ends up in proxies' and browsers' histories (the access log never writes queries). */
	int query_token;
};

/* The route for method + path, with its captures stored (owned) in params; HEAD matches GET
 * routes. NULL when none: then *allowed is a bit mask (1 << method) of the methods the
 * path does accept (0 when the path is unknown). */
const struct route *routes_match(enum http_method method, const char *path, char *params[HTTP_MAX_PARAMS],
				 unsigned *allowed);

/* "GET" for HTTP_GET ...; "" for HTTP_OTHER; and back (HTTP_OTHER for a name of none).
 * The one table of method names. */
const char *routes_method_name(enum http_method method);
enum http_method routes_method_of(const char *name);

/* "GET, POST" for an allowed mask. */
void routes_allow_header(unsigned allowed, char *out, size_t size);

/* The table, for metrics. */
int routes_count(void);
const struct route *routes_at(int index);
int routes_index(const struct route *route);

#endif
