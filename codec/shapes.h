/*
 * shapes.h - the HTTP API's game shapes in JSON: move bodies, legal actions, the game view
 * and the board.
 *
 * Users: the HTTP handlers (api/), the OpenAPI samples, the fuzz targets and the tests.
 * Handlers call these functions and never build game JSON themselves. Words and
 * conventions as in codec/names.h and codec/log.h; options are codec/options.h's.
 *
 * Move bodies (codec_command_from_json; the types and fields of API.md plus the trade
 * answers, so a bot can play through POST .../moves alone):
 *   build_settlement {node} · build_road {edge} · build_city {node} · roll {dice?} ·
 *   discard {resources} · move_robber {hex, victim?} · buy_development_card ·
 *   play_knight {hex, victim?} · play_road_building {edges: [e1, e2] (0..2 entries)} ·
 *   play_year_of_plenty {resources} · play_monopoly {resource} ·
 *   maritime_trade {give, get, rate?} · end_turn · offer_trade {give, want, to? [seats],
 *   counter_to?} · accept_trade {trade} · decline_trade {trade} · confirm_trade {trade,
 *   with?} · withdraw_trade {trade}
 *   victim: a seat or null; dice: [d1, d2] or null. Resource maps on input: absent keys are
 *   0, every count an integer 0..95, aliases accepted, unknown keys refused.
 *
 * Every move body may carry "template" (true or false), which is ignored: an action of
 * /actions can be sent back as it is.
 *
 * Legal actions (codec_actions_to_json): an array of move bodies exactly as above, ready to
 * send. Templates carry "template": true and what completes them: discard {"count": n,
 * "hand"}, offer_trade {"hand", "to"?, "counter_to"?} (any offer the seat can cover), roll
 * in manual-dice games {} (add "dice").
 */
#ifndef CATAN_CODEC_SHAPES_H
#define CATAN_CODEC_SHAPES_H

#include <jansson.h>
#include <stdint.h>

#include "codec/error.h"
#include "engine/board.h"
#include "engine/command.h"
#include "engine/game.h"
#include "engine/view.h"

/* A move body ({"type": ..., members}) to a command. Returns 1, or 0 with *error filled
 * (error may be NULL). Borrows json. */
int codec_command_from_json(const json_t *json, struct command *out, struct codec_error *error);

/* A move body whose request names the move (POST .../trades is offer_trade, .../accept is
 * accept_trade ...): `type` is the move and the body may not carry "type". When `trade` is
 * nonzero it is the offer the request names, for the moves that answer one (accept,
 * decline, confirm, withdraw), and the body may not carry "trade" either. Otherwise read,
 * and refused, as codec_command_from_json() reads the body with those members added.
 * Returns 1, or 0 with *error filled (error may be NULL). Borrows json. */
int codec_command_from_json_as(const json_t *json, enum command_type type, uint16_t trade, struct command *out,
			       struct codec_error *error);

/* A command (or a legal-move template) as a move body. New reference. */
json_t *codec_command_to_json(const struct command *command);

/* Legal moves of `seat` (legal_moves(game, seat, ...)) as an array of move bodies, each
 * template with what completes it: a discard and an offer carry the seat's "hand"; an offer
 * is listed once as a new offer ("to": [the active seat] when `seat` is another, the only
 * seat it may trade with) and once per open offer made to the seat, with "counter_to" and
 * "to": [its maker]. Borrows game and moves. New reference. */
json_t *codec_actions_to_json(const struct game *game, int seat, const struct command *moves, int count);

/* The game view of API.md for one viewer; `names` holds one display name per seat (NULL
 * entries become null). The caller adds "id". New reference. */
json_t *codec_view_to_json(const struct game_view *view, const char *const *names);

/* The board of API.md: hexes, nodes, edges, harbors with stable ids, and the projection of
 * engine/geometry.h (px, py of every node, hex and harbor anchor; hex corners; harbor
 * facing; the bounding box), rounded to 4 decimals: dump it with JSON_REAL_PRECISION(15) or
 * finer than 4 decimals so the rounded values print short. Every hex, node, edge and harbor
 * has its `name` for people (codec/places.h) in the words of `edition` (enum game_edition).
 * New reference. */
json_t *codec_board_to_json(const struct board_layout *board, int edition);

#endif
