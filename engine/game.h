/*
 * game.h - the state of one Catan game: a fixed-size plain struct, copied with memcpy.
 *
 * The state changes only through apply_event() (apply.h); rules_decide() (rules.h) reads it
 * to validate commands. Every field is derived from the event log, so replaying a game's
 * events into a zeroed struct rebuilds it byte for byte (padding included: the struct is
 * laid out without holes and always zeroed before the first event).
 *
 * Nothing here is secret by itself: the development deck is kept as counts per kind (the
 * card drawn is chosen when bought and written into the event), and the seed lives outside
 * the state. What is private to a seat (its hand, its development cards) is redacted by
 * view.h before it leaves the server.
 *
 * Seats are 0..seats-1. Sets of seats are bit masks (bit s = seat s). Board occupancy is
 * kept twice: as arrays indexed by node/edge id (for readers) and as bit masks (for the fast
 * placement rules in placement.h); apply keeps both in step.
 */
#ifndef CATAN_ENGINE_GAME_H
#define CATAN_ENGINE_GAME_H

#include <stdint.h>

#include "board.h"
#include "resource.h"

#define GAME_MAX_SEATS 4
#define GAME_MIN_SEATS 3
#define GAME_ROADS 15
#define GAME_SETTLEMENTS 5
#define GAME_CITIES 4
#define GAME_POINTS_TO_WIN 10
/* Open domestic offers: GAME_MAX_OFFERS slots, shared out per seat so that no seat can
 * take another's room (RULES.md 7). Each inactive seat holds at most
 * GAME_OFFERS_PER_OTHER_SEAT open counter-offers, and the active player the rest, which
 * counter-offers can never fill: the slots always cover every seat's cap at once. */
#define GAME_MAX_OFFERS 8
#define GAME_OFFERS_PER_OTHER_SEAT 1
#define GAME_OFFERS_ACTIVE_SEAT (GAME_MAX_OFFERS - (GAME_MAX_SEATS - 1) * GAME_OFFERS_PER_OTHER_SEAT)
#define GAME_NO_SEAT (-1)

/* The format of struct game, for snapshots: bump whenever the layout or meaning changes. */
#define GAME_FORMAT_VERSION 2

enum game_layout { GAME_LAYOUT_BEGINNER, GAME_LAYOUT_RANDOM };
enum game_start { GAME_START_DRAFT, GAME_START_FIXED };
enum game_edition { GAME_EDITION_CLASSIC, GAME_EDITION_2025 };
enum game_dice { GAME_DICE_RANDOM, GAME_DICE_MANUAL };

/* What a game is created with. first_seat is GAME_NO_SEAT to decide by a roll. */
struct game_options {
	uint8_t seats;
	uint8_t layout;	 /* enum game_layout */
	uint8_t start;	 /* enum game_start */
	uint8_t numbers; /* enum board_numbers */
	uint8_t edition; /* enum game_edition */
	uint8_t dice;	 /* enum game_dice */
	int8_t first_seat;
	uint8_t reserved;
};

/* What the game waits for. */
enum game_phase {
	GAME_PHASE_NONE, /* no GAME_CREATED event yet */
	GAME_PHASE_SETUP_SETTLEMENT,
	GAME_PHASE_SETUP_ROAD,
	GAME_PHASE_ROLL,
	GAME_PHASE_DISCARD,
	GAME_PHASE_MOVE_ROBBER,
	GAME_PHASE_MAIN,
	GAME_PHASE_FINISHED,
	GAME_PHASE_COUNT
};

enum development_card {
	DEVELOPMENT_KNIGHT,
	DEVELOPMENT_ROAD_BUILDING,
	DEVELOPMENT_YEAR_OF_PLENTY,
	DEVELOPMENT_MONOPOLY,
	DEVELOPMENT_VICTORY_POINT,
	DEVELOPMENT_COUNT
};

#define DEVELOPMENT_HIDDEN 0xff

enum building { BUILDING_NONE, BUILDING_SETTLEMENT, BUILDING_CITY };

struct game_player {
	uint8_t resources[RESOURCE_COUNT];
	uint8_t development_cards[DEVELOPMENT_COUNT]; /* held, not played (VP cards included) */
	uint8_t bought_this_turn[DEVELOPMENT_COUNT];
	uint8_t knights_played;
	uint8_t roads_left;
	uint8_t settlements_left;
	uint8_t cities_left;
	uint8_t road_length; /* longest simple route, kept by apply */
	uint8_t discard_owed;
	uint8_t reserved[3];
	uint64_t buildings;  /* node mask: settlements and cities */
	uint64_t road_nodes; /* node mask: nodes touched by this seat's roads */
	struct board_edge_set roads;
};

/* A domestic trade offer, open until completed, withdrawn or the turn ends. give and want
 * are from the offering seat's side. A counter-offer is an offer by an inactive seat to the
 * active player. id 0 marks an empty slot. */
struct game_offer {
	uint16_t id;
	uint16_t counter_to; /* the offer this answers, 0 for none */
	int8_t from;
	uint8_t to;	  /* seat mask */
	uint8_t accepted; /* seat mask */
	uint8_t declined; /* seat mask */
	uint8_t give[RESOURCE_COUNT];
	uint8_t want[RESOURCE_COUNT];
};

struct game {
	uint32_t version;     /* events applied */
	uint16_t turn_number; /* 0 during setup, 1 for the first regular turn */
	uint16_t next_offer_id;
	struct game_options options;
	struct board_layout board;
	uint8_t phase; /* enum game_phase */
	int8_t turn_seat;
	int8_t first_seat;
	uint8_t setup_step; /* 0 .. 2 * seats during initial placement */
	int8_t setup_node;  /* the settlement just placed in setup */
	int8_t robber;
	int8_t winner;
	int8_t longest_road;
	int8_t largest_army;
	uint8_t rolled;
	uint8_t development_played; /* a non-VP card was played this turn */
	uint8_t dice[2];
	uint8_t bank[RESOURCE_COUNT];
	uint8_t deck[DEVELOPMENT_COUNT];
	uint8_t node_owner[BOARD_NODES];    /* seat + 1, 0 empty */
	uint8_t node_building[BOARD_NODES]; /* enum building */
	uint8_t edge_owner[BOARD_EDGES];    /* seat + 1, 0 empty */
	uint8_t last_roll[2];		    /* the last dice rolled in the game, kept past the turn; 0 0 before */
	uint8_t reserved;
	uint64_t occupied_nodes;
	struct board_edge_set occupied_edges;
	struct game_player players[GAME_MAX_SEATS];
	struct game_offer offers[GAME_MAX_OFFERS];
};

/* The development deck at the start: 14 knights, 2 road building, 2 year of plenty,
 * 2 monopoly, 5 victory points. */
extern const uint8_t game_deck_start[DEVELOPMENT_COUNT];

/* Costs. */
extern const uint8_t game_cost_road[RESOURCE_COUNT];
extern const uint8_t game_cost_settlement[RESOURCE_COUNT];
extern const uint8_t game_cost_city[RESOURCE_COUNT];
extern const uint8_t game_cost_development[RESOURCE_COUNT];

/* Points anyone can see: buildings, Longest Road, Largest Army. Inline: every decision
 * ends with a win check that counts them. */
static inline int game_public_points(const struct game *game, int seat)
{
	const struct game_player *player = &game->players[seat];
	int points = (GAME_SETTLEMENTS - player->settlements_left) + 2 * (GAME_CITIES - player->cities_left);
	if (game->longest_road == seat)
		points += 2;
	if (game->largest_army == seat)
		points += 2;
	return points;
}

/* Public points plus the seat's hidden victory point cards: what wins the game. */
static inline int game_total_points(const struct game *game, int seat)
{
	return game_public_points(game, seat) + game->players[seat].development_cards[DEVELOPMENT_VICTORY_POINT];
}

int game_resource_count(const struct game *game, int seat);
int game_development_count(const struct game *game, int seat);

/* The seat that places at step `step` of the setup draft (1..n then n..1 from the first). */
int game_setup_seat(const struct game *game, int step);

/* The maritime rates `seat` may trade `resource` at, as a mask with bit 1 << rate set for
 * each: 4 always, 3 with a generic harbor, 2 with that resource's harbor (a harbor counts
 * with the seat's settlement or city on one of its nodes). Every one of them is allowed, not
 * only the best (RULES.md 7). */
unsigned game_maritime_rates(const struct game *game, int seat, int resource);

/* The harbor kinds (bit k for enum harbor k) at the seat's buildings; the rates of a
 * resource follow from it (game_maritime_rates_from()), so a listing reads the harbors once. */
unsigned game_harbor_kinds(const struct game *game, int seat);

/* game_maritime_rates() from the seat's game_harbor_kinds(). */
static inline unsigned game_maritime_rates_from(unsigned harbor_kinds, int resource)
{
	unsigned rates = 1u << 4;
	if (harbor_kinds >> resource & 1u)
		rates |= 1u << 2;
	if (harbor_kinds >> HARBOR_GENERIC & 1u)
		rates |= 1u << 3;
	return rates;
}

/* The best (lowest) of those rates: 2, 3 or 4. */
int game_maritime_rate(const struct game *game, int seat, int resource);

/* How many open offers `seat` may hold at once: GAME_OFFERS_ACTIVE_SEAT on its turn,
 * GAME_OFFERS_PER_OTHER_SEAT otherwise. */
int game_offer_cap(const struct game *game, int seat);

/* How many open offers `seat` made. */
int game_open_offers(const struct game *game, int seat);

/* The open offer with this id, or NULL. Borrows from *game. */
const struct game_offer *game_find_offer(const struct game *game, int id);

/* 1 when `seat` has answered `offer`, one of the open offers offers[0 .. count) (a game's
 * slots, empty ones included, or a view's): it accepted, declined, or holds an open
 * counter-offer to it. Borrows both. */
int game_offer_answered(const struct game_offer *offers, int count, const struct game_offer *offer, int seat);

/* 1 while the game still accepts moves. */
static inline int game_in_progress(const struct game *game)
{
	return game->phase != GAME_PHASE_NONE && game->phase != GAME_PHASE_FINISHED;
}

static inline int game_in_setup(const struct game *game)
{
	return game->phase == GAME_PHASE_SETUP_SETTLEMENT || game->phase == GAME_PHASE_SETUP_ROAD;
}

/* Names used by views and codecs. NULL when out of range. */
const char *game_phase_name(int phase);
const char *development_card_name(int card);

#endif
