/*
 * view_read.h - a seat's view back from the API's JSON: what `catan bot` (cmd/bot_cli.c)
 * reads so that a program outside the server can ask the server's bots for a move.
 *
 * The inverse of codec_view_to_json() (shapes.h) with the board of GET .../board
 * (codec_board_to_json()): the view body of GET /v1/games/{id} read with a seat's token
 * (it has `you`) and the board body. One fact of struct game_view is not in that JSON:
 * whether a development card was played this turn; it is taken as not (the seat's
 * `playable` counts, which are in it, already say what it may play).
 */
#ifndef CATAN_CODEC_VIEW_READ_H
#define CATAN_CODEC_VIEW_READ_H

#include <jansson.h>

#include "codec/error.h"
#include "engine/view.h"

/* Read `view` (a view body) and `board` (a board body) into *out. Returns 1, or 0 with
 * *error naming the first member that is missing or out of range (error may be NULL).
 * Borrows both. */
int codec_view_from_json(const json_t *view, const json_t *board, struct game_view *out, struct codec_error *error);

#endif
