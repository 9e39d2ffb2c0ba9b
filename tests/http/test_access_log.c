/*
 * test_access_log.c - the access log's hand-formatted lines (http/access_log.c) are the
 * lines jansson's compact dump of the same members wrote before them, byte for byte but
 * for "duration_ms" (three decimals): every optional member present and absent, a path
 * with quotes, backslashes and every control character, a path that is not UTF-8 (quoted,
 * the line still JSON), a path longer than the line's stack buffer, the admin seat. Each
 * line is read back from stderr (a pipe) and parsed.
 */
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codec/text.h"
#include "http/access_log.h"
#include "tests/check_main.h"

/* The line access_log_write() writes for `request`, read from a pipe put in stderr's place.
 * Caller frees. */
static char *written(const struct access_log_line *request)
{
	int pipe_fds[2];
	ck_assert_int_eq(pipe(pipe_fds), 0);
	int saved = dup(STDERR_FILENO);
	dup2(pipe_fds[1], STDERR_FILENO);
	access_log_write(request);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(pipe_fds[1]);
	size_t size = 0, capacity = 65536;
	char *text = malloc(capacity);
	ssize_t got;
	while ((got = read(pipe_fds[0], text + size, capacity - 1 - size)) > 0)
		size += (size_t)got;
	close(pipe_fds[0]);
	text[size] = '\0';
	return text;
}

/* The line as the jansson object of before wrote it (without "ts" and "duration_ms"). */
static char *expected(const struct access_log_line *request)
{
	json_t *line = json_pack("{s:s, s:s, s:s, s:s, s:o, s:i, s:s, s:I}", "level", "info", "msg", "request",
				 "request_id", request->request_id, "method", request->method, "path",
				 text_json(request->path ? request->path : ""), "status", request->status, "ip",
				 request->ip, "bytes", (json_int_t)request->bytes);
	ck_assert(line != NULL);
	if (request->via[0])
		json_object_set_new(line, "via", json_string(request->via));
	if (request->route)
		json_object_set_new(line, "route", json_string(request->route));
	if (request->game[0])
		json_object_set_new(line, "game", json_string(request->game));
	if (request->seat >= 0)
		json_object_set_new(line, "seat", json_integer(request->seat));
	else if (request->seat == -2)
		json_object_set_new(line, "seat", json_string("admin"));
	if (request->code)
		json_object_set_new(line, "code", json_string(request->code));
	if (request->aborted)
		json_object_set_new(line, "aborted", json_true());
	char *text = json_dumps(line, JSON_COMPACT);
	json_decref(line);
	return text;
}

/* The written line is one JSON object ending in a newline, with "ts" first, then the
 * expected members in order, "duration_ms" between "status" and "ip" as `duration`. */
static void assert_line(const struct access_log_line *request, const char *duration)
{
	char *line = written(request);
	size_t length = strlen(line);
	ck_assert_msg(length > 0 && line[length - 1] == '\n' && !memchr(line, '\n', length - 1), "one line: %s", line);
	json_error_t error;
	json_t *parsed = json_loads(line, 0, &error);
	ck_assert_msg(parsed != NULL, "not JSON (%s): %s", error.text, line);
	json_decref(parsed);
	ck_assert_msg(strncmp(line, "{\"ts\":\"", 7) == 0 && line[7 + 24] == '"' && line[7 + 23] == 'Z',
		      "the timestamp first: %s", line);
	/* The line without its timestamp and duration is jansson's dump. */
	char *want = expected(request);
	char *rest = line + 7 + 25 + 1;
	char *duration_at = strstr(rest, ",\"duration_ms\":");
	ck_assert_msg(duration_at != NULL, "a duration: %s", line);
	char *after = strstr(duration_at, ",\"ip\":");
	ck_assert(after != NULL);
	char wanted_duration[64];
	snprintf(wanted_duration, sizeof wanted_duration, ",\"duration_ms\":%s", duration);
	ck_assert_msg((size_t)(after - duration_at) == strlen(wanted_duration) &&
			      strncmp(duration_at, wanted_duration, strlen(wanted_duration)) == 0,
		      "duration %s in %s", duration, line);
	memmove(duration_at, after, strlen(after) + 1);
	rest[-1] = '{';
	rest[strlen(rest) - 1] = '\0';
	ck_assert_msg(strcmp(rest - 1, want) == 0, "\n%s\nnot\n%s", rest - 1, want);
	free(want);
	free(line);
}

START_TEST(test_a_line_is_jansson_compact_dump_of_its_members)
{
	struct access_log_line request = {"e784048c8333fd2a",
					  "POST",
					  "/v1/games/2922f28071d949af/moves",
					  201,
					  0.0123456,
					  "127.0.0.1",
					  "",
					  1990,
					  "/v1/games/{id}/moves",
					  "2922f28071d949af",
					  2,
					  NULL,
					  0};
	assert_line(&request, "12.346");
	/* Every optional member absent. */
	struct access_log_line bare = {"0000000000000001", "GET", "/", 404, 0, "::1", "", 0, NULL, "", -1, NULL, 0};
	assert_line(&bare, "0.000");
	/* Every one present, the admin seat. */
	struct access_log_line full = {"req-\"1\"",
				       "DELETE",
				       "/v1/games/x",
				       409,
				       2.5,
				       "203.0.113.9",
				       "127.0.0.1",
				       123456789,
				       "/v1/games/{id}",
				       "abc",
				       -2,
				       "version_conflict",
				       1};
	assert_line(&full, "2500.000");
	/* A long request. */
	struct access_log_line slow = {"r",	   "GET", "/healthz", 200,  12345.6789, "127.0.0.1", "", 2,
				       "/healthz", "",	  -1,	      NULL, 0};
	assert_line(&slow, "12345678.900");
}
END_TEST

START_TEST(test_client_paths_are_escaped_as_jansson_escapes_them_and_quoted_when_not_utf8)
{
	char path[64];
	size_t at = 0;
	path[at++] = '/';
	for (int c = 1; c < 0x20; c++)
		path[at++] = (char)c;
	memcpy(path + at, "\"\\/\x7f\xc3\xa9\xe2\x80\xae", 10);
	at += 10;
	path[at] = '\0';
	struct access_log_line request = {"r",	"GET", path, 404,	  0.001, "127.0.0.1", "", 10,
					  NULL, "",    -1,   "not_found", 0};
	assert_line(&request, "1.000");
	/* Not UTF-8: the quoted text, as text_json() gave it. */
	struct access_log_line broken = request;
	broken.path = "/v1/\xff\xfe/\xc3";
	assert_line(&broken, "1.000");
	/* Longer than the line's buffer on the stack. */
	char *long_path = malloc(20001);
	for (int i = 0; i < 20000; i++)
		long_path[i] = (char)('a' + i % 26);
	long_path[0] = '/';
	long_path[19999] = '\n';
	long_path[20000] = '\0';
	struct access_log_line long_request = request;
	long_request.path = long_path;
	assert_line(&long_request, "1.000");
	free(long_path);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("access_log");
	TCase *lines = tcase_create("lines");
	tcase_add_test(lines, test_a_line_is_jansson_compact_dump_of_its_members);
	tcase_add_test(lines, test_client_paths_are_escaped_as_jansson_escapes_them_and_quoted_when_not_utf8);
	suite_add_tcase(suite, lines);
	return suite;
}
