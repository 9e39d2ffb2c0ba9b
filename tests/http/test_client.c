/*
 * test_client.c - who a request comes from (http/client.c), on socket addresses and
 * X-Forwarded-For values alone: the peer when no proxy is trusted or the peer is not one,
 * the right-most entry that is not a trusted proxy when it is (whatever the client wrote to
 * its left), the last trusted hop when an entry is malformed, IPv4 inside IPv6 as IPv4,
 * IPv6 clients keyed by their /64, and TRUSTED_PROXIES lists that are malformed refused.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>

#include "http/client.h"
#include "tests/check_main.h"

/* The client of a request from `peer` (an address as text) with `forwarded`, into address
 * and key; via too. */
static void identify(const char *peer, const char *forwarded, char *address, char *key, char *via)
{
	struct sockaddr_in v4 = {0};
	struct sockaddr_in6 v6 = {0};
	if (inet_pton(AF_INET, peer, &v4.sin_addr) == 1) {
		v4.sin_family = AF_INET;
		client_identify((struct sockaddr *)&v4, forwarded, address, key, via);
		return;
	}
	ck_assert_msg(inet_pton(AF_INET6, peer, &v6.sin6_addr) == 1, "not an address: %s", peer);
	v6.sin6_family = AF_INET6;
	client_identify((struct sockaddr *)&v6, forwarded, address, key, via);
}

static void assert_client(const char *peer, const char *forwarded, const char *want_address, const char *want_key)
{
	char address[CLIENT_ADDRESS_SIZE], key[CLIENT_KEY_SIZE], via[CLIENT_ADDRESS_SIZE];
	identify(peer, forwarded, address, key, via);
	ck_assert_msg(strcmp(address, want_address) == 0, "peer %s, X-Forwarded-For %s: client %s, not %s", peer,
		      forwarded ? forwarded : "(none)", address, want_address);
	if (want_key)
		ck_assert_msg(strcmp(key, want_key) == 0, "peer %s, X-Forwarded-For %s: key %s, not %s", peer,
			      forwarded ? forwarded : "(none)", key, want_key);
}

START_TEST(test_without_trusted_proxies_the_peer_is_the_client_whatever_it_forwards)
{
	ck_assert(client_configure(NULL));
	assert_client("127.0.0.1", "203.0.113.5", "127.0.0.1", "ip:127.0.0.1");
	assert_client("198.51.100.7", NULL, "198.51.100.7", "ip:198.51.100.7");
	ck_assert(client_configure(""));
	assert_client("127.0.0.1", "203.0.113.5, 198.51.100.1", "127.0.0.1", "ip:127.0.0.1");
}
END_TEST

START_TEST(test_a_trusted_proxy_names_the_client_right_most_untrusted_entry_first)
{
	ck_assert(client_configure("127.0.0.1, 10.0.0.0/8 ,2001:db8:ffff::/48"));
	char address[CLIENT_ADDRESS_SIZE], key[CLIENT_KEY_SIZE], via[CLIENT_ADDRESS_SIZE];
	identify("127.0.0.1", "203.0.113.5", address, key, via);
	ck_assert_str_eq(address, "203.0.113.5");
	ck_assert_str_eq(key, "ip:203.0.113.5");
	ck_assert_str_eq(via, "127.0.0.1");
	/* What the client wrote itself (left of its own address) is never believed. */
	assert_client("127.0.0.1", "6.6.6.6, 203.0.113.5", "203.0.113.5", NULL);
	/* A chain of trusted proxies is walked back to the first hop that is not one. */
	assert_client("127.0.0.1", "6.6.6.6, 203.0.113.5, 10.1.2.3, 10.9.9.9", "203.0.113.5", NULL);
	/* Two headers arrive joined with "," in their order (HAProxy adds its own header). */
	assert_client("127.0.0.1", "6.6.6.6,203.0.113.9", "203.0.113.9", NULL);
	/* A peer that is not trusted: its header is ignored. */
	assert_client("198.51.100.7", "203.0.113.5", "198.51.100.7", NULL);
	identify("198.51.100.7", "203.0.113.5", address, key, via);
	ck_assert_str_eq(via, "");
	/* Only trusted hops: the left-most of them. */
	assert_client("127.0.0.1", "10.0.0.2", "10.0.0.2", NULL);
	/* IPv6, bracketed or not, keyed by its /64; a trusted IPv6 proxy. */
	assert_client("127.0.0.1", "[2001:db8:1:2:aaaa::1]", "2001:db8:1:2:aaaa::1", "ip6:2001:db8:1:2::/64");
	assert_client("2001:db8:ffff:1::5", "2001:db8:1:2:bbbb::9", "2001:db8:1:2:bbbb::9", "ip6:2001:db8:1:2::/64");
	/* IPv4 inside IPv6 is IPv4, as a peer and as an entry. */
	assert_client("::ffff:127.0.0.1", "::ffff:203.0.113.5", "203.0.113.5", "ip:203.0.113.5");
}
END_TEST

START_TEST(test_a_malformed_entry_stops_the_walk_at_the_last_trusted_hop)
{
	ck_assert(client_configure("127.0.0.1,10.0.0.0/8"));
	static const char *const malformed[] = {"garbage",
						"",
						" ",
						",",
						", ,",
						"1.2.3.4.5",
						"999.1.1.1",
						"[::1",
						"203.0.113.5:8080",
						"unknown",
						"1.2.3.4 5.6.7.8",
						"203.0.113.5, garbage",
						"203.0.113.5,"};
	for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
		assert_client("127.0.0.1", malformed[i], "127.0.0.1", "ip:127.0.0.1");
	/* Garbage left of an untrusted entry is never reached. */
	assert_client("127.0.0.1", "garbage, 203.0.113.5", "203.0.113.5", NULL);
	/* Behind two trusted hops, the second's report is taken when the first's is garbage. */
	assert_client("127.0.0.1", "garbage, 10.0.0.7", "10.0.0.7", NULL);
	/* A list far longer than any chain of proxies: read from the right, a bounded number of hops. */
	char many[4096] = "203.0.113.5";
	for (int i = 0; i < 300; i++)
		strcat(many, ",10.0.0.1");
	assert_client("127.0.0.1", many, "10.0.0.1", NULL);
	/* No peer at all. */
	char address[CLIENT_ADDRESS_SIZE], key[CLIENT_KEY_SIZE];
	client_identify(NULL, "203.0.113.5", address, key, NULL);
	ck_assert_str_eq(address, "unknown");
}
END_TEST

START_TEST(test_malformed_trusted_proxies_are_refused)
{
	static const char *const bad[] = {"localhost",	"10.0.0.0/33", "10.0.0.0/",  "::/129",
					  "10.0.0.1/a", "1.2.3",       "10.0.0.0/8;"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(!client_configure(bad[i]), "TRUSTED_PROXIES=%s is accepted", bad[i]);
	/* After a refusal nothing is trusted. */
	assert_client("127.0.0.1", "203.0.113.5", "127.0.0.1", NULL);
	ck_assert(client_configure("::ffff:10.0.0.0/104"));
	assert_client("10.3.3.3", "203.0.113.5", "203.0.113.5", NULL);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("client");
	TCase *rules = tcase_create("rules");
	tcase_add_test(rules, test_without_trusted_proxies_the_peer_is_the_client_whatever_it_forwards);
	tcase_add_test(rules, test_a_trusted_proxy_names_the_client_right_most_untrusted_entry_first);
	tcase_add_test(rules, test_a_malformed_entry_stops_the_walk_at_the_last_trusted_hop);
	tcase_add_test(rules, test_malformed_trusted_proxies_are_refused);
	suite_add_tcase(suite, rules);
	return suite;
}
