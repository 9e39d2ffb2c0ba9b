/*
 * bot_eval.h - what a seat's view is worth to that seat: the bot's evaluation, apart from
 * its policy (bot.c).
 *
 * struct bot_eval condenses one struct game_view (the seat's own hand plus public facts)
 * into occupancy masks, the seat's production and harbor rates and the leader, and answers
 * questions on it: what a site, a city, a road or a robber placement is worth, which builds
 * the seat can use (the plan), and whether a trade moves the plan on. Nothing here reads a
 * struct game. The struct is caller-owned (on the stack), borrows the view, and caches what
 * it computes on demand; it is valid while the view is.
 */
#ifndef CATAN_ENGINE_BOT_EVAL_H
#define CATAN_ENGINE_BOT_EVAL_H

#include <stdint.h>

#include "board.h"
#include "resource.h"
#include "view.h"

/* The builds, in order of preference. */
enum bot_build { BOT_BUILD_CITY, BOT_BUILD_SETTLEMENT, BOT_BUILD_ROAD, BOT_BUILD_DEVELOPMENT, BOT_BUILD_COUNT };

extern const uint8_t *const bot_build_cost[BOT_BUILD_COUNT];

struct bot_eval {
	const struct game_view *view;
	int me;
	const struct view_player *self;
	uint8_t hand[RESOURCE_COUNT];
	uint64_t occupied;	 /* nodes holding any building */
	uint64_t mine;		 /* the seat's settlements and cities */
	uint64_t my_settlements; /* candidates for a city */
	uint64_t blocked;	 /* nodes holding an opponent's building */
	uint64_t open;		 /* empty nodes with every neighbour empty */
	uint64_t road_nodes;	 /* nodes the seat's roads touch */
	uint64_t anchors;	 /* nodes a new road may grow from */
	uint64_t harbor_nodes;	 /* the 18 nodes that touch a harbor */
	struct board_edge_set my_roads;
	int production[RESOURCE_COUNT]; /* the seat's pips per resource */
	int rate[RESOURCE_COUNT];	/* the seat's bank rate per resource given */
	int leader;			/* the opponent with most public points, -1 if none */
	/* The plan: the usable builds, best first (bot_eval_plan()). */
	int plan_count; /* -1 until computed */
	int plan[BOT_BUILD_COUNT];
	/* Computed on demand. */
	int has_potential;
	int has_reach;
	int lr_interest; /* -1 unknown, else 0/1 */
	int best_road;	 /* -1 unknown */
	int potential[BOARD_NODES];
	int8_t reach[BOARD_NODES];
};

/* Condense the view of a seat (view->has_you must be set). Borrows *view. */
void bot_eval_init(struct bot_eval *eval, const struct game_view *view);

/* Pips of a number token: 2 and 12 = 1 ... 6 and 8 = 5; 0 for none. */
int bot_eval_pips(int number);

/* What a settlement on `node` is worth to the seat: weighted pips, resources it lacks,
 * harbors matching its production. */
int bot_eval_site(const struct bot_eval *eval, int node);

/* What upgrading `node` to a city adds: its production, the robber's hex aside. */
int bot_eval_city(const struct bot_eval *eval, int node);

/* The best open-site value reachable from `node`, halved per path. */
int bot_eval_potential(struct bot_eval *eval, int node);

/* What a road on `edge` is worth when the seat's network reaches the nodes in `anchors`:
 * the potential it gains toward a site, plus a bonus when it lengthens the route while
 * Longest Road is within reach. 0 for a road that leads nowhere. */
int bot_eval_road(struct bot_eval *eval, int edge, uint64_t anchors);

/* 1 when the seat has a settlement piece and an open site its roads touch. */
int bot_eval_site_reachable(const struct bot_eval *eval);

/* 1 when lengthening the seat's route may take Longest Road soon or keep it. */
int bot_eval_longest_road_interest(struct bot_eval *eval);

/* Cards of `cost` the hand lacks. */
int bot_eval_cards_missing(const uint8_t hand[RESOURCE_COUNT], const uint8_t cost[RESOURCE_COUNT]);

/* Fill eval->plan: the builds the seat can use now (a city on its settlement, a settlement
 * on a site its roads touch, a road that leads somewhere, a development card while the
 * deck lasts), ordered by cards missing plus a fixed preference. */
void bot_eval_plan(struct bot_eval *eval);

/* The first build of the plan the hand does not cover once the builds before it are paid:
 * its missing cards in need[], the cards kept for it and the builds before it in keep[].
 * -1 when the hand covers the whole plan (or there is none). */
int bot_eval_trade_target(struct bot_eval *eval, uint8_t need[RESOURCE_COUNT], uint8_t keep[RESOURCE_COUNT]);

/* 1 when receiving `get` for `pay` from seat `partner` moves the plan on: it brings a card
 * the target build lacks, takes only cards the plan does not keep, gives at most two for
 * each card gained, and the partner is not close to winning. */
int bot_eval_trade_helps(struct bot_eval *eval, const uint8_t get[RESOURCE_COUNT], const uint8_t pay[RESOURCE_COUNT],
			 int partner);

/* 1 when the seat trades with `partner` at all: another seat not close to winning (the
 * partner test of bot_eval_trade_helps()). */
int bot_eval_trade_partner(const struct bot_eval *eval, int partner);

/* How much the robber on `hex`, robbing `victim` (-1: no one), hurts the seat's opponents
 * (the leader most) and spares the seat. */
int bot_eval_robber(const struct bot_eval *eval, int hex, int victim);

#endif
