/*
 * view.c - redaction. The view is built field by field from public facts; private fields
 * are copied only for the viewer's own seat, so adding a field to struct game never leaks
 * it by accident.
 */
#include "view.h"

#include <string.h>

int view_playable(const struct game *game, int seat, int kind)
{
	const struct game_player *player = &game->players[seat];
	if (kind == DEVELOPMENT_VICTORY_POINT || game->development_played || seat != game->turn_seat)
		return 0;
	if (game->phase != GAME_PHASE_ROLL && game->phase != GAME_PHASE_MAIN)
		return 0;
	int held = player->development_cards[kind] - player->bought_this_turn[kind];
	return held > 0 ? held : 0;
}

void view_game(const struct game *game, int viewer, struct game_view *out)
{
	memset(out, 0, sizeof *out);
	out->viewer = (int8_t)viewer;
	out->version = game->version;
	out->options = game->options;
	out->board = game->board;
	out->phase = game->phase;
	out->turn_seat = game->turn_seat;
	out->turn_number = game->turn_number;
	out->first_seat = game->first_seat;
	out->winner = game->winner;
	out->robber = game->robber;
	out->longest_road = game->longest_road;
	out->largest_army = game->largest_army;
	out->setup_node = game->setup_node;
	out->rolled = game->rolled;
	out->development_played = game->development_played;
	out->dice[0] = game->dice[0];
	out->dice[1] = game->dice[1];
	out->last_roll[0] = game->last_roll[0];
	out->last_roll[1] = game->last_roll[1];
	memcpy(out->bank, game->bank, sizeof out->bank);
	out->development_cards_left = (uint8_t)resource_total(game->deck);
	memcpy(out->node_owner, game->node_owner, sizeof out->node_owner);
	memcpy(out->node_building, game->node_building, sizeof out->node_building);
	memcpy(out->edge_owner, game->edge_owner, sizeof out->edge_owner);
	for (int s = 0; s < game->options.seats && s < GAME_MAX_SEATS; s++) {
		const struct game_player *player = &game->players[s];
		struct view_player *seen = &out->players[s];
		seen->resource_count = (uint8_t)game_resource_count(game, s);
		seen->development_card_count = (uint8_t)game_development_count(game, s);
		seen->knights_played = player->knights_played;
		seen->victory_points = (uint8_t)(game->phase == GAME_PHASE_FINISHED && game->winner == s
							 ? game_total_points(game, s)
							 : game_public_points(game, s));
		seen->road_length = player->road_length;
		seen->roads_left = player->roads_left;
		seen->settlements_left = player->settlements_left;
		seen->cities_left = player->cities_left;
		seen->discard_owed = player->discard_owed;
	}
	for (int i = 0; i < GAME_MAX_OFFERS; i++)
		if (game->offers[i].id != 0)
			out->offers[out->offer_count++] = game->offers[i];
	if (viewer < 0 || viewer >= game->options.seats)
		return;
	const struct game_player *own = &game->players[viewer];
	out->has_you = 1;
	out->you.seat = (int8_t)viewer;
	memcpy(out->you.resources, own->resources, RESOURCE_COUNT);
	memcpy(out->you.development_cards, own->development_cards, DEVELOPMENT_COUNT);
	for (int kind = 0; kind < DEVELOPMENT_COUNT; kind++)
		out->you.playable[kind] = (uint8_t)view_playable(game, viewer, kind);
	out->you.victory_points = (uint8_t)game_total_points(game, viewer);
}

void view_event(const struct event *event, int viewer, struct event *out)
{
	*out = *event;
	switch (event->type) {
	case EVENT_RESOURCE_STOLEN:
		if (viewer != event->seat && viewer != event->other)
			out->resource = RESOURCE_HIDDEN;
		break;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		if (viewer != event->seat)
			out->card = DEVELOPMENT_HIDDEN;
		break;
	default:
		break;
	}
}
