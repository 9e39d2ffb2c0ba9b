/*
 * http.c - libmicrohttpd glue: request records, body limits, dispatch, responses.
 *
 * The daemon runs with an internal epoll loop and a thread pool; each pool thread runs the
 * handlers of its connections, so a handler may use thread-local resources (the worker's
 * database connection). Connections may be suspended (long-poll and streams) and are then
 * not tied to any thread until resumed.
 *
 * Routes: the table handed to http_start() (http/router.h) is matched once the body is
 * read; the handler of the route runs on the pool thread. The server knows nothing of what
 * the handlers do.
 *
 * Body handling: a Content-Length over the route's limit (HTTP_BODY_LIMIT unless the
 * route has its own) is answered 413 at once, before the body is read; a chunked body that grows past the limit is
 * discarded and answered 413 at its end. Every response carries X-Request-Id (the client's, when it sent a sane one).
 *
 * Browsers: every response carries the CORS headers of http/cors.h, and OPTIONS is answered
 * here for every path of the route table (204 with Allow, and for a preflight the methods
 * and headers a page may use), before the rate limit: it costs no database and a refused
 * preflight would only hide the real answer from the page. Conditional GETs: a 200 with an
 * ETag whose tag the request's If-None-Match names becomes a 304 (queue_text()); the tag
 * is the handler's for this caller, so a 304 is given only for what this caller would get.
 * Rate limits: the quota the request was counted against (request->quota) goes out as
 * RateLimit-Limit, -Remaining and -Reset on every answer, 429s included.
 */
#define _GNU_SOURCE /* POLLRDHUP */
#include "http/http.h"

#include <netinet/in.h>
#include <poll.h>
#include <arpa/inet.h>
#include <stdatomic.h>
#include <stdio.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/counters.h"
#include "base/xalloc.h"
#include "codec/text.h"
#include "http/access_log.h"
#include "http/client.h"
#include "http/connections.h"
#include "http/cors.h"
#include "http/epoll_guard.h"
#include "http/headers.h"
#include "http/metrics.h"
#include "http/ratelimit.h"

long http_query_integer(struct http_request *request, const char *name, long fallback, long low, long high)
{
	const char *text = http_query(request, name);
	if (!text)
		return fallback;
	long value;
	if (!headers_integer(text, low, high, &value)) {
		char detail[96];
		snprintf(detail, sizeof detail, "%s must be an integer in %ld..%ld", name, low, high);
		http_respond_problem(request, PROBLEM_INVALID_FIELD, detail, name, -1);
		return -1;
	}
	return value;
}

/* A request id: the client's X-Request-Id when it is 1..40 characters of [A-Za-z0-9._-],
 * else a fresh random one. */
static void set_request_id(struct http_request *request)
{
	const char *given = http_header(request, "X-Request-Id");
	if (given && headers_request_id_valid(given)) {
		memcpy(request->request_id, given, strlen(given) + 1);
		return;
	}
	static _Thread_local uint64_t counter;
	static _Thread_local uint64_t salt;
	if (!salt) {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		salt = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&counter;
	}
	uint64_t z = salt + ++counter * UINT64_C(0x9e3779b97f4a7c15);
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	snprintf(request->request_id, sizeof request->request_id, "%016llx", (unsigned long long)(z ^ (z >> 31)));
}

/* Every X-Forwarded-For header of the request, in order, joined with ",". */
struct forwarded_list {
	char *text; /* owned; NULL when there is none */
	size_t length;
};

static enum MHD_Result collect_forwarded(void *context, enum MHD_ValueKind kind, const char *key, const char *value)
{
	(void)kind;
	struct forwarded_list *list = context;
	if (!key || !value || strcasecmp(key, "X-Forwarded-For") != 0)
		return MHD_YES;
	size_t size = strlen(value);
	list->text = xrealloc(list->text, list->length + size + 2);
	if (list->length)
		list->text[list->length++] = ',';
	memcpy(list->text + list->length, value, size + 1);
	list->length += size;
	return MHD_YES;
}

/* The client as the service sees it (http/client.h): the socket's peer, or whom a trusted
 * proxy forwarded the request for. */
static void set_client_ip(struct http_request *request)
{
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(request->connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	struct forwarded_list forwarded = {NULL, 0};
	MHD_get_connection_values(request->connection, MHD_HEADER_KIND, collect_forwarded, &forwarded);
	client_identify(info ? info->client_addr : NULL, forwarded.text, request->client_ip, request->client_key,
			request->client_via);
	free(forwarded.text);
}

const char *http_header(struct http_request *request, const char *name)
{
	return MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, name);
}

const char *http_query(struct http_request *request, const char *name)
{
	return MHD_lookup_connection_value(request->connection, MHD_GET_ARGUMENT_KIND, name);
}

void http_add_header(struct http_request *request, const char *name, const char *value)
{
	if (request->extra_header_count >= HTTP_MAX_EXTRA_HEADERS)
		return;
	request->extra_headers[request->extra_header_count][0] = xstrdup(name);
	request->extra_headers[request->extra_header_count][1] = xstrdup(value);
	request->extra_header_count++;
}

/* Set while the server drains at shutdown: every response then closes its connection. */
static atomic_int draining;

/* 1 when a header called `name` was added with http_add_header(). */
static int has_extra_header(const struct http_request *request, const char *name)
{
	for (int i = 0; i < request->extra_header_count; i++)
		if (strcasecmp(request->extra_headers[i][0], name) == 0)
			return 1;
	return 0;
}

/* What every answer carries: its id, and headers that keep browsers and caches from doing
 * anything clever with it. An answer for a token (a seat's private view, the admin's) is
 * never stored by a shared cache; every answer under /v1 varies by the token sent. */
static void add_common_headers(struct http_request *request, struct MHD_Response *response)
{
	if (atomic_load(&draining))
		MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
	MHD_add_response_header(response, "X-Request-Id", request->request_id);
	MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
	/* A handler may bring its own policy (the web client's files do); else nothing is allowed. */
	if (!has_extra_header(request, "Content-Security-Policy"))
		MHD_add_response_header(response, "Content-Security-Policy",
					"default-src 'none'; frame-ancestors 'none'");
	MHD_add_response_header(response, "Referrer-Policy", "no-referrer");
	int by_token = request->path && strncmp(request->path, "/v1/", 4) == 0;
	int by_origin = cors_varies_by_origin();
	if (by_token || by_origin)
		MHD_add_response_header(response, "Vary",
					by_token && by_origin ? "Authorization, Origin"
					: by_token	      ? "Authorization"
							      : "Origin");
	if (request->seat != -1 && !has_extra_header(request, "Cache-Control"))
		MHD_add_response_header(response, MHD_HTTP_HEADER_CACHE_CONTROL, "private, no-store");
	const char *origin = cors_allow_origin(http_header(request, "Origin"));
	if (origin) {
		MHD_add_response_header(response, "Access-Control-Allow-Origin", origin);
		MHD_add_response_header(response, "Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
	}
	if (request->quota.limit > 0) {
		char number[16];
		snprintf(number, sizeof number, "%d", request->quota.limit);
		MHD_add_response_header(response, "RateLimit-Limit", number);
		snprintf(number, sizeof number, "%d", request->quota.remaining);
		MHD_add_response_header(response, "RateLimit-Remaining", number);
		snprintf(number, sizeof number, "%d", request->quota.reset_s);
		MHD_add_response_header(response, "RateLimit-Reset", number);
	}
}

/* Queue `response` with every header it carries; `etag` is the quoted tag or NULL. */
static void queue(struct http_request *request, int status, struct MHD_Response *response, const char *content_type,
		  const char *etag)
{
	add_common_headers(request, response);
	if (content_type)
		MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
	if (etag)
		MHD_add_response_header(response, MHD_HTTP_HEADER_ETAG, etag);
	for (int i = 0; i < request->extra_header_count; i++)
		MHD_add_response_header(response, request->extra_headers[i][0], request->extra_headers[i][1]);
	request->status = status;
	MHD_queue_response(request->connection, (unsigned)status, response);
	MHD_destroy_response(response);
}

void http_respond_raw(struct http_request *request, int status, const char *content_type, const char *body,
		      size_t length)
{
	struct MHD_Response *response =
		MHD_create_response_from_buffer(length, (void *)(uintptr_t)body, MHD_RESPMEM_MUST_COPY);
	request->response_bytes = length;
	queue(request, status, response, content_type, NULL);
}

/* Queue `body` (stolen), or a 304 when this is a GET or HEAD answered 200 whose
 * If-None-Match names `etag` (RFC 9110 15.4.5: the 304 carries the 200's headers). The 304
 * is made with the body so that its Content-Length is the 200's, as RFC 9110 8.6 asks;
 * libmicrohttpd sends no body with a 304. */
static void respond_text_owned(struct http_request *request, int status, const char *content_type, char *body,
			       const char *etag)
{
	if (status == 200 && etag && (request->method == HTTP_GET || request->method == HTTP_HEAD) &&
	    headers_if_none_match(http_header(request, MHD_HTTP_HEADER_IF_NONE_MATCH), etag)) {
		struct MHD_Response *response =
			MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
		queue(request, 304, response, NULL, etag);
		return;
	}
	size_t length = strlen(body);
	struct MHD_Response *response = MHD_create_response_from_buffer(length, body, MHD_RESPMEM_MUST_FREE);
	request->response_bytes = length;
	queue(request, status, response, content_type, etag);
}

void http_respond_bytes(struct http_request *request, int status, const char *content_type, const void *body,
			size_t length, const char *etag)
{
	if (status == 200 && etag && (request->method == HTTP_GET || request->method == HTTP_HEAD) &&
	    headers_if_none_match(http_header(request, MHD_HTTP_HEADER_IF_NONE_MATCH), etag)) {
		struct MHD_Response *response =
			MHD_create_response_from_buffer(length, (void *)(uintptr_t)body, MHD_RESPMEM_MUST_COPY);
		queue(request, 304, response, NULL, etag);
		return;
	}
	struct MHD_Response *response =
		MHD_create_response_from_buffer(length, (void *)(uintptr_t)body, MHD_RESPMEM_MUST_COPY);
	request->response_bytes = length;
	queue(request, status, response, content_type, etag);
}

/* The answer when a body could not be built (a string jansson refused): a fixed 500
 * problem, logged, instead of a crash. */
static void respond_unbuildable(struct http_request *request, const char *what)
{
	static const char body[] = "{\"type\":\"urn:catan:problem:internal_error\",\"title\":\"Internal error\","
				   "\"status\":500,\"detail\":\"the server could not build its answer\","
				   "\"code\":\"internal_error\"}";
	fprintf(stderr, "catan-server: request %s %s: could not build the %s body; answered 500\n", request->request_id,
		request->method_name, what);
	request->problem_code = "internal_error";
	struct MHD_Response *response =
		MHD_create_response_from_buffer(sizeof body - 1, (void *)(uintptr_t)body, MHD_RESPMEM_PERSISTENT);
	request->response_bytes = sizeof body - 1;
	queue(request, 500, response, "application/problem+json", NULL);
}

/* 15 significant digits print the board's 4-decimal coordinates as written (0.866, not
 * jansson's default 17 digits 0.86599999999999999); integers are unaffected. */
#define JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(15))

void http_respond_json(struct http_request *request, int status, json_t *body, long etag_version)
{
	char *text = body ? json_dumps(body, JSON_FLAGS) : NULL;
	json_decref(body);
	if (!text) {
		respond_unbuildable(request, "JSON");
		return;
	}
	char etag[32];
	if (etag_version >= 0)
		snprintf(etag, sizeof etag, "\"%ld\"", etag_version);
	respond_text_owned(request, status, "application/json; charset=utf-8", text, etag_version >= 0 ? etag : NULL);
}

void http_respond_json_hashed(struct http_request *request, int status, json_t *body, const char *prefix)
{
	char *text = body ? json_dumps(body, JSON_FLAGS) : NULL;
	json_decref(body);
	if (!text) {
		respond_unbuildable(request, "JSON");
		return;
	}
	/* FNV-1a: a tag tells versions of one resource apart, it guards no secret. */
	uint64_t hash = UINT64_C(0xcbf29ce484222325);
	for (const unsigned char *at = (const unsigned char *)text; *at; at++)
		hash = (hash ^ *at) * UINT64_C(0x100000001b3);
	char etag[64];
	snprintf(etag, sizeof etag, "\"%.24s%016llx\"", prefix, (unsigned long long)hash);
	respond_text_owned(request, status, "application/json; charset=utf-8", text, etag);
}

void http_respond_stream(struct http_request *request, const char *content_type, MHD_ContentReaderCallback read,
			 void *state, MHD_ContentReaderFreeCallback free_state)
{
	struct MHD_Response *response =
		MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096, read, state, free_state);
	/* Proxies must pass events on as they come. */
	MHD_add_response_header(response, "X-Accel-Buffering", "no");
	if (!has_extra_header(request, "Cache-Control"))
		http_add_header(request, "Cache-Control", request->seat != -1 ? "private, no-cache" : "no-cache");
	queue(request, 200, response, content_type, NULL);
}

void http_respond_empty(struct http_request *request, int status)
{
	struct MHD_Response *response = MHD_create_response_from_buffer(0, NULL, MHD_RESPMEM_PERSISTENT);
	queue(request, status, response, NULL, NULL);
}

static json_t *problem_body(struct http_request *request, const char *code, int status, const char *title,
			    const char *detail, const char *field, long version)
{
	return problem_json(request->path ? request->path : "/", code, status, title, detail, field, version);
}

static void respond_problem_json(struct http_request *request, int status, json_t *body, const char *code)
{
	request->problem_code = code;
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	json_decref(body);
	if (!text) {
		respond_unbuildable(request, "problem");
		return;
	}
	respond_text_owned(request, status, "application/problem+json", text, NULL);
}

void http_respond_problem(struct http_request *request, enum problem problem, const char *detail, const char *field,
			  long version)
{
	int status = problem_status(problem);
	json_t *body =
		problem_body(request, problem_code(problem), status, problem_title(problem), detail, field, version);
	respond_problem_json(request, status, body, problem_code(problem));
}

json_t *http_refusal_body(struct http_request *request, enum error error, long version, int *status)
{
	*status = problem_status_of_error(error);
	return problem_body(request, error_code(error), *status, problem_title_of_error(error), error_message(error),
			    NULL, version);
}

void http_respond_refusal(struct http_request *request, enum error error, long version)
{
	int status;
	json_t *body = http_refusal_body(request, error, version, &status);
	respond_problem_json(request, status, body, error_code(error));
}

int http_wait_admit(struct http_request *request)
{
	if (request->waiting)
		return 1;
	enum connections_wait_refusal refusal;
	request->waiting = connections_wait_admit(request->client_ip, request->token, request->token_length, &refusal);
	if (request->waiting)
		return 1;
	http_add_header(request, "Retry-After", "5");
	if (refusal == CONNECTIONS_WAIT_TOKEN_FULL)
		http_respond_problem(
			request, PROBLEM_WAITING_QUOTA,
			"this token holds as many long-polls and streams as it may (MAX_WAITING_PER_TOKEN): "
			"close one, or retry later",
			NULL, -1);
	else if (refusal == CONNECTIONS_WAIT_IP_FULL)
		http_respond_problem(
			request, PROBLEM_WAITING_QUOTA,
			"this address holds as many long-polls and streams as it may (MAX_WAITING_PER_IP): "
			"close one, or retry later",
			NULL, -1);
	else
		http_respond_problem(request, PROBLEM_TOO_MANY_WAITING,
				     "too many long-polls and streams are open on this server: retry later", NULL, -1);
	return 0;
}

int http_probe_departed(struct http_request *request)
{
	if (atomic_load(&request->departed))
		return 1;
	const union MHD_ConnectionInfo *info =
		MHD_get_connection_info(request->connection, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (!info || info->connect_fd == MHD_INVALID_SOCKET)
		return 0;
	/* POLLRDHUP: the client's FIN, even when bytes it sent before are still unread. */
	struct pollfd socket_state = {info->connect_fd, POLLRDHUP, 0};
	if (poll(&socket_state, 1, 0) != 1 || !(socket_state.revents & (POLLRDHUP | POLLHUP | POLLERR)))
		return 0;
	atomic_store(&request->departed, 1);
	return 1;
}

int http_departed(struct http_request *request)
{
	return atomic_load(&request->departed);
}

void http_suspend(struct http_request *request)
{
	request->suspended = 1;
	MHD_suspend_connection(request->connection);
}

void http_resume(struct http_request *request)
{
	MHD_resume_connection(request->connection);
}

/* The routes served (http_start()). */
static const struct router *router;
static const char *rate_limited_prefix;

/* OPTIONS on a path of the route table: 204 with Allow (its methods and OPTIONS), and for
 * a CORS preflight from an allowed origin what a page may send there. A preflight from an
 * origin off the list gets the 204 without allow headers: the browser then refuses the
 * real request. The method asked for is not checked: the browser compares it with the
 * list, as it does the headers. */
static void answer_options(struct http_request *request)
{
	char *params[HTTP_MAX_PARAMS] = {NULL};
	unsigned allowed = 0;
	router_match(router, HTTP_OPTIONS, request->path, params, &allowed);
	if (!allowed) {
		http_respond_problem(request, PROBLEM_ROUTE_NOT_FOUND, NULL, NULL, -1);
		return;
	}
	char methods[64] = "";
	router_allow_header(allowed, methods, sizeof methods);
	char allow[80];
	snprintf(allow, sizeof allow, "%s, OPTIONS", methods);
	http_add_header(request, "Allow", allow);
	const char *origin = http_header(request, "Origin");
	if (origin && http_header(request, "Access-Control-Request-Method") && cors_allow_origin(origin)) {
		http_add_header(request, "Access-Control-Allow-Methods", methods);
		http_add_header(request, "Access-Control-Allow-Headers", CORS_ALLOW_HEADERS);
		char max_age[16];
		snprintf(max_age, sizeof max_age, "%d", CORS_MAX_AGE_S);
		http_add_header(request, "Access-Control-Max-Age", max_age);
	}
	http_respond_empty(request, 204);
}

/* The largest body the request may send: HTTP_BODY_LIMIT, or its route's own (an import
 * carries a whole game's log). The route is matched only once the body is read, so the
 * limit is found by the path at once. */
static size_t body_limit(const struct http_request *request)
{
	size_t limit = router_body_limit(router, request->method, request->path);
	return limit ? limit : HTTP_BODY_LIMIT;
}

static void dispatch(struct http_request *request)
{
	if (request->body_too_large) {
		/* the limit of this route, which is not every route's (an import's is larger) */
		char detail[80];
		snprintf(detail, sizeof detail, "request bodies of this route are limited to %zu bytes",
			 request->body_limit);
		http_respond_problem(request, PROBLEM_BODY_TOO_LARGE, detail, NULL, -1);
		return;
	}
	if (request->route) {
		/* Resumed after a suspension: the route and its parameters are known. */
		request->route->handler(request);
		return;
	}
	if (request->method == HTTP_OPTIONS) {
		answer_options(request);
		return;
	}
	/* The API is rate limited per client address; probes and metrics are not. */
	if ((!rate_limited_prefix || strncmp(request->path, rate_limited_prefix, strlen(rate_limited_prefix)) == 0) &&
	    !ratelimit_take(RATELIMIT_IP, request->client_key, strlen(request->client_key), clock_now(),
			    &request->quota)) {
		char seconds[16];
		snprintf(seconds, sizeof seconds, "%d", request->quota.retry_after_s);
		http_add_header(request, "Retry-After", seconds);
		counters_add(COUNTERS_RATE_LIMITED, 1);
		http_respond_problem(request, PROBLEM_RATE_LIMITED, "too many requests from this address", NULL, -1);
		return;
	}
	unsigned allowed = 0;
	request->route = router_match(router, request->method, request->path, request->params, &allowed);
	if (!request->route) {
		if (allowed) {
			char list[64] = "";
			router_allow_header(allowed, list, sizeof list);
			http_add_header(request, "Allow", list);
			http_respond_problem(request, PROBLEM_METHOD_NOT_ALLOWED, NULL, NULL, -1);
		} else {
			http_respond_problem(request, PROBLEM_ROUTE_NOT_FOUND, NULL, NULL, -1);
		}
		return;
	}
	request->route->handler(request);
}

/* libmicrohttpd's unescape callback: headers_unescape(), which keeps %00 as written. */
static size_t unescape(void *cls, struct MHD_Connection *connection, char *text)
{
	(void)cls;
	(void)connection;
	return headers_unescape(text);
}

static struct http_request *request_new(struct MHD_Connection *connection, const char *url, const char *method)
{
	struct http_request *request = xcalloc(1, sizeof *request);
	request->connection = connection;
	request->started = clock_now();
	request->method = router_method_of(method);
	snprintf(request->method_name, sizeof request->method_name, "%s", method);
	text_make_valid(request->method_name);
	request->path = xstrdup(url);
	request->body_limit = body_limit(request);
	request->seat = -1;
	set_request_id(request);
	set_client_ip(request);
	return request;
}

static void request_free(struct http_request *request)
{
	if (request->free_state)
		request->free_state(request->state);
	for (int i = 0; i < HTTP_MAX_PARAMS; i++)
		free(request->params[i]);
	for (int i = 0; i < request->extra_header_count; i++) {
		free(request->extra_headers[i][0]);
		free(request->extra_headers[i][1]);
	}
	free(request->path);
	free(request->body);
	free(request);
}

static void append_body(struct http_request *request, const char *data, size_t size)
{
	if (request->body_too_large)
		return;
	if (request->body_length + size > request->body_limit) {
		request->body_too_large = 1;
		free(request->body);
		request->body = NULL;
		request->body_length = 0;
		request->body_capacity = 0;
		return;
	}
	/* Doubling, not growing by each chunk: a 4 MiB import arrives in hundreds of chunks,
	 * and copying the body again for each one was quadratic. */
	struct xbytes body = {(unsigned char *)request->body, request->body_length, request->body_capacity};
	xbytes_add(&body, data, size, 1024);
	request->body = (char *)body.data;
	request->body_length = body.length;
	request->body_capacity = body.capacity;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
				  const char *version, const char *upload_data, size_t *upload_data_size,
				  void **context)
{
	(void)cls;
	(void)version;
	struct http_request *request = *context;
	if (!request) {
		request = request_new(connection, url, method);
		*context = request;
		connections_headers_read(connection);
		const char *length = http_header(request, MHD_HTTP_HEADER_CONTENT_LENGTH);
		if (length && strtoull(length, NULL, 10) > request->body_limit) {
			request->body_too_large = 1;
			dispatch(request);
		}
		return MHD_YES;
	}
	if (*upload_data_size) {
		append_body(request, upload_data, *upload_data_size);
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (request->status)
		return MHD_YES; /* answered already (an early 413) */
	if (atomic_load(&request->departed))
		return MHD_NO; /* resumed because its client has gone: libmicrohttpd closes it */
	if (!request->route)
		connections_body_read(connection);
	request->suspended = 0;
	dispatch(request);
	return MHD_YES;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **context,
			 enum MHD_RequestTerminationCode code)
{
	(void)cls;
	struct http_request *request = *context;
	if (!request)
		return;
	double seconds = clock_now() - request->started;
	connections_wait_release(request->waiting);
	request->waiting = NULL;
	connections_answered(connection);
	metrics_observe_request(request->route, request->method, request->status, seconds);
	struct access_log_line line = {request->request_id,
				       request->method_name,
				       request->path,
				       request->status,
				       seconds,
				       request->client_ip,
				       request->client_via,
				       request->response_bytes,
				       request->route ? request->route->pattern : NULL,
				       request->game,
				       request->seat,
				       request->problem_code,
				       code != MHD_REQUEST_TERMINATED_COMPLETED_OK};
	access_log_write(&line);
	request_free(request);
	*context = NULL;
}

struct MHD_Daemon *http_start(const struct http_config *config)
{
	struct sockaddr_in6 address6;
	struct sockaddr_in address4;
	const struct sockaddr *address;
	unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
			 MHD_USE_ERROR_LOG | MHD_USE_TURBO;
	memset(&address4, 0, sizeof address4);
	memset(&address6, 0, sizeof address6);
	if (inet_pton(AF_INET, config->listen_address, &address4.sin_addr) == 1) {
		address4.sin_family = AF_INET;
		address4.sin_port = htons((uint16_t)config->port);
		address = (const struct sockaddr *)&address4;
	} else if (inet_pton(AF_INET6, config->listen_address, &address6.sin6_addr) == 1) {
		address6.sin6_family = AF_INET6;
		address6.sin6_port = htons((uint16_t)config->port);
		address = (const struct sockaddr *)&address6;
		flags |= MHD_USE_IPv6;
	} else {
		fprintf(stderr, "{\"level\":\"error\",\"msg\":\"LISTEN is not an IP address\",\"listen\":\"%s\"}\n",
			config->listen_address);
		return NULL;
	}
	/* One connection in sixteen (at least 8) is kept free by shedding slow clients. */
	int reserve = config->max_connections / 16 > 8 ? config->max_connections / 16 : 8;
	if (reserve > config->max_connections / 2)
		reserve = config->max_connections / 2;
	struct connections_config guard = {.max_connections = config->max_connections,
					   .reserve = reserve,
					   .max_waiting = config->max_waiting,
					   .max_waiting_per_token = config->max_waiting_per_token,
					   .max_waiting_per_ip = config->max_waiting_per_ip,
					   .request_timeout_s = config->request_timeout_s,
					   .keepalive_timeout_s = config->keepalive_timeout_s};
	router = config->router;
	rate_limited_prefix = config->rate_limited_prefix;
	metrics_configure(router);
	connections_start(&guard);
	struct MHD_Daemon *daemon = MHD_start_daemon(
		flags, (uint16_t)config->port, NULL, NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR, address,
		MHD_OPTION_THREAD_POOL_SIZE, (unsigned)config->threads, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)config->max_connections, MHD_OPTION_PER_IP_CONNECTION_LIMIT,
		(unsigned)config->max_connections_per_ip, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)config->connection_timeout_s, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(64 * 1024),
		MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
		MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_NOTIFY_CONNECTION, connections_notify, NULL,
		MHD_OPTION_END);
	if (daemon) {
		/* MHD_quiesce_daemon() races the pool threads over this socket (epoll_guard.c). */
		const union MHD_DaemonInfo *listening = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
		http_guard_listen_socket(listening ? listening->listen_fd : -1);
	}
	if (!daemon)
		connections_stop();
	if (!daemon)
		fprintf(stderr, "{\"level\":\"error\",\"msg\":\"cannot listen\",\"listen\":\"%s\",\"port\":%d}\n",
			config->listen_address, config->port);
	return daemon;
}

/* The listening socket once quiesced: ours to close, after the daemon has stopped. */
static MHD_socket quiesced_listener = MHD_INVALID_SOCKET;

void http_quiesce(struct MHD_Daemon *daemon)
{
	atomic_store(&draining, 1);
	/* MHD_quiesce_daemon() takes the socket out of every pool thread's epoll set while the
	 * threads may be doing the same: the loser's failure no longer aborts (epoll_guard.c).
	 * It hands the socket back while its pool threads may still be taking
	 * it out of their epoll sets: closing it now would race them (ThreadSanitizer saw it),
	 * and its number could be reused by a new descriptor they would then remove. shutdown()
	 * stops listening at once (new connections are refused) and keeps the descriptor, which
	 * http_stop() closes once the threads are gone. */
	MHD_socket listener = MHD_quiesce_daemon(daemon);
	if (listener != MHD_INVALID_SOCKET) {
		shutdown(listener, SHUT_RDWR);
		quiesced_listener = listener;
	}
}

void http_stop(struct MHD_Daemon *daemon, double grace_s)
{
	double deadline = clock_now() + grace_s;
	while (clock_now() < deadline) {
		const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
		if (!info || info->num_connections == 0)
			break;
		struct timespec pause = {0, 10 * 1000 * 1000};
		nanosleep(&pause, NULL);
	}
	MHD_stop_daemon(daemon);
	if (quiesced_listener != MHD_INVALID_SOCKET) {
		close(quiesced_listener);
		quiesced_listener = MHD_INVALID_SOCKET;
	}
	connections_stop();
}

int http_bound_port(struct MHD_Daemon *daemon)
{
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
	return info ? info->port : -1;
}
