/*
 * http_fixture.h - the one fixture of the HTTP suites: a catan-server (a second one on the
 * same database when asked), Prism in front of it when asked, and for each test a client
 * through Prism and a client straight to each server.
 *
 * A test program registers it on its TCases with http_fixture_add(); the processes are
 * started once per TCase in the program's parent process (an unchecked fixture) and the
 * clients are made afresh in each test's own process (a checked fixture). Tests reach all
 * of it through the one global `http_fixture`. A program has one set of options: every
 * http_fixture_add() of a program passes the same ones.
 */
#ifndef CATAN_TESTS_API_HTTP_FIXTURE_H
#define CATAN_TESTS_API_HTTP_FIXTURE_H

#include <check.h>

#include "tests/api/http_support.h"

/* What the fixture starts besides the server (bits of http_fixture_add's `flags`). */
enum {
	HTTP_FIXTURE_PRISM = 1 << 0,		 /* Prism in front of the server, checking responses */
	HTTP_FIXTURE_VALIDATE_REQUESTS = 1 << 1, /* Prism also refuses requests that break the spec */
	HTTP_FIXTURE_SECOND_SERVER = 1 << 2,	 /* another server on the same database */
};

struct http_fixture {
	struct http_server server;
	struct http_proxy proxy;	  /* with HTTP_FIXTURE_PRISM */
	struct http_client checked;	  /* through Prism, contract checked (with HTTP_FIXTURE_PRISM) */
	struct http_client direct;	  /* straight to the server */
	struct http_server second;	  /* with HTTP_FIXTURE_SECOND_SERVER */
	struct http_client second_direct; /* straight to the second server */
};

/* Filled by the fixture: the processes while a TCase runs, the clients while a test runs. */
extern struct http_fixture http_fixture;

/* Register the fixture on `tcase`: HTTP_FIXTURE_* bits, and `settings` for every server
 * (http_server_start(); NULL for the test defaults; borrowed, so static storage). */
void http_fixture_add(TCase *tcase, unsigned flags, const char *const *settings);

#endif
