/*
 * messages.h - table talk, free of HTTP: what a message may say, posting it within the
 * seat's rate, reading a game's messages, and a message as JSON.
 *
 * Messages live beside the log (db/store_messages.h), never in it: posting one never
 * changes the game's version, so it never makes a move's If-Match fail, never wakes a
 * long-poll of moves and never appears in the event log or the export. Each message has
 * its game's next `seq` (1, 2, 3 ...) and the game version it followed (`after_version`),
 * which places it between the moves. Uses the thread's store (play_thread_store()).
 *
 * On GET .../stream (api/handlers_moves.c) and in the player's feed (api/handlers_feed.c)
 * messages are merged with the events in the order of the transactions that wrote them
 * (db/store_feed.h, db/migrations/0008_feed.sql), read only below the database's xmin,
 * rather than in the order (after_version, seq) first designed here: that order was exact
 * only if a post read the version under a lock that appends also take, and appends take
 * none, so a message could commit with an after_version below an event already sent. On
 * the stream an event keeps `id: <version>` and a message has `id: <V>.<seq>`, V the last
 * version the stream sent before it; a resume from either goes on after that item's place,
 * exactly. after_version stays what the post saw (it usually equals the version of the
 * event just before the message). A post NOTIFYs ('<game>:m<seq>', from
 * catan_post_message()), so parked streams and feeds wake on any server. The same post
 * writes one webhook outbox row per standard (not your_turn_only) receiver of the game
 * (0009_message_deliveries.sql), delivered in order with the events (deliver/deliver.c); GET
 * .../moves carries events only.
 */
#ifndef CATAN_GAME_MESSAGES_H
#define CATAN_GAME_MESSAGES_H

#include <jansson.h>
#include <stdint.h>

#include "db/store_messages.h"
#include "game/play.h"

#define MESSAGES_MAX_CHARACTERS 500
#define MESSAGES_PAGE_MAX 500

/* The number of characters of `text` when it may be posted: valid UTF-8, 1..500
 * characters, no control characters but line feeds, no bidi or invisible format controls;
 * else -1. The rule is codec/text.h text_message_length() with MESSAGES_MAX_CHARACTERS
 * (api/inputs.c calls that, so the fuzz targets need no store). */
int messages_text_length(const char *text);

/* Post a checked text by `seat` unless the seat posted `per_minute` messages in the last 60
 * seconds (0: no limit; MESSAGE_RATE_SEAT of api/config.h): STORE_OK with *posted
 * (posted->text NULL: the caller has the text), or STORE_OK with *retry_after_s > 0 when
 * the seat is over its rate (nothing written); STORE_NOT_FOUND when the game is gone. */
enum store_status messages_post(int64_t game_id, int seat, const char *text, int per_minute,
				struct store_message *posted, int *retry_after_s);

/* The game's messages after seq `after`, at most `limit` (free with store_messages_free). */
enum store_status messages_read(int64_t game_id, int32_t after, int limit, struct store_messages *out);

/* {"seq", "seat", "name", "text", "after_version", "created_at"}; `text` given (NULL: the
 * message's own). New reference. */
json_t *messages_json(const struct game_record *game, const struct store_message *message, const char *text);

#endif
