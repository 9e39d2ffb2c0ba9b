/*
 * event.c - constructors, names and range checks for events.
 */
#include "event.h"

#include <string.h>

static const char *const event_names[EVENT_TYPE_COUNT] = {
	"game_created",
	"settlement_built",
	"road_built",
	"city_built",
	"resources_produced",
	"dice_rolled",
	"discarded",
	"robber_moved",
	"resource_stolen",
	"development_card_bought",
	"knight_played",
	"road_building_played",
	"year_of_plenty_played",
	"monopoly_played",
	"maritime_traded",
	"trade_offered",
	"trade_accepted",
	"trade_declined",
	"trade_withdrawn",
	"trade_completed",
	"longest_road_changed",
	"largest_army_changed",
	"turn_ended",
	"game_won",
	"seat_away",
	"seat_back",
	"resigned",
	"seat_released",
	"seat_substituted",
	"quiet_hours_set",
	"quiet_hours_cleared",
	"player_seed_set",
	"seeds_fixed",
	"server_seed_revealed",
};

/* What event_init() makes before the type is set: copied whole, which is cheaper than
 * clearing the event and then setting the ids one by one (decisions make events often).
 * Static, so its padding is zero too. */
static const struct event event_blank = {
	.seat = -1,
	.other = -1,
	.node = -1,
	.edge = -1,
	.hex = -1,
};

void event_init(struct event *event, enum event_type type)
{
	memcpy(event, &event_blank, sizeof *event);
	event->type = (uint8_t)type;
}

const char *event_type_name(int type)
{
	if (type < 0 || type >= EVENT_TYPE_COUNT)
		return NULL;
	return event_names[type];
}

int event_type_from_name(const char *name)
{
	for (int t = 0; t < EVENT_TYPE_COUNT; t++)
		if (strcmp(event_names[t], name) == 0)
			return t;
	return -1;
}

int event_changes_seat_holder(int type)
{
	return type == EVENT_SEAT_AWAY || type == EVENT_SEAT_BACK || type == EVENT_RESIGNED ||
	       type == EVENT_SEAT_RELEASED || type == EVENT_SEAT_SUBSTITUTED;
}

int event_outside_rules(int type)
{
	return event_changes_seat_holder(type) || type == EVENT_QUIET_HOURS_SET || type == EVENT_QUIET_HOURS_CLEARED;
}

void event_set_text(struct event *event, const char *text)
{
	memset(&event->fair, 0, sizeof event->fair);
	for (size_t i = 0; text && i < EVENT_TEXT_MAX && text[i]; i++)
		event->fair.text[i] = text[i];
}

int event_is_fairness(int type)
{
	return type == EVENT_PLAYER_SEED_SET || type == EVENT_SEEDS_FIXED || type == EVENT_SERVER_SEED_REVEALED;
}
