/*
 * options.c - game options to JSON and back (options.h).
 *
 * The client's "options" object and the game_created event's share the engine's members,
 * read by codec_game_options_read(): a client may leave any of them out or null (the
 * defaults stay), while a stored event (codec/log.c) carries every one, so a null there is
 * refused. rules_check_options() has the last word on whether the result is a game.
 */
#include "codec/options.h"

#include <stdio.h>
#include <string.h>

#include "codec/names.h"
#include "codec/reader.h"
#include "codec/writer.h"
#include "engine/bot.h"
#include "engine/rules.h"

#define CODEC_MAX_TURN_TIMEOUT_S 31536000

json_t *codec_game_options_to_json(const struct game_options *options)
{
	json_t *object = writer_made(json_object());
	writer_put_int(object, "seats", options->seats);
	writer_put_new(object, "layout", writer_name_or_null(&codec_layout_names, options->layout));
	writer_put_new(object, "start", writer_name_or_null(&codec_start_names, options->start));
	writer_put_new(object, "numbers", writer_name_or_null(&codec_numbers_names, options->numbers));
	writer_put_new(object, "edition", writer_name_or_null(&codec_edition_names, options->edition));
	writer_put_new(object, "dice", writer_name_or_null(&codec_dice_names, options->dice));
	writer_put_new(object, "first_seat", writer_id_or_null(options->first_seat));
	return object;
}

int codec_game_options_read(const json_t *object, const char *prefix, int null_keeps, struct game_options *options,
			    struct codec_error *error)
{
	char path[CODEC_PATH_SIZE];
	const json_t *value;
#define OPTION_NAME(member)                                                                                        \
	if ((value = json_object_get(object, #member)) && !(null_keeps && json_is_null(value)) &&                  \
	    !reader_name(value, reader_path_key(path, prefix, #member), &codec_##member##_names, &options->member, \
			 error))                                                                                   \
		return 0;
	OPTION_NAME(layout)
	OPTION_NAME(start)
	OPTION_NAME(numbers)
	OPTION_NAME(edition)
	OPTION_NAME(dice)
#undef OPTION_NAME
	if ((value = json_object_get(object, "first_seat"))) {
		int8_t seat;
		reader_path_key(path, prefix, "first_seat");
		if (!reader_seat(value, path, 1, &seat, error))
			return 0;
		if (seat >= options->seats)
			return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, path,
					     "%s must be null or a seat 0..%d of this game", path, options->seats - 1);
		options->first_seat = seat;
	}
	if (options->start == GAME_START_FIXED && options->layout != GAME_LAYOUT_BEGINNER)
		return reader_refuse(
			error, CODEC_ERROR_INVALID_FIELD, reader_path_key(path, prefix, "start"),
			"start fixed needs layout beginner (the fixed placements are on the beginner board)");
	return 1;
}

int32_t codec_offer_wait_default(int32_t turn_timeout_s)
{
	if (turn_timeout_s <= 0)
		return 60;
	int32_t wait = turn_timeout_s / 4;
	if (wait < 15)
		wait = turn_timeout_s < 15 ? turn_timeout_s : 15;
	return wait > 12 * 3600 ? 12 * 3600 : wait;
}

/* bot_levels: at most one entry a seat, each a level name or null. */
static int read_bot_levels(const json_t *value, struct codec_options *out, struct codec_error *error)
{
	if (!json_is_array(value) || json_array_size(value) > out->game.seats)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "options.bot_levels",
				     "bot_levels must be an array of at most %d levels (easy, medium, hard) or nulls",
				     out->game.seats);
	size_t index;
	const json_t *entry;
	json_array_foreach(value, index, entry)
	{
		if (json_is_null(entry))
			continue;
		char field[64];
		snprintf(field, sizeof field, "options.bot_levels[%d]", (int)index);
		uint8_t level;
		if (!reader_name(entry, field, &codec_bot_level_names, &level, error))
			return 0;
		out->seat_bot_levels[index] = (uint8_t)(level + 1);
	}
	return 1;
}

int codec_options_bot_level(const struct codec_options *options, int seat)
{
	if (seat >= 0 && seat < GAME_MAX_SEATS && options->seat_bot_levels[seat] >= 1 &&
	    options->seat_bot_levels[seat] <= BOT_LEVEL_COUNT)
		return options->seat_bot_levels[seat] - 1;
	return options->bot_level >= 1 && options->bot_level <= BOT_LEVEL_COUNT ? options->bot_level - 1
										: BOT_LEVEL_DEFAULT;
}

/* bot_levels as shown back: the array, or NULL when no seat has a level of its own. */
static json_t *bot_levels_json(const struct codec_options *options)
{
	int any = 0;
	for (int s = 0; s < GAME_MAX_SEATS; s++)
		any |= options->seat_bot_levels[s] != 0;
	if (!any)
		return NULL;
	json_t *levels = json_array();
	for (int s = 0; s < options->game.seats && s < GAME_MAX_SEATS; s++)
		json_array_append_new(levels, options->seat_bot_levels[s]
						      ? writer_name_or_null(&codec_bot_level_names,
									    codec_options_bot_level(options, s))
						      : json_null());
	return levels;
}

void codec_options_put_bot_levels(json_t *object, const struct codec_options *options)
{
	json_object_set_new(object, "bot_level",
			    writer_name_or_null(&codec_bot_level_names, codec_options_bot_level(options, -1)));
	json_t *levels = bot_levels_json(options);
	if (levels)
		json_object_set_new(object, "bot_levels", levels);
}

static int stored_level(const json_t *value)
{
	for (int level = 0; json_is_string(value) && level < (int)codec_bot_level_names.count; level++)
		if (strcmp(json_string_value(value), codec_bot_level_names.names[level]) == 0)
			return level + 1;
	return 0;
}

void codec_options_read_bot_levels(const json_t *json, struct codec_options *out)
{
	out->bot_level = (uint8_t)stored_level(json_object_get(json, "bot_level"));
	memset(out->seat_bot_levels, 0, sizeof out->seat_bot_levels);
	const json_t *levels = json_object_get(json, "bot_levels");
	for (size_t s = 0; json_is_array(levels) && s < json_array_size(levels) && s < GAME_MAX_SEATS; s++)
		out->seat_bot_levels[s] = (uint8_t)stored_level(json_array_get(levels, s));
}

int codec_options_from_json(const json_t *json, struct codec_options *out, struct codec_error *error)
{
	struct codec_error ignored;
	if (!error)
		error = &ignored;
	uint8_t seats = out->game.seats;
	memset(out, 0, sizeof *out);
	rules_default_options(&out->game);
	out->game.seats = seats;
	out->on_timeout = CODEC_ON_TIMEOUT_DEFAULT;
	out->holiday_allowance_s = CODEC_HOLIDAY_ALLOWANCE_DEFAULT_S;
	out->substitute_after_timeouts = CODEC_SUBSTITUTE_AFTER_TIMEOUTS_DEFAULT;
	if (seats < GAME_MIN_SEATS || seats > GAME_MAX_SEATS)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "seats", "seats must be %d or %d",
				     GAME_MIN_SEATS, GAME_MAX_SEATS);
	out->offer_wait_s = codec_offer_wait_default(0);
	if (!json || json_is_null(json))
		return 1;
	if (!json_is_object(json))
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "options", "options must be an object");
	if (json_object_get(json, "seats"))
		return reader_refuse(error, CODEC_ERROR_UNKNOWN_FIELD, "options.seats",
				     "seats is given at the top level of the body, not inside options");
	if (!reader_check_members(
		    json,
		    "layout start numbers edition dice first_seat turn_timeout_s on_timeout offer_wait_s "
		    "bot_level bot_levels holiday_allowance_s substitute_after_timeouts time_bank_s time_increment_s "
		    "seed rated",
		    "", 0, "options", "options", error))
		return 0;
	if (!codec_game_options_read(json, "options", 1, &out->game, error))
		return 0;
	const json_t *value;
	json_int_t number = 0;
	if ((value = json_object_get(json, "turn_timeout_s")) && !json_is_null(value)) {
		if (!reader_integer(value, "options.turn_timeout_s", 0, CODEC_MAX_TURN_TIMEOUT_S, &number, error))
			return 0;
		out->turn_timeout_s = (int32_t)number;
	}
	if ((value = json_object_get(json, "on_timeout")) && !json_is_null(value) &&
	    !reader_name(value, "options.on_timeout", &codec_on_timeout_names, &out->on_timeout, error))
		return 0;
	uint8_t level;
	if ((value = json_object_get(json, "bot_level")) && !json_is_null(value)) {
		if (!reader_name(value, "options.bot_level", &codec_bot_level_names, &level, error))
			return 0;
		out->bot_level = (uint8_t)(level + 1);
	}
	if ((value = json_object_get(json, "bot_levels")) && !json_is_null(value) &&
	    !read_bot_levels(value, out, error))
		return 0;
	out->offer_wait_s = codec_offer_wait_default(out->turn_timeout_s);
	if ((value = json_object_get(json, "offer_wait_s")) && !json_is_null(value)) {
		if (!reader_integer(value, "options.offer_wait_s", 0, CODEC_MAX_OFFER_WAIT_S, &number, error))
			return 0;
		out->offer_wait_s = (int32_t)number;
	}
	if ((value = json_object_get(json, "holiday_allowance_s")) && !json_is_null(value)) {
		if (!reader_integer(value, "options.holiday_allowance_s", 0, CODEC_MAX_HOLIDAY_ALLOWANCE_S, &number,
				    error))
			return 0;
		out->holiday_allowance_s = (int32_t)number;
	}
	if ((value = json_object_get(json, "substitute_after_timeouts")) && !json_is_null(value)) {
		if (!reader_integer(value, "options.substitute_after_timeouts", 0, CODEC_MAX_SUBSTITUTE_AFTER_TIMEOUTS,
				    &number, error))
			return 0;
		out->substitute_after_timeouts = (int32_t)number;
	}
	if ((value = json_object_get(json, "time_bank_s")) && !json_is_null(value)) {
		if (!reader_integer(value, "options.time_bank_s", 0, CODEC_MAX_TURN_TIMEOUT_S, &number, error))
			return 0;
		out->time_bank_s = (int32_t)number;
	}
	if ((value = json_object_get(json, "time_increment_s")) && !json_is_null(value)) {
		if (!reader_integer(value, "options.time_increment_s", 0, CODEC_MAX_TURN_TIMEOUT_S, &number, error))
			return 0;
		out->time_increment_s = (int32_t)number;
	}
	if ((out->time_bank_s || out->time_increment_s) && out->turn_timeout_s == 0)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD,
				     out->time_bank_s ? "options.time_bank_s" : "options.time_increment_s",
				     "a time bank runs after a decision's turn_timeout_s: give turn_timeout_s too");
	if ((value = json_object_get(json, "seed")) && !json_is_null(value)) {
		if (!reader_integer(value, "options.seed", 0, CODEC_SEED_MAX, &number, error))
			return 0;
		out->has_seed = 1;
		out->seed = (uint64_t)number;
	}
	if ((value = json_object_get(json, "rated")) && !json_is_null(value) &&
	    !reader_bool(value, "options.rated", &out->rated, error))
		return 0;
	if (rules_check_options(&out->game) != ERROR_OK)
		return reader_refuse(error, CODEC_ERROR_INVALID_FIELD, "options",
				     "these options do not describe a game this server plays");
	return 1;
}

json_t *codec_options_to_json(const struct codec_options *options)
{
	json_t *object = codec_game_options_to_json(&options->game);
	writer_put_int(object, "turn_timeout_s", options->turn_timeout_s);
	writer_put_new(object, "on_timeout", writer_name_or_null(&codec_on_timeout_names, options->on_timeout));
	writer_put_int(object, "offer_wait_s", options->offer_wait_s);
	codec_options_put_bot_levels(object, options);
	if (options->holiday_allowance_s != CODEC_HOLIDAY_ALLOWANCE_DEFAULT_S)
		writer_put_int(object, "holiday_allowance_s", options->holiday_allowance_s);
	writer_put_new(object, "rated", json_boolean(options->rated));
	if (options->substitute_after_timeouts != 0)
		writer_put_int(object, "substitute_after_timeouts", options->substitute_after_timeouts);
	if (options->time_bank_s || options->time_increment_s) {
		writer_put_int(object, "time_bank_s", options->time_bank_s);
		writer_put_int(object, "time_increment_s", options->time_increment_s);
	}
	return object;
}
