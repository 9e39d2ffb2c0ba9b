/*
 * router.h - matching a request to a route of a table the application hands in: method +
 * path pattern -> handler. Patterns are literal segments and ":name" captures (a game id,
 * a trade id, a webhook id), captured in order into the request's params.
 *
 * The router knows nothing of the routes themselves: the table (api/routes.c) says what
 * each route is, and two members are the application's alone (`access`: who may call it;
 * `query_token`: whether a token may come in the URL), carried here so that one table says
 * everything about a route. `body_limit` is the server's: the largest body the route takes.
 */
#ifndef CATAN_HTTP_ROUTER_H
#define CATAN_HTTP_ROUTER_H

#include <stddef.h>

#define ROUTER_MAX_PARAMS 3

enum http_method { HTTP_GET, HTTP_HEAD, HTTP_POST, HTTP_PUT, HTTP_PATCH, HTTP_DELETE, HTTP_OPTIONS, HTTP_OTHER };

struct http_request;
typedef void (*route_handler)(struct http_request *request);

struct route {
	enum http_method method;
	const char *pattern; /* also the metrics label */
	route_handler handler;
	int access;	   /* the application's: who may call the route (api/routes.h) */
	int query_token;   /* the application's: the token may also come as ?token= */
	size_t body_limit; /* the largest body the route takes; 0: HTTP_BODY_LIMIT (http/http.h) */
};

/* A table of routes; borrowed for the life of the server. */
struct router {
	const struct route *routes;
	int count;
};

/* The route for method + path, with its captures stored (owned: free() each) in params;
 * HEAD matches GET routes. NULL when none: then *allowed is a bit mask (1 << method) of
 * the methods the path does accept (0 when the path is unknown). */
const struct route *router_match(const struct router *router, enum http_method method, const char *path,
				 char *params[ROUTER_MAX_PARAMS], unsigned *allowed);

/* The body_limit of the route method + path matches, 0 when it has none (or none
 * matches). Cheap: only routes with a limit of their own are tried, and nothing is
 * captured. */
size_t router_body_limit(const struct router *router, enum http_method method, const char *path);

/* The position of `route` in the table, -1 for NULL. */
int router_index(const struct router *router, const struct route *route);

/* "GET" for HTTP_GET ...; "" for HTTP_OTHER; and back (HTTP_OTHER for a name of none).
 * The one table of method names. */
const char *router_method_name(enum http_method method);
enum http_method router_method_of(const char *name);

/* "GET, POST" for an allowed mask. */
void router_allow_header(unsigned allowed, char *out, size_t size);

#endif
