/*
 * channels.c - the chat messages of Discord and Slack webhooks.
 *
 * A group of friends plays one game a week in their chat channel: what they want to read
 * there is short. One message when the game starts waiting for someone new (a seat, or the
 * same seat in a new phase: after the roll, "trade, build or end the turn"), naming them so
 * that their phone buzzes, saying what the game waits for, with the last few moves in
 * words, a link to open the game and the picture of the board as it now stands. One more
 * when the game ends. Nothing for the moves in between: a channel is not an event log.
 *
 * Discord takes {"content", "embeds": [{"title", "description", "url", "image": {"url"}}]}
 * with content up to 2000 characters; "allowed_mentions" limits pings to users and roles,
 * so a seat named "@everyone" pings nobody. Slack takes {"text", "blocks"} (text is the
 * notification's fallback), with a mrkdwn section and an image block; names are escaped
 * (&, <, >) so they cannot forge a mention, while the registered mention text goes in as is.
 *
 * Rate limits: both services answer 429 with Retry-After in seconds; Discord also puts
 * "retry_after" (seconds, fractional) in a JSON body. channels_retry_after_ms() reads either.
 */
#include "api/channels.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/summary.h"
#include "api/xalloc.h"
#include "db/store.h"
#include "engine/legal.h"

#define RETRY_AFTER_MAX_MS (3600 * 1000)

static void add_escaped(struct xtext *text, int format, const char *name)
{
	for (const char *c = name; *c; c++) {
		if (format == STORE_FORMAT_SLACK && *c == '&')
			xtext_add(text, "&amp;");
		else if (format == STORE_FORMAT_SLACK && *c == '<')
			xtext_add(text, "&lt;");
		else if (format == STORE_FORMAT_SLACK && *c == '>')
			xtext_add(text, "&gt;");
		else
			xtext_add(text, "%c", *c);
	}
}

static void add_name(struct xtext *text, int format, const struct channels_turn *turn, int seat)
{
	if (seat >= 0 && seat < GAME_MAX_SEATS && turn->names[seat] && turn->names[seat][0])
		add_escaped(text, format, turn->names[seat]);
	else
		xtext_add(text, "Seat %d", seat + 1);
}

/* The key a channel hears of: the seats waited for and the phase. */
static unsigned turn_key(const struct game *game)
{
	return (unsigned)legal_waiting_for(game) << 8 | game->phase;
}

int channels_worth_a_message(const struct game *before, const struct game *after, int only_seat)
{
	if (after->phase == GAME_PHASE_FINISHED)
		return before->phase != GAME_PHASE_FINISHED;
	if (turn_key(before) == turn_key(after) || !game_in_progress(after))
		return 0;
	return only_seat < 0 || (legal_waiting_for(after) >> only_seat & 1u);
}

const char *channels_expectation(int phase)
{
	switch (phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		return "place a starting settlement";
	case GAME_PHASE_SETUP_ROAD:
		return "place a road next to the settlement just placed";
	case GAME_PHASE_ROLL:
		return "roll the dice";
	case GAME_PHASE_DISCARD:
		return "discard half of the resource cards (a 7 was rolled)";
	case GAME_PHASE_MOVE_ROBBER:
		return "move the robber and choose whom to rob";
	case GAME_PHASE_MAIN:
		return "trade, build or play a card, then end the turn";
	default:
		return "move";
	}
}

/* The mention registered for `seat`, or NULL. */
static const char *mention_of(const json_t *mentions, int seat)
{
	char key[8];
	snprintf(key, sizeof key, "%d", seat);
	const json_t *value = mentions ? json_object_get(mentions, key) : NULL;
	return json_is_string(value) ? json_string_value(value) : NULL;
}

/* The headline: who, what, and the game; the mentions first so the ping shows them. */
static void add_headline(struct xtext *text, int format, const json_t *mentions, const struct game *game,
                         const struct channels_turn *turn)
{
	if (game->phase == GAME_PHASE_FINISHED) {
		if (game->winner >= 0) {
			const char *mention = mention_of(mentions, game->winner);
			if (mention)
				xtext_add(text, "%s ", mention);
			add_name(text, format, turn, game->winner);
			xtext_add(text, " won the game with %d points!", game_total_points(game, game->winner));
		} else {
			xtext_add(text, "The game is over.");
		}
		xtext_add(text, " Final board of game %s.", turn->game_id);
		return;
	}
	uint8_t waiting = legal_waiting_for(game);
	int several = __builtin_popcount(waiting) > 1;
	for (int seat = 0; seat < game->options.seats; seat++) {
		const char *mention = waiting >> seat & 1u ? mention_of(mentions, seat) : NULL;
		if (mention)
			xtext_add(text, "%s ", mention);
	}
	int listed = 0, total = __builtin_popcount(waiting);
	for (int seat = 0; seat < game->options.seats; seat++) {
		if (!(waiting >> seat & 1u))
			continue;
		xtext_add(text, "%s", listed == 0 ? "" : listed == total - 1 ? " and " : ", ");
		xtext_add(text, format == STORE_FORMAT_SLACK ? "*" : "**");
		add_name(text, format, turn, seat);
		xtext_add(text, format == STORE_FORMAT_SLACK ? "*" : "**");
		listed++;
	}
	xtext_add(text, several ? ": your move" : ": your turn");
	if (game->turn_number > 0)
		xtext_add(text, " (turn %u)", game->turn_number);
	xtext_add(text, " - %s.", channels_expectation(game->phase));
}

static void add_recent(struct xtext *text, int format, const struct channels_turn *turn)
{
	char sentence[256];
	for (int i = 0; i < turn->recent_count; i++) {
		summary_event(&turn->recent[i], turn->names, sentence, sizeof sentence);
		xtext_add(text, "%s", i ? "\n" : "");
		xtext_add(text, "- ");
		add_escaped(text, format, sentence);
	}
	if (turn->recent_count == 0)
		xtext_add(text, "No moves yet.");
}

/* At most `max` characters (UTF-8 code points) of text, cut with an ellipsis. */
static void clip(struct xtext *text, size_t max)
{
	size_t points = 0, i = 0;
	for (; i < text->length; i++) {
		if (((unsigned char)text->data[i] & 0xC0) != 0x80) {
			if (points == max)
				break;
			points++;
		}
	}
	if (i >= text->length)
		return;
	/* Keep room for "..." (3 code points). */
	size_t keep = 0, counted = 0;
	for (size_t j = 0; j < text->length; j++) {
		if (((unsigned char)text->data[j] & 0xC0) != 0x80) {
			if (counted == max - 3) {
				keep = j;
				break;
			}
			counted++;
		}
	}
	text->length = keep;
	text->data[keep] = '\0';
	xtext_add(text, "...");
}

char *channels_message(int format, const char *mentions_json, const struct game *after,
                       const struct channels_turn *turn)
{
	json_t *mentions = mentions_json ? json_loads(mentions_json, 0, NULL) : NULL;
	struct xtext headline = {xmalloc(64), 0, 64}, moves = {xmalloc(256), 0, 256};
	headline.data[0] = moves.data[0] = '\0';
	add_headline(&headline, format, mentions, after, turn);
	add_recent(&moves, format, turn);
	json_decref(mentions);
	char title[96];
	if (after->phase == GAME_PHASE_FINISHED)
		snprintf(title, sizeof title, "Catan game %s: finished", turn->game_id);
	else
		snprintf(title, sizeof title, "Catan game %s: version %d", turn->game_id, (int)turn->version);
	json_t *body;
	if (format == STORE_FORMAT_DISCORD) {
		clip(&headline, CHANNELS_DISCORD_CONTENT_MAX);
		clip(&moves, 4000);
		body = json_pack("{s:s, s:[{s:s, s:s, s:s, s:{s:s}}], s:{s:[s, s]}}", "content", headline.data,
		                 "embeds", "title", title, "description", moves.data, "url", turn->game_url, "image",
		                 "url", turn->board_url, "allowed_mentions", "parse", "users", "roles");
	} else {
		clip(&headline, 2900);
		clip(&moves, 2900);
		char *section = xasprintf("%s\n*Last moves*\n%s\n<%s|Open the game>", headline.data, moves.data,
		                          turn->game_url);
		body = json_pack("{s:s, s:[{s:s, s:{s:s, s:s}}, {s:s, s:s, s:s, s:{s:s, s:s}}]}", "text", headline.data,
		                 "blocks", "type", "section", "text", "type", "mrkdwn", "text", section, "type",
		                 "image", "image_url", turn->board_url, "alt_text", "The board now", "title", "type",
		                 "plain_text", "text", title);
		free(section);
	}
	free(headline.data);
	free(moves.data);
	if (!body)
		abort();
	char *out = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!out)
		abort();
	return out;
}

/* Seconds as text ("3", "1.5") in milliseconds, or -1. */
static int64_t seconds_ms(const char *text)
{
	while (text && isspace((unsigned char)*text))
		text++;
	if (!text || !isdigit((unsigned char)*text))
		return -1;
	char *end;
	double seconds = strtod(text, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (*end || !isfinite(seconds) || seconds < 0)
		return -1;
	double ms = ceil(seconds * 1000.0);
	return ms > RETRY_AFTER_MAX_MS ? RETRY_AFTER_MAX_MS : (int64_t)ms;
}

int64_t channels_retry_after_ms(const char *retry_after_header, const char *body, size_t body_size)
{
	int64_t ms = seconds_ms(retry_after_header);
	if (ms >= 0 || !body || body_size == 0)
		return ms;
	json_t *parsed = json_loadb(body, body_size, 0, NULL);
	json_t *after = json_is_object(parsed) ? json_object_get(parsed, "retry_after") : NULL;
	if (json_is_number(after) && json_number_value(after) >= 0) {
		double value = ceil(json_number_value(after) * 1000.0);
		ms = value > RETRY_AFTER_MAX_MS ? RETRY_AFTER_MAX_MS : (int64_t)value;
	}
	json_decref(parsed);
	return ms;
}

int channels_mentions_valid(const json_t *mentions, int seats, char *why, size_t why_size)
{
	if (!json_is_object(mentions)) {
		snprintf(why, why_size, "mentions is an object from seat (\"0\"..\"%d\") to mention text", seats - 1);
		return 0;
	}
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)mentions, key, value)
	{
		if (!(key[0] >= '0' && key[0] < '0' + seats && key[1] == '\0')) {
			snprintf(why, why_size, "mentions keys are seats \"0\"..\"%d\"", seats - 1);
			return 0;
		}
		const char *text = json_is_string(value) ? json_string_value(value) : NULL;
		size_t length = text ? strlen(text) : 0;
		int printable = text != NULL;
		for (size_t i = 0; i < length; i++)
			if ((unsigned char)text[i] < 0x20 || text[i] == 0x7f)
				printable = 0;
		if (!printable || length == 0 || length > CHANNELS_MENTION_MAX) {
			snprintf(why, why_size,
			         "mentions values are texts of 1 to %d bytes without control characters (e.g. "
			         "\"<@123>\")",
			         CHANNELS_MENTION_MAX);
			return 0;
		}
	}
	return 1;
}
