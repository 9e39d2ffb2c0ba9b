/*
 * http_support.c - the libcurl client, Server-Sent Events, games and the ground truth for
 * the HTTP integration tests (see http_support.h; servers and proxies are started in
 * http_process.c, the random player is http_player.c).
 *
 * A client is one curl easy handle, so connections are kept alive between calls; with
 * `contract` set it fails the test on any response Prism flags. The ground truth is read
 * with a store of this process's own: a connection opened before Check forks a test must
 * not be shared.
 */
#include "tests/api/http_support.h"

#include <check.h>
#include <curl/curl.h>
#include <libpq-fe.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game/game_repo.h"
#include "db/store_events.h"
#include "engine/event.h"

/* ---- Misc ---- */

double http_clock(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

void http_pause(double seconds)
{
	struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
	while (nanosleep(&pause, &pause) != 0 && errno == EINTR)
		;
}

double http_parse_time(const char *text)
{
	struct tm parts;
	memset(&parts, 0, sizeof parts);
	int used = 0;
	int fields = text ? sscanf(text, "%4d-%2d-%2dT%2d:%2d:%2d%n", &parts.tm_year, &parts.tm_mon, &parts.tm_mday,
				   &parts.tm_hour, &parts.tm_min, &parts.tm_sec, &used)
			  : 0;
	ck_assert_msg(fields == 6 && used == 19, "not an RFC 3339 time: %s", text ? text : "(null)");
	parts.tm_year -= 1900;
	parts.tm_mon -= 1;
	const char *rest = text + used;
	double fraction = 0;
	if (*rest == '.') {
		char *end;
		fraction = strtod(rest, &end);
		rest = end;
	}
	ck_assert_msg(strcmp(rest, "Z") == 0, "not a UTC time: %s", text);
	return (double)timegm(&parts) + fraction;
}

double http_slowdown(void)
{
	const char *text = getenv("CK_TIMEOUT_MULTIPLIER");
	double factor = text && *text ? strtod(text, NULL) : 1;
	return factor >= 1 ? factor : 1;
}

static int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double http_median(double *values, int count)
{
	ck_assert(count > 0);
	qsort(values, (size_t)count, sizeof *values, compare_doubles);
	return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

uint64_t http_random64(void)
{
	static _Thread_local uint64_t state;
	if (!state) {
		struct timespec now;
		clock_gettime(CLOCK_REALTIME, &now);
		state = ((uint64_t)now.tv_nsec << 17) ^ (uint64_t)now.tv_sec ^ ((uint64_t)getpid() << 40) ^
			(uint64_t)(uintptr_t)&state;
	}
	uint64_t z = (state += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* ---- Client ---- */

struct buffer {
	char *data;
	size_t length, capacity;
};

static void buffer_append(struct buffer *buffer, const char *data, size_t size)
{
	if (buffer->length + size + 1 > buffer->capacity) {
		buffer->capacity = (buffer->length + size + 1) * 2;
		buffer->data = realloc(buffer->data, buffer->capacity);
		ck_assert(buffer->data != NULL);
	}
	memcpy(buffer->data + buffer->length, data, size);
	buffer->length += size;
	buffer->data[buffer->length] = '\0';
}

static size_t on_body(char *data, size_t size, size_t count, void *user)
{
	buffer_append(user, data, size * count);
	return size * count;
}

/* Keeps only the headers of the last response (a 100 Continue comes first sometimes). */
static size_t on_header(char *data, size_t size, size_t count, void *user)
{
	struct buffer *headers = user;
	size_t length = size * count;
	if (length >= 5 && strncmp(data, "HTTP/", 5) == 0)
		headers->length = 0;
	buffer_append(headers, data, length);
	return length;
}

struct upload {
	const char *data;
	size_t length, offset;
};

static size_t on_read(char *out, size_t size, size_t count, void *user)
{
	struct upload *upload = user;
	size_t room = size * count;
	size_t left = upload->length - upload->offset;
	size_t n = left < room ? left : room;
	if (n > 1000)
		n = 1000; /* several chunks */
	memcpy(out, upload->data + upload->offset, n);
	upload->offset += n;
	return n;
}

static void global_init(void)
{
	static int done;
	if (!done) {
		curl_global_init(CURL_GLOBAL_DEFAULT);
		done = 1;
	}
}

void http_client_init(struct http_client *client, const char *base_url, int contract)
{
	global_init();
	memset(client, 0, sizeof *client);
	client->curl = curl_easy_init();
	ck_assert(client->curl != NULL);
	snprintf(client->base, sizeof client->base, "%s", base_url);
	client->contract = contract;
	client->timeout_ms = 60000;
}

void http_client_cleanup(struct http_client *client)
{
	if (client->curl)
		curl_easy_cleanup(client->curl);
	client->curl = NULL;
}

void http_response_free(struct http_response *response)
{
	free(response->body);
	free(response->headers);
	if (response->json)
		json_decref(response->json);
	memset(response, 0, sizeof *response);
}

const char *http_response_header(const struct http_response *response, const char *name, char *out, size_t size)
{
	size_t name_length = strlen(name);
	const char *line = response->headers;
	while (line && *line) {
		const char *end = strstr(line, "\r\n");
		size_t line_length = end ? (size_t)(end - line) : strlen(line);
		if (line_length > name_length && strncasecmp(line, name, name_length) == 0 &&
		    line[name_length] == ':') {
			const char *value = line + name_length + 1;
			while (*value == ' ' || *value == '\t')
				value++;
			size_t value_length = line_length - (size_t)(value - line);
			while (value_length && (value[value_length - 1] == ' ' || value[value_length - 1] == '\t'))
				value_length--;
			if (value_length >= size)
				value_length = size - 1;
			memcpy(out, value, value_length);
			out[value_length] = '\0';
			return out;
		}
		line = end ? end + 2 : NULL;
	}
	return NULL;
}

const char *http_describe(const struct http_response *response)
{
	static _Thread_local char text[700];
	snprintf(text, sizeof text, "HTTP %ld: %.600s", response->status, response->body ? response->body : "");
	return text;
}

/* Prism's verdict: with --errors a response that breaks the spec becomes a problem whose
 * type ends in #VIOLATIONS, and a lesser one is passed through with an sl-violations
 * header. */
const char *http_contract_violation(const struct http_response *response)
{
	static _Thread_local char verdict[2048];
	const char *header = http_response_header(response, "sl-violations", verdict, sizeof verdict);
	if (header)
		return verdict;
	json_t *type = response->json ? json_object_get(response->json, "type") : NULL;
	if (json_is_string(type) && strstr(json_string_value(type), "VIOLATIONS")) {
		snprintf(verdict, sizeof verdict, "%s", http_describe(response));
		return verdict;
	}
	return NULL;
}

static void check_contract(const char *method, const char *path, const struct http_response *response)
{
	const char *violation = http_contract_violation(response);
	ck_assert_msg(violation == NULL, "%s %s: the response breaks openapi.yaml (Prism: %.1200s); %.800s", method,
		      path, violation, http_describe(response));
}

static void perform(struct http_client *client, const char *method, const char *path, const char *token,
		    const char *body, size_t body_length, const char *const *headers, struct http_response *out)
{
	CURL *curl = client->curl;
	memset(out, 0, sizeof *out);
	curl_easy_reset(curl);
	char url[1024];
	snprintf(url, sizeof url, "%s%s", client->base, path);
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, client->timeout_ms);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
	struct buffer response_body = {0}, response_headers = {0};
	buffer_append(&response_body, "", 0);
	buffer_append(&response_headers, "", 0);
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response_body);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response_headers);

	struct curl_slist *list = NULL;
	char authorization[256];
	if (token) {
		snprintf(authorization, sizeof authorization, "Authorization: Bearer %s", token);
		list = curl_slist_append(list, authorization);
	}
	int has_type = 0, chunked = 0;
	for (size_t i = 0; headers && headers[i]; i++) {
		list = curl_slist_append(list, headers[i]);
		has_type |= strncasecmp(headers[i], "Content-Type:", 13) == 0;
		chunked |= strncasecmp(headers[i], "Transfer-Encoding: chunked", 26) == 0;
	}
	if (body && !has_type)
		list = curl_slist_append(list, "Content-Type: application/json");
	list = curl_slist_append(list, "Expect:");
	struct upload upload = {body, body_length, 0};
	if (strcmp(method, "GET") == 0) {
		curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L);
	} else if (strcmp(method, "HEAD") == 0) {
		curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
	} else {
		curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method);
		if (chunked) {
			curl_easy_setopt(curl, CURLOPT_POST, 1L);
			curl_easy_setopt(curl, CURLOPT_READFUNCTION, on_read);
			curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
		} else if (body) {
			curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
			curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_length);
		} else if (strcmp(method, "POST") == 0) {
			curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "");
			curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, 0L);
		}
	}
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
	double started = http_clock();
	CURLcode code = curl_easy_perform(curl);
	out->seconds = http_clock() - started;
	curl_slist_free_all(list);
	ck_assert_msg(code == CURLE_OK, "%s %s%s: %s (after %.2f s)", method, client->base, path,
		      curl_easy_strerror(code), out->seconds);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
	out->body = response_body.data;
	out->body_length = response_body.length;
	out->headers = response_headers.data;
	if (out->body_length)
		out->json = json_loadb(out->body, out->body_length, 0, NULL);
	if (client->contract)
		check_contract(method, path, out);
}

void http_call(struct http_client *client, const char *method, const char *path, const char *token, const char *body,
	       const char *const *headers, struct http_response *out)
{
	perform(client, method, path, token, body, body ? strlen(body) : 0, headers, out);
}

void http_call_json(struct http_client *client, const char *method, const char *path, const char *token,
		    const json_t *body, const char *const *headers, struct http_response *out)
{
	char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
	http_call(client, method, path, token, text, headers, out);
	free(text);
}

json_t *http_get_ok(struct http_client *client, const char *path, const char *token)
{
	struct http_response response;
	http_call(client, "GET", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && response.json, "GET %s: %s", path, http_describe(&response));
	json_t *version = json_object_get(response.json, "version");
	if (json_is_integer(version)) {
		char etag[64], expected[64];
		snprintf(expected, sizeof expected, "\"%lld\"", (long long)json_integer_value(version));
		ck_assert_msg(http_response_header(&response, "ETag", etag, sizeof etag) != NULL, "GET %s: no ETag",
			      path);
		ck_assert_msg(strcmp(etag, expected) == 0, "GET %s: ETag %s for version %s", path, etag, expected);
	}
	json_t *body = json_incref(response.json);
	http_response_free(&response);
	return body;
}

void http_assert_problem(const struct http_response *response, long status, const char *code)
{
	ck_assert_msg(response->status == status, "expected %ld %s, got %s", status, code, http_describe(response));
	char type[128];
	ck_assert_msg(http_response_header(response, "Content-Type", type, sizeof type) &&
			      strncmp(type, "application/problem+json", 24) == 0,
		      "a problem is application/problem+json: %s", http_describe(response));
	json_t *body = response->json;
	ck_assert_msg(json_is_object(body), "a problem body is a JSON object: %s", http_describe(response));
	static const char *const members[] = {"type", "title", "detail", "code"};
	for (size_t i = 0; i < sizeof members / sizeof members[0]; i++) {
		json_t *member = json_object_get(body, members[i]);
		ck_assert_msg(json_is_string(member) && json_string_length(member) > 0, "problem member %s: %s",
			      members[i], http_describe(response));
	}
	ck_assert_msg(json_integer_value(json_object_get(body, "status")) == status, "problem status: %s",
		      http_describe(response));
	ck_assert_msg(strcmp(json_string_value(json_object_get(body, "code")), code) == 0, "expected code %s: %s", code,
		      http_describe(response));
}

/* ---- Server-Sent Events ---- */

struct sse_reader {
	struct buffer pending; /* bytes after the last complete event */
	struct http_stream *out;
	int capacity, max_events;
	const volatile long *until;
	int done;
};

/* One event block (lines without the blank line that ends it). */
static void sse_block(struct sse_reader *reader, char *block)
{
	struct http_sse_event event;
	memset(&event, 0, sizeof event);
	event.id = -1;
	struct buffer data = {0};
	int has_data = 0, has_field = 0;
	char *save = NULL;
	for (char *line = strtok_r(block, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		size_t length = strlen(line);
		if (length && line[length - 1] == '\r')
			line[--length] = '\0';
		if (line[0] == ':') {
			reader->out->comments++;
			continue;
		}
		char *colon = strchr(line, ':');
		char *value = colon ? colon + 1 : line + length;
		if (colon)
			*colon = '\0';
		if (*value == ' ')
			value++;
		has_field = 1;
		if (strcmp(line, "id") == 0) {
			event.id = strtol(value, NULL, 10);
		} else if (strcmp(line, "event") == 0) {
			snprintf(event.type, sizeof event.type, "%s", value);
		} else if (strcmp(line, "data") == 0) {
			if (has_data)
				buffer_append(&data, "\n", 1);
			buffer_append(&data, value, strlen(value));
			has_data = 1;
		}
	}
	if (!has_field) {
		free(data.data);
		return;
	}
	if (has_data)
		event.data = json_loadb(data.data, data.length, 0, NULL);
	free(data.data);
	struct http_stream *out = reader->out;
	if (out->count == reader->capacity) {
		reader->capacity = reader->capacity ? reader->capacity * 2 : 64;
		out->events = realloc(out->events, sizeof *out->events * (size_t)reader->capacity);
		ck_assert(out->events != NULL);
	}
	out->events[out->count++] = event;
	if (out->count >= reader->max_events || (reader->until && *reader->until > 0 && event.id >= *reader->until))
		reader->done = 1;
}

static size_t on_stream(char *data, size_t size, size_t count, void *user)
{
	struct sse_reader *reader = user;
	size_t length = size * count;
	buffer_append(&reader->pending, data, length);
	while (!reader->done) {
		char *end = strstr(reader->pending.data, "\n\n");
		if (!end)
			break;
		*end = '\0';
		size_t used = (size_t)(end - reader->pending.data) + 2;
		char *block = strdup(reader->pending.data);
		ck_assert(block != NULL);
		sse_block(reader, block);
		free(block);
		memmove(reader->pending.data, reader->pending.data + used, reader->pending.length - used + 1);
		reader->pending.length -= used;
	}
	return reader->done ? 0 : length; /* 0 ends the transfer */
}

/* Checks the stop condition while no bytes arrive. */
static int on_stream_progress(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow)
{
	(void)dltotal, (void)dlnow, (void)ultotal, (void)ulnow;
	struct sse_reader *reader = user;
	struct http_stream *out = reader->out;
	if (reader->until && *reader->until > 0 && out->count && out->events[out->count - 1].id >= *reader->until)
		reader->done = 1;
	return reader->done;
}

void http_stream_read(const char *base, const char *path, const char *token, const char *last_event_id, int max_events,
		      const volatile long *until, double timeout_s, struct http_stream *out)
{
	global_init();
	memset(out, 0, sizeof *out);
	CURL *curl = curl_easy_init();
	ck_assert(curl != NULL);
	char url[1024];
	snprintf(url, sizeof url, "%s%s", base, path);
	struct sse_reader reader = {{0}, out, 0, max_events, until, 0};
	buffer_append(&reader.pending, "", 0);
	struct buffer headers = {0};
	buffer_append(&headers, "", 0);
	struct curl_slist *list = curl_slist_append(NULL, "Accept: text/event-stream");
	char line[256];
	if (token) {
		snprintf(line, sizeof line, "Authorization: Bearer %s", token);
		list = curl_slist_append(list, line);
	}
	char resume[96];
	if (last_event_id) {
		snprintf(resume, sizeof resume, "Last-Event-ID: %s", last_event_id);
		list = curl_slist_append(list, resume);
	}
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)(timeout_s * 1000));
	curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_stream);
	curl_easy_setopt(curl, CURLOPT_WRITEDATA, &reader);
	curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
	curl_easy_setopt(curl, CURLOPT_HEADERDATA, &headers);
	curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_stream_progress);
	curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &reader);
	double started = http_clock();
	CURLcode code = curl_easy_perform(curl);
	out->seconds = http_clock() - started;
	ck_assert_msg(code == CURLE_OK || code == CURLE_OPERATION_TIMEDOUT || code == CURLE_WRITE_ERROR ||
			      code == CURLE_ABORTED_BY_CALLBACK,
		      "GET %s (stream): %s", url, curl_easy_strerror(code));
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
	struct http_response view = {0};
	view.headers = headers.data;
	http_response_header(&view, "Content-Type", out->content_type, sizeof out->content_type);
	free(headers.data);
	free(reader.pending.data);
	curl_slist_free_all(list);
	curl_easy_cleanup(curl);
}

void http_stream_free(struct http_stream *stream)
{
	for (int i = 0; i < stream->count; i++)
		if (stream->events[i].data)
			json_decref(stream->events[i].data);
	free(stream->events);
	memset(stream, 0, sizeof *stream);
}

/* ---- Games ---- */

const char *http_game_path(const struct http_game *game, const char *suffix, char *out, size_t size)
{
	snprintf(out, size, "%s%s", game->path, suffix ? suffix : "");
	return out;
}

#define KNOWN_GAMES 256

static pthread_mutex_t known_lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
	char id[24];
	long version;
} known_games[KNOWN_GAMES];

void http_game_note_version(const struct http_game *game, long version)
{
	pthread_mutex_lock(&known_lock);
	int free_slot = -1, i;
	for (i = 0; i < KNOWN_GAMES && strcmp(known_games[i].id, game->id) != 0; i++)
		if (free_slot < 0 && !known_games[i].id[0])
			free_slot = i;
	if (i == KNOWN_GAMES && free_slot < 0)
		free_slot = (int)(http_random64() % KNOWN_GAMES); /* forget one: its reads ask for less */
	if (i == KNOWN_GAMES) {
		i = free_slot;
		snprintf(known_games[i].id, sizeof known_games[i].id, "%s", game->id);
		known_games[i].version = 0;
	}
	if (known_games[i].version < version)
		known_games[i].version = version;
	pthread_mutex_unlock(&known_lock);
}

long http_game_known_version(const struct http_game *game)
{
	long version = 0;
	pthread_mutex_lock(&known_lock);
	for (int i = 0; i < KNOWN_GAMES; i++)
		if (strcmp(known_games[i].id, game->id) == 0)
			version = known_games[i].version;
	pthread_mutex_unlock(&known_lock);
	return version;
}

const char *http_game_read_path(const struct http_game *game, const char *suffix, char *out, size_t size)
{
	long known = http_game_known_version(game);
	suffix = suffix ? suffix : "";
	if (known > 0)
		snprintf(out, size, "%s%s%cmin_version=%ld", game->path, suffix, strchr(suffix, '?') ? '&' : '?',
			 known);
	else
		snprintf(out, size, "%s%s", game->path, suffix);
	return out;
}

static void copy_string(char *out, size_t size, const json_t *value, const char *what)
{
	ck_assert_msg(json_is_string(value), "%s is a string", what);
	ck_assert_msg(json_string_length(value) < size, "%s is too long", what);
	snprintf(out, size, "%s", json_string_value(value));
}

/* POST /v1/games with `body`; bot seats (as the answer says) may have no token. */
static void create_game(struct http_client *client, const char *body, int expected_seats, struct http_game *game)
{
	struct http_response response;
	http_call(client, "POST", "/v1/games", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201 && response.json, "create %s: %s", body, http_describe(&response));
	memset(game, 0, sizeof *game);
	copy_string(game->id, sizeof game->id, json_object_get(response.json, "id"), "id");
	copy_string(game->admin_token, sizeof game->admin_token, json_object_get(response.json, "admin_token"),
		    "admin_token");
	json_t *version = json_object_get(response.json, "version");
	ck_assert_msg(json_is_integer(version) && json_integer_value(version) >= 1, "a new game has a version");
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(response.json, "game"), "version")),
			 json_integer_value(version));
	json_t *seat_list = json_object_get(response.json, "seats");
	int seats = json_is_array(seat_list) ? (int)json_array_size(seat_list) : 0;
	ck_assert_msg(seats >= 3 && seats <= GAME_MAX_SEATS && (expected_seats == 0 || seats == expected_seats),
		      "seats: %s", http_describe(&response));
	for (int s = 0; s < seats; s++) {
		json_t *seat = json_array_get(seat_list, (size_t)s);
		ck_assert_int_eq(json_integer_value(json_object_get(seat, "seat")), s);
		if (json_is_true(json_object_get(seat, "bot"))) {
			ck_assert_msg(json_is_null(json_object_get(seat, "token")), "bot seat %d has a token", s);
			game->bots |= (uint8_t)(1u << s);
		} else {
			copy_string(game->tokens[s], sizeof game->tokens[s], json_object_get(seat, "token"), "token");
		}
	}
	game->seats = seats;
	snprintf(game->path, sizeof game->path, "/v1/games/%s", game->id);
	char location[128];
	ck_assert_msg(http_response_header(&response, "Location", location, sizeof location) &&
			      strcmp(location, game->path) == 0,
		      "Location of a new game");
	http_response_free(&response);
}

void http_game_create(struct http_client *client, int seats, const char *options, struct http_game *game)
{
	char body[1024];
	snprintf(body, sizeof body, "{\"seats\": %d%s%s}", seats, options ? ", \"options\": " : "",
		 options ? options : "");
	create_game(client, body, seats, game);
	ck_assert_msg(game->bots == 0, "a game created with seats has no bot seat");
}

void http_game_create_body(struct http_client *client, const char *body, struct http_game *game)
{
	create_game(client, body, 0, game);
}

const char *http_players_json(int seats, uint8_t bots, char *out, size_t size)
{
	size_t used = (size_t)snprintf(out, size, "[");
	for (int s = 0; s < seats && used < size; s++)
		used += (size_t)snprintf(out + used, size - used, "%s{\"name\": \"%s %d\", \"bot\": %s}", s ? ", " : "",
					 bots >> s & 1u ? "Bot" : "Seat", s + 1, bots >> s & 1u ? "true" : "false");
	if (used < size)
		snprintf(out + used, size - used, "]");
	ck_assert_msg(used + 1 < size, "players list too long");
	return out;
}

void http_post_move(struct http_client *client, const struct http_game *game, int seat, const char *body,
		    const char *const *headers, struct http_response *out)
{
	char path[128];
	http_call(client, "POST", http_game_path(game, "/moves", path, sizeof path),
		  seat >= 0 ? game->tokens[seat] : NULL, body, headers, out);
}

long http_post_move_ok(struct http_client *client, const struct http_game *game, int seat, const char *body)
{
	struct http_response response;
	http_post_move(client, game, seat, body, NULL, &response);
	ck_assert_msg(response.status == 201 && response.json, "seat %d %s: %s", seat, body, http_describe(&response));
	long version = (long)json_integer_value(json_object_get(response.json, "version"));
	http_response_free(&response);
	return version;
}

long http_game_version(struct http_client *client, const struct http_game *game)
{
	char path[192];
	json_t *view = http_get_ok(client, http_game_read_path(game, NULL, path, sizeof path), NULL);
	long version = (long)json_integer_value(json_object_get(view, "version"));
	http_game_note_version(game, version);
	json_decref(view);
	return version;
}

long http_game_wait(struct http_client *client, const struct http_game *game, long after, int wait_s)
{
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=%d&limit=1", game->path, after, wait_s);
	long timeout = client->timeout_ms;
	if (client->timeout_ms < (wait_s + 30) * 1000L)
		client->timeout_ms = (wait_s + 30) * 1000L;
	json_t *body = http_get_ok(client, path, NULL);
	client->timeout_ms = timeout;
	long version = (long)json_integer_value(json_object_get(body, "version"));
	json_decref(body);
	return version;
}

int http_game_wait_finished(struct http_client *client, const struct http_game *game, double timeout_s)
{
	double deadline = http_clock() + timeout_s;
	for (;;) {
		json_t *view = http_get_ok(client, game->path, NULL);
		int finished = strcmp(json_string_value(json_object_get(view, "status")), "finished") == 0;
		long version = (long)json_integer_value(json_object_get(view, "version"));
		json_decref(view);
		double left = deadline - http_clock();
		if (finished || left <= 0)
			return finished;
		http_game_wait(client, game, version, left < 10 ? (int)left + 1 : 10);
	}
}

json_t *http_game_log(struct http_client *client, const struct http_game *game, const char *token, long after)
{
	json_t *log = json_array();
	for (;;) {
		char path[160];
		snprintf(path, sizeof path, "%s/moves?after=%ld&limit=1000", game->path, after);
		json_t *page = http_get_ok(client, path, token);
		json_t *events = json_object_get(page, "events");
		ck_assert_msg(json_is_array(events), "GET %s: events is an array", path);
		size_t count = json_array_size(events);
		json_array_extend(log, events);
		after += (long)count;
		long version = (long)json_integer_value(json_object_get(page, "version"));
		json_decref(page);
		if (count == 0 || after >= version)
			break;
	}
	return log;
}

void http_state_capture(struct http_client *client, const struct http_game *game, struct http_state *state)
{
	memset(state, 0, sizeof *state);
	state->views[0] = http_get_ok(client, game->path, NULL);
	state->version = (long)json_integer_value(json_object_get(state->views[0], "version"));
	for (int s = 0; s < game->seats; s++)
		state->views[1 + s] = http_get_ok(client, game->path, game->tokens[s]);
}

void http_state_assert_unchanged(struct http_client *client, const struct http_game *game,
				 const struct http_state *before)
{
	struct http_state after;
	http_state_capture(client, game, &after);
	ck_assert_msg(after.version == before->version, "the version moved from %ld to %ld", before->version,
		      after.version);
	for (int i = 0; i <= game->seats; i++) {
		if (json_equal(before->views[i], after.views[i]))
			continue;
		/* Name the first member that differs. */
		const char *key;
		json_t *was;
		json_object_foreach(before->views[i], key, was)
		{
			json_t *now = json_object_get(after.views[i], key);
			if (json_equal(was, now))
				continue;
			char *was_text = json_dumps(was, JSON_COMPACT | JSON_ENCODE_ANY);
			char *now_text = now ? json_dumps(now, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
			ck_abort_msg("the view of %s%d changed in %s:\nbefore %.900s\nafter  %.900s",
				     i ? "seat " : "spectator ", i - 1, key, was_text,
				     now_text ? now_text : "(absent)");
		}
		ck_abort_msg("the view of %s%d gained members", i ? "seat " : "spectator ", i - 1);
	}
	http_state_free(&after);
}

void http_state_free(struct http_state *state)
{
	for (int i = 0; i <= GAME_MAX_SEATS; i++)
		if (state->views[i])
			json_decref(state->views[i]);
	memset(state, 0, sizeof *state);
}

/* ---- Ground truth ---- */

/* This process's store on DATABASE_URL (a store opened before a fork belongs to the
 * parent's connection: never share it), used by one thread at a time (truth_lock). */
static pthread_mutex_t truth_lock = PTHREAD_MUTEX_INITIALIZER;

static struct store *truth_store(void)
{
	static struct store *store;
	static pid_t owner;
	if (!store || owner != getpid()) {
		const char *url = getenv("DATABASE_URL");
		ck_assert_msg(url && *url, "DATABASE_URL is not set: run through scripts/with-postgres.sh");
		enum store_status status = store_open(url, &store);
		ck_assert_msg(status == STORE_OK, "store_open: %s", store_message(store));
		owner = getpid();
	}
	return store;
}

void http_truth_load(const char *game_id, struct game *state, int64_t *seed)
{
	int64_t id;
	ck_assert_msg(store_parse_id(game_id, &id), "game id %s", game_id);
	pthread_mutex_lock(&truth_lock);
	struct game_repo repo;
	game_repo_init(&repo, truth_store(), 0);
	enum store_status status = game_repo_load(&repo, id, state, seed);
	ck_assert_msg(status == STORE_OK, "game_repo_load %s: %s", game_id, game_repo_message(&repo));
	pthread_mutex_unlock(&truth_lock);
}

/* The stored rows after `after`: events alone, or {actor, origin, event} objects. */
static json_t *truth_read(const char *game_id, long after, int with_rows)
{
	static const char *const origins[] = {"player", "timeout", "bot"};
	int64_t id;
	ck_assert_msg(store_parse_id(game_id, &id), "game id %s", game_id);
	json_t *events = json_array();
	pthread_mutex_lock(&truth_lock);
	for (;;) {
		struct store_log log;
		enum store_status status = store_read_events(truth_store(), id, (int32_t)after, 1000, &log);
		ck_assert_msg(status == STORE_OK, "store_read_events: %s", store_message(truth_store()));
		for (int i = 0; i < log.count; i++) {
			ck_assert_int_eq(log.rows[i].seq, after + 1);
			json_error_t error;
			json_t *event = json_loadb(log.rows[i].payload, log.rows[i].payload_size, 0, &error);
			ck_assert_msg(event != NULL, "stored event %d: %s", log.rows[i].seq, error.text);
			/* Payloads are stored without their type, which is the row's. */
			if (!json_object_get(event, "type")) {
				const char *name = event_type_name(log.rows[i].type);
				ck_assert_msg(name != NULL, "stored event %d has type %d", log.rows[i].seq,
					      log.rows[i].type);
				json_object_set_new(event, "type", json_string(name));
			}
			if (with_rows) {
				int origin = log.rows[i].origin;
				ck_assert_msg(origin >= 0 && origin <= 2, "event %d has origin %d", log.rows[i].seq,
					      origin);
				event = json_pack("{s:i, s:s, s:f, s:o}", "actor", log.rows[i].actor, "origin",
						  origins[origin], "at", (double)log.rows[i].created_at_us / 1e6,
						  "event", event);
			}
			json_array_append_new(events, event);
			after++;
		}
		int count = log.count;
		store_log_free(&log);
		if (count < 1000)
			break;
	}
	pthread_mutex_unlock(&truth_lock);
	return events;
}

json_t *http_truth_events(const char *game_id, long after)
{
	return truth_read(game_id, after, 0);
}

json_t *http_truth_rows(const char *game_id, long after)
{
	return truth_read(game_id, after, 1);
}

void http_player_create(struct http_client *client, const char *name, char *id, char *token)
{
	json_t *body = json_pack("{s:s}", "name", name);
	struct http_response response;
	http_call_json(client, "POST", "/v1/players", NULL, body, NULL, &response);
	json_decref(body);
	ck_assert_msg(response.status == 201, "POST /v1/players: %s", http_describe(&response));
	snprintf(id, 20, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(token, 64, "%s", json_string_value(json_object_get(response.json, "token")));
	ck_assert_int_eq((int)strncmp(token, "pt_", 3), 0);
	http_response_free(&response);
}

void http_export_replays_and_imports(struct http_client *client, const char *game_id, json_t *export, const char *what)
{
	char file[256];
	snprintf(file, sizeof file, "%s/catan-%s-%ld.json",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", what, (long)getpid());
	ck_assert_int_eq(json_dump_file(export, file, JSON_COMPACT), 0);
	const char *catan = getenv("CATAN") && *getenv("CATAN") ? getenv("CATAN") : "build/catan";
	char command[600];
	snprintf(command, sizeof command, "'%s' replay '%s' > /dev/null 2>&1", catan, file);
	int replayed = system(command);
	ck_assert_msg(WIFEXITED(replayed) && WEXITSTATUS(replayed) == 0, "catan replay refused the export (%s)", file);
	unlink(file);
	struct http_response imported;
	http_call_json(client, "POST", "/v1/games/import", NULL, export, NULL, &imported);
	ck_assert_msg(imported.status == 201, "import: %s", http_describe(&imported));
	json_t *original = http_truth_rows(game_id, 0);
	json_t *copy = http_truth_rows(json_string_value(json_object_get(imported.json, "id")), 0);
	ck_assert_int_eq(json_array_size(original), json_array_size(copy));
	for (size_t i = 0; i < json_array_size(original); i++) {
		json_t *a = json_array_get(original, i), *b = json_array_get(copy, i);
		json_object_del(a, "at");
		json_object_del(b, "at");
		ck_assert_msg(json_equal(a, b), "row %zu differs after the import", i);
	}
	json_decref(original);
	json_decref(copy);
	http_response_free(&imported);
}

long long http_sql_number(const char *sql)
{
	PGconn *connection = PQconnectdb(getenv("DATABASE_URL") ? getenv("DATABASE_URL") : "");
	ck_assert_msg(PQstatus(connection) == CONNECTION_OK, "database: %s", PQerrorMessage(connection));
	PGresult *result = PQexec(connection, sql);
	ExecStatusType status = PQresultStatus(result);
	ck_assert_msg(status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK, "%s: %s", sql,
		      PQresultErrorMessage(result));
	long long value = 0;
	if (status == PGRES_TUPLES_OK && PQntuples(result) > 0 && PQnfields(result) > 0 && !PQgetisnull(result, 0, 0))
		value = atoll(PQgetvalue(result, 0, 0));
	PQclear(result);
	PQfinish(connection);
	return value;
}

const char *http_unique_address(char *out, size_t size)
{
	/* 10.P.P.N: the program's pid and a counter, so no two programs or calls share one. */
	static int counter;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	pthread_mutex_lock(&lock);
	int n = ++counter;
	pthread_mutex_unlock(&lock);
	unsigned pid = (unsigned)getpid();
	snprintf(out, size, "10.%u.%u.%u", (pid >> 8) & 255u, pid & 255u, (unsigned)n & 255u);
	return out;
}

long http_metric(struct http_client *client, const char *name)
{
	struct http_response response;
	http_call(client, "GET", "/metrics", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	char line[128];
	snprintf(line, sizeof line, "\n%s ", name);
	const char *at = strstr(response.body, line);
	long value = at ? atol(at + strlen(line)) : -1;
	http_response_free(&response);
	return value;
}
