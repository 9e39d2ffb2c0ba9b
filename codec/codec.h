/*
 * codec.h - the one JSON codec: engine values to JSON and back (jansson).
 *
 * Every JSON shape the service reads or writes for the game itself is produced or parsed
 * here: move bodies (commands), events (as stored in the event log and as shown to a
 * viewer), the game view, the board, legal actions, game options, and replayed logs.
 * Handlers in api/ and tools call these functions and never build game JSON themselves;
 * the store keeps the compact event text codec_event_dump() writes.
 *
 * Conventions of every shape:
 * - Resource names on output are canonical: brick, lumber, wool, grain, ore. On input the
 *   aliases of RULES.md are accepted too (wood, wheat, corn, sheep, clay, loam), case
 *   sensitive, lower case. Development card names: knight, road_building, year_of_plenty
 *   (input alias: invention), monopoly, victory_point.
 * - A resource map is an object {"brick": 1, ...}. On output, event maps list only nonzero
 *   counts; hands and the bank list all five. On input, absent keys are 0; every count must
 *   be an integer 0..95; unknown keys are refused.
 * - Seats are integers 0..seats-1; node 0..53, edge 0..71, hex 0..18. A missing optional
 *   seat (victim, a set-aside Longest Road) is JSON null on output.
 * - Objects on input may not carry unknown members: the error names the member.
 *
 * Events (output of codec_event_to_json, input of codec_event_from_json), one object each,
 * "type" first:
 *   game_created        options, board {terrain[19], numbers[19], harbors[9]}, first_seat,
 *                       start_rolls: [[total or null per seat], ...] (rounds of the
 *                       first-player roll; [] when first_seat was fixed)
 *   settlement_built    seat, node, free (bool)
 *   road_built          seat, edge, free (bool)
 *   city_built          seat, node
 *   resources_produced  gains: [map per seat] (array of length seats)
 *   dice_rolled         seat, dice [d1, d2], total
 *   discarded           seat, resources
 *   robber_moved        seat, hex
 *   resource_stolen     seat, victim, resource (null when hidden from the viewer)
 *   development_card_bought  seat, card (null when hidden)
 *   knight_played / road_building_played   seat
 *   year_of_plenty_played  seat, resources
 *   monopoly_played     seat, resource, taken: [count per seat]
 *   maritime_traded     seat, give, get
 *   trade_offered       seat, trade, to [seats], give, want, counter_to (trade id or null)
 *   trade_accepted / trade_declined / trade_withdrawn   seat, trade
 *   trade_completed     seat (active), with, trade, give, get (the active player's side)
 *   longest_road_changed / largest_army_changed   seat (or null), previous (or null)
 *   turn_ended          seat
 *   game_won            seat, points, victory_point_cards
 *
 * Move bodies (codec_command_from_json; the types and fields of API.md plus the trade
 * answers, so a bot can play through POST .../moves alone):
 *   build_settlement {node} · build_road {edge} · build_city {node} · roll {dice?} ·
 *   discard {resources} · move_robber {hex, victim?} · buy_development_card ·
 *   play_knight {hex, victim?} · play_road_building {edges: [e1, e2] (0..2 entries)} ·
 *   play_year_of_plenty {resources} · play_monopoly {resource} · maritime_trade {give, get} ·
 *   end_turn · offer_trade {give, want, to? [seats], counter_to?} · accept_trade {trade} ·
 *   decline_trade {trade} · confirm_trade {trade, with?} · withdraw_trade {trade}
 *   victim: a seat or null; dice: [d1, d2] or null.
 *
 * Legal actions (codec_actions_to_json): an array of move bodies exactly as above, ready to
 * send. Templates carry "template": true and what constrains them: discard {"count": n},
 * offer_trade {} (any offer the seat can cover), roll in manual-dice games {}.
 */
#ifndef CATAN_CODEC_CODEC_H
#define CATAN_CODEC_CODEC_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/command.h"
#include "engine/event.h"
#include "engine/game.h"
#include "engine/view.h"

/* Why input was refused: a stable code for problem+json ("invalid_json", "unknown_field",
 * "missing_field", "invalid_field"), the JSON member at fault (a path like "resources.ore"
 * or "" for the whole body) and a sentence for humans. */
struct codec_error {
	const char *code;
	char field[64];
	char message[192];
};

/* Game options as a client gives them under "options". The engine's part, plus what the
 * server keeps beside the game. */
struct codec_options {
	struct game_options game;
	int has_seed;
	uint64_t seed;
	int32_t turn_timeout_s; /* 0: no deadlines */
	uint8_t on_timeout;     /* enum codec_on_timeout */
};

enum codec_on_timeout { CODEC_ON_TIMEOUT_DEFAULT, CODEC_ON_TIMEOUT_BOT };

/* Resource and card names (aliases accepted); -1 when unknown. */
int codec_resource_from_name(const char *name);
int codec_development_from_name(const char *name);

/* Options: parse an "options" object (NULL or absent members take the defaults of
 * rules_default_options(); `seats` is set by the caller before the call). Returns 1, or 0
 * with *error filled. codec_options_to_json returns a new reference (caller decrefs) and
 * never includes the seed. */
int codec_options_from_json(const json_t *json, struct codec_options *out, struct codec_error *error);
json_t *codec_options_to_json(const struct codec_options *options);

/* A move body to a command. Returns 1, or 0 with *error filled. Borrows json. */
int codec_command_from_json(const json_t *json, struct command *out, struct codec_error *error);

/* A command (or a legal-move template) as a move body. New reference. */
json_t *codec_command_to_json(const struct command *command);

/* Legal moves as an array of move bodies. New reference. */
json_t *codec_actions_to_json(const struct command *moves, int count);

/* An event (already redacted with view_event() when it is for a viewer) as JSON; `seats`
 * sizes the per-seat arrays. New reference. */
json_t *codec_event_to_json(const struct event *event, int seats);

/* Parse an event object (as codec_event_to_json writes it, unredacted). Values are
 * range-checked (seats 0..3, ids, names), so apply_event_valid() can then judge it against
 * the game. Returns 1, or 0 with *error filled. */
int codec_event_from_json(const json_t *json, struct event *out, struct codec_error *error);

/* The compact text of an event for the store (no spaces, members in a fixed order):
 * caller frees with free(). And back, from a text of `size` bytes. */
char *codec_event_dump(const struct event *event, int seats);
int codec_event_parse(const char *text, size_t size, struct event *out, struct codec_error *error);

/* The event as the log's payload column keeps it: codec_event_dump() without the "type"
 * member, which the row holds in a column of its own (about 25 bytes less per stored
 * event). Caller frees with free(). And back, given the row's type; a payload that still
 * carries its "type" (rows written before this form) is read as codec_event_parse() reads
 * it, and its type must then agree with `type`. */
char *codec_payload_dump(const struct event *event, int seats);
int codec_payload_parse(int type, const char *text, size_t size, struct event *out, struct codec_error *error);

/* The game view of API.md for one viewer; `names` holds one display name per seat (NULL
 * entries become null). The caller adds "id". New reference. */
json_t *codec_view_to_json(const struct game_view *view, const char *const *names);

/* The board of API.md: hexes, nodes, edges, harbors with stable ids. New reference. */
json_t *codec_board_to_json(const struct board_layout *board);

/* Replay a JSON event log: an array of events, or an object with an "events" array (the
 * API's event log; each entry may carry "version" and other envelope members, which are
 * ignored). Every event is parsed, checked with apply_event_valid() and applied to a
 * zeroed *out. Returns 1, or 0 with a message naming the failing entry. */
int codec_replay_log(const char *text, size_t size, struct game *out, char *message, size_t message_size);

#endif
