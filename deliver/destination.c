/*
 * destination.c - the webhook destination checks (see destination.h).
 *
 * Address ranges follow the IANA special-purpose registries (RFC 6890 and updates): what
 * is not globally reachable is refused. IPv6 addresses that embed an IPv4 one (mapped,
 * NAT64, 6to4) are judged by the embedded address.
 */
#include "deliver/destination.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct range4 {
	uint32_t base;
	int bits;
};

static const struct range4 refused4[] = {
	{0x00000000, 8},  /* "this network" */
	{0x0A000000, 8},  /* private */
	{0x64400000, 10}, /* shared (carrier-grade NAT) */
	{0x7F000000, 8},  /* loopback */
	{0xA9FE0000, 16}, /* link-local (and cloud metadata services) */
	{0xAC100000, 12}, /* private */
	{0xC0000000, 24}, /* IETF protocol assignments */
	{0xC0000200, 24}, /* documentation */
	{0xC0586300, 24}, /* 6to4 relay anycast */
	{0xC0A80000, 16}, /* private */
	{0xC6120000, 15}, /* benchmarking */
	{0xC6336400, 24}, /* documentation */
	{0xCB007100, 24}, /* documentation */
	{0xE0000000, 4},  /* multicast */
	{0xF0000000, 4},  /* reserved, broadcast */
};

static int ipv4_allowed(uint32_t address)
{
	for (size_t i = 0; i < sizeof refused4 / sizeof refused4[0]; i++) {
		uint32_t mask = refused4[i].bits ? ~UINT32_C(0) << (32 - refused4[i].bits) : 0;
		if ((address & mask) == refused4[i].base)
			return 0;
	}
	return 1;
}

static uint32_t ipv4_at(const uint8_t *bytes)
{
	return (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
}

static int ipv6_allowed(const uint8_t a[16])
{
	static const uint8_t zero[16] = {0};
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	static const uint8_t nat64[12] = {0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0};
	if (memcmp(a, mapped, 12) == 0 || memcmp(a, nat64, 12) == 0)
		return ipv4_allowed(ipv4_at(a + 12));
	if (memcmp(a, zero, 12) == 0) /* ::, ::1 and the old IPv4-compatible form */
		return 0;
	if (a[0] == 0x20 && a[1] == 0x02) /* 6to4: judge the IPv4 inside */
		return ipv4_allowed(ipv4_at(a + 2));
	if ((a[0] & 0xfe) == 0xfc) /* unique local */
		return 0;
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) /* link-local */
		return 0;
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0xc0) /* site-local (deprecated) */
		return 0;
	if (a[0] == 0xff) /* multicast */
		return 0;
	if (a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8) /* documentation */
		return 0;
	if (a[0] == 0x01 && a[1] == 0x00 && memcmp(a + 2, zero, 6) == 0) /* discard-only */
		return 0;
	return 1;
}

/* 1 when `address` is one of this machine's own interface addresses. */
static int is_own_address(const struct sockaddr *address)
{
	struct ifaddrs *interfaces;
	if (getifaddrs(&interfaces) != 0)
		return 0;
	int own = 0;
	for (struct ifaddrs *at = interfaces; at && !own; at = at->ifa_next) {
		if (!at->ifa_addr || at->ifa_addr->sa_family != address->sa_family)
			continue;
		if (address->sa_family == AF_INET)
			own = ((const struct sockaddr_in *)at->ifa_addr)->sin_addr.s_addr ==
			      ((const struct sockaddr_in *)address)->sin_addr.s_addr;
		else if (address->sa_family == AF_INET6)
			own = memcmp(&((const struct sockaddr_in6 *)at->ifa_addr)->sin6_addr,
				     &((const struct sockaddr_in6 *)address)->sin6_addr, 16) == 0;
	}
	freeifaddrs(interfaces);
	return own;
}

int destination_address_allowed(const struct sockaddr *address, int allow_private)
{
	if (allow_private)
		return 1;
	int allowed;
	if (address->sa_family == AF_INET)
		allowed = ipv4_allowed(ntohl(((const struct sockaddr_in *)address)->sin_addr.s_addr));
	else if (address->sa_family == AF_INET6)
		allowed = ipv6_allowed(((const struct sockaddr_in6 *)address)->sin6_addr.s6_addr);
	else
		return 0;
	return allowed && !is_own_address(address);
}

static int say(char *why, size_t why_size, const char *reason)
{
	snprintf(why, why_size, "%s", reason);
	return 0;
}

int destination_url_allowed(const char *url, int allow_private, char *why, size_t why_size)
{
	CURLU *parsed = curl_url();
	if (!parsed)
		return say(why, why_size, "the URL cannot be read");
	int allowed = 0;
	char *scheme = NULL, *user = NULL, *password = NULL, *host = NULL;
	if (curl_url_set(parsed, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(parsed, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
	    curl_url_get(parsed, CURLUPART_HOST, &host, 0) != CURLUE_OK || !*host) {
		say(why, why_size, "url must be an absolute http:// or https:// URL with a host");
		goto done;
	}
	if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) {
		say(why, why_size, "url must be an http:// or https:// URL");
		goto done;
	}
	if (curl_url_get(parsed, CURLUPART_USER, &user, 0) == CURLUE_OK ||
	    curl_url_get(parsed, CURLUPART_PASSWORD, &password, 0) == CURLUE_OK) {
		say(why, why_size, "url must not carry a user name or password");
		goto done;
	}
	if (!allow_private) {
		size_t length = strlen(host);
		if (strcasecmp(host, "localhost") == 0 ||
		    (length > 10 && strcasecmp(host + length - 10, ".localhost") == 0)) {
			say(why, why_size, "url must not name this machine");
			goto done;
		}
		/* An IP literal is judged now; a name is judged at every connection. */
		struct sockaddr_in v4 = {0};
		struct sockaddr_in6 v6 = {0};
		char literal[64];
		snprintf(literal, sizeof literal, "%s", host);
		size_t literal_length = strlen(literal);
		if (literal[0] == '[' && literal_length > 2 && literal[literal_length - 1] == ']') {
			memmove(literal, literal + 1, literal_length - 2);
			literal[literal_length - 2] = '\0';
		}
		int is_v4 = inet_pton(AF_INET, literal, &v4.sin_addr) == 1;
		int is_v6 = !is_v4 && inet_pton(AF_INET6, literal, &v6.sin6_addr) == 1;
		v4.sin_family = AF_INET;
		v6.sin6_family = AF_INET6;
		if ((is_v4 && !destination_address_allowed((struct sockaddr *)&v4, 0)) ||
		    (is_v6 && !destination_address_allowed((struct sockaddr *)&v6, 0))) {
			say(why, why_size, "url must not point at a private, loopback, link-local or reserved address");
			goto done;
		}
	}
	allowed = 1;
done:
	curl_free(scheme);
	curl_free(user);
	curl_free(password);
	curl_free(host);
	curl_url_cleanup(parsed);
	return allowed;
}
