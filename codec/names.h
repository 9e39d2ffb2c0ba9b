/*
 * names.h - the words of the JSON shapes: resource, card, move, terrain, harbor and option
 * names, with the aliases input accepts.
 *
 * Both halves of the codec read and write these words: the stored log (codec/log.h: a
 * game_created event carries the options and the board) and the HTTP shapes
 * (codec/shapes.h, codec/options.h). Output always writes the canonical name; input also
 * accepts the aliases of RULES.md, case sensitive, lower case:
 *   resources  brick (clay, loam), lumber (wood), wool (sheep), grain (wheat, corn), ore
 *   cards      knight, road_building, year_of_plenty (invention), monopoly, victory_point
 *   moves      the engine's command_type_name(), and play_invention for play_year_of_plenty
 *   harbors    "3:1" or the resource traded 2:1 (aliases too)
 * Event type names are the engine's own (event_type_name(), event_type_from_name()).
 */
#ifndef CATAN_CODEC_NAMES_H
#define CATAN_CODEC_NAMES_H

/* Resource, card and move type for a name (aliases accepted); -1 when unknown or NULL. */
int codec_resource_from_name(const char *name);
int codec_development_from_name(const char *name);
int codec_command_type_from_name(const char *name);

/* A harbor's name: "3:1" for HARBOR_GENERIC, else the resource's name (NULL when `kind` is
 * neither). And back: HARBOR_GENERIC, a resource, or -1. */
const char *codec_harbor_name(int kind);
int codec_harbor_from_name(const char *name);

/* A closed list of names whose index is the engine's value (enum game_layout ...). */
struct codec_names {
	const char *const *names;
	int count;
	const char *expected; /* the names as a message lists them: "beginner, random" */
};

extern const struct codec_names codec_layout_names;	/* enum game_layout */
extern const struct codec_names codec_start_names;	/* enum game_start */
extern const struct codec_names codec_numbers_names;	/* enum board_numbers */
extern const struct codec_names codec_edition_names;	/* enum game_edition */
extern const struct codec_names codec_dice_names;	/* enum game_dice */
extern const struct codec_names codec_on_timeout_names; /* enum codec_on_timeout */
extern const struct codec_names codec_bot_level_names;	/* enum bot_level (engine/bot.h) */
extern const struct codec_names codec_terrain_names;	/* enum terrain */

/* The index of `name` in `names`; -1 when absent or NULL. */
int codec_names_find(const struct codec_names *names, const char *name);

/* The name at `index`; NULL when out of range. */
const char *codec_names_at(const struct codec_names *names, int index);

#endif
