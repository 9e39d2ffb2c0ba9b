/*
 * import_body.c - the body of POST /v1/games/import read and judged (import_body.h).
 *
 * The body is an export: `events` (log entries, or bare events as `catan replay` reads
 * them), and optionally `seed` (a decimal string or an integer), `options` (only the
 * service's own are taken from it: turn_timeout_s, on_timeout, offer_wait_s, bot_level and bot_levels; the game's
 * options are those of the log's game_created event), `players` (names and bot flags) and the export's
 * other members (format, game, version, finished, board), which are ignored. A redacted
 * event (a hidden card or stolen resource, null) cannot be read and is refused, like any
 * event the codec refuses: import_refused naming `events[i]`. The log is then judged by
 * import_verify(); its refusal is import_refused naming `events[i]` and the reason.
 *
 * Each step reads one member and either fills its part of the struct import_body or fills
 * the error and stops; the checks run in a fixed order (members, seed, events, the first
 * event, options, players, the rules), so a body with several faults is always refused
 * for the same one. Every allocation goes into the struct import_body the moment it is
 * made, and only import_body_free() releases it: no step frees on its own way out, so no
 * path can release a thing twice (issue 20 item 1 was such a double free).
 */
#include "api/import_body.h"
#include "api/inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "codec/log.h"
#include "codec/text.h"
#include "game/fairness.h"
#include "game/play.h"

static const char *const envelope[] = {"version", "created_at", "origin"};

/* A refusal naming `field` (a literal, a member of the body, or error->field_text). */
static int refuse(struct problem_refusal *error, enum problem code, const char *field, const char *detail)
{
	return problem_refuse(error, code, field, "%s", detail);
}

/* A refusal of field_text (already written by the caller). */
static int refuse_own_field(struct problem_refusal *error, enum problem code, const char *detail)
{
	return refuse(error, code, error->field_text, detail);
}

static int refuse_event(struct problem_refusal *error, int index, const char *reason)
{
	snprintf(error->field_text, sizeof error->field_text, "events[%d]", index);
	char detail[sizeof error->detail];
	snprintf(detail, sizeof detail, "event %d: %s", index, reason);
	return refuse_own_field(error, PROBLEM_IMPORT_REFUSED, detail);
}

static int known_members(const json_t *body, struct problem_refusal *error)
{
	static const char *const members[] = {"format",	 "game",    "version", "finished", "seed",
					      "options", "players", "board",   "events",   "fairness"};
	const char *key;
	json_t *value;
	json_object_foreach((json_t *)body, key, value)
	{
		int known = 0;
		for (size_t k = 0; k < sizeof members / sizeof members[0] && !known; k++)
			known = strcmp(key, members[k]) == 0;
		if (!known)
			return refuse(error, PROBLEM_UNKNOWN_FIELD, key,
				      "an import is an export of GET /v1/games/{id}/export");
	}
	return 1;
}

/* The entry's origin (STORE_ORIGIN_*); an absent or unknown one is a player's. */
static int origin_of(const json_t *entry)
{
	const char *origin = json_string_value(json_object_get(entry, "origin"));
	if (origin && strcmp(origin, "bot") == 0)
		return STORE_ORIGIN_BOT;
	if (origin && strcmp(origin, "timeout") == 0)
		return STORE_ORIGIN_TIMEOUT;
	if (origin && strcmp(origin, "mail") == 0)
		return STORE_ORIGIN_MAIL;
	return STORE_ORIGIN_PLAYER;
}

static int read_seed(const json_t *value, struct import_body *out, struct problem_refusal *error)
{
	out->has_seed = 0;
	if (!value || json_is_null(value))
		return 1;
	if (json_is_integer(value) && json_integer_value(value) >= 0) {
		out->seed = (int64_t)json_integer_value(value);
		out->has_seed = 1;
		return 1;
	}
	const char *text = json_string_value(value);
	if (text && strlen(text) == 2 * CODEC_SERVER_SEED_SIZE) {
		/* A provably fair game's revealed server seed (docs/fairness.md). */
		out->has_server_seed = codec_hex_read(text, out->server_seed, CODEC_SERVER_SEED_SIZE);
		out->has_seed = out->has_server_seed;
		if (out->has_seed)
			return 1;
	}
	if (text && *text && strlen(text) <= 19 && strspn(text, "0123456789") == strlen(text)) {
		unsigned long long parsed = strtoull(text, NULL, 10);
		if (parsed <= (unsigned long long)INT64_MAX) {
			out->seed = (int64_t)parsed;
			out->has_seed = 1;
			return 1;
		}
	}
	return refuse(error, PROBLEM_INVALID_FIELD, "seed",
		      "seed is a decimal string (or integer) of 0..2^63-1, a provably fair game's server seed "
		      "(64 hex digits), or null");
}

/* The exported game's id: a provably fair game's outcomes derive from it (absent: 0). */
static int read_game_id(const json_t *value, struct import_body *out, struct problem_refusal *error)
{
	out->game_id = 0;
	if (!value || json_is_null(value))
		return 1;
	if (json_is_string(value) && store_parse_id(json_string_value(value), &out->game_id))
		return 1;
	return refuse(error, PROBLEM_INVALID_FIELD, "game", "game is the exported game's id (16 hex digits), or null");
}

/* The events of the list and each entry's origin, into out->events and out->entry_origins. */
static int read_events(const json_t *list, struct import_body *out, struct problem_refusal *error)
{
	if (!json_is_array(list) || json_array_size(list) == 0 || json_array_size(list) > INT32_MAX / 2)
		return refuse(error, PROBLEM_INVALID_FIELD, "events", "events is the log: a non-empty array of events");
	size_t count = json_array_size(list);
	out->events = xcalloc(count, sizeof *out->events);
	out->entry_origins = xcalloc(count, sizeof *out->entry_origins);
	out->count = (int)count;
	for (size_t i = 0; i < count; i++) {
		json_t *entry = json_array_get(list, i);
		json_t *bare = json_is_object(entry) ? json_copy(entry) : NULL;
		for (size_t k = 0; bare && k < sizeof envelope / sizeof envelope[0]; k++)
			json_object_del(bare, envelope[k]);
		struct codec_error codec;
		memset(&codec, 0, sizeof codec);
		int is_object = bare != NULL;
		int ok = is_object && codec_event_from_json(bare, &out->events[i], &codec);
		json_decref(bare);
		if (!ok) {
			char reason[300];
			snprintf(reason, sizeof reason, "not an unredacted event (%s)",
				 is_object ? codec.message : "not an object");
			return refuse_event(error, (int)i, reason);
		}
		out->entry_origins[i] = origin_of(entry);
	}
	return 1;
}

/* Of the export's options only the service's own are read; the game's are the log's. */
static int read_options(const json_t *given, struct import_body *out, struct problem_refusal *error)
{
	memset(&out->options, 0, sizeof out->options);
	out->options.game.seats = (uint8_t)out->seats;
	if (given && !json_is_object(given) && !json_is_null(given))
		return refuse(error, PROBLEM_INVALID_FIELD, "options", "options is an object");
	json_t *service_options = json_object();
	static const char *const own[] = {"turn_timeout_s", "on_timeout", "offer_wait_s", "bot_level", "bot_levels"};
	for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
		if (json_object_get(given, own[k]))
			json_object_set(service_options, own[k], json_object_get(given, own[k]));
	struct codec_error codec;
	memset(&codec, 0, sizeof codec);
	int ok = codec_options_from_json(service_options, &out->options, &codec);
	json_decref(service_options);
	if (!ok) {
		snprintf(error->field_text, sizeof error->field_text, "%s", codec.field);
		return refuse_own_field(error, problem_of_codec_error(codec.code), codec.message);
	}
	out->options.game = out->events[0].setup.options;
	return 1;
}

/* players[s].name into out->names[s] (field_text names the member), by the one rule of
 * every name a client gives (inputs_name(), api/inputs.h). */
static int read_name(const json_t *value, char *name, struct problem_refusal *error)
{
	char read[INPUTS_NAME_SIZE];
	if (!inputs_name(value, error->field_text, read, error))
		return 0;
	snprintf(name, PLAY_NAME_SIZE, "%s", read);
	return 1;
}

/* Names and bots from `players` (absent: "Seat n", no bots). */
static int read_players(const json_t *players, struct import_body *out, struct problem_refusal *error)
{
	int seats = out->seats;
	for (int s = 0; s < seats; s++) {
		snprintf(out->names[s], PLAY_NAME_SIZE, "Seat %d", s + 1);
		out->bots[s] = 0;
	}
	if (!players || json_is_null(players))
		return 1;
	if (!json_is_array(players) || json_array_size(players) != (size_t)seats)
		return refuse(error, PROBLEM_INVALID_FIELD, "players",
			      "players lists one {name, bot} per seat of the log");
	for (int s = 0; s < seats; s++) {
		json_t *player = json_array_get(players, (size_t)s);
		if (!json_is_object(player)) {
			snprintf(error->field_text, sizeof error->field_text, "players[%d]", s);
			return refuse_own_field(error, PROBLEM_INVALID_FIELD, "each player is an object {name, bot}");
		}
		const char *key;
		json_t *value;
		json_object_foreach((json_t *)player, key, value)
		{
			/* `player` (an export's player id, issue 28) is read by nobody: an imported
			 * seat belongs to no player. */
			if (strcmp(key, "name") != 0 && strcmp(key, "bot") != 0 && strcmp(key, "player") != 0) {
				char quoted[64];
				snprintf(error->field_text, sizeof error->field_text, "players[%d].%s", s,
					 text_quote(quoted, sizeof quoted, key, 16));
				return refuse_own_field(error, PROBLEM_UNKNOWN_FIELD,
							"a player has only name, bot and player");
			}
		}
		json_t *name = json_object_get(player, "name");
		json_t *bot = json_object_get(player, "bot");
		if (name) {
			snprintf(error->field_text, sizeof error->field_text, "players[%d].name", s);
			if (!read_name(name, out->names[s], error))
				return 0;
		}
		if (bot && !json_is_boolean(bot)) {
			snprintf(error->field_text, sizeof error->field_text, "players[%d].bot", s);
			return refuse_own_field(error, PROBLEM_INVALID_FIELD, "bot is true or false");
		}
		out->bots[s] = bot && json_is_true(bot);
	}
	return 1;
}

/* The rules' judgement: the decisions of the log and each one's origin (its first entry's). */
static int judge(struct import_body *out, struct problem_refusal *error)
{
	out->groups = xcalloc((size_t)out->count, sizeof *out->groups);
	out->final = xmalloc(sizeof *out->final);
	struct import_refusal refusal;
	struct fairness fairness;
	memset(&fairness, 0, sizeof fairness);
	fairness.scheme = out->has_server_seed ? EVENT_FAIRNESS_HMAC_1 : EVENT_FAIRNESS_NONE;
	fairness.legacy_seed = out->seed;
	memcpy(fairness.server_seed, out->server_seed, sizeof fairness.server_seed);
	fairness.game_id = out->game_id;
	fairness.seats = out->seats;
	fairness.seeds_from = FAIRNESS_NO_SEEDS;
	if (!import_verify_fair(out->events, out->count, out->has_seed ? &fairness : NULL, out->groups,
				&out->group_count, out->final, &refusal))
		return refuse_event(error, refusal.index, refusal.reason);
	out->group_origins = xcalloc((size_t)out->group_count, sizeof *out->group_origins);
	for (int g = 0; g < out->group_count; g++)
		out->group_origins[g] = out->entry_origins[out->groups[g].first];
	return 1;
}

int import_body_read(const json_t *body, struct import_body *out, struct problem_refusal *error)
{
	memset(out, 0, sizeof *out);
	memset(error, 0, sizeof *error);
	if (!known_members(body, error) || !read_seed(json_object_get(body, "seed"), out, error) ||
	    !read_game_id(json_object_get(body, "game"), out, error) ||
	    !read_events(json_object_get(body, "events"), out, error))
		return 0;
	if (out->events[0].type != EVENT_GAME_CREATED)
		return refuse_event(error, 0, "a log begins with game_created");
	out->seats = out->events[0].setup.options.seats;
	return read_options(json_object_get(body, "options"), out, error) &&
	       read_players(json_object_get(body, "players"), out, error) && judge(out, error);
}

void import_body_free(struct import_body *body)
{
	free(body->events);
	free(body->entry_origins);
	free(body->groups);
	free(body->group_origins);
	free(body->final);
	memset(body, 0, sizeof *body);
}
