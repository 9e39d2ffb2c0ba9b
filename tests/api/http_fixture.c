/*
 * http_fixture.c - the server, proxy and clients of the HTTP suites (see http_fixture.h).
 *
 * Check's fixture functions take no argument, so the options of http_fixture_add() are kept
 * here until the fixture runs: start() in the parent before a TCase's first test, setup()
 * and teardown() in each test's process, stop() in the parent after the TCase. Servers stop
 * after the proxy in front of them, within 30 s (SIGKILL after that).
 */
#include "tests/api/http_fixture.h"

#include <stdio.h>
#include <stdlib.h>

struct http_fixture http_fixture;

static unsigned fixture_flags;
static const char *const *fixture_settings;
static int fixture_added;

static void start(void)
{
	http_server_start(&http_fixture.server, fixture_settings);
	if (fixture_flags & HTTP_FIXTURE_SECOND_SERVER)
		http_server_start(&http_fixture.second, fixture_settings);
	if (fixture_flags & HTTP_FIXTURE_PRISM)
		http_proxy_start(&http_fixture.proxy, http_fixture.server.url,
				 (fixture_flags & HTTP_FIXTURE_VALIDATE_REQUESTS) != 0);
}

static void stop(void)
{
	if (fixture_flags & HTTP_FIXTURE_PRISM)
		http_proxy_stop(&http_fixture.proxy);
	http_server_stop(&http_fixture.server, 30);
	if (fixture_flags & HTTP_FIXTURE_SECOND_SERVER)
		http_server_stop(&http_fixture.second, 30);
}

static void setup(void)
{
	if (fixture_flags & HTTP_FIXTURE_PRISM)
		http_client_init(&http_fixture.checked, http_fixture.proxy.url, 1);
	http_client_init(&http_fixture.direct, http_fixture.server.url, 0);
	if (fixture_flags & HTTP_FIXTURE_SECOND_SERVER)
		http_client_init(&http_fixture.second_direct, http_fixture.second.url, 0);
}

static void teardown(void)
{
	if (fixture_flags & HTTP_FIXTURE_PRISM)
		http_client_cleanup(&http_fixture.checked);
	http_client_cleanup(&http_fixture.direct);
	if (fixture_flags & HTTP_FIXTURE_SECOND_SERVER)
		http_client_cleanup(&http_fixture.second_direct);
}

void http_fixture_add(TCase *tcase, unsigned flags, const char *const *settings)
{
	if (flags & HTTP_FIXTURE_VALIDATE_REQUESTS)
		flags |= HTTP_FIXTURE_PRISM;
	if (fixture_added && (flags != fixture_flags || settings != fixture_settings)) {
		fprintf(stderr, "http_fixture_add: one program, one set of options\n");
		abort();
	}
	fixture_added = 1;
	fixture_flags = flags;
	fixture_settings = settings;
	tcase_add_unchecked_fixture(tcase, start, stop);
	tcase_add_checked_fixture(tcase, setup, teardown);
}
