/*
 * command.c - constructors and names for commands.
 */
#include "command.h"

#include <stddef.h>

static const char *const command_names[COMMAND_TYPE_COUNT] = {
	"build_settlement",
	"build_road",
	"build_city",
	"roll",
	"discard",
	"move_robber",
	"buy_development_card",
	"play_knight",
	"play_road_building",
	"play_year_of_plenty",
	"play_monopoly",
	"maritime_trade",
	"end_turn",
	"offer_trade",
	"accept_trade",
	"decline_trade",
	"confirm_trade",
	"withdraw_trade",
};

const struct command command_blank = {
	.node = -1,
	.edge = -1,
	.hex = -1,
	.victim = -1,
	.with = -1,
	.edges = {-1, -1},
};

void command_init(struct command *command, enum command_type type)
{
	*command = command_blank;
	command->type = (uint8_t)type;
}

const char *command_type_name(int type)
{
	if (type < 0 || type >= COMMAND_TYPE_COUNT)
		return NULL;
	return command_names[type];
}
