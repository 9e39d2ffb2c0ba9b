/*
 * apply.c - the state transitions behind each event type.
 *
 * Besides the obvious bookkeeping, apply keeps the derived parts of the state in step:
 * the occupancy bit masks, each seat's road_length (recomputed for the builder after a road,
 * and for every opponent whose roads touch a new settlement), the setup draft's progress,
 * the discards a 7 makes owed, and the phase. Decisions that need a choice or randomness
 * (who takes Longest Road, who won) arrive as their own events from rules_decide().
 *
 * Phase transitions:
 *   GAME_CREATED                 -> SETUP_SETTLEMENT (first seat)
 *   SETUP_SETTLEMENT --settlement--> SETUP_ROAD --road--> SETUP_SETTLEMENT (next drafter)
 *                                                     `-> ROLL (first seat, turn 1)
 *   ROLL --dice 7--> DISCARD (someone over 7) or MOVE_ROBBER; --other--> MAIN
 *   DISCARD --last discard--> MOVE_ROBBER --robber moved--> MAIN
 *   MAIN --turn ended--> ROLL (next seat); any --game won--> FINISHED
 * A knight moves the robber without leaving ROLL or MAIN.
 */
#include "apply.h"

#include <string.h>

#include "longest_road.h"

static int seat_ok(const struct game *game, int seat)
{
	return seat >= 0 && seat < game->options.seats;
}

/* Counts move between a hand and the bank four lanes at a time: counts 0-3 as the bytes of
 * one 32-bit word, each byte added or subtracted on its own (modulo 256, no carry or borrow
 * into its neighbour, so exactly what a loop over the bytes does), and count 4 alone. */
#define LANE_HIGH UINT32_C(0x80808080)

static uint32_t lanes_add(uint32_t a, uint32_t b)
{
	return ((a & ~LANE_HIGH) + (b & ~LANE_HIGH)) ^ ((a ^ b) & LANE_HIGH);
}

static uint32_t lanes_sub(uint32_t a, uint32_t b)
{
	return ((a | LANE_HIGH) - (b & ~LANE_HIGH)) ^ ((a ^ ~b) & LANE_HIGH);
}

static void move_counts(uint8_t to[RESOURCE_COUNT], uint8_t from[RESOURCE_COUNT], const uint8_t counts[RESOURCE_COUNT])
{
	uint32_t moved, word;
	memcpy(&moved, counts, sizeof moved);
	memcpy(&word, to, sizeof word);
	word = lanes_add(word, moved);
	memcpy(to, &word, sizeof word);
	memcpy(&word, from, sizeof word);
	word = lanes_sub(word, moved);
	memcpy(from, &word, sizeof word);
	to[4] = (uint8_t)(to[4] + counts[4]);
	from[4] = (uint8_t)(from[4] - counts[4]);
}

_Static_assert(RESOURCE_COUNT == 5, "move_counts: four lanes and one");

/* 1 when any of the counts is not 0. */
static inline int resource_any(const uint8_t counts[RESOURCE_COUNT])
{
	uint32_t word;
	memcpy(&word, counts, sizeof word);
	return (word | counts[4]) != 0;
}

static void pay(struct game *game, int seat, const uint8_t cost[RESOURCE_COUNT])
{
	move_counts(game->bank, game->players[seat].resources, cost);
}

static void take_from_bank(struct game *game, int seat, const uint8_t gain[RESOURCE_COUNT])
{
	move_counts(game->players[seat].resources, game->bank, gain);
}

static void apply_game_created(struct game *game, const struct event *event)
{
	uint32_t version = game->version;
	memset(game, 0, sizeof *game);
	game->version = version;
	game->options = event->setup.options;
	game->board = event->setup.board;
	game->first_seat = event->setup.first_seat;
	game->turn_seat = event->setup.first_seat;
	game->phase = GAME_PHASE_SETUP_SETTLEMENT;
	game->setup_node = -1;
	game->robber = (int8_t)board_desert(&game->board);
	game->winner = GAME_NO_SEAT;
	game->longest_road = GAME_NO_SEAT;
	game->largest_army = GAME_NO_SEAT;
	game->next_offer_id = 1;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		game->bank[r] = RESOURCE_BANK_START;
	memcpy(game->deck, game_deck_start, sizeof game->deck);
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		game->players[s].roads_left = GAME_ROADS;
		game->players[s].settlements_left = GAME_SETTLEMENTS;
		game->players[s].cities_left = GAME_CITIES;
	}
}

static void refresh_road_lengths_at(struct game *game, int node, int builder)
{
	for (int s = 0; s < game->options.seats; s++)
		if (s != builder && (game->players[s].road_nodes >> node & 1u))
			game->players[s].road_length = (uint8_t)longest_road_length(game, s);
}

static void apply_settlement_built(struct game *game, const struct event *event)
{
	int seat = event->seat, node = event->node;
	struct game_player *player = &game->players[seat];
	if (!event->free)
		pay(game, seat, game_cost_settlement);
	game->node_owner[node] = (uint8_t)(seat + 1);
	game->node_building[node] = BUILDING_SETTLEMENT;
	game->occupied_nodes |= UINT64_C(1) << node;
	player->buildings |= UINT64_C(1) << node;
	player->settlements_left--;
	refresh_road_lengths_at(game, node, seat);
	if (game->phase == GAME_PHASE_SETUP_SETTLEMENT) {
		game->phase = GAME_PHASE_SETUP_ROAD;
		game->setup_node = (int8_t)node;
	}
}

static void apply_road_built(struct game *game, const struct event *event)
{
	int seat = event->seat, edge = event->edge;
	struct game_player *player = &game->players[seat];
	if (!event->free)
		pay(game, seat, game_cost_road);
	game->edge_owner[edge] = (uint8_t)(seat + 1);
	board_edge_set_add(&game->occupied_edges, edge);
	board_edge_set_add(&player->roads, edge);
	player->road_nodes |= board_edge_node_mask[edge];
	player->roads_left--;
	player->road_length = (uint8_t)longest_road_after_road(game, seat, edge, player->road_length);
	if (game->phase == GAME_PHASE_SETUP_ROAD) {
		game->setup_step++;
		game->setup_node = -1;
		if (game->setup_step >= 2 * game->options.seats) {
			game->phase = GAME_PHASE_ROLL;
			game->turn_seat = game->first_seat;
			game->turn_number = 1;
		} else {
			game->phase = GAME_PHASE_SETUP_SETTLEMENT;
			game->turn_seat = (int8_t)game_setup_seat(game, game->setup_step);
		}
	}
}

static void apply_city_built(struct game *game, const struct event *event)
{
	struct game_player *player = &game->players[event->seat];
	pay(game, event->seat, game_cost_city);
	game->node_building[event->node] = BUILDING_CITY;
	player->cities_left--;
	player->settlements_left++;
}

static void apply_dice_rolled(struct game *game, const struct event *event)
{
	game->rolled = 1;
	game->dice[0] = game->last_roll[0] = event->dice[0];
	game->dice[1] = game->last_roll[1] = event->dice[1];
	if (event->dice[0] + event->dice[1] != 7) {
		game->phase = GAME_PHASE_MAIN;
		return;
	}
	int owed = 0;
	for (int s = 0; s < game->options.seats; s++) {
		int cards = game_resource_count(game, s);
		game->players[s].discard_owed = (uint8_t)(cards > 7 ? cards / 2 : 0);
		owed |= cards > 7;
	}
	game->phase = owed ? GAME_PHASE_DISCARD : GAME_PHASE_MOVE_ROBBER;
}

static void apply_discarded(struct game *game, const struct event *event)
{
	pay(game, event->seat, event->resources);
	game->players[event->seat].discard_owed = 0;
	for (int s = 0; s < game->options.seats; s++)
		if (game->players[s].discard_owed)
			return;
	game->phase = GAME_PHASE_MOVE_ROBBER;
}

static void apply_robber_moved(struct game *game, const struct event *event)
{
	game->robber = event->hex;
	if (game->phase == GAME_PHASE_MOVE_ROBBER)
		game->phase = GAME_PHASE_MAIN;
}

static void apply_resource_stolen(struct game *game, const struct event *event)
{
	if (event->resource >= RESOURCE_COUNT || !seat_ok(game, event->other))
		return;
	game->players[event->other].resources[event->resource]--;
	game->players[event->seat].resources[event->resource]++;
}

static void apply_development_bought(struct game *game, const struct event *event)
{
	struct game_player *player = &game->players[event->seat];
	if (event->card >= DEVELOPMENT_COUNT)
		return;
	pay(game, event->seat, game_cost_development);
	game->deck[event->card]--;
	player->development_cards[event->card]++;
	player->bought_this_turn[event->card]++;
}

static void play_card(struct game *game, int seat, int card)
{
	game->players[seat].development_cards[card]--;
	game->development_played = 1;
}

static void apply_monopoly(struct game *game, const struct event *event)
{
	play_card(game, event->seat, DEVELOPMENT_MONOPOLY);
	if (event->resource >= RESOURCE_COUNT)
		return;
	for (int s = 0; s < game->options.seats; s++) {
		uint8_t taken = event->gains[s][event->resource];
		game->players[s].resources[event->resource] -= taken;
		game->players[event->seat].resources[event->resource] += taken;
	}
}

static struct game_offer *offer_slot(struct game *game, int id)
{
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		if (game->offers[i].id == id && id != 0)
			return &game->offers[i];
	return NULL;
}

static void apply_trade_offered(struct game *game, const struct event *event)
{
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		struct game_offer *offer = &game->offers[i];
		if (offer->id != 0)
			continue;
		offer->id = event->trade;
		offer->counter_to = event->counter_to;
		offer->from = event->seat;
		offer->to = event->to;
		offer->accepted = 0;
		offer->declined = 0;
		memcpy(offer->give, event->give, RESOURCE_COUNT);
		memcpy(offer->want, event->want, RESOURCE_COUNT);
		break;
	}
	if (event->trade >= game->next_offer_id)
		game->next_offer_id = (uint16_t)(event->trade + 1);
}

static void apply_trade_answer(struct game *game, const struct event *event, int accepted)
{
	struct game_offer *offer = offer_slot(game, event->trade);
	if (!offer || !seat_ok(game, event->seat))
		return;
	uint8_t bit = (uint8_t)(1u << event->seat);
	if (accepted) {
		offer->accepted |= bit;
		offer->declined &= (uint8_t)~bit;
	} else {
		offer->declined |= bit;
		offer->accepted &= (uint8_t)~bit;
	}
}

static void close_offer(struct game *game, int id)
{
	struct game_offer *offer = offer_slot(game, id);
	if (offer)
		memset(offer, 0, sizeof *offer);
}

static void apply_trade_completed(struct game *game, const struct event *event)
{
	struct game_player *active = &game->players[event->seat];
	struct game_player *partner = &game->players[event->other];
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		active->resources[r] = (uint8_t)(active->resources[r] - event->give[r] + event->want[r]);
		partner->resources[r] = (uint8_t)(partner->resources[r] + event->give[r] - event->want[r]);
	}
	close_offer(game, event->trade);
}

static void apply_turn_ended(struct game *game)
{
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		memset(game->players[s].bought_this_turn, 0, DEVELOPMENT_COUNT);
	memset(game->offers, 0, sizeof game->offers);
	game->rolled = 0;
	game->development_played = 0;
	game->dice[0] = game->dice[1] = 0;
	game->turn_seat = (int8_t)((game->turn_seat + 1) % game->options.seats);
	game->turn_number++;
	game->phase = GAME_PHASE_ROLL;
}

static int counts_ok(const uint8_t counts[RESOURCE_COUNT], const uint8_t limit[RESOURCE_COUNT])
{
	return resource_covers(limit, counts);
}

static int game_created_valid(const struct game *game, const struct event *event)
{
	const struct game_options *o = &event->setup.options;
	if (game->phase != GAME_PHASE_NONE)
		return 0;
	if (o->seats < GAME_MIN_SEATS || o->seats > GAME_MAX_SEATS || o->layout > GAME_LAYOUT_RANDOM ||
	    o->start > GAME_START_FIXED || o->numbers > BOARD_NUMBERS_RANDOM || o->edition > GAME_EDITION_2025 ||
	    o->dice > GAME_DICE_MANUAL || o->first_seat < GAME_NO_SEAT || o->first_seat >= o->seats)
		return 0;
	return board_layout_valid(&event->setup.board) && event->setup.first_seat >= 0 &&
	       event->setup.first_seat < o->seats;
}

static int trade_sides_ok(const struct game *game, const struct event *event)
{
	if (!seat_ok(game, event->other) || event->other == event->seat)
		return 0;
	return counts_ok(event->give, game->players[event->seat].resources) &&
	       counts_ok(event->want, game->players[event->other].resources);
}

int apply_event_valid(const struct game *game, const struct event *e)
{
	if (e->type >= EVENT_TYPE_COUNT)
		return 0;
	if (e->type == EVENT_GAME_CREATED)
		return game_created_valid(game, e);
	/* The fairness events (the service's: what they say is judged by game/import.c): the
	 * server seed is revealed once the game is over, the seeds are set and fixed before. */
	if (e->type == EVENT_SERVER_SEED_REVEALED)
		return game->phase == GAME_PHASE_FINISHED;
	if (game->phase == GAME_PHASE_NONE || game->phase == GAME_PHASE_FINISHED)
		return 0;
	if (e->type == EVENT_SEEDS_FIXED)
		return 1;
	if (e->type == EVENT_RESOURCES_PRODUCED) {
		uint8_t total[RESOURCE_COUNT] = {0};
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			for (int r = 0; r < RESOURCE_COUNT; r++)
				total[r] = (uint8_t)(total[r] + e->gains[s][r]);
		return counts_ok(total, game->bank);
	}
	if (e->type == EVENT_LONGEST_ROAD_CHANGED || e->type == EVENT_LARGEST_ARMY_CHANGED)
		return e->seat >= GAME_NO_SEAT && e->seat < game->options.seats;
	if (!seat_ok(game, e->seat))
		return 0;
	const struct game_player *player = &game->players[e->seat];
	switch (e->type) {
	case EVENT_SETTLEMENT_BUILT:
		return e->node >= 0 && e->node < BOARD_NODES && !game->node_owner[e->node] &&
		       player->settlements_left && (e->free || counts_ok(game_cost_settlement, player->resources));
	case EVENT_ROAD_BUILT:
		return e->edge >= 0 && e->edge < BOARD_EDGES && !game->edge_owner[e->edge] && player->roads_left &&
		       (e->free || counts_ok(game_cost_road, player->resources)) &&
		       (game->phase != GAME_PHASE_SETUP_ROAD || game->setup_node >= 0);
	case EVENT_CITY_BUILT:
		return e->node >= 0 && e->node < BOARD_NODES && game->node_owner[e->node] == e->seat + 1 &&
		       game->node_building[e->node] == BUILDING_SETTLEMENT && player->cities_left &&
		       counts_ok(game_cost_city, player->resources);
	case EVENT_DICE_ROLLED:
		return e->dice[0] >= 1 && e->dice[0] <= 6 && e->dice[1] >= 1 && e->dice[1] <= 6;
	case EVENT_DISCARDED:
		return counts_ok(e->resources, player->resources);
	case EVENT_ROBBER_MOVED:
		return e->hex >= 0 && e->hex < BOARD_HEXES;
	case EVENT_RESOURCE_STOLEN:
		return seat_ok(game, e->other) && e->resource < RESOURCE_COUNT &&
		       game->players[e->other].resources[e->resource] > 0;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		return e->card < DEVELOPMENT_COUNT && game->deck[e->card] > 0 &&
		       counts_ok(game_cost_development, player->resources);
	case EVENT_KNIGHT_PLAYED:
		return player->development_cards[DEVELOPMENT_KNIGHT] > 0;
	case EVENT_ROAD_BUILDING_PLAYED:
		return player->development_cards[DEVELOPMENT_ROAD_BUILDING] > 0;
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		return player->development_cards[DEVELOPMENT_YEAR_OF_PLENTY] > 0 && counts_ok(e->resources, game->bank);
	case EVENT_MONOPOLY_PLAYED:
		if (player->development_cards[DEVELOPMENT_MONOPOLY] == 0 || e->resource >= RESOURCE_COUNT)
			return 0;
		for (int s = 0; s < game->options.seats; s++)
			if (e->gains[s][e->resource] > game->players[s].resources[e->resource])
				return 0;
		return 1;
	case EVENT_MARITIME_TRADED:
		return counts_ok(e->give, player->resources) && counts_ok(e->want, game->bank);
	case EVENT_TRADE_OFFERED:
		return e->trade != 0 && e->to < (1u << game->options.seats);
	case EVENT_TRADE_COMPLETED:
		return trade_sides_ok(game, e);
	case EVENT_QUIET_HOURS_SET:
		return e->quiet.zone[0] != '\0' && e->quiet.zone[EVENT_ZONE_SIZE - 1] == '\0' &&
		       e->quiet.from_min < 1440 && e->quiet.to_min < 1440 && e->quiet.from_min != e->quiet.to_min;
	default:
		return 1;
	}
}

void apply_event(struct game *game, const struct event *event)
{
	game->version++;
	switch (event->type) {
	case EVENT_GAME_CREATED:
		apply_game_created(game, event);
		break;
	case EVENT_SETTLEMENT_BUILT:
		apply_settlement_built(game, event);
		break;
	case EVENT_ROAD_BUILT:
		apply_road_built(game, event);
		break;
	case EVENT_CITY_BUILT:
		apply_city_built(game, event);
		break;
	case EVENT_RESOURCES_PRODUCED:
		for (int s = 0; s < game->options.seats; s++)
			if (resource_any(event->gains[s])) /* most seats gain nothing from a roll */
				take_from_bank(game, s, event->gains[s]);
		break;
	case EVENT_DICE_ROLLED:
		apply_dice_rolled(game, event);
		break;
	case EVENT_DISCARDED:
		apply_discarded(game, event);
		break;
	case EVENT_ROBBER_MOVED:
		apply_robber_moved(game, event);
		break;
	case EVENT_RESOURCE_STOLEN:
		apply_resource_stolen(game, event);
		break;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		apply_development_bought(game, event);
		break;
	case EVENT_KNIGHT_PLAYED:
		play_card(game, event->seat, DEVELOPMENT_KNIGHT);
		game->players[event->seat].knights_played++;
		break;
	case EVENT_ROAD_BUILDING_PLAYED:
		play_card(game, event->seat, DEVELOPMENT_ROAD_BUILDING);
		break;
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		play_card(game, event->seat, DEVELOPMENT_YEAR_OF_PLENTY);
		take_from_bank(game, event->seat, event->resources);
		break;
	case EVENT_MONOPOLY_PLAYED:
		apply_monopoly(game, event);
		break;
	case EVENT_MARITIME_TRADED:
		pay(game, event->seat, event->give);
		take_from_bank(game, event->seat, event->want);
		break;
	case EVENT_TRADE_OFFERED:
		apply_trade_offered(game, event);
		break;
	case EVENT_TRADE_ACCEPTED:
		apply_trade_answer(game, event, 1);
		break;
	case EVENT_TRADE_DECLINED:
		apply_trade_answer(game, event, 0);
		break;
	case EVENT_TRADE_WITHDRAWN:
		close_offer(game, event->trade);
		break;
	case EVENT_TRADE_COMPLETED:
		apply_trade_completed(game, event);
		break;
	case EVENT_LONGEST_ROAD_CHANGED:
		game->longest_road = event->seat;
		break;
	case EVENT_LARGEST_ARMY_CHANGED:
		game->largest_army = event->seat;
		break;
	case EVENT_TURN_ENDED:
		apply_turn_ended(game);
		break;
	case EVENT_GAME_WON:
		game->winner = event->seat;
		game->phase = GAME_PHASE_FINISHED;
		break;
	case EVENT_SEAT_AWAY:
	case EVENT_SEAT_BACK:
	case EVENT_RESIGNED:
	case EVENT_SEAT_RELEASED:
	case EVENT_SEAT_SUBSTITUTED:
	case EVENT_QUIET_HOURS_SET:
	case EVENT_QUIET_HOURS_CLEARED:
	case EVENT_PLAYER_SEED_SET:
	case EVENT_SEEDS_FIXED:
	case EVENT_SERVER_SEED_REVEALED:
		break; /* the seat's holder, quiet hours, seeds: not the rules' concern */
	default:
		break;
	}
}

void apply_events(struct game *game, const struct event_list *events)
{
	for (int i = 0; i < events->count; i++)
		apply_event(game, &events->events[i]);
}
