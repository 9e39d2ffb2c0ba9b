/*
 * store_format.c - the names of the webhook formats (enum store_webhook_format), as the
 * webhooks.format column and the API write them. A file of its own, free of libpq, so
 * what reads a registration (api/registration.c) links without the store (its fuzz target
 * does).
 */
#include <string.h>

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
