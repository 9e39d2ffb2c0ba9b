/*
 * statistics.h - a finished game in figures, computed from its log alone: the final points
 * of every seat by source, the dice histogram, and where every resource card of every seat
 * came from and went (GET /v1/games/{id}/summary; the web client's end-of-game screen).
 *
 * The log is replayed from the empty state (each event checked by apply_event_valid()
 * first), and every event that moves cards is counted on the way, per seat and resource:
 *
 *   produced        resources_produced: the dice, and the starting resources of setup
 *   from_cards      Year of Plenty, and the cards Monopoly took from the others
 *   gained          produced + from_cards (what came in without an exchange)
 *   stolen          taken with the robber (the seat was the thief)
 *   traded_in       received in trades: the bank's side of a maritime trade, the other
 *                   seat's side of a completed domestic trade
 *   spent           paid to build (roads, settlements, cities that were not free) and for
 *                   development cards
 *   robbed          taken from the seat by the robber
 *   monopolized     taken from the seat by another's Monopoly
 *   discarded       lost to discards after a 7
 *   traded_out      given in trades
 *   hand            held at the end
 *
 * so that, for every seat and resource, hand = gained + stolen + traded_in - spent -
 * robbed - monopolized - discarded - traded_out (tests/api/test_statistics.c checks it on
 * many games). Points come from the final state: 1 per settlement, 2 per city, 1 per
 * victory point card held, 2 for Longest Road, 2 for Largest Army; their sum is the seat's
 * total (game_total_points()). The figures need the unredacted log (a stolen card, a card
 * bought): the service offers them for finished games only, whose log is public.
 *
 * Pure: no I/O, no allocation but the JSON; everything is borrowed.
 */
#ifndef CATAN_GAME_STATISTICS_H
#define CATAN_GAME_STATISTICS_H

#include <jansson.h>
#include <stdint.h>

#include "engine/event.h"
#include "engine/game.h"

enum statistics_flow {
	STATISTICS_PRODUCED,
	STATISTICS_FROM_CARDS,
	STATISTICS_GAINED,
	STATISTICS_STOLEN,
	STATISTICS_TRADED_IN,
	STATISTICS_SPENT,
	STATISTICS_ROBBED,
	STATISTICS_MONOPOLIZED,
	STATISTICS_DISCARDED,
	STATISTICS_TRADED_OUT,
	STATISTICS_HAND,
	STATISTICS_FLOW_COUNT
};

/* The member name of a flow in the JSON ("produced" ...); NULL when out of range. */
const char *statistics_flow_name(int flow);

struct statistics_seat {
	int flows[STATISTICS_FLOW_COUNT][RESOURCE_COUNT];
	int rolls;			/* dice rolls this seat made */
	int settlements, cities, roads; /* on the board at the end */
	int victory_point_cards;
	int longest_road, largest_army; /* 1 when the seat holds it at the end */
	int points;			/* the total: game_total_points() */
	int knights_played;
	int longest_road_length;
};

struct statistics {
	int seats;
	int version; /* events counted */
	int finished;
	int winner; /* GAME_NO_SEAT while the game goes on */
	int turns;  /* regular turns begun (the last turn number) */
	int rolls;
	int dice[13]; /* dice[t]: rolls of total t (2..12) */
	struct statistics_seat seat[GAME_MAX_SEATS];
};

/* Replay events[0 .. count) (the whole log from game_created) and count. 1 on success; 0
 * when an event does not apply where it stands or hides what it moved (a redacted log),
 * with *failed_at its index (may be NULL). *final (may be NULL) gets the final state. */
int statistics_compute(const struct event *events, int count, struct statistics *out, struct game *final,
		       int *failed_at);

/* The Summary body of the contract: version, finished, winner, turns, points_to_win, dice
 * (rolls, histogram of totals 2..12), and per seat its name (names[s], may be NULL), bot
 * flag (bots may be NULL), points by source and resource flows. New reference. */
json_t *statistics_to_json(const struct statistics *stats, const char *const *names, const uint8_t *bots);

#endif
