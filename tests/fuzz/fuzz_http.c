/*
 * fuzz_http.c - libFuzzer target: the HTTP request path below the socket.
 *
 * Input: a method byte, then newline-separated fields: the request target (path and an
 * optional ?query), If-Match, Idempotency-Key, Authorization, X-Request-Id (an absent
 * field is an absent header), and the url of a webhook registration. libmicrohttpd hands the server the path and query
 * values decoded by the server's own callback, headers_unescape() (which keeps %00 as written); this target decodes
 * with it too and then runs what the server runs on them:
 *   - routing (router_match over api/routes.c's table, router_allow_header): a matched route's pattern with its
 *     captures put back gives the path again; captures are 1..64 bytes without '/'; the
 *     Allow list is terminated and names only methods;
 *   - the headers (http/headers.c, auth_bearer of game/auth.c): an accepted If-Match version
 *     is in 0..INT32_MAX and reads back from its ETag form, only "*" is "no condition"; an accepted key or request id
 * is printable and within its length; a bearer token lies inside the header, 1..128 characters of base64url;
 *   - the integer query parameters of GET .../moves and .../deliveries and the trade ids
 *     of the path (headers_integer: in range, digits only);
 *   - a webhook's url through destination_url_allowed() (deliver/destination.c, libcurl's URL
 *     parser, no connection): whatever private targets allow is a superset of the default,
 *     the reason of a refusal is UTF-8 and answers as a problem;
 *   - the problem writer: the problem+json bodies of a 404, a 405 (with the Allow list) and
 *     a 400 naming a header, each with the decoded path as instance, exist and dump.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/auth.h"
#include "deliver/destination.h"
#include "http/headers.h"
#include "http/problem.h"
#include "api/routes.h"
#include "tests/fuzz/fuzz_support.h"

#define FIELD_COUNT 6

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what, const char *text)
{
	fprintf(stderr, "fuzz: %s: \"%s\"\n", what, text ? text : "(null)");
	abort();
}

/* The decoded value of `name` in a query string ("a=1&b=2"), copied into out; NULL when
 * absent. */
static const char *query_value(const char *query, const char *name, char *out, size_t size)
{
	size_t name_length = strlen(name);
	for (const char *at = query; at && *at;) {
		const char *end = strchr(at, '&');
		size_t length = end ? (size_t)(end - at) : strlen(at);
		if (length > name_length && strncmp(at, name, name_length) == 0 && at[name_length] == '=') {
			size_t value_length = length - name_length - 1;
			if (value_length >= size)
				value_length = size - 1;
			memcpy(out, at + name_length + 1, value_length);
			out[value_length] = '\0';
			headers_unescape(out);
			return out;
		}
		at = end ? end + 1 : NULL;
	}
	return NULL;
}

static void check_route(enum http_method method, const char *path)
{
	char *params[ROUTER_MAX_PARAMS] = {NULL};
	unsigned allowed = 0;
	const struct route *route = router_match(routes(), method, path, params, &allowed);
	if (route) {
		char rebuilt[1024];
		size_t used = 0;
		int capture = 0;
		for (const char *p = route->pattern; *p && used < sizeof rebuilt - 1;) {
			if (*p == ':') {
				const char *value = capture < ROUTER_MAX_PARAMS ? params[capture++] : NULL;
				size_t length = value ? strlen(value) : 0;
				if (!value || length == 0 || length > 64 || strchr(value, '/'))
					fail("a capture is empty, too long or holds a '/'", value);
				if (used + length >= sizeof rebuilt)
					fail("a capture overflows", value);
				memcpy(rebuilt + used, value, length);
				used += length;
				p += strcspn(p, "/");
			} else {
				rebuilt[used++] = *p++;
			}
		}
		rebuilt[used] = '\0';
		if (strcmp(rebuilt, path) != 0)
			fail("a matched route does not give the path back", path);
		for (int i = capture; i < ROUTER_MAX_PARAMS; i++)
			if (params[i])
				fail("a capture beyond the pattern's", params[i]);
		if (router_index(routes(), route) < 0 || router_index(routes(), route) >= routes()->count)
			fail("the route is not in the table", route->pattern);
		long trade = -1;
		if (strstr(route->pattern, ":trade") && headers_integer(params[1], 1, 65535, &trade) &&
		    (trade < 1 || trade > 65535))
			fail("a trade id out of range passes", params[1]);
	} else {
		for (int i = 0; i < ROUTER_MAX_PARAMS; i++)
			if (params[i])
				fail("no route but a capture", params[i]);
		if (allowed) {
			char list[64];
			memset(list, 'x', sizeof list);
			router_allow_header(allowed, list, sizeof list);
			if (!memchr(list, '\0', sizeof list) || list[0] == '\0')
				fail("the Allow list is empty or not terminated", NULL);
			for (const char *c = list; *c; c++)
				if (!((*c >= 'A' && *c <= 'Z') || *c == ',' || *c == ' '))
					fail("the Allow list holds something else than methods", list);
			fuzz_expect_problem(path, problem_code(PROBLEM_METHOD_NOT_ALLOWED),
					    problem_status(PROBLEM_METHOD_NOT_ALLOWED),
					    problem_title(PROBLEM_METHOD_NOT_ALLOWED), NULL, NULL);
		} else {
			fuzz_expect_problem(path, problem_code(PROBLEM_ROUTE_NOT_FOUND),
					    problem_status(PROBLEM_ROUTE_NOT_FOUND),
					    problem_title(PROBLEM_ROUTE_NOT_FOUND), NULL, NULL);
		}
	}
	for (int i = 0; i < ROUTER_MAX_PARAMS; i++)
		free(params[i]);
}

static void check_headers(const char *path, char *const fields[FIELD_COUNT])
{
	const char *if_match = fields[1], *key = fields[2], *authorization = fields[3], *request_id = fields[4];
	long version = -7;
	int pinned = headers_if_match(if_match, &version);
	if (pinned < -1 || pinned > 2 || (pinned == 0 && if_match && strcmp(if_match, "*") != 0) ||
	    (pinned == 1 && (version < 0 || version > 2147483647L)) || (pinned != 1 && version != -7))
		fail("If-Match read wrong", if_match);
	if (pinned == 1) {
		char canonical[32];
		long again = -7;
		snprintf(canonical, sizeof canonical, "\"%ld\"", version);
		if (headers_if_match(canonical, &again) != 1 || again != version)
			fail("an If-Match version does not read back from its ETag form", canonical);
		/* The tag as If-None-Match names it, strongly and weakly, alone or in a list. */
		char weak[40], list[64];
		snprintf(weak, sizeof weak, "W/%s", canonical);
		snprintf(list, sizeof list, "\"x\" ,%s", weak);
		if (headers_if_none_match(canonical, canonical) != 1 || headers_if_none_match(weak, canonical) != 1 ||
		    headers_if_none_match(list, canonical) != 1)
			fail("If-None-Match does not match its own tag", canonical);
		/* A version tag also says which version the caller knows (min_version's rule). */
		if (headers_known_version(list) != version)
			fail("If-None-Match's version tag is not the version it names", list);
	}
	/* Any text as the version an If-None-Match knows: none (-1), or a version in range. */
	long known = headers_known_version(if_match);
	if (known < -1 || known > 2147483647L)
		fail("If-None-Match's known version is out of range", if_match);
	/* Any text as If-None-Match: read without harm, and never matching an empty tag. */
	if (headers_if_none_match(if_match, "") != 0 && !(if_match && strchr(if_match, '*')))
		fail("If-None-Match matched an empty tag", if_match);
	if (pinned < 0)
		fuzz_expect_problem(path, "invalid_field", 400, "Invalid value",
				    "If-Match must be a version in quotes, e.g. \"12\"", "If-Match");
	if (key && headers_idempotency_key_valid(key)) {
		size_t length = strlen(key);
		if (length < 1 || length > 200)
			fail("an Idempotency-Key of a wrong length passes", key);
		for (size_t i = 0; i < length; i++)
			if (key[i] < 0x21 || key[i] > 0x7e)
				fail("an Idempotency-Key with a non-printable byte passes", key);
	}
	if (request_id && headers_request_id_valid(request_id)) {
		size_t length = strlen(request_id);
		if (length < 1 || length > 40)
			fail("an X-Request-Id of a wrong length passes", request_id);
		fuzz_expect_utf8("an echoed X-Request-Id", request_id);
	}
	const char *token = NULL;
	size_t token_length = 0;
	int bearer = auth_bearer(authorization, &token, &token_length);
	if ((bearer == 0) != (authorization == NULL) || bearer < -1 || bearer > 1)
		fail("auth_bearer's answer", authorization);
	if (bearer == 1) {
		if (token < authorization || token + token_length > authorization + strlen(authorization) ||
		    token_length < 1 || token_length > 128)
			fail("a bearer token outside its header or of a wrong length", authorization);
		for (size_t i = 0; i < token_length; i++) {
			char c = token[i];
			if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
			      c == '_'))
				fail("a bearer token with a byte outside base64url", authorization);
		}
		uint8_t hash[AUTH_HASH_SIZE];
		auth_hash(token, token_length, hash);
	}
}

static void check_query(const char *path, const char *query)
{
	static const struct {
		const char *name;
		long low, high;
	} parameters[] = {{"after", 0, 2147483647L}, {"limit", 1, 1000}, {"wait", 0, 60}};
	char value[512];
	for (size_t i = 0; i < sizeof parameters / sizeof parameters[0]; i++) {
		const char *text = query_value(query, parameters[i].name, value, sizeof value);
		if (!text)
			continue;
		long parsed = -1;
		if (headers_integer(text, parameters[i].low, parameters[i].high, &parsed)) {
			char canonical[32];
			snprintf(canonical, sizeof canonical, "%ld", parsed);
			if (parsed < parameters[i].low || parsed > parameters[i].high ||
			    strspn(text, "0") + strlen(canonical) != strlen(text) + (parsed == 0))
				fail("a query integer out of its range or not all digits passes", text);
		} else {
			char detail[96];
			snprintf(detail, sizeof detail, "%s must be an integer in %ld..%ld", parameters[i].name,
				 parameters[i].low, parameters[i].high);
			fuzz_expect_problem(path, "invalid_field", 400, "Invalid value", detail, parameters[i].name);
		}
	}
	const char *token = query_value(query, "token", value, sizeof value);
	if (token)
		fuzz_expect_problem(path, "unknown_token", 401, "The token is not valid for this game", NULL, NULL);
}

static void check_webhook_url(const char *url)
{
	char why[128], why_private[128];
	why[0] = why_private[0] = '\0';
	int allowed = destination_url_allowed(url, 0, why, sizeof why);
	int allowed_private = destination_url_allowed(url, 1, why_private, sizeof why_private);
	if (allowed && !allowed_private)
		fail("a url allowed by default is refused when private targets are allowed", url);
	if (!allowed) {
		fuzz_expect_utf8("a refused url's reason", why);
		fuzz_expect_problem("/v1/games/0123456789abcdef/webhooks", "invalid_field", 400, "Invalid value", why,
				    "url");
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	enum http_method method = (enum http_method)(data[0] % (HTTP_OTHER + 1));
	/* The fields as C strings: a copy with each newline (and the end) a NUL. */
	char *copy = malloc(size);
	memcpy(copy, data + 1, size - 1);
	copy[size - 1] = '\0';
	char *fields[FIELD_COUNT] = {NULL};
	char *at = copy;
	for (int i = 0; i < FIELD_COUNT && at; i++) {
		fields[i] = at;
		char *newline = memchr(at, '\n', (size_t)(copy + size - 1 - at));
		if (newline)
			*newline = '\0';
		at = newline ? newline + 1 : NULL;
	}
	char *target = fields[0];
	char *query = strchr(target, '?');
	if (query)
		*query++ = '\0';
	headers_unescape(target);
	check_route(method, target);
	check_headers(target, fields);
	if (query)
		check_query(target, query);
	if (fields[5])
		check_webhook_url(fields[5]);
	free(copy);
	return 0;
}
