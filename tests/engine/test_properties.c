/*
 * test_properties.c - properties that hold in every random game, checked over thousands.
 *
 * Each game is played to its end by playout_choose() (uniform over the legal moves of
 * whoever must act), each decision drawing its randomness from rng_init(seed, version) as
 * the server does. The games vary every option the engine has: 3 and 4 seats, beginner and
 * random boards (spiral and random numbers), draft and fixed start, domestic trades on and
 * off, both editions, random and manual dice, first seat rolled or fixed.
 *
 * Before every move the test checks, on the current state:
 *   - legal moves: every move listed for any seat (templates filled in) is accepted by
 *     rules_decide(); a waiting seat always has a move; seats the game does not wait for list
 *     only trade moves; a sample of other commands (random fields, ids in and out of range,
 *     random seats, and near misses made by mutating listed moves) is accepted exactly when an
 *     equal command is listed (the oracle below says what "equal" means for each type);
 *   - placement: the active seat's listed roads, settlements, cities and robber moves are
 *     exactly those RULES.md allows, recomputed from the board arrays without placement.c
 *     (which rules_decide and legal_moves share, so their agreement alone cannot catch it);
 *   - views: every viewer's view shows `you` for its own seat only, and stays byte-identical
 *     when every private fact of the other seats and the deck composition is changed;
 *   - a scarce bank: at one in 16 of the steps before or after a roll, the legal moves and
 *     sampled commands again on a copy whose bank holds 0-2 cards of one kind or of every
 *     kind (check_scarce_bank), which random games alone seldom reach.
 * After every event: resources conserved, pieces within 15/5/4, each event valid for
 * apply and redacted by view_event() as it should be. After every move: invariants_check(),
 * and the points recomputed here from the board and the cards. At the end: a winner on its
 * own turn with 10+ points, and the event log replayed into a zeroed struct reproduces the
 * final state byte for byte.
 *
 * The checks return a description of the first broken property (NULL when all hold) instead
 * of asserting, so a failure names the game, its seed and the version where it broke.
 * PROPERTY_GAMES overrides the number of games (the sanitizer pass plays fewer).
 */
#include "tests/check_main.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/apply.h"
#include "engine/command.h"
#include "engine/event.h"
#include "engine/game.h"
#include "engine/invariants.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rules.h"
#include "engine/view.h"

#define PROPERTY_DEFAULT_GAMES 10000
#define PROPERTY_MAX_ACTIONS 100000
#define PROPERTY_SEED_BASE UINT64_C(0x5eed0000)
/* Random commands tried per command type and step, and mutations of listed moves. */
#define PROPERTY_RANDOM_PER_TYPE 1
#define PROPERTY_MUTATIONS 12

struct property_totals {
	long games;
	long actions;
	long events;
	long listed_checked;
	long sampled;
	long sampled_accepted;
	long views_checked;
	long scarce_checked;
	long by_type[EVENT_TYPE_COUNT];
};

/* Cheap random numbers for the sampled commands and perturbations: 16 bits at a time
 * from one splitmix64 output, scaled by multiply-shift (the slight bias is harmless here). */
struct sample_bits {
	struct rng rng;
	uint64_t word;
	int left;
};

static int below(struct sample_bits *bits, int bound)
{
	if (bits->left == 0) {
		bits->word = rng_next(&bits->rng);
		bits->left = 4;
	}
	uint32_t chunk = (uint32_t)(bits->word & 0xffff);
	bits->word >>= 16;
	bits->left--;
	return (int)((chunk * (uint32_t)bound) >> 16);
}

static int random_between(struct sample_bits *bits, int low, int high)
{
	return low + below(bits, high - low + 1);
}

/* Everything one game needs, kept between steps (static: the move lists are large). */
struct property_run {
	long index;
	uint64_t seed;
	struct game_options options;
	struct playout_options playout;
	struct rng sampler;	 /* for template fills */
	struct sample_bits bits; /* for sampled commands and perturbations */
	struct command moves[GAME_MAX_SEATS][LEGAL_MOVES_MAX];
	int move_count[GAME_MAX_SEATS];
	struct command scratch[LEGAL_MOVES_MAX];
	struct event *log;
	long log_count;
	long log_capacity;
	struct property_totals *totals;
	char problem[1024];
};

static struct property_run run_storage;

/* Record the first broken property; returns the message for `return broken(...)`. */
static const char *broken(struct property_run *run, const struct game *game, const char *format, ...)
	__attribute__((format(printf, 3, 4)));

static const char *broken(struct property_run *run, const struct game *game, const char *format, ...)
{
	const struct game_options *o = &run->options;
	int used = snprintf(run->problem, sizeof run->problem,
			    "game %ld (seed %llu, %d seats, layout %d, numbers %d, start %d, edition %d, dice %d, "
			    "first seat %d, trades %d) at version %u: ",
			    run->index, (unsigned long long)run->seed, o->seats, o->layout, o->numbers, o->start,
			    o->edition, o->dice, o->first_seat, run->playout.trades, game ? game->version : 0u);
	va_list args;
	va_start(args, format);
	if (used >= 0 && (size_t)used < sizeof run->problem)
		vsnprintf(run->problem + used, sizeof run->problem - (size_t)used, format, args);
	va_end(args);
	return run->problem;
}

/* ---- game options per index ---- */

/* Consecutive indexes cycle through every combination of the low bits, so any 32 games in
 * a row cover seats x layout x start/numbers x trades x edition. */
static void property_options(struct property_run *run, long index)
{
	struct game_options *o = &run->options;
	rules_default_options(o);
	o->seats = (uint8_t)(3 + (index & 1));
	o->layout = (uint8_t)((index >> 1) & 1 ? GAME_LAYOUT_RANDOM : GAME_LAYOUT_BEGINNER);
	if (o->layout == GAME_LAYOUT_BEGINNER)
		o->start = (uint8_t)((index >> 2) & 1 ? GAME_START_FIXED : GAME_START_DRAFT);
	else
		o->numbers = (uint8_t)((index >> 2) & 1 ? BOARD_NUMBERS_RANDOM : BOARD_NUMBERS_SPIRAL);
	run->playout.trades = (int)((index >> 3) & 1);
	o->edition = (uint8_t)((index >> 4) & 1 ? GAME_EDITION_2025 : GAME_EDITION_CLASSIC);
	o->dice = (uint8_t)(((index >> 5) & 3) == 0 ? GAME_DICE_MANUAL : GAME_DICE_RANDOM);
	o->first_seat = (int8_t)((index >> 7) & 1 ? (int)(index % o->seats) : GAME_NO_SEAT);
	run->index = index;
	run->seed = PROPERTY_SEED_BASE + (uint64_t)index * UINT64_C(0x9e3779b1);
}

/* ---- the points formula, recomputed from the board ---- */

static const char *check_points(struct property_run *run, const struct game *g)
{
	for (int s = 0; s < g->options.seats; s++) {
		int settlements = 0, cities = 0, roads = 0;
		for (int n = 0; n < BOARD_NODES; n++) {
			if (g->node_owner[n] != s + 1)
				continue;
			settlements += g->node_building[n] == BUILDING_SETTLEMENT;
			cities += g->node_building[n] == BUILDING_CITY;
		}
		for (int e = 0; e < BOARD_EDGES; e++)
			roads += g->edge_owner[e] == s + 1;
		if (roads > GAME_ROADS || settlements > GAME_SETTLEMENTS || cities > GAME_CITIES)
			return broken(run, g, "seat %d has %d roads, %d settlements, %d cities on the board", s, roads,
				      settlements, cities);
		int expected =
			settlements + 2 * cities + (g->longest_road == s ? 2 : 0) + (g->largest_army == s ? 2 : 0);
		int hidden = g->players[s].development_cards[DEVELOPMENT_VICTORY_POINT];
		if (game_public_points(g, s) != expected)
			return broken(run, g, "seat %d public points %d, formula %d", s, game_public_points(g, s),
				      expected);
		if (game_total_points(g, s) != expected + hidden)
			return broken(run, g, "seat %d total points %d, formula %d", s, game_total_points(g, s),
				      expected + hidden);
	}
	return NULL;
}

/* Resources conserved and pieces within limits: cheap enough to run after every event. */
static const char *check_counts(struct property_run *run, const struct game *g)
{
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		int total = g->bank[r];
		for (int s = 0; s < g->options.seats; s++)
			total += g->players[s].resources[r];
		if (total != RESOURCE_BANK_START)
			return broken(run, g, "resource %s: bank + hands = %d", resource_name(r), total);
	}
	for (int s = 0; s < GAME_MAX_SEATS; s++) {
		const struct game_player *p = &g->players[s];
		if (p->roads_left > GAME_ROADS || p->settlements_left > GAME_SETTLEMENTS ||
		    p->cities_left > GAME_CITIES)
			return broken(run, g, "seat %d has pieces left %d/%d/%d", s, p->roads_left, p->settlements_left,
				      p->cities_left);
	}
	return NULL;
}

/* ---- legal moves against rules_decide ---- */

/* Whether `c` is a well-formed offer by `seat` that it can cover (the offer template's
 * meaning, spelled out from RULES.md section 7 independently of rules.c). */
static int offer_acceptable(const struct game *g, int seat, const struct command *c)
{
	uint8_t all = (uint8_t)((1u << g->options.seats) - 1);
	uint8_t others = (uint8_t)(all & ~(1u << seat));
	if (seat == g->turn_seat) {
		if (c->to & ~others)
			return 0;
	} else if (c->to != 0 && c->to != (1u << g->turn_seat)) {
		return 0;
	}
	if (c->trade != 0) {
		/* A counter-offer answers an open offer made to this seat. */
		const struct game_offer *answered = game_find_offer(g, c->trade);
		if (!answered || !(answered->to >> seat & 1u))
			return 0;
	}
	if (resource_total(c->give) == 0 || resource_total(c->want) == 0)
		return 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (c->give[r] && c->want[r])
			return 0;
	/* Open offers are capped per seat: counter-offers never fill the active player's room. */
	int open = 0;
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		open += g->offers[i].id != 0 && g->offers[i].from == seat;
	int cap = seat == g->turn_seat ? GAME_OFFERS_ACTIVE_SEAT : GAME_OFFERS_PER_OTHER_SEAT;
	return open < cap && resource_covers(g->players[seat].resources, c->give);
}

static int same_counts(const uint8_t a[RESOURCE_COUNT], const uint8_t b[RESOURCE_COUNT])
{
	return memcmp(a, b, RESOURCE_COUNT) == 0;
}

/* The `with` of a confirm, normalized: taking a counter-offer names nobody or its maker. */
static int confirm_partner(const struct game *g, int seat, const struct command *c)
{
	const struct game_offer *offer = game_find_offer(g, c->trade);
	if (offer && offer->from != seat && (c->with < 0 || c->with == offer->from))
		return -1;
	return c->with;
}

/* Whether `listed` (a move legal_moves() gave `seat`) stands for command `c`: the same type
 * and the same values in the fields that type uses; a template stands for every filled
 * instance the rules allow. */
static int listed_covers(const struct game *g, int seat, const struct command *listed, const struct command *c)
{
	if (listed->type != c->type)
		return 0;
	switch (c->type) {
	case COMMAND_BUILD_SETTLEMENT:
	case COMMAND_BUILD_CITY:
		return listed->node == c->node;
	case COMMAND_BUILD_ROAD:
		return listed->edge == c->edge;
	case COMMAND_ROLL:
		if (listed->is_template)
			return c->dice[0] >= 1 && c->dice[0] <= 6 && c->dice[1] >= 1 && c->dice[1] <= 6;
		return c->dice[0] == 0 && c->dice[1] == 0;
	case COMMAND_DISCARD:
		return resource_total(c->resources) == listed->count &&
		       resource_covers(g->players[seat].resources, c->resources);
	case COMMAND_MOVE_ROBBER:
	case COMMAND_PLAY_KNIGHT:
		return listed->hex == c->hex && listed->victim == c->victim;
	case COMMAND_PLAY_ROAD_BUILDING:
		if (listed->edge_count != c->edge_count)
			return 0;
		if (c->edge_count == 0)
			return 1;
		if (c->edge_count == 1)
			return listed->edges[0] == c->edges[0];
		return (listed->edges[0] == c->edges[0] && listed->edges[1] == c->edges[1]) ||
		       (listed->edges[0] == c->edges[1] && listed->edges[1] == c->edges[0]);
	case COMMAND_PLAY_YEAR_OF_PLENTY:
		return same_counts(listed->resources, c->resources);
	case COMMAND_PLAY_MONOPOLY:
		return listed->resource == c->resource;
	case COMMAND_MARITIME_TRADE:
		return same_counts(listed->give, c->give) && same_counts(listed->want, c->want);
	case COMMAND_OFFER_TRADE:
		return offer_acceptable(g, seat, c);
	case COMMAND_ACCEPT_TRADE:
	case COMMAND_DECLINE_TRADE:
	case COMMAND_WITHDRAW_TRADE:
		return listed->trade == c->trade;
	case COMMAND_CONFIRM_TRADE:
		return listed->trade == c->trade && listed->with == confirm_partner(g, seat, c);
	case COMMAND_BUY_DEVELOPMENT_CARD:
	case COMMAND_END_TURN:
		return 1;
	default:
		return 0;
	}
}

static int is_listed(const struct property_run *run, const struct game *g, int seat, const struct command *c)
{
	if (seat < 0 || seat >= g->options.seats)
		return 0;
	for (int i = 0; i < run->move_count[seat]; i++)
		if (listed_covers(g, seat, &run->moves[seat][i], c))
			return 1;
	return 0;
}

static void describe(const struct command *c, char *out, size_t size)
{
	snprintf(out, size,
		 "%s node %d edge %d hex %d victim %d with %d edges %d:[%d,%d] dice %d,%d resource %d to %d trade %d "
		 "resources [%d %d %d %d %d] give [%d %d %d %d %d] want [%d %d %d %d %d]",
		 command_type_name(c->type) ? command_type_name(c->type) : "?", c->node, c->edge, c->hex, c->victim,
		 c->with, c->edge_count, c->edges[0], c->edges[1], c->dice[0], c->dice[1], c->resource, c->to, c->trade,
		 c->resources[0], c->resources[1], c->resources[2], c->resources[3], c->resources[4], c->give[0],
		 c->give[1], c->give[2], c->give[3], c->give[4], c->want[0], c->want[1], c->want[2], c->want[3],
		 c->want[4]);
}

static enum error decide_on_copy(const struct property_run *run, const struct game *g, int seat,
				 const struct command *c, struct event_list *events)
{
	struct rng rng;
	rng_init(&rng, run->seed, g->version);
	return rules_decide(g, seat, c, &rng, events, NULL);
}

/* The fields that make a listed move a distinct choice, with a road-building pair in a
 * fixed order (the two orders are one choice), as bytes to sort and compare. */
struct move_key {
	uint8_t bytes[12 + 3 * RESOURCE_COUNT];
};

static void move_key(const struct command *c, struct move_key *key)
{
	int low = c->edges[0], high = c->edges[1];
	if (c->edge_count == 2 && high < low) {
		low = c->edges[1];
		high = c->edges[0];
	}
	uint8_t *b = key->bytes;
	memset(key, 0, sizeof *key);
	b[0] = c->type;
	b[1] = (uint8_t)c->node;
	b[2] = (uint8_t)c->edge;
	b[3] = (uint8_t)c->hex;
	b[4] = (uint8_t)c->victim;
	b[5] = (uint8_t)c->with;
	b[6] = c->edge_count;
	b[7] = (uint8_t)(c->edge_count >= 1 ? low : 0);
	b[8] = (uint8_t)(c->edge_count == 2 ? high : 0);
	b[9] = c->resource;
	b[10] = (uint8_t)(c->trade & 0xff);
	b[11] = (uint8_t)(c->trade >> 8);
	memcpy(b + 12, c->resources, RESOURCE_COUNT);
	memcpy(b + 12 + RESOURCE_COUNT, c->give, RESOURCE_COUNT);
	memcpy(b + 12 + 2 * RESOURCE_COUNT, c->want, RESOURCE_COUNT);
}

static int compare_keys(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(struct move_key));
}

/* Nothing listed twice: one entry per distinct choice. */
static const char *check_no_duplicates(struct property_run *run, const struct game *g, int seat)
{
	static struct move_key keys[LEGAL_MOVES_MAX];
	int count = run->move_count[seat];
	for (int i = 0; i < count; i++)
		move_key(&run->moves[seat][i], &keys[i]);
	qsort(keys, (size_t)count, sizeof keys[0], compare_keys);
	for (int i = 1; i < count; i++)
		if (memcmp(&keys[i - 1], &keys[i], sizeof keys[i]) == 0)
			return broken(run, g, "seat %d lists a %s move twice", seat,
				      command_type_name(keys[i].bytes[0]));
	return NULL;
}

/* Every listed move is accepted; a waiting seat can always move; others may only trade. */
static const char *check_listed(struct property_run *run, const struct game *g)
{
	static struct event_list events;
	uint8_t waiting = legal_waiting_for(g);
	const char *problem;
	char text[512];
	for (int s = 0; s < g->options.seats; s++) {
		int count = legal_moves(g, s, run->moves[s], LEGAL_MOVES_MAX);
		if (count > LEGAL_MOVES_MAX)
			return broken(run, g, "seat %d has %d legal moves, more than LEGAL_MOVES_MAX", s, count);
		run->move_count[s] = count;
		if ((waiting >> s & 1u) && count == 0)
			return broken(run, g, "seat %d is waited for but has no legal move", s);
		for (int i = 0; i < count; i++) {
			struct command move = run->moves[s][i];
			int type = move.type;
			if (!(waiting >> s & 1u) && type != COMMAND_OFFER_TRADE && type != COMMAND_ACCEPT_TRADE &&
			    type != COMMAND_DECLINE_TRADE && type != COMMAND_WITHDRAW_TRADE)
				return broken(run, g, "seat %d is not waited for but lists %s", s,
					      command_type_name(type));
			playout_fill_template(g, s, &move, &run->sampler);
			if (!listed_covers(g, s, &run->moves[s][i], &move)) {
				describe(&move, text, sizeof text);
				return broken(run, g, "the oracle does not recognise listed move %s of seat %d", text,
					      s);
			}
			enum error error = decide_on_copy(run, g, s, &move, &events);
			run->totals->listed_checked++;
			if (error != ERROR_OK || events.count < 1) {
				describe(&move, text, sizeof text);
				return broken(run, g, "listed move %s of seat %d refused: %s", text, s,
					      error_code(error));
			}
		}
		if ((problem = check_no_duplicates(run, g, s)) != NULL)
			return problem;
	}
	return NULL;
}

/* ---- placement recomputed from the board arrays (independent of placement.c) ---- */

static int node_open(const struct game *g, int node)
{
	if (g->node_owner[node])
		return 0;
	for (int k = 0; k < 3; k++)
		if (board_node_neighbors[node][k] >= 0 && g->node_owner[board_node_neighbors[node][k]])
			return 0;
	return 1;
}

static int touches_own_road(const struct game *g, int seat, int node)
{
	for (int k = 0; k < 3; k++)
		if (board_node_edges[node][k] >= 0 && g->edge_owner[board_node_edges[node][k]] == seat + 1)
			return 1;
	return 0;
}

/* RULES.md 4: an empty path with the seat's building at an end, or its road at an end where
 * no opponent's building stands. */
static int road_allowed(const struct game *g, int seat, int edge)
{
	if (g->edge_owner[edge])
		return 0;
	for (int end = 0; end < 2; end++) {
		int node = board_edge_nodes[edge][end];
		if (g->node_owner[node] == seat + 1)
			return 1;
		if (!g->node_owner[node] && touches_own_road(g, seat, node))
			return 1;
	}
	return 0;
}

/* The active seat's listed roads, settlements, cities and robber moves are exactly what
 * the rules allow, recomputed here from the board arrays. */
static const char *check_placements(struct property_run *run, const struct game *g)
{
	int seat = g->turn_seat;
	if (!game_in_progress(g) || seat < 0)
		return NULL;
	const struct command *list = run->moves[seat];
	int count = run->move_count[seat];
	const struct game_player *p = &g->players[seat];
	int want_roads = 0, want_settlements = 0, want_cities = 0, want_robber = 0;
	uint64_t road_seen[2] = {0, 0}, settlement_seen = 0, city_seen = 0;
	uint32_t robber_seen[BOARD_HEXES] = {0};
	switch (g->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		want_settlements = 1;
		break;
	case GAME_PHASE_SETUP_ROAD:
		want_roads = 1;
		break;
	case GAME_PHASE_MOVE_ROBBER:
		want_robber = 1;
		break;
	case GAME_PHASE_MAIN:
		want_roads = p->roads_left > 0 && resource_covers(p->resources, game_cost_road);
		want_settlements = p->settlements_left > 0 && resource_covers(p->resources, game_cost_settlement);
		want_cities = p->cities_left > 0 && resource_covers(p->resources, game_cost_city);
		break;
	default:
		break;
	}
	for (int i = 0; i < count; i++) {
		const struct command *c = &list[i];
		if (c->type == COMMAND_BUILD_ROAD)
			road_seen[c->edge >> 6] |= UINT64_C(1) << (c->edge & 63);
		else if (c->type == COMMAND_BUILD_SETTLEMENT)
			settlement_seen |= UINT64_C(1) << c->node;
		else if (c->type == COMMAND_BUILD_CITY)
			city_seen |= UINT64_C(1) << c->node;
		else if (c->type == COMMAND_MOVE_ROBBER)
			robber_seen[c->hex] |= 1u << (c->victim + 1);
	}
	for (int e = 0; e < BOARD_EDGES; e++) {
		int allowed = 0;
		if (want_roads && g->phase == GAME_PHASE_SETUP_ROAD)
			allowed = !g->edge_owner[e] &&
				  (board_edge_nodes[e][0] == g->setup_node || board_edge_nodes[e][1] == g->setup_node);
		else if (want_roads)
			allowed = road_allowed(g, seat, e);
		if (allowed != (int)(road_seen[e >> 6] >> (e & 63) & 1u))
			return broken(run, g, "seat %d: road on edge %d %s by the rules but %s", seat, e,
				      allowed ? "allowed" : "not allowed", allowed ? "not listed" : "listed");
	}
	for (int n = 0; n < BOARD_NODES; n++) {
		int settle = want_settlements && node_open(g, n) &&
			     (g->phase == GAME_PHASE_SETUP_SETTLEMENT || touches_own_road(g, seat, n));
		int city = want_cities && g->node_owner[n] == seat + 1 && g->node_building[n] == BUILDING_SETTLEMENT;
		if (settle != (int)(settlement_seen >> n & 1u) || city != (int)(city_seen >> n & 1u))
			return broken(run, g, "seat %d: settlement/city at node %d allowed %d/%d, listed %d/%d", seat,
				      n, settle, city, (int)(settlement_seen >> n & 1u), (int)(city_seen >> n & 1u));
	}
	for (int hex = 0; hex < BOARD_HEXES && want_robber; hex++) {
		uint32_t expected = 0;
		if (hex != g->robber) {
			for (int k = 0; k < 6; k++) {
				int owner = g->node_owner[board_hex_nodes[hex][k]] - 1;
				if (owner >= 0 && owner != seat && game_resource_count(g, owner) > 0)
					expected |= 1u << (owner + 1);
			}
			if (!expected)
				expected = 1u; /* victim -1: no steal */
		}
		if (expected != robber_seen[hex])
			return broken(run, g, "robber on hex %d: victims allowed %#x, listed %#x", hex, expected,
				      robber_seen[hex]);
	}
	return NULL;
}

static void random_counts(struct sample_bits *bits, uint8_t counts[RESOURCE_COUNT], int max_each)
{
	for (int r = 0; r < RESOURCE_COUNT; r++)
		counts[r] = below(bits, 3) == 0 ? (uint8_t)random_between(bits, 0, max_each) : 0;
}

/* A command of `type` whose every field is random, in and out of range. */
static void random_command(const struct game *g, struct sample_bits *bits, int type, struct command *c)
{
	command_init(c, (enum command_type)type);
	c->node = (int8_t)random_between(bits, -2, BOARD_NODES + 1);
	c->edge = (int8_t)random_between(bits, -2, BOARD_EDGES + 1);
	c->hex = (int8_t)random_between(bits, -2, BOARD_HEXES + 1);
	c->victim = (int8_t)random_between(bits, -2, GAME_MAX_SEATS);
	c->with = (int8_t)random_between(bits, -2, GAME_MAX_SEATS);
	c->edge_count = (uint8_t)random_between(bits, 0, 3);
	c->edges[0] = (int8_t)random_between(bits, -2, BOARD_EDGES + 1);
	c->edges[1] = (int8_t)random_between(bits, -2, BOARD_EDGES + 1);
	if (below(bits, 2)) {
		c->dice[0] = (uint8_t)random_between(bits, 0, 7);
		c->dice[1] = (uint8_t)random_between(bits, 0, 7);
	}
	c->resource = (uint8_t)random_between(bits, 0, RESOURCE_COUNT + 1);
	c->to = (uint8_t)(below(bits, 8) == 0 ? below(bits, 256) : below(bits, 1 << GAME_MAX_SEATS));
	c->trade = (uint16_t)random_between(bits, 0, g->next_offer_id + 1);
	c->count = (uint8_t)random_between(bits, 0, 10);
	random_counts(bits, c->resources, 3);
	if (below(bits, 2)) {
		/* Shaped like a maritime trade: n of one kind for m of another (rates and multiples). */
		c->give[below(bits, RESOURCE_COUNT)] = (uint8_t)random_between(bits, 1, 9);
		c->want[below(bits, RESOURCE_COUNT)] = (uint8_t)random_between(bits, 1, 3);
	} else {
		random_counts(bits, c->give, 3);
		random_counts(bits, c->want, 3);
	}
}

/* A near miss: one field of a listed move changed (or none, and the seat changes). */
static void mutate_command(const struct game *g, int owner, struct rng *fill, struct sample_bits *bits,
			   struct command *c)
{
	playout_fill_template(g, owner, c, fill);
	switch (below(bits, 10)) {
	case 0:
		c->node = (int8_t)(c->node + random_between(bits, -2, 2));
		c->edge = (int8_t)(c->edge + random_between(bits, -2, 2));
		break;
	case 1:
		c->hex = (int8_t)random_between(bits, -1, BOARD_HEXES);
		break;
	case 2:
		c->victim = (int8_t)random_between(bits, -2, GAME_MAX_SEATS);
		break;
	case 3:
		c->edges[below(bits, 2)] = (int8_t)random_between(bits, -1, BOARD_EDGES);
		c->edge_count = (uint8_t)(below(bits, 3) ? c->edge_count : random_between(bits, 0, 3));
		break;
	case 4:
		c->resources[below(bits, RESOURCE_COUNT)] += (uint8_t)random_between(bits, 0, 2);
		c->resource = (uint8_t)random_between(bits, 0, RESOURCE_COUNT);
		break;
	case 5:
		c->give[below(bits, RESOURCE_COUNT)] = (uint8_t)random_between(bits, 0, 4);
		c->want[below(bits, RESOURCE_COUNT)] = (uint8_t)random_between(bits, 0, 2);
		break;
	case 6:
		c->trade = (uint16_t)(c->trade + random_between(bits, -1, 1));
		c->with = (int8_t)random_between(bits, -2, GAME_MAX_SEATS);
		c->to = (uint8_t)below(bits, 1 << GAME_MAX_SEATS);
		break;
	case 7:
		c->dice[below(bits, 2)] = (uint8_t)random_between(bits, 0, 7);
		break;
	case 8: {
		int8_t first = c->edges[0];
		c->edges[0] = c->edges[1];
		c->edges[1] = first;
		break;
	}
	default:
		break;
	}
}

/* Decide one sampled command and compare with the oracle. */
static const char *check_sampled(struct property_run *run, const struct game *g, int seat, const struct command *c)
{
	static struct event_list events;
	enum error error = decide_on_copy(run, g, seat, c, &events);
	int expected = is_listed(run, g, seat, c);
	run->totals->sampled++;
	run->totals->sampled_accepted += error == ERROR_OK;
	char text[512];
	/* Deciding in place (as playouts do) answers the same, and a refusal leaves the state as
	 * it was: every check of a command comes before its first event. */
	static struct game in_place;
	static struct event_list in_place_events;
	memcpy(&in_place, g, sizeof in_place);
	struct rng rng;
	rng_init(&rng, run->seed, g->version);
	enum error in_place_error = rules_decide_in_place(&in_place, seat, c, &rng, &in_place_events);
	if (in_place_error != error || (error != ERROR_OK && memcmp(&in_place, g, sizeof in_place) != 0)) {
		describe(c, text, sizeof text);
		return broken(run, g, "%s by seat %d decided in place: %s, and %s the state", text, seat,
			      error_code(in_place_error), memcmp(&in_place, g, sizeof in_place) ? "changed" : "kept");
	}
	if ((error == ERROR_OK) == expected && (error == ERROR_OK || events.count == 0))
		return NULL;
	describe(c, text, sizeof text);
	if (error == ERROR_OK)
		return broken(run, g, "unlisted %s by seat %d was accepted", text, seat);
	if (!expected)
		return broken(run, g, "refused %s by seat %d left %d events", text, seat, events.count);
	return broken(run, g, "%s by seat %d equals a listed move but was refused: %s", text, seat, error_code(error));
}

static const char *check_unlisted(struct property_run *run, const struct game *g)
{
	struct sample_bits *bits = &run->bits;
	const char *problem;
	for (int type = 0; type <= COMMAND_TYPE_COUNT; type++) {
		for (int k = 0; k < PROPERTY_RANDOM_PER_TYPE; k++) {
			struct command c;
			random_command(g, bits, type, &c);
			int seat = random_between(bits, -1, g->options.seats);
			if ((problem = check_sampled(run, g, seat, &c)) != NULL)
				return problem;
		}
	}
	int total = 0;
	for (int s = 0; s < g->options.seats; s++)
		total += run->move_count[s];
	for (int k = 0; k < PROPERTY_MUTATIONS && total > 0; k++) {
		int pick = below(bits, total);
		int owner = 0;
		while (pick >= run->move_count[owner])
			pick -= run->move_count[owner++];
		struct command c = run->moves[owner][pick];
		mutate_command(g, owner, &run->sampler, bits, &c);
		int seat = below(bits, 4) ? owner : random_between(bits, -1, g->options.seats);
		if ((problem = check_sampled(run, g, seat, &c)) != NULL)
			return problem;
	}
	return NULL;
}

/* ---- views ---- */

/* Spread `total` cards at random over `kinds` kinds (each at most `limit[k]` when given). */
static void random_spread(struct sample_bits *bits, uint8_t *counts, int kinds, int total, const uint8_t *limit)
{
	memset(counts, 0, (size_t)kinds);
	for (int i = 0; i < total; i++) {
		int kind;
		do
			kind = below(bits, kinds);
		while (limit && counts[kind] >= limit[kind]);
		counts[kind]++;
	}
}

/* A copy of *g where every fact private to seats other than `viewer`, and the deck's
 * composition, is changed at random while every public count stays the same. */
static void perturb_private(struct sample_bits *bits, const struct game *g, int viewer, struct game *out)
{
	memcpy(out, g, sizeof *out);
	for (int s = 0; s < g->options.seats; s++) {
		if (s == viewer)
			continue;
		struct game_player *p = &out->players[s];
		random_spread(bits, p->resources, RESOURCE_COUNT, game_resource_count(g, s), NULL);
		int revealed = g->phase == GAME_PHASE_FINISHED && g->winner == s;
		int kinds = revealed ? DEVELOPMENT_VICTORY_POINT : DEVELOPMENT_COUNT;
		int hidden_cards = 0;
		for (int k = 0; k < kinds; k++)
			hidden_cards += p->development_cards[k];
		random_spread(bits, p->development_cards, kinds, hidden_cards, NULL);
		int bought = 0;
		for (int k = 0; k < DEVELOPMENT_COUNT; k++)
			bought += p->bought_this_turn[k];
		if (bought <= game_development_count(out, s))
			random_spread(bits, p->bought_this_turn, DEVELOPMENT_COUNT, bought, p->development_cards);
	}
	random_spread(bits, out->deck, DEVELOPMENT_COUNT, resource_total(g->deck), NULL);
}

static const char *check_view_of(struct property_run *run, const struct game *g, int viewer)
{
	static struct game_view view, again;
	static struct game perturbed;
	static const struct view_you nobody;
	view_game(g, viewer, &view);
	if (view.viewer != viewer || view.version != g->version)
		return broken(run, g, "view for %d names viewer %d version %u", viewer, view.viewer, view.version);
	if (viewer == VIEW_SPECTATOR) {
		if (view.has_you || memcmp(&view.you, &nobody, sizeof nobody) != 0)
			return broken(run, g, "a spectator's view has `you`");
	} else {
		const struct game_player *own = &g->players[viewer];
		if (!view.has_you || view.you.seat != viewer || !same_counts(view.you.resources, own->resources) ||
		    memcmp(view.you.development_cards, own->development_cards, DEVELOPMENT_COUNT) != 0 ||
		    view.you.victory_points != game_total_points(g, viewer))
			return broken(run, g, "seat %d's `you` is not its own hand and cards", viewer);
		/* `playable` agrees with the legal moves: a kind is playable iff a play is listed. */
		static const int play_of[DEVELOPMENT_COUNT] = {COMMAND_PLAY_KNIGHT, COMMAND_PLAY_ROAD_BUILDING,
							       COMMAND_PLAY_YEAR_OF_PLENTY, COMMAND_PLAY_MONOPOLY, -1};
		for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++) {
			int listed = 0;
			for (int i = 0; i < run->move_count[viewer] && !listed; i++)
				listed = run->moves[viewer][i].type == play_of[kind];
			int held = own->development_cards[kind] - own->bought_this_turn[kind];
			if ((view.you.playable[kind] > 0) != listed || (listed && view.you.playable[kind] != held))
				return broken(run, g, "seat %d: %d playable %s cards, %s listed", viewer,
					      view.you.playable[kind], development_card_name(kind),
					      listed ? "a play" : "none");
		}
	}
	for (int s = 0; s < g->options.seats; s++) {
		const struct view_player *seen = &view.players[s];
		int revealed = g->phase == GAME_PHASE_FINISHED && g->winner == s;
		int points = revealed ? game_total_points(g, s) : game_public_points(g, s);
		if (seen->resource_count != game_resource_count(g, s) ||
		    seen->development_card_count != game_development_count(g, s) || seen->victory_points != points)
			return broken(run, g, "viewer %d sees wrong counts or points for seat %d", viewer, s);
	}
	if (view.development_cards_left != resource_total(g->deck))
		return broken(run, g, "view shows %d development cards left", view.development_cards_left);
	for (int trial = 0; trial < 2; trial++) {
		perturb_private(&run->bits, g, viewer, &perturbed);
		view_game(&perturbed, viewer, &again);
		if (memcmp(&view, &again, sizeof view) != 0)
			return broken(run, g, "viewer %d's view changes with another seat's private cards", viewer);
	}
	run->totals->views_checked++;
	return NULL;
}

static const char *check_views(struct property_run *run, const struct game *g)
{
	for (int viewer = VIEW_SPECTATOR; viewer < g->options.seats; viewer++) {
		const char *problem = check_view_of(run, g, viewer);
		if (problem)
			return problem;
	}
	return NULL;
}

/* view_event(): the stolen card for thief and victim only, the bought card for the buyer
 * only, every other field (and every other event) unchanged. */
static const char *check_event_views(struct property_run *run, const struct game *g, const struct event *event)
{
	for (int viewer = VIEW_SPECTATOR; viewer < g->options.seats; viewer++) {
		struct event seen, expected = *event;
		view_event(event, viewer, &seen);
		if (event->type == EVENT_RESOURCE_STOLEN && viewer != event->seat && viewer != event->other)
			expected.resource = RESOURCE_HIDDEN;
		if (event->type == EVENT_DEVELOPMENT_CARD_BOUGHT && viewer != event->seat)
			expected.card = DEVELOPMENT_HIDDEN;
		if (memcmp(&seen, &expected, sizeof seen) != 0)
			return broken(run, g, "viewer %d's copy of a %s event is wrong", viewer,
				      event_type_name(event->type));
	}
	return NULL;
}

/* ---- one game ---- */

static void log_event(struct property_run *run, const struct event *event)
{
	if (run->log_count == run->log_capacity) {
		run->log_capacity = run->log_capacity ? 2 * run->log_capacity : 4096;
		run->log = realloc(run->log, (size_t)run->log_capacity * sizeof *run->log);
		if (!run->log)
			abort();
	}
	run->log[run->log_count++] = *event;
}

/* Apply a decision's events one at a time to *live, checking each on the way. */
static const char *apply_checked(struct property_run *run, struct game *live, const struct event_list *events)
{
	const char *problem;
	for (int i = 0; i < events->count; i++) {
		const struct event *event = &events->events[i];
		if (!apply_event_valid(live, event))
			return broken(run, live, "event %d (%s) of the decision is not valid for apply", i,
				      event_type_name(event->type));
		if ((problem = check_event_views(run, live, event)) != NULL)
			return problem;
		apply_event(live, event);
		log_event(run, event);
		run->totals->events++;
		run->totals->by_type[event->type]++;
		if ((problem = check_counts(run, live)) != NULL)
			return problem;
	}
	return NULL;
}

static const char *check_state(struct property_run *run, const struct game *g)
{
	const char *problem = invariants_check(g);
	if (problem)
		return broken(run, g, "invariant broken: %s", problem);
	if ((problem = check_points(run, g)) != NULL)
		return problem;
	if (!game_in_setup(g) && g->phase != GAME_PHASE_FINISHED &&
	    game_total_points(g, g->turn_seat) >= GAME_POINTS_TO_WIN)
		return broken(run, g, "seat %d has %d points on its turn but has not won", g->turn_seat,
			      game_total_points(g, g->turn_seat));
	return NULL;
}

/* Random games seldom drain the bank, yet the bank's last card of a kind is where the
 * lists and the rules are easiest to get wrong (a maritime multiple, year of plenty's double,
 * production). So, at one in 16 of the steps before or after a roll, the listed and sampled
 * moves are also checked on a copy where the bank holds 0, 1 or 2 of one kind (or of every
 * kind), the rest moved into random seats' hands (resources stay conserved). The game itself
 * goes on from the real state. */
static const char *check_scarce_bank(struct property_run *run, const struct game *g)
{
	static struct game scarce;
	struct sample_bits *bits = &run->bits;
	if ((g->phase != GAME_PHASE_MAIN && g->phase != GAME_PHASE_ROLL) || below(bits, 16) != 0)
		return NULL;
	memcpy(&scarce, g, sizeof scarce);
	int every_kind = below(bits, 4) == 0;
	int chosen = below(bits, RESOURCE_COUNT);
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		if (!every_kind && r != chosen)
			continue;
		int left = below(bits, 3);
		while (scarce.bank[r] > left) {
			int seat = below(bits, g->options.seats);
			if (scarce.players[seat].resources[r] == UINT8_MAX)
				break;
			scarce.bank[r]--;
			scarce.players[seat].resources[r]++;
		}
	}
	const char *problem;
	if ((problem = check_listed(run, &scarce)) != NULL || (problem = check_unlisted(run, &scarce)) != NULL)
		return problem;
	run->totals->scarce_checked++;
	return NULL;
}

static const char *check_step(struct property_run *run, const struct game *g)
{
	const char *problem;
	if ((problem = check_listed(run, g)) != NULL || (problem = check_placements(run, g)) != NULL ||
	    (problem = check_unlisted(run, g)) != NULL || (problem = check_views(run, g)) != NULL ||
	    (problem = check_scarce_bank(run, g)) != NULL)
		return problem;
	return NULL;
}

static const char *check_end(struct property_run *run, const struct game *g)
{
	if (g->phase != GAME_PHASE_FINISHED)
		return broken(run, g, "no move left but the game is not over (phase %s)", game_phase_name(g->phase));
	if (g->winner != g->turn_seat)
		return broken(run, g, "seat %d won on seat %d's turn", g->winner, g->turn_seat);
	int points = game_total_points(g, g->winner);
	if (points < GAME_POINTS_TO_WIN)
		return broken(run, g, "the winner has %d points", points);
	const struct event *last = &run->log[run->log_count - 1];
	if (last->type != EVENT_GAME_WON || last->seat != g->winner || last->points != points ||
	    last->victory_point_cards != g->players[g->winner].development_cards[DEVELOPMENT_VICTORY_POINT])
		return broken(run, g, "the last event is not a game_won naming the winner, its points and cards");
	for (int s = 0; s < g->options.seats; s++)
		if (legal_moves(g, s, run->scratch, LEGAL_MOVES_MAX) != 0)
			return broken(run, g, "seat %d still has legal moves after the win", s);
	return NULL;
}

static const char *check_replay(struct property_run *run, const struct game *live)
{
	static struct game replayed;
	memset(&replayed, 0, sizeof replayed);
	for (long i = 0; i < run->log_count; i++) {
		if (!apply_event_valid(&replayed, &run->log[i]))
			return broken(run, &replayed, "replay: event %ld (%s) is not valid", i,
				      event_type_name(run->log[i].type));
		apply_event(&replayed, &run->log[i]);
	}
	if (memcmp(&replayed, live, sizeof replayed) != 0)
		return broken(run, live, "replaying %ld events does not reproduce the state byte for byte",
			      run->log_count);
	return NULL;
}

static const char *play_game(struct property_run *run, long index)
{
	static struct game game, after;
	static struct event_list events;
	const char *problem;
	property_options(run, index);
	rng_init(&run->sampler, run->seed, UINT64_C(0x5a3b1e));
	rng_init(&run->bits.rng, run->seed, UINT64_C(0xb175));
	run->bits.left = 0;
	run->log_count = 0;

	struct rng rng;
	rng_init(&rng, run->seed, 0);
	memset(&game, 0, sizeof game);
	enum error error = rules_create(&run->options, &rng, &events);
	if (error != ERROR_OK)
		return broken(run, &game, "rules_create refused: %s", error_code(error));
	if ((problem = apply_checked(run, &game, &events)) != NULL || (problem = check_state(run, &game)) != NULL)
		return problem;

	struct rng chooser;
	rng_init(&chooser, run->seed, UINT64_C(0xc4005e));
	long actions = 0;
	int seat;
	struct command command;
	for (;;) {
		if ((problem = check_step(run, &game)) != NULL)
			return problem;
		if (!playout_choose(&game, &run->playout, &chooser, run->scratch, &seat, &command))
			break;
		if (++actions > PROPERTY_MAX_ACTIONS)
			return broken(run, &game, "no winner after %d actions", PROPERTY_MAX_ACTIONS);
		rng_init(&rng, run->seed, game.version);
		error = rules_decide(&game, seat, &command, &rng, &events, &after);
		if (error != ERROR_OK)
			return broken(run, &game, "playout's %s by seat %d refused: %s",
				      command_type_name(command.type), seat, error_code(error));
		if ((problem = apply_checked(run, &game, &events)) != NULL)
			return problem;
		if (memcmp(&game, &after, sizeof game) != 0)
			return broken(run, &game, "applying the events differs from rules_decide's state");
		if ((problem = check_state(run, &game)) != NULL)
			return problem;
	}
	run->totals->actions += actions;
	run->totals->games++;
	if ((problem = check_end(run, &game)) != NULL || (problem = check_replay(run, &game)) != NULL)
		return problem;
	return NULL;
}

static long property_games(void)
{
	const char *text = getenv("PROPERTY_GAMES");
	if (!text || !*text)
		return PROPERTY_DEFAULT_GAMES;
	char *end;
	long games = strtol(text, &end, 10);
	return *end == '\0' && games > 0 ? games : PROPERTY_DEFAULT_GAMES;
}

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(test_random_games_keep_every_property)
{
	struct property_totals totals;
	memset(&totals, 0, sizeof totals);
	struct property_run *run = &run_storage;
	run->totals = &totals;
	long games = property_games();
	double start = seconds_now();
	const char *problem = NULL;
	for (long index = 0; index < games && !problem; index++)
		problem = play_game(run, index);
	double elapsed = seconds_now() - start;
	fprintf(stderr,
		"properties: %ld games, %ld actions (%.0f per game), %ld events, %ld listed moves decided, "
		"%ld sampled commands (%ld accepted), %ld views, %ld scarce-bank positions, %.1f s\n",
		totals.games, totals.actions, totals.games ? (double)totals.actions / (double)totals.games : 0.0,
		totals.events, totals.listed_checked, totals.sampled, totals.sampled_accepted, totals.views_checked,
		totals.scarce_checked, elapsed);
	fprintf(stderr, "properties: events by type:");
	for (int type = 0; type < EVENT_TYPE_COUNT; type++)
		fprintf(stderr, " %s %ld", event_type_name(type), totals.by_type[type]);
	fprintf(stderr, "\n");
	free(run->log);
	run->log = NULL;
	run->log_capacity = 0;
	ck_assert_msg(problem == NULL, "%s", problem ? problem : "");
	ck_assert_int_eq(totals.games, games);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("properties");
	TCase *tc = tcase_create("random_games");
	tcase_set_timeout(tc, 3600);
	tcase_add_test(tc, test_random_games_keep_every_property);
	suite_add_tcase(suite, tc);
	return suite;
}
