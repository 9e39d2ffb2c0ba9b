/*
 * summary.h - short human-readable sentences about a game, for chat bots and mail: what an
 * event did, and a "your turn" note (whose turn, what is expected, the last moves) that a
 * bot can post as it is.
 *
 * Sentences use only what the addressed seat may see: events must already be redacted for
 * it (view_event), and the note reads the seat's view.
 */
#ifndef CATAN_DELIVER_SUMMARY_H
#define CATAN_DELIVER_SUMMARY_H

#include <stddef.h>

#include "base/xalloc.h"
#include "engine/event.h"
#include "engine/game.h"

/* Cards as words into text ("1 ore and 2 wool", "nothing"), resources named in `edition`'s
 * words (-1: the API's names). */
void summary_cards(struct xtext *text, const uint8_t counts[RESOURCE_COUNT], int edition);

/* One sentence for an event ("Bob rolled 8 (5 + 3)."), into out (always NUL-terminated;
 * SUMMARY_SENTENCE_SIZE always suffices). summary_event_on() names the places of `game`'s
 * board and its edition's resource words (codec/places.h: "Bob built a settlement at the
 * corner of grain 9, ore 8 and the coast"); summary_event() has no board, so names places
 * by their ids. */
#define SUMMARY_SENTENCE_SIZE 640
void summary_event(const struct event *event, const char *const *names, char *out, size_t size);
void summary_event_on(const struct game *game, const struct event *event, const char *const *names, char *out,
		      size_t size);

/* The note for `seat` at this state: whose turn, what the game expects of the seat, and the
 * last `recent_count` events (redacted for the seat, oldest first). Caller frees. */
char *summary_your_turn(const struct game *game, int seat, const char *const *names, const struct event *recent,
			int recent_count);

#endif
