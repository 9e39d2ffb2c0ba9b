/*
 * test_http_web.c - the web client's files as the server answers them (api/web.c): the
 * page at `/` and its files under `/web/`, each with its content type, a strong ETag that
 * If-None-Match turns into a 304, `Cache-Control: no-cache`, and the client's strict
 * Content-Security-Policy; a page that needs nothing that policy forbids; the API's own
 * "allow nothing" policy everywhere else; unknown files 404 as problems.
 *
 * The API reference (issue 23, item 4): /docs and its files under /docs/, with the same
 * caching and their own policy (Redoc's inline styles and blob: worker, there only);
 * /redoc and /swagger answer 301 to /docs.
 *
 * Straight to the server (no Prism: these paths are not part of the API's contract). What
 * the pages do in a browser is tested by web/tests/run.mjs (`make test-web`) and
 * web/tests/docs.mjs (`make test-docs`).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define WEB_CSP                                                                                               \
	"default-src 'self'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; " \
	"object-src 'none'; base-uri 'none'; frame-ancestors 'none'"

static void assert_header(const struct http_response *response, const char *name, const char *expected,
			  const char *what)
{
	char value[512];
	ck_assert_msg(http_response_header(response, name, value, sizeof value) != NULL, "%s: no %s header", what,
		      name);
	ck_assert_msg(strcmp(value, expected) == 0, "%s: %s is \"%s\", expected \"%s\"", what, name, value, expected);
}

#define DOCS_CSP                                                                                          \
	"default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " \
	"connect-src 'self'; worker-src blob:; object-src 'none'; base-uri 'none'; form-action 'none'; "  \
	"frame-ancestors 'none'"

/* GET `path`: 200 with the headers of the site whose policy is `policy` and `type`; the
 * ETag copied to etag. */
static void get_site_file(const char *path, const char *type, const char *policy, struct http_response *response,
			  char *etag, size_t size)
{
	http_call(&http_fixture.direct, "GET", path, NULL, NULL, NULL, response);
	ck_assert_msg(response->status == 200, "GET %s: %s", path, http_describe(response));
	ck_assert_msg(response->body_length > 0, "GET %s: empty", path);
	assert_header(response, "Content-Type", type, path);
	assert_header(response, "Content-Security-Policy", policy, path);
	assert_header(response, "Cache-Control", "no-cache", path);
	assert_header(response, "X-Content-Type-Options", "nosniff", path);
	ck_assert_msg(http_response_header(response, "ETag", etag, size) != NULL, "GET %s: no ETag", path);
	ck_assert_msg(etag[0] == '"' && strlen(etag) > 2 && etag[strlen(etag) - 1] == '"',
		      "GET %s: ETag %s is not strong", path, etag);
}

/* GET `path` of the web client. */
static void get_file(const char *path, const char *type, struct http_response *response, char *etag, size_t size)
{
	get_site_file(path, type, WEB_CSP, response, etag, size);
}

START_TEST(test_the_page_and_its_files_carry_their_type_tag_and_policy)
{
	static const struct {
		const char *path;
		const char *type;
	} files[] = {
		{"/", "text/html; charset=utf-8"},
		{"/web/main.js", "text/javascript; charset=utf-8"},
		{"/web/game.js", "text/javascript; charset=utf-8"},
		{"/web/openapi-fetch.js", "text/javascript; charset=utf-8"},
		{"/web/style.css", "text/css; charset=utf-8"},
		{"/web/icon.svg", "image/svg+xml"},
	};
	char first_etag[64] = "";
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
		struct http_response response;
		char etag[64];
		get_file(files[i].path, files[i].type, &response, etag, sizeof etag);
		if (i == 0)
			snprintf(first_etag, sizeof first_etag, "%s", etag);
		else
			ck_assert_msg(strcmp(etag, first_etag) != 0, "%s has the page's tag", files[i].path);
		http_response_free(&response);
	}
}
END_TEST

START_TEST(test_the_page_needs_nothing_the_policy_forbids)
{
	struct http_response response;
	char etag[64];
	get_file("/", "text/html; charset=utf-8", &response, etag, sizeof etag);
	const char *page = response.body;
	ck_assert_msg(strstr(page, "<script type=\"module\" src=\"/web/main.js\"></script>") != NULL,
		      "no module script");
	/* Every script is a file of this origin; no inline style, style attribute or handler. */
	for (const char *at = page; (at = strstr(at, "<script")) != NULL; at++) {
		const char *end = strchr(at, '>');
		ck_assert_ptr_nonnull(end);
		const char *src = strstr(at, " src=\"/");
		ck_assert_msg(src != NULL && src < end, "an inline script: %.60s", at);
	}
	ck_assert_msg(strstr(page, "<style") == NULL, "an inline <style>");
	ck_assert_msg(strstr(page, " style=") == NULL, "a style attribute");
	ck_assert_msg(strstr(page, " onload=") == NULL && strstr(page, " onclick=") == NULL,
		      "an event-handler attribute");
	ck_assert_msg(strstr(page, "<link rel=\"stylesheet\" href=\"/web/style.css\">") != NULL, "no style sheet");
	http_response_free(&response);
}
END_TEST

START_TEST(test_if_none_match_answers_304_for_the_same_file_only)
{
	struct http_response response;
	char etag[64], header[96];
	get_file("/web/main.js", "text/javascript; charset=utf-8", &response, etag, sizeof etag);
	size_t length = response.body_length;
	http_response_free(&response);

	snprintf(header, sizeof header, "If-None-Match: %s", etag);
	const char *const same[] = {header, NULL};
	http_call(&http_fixture.direct, "GET", "/web/main.js", NULL, NULL, same, &response);
	ck_assert_msg(response.status == 304, "If-None-Match %s: %s", etag, http_describe(&response));
	ck_assert_uint_eq(response.body_length, 0);
	assert_header(&response, "ETag", etag, "the 304");
	assert_header(&response, "Cache-Control", "no-cache", "the 304");
	http_response_free(&response);

	const char *const other[] = {"If-None-Match: \"0000000000000000\"", NULL};
	http_call(&http_fixture.direct, "GET", "/web/main.js", NULL, NULL, other, &response);
	ck_assert_msg(response.status == 200, "another tag: %s", http_describe(&response));
	ck_assert_uint_eq(response.body_length, length);
	http_response_free(&response);

	/* The page's tag is not the module's. */
	http_call(&http_fixture.direct, "GET", "/", NULL, NULL, same, &response);
	ck_assert_msg(response.status == 200, "/ with the module's tag: %s", http_describe(&response));
	http_response_free(&response);

	http_call(&http_fixture.direct, "HEAD", "/", NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "HEAD /: %s", http_describe(&response));
	ck_assert_uint_eq(response.body_length, 0);
	assert_header(&response, "Content-Security-Policy", WEB_CSP, "HEAD /");
	http_response_free(&response);
}
END_TEST

START_TEST(test_unknown_files_are_404_and_the_api_keeps_its_own_policy)
{
	static const char *const missing[] = {"/web/nothing.js", "/web/..%2fMakefile", "/web/%2e%2e",
					      "/web/",		 "/index.html",	       "/web/main.js/x"};
	/* ("/web/.." itself is resolved by every client before it is sent.) */
	for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
		struct http_response response;
		http_call(&http_fixture.direct, "GET", missing[i], NULL, NULL, NULL, &response);
		http_assert_problem(&response, 404, "route_not_found");
		assert_header(&response, "Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'",
			      missing[i]);
		http_response_free(&response);
	}
	struct http_response response;
	http_call(&http_fixture.direct, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	assert_header(&response, "Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'", "/healthz");
	http_response_free(&response);
	/* The page is read-only. */
	http_call(&http_fixture.direct, "POST", "/", NULL, "{}", NULL, &response);
	http_assert_problem(&response, 405, "method_not_allowed");
	http_response_free(&response);
}
END_TEST

START_TEST(test_the_api_reference_is_served_under_its_own_policy)
{
	struct http_response response;
	char etag[64], header[96];
	get_site_file("/docs", "text/html; charset=utf-8", DOCS_CSP, &response, etag, sizeof etag);
	const char *page = response.body;
	/* Redoc of this origin renders the contract of this server; no inline script. */
	ck_assert_msg(strstr(page, "<script src=\"/docs/redoc.standalone.js\"></script>") != NULL, "no Redoc script");
	ck_assert_msg(strstr(page, "spec-url=\"/openapi.json\"") != NULL, "not the served contract");
	for (const char *at = page; (at = strstr(at, "<script")) != NULL; at++) {
		const char *end = strchr(at, '>');
		const char *src = strstr(at, " src=\"/");
		ck_assert_msg(end && src != NULL && src < end, "an inline script: %.60s", at);
	}
	http_response_free(&response);
	get_site_file("/docs/redoc.standalone.js", "text/javascript; charset=utf-8", DOCS_CSP, &response, etag,
		      sizeof etag);
	ck_assert_msg(response.body_length > 500000, "Redoc is %zu bytes", response.body_length);
	ck_assert_msg(strstr(response.body, "cdn.redoc.ly") == NULL, "Redoc still loads from another origin");
	http_response_free(&response);
	snprintf(header, sizeof header, "If-None-Match: %s", etag);
	const char *const same[] = {header, NULL};
	http_call(&http_fixture.direct, "GET", "/docs/redoc.standalone.js", NULL, NULL, same, &response);
	ck_assert_msg(response.status == 304, "If-None-Match %s: %s", etag, http_describe(&response));
	http_response_free(&response);
	get_site_file("/docs/redoc.standalone.js.LICENSE.txt", "text/plain; charset=utf-8", DOCS_CSP, &response, etag,
		      sizeof etag);
	http_response_free(&response);

	/* Where people look for it. */
	static const char *const elsewhere[] = {"/redoc", "/swagger"};
	for (size_t i = 0; i < sizeof elsewhere / sizeof elsewhere[0]; i++) {
		http_call(&http_fixture.direct, "GET", elsewhere[i], NULL, NULL, NULL, &response);
		ck_assert_msg(response.status == 301, "GET %s: %s", elsewhere[i], http_describe(&response));
		assert_header(&response, "Location", "/docs", elsewhere[i]);
		http_response_free(&response);
	}
	/* The two sites keep to their files and their policies. */
	static const char *const missing[] = {"/docs/main.js", "/docs/nothing.js", "/docs/", "/web/redoc.standalone.js",
					      "/docs/index.html/x"};
	for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
		http_call(&http_fixture.direct, "GET", missing[i], NULL, NULL, NULL, &response);
		http_assert_problem(&response, 404, "route_not_found");
		assert_header(&response, "Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'",
			      missing[i]);
		http_response_free(&response);
	}
	get_file("/", "text/html; charset=utf-8", &response, etag, sizeof etag);
	ck_assert_msg(strstr(response.body, "<a href=\"/docs\">") != NULL, "the web client's page does not link /docs");
	http_response_free(&response);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_web");
	TCase *files = tcase_create("files");
	tcase_set_timeout(files, 30);
	http_fixture_add(files, 0, NULL);
	tcase_add_test(files, test_the_page_and_its_files_carry_their_type_tag_and_policy);
	tcase_add_test(files, test_the_page_needs_nothing_the_policy_forbids);
	tcase_add_test(files, test_if_none_match_answers_304_for_the_same_file_only);
	tcase_add_test(files, test_unknown_files_are_404_and_the_api_keeps_its_own_policy);
	tcase_add_test(files, test_the_api_reference_is_served_under_its_own_policy);
	suite_add_tcase(suite, files);
	return suite;
}
