/*
 * options.h - game options in JSON: the "options" object a client sends to create a game
 * and the server shows back, and the engine's part of it that the game_created event and
 * the view carry.
 *
 * The client's object: layout (beginner, random), start (draft, fixed), numbers (spiral,
 * random), edition (classic, 2025), dice (random, manual), first_seat (a seat or null),
 * turn_timeout_s (0 .. one year; 0: no deadlines), on_timeout (default, bot, skip),
 * offer_wait_s (0 .. CODEC_MAX_OFFER_WAIT_S; absent or null: codec_offer_wait_default() of
 * the turn clock), bot_level (easy, medium, hard: the level of the game's bot seats, of
 * seats on holiday and of seats a deadline gives to the bot; default medium), bot_levels
 * (an array of at most `seats` entries, a level or null for each seat: that seat's level
 * instead of bot_level), holiday_allowance_s (0 .. CODEC_MAX_HOLIDAY_ALLOWANCE_S, default
 * 10 days: holiday time a seat may spend in any 365 days), substitute_after_timeouts (0 ..
 * CODEC_MAX_SUBSTITUTE_AFTER_TIMEOUTS, default 3: decisions in a row made by the deadline
 * after which the seat needs a substitute; 0 never), time_bank_s and time_increment_s
 * (0 .. one year, default 0: each seat's bank and what a turn it ends adds
 * to it; they need turn_timeout_s), seed (0 .. CODEC_SEED_MAX; never
 * shown back). The seat count is a member of the body's top level, not of "options". Absent
 * or null members take the defaults of rules_default_options().
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
	/* Levels (enum bot_level, engine/bot.h) plus one, so that zeroed options mean the
	 * defaults: bot_level 0 is BOT_LEVEL_DEFAULT, a seat's 0 is bot_level. */
	uint8_t bot_level;
	uint8_t seat_bot_levels[GAME_MAX_SEATS];
	/* Seconds a seat may be away on holiday in any 365 days (db/migrations/
	 * 0024_correspondence.sql counts them from the log); written only when not the default. */
	int32_t holiday_allowance_s;
	/* A rated game (issue 28): its players' ratings move when it ends (game/ratings.h).
	 * Whether the seats allow it is the creator's check (api/handlers_create.c). */
	uint8_t rated;
	/* Substitutes (issue 28): after this many decisions in a row made by its deadline, a
	 * seat's player has left it and the seat needs a substitute (game/substitutes.h); 0:
	 * never. Written unless 0, so that a game stored before the option (absent) reads 0. */
	int32_t substitute_after_timeouts;
	/* The correspondence clock (issue 28): each seat's time bank, spent once a decision's
	 * turn_timeout_s has run out, and what each turn the seat ends adds back to it
	 * (Fischer). 0 and 0: no bank, deadlines as turn_timeout_s alone sets them. */
	int32_t time_bank_s;
	int32_t time_increment_s;
};

#define CODEC_HOLIDAY_ALLOWANCE_DEFAULT_S (10 * 86400)
#define CODEC_MAX_HOLIDAY_ALLOWANCE_S (366 * 86400)
#define CODEC_SUBSTITUTE_AFTER_TIMEOUTS_DEFAULT 3
#define CODEC_MAX_SUBSTITUTE_AFTER_TIMEOUTS 100

/* Read bot_level and bot_levels from an options object the server stored (leniently: a
 * member that is absent or not a level keeps the default) into *out. Borrows json. */
void codec_options_read_bot_levels(const json_t *json, struct codec_options *out);

/* Put bot_level and (when any seat has a level of its own) bot_levels into `object`. */
void codec_options_put_bot_levels(json_t *object, const struct codec_options *options);

/* The bot level (enum bot_level) that plays `seat` of a game with these options; -1 for
 * the game's own bot_level. */
int codec_options_bot_level(const struct codec_options *options, int seat);

/* What a deadline does (game/worker.c): the default move, the bot for the rest of the turn,
 * or the default move minus what could profit the seat (the robber where it robs nobody). */
enum codec_on_timeout { CODEC_ON_TIMEOUT_DEFAULT, CODEC_ON_TIMEOUT_BOT, CODEC_ON_TIMEOUT_SKIP };

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
