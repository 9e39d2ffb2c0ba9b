/*
 * reader.h - reading untrusted JSON input (internal to codec/): the checks every reader of
 * the codec shares.
 *
 * Input trusts nothing. Each helper checks the JSON type and the range of one value before
 * it is stored in a fixed-width engine field, and reports the first fault as a struct
 * codec_error (codec/error.h): a code, the member's path ("resources.ore", "gains[2]") and
 * a sentence. Every one returns 1, or 0 with *error filled, so readers chain them with &&.
 * `field` is the path of the value for the message; `value` may be NULL (an absent member),
 * which is refused like a value of the wrong type unless the helper says otherwise.
 */
#ifndef CATAN_CODEC_READER_H
#define CATAN_CODEC_READER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "codec/error.h"
#include "codec/names.h"
#include "engine/resource.h"

/* The most cards of one kind anyone can hold or move: all 19 of each of the 5 resources. */
#define CODEC_MAX_COUNT 95
#define CODEC_MAX_TRADE_ID 65535
/* The size of a path buffer, and of a buffer for reader_quote(). */
#define CODEC_PATH_SIZE 64
#define CODEC_QUOTE_CHARS 40
#define CODEC_QUOTE_SIZE (CODEC_QUOTE_CHARS * 6 + 4)

/* Fill *error (field and message cut to fit, kept valid UTF-8); returns 0. */
int reader_refuse(struct codec_error *error, enum codec_error_code code, const char *field, const char *format, ...)
	__attribute__((format(printf, 4, 5)));

/* Client text to quote in a message, into `buffer` of CODEC_QUOTE_SIZE bytes: short, cut on
 * a character boundary, controls escaped. Returns `buffer`. */
const char *reader_quote(char *buffer, const char *text);

/* "prefix.key" ("key" at the top level) and "prefix[index]", into `buffer` of
 * CODEC_PATH_SIZE bytes. Return `buffer`. */
const char *reader_path_key(char *buffer, const char *prefix, const char *key);
const char *reader_path_index(char *buffer, const char *prefix, size_t index);

/* An object's members against a shape: `allowed` and `required` are space-separated member
 * names; "type" is allowed too when `typed`. `prefix` is the object's path and `what` names
 * the shape in messages ("move build_road"). reader_check_members() is the unknown-member
 * check, then the missing-member check. */
int reader_refuse_unknown_members(const json_t *object, const char *allowed, int typed, const char *prefix,
				  const char *what, struct codec_error *error);
int reader_require_members(const json_t *object, const char *required, const char *prefix, const char *what,
			   struct codec_error *error);
int reader_check_members(const json_t *object, const char *allowed, const char *required, int typed, const char *prefix,
			 const char *what, struct codec_error *error);

/* The "type" of a typed object (a move body, an event): `json` must be an object whose
 * "type" is a name `from_name` knows (it returns -1 for others). `shape` names the object
 * in messages ("a move body"), `kind` its types ("move"). *out is the type. */
int reader_type(const json_t *json, const char *shape, const char *kind, int (*from_name)(const char *name), int *out,
		struct codec_error *error);

/* An integer in [low, high]. */
int reader_integer(const json_t *value, const char *field, json_int_t low, json_int_t high, json_int_t *out,
		   struct codec_error *error);
int reader_int8(const json_t *value, const char *field, int low, int high, int8_t *out, struct codec_error *error);
int reader_uint8(const json_t *value, const char *field, int low, int high, uint8_t *out, struct codec_error *error);

/* A seat 0..3; when `nullable`, null or an absent member is GAME_NO_SEAT. */
int reader_seat(const json_t *value, const char *field, int nullable, int8_t *out, struct codec_error *error);

/* A trade id 1..65535; when `nullable`, null or an absent member is 0. */
int reader_trade_id(const json_t *value, const char *field, int nullable, uint16_t *out, struct codec_error *error);

int reader_bool(const json_t *value, const char *field, uint8_t *out, struct codec_error *error);

/* A name of `names`, as its index. */
int reader_name(const json_t *value, const char *field, const struct codec_names *names, uint8_t *out,
		struct codec_error *error);

/* A resource name (aliases too). */
int reader_resource(const json_t *value, const char *field, uint8_t *out, struct codec_error *error);

/* {"brick": 1, ...}: known names (aliases too, each resource once), counts 0..95. */
int reader_resource_map(const json_t *value, const char *field, uint8_t out[RESOURCE_COUNT], struct codec_error *error);

/* [seats]: a nonempty list of distinct seats, as a mask. */
int reader_seat_list(const json_t *value, const char *field, uint8_t *mask, struct codec_error *error);

/* An array whose length is in [low, high]; `what` names its entries for the message. */
int reader_array(const json_t *value, const char *field, size_t low, size_t high, const char *what,
		 struct codec_error *error);

/* [d1, d2], each 1..6. */
int reader_dice(const json_t *value, const char *field, uint8_t dice[2], struct codec_error *error);

#endif
