/*
 * legal.c - legal move enumeration.
 *
 * Each list is built from the same placement queries and gates rules_decide() uses (and the
 * same maritime rates and offer caps, game.h), so the two cannot drift apart silently; the property tests
 * (tests/test_properties.c) check over thousands of random games that every listed move is accepted and a sample of
 * unlisted moves is refused.
 */
#include "legal.h"

#include <stddef.h>

#include "placement.h"

/* Moves first .. first + span - 1 of the list are written to moves[0 ..); every move is
 * counted. A listing writes from 0 (span: the capacity); legal_tally_move() writes the one
 * move it wants of a piece of the list (span 1), or counts a piece (span 0). */
struct move_list {
	struct command *moves;
	int first;
	unsigned span;
	int count;
	struct command sink; /* written, never read: moves outside the span go here */
	int offers;	     /* 0: the offer template is left out */
};

static struct command *add(struct move_list *list, enum command_type type)
{
	unsigned at = (unsigned)(list->count - list->first);
	struct command *move = at < list->span ? &list->moves[at] : &list->sink;
	list->count++;
	*move = command_blank; /* command_init() without the call: a listing writes many moves */
	move->type = (uint8_t)type;
	return move;
}

static void add_nodes(struct move_list *list, enum command_type type, uint64_t nodes)
{
	while (nodes) {
		int node = __builtin_ctzll(nodes);
		nodes &= nodes - 1;
		add(list, type)->node = (int8_t)node;
	}
}

static void add_edges(struct move_list *list, struct board_edge_set edges)
{
	for (int w = 0; w < 2; w++) {
		uint64_t bits = edges.word[w];
		while (bits) {
			int edge = 64 * w + __builtin_ctzll(bits);
			bits &= bits - 1;
			add(list, COMMAND_BUILD_ROAD)->edge = (int8_t)edge;
		}
	}
}

/* The victims on `hex`: the seats whose hex mask (placement_robbable_hexes()) has it. */
static inline uint8_t victims_at(const uint32_t hexes[GAME_MAX_SEATS], int hex)
{
	_Static_assert(GAME_MAX_SEATS == 4, "victims_at reads four seats");
	return (uint8_t)((hexes[0] >> hex & 1u) | (hexes[1] >> hex & 1u) << 1 | (hexes[2] >> hex & 1u) << 2 |
			 (hexes[3] >> hex & 1u) << 3);
}

static void add_robber_targets(struct move_list *list, const struct game *g, int seat, enum command_type type)
{
	uint32_t hexes[GAME_MAX_SEATS];
	placement_robbable_hexes(g, seat, hexes);
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		if (hex == g->robber)
			continue;
		uint8_t victims = victims_at(hexes, hex);
		if (!victims) {
			add(list, type)->hex = (int8_t)hex;
			continue;
		}
		while (victims) {
			int victim = __builtin_ctz(victims);
			victims &= (uint8_t)(victims - 1);
			struct command *move = add(list, type);
			move->hex = (int8_t)hex;
			move->victim = (int8_t)victim;
		}
	}
}

/* The edges of a set in ascending order: `edge` from -1 on, -1 after the last. */
static inline int next_edge(const struct board_edge_set *set, int edge)
{
	int from = edge + 1;
	if (from < 64) {
		uint64_t low = set->word[0] & (~UINT64_C(0) << from);
		if (low)
			return __builtin_ctzll(low);
		from = 64;
	}
	if (from >= BOARD_EDGES)
		return -1;
	uint64_t high = set->word[1] & (~UINT64_C(0) << (from - 64));
	return high ? 64 + __builtin_ctzll(high) : -1;
}

/* The edges of `set` below `edge`. */
static inline struct board_edge_set edges_below(const struct board_edge_set *set, int edge)
{
	struct board_edge_set below = *set;
	if (edge < 64) {
		below.word[0] &= (UINT64_C(1) << edge) - 1;
		below.word[1] = 0;
	} else {
		below.word[1] &= (UINT64_C(1) << (edge - 64)) - 1;
	}
	return below;
}

/* The second roads listed after e1: the paths open once e1 is built, less those open now
 * below e1 (that unordered pair is listed from the lower edge). */
static inline struct board_edge_set second_roads(const struct game *g, int seat, const struct board_edge_set *first,
						 int e1)
{
	struct board_edge_set second = placement_road_edges_after(g, seat, e1);
	struct board_edge_set skip = edges_below(first, e1);
	second.word[0] &= ~skip.word[0];
	second.word[1] &= ~skip.word[1];
	return second;
}

static void add_road_building(struct move_list *list, const struct game *g, int seat)
{
	int possible = placement_free_roads_possible(g, seat);
	struct board_edge_set first = placement_road_edges(g, seat);
	if (possible == 0) {
		add(list, COMMAND_PLAY_ROAD_BUILDING);
		return;
	}
	for (int e1 = next_edge(&first, -1); e1 >= 0; e1 = next_edge(&first, e1)) {
		if (possible == 1) {
			struct command *move = add(list, COMMAND_PLAY_ROAD_BUILDING);
			move->edge_count = 1;
			move->edges[0] = (int8_t)e1;
			continue;
		}
		struct board_edge_set second = second_roads(g, seat, &first, e1);
		for (int e2 = next_edge(&second, -1); e2 >= 0; e2 = next_edge(&second, e2)) {
			struct command *move = add(list, COMMAND_PLAY_ROAD_BUILDING);
			move->edge_count = 2;
			move->edges[0] = (int8_t)e1;
			move->edges[1] = (int8_t)e2;
		}
	}
}

/* add_road_building()'s count, from the sets' sizes. */
static int road_building_count(const struct game *g, int seat)
{
	int possible = placement_free_roads_possible(g, seat);
	struct board_edge_set first = placement_road_edges(g, seat);
	if (possible == 0)
		return 1;
	if (possible == 1)
		return board_edge_set_count(&first);
	int count = 0;
	for (int e1 = next_edge(&first, -1); e1 >= 0; e1 = next_edge(&first, e1)) {
		struct board_edge_set second = second_roads(g, seat, &first, e1);
		count += board_edge_set_count(&second);
	}
	return count;
}

static void add_year_of_plenty(struct move_list *list, const struct game *g)
{
	int in_bank = resource_total(g->bank);
	if (in_bank == 0) {
		add(list, COMMAND_PLAY_YEAR_OF_PLENTY);
		return;
	}
	if (in_bank == 1) {
		for (int r = 0; r < RESOURCE_COUNT; r++)
			if (g->bank[r])
				add(list, COMMAND_PLAY_YEAR_OF_PLENTY)->resources[r] = 1;
		return;
	}
	for (int a = 0; a < RESOURCE_COUNT; a++) {
		for (int b = a; b < RESOURCE_COUNT; b++) {
			if (g->bank[a] < (a == b ? 2 : 1) || g->bank[b] < 1)
				continue;
			struct command *move = add(list, COMMAND_PLAY_YEAR_OF_PLENTY);
			move->resources[a]++;
			move->resources[b]++;
		}
	}
}

_Static_assert(DEVELOPMENT_VICTORY_POINT == 4, "add_development_plays reads the four playable kinds");

/* Development cards `seat` may play now (its turn, ROLL or MAIN phase): the listing, for a
 * seat that may_play_development() lets through. */
static void add_development_plays_of(struct move_list *list, const struct game *g, int seat)
{
	const struct game_player *player = &g->players[seat];
	for (int kind = 0; kind < DEVELOPMENT_VICTORY_POINT; kind++) {
		if (player->development_cards[kind] <= player->bought_this_turn[kind])
			continue;
		switch (kind) {
		case DEVELOPMENT_KNIGHT:
			add_robber_targets(list, g, seat, COMMAND_PLAY_KNIGHT);
			break;
		case DEVELOPMENT_ROAD_BUILDING:
			add_road_building(list, g, seat);
			break;
		case DEVELOPMENT_YEAR_OF_PLENTY:
			add_year_of_plenty(list, g);
			break;
		case DEVELOPMENT_MONOPOLY:
			for (int r = 0; r < RESOURCE_COUNT; r++)
				add(list, COMMAND_PLAY_MONOPOLY)->resource = (uint8_t)r;
			break;
		default:
			break;
		}
	}
}

/* 0 when the seat played one this turn, or holds none but victory points: the usual case,
 * answered without a call. */
static inline int may_play_development(const struct game *g, int seat)
{
	const uint8_t *held = g->players[seat].development_cards;
	return !g->development_played && (held[0] | held[1] | held[2] | held[3]);
}

static inline void add_development_plays(struct move_list *list, const struct game *g, int seat)
{
	if (may_play_development(g, seat))
		add_development_plays_of(list, g, seat);
}

static void add_offer_template(struct move_list *list, const struct game *g, int seat)
{
	if (list->offers && game_resource_count(g, seat) > 0 && game_open_offers(g, seat) < game_offer_cap(g, seat))
		add(list, COMMAND_OFFER_TRADE)->is_template = 1;
}

static void add_trade_moves(struct move_list *list, const struct game *g, int seat)
{
	if (g->next_offer_id <= 1)
		return; /* no offer was ever made: ids are given out from 1 (invariants.c) */
	int active = seat == g->turn_seat;
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &g->offers[i];
		if (offer->id == 0)
			continue;
		if (offer->from == seat) {
			add(list, COMMAND_WITHDRAW_TRADE)->trade = offer->id;
			if (!active)
				continue;
			for (int with = 0; with < g->options.seats; with++) {
				if (!(offer->accepted >> with & 1u) ||
				    !resource_covers(g->players[seat].resources, offer->give) ||
				    !resource_covers(g->players[with].resources, offer->want))
					continue;
				struct command *move = add(list, COMMAND_CONFIRM_TRADE);
				move->trade = offer->id;
				move->with = (int8_t)with;
			}
			continue;
		}
		if (!(offer->to >> seat & 1u))
			continue;
		if (active) {
			if (resource_covers(g->players[seat].resources, offer->want) &&
			    resource_covers(g->players[offer->from].resources, offer->give))
				add(list, COMMAND_CONFIRM_TRADE)->trade = offer->id;
		} else if (!(offer->accepted >> seat & 1u) &&
			   resource_covers(g->players[seat].resources, offer->want)) {
			add(list, COMMAND_ACCEPT_TRADE)->trade = offer->id;
		}
		if (!(offer->declined >> seat & 1u))
			add(list, COMMAND_DECLINE_TRADE)->trade = offer->id;
	}
}

/* Every maritime trade: each rate the seat is entitled to (not only the best), each number
 * of cards taken that the hand pays for and the bank holds. */
static void add_maritime_trades(struct move_list *list, const struct game *g, int seat)
{
	const uint8_t *hand = g->players[seat].resources;
	unsigned harbor_kinds = 0;
	int harbors_read = 0;
	for (int give = 0; give < RESOURCE_COUNT; give++) {
		if (hand[give] < 2)
			continue; /* no rate is below 2: nothing to list */
		if (!harbors_read) {
			harbor_kinds = game_harbor_kinds(g, seat);
			harbors_read = 1;
		}
		/* Only the rates the hand pays at least once at (rates are 2..4). */
		unsigned affordable = hand[give] >= 4 ? 0x1fu : (2u << hand[give]) - 1;
		unsigned rates = game_maritime_rates_from(harbor_kinds, give) & affordable;
		if (!rates)
			continue;
		for (int want = 0; want < RESOURCE_COUNT; want++) {
			if (want == give)
				continue;
			for (unsigned left = rates; left; left &= left - 1) {
				int rate = __builtin_ctz(left);
				for (int taken = 1; taken * rate <= hand[give] && taken <= g->bank[want]; taken++) {
					struct command *move = add(list, COMMAND_MARITIME_TRADE);
					move->give[give] = (uint8_t)(taken * rate);
					move->want[want] = (uint8_t)taken;
				}
			}
		}
	}
}

static void add_main_moves(struct move_list *list, const struct game *g, int seat)
{
	const struct game_player *player = &g->players[seat];
	const uint8_t *hand = player->resources;
	if (player->settlements_left && resource_covers(hand, game_cost_settlement))
		add_nodes(list, COMMAND_BUILD_SETTLEMENT, placement_settlement_nodes(g, seat));
	if (player->roads_left && resource_covers(hand, game_cost_road))
		add_edges(list, placement_road_edges(g, seat));
	if (player->cities_left && resource_covers(hand, game_cost_city))
		add_nodes(list, COMMAND_BUILD_CITY, placement_city_nodes(g, seat));
	if (resource_total(g->deck) && resource_covers(hand, game_cost_development))
		add(list, COMMAND_BUY_DEVELOPMENT_CARD);
	add_development_plays(list, g, seat);
	add_maritime_trades(list, g, seat);
	add_offer_template(list, g, seat);
	add_trade_moves(list, g, seat);
	add(list, COMMAND_END_TURN);
}

static int list_moves(const struct game *g, int seat, struct command *moves, int capacity, int offers)
{
	struct move_list list = {moves, 0, capacity > 0 ? (unsigned)capacity : 0, 0, {0}, offers};
	if (!game_in_progress(g) || seat < 0 || seat >= g->options.seats)
		return 0;
	int active = seat == g->turn_seat;
	switch (g->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		if (active)
			add_nodes(&list, COMMAND_BUILD_SETTLEMENT, placement_open_nodes(g));
		break;
	case GAME_PHASE_SETUP_ROAD:
		if (active)
			add_edges(&list, placement_setup_road_edges(g, g->setup_node));
		break;
	case GAME_PHASE_ROLL:
		if (active) {
			add(&list, COMMAND_ROLL)->is_template = g->options.dice == GAME_DICE_MANUAL;
			add_development_plays(&list, g, seat);
		}
		break;
	case GAME_PHASE_DISCARD:
		if (g->players[seat].discard_owed) {
			struct command *move = add(&list, COMMAND_DISCARD);
			move->is_template = 1;
			move->count = g->players[seat].discard_owed;
		}
		break;
	case GAME_PHASE_MOVE_ROBBER:
		if (active)
			add_robber_targets(&list, g, seat, COMMAND_MOVE_ROBBER);
		break;
	case GAME_PHASE_MAIN:
		if (active) {
			add_main_moves(&list, g, seat);
		} else {
			add_offer_template(&list, g, seat);
			add_trade_moves(&list, g, seat);
		}
		break;
	default:
		break;
	}
	return list.count;
}

int legal_moves(const struct game *g, int seat, struct command *moves, int capacity)
{
	return list_moves(g, seat, moves, capacity, 1);
}

int legal_moves_except_offers(const struct game *g, int seat, struct command *moves, int capacity)
{
	return list_moves(g, seat, moves, capacity, 0);
}

uint8_t legal_waiting_for(const struct game *g)
{
	if (!game_in_progress(g))
		return 0;
	if (g->phase != GAME_PHASE_DISCARD)
		return (uint8_t)(1u << g->turn_seat);
	uint8_t owing = 0;
	for (int s = 0; s < g->options.seats; s++)
		if (g->players[s].discard_owed)
			owing |= (uint8_t)(1u << s);
	return owing;
}

/* ---- the list counted piece by piece, and one move of it built ---- */

enum piece_kind {
	PIECE_NODES,	      /* bits[0]: a node mask, one move of `type` per node */
	PIECE_EDGES,	      /* bits: an edge set, one build_road per edge */
	PIECE_ONE,	      /* one move of `type` (a roll or a discard as the listing makes it) */
	PIECE_ROBBER,	      /* the robber targets (tally->hexes), moves of `type` */
	PIECE_ROAD_BUILDING,  /* add_road_building()'s moves */
	PIECE_YEAR_OF_PLENTY, /* add_year_of_plenty()'s */
	PIECE_MONOPOLY,	      /* one per resource */
	PIECE_MARITIME,	      /* add_maritime_trades()'s, at tally->harbor_kinds */
	PIECE_TRADES,	      /* add_trade_moves()'s */
};

static void add_piece(struct legal_tally *t, enum piece_kind kind, enum command_type type, int count, uint64_t bits0,
		      uint64_t bits1)
{
	if (count <= 0)
		return;
	struct legal_piece *piece = &t->piece[t->pieces++];
	piece->kind = (uint8_t)kind;
	piece->type = (uint8_t)type;
	piece->count = count;
	piece->bits[0] = bits0;
	piece->bits[1] = bits1;
	t->count += count;
}

static void add_edge_piece(struct legal_tally *t, struct board_edge_set edges)
{
	add_piece(t, PIECE_EDGES, COMMAND_BUILD_ROAD, board_edge_set_count(&edges), edges.word[0], edges.word[1]);
}

static void add_node_piece(struct legal_tally *t, enum command_type type, uint64_t nodes)
{
	add_piece(t, PIECE_NODES, type, board_bits_count64(nodes), nodes, 0);
}

/* add_robber_targets()'s count: each hex but the robber's, once per victim there or once
 * with none. */
static void add_robber_piece(struct legal_tally *t, const struct game *g, int seat, enum command_type type)
{
	const uint32_t *hexes = t->hexes;
	placement_robbable_hexes(g, seat, t->hexes);
	uint32_t open = (UINT32_C(1) << BOARD_HEXES) - 1;
	if (g->robber >= 0 && g->robber < BOARD_HEXES)
		open &= ~(UINT32_C(1) << g->robber);
	uint32_t robbed = hexes[0] | hexes[1] | hexes[2] | hexes[3];
	int count = board_bits_count32(open & ~robbed) + board_bits_count32(hexes[0] & open) +
		    board_bits_count32(hexes[1] & open) + board_bits_count32(hexes[2] & open) +
		    board_bits_count32(hexes[3] & open);
	add_piece(t, PIECE_ROBBER, type, count, 0, 0);
}

/* A listing that counts and writes nothing. */
#define COUNTER                       \
	{                             \
		NULL, 0, 0, 0, {0}, 0 \
	}

static int year_of_plenty_count(const struct game *g)
{
	struct move_list counter = COUNTER;
	add_year_of_plenty(&counter, g);
	return counter.count;
}

static int trade_moves_count(const struct game *g, int seat)
{
	struct move_list counter = COUNTER;
	add_trade_moves(&counter, g, seat);
	return counter.count;
}

/* The maritime trades giving `give` (held of it, at these rates): for each resource
 * wanted and rate, as many as the hand pays for and the bank holds. `fewest` is the bank's
 * smallest count: when every rate's quotient is within it, no count needs the bank's. */
static int maritime_count_of(const struct game *g, int give, int held, unsigned rates, int fewest)
{
	int count = 0;
	for (unsigned left = rates; left; left &= left - 1) {
		int rate = __builtin_ctz(left);
		int paid = held / rate;
		if (paid <= fewest) {
			count += (RESOURCE_COUNT - 1) * paid;
			continue;
		}
		for (int want = 0; want < RESOURCE_COUNT; want++)
			if (want != give)
				count += paid < g->bank[want] ? paid : g->bank[want];
	}
	return count;
}

static inline unsigned maritime_rates_of(unsigned harbor_kinds, int give, int held)
{
	unsigned affordable = held >= 4 ? 0x1fu : (2u << held) - 1; /* rates are 2..4 */
	return game_maritime_rates_from(harbor_kinds, give) & affordable;
}

static int bank_fewest(const struct game *g)
{
	int fewest = g->bank[0];
	for (int r = 1; r < RESOURCE_COUNT; r++)
		if (g->bank[r] < fewest)
			fewest = g->bank[r];
	return fewest;
}

/* add_maritime_trades()'s count, without listing. */
static int maritime_count(const struct game *g, int seat, unsigned harbor_kinds)
{
	const uint8_t *hand = g->players[seat].resources;
	int fewest = bank_fewest(g), count = 0;
	for (int give = 0; give < RESOURCE_COUNT; give++)
		if (hand[give] >= 2)
			count += maritime_count_of(g, give, hand[give],
						   maritime_rates_of(harbor_kinds, give, hand[give]), fewest);
	return count;
}

/* add_maritime_trades()'s index-th move: the same order (give, want, rate, cards taken),
 * whole gives skipped by their count. */
__attribute__((noinline)) static void maritime_move(const struct game *g, int seat, unsigned harbor_kinds, int index,
						    struct command *move)
{
	const uint8_t *hand = g->players[seat].resources;
	int fewest = bank_fewest(g);
	for (int give = 0; give < RESOURCE_COUNT; give++) {
		int held = hand[give];
		if (held < 2)
			continue;
		unsigned rates = maritime_rates_of(harbor_kinds, give, held);
		int here = maritime_count_of(g, give, held, rates, fewest);
		if (index >= here) {
			index -= here;
			continue;
		}
		for (int want = 0; want < RESOURCE_COUNT; want++) {
			if (want == give)
				continue;
			for (unsigned left = rates; left; left &= left - 1) {
				int rate = __builtin_ctz(left);
				int taken = held / rate < g->bank[want] ? held / rate : g->bank[want];
				if (index < taken) {
					*move = command_blank;
					move->type = COMMAND_MARITIME_TRADE;
					move->give[give] = (uint8_t)((index + 1) * rate);
					move->want[want] = (uint8_t)(index + 1);
					return;
				}
				index -= taken;
			}
		}
	}
}

static void add_maritime_piece(struct legal_tally *t, const struct game *g, int seat)
{
	const uint8_t *hand = g->players[seat].resources;
	if (hand[0] < 2 && hand[1] < 2 && hand[2] < 2 && hand[3] < 2 && hand[4] < 2)
		return; /* no rate is below 2 */
	t->harbor_kinds = game_harbor_kinds(g, seat);
	add_piece(t, PIECE_MARITIME, COMMAND_MARITIME_TRADE, maritime_count(g, seat, t->harbor_kinds), 0, 0);
}

static void add_development_pieces(struct legal_tally *t, const struct game *g, int seat)
{
	if (!may_play_development(g, seat))
		return;
	const struct game_player *player = &g->players[seat];
	for (int kind = 0; kind < DEVELOPMENT_VICTORY_POINT; kind++) {
		if (player->development_cards[kind] <= player->bought_this_turn[kind])
			continue;
		switch (kind) {
		case DEVELOPMENT_KNIGHT:
			add_robber_piece(t, g, seat, COMMAND_PLAY_KNIGHT);
			break;
		case DEVELOPMENT_ROAD_BUILDING:
			add_piece(t, PIECE_ROAD_BUILDING, COMMAND_PLAY_ROAD_BUILDING, road_building_count(g, seat), 0,
				  0);
			break;
		case DEVELOPMENT_YEAR_OF_PLENTY:
			add_piece(t, PIECE_YEAR_OF_PLENTY, COMMAND_PLAY_YEAR_OF_PLENTY, year_of_plenty_count(g), 0, 0);
			break;
		case DEVELOPMENT_MONOPOLY:
			add_piece(t, PIECE_MONOPOLY, COMMAND_PLAY_MONOPOLY, RESOURCE_COUNT, 0, 0);
			break;
		default:
			break;
		}
	}
}

static void add_trade_piece(struct legal_tally *t, const struct game *g, int seat)
{
	if (g->next_offer_id <= 1)
		return; /* as add_trade_moves() */
	add_piece(t, PIECE_TRADES, COMMAND_CONFIRM_TRADE, trade_moves_count(g, seat), 0, 0);
}

/* add_main_moves() without the offer template, piece by piece. */
static void add_main_pieces(struct legal_tally *t, const struct game *g, int seat)
{
	const struct game_player *player = &g->players[seat];
	const uint8_t *hand = player->resources;
	if (player->settlements_left && resource_covers(hand, game_cost_settlement))
		add_node_piece(t, COMMAND_BUILD_SETTLEMENT, placement_settlement_nodes(g, seat));
	if (player->roads_left && resource_covers(hand, game_cost_road))
		add_edge_piece(t, placement_road_edges(g, seat));
	if (player->cities_left && resource_covers(hand, game_cost_city))
		add_node_piece(t, COMMAND_BUILD_CITY, placement_city_nodes(g, seat));
	if (resource_total(g->deck) && resource_covers(hand, game_cost_development))
		add_piece(t, PIECE_ONE, COMMAND_BUY_DEVELOPMENT_CARD, 1, 0, 0);
	add_development_pieces(t, g, seat);
	add_maritime_piece(t, g, seat);
	add_trade_piece(t, g, seat);
	add_piece(t, PIECE_ONE, COMMAND_END_TURN, 1, 0, 0);
}

int legal_tally_except_offers(const struct game *g, int seat, struct legal_tally *t)
{
	t->count = 0;
	t->pieces = 0;
	if (!game_in_progress(g) || seat < 0 || seat >= g->options.seats)
		return 0;
	int active = seat == g->turn_seat;
	switch (g->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		if (active)
			add_node_piece(t, COMMAND_BUILD_SETTLEMENT, placement_open_nodes(g));
		break;
	case GAME_PHASE_SETUP_ROAD:
		if (active)
			add_edge_piece(t, placement_setup_road_edges(g, g->setup_node));
		break;
	case GAME_PHASE_ROLL:
		if (active) {
			add_piece(t, PIECE_ONE, COMMAND_ROLL, 1, 0, 0);
			add_development_pieces(t, g, seat);
		}
		break;
	case GAME_PHASE_DISCARD:
		if (g->players[seat].discard_owed)
			add_piece(t, PIECE_ONE, COMMAND_DISCARD, 1, 0, 0);
		break;
	case GAME_PHASE_MOVE_ROBBER:
		if (active)
			add_robber_piece(t, g, seat, COMMAND_MOVE_ROBBER);
		break;
	case GAME_PHASE_MAIN:
		if (active)
			add_main_pieces(t, g, seat);
		else
			add_trade_piece(t, g, seat);
		break;
	default:
		break;
	}
	return t->count;
}

/* The index-th set bit of `bits` (there are more than index). */
static int nth_bit(uint64_t bits, int index)
{
	while (index-- > 0)
		bits &= bits - 1;
	return __builtin_ctzll(bits);
}

__attribute__((noinline)) static void robber_move(const struct game *g, const struct legal_tally *t,
						  enum command_type type, int index, struct command *move)
{
	static const uint8_t seats_in[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
	uint8_t victims[BOARD_HEXES + 1] = {0};
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		for (uint32_t hexes = t->hexes[s]; hexes; hexes &= hexes - 1)
			victims[__builtin_ctz(hexes)] |= (uint8_t)(1u << s);
	*move = command_blank;
	move->type = (uint8_t)type;
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		if (hex == g->robber)
			continue;
		int here = victims[hex] ? seats_in[victims[hex]] : 1;
		if (index < here) {
			move->hex = (int8_t)hex;
			if (victims[hex])
				move->victim = (int8_t)nth_bit(victims[hex], index);
			return;
		}
		index -= here;
	}
}

/* The rarer pieces: their own listing, writing only its index-th move. */
__attribute__((noinline)) static void listed_move(const struct game *g, int seat, enum piece_kind kind, int index,
						  struct command *move)
{
	struct move_list one = {move, index, 1, 0, {0}, 0};
	if (kind == PIECE_ROAD_BUILDING)
		add_road_building(&one, g, seat);
	else if (kind == PIECE_YEAR_OF_PLENTY)
		add_year_of_plenty(&one, g);
	else
		add_trade_moves(&one, g, seat);
}

void legal_tally_move(const struct game *g, int seat, const struct legal_tally *t, int index, struct command *move)
{
	const struct legal_piece *piece = t->piece;
	while (index >= piece->count)
		index -= (piece++)->count;
	switch (piece->kind) {
	case PIECE_NODES:
		*move = command_blank;
		move->type = piece->type;
		move->node = (int8_t)nth_bit(piece->bits[0], index);
		break;
	case PIECE_EDGES: {
		int low = board_bits_count64(piece->bits[0]);
		*move = command_blank;
		move->type = COMMAND_BUILD_ROAD;
		move->edge = (int8_t)(index < low ? nth_bit(piece->bits[0], index)
						  : 64 + nth_bit(piece->bits[1], index - low));
		break;
	}
	case PIECE_ONE:
		*move = command_blank;
		move->type = piece->type;
		if (piece->type == COMMAND_ROLL) {
			move->is_template = g->options.dice == GAME_DICE_MANUAL;
		} else if (piece->type == COMMAND_DISCARD) {
			move->is_template = 1;
			move->count = g->players[seat].discard_owed;
		}
		break;
	case PIECE_ROBBER:
		robber_move(g, t, (enum command_type)piece->type, index, move);
		break;
	case PIECE_ROAD_BUILDING:
	case PIECE_YEAR_OF_PLENTY:
	case PIECE_TRADES:
		listed_move(g, seat, (enum piece_kind)piece->kind, index, move);
		break;
	case PIECE_MONOPOLY:
		*move = command_blank;
		move->type = COMMAND_PLAY_MONOPOLY;
		move->resource = (uint8_t)index;
		break;
	case PIECE_MARITIME:
		maritime_move(g, seat, t->harbor_kinds, index, move);
		break;
	default:
		break;
	}
}
