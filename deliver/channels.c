/*
 * channels.c - the chat messages of Discord and Slack webhooks.
 *
 * A group of friends plays one game a week in their chat channel: what they want to read
 * there is short, or they mute the channel on day one. One message when a person's seat
 * begins a turn (channels_moment_of(): a new turn number or setup step), naming that seat
 * once so that its phone buzzes, saying what it must do and what happened since its last
 * turn that concerns it (rolls, its own production, the robber, steals from it, trades it
 * was part of, builds, cards played; offers and their answers are left out), with places
 * named as GET /board names them, a link to open the game and the picture of the board as
 * it now stands. Its own sub-steps (the roll, then building) post nothing more. Sub-steps
 * that need other people mid-turn get a message of their own, naming only them: the
 * discards after a 7, an offer addressed to them. One summary with every seat's points
 * when the game ends. Seats the server plays (bots, seats away) are never named in a
 * mention and their turns post nothing. A digest webhook (deliver/chat.c) gets one message
 * per interval instead (CHANNELS_DIGEST). A channel is not an event log.
 *
 * Discord takes {"content", "embeds": [{"title", "description", "url", "image": {"url"}}]}
 * with content up to 2000 characters, a title up to 256 and a description up to 4096 (one
 * embed); Slack takes {"text", "blocks"} (text is the notification's fallback), with a
 * mrkdwn section of at most 3000 characters and an image block with its alt_text. Titles
 * name the moment ("Turn 12: Bob", "Game over"), never a version.
 *
 * Player text: seat names are the only text of a message a client wrote. Each goes through
 * its format's escape (codec/escape.h: escape_discord(), escape_slack()) once, before the
 * sentences are built around it (deliver/summary.c takes the escaped names), so a name can
 * neither ping anyone, nor link anywhere, nor format the words around it. Everything else
 * is the service's own words, game ids, numbers and the operator's PUBLIC_URL.
 *
 * Mentions: the only mentions in a message are those its webhook's registrant gave
 * (mentions, per seat), each read as a mention of the format (channels_mention_parse():
 * Discord <@id>, <@!id>, <@&id>; Slack <@Uid>, <!subteam^id>) and written back in its
 * canonical form; a stored text that does not read as one (registered before the rule) is
 * left out. A Discord message says exactly whom it may ping: "allowed_mentions": {"parse":
 * [], "users": [the user ids in it], "roles": [the role ids in it]}, so neither a name nor
 * anything Discord might parse out of the text can ping anyone else, @everyone included.
 *
 * Rate limits: both services answer 429 with Retry-After in seconds; Discord also puts
 * "retry_after" (seconds, fractional) in a JSON body. channels_retry_after_ms() reads either.
 */
#include "deliver/channels.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "codec/escape.h"
#include "deliver/summary.h"
#include "engine/legal.h"
#include "game/webhooks.h"

#define RETRY_AFTER_MAX_MS (3600 * 1000)

/* The seat names of `turn` escaped for `format` into escaped (NULL stays NULL); free with
 * free_names(). */
static void escape_names(int format, const struct channels_turn *turn, char *escaped[GAME_MAX_SEATS])
{
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++) {
		const char *name = turn->names[seat];
		escaped[seat] = NULL;
		if (!name || !name[0])
			continue;
		size_t size = ESCAPE_SIZE(strlen(name));
		escaped[seat] = xmalloc(size);
		if (format == STORE_FORMAT_SLACK)
			escape_slack(escaped[seat], size, name);
		else
			escape_discord(escaped[seat], size, name);
	}
}

static void free_names(char *escaped[GAME_MAX_SEATS])
{
	for (int seat = 0; seat < GAME_MAX_SEATS; seat++)
		free(escaped[seat]);
}

/* The seat's escaped name, or "Seat N" (counted from 0, as the API counts seats). */
static void add_name(struct xtext *text, char *const *names, int seat)
{
	if (seat >= 0 && seat < GAME_MAX_SEATS && names[seat])
		xtext_add(text, "%s", names[seat]);
	else
		xtext_add(text, "Seat %d", seat);
}

/* A turn as a channel counts them: the regular turn, or the step of the starting
 * placement (each settlement and its road). */
static unsigned turn_of(const struct game *game)
{
	return (unsigned)game->turn_number << 8 | game->setup_step;
}

/* The people (not the server's bots) among `seats`. */
static uint8_t people(uint8_t seats, const uint8_t bots[GAME_MAX_SEATS], int count)
{
	uint8_t mask = 0;
	for (int seat = 0; seat < count && seat < GAME_MAX_SEATS; seat++)
		if ((seats >> seat & 1u) && !bots[seat])
			mask |= (uint8_t)(1u << seat);
	return mask;
}

int channels_moment_of(const struct game *before, const struct game *after, const uint8_t bots[GAME_MAX_SEATS],
		       int only_seat, struct channels_moment *out)
{
	memset(out, 0, sizeof *out);
	int seats = after->options.seats;
	if (after->phase == GAME_PHASE_FINISHED) {
		if (before->phase == GAME_PHASE_FINISHED)
			return 0;
		out->kind = CHANNELS_END;
		out->seats = after->winner >= 0 ? people((uint8_t)(1u << after->winner), bots, seats) : 0;
		return 1;
	}
	if (!game_in_progress(after))
		return 0;
	int turn_seat = after->turn_seat;
	if (turn_of(before) != turn_of(after) || !game_in_progress(before)) {
		/* A new turn: worth a message when a person plays it. */
		out->kind = CHANNELS_TURN;
		out->seats = turn_seat >= 0 ? people((uint8_t)(1u << turn_seat), bots, seats) : 0;
	} else if (after->phase == GAME_PHASE_DISCARD && before->phase != GAME_PHASE_DISCARD) {
		uint8_t owing = 0;
		for (int seat = 0; seat < seats; seat++)
			if (after->players[seat].discard_owed && seat != turn_seat)
				owing |= (uint8_t)(1u << seat);
		out->kind = CHANNELS_DISCARD;
		out->seats = people(owing, bots, seats);
	} else {
		/* A new offer to people other than the seat whose turn it is. */
		for (int i = 0; i < GAME_MAX_OFFERS && out->kind == CHANNELS_NOTHING; i++) {
			const struct game_offer *offer = &after->offers[i];
			int known = 0;
			for (int j = 0; j < GAME_MAX_OFFERS && offer->id; j++)
				known |= before->offers[j].id == offer->id;
			uint8_t called = offer->id && !known ? people(offer->to, bots, seats) : 0;
			if (turn_seat >= 0)
				called &= (uint8_t) ~(1u << turn_seat);
			if (called) {
				out->kind = CHANNELS_OFFER;
				out->seats = called;
				out->offer = *offer;
			}
		}
	}
	if (out->kind == CHANNELS_NOTHING || !out->seats || (only_seat >= 0 && !(out->seats >> only_seat & 1u))) {
		memset(out, 0, sizeof *out);
		return 0;
	}
	return 1;
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

/* ---- Mentions ---- */

#define DISCORD_ID_MAX 20 /* digits of a snowflake (a 64-bit number) */

/* `text` from `at`: a run of 1..max (at most CHANNELS_MENTION_ID_MAX) characters accepted
 * by `accept`, then `end`, then the end of the text. Copies the run into id; 1 when it is so. */
static int read_id(const char *at, int (*accept)(int c), size_t max, char end, char id[CHANNELS_MENTION_ID_MAX + 1])
{
	size_t length = 0;
	while (at[length] && accept((unsigned char)at[length]) && length <= max)
		length++;
	if (length == 0 || length > max || at[length] != end || at[length + 1] != '\0')
		return 0;
	memcpy(id, at, length);
	id[length] = '\0';
	return 1;
}

static int digit(int c)
{
	return c >= '0' && c <= '9';
}

static int upper_or_digit(int c)
{
	return (c >= 'A' && c <= 'Z') || digit(c);
}

int channels_mention_parse(int format, const char *text, struct channels_mention *out)
{
	memset(out, 0, sizeof *out);
	if (!text)
		return 0;
	if (format == STORE_FORMAT_DISCORD) {
		/* <@id> and the older nickname form <@!id> name a user, <@&id> a role; ids are
		 * snowflakes, decimal. */
		if (strncmp(text, "<@&", 3) == 0) {
			out->kind = CHANNELS_MENTION_ROLE;
			return read_id(text + 3, digit, DISCORD_ID_MAX, '>', out->id);
		}
		if (strncmp(text, "<@", 2) == 0) {
			out->kind = CHANNELS_MENTION_USER;
			return read_id(text + (text[2] == '!' ? 3 : 2), digit, DISCORD_ID_MAX, '>', out->id);
		}
		return 0;
	}
	if (format == STORE_FORMAT_SLACK) {
		/* <@U..> or <@W..> names a user, <!subteam^S..> a user group. */
		if (strncmp(text, "<@", 2) == 0 && (text[2] == 'U' || text[2] == 'W')) {
			out->kind = CHANNELS_MENTION_USER;
			return read_id(text + 2, upper_or_digit, CHANNELS_MENTION_ID_MAX, '>', out->id);
		}
		if (strncmp(text, "<!subteam^", 10) == 0) {
			out->kind = CHANNELS_MENTION_ROLE;
			return read_id(text + 10, upper_or_digit, CHANNELS_MENTION_ID_MAX, '>', out->id);
		}
	}
	return 0;
}

/* The mention as a message writes it. */
static void add_mention(struct xtext *text, int format, const struct channels_mention *mention)
{
	if (format == STORE_FORMAT_DISCORD)
		xtext_add(text, mention->kind == CHANNELS_MENTION_ROLE ? "<@&%s> " : "<@%s> ", mention->id);
	else
		xtext_add(text, mention->kind == CHANNELS_MENTION_ROLE ? "<!subteam^%s> " : "<@%s> ", mention->id);
}

/* The mentions a message holds, for Discord's allowed_mentions: each id once. */
struct mentioned {
	char users[GAME_MAX_SEATS][CHANNELS_MENTION_ID_MAX + 1];
	char roles[GAME_MAX_SEATS][CHANNELS_MENTION_ID_MAX + 1];
	int user_count, role_count;
};

static void remember(struct mentioned *mentioned, const struct channels_mention *mention)
{
	int role = mention->kind == CHANNELS_MENTION_ROLE;
	char(*ids)[CHANNELS_MENTION_ID_MAX + 1] = role ? mentioned->roles : mentioned->users;
	int *count = role ? &mentioned->role_count : &mentioned->user_count;
	for (int i = 0; i < *count; i++)
		if (strcmp(ids[i], mention->id) == 0)
			return;
	if (*count < GAME_MAX_SEATS)
		snprintf(ids[(*count)++], CHANNELS_MENTION_ID_MAX + 1, "%s", mention->id);
}

/* Write the mention registered for `seat`, if there is one that reads as a mention of the
 * format, and remember it. */
static void add_mention_of(struct xtext *text, int format, const json_t *mentions, int seat,
			   struct mentioned *mentioned)
{
	char key[12]; /* any int, as the TSan build's -O1 checks */
	snprintf(key, sizeof key, "%d", seat);
	const json_t *value = mentions ? json_object_get(mentions, key) : NULL;
	struct channels_mention mention;
	if (!json_is_string(value) || !channels_mention_parse(format, json_string_value(value), &mention))
		return;
	add_mention(text, format, &mention);
	remember(mentioned, &mention);
}

/* ---- The message ---- */

/* `name` in bold for the format. */
static void add_bold_name(struct xtext *text, int format, char *const *names, int seat)
{
	xtext_add(text, format == STORE_FORMAT_SLACK ? "*" : "**");
	add_name(text, names, seat);
	xtext_add(text, format == STORE_FORMAT_SLACK ? "*" : "**");
}

/* The bold names of the seats of `mask`, "A, B and C". */
static void add_names(struct xtext *text, int format, char *const *names, uint8_t mask, int seats)
{
	int listed = 0, total = __builtin_popcount(mask);
	for (int seat = 0; seat < seats; seat++) {
		if (!(mask >> seat & 1u))
			continue;
		xtext_add(text, "%s", listed == 0 ? "" : listed == total - 1 ? " and " : ", ");
		add_bold_name(text, format, names, seat);
		listed++;
	}
}

/* The headline: whom it calls (their mentions first, so the ping shows them) and what
 * they must do; at the end, the winner and every seat's points. One mention per seat. */
static void add_headline(struct xtext *text, int format, const json_t *mentions, const struct game *game,
			 const struct channels_turn *turn, char *const *names, struct mentioned *mentioned)
{
	const struct channels_moment *moment = &turn->moment;
	int seats = game->options.seats;
	for (int seat = 0; seat < seats; seat++)
		if (moment->seats >> seat & 1u)
			add_mention_of(text, format, mentions, seat, mentioned);
	switch (moment->kind) {
	case CHANNELS_END:
		if (game->winner >= 0) {
			add_bold_name(text, format, names, game->winner);
			xtext_add(text, " won the game with %d points!", game_total_points(game, game->winner));
		} else {
			xtext_add(text, "The game is over.");
		}
		xtext_add(text, " Final points:");
		for (int seat = 0; seat < seats; seat++) {
			xtext_add(text, "%s ", seat ? "," : "");
			add_name(text, names, seat);
			xtext_add(text, " %d", game_total_points(game, seat));
		}
		xtext_add(text, ".");
		break;
	case CHANNELS_DISCARD:
		add_names(text, format, names, moment->seats, seats);
		xtext_add(text, ": a 7 was rolled - discard half of your resource cards.");
		break;
	case CHANNELS_OFFER:
		add_names(text, format, names, moment->seats, seats);
		xtext_add(text, ": ");
		add_name(text, names, moment->offer.from);
		xtext_add(text, " offers ");
		summary_cards(text, moment->offer.give, -1);
		xtext_add(text, " for ");
		summary_cards(text, moment->offer.want, -1);
		xtext_add(text, " (offer %u) - accept or decline.", moment->offer.id);
		break;
	case CHANNELS_DIGEST:
		if (game->phase == GAME_PHASE_FINISHED) {
			struct channels_moment end = {CHANNELS_END, 0, {0}};
			struct channels_turn over = *turn;
			over.moment = end;
			add_headline(text, format, mentions, game, &over, names, mentioned);
			break;
		}
		xtext_add(text, "Digest of game %s", turn->game_id);
		if (moment->seats) {
			xtext_add(text, " - ");
			add_names(text, format, names, moment->seats, seats);
			xtext_add(text, ": %s (turn %u).", channels_expectation(game->phase), game->turn_number);
		} else {
			xtext_add(text, " (turn %u): the game waits for a bot.", game->turn_number);
		}
		break;
	default:
		add_names(text, format, names, moment->seats, seats);
		if (game->turn_number > 0)
			xtext_add(text, ": your turn %u - %s.", game->turn_number, channels_expectation(game->phase));
		else
			xtext_add(text, ": your starting placement - %s.", channels_expectation(game->phase));
		break;
	}
}

/* 1 when a digest tells the event: everything but the offers and their answers. */
static int in_digest(const struct event *e)
{
	switch (e->type) {
	case EVENT_TRADE_OFFERED:
	case EVENT_TRADE_ACCEPTED:
	case EVENT_TRADE_DECLINED:
	case EVENT_TRADE_WITHDRAWN:
	case EVENT_GAME_CREATED:
		return 0;
	default:
		return 1;
	}
}

/* 1 when the event concerns `seat` enough to tell it at the start of its turn, with the
 * event as told into shown (production: that seat's share only). */
static int tells(const struct event *e, int seat, struct event *shown)
{
	*shown = *e;
	switch (e->type) {
	case EVENT_RESOURCES_PRODUCED:
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			if (s != seat)
				memset(shown->gains[s], 0, sizeof shown->gains[s]);
		return resource_total(shown->gains[seat]) > 0;
	case EVENT_RESOURCE_STOLEN:
	case EVENT_TRADE_COMPLETED:
		return e->seat == seat || e->other == seat;
	case EVENT_DISCARDED:
	case EVENT_MARITIME_TRADED:
		return e->seat == seat;
	default:
		/* rolls, builds, the robber, cards played, awards, turns' ends; no offers */
		return in_digest(e);
	}
}

/* The moves in words, a line each; the sentences name the seats with their escaped names
 * and the places as GET /board names them. A turn's message tells what happened since
 * the seat's last turn that concerns it. */
static void add_recent(struct xtext *text, const struct game *game, const struct channels_turn *turn,
		       char *const *names)
{
	/* Room for a sentence naming four seats whose names all escape to their longest. */
	char sentence[2048 + SUMMARY_SENTENCE_SIZE];
	const char *const *borrowed = (const char *const *)names;
	int is_turn = turn->moment.kind == CHANNELS_TURN, seat = game->turn_seat, lines = 0;
	int digest = turn->moment.kind == CHANNELS_DIGEST;
	if ((is_turn || digest) && turn->omitted)
		xtext_add(text, "(earlier moves are in the game's log)");
	lines += (is_turn || digest) && turn->omitted;
	for (int i = 0; i < turn->recent_count; i++) {
		struct event shown;
		if (is_turn && !tells(&turn->recent[i], seat, &shown))
			continue;
		if (digest && !in_digest(&turn->recent[i]))
			continue;
		if (digest)
			shown = turn->recent[i]; /* everyone's production */
		summary_event_on(game, is_turn || digest ? &shown : &turn->recent[i], borrowed, sentence,
				 sizeof sentence);
		xtext_add(text, "%s- %s", lines++ ? "\n" : "", sentence);
	}
	if (lines == 0)
		xtext_add(text, is_turn	 ? "Nothing that concerns you happened since your last turn."
				: digest ? "Nothing new since the last digest."
					 : "No moves yet.");
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

/* Discord's allowed_mentions: no parsing of the text, exactly the ids the message holds. */
static json_t *allowed_mentions(const struct mentioned *mentioned)
{
	json_t *users = json_array(), *roles = json_array();
	for (int i = 0; i < mentioned->user_count; i++)
		json_array_append_new(users, json_string(mentioned->users[i]));
	for (int i = 0; i < mentioned->role_count; i++)
		json_array_append_new(roles, json_string(mentioned->roles[i]));
	json_t *allowed = json_pack("{s:[], s:o, s:o}", "parse", "users", users, "roles", roles);
	if (!allowed)
		abort();
	return allowed;
}

char *channels_message(int format, const char *mentions_json, const struct game *after,
		       const struct channels_turn *turn)
{
	json_t *mentions = mentions_json ? json_loads(mentions_json, 0, NULL) : NULL;
	char *names[GAME_MAX_SEATS];
	escape_names(format, turn, names);
	struct mentioned mentioned;
	memset(&mentioned, 0, sizeof mentioned);
	struct xtext headline = xtext_new(), moves = xtext_new(), title = xtext_new();
	add_headline(&headline, format, mentions, after, turn, names, &mentioned);
	add_recent(&moves, after, turn, names);
	/* The title names the moment, without versions or ids. */
	switch (turn->moment.kind) {
	case CHANNELS_END:
		xtext_add(&title, "Game over");
		break;
	case CHANNELS_DISCARD:
		xtext_add(&title, "Turn %u: discards after a 7", after->turn_number);
		break;
	case CHANNELS_OFFER:
		xtext_add(&title, "Turn %u: an offer from ", after->turn_number);
		add_name(&title, names, turn->moment.offer.from);
		break;
	case CHANNELS_DIGEST:
		if (after->phase == GAME_PHASE_FINISHED)
			xtext_add(&title, "Game over");
		else
			xtext_add(&title, "Digest: turn %u", after->turn_number);
		break;
	default:
		if (after->turn_number > 0)
			xtext_add(&title, "Turn %u: ", after->turn_number);
		else
			xtext_add(&title, "Starting placement: ");
		add_name(&title, names, after->turn_seat);
		break;
	}
	free_names(names);
	json_decref(mentions);
	const char *heading = turn->moment.kind == CHANNELS_TURN     ? "Since your last turn"
			      : turn->moment.kind == CHANNELS_DIGEST ? "Since the last digest"
								     : "Last moves";
	json_t *body;
	if (format == STORE_FORMAT_DISCORD) {
		clip(&headline, CHANNELS_DISCORD_CONTENT_MAX);
		clip(&title, CHANNELS_DISCORD_TITLE_MAX);
		char *description = xasprintf("**%s**\n%s", heading, moves.data);
		struct xtext clipped = {description, strlen(description), strlen(description) + 1};
		clip(&clipped, CHANNELS_DISCORD_DESCRIPTION_MAX);
		body = json_pack("{s:s, s:[{s:s, s:s, s:s, s:{s:s}}], s:o}", "content", headline.data, "embeds",
				 "title", title.data, "description", clipped.data, "url", turn->game_url, "image",
				 "url", turn->board_url, "allowed_mentions", allowed_mentions(&mentioned));
		free(clipped.data);
	} else {
		/* One section of at most 3,000 characters: the moves give way to the headline and
		 * the link. */
		clip(&headline, 1500);
		clip(&moves, CHANNELS_SLACK_TEXT_MAX - 200 - (headline.length < 1500 ? headline.length : 1500));
		char *section = xasprintf("%s\n*%s*\n%s\n<%s|Open the game>", headline.data, heading, moves.data,
					  turn->game_url);
		struct xtext clipped = {section, strlen(section), strlen(section) + 1};
		clip(&clipped, CHANNELS_SLACK_TEXT_MAX);
		clip(&title, 200);
		body = json_pack("{s:s, s:[{s:s, s:{s:s, s:s}}, {s:s, s:s, s:s, s:{s:s, s:s}}]}", "text", headline.data,
				 "blocks", "type", "section", "text", "type", "mrkdwn", "text", clipped.data, "type",
				 "image", "image_url", turn->board_url, "alt_text", "The board now", "title", "type",
				 "plain_text", "text", title.data);
		free(clipped.data);
	}
	free(title.data);
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

int channels_mentions_valid(const json_t *mentions, int seats, int format, char *why, size_t why_size)
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
		struct channels_mention mention;
		if (!text || strlen(text) > CHANNELS_MENTION_MAX || !channels_mention_parse(format, text, &mention)) {
			snprintf(why, why_size, "%s",
				 format == STORE_FORMAT_DISCORD
					 ? "mentions values are Discord mentions of a user or a role: \"<@123>\", "
					   "\"<@!123>\" or \"<@&123>\" (ids of 1 to 20 digits)"
					 : "mentions values are Slack mentions of a user or a user group: \"<@U123>\", "
					   "\"<@W123>\" or \"<!subteam^S123>\" (ids of capital letters and digits)");
			return 0;
		}
	}
	return 1;
}
