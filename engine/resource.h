/*
 * resource.h - the five resources and small helpers over resource counts.
 *
 * A hand, a bank, a cost or a trade side is an array of RESOURCE_COUNT counts indexed by
 * enum resource. The order is the API's canonical order.
 */
#ifndef CATAN_ENGINE_RESOURCE_H
#define CATAN_ENGINE_RESOURCE_H

#include <stdint.h>

enum resource { RESOURCE_BRICK, RESOURCE_LUMBER, RESOURCE_WOOL, RESOURCE_GRAIN, RESOURCE_ORE, RESOURCE_COUNT };

/* A resource an event hides from its viewer (a stolen card seen by a third seat). */
#define RESOURCE_HIDDEN 0xff

#define RESOURCE_BANK_START 19

static inline int resource_total(const uint8_t counts[RESOURCE_COUNT])
{
	return counts[0] + counts[1] + counts[2] + counts[3] + counts[4];
}

/* 1 when have[r] >= need[r] for every resource. */
static inline int resource_covers(const uint8_t have[RESOURCE_COUNT], const uint8_t need[RESOURCE_COUNT])
{
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (have[r] < need[r])
			return 0;
	return 1;
}

/* The canonical lower-case name ("brick" ...), or NULL when out of range. */
const char *resource_name(int resource);

#endif
