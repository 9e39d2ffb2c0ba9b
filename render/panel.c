/*
 * panel.c - the side panel of a picture: each seat's name and colour, public victory
 * points, card and development card counts, knights, longest road, Longest Road and
 * Largest Army; whose move the game waits for, the last dice, the last move in words and
 * the winner. Only public facts: the scene is a spectator's.
 */
#include "render/canvas.h"

#include <stdio.h>
#include <string.h>

#include "engine/event.h"
#include "engine/game.h"

#include "render/cairo_checked.h" /* last: after every header that declares cairo */

static void seat_name(const struct render_scene *scene, int seat, char *out, size_t size)
{
	const char *name = scene->names[seat];
	if (name && *name)
		snprintf(out, size, "%s", name);
	else
		snprintf(out, size, "Seat %d", seat + 1);
}

/* What the last move was, in words. */
static void describe_last_move(const struct render_scene *scene, char *out, size_t size)
{
	const struct render_last_move *last = &scene->last_move;
	char who[CANVAS_NAME_SIZE];
	if (last->seat >= 0 && last->seat < scene->view->options.seats)
		seat_name(scene, last->seat, who, sizeof who);
	else
		snprintf(who, sizeof who, "The game");
	switch (last->type) {
	case -1:
		snprintf(out, size, "-");
		break;
	case EVENT_GAME_CREATED:
		snprintf(out, size, "game created");
		break;
	case EVENT_SETTLEMENT_BUILT:
		snprintf(out, size, "%s built a settlement at %d", who, last->node);
		break;
	case EVENT_CITY_BUILT:
		snprintf(out, size, "%s built a city at %d", who, last->node);
		break;
	case EVENT_ROAD_BUILT:
		snprintf(out, size, "%s built a road at %d", who, last->edge);
		break;
	case EVENT_ROBBER_MOVED:
		snprintf(out, size, "%s moved the robber to #%d", who, last->hex);
		break;
	case EVENT_DICE_ROLLED:
		snprintf(out, size, "%s rolled %d", who, last->dice[0] + last->dice[1]);
		break;
	default: {
		const char *name = event_type_name(last->type);
		char words[40];
		snprintf(words, sizeof words, "%s", name ? name : "moved");
		for (char *c = words; *c; c++)
			if (*c == '_')
				*c = ' ';
		snprintf(out, size, "%s: %s", who, words);
	}
	}
}

void panel_draw(struct canvas *canvas)
{
	cairo_t *cr = canvas->cr;
	const struct render_scene *scene = canvas->scene;
	const struct game_view *view = canvas->view;
	const struct theme *theme = canvas->theme;
	double pt = canvas->pt;
	double left = canvas->layout.height + 8 * pt, right = canvas->layout.width - 10 * pt;
	double y = 30 * pt;
	int opened = canvas_group_begin(canvas, "panel", "panel");
	canvas_batch_begin(canvas); /* the panel's text on top of its swatches, a run per font and colour */
	char line[1024], name[CANVAS_NAME_SIZE];

	canvas_colour(cr, theme->text);
	canvas_font(canvas, 0, CANVAS_TEXT * canvas->unit);
	snprintf(line, sizeof line, "Catan");
	canvas_text_at(canvas, left, y, line);
	snprintf(line, sizeof line, "version %u  turn %u", view->version, view->turn_number);
	canvas_line_at(canvas, right - canvas_line_advance(canvas, line), y, line);
	y += 22 * pt;

	for (int seat = 0; seat < view->options.seats; seat++) {
		const struct view_player *player = &view->players[seat];
		double top = y;
		int to_move = scene->waiting_for >> seat & 1u;
		if (view->turn_seat == seat || to_move) {
			cairo_rectangle(cr, left - 4 * pt, top - 2 * pt, right - left + 8 * pt, 66 * pt);
			canvas_colour(cr, theme->current_seat);
			cairo_fill(cr);
		}
		/* the seat's colour, as a settlement */
		double sx = left + 9 * pt, sy = top + 11 * pt, s = 60 * pt;
		for (int i = 0; i < 5; i++) {
			double px = sx + canvas_settlement_shape[i][0] * s, py = sy + canvas_settlement_shape[i][1] * s;
			if (i == 0)
				cairo_move_to(cr, px, py);
			else
				cairo_line_to(cr, px, py);
		}
		cairo_close_path(cr);
		canvas_colour(cr, canvas_seat_colours[seat]);
		cairo_fill_preserve(cr);
		canvas_colour(cr, theme->outline);
		cairo_set_line_width(cr, 1.2 * pt);
		cairo_stroke(cr);

		seat_name(scene, seat, name, sizeof name);
		canvas_colour(cr, theme->text);
		canvas_font(canvas, 0, CANVAS_TEXT * canvas->unit);
		double x = left + 24 * pt;
		x += canvas_line_at(canvas, x, top + 16 * pt, name);
		if (to_move)
			canvas_text_at(canvas, x + 6 * pt, top + 16 * pt,
				       view->turn_seat == seat ? "\xe2\x97\x80 to move" : "\xe2\x97\x80 to answer");
		snprintf(line, sizeof line, "%u VP", player->victory_points);
		canvas_line_at(canvas, right - canvas_line_advance(canvas, line), top + 16 * pt, line);

		canvas_colour(cr, theme->muted);
		snprintf(line, sizeof line, "cards %u  dev. cards %u  knights %u  road %u", player->resource_count,
			 player->development_card_count, player->knights_played, player->road_length);
		canvas_line_at(canvas, left + 24 * pt, top + 34 * pt, line);
		line[0] = '\0';
		if (view->longest_road == seat)
			strcat(line, "Longest Road   ");
		if (view->largest_army == seat)
			strcat(line, "Largest Army");
		if (line[0]) {
			canvas_colour(cr, theme->text);
			canvas_text_at(canvas, left + 24 * pt, top + 51 * pt, line);
		}
		y += 72 * pt;
	}

	y += 8 * pt;
	canvas_colour(cr, theme->text);
	canvas_font(canvas, 0, CANVAS_TEXT * canvas->unit);
	const char *phase = game_phase_name(view->phase);
	if (view->winner >= 0 && view->winner < view->options.seats) {
		seat_name(scene, view->winner, name, sizeof name);
		snprintf(line, sizeof line, "Winner: %s", name);
		canvas_line_at(canvas, left, y, line);
		y += 24 * pt;
	} else {
		line[0] = '\0';
		for (int seat = 0; seat < view->options.seats; seat++)
			if (scene->waiting_for >> seat & 1u) {
				seat_name(scene, seat, name, sizeof name);
				size_t used = strlen(line);
				snprintf(line + used, sizeof line - used, "%s%s", used ? ", " : "Waiting for: ", name);
			}
		if (line[0]) {
			size_t used = strlen(line);
			snprintf(line + used, sizeof line - used, " (%s)", phase ? phase : "-");
			canvas_line_at(canvas, left, y, line);
			y += 18 * pt;
		}
	}
	if (view->dice[0] && view->dice[1])
		snprintf(line, sizeof line, "Last dice: %u + %u = %u", view->dice[0], view->dice[1],
			 view->dice[0] + view->dice[1]);
	else if (scene->last_move.type == EVENT_DICE_ROLLED)
		snprintf(line, sizeof line, "Last dice: %u + %u = %u", scene->last_move.dice[0],
			 scene->last_move.dice[1], scene->last_move.dice[0] + scene->last_move.dice[1]);
	else
		snprintf(line, sizeof line, "Last dice: -");
	canvas_line_at(canvas, left, y, line);
	y += 18 * pt;
	char move[256];
	describe_last_move(scene, move, sizeof move);
	snprintf(line, sizeof line, "Last move: %s", move);
	canvas_line_at(canvas, left, y, line);
	canvas_batch_flush(canvas);
	canvas_group_end(canvas, opened);
}
