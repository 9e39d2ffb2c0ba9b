/*
 * http_process.c - the processes of the HTTP integration tests: catan-server on the test
 * database, Prism in front of it, and the test cluster's pg.sh (see http_support.h).
 *
 * Children are started with fork + execve on an environment built before the fork (so
 * nothing but async-signal-safe calls run between the two), with their stdout on a pipe
 * (the server's "serving on" line) or a log file (Prism), in a process group of their
 * own, and with PR_SET_PDEATHSIG so that they never outlive the test program.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/api/http_support.h"

extern char **environ;

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
			replaced =
				strncmp(overrides[k], environ[i], name_length) == 0 && overrides[k][name_length] == '=';
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

void http_log_tail(const char *path, char *out, size_t size)
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
	const char *defaults[] = {"PORT=0", "LISTEN=127.0.0.1", "RATE_LIMIT_IP=0", "RATE_LIMIT_TOKEN=0", "THREADS=8",
				  "CREATE_RATE_IP=0", "ALL_BOT_GAMES=1", "WEBHOOK_ALLOW_PRIVATE=1",
				  /* The budgets counted in the database (api/quotas.c) would be shared by
				   * every suite on the one test database from 127.0.0.1: off, unless a
				   * test sets them (with addresses of its own, TRUSTED_PROXIES). */
				  "PLAYER_RATE_IP=0", "IMPORT_BYTES_IP=0", "AWAY_RATE_SEAT=0"};
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
			http_log_tail(server->log_path, tail, sizeof tail);
			kill(server->pid, SIGKILL);
			waitpid(server->pid, NULL, 0);
			ck_abort_msg("%s did not start within 60 s; its log %s ends:\n%s", program, server->log_path,
				     tail);
		}
		struct pollfd poll_fd = {server->stdout_fd, POLLIN, 0};
		int ready = poll(&poll_fd, 1, (int)(left * 1000) + 1);
		if (ready <= 0)
			continue;
		ssize_t got = read(server->stdout_fd, line + used, sizeof line - 1 - used);
		if (got <= 0) {
			int status = 0;
			waitpid(server->pid, &status, 0);
			http_log_tail(server->log_path, tail, sizeof tail);
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

int http_process_stop(pid_t pid, double timeout_s)
{
	kill(pid, SIGTERM);
	double deadline = http_clock() + timeout_s;
	int status = 0;
	pid_t done = 0;
	while ((done = waitpid(pid, &status, WNOHANG)) == 0 && http_clock() < deadline)
		http_pause(0.01);
	if (done == pid)
		return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return -1;
}

int http_server_stop(struct http_server *server, double timeout_s)
{
	if (server->pid <= 0)
		return -1;
	int result = http_process_stop(server->pid, timeout_s);
	if (server->stdout_fd > 0)
		close(server->stdout_fd);
	server->pid = 0;
	server->stdout_fd = 0;
	return result;
}

void http_server_kill(struct http_server *server)
{
	if (server->pid <= 0)
		return;
	kill(server->pid, SIGKILL);
	waitpid(server->pid, NULL, 0);
	if (server->stdout_fd > 0)
		close(server->stdout_fd);
	server->pid = 0;
	server->stdout_fd = 0;
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
			http_log_tail(proxy->log_path, tail, sizeof tail);
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
	http_process_stop(proxy->pid, 10);
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
	char *argv[] = {(char *)(uintptr_t)http_pg_script(), (char *)(uintptr_t)verb, (char *)(uintptr_t)http_pg_dir(),
			NULL};
	pid_t pid = spawn(argv[0], argv, environ, 2, 2);
	int status = 0;
	waitpid(pid, &status, 0);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s %s %s failed (%d)", argv[0], verb, argv[2],
		      status);
}
