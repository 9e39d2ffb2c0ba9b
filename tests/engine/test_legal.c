/*
 * test_legal.c - legal_moves() in specific positions: the list is exactly what the rules
 * allow, each choice once.
 *
 * The expected lists are computed here from the board arrays and RULES.md (distance rule,
 * road connection, robber victims), not from placement.c, so a wrong placement query shows
 * up as a difference. test_properties.c checks agreement with rules_decide() over random
 * games; these tests check the lists against the rules themselves.
 */
#include "tests/check_main.h"

#include <string.h>

#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"
#include "tests/engine/support.h"

static struct command moves[LEGAL_MOVES_MAX];

static int list(const struct game *game, int seat)
{
	int count = legal_moves(game, seat, moves, LEGAL_MOVES_MAX);
	ck_assert_int_le(count, LEGAL_MOVES_MAX);
	return count;
}

static int count_type(int count, int type)
{
	int found = 0;
	for (int i = 0; i < count; i++)
		found += moves[i].type == type;
	return found;
}

/* The nodes listed for settlement moves, as a mask; each listed once. */
static uint64_t listed_nodes(int count, int type)
{
	uint64_t nodes = 0;
	for (int i = 0; i < count; i++) {
		if (moves[i].type != type)
			continue;
		uint64_t bit = UINT64_C(1) << moves[i].node;
		ck_assert_msg(!(nodes & bit), "node %d listed twice", moves[i].node);
		nodes |= bit;
	}
	return nodes;
}

static struct board_edge_set listed_roads(int count)
{
	struct board_edge_set edges = {{0, 0}};
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_BUILD_ROAD)
			continue;
		ck_assert_msg(!board_edge_set_has(&edges, moves[i].edge), "edge %d listed twice", moves[i].edge);
		board_edge_set_add(&edges, moves[i].edge);
	}
	return edges;
}

/* Distance rule from the arrays: the node and all its neighbours empty. */
static uint64_t open_nodes(const struct game *game)
{
	uint64_t open = 0;
	for (int n = 0; n < BOARD_NODES; n++) {
		int free = !game->node_owner[n];
		for (int k = 0; k < 3; k++)
			if (board_node_neighbors[n][k] >= 0 && game->node_owner[board_node_neighbors[n][k]])
				free = 0;
		if (free)
			open |= UINT64_C(1) << n;
	}
	return open;
}

/* RULES.md 4: an empty path touching the seat's building, or its road at an intersection
 * with no opponent's building. `extra` (or -1) counts as the seat's road already. */
static int road_allowed(const struct game *game, int seat, int edge, int extra)
{
	if (game->edge_owner[edge] || edge == extra)
		return 0;
	for (int end = 0; end < 2; end++) {
		int node = board_edge_nodes[edge][end];
		if (game->node_owner[node] == seat + 1)
			return 1;
		if (game->node_owner[node])
			continue;
		for (int k = 0; k < 3; k++) {
			int other = board_node_edges[node][k];
			if (other >= 0 && other != edge && (game->edge_owner[other] == seat + 1 || other == extra))
				return 1;
		}
	}
	return 0;
}

static struct board_edge_set allowed_roads(const struct game *game, int seat, int extra)
{
	struct board_edge_set edges = {{0, 0}};
	for (int e = 0; e < BOARD_EDGES; e++)
		if (road_allowed(game, seat, e, extra))
			board_edge_set_add(&edges, e);
	return edges;
}

static int same_edges(struct board_edge_set a, struct board_edge_set b)
{
	return a.word[0] == b.word[0] && a.word[1] == b.word[1];
}

static void assert_accepted(const struct game *game, int seat, const struct command *command)
{
	struct event_list events;
	struct rng rng;
	rng_init(&rng, 1, game->version);
	enum error error = rules_decide(game, seat, command, &rng, &events, NULL);
	ck_assert_msg(error == ERROR_OK, "%s by seat %d refused: %s", command_type_name(command->type), seat,
		      error_code(error));
}

/* Turn 1, seat 0 in the main phase (after a roll of 5), every hand empty. */
static void main_phase(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
	support_roll(game, 2, 3);
	for (int s = 0; s < 4; s++)
		support_set_hand(game, s, 0, 0, 0, 0, 0);
}

START_TEST(test_setup_lists_every_open_node_for_the_drafting_seat_only)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	int count = list(&game, 0);
	ck_assert_int_eq(count, BOARD_NODES);
	ck_assert(listed_nodes(count, COMMAND_BUILD_SETTLEMENT) == (UINT64_C(1) << BOARD_NODES) - 1);
	for (int s = 1; s < 4; s++)
		ck_assert_int_eq(list(&game, s), 0);
	ck_assert_int_eq(legal_waiting_for(&game), 1);

	/* Draft three placements; each time the list is exactly the open nodes. */
	static const int placements[3][2] = {{20, 31}, {23, 35}, {42, 53}};
	for (int step = 0; step < 3; step++) {
		int seat = game.turn_seat;
		struct command c = support_build(COMMAND_BUILD_SETTLEMENT, placements[step][0]);
		support_ok(&game, seat, &c, NULL);
		c = support_build(COMMAND_BUILD_ROAD, placements[step][1]);
		support_ok(&game, seat, &c, NULL);
		count = list(&game, game.turn_seat);
		ck_assert_int_eq(count_type(count, COMMAND_BUILD_SETTLEMENT), count);
		ck_assert(listed_nodes(count, COMMAND_BUILD_SETTLEMENT) == open_nodes(&game));
	}
	/* 3 settlements with 2 or 3 neighbours each block 54 - 3 - 8 nodes at most. */
	ck_assert_int_lt(count, BOARD_NODES - 3);
}
END_TEST

START_TEST(test_setup_road_lists_only_the_edges_at_the_settlement_just_placed)
{
	static const int nodes[] = {0, 12, 26, 30}; /* 2, 3, 2 and 3 edges */
	for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
		struct game game;
		support_new_game(&game, 3, GAME_LAYOUT_BEGINNER);
		struct command c = support_build(COMMAND_BUILD_SETTLEMENT, nodes[i]);
		support_ok(&game, 0, &c, NULL);
		int count = list(&game, 0);
		struct board_edge_set expected = {{0, 0}};
		int edges = 0;
		for (int k = 0; k < 3; k++) {
			if (board_node_edges[nodes[i]][k] >= 0) {
				board_edge_set_add(&expected, board_node_edges[nodes[i]][k]);
				edges++;
			}
		}
		ck_assert_int_eq(count, edges);
		ck_assert(same_edges(listed_roads(count), expected));
		ck_assert_int_eq(list(&game, 1), 0);
	}
}
END_TEST

START_TEST(test_roll_phase_lists_the_roll_and_playable_cards_only)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	int count = list(&game, 0);
	ck_assert_int_eq(count, 1);
	ck_assert_int_eq(moves[0].type, COMMAND_ROLL);
	ck_assert_int_eq(moves[0].is_template, 1); /* manual dice: the caller picks them */
	for (int s = 1; s < 4; s++)
		ck_assert_int_eq(list(&game, s), 0);

	support_give_development(&game, 0, DEVELOPMENT_MONOPOLY, 1);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 1);
	count = list(&game, 0);
	ck_assert_int_eq(count, 1 + RESOURCE_COUNT);
	ck_assert_int_eq(count_type(count, COMMAND_ROLL), 1);
	ck_assert_int_eq(count_type(count, COMMAND_PLAY_MONOPOLY), RESOURCE_COUNT);

	/* With random dice the roll is a plain move with no dice. */
	struct game_options options;
	rules_default_options(&options);
	options.first_seat = 0;
	support_new_game_with(&game, &options);
	support_standard_draft(&game);
	count = list(&game, 0);
	ck_assert_int_eq(count, 1);
	ck_assert_int_eq(moves[0].is_template, 0);
	ck_assert_int_eq(moves[0].dice[0], 0);
	assert_accepted(&game, 0, &moves[0]);
}
END_TEST

START_TEST(test_robber_lists_every_other_hex_with_one_move_per_victim)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 1, 1, 0, 0, 0);
	support_set_hand(&game, 2, 0, 0, 2, 0, 0);
	support_set_hand(&game, 3, 0, 0, 0, 0, 0); /* nothing to steal from seat 3 */
	support_roll(&game, 3, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_MOVE_ROBBER);
	int count = list(&game, 0);

	int expected = 0, two_victims = 0;
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		uint8_t victims = 0;
		for (int k = 0; k < 6; k++) {
			int owner = game.node_owner[board_hex_nodes[hex][k]] - 1;
			if (owner > 0 && game_resource_count(&game, owner) > 0)
				victims |= (uint8_t)(1u << owner);
		}
		int moves_here = 0;
		for (int i = 0; i < count; i++) {
			if (moves[i].hex != hex)
				continue;
			ck_assert_int_eq(moves[i].type, COMMAND_MOVE_ROBBER);
			if (victims) {
				ck_assert_msg(moves[i].victim >= 0 && (victims >> moves[i].victim & 1u),
					      "hex %d victim %d", hex, moves[i].victim);
				victims &= (uint8_t) ~(1u << moves[i].victim); /* once each */
			} else {
				ck_assert_int_eq(moves[i].victim, -1);
			}
			moves_here++;
		}
		ck_assert_msg(victims == 0, "hex %d: a victim is missing", hex);
		if (hex == game.robber) {
			ck_assert_int_eq(moves_here, 0);
			continue;
		}
		ck_assert_int_ge(moves_here, 1);
		expected += moves_here;
		two_victims += moves_here == 2;
	}
	ck_assert_int_eq(count, expected);
	ck_assert_int_gt(two_victims, 0); /* hex 4: seats 1 (node 13) and 2 (node 12) */
	/* Hex 2 touches only seat 3 (node 14), whose hand is empty: one move, no victim. */
	int on_hex_2 = 0;
	for (int i = 0; i < count; i++)
		if (moves[i].hex == 2)
			on_hex_2 += moves[i].victim == -1 ? 1 : 100;
	ck_assert_int_eq(on_hex_2, 1);
	ck_assert_int_eq(list(&game, 1), 0);
	for (int i = 0; i < count; i++)
		assert_accepted(&game, 0, &moves[i]);
}
END_TEST

START_TEST(test_discard_template_for_each_owing_seat_only)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	support_set_hand(&game, 0, 1, 1, 1, 1, 3); /* 7: owes nothing */
	support_set_hand(&game, 1, 2, 2, 2, 2, 0); /* 8: owes 4 */
	support_set_hand(&game, 2, 0, 0, 0, 0, 9); /* 9: owes 4 */
	support_set_hand(&game, 3, 0, 0, 0, 0, 0);
	support_roll(&game, 5, 2);
	ck_assert_int_eq(game.phase, GAME_PHASE_DISCARD);
	ck_assert_int_eq(legal_waiting_for(&game), (1 << 1) | (1 << 2));
	ck_assert_int_eq(list(&game, 0), 0);
	ck_assert_int_eq(list(&game, 3), 0);
	for (int s = 1; s <= 2; s++) {
		ck_assert_int_eq(list(&game, s), 1);
		ck_assert_int_eq(moves[0].type, COMMAND_DISCARD);
		ck_assert_int_eq(moves[0].is_template, 1);
		ck_assert_int_eq(moves[0].count, 4);
	}
	struct command discard = support_command(COMMAND_DISCARD);
	discard.resources[RESOURCE_BRICK] = 2;
	discard.resources[RESOURCE_GRAIN] = 2;
	support_ok(&game, 1, &discard, NULL);
	ck_assert_int_eq(list(&game, 1), 0);
	ck_assert_int_eq(legal_waiting_for(&game), 1 << 2);
}
END_TEST

START_TEST(test_main_phase_lists_exactly_the_affordable_builds)
{
	struct game game;
	main_phase(&game);
	/* Nothing in hand: only ending the turn. */
	int count = list(&game, 0);
	ck_assert_int_eq(count, 1);
	ck_assert_int_eq(moves[0].type, COMMAND_END_TURN);

	/* A road's cost: every allowed path, nothing else but end_turn and an offer. */
	support_set_hand(&game, 0, 1, 1, 0, 0, 0);
	count = list(&game, 0);
	struct board_edge_set roads = listed_roads(count);
	ck_assert(same_edges(roads, allowed_roads(&game, 0, -1)));
	ck_assert_int_eq(count, board_edge_set_count(&roads) + 2);
	ck_assert_int_eq(count_type(count, COMMAND_END_TURN), 1);
	ck_assert_int_eq(count_type(count, COMMAND_OFFER_TRADE), 1);

	/* Settlement and city costs: connected open nodes, own settlements. */
	support_place_road(&game, 0, support_edge_between(44, 48));
	support_place_road(&game, 0, support_edge_between(48, 51));
	support_set_hand(&game, 0, 1, 1, 1, 3, 3);
	count = list(&game, 0);
	uint64_t sites = listed_nodes(count, COMMAND_BUILD_SETTLEMENT);
	ck_assert(sites == (UINT64_C(1) << 51)); /* 48 is next to 44; 51 is two away */
	ck_assert(listed_nodes(count, COMMAND_BUILD_CITY) == ((UINT64_C(1) << 43) | (UINT64_C(1) << 44)));
	ck_assert_int_eq(count_type(count, COMMAND_BUY_DEVELOPMENT_CARD), 1);
	for (int i = 0; i < count; i++) {
		struct command move = moves[i];
		if (move.is_template)
			continue;
		assert_accepted(&game, 0, &move);
	}
	/* Another seat, off turn, may only make an offer (it holds cards) in the main phase. */
	support_set_hand(&game, 2, 0, 0, 1, 0, 0);
	ck_assert_int_eq(list(&game, 2), 1);
	ck_assert_int_eq(moves[0].type, COMMAND_OFFER_TRADE);
}
END_TEST

START_TEST(test_maritime_trades_listed_at_every_rate_the_hand_pays)
{
	struct game game;
	main_phase(&game);
	/* 4 brick at 4:1: brick for each of the 4 other kinds. */
	support_set_hand(&game, 0, 4, 0, 0, 0, 0);
	int count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_MARITIME_TRADE), 4);
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_MARITIME_TRADE)
			ck_assert_int_eq(moves[i].give[RESOURCE_BRICK], 4);
	/* A settlement on the wool 2:1 harbor (slot 2, nodes 1 and 5) and 3 brick, 2 wool. */
	support_place_settlement(&game, 0, 1);
	support_set_hand(&game, 0, 3, 0, 2, 0, 0);
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_MARITIME_TRADE), 4); /* wool 2:1; brick needs 4 */
	support_place_settlement(&game, 0, 3);				/* generic 3:1 (slot 1, nodes 0 and 3) */
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_MARITIME_TRADE), 8);
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_MARITIME_TRADE)
			continue;
		ck_assert(moves[i].give[RESOURCE_BRICK] == 3 || moves[i].give[RESOURCE_WOOL] == 2);
		assert_accepted(&game, 0, &moves[i]);
	}
	/* 4 brick (3:1, 4:1) and 4 wool (2:1 once or twice, 3:1, 4:1): every rate is listed. */
	support_set_hand(&game, 0, 4, 0, 4, 0, 0);
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_MARITIME_TRADE), 4 * 2 + 4 * 4);
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_MARITIME_TRADE)
			assert_accepted(&game, 0, &moves[i]);
}
END_TEST

/* The bank's last card of a kind: listed once wherever one card of it is taken (a maritime
 * trade for one card, year of plenty with another kind), never where two are. */
START_TEST(test_bank_holding_one_card_of_a_kind_lists_it_for_one_card_only)
{
	struct game game;
	main_phase(&game);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 1);
	support_set_hand(&game, 0, 8, 0, 0, 0, 0);
	support_set_bank(&game, RESOURCE_ORE, 1, 1);
	int count = list(&game, 0);
	/* Year of plenty: 4 doubles (not ore) and 10 mixed pairs. */
	ck_assert_int_eq(count_type(count, COMMAND_PLAY_YEAR_OF_PLENTY), 14);
	/* Maritime brick at 4:1: 1 or 2 cards of lumber, wool, grain, only 1 of ore. */
	ck_assert_int_eq(count_type(count, COMMAND_MARITIME_TRADE), 7);
	int ore_trades = 0, ore_plenty = 0;
	for (int i = 0; i < count; i++) {
		if (moves[i].type == COMMAND_MARITIME_TRADE && moves[i].want[RESOURCE_ORE]) {
			ck_assert_int_eq(moves[i].want[RESOURCE_ORE], 1);
			ck_assert_int_eq(moves[i].give[RESOURCE_BRICK], 4);
			ore_trades++;
		}
		if (moves[i].type == COMMAND_PLAY_YEAR_OF_PLENTY && moves[i].resources[RESOURCE_ORE]) {
			ck_assert_int_eq(moves[i].resources[RESOURCE_ORE], 1);
			ore_plenty++;
		}
		if (moves[i].type == COMMAND_MARITIME_TRADE || moves[i].type == COMMAND_PLAY_YEAR_OF_PLENTY)
			assert_accepted(&game, 0, &moves[i]);
	}
	ck_assert_int_eq(ore_trades, 1);
	ck_assert_int_eq(ore_plenty, 4);
	struct command c = support_command(COMMAND_PLAY_YEAR_OF_PLENTY);
	c.resources[RESOURCE_ORE] = 2;
	support_refused(&game, 0, &c, ERROR_BANK_EMPTY);
	c = support_command(COMMAND_MARITIME_TRADE);
	c.give[RESOURCE_BRICK] = 8;
	c.want[RESOURCE_ORE] = 2;
	support_refused(&game, 0, &c, ERROR_BANK_EMPTY);
}
END_TEST

/* Unordered pairs {a, b} the rules allow for a road building card: a then b, or b then a. */
static int pair_allowed(const struct game *game, int seat, int a, int b)
{
	return (road_allowed(game, seat, a, -1) && road_allowed(game, seat, b, a)) ||
	       (road_allowed(game, seat, b, -1) && road_allowed(game, seat, a, b));
}

START_TEST(test_road_building_pairs_listed_once_and_accepted_in_both_orders)
{
	struct game game;
	main_phase(&game);
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	int count = list(&game, 0);
	static uint8_t listed[BOARD_EDGES][BOARD_EDGES];
	memset(listed, 0, sizeof listed);
	int pairs = 0;
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_PLAY_ROAD_BUILDING)
			continue;
		ck_assert_int_eq(moves[i].edge_count, 2);
		int a = moves[i].edges[0], b = moves[i].edges[1];
		ck_assert_msg(!listed[a][b], "pair %d %d listed twice", a, b);
		listed[a][b] = listed[b][a] = 1;
		pairs++;
		struct command reversed = moves[i];
		reversed.edges[0] = (int8_t)b;
		reversed.edges[1] = (int8_t)a;
		assert_accepted(&game, 0, &moves[i]);
		assert_accepted(&game, 0, &reversed);
	}
	int expected = 0;
	for (int a = 0; a < BOARD_EDGES; a++) {
		for (int b = a + 1; b < BOARD_EDGES; b++) {
			int allowed = pair_allowed(&game, 0, a, b);
			expected += allowed;
			ck_assert_msg(allowed == listed[a][b], "pair %d %d: allowed %d, listed %d", a, b, allowed,
				      listed[a][b]);
		}
	}
	ck_assert_int_eq(pairs, expected);
	ck_assert_int_gt(expected, 10);
}
END_TEST

START_TEST(test_road_building_with_one_road_left_lists_single_roads)
{
	struct game game;
	main_phase(&game);
	/* Grow seat 0's network until one road piece is left. */
	while (game.players[0].roads_left > 1) {
		struct board_edge_set open = allowed_roads(&game, 0, -1);
		int edge = 0;
		while (!board_edge_set_has(&open, edge))
			edge++;
		support_place_road(&game, 0, edge);
	}
	support_give_development(&game, 0, DEVELOPMENT_ROAD_BUILDING, 1);
	int count = list(&game, 0);
	struct board_edge_set singles = {{0, 0}};
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_PLAY_ROAD_BUILDING)
			continue;
		ck_assert_int_eq(moves[i].edge_count, 1);
		ck_assert(!board_edge_set_has(&singles, moves[i].edges[0]));
		board_edge_set_add(&singles, moves[i].edges[0]);
		assert_accepted(&game, 0, &moves[i]);
	}
	ck_assert(same_edges(singles, allowed_roads(&game, 0, -1)));
	ck_assert_int_gt(board_edge_set_count(&singles), 0);

	/* And with none left, the card is played for nothing: one move, no edges. */
	struct board_edge_set open = allowed_roads(&game, 0, -1);
	int edge = 0;
	while (!board_edge_set_has(&open, edge))
		edge++;
	support_place_road(&game, 0, edge);
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_PLAY_ROAD_BUILDING), 1);
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_PLAY_ROAD_BUILDING)
			ck_assert_int_eq(moves[i].edge_count, 0);
	ck_assert_int_eq(count_type(count, COMMAND_BUILD_ROAD), 0);
}
END_TEST

START_TEST(test_year_of_plenty_lists_what_the_bank_can_pay)
{
	struct game game;
	main_phase(&game);
	support_give_development(&game, 0, DEVELOPMENT_YEAR_OF_PLENTY, 1);
	int count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_PLAY_YEAR_OF_PLENTY), 15); /* 5 doubles + 10 mixed pairs */

	/* Bank: 1 brick and 5 ore; the rest parked in seats 1..3's hands. */
	support_set_hand(&game, 1, 18, 19, 0, 0, 0);
	support_set_hand(&game, 2, 0, 0, 19, 0, 0);
	support_set_hand(&game, 3, 0, 0, 0, 19, 14);
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_PLAY_YEAR_OF_PLENTY), 2);
	for (int i = 0; i < count; i++) {
		if (moves[i].type != COMMAND_PLAY_YEAR_OF_PLENTY)
			continue;
		ck_assert_int_eq(resource_total(moves[i].resources), 2);
		ck_assert_int_eq(moves[i].resources[RESOURCE_BRICK] + moves[i].resources[RESOURCE_ORE], 2);
		ck_assert_int_le(moves[i].resources[RESOURCE_BRICK], 1);
		assert_accepted(&game, 0, &moves[i]);
	}
	/* One card in the bank: take that one. */
	support_set_hand(&game, 3, 0, 0, 0, 19, 19);
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_PLAY_YEAR_OF_PLENTY), 1);
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_PLAY_YEAR_OF_PLENTY)
			ck_assert(moves[i].resources[RESOURCE_BRICK] == 1 && resource_total(moves[i].resources) == 1);
}
END_TEST

START_TEST(test_trade_answers_listed_for_addressed_seats)
{
	struct game game;
	main_phase(&game);
	support_set_hand(&game, 0, 1, 0, 0, 0, 0);
	support_set_hand(&game, 1, 0, 0, 0, 0, 1);
	support_set_hand(&game, 2, 0, 0, 0, 0, 1);
	struct command offer = support_command(COMMAND_OFFER_TRADE);
	offer.give[RESOURCE_BRICK] = 1;
	offer.want[RESOURCE_ORE] = 1;
	offer.to = 1 << 1;
	support_ok(&game, 0, &offer, NULL);

	int count = list(&game, 1);
	ck_assert_int_eq(count_type(count, COMMAND_ACCEPT_TRADE), 1);
	ck_assert_int_eq(count_type(count, COMMAND_DECLINE_TRADE), 1);
	ck_assert_int_eq(count_type(count, COMMAND_OFFER_TRADE), 1); /* a counter-offer */
	count = list(&game, 2);					     /* not addressed */
	ck_assert_int_eq(count, 1);
	ck_assert_int_eq(moves[0].type, COMMAND_OFFER_TRADE);
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_WITHDRAW_TRADE), 1);
	ck_assert_int_eq(count_type(count, COMMAND_CONFIRM_TRADE), 0);

	struct command accept = support_command(COMMAND_ACCEPT_TRADE);
	accept.trade = 1;
	support_ok(&game, 1, &accept, NULL);
	ck_assert_int_eq(count_type(list(&game, 1), COMMAND_ACCEPT_TRADE), 0);
	count = list(&game, 0);
	ck_assert_int_eq(count_type(count, COMMAND_CONFIRM_TRADE), 1);
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_CONFIRM_TRADE)
			ck_assert(moves[i].trade == 1 && moves[i].with == 1);
}
END_TEST

START_TEST(test_nothing_is_listed_before_creation_or_after_the_win)
{
	struct game game;
	memset(&game, 0, sizeof game);
	game.options.seats = 4;
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(legal_moves(&game, s, moves, LEGAL_MOVES_MAX), 0);
	ck_assert_int_eq(legal_waiting_for(&game), 0);

	main_phase(&game);
	support_place_city(&game, 0, 44);
	support_place_city(&game, 0, 43);
	support_place_settlement(&game, 0, 0);
	support_give_development(&game, 0, DEVELOPMENT_VICTORY_POINT, 5);
	struct command end = support_command(COMMAND_END_TURN);
	support_ok(&game, 0, &end, NULL); /* seat 0 has 10 but it is no longer its turn */
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	support_roll(&game, 2, 3);
	support_ok(&game, 1, &end, NULL);
	support_roll(&game, 2, 3);
	support_ok(&game, 2, &end, NULL);
	support_roll(&game, 2, 3);
	support_ok(&game, 3, &end, NULL); /* the turn passes to seat 0, which wins at once */
	ck_assert_int_eq(game.phase, GAME_PHASE_FINISHED);
	ck_assert_int_eq(game.winner, 0);
	for (int s = 0; s < 4; s++)
		ck_assert_int_eq(legal_moves(&game, s, moves, LEGAL_MOVES_MAX), 0);
	ck_assert_int_eq(legal_waiting_for(&game), 0);
}
END_TEST

START_TEST(test_capacity_is_respected_and_the_full_count_returned)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	struct command few[5];
	memset(few, 0x77, sizeof few);
	ck_assert_int_eq(legal_moves(&game, 0, few, 4), BOARD_NODES);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(few[i].type, COMMAND_BUILD_SETTLEMENT);
	ck_assert_int_eq(few[4].type, 0x77); /* nothing written past capacity */
	ck_assert_int_eq(legal_moves(&game, 0, NULL, 0), BOARD_NODES);
}
END_TEST

/* Over random games with domestic trades (offers open and answered), every seat's list
 * without offers is its full list with the offer template taken out, in the same order. */
START_TEST(test_list_without_offers_is_the_full_list_less_the_offer_template)
{
	static struct command all[LEGAL_MOVES_MAX], without[LEGAL_MOVES_MAX];
	struct playout_options choices = {1};
	long compared = 0, dropped = 0;
	for (int index = 0; index < 20; index++) {
		struct game_options options;
		rules_default_options(&options);
		options.layout = (uint8_t)(index & 1);
		struct playout_game playout;
		struct event_list events;
		ck_assert_int_eq(playout_start(&playout, &options, &choices, 77 + (uint64_t)index, 5, &events),
				 ERROR_OK);
		int seat;
		struct command command;
		enum error refused;
		for (int step = 0; step < 3000; step++) {
			const struct game *g = &playout.state;
			for (int s = 0; s < g->options.seats; s++) {
				int full = legal_moves(g, s, all, LEGAL_MOVES_MAX);
				int fewer = legal_moves_except_offers(g, s, without, LEGAL_MOVES_MAX);
				int kept = 0;
				for (int i = 0; i < full; i++)
					if (all[i].type != COMMAND_OFFER_TRADE)
						all[kept++] = all[i];
				ck_assert_int_eq(fewer, kept);
				ck_assert(memcmp(all, without, sizeof all[0] * (size_t)kept) == 0);
				compared++;
				dropped += full - kept;
			}
			if (playout_step(&playout, all, &seat, &command, &events, &refused) != PLAYOUT_MOVED)
				break;
		}
	}
	ck_assert_int_gt(dropped, 1000); /* offer templates were there to leave out */
	ck_assert_int_gt(compared, 100000);
}
END_TEST

/* Over random games with and without domestic trades, every seat's tally counts its list
 * without offers, and every index of it builds the very command listed there, byte for
 * byte: random play draws from the tally without writing the list. Each kind of move is
 * met (so none of the tally's pieces goes unchecked). */
START_TEST(test_tally_builds_each_listed_move_at_its_index)
{
	static struct command listed[LEGAL_MOVES_MAX];
	long compared = 0, kinds[COMMAND_TYPE_COUNT] = {0};
	for (int index = 0; index < 24; index++) {
		struct playout_options choices = {index % 3 == 0};
		struct game_options options;
		rules_default_options(&options);
		options.layout = (uint8_t)(index & 1);
		options.seats = (uint8_t)(index % 4 == 1 ? 3 : 4);
		options.edition = (uint8_t)(index % 5 == 2 ? GAME_EDITION_2025 : GAME_EDITION_CLASSIC);
		struct playout_game playout;
		struct event_list events;
		ck_assert_int_eq(playout_start(&playout, &options, &choices, 4242 + (uint64_t)index, 9, &events),
				 ERROR_OK);
		int seat;
		struct command command;
		enum error refused;
		for (int step = 0; step < 4000; step++) {
			const struct game *g = &playout.state;
			for (int s = -1; s <= g->options.seats; s++) {
				int count = legal_moves_except_offers(g, s, listed, LEGAL_MOVES_MAX);
				struct legal_tally tally;
				ck_assert_int_eq(legal_tally_except_offers(g, s, &tally), count);
				ck_assert_int_le(count, LEGAL_MOVES_MAX);
				for (int i = 0; i < count; i++) {
					struct command built;
					memset(&built, 0x5a, sizeof built);
					legal_tally_move(g, s, &tally, i, &built);
					ck_assert_msg(memcmp(&built, &listed[i], sizeof built) == 0,
						      "seat %d move %d of %d (%s) differs", s, i, count,
						      command_type_name(listed[i].type));
					kinds[listed[i].type]++;
					compared++;
				}
			}
			if (playout_step(&playout, listed, &seat, &command, &events, &refused) != PLAYOUT_MOVED)
				break;
		}
	}
	for (int type = 0; type < COMMAND_TYPE_COUNT; type++)
		if (type != COMMAND_OFFER_TRADE)
			ck_assert_msg(kinds[type] > 0, "no %s listed", command_type_name(type));
	ck_assert_int_gt(compared, 100000);
}
END_TEST

/* Over random games with and without domestic trades, every listed move of every seat
 * (templates filled) decided as a listed move gives what the full checks give: the same
 * events, byte for byte, and the same state after. */
START_TEST(test_listed_moves_decide_as_the_fully_checked_ones)
{
	static struct command listed[LEGAL_MOVES_MAX];
	static struct event_list checked_events, listed_events;
	long compared = 0, kinds[COMMAND_TYPE_COUNT] = {0};
	for (int index = 0; index < 16; index++) {
		struct playout_options choices = {index % 2 == 0};
		struct game_options options;
		rules_default_options(&options);
		options.layout = (uint8_t)(index & 1);
		options.seats = (uint8_t)(index % 4 == 1 ? 3 : 4);
		struct playout_game playout;
		struct event_list events;
		ck_assert_int_eq(playout_start(&playout, &options, &choices, 777 + (uint64_t)index, 11, &events),
				 ERROR_OK);
		struct rng filler;
		rng_init(&filler, 99, (uint64_t)index);
		int seat;
		struct command command;
		enum error refused;
		for (int step = 0; step < 3000; step++) {
			const struct game *g = &playout.state;
			for (int s = 0; s < g->options.seats; s++) {
				int count = legal_moves(g, s, listed, LEGAL_MOVES_MAX);
				for (int i = 0; i < count; i++) {
					struct command move = listed[i];
					playout_fill_template(g, s, &move, &filler);
					static struct game checked, fast;
					checked = *g;
					fast = *g;
					enum error full = rules_decide_seeded_in_place(&checked, playout.seed, s, &move,
										       &checked_events);
					enum error trusted = rules_decide_listed_seeded_in_place(&fast, playout.seed, s,
												 &move, &listed_events);
					ck_assert_int_eq(full, ERROR_OK);
					ck_assert_int_eq(trusted, ERROR_OK);
					ck_assert_int_eq(listed_events.count, checked_events.count);
					ck_assert(memcmp(listed_events.events, checked_events.events,
							 sizeof checked_events.events[0] *
								 (size_t)checked_events.count) == 0);
					ck_assert_msg(memcmp(&fast, &checked, sizeof fast) == 0, "%s: states differ",
						      command_type_name(move.type));
					kinds[move.type]++;
					compared++;
				}
			}
			if (playout_step(&playout, listed, &seat, &command, &events, &refused) != PLAYOUT_MOVED)
				break;
		}
	}
	for (int type = 0; type < COMMAND_TYPE_COUNT; type++)
		ck_assert_msg(kinds[type] > 0, "no %s decided", command_type_name(type));
	ck_assert_int_gt(compared, 100000);
}
END_TEST

/* Where the bank holds fewer cards of a kind than the hand could buy of it (and of no kind,
 * and of the kind given), the tally counts and builds what the list holds: the trades are cut
 * at the bank's cards, kind by kind. */
START_TEST(test_tally_cuts_maritime_trades_at_the_bank)
{
	static struct command listed[LEGAL_MOVES_MAX];
	struct game game;
	main_phase(&game);
	support_place_settlement(&game, 0, 1); /* wool 2:1 */
	support_place_settlement(&game, 0, 3); /* generic 3:1 */
	/* 9 brick (3:1 three times, 4:1 twice) and 12 wool (2:1 six times, 3:1 four, 4:1 three). */
	support_set_hand(&game, 0, 9, 0, 12, 0, 0);
	for (int ore = 0; ore <= 4; ore++) {
		for (int grain = 1; grain <= 13; grain += 6) {
			support_set_bank(&game, RESOURCE_ORE, ore, 1); /* the rest in seat 1's hand */
			support_set_bank(&game, RESOURCE_GRAIN, grain, 1);
			int count = legal_moves_except_offers(&game, 0, listed, LEGAL_MOVES_MAX);
			struct legal_tally tally;
			ck_assert_int_eq(legal_tally_except_offers(&game, 0, &tally), count);
			int trades = 0, ore_taken = 0;
			for (int i = 0; i < count; i++) {
				struct command built;
				legal_tally_move(&game, 0, &tally, i, &built);
				ck_assert(memcmp(&built, &listed[i], sizeof built) == 0);
				trades += listed[i].type == COMMAND_MARITIME_TRADE;
				ore_taken +=
					listed[i].type == COMMAND_MARITIME_TRADE && listed[i].want[RESOURCE_ORE] > 0;
			}
			/* Ore: each rate as often as the bank's ore allows (up to the hand's own cap). */
			int expected_ore = (ore < 3 ? ore : 3) + (ore < 2 ? ore : 2) + (ore < 6 ? ore : 6) +
					   (ore < 4 ? ore : 4) + (ore < 3 ? ore : 3);
			ck_assert_int_eq(ore_taken, expected_ore);
			ck_assert_int_gt(trades, 0);
		}
	}
}
END_TEST

/* Random play without trades is uniform over the concatenated lists of the seats the game
 * waits for, in seat order, with the template then filled from the same generator: over
 * random games, playout_choose() takes exactly that move (and leaves the generator where
 * that draw leaves it), however it gets there. */
START_TEST(test_random_play_draws_from_the_waiting_seats_lists_in_order)
{
	static struct command scratch[LEGAL_MOVES_MAX], expected[LEGAL_MOVES_MAX];
	struct playout_options choices = {0};
	long compared = 0, several = 0;
	for (int index = 0; index < 20; index++) {
		struct game_options options;
		rules_default_options(&options);
		options.layout = (uint8_t)(index & 1);
		struct playout_game playout;
		struct event_list events;
		ck_assert_int_eq(playout_start(&playout, &options, &choices, 901 + (uint64_t)index, 3, &events),
				 ERROR_OK);
		for (int step = 0; step < 3000; step++) {
			const struct game *g = &playout.state;
			uint8_t movers = legal_waiting_for(g);
			int total = 0, owner[LEGAL_MOVES_MAX];
			for (int s = 0; s < g->options.seats; s++) {
				if (!(movers >> s & 1u))
					continue;
				int count = legal_moves_except_offers(g, s, expected + total, LEGAL_MOVES_MAX - total);
				ck_assert_int_le(count, LEGAL_MOVES_MAX - total);
				for (int i = total; i < total + count; i++)
					owner[i] = s;
				total += count;
			}
			several += movers & (movers - 1) ? 1 : 0;
			struct rng drawn = playout.chooser;
			int seat;
			struct command command;
			int chose = playout_choose(g, &choices, &playout.chooser, scratch, &seat, &command);
			if (total == 0) {
				ck_assert_int_eq(chose, 0);
				break;
			}
			ck_assert_int_eq(chose, 1);
			int pick = (int)rng_below(&drawn, (uint32_t)total);
			struct command want = expected[pick];
			playout_fill_template(g, owner[pick], &want, &drawn);
			ck_assert_int_eq(seat, owner[pick]);
			ck_assert(memcmp(&command, &want, sizeof want) == 0);
			ck_assert(drawn.state == playout.chooser.state);
			compared++;
			enum error refused =
				rules_decide_seeded_in_place(&playout.state, playout.seed, seat, &command, &events);
			ck_assert_int_eq(refused, ERROR_OK);
		}
	}
	ck_assert_int_gt(compared, 10000);
	ck_assert_int_gt(several, 10); /* discards owed by more than one seat at once */
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("legal");
	TCase *tc = tcase_create("legal");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_setup_lists_every_open_node_for_the_drafting_seat_only);
	tcase_add_test(tc, test_tally_builds_each_listed_move_at_its_index);
	tcase_add_test(tc, test_tally_cuts_maritime_trades_at_the_bank);
	tcase_add_test(tc, test_listed_moves_decide_as_the_fully_checked_ones);
	tcase_add_test(tc, test_setup_road_lists_only_the_edges_at_the_settlement_just_placed);
	tcase_add_test(tc, test_roll_phase_lists_the_roll_and_playable_cards_only);
	tcase_add_test(tc, test_robber_lists_every_other_hex_with_one_move_per_victim);
	tcase_add_test(tc, test_discard_template_for_each_owing_seat_only);
	tcase_add_test(tc, test_main_phase_lists_exactly_the_affordable_builds);
	tcase_add_test(tc, test_maritime_trades_listed_at_every_rate_the_hand_pays);
	tcase_add_test(tc, test_road_building_pairs_listed_once_and_accepted_in_both_orders);
	tcase_add_test(tc, test_road_building_with_one_road_left_lists_single_roads);
	tcase_add_test(tc, test_year_of_plenty_lists_what_the_bank_can_pay);
	tcase_add_test(tc, test_bank_holding_one_card_of_a_kind_lists_it_for_one_card_only);
	tcase_add_test(tc, test_trade_answers_listed_for_addressed_seats);
	tcase_add_test(tc, test_nothing_is_listed_before_creation_or_after_the_win);
	tcase_add_test(tc, test_capacity_is_respected_and_the_full_count_returned);
	tcase_add_test(tc, test_list_without_offers_is_the_full_list_less_the_offer_template);
	tcase_add_test(tc, test_random_play_draws_from_the_waiting_seats_lists_in_order);
	suite_add_tcase(suite, tc);
	return suite;
}
