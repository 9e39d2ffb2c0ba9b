/*
 * test_destination.c - the webhook destination rules (deliver/destination.c) on addresses as
 * libcurl hands them to the socket opener at connect time: every inner range refused,
 * public addresses allowed, IPv4 inside IPv6 judged by the IPv4, this machine's own
 * interface addresses refused, and everything allowed with allow_private.
 */
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <string.h>

#include "deliver/destination.h"
#include "tests/check_main.h"

static int allowed(const char *text, int allow_private)
{
	struct sockaddr_in v4 = {0};
	struct sockaddr_in6 v6 = {0};
	if (inet_pton(AF_INET, text, &v4.sin_addr) == 1) {
		v4.sin_family = AF_INET;
		return destination_address_allowed((struct sockaddr *)&v4, allow_private);
	}
	ck_assert_msg(inet_pton(AF_INET6, text, &v6.sin6_addr) == 1, "not an address: %s", text);
	v6.sin6_family = AF_INET6;
	return destination_address_allowed((struct sockaddr *)&v6, allow_private);
}

START_TEST(test_inner_addresses_are_refused_and_public_ones_allowed)
{
	static const char *const inner[] = {
		"127.0.0.1",	   "127.255.0.9",     "10.0.0.1",	"172.16.5.5",  "172.31.255.255",
		"192.168.0.1",	   "169.254.169.254", "100.64.0.1",	"0.0.0.0",     "224.0.0.1",
		"255.255.255.255", "192.0.2.1",	      "198.18.0.1",	"::",	       "::1",
		"fe80::1",	   "fc00::1",	      "fd12:3456::1",	"ff02::1",     "::ffff:127.0.0.1",
		"::ffff:10.1.1.1", "64:ff9b::a00:1",  "2002:7f00:1::1", "2001:db8::1",
	};
	for (size_t i = 0; i < sizeof inner / sizeof inner[0]; i++) {
		ck_assert_msg(!allowed(inner[i], 0), "%s is allowed", inner[i]);
		ck_assert_msg(allowed(inner[i], 1), "%s is refused even with allow_private", inner[i]);
	}
	static const char *const public_addresses[] = {
		"93.184.216.34",	"8.8.8.8",	  "172.32.0.1",	      "100.128.0.1",
		"2606:4700:4700::1111", "::ffff:8.8.8.8", "2002:0808:0808::1"};
	for (size_t i = 0; i < sizeof public_addresses / sizeof public_addresses[0]; i++)
		ck_assert_msg(allowed(public_addresses[i], 0), "%s is refused", public_addresses[i]);
}
END_TEST

START_TEST(test_the_machines_own_addresses_are_refused)
{
	struct ifaddrs *interfaces;
	ck_assert_int_eq(getifaddrs(&interfaces), 0);
	int checked = 0;
	for (struct ifaddrs *at = interfaces; at; at = at->ifa_next) {
		if (!at->ifa_addr || (at->ifa_addr->sa_family != AF_INET && at->ifa_addr->sa_family != AF_INET6))
			continue;
		ck_assert_msg(!destination_address_allowed(at->ifa_addr, 0), "interface %s's address is allowed",
			      at->ifa_name);
		checked++;
	}
	freeifaddrs(interfaces);
	ck_assert_int_gt(checked, 0);
}
END_TEST

START_TEST(test_urls_with_credentials_literals_or_localhost_are_refused)
{
	char why[128];
	static const char *const refused[] = {"http://user:pw@example.com/", "http://user@example.com/",
					      "http://127.0.0.1/",	     "http://[::1]:8080/",
					      "http://LOCALHOST/",	     "http://api.localhost/",
					      "gopher://example.com/",	     "not a url"};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		ck_assert_msg(!destination_url_allowed(refused[i], 0, why, sizeof why), "%s is allowed", refused[i]);
		ck_assert_msg(why[0] != '\0', "%s: no reason", refused[i]);
	}
	ck_assert(destination_url_allowed("https://example.com/hooks/1?x=y", 0, why, sizeof why));
	ck_assert(destination_url_allowed("http://127.0.0.1:9000/hook", 1, why, sizeof why));
	ck_assert(!destination_url_allowed("http://user:pw@127.0.0.1/", 1, why, sizeof why));
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("destination");
	TCase *rules = tcase_create("rules");
	tcase_add_test(rules, test_inner_addresses_are_refused_and_public_ones_allowed);
	tcase_add_test(rules, test_the_machines_own_addresses_are_refused);
	tcase_add_test(rules, test_urls_with_credentials_literals_or_localhost_are_refused);
	suite_add_tcase(suite, rules);
	return suite;
}
