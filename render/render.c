/*
 * render.c - what a picture is, before anything is drawn (see render.h): its frame (the
 * board projection of engine/geometry.h scaled and shifted into the picture, so a client's
 * drawing from GET /board lines up with ours), its options read from text, and the last
 * move of a log. No cairo here: drawing is render/board.c's.
 */
#include "render/render.h"

#include <stdio.h>
#include <string.h>

/* ---- the frame ---- */

/* Margin around the projection's box, in projection units: room for the harbor discs. */
#define ISLAND_MARGIN 0.45

void render_layout(const struct render_options *options, struct render_layout *out)
{
	out->width = options->size;
	out->height = RENDER_HEIGHT(options->size);
	struct geometry_box box = geometry_bounds();
	double width = box.max_x - box.min_x + 2 * ISLAND_MARGIN, height = box.max_y - box.min_y + 2 * ISLAND_MARGIN;
	double square = out->height;
	double scale_x = square / width, scale_y = square / height;
	out->scale = scale_x < scale_y ? scale_x : scale_y;
	out->origin_x = square / 2 - out->scale * (box.min_x + box.max_x) / 2;
	out->origin_y = square / 2 - out->scale * (box.min_y + box.max_y) / 2;
}

struct geometry_point render_to_pixels(const struct render_layout *layout, struct geometry_point point)
{
	struct geometry_point pixel = {layout->origin_x + layout->scale * point.x,
				       layout->origin_y + layout->scale * point.y};
	return pixel;
}

/* ---- options ---- */

int render_labels_parse(const char *text, unsigned *out)
{
	static const char *const words[3] = {"nodes", "edges", "hexes"};
	unsigned labels = 0;
	const char *at = text;
	while (*at) {
		const char *comma = strchr(at, ',');
		size_t length = comma ? (size_t)(comma - at) : strlen(at);
		int found = -1;
		for (int i = 0; i < 3; i++)
			if (strlen(words[i]) == length && strncmp(at, words[i], length) == 0)
				found = i;
		if (found < 0 || (labels >> found & 1u))
			return 0;
		labels |= 1u << found;
		if (!comma)
			break;
		at = comma + 1;
		if (!*at)
			return 0; /* a trailing comma */
	}
	*out = labels;
	return 1;
}

int render_theme_parse(const char *text, enum render_theme *out)
{
	if (strcmp(text, "light") == 0)
		*out = RENDER_THEME_LIGHT;
	else if (strcmp(text, "dark") == 0)
		*out = RENDER_THEME_DARK;
	else
		return 0;
	return 1;
}

/* ---- the last move ---- */

static int is_consequence(int type)
{
	return type == EVENT_RESOURCES_PRODUCED || type == EVENT_RESOURCE_STOLEN ||
	       type == EVENT_LONGEST_ROAD_CHANGED || type == EVENT_LARGEST_ARMY_CHANGED || type == EVENT_GAME_WON;
}

void render_last_move_of(const struct event *events, int count, struct render_last_move *out)
{
	out->type = -1;
	out->seat = out->node = out->edge = out->hex = -1;
	out->dice[0] = out->dice[1] = 0;
	for (int i = count - 1; i >= 0; i--) {
		const struct event *event = &events[i];
		if (is_consequence(event->type))
			continue;
		out->type = event->type;
		out->seat = event->seat;
		out->node = event->node;
		out->edge = event->edge;
		out->hex = event->hex;
		out->dice[0] = event->dice[0];
		out->dice[1] = event->dice[1];
		return;
	}
}
