/*
 * routes.h - the route table: method + path pattern -> handler, with each route's access
 * level and body limit (http/router.h matches requests against it).
 */
#ifndef CATAN_API_ROUTES_H
#define CATAN_API_ROUTES_H

#include "http/router.h"

/* Who may call a route of a game (struct route's `access`): anyone (spectators too), a
 * seat token only (moves), or a seat or the admin token (webhooks). ROUTE_NO_GAME for
 * routes outside games. The table is the one place that says it; service_open() enforces
 * it for every game route. A route's `query_token` 1: the token may also come as ?token=
 * (GET only), for browsers' EventSource, which cannot send Authorization. Only where a
 * browser has no other way: a token in a URL ends up in proxies' and browsers' histories
 * (the access log never writes queries). */
enum route_access { ROUTE_NO_GAME, ROUTE_ANYONE, ROUTE_SEAT, ROUTE_SEAT_OR_ADMIN };

/* POST /v1/games/import and the largest body it takes (an exported game: a long game's
 * log with trades is a few hundred kilobytes); every other route takes HTTP_BODY_LIMIT. */
#define ROUTES_IMPORT_PATH "/v1/games/import"
#define ROUTES_IMPORT_BODY_LIMIT (4 * 1024 * 1024)

/* The table, for the server (http_start()) and the tests that walk it; static. */
const struct router *routes(void);

#endif
