/*
 * store_format.c - the store's text forms, free of libpq: game and webhook ids as 16 hex
 * digits (db/store.h), and the names of the webhook formats (enum store_webhook_format), as
 * the webhooks.format column and the API write them. A file of its own, so what reads a
 * registration (api/registration.c) links without the store (its fuzz target does), and
 * the notifier (db/notifier.c) formats ids without calling into store.c, which calls it.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "db/store.h"

#include "db/store_webhooks.h"

static const char *const format_names[STORE_FORMAT_COUNT] = {"standard", "discord", "slack", "mail"};

const char *store_format_name(int format)
{
	return format >= 0 && format < STORE_FORMAT_COUNT ? format_names[format] : "standard";
}

int store_format_parse(const char *name)
{
	for (int i = 0; name && i < STORE_FORMAT_COUNT; i++)
		if (strcmp(name, format_names[i]) == 0)
			return i;
	return -1;
}

void store_format_id(int64_t id, char out[STORE_ID_TEXT_SIZE])
{
	snprintf(out, STORE_ID_TEXT_SIZE, "%016llx", (unsigned long long)id);
}

int store_parse_id(const char *text, int64_t *id)
{
	uint64_t value = 0;
	for (int i = 0; i < 16; i++) {
		char c = text[i];
		int digit;
		if (c >= '0' && c <= '9')
			digit = c - '0';
		else if (c >= 'a' && c <= 'f')
			digit = c - 'a' + 10;
		else
			return 0;
		value = value << 4 | (uint64_t)digit;
	}
	if (text[16] != '\0' || value == 0 || value > (uint64_t)INT64_MAX)
		return 0;
	*id = (int64_t)value;
	return 1;
}
