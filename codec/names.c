/*
 * names.c - the name tables of names.h. Each list is indexed by the engine's value, so a
 * name's index is the value it stands for; aliases are looked up after the canonical names.
 */
#include "codec/names.h"

#include <string.h>

#include "engine/board.h"
#include "engine/command.h"
#include "engine/game.h"

#define NAME_COUNT(names) ((int)(sizeof(names) / sizeof((names)[0])))
#define NAMES(list, expected)                    \
	{                                        \
		list, NAME_COUNT(list), expected \
	}

static const char *const layout_names[] = {"beginner", "random"};
static const char *const start_names[] = {"draft", "fixed"};
static const char *const numbers_names[] = {"spiral", "random"};
static const char *const edition_names[] = {"classic", "2025"};
static const char *const dice_names[] = {"random", "manual"};
static const char *const on_timeout_names[] = {"default", "bot", "skip"};
static const char *const bot_level_names[] = {"easy", "medium", "hard"};
static const char *const terrain_names[TERRAIN_COUNT] = {"hills", "forest", "pasture", "fields", "mountains", "desert"};
static const char *const generic_harbor_name = "3:1";

const struct codec_names codec_layout_names = NAMES(layout_names, "beginner, random");
const struct codec_names codec_start_names = NAMES(start_names, "draft, fixed");
const struct codec_names codec_numbers_names = NAMES(numbers_names, "spiral, random");
const struct codec_names codec_edition_names = NAMES(edition_names, "classic, 2025");
const struct codec_names codec_dice_names = NAMES(dice_names, "random, manual");
const struct codec_names codec_on_timeout_names = NAMES(on_timeout_names, "default, bot, skip");
const struct codec_names codec_bot_level_names = NAMES(bot_level_names, "easy, medium, hard");
const struct codec_names codec_terrain_names =
	NAMES(terrain_names, "hills, forest, pasture, fields, mountains, desert");

static const struct {
	const char *alias;
	int resource;
} resource_aliases[] = {
	{"wood", RESOURCE_LUMBER}, {"wheat", RESOURCE_GRAIN}, {"corn", RESOURCE_GRAIN},
	{"sheep", RESOURCE_WOOL},  {"clay", RESOURCE_BRICK},  {"loam", RESOURCE_BRICK},
};

/* The index of `name` among the `count` names `name_of` gives; -1 when absent or NULL. */
static int find_name(const char *(*name_of)(int), int count, const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < count; i++)
		if (strcmp(name, name_of(i)) == 0)
			return i;
	return -1;
}

int codec_resource_from_name(const char *name)
{
	int resource = find_name(resource_name, RESOURCE_COUNT, name);
	for (int i = 0; resource < 0 && name && i < NAME_COUNT(resource_aliases); i++)
		if (strcmp(name, resource_aliases[i].alias) == 0)
			resource = resource_aliases[i].resource;
	return resource;
}

int codec_development_from_name(const char *name)
{
	int card = find_name(development_card_name, DEVELOPMENT_COUNT, name);
	return card < 0 && name && strcmp(name, "invention") == 0 ? DEVELOPMENT_YEAR_OF_PLENTY : card;
}

/* "play_invention" is the alias of play_year_of_plenty. */
int codec_command_type_from_name(const char *name)
{
	int type = find_name(command_type_name, COMMAND_TYPE_COUNT, name);
	return type < 0 && name && strcmp(name, "play_invention") == 0 ? COMMAND_PLAY_YEAR_OF_PLENTY : type;
}

const char *codec_harbor_name(int kind)
{
	return kind == HARBOR_GENERIC ? generic_harbor_name : resource_name(kind);
}

int codec_harbor_from_name(const char *name)
{
	if (name && strcmp(name, generic_harbor_name) == 0)
		return HARBOR_GENERIC;
	return codec_resource_from_name(name);
}

int codec_names_find(const struct codec_names *names, const char *name)
{
	if (!name)
		return -1;
	for (int i = 0; i < names->count; i++)
		if (strcmp(names->names[i], name) == 0)
			return i;
	return -1;
}

const char *codec_names_at(const struct codec_names *names, int index)
{
	return index >= 0 && index < names->count ? names->names[index] : NULL;
}
