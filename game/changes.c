/*
 * changes.c - the database's notifications as changes (see changes.h): db/listener.c's
 * connection held under game/'s name, so the floors above never hold a store object.
 */
#include "game/changes.h"

#include <stdlib.h>

#include "base/xalloc.h"

struct changes {
	struct listener *listener;
};

struct changes *changes_open(const char *conninfo)
{
	struct changes *changes = xmalloc(sizeof *changes);
	changes->listener = listener_open(conninfo);
	return changes;
}

void changes_close(struct changes *changes)
{
	if (!changes)
		return;
	listener_close(changes->listener);
	free(changes);
}

enum store_status changes_wait(struct changes *changes, int timeout_ms, changes_callback on_change, void *context,
			       int *reconnected)
{
	return listener_wait(changes->listener, timeout_ms, on_change, context, reconnected);
}
