/*
 * store_feed.h - one order over the events and messages of many games
 * (db/migrations/0008_feed.sql): the player's feed and the game stream's table talk.
 *
 * A position is (xact, game id, kind, seq): the transaction that wrote the row, its game,
 * STORE_FEED_EVENT or STORE_FEED_MESSAGE, and its seq (the event's version or the
 * message's number). Reads return the rows after a position in that order, and mark each
 * row `settled` when its transaction is below the reader's xmin: only a settled prefix may
 * be delivered, since a row of a transaction still open at or above xmin could otherwise
 * commit behind it. Same connection and threading rules as db/store.h.
 */
#ifndef CATAN_DB_STORE_FEED_H
#define CATAN_DB_STORE_FEED_H

#include <stdint.h>

#include "db/store.h"
#include "db/store_events.h"
#include "db/store_messages.h"

enum store_feed_kind { STORE_FEED_EVENT = 0, STORE_FEED_MESSAGE = 1 };

struct store_feed_position {
	int64_t xact; /* 0 for rows written before the migration */
	int64_t game_id;
	int kind;
	int32_t seq;
};

struct store_feed_item {
	struct store_feed_position at;
	int seat;		      /* the player's seat in the game (the player's feed), else -1 */
	int settled;		      /* its transaction is below xmin: it may be delivered */
	struct store_event_row event; /* STORE_FEED_EVENT (payload owned by the list) */
	struct store_message message; /* STORE_FEED_MESSAGE (text owned by the list) */
};

/* Rows in order of position. Free with store_feed_free(). */
struct store_feed {
	int count;
	struct store_feed_item *items;
};

/* The rows of every game where player `player_id` holds a seat, after `after`, at most
 * `limit`. */
enum store_status store_feed_read_player(struct store *store, int64_t player_id,
					 const struct store_feed_position *after, int limit, struct store_feed *out);

/* The rows of one game after `after` whose events have seq > event_floor and whose
 * messages have seq > message_floor (a resume from a version or a message number), at most
 * `limit`. */
enum store_status store_feed_read_game(struct store *store, int64_t game_id, const struct store_feed_position *after,
				       int32_t event_floor, int32_t message_floor, int limit, struct store_feed *out);

/* The position of a game's event (kind STORE_FEED_EVENT, seq its version) or message:
 * STORE_NOT_FOUND when there is none. */
enum store_status store_feed_position_of(struct store *store, int64_t game_id, int kind, int32_t seq,
					 struct store_feed_position *out);

/* The database's xmin now: every row of a transaction below it is settled. */
enum store_status store_feed_xmin(struct store *store, int64_t *xmin);

void store_feed_free(struct store_feed *feed);

#endif
