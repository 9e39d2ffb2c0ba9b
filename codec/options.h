/*
 * options.h - game options in JSON: the "options" object a client sends to create a game
 * and the server shows back, and the engine's part of it that the game_created event and
 * the view carry.
 *
 * The client's object: layout (beginner, random), start (draft, fixed), numbers (spiral,
 * random), edition (classic, 2025), dice (random, manual), first_seat (a seat or null),
 * turn_timeout_s (0 .. one year; 0: no deadlines), on_timeout (default, bot),
 * offer_wait_s (0 .. CODEC_MAX_OFFER_WAIT_S; absent or null: codec_offer_wait_default() of
 * the turn clock), seed (0 .. CODEC_SEED_MAX; never shown back). The seat count is a member of the body's top level,
 * not of "options". Absent or null members take the defaults of rules_default_options().
 */
#ifndef CATAN_CODEC_OPTIONS_H
#define CATAN_CODEC_OPTIONS_H

#include <jansson.h>
#include <stdint.h>

#include "codec/error.h"
#include "engine/game.h"

/* Game options as a client gives them under "options". The engine's part, plus what the
 * server keeps beside the game. */
struct codec_options {
	struct game_options game;
	int has_seed;
	uint64_t seed;
	int32_t turn_timeout_s; /* 0: no deadlines */
	uint8_t on_timeout;	/* enum codec_on_timeout */
	/* How long a bot's trade offer waits for the people it went to to answer before the
	 * bot moves on (game/play.c); 0: it does not wait. */
	int32_t offer_wait_s;
};

enum codec_on_timeout { CODEC_ON_TIMEOUT_DEFAULT, CODEC_ON_TIMEOUT_BOT };

/* The largest seed a client may give: 2^53-1, the largest integer that every JSON reader
 * (JavaScript's numbers included) carries exactly, so a seed a client stores is the seed. */
#define CODEC_SEED_MAX INT64_C(9007199254740991)

/* The longest wait for people to answer a bot's offer a game may ask for: a week. */
#define CODEC_MAX_OFFER_WAIT_S 604800

/* offer_wait_s when a game does not give it, scaled to its turn clock: a quarter of
 * turn_timeout_s, at least 15 s (never more than the turn clock itself) and at most 12 h
 * (a minute or so in a game of minutes, hours in a game of days); 60 s without a turn
 * clock. */
int32_t codec_offer_wait_default(int32_t turn_timeout_s);

/* Options: parse an "options" object (NULL or absent members take the defaults of
 * rules_default_options(); `seats` is set by the caller before the call). Returns 1, or 0
 * with *error filled (error may be NULL). codec_options_to_json returns a new reference
 * (caller decrefs) and never includes the seed. */
int codec_options_from_json(const json_t *json, struct codec_options *out, struct codec_error *error);
json_t *codec_options_to_json(const struct codec_options *options);

/* The engine's options as the game_created event and the view show them: seats, layout,
 * start, numbers, edition, dice, first_seat (null when decided by a roll). New reference. */
json_t *codec_game_options_to_json(const struct game_options *options);

/* Read those members (but seats, which the caller reads) from `object`, whose path is
 * `prefix`, into *options: an absent member, or a null one when `null_keeps`, keeps what
 * *options already holds. Checks first_seat against options->seats and that a fixed start
 * is on the beginner layout. Returns 1, or 0 with *error filled. */
int codec_game_options_read(const json_t *object, const char *prefix, int null_keeps, struct game_options *options,
			    struct codec_error *error);

#endif
