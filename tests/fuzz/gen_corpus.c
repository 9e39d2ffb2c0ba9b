/*
 * gen_corpus.c - writes the seed corpora of tests/fuzz/corpus/<target>/ (`make
 * fuzz-corpus`): real inputs, a few dozen per target.
 *
 *   codec_options  create-game bodies as API.md and the HTTP tests send them
 *   codec_move     one legal move of each type from each of two random games, rendered
 *                  by codec_command_to_json() (templates filled), trade bodies as the
 *                  trade routes take them (no type), and some bodies to refuse
 *   codec_event    stored events of random games: the row's type byte, then the payload
 *                  (or, for some, the whole event with its type)
 *   codec_replay   event logs of random games: whole short games, prefixes, the API's
 *                  {"events": [...]} form
 *   import         import bodies: exports of random games cut after 1, 8, 60 and 400
 *                  events (within 64 KiB), with the seed when the judge takes it, the
 *                  envelope and origins, players and options; and bodies to refuse
 *   http           requests as fuzz_http.c reads them: method byte, target, If-Match,
 *                  Idempotency-Key, Authorization, X-Request-Id, webhook url
 *   engine         choice sequences for fuzz_engine.c from a fixed generator: every
 *                  option combination, long enough to reach the late game
 *   names          names as fuzz_names.c reads them (a mode byte: even, the name's bytes;
 *                  odd, a body of POST /v1/players or of creation's players), the ones of
 *                  the name table of tests/codec/test_person_name.c among them
 *   messages       table-talk bodies and texts (mode byte as fuzz_messages.c)
 *   away           holiday requests: seats byte, the path's seat, newline, the body
 *   join           join bodies
 *   webhook_body   webhook registrations as fuzz_webhook_body.c reads them: who registers
 *                  (one byte), then the body: every format, events, mentions of both
 *                  services, and bodies to refuse
 *   mail_address   mail registration bodies and bare addresses, good and hostile
 *   escape         a format byte, then names: the hostile table of tests/codec/test_escape.c
 *   bot_position   `catan bot` inputs: a seat's view and the board at positions of random
 *                  games (setup, mid-game, with offers), and a few broken ones
 *
 * Deterministic: the same files every run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codec/log.h"
#include "codec/options.h"
#include "codec/shapes.h"
#include "engine/apply.h"
#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "engine/view.h"
#include "game/import.h"
#include "bench/games.h"

static const char *root;

static void write_file(const char *target, const char *name, const void *data, size_t size)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", root, target);
	mkdir(path, 0755);
	snprintf(path, sizeof path, "%s/%s/%s", root, target, name);
	FILE *file = fopen(path, "wb");
	if (!file || fwrite(data, 1, size, file) != size || fclose(file) != 0) {
		perror(path);
		exit(1);
	}
}

static void write_text(const char *target, const char *name, const char *text)
{
	write_file(target, name, text, strlen(text));
}

static void options_corpus(void)
{
	static const char *const bodies[] = {
		"{\"seats\":4}",
		"{\"seats\":3}",
		"{\"seats\":4,\"options\":{\"layout\":\"random\",\"numbers\":\"random\",\"seed\":42}}",
		"{\"seats\":3,\"options\":{\"layout\":\"beginner\",\"start\":\"fixed\"}}",
		"{\"seats\":4,\"options\":{\"edition\":\"2025\",\"dice\":\"manual\",\"first_seat\":2}}",
		"{\"seats\":4,\"options\":{\"turn_timeout_s\":60,\"on_timeout\":\"bot\"}}",
		"{\"seats\":4,\"options\":{\"turn_timeout_s\":30,\"on_timeout\":\"default\",\"first_seat\":null}}",
		"{\"players\":[{\"name\":\"Ada\"},{\"name\":\"Grace\",\"bot\":true},{\"name\":\"Linus\",\"bot\":false}]"
		"}",
		"{\"players\":[{\"name\":\"Åsa\"},{\"name\":\"Zoë\"},{\"name\":\"李\"},{\"bot\":true}],"
		"\"options\":{\"layout\":\"random\"}}",
		"{\"seats\":4,\"options\":{\"layout\":\"hexagon\"}}",
		"{\"seats\":5}",
		"{\"seats\":4,\"options\":{\"colour\":\"red\"}}",
		"{\"seats\":3,\"options\":{\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaé\":1}}",
		"{\"seats\":4,\"options\":{\"seed\":-1}}",
		"{\"seats\":4,\"options\":{\"seed\":18446744073709551615}}",
		"{\"seats\":4,\"options\":{\"turn_timeout_s\":-5}}",
		"{\"seats\":4,\"options\":{\"first_seat\":7}}",
		"{\"seats\":4,\"options\":{\"start\":\"fixed\",\"layout\":\"random\"}}",
		"{\"seats\":4,\"options\":[]}",
		"{\"seats\":\"4\"}",
		"{\"seats\":4,\"seats\":3}",
		"{\"seats\":4,\"options\":{\"dice\":\"manual\",\"numbers\":\"spiral\",\"edition\":\"classic\"}}",
		"{\"seats\":4,",
		"{\"seats\":4,\"options\":{\"layout\":\"rand\\u00e9m\"}}",
		"[1,2,3]",
		"{\"seats\":4,\"options\":{\"on_timeout\":\"\\ud83c\\udfb2\"}}",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "body-%02zu.json", i);
		write_text("codec_options", name, bodies[i]);
	}
}

/* The legal moves of every seat at a few points of a random game, one body per type and
 * seat and point (so a few dozen files). */
static void move_corpus(void)
{
	static struct command moves[LEGAL_MOVES_MAX];
	static struct games_record game;
	static struct game state;
	int written = 0;
	unsigned seen = 0;
	for (int g = 0; g < 2; g++) {
		memset(&game, 0, sizeof game);
		games_record_play(&game, 4, g, 0, 1, UINT64_C(77) + (uint64_t)g);
		memset(&state, 0, sizeof state);
		struct rng filler;
		rng_init(&filler, 5, (uint64_t)g);
		for (int i = 0; i < game.count; i++) {
			apply_event(&state, &game.events[i]);
			for (int s = 0; s < state.options.seats; s++) {
				int count = legal_moves(&state, s, moves, LEGAL_MOVES_MAX);
				for (int m = 0; m < count && m < LEGAL_MOVES_MAX; m++) {
					struct command move = moves[m];
					/* One of each type per game, from the seat and point first listing it. */
					if (seen >> move.type & 1u)
						continue;
					seen |= 1u << move.type;
					playout_fill_template(&state, s, &move, &filler);
					json_t *body = codec_command_to_json(&move);
					char *text = json_dumps(body, JSON_COMPACT);
					char name[48];
					snprintf(name, sizeof name, "move-%02d-%s.json", written++,
						 command_type_name(move.type));
					write_text("codec_move", name, text);
					free(text);
					json_decref(body);
				}
			}
		}
		games_record_free(&game);
		seen = 0;
	}
	static const char *const bodies[] = {
		"{\"give\":{\"brick\":1},\"want\":{\"ore\":1}}",
		"{\"give\":{\"wood\":2},\"want\":{\"wheat\":1,\"sheep\":1},\"to\":[1,2]}",
		"{\"give\":{\"clay\":1},\"want\":{\"grain\":1},\"counter_to\":3}",
		"{}",
		"{\"with\":2}",
		"{\"type\":\"roll\",\"dice\":[3,4]}",
		"{\"type\":\"discard\",\"resources\":{\"ore\":2,\"lumber\":1}}",
		"{\"type\":\"move_robber\",\"hex\":9,\"victim\":null}",
		"{\"type\":\"play_road_building\",\"edges\":[]}",
		"{\"type\":\"play_year_of_plenty\",\"resources\":{\"ore\":2}}",
		"{\"type\":\"build_road\",\"edge\":71,\"seat\":1}",
		"{\"type\":\"maritime_trade\",\"give\":{\"wool\":4},\"get\":{\"brick\":1}}",
		"{\"type\":\"play_monopoly\",\"resource\":\"corn\"}",
		"{\"type\":\"build_settlement\",\"node\":54}",
		"{\"type\":\"teleport\"}",
		"{\"type\":\"discard\",\"resources\":{\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaé\":1}}",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "body-%02zu.json", i);
		write_text("codec_move", name, bodies[i]);
	}
}

static void event_corpus(void)
{
	static struct games_record game;
	unsigned seen = 0;
	int written = 0;
	for (int g = 0; g < 2; g++) {
		memset(&game, 0, sizeof game);
		games_record_play(&game, 3 + (g & 1), g & 1, 1, 1, UINT64_C(300) + (uint64_t)g);
		int seats = game.final.options.seats;
		for (int i = 0; i < game.count; i++) {
			const struct event *event = &game.events[i];
			int whole = g == 1;
			if (whole ? i % 150 != 0 : (seen >> event->type & 1u))
				continue;
			seen |= 1u << event->type;
			char *text = whole ? codec_event_dump(event, seats) : codec_payload_dump(event, seats);
			size_t length = strlen(text);
			char *row = malloc(length + 1);
			row[0] = (char)event->type;
			memcpy(row + 1, text, length);
			char name[64];
			snprintf(name, sizeof name, "%s-%02d-%s", whole ? "event" : "payload", written++,
				 event_type_name(event->type));
			write_file("codec_event", name, row, length + 1);
			free(row);
			free(text);
		}
		games_record_free(&game);
	}
}

/* Events [0, count) of a game as a log; `api`: the {"events": [...]} form with versions. */
static char *log_text(const struct games_record *game, int count, int api)
{
	size_t capacity = 64, used = 0;
	char *text = malloc(capacity);
	used += (size_t)sprintf(text, "%s", api ? "{\"events\":[" : "[");
	for (int i = 0; i < count; i++) {
		char *event = codec_event_dump(&game->events[i], game->final.options.seats);
		size_t length = strlen(event) + 64;
		if (used + length + 4 > capacity) {
			capacity = 2 * (used + length + 4);
			text = realloc(text, capacity);
		}
		if (api)
			used += (size_t)sprintf(text + used, "%s{\"version\":%d,%s", i ? "," : "", i + 1, event + 1);
		else
			used += (size_t)sprintf(text + used, "%s%s", i ? "," : "", event);
		free(event);
	}
	sprintf(text + used, "%s", api ? "]}" : "]");
	return text;
}

static void replay_corpus(void)
{
	static struct games_record game;
	static const int prefixes[] = {1, 8, 60, 400};
	int written = 0;
	for (int g = 0; g < 3; g++) {
		memset(&game, 0, sizeof game);
		games_record_play(&game, 3 + (g & 1), g & 1, 1, g == 2, UINT64_C(900) + (uint64_t)g);
		for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
			int count = prefixes[p] < game.count ? prefixes[p] : game.count;
			char *text = log_text(&game, count, (int)(p + (size_t)g) % 3 == 0);
			char name[48];
			snprintf(name, sizeof name, "log-%02d-%d-events.json", written++, count);
			if (strlen(text) <= 65536)
				write_text("codec_replay", name, text);
			free(text);
		}
		games_record_free(&game);
	}
	write_text("codec_replay", "empty.json", "[]");
	write_text("codec_replay", "not-a-log.json", "{\"version\":3}");
}

/* Does the judge (game/import.c) take events[0 .. count) of `game`, with `seed` when has_seed? */
static int judged(const struct games_record *game, int count, int has_seed, uint64_t seed)
{
	struct import_group *groups = calloc((size_t)count, sizeof *groups);
	static struct game final;
	struct import_refusal refusal;
	int group_count;
	int ok = import_verify(game->events, count, has_seed, seed, groups, &group_count, &final, &refusal);
	free(groups);
	return ok;
}

static void import_corpus(void)
{
	static struct games_record game;
	static const int prefixes[] = {1, 8, 60, 400};
	static const char *const origins[] = {"player", "bot", "timeout"};
	int written = 0;
	for (int g = 0; g < 4; g++) {
		uint64_t seed = UINT64_C(1200) + (uint64_t)g;
		memset(&game, 0, sizeof game);
		games_record_play(&game, 3 + (g & 1), g & 1, 1, g >= 2, seed);
		int seats = game.final.options.seats;
		for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++) {
			int count = prefixes[p] < game.count ? prefixes[p] : game.count;
			if (!judged(&game, count, 0, 0))
				continue;
			size_t capacity = 1 << 17, used = 0;
			char *text = malloc(capacity);
			used += (size_t)sprintf(text, "{\"format\":1,\"version\":%d,\"events\":[", count);
			for (int i = 0; i < count && used < capacity - 4096; i++) {
				char *event = codec_event_dump(&game.events[i], seats);
				if (strlen(event) + used + 128 < capacity)
					used += (size_t)sprintf(text + used, "%s{\"version\":%d,\"origin\":\"%s\",%s",
								i ? "," : "", i + 1, origins[(i + g) % 3], event + 1);
				free(event);
			}
			used += (size_t)sprintf(text + used, "]");
			if (judged(&game, count, 1, seed) && p % 2 == 0)
				used += (size_t)sprintf(text + used, ",\"seed\":\"%llu\"", (unsigned long long)seed);
			if (p == 1)
				used += (size_t)sprintf(text + used,
							",\"players\":[{\"name\":\"Ada\"},{\"bot\":true},{}%s]",
							seats == 4 ? ",{\"name\":\"Zoë\",\"bot\":false}" : "");
			if (p == 2)
				used += (size_t)sprintf(text + used,
							",\"options\":{\"turn_timeout_s\":60,\"on_timeout\":\"bot\"}");
			sprintf(text + used, "}");
			char name[48];
			snprintf(name, sizeof name, "export-%02d-%d-events.json", written++, count);
			if (strlen(text) <= 65536)
				write_text("import", name, text);
			free(text);
		}
		if (g == 0) {
			/* The first event with the rest of the body wrong, one member at a time. */
			static const char *const rest[] = {
				"\"options\":1",
				"\"options\":{\"turn_timeout_s\":\"x\"}",
				"\"players\":{}",
				"\"players\":[{},{}]",
				"\"players\":[1,{},{}]",
				"\"players\":[{\"name\":\"\"},{},{}]",
				"\"players\":[{\"bot\":\"yes\"},{},{}]",
				"\"players\":[{\"seat\":0},{},{}]",
			};
			char *event = codec_event_dump(&game.events[0], seats);
			for (size_t r = 0; r < sizeof rest / sizeof rest[0]; r++) {
				char *text = malloc(strlen(event) + 128);
				sprintf(text, "{\"events\":[%s],%s}", event, rest[r]);
				char name[48];
				snprintf(name, sizeof name, "created-then-%02zu.json", r);
				write_text("import", name, text);
				free(text);
			}
			free(event);
		}
		games_record_free(&game);
	}
	static const char *const bodies[] = {
		"{\"events\":[]}",
		"{\"events\":[{\"type\":\"turn_ended\",\"seat\":0}],\"seed\":\"12x\"}",
		"{\"events\":[{\"type\":\"turn_ended\",\"seat\":0}]}",
		"{\"events\":[{\"type\":\"dice_rolled\",\"seat\":0,\"dice\":[6,7],\"total\":13}]}",
		"{\"events\":[1],\"seed\":-1,\"options\":[],\"players\":{}}",
		"{\"events\":[{}],\"extra\":1}",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "body-%02zu.json", i);
		write_text("import", name, bodies[i]);
	}
}

static void http_corpus(void)
{
	static const struct {
		char method;
		const char *text;
	} requests[] = {
		{2, "/v1/games\n\n\n\n"},
		{0, "/v1/games/0123456789abcdef\n\n\nBearer st_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\nreq-1"},
		{0, "/v1/games/0123456789abcdef/board"},
		{0, "/v1/games/0123456789abcdef/actions\n\n\nBearer at_abcdefghijklmnopqrstuvwxyz0123456789-_ABCDEFG"},
		{2, "/v1/games/0123456789abcdef/moves\n\"12\"\nkey-0001\nBearer st_x\nabc.DEF_ghi-1"},
		{2, "/v1/games/0123456789abcdef/moves\nW/\"3\"\n\nbearer  st_y  \n"},
		{2, "/v1/games/0123456789abcdef/moves\n\"+1\"\nk\nBearer\n"},
		{2, "/v1/games/0123456789abcdef/moves\n\" 1\"\n\x01\x02\nBasic dXNlcjpwYXNz\n"},
		{0, "/v1/games/0123456789abcdef/moves?after=10&limit=50&wait=30"},
		{0, "/v1/games/0123456789abcdef/moves?limit=5abc&after=-1"},
		{0, "/v1/games/0123456789abcdef/moves?after=99999999999999999999999&wait=61"},
		{0, "/v1/games/0123456789abcdef/stream?token=st_abc"},
		{0, "/v1/games/0123456789abcdef/players"},
		{2, "/v1/games/0123456789abcdef/trades\n\n\nBearer st_q\n"},
		{0, "/v1/games/0123456789abcdef/trades"},
		{2, "/v1/games/0123456789abcdef/trades/3/accept"},
		{2, "/v1/games/0123456789abcdef/trades/3/decline"},
		{2, "/v1/games/0123456789abcdef/trades/65535/confirm"},
		{5, "/v1/games/0123456789abcdef/trades/3"},
		{2, "/v1/games/0123456789abcdef/webhooks"},
		{0, "/v1/games/0123456789abcdef/webhooks/wh_0000000000000001/deliveries?limit=500"},
		{5, "/v1/games/0123456789abcdef/webhooks/wh_1"},
		{0, "/healthz"},
		{1, "/readyz"},
		{0, "/metrics"},
		{0, "/openapi.json"},
		{3, "/v1/games"},
		{6, "/v1/games/0123456789abcdef"},
		{0, "/v1/games/0123456789abcdef%00/board"},
		{0, "/v1/games/%e2%82/board"},
		{0, "/v1/games//board"},
		{0, "/v1/games/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/board"},
		{7, "/v1/games/x/y/z/w/v/u"},
		{0, "//healthz"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\nBearer at_x\n\nhttps://example.com/hooks/catan"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\nBearer st_x\n\nhttp://127.0.0.1:8080/"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\n\n\nhttp://user:pass@example.com/"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\n\n\nhttp://[::1]/x"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\n\n\nhttp://0x7f.1/"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\n\n\nhttps://hooks.localhost/"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\n\n\nftp://example.com/"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\n\n\nhttp://169.254.169.254/latest/meta-data/"},
		{2, "/v1/games/0123456789abcdef/webhooks\n\n\n\n\nhttp://[fe80::1%25eth0]:80/"},
	};
	for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
		size_t length = strlen(requests[i].text);
		char *data = malloc(length + 1);
		data[0] = requests[i].method;
		memcpy(data + 1, requests[i].text, length);
		char name[32];
		snprintf(name, sizeof name, "request-%02zu", i);
		write_file("http", name, data, length + 1);
		free(data);
	}
}

static void engine_corpus(void)
{
	struct rng rng;
	rng_init(&rng, UINT64_C(0xe1e1), 0);
	static uint8_t data[8192];
	for (int i = 0; i < 32; i++) {
		size_t size = i < 8 ? 600 + 200 * (size_t)i : 2500 + (size_t)rng_below(&rng, 5000);
		data[0] = (uint8_t)(i * 37 % 128);
		for (int b = 1; b < 9; b++)
			data[b] = (uint8_t)rng_next(&rng);
		for (size_t b = 9; b < size; b++) {
			data[b] = (uint8_t)rng_next(&rng);
			/* Raw commands are one step in 20 and only in some inputs. */
			if (data[b] >= 0xe0 && (i % 4 != 3 || rng_below(&rng, 20) != 0))
				data[b] &= 0x7f;
		}
		char name[32];
		snprintf(name, sizeof name, "choices-%02d", i);
		write_file("engine", name, data, size);
	}
}

/* Inputs of the request-body targets: a mode byte (or none, -1) and the text. */
struct body_seed {
	int mode;
	const char *text;
};

static void body_corpus(const char *target, const struct body_seed *seeds, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		size_t length = strlen(seeds[i].text);
		char *data = malloc(length + 1);
		size_t at = 0;
		if (seeds[i].mode >= 0)
			data[at++] = (char)seeds[i].mode;
		memcpy(data + at, seeds[i].text, length);
		char name[32];
		snprintf(name, sizeof name, "input-%02zu", i);
		write_file(target, name, data, length + at);
		free(data);
	}
}

static void names_corpus(void)
{
	static const struct body_seed seeds[] = {
		{0, "Ann"},
		{0, "Ann Lee"},
		{0, "Ren\xc3\xa9"},
		{0, "Rene\xcc\x81"},
		{0, "\xe5\xbc\xa0\xe4\xbc\x9f"},
		{0, "\xf0\x9f\x8e\xb2"},
		{0, "\xe2\x9d\xa4\xef\xb8\x8f"},
		{0, "   "},
		{0, "\xe3\x85\xa4"},
		{0, "\xc2\xad"},
		{0, "\xf3\xa0\x81\x81\xf3\xa0\x81\xbf"},
		{0, "\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81\xcc\x81"},
		{0, "\xe2\xa0\x80"},
		{0, "\xee\x80\x80"},
		{0, "Ann\xe2\x80\xae"},
		{0, "abcdefghijabcdefghijabcdefghijabcdefghijk"},
		{1, "{\"name\": \"Ann\"}"},
		{1, "{\"name\": \"\\u3164\"}"},
		{1, "{\"name\": \"\\u0000x\"}"},
		{1, "{\"name\": 3}"},
		{1, "{\"nom\": \"Ann\"}"},
		{1, "{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"  \"}, {\"name\": \"Cy\", \"bot\": true}]}"},
		{1, "{\"players\": [{\"name\": \"\\udb40\\udc41\"}, {\"open\": true}, {\"name\": \"a\\u0301\"}]}"},
	};
	body_corpus("names", seeds, sizeof seeds / sizeof seeds[0]);
}

static void messages_corpus(void)
{
	static const struct body_seed seeds[] = {
		{0, "{\"text\": \"gg\"}"},
		{0, "{\"text\": \"Anyone for 2 wool?\\nI give ore.\"}"},
		{0, "{\"text\": \" \\n \"}"},
		{0, "{\"text\": \"\\u202e\"}"},
		{0, "{\"text\": \"a\\u0000b\"}"},
		{0, "{\"text\": 1}"},
		{0, "{}"},
		{0, "{\"text\": \"hi\", \"to\": 2}"},
		{0, "[\"text\"]"},
		{0, "{\"text\": \"hi\", \"text\": \"ho\"}"},
		{1, "gg, well played \xf0\x9f\x8e\xb2"},
		{1, "line one\nline two"},
		{1, "\t"},
	};
	body_corpus("messages", seeds, sizeof seeds / sizeof seeds[0]);
}

static void away_corpus(void)
{
	static const struct body_seed seeds[] = {
		{0, "1\n"},   {1, "3\n{}"},
		{0, "3\n"},   {0, "x\n"},
		{0, "-1\n"},  {0, "+1\n"},
		{0, " 2\n"},  {0, "1\n{\"days\": 7}"},
		{0, "1\n[]"}, {0, "99999999999999999999\n"},
		{0, "\n{}"},
	};
	body_corpus("away", seeds, sizeof seeds / sizeof seeds[0]);
}

static void join_corpus(void)
{
	static const struct body_seed seeds[] = {
		{-1, "{\"invite\": \"iv_abc\", \"name\": \"Bob\"}"},
		{-1, "{\"invite\": \"iv_abc\"}"},
		{-1, "{\"name\": \"Bob\"}"},
		{-1, "{\"invite\": \"\", \"name\": \"Bob\"}"},
		{-1, "{\"invite\": 7, \"name\": \"Bob\"}"},
		{-1, "{\"invite\": \"iv_abc\", \"name\": \"\\u3164\"}"},
		{-1, "{\"invite\": \"iv_abc\", \"name\": \"Bob\", \"seat\": 1}"},
		{-1, "{\"invite\": \"iv_abc\", \"name\": null}"},
	};
	body_corpus("join", seeds, sizeof seeds / sizeof seeds[0]);
}

/* A body after a first byte for fuzz_webhook_body.c. */
static void write_prefixed(const char *target, const char *name, uint8_t first, const char *text)
{
	size_t length = strlen(text);
	char *data = malloc(length + 1);
	data[0] = (char)first;
	memcpy(data + 1, text, length);
	write_file(target, name, data, length + 1);
	free(data);
}

static void webhook_corpus(void)
{
	static const struct {
		uint8_t who; /* bit 0: 4 seats, 1: a seat, 2: private targets, 3: a player */
		const char *body;
	} bodies[] = {
		{0x06, "{\"url\":\"http://127.0.0.1:9/hook\"}"},
		{0x02, "{\"url\":\"https://bot.example.org/catan/hook\",\"events\":\"your_turn\"}"},
		{0x00, "{\"url\":\"https://bot.example.org/catan/hook\",\"events\":\"all\",\"format\":\"standard\"}"},
		{0x01,
		 "{\"url\":\"https://discord.com/api/webhooks/123/abc\",\"format\":\"discord\","
		 "\"mentions\":{\"0\":\"<@80351110224678912>\",\"1\":\"<@!80351110224678913>\",\"2\":\"<@&42>\"}}"},
		{0x03, "{\"url\":\"https://hooks.slack.com/services/T000/B000/XXXX\",\"format\":\"slack\","
		       "\"mentions\":{\"2\":\"<@U024BE7LH>\",\"3\":\"<!subteam^SAZ94GDB8>\"}}"},
		{0x0a,
		 "{\"url\":\"https://discord.com/api/webhooks/1/x\",\"format\":\"discord\",\"events\":\"your_turn\","
		 "\"mentions\":{\"3\":\"<@1>\"}}"},
		{0x02, "{\"url\":\"https://discord.com/api/webhooks/1/x\",\"format\":\"discord\",\"mentions\":{}}"},
		{0x02, "{\"url\":\"https://x.example/[Open](https://evil.example/)\",\"format\":\"discord\","
		       "\"events\":\"all\",\"mentions\":{\"0\":\"<@1>\"}}"},
		{0x02,
		 "{\"url\":\"https://x.example/<@&1>@everyone\",\"format\":\"slack\",\"mentions\":{\"1\":\"<@W1>\"}}"},
		{0x02, "{\"url\":\"https://discord.com/api/webhooks/1/"
		       "x\",\"format\":\"discord\",\"mentions\":{\"0\":\"@here\"}}"},
		{0x02, "{\"url\":\"https://discord.com/api/webhooks/1/"
		       "x\",\"format\":\"discord\",\"mentions\":{\"0\":\"<@U1>\"}}"},
		{0x02,
		 "{\"url\":\"https://hooks.slack.com/x\",\"format\":\"slack\",\"mentions\":{\"0\":\"<!channel>\"}}"},
		{0x02, "{\"url\":\"https://hooks.slack.com/x\",\"format\":\"slack\",\"mentions\":{\"7\":\"<@U1>\"}}"},
		{0x02, "{\"url\":\"https://hooks.slack.com/x\",\"format\":\"slack\",\"mentions\":[\"<@U1>\"]}"},
		{0x02, "{\"url\":\"https://example.org/h\",\"mentions\":{\"0\":\"<@1>\"}}"},
		{0x02, "{\"url\":\"https://example.org/h\",\"format\":\"mail\"}"},
		{0x02, "{\"url\":\"https://example.org/h\",\"format\":\"Discord\"}"},
		{0x00, "{\"url\":\"https://example.org/h\",\"events\":\"your_turn\"}"},
		{0x02, "{\"url\":\"ftp://example.org/hook\"}"},
		{0x02, "{\"url\":\"http://169.254.169.254/latest/meta-data/\"}"},
		{0x02, "{\"url\":\"http://user:pw@example.com/hook\"}"},
		{0x02, "{\"url\":\"http://[::ffff:127.0.0.1]/hook\"}"},
		{0x02, "{\"url\":42}"},
		{0x02, "{}"},
		{0x02, "{\"url\":\"https://example.org/h\",\"secret\":\"mine\"}"},
		{0x02, "{\"url\":\"https://example.org/h\",\"url\":\"https://example.org/i\"}"},
		{0x02, "[\"https://example.org/h\"]"},
		{0x02, "{\"url\":\"https://example.org/"
		       "h\",\"format\":\"discord\",\"mentions\":{\"0\":\"<@1>\\n@everyone\"}}"},
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "body-%02zu", i);
		write_prefixed("webhook_body", name, bodies[i].who, bodies[i].body);
	}
}

static void mail_corpus(void)
{
	static const char *const inputs[] = {
		"{\"address\":\"ann@example.org\"}",
		"{\"address\":\"ann.example+catan@example.org\"}",
		"{\"address\":\"Ann <ann@example.org>\"}",
		"{\"address\":\"ann@example.org\\r\\nBcc: all@example.org\"}",
		"{\"address\":\"ann@example.org, bob@example.org\"}",
		"{\"address\":\"\\\"ann\\\"@example.org\"}",
		"{\"address\":\"ann@localhost\"}",
		"{\"address\":\"ann@-example.org\"}",
		"{\"address\":42}",
		"{}",
		"{\"address\":\"ann@example.org\",\"name\":\"Ann\"}",
		"ann@example.org",
		"a!#$%&'*+/=?^_`{|}~-@sub.example.co.uk",
		"ann@example.org\r\nBcc: x@example.org",
		"@example.org",
		"ann.@example.org",
		"ann@@example.org",
		"xn--bcher-kva@xn--bcher-kva.example",
	};
	for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
		char name[32];
		snprintf(name, sizeof name, "input-%02zu", i);
		write_text("mail_address", name, inputs[i]);
	}
}

static void escape_corpus(void)
{
	static const char *const names[] = {
		"Ann",
		"<@&1>",
		"<@1>",
		"<#123>",
		"@everyone",
		"@here",
		"[x](https://evil)",
		"[Open the game](https://evil.example/)",
		"`code` ```",
		"*_~|>",
		"||spoiler||",
		"# Heading",
		"<!channel>",
		"<https://evil|x>",
		"<:emoji:123>",
		"<t:1700000000:R>",
		"&amp;",
		"&lt;@1&gt;",
		"a\\b",
		"line\n# heading",
		"@\xe2\x80\x8b"
		"everyone",
		"\xe2\x80\xae"
		"nimda",
		"soft\xc2\xad"
		"hyphen",
		"bad \xff\xc0 bytes \xe2\x82",
		"</p><script>alert(\"x\")</script>",
		"O'Neil \"Jr\"",
		"J\xc3\xbcrgen \xe2\x9d\xa4\xef\xb8\x8f \xf0\x9f\x8e\xb2",
	};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		for (uint8_t format = 0; format < 3; format++) {
			char name[32];
			snprintf(name, sizeof name, "name-%02zu-%u", i, format);
			write_prefixed("escape", name, (uint8_t)(format + 3 * (uint8_t)(i * 7 % 80)), names[i]);
		}
	}
}

static void bot_position_corpus(void)
{
	static struct command scratch[LEGAL_MOVES_MAX];
	int written = 0;
	for (int g = 0; g < 3; g++) {
		struct game_options options;
		rules_default_options(&options);
		options.seats = (uint8_t)(3 + (g & 1));
		options.layout = (uint8_t)(g & 1);
		struct game game;
		struct event_list events;
		if (rules_start(&options, 2700 + (uint64_t)g, &events, &game) != ERROR_OK)
			exit(1);
		struct rng rng;
		rng_init(&rng, 2700 + (uint64_t)g, 1);
		struct playout_options choices = {1};
		for (int step = 0; step < 1200; step++) {
			int seat;
			struct command command;
			if (!playout_choose(&game, &choices, &rng, scratch, &seat, &command) ||
			    rules_decide_seeded_in_place(&game, 2700 + (uint64_t)g, seat, &command, &events) !=
				    ERROR_OK)
				break;
			if (step % 150 != 3)
				continue;
			struct game_view view;
			view_game(&game, seat, &view);
			json_t *input = json_pack("{s:o, s:o}", "game", codec_view_to_json(&view, NULL), "board",
						  codec_board_to_json(&game.board, game.options.edition));
			char *text = json_dumps(input, JSON_COMPACT);
			char name[32];
			snprintf(name, sizeof name, "position-%02d.json", written++);
			write_text("bot_position", name, text);
			free(text);
			json_decref(input);
		}
	}
	write_text("bot_position", "broken-00.json", "{\"game\": {\"options\": {\"seats\": 4}}, \"board\": {}}");
	write_text("bot_position", "broken-01.json", "{\"game\": [], \"board\": null}");
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: gen_corpus DIR\n");
		return 2;
	}
	root = argv[1];
	mkdir(root, 0755);
	options_corpus();
	move_corpus();
	event_corpus();
	replay_corpus();
	import_corpus();
	http_corpus();
	engine_corpus();
	names_corpus();
	messages_corpus();
	away_corpus();
	join_corpus();
	webhook_corpus();
	mail_corpus();
	escape_corpus();
	bot_position_corpus();
	return 0;
}
