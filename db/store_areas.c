/*
 * store_areas.c - store_open(): a store that prepares the statements of every area of
 * STORE_AREAS (store_internal.h) on each connection. The one file that names every area,
 * apart from store.c, which runs their statements: so no circle of calls joins store.c and
 * the areas (store.c -> area -> store.c), which scripts/check-cycles.py would refuse.
 */
#include "db/store_internal.h"

#define STORE__AREA_ADDRESS(area) &store__area_##area,
static const struct store_area *const areas[] = {STORE_AREAS(STORE__AREA_ADDRESS)};
#undef STORE__AREA_ADDRESS

enum store_status store_open(const char *conninfo, struct store **out)
{
	return store__open(conninfo, areas, (int)(sizeof areas / sizeof areas[0]), out);
}

enum store_status store_open_for_reads(const char *conninfo, struct store **out)
{
	return store__open_for_reads(conninfo, areas, (int)(sizeof areas / sizeof areas[0]), out);
}
