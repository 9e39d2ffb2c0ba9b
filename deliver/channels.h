/*
 * channels.h - chat messages for Discord and Slack incoming webhooks (issues 15 and 23):
 * what a webhook of format "discord" or "slack" posts, written for the people in the
 * channel: one message when a person's seat begins a turn (what happened since that
 * seat's last turn, what it must do, the board), one for a discard after a 7 and one for
 * an offer addressed to people other than the seat whose turn it is (they must act
 * mid-turn), and one summary with the final points at the end. Bot seats (and seats
 * away) are never called and their turns post nothing.
 *
 * Delivery (outbox, retries, delivery log) is deliver/deliver.c's; this module only writes
 * texts and reads answers, from game states it is given: no I/O, no database, no HTTP.
 * Every message uses public information only (the events redacted for a spectator), so a
 * seat's chat webhook never leaks that seat's hand into a shared channel.
 *
 * Mentions are a JSON object from seat ("0".."3") to the mention a message names the seat
 * with, one of the format's (Discord "<@123>", "<@!123>", "<@&123>"; Slack "<@U123>",
 * "<!subteam^S123>"): private to the registrant, they appear only in the chat messages of
 * the webhook they were registered with, and they are the only mentions those messages
 * hold (names are escaped: codec/escape.h).
 */
#ifndef CATAN_DELIVER_CHANNELS_H
#define CATAN_DELIVER_CHANNELS_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "engine/event.h"
#include "engine/game.h"

#define CHANNELS_MENTION_MAX 64		      /* bytes of one mention text */
#define CHANNELS_MENTION_ID_MAX 24	      /* characters of the id in a mention */
#define CHANNELS_DISCORD_CONTENT_MAX 2000     /* characters Discord takes in "content" */
#define CHANNELS_DISCORD_TITLE_MAX 256	      /* characters of an embed's title */
#define CHANNELS_DISCORD_DESCRIPTION_MAX 4096 /* characters of an embed's description */
#define CHANNELS_SLACK_TEXT_MAX 3000	      /* characters of a section's text (Block Kit) */

/* What a channel hears of (channels_moment_of()): one message per turn of a person's seat,
 * one for a sub-step that needs another person mid-turn, one at the end. */
enum channels_kind {
	CHANNELS_NOTHING,
	CHANNELS_TURN,	  /* a person's seat begins a turn (a starting placement counts as one) */
	CHANNELS_DISCARD, /* a 7: people other than the roller owe a discard */
	CHANNELS_OFFER,	  /* a new offer addressed to people other than the seat whose turn it is */
	CHANNELS_END,	  /* the game ended */
	CHANNELS_DIGEST	  /* a digest webhook's message: everything since its last one */
};
struct channels_moment {
	enum channels_kind kind;
	uint8_t seats;		 /* whom it calls (mentions): a seat mask */
	struct game_offer offer; /* CHANNELS_OFFER: the offer */
};

/* What a message is about; every pointer is borrowed for the call. */
struct channels_turn {
	const char *game_id;		   /* the API's game id */
	const char *names[GAME_MAX_SEATS]; /* seat names (NULL: "Seat N", counted from 0) */
	const char *board_url;		   /* the PNG of this version (absolute) */
	const char *game_url;		   /* the game in the web client (absolute, no token) */
	int32_t version;
	struct channels_moment moment;
	/* CHANNELS_TURN: every move since the end of that seat's last turn, redacted for a
	 * spectator, oldest first (the message tells those that concern the seat);
	 * CHANNELS_DIGEST: every move since the last digest; the other kinds: the last moves. */
	const struct event *recent;
	int recent_count;
	int omitted; /* CHANNELS_TURN: earlier moves of that stretch left out (-1: some) */
};

/* What going from `before` to `after` (one append) is worth telling a channel, with
 * `bots` the seats the server plays (bot seats and seats away: never called). With
 * only_seat >= 0 (a seat's "your_turn" chat webhook), only a moment that calls that seat,
 * or the end. 1 with *out set, or 0: nothing to tell. */
int channels_moment_of(const struct game *before, const struct game *after, const uint8_t bots[GAME_MAX_SEATS],
		       int only_seat, struct channels_moment *out);

/* What the game expects in `phase` ("roll the dice"), for a sentence "Ann: your turn - %s."
 * (chat messages here, the subject of a turn mail in deliver/mail.c). Static text. */
const char *channels_expectation(int phase);

/* The body to POST for `format` (STORE_FORMAT_DISCORD or STORE_FORMAT_SLACK) about the game
 * at `after`, naming waited-for seats with their mention from mentions_json (NULL: none).
 * Caller frees. */
char *channels_message(int format, const char *mentions_json, const struct game *after,
		       const struct channels_turn *turn);

/* Milliseconds a rate-limited answer asks to wait: the Retry-After header (seconds, possibly
 * fractional) or, when absent, a JSON body's "retry_after" (Discord, seconds); -1 when
 * neither says, at most an hour. Either argument may be NULL. */
int64_t channels_retry_after_ms(const char *retry_after_header, const char *body, size_t body_size);

/* A mention read: whom it names (a user, or a role: a Discord role, a Slack user group) and
 * the id. */
enum channels_mention_kind { CHANNELS_MENTION_USER, CHANNELS_MENTION_ROLE };
struct channels_mention {
	enum channels_mention_kind kind;
	char id[CHANNELS_MENTION_ID_MAX + 1];
};

/* Read `text` as a mention of `format` (STORE_FORMAT_DISCORD or STORE_FORMAT_SLACK): 1 with
 * *out set, or 0 when it is none (any other text, any other format). */
int channels_mention_parse(int format, const char *text, struct channels_mention *out);

/* Check a registration's mentions (a JSON value) for a game of `seats` seats and a webhook
 * of `format`: 1, or 0 with the rule broken in why (which names the field). */
int channels_mentions_valid(const json_t *mentions, int seats, int format, char *why, size_t why_size);

#endif
