/*
 * feed.c - the feed's reads on the thread's store connection (see feed.h): one store call
 * each.
 */
#include "game/feed.h"

#include "game/play_internal.h"

enum store_status feed_read_player(int64_t player_id, const struct store_feed_position *after, int limit,
				   struct store_feed *out)
{
	return store_feed_read_player(play_thread_store(), player_id, after, limit, out);
}

enum store_status feed_read_game(int64_t game_id, const struct store_feed_position *after, int32_t event_floor,
				 int32_t message_floor, int limit, struct store_feed *out)
{
	return store_feed_read_game(play_thread_store(), game_id, after, event_floor, message_floor, limit, out);
}

enum store_status feed_position_of(int64_t game_id, int kind, int32_t seq, struct store_feed_position *out)
{
	return store_feed_position_of(play_thread_store(), game_id, kind, seq, out);
}

enum store_status feed_xmin(int64_t *xmin)
{
	return store_feed_xmin(play_thread_store(), xmin);
}
