/*
 * bot_sample.c - a full state from one seat's view and the public log (bot_sample.h).
 *
 * The public fields of the state are copied from the view; the masks the placement rules
 * read (occupied nodes and edges, each seat's buildings, road nodes and roads) are rebuilt
 * from the view's node and edge arrays; the setup step is the count of settlements placed.
 * Then the hidden fields are drawn without replacement: opponents' hands from the unseen
 * resource pool, opponents' development cards and the deck from the unseen development
 * pool. Resources are conserved (bank + hands = 19 of each), so the unseen resource pool
 * holds exactly the opponents' cards. The development pool is the starting deck less the
 * seat's own cards and those played; should the facts given undercount the cards played,
 * it holds more than the opponents and the deck need, and the draw simply leaves some out.
 * Should it hold fewer (facts overcounting), the deck comes short, never an opponent.
 *
 * What the seat cannot know of an opponent's development cards (which were bought this
 * turn) is taken as none: every held card is playable under the once-per-turn rule.
 */
#include "bot_sample.h"

#include <string.h>

#include "board.h"

void bot_public_of_game(const struct game *game, struct bot_public *out)
{
	for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++) {
		int played = game_deck_start[kind] - game->deck[kind];
		for (int s = 0; s < game->options.seats && s < GAME_MAX_SEATS; s++)
			played -= game->players[s].development_cards[kind];
		out->development_played[kind] = (uint8_t)(played > 0 ? played : 0);
	}
}

/* Draw one card of the pool (total > 0), uniformly, and take it out. */
static int draw(uint8_t *pool, int kinds, struct rng *rng)
{
	int total = 0;
	for (int k = 0; k < kinds; k++)
		total += pool[k];
	int pick = (int)rng_below(rng, (uint32_t)total);
	int kind = 0;
	while (pick >= pool[kind])
		pick -= pool[kind++];
	pool[kind]--;
	return kind;
}

static int pool_total(const uint8_t *pool, int kinds)
{
	int total = 0;
	for (int k = 0; k < kinds; k++)
		total += pool[k];
	return total;
}

static void copy_public(const struct game_view *view, struct game *out)
{
	memset(out, 0, sizeof *out);
	out->version = view->version;
	out->turn_number = view->turn_number;
	out->options = view->options;
	out->board = view->board;
	out->phase = view->phase;
	out->turn_seat = view->turn_seat;
	out->first_seat = view->first_seat;
	out->setup_node = view->setup_node;
	out->robber = view->robber;
	out->winner = view->winner;
	out->longest_road = view->longest_road;
	out->largest_army = view->largest_army;
	out->rolled = view->rolled;
	out->development_played = view->development_played;
	memcpy(out->dice, view->dice, sizeof out->dice);
	memcpy(out->last_roll, view->last_roll, sizeof out->last_roll);
	memcpy(out->bank, view->bank, sizeof out->bank);
	memcpy(out->node_owner, view->node_owner, sizeof out->node_owner);
	memcpy(out->node_building, view->node_building, sizeof out->node_building);
	memcpy(out->edge_owner, view->edge_owner, sizeof out->edge_owner);
	int settlements = 0;
	for (int node = 0; node < BOARD_NODES; node++) {
		int owner = view->node_owner[node] - 1;
		if (owner < 0 || owner >= GAME_MAX_SEATS)
			continue;
		out->occupied_nodes |= UINT64_C(1) << node;
		out->players[owner].buildings |= UINT64_C(1) << node;
		settlements++;
	}
	for (int edge = 0; edge < BOARD_EDGES; edge++) {
		int owner = view->edge_owner[edge] - 1;
		if (owner < 0 || owner >= GAME_MAX_SEATS)
			continue;
		board_edge_set_add(&out->occupied_edges, edge);
		board_edge_set_add(&out->players[owner].roads, edge);
		out->players[owner].road_nodes |= board_edge_node_mask[edge];
	}
	if (view->phase == GAME_PHASE_SETUP_SETTLEMENT)
		out->setup_step = (uint8_t)settlements;
	else if (view->phase == GAME_PHASE_SETUP_ROAD)
		out->setup_step = (uint8_t)(settlements - 1);
	else
		out->setup_step = (uint8_t)(2 * view->options.seats);
	int next_offer = 1;
	for (int i = 0; i < view->offer_count && i < GAME_MAX_OFFERS; i++) {
		out->offers[i] = view->offers[i];
		if (view->offers[i].id >= next_offer)
			next_offer = view->offers[i].id + 1;
	}
	out->next_offer_id = (uint16_t)next_offer;
	for (int s = 0; s < view->options.seats && s < GAME_MAX_SEATS; s++) {
		const struct view_player *seen = &view->players[s];
		struct game_player *player = &out->players[s];
		player->knights_played = seen->knights_played;
		player->roads_left = seen->roads_left;
		player->settlements_left = seen->settlements_left;
		player->cities_left = seen->cities_left;
		player->road_length = seen->road_length;
		player->discard_owed = seen->discard_owed;
	}
}

void bot_sample_state(const struct game_view *view, const struct bot_public *facts, struct rng *rng, struct game *out)
{
	copy_public(view, out);
	int me = view->you.seat;
	int seats = view->options.seats;
	struct game_player *own = &out->players[me];
	memcpy(own->resources, view->you.resources, RESOURCE_COUNT);
	memcpy(own->development_cards, view->you.development_cards, DEVELOPMENT_COUNT);
	/* What the seat may not play now although it holds it was bought this turn, when the
	 * rules leave no other reason (view_playable()). */
	if (view->turn_seat == me && !view->development_played &&
	    (view->phase == GAME_PHASE_ROLL || view->phase == GAME_PHASE_MAIN))
		for (int kind = 0; kind < DEVELOPMENT_VICTORY_POINT; kind++)
			own->bought_this_turn[kind] =
				(uint8_t)(view->you.development_cards[kind] - view->you.playable[kind]);

	uint8_t resources[RESOURCE_COUNT];
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		int left = 19 - view->bank[r] - view->you.resources[r];
		resources[r] = (uint8_t)(left > 0 ? left : 0);
	}
	uint8_t cards[DEVELOPMENT_COUNT];
	int knights = 0;
	for (int s = 0; s < seats; s++)
		knights += view->players[s].knights_played;
	for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++) {
		int played = facts ? facts->development_played[kind] : 0;
		if (kind == DEVELOPMENT_KNIGHT && knights > played)
			played = knights;
		int left = game_deck_start[kind] - view->you.development_cards[kind] - played;
		cards[kind] = (uint8_t)(left > 0 ? left : 0);
	}
	for (int s = 0; s < seats; s++) {
		if (s == me)
			continue;
		struct game_player *player = &out->players[s];
		for (int i = 0; i < view->players[s].resource_count && pool_total(resources, RESOURCE_COUNT) > 0; i++)
			player->resources[draw(resources, RESOURCE_COUNT, rng)]++;
		for (int i = 0; i < view->players[s].development_card_count; i++) {
			if (pool_total(cards, DEVELOPMENT_COUNT) == 0)
				cards[DEVELOPMENT_KNIGHT]++; /* facts overcounting: keep the size public */
			player->development_cards[draw(cards, DEVELOPMENT_COUNT, rng)]++;
		}
	}
	for (int i = 0; i < view->development_cards_left && pool_total(cards, DEVELOPMENT_COUNT) > 0; i++)
		out->deck[draw(cards, DEVELOPMENT_COUNT, rng)]++;
}
