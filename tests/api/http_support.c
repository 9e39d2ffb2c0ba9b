/*
 * http_support.c - servers, proxies, a libcurl client, games and random play for the
 * HTTP integration tests (see http_support.h).
 *
 * Child processes are started with fork + execve on an environment built before the fork
 * (so nothing but async-signal-safe calls run between the two), with their stdout on a
 * pipe (the server's "serving on" line) or a log file (Prism), and PR_SET_PDEATHSIG so
 * they never outlive the test program.
 *
 * The random player reads everything it needs over HTTP like any client: the view (who is
 * waiting, open offers, its own hand), the acting seat's actions, and then sends the
 * chosen action to the resource that makes it.
 */
#include "tests/api/http_support.h"

#include <check.h>
#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "api/game_repo.h"
#include "db/store.h"

extern char **environ;

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

/* ---- Processes ---- */

/* environ with `overrides` ("NAME=value") replacing or adding entries; caller frees the
 * array (not the strings, which are borrowed). */
static char **environment_with(const char *const *overrides)
{
	size_t count = 0, extra = 0;
	while (environ[count])
		count++;
	for (size_t i = 0; overrides && overrides[i]; i++)
		extra++;
	char **out = calloc(count + extra + 1, sizeof *out);
	ck_assert(out != NULL);
	size_t n = 0;
	for (size_t i = 0; i < count; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t name_length = eq ? (size_t)(eq - environ[i]) : strlen(environ[i]);
		int replaced = 0;
		for (size_t k = 0; overrides && overrides[k] && !replaced; k++)
			replaced = strncmp(overrides[k], environ[i], name_length) == 0 && overrides[k][name_length] == '=';
		if (!replaced)
			out[n++] = environ[i];
	}
	for (size_t k = 0; overrides && overrides[k]; k++) {
		/* The last of several overrides of one name wins. */
		const char *eq = strchr(overrides[k], '=');
		size_t name_length = eq ? (size_t)(eq - overrides[k]) : strlen(overrides[k]);
		int later = 0;
		for (size_t j = k + 1; overrides[j] && !later; j++)
			later = strncmp(overrides[j], overrides[k], name_length + 1) == 0;
		if (!later)
			out[n++] = (char *)(uintptr_t)overrides[k];
	}
	out[n] = NULL;
	return out;
}

/* fork + execve with stdout to `stdout_fd` and stderr to `stderr_fd`. */
static pid_t spawn(const char *program, char *const argv[], char **envp, int stdout_fd, int stderr_fd)
{
	pid_t parent = getpid();
	pid_t pid = fork();
	ck_assert_msg(pid >= 0, "fork: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(127);
		setpgid(0, 0); /* a Ctrl-C of make reaches the test program, which ends us */
		int null_fd = open("/dev/null", O_RDONLY);
		if (null_fd >= 0)
			dup2(null_fd, 0);
		dup2(stdout_fd, 1);
		dup2(stderr_fd, 2);
		execve(program, argv, envp);
		_exit(127);
	}
	return pid;
}

static const char *server_program(void)
{
	const char *path = getenv("CATAN_SERVER");
	return path && *path ? path : "build/catan-server";
}

static void log_tail(const char *path, char *out, size_t size)
{
	out[0] = '\0';
	FILE *file = fopen(path, "r");
	if (!file)
		return;
	fseek(file, 0, SEEK_END);
	long length = ftell(file);
	long start = length > (long)size - 1 ? length - (long)size + 1 : 0;
	fseek(file, start, SEEK_SET);
	size_t got = fread(out, 1, size - 1, file);
	out[got] = '\0';
	fclose(file);
}

void http_server_start(struct http_server *server, const char *const *settings)
{
	memset(server, 0, sizeof *server);
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	static int counter;
	snprintf(server->log_path, sizeof server->log_path, "%s/catan-http-test-%ld-%d.log", tmp, (long)getpid(),
		 ++counter);
	const char *defaults[] = {"PORT=0", "LISTEN=127.0.0.1", "RATE_LIMIT_IP=0", "RATE_LIMIT_TOKEN=0", "THREADS=8"};
	const char *all[64];
	size_t n = 0;
	for (size_t i = 0; i < sizeof defaults / sizeof defaults[0]; i++)
		all[n++] = defaults[i];
	for (size_t i = 0; settings && settings[i] && n < 63; i++)
		all[n++] = settings[i];
	all[n] = NULL;
	char **envp = environment_with(all);
	int pipe_fds[2];
	ck_assert(pipe(pipe_fds) == 0);
	int log_fd = open(server->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_msg(log_fd >= 0, "%s: %s", server->log_path, strerror(errno));
	const char *program = server_program();
	char *argv[] = {(char *)(uintptr_t)program, NULL};
	server->pid = spawn(program, argv, envp, pipe_fds[1], log_fd);
	close(pipe_fds[1]);
	close(log_fd);
	free(envp);
	server->stdout_fd = pipe_fds[0];

	/* Read stdout until the line "catan-server: serving on http://HOST:PORT (...)". */
	char line[512];
	size_t used = 0;
	double deadline = http_clock() + 60;
	while (!server->port) {
		double left = deadline - http_clock();
		char tail[1024];
		if (left <= 0) {
			log_tail(server->log_path, tail, sizeof tail);
			kill(server->pid, SIGKILL);
			waitpid(server->pid, NULL, 0);
			ck_abort_msg("%s did not start within 60 s; its log %s ends:\n%s", program, server->log_path, tail);
		}
		struct pollfd poll_fd = {server->stdout_fd, POLLIN, 0};
		int ready = poll(&poll_fd, 1, (int)(left * 1000) + 1);
		if (ready <= 0)
			continue;
		ssize_t got = read(server->stdout_fd, line + used, sizeof line - 1 - used);
		if (got <= 0) {
			int status = 0;
			waitpid(server->pid, &status, 0);
			log_tail(server->log_path, tail, sizeof tail);
			ck_abort_msg("%s exited before serving (status %d); its log %s ends:\n%s", program, status,
				     server->log_path, tail);
		}
		used += (size_t)got;
		line[used] = '\0';
		const char *marker = strstr(line, "serving on http://");
		if (marker && strchr(marker, '\n')) {
			const char *colon = strchr(marker + strlen("serving on http://"), ':');
			ck_assert_msg(colon != NULL, "cannot parse the serving line: %s", line);
			server->port = atoi(colon + 1);
			ck_assert_msg(server->port > 0, "cannot parse the port: %s", line);
		}
		if (used >= sizeof line - 1)
			used = 0;
	}
	snprintf(server->url, sizeof server->url, "http://127.0.0.1:%d", server->port);
}

int http_server_stop(struct http_server *server, double timeout_s)
{
	if (server->pid <= 0)
		return -1;
	kill(server->pid, SIGTERM);
	double deadline = http_clock() + timeout_s;
	int status = 0;
	pid_t done = 0;
	while ((done = waitpid(server->pid, &status, WNOHANG)) == 0 && http_clock() < deadline)
		http_pause(0.01);
	int result;
	if (done == server->pid) {
		result = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	} else {
		kill(server->pid, SIGKILL);
		waitpid(server->pid, NULL, 0);
		result = -1;
	}
	if (server->stdout_fd > 0)
		close(server->stdout_fd);
	server->pid = 0;
	server->stdout_fd = 0;
	return result;
}

static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert(fd >= 0);
	struct sockaddr_in address;
	memset(&address, 0, sizeof address);
	address.sin_family = AF_INET;
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert(bind(fd, (struct sockaddr *)&address, sizeof address) == 0);
	socklen_t length = sizeof address;
	ck_assert(getsockname(fd, (struct sockaddr *)&address, &length) == 0);
	close(fd);
	return ntohs(address.sin_port);
}

static int connectable(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return 0;
	struct sockaddr_in address;
	memset(&address, 0, sizeof address);
	address.sin_family = AF_INET;
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	address.sin_port = htons((uint16_t)port);
	int ok = connect(fd, (struct sockaddr *)&address, sizeof address) == 0;
	close(fd);
	return ok;
}

static int file_contains(const char *path, const char *text)
{
	FILE *file = fopen(path, "r");
	if (!file)
		return 0;
	char buffer[4096];
	int found = 0;
	while (!found && fgets(buffer, sizeof buffer, file))
		found = strstr(buffer, text) != NULL;
	fclose(file);
	return found;
}

/* The same command as scripts/prism.sh runs, started here so that it dies with us. */
void http_proxy_start(struct http_proxy *proxy, const char *upstream, int validate_requests)
{
	memset(proxy, 0, sizeof *proxy);
	const char *program = "openapi/node_modules/.bin/prism";
	ck_assert_msg(access(program, X_OK) == 0, "%s is missing: run `make openapi-deps`", program);
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	proxy->port = free_port();
	snprintf(proxy->url, sizeof proxy->url, "http://127.0.0.1:%d", proxy->port);
	snprintf(proxy->log_path, sizeof proxy->log_path, "%s/catan-http-prism-%d.log", tmp, proxy->port);
	char port[16];
	snprintf(port, sizeof port, "%d", proxy->port);
	char *argv[16];
	int n = 0;
	argv[n++] = (char *)(uintptr_t)program;
	argv[n++] = "proxy";
	argv[n++] = "--errors";
	argv[n++] = "--host";
	argv[n++] = "127.0.0.1";
	argv[n++] = "--port";
	argv[n++] = port;
	if (!validate_requests)
		argv[n++] = "--validate-request=false";
	argv[n++] = "openapi/openapi.yaml";
	argv[n++] = (char *)(uintptr_t)upstream;
	argv[n] = NULL;
	const char *settings[] = {"NO_UPDATE_NOTIFIER=1", NULL};
	char **envp = environment_with(settings);
	int log_fd = open(proxy->log_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_msg(log_fd >= 0, "%s: %s", proxy->log_path, strerror(errno));
	proxy->pid = spawn(program, argv, envp, log_fd, log_fd);
	close(log_fd);
	free(envp);
	double deadline = http_clock() + 90;
	for (;;) {
		int status;
		if (waitpid(proxy->pid, &status, WNOHANG) == proxy->pid) {
			char tail[2048];
			log_tail(proxy->log_path, tail, sizeof tail);
			proxy->pid = 0;
			ck_abort_msg("prism exited; its log %s ends:\n%s", proxy->log_path, tail);
		}
		if (file_contains(proxy->log_path, "Prism is listening") && connectable(proxy->port))
			break;
		ck_assert_msg(http_clock() < deadline, "prism did not listen within 90 s (log %s)", proxy->log_path);
		http_pause(0.05);
	}
}

void http_proxy_stop(struct http_proxy *proxy)
{
	if (proxy->pid <= 0)
		return;
	kill(proxy->pid, SIGTERM);
	double deadline = http_clock() + 10;
	while (waitpid(proxy->pid, NULL, WNOHANG) == 0) {
		if (http_clock() > deadline) {
			kill(proxy->pid, SIGKILL);
			waitpid(proxy->pid, NULL, 0);
			break;
		}
		http_pause(0.02);
	}
	proxy->pid = 0;
}

const char *http_pg_script(void)
{
	const char *script = getenv("CATAN_PG_SCRIPT");
	return script && *script && getenv("CATAN_TEST_PG_DIR") && *getenv("CATAN_TEST_PG_DIR") ? script : NULL;
}

const char *http_pg_dir(void)
{
	return http_pg_script() ? getenv("CATAN_TEST_PG_DIR") : NULL;
}

void http_pg_control(const char *verb)
{
	ck_assert_msg(http_pg_script() != NULL, "no throwaway cluster to %s", verb);
	char *argv[] = {(char *)(uintptr_t)http_pg_script(), (char *)(uintptr_t)verb,
			(char *)(uintptr_t)http_pg_dir(), NULL};
	pid_t pid = spawn(argv[0], argv, environ, 2, 2);
	int status = 0;
	waitpid(pid, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s %s %s failed (%d)", argv[0], verb, argv[2],
		      status);
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
		if (line_length > name_length && strncasecmp(line, name, name_length) == 0 && line[name_length] == ':') {
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
 * header. Either fails the test. */
static void check_contract(const char *method, const char *path, const struct http_response *response)
{
	char violations[2048];
	const char *header = http_response_header(response, "sl-violations", violations, sizeof violations);
	ck_assert_msg(header == NULL, "%s %s: the response breaks openapi.yaml (Prism: %s); %s", method, path,
		      violations, http_describe(response));
	json_t *type = response->json ? json_object_get(response->json, "type") : NULL;
	ck_assert_msg(!(json_is_string(type) && strstr(json_string_value(type), "VIOLATIONS")),
		      "%s %s: the response breaks openapi.yaml: %s", method, path, http_describe(response));
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
	ck_assert_msg(code == CURLE_OK, "%s %s%s: %s (after %.2f s)", method, client->base, path, curl_easy_strerror(code),
		      out->seconds);
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
	out->body = response_body.data;
	out->body_length = response_body.length;
	out->headers = response_headers.data;
	if (out->body_length)
		out->json = json_loadb(out->body, out->body_length, 0, NULL);
	if (client->contract)
		check_contract(method, path, out);
}

void http_call(struct http_client *client, const char *method, const char *path, const char *token,
	       const char *body, const char *const *headers, struct http_response *out)
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
		ck_assert_msg(http_response_header(&response, "ETag", etag, sizeof etag) != NULL, "GET %s: no ETag", path);
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
	ck_assert_msg(strcmp(json_string_value(json_object_get(body, "code")), code) == 0, "expected code %s: %s",
		      code, http_describe(response));
}

/* ---- Games ---- */

const char *http_game_path(const struct http_game *game, const char *suffix, char *out, size_t size)
{
	snprintf(out, size, "%s%s", game->path, suffix ? suffix : "");
	return out;
}

static void copy_string(char *out, size_t size, const json_t *value, const char *what)
{
	ck_assert_msg(json_is_string(value), "%s is a string", what);
	ck_assert_msg(json_string_length(value) < size, "%s is too long", what);
	snprintf(out, size, "%s", json_string_value(value));
}

void http_game_create(struct http_client *client, int seats, const char *options, struct http_game *game)
{
	char body[1024];
	snprintf(body, sizeof body, "{\"seats\": %d%s%s}", seats, options ? ", \"options\": " : "", options ? options : "");
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
	ck_assert_msg(json_is_array(seat_list) && (int)json_array_size(seat_list) == seats, "seats: %s",
		      http_describe(&response));
	for (int s = 0; s < seats; s++) {
		json_t *seat = json_array_get(seat_list, (size_t)s);
		ck_assert_int_eq(json_integer_value(json_object_get(seat, "seat")), s);
		copy_string(game->tokens[s], sizeof game->tokens[s], json_object_get(seat, "token"), "token");
	}
	game->seats = seats;
	snprintf(game->path, sizeof game->path, "/v1/games/%s", game->id);
	char location[128];
	ck_assert_msg(http_response_header(&response, "Location", location, sizeof location) &&
			      strcmp(location, game->path) == 0,
		      "Location of a new game");
	http_response_free(&response);
}

void http_post_move(struct http_client *client, const struct http_game *game, int seat, const char *body,
		    const char *const *headers, struct http_response *out)
{
	char path[128];
	http_call(client, "POST", http_game_path(game, "/moves", path, sizeof path), seat >= 0 ? game->tokens[seat] : NULL,
		  body, headers, out);
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
	json_t *view = http_get_ok(client, game->path, NULL);
	long version = (long)json_integer_value(json_object_get(view, "version"));
	json_decref(view);
	return version;
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
		json_object_foreach(before->views[i], key, was) {
			json_t *now = json_object_get(after.views[i], key);
			if (json_equal(was, now))
				continue;
			char *was_text = json_dumps(was, JSON_COMPACT | JSON_ENCODE_ANY);
			char *now_text = now ? json_dumps(now, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
			ck_abort_msg("the view of %s%d changed in %s:\nbefore %.900s\nafter  %.900s",
				     i ? "seat " : "spectator ", i - 1, key, was_text, now_text ? now_text : "(absent)");
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

/* ---- Random play ---- */

static const char *const move_types[] = {
	"build_settlement", "build_road", "build_city", "roll", "discard", "move_robber",
	"buy_development_card", "play_knight", "play_road_building", "play_year_of_plenty", "play_monopoly",
	"maritime_trade", "end_turn", "offer_trade", "accept_trade", "decline_trade", "confirm_trade",
	"withdraw_trade",
};
#define MOVE_TYPE_COUNT ((int)(sizeof move_types / sizeof move_types[0]))

/* How much more likely one type is chosen than another (per type, then uniform within),
 * tuned so that random games finish in a few hundred moves. */
static const int move_weights[] = {
	[0] = 60,  /* build_settlement */
	[1] = 12,  /* build_road */
	[2] = 80,  /* build_city */
	[3] = 10,  /* roll */
	[4] = 10,  /* discard */
	[5] = 10,  /* move_robber */
	[6] = 25,  /* buy_development_card */
	[7] = 6,   /* play_knight */
	[8] = 10,  /* play_road_building */
	[9] = 10,  /* play_year_of_plenty */
	[10] = 10, /* play_monopoly */
	[11] = 4,  /* maritime_trade */
	[12] = 8,  /* end_turn */
	[13] = 5,  /* offer_trade (only with trades on) */
	[14] = 10, /* accept_trade */
	[15] = 10, /* decline_trade */
	[16] = 1000, /* confirm_trade: confirm when listed */
	[17] = 1,  /* withdraw_trade */
};

int http_move_type_index(const char *type)
{
	for (int i = 0; type && i < MOVE_TYPE_COUNT; i++)
		if (strcmp(move_types[i], type) == 0)
			return i;
	return -1;
}

const char *http_move_type_name(int index)
{
	return index >= 0 && index < MOVE_TYPE_COUNT ? move_types[index] : NULL;
}

void http_player_init(struct http_player *player, struct http_client *client, const struct http_game *game,
		      uint64_t seed, int trades)
{
	memset(player, 0, sizeof *player);
	player->client = client;
	player->game = game;
	rng_init(&player->rng, seed, 0);
	player->trades = trades;
}

void http_move_free(struct http_move *move)
{
	if (move->sent)
		json_decref(move->sent);
	http_response_free(&move->response);
	memset(move, 0, sizeof *move);
}

static const char *const resource_names[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};

static void read_hand(const json_t *view, int hand[RESOURCE_COUNT])
{
	json_t *resources = json_object_get(json_object_get(view, "you"), "resources");
	ck_assert_msg(json_is_object(resources), "the seat's view has you.resources");
	for (int r = 0; r < RESOURCE_COUNT; r++)
		hand[r] = (int)json_integer_value(json_object_get(resources, resource_names[r]));
}

/* `count` cards drawn at random from the hand. */
static json_t *random_cards(struct rng *rng, const int hand_in[RESOURCE_COUNT], int count)
{
	int hand[RESOURCE_COUNT];
	memcpy(hand, hand_in, sizeof hand);
	int taken[RESOURCE_COUNT] = {0};
	for (int i = 0; i < count; i++) {
		int total = 0;
		for (int r = 0; r < RESOURCE_COUNT; r++)
			total += hand[r];
		ck_assert_msg(total > 0, "not enough cards to choose %d", count);
		int pick = (int)rng_below(rng, (uint32_t)total);
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			if (pick < hand[r]) {
				hand[r]--;
				taken[r]++;
				break;
			}
			pick -= hand[r];
		}
	}
	json_t *map = json_object();
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (taken[r])
			json_object_set_new(map, resource_names[r], json_integer(taken[r]));
	return map;
}

/* Fill an offer_trade template: give 1..2 cards the seat holds, want 1..2 of one resource
 * it does not give; now and then address it to some seats only. */
static void fill_offer(struct http_player *player, json_t *action, const json_t *view, int seat, int active)
{
	int hand[RESOURCE_COUNT];
	read_hand(view, hand);
	int total = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		total += hand[r];
	int give_count = total >= 2 && rng_below(&player->rng, 2) ? 2 : 1;
	json_t *give = random_cards(&player->rng, hand, give_count);
	int options[RESOURCE_COUNT], option_count = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (!json_object_get(give, resource_names[r]))
			options[option_count++] = r;
	int want = options[rng_below(&player->rng, (uint32_t)option_count)];
	json_object_set_new(action, "give", give);
	json_object_set_new(action, "want", json_pack("{s:i}", resource_names[want], 1 + (int)rng_below(&player->rng, 2)));
	if (active && !json_object_get(action, "to") && rng_below(&player->rng, 3) == 0) {
		json_t *to = json_array();
		for (int s = 0; s < player->game->seats; s++)
			if (s != seat && (json_array_size(to) == 0 || rng_below(&player->rng, 2)))
				json_array_append_new(to, json_integer(s));
		json_object_set_new(action, "to", to);
	}
	/* An inactive seat sometimes answers an offer addressed to it with a counter-offer. */
	size_t index;
	json_t *trade;
	json_array_foreach(json_object_get(view, "trades"), index, trade) {
		int addressed = 0;
		size_t k;
		json_t *to;
		json_array_foreach(json_object_get(trade, "to"), k, to)
			addressed |= json_integer_value(to) == seat;
		if (active || !addressed || rng_below(&player->rng, 2))
			continue;
		json_object_set_new(action, "counter_to", json_integer(json_integer_value(json_object_get(trade, "id"))));
		break;
	}
}

/* The seats that still owe an answer to an open offer. */
static int unanswered_seats(const json_t *view, int seats[GAME_MAX_SEATS])
{
	int count = 0;
	int mask = 0;
	size_t index;
	json_t *trade;
	json_array_foreach(json_object_get(view, "trades"), index, trade) {
		int answered = 0;
		size_t k;
		json_t *seat;
		json_array_foreach(json_object_get(trade, "accepted"), k, seat)
			answered |= 1 << json_integer_value(seat);
		json_array_foreach(json_object_get(trade, "declined"), k, seat)
			answered |= 1 << json_integer_value(seat);
		json_array_foreach(json_object_get(trade, "to"), k, seat) {
			int s = (int)json_integer_value(seat);
			if (!(answered >> s & 1) && !(mask >> s & 1)) {
				mask |= 1 << s;
				seats[count++] = s;
			}
		}
	}
	return count;
}

static json_t *actions_of(struct http_player *player, int seat)
{
	char path[128];
	json_t *body = http_get_ok(player->client, http_game_path(player->game, "/actions", path, sizeof path),
				   player->game->tokens[seat]);
	json_t *actions = json_incref(json_object_get(body, "actions"));
	ck_assert_msg(json_is_array(actions), "actions is an array");
	ck_assert_int_eq(json_integer_value(json_object_get(body, "seat")), seat);
	json_decref(body);
	return actions;
}

/* A weighted random action (borrowed from `actions`). */
static json_t *choose_action(struct http_player *player, json_t *actions)
{
	int weight_of_type[MOVE_TYPE_COUNT] = {0};
	size_t index;
	json_t *action;
	json_array_foreach(actions, index, action) {
		const char *type = json_string_value(json_object_get(action, "type"));
		int t = http_move_type_index(type);
		ck_assert_msg(t >= 0, "unknown action type %s", type ? type : "(none)");
		if (t == 13 && !player->trades)
			continue;
		weight_of_type[t] = move_weights[t];
	}
	int total = 0;
	for (int t = 0; t < MOVE_TYPE_COUNT; t++)
		total += weight_of_type[t];
	if (total == 0)
		return NULL;
	int pick = (int)rng_below(&player->rng, (uint32_t)total);
	int chosen = 0;
	for (int t = 0; t < MOVE_TYPE_COUNT; t++) {
		if (pick < weight_of_type[t]) {
			chosen = t;
			break;
		}
		pick -= weight_of_type[t];
	}
	int of_type = 0;
	json_array_foreach(actions, index, action)
		of_type += strcmp(json_string_value(json_object_get(action, "type")), move_types[chosen]) == 0;
	int nth = (int)rng_below(&player->rng, (uint32_t)of_type);
	json_array_foreach(actions, index, action) {
		if (strcmp(json_string_value(json_object_get(action, "type")), move_types[chosen]) == 0 && nth-- == 0)
			return action;
	}
	return NULL;
}

int http_player_step(struct http_player *player, struct http_move *move)
{
	const struct http_game *game = player->game;
	struct http_client *client = player->client;
	int seat = player->last_seat;
	json_t *view = http_get_ok(client, game->path, game->tokens[seat]);
	const char *status = json_string_value(json_object_get(view, "status"));
	ck_assert_msg(status != NULL, "the view has a status");
	if (strcmp(status, "finished") == 0) {
		json_decref(view);
		return 0;
	}
	int waiting[GAME_MAX_SEATS], waiting_count = 0;
	size_t index;
	json_t *value;
	json_array_foreach(json_object_get(json_object_get(view, "pending"), "seats"), index, value)
		if (waiting_count < GAME_MAX_SEATS)
			waiting[waiting_count++] = (int)json_integer_value(value);
	ck_assert_msg(waiting_count > 0, "a game in progress waits for someone");
	int answering[GAME_MAX_SEATS];
	int answering_count = unanswered_seats(view, answering);
	int chosen = answering_count && rng_below(&player->rng, 10) < 8
			     ? answering[rng_below(&player->rng, (uint32_t)answering_count)]
			     : waiting[rng_below(&player->rng, (uint32_t)waiting_count)];
	json_t *actions = actions_of(player, chosen);
	if (json_array_size(actions) == 0 && chosen != waiting[0]) {
		json_decref(actions);
		chosen = waiting[0];
		actions = actions_of(player, chosen);
	}
	ck_assert_msg(json_array_size(actions) > 0, "seat %d, which the game waits for, has no actions", chosen);
	json_t *picked = choose_action(player, actions);
	ck_assert_msg(picked != NULL, "no action to choose for seat %d", chosen);
	json_t *action = json_deep_copy(picked);
	json_decref(actions);
	if (chosen != seat) {
		json_decref(view);
		view = http_get_ok(client, game->path, game->tokens[chosen]);
		seat = chosen;
	}
	player->last_seat = seat;

	const char *type = json_string_value(json_object_get(action, "type"));
	int type_index = http_move_type_index(type);
	if (json_is_true(json_object_get(action, "template"))) {
		json_object_del(action, "template");
		if (type_index == 4) {
			int hand[RESOURCE_COUNT];
			read_hand(view, hand);
			int count = (int)json_integer_value(json_object_get(action, "count"));
			ck_assert_msg(count > 0, "a discard template carries its count");
			json_object_del(action, "count");
			json_object_del(action, "hand");
			json_object_set_new(action, "resources", random_cards(&player->rng, hand, count));
		} else if (type_index == 13) {
			int active = json_integer_value(json_object_get(json_object_get(view, "turn"), "seat")) == seat;
			fill_offer(player, action, view, seat, active);
		} else if (type_index == 3) {
			json_object_set_new(action, "dice", json_pack("[i, i]", 1 + (int)rng_below(&player->rng, 6),
								     1 + (int)rng_below(&player->rng, 6)));
		} else {
			ck_abort_msg("unexpected template %s", type);
		}
	}
	json_decref(view);

	/* Where the action goes: trades have resources of their own. */
	char path[128];
	const char *method = "POST";
	json_t *body = action;
	int trade = (int)json_integer_value(json_object_get(action, "trade"));
	char suffix[48];
	if (type_index == 13) {
		json_object_del(action, "type");
		if (json_integer_value(json_object_get(action, "counter_to")) == 0)
			json_object_del(action, "counter_to");
		http_game_path(game, "/trades", path, sizeof path);
		if (json_object_get(action, "counter_to"))
			player->counter_offers++;
		else
			player->offers++;
	} else if (type_index >= 14) {
		static const char *const verbs[] = {"accept", "decline", "confirm", NULL};
		json_object_del(action, "type");
		json_object_del(action, "trade");
		if (type_index == 17) {
			method = "DELETE";
			snprintf(suffix, sizeof suffix, "/trades/%d", trade);
			body = NULL;
			player->withdrawals++;
		} else {
			snprintf(suffix, sizeof suffix, "/trades/%d/%s", trade, verbs[type_index - 14]);
			if (json_object_size(action) == 0)
				body = NULL;
			player->accepts += type_index == 14;
			player->declines += type_index == 15;
			player->confirms += type_index == 16;
		}
		http_game_path(game, suffix, path, sizeof path);
	} else {
		http_game_path(game, "/moves", path, sizeof path);
	}
	struct http_response response;
	http_call_json(client, method, path, game->tokens[seat], body, NULL, &response);
	if (response.status < 200 || response.status > 299) {
		char *sent = body ? json_dumps(body, JSON_COMPACT) : NULL;
		ck_abort_msg("seat %d %s %s %s: %s", seat, method, path, sent ? sent : "", http_describe(&response));
	}
	ck_assert_msg(response.json && json_is_integer(json_object_get(response.json, "version")),
		      "a move answers its version: %s", http_describe(&response));
	player->moves++;
	if (type_index >= 0 && type_index < 32)
		player->type_counts[type_index]++;
	if (move) {
		memset(move, 0, sizeof *move);
		move->seat = seat;
		snprintf(move->method, sizeof move->method, "%s", method);
		snprintf(move->path, sizeof move->path, "%s", path);
		move->sent = body ? json_incref(body) : NULL;
		move->response = response;
	} else {
		http_response_free(&response);
	}
	json_decref(action);
	return 1;
}

int http_player_finish(struct http_player *player, int max_moves)
{
	int moves = 0;
	while (http_player_step(player, NULL)) {
		moves++;
		ck_assert_msg(moves <= max_moves, "game %s not finished after %d moves", player->game->id, max_moves);
	}
	json_t *view = http_get_ok(player->client, player->game->path, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(view, "status")), "finished");
	ck_assert_str_eq(json_string_value(json_object_get(view, "phase")), "finished");
	json_t *winner = json_object_get(view, "winner");
	ck_assert_msg(json_is_integer(winner) && json_integer_value(winner) >= 0 &&
			      json_integer_value(winner) < player->game->seats,
		      "a finished game has a winner");
	json_decref(view);
	return moves;
}

/* ---- Ground truth ---- */

void http_truth_load(const char *game_id, struct game *state, int64_t *seed)
{
	static struct store *store;
	static pid_t owner;
	if (!store || owner != getpid()) {
		/* A store opened before a fork belongs to the parent's connection: never share it. */
		const char *url = getenv("DATABASE_URL");
		ck_assert_msg(url && *url, "DATABASE_URL is not set: run through scripts/with-postgres.sh");
		enum store_status status = store_open(url, &store);
		ck_assert_msg(status == STORE_OK, "store_open: %s", store_message(store));
		owner = getpid();
	}
	int64_t id;
	ck_assert_msg(store_parse_id(game_id, &id), "game id %s", game_id);
	struct game_repo repo;
	game_repo_init(&repo, store, 0);
	enum store_status status = game_repo_load(&repo, id, state, seed);
	ck_assert_msg(status == STORE_OK, "game_repo_load %s: %s", game_id, game_repo_message(&repo));
}
