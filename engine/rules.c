/*
 * rules.c - the rules of the Catan base game as a decision function.
 *
 * A decision works on a private copy of the state (rules_decide()), or on the caller's
 * state itself (rules_decide_in_place()): each event it emits is applied to it at once, so later checks (Longest Road
 * after a road, the win after anything) see the consequences of earlier events of the same command. Nothing is emitted
 * until every check of the command itself has passed, so a refusal produces no events.
 *
 * Order of checks for a command: game started and not finished; seat in range; whose turn
 * (only discards and trade answers/counter-offers are allowed off-turn); the phase; the
 * command's own placement, piece, card and resource rules. The first failing check names
 * the refusal.
 *
 * Randomness is drawn only here and only from the caller's generator: the board and the
 * first player at creation, dice, the stolen card (uniform over the victim's cards), the
 * development card drawn (uniform over the cards left, which is the same as drawing the top
 * of a shuffled deck).
 */
#include "rules.h"

#include <string.h>

#include "apply.h"
#include "longest_road.h"
#include "placement.h"

/* The preset opening of `start: "fixed"`: this service's own choice, not the printed
 * start (BEGINNER.md does not reproduce it). Every node is clear of every other by the
 * distance rule, so it is a legal draft in any seat order, and each seat's second
 * settlement touches three producing hexes (RULES.md 2): seat 0's 44 ore 3, brick 5,
 * grain 6; seat 1's 13 wool 2, brick 6, wool 4; seat 2's 12 ore 10, grain 12, brick 6;
 * seat 3's 45 grain 4, grain 6, wool 11. */
const int8_t rules_fixed_start[GAME_MAX_SEATS][2][2] = {
	{{43, 54}, {44, 57}},
	{{28, 41}, {13, 20}},
	{{31, 46}, {12, 11}},
	{{14, 21}, {45, 59}},
};

struct decision {
	struct game *state; /* decided in place: the caller's copy, or the game itself */
	struct event_list *out;
	int listed; /* 1: the command is a move of the seat's legal list (random play), whose
		     * placement, target and rate the listing checked: those checks are skipped */
};

static void emit(struct decision *d, const struct event *event)
{
	d->out->events[d->out->count++] = *event;
	apply_event(d->state, event);
}

/* The commonest events are written where they go instead of copied there: next_event()
 * initialises the list's next slot, emit_next() appends and applies it (a slot left
 * unemitted is simply overwritten by the next event). */
static struct event *next_event(struct decision *d, enum event_type type)
{
	struct event *event = &d->out->events[d->out->count];
	event_init(event, type);
	return event;
}

static void emit_next(struct decision *d)
{
	apply_event(d->state, &d->out->events[d->out->count++]);
}

/* After a road or settlement in the main game: has Longest Road changed hands? */
static void check_longest_road(struct decision *d)
{
	int holder = longest_road_holder(d->state);
	if (holder == d->state->longest_road)
		return;
	struct event event;
	event_init(&event, EVENT_LONGEST_ROAD_CHANGED);
	event.seat = (int8_t)holder;
	event.other = d->state->longest_road;
	emit(d, &event);
}

static void check_largest_army(struct decision *d, int seat)
{
	int holder = d->state->largest_army;
	int knights = d->state->players[seat].knights_played;
	if (holder == seat || knights < 3)
		return;
	if (holder >= 0 && knights <= d->state->players[holder].knights_played)
		return;
	struct event event;
	event_init(&event, EVENT_LARGEST_ARMY_CHANGED);
	event.seat = (int8_t)seat;
	event.other = (int8_t)holder;
	emit(d, &event);
}

/* The active player wins the moment it has 10 points on its own turn, including at the
 * start of a turn it reached 10 before. The check is inline (it follows every decision);
 * the event, rarely made, out of line. */
__attribute__((noinline)) static void emit_win(struct decision *d, int seat, int points)
{
	const struct game *g = d->state;
	struct event event;
	event_init(&event, EVENT_GAME_WON);
	event.seat = (int8_t)seat;
	event.points = (uint8_t)points;
	event.victory_point_cards = g->players[seat].development_cards[DEVELOPMENT_VICTORY_POINT];
	emit(d, &event);
}

static inline void check_win(struct decision *d)
{
	const struct game *g = d->state;
	if (!game_in_progress(g) || game_in_setup(g))
		return;
	int seat = g->turn_seat;
	int points = game_total_points(g, seat);
	if (points >= GAME_POINTS_TO_WIN)
		emit_win(d, seat, points);
}

void rules_default_options(struct game_options *options)
{
	memset(options, 0, sizeof *options);
	options->seats = 4;
	options->layout = GAME_LAYOUT_BEGINNER;
	options->start = GAME_START_DRAFT;
	options->numbers = BOARD_NUMBERS_SPIRAL;
	options->edition = GAME_EDITION_CLASSIC;
	options->dice = GAME_DICE_RANDOM;
	options->first_seat = GAME_NO_SEAT;
}

enum error rules_check_options(const struct game_options *o)
{
	if (o->seats < GAME_MIN_SEATS || o->seats > GAME_MAX_SEATS)
		return ERROR_INVALID_OPTIONS;
	if (o->layout > GAME_LAYOUT_RANDOM || o->start > GAME_START_FIXED || o->numbers > BOARD_NUMBERS_RANDOM ||
	    o->edition > GAME_EDITION_2025 || o->dice > GAME_DICE_MANUAL || o->reserved != 0)
		return ERROR_INVALID_OPTIONS;
	if (o->first_seat < GAME_NO_SEAT || o->first_seat >= o->seats)
		return ERROR_INVALID_OPTIONS;
	if (o->start == GAME_START_FIXED && o->layout != GAME_LAYOUT_BEGINNER)
		return ERROR_INVALID_OPTIONS;
	return ERROR_OK;
}

/* Highest total starts; ties re-roll among the tied (RULES.md 2, ruling). */
static int roll_first_seat(struct event_setup *setup, int seats, struct rng *rng)
{
	uint8_t rolling = (uint8_t)((1u << seats) - 1);
	for (int round = 0; round < EVENT_START_ROLL_ROUNDS; round++) {
		int best = 0;
		uint8_t leaders = 0;
		for (int s = 0; s < seats; s++) {
			if (!(rolling >> s & 1u))
				continue;
			int total = rng_die(rng) + rng_die(rng);
			setup->start_rolls[round][s] = (uint8_t)total;
			if (total > best) {
				best = total;
				leaders = (uint8_t)(1u << s);
			} else if (total == best) {
				leaders |= (uint8_t)(1u << s);
			}
		}
		if (__builtin_popcount(leaders) == 1)
			return __builtin_ctz(leaders);
		rolling = leaders;
	}
	/* Sixteen tied rounds in a row (about 1e-15): the lowest tied seat starts. */
	return __builtin_ctz(rolling);
}

static enum error decide_in(struct decision *d, int seat, const struct command *c, struct rng *rng);
static enum error decide_on(struct game *state, int seat, const struct command *command, struct rng *rng,
			    struct event_list *out, int listed);

enum error rules_decide_seeded(const struct game *game, uint64_t seed, int seat, const struct command *command,
			       struct event_list *out, struct game *after)
{
	struct rng rng;
	rng_init(&rng, seed, game->version);
	return rules_decide(game, seat, command, &rng, out, after);
}

/* The commands whose decision may draw from the generator (dice, a stolen card, a card
 * drawn): only for these is the seeded generator worth setting up. */
static const uint8_t draws_at_random[COMMAND_TYPE_COUNT] = {
	[COMMAND_ROLL] = 1,
	[COMMAND_MOVE_ROBBER] = 1,
	[COMMAND_BUY_DEVELOPMENT_CARD] = 1,
	[COMMAND_PLAY_KNIGHT] = 1,
};

static enum error decide_seeded_in_place(struct game *game, uint64_t seed, int seat, const struct command *command,
					 struct event_list *out, int listed)
{
	struct rng rng = {0}; /* never drawn from by the other commands */
	if (command->type >= COMMAND_TYPE_COUNT || draws_at_random[command->type])
		rng_init(&rng, seed, game->version);
	return decide_on(game, seat, command, &rng, out, listed);
}

enum error rules_decide_seeded_in_place(struct game *game, uint64_t seed, int seat, const struct command *command,
					struct event_list *out)
{
	return decide_seeded_in_place(game, seed, seat, command, out, 0);
}

enum error rules_decide_listed_seeded_in_place(struct game *game, uint64_t seed, int seat,
					       const struct command *command, struct event_list *out)
{
	return decide_seeded_in_place(game, seed, seat, command, out, 1);
}

enum error rules_start(const struct game_options *options, uint64_t seed, struct event_list *events, struct game *game)
{
	struct rng rng;
	rng_init(&rng, seed, 0);
	enum error error = rules_create(options, &rng, events);
	if (error != ERROR_OK)
		return error;
	memset(game, 0, sizeof *game);
	apply_events(game, events);
	return ERROR_OK;
}

enum error rules_create(const struct game_options *options, struct rng *rng, struct event_list *out)
{
	out->count = 0;
	enum error error = rules_check_options(options);
	if (error != ERROR_OK)
		return error;

	struct event created;
	event_init(&created, EVENT_GAME_CREATED);
	created.setup.options = *options;
	if (options->layout == GAME_LAYOUT_RANDOM)
		board_random(&created.setup.board, (enum board_numbers)options->numbers, rng);
	else
		board_beginner(&created.setup.board);
	if (options->first_seat >= 0)
		created.setup.first_seat = options->first_seat;
	else
		created.setup.first_seat = (int8_t)roll_first_seat(&created.setup, options->seats, rng);

	struct game state;
	memset(&state, 0, sizeof state);
	struct decision d = {&state, out, 0};
	emit(&d, &created);
	if (options->start != GAME_START_FIXED)
		return ERROR_OK;

	/* The preset opening is the draft played from a script, so it produces the very events
	 * (and starting resources) a draft would. */
	for (int step = 0; step < 2 * options->seats; step++) {
		int seat = game_setup_seat(&state, step);
		int round = step < options->seats ? 0 : 1;
		struct command place;
		command_init(&place, COMMAND_BUILD_SETTLEMENT);
		place.node = rules_fixed_start[seat][round][0];
		error = decide_in(&d, seat, &place, rng);
		if (error == ERROR_OK) {
			command_init(&place, COMMAND_BUILD_ROAD);
			place.edge = rules_fixed_start[seat][round][1];
			error = decide_in(&d, seat, &place, rng);
		}
		if (error != ERROR_OK) {
			out->count = 0;
			return error;
		}
	}
	return ERROR_OK;
}

/* ---- phase and turn gates ---- */

static enum error require_turn(const struct game *g, int seat)
{
	return g->turn_seat == seat ? ERROR_OK : ERROR_NOT_YOUR_TURN;
}

/* For building, buying, maritime trade, domestic trade and ending the turn. */
static enum error require_main(const struct game *g)
{
	switch (g->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
	case GAME_PHASE_SETUP_ROAD:
		return ERROR_NOT_DURING_SETUP;
	case GAME_PHASE_ROLL:
		return ERROR_MUST_ROLL_FIRST;
	case GAME_PHASE_DISCARD:
		return ERROR_DISCARDS_PENDING;
	case GAME_PHASE_MOVE_ROBBER:
		return ERROR_ROBBER_MUST_MOVE;
	default:
		return ERROR_OK;
	}
}

static enum error require_resources(const struct game *g, int seat, const uint8_t cost[RESOURCE_COUNT])
{
	return resource_covers(g->players[seat].resources, cost) ? ERROR_OK : ERROR_INSUFFICIENT_RESOURCES;
}

/* ---- building ---- */

static void emit_settlement(struct decision *d, int seat, int node, int free)
{
	struct event *event = next_event(d, EVENT_SETTLEMENT_BUILT);
	event->seat = (int8_t)seat;
	event->node = (int8_t)node;
	event->free = (uint8_t)free;
	emit_next(d);
	if (!free)
		check_longest_road(d);
}

static void emit_road(struct decision *d, int seat, int edge, int free, int in_setup)
{
	struct event *event = next_event(d, EVENT_ROAD_BUILT);
	event->seat = (int8_t)seat;
	event->edge = (int8_t)edge;
	event->free = (uint8_t)free;
	emit_next(d);
	if (!in_setup)
		check_longest_road(d);
}

static enum error check_settlement_site(const struct game *g, int seat, int node, int in_setup)
{
	if (node < 0 || node >= BOARD_NODES)
		return ERROR_INVALID_NODE;
	if (g->occupied_nodes >> node & 1u)
		return ERROR_NODE_OCCUPIED;
	if (!(placement_open_nodes(g) >> node & 1u))
		return ERROR_DISTANCE_RULE;
	if (!in_setup && !(g->players[seat].road_nodes >> node & 1u))
		return ERROR_NOT_CONNECTED;
	return ERROR_OK;
}

/* Second setup settlement: one card per adjacent producing hex. */
static void emit_starting_resources(struct decision *d, int seat, int node)
{
	struct event event;
	event_init(&event, EVENT_RESOURCES_PRODUCED);
	for (int k = 0; k < 3; k++) {
		int hex = board_node_hexes[node][k];
		if (hex >= 0 && d->state->board.terrain[hex] != TERRAIN_DESERT)
			event.gains[seat][d->state->board.terrain[hex]]++;
	}
	emit(d, &event);
}

static enum error decide_build_settlement(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK)
		return error;
	if (g->phase == GAME_PHASE_SETUP_ROAD)
		return ERROR_SETUP_ROAD_EXPECTED;
	if (g->phase == GAME_PHASE_SETUP_SETTLEMENT) {
		error = d->listed ? ERROR_OK : check_settlement_site(g, seat, c->node, 1);
		if (error != ERROR_OK)
			return error;
		int second = g->setup_step >= g->options.seats;
		emit_settlement(d, seat, c->node, 1);
		if (second)
			emit_starting_resources(d, seat, c->node);
		return ERROR_OK;
	}
	if (d->listed) {
		emit_settlement(d, seat, c->node, 0);
		return ERROR_OK;
	}
	if ((error = require_main(g)) != ERROR_OK || (error = check_settlement_site(g, seat, c->node, 0)) != ERROR_OK)
		return error;
	if (g->players[seat].settlements_left == 0)
		return ERROR_NO_SETTLEMENTS_LEFT;
	if ((error = require_resources(g, seat, game_cost_settlement)) != ERROR_OK)
		return error;
	emit_settlement(d, seat, c->node, 0);
	return ERROR_OK;
}

/* Placement of a main-phase road (bought or free), without pieces or resources. */
static enum error check_road_site(const struct game *g, int seat, int edge)
{
	if (edge < 0 || edge >= BOARD_EDGES)
		return ERROR_INVALID_EDGE;
	if (board_edge_set_has(&g->occupied_edges, edge))
		return ERROR_EDGE_OCCUPIED;
	struct board_edge_set legal = placement_road_edges(g, seat);
	if (board_edge_set_has(&legal, edge))
		return ERROR_OK;
	/* It touches our road only where an opponent's building stands. */
	if (g->players[seat].road_nodes & board_edge_node_mask[edge])
		return ERROR_ROAD_BLOCKED;
	return ERROR_NOT_CONNECTED;
}

static enum error decide_build_road(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK)
		return error;
	if (g->phase == GAME_PHASE_SETUP_SETTLEMENT)
		return ERROR_SETUP_SETTLEMENT_EXPECTED;
	if (g->phase == GAME_PHASE_SETUP_ROAD) {
		if (c->edge < 0 || c->edge >= BOARD_EDGES)
			return ERROR_INVALID_EDGE;
		if (board_edge_set_has(&g->occupied_edges, c->edge))
			return ERROR_EDGE_OCCUPIED;
		if (!(board_edge_node_mask[c->edge] >> g->setup_node & 1u))
			return ERROR_SETUP_ROAD_NOT_TOUCHING;
		emit_road(d, seat, c->edge, 1, 1);
		return ERROR_OK;
	}
	if (d->listed) {
		emit_road(d, seat, c->edge, 0, 0);
		return ERROR_OK;
	}
	if ((error = require_main(g)) != ERROR_OK || (error = check_road_site(g, seat, c->edge)) != ERROR_OK)
		return error;
	if (g->players[seat].roads_left == 0)
		return ERROR_NO_ROADS_LEFT;
	if ((error = require_resources(g, seat, game_cost_road)) != ERROR_OK)
		return error;
	emit_road(d, seat, c->edge, 0, 0);
	return ERROR_OK;
}

static enum error decide_build_city(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK || (error = require_main(g)) != ERROR_OK)
		return error;
	if (c->node < 0 || c->node >= BOARD_NODES)
		return ERROR_INVALID_NODE;
	if (g->node_owner[c->node] != seat + 1 || g->node_building[c->node] != BUILDING_SETTLEMENT)
		return ERROR_NOT_YOUR_SETTLEMENT;
	if (g->players[seat].cities_left == 0)
		return ERROR_NO_CITIES_LEFT;
	if ((error = require_resources(g, seat, game_cost_city)) != ERROR_OK)
		return error;
	struct event event;
	event_init(&event, EVENT_CITY_BUILT);
	event.seat = (int8_t)seat;
	event.node = c->node;
	emit(d, &event);
	return ERROR_OK;
}

/* ---- rolling and production ---- */

/* The hexes whose number token is `total` (1..12: never the desert's 0), as a mask: the
 * 19 tokens compared eight at a time (a byte equal to total is a zero byte of the xor). */
static uint32_t hexes_numbered(const struct board_layout *board, int total)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	_Static_assert(BOARD_HEXES == 19, "hexes_numbered reads 8 + 8 + 3 tokens");
	uint64_t word[3] = {0, 0, 0}; /* past the last token: zero bytes, never equal to total */
	memcpy(&word[0], board->number, 8);
	memcpy(&word[1], board->number + 8, 8);
	memcpy(&word[2], board->number + 16, 3);
	uint32_t hexes = 0;
	for (int w = 0; w < 3; w++) {
		const uint64_t low7 = UINT64_C(0x7f7f7f7f7f7f7f7f);
		uint64_t x = word[w] ^ (UINT64_C(0x0101010101010101) * (uint64_t)total);
		uint64_t zero = ~(((x & low7) + low7) | x | low7); /* 0x80 in each zero byte */
		hexes |= (uint32_t)(((zero >> 7) * UINT64_C(0x0102040810204080)) >> 56) << (8 * w);
	}
	return hexes;
#else
	uint32_t hexes = 0;
	for (int hex = 0; hex < BOARD_HEXES; hex++)
		hexes |= (uint32_t)(board->number[hex] == total) << hex;
	return hexes;
#endif
}

/* What a roll produces, with the bank-shortage rule: a resource the bank cannot pay in
 * full to everyone owed goes to nobody, except (edition 2025) when one seat alone is owed,
 * which takes what is left. */
static void emit_production(struct decision *d, int total)
{
	const struct game *g = d->state;
	struct event *event = next_event(d, EVENT_RESOURCES_PRODUCED);
	unsigned produced = 0; /* the resources of the hexes that produce: no other is owed */
	uint32_t hexes = hexes_numbered(&g->board, total);
	if (g->robber >= 0 && g->robber < BOARD_HEXES)
		hexes &= ~(UINT32_C(1) << g->robber);
	while (hexes) {
		int hex = __builtin_ctz(hexes);
		hexes &= hexes - 1;
		int resource = g->board.terrain[hex];
		/* The buildings on the hex's corners (occupied_nodes: where node_owner is set). */
		uint64_t built = g->occupied_nodes & board_hex_node_mask[hex];
		while (built) {
			int node = __builtin_ctzll(built);
			built &= built - 1;
			event->gains[g->node_owner[node] - 1][resource] += g->node_building[node];
		}
		produced |= 1u << resource;
	}
	_Static_assert(GAME_MAX_SEATS == 4, "emit_production adds four seats' gains");
	int any = 0;
	for (; produced; produced &= produced - 1) {
		int r = __builtin_ctz(produced);
		/* Seats past options.seats own nothing: their gains stay 0. */
		int owed = event->gains[0][r] + event->gains[1][r] + event->gains[2][r] + event->gains[3][r];
		if (owed <= g->bank[r]) {
			any |= owed > 0;
			continue;
		}
		int owed_seats = 0, only = -1;
		for (int s = 0; s < g->options.seats; s++) {
			if (event->gains[s][r]) {
				owed_seats++;
				only = s;
			}
			event->gains[s][r] = 0;
		}
		if (g->options.edition == GAME_EDITION_2025 && owed_seats == 1 && g->bank[r] > 0) {
			event->gains[only][r] = g->bank[r];
			any = 1;
		}
	}
	if (any)
		emit_next(d);
}

static enum error decide_roll(struct decision *d, int seat, const struct command *c, struct rng *rng)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK)
		return error;
	if (game_in_setup(g))
		return ERROR_NOT_DURING_SETUP;
	if (g->phase != GAME_PHASE_ROLL)
		return ERROR_ALREADY_ROLLED;
	int given = c->dice[0] != 0 || c->dice[1] != 0;
	struct event *event = next_event(d, EVENT_DICE_ROLLED);
	event->seat = (int8_t)seat;
	if (g->options.dice == GAME_DICE_MANUAL) {
		if (!given)
			return ERROR_DICE_REQUIRED;
		if (c->dice[0] < 1 || c->dice[0] > 6 || c->dice[1] < 1 || c->dice[1] > 6)
			return ERROR_INVALID_DICE;
		event->dice[0] = c->dice[0];
		event->dice[1] = c->dice[1];
	} else {
		if (given)
			return ERROR_DICE_NOT_MANUAL;
		event->dice[0] = (uint8_t)rng_die(rng);
		event->dice[1] = (uint8_t)rng_die(rng);
	}
	emit_next(d);
	int total = event->dice[0] + event->dice[1];
	if (total != 7)
		emit_production(d, total);
	return ERROR_OK;
}

static enum error decide_discard(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	if (g->phase != GAME_PHASE_DISCARD || g->players[seat].discard_owed == 0)
		return ERROR_NO_DISCARD_OWED;
	if (resource_total(c->resources) != g->players[seat].discard_owed)
		return ERROR_WRONG_DISCARD_COUNT;
	if (!resource_covers(g->players[seat].resources, c->resources))
		return ERROR_INSUFFICIENT_RESOURCES;
	struct event event;
	event_init(&event, EVENT_DISCARDED);
	event.seat = (int8_t)seat;
	memcpy(event.resources, c->resources, RESOURCE_COUNT);
	emit(d, &event);
	return ERROR_OK;
}

/* ---- the robber ---- */

static enum error check_robber_target(const struct game *g, int seat, int hex, int victim)
{
	if (hex < 0 || hex >= BOARD_HEXES)
		return ERROR_INVALID_HEX;
	if (hex == g->robber)
		return ERROR_ROBBER_SAME_HEX;
	uint8_t victims = placement_robber_victims(g, seat, hex);
	if (victim == GAME_NO_SEAT)
		return victims ? ERROR_VICTIM_REQUIRED : ERROR_OK;
	if (victim < 0 || victim >= g->options.seats || !(victims >> victim & 1u))
		return ERROR_INVALID_VICTIM;
	return ERROR_OK;
}

/* Move the robber to a checked target and steal one random card from the victim. */
static void emit_robbery(struct decision *d, int seat, int hex, int victim, struct rng *rng)
{
	struct event event;
	event_init(&event, EVENT_ROBBER_MOVED);
	event.seat = (int8_t)seat;
	event.hex = (int8_t)hex;
	emit(d, &event);
	if (victim < 0)
		return;
	const uint8_t *hand = d->state->players[victim].resources;
	int pick = (int)rng_below(rng, (uint32_t)resource_total(hand));
	int resource = 0;
	while (pick >= hand[resource])
		pick -= hand[resource++];
	event_init(&event, EVENT_RESOURCE_STOLEN);
	event.seat = (int8_t)seat;
	event.other = (int8_t)victim;
	event.resource = (uint8_t)resource;
	emit(d, &event);
}

static enum error decide_move_robber(struct decision *d, int seat, const struct command *c, struct rng *rng)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK)
		return error;
	if (g->phase == GAME_PHASE_DISCARD)
		return ERROR_DISCARDS_PENDING;
	if (g->phase != GAME_PHASE_MOVE_ROBBER)
		return game_in_setup(g) ? ERROR_NOT_DURING_SETUP : ERROR_ROBBER_NOT_PENDING;
	if (!d->listed && (error = check_robber_target(g, seat, c->hex, c->victim)) != ERROR_OK)
		return error;
	emit_robbery(d, seat, c->hex, c->victim, rng);
	return ERROR_OK;
}

/* ---- development cards ---- */

static enum error decide_buy_development(struct decision *d, int seat, struct rng *rng)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK || (error = require_main(g)) != ERROR_OK)
		return error;
	int left = resource_total(g->deck);
	if (left == 0)
		return ERROR_DECK_EMPTY;
	if ((error = require_resources(g, seat, game_cost_development)) != ERROR_OK)
		return error;
	int pick = (int)rng_below(rng, (uint32_t)left);
	int card = 0;
	while (pick >= g->deck[card])
		pick -= g->deck[card++];
	struct event event;
	event_init(&event, EVENT_DEVELOPMENT_CARD_BOUGHT);
	event.seat = (int8_t)seat;
	event.card = (uint8_t)card;
	emit(d, &event);
	return ERROR_OK;
}

/* Whether `seat` may play a card of `kind` now: its turn, before or after the roll but not
 * while discards or a robber move are pending, one per turn, not bought this turn. */
static enum error check_playable(const struct game *g, int seat, int kind)
{
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK)
		return error;
	switch (g->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
	case GAME_PHASE_SETUP_ROAD:
		return ERROR_NOT_DURING_SETUP;
	case GAME_PHASE_DISCARD:
		return ERROR_DISCARDS_PENDING;
	case GAME_PHASE_MOVE_ROBBER:
		return ERROR_ROBBER_MUST_MOVE;
	default:
		break;
	}
	const struct game_player *player = &g->players[seat];
	if (player->development_cards[kind] == 0)
		return ERROR_NO_DEVELOPMENT_CARD;
	if (g->development_played)
		return ERROR_DEV_CARD_ALREADY_PLAYED;
	if (player->development_cards[kind] <= player->bought_this_turn[kind])
		return ERROR_DEV_CARD_BOUGHT_THIS_TURN;
	return ERROR_OK;
}

static void emit_card_played(struct decision *d, enum event_type type, int seat)
{
	struct event event;
	event_init(&event, type);
	event.seat = (int8_t)seat;
	emit(d, &event);
}

static enum error decide_play_knight(struct decision *d, int seat, const struct command *c, struct rng *rng)
{
	const struct game *g = d->state;
	enum error error = check_playable(g, seat, DEVELOPMENT_KNIGHT);
	if (error != ERROR_OK || (!d->listed && (error = check_robber_target(g, seat, c->hex, c->victim)) != ERROR_OK))
		return error;
	emit_card_played(d, EVENT_KNIGHT_PLAYED, seat);
	emit_robbery(d, seat, c->hex, c->victim, rng);
	check_largest_army(d, seat);
	return ERROR_OK;
}

/* Check the free roads in the given order on a scratch copy; 0 when all fit. */
static enum error check_free_roads(const struct game *g, int seat, const int8_t *edges, int count)
{
	struct game scratch;
	memcpy(&scratch, g, sizeof scratch);
	for (int i = 0; i < count; i++) {
		enum error error = check_road_site(&scratch, seat, edges[i]);
		if (error != ERROR_OK)
			return error;
		struct event event;
		event_init(&event, EVENT_ROAD_BUILT);
		event.seat = (int8_t)seat;
		event.edge = edges[i];
		event.free = 1;
		apply_event(&scratch, &event);
	}
	return ERROR_OK;
}

static enum error decide_play_road_building(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = check_playable(g, seat, DEVELOPMENT_ROAD_BUILDING);
	if (error != ERROR_OK)
		return error;
	if (d->listed) {
		/* Listed pairs are in an order they can be built in. */
		emit_card_played(d, EVENT_ROAD_BUILDING_PLAYED, seat);
		for (int i = 0; i < c->edge_count; i++)
			emit_road(d, seat, c->edges[i], 1, 0);
		return ERROR_OK;
	}
	if (c->edge_count > 2)
		return ERROR_ROAD_BUILDING_EDGES;
	for (int i = 0; i < c->edge_count; i++)
		if (c->edges[i] < 0 || c->edges[i] >= BOARD_EDGES)
			return ERROR_INVALID_EDGE;
	if (c->edge_count != placement_free_roads_possible(g, seat))
		return ERROR_ROAD_BUILDING_EDGES;
	int8_t edges[2] = {c->edges[0], c->edges[1]};
	error = check_free_roads(g, seat, edges, c->edge_count);
	if (error != ERROR_OK && c->edge_count == 2) {
		/* The two roads are placed together: accept them in either order. */
		int8_t reversed[2] = {c->edges[1], c->edges[0]};
		if (check_free_roads(g, seat, reversed, 2) == ERROR_OK) {
			edges[0] = reversed[0];
			edges[1] = reversed[1];
			error = ERROR_OK;
		}
	}
	if (error != ERROR_OK)
		return error;
	emit_card_played(d, EVENT_ROAD_BUILDING_PLAYED, seat);
	for (int i = 0; i < c->edge_count; i++)
		emit_road(d, seat, edges[i], 1, 0);
	return ERROR_OK;
}

static enum error decide_play_year_of_plenty(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = check_playable(g, seat, DEVELOPMENT_YEAR_OF_PLENTY);
	if (error != ERROR_OK)
		return error;
	int in_bank = resource_total(g->bank);
	int wanted = in_bank < 2 ? in_bank : 2;
	if (resource_total(c->resources) != wanted)
		return ERROR_YEAR_OF_PLENTY_CARDS;
	if (!resource_covers(g->bank, c->resources))
		return ERROR_BANK_EMPTY;
	struct event event;
	event_init(&event, EVENT_YEAR_OF_PLENTY_PLAYED);
	event.seat = (int8_t)seat;
	memcpy(event.resources, c->resources, RESOURCE_COUNT);
	emit(d, &event);
	return ERROR_OK;
}

static enum error decide_play_monopoly(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = check_playable(g, seat, DEVELOPMENT_MONOPOLY);
	if (error != ERROR_OK)
		return error;
	if (c->resource >= RESOURCE_COUNT)
		return ERROR_INVALID_RESOURCE;
	struct event event;
	event_init(&event, EVENT_MONOPOLY_PLAYED);
	event.seat = (int8_t)seat;
	event.resource = c->resource;
	for (int s = 0; s < g->options.seats; s++)
		if (s != seat)
			event.gains[s][c->resource] = g->players[s].resources[c->resource];
	emit(d, &event);
	return ERROR_OK;
}

/* ---- trade ---- */

/* The single resource with a nonzero count, its count in *count; -1 when none or several. */
static int single_resource(const uint8_t counts[RESOURCE_COUNT], int *count)
{
	int found = -1;
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		if (!counts[r])
			continue;
		if (found >= 0)
			return -1;
		found = r;
	}
	*count = found >= 0 ? counts[found] : 0;
	return found;
}

/* The maritime trade's own rules: one resource for one other, at a rate the seat is
 * entitled to, paid by the hand and held by the bank. */
static enum error check_maritime_trade(const struct game *g, int seat, const struct command *c)
{
	int give_count = 0, want_count = 0;
	int give = single_resource(c->give, &give_count);
	int want = single_resource(c->want, &want_count);
	if (give < 0 || want < 0)
		return ERROR_MARITIME_RATE;
	if (give == want)
		return ERROR_SAME_RESOURCE;
	/* Any rate the seat is entitled to, want_count times over (RULES.md 7). */
	unsigned rates = game_maritime_rates(g, seat, give);
	int rate = give_count / want_count;
	if (rate * want_count != give_count || rate < 2 || rate > 4 || !(rates >> rate & 1u))
		return ERROR_MARITIME_RATE;
	enum error error = require_resources(g, seat, c->give);
	if (error != ERROR_OK)
		return error;
	if (g->bank[want] < want_count)
		return ERROR_BANK_EMPTY;
	return ERROR_OK;
}

static enum error decide_maritime_trade(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK || (error = require_main(g)) != ERROR_OK ||
	    (!d->listed && (error = check_maritime_trade(g, seat, c)) != ERROR_OK))
		return error;
	struct event *event = next_event(d, EVENT_MARITIME_TRADED);
	event->seat = (int8_t)seat;
	memcpy(event->give, c->give, RESOURCE_COUNT);
	memcpy(event->want, c->want, RESOURCE_COUNT);
	emit_next(d);
	return ERROR_OK;
}

static enum error decide_offer_trade(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = require_main(g);
	if (error != ERROR_OK)
		return error;
	uint8_t others = (uint8_t)(((1u << g->options.seats) - 1) & ~(1u << seat));
	uint8_t to = c->to;
	if (seat == g->turn_seat) {
		if (to == 0)
			to = others;
		if (to & ~others)
			return ERROR_INVALID_SEAT;
	} else {
		uint8_t active = (uint8_t)(1u << g->turn_seat);
		if (to == 0)
			to = active;
		if (to != active)
			return ERROR_INACTIVE_PLAYERS_CANNOT_TRADE;
	}
	if (c->trade != 0) {
		/* A counter-offer answers an open offer made to this seat. */
		const struct game_offer *answered = game_find_offer(g, c->trade);
		if (!answered)
			return ERROR_TRADE_NOT_FOUND;
		if (!(answered->to >> seat & 1u))
			return ERROR_TRADE_NOT_ADDRESSED;
	}
	if (resource_total(c->give) == 0 || resource_total(c->want) == 0)
		return ERROR_TRADE_EMPTY_SIDE;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (c->give[r] && c->want[r])
			return ERROR_SAME_RESOURCE;
	if ((error = require_resources(g, seat, c->give)) != ERROR_OK)
		return error;
	/* Counted per seat, so counter-offers never take the active player's room. */
	if (game_open_offers(g, seat) >= game_offer_cap(g, seat))
		return ERROR_TOO_MANY_OFFERS;
	struct event event;
	event_init(&event, EVENT_TRADE_OFFERED);
	event.seat = (int8_t)seat;
	event.trade = g->next_offer_id;
	event.counter_to = c->trade;
	event.to = to;
	memcpy(event.give, c->give, RESOURCE_COUNT);
	memcpy(event.want, c->want, RESOURCE_COUNT);
	emit(d, &event);
	return ERROR_OK;
}

static enum error find_open_offer(const struct game *g, int id, const struct game_offer **offer)
{
	enum error error = require_main(g);
	if (error != ERROR_OK)
		return ERROR_TRADE_NOT_FOUND;
	*offer = game_find_offer(g, id);
	return *offer ? ERROR_OK : ERROR_TRADE_NOT_FOUND;
}

static enum error decide_answer_trade(struct decision *d, int seat, const struct command *c, int accept)
{
	const struct game *g = d->state;
	const struct game_offer *offer;
	enum error error = find_open_offer(g, c->trade, &offer);
	if (error != ERROR_OK)
		return error;
	if (!(offer->to >> seat & 1u))
		return ERROR_TRADE_NOT_ADDRESSED;
	if (accept && seat == g->turn_seat)
		return ERROR_TRADE_CONFIRM_REQUIRED;
	if ((accept ? offer->accepted : offer->declined) >> seat & 1u)
		return ERROR_TRADE_ALREADY_ANSWERED;
	if (accept && !resource_covers(g->players[seat].resources, offer->want))
		return ERROR_INSUFFICIENT_RESOURCES;
	struct event event;
	event_init(&event, accept ? EVENT_TRADE_ACCEPTED : EVENT_TRADE_DECLINED);
	event.seat = (int8_t)seat;
	event.trade = offer->id;
	emit(d, &event);
	return ERROR_OK;
}

static enum error decide_confirm_trade(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	const struct game_offer *offer;
	if (error != ERROR_OK || (error = find_open_offer(g, c->trade, &offer)) != ERROR_OK)
		return error;
	struct event event;
	event_init(&event, EVENT_TRADE_COMPLETED);
	event.seat = (int8_t)seat;
	event.trade = offer->id;
	if (offer->from == seat) {
		if (c->with < 0 || c->with >= g->options.seats || !(offer->accepted >> c->with & 1u))
			return ERROR_TRADE_NOT_ACCEPTED;
		event.other = c->with;
		memcpy(event.give, offer->give, RESOURCE_COUNT);
		memcpy(event.want, offer->want, RESOURCE_COUNT);
	} else {
		/* A counter-offer to us: taking it completes the exchange at once. */
		if (c->with >= 0 && c->with != offer->from)
			return ERROR_TRADE_NOT_ACCEPTED;
		event.other = offer->from;
		memcpy(event.give, offer->want, RESOURCE_COUNT);
		memcpy(event.want, offer->give, RESOURCE_COUNT);
	}
	if (!resource_covers(g->players[seat].resources, event.give) ||
	    !resource_covers(g->players[event.other].resources, event.want))
		return ERROR_INSUFFICIENT_RESOURCES;
	emit(d, &event);
	return ERROR_OK;
}

static enum error decide_withdraw_trade(struct decision *d, int seat, const struct command *c)
{
	const struct game *g = d->state;
	const struct game_offer *offer;
	enum error error = find_open_offer(g, c->trade, &offer);
	if (error != ERROR_OK)
		return error;
	if (offer->from != seat)
		return ERROR_TRADE_NOT_YOURS;
	struct event event;
	event_init(&event, EVENT_TRADE_WITHDRAWN);
	event.seat = (int8_t)seat;
	event.trade = offer->id;
	emit(d, &event);
	return ERROR_OK;
}

static enum error decide_end_turn(struct decision *d, int seat)
{
	const struct game *g = d->state;
	enum error error = require_turn(g, seat);
	if (error != ERROR_OK || (error = require_main(g)) != ERROR_OK)
		return error;
	struct event *event = next_event(d, EVENT_TURN_ENDED);
	event->seat = (int8_t)seat;
	emit_next(d);
	return ERROR_OK;
}

static enum error decide_in(struct decision *d, int seat, const struct command *c, struct rng *rng)
{
	const struct game *g = d->state;
	if (g->phase == GAME_PHASE_NONE)
		return ERROR_GAME_NOT_STARTED;
	if (g->phase == GAME_PHASE_FINISHED)
		return ERROR_GAME_FINISHED;
	if (seat < 0 || seat >= g->options.seats)
		return ERROR_INVALID_SEAT;
	switch (c->type) {
	case COMMAND_BUILD_SETTLEMENT:
		return decide_build_settlement(d, seat, c);
	case COMMAND_BUILD_ROAD:
		return decide_build_road(d, seat, c);
	case COMMAND_BUILD_CITY:
		return decide_build_city(d, seat, c);
	case COMMAND_ROLL:
		return decide_roll(d, seat, c, rng);
	case COMMAND_DISCARD:
		return decide_discard(d, seat, c);
	case COMMAND_MOVE_ROBBER:
		return decide_move_robber(d, seat, c, rng);
	case COMMAND_BUY_DEVELOPMENT_CARD:
		return decide_buy_development(d, seat, rng);
	case COMMAND_PLAY_KNIGHT:
		return decide_play_knight(d, seat, c, rng);
	case COMMAND_PLAY_ROAD_BUILDING:
		return decide_play_road_building(d, seat, c);
	case COMMAND_PLAY_YEAR_OF_PLENTY:
		return decide_play_year_of_plenty(d, seat, c);
	case COMMAND_PLAY_MONOPOLY:
		return decide_play_monopoly(d, seat, c);
	case COMMAND_MARITIME_TRADE:
		return decide_maritime_trade(d, seat, c);
	case COMMAND_END_TURN:
		return decide_end_turn(d, seat);
	case COMMAND_OFFER_TRADE:
		return decide_offer_trade(d, seat, c);
	case COMMAND_ACCEPT_TRADE:
		return decide_answer_trade(d, seat, c, 1);
	case COMMAND_DECLINE_TRADE:
		return decide_answer_trade(d, seat, c, 0);
	case COMMAND_CONFIRM_TRADE:
		return decide_confirm_trade(d, seat, c);
	case COMMAND_WITHDRAW_TRADE:
		return decide_withdraw_trade(d, seat, c);
	default:
		return ERROR_INVALID_COMMAND;
	}
}

/* Decide on *state in place. A refusal leaves it as it was: every decide_ function makes
 * all of its checks before its first emit(). */
static enum error decide_on(struct game *state, int seat, const struct command *command, struct rng *rng,
			    struct event_list *out, int listed)
{
	struct decision d = {state, out, listed};
	out->count = 0;
	enum error error = decide_in(&d, seat, command, rng);
	if (error != ERROR_OK) {
		out->count = 0;
		return error;
	}
	check_win(&d);
	return ERROR_OK;
}

enum error rules_decide(const struct game *game, int seat, const struct command *command, struct rng *rng,
			struct event_list *out, struct game *after)
{
	struct game state;
	memcpy(&state, game, sizeof state);
	enum error error = decide_on(&state, seat, command, rng, out, 0);
	if (error == ERROR_OK && after)
		memcpy(after, &state, sizeof *after);
	return error;
}

enum error rules_decide_in_place(struct game *game, int seat, const struct command *command, struct rng *rng,
				 struct event_list *out)
{
	return decide_on(game, seat, command, rng, out, 0);
}
