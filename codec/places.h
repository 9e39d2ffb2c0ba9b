/*
 * places.h - the names people read for the places of a board: one rule for every hex,
 * intersection (node), path (edge) and harbor, used wherever the service speaks of a place
 * in words. GET /v1/games/{id}/board publishes them (a `name` beside every id), so the web
 * client's log, chat messages and mails all say the same thing for the same place.
 *
 * The rule (RESOURCE stands for the word of the hex's resource in the game's edition:
 * lumber and grain in a classic game, wood and wheat in a 2025 game; N for its number):
 *
 *   hex      "the RESOURCE N" ("the ore 8"), "the desert". When two hexes of the board
 *            share that name, each adds where it lies, as a clock face seen from the
 *            middle of the island: " at 2 o'clock on the coast" (the outer ring: twelve
 *            hexes, twelve hours), " at 3 o'clock inland" (the inner ring), " in the
 *            middle". Inside the other names a hex is named without its "the "
 *            ("ore 8"), except the desert ("the desert").
 *   node     touching three hexes: "the corner of A, B and C"; two hexes and the sea:
 *            "the corner of A, B and the coast"; one hex: "the north corner of A, on the
 *            coast" (the hex's corner by compass point: north, north-east, south-east,
 *            south, south-west, north-west). Hexes in the order of their ids (reading
 *            order, north-west first). A harbor's node adds ", at <the harbor's name>".
 *   edge     between two hexes: "the path between A and B"; on the coast: "the path on
 *            the north-east coast of A" (the hex's side by compass point: north-east,
 *            east, south-east, south-west, west, north-west).
 *   harbor   by its rate: "the 2:1 wool harbor"; a 3:1 harbor (there are four) by the hex
 *            it lies off: "the 3:1 harbor by ore 8".
 *
 * Every name is unique on its board (tests/api/test_places.c checks it on many random
 * boards): two hexes share a side only once, three hexes meet at one corner only, and a
 * hex's corners and sides have distinct compass points. Names are ASCII, at most
 * PLACES_NAME_SIZE - 1 bytes. Pure functions of the layout and the edition: no state.
 */
#ifndef CATAN_CODEC_PLACES_H
#define CATAN_CODEC_PLACES_H

#include <stddef.h>

#include "engine/board.h"

#define PLACES_NAME_SIZE 256

/* The word people read for a resource in a game of `edition` (enum game_edition): the
 * API's name ("lumber", "grain" ...) in a classic game, the 2025 edition's ("wood",
 * "wheat") in a 2025 game. NULL when out of range. */
const char *places_resource_word(int resource, int edition);

/* The name of hex `hex` (0..18), node `node` (0..53), edge `edge` (0..71) or harbor slot
 * `slot` (0..8) of `board`, into out (size bytes, always NUL-terminated; PLACES_NAME_SIZE
 * always suffices). An id out of range writes "". */
void places_hex(const struct board_layout *board, int edition, int hex, char *out, size_t size);
void places_node(const struct board_layout *board, int edition, int node, char *out, size_t size);
void places_edge(const struct board_layout *board, int edition, int edge, char *out, size_t size);
void places_harbor(const struct board_layout *board, int edition, int slot, char *out, size_t size);

#endif
