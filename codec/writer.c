/*
 * writer.c - the output helpers of writer.h. Each aborts where jansson reports
 * out-of-memory, which is the one failure an output of trusted engine values can have.
 */
#include "codec/writer.h"

#include <stdlib.h>

#include "engine/game.h"

json_t *writer_made(json_t *value)
{
	if (!value)
		abort();
	return value;
}

void writer_put_new(json_t *object, const char *key, json_t *value)
{
	if (json_object_set_new(object, key, writer_made(value)) != 0)
		abort();
}

void writer_append_new(json_t *array, json_t *value)
{
	if (json_array_append_new(array, writer_made(value)) != 0)
		abort();
}

void writer_put_int(json_t *object, const char *key, long long value)
{
	writer_put_new(object, key, json_integer(value));
}

json_t *writer_name_or_null(const struct codec_names *names, int index)
{
	const char *name = codec_names_at(names, index);
	return name ? json_string(name) : json_null();
}

json_t *writer_text_or_null(const char *text)
{
	return text ? json_string(text) : json_null();
}

json_t *writer_id_or_null(int id)
{
	return id >= 0 ? json_integer(id) : json_null();
}

json_t *writer_seat_list_new(unsigned mask)
{
	json_t *array = writer_made(json_array());
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		if (mask >> s & 1u)
			writer_append_new(array, json_integer(s));
	return array;
}

json_t *writer_resource_map_new(const uint8_t counts[RESOURCE_COUNT], int all)
{
	json_t *object = writer_made(json_object());
	for (int r = 0; r < RESOURCE_COUNT; r++)
		if (all || counts[r])
			writer_put_int(object, resource_name(r), counts[r]);
	return object;
}

json_t *writer_dice_new(const uint8_t dice[2])
{
	json_t *array = writer_made(json_array());
	writer_append_new(array, json_integer(dice[0]));
	writer_append_new(array, json_integer(dice[1]));
	return array;
}

int writer_clamp_seats(int seats)
{
	return seats < 0 ? 0 : seats > GAME_MAX_SEATS ? GAME_MAX_SEATS : seats;
}
