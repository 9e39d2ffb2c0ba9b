/*
 * test_http_readme.c - the README's curl walk-through runs as printed (issue 23, item 7):
 * the shell blocks of its section "Play a game with curl" (with "See the board") are read
 * from README.md and run by sh against a real server, so the commands cannot rot.
 *
 * The only changes to the text: `localhost:8080` becomes the test server's address, and
 * the script starts with `set -eu` and a `curl` function that adds `--fail-with-body`
 * (any answer of 400 or more fails the run, e.g. a move refused with 422 not_your_turn;
 * the commands that write files carry `-f` as printed) and a bound on time; the stream, which never ends by itself (a
 * reader stops it with Ctrl-C), is cut after 3 s, and that counts as success. Judged: the script exits 0 within 40 s
 * (the wait for the turn is answered once the bots have placed, not after its 60 s), the pictures it saved are a PNG,
 * an SVG and a PNG, and the game is at seat 0's second placement (the walk-through's moves were taken, the bots placed
 * theirs).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define README "README.md"
#define SECTION "\n## Play a game with curl\n"

/* The whole file, NUL-terminated; caller frees. */
static char *read_file(const char *path, size_t *length)
{
	FILE *file = fopen(path, "rb");
	ck_assert_msg(file != NULL, "cannot open %s", path);
	fseek(file, 0, SEEK_END);
	long size = ftell(file);
	fseek(file, 0, SEEK_SET);
	char *text = malloc((size_t)size + 1);
	ck_assert_ptr_nonnull(text);
	ck_assert_int_eq(fread(text, 1, (size_t)size, file), (size_t)size);
	text[size] = '\0';
	fclose(file);
	if (length)
		*length = (size_t)size;
	return text;
}

/* Append `text` (length bytes) to `out`, writing every "localhost:8080" as `address`. */
static void put_rewritten(FILE *out, const char *text, size_t length, const char *address)
{
	static const char printed[] = "localhost:8080";
	for (size_t i = 0; i < length;) {
		if (length - i >= sizeof printed - 1 && memcmp(text + i, printed, sizeof printed - 1) == 0) {
			fputs(address, out);
			i += sizeof printed - 1;
		} else {
			fputc(text[i++], out);
		}
	}
}

/* The first bytes of `path` begin with `magic`. */
static int starts_with(const char *path, const char *magic)
{
	size_t length;
	char *bytes = read_file(path, &length);
	int yes = length >= strlen(magic) && memcmp(bytes, magic, strlen(magic)) == 0;
	free(bytes);
	return yes;
}

START_TEST(test_the_curl_walk_through_runs_as_printed)
{
	char *readme = read_file(README, NULL);
	char *section = strstr(readme, SECTION);
	ck_assert_msg(section != NULL, "README.md has no section \"Play a game with curl\"");
	section += strlen(SECTION);
	char *end = strstr(section, "\n## ");
	if (end)
		*end = '\0';

	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char dir[256], script[300], path[400];
	snprintf(dir, sizeof dir, "%s/catan-readme-%ld", tmp, (long)getpid());
	snprintf(script, sizeof script, "%s/walk-through.sh", dir);
	char command[900];
	snprintf(command, sizeof command, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	ck_assert_int_eq(system(command), 0);
	FILE *out = fopen(script, "w");
	ck_assert_ptr_nonnull(out);
	fprintf(out,
		"set -eu\ncd '%s'\n"
		"curl() {\n"
		"\tcase \"$*\" in\n"
		"\t*/stream*) command curl --max-time 3 \"$@\" || [ $? -eq 28 ] ;;\n"
		"\t\"-sf \"* | *\" -sf \"*) command curl --max-time 70 \"$@\" ;;\n"
		"\t*) command curl --fail-with-body --max-time 70 \"$@\" ;;\n"
		"\tesac\n"
		"\techo\n"
		"}\n",
		dir);
	/* Every ```sh block of the section, in order. */
	const char *address = http_fixture.server.url + strlen("http://");
	int blocks = 0;
	for (char *at = section; (at = strstr(at, "```sh\n")) != NULL;) {
		at += strlen("```sh\n");
		char *close = strstr(at, "\n```");
		ck_assert_msg(close != NULL, "an unclosed block in the walk-through");
		put_rewritten(out, at, (size_t)(close - at) + 1, address);
		at = close + 4;
		blocks++;
	}
	fclose(out);
	free(readme);
	ck_assert_msg(blocks >= 2, "the walk-through has %d shell blocks", blocks);

	snprintf(command, sizeof command, "sh '%s' > '%s/output.txt' 2>&1", script, dir);
	double started = http_clock();
	int status = system(command);
	double took = http_clock() - started;
	snprintf(path, sizeof path, "%s/output.txt", dir);
	char *output = read_file(path, NULL);
	fprintf(stderr, "README walk-through: %d blocks in %.1f s\n", blocks, took);
	ck_assert_msg(status == 0, "the walk-through failed (status %d); it printed:\n%s", status, output);
	ck_assert_msg(took < 40, "the walk-through took %.1f s:\n%s", took, output);
	/* The wait for the turn answered seat 0's actions at its second placement. */
	ck_assert_msg(strstr(output, "\"waiting_for\":[0]") != NULL, "seat 0 was never due again:\n%s", output);
	free(output);

	static const struct {
		const char *file;
		const char *magic;
	} pictures[] = {{"board.png", "\x89PNG"}, {"board.svg", "<"}, {"turn.png", "\x89PNG"}};
	for (size_t i = 0; i < sizeof pictures / sizeof pictures[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, pictures[i].file);
		ck_assert_msg(access(path, R_OK) == 0, "the walk-through saved no %s", pictures[i].file);
		ck_assert_msg(starts_with(path, pictures[i].magic), "%s is not the picture", pictures[i].file);
	}
	snprintf(path, sizeof path, "%s/board.svg", dir);
	char *svg = read_file(path, NULL);
	ck_assert_msg(strstr(svg, "<svg") != NULL, "board.svg is no SVG");
	free(svg);
	snprintf(command, sizeof command, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(command), 0);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_readme");
	TCase *walk = tcase_create("walk-through");
	http_fixture_add(walk, 0, NULL);
	tcase_set_timeout(walk, 120);
	tcase_add_test(walk, test_the_curl_walk_through_runs_as_printed);
	suite_add_tcase(suite, walk);
	return suite;
}
