/*
 * view.h - what one viewer may see of a game and of its events.
 *
 * A viewer is a seat (0..seats-1) or VIEW_SPECTATOR. The view holds only public facts
 * (the board, buildings, bank, counts of each seat's cards, played knights, public points,
 * open trade offers) plus, for a seat, that seat's own hand and development cards under
 * `you`. Nothing private to another seat is copied into it: no other hand, no development
 * card kinds, not the deck's composition, not the seed (which the state does not hold).
 * view_event() blanks what an event tells only some seats: the card stolen (seen by thief
 * and victim) and the development card bought (seen by the buyer).
 */
#ifndef CATAN_ENGINE_VIEW_H
#define CATAN_ENGINE_VIEW_H

#include <stdint.h>

#include "event.h"
#include "game.h"

#define VIEW_SPECTATOR (-1)

struct view_player {
	uint8_t resource_count;
	uint8_t development_card_count;
	uint8_t knights_played;
	uint8_t victory_points; /* public; the winner's include the victory point cards it revealed */
	uint8_t road_length;
	uint8_t roads_left;
	uint8_t settlements_left;
	uint8_t cities_left;
	uint8_t discard_owed;
};

struct view_you {
	int8_t seat;
	uint8_t resources[RESOURCE_COUNT];
	uint8_t development_cards[DEVELOPMENT_COUNT]; /* held, by kind */
	uint8_t playable[DEVELOPMENT_COUNT];	      /* how many of each may be played now */
	uint8_t victory_points;			      /* hidden victory point cards included */
};

struct game_view {
	int8_t viewer;
	uint32_t version;
	struct game_options options;
	struct board_layout board;
	uint8_t phase;
	int8_t turn_seat;
	uint16_t turn_number;
	int8_t first_seat;
	int8_t winner;
	int8_t robber;
	int8_t longest_road;
	int8_t largest_army;
	int8_t setup_node;
	uint8_t rolled;
	uint8_t development_played;
	uint8_t dice[2];
	uint8_t last_roll[2]; /* 0 0 before the first roll */
	uint8_t bank[RESOURCE_COUNT];
	uint8_t development_cards_left;
	uint8_t node_owner[BOARD_NODES]; /* seat + 1, 0 empty */
	uint8_t node_building[BOARD_NODES];
	uint8_t edge_owner[BOARD_EDGES];
	struct view_player players[GAME_MAX_SEATS];
	struct game_offer offers[GAME_MAX_OFFERS]; /* open offers first, offer_count of them */
	uint8_t offer_count;
	uint8_t has_you;
	struct view_you you;
};

/* Fill *out with what `viewer` may see of *game. */
void view_game(const struct game *game, int viewer, struct game_view *out);

/* Copy *event into *out as `viewer` may see it (RESOURCE_HIDDEN, DEVELOPMENT_HIDDEN in
 * place of what it may not). */
void view_event(const struct event *event, int viewer, struct event *out);

/* How many development cards of `kind` the seat may play now under the one-per-turn and
 * not-bought-this-turn rules (0 for victory point cards, which are never played). */
int view_playable(const struct game *game, int seat, int kind);

#endif
