/*
 * writer.h - building JSON output (internal to codec/): the helpers every writer of the
 * codec shares.
 *
 * Output trusts the engine: writers build jansson trees member by member, in the order
 * the shapes fix, and abort on out-of-memory (jansson reports it as NULL or -1), so no
 * writer checks a result. Functions named _new return a new reference; writer_put_new()
 * and writer_append_new() steal the value they are given.
 */
#ifndef CATAN_CODEC_WRITER_H
#define CATAN_CODEC_WRITER_H

#include <jansson.h>
#include <stdint.h>

#include "codec/names.h"
#include "engine/resource.h"

/* `value`, or abort when it is NULL (jansson's out-of-memory). */
json_t *writer_made(json_t *value);

/* Set object[key] / append to array, stealing `value`; abort on out-of-memory. */
void writer_put_new(json_t *object, const char *key, json_t *value);
void writer_append_new(json_t *array, json_t *value);
void writer_put_int(json_t *object, const char *key, long long value);

/* The name at `index` of `names`, a string, a seat or an id (negative: none); null when
 * there is none. New references. */
json_t *writer_name_or_null(const struct codec_names *names, int index);
json_t *writer_text_or_null(const char *text);
json_t *writer_id_or_null(int id);

/* A seat mask as a list of seats; a resource map, every resource when `all`, else only the
 * nonzero counts; two dice. New references. */
json_t *writer_seat_list_new(unsigned mask);
json_t *writer_resource_map_new(const uint8_t counts[RESOURCE_COUNT], int all);
json_t *writer_dice_new(const uint8_t dice[2]);

/* `seats` brought into 0..GAME_MAX_SEATS, to size per-seat arrays. */
int writer_clamp_seats(int seats);

#endif
