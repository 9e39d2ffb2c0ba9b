/*
 * handlers_import.c - POST /v1/games/import: an exported game (GET .../export) becomes a
 * new game, for bug reports, tutorials and puzzles.
 *
 * The body is an export: `events` (log entries, or bare events as `catan replay` reads
 * them), and optionally `seed` (a decimal string or an integer), `options` (only the
 * service's own are taken from it: turn_timeout_s and on_timeout; the game's options are
 * those of the log's game_created event), `players` (names and bot flags) and the export's
 * other members (format, game, version, finished, board), which are ignored. A redacted
 * event (a hidden card or stolen resource, null) cannot be read and is refused, like any
 * event the codec refuses: 422 import_refused naming `events[i]`. The log is then judged by
 * import_verify() (game/import.h says exactly what is checked, with and without the seed);
 * a refusal is 422 import_refused naming `events[i]` and the reason, and nothing is
 * written. An accepted log is written as a new game in one transaction (play_import(): a
 * store failure at any event leaves nothing behind) and answered as game
 * creation answers: 201 with the new id, the admin token and one token per seat (none for a
 * bot seat). Without a seed the new game gets a random one for its future draws.
 *
 * Admission is creation's (CREATE_KEY, the per-client quota CREATE_RATE_IP, and a game
 * whose every seat is a bot only with the creation key or ALL_BOT_GAMES=1), plus the
 * client's bytes of imports an hour (IMPORT_BYTES_IP: 429 import_quota) and this process's
 * imports judged at once (IMPORT_CONCURRENCY: 503 import_busy); the body may be up to
 * HTTP_IMPORT_BODY_LIMIT (api/http.h), the log IMPORT_MAX_EVENTS events (400 naming
 * `events`), and each seat's seat_away and seat_back events AWAY_RATE_SEAT (a seat's
 * holiday toggles of a day: 422 naming the first past it). Only an import that made a
 * game is charged (api/quotas.c). The worst legal import (4 MiB of holiday toggles, 139,000
 * events) took 30 s, 23 MB of database and exported 14.9 MB before these bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/quotas.h"
#include "api/service.h"
#include "api/xalloc.h"
#include "codec/log.h"
#include "codec/options.h"
#include "codec/text.h"
#include "engine/view.h"
#include "game/auth.h"
#include "game/import.h"


static const char *const envelope[] = {"version", "created_at", "origin"};

/* The entry's origin (STORE_ORIGIN_*); an absent or unknown one is a player's. */
static int origin_of(const json_t *entry)
{
	const char *origin = json_string_value(json_object_get(entry, "origin"));
	if (origin && strcmp(origin, "bot") == 0)
		return STORE_ORIGIN_BOT;
	if (origin && strcmp(origin, "timeout") == 0)
		return STORE_ORIGIN_TIMEOUT;
	return STORE_ORIGIN_PLAYER;
}

/* The seed member: 1 with *seed and *has_seed, or 0 with a problem queued. */
static int read_seed(struct http_request *request, const json_t *value, int64_t *seed, int *has_seed)
{
	*has_seed = 0;
	if (!value || json_is_null(value))
		return 1;
	if (json_is_integer(value) && json_integer_value(value) >= 0) {
		*seed = (int64_t)json_integer_value(value);
		*has_seed = 1;
		return 1;
	}
	const char *text = json_string_value(value);
	if (text && *text && strlen(text) <= 19 && strspn(text, "0123456789") == strlen(text)) {
		unsigned long long parsed = strtoull(text, NULL, 10);
		if (parsed <= (unsigned long long)INT64_MAX) {
			*seed = (int64_t)parsed;
			*has_seed = 1;
			return 1;
		}
	}
	http_respond_problem(request, PROBLEM_INVALID_FIELD, "seed is a decimal string (or integer) of 0..2^63-1, or null",
			     "seed", -1);
	return 0;
}

static void refuse_event(struct http_request *request, int index, const char *reason)
{
	char field[32], detail[400];
	snprintf(field, sizeof field, "events[%d]", index);
	snprintf(detail, sizeof detail, "event %d: %s", index, reason);
	http_respond_problem(request, PROBLEM_IMPORT_REFUSED, detail, field, -1);
}

/* Names and bots from `players` (absent: "Seat n", no bots). 0 with a problem queued. */
static int read_players(struct http_request *request, const json_t *players, int seats,
			char names[GAME_MAX_SEATS][PLAY_NAME_SIZE], int bots[GAME_MAX_SEATS])
{
	for (int s = 0; s < seats; s++) {
		snprintf(names[s], PLAY_NAME_SIZE, "Seat %d", s + 1);
		bots[s] = 0;
	}
	if (!players || json_is_null(players))
		return 1;
	if (!json_is_array(players) || json_array_size(players) != (size_t)seats) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "players lists one {name, bot} per seat of the log",
				     "players", -1);
		return 0;
	}
	for (int s = 0; s < seats; s++) {
		json_t *player = json_array_get(players, (size_t)s);
		char field[80];
		if (!json_is_object(player)) {
			snprintf(field, sizeof field, "players[%d]", s);
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "each player is an object {name, bot}", field, -1);
			return 0;
		}
		const char *key;
		json_t *value;
		json_object_foreach((json_t *)player, key, value) {
			if (strcmp(key, "name") != 0 && strcmp(key, "bot") != 0) {
				char quoted[64];
				snprintf(field, sizeof field, "players[%d].%s", s, text_quote(quoted, sizeof quoted, key, 16));
				http_respond_problem(request, PROBLEM_UNKNOWN_FIELD, "a player has only name and bot", field, -1);
				return 0;
			}
		}
		json_t *name = json_object_get(player, "name");
		json_t *bot = json_object_get(player, "bot");
		if (name) {
			snprintf(field, sizeof field, "players[%d].name", s);
			if (!handlers_read_name(request, name, field, names[s]))
				return 0;
		}
		if (bot && !json_is_boolean(bot)) {
			snprintf(field, sizeof field, "players[%d].bot", s);
			http_respond_problem(request, PROBLEM_INVALID_FIELD, "bot is true or false", field, -1);
			return 0;
		}
		bots[s] = bot && json_is_true(bot);
	}
	return 1;
}

/* The events of the body, parsed; origins[] of each. NULL with a problem queued. */
static struct event *read_events(struct http_request *request, const json_t *list, int **origins)
{
	if (!json_is_array(list) || json_array_size(list) == 0 || json_array_size(list) > INT32_MAX / 2) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "events is the log: a non-empty array of events",
				     "events", -1);
		return NULL;
	}
	size_t count = json_array_size(list);
	struct event *events = xcalloc(count, sizeof *events);
	*origins = xcalloc(count, sizeof **origins);
	for (size_t i = 0; i < count; i++) {
		json_t *entry = json_array_get(list, i);
		json_t *bare = json_is_object(entry) ? json_copy(entry) : NULL;
		for (size_t k = 0; bare && k < sizeof envelope / sizeof envelope[0]; k++)
			json_object_del(bare, envelope[k]);
		struct codec_error error;
		memset(&error, 0, sizeof error);
		int is_object = bare != NULL;
		int ok = is_object && codec_event_from_json(bare, &events[i], &error);
		json_decref(bare);
		if (!ok) {
			char reason[300];
			snprintf(reason, sizeof reason, "not an unredacted event (%s)",
				 is_object ? error.message : "not an object");
			refuse_event(request, (int)i, reason);
			free(events);
			free(*origins);
			return NULL;
		}
		(*origins)[i] = origin_of(entry);
	}
	return events;
}

/* The holiday events of the log within AWAY_RATE_SEAT per seat (what the seat could have
 * sent in a day: an import must not be a way around the toggles' budget). 1, or 0 with
 * 422 import_refused naming the first event past it queued. */
static int holidays_within_budget(struct http_request *request, const struct event *events, int count)
{
	if (!quotas_on(QUOTAS_AWAY))
		return 1;
	double most = quotas_burst(QUOTAS_AWAY);
	int toggles[GAME_MAX_SEATS] = {0};
	for (int i = 0; i < count; i++) {
		const struct event *event = &events[i];
		if ((event->type != EVENT_SEAT_AWAY && event->type != EVENT_SEAT_BACK) || event->seat < 0 ||
		    event->seat >= GAME_MAX_SEATS)
			continue;
		if (++toggles[event->seat] > most) {
			char reason[160];
			snprintf(reason, sizeof reason,
				 "seat %d goes away or comes back more than %.0f times (AWAY_RATE_SEAT, its budget of a day)",
				 event->seat, most);
			refuse_event(request, i, reason);
			return 0;
		}
	}
	return 1;
}

static void import_game(struct http_request *request);

/* Admission: creation's (CREATE_KEY, CREATE_RATE_IP), the client's bytes of imports an
 * hour (IMPORT_BYTES_IP) and this process's imports at once (IMPORT_CONCURRENCY); both
 * quotas are paid only when the game was made (api/quotas.h). */
void handle_import_game(struct http_request *request)
{
	int keyed = handlers_has_create_key(request);
	double bytes = (double)request->body_length;
	if (!handlers_may_create(request))
		return;
	if (!keyed && quotas_on(QUOTAS_IMPORT_BYTES) && bytes > quotas_burst(QUOTAS_IMPORT_BYTES)) {
		char detail[160];
		snprintf(detail, sizeof detail, "this server imports at most %.0f bytes an hour from one client (IMPORT_BYTES_IP)",
			 quotas_burst(QUOTAS_IMPORT_BYTES));
		http_respond_problem(request, PROBLEM_BODY_TOO_LARGE, detail, NULL, -1);
		return;
	}
	if (!keyed && !quotas_admit(request, QUOTAS_IMPORT_BYTES, quotas_client(request), bytes))
		return;
	if (!quotas_import_enter(request))
		return;
	import_game(request);
	quotas_import_leave();
	handlers_created(request);
	if (request->status == 201 && !keyed)
		quotas_charge(request, QUOTAS_IMPORT_BYTES, quotas_client(request), bytes);
}

static void import_game(struct http_request *request)
{
	json_t *body = service_body(request, 0);
	if (!body)
		return;
	static const char *const members[] = {"format", "game", "version", "finished", "seed", "options",
					      "players", "board", "events", NULL};
	if (!service_known_members(request, body, members, "an import is an export of GET /v1/games/{id}/export")) {
		json_decref(body);
		return;
	}
	int64_t seed = 0;
	int has_seed;
	int *entry_origins = NULL;
	struct event *events = NULL;
	struct import_group *groups = NULL;
	int *group_origins = NULL;
	struct game *final = NULL;
	if (!read_seed(request, json_object_get(body, "seed"), &seed, &has_seed))
		goto done;
	int most = service_config()->import_max_events;
	if (json_array_size(json_object_get(body, "events")) > (size_t)most) {
		char detail[128];
		snprintf(detail, sizeof detail, "an import is at most %d events (IMPORT_MAX_EVENTS); a whole game is a few thousand",
			 most);
		http_respond_problem(request, PROBLEM_INVALID_FIELD, detail, "events", -1);
		goto done;
	}
	if (!(events = read_events(request, json_object_get(body, "events"), &entry_origins)))
		goto done;
	int count = (int)json_array_size(json_object_get(body, "events"));
	if (!holidays_within_budget(request, events, count))
		goto done;
	if (events[0].type != EVENT_GAME_CREATED) {
		refuse_event(request, 0, "a log begins with game_created");
		goto done;
	}
	struct codec_options options;
	memset(&options, 0, sizeof options);
	int seats = events[0].setup.options.seats;
	options.game.seats = (uint8_t)seats;
	struct codec_error error;
	/* Of the export's options only the service's own are read; the rest are the log's. */
	json_t *given = json_object_get(body, "options");
	if (given && !json_is_object(given) && !json_is_null(given)) {
		http_respond_problem(request, PROBLEM_INVALID_FIELD, "options is an object", "options", -1);
		goto done;
	}
	json_t *service_options = json_object();
	static const char *const own[] = {"turn_timeout_s", "on_timeout"};
	for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
		if (json_object_get(given, own[k]))
			json_object_set(service_options, own[k], json_object_get(given, own[k]));
	int options_ok = codec_options_from_json(service_options, &options, &error);
	json_decref(service_options);
	if (!options_ok) {
		service_codec_error(request, &error);
		goto done;
	}
	/* The game's own options are the log's. */
	options.game = events[0].setup.options;
	char names[GAME_MAX_SEATS][PLAY_NAME_SIZE];
	int bots[GAME_MAX_SEATS];
	if (!read_players(request, json_object_get(body, "players"), seats, names, bots) ||
	    !handlers_bots_only_allowed(request, bots, seats))
		goto done;

	groups = xcalloc((size_t)count, sizeof *groups);
	final = xmalloc(sizeof *final);
	int group_count;
	struct import_refusal refusal;
	if (!import_verify(events, count, has_seed, (uint64_t)seed, groups, &group_count, final, &refusal)) {
		refuse_event(request, refusal.index, refusal.reason);
		goto done;
	}
	group_origins = xcalloc((size_t)group_count, sizeof *group_origins);
	for (int g = 0; g < group_count; g++)
		group_origins[g] = entry_origins[groups[g].first];

	if (!has_seed) {
		uint64_t random_seed;
		if (!auth_random(&random_seed, sizeof random_seed)) {
			http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
			goto done;
		}
		seed = (int64_t)(random_seed >> 1);
	}
	char admin_token[AUTH_TOKEN_LENGTH + 1];
	char tokens[GAME_MAX_SEATS][AUTH_TOKEN_LENGTH + 1];
	uint8_t admin_hash[AUTH_HASH_SIZE];
	uint8_t token_hashes[GAME_MAX_SEATS][AUTH_HASH_SIZE];
	int ok = auth_new_token("at_", admin_token);
	auth_hash(admin_token, strlen(admin_token), admin_hash);
	struct play_new_game new_game = {&options, seed, {NULL}, bots, token_hashes, admin_hash, NULL};
	for (int s = 0; s < seats && ok; s++) {
		new_game.names[s] = names[s];
		ok = auth_new_token("st_", tokens[s]);
		auth_hash(tokens[s], strlen(tokens[s]), token_hashes[s]);
	}
	if (!ok) {
		http_respond_problem(request, PROBLEM_INTERNAL_ERROR, "no randomness available", NULL, -1);
		goto done;
	}
	struct session session;
	memset(&session, 0, sizeof session);
	session.viewer = VIEW_SPECTATOR;
	enum store_status status =
		play_import(&new_game, events, groups, group_count, group_origins, &session.game);
	if (status != STORE_OK) {
		service_store_error(request, status);
		goto done;
	}
	snprintf(request->game, sizeof request->game, "%s", session.game.id_text);
	json_t *view = handlers_game_view(request, &session);
	if (!view)
		goto done;
	json_t *seat_list = json_array();
	for (int s = 0; s < seats; s++)
		json_array_append_new(seat_list, json_pack("{s:i, s:s, s:b, s:o}", "seat", s, "name", names[s], "bot",
							   bots[s], "token",
							   bots[s] ? json_null() : json_string(tokens[s])));
	long version = (long)session.game.state.version;
	json_t *response = json_pack("{s:s, s:i, s:s, s:o, s:o}", "id", session.game.id_text, "version", (int)version,
				     "admin_token", admin_token, "seats", seat_list, "game", view);
	char location[64];
	snprintf(location, sizeof location, "/v1/games/%s", session.game.id_text);
	http_add_header(request, "Location", location);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json(request, 201, response, version);
done:
	free(events);
	free(entry_origins);
	free(groups);
	free(group_origins);
	free(final);
	json_decref(body);
}
