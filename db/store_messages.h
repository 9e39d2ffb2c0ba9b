/*
 * store_messages.h - table talk in the store (db/migrations/0004_messages.sql): messages
 * kept beside a game's log, never in it, each numbered per game (seq 1, 2, 3 ...) and
 * placed after the game version it followed (after_version). They never change the game's
 * version. Same connection and threading rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_MESSAGES_H
#define CATAN_DB_STORE_MESSAGES_H

#include <stdint.h>

#include "db/store.h"

struct store_message {
	int32_t seq;
	int32_t after_version;
	int seat;
	int64_t created_at_us; /* microseconds since 1970, UTC */
	char *text;	       /* NUL-terminated, owned by the list (or by the caller of post) */
};

/* Post `text` (valid UTF-8, checked by the caller) by `seat` unless the seat has posted
 * `per_minute` messages in the last 60 s: STORE_OK with *posted (its text NULL), or
 * STORE_OK with *retry_after_s > 0 (over the limit, nothing written), or STORE_NOT_FOUND
 * (no such game), or the store's failure. */
enum store_status store_message_post(struct store *store, int64_t game_id, int seat, const char *text, int per_minute,
				     struct store_message *posted, int *retry_after_s);

/* Messages after seq `after`, oldest first, at most `limit`. Free with store_messages_free. */
struct store_messages {
	int count;
	struct store_message *rows;
};
enum store_status store_messages_read(struct store *store, int64_t game_id, int32_t after, int limit,
				      struct store_messages *out);
void store_messages_free(struct store_messages *messages);

#endif
