/*
 * support.c - test helpers; see support.h.
 */
#include "tests/engine/support.h"

#include <check.h>
#include <stdarg.h>
#include <string.h>

#include "engine/invariants.h"
#include "engine/longest_road.h"

static struct rng test_rng(const struct game *game)
{
	struct rng rng;
	rng_init(&rng, 1, game->version);
	return rng;
}

void support_new_game_with(struct game *game, const struct game_options *options)
{
	struct event_list events;
	struct rng rng;
	rng_init(&rng, 1, 0);
	memset(game, 0, sizeof *game);
	enum error error = rules_create(options, &rng, &events);
	ck_assert_msg(error == ERROR_OK, "rules_create refused: %s", error_code(error));
	apply_events(game, &events);
}

void support_new_game(struct game *game, int seats, int layout)
{
	struct game_options options;
	rules_default_options(&options);
	options.seats = (uint8_t)seats;
	options.layout = (uint8_t)layout;
	options.dice = GAME_DICE_MANUAL;
	options.first_seat = 0;
	support_new_game_with(game, &options);
}

void support_ok(struct game *game, int seat, const struct command *command, struct event_list *out)
{
	struct event_list events;
	struct game after;
	struct rng rng = test_rng(game);
	enum error error = rules_decide(game, seat, command, &rng, &events, &after);
	ck_assert_msg(error == ERROR_OK, "%s by seat %d refused: %s", command_type_name(command->type), seat,
		      error_code(error));
	struct game replayed;
	memcpy(&replayed, game, sizeof replayed);
	apply_events(&replayed, &events);
	ck_assert_msg(memcmp(&replayed, &after, sizeof after) == 0, "applying the events differs from decide's state");
	memcpy(game, &after, sizeof *game);
	const char *problem = invariants_check(game);
	ck_assert_msg(problem == NULL, "invariant broken: %s", problem ? problem : "");
	if (out)
		*out = events;
}

void support_refused(const struct game *game, int seat, const struct command *command, enum error expected)
{
	struct event_list events;
	struct game before, after;
	memcpy(&before, game, sizeof before);
	memset(&after, 0xa5, sizeof after);
	struct rng rng = test_rng(game);
	enum error error = rules_decide(game, seat, command, &rng, &events, &after);
	ck_assert_msg(error == expected, "%s by seat %d: expected %s, got %s", command_type_name(command->type), seat,
		      error_code(expected), error_code(error));
	ck_assert_int_eq(events.count, 0);
	ck_assert_msg(memcmp(&before, game, sizeof before) == 0, "a refused command changed the state");
}

void support_draft(struct game *game, const int placements[][2])
{
	for (int step = 0; step < 2 * game->options.seats; step++) {
		int seat = game->turn_seat;
		struct command c = support_build(COMMAND_BUILD_SETTLEMENT, placements[step][0]);
		support_ok(game, seat, &c, NULL);
		c = support_build(COMMAND_BUILD_ROAD, placements[step][1]);
		support_ok(game, seat, &c, NULL);
	}
}

void support_standard_draft(struct game *game)
{
	int placements[2 * GAME_MAX_SEATS][2];
	int seats = game->options.seats;
	for (int step = 0; step < 2 * seats; step++) {
		int seat = game_setup_seat(game, step);
		int round = step < seats ? 0 : 1;
		placements[step][0] = rules_fixed_start[seat][round][0];
		placements[step][1] = rules_fixed_start[seat][round][1];
	}
	support_draft(game, (const int(*)[2])placements);
}

void support_set_hand(struct game *game, int seat, int brick, int lumber, int wool, int grain, int ore)
{
	int want[RESOURCE_COUNT] = {brick, lumber, wool, grain, ore};
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		int have = game->players[seat].resources[r];
		ck_assert_msg(game->bank[r] + have >= want[r], "the bank cannot supply that hand");
		game->bank[r] = (uint8_t)(game->bank[r] + have - want[r]);
		game->players[seat].resources[r] = (uint8_t)want[r];
	}
}

void support_give_development(struct game *game, int seat, int card, int count)
{
	ck_assert_msg(game->deck[card] >= count, "the deck lacks those cards");
	game->deck[card] = (uint8_t)(game->deck[card] - count);
	game->players[seat].development_cards[card] = (uint8_t)(game->players[seat].development_cards[card] + count);
}

void support_roll(struct game *game, int d1, int d2)
{
	struct command c = support_command(COMMAND_ROLL);
	c.dice[0] = (uint8_t)d1;
	c.dice[1] = (uint8_t)d2;
	support_ok(game, game->turn_seat, &c, NULL);
}

void support_next_turn(struct game *game, int d1, int d2)
{
	struct command c = support_command(COMMAND_END_TURN);
	support_ok(game, game->turn_seat, &c, NULL);
	support_roll(game, d1, d2);
}

static void settle_longest_road(struct game *game)
{
	int holder = longest_road_holder(game);
	if (holder == game->longest_road)
		return;
	struct event event;
	event_init(&event, EVENT_LONGEST_ROAD_CHANGED);
	event.seat = (int8_t)holder;
	event.other = game->longest_road;
	apply_event(game, &event);
}

void support_place_road(struct game *game, int seat, int edge)
{
	struct event event;
	event_init(&event, EVENT_ROAD_BUILT);
	event.seat = (int8_t)seat;
	event.edge = (int8_t)edge;
	event.free = 1;
	ck_assert_msg(apply_event_valid(game, &event), "cannot place road %d", edge);
	apply_event(game, &event);
	settle_longest_road(game);
}

void support_place_settlement(struct game *game, int seat, int node)
{
	struct event event;
	event_init(&event, EVENT_SETTLEMENT_BUILT);
	event.seat = (int8_t)seat;
	event.node = (int8_t)node;
	event.free = 1;
	ck_assert_msg(apply_event_valid(game, &event), "cannot place settlement %d", node);
	apply_event(game, &event);
	settle_longest_road(game);
}

void support_place_city(struct game *game, int seat, int node)
{
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		game->bank[r] = (uint8_t)(game->bank[r] - game_cost_city[r]);
		game->players[seat].resources[r] = (uint8_t)(game->players[seat].resources[r] + game_cost_city[r]);
	}
	struct event event;
	event_init(&event, EVENT_CITY_BUILT);
	event.seat = (int8_t)seat;
	event.node = (int8_t)node;
	ck_assert_msg(apply_event_valid(game, &event), "cannot place city %d", node);
	apply_event(game, &event);
}

struct command support_command(enum command_type type)
{
	struct command c;
	command_init(&c, type);
	return c;
}

struct command support_build(enum command_type type, int id)
{
	struct command c = support_command(type);
	if (type == COMMAND_BUILD_ROAD)
		c.edge = (int8_t)id;
	else
		c.node = (int8_t)id;
	return c;
}

int support_edge_between(int node_a, int node_b)
{
	for (int k = 0; k < 3; k++) {
		int edge = board_node_edges[node_a][k];
		if (edge >= 0 && (board_edge_nodes[edge][0] == node_b || board_edge_nodes[edge][1] == node_b))
			return edge;
	}
	return -1;
}

void support_options(struct game_options *options, int seats, int layout)
{
	rules_default_options(options);
	options->seats = (uint8_t)seats;
	options->layout = (uint8_t)layout;
	options->dice = GAME_DICE_MANUAL;
	options->first_seat = 0;
}

struct command support_dice(int d1, int d2)
{
	struct command c = support_command(COMMAND_ROLL);
	c.dice[0] = (uint8_t)d1;
	c.dice[1] = (uint8_t)d2;
	return c;
}

void support_road_path(struct game *game, int seat, ...)
{
	va_list nodes;
	va_start(nodes, seat);
	int from = va_arg(nodes, int);
	for (int to = va_arg(nodes, int); to >= 0; to = va_arg(nodes, int)) {
		int edge = support_edge_between(from, to);
		ck_assert_msg(edge >= 0, "nodes %d and %d are not adjacent", from, to);
		support_place_road(game, seat, edge);
		from = to;
	}
	va_end(nodes);
}

void support_set_bank(struct game *game, int resource, int left, int seat)
{
	int total = game->bank[resource] + game->players[seat].resources[resource];
	ck_assert_msg(left <= total, "seat %d and the bank hold only %d of resource %d", seat, total, resource);
	game->bank[resource] = (uint8_t)left;
	game->players[seat].resources[resource] = (uint8_t)(total - left);
}

void support_clear_hands(struct game *game)
{
	for (int s = 0; s < game->options.seats; s++)
		support_set_hand(game, s, 0, 0, 0, 0, 0);
}

void support_stack_deck(struct game *game, int card)
{
	for (int k = 0; k < DEVELOPMENT_COUNT; k++)
		if (k != card)
			game->deck[k] = 0;
	ck_assert_msg(game->deck[card] > 0, "no card of kind %d left to stack", card);
}

const struct event *support_find_event(const struct event_list *events, int type)
{
	for (int i = 0; i < events->count; i++)
		if (events->events[i].type == type)
			return &events->events[i];
	return NULL;
}

int support_count_events(const struct event_list *events, int type)
{
	int count = 0;
	for (int i = 0; i < events->count; i++)
		count += events->events[i].type == type;
	return count;
}

void support_assert_hand(const struct game *game, int seat, int brick, int lumber, int wool, int grain, int ore)
{
	const uint8_t *hand = game->players[seat].resources;
	ck_assert_msg(hand[RESOURCE_BRICK] == brick && hand[RESOURCE_LUMBER] == lumber && hand[RESOURCE_WOOL] == wool &&
			      hand[RESOURCE_GRAIN] == grain && hand[RESOURCE_ORE] == ore,
		      "seat %d holds brick %d lumber %d wool %d grain %d ore %d, expected %d %d %d %d %d", seat,
		      hand[RESOURCE_BRICK], hand[RESOURCE_LUMBER], hand[RESOURCE_WOOL], hand[RESOURCE_GRAIN],
		      hand[RESOURCE_ORE], brick, lumber, wool, grain, ore);
}

void support_decide_seeded(const struct game *game, int seat, const struct command *command, uint64_t seed,
			   struct event_list *out)
{
	struct rng rng;
	rng_init(&rng, seed, game->version);
	enum error error = rules_decide(game, seat, command, &rng, out, NULL);
	ck_assert_msg(error == ERROR_OK, "%s by seat %d refused: %s", command_type_name(command->type), seat,
		      error_code(error));
}

double support_chi_square(const long *observed, const int *weights, int kinds)
{
	long trials = 0, weight_total = 0;
	for (int k = 0; k < kinds; k++) {
		trials += observed[k];
		weight_total += weights[k];
	}
	double chi = 0;
	for (int k = 0; k < kinds; k++) {
		if (weights[k] == 0) {
			if (observed[k])
				return 1e30;
			continue;
		}
		double expected = (double)trials * weights[k] / (double)weight_total;
		double diff = (double)observed[k] - expected;
		chi += diff * diff / expected;
	}
	return chi;
}

/* Change what `seat` may not see: other seats' cards (same counts, same totals) and the kinds
 * of their development cards (a knight held since an earlier turn swapped with a victory
 * point card of the deck). Returns 1 when something changed. */
int support_change_hidden_facts(struct game *game, int seat)
{
	int changed = 0;
	int seats = game->options.seats;
	for (int a = 0; a < seats; a++) {
		int b = (a + 1) % seats;
		if (a == seat || b == seat)
			continue;
		uint8_t *hand_a = game->players[a].resources, *hand_b = game->players[b].resources;
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			int q = (r + 1) % RESOURCE_COUNT;
			if (hand_a[r] && hand_b[q]) {
				hand_a[r]--, hand_b[r]++;
				hand_b[q]--, hand_a[q]++;
				changed = 1;
				break;
			}
		}
	}
	for (int s = 0; s < seats; s++) {
		struct game_player *player = &game->players[s];
		if (s == seat || game->deck[DEVELOPMENT_VICTORY_POINT] == 0 ||
		    player->development_cards[DEVELOPMENT_KNIGHT] <= player->bought_this_turn[DEVELOPMENT_KNIGHT])
			continue;
		player->development_cards[DEVELOPMENT_KNIGHT]--;
		player->development_cards[DEVELOPMENT_VICTORY_POINT]++;
		game->deck[DEVELOPMENT_VICTORY_POINT]--;
		game->deck[DEVELOPMENT_KNIGHT]++;
		changed = 1;
	}
	return changed;
}

int support_any_open_offer(const struct game *game)
{
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		if (game->offers[i].id)
			return 1;
	return 0;
}
