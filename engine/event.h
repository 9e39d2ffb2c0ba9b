/*
 * event.h - what happened in a game: the unit of the event log.
 *
 * rules_decide() turns one command into a short list of events; apply_event() folds each
 * into the state and never fails or draws randomness, because every random outcome (the
 * board, the first player's roll, dice, a stolen card, a drawn development card) is already
 * written into the event. Like a command, an event is a flat value; each type uses the
 * fields named beside it and leaves the rest zero (ids -1).
 */
#ifndef CATAN_ENGINE_EVENT_H
#define CATAN_ENGINE_EVENT_H

#include <stdint.h>

#include "board.h"
#include "game.h"
#include "resource.h"

enum event_type {
	EVENT_GAME_CREATED,	       /* options, board, first_seat, start_rolls */
	EVENT_SETTLEMENT_BUILT,	       /* seat, node, free */
	EVENT_ROAD_BUILT,	       /* seat, edge, free */
	EVENT_CITY_BUILT,	       /* seat, node */
	EVENT_RESOURCES_PRODUCED,      /* gains (per seat): after a roll, and starting resources */
	EVENT_DICE_ROLLED,	       /* seat, dice */
	EVENT_DISCARDED,	       /* seat, resources */
	EVENT_ROBBER_MOVED,	       /* seat, hex */
	EVENT_RESOURCE_STOLEN,	       /* seat (thief), other (victim), resource (private) */
	EVENT_DEVELOPMENT_CARD_BOUGHT, /* seat, card (private) */
	EVENT_KNIGHT_PLAYED,	       /* seat */
	EVENT_ROAD_BUILDING_PLAYED,    /* seat */
	EVENT_YEAR_OF_PLENTY_PLAYED,   /* seat, resources */
	EVENT_MONOPOLY_PLAYED,	       /* seat, resource, gains[s][resource] = cards taken from s */
	EVENT_MARITIME_TRADED,	       /* seat, give, want (taken from the bank) */
	EVENT_TRADE_OFFERED,	       /* seat, trade, to, give, want, counter_to */
	EVENT_TRADE_ACCEPTED,	       /* seat, trade */
	EVENT_TRADE_DECLINED,	       /* seat, trade */
	EVENT_TRADE_WITHDRAWN,	       /* seat, trade */
	EVENT_TRADE_COMPLETED,	       /* seat (active), other, trade, give, want (active's side) */
	EVENT_LONGEST_ROAD_CHANGED,    /* seat (new holder or -1: set aside), other (old holder) */
	EVENT_LARGEST_ARMY_CHANGED,    /* seat (new holder), other (old holder) */
	EVENT_TURN_ENDED,	       /* seat */
	EVENT_GAME_WON,		       /* seat, points, victory_point_cards (revealed) */
	/* Holidays: the seat handed itself to the server's bot, and took itself back. The
	 * rules ignore them (apply changes nothing but the version); the service keeps who is
	 * away beside the log (seats.away) and reads these to bring its cache up to date. */
	EVENT_SEAT_AWAY, /* seat */
	EVENT_SEAT_BACK, /* seat */
	/* The seat resigned (issue 28): the server's bot plays it for the rest of the game, and a
	 * rated game scores it last. Ignored by the rules, like the holidays' events. */
	EVENT_RESIGNED, /* seat */
	/* Substitutes (issue 28): the seat's player left it (released it, or timed out
	 * options.substitute_after_timeouts decisions in a row) and the server's bot holds it
	 * until a substitute takes it; then the substitute took it, with a token of its own.
	 * Ignored by the rules, like the holidays' events; neither carries anything private. */
	EVENT_SEAT_RELEASED,	/* seat */
	EVENT_SEAT_SUBSTITUTED, /* seat */
	/* Quiet hours (issue 28): the seat set the daily stretch of its local time during which
	 * its correspondence clock does not run, or cleared it. Ignored by the rules (only the
	 * version moves); in the log so that the game's version, and every view's tag, moves
	 * with the change. The service keeps the hours beside the log (seats.quiet_*). */
	EVENT_QUIET_HOURS_SET,	   /* seat, quiet (zone, from_min, to_min) */
	EVENT_QUIET_HOURS_CLEARED, /* seat */
	/* Provably fair games (docs/fairness.md, issue 26), ignored by the rules like the
	 * holidays' events (only the version moves): a human seat set (or replaced) its player
	 * seed; the seeds were fixed (the service writes it in the first roll's append, before
	 * the roll: `from` is its own version, the roll's decision, and every decision from it on
	 * mixes in the seeds last set); the game ended and its server seed is published (in the
	 * ending append, after game_won). Public, nothing private. */
	EVENT_PLAYER_SEED_SET,	    /* seat, fair.text (1..EVENT_TEXT_MAX bytes of UTF-8) */
	EVENT_SEEDS_FIXED,	    /* fair.from */
	EVENT_SERVER_SEED_REVEALED, /* fair.text (the server seed: 64 lower-case hex digits) */
	EVENT_TYPE_COUNT
};

#define EVENT_START_ROLL_ROUNDS 16

/* The schemes of event_setup.fairness. */
enum event_fairness {
	EVENT_FAIRNESS_NONE,   /* the secret seed and the version (no commitment) */
	EVENT_FAIRNESS_HMAC_1, /* "catan-fair-1": HMAC-SHA256 of a committed server seed */
	EVENT_FAIRNESS_COUNT
};

#define EVENT_COMMITMENT_SIZE 32

struct event_setup {
	struct game_options options;
	struct board_layout board;
	int8_t first_seat;
	/* The first player's roll: start_rolls[round][seat] is that seat's total, 0 when the
	 * seat did not roll in that round (ties re-roll among the tied). All zero when the
	 * first seat was fixed by an option. */
	uint8_t start_rolls[EVENT_START_ROLL_ROUNDS][GAME_MAX_SEATS];
	/* Provably fair games (docs/fairness.md): the scheme that derives the game's random
	 * outcomes (EVENT_FAIRNESS_NONE: the log does not say, a game created before or with a
	 * chosen seed) and, with a scheme, the SHA-256 commitment to its server seed. The
	 * rules neither read nor draw them; the game service fills them in. */
	uint8_t fairness;
	uint8_t commitment[EVENT_COMMITMENT_SIZE];
};

/* A quiet_hours_set event's hours: a tz database name (NUL-padded) and the stretch's
 * start and end in minutes after the seat's local midnight (0..1439, different; an end
 * not after the start runs across midnight). It shares the setup's bytes (no setup there). */
#define EVENT_ZONE_SIZE 64
struct event_quiet {
	char zone[EVENT_ZONE_SIZE];
	uint16_t from_min, to_min;
};

#define EVENT_TEXT_MAX 64

/* The members of the fairness events (they have no setup: they share its bytes). */
struct event_fair {
	char text[EVENT_TEXT_MAX + 1]; /* NUL-terminated, the rest zero (event_set_text()) */
	uint32_t from;
};

struct event {
	uint8_t type; /* enum event_type */
	int8_t seat;
	int8_t other;
	int8_t node;
	int8_t edge;
	int8_t hex;
	uint8_t free;
	uint8_t resource;
	uint8_t card;
	uint8_t points;
	uint8_t victory_point_cards;
	uint8_t dice[2];
	uint8_t to;
	uint16_t trade;
	uint16_t counter_to;
	uint8_t resources[RESOURCE_COUNT];
	uint8_t give[RESOURCE_COUNT];
	uint8_t want[RESOURCE_COUNT];
	uint8_t gains[GAME_MAX_SEATS][RESOURCE_COUNT];
	union {
		struct event_setup setup; /* game_created */
		struct event_quiet quiet; /* quiet_hours_set */
		struct event_fair fair;	  /* player_seed_set, seeds_fixed, server_seed_revealed */
	};
};

/* The most events one decision produces: creating a game with the preset opening (created,
 * 2 settlements and 2 roads per seat, starting resources per seat) is the longest. */
#define EVENT_LIST_MAX 32

struct event_list {
	int count;
	struct event events[EVENT_LIST_MAX];
};

/* An event of `type` with every id field -1 and every count 0; the setup and the members
 * sharing its bytes (quiet, fair) all zero, which their NUL-padded text relies on (a
 * game_created event's maker sets its first_seat). */
void event_init(struct event *event, enum event_type type);

/* Clear event->fair (its `from` too) and set its text to `text` (at most EVENT_TEXT_MAX
 * bytes; NULL: empty), every byte after it zero, so an event compares and round-trips byte
 * for byte. Every fairness event is made with it. */
void event_set_text(struct event *event, const char *text);

/* 1 for the fairness events (player_seed_set, seeds_fixed, server_seed_revealed): no move
 * of the rules, the service writes them. */
int event_is_fairness(int type);

/* 1 for the events that change who plays a seat and nothing of the rules (holidays,
 * resigning, leaving, substitutes): the service reads them to know who holds each seat. */
int event_changes_seat_holder(int type);

/* 1 for the events outside the rules altogether: those of event_changes_seat_holder() and
 * the quiet hours' (set, cleared). No move of the rules makes them; a replay or an import
 * only applies them. */
int event_outside_rules(int type);

/* The event type's API name ("dice_rolled" ...), NULL when out of range. */
const char *event_type_name(int type);

/* Parse a name back; -1 when unknown. */
int event_type_from_name(const char *name);

#endif
