/*
 * statistics.c - a game's figures from its log (statistics.h for what each one counts).
 *
 * One pass over the log: each event is checked and applied to a state rebuilt from
 * nothing, and the cards it moves are counted from the event itself (every event carries
 * what it moved); only the points and the hands are read from the final state. Counting from the events rather than
 * from differences of hands is what lets the flows be told apart (a card bought and a card stolen both change a hand).
 */
#include "game/statistics.h"

#include <stdio.h>
#include <string.h>

#include "engine/apply.h"
#include "engine/resource.h"

static const char *const flow_names[STATISTICS_FLOW_COUNT] = {
	"produced", "from_cards",  "gained",	"stolen",     "traded_in", "spent",
	"robbed",   "monopolized", "discarded", "traded_out", "hand",
};

const char *statistics_flow_name(int flow)
{
	return flow >= 0 && flow < STATISTICS_FLOW_COUNT ? flow_names[flow] : NULL;
}

static void add(int flow[RESOURCE_COUNT], const uint8_t counts[RESOURCE_COUNT])
{
	for (int r = 0; r < RESOURCE_COUNT; r++)
		flow[r] += counts[r];
}

/* 1 when the event hides what it moved from this log's reader (a redacted log). */
static int hidden(const struct event *event)
{
	return (event->type == EVENT_RESOURCE_STOLEN && event->resource == RESOURCE_HIDDEN) ||
	       (event->type == EVENT_DEVELOPMENT_CARD_BOUGHT && event->card == DEVELOPMENT_HIDDEN);
}

static void count(struct statistics *out, const struct event *e)
{
	struct statistics_seat *seat = e->seat >= 0 && e->seat < GAME_MAX_SEATS ? &out->seat[e->seat] : NULL;
	switch (e->type) {
	case EVENT_RESOURCES_PRODUCED:
		for (int s = 0; s < out->seats; s++)
			add(out->seat[s].flows[STATISTICS_PRODUCED], e->gains[s]);
		break;
	case EVENT_DICE_ROLLED: {
		int total = e->dice[0] + e->dice[1];
		if (total >= 2 && total <= 12)
			out->dice[total]++;
		out->rolls++;
		seat->rolls++;
		break;
	}
	case EVENT_SETTLEMENT_BUILT:
		if (!e->free)
			add(seat->flows[STATISTICS_SPENT], game_cost_settlement);
		break;
	case EVENT_ROAD_BUILT:
		if (!e->free)
			add(seat->flows[STATISTICS_SPENT], game_cost_road);
		break;
	case EVENT_CITY_BUILT:
		add(seat->flows[STATISTICS_SPENT], game_cost_city);
		break;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		add(seat->flows[STATISTICS_SPENT], game_cost_development);
		break;
	case EVENT_DISCARDED:
		add(seat->flows[STATISTICS_DISCARDED], e->resources);
		break;
	case EVENT_RESOURCE_STOLEN:
		if (e->resource < RESOURCE_COUNT && e->other >= 0 && e->other < GAME_MAX_SEATS) {
			seat->flows[STATISTICS_STOLEN][e->resource]++;
			out->seat[e->other].flows[STATISTICS_ROBBED][e->resource]++;
		}
		break;
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		add(seat->flows[STATISTICS_FROM_CARDS], e->resources);
		break;
	case EVENT_MONOPOLY_PLAYED:
		if (e->resource < RESOURCE_COUNT)
			for (int s = 0; s < out->seats; s++) {
				int taken = e->gains[s][e->resource];
				out->seat[s].flows[STATISTICS_MONOPOLIZED][e->resource] += taken;
				seat->flows[STATISTICS_FROM_CARDS][e->resource] += taken;
			}
		break;
	case EVENT_MARITIME_TRADED:
		add(seat->flows[STATISTICS_TRADED_OUT], e->give);
		add(seat->flows[STATISTICS_TRADED_IN], e->want);
		break;
	case EVENT_TRADE_COMPLETED:
		/* give and want are the active seat's side; the partner's is the other way round */
		add(seat->flows[STATISTICS_TRADED_OUT], e->give);
		add(seat->flows[STATISTICS_TRADED_IN], e->want);
		if (e->other >= 0 && e->other < GAME_MAX_SEATS) {
			add(out->seat[e->other].flows[STATISTICS_TRADED_OUT], e->want);
			add(out->seat[e->other].flows[STATISTICS_TRADED_IN], e->give);
		}
		break;
	default:
		break;
	}
}

int statistics_compute(const struct event *events, int count_of, struct statistics *out, struct game *final,
		       int *failed_at)
{
	memset(out, 0, sizeof *out);
	out->winner = GAME_NO_SEAT;
	struct game game;
	memset(&game, 0, sizeof game);
	for (int i = 0; i < count_of; i++) {
		/* The seat fields of a counted event are in range once apply_event_valid() said so. */
		if (hidden(&events[i]) || !apply_event_valid(&game, &events[i])) {
			if (failed_at)
				*failed_at = i;
			return 0;
		}
		if (events[i].type == EVENT_GAME_CREATED)
			out->seats = events[i].setup.options.seats;
		count(out, &events[i]);
		apply_event(&game, &events[i]);
	}
	out->version = (int)game.version;
	out->finished = game.phase == GAME_PHASE_FINISHED;
	out->winner = out->finished ? game.winner : GAME_NO_SEAT;
	out->turns = game.turn_number;
	for (int s = 0; s < out->seats; s++) {
		struct statistics_seat *seat = &out->seat[s];
		const struct game_player *player = &game.players[s];
		for (int r = 0; r < RESOURCE_COUNT; r++) {
			seat->flows[STATISTICS_GAINED][r] =
				seat->flows[STATISTICS_PRODUCED][r] + seat->flows[STATISTICS_FROM_CARDS][r];
			seat->flows[STATISTICS_HAND][r] = player->resources[r];
		}
		seat->cities = GAME_CITIES - player->cities_left;
		seat->settlements = GAME_SETTLEMENTS - player->settlements_left;
		seat->roads = GAME_ROADS - player->roads_left;
		seat->victory_point_cards = player->development_cards[DEVELOPMENT_VICTORY_POINT];
		seat->longest_road = game.longest_road == s;
		seat->largest_army = game.largest_army == s;
		seat->points = game_total_points(&game, s);
		seat->knights_played = player->knights_played;
		seat->longest_road_length = player->road_length;
	}
	if (final)
		*final = game;
	return 1;
}

static json_t *hand_json(const int counts[RESOURCE_COUNT])
{
	json_t *hand = json_object();
	for (int r = 0; r < RESOURCE_COUNT; r++)
		json_object_set_new(hand, resource_name(r), json_integer(counts[r]));
	return hand;
}

json_t *statistics_to_json(const struct statistics *stats, const char *const *names, const uint8_t *bots)
{
	json_t *histogram = json_array();
	for (int total = 2; total <= 12; total++)
		json_array_append_new(histogram, json_integer(stats->dice[total]));
	json_t *seats = json_array();
	for (int s = 0; s < stats->seats; s++) {
		const struct statistics_seat *seat = &stats->seat[s];
		json_t *resources = json_object();
		for (int flow = 0; flow < STATISTICS_FLOW_COUNT; flow++)
			json_object_set_new(resources, flow_names[flow], hand_json(seat->flows[flow]));
		char fallback[24];
		snprintf(fallback, sizeof fallback, "Seat %d", s + 1);
		const char *name = names && names[s] && names[s][0] ? names[s] : fallback;
		json_t *points = json_pack("{s:i, s:i, s:i, s:i, s:i, s:i}", "settlements", seat->settlements, "cities",
					   2 * seat->cities, "victory_point_cards", seat->victory_point_cards,
					   "longest_road", 2 * seat->longest_road, "largest_army",
					   2 * seat->largest_army, "total", seat->points);
		json_t *pieces = json_pack("{s:i, s:i, s:i}", "settlements", seat->settlements, "cities", seat->cities,
					   "roads", seat->roads);
		json_array_append_new(seats, json_pack("{s:i, s:s, s:b, s:o, s:o, s:i, s:i, s:i, s:o}", "seat", s,
						       "name", name, "bot", bots ? bots[s] != 0 : 0, "points", points,
						       "pieces", pieces, "rolls", seat->rolls, "knights_played",
						       seat->knights_played, "longest_road_length",
						       seat->longest_road_length, "resources", resources));
	}
	json_t *dice = json_pack("{s:i, s:o}", "rolls", stats->rolls, "histogram", histogram);
	return json_pack("{s:i, s:b, s:o, s:i, s:i, s:o, s:o}", "version", stats->version, "finished", stats->finished,
			 "winner", stats->winner >= 0 ? json_integer(stats->winner) : json_null(), "turns",
			 stats->turns, "points_to_win", GAME_POINTS_TO_WIN, "dice", dice, "seats", seats);
}
