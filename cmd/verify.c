/*
 * verify.c - `catan verify EXPORT.json`: is a finished game what its seeds make?
 *
 * The export (GET /v1/games/{id}/export of a finished game) gives the log, the game's id and
 * its seed: a provably fair game's server seed (64 hex digits), or an older game's secret
 * seed (a decimal number). The check is game/import.h's import_verify_fair(), the judgement
 * an import gets: the commitment of the game_created event is the server seed's SHA-256,
 * the board, the tokens and the first player are what the seed of version 0 makes, and every
 * move decided again with the seed of its version (game/fairness.h) makes the logged events,
 * member for member (each die, each stolen card, each card drawn). The first event that
 * differs is named, with why.
 */
#include "cmd/verify.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "codec/fairness.h"
#include "codec/log.h"
#include "db/store.h"
#include "game/fairness.h"
#include "game/import.h"

static const char *const envelope[] = {"version", "created_at", "origin"};

/* The events of the export's "events" (each without its envelope); NULL with a message. */
static struct event *read_events(const json_t *list, int *count, FILE *err)
{
	if (!json_is_array(list) || json_array_size(list) == 0) {
		fprintf(err, "catan verify: the export has no \"events\"\n");
		return NULL;
	}
	*count = (int)json_array_size(list);
	struct event *events = xcalloc((size_t)*count, sizeof *events);
	for (int i = 0; i < *count; i++) {
		json_t *bare = json_is_object(json_array_get(list, (size_t)i))
				       ? json_copy(json_array_get(list, (size_t)i))
				       : NULL;
		for (size_t k = 0; bare && k < sizeof envelope / sizeof envelope[0]; k++)
			json_object_del(bare, envelope[k]);
		struct codec_error error;
		memset(&error, 0, sizeof error);
		int ok = bare && codec_event_from_json(bare, &events[i], &error);
		json_decref(bare);
		if (!ok) {
			fprintf(err, "catan verify: event %d (version %d) is not an unredacted event: %s\n", i, i + 1,
				bare ? error.message : "not an object");
			free(events);
			return NULL;
		}
	}
	return events;
}

/* The randomness the export claims: its seed and game id, the scheme its first event names. */
static int read_fairness(const json_t *export, const struct event *created, struct fairness *out, FILE *err)
{
	memset(out, 0, sizeof *out);
	out->scheme = created->setup.fairness;
	out->seats = created->setup.options.seats;
	out->seeds_from = FAIRNESS_NO_SEEDS;
	const char *seed = json_string_value(json_object_get(export, "seed"));
	if (!seed) {
		fprintf(err, "catan verify: the export has no seed (the game is not finished)\n");
		return 0;
	}
	if (out->scheme == EVENT_FAIRNESS_NONE) {
		char *end;
		out->legacy_seed = (int64_t)strtoll(seed, &end, 10);
		if (*seed && !*end)
			return 1;
		fprintf(err, "catan verify: seed: not a decimal seed\n");
		return 0;
	}
	const char *game = json_string_value(json_object_get(export, "game"));
	if (!codec_hex_read(seed, out->server_seed, CODEC_SERVER_SEED_SIZE)) {
		fprintf(err, "catan verify: seed: not a server seed (64 hex digits)\n");
		return 0;
	}
	if (!game || !store_parse_id(game, &out->game_id)) {
		fprintf(err, "catan verify: game: not a game id\n");
		return 0;
	}
	return 1;
}

/* The export's "fairness" says the players' seeds the log set and fixed (when it says them:
 * an older export has neither member): 1 when it does, else 0 with a message. */
static int seeds_agree(const json_t *export, const struct fairness *seeds, FILE *err)
{
	const json_t *object = json_object_get(export, "fairness");
	const json_t *list = json_object_get(object, "player_seeds"), *from = json_object_get(object, "seeds_from");
	if (seeds->scheme == EVENT_FAIRNESS_NONE || (!list && !from))
		return 1;
	int fixed = seeds->seeds_from != FAIRNESS_NO_SEEDS;
	if (!(fixed ? json_is_integer(from) && json_integer_value(from) == (json_int_t)seeds->seeds_from
		    : json_is_null(from))) {
		fprintf(err, "catan verify: mismatch at fairness.seeds_from: the log's seeds_fixed event says %s\n",
			fixed ? "another version" : "none");
		return 0;
	}
	if (!json_is_array(list) || json_array_size(list) != (size_t)seeds->seats) {
		fprintf(err, "catan verify: mismatch at fairness.player_seeds: not one string per seat\n");
		return 0;
	}
	for (int s = 0; s < seeds->seats; s++) {
		const char *seed = json_string_value(json_array_get(list, (size_t)s));
		if (!seed || strcmp(seed, seeds->player_seeds[s]) != 0) {
			fprintf(err,
				"catan verify: mismatch at fairness.player_seeds[%d]: the log's player_seed_set "
				"events say \"%s\"\n",
				s, seeds->player_seeds[s]);
			return 0;
		}
	}
	return 1;
}

int verify_export(const char *text, size_t size, FILE *out, FILE *err)
{
	json_error_t parse_error;
	json_t *export = json_loadb(text, size, 0, &parse_error);
	if (!json_is_object(export)) {
		fprintf(err, "catan verify: not an export (a JSON object): %s\n", parse_error.text);
		json_decref(export);
		return 1;
	}
	int count = 0;
	struct event *events = read_events(json_object_get(export, "events"), &count, err);
	struct fairness fairness;
	int ok = events && read_fairness(export, &events[0], &fairness, err);
	if (!ok) {
		json_decref(export);
		free(events);
		return 1;
	}
	struct import_group *groups = xcalloc((size_t)count, sizeof *groups);
	struct game *final = xmalloc(sizeof *final);
	struct import_refusal refusal;
	int group_count;
	struct fairness seeds;
	ok = import_verify_seeds(events, count, &fairness, groups, &group_count, final, &refusal, &seeds);
	if (!ok) {
		fprintf(err, "catan verify: mismatch at event %d (version %d, %s): %s\n", refusal.index,
			refusal.index + 1, event_type_name(events[refusal.index].type), refusal.reason);
	} else if (!(ok = seeds_agree(export, &seeds, err))) {
		/* said */
	} else {
		int rolls = 0, steals = 0, draws = 0;
		for (int i = 0; i < count; i++) {
			rolls += events[i].type == EVENT_DICE_ROLLED;
			steals += events[i].type == EVENT_RESOURCE_STOLEN;
			draws += events[i].type == EVENT_DEVELOPMENT_CARD_BOUGHT;
		}
		if (fairness.scheme == EVENT_FAIRNESS_NONE)
			fprintf(out, "not provably fair (no commitment: a chosen seed, or a game created before); "
				     "replayed with its seed: ");
		else
			fprintf(out, "commitment matches the server seed (%s); ", codec_fairness_name(fairness.scheme));
		if (seeds.scheme != EVENT_FAIRNESS_NONE && seeds.seeds_from != FAIRNESS_NO_SEEDS) {
			int set = 0;
			for (int s = 0; s < seeds.seats; s++)
				set += seeds.player_seeds[s][0] != '\0';
			fprintf(out, "%d of %d players' seeds mixed in from version %u; ", set, seeds.seats,
				(unsigned)seeds.seeds_from);
		}
		fprintf(out, "board, tokens and first player match; %d rolls, %d steals, %d draws: all match\n", rolls,
			steals, draws);
	}
	json_decref(export);
	free(groups);
	free(final);
	free(events);
	return ok ? 0 : 1;
}
