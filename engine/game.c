/*
 * game.c - constants of the base game and read-only queries on a state.
 *
 * The queries here are the ones rules.c (to decide) and legal.c (to list) both need, so the
 * two read one definition: the maritime rates a seat is entitled to and the open-offer cap
 * of a seat.
 */
#include "game.h"

#include <stddef.h>

const uint8_t game_deck_start[DEVELOPMENT_COUNT] = {14, 2, 2, 2, 5};

/* brick, lumber, wool, grain, ore */
const uint8_t game_cost_road[RESOURCE_COUNT] = {1, 1, 0, 0, 0};
const uint8_t game_cost_settlement[RESOURCE_COUNT] = {1, 1, 1, 1, 0};
const uint8_t game_cost_city[RESOURCE_COUNT] = {0, 0, 0, 2, 3};
const uint8_t game_cost_development[RESOURCE_COUNT] = {0, 0, 1, 1, 1};

static const char *const phase_names[GAME_PHASE_COUNT] = {
	"none", "setup_settlement", "setup_road", "roll", "discard", "move_robber", "main", "finished",
};

static const char *const development_names[DEVELOPMENT_COUNT] = {
	"knight", "road_building", "year_of_plenty", "monopoly", "victory_point",
};

int game_resource_count(const struct game *game, int seat)
{
	return resource_total(game->players[seat].resources);
}

int game_development_count(const struct game *game, int seat)
{
	const uint8_t *cards = game->players[seat].development_cards;
	return cards[0] + cards[1] + cards[2] + cards[3] + cards[4];
}

int game_setup_seat(const struct game *game, int step)
{
	int seats = game->options.seats;
	int offset = step < seats ? step : 2 * seats - 1 - step;
	return (game->first_seat + offset) % seats;
}

unsigned game_harbor_kinds(const struct game *game, int seat)
{
	/* The seat's buildings on harbor nodes, each naming its slot. */
	uint64_t at = game->players[seat].buildings & board_harbor_nodes_any;
	unsigned kinds = 0;
	while (at) {
		int node = __builtin_ctzll(at);
		at &= at - 1;
		kinds |= 1u << game->board.harbor[board_node_harbor[node]];
	}
	return kinds;
}

unsigned game_maritime_rates(const struct game *game, int seat, int resource)
{
	return game_maritime_rates_from(game_harbor_kinds(game, seat), resource);
}

int game_maritime_rate(const struct game *game, int seat, int resource)
{
	return __builtin_ctz(game_maritime_rates(game, seat, resource));
}

int game_offer_cap(const struct game *game, int seat)
{
	return seat == game->turn_seat ? GAME_OFFERS_ACTIVE_SEAT : GAME_OFFERS_PER_OTHER_SEAT;
}

int game_open_offers(const struct game *game, int seat)
{
	int open = 0;
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		open += game->offers[i].id != 0 && game->offers[i].from == seat;
	return open;
}

const struct game_offer *game_find_offer(const struct game *game, int id)
{
	if (id == 0)
		return NULL;
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		if (game->offers[i].id == id)
			return &game->offers[i];
	return NULL;
}

int game_offer_answered(const struct game_offer *offers, int count, const struct game_offer *offer, int seat)
{
	if ((offer->accepted | offer->declined) >> seat & 1u)
		return 1;
	for (int i = 0; i < count; i++)
		if (offers[i].id != 0 && offers[i].from == seat && offers[i].counter_to == offer->id)
			return 1;
	return 0;
}

const char *game_phase_name(int phase)
{
	if (phase < 0 || phase >= GAME_PHASE_COUNT)
		return NULL;
	return phase_names[phase];
}

const char *development_card_name(int card)
{
	if (card < 0 || card >= DEVELOPMENT_COUNT)
		return NULL;
	return development_names[card];
}
