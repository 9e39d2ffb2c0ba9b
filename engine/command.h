/*
 * command.h - what a seat asks the engine to do: one move of API.md's vocabulary, or an
 * answer to a domestic trade.
 *
 * A command is a plain value; fields a type does not use are ignored by rules_decide()
 * (command_init() sets the id fields to -1 and every count to 0). The template flag marks
 * an entry of a legal-move list that still needs the caller's choice (which cards to
 * discard, what to offer); rules_decide() refuses nothing for being a template, it simply
 * validates the fields as given.
 */
#ifndef CATAN_ENGINE_COMMAND_H
#define CATAN_ENGINE_COMMAND_H

#include <stdint.h>

#include "resource.h"

enum command_type {
	COMMAND_BUILD_SETTLEMENT,
	COMMAND_BUILD_ROAD,
	COMMAND_BUILD_CITY,
	COMMAND_ROLL,
	COMMAND_DISCARD,
	COMMAND_MOVE_ROBBER,
	COMMAND_BUY_DEVELOPMENT_CARD,
	COMMAND_PLAY_KNIGHT,
	COMMAND_PLAY_ROAD_BUILDING,
	COMMAND_PLAY_YEAR_OF_PLENTY,
	COMMAND_PLAY_MONOPOLY,
	COMMAND_MARITIME_TRADE,
	COMMAND_END_TURN,
	COMMAND_OFFER_TRADE, /* active player: an offer; any other seat: a counter-offer */
	COMMAND_ACCEPT_TRADE,
	COMMAND_DECLINE_TRADE,
	COMMAND_CONFIRM_TRADE, /* active player completes with `with`, or takes a counter-offer */
	COMMAND_WITHDRAW_TRADE,
	COMMAND_TYPE_COUNT
};

struct command {
	uint8_t type;	     /* enum command_type */
	uint8_t is_template; /* see above */
	int8_t node;	     /* build_settlement, build_city */
	int8_t edge;	     /* build_road */
	int8_t hex;	     /* move_robber, play_knight */
	int8_t victim;	     /* move_robber, play_knight: a seat or -1 */
	int8_t with;	     /* confirm_trade: the accepting seat, or -1 */
	uint8_t edge_count;  /* play_road_building: 0..2 entries of edges */
	int8_t edges[2];
	uint8_t dice[2];		   /* roll in manual-dice games; 0 0 when absent */
	uint8_t resource;		   /* play_monopoly */
	uint8_t to;			   /* offer_trade: seat mask; 0 means every other seat */
	uint16_t trade;			   /* accept/decline/confirm/withdraw: the offer id */
	uint8_t count;			   /* discard template: how many cards are owed */
	uint8_t resources[RESOURCE_COUNT]; /* discard, play_year_of_plenty */
	uint8_t give[RESOURCE_COUNT];	   /* maritime_trade, offer_trade */
	uint8_t want[RESOURCE_COUNT];	   /* maritime_trade (what is taken), offer_trade */
};

/* A command of `type` with every id field -1 and every count 0. */
void command_init(struct command *command, enum command_type type);

/* What command_init() makes, before its type is set (type 0): to copy where many are made. */
extern const struct command command_blank;

/* The move type's API name ("build_settlement" ...), NULL when out of range. */
const char *command_type_name(int type);

#endif
