/*
 * log.h - events in JSON: the stored log's format, the events shown to a viewer, and
 * replayed logs.
 *
 * Users: the store glue (game/game_repo.c keeps codec_payload_dump()'s text in the log and
 * reads it back), the service and webhooks (events rendered for a viewer), the CLI
 * (catan replay), the benchmarks and the fuzz targets.
 *
 * Conventions (codec/names.h for the words): a resource map is an object {"brick": 1, ...}
 * listing only nonzero counts; seats are integers 0..seats-1, node 0..53, edge 0..71, hex
 * 0..18; a missing optional seat (victim, a set-aside Longest Road) is null. Objects on
 * input may not carry unknown members (the error names the member).
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
 */
#ifndef CATAN_CODEC_LOG_H
#define CATAN_CODEC_LOG_H

#include <jansson.h>
#include <stddef.h>

#include "codec/error.h"
#include "engine/event.h"
#include "engine/game.h"

/* An event (already redacted with view_event() when it is for a viewer) as JSON; `seats`
 * sizes the per-seat arrays. New reference. */
json_t *codec_event_to_json(const struct event *event, int seats);

/* Parse an event object (as codec_event_to_json writes it, unredacted). Values are
 * range-checked (seats 0..3, ids, names), so apply_event_valid() can then judge it against
 * the game. Returns 1, or 0 with *error filled (error may be NULL). Borrows json. */
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

/* Replay a JSON event log: an array of events, or an object with an "events" array (the
 * API's event log; each entry may carry "version" and other envelope members, which are
 * ignored). Every event is parsed, checked with apply_event_valid() and applied to a
 * zeroed *out. Returns 1, or 0 with a message (valid UTF-8) naming the failing entry. */
int codec_replay_log(const char *text, size_t size, struct game *out, char *message, size_t message_size);

/* codec_replay_log() up to `version` (the first `version` events; 0: all of them; a version
 * beyond the log is refused with a message), keeping the last `recent_max` events applied
 * in recent[] (oldest first, *recent_count of them) when `recent` is not NULL. */
int codec_replay_log_to(const char *text, size_t size, uint32_t version, struct game *out, struct event *recent,
			int recent_max, int *recent_count, char *message, size_t message_size);

#endif
