/*
 * cors.h - Cross-Origin Resource Sharing: which web pages may read the API's answers.
 *
 * Tokens travel as bearer headers, never cookies, so a page on any origin can do no more
 * with the API than a program can: by default every origin is allowed (`*`). An operator
 * may restrict it with CORS_ORIGINS, a comma-separated list of origins
 * ("https://play.example.com,http://localhost:5173"); then an allowed origin is echoed
 * (with Vary: Origin) and any other gets no allow headers at all, which the browser reads
 * as a refusal. Pure functions of text and the configured list (no libmicrohttpd), so
 * http.c decides, and tests can call them alone.
 */
#ifndef CATAN_HTTP_CORS_H
#define CATAN_HTTP_CORS_H

/* What a preflight allows a page to send, and what every answer lets it read. */
#define CORS_ALLOW_HEADERS \
	"authorization, content-type, idempotency-key, if-match, if-none-match, last-event-id, x-request-id"
#define CORS_EXPOSE_HEADERS                                                                                      \
	"ETag, Location, Retry-After, X-Request-Id, Idempotent-Replayed, RateLimit-Limit, RateLimit-Remaining, " \
	"RateLimit-Reset"
/* Seconds a browser may keep a preflight's answer (Chromium keeps at most 7200). */
#define CORS_MAX_AGE_S 7200

/* Read the allow-list (CORS_ORIGINS; NULL or "" or "*": any origin). 1, or 0 with a
 * message on stderr when an entry is not an origin ("scheme://host[:port]", at most 32
 * entries of 200 characters). Call once at start, before serving. */
int cors_configure(const char *origins);

/* The Access-Control-Allow-Origin value for a request from `origin` (NULL when it sent
 * none): "*" when any origin is allowed, `origin` itself when it is on the list, NULL
 * when it gets no allow headers. Borrows `origin`. */
const char *cors_allow_origin(const char *origin);

/* 1 when answers depend on the request's Origin (a list is configured): they then carry
 * Vary: Origin. */
int cors_varies_by_origin(void);

#endif
