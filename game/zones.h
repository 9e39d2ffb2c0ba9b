/*
 * zones.h - the server's time zones: the tz database's files (/usr/share/zoneinfo, or
 * ZONEINFO_DIR) parsed by base/zone.h, once per name, behind one mutex. A loaded zone is
 * never changed or freed, so callers read it without a lock, and no thread ever touches
 * the process's TZ (setenv("TZ") would race every other thread of the server).
 */
#ifndef CATAN_GAME_ZONES_H
#define CATAN_GAME_ZONES_H

#include "base/zone.h"

/* The zone `name`; NULL for a name that is not valid (zone_name_valid()) or has no
 * readable TZif file. Borrowed for the life of the process. */
const struct zone *zones_load(const char *name);

#endif
