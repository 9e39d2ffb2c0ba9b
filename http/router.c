/*
 * router.c - a segment matcher over the table handed in (see router.h). Matching walks
 * the table in order and compares segment by segment; nothing is allocated until a route
 * matches (its captures), so trying a path against every route costs string compares.
 *
 * A concrete segment wins over a capture, as OpenAPI matches paths: of the patterns that
 * match a path, only those with the fewest captures count, for the method and for the
 * Allow header of a 405. So `/v1/games/import` is that route for every method (GET
 * answers 405 with `Allow: POST`), never a game called "import", whatever ids look like.
 */
#include "http/router.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"

/* Match `path` against `pattern`; on success store the captures (owned copies) when
 * `params` is not NULL. */
static int match(const char *pattern, const char *path, char *params[ROUTER_MAX_PARAMS])
{
	const char *starts[ROUTER_MAX_PARAMS];
	size_t lengths[ROUTER_MAX_PARAMS];
	int count = 0;
	const char *p = pattern, *s = path;
	while (*p && *s) {
		if (*p != '/' || *s != '/')
			return 0;
		p++;
		s++;
		const char *p_end = strchr(p, '/');
		const char *s_end = strchr(s, '/');
		size_t p_length = p_end ? (size_t)(p_end - p) : strlen(p);
		size_t s_length = s_end ? (size_t)(s_end - s) : strlen(s);
		if (*p == ':') {
			if (s_length == 0 || s_length > 64 || count >= ROUTER_MAX_PARAMS)
				return 0;
			starts[count] = s;
			lengths[count++] = s_length;
		} else if (p_length != s_length || strncmp(p, s, p_length) != 0) {
			return 0;
		}
		p += p_length;
		s += s_length;
	}
	if (*p || *s)
		return 0;
	if (params)
		for (int i = 0; i < ROUTER_MAX_PARAMS; i++)
			params[i] = i < count ? xstrndup(starts[i], lengths[i]) : NULL;
	return 1;
}

/* The number of captures (":name" segments) of a pattern. */
static int captures_of(const char *pattern)
{
	int count = 0;
	for (const char *at = pattern; (at = strstr(at, "/:")) != NULL; at++)
		count++;
	return count;
}

const struct route *router_match(const struct router *router, enum http_method method, const char *path,
				 char *params[ROUTER_MAX_PARAMS], unsigned *allowed)
{
	enum http_method wanted = method == HTTP_HEAD ? HTTP_GET : method;
	*allowed = 0;
	int fewest = ROUTER_MAX_PARAMS + 1;
	for (int i = 0; i < router->count; i++) {
		int captures = captures_of(router->routes[i].pattern);
		if (captures < fewest && match(router->routes[i].pattern, path, NULL))
			fewest = captures;
	}
	for (int i = 0; i < router->count; i++) {
		const struct route *route = &router->routes[i];
		if (captures_of(route->pattern) != fewest)
			continue;
		if (route->method == wanted) {
			if (match(route->pattern, path, params))
				return route;
			continue;
		}
		if (!match(route->pattern, path, NULL))
			continue;
		*allowed |= 1u << route->method;
		if (route->method == HTTP_GET)
			*allowed |= 1u << HTTP_HEAD;
	}
	return NULL;
}

size_t router_body_limit(const struct router *router, enum http_method method, const char *path)
{
	for (int i = 0; i < router->count; i++) {
		const struct route *route = &router->routes[i];
		if (route->body_limit && route->method == method && match(route->pattern, path, NULL))
			return route->body_limit;
	}
	return 0;
}

int router_index(const struct router *router, const struct route *route)
{
	return route ? (int)(route - router->routes) : -1;
}

static const char *const method_names[HTTP_OTHER] = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"};

const char *router_method_name(enum http_method method)
{
	return (unsigned)method < HTTP_OTHER ? method_names[method] : "";
}

enum http_method router_method_of(const char *name)
{
	for (int m = 0; m < HTTP_OTHER; m++)
		if (strcmp(method_names[m], name) == 0)
			return (enum http_method)m;
	return HTTP_OTHER;
}

void router_allow_header(unsigned allowed, char *out, size_t size)
{
	size_t used = 0;
	out[0] = '\0';
	for (int m = 0; m < HTTP_OTHER; m++) {
		if (!(allowed >> m & 1u))
			continue;
		int written = snprintf(out + used, size - used, "%s%s", used ? ", " : "",
				       router_method_name((enum http_method)m));
		if (written < 0 || (size_t)written >= size - used)
			break;
		used += (size_t)written;
	}
}
