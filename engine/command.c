/*
 * command.c - constructors and names for commands.
 */
#include "command.h"

#include <string.h>

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

void command_init(struct command *command, enum command_type type)
{
	memset(command, 0, sizeof *command);
	command->type = (uint8_t)type;
	command->node = -1;
	command->edge = -1;
	command->hex = -1;
	command->victim = -1;
	command->with = -1;
	command->edges[0] = command->edges[1] = -1;
}

const char *command_type_name(int type)
{
	if (type < 0 || type >= COMMAND_TYPE_COUNT)
		return NULL;
	return command_names[type];
}
