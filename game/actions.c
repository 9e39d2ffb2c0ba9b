/*
 * actions.c - the Actions body's text and the table that remembers it (see actions.h).
 *
 * The table: ACTIONS_SLOTS entries, each a copy of the state a body was built from, the
 * seat and the text, one mutex over them all (held for a comparison and a copy, never
 * while building). An entry's slot is a hash of the state's bytes and the seat; a lookup
 * is a hit only when the seat is the entry's and the state is equal byte for byte (memcmp),
 * so a collision or a state that differs only in padding is a miss, never a wrong body.
 * A new body replaces whatever its slot held. Texts live until replaced (or the process
 * ends: the table is static, so they stay reachable).
 *
 * Building is actions_body_json() dumped with JSON_COMPACT, the flags every JSON answer
 * uses (the body has no reals, so the precision of http's dumps does not apply).
 */
#include "game/actions.h"

#include <jansson.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "codec/shapes.h"
#include "engine/legal.h"

/* A power of two: 16 games of 4 seats at once hit, with room for collisions. */
#define ACTIONS_SLOTS 256

struct actions_entry {
	struct game state;
	int viewer; /* -2: empty slot */
	char *text;
	size_t length;
};

static struct actions_entry table[ACTIONS_SLOTS];
static int table_ready;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

/* FNV-1a over the state's 64-bit words, then the seat. */
static size_t slot_of(const struct game *state, int viewer)
{
	const unsigned char *bytes = (const unsigned char *)state;
	uint64_t hash = UINT64_C(0xcbf29ce484222325);
	size_t at = 0;
	for (; at + 8 <= sizeof *state; at += 8) {
		uint64_t word;
		memcpy(&word, bytes + at, 8);
		hash = (hash ^ word) * UINT64_C(0x100000001b3);
	}
	for (; at < sizeof *state; at++)
		hash = (hash ^ bytes[at]) * UINT64_C(0x100000001b3);
	hash = (hash ^ (uint64_t)(unsigned)viewer) * UINT64_C(0x100000001b3);
	return (size_t)(hash ^ hash >> 29) & (ACTIONS_SLOTS - 1);
}

static void table_init_locked(void)
{
	if (table_ready)
		return;
	for (size_t i = 0; i < ACTIONS_SLOTS; i++)
		table[i].viewer = -2;
	table_ready = 1;
}

json_t *actions_body_json(const struct game *state, int viewer)
{
	json_t *actions;
	if (viewer >= 0) {
		struct command *moves = malloc(sizeof *moves * LEGAL_MOVES_MAX);
		if (!moves)
			abort();
		int count = legal_moves(state, viewer, moves, LEGAL_MOVES_MAX);
		/* Templates carry what completes them (the hand, whom an offer may address). */
		actions =
			codec_actions_to_json(state, viewer, moves, count < LEGAL_MOVES_MAX ? count : LEGAL_MOVES_MAX);
		free(moves);
	} else {
		actions = json_array();
	}
	json_t *waiting = json_array();
	uint8_t mask = legal_waiting_for(state);
	for (int s = 0; s < state->options.seats; s++)
		if (mask >> s & 1u)
			json_array_append_new(waiting, json_integer(s));
	return json_pack("{s:i, s:o, s:o, s:o}", "version", (int)state->version, "seat",
			 viewer >= 0 ? json_integer(viewer) : json_null(), "waiting_for", waiting, "actions", actions);
}

static char *copy_text(const char *text, size_t length)
{
	char *copy = xmalloc(length + 1);
	memcpy(copy, text, length + 1);
	return copy;
}

char *actions_body_text(const struct game *state, int viewer, size_t *length)
{
	size_t slot = slot_of(state, viewer);
	pthread_mutex_lock(&table_lock);
	table_init_locked();
	struct actions_entry *entry = &table[slot];
	if (entry->viewer == viewer && memcmp(&entry->state, state, sizeof *state) == 0) {
		char *copy = copy_text(entry->text, entry->length);
		*length = entry->length;
		pthread_mutex_unlock(&table_lock);
		return copy;
	}
	pthread_mutex_unlock(&table_lock);

	json_t *body = actions_body_json(state, viewer);
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	size_t size = strlen(text);
	char *kept = copy_text(text, size);
	pthread_mutex_lock(&table_lock);
	entry = &table[slot];
	char *replaced = entry->text;
	memcpy(&entry->state, state, sizeof *state);
	entry->viewer = viewer;
	entry->text = kept;
	entry->length = size;
	pthread_mutex_unlock(&table_lock);
	free(replaced);
	*length = size;
	return text;
}
