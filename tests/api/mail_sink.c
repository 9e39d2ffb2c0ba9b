/*
 * mail_sink.c - the mail tests' mailbox (see mail_sink.h): the relay is a child process
 * started with execl() and stopped with http_process_stop(); the mails are read back as
 * whole files.
 */
#include "tests/api/mail_sink.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/api/http_support.h"
#include "tests/check_main.h"

int mail_sink_free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in address = {0};
	address.sin_family = AF_INET;
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&address, sizeof address) != 0)
		abort(); /* called while the suite is made, outside any test */
	socklen_t size = sizeof address;
	getsockname(fd, (struct sockaddr *)&address, &size);
	close(fd);
	return ntohs(address.sin_port);
}

static int port_open(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in address = {0};
	address.sin_family = AF_INET;
	address.sin_port = htons((uint16_t)port);
	address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int ok = connect(fd, (struct sockaddr *)&address, sizeof address) == 0;
	close(fd);
	return ok;
}

void mail_sink_run(struct mail_sink *sink)
{
	sink->pid = fork();
	ck_assert(sink->pid >= 0);
	if (sink->pid == 0) {
		char port[16];
		snprintf(port, sizeof port, "%d", sink->port);
		int null = open("/dev/null", O_WRONLY);
		dup2(null, 1);
		execl("/usr/bin/python3", "python3", "tests/api/smtp_sink.py", port, sink->dir, (char *)NULL);
		_exit(127);
	}
	double deadline = http_clock() + 20 * http_slowdown();
	while (!port_open(sink->port)) {
		ck_assert_msg(http_clock() < deadline, "the SMTP sink did not start on port %d", sink->port);
		http_pause(0.05);
	}
}

void mail_sink_start(struct mail_sink *sink, int port)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(sink->dir, sizeof sink->dir, "%s/catan-mail-XXXXXX", tmp);
	ck_assert(mkdtemp(sink->dir) != NULL);
	sink->port = port;
	mail_sink_run(sink);
}

void mail_sink_stop(struct mail_sink *sink)
{
	if (sink->pid > 0)
		http_process_stop(sink->pid, 10);
	sink->pid = 0;
}

int mail_sink_count(const struct mail_sink *sink)
{
	DIR *dir = opendir(sink->dir);
	ck_assert(dir != NULL);
	int count = 0;
	struct dirent *entry;
	while ((entry = readdir(dir)))
		count += strlen(entry->d_name) == 8 && strcmp(entry->d_name + 4, ".txt") == 0;
	closedir(dir);
	return count;
}

void mail_sink_wait(const struct mail_sink *sink, int count)
{
	double deadline = http_clock() + MAIL_SINK_TIMEOUT_S * http_slowdown();
	while (mail_sink_count(sink) < count) {
		ck_assert_msg(http_clock() < deadline, "%d of %d mails arrived in %d s", mail_sink_count(sink), count,
			      MAIL_SINK_TIMEOUT_S);
		http_pause(0.05);
	}
}

char *mail_read_file(const char *path)
{
	FILE *file = fopen(path, "rb");
	ck_assert_msg(file != NULL, "%s: %s", path, strerror(errno));
	fseek(file, 0, SEEK_END);
	long size = ftell(file);
	fseek(file, 0, SEEK_SET);
	char *text = malloc((size_t)size + 1);
	ck_assert(text != NULL && fread(text, 1, (size_t)size, file) == (size_t)size);
	text[size] = '\0';
	fclose(file);
	return text;
}

char *mail_sink_file(const struct mail_sink *sink, int n, const char *extension)
{
	char path[300];
	snprintf(path, sizeof path, "%s/%04d.%s", sink->dir, n, extension);
	return mail_read_file(path);
}

void mail_sink_read(const struct mail_sink *sink, int n, char **eml, char **txt)
{
	*eml = mail_sink_file(sink, n, "eml");
	*txt = mail_sink_file(sink, n, "txt");
}

double mail_sink_received_at(const struct mail_sink *sink, int n)
{
	char *eml, *txt;
	mail_sink_read(sink, n, &eml, &txt);
	const char *at = strstr(txt, "received_at: ");
	double value = at ? strtod(at + 13, NULL) : 0;
	free(eml);
	free(txt);
	return value;
}

const char *mail_header(const char *eml, const char *name, char *out, size_t size)
{
	const char *end = strstr(eml, "\r\n\r\n");
	size_t length = strlen(name);
	for (const char *line = eml; line && line < end; line = strstr(line, "\r\n"), line = line ? line + 2 : NULL) {
		if (strncasecmp(line, name, length) == 0 && line[length] == ':') {
			const char *value = line + length + 1;
			while (*value == ' ')
				value++;
			const char *stop = strstr(value, "\r\n");
			size_t n = (size_t)(stop - value) < size - 1 ? (size_t)(stop - value) : size - 1;
			memcpy(out, value, n);
			out[n] = '\0';
			return out;
		}
	}
	return NULL;
}

void mail_link_code(const char *text, const char *path, char *out, size_t size)
{
	char needle[64];
	snprintf(needle, sizeof needle, "%s?code=", path);
	const char *at = strstr(text, needle);
	ck_assert_msg(at != NULL, "a %s link in: %s", path, text);
	at += strlen(needle);
	size_t n = 0;
	while (at[n] && at[n] != '>' && at[n] != '\r' && at[n] != '\n' && at[n] != ' ' && n < size - 1)
		n++;
	memcpy(out, at, n);
	out[n] = '\0';
}
