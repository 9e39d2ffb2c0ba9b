/*
 * client.c - the client of a request: the socket's peer, or the address a trusted proxy
 * reports in X-Forwarded-For (see client.h for the rule).
 *
 * Addresses are compared as 16 bytes with a family (IPv4 inside IPv6 turned into IPv4
 * first, so "::ffff:10.0.0.1" is trusted by "10.0.0.0/8"); the trusted ranges are a small
 * table filled once at start and only read afterwards, so no lock is needed. The list is
 * walked from its right end with no copy and at most CLIENT_MAX_HOPS entries are read: a
 * longer chain of trusted proxies is not a deployment, and stopping early only makes the
 * client a trusted hop (a shared key), never a key the sender chose.
 */
#include "http/client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CLIENT_MAX_TRUSTED 64
#define CLIENT_MAX_HOPS 16
#define CLIENT_ENTRY_MAX 64

struct address {
	int family; /* AF_INET or AF_INET6 */
	uint8_t bytes[16];
};

struct range {
	struct address base;
	int prefix; /* bits */
};

static struct range trusted[CLIENT_MAX_TRUSTED];
static int trusted_count;

static const uint8_t mapped_prefix[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};

/* IPv4 inside IPv6 becomes the IPv4 it carries. */
static void normalize(struct address *address)
{
	if (address->family == AF_INET6 && memcmp(address->bytes, mapped_prefix, 12) == 0) {
		address->family = AF_INET;
		memmove(address->bytes, address->bytes + 12, 4);
		memset(address->bytes + 4, 0, 12);
	}
}

/* `text` (exactly `length` bytes, no surrounding space) as an address; "[v6]" is taken as
 * v6. 1 when it is one. */
static int parse_address(const char *text, size_t length, struct address *out)
{
	char copy[CLIENT_ENTRY_MAX];
	if (length >= 2 && text[0] == '[' && text[length - 1] == ']') {
		text++;
		length -= 2;
	}
	if (length == 0 || length >= sizeof copy)
		return 0;
	memcpy(copy, text, length);
	copy[length] = '\0';
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, copy, out->bytes) == 1) {
		out->family = AF_INET;
		return 1;
	}
	if (inet_pton(AF_INET6, copy, out->bytes) == 1) {
		out->family = AF_INET6;
		normalize(out);
		return 1;
	}
	return 0;
}

static int in_range(const struct address *address, const struct range *range)
{
	if (address->family != range->base.family)
		return 0;
	int whole = range->prefix / 8, bits = range->prefix % 8;
	if (memcmp(address->bytes, range->base.bytes, (size_t)whole) != 0)
		return 0;
	if (bits == 0)
		return 1;
	uint8_t mask = (uint8_t)(0xff << (8 - bits));
	return (address->bytes[whole] & mask) == (range->base.bytes[whole] & mask);
}

static int is_trusted(const struct address *address)
{
	for (int i = 0; i < trusted_count; i++)
		if (in_range(address, &trusted[i]))
			return 1;
	return 0;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* One entry of TRUSTED_PROXIES ("a.b.c.d", "a.b.c.d/n", "v6", "v6/n"). */
static int parse_range(const char *text, size_t length, struct range *out)
{
	const char *slash = memchr(text, '/', length);
	size_t address_length = slash ? (size_t)(slash - text) : length;
	if (!parse_address(text, address_length, &out->base))
		return 0;
	int most = out->base.family == AF_INET ? 32 : 128;
	out->prefix = most;
	if (slash) {
		const char *digits = slash + 1;
		size_t count = length - address_length - 1;
		if (count == 0 || count > 3 || strspn(digits, "0123456789") < count)
			return 0;
		int prefix = 0;
		for (size_t i = 0; i < count; i++)
			prefix = prefix * 10 + (digits[i] - '0');
		/* A mapped IPv4 range ("::ffff:10.0.0.0/104") was turned into IPv4: its prefix too. */
		if (out->base.family == AF_INET && memchr(text, ':', address_length))
			prefix -= 96;
		if (prefix < 0 || prefix > most)
			return 0;
		out->prefix = prefix;
	}
	return 1;
}

int client_configure(const char *list)
{
	trusted_count = 0;
	if (!list)
		return 1;
	const char *at = list;
	while (*at) {
		const char *end = strchr(at, ',');
		if (!end)
			end = at + strlen(at);
		const char *first = at, *last = end;
		while (first < last && is_space(*first))
			first++;
		while (last > first && is_space(last[-1]))
			last--;
		if (last > first) {
			if (trusted_count == CLIENT_MAX_TRUSTED ||
			    !parse_range(first, (size_t)(last - first), &trusted[trusted_count])) {
				fprintf(stderr,
					"{\"level\":\"error\",\"msg\":\"bad setting\",\"name\":\"TRUSTED_PROXIES\","
					"\"range\":\"at most %d addresses or CIDR ranges, comma-separated\"}\n",
					CLIENT_MAX_TRUSTED);
				trusted_count = 0;
				return 0;
			}
			trusted_count++;
		}
		at = *end ? end + 1 : end;
	}
	return 1;
}

static void format_address(const struct address *address, char *out)
{
	if (!inet_ntop(address->family, address->bytes, out, CLIENT_ADDRESS_SIZE))
		snprintf(out, CLIENT_ADDRESS_SIZE, "unknown");
}

static void format_key(const struct address *address, char *out)
{
	char text[CLIENT_ADDRESS_SIZE];
	if (address->family == AF_INET) {
		format_address(address, text);
		snprintf(out, CLIENT_KEY_SIZE, "ip:%s", text);
		return;
	}
	struct address prefix = *address;
	memset(prefix.bytes + 8, 0, 8);
	format_address(&prefix, text);
	snprintf(out, CLIENT_KEY_SIZE, "ip6:%s/64", text);
}

static int from_socket(const struct sockaddr *peer, struct address *out)
{
	memset(out, 0, sizeof *out);
	if (peer->sa_family == AF_INET) {
		out->family = AF_INET;
		memcpy(out->bytes, &((const struct sockaddr_in *)(const void *)peer)->sin_addr, 4);
		return 1;
	}
	if (peer->sa_family == AF_INET6) {
		out->family = AF_INET6;
		memcpy(out->bytes, &((const struct sockaddr_in6 *)(const void *)peer)->sin6_addr, 16);
		normalize(out);
		return 1;
	}
	return 0;
}

void client_identify(const struct sockaddr *peer, const char *forwarded, char *address, char *key, char *via)
{
	if (via)
		via[0] = '\0';
	struct address client;
	if (!peer || !from_socket(peer, &client)) {
		snprintf(address, CLIENT_ADDRESS_SIZE, "unknown");
		snprintf(key, CLIENT_KEY_SIZE, "unknown");
		return;
	}
	struct address socket_peer = client;
	if (forwarded && is_trusted(&client)) {
		/* From the right: each trusted hop says whom it heard the request from. */
		const char *end = forwarded + strlen(forwarded);
		for (int hops = 0; end > forwarded && hops < CLIENT_MAX_HOPS; hops++) {
			const char *start = end;
			while (start > forwarded && start[-1] != ',')
				start--;
			const char *first = start, *last = end;
			while (first < last && is_space(*first))
				first++;
			while (last > first && is_space(last[-1]))
				last--;
			struct address hop;
			if (!parse_address(first, (size_t)(last - first), &hop))
				break;
			client = hop;
			if (!is_trusted(&client))
				break;
			end = start > forwarded ? start - 1 : forwarded;
		}
	}
	format_address(&client, address);
	format_key(&client, key);
	if (via && memcmp(&client, &socket_peer, sizeof client) != 0)
		format_address(&socket_peer, via);
}
