/*
 * messages.c - table talk: the text rules, the rate (kept by the store, so it holds across
 * every server of one database) and the JSON of a message.
 *
 * A message is public (every seat and every spectator reads the same text), so nothing is
 * redacted. Its text is client text shown to other people: valid UTF-8 (the JSON parser
 * already refuses anything else; checked again here), 1..500 characters, and, like names,
 * no control or bidi-override characters that would rewrite what a reader sees around
 * them; line feeds are allowed, since a trade proposal may take a few lines.
 */
#include "game/messages.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "codec/text.h"
#include "game/play_internal.h"

int messages_text_length(const char *text)
{
	return text_message_length(text, MESSAGES_MAX_CHARACTERS);
}

enum store_status messages_post(int64_t game_id, int seat, const char *text, int per_minute,
				struct store_message *posted, int *retry_after_s)
{
	return store_message_post(play_thread_store(), game_id, seat, text, per_minute > 0 ? per_minute : INT_MAX,
				  posted, retry_after_s);
}

enum store_status messages_read(int64_t game_id, int32_t after, int limit, struct store_messages *out)
{
	return store_messages_read(play_thread_store(), game_id, after, limit, out);
}

json_t *messages_json(const struct game_record *game, const struct store_message *message, const char *text)
{
	char when[48];
	play_format_time(message->created_at_us, when, sizeof when);
	int seat = message->seat;
	const char *name = seat >= 0 && seat < game->state.options.seats ? game->names[seat] : "";
	return json_pack("{s:i, s:i, s:s, s:s, s:i, s:s}", "seq", (int)message->seq, "seat", seat, "name", name, "text",
			 text ? text : message->text, "after_version", (int)message->after_version, "created_at", when);
}
