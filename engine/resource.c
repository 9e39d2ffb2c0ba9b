/*
 * resource.c - names of the resources. Aliases of other editions (wood, wheat, sheep ...)
 * are an input concern and live in the API codec; the engine only knows canonical names.
 */
#include "resource.h"

#include <stddef.h>

static const char *const resource_names[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};

const char *resource_name(int resource)
{
	if (resource < 0 || resource >= RESOURCE_COUNT)
		return NULL;
	return resource_names[resource];
}
