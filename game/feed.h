/*
 * feed.h - one order over the events and messages of many games, free of HTTP: the
 * player's feed and a game stream's table talk (db/store_feed.h: positions, settled rows,
 * xmin). The store's door for the feed and stream handlers of api/.
 *
 * Ownership: results are the caller's to free with store_feed_free(); arguments borrowed.
 * The thread's store connection; statuses as db/store.h's.
 */
#ifndef CATAN_GAME_FEED_H
#define CATAN_GAME_FEED_H

#include <stdint.h>

#include "db/store_feed.h"

/* The rows of every game where the player holds a seat, after `after`, at most `limit`. */
enum store_status feed_read_player(int64_t player_id, const struct store_feed_position *after, int limit,
				   struct store_feed *out);

/* The rows of one game after `after` (events past event_floor, messages past
 * message_floor), at most `limit`. */
enum store_status feed_read_game(int64_t game_id, const struct store_feed_position *after, int32_t event_floor,
				 int32_t message_floor, int limit, struct store_feed *out);

/* The position of the game's event (STORE_FEED_EVENT, its version) or message. */
enum store_status feed_position_of(int64_t game_id, int kind, int32_t seq, struct store_feed_position *out);

/* The database's xmin now: every row of a transaction below it is settled. */
enum store_status feed_xmin(int64_t *xmin);

#endif
