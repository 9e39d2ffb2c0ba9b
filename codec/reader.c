/*
 * reader.c - the input checks of reader.h.
 *
 * Messages quote client text only through reader_quote() (codec/text.h): a member name or a
 * move type may be any bytes, and the message must stay short, valid UTF-8 with no controls,
 * because it is shown in problem bodies and logs.
 */
#include "codec/reader.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "codec/text.h"
#include "engine/game.h"

int reader_refuse(struct codec_error *error, enum codec_error_code code, const char *field, const char *format, ...)
{
	error->code = code;
	snprintf(error->field, sizeof error->field, "%s", field);
	va_list args;
	va_start(args, format);
	vsnprintf(error->message, sizeof error->message, format, args);
	va_end(args);
	/* A cut (of the field path or the message) may fall inside a character. */
	text_make_valid(error->field);
	text_make_valid(error->message);
	return 0;
}

const char *reader_quote(char *buffer, const char *text)
{
	return text_quote(buffer, CODEC_QUOTE_SIZE, text, CODEC_QUOTE_CHARS);
}

const char *reader_path_key(char *buffer, const char *prefix, const char *key)
{
	snprintf(buffer, CODEC_PATH_SIZE, "%s%s%s", prefix, *prefix ? "." : "", key);
	return buffer;
}

const char *reader_path_index(char *buffer, const char *prefix, size_t index)
{
	snprintf(buffer, CODEC_PATH_SIZE, "%s[%zu]", prefix, index);
	return buffer;
}

/* 1 when `word` is one of the space-separated words of `list`. */
static int word_listed(const char *list, const char *word)
{
	size_t length = strlen(word);
	const char *at = list;
	while (*at) {
		const char *end = strchr(at, ' ');
		size_t size = end ? (size_t)(end - at) : strlen(at);
		if (size == length && memcmp(at, word, size) == 0)
			return 1;
		if (!end)
			break;
		at = end + 1;
	}
	return 0;
}

int reader_refuse_unknown_members(const json_t *object, const char *allowed, int typed, const char *prefix,
				  const char *what, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	char quoted[CODEC_QUOTE_SIZE];
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)object, key, value)
	{
		if (typed && strcmp(key, "type") == 0)
			continue;
		if (!word_listed(allowed, key))
			return reader_refuse(error, CODEC_ERROR_UNKNOWN_FIELD, reader_path_key(path, prefix, key),
					     "unknown member \"%s\" in %s (its members: %s)", reader_quote(quoted, key),
					     what, *allowed ? allowed : "none");
	}
	return 1;
}

int reader_require_members(const json_t *object, const char *required, const char *prefix, const char *what,
			   struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	const char *at = required;
	while (*at) {
		char word[32];
		size_t size = strcspn(at, " ");
		snprintf(word, sizeof word, "%.*s", (int)size, at);
		if (!json_object_get(object, word))
			return reader_refuse(error, CODEC_ERROR_MISSING_FIELD, reader_path_key(path, prefix, word),
					     "%s needs member \"%s\"", what, word);
		at += size;
		at += *at == ' ';
	}
	return 1;
}

int reader_check_members(const json_t *object, const char *allowed, const char *required, int typed, const char *prefix,
			 const char *what, struct codec_error *error)
{
	return reader_refuse_unknown_members(object, allowed, typed, prefix, what, error) &&
	       reader_require_members(object, required, prefix, what, error);
}

int reader_type(const json_t *json, const char *shape, const char *kind, int (*from_name)(const char *name), int *out,
		struct codec_error *error)
{
	if (!json_is_object(json))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "", "%s must be a JSON object with a \"type\"",
				     shape);
	const json_t *type = json_object_get(json, "type");
	if (!type)
		return reader_refuse(error, CODEC_ERROR_MISSING_FIELD, "type", "%s needs \"type\"", shape);
	if (!json_is_string(type))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "type", "type must be a string naming the %s",
				     kind);
	*out = from_name(json_string_value(type));
	if (*out < 0) {
		char quoted[CODEC_QUOTE_SIZE];
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "type", "unknown %s type \"%s\"", kind,
				     reader_quote(quoted, json_string_value(type)));
	}
	return 1;
}

int reader_integer(const json_t *value, const char *field, json_int_t low, json_int_t high, json_int_t *out,
		   struct codec_error *error)
{
	if (!json_is_integer(value))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field,
				     "%s must be an integer %" JSON_INTEGER_FORMAT "..%" JSON_INTEGER_FORMAT, field,
				     low, high);
	json_int_t number = json_integer_value(value);
	if (number < low || number > high)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field,
				     "%s must be %" JSON_INTEGER_FORMAT "..%" JSON_INTEGER_FORMAT
				     " (got %" JSON_INTEGER_FORMAT ")",
				     field, low, high, number);
	*out = number;
	return 1;
}

int reader_int8(const json_t *value, const char *field, int low, int high, int8_t *out, struct codec_error *error)
{
	json_int_t number = 0;
	if (!reader_integer(value, field, low, high, &number, error))
		return 0;
	*out = (int8_t)number;
	return 1;
}

int reader_uint8(const json_t *value, const char *field, int low, int high, uint8_t *out, struct codec_error *error)
{
	json_int_t number = 0;
	if (!reader_integer(value, field, low, high, &number, error))
		return 0;
	*out = (uint8_t)number;
	return 1;
}

int reader_seat(const json_t *value, const char *field, int nullable, int8_t *out, struct codec_error *error)
{
	if (nullable && (!value || json_is_null(value))) {
		*out = GAME_NO_SEAT;
		return 1;
	}
	if (!json_is_integer(value))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field, "%s must be a seat 0..%d%s", field,
				     GAME_MAX_SEATS - 1, nullable ? " or null" : "");
	return reader_int8(value, field, 0, GAME_MAX_SEATS - 1, out, error);
}

int reader_trade_id(const json_t *value, const char *field, int nullable, uint16_t *out, struct codec_error *error)
{
	if (nullable && (!value || json_is_null(value))) {
		*out = 0;
		return 1;
	}
	json_int_t number = 0;
	if (!reader_integer(value, field, 1, CODEC_MAX_TRADE_ID, &number, error))
		return 0;
	*out = (uint16_t)number;
	return 1;
}

int reader_bool(const json_t *value, const char *field, uint8_t *out, struct codec_error *error)
{
	if (!json_is_boolean(value))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field, "%s must be true or false", field);
	*out = (uint8_t)json_is_true(value);
	return 1;
}

int reader_name(const json_t *value, const char *field, const struct codec_names *names, uint8_t *out,
		struct codec_error *error)
{
	int index = json_is_string(value) ? codec_names_find(names, json_string_value(value)) : -1;
	if (index < 0)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field, "%s must be one of: %s", field,
				     names->expected);
	*out = (uint8_t)index;
	return 1;
}

int reader_resource(const json_t *value, const char *field, uint8_t *out, struct codec_error *error)
{
	int resource = json_is_string(value) ? codec_resource_from_name(json_string_value(value)) : -1;
	if (resource < 0)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field,
				     "%s must be a resource: brick, lumber, wool, grain, ore", field);
	*out = (uint8_t)resource;
	return 1;
}

int reader_resource_map(const json_t *value, const char *field, uint8_t out[RESOURCE_COUNT], struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	memset(out, 0, RESOURCE_COUNT);
	if (!json_is_object(value))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field,
				     "%s must be an object of resource counts, e.g. {\"ore\": 2}", field);
	unsigned seen = 0;
	const char *key;
	json_t *count;
	json_object_foreach((json_t *)value, key, count)
	{
		int resource = codec_resource_from_name(key);
		reader_path_key(path, field, key);
		if (resource < 0) {
			char quoted[CODEC_QUOTE_SIZE];
			return reader_refuse(error, CODEC_ERROR_UNKNOWN_FIELD, path,
					     "unknown resource \"%s\" (brick, lumber, wool, grain, ore)",
					     reader_quote(quoted, key));
		}
		if (seen >> resource & 1u)
			return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, path,
					     "%s names %s twice (through an alias)", field, resource_name(resource));
		seen |= 1u << resource;
		if (!reader_uint8(count, path, 0, CODEC_MAX_COUNT, &out[resource], error))
			return 0;
	}
	return 1;
}

int reader_seat_list(const json_t *value, const char *field, uint8_t *mask, struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	if (!json_is_array(value) || json_array_size(value) == 0 || json_array_size(value) > GAME_MAX_SEATS)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field,
				     "%s must be a list of 1..%d distinct seats", field, GAME_MAX_SEATS);
	*mask = 0;
	size_t index;
	json_t *entry;
	json_array_foreach(value, index, entry)
	{
		int8_t seat;
		if (!reader_seat(entry, reader_path_index(path, field, index), 0, &seat, error))
			return 0;
		if (*mask >> seat & 1u)
			return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, path, "%s lists seat %d twice", field,
					     seat);
		*mask |= (uint8_t)(1u << seat);
	}
	return 1;
}

int reader_array(const json_t *value, const char *field, size_t low, size_t high, const char *what,
		 struct codec_error *error)
{
	if (!json_is_array(value) || json_array_size(value) < low || json_array_size(value) > high) {
		if (low == high)
			return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field, "%s must be an array of %zu %s",
					     field, low, what);
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, field, "%s must be an array of %zu..%zu %s",
				     field, low, high, what);
	}
	return 1;
}

int reader_dice(const json_t *value, const char *field, uint8_t dice[2], struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	if (!reader_array(value, field, 2, 2, "dice 1..6", error))
		return 0;
	for (size_t i = 0; i < 2; i++)
		if (!reader_uint8(json_array_get(value, i), reader_path_index(path, field, i), 1, 6, &dice[i], error))
			return 0;
	return 1;
}
