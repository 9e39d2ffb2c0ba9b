/*
 * summary.c - sentences for people. Resource maps become "2 ore and 1 wool" (in the words
 * of the game's edition when the game is known); seats become their names (or "Seat N",
 * N counted from 0 as the API counts seats, when a name is missing); places become their
 * names by the one rule of codec/places.h that GET /board publishes ("Bob built a
 * settlement at the corner of grain 9, ore 8 and the coast"), or their ids when the board
 * is not known.
 */
#include "deliver/summary.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "codec/places.h"
#include "engine/view.h"

/* The note's longest text in bytes, the NUL included: what is past it is cut (a chat
 * service bounds a message too). */
#define NOTE_SIZE 2048

static const char *name_of(const char *const *names, int seat, char *fallback, size_t size)
{
	if (seat >= 0 && seat < GAME_MAX_SEATS && names && names[seat] && names[seat][0])
		return names[seat];
	snprintf(fallback, size, "Seat %d", seat % 100);
	return fallback;
}

/* A resource's word in `edition` (-1, or out of range: the API's name). */
static const char *resource_word(int resource, int edition)
{
	const char *word = edition >= 0 ? places_resource_word(resource, edition) : NULL;
	return word ? word : resource_name(resource);
}

void summary_cards(struct xtext *text, const uint8_t counts[RESOURCE_COUNT], int edition)
{
	int parts = 0, total = 0;
	for (int r = 0; r < RESOURCE_COUNT; r++)
		total += counts[r] != 0;
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		if (!counts[r])
			continue;
		const char *joiner = parts == 0 ? "" : parts == total - 1 ? " and " : ", ";
		xtext_add(text, "%s%d %s", joiner, counts[r], resource_word(r, edition));
		parts++;
	}
	if (parts == 0)
		xtext_add(text, "nothing");
}

#define add_cards(text, counts) summary_cards((text), (counts), edition)

static const char *development_words(int card)
{
	switch (card) {
	case DEVELOPMENT_KNIGHT:
		return "a knight";
	case DEVELOPMENT_ROAD_BUILDING:
		return "road building";
	case DEVELOPMENT_YEAR_OF_PLENTY:
		return "year of plenty";
	case DEVELOPMENT_MONOPOLY:
		return "a monopoly";
	case DEVELOPMENT_VICTORY_POINT:
		return "a victory point";
	default:
		return "a development card";
	}
}

/* The name of a place of the game's board, or its id as "<kind> <id>" without a game. */
static const char *place_of(const struct game *game, int kind, int id, char *out, size_t size)
{
	if (game) {
		int edition = game->options.edition;
		if (kind == 'n')
			places_node(&game->board, edition, id, out, size);
		else if (kind == 'e')
			places_edge(&game->board, edition, id, out, size);
		else
			places_hex(&game->board, edition, id, out, size);
		if (out[0])
			return out;
	}
	snprintf(out, size, "%s %d", kind == 'n' ? "intersection" : kind == 'e' ? "path" : "hex", id);
	return out;
}

void summary_event(const struct event *e, const char *const *names, char *out, size_t size)
{
	summary_event_on(NULL, e, names, out, size);
}

void summary_event_on(const struct game *game, const struct event *e, const char *const *names, char *out, size_t size)
{
	struct xtext text = xtext_new();
	char a[24], b[24], place[PLACES_NAME_SIZE];
	int edition = game ? game->options.edition : -1;
	const char *who = name_of(names, e->seat, a, sizeof a);
	const char *other = name_of(names, e->other, b, sizeof b);
	switch (e->type) {
	case EVENT_GAME_CREATED:
		xtext_add(&text, "The game was created; %s places first.",
			  name_of(names, e->setup.first_seat, a, sizeof a));
		break;
	case EVENT_SETTLEMENT_BUILT:
		xtext_add(&text, "%s built a settlement at %s.", who,
			  place_of(game, 'n', e->node, place, sizeof place));
		break;
	case EVENT_ROAD_BUILT:
		xtext_add(&text, "%s built a road on %s.", who, place_of(game, 'e', e->edge, place, sizeof place));
		break;
	case EVENT_CITY_BUILT:
		xtext_add(&text, "%s built a city at %s.", who, place_of(game, 'n', e->node, place, sizeof place));
		break;
	case EVENT_RESOURCES_PRODUCED:
		xtext_add(&text, "Production:");
		for (int s = 0; s < GAME_MAX_SEATS; s++) {
			if (resource_total(e->gains[s]) == 0)
				continue;
			xtext_add(&text, " %s got ", name_of(names, s, a, sizeof a));
			add_cards(&text, e->gains[s]);
			xtext_add(&text, ";");
		}
		if (text.length && text.data[text.length - 1] == ';')
			text.data[--text.length] = '\0';
		xtext_add(&text, ".");
		break;
	case EVENT_DICE_ROLLED:
		xtext_add(&text, "%s rolled %d (%d + %d).", who, e->dice[0] + e->dice[1], e->dice[0], e->dice[1]);
		break;
	case EVENT_DISCARDED:
		xtext_add(&text, "%s discarded ", who);
		add_cards(&text, e->resources);
		xtext_add(&text, ".");
		break;
	case EVENT_ROBBER_MOVED:
		xtext_add(&text, "%s moved the robber to %s.", who, place_of(game, 'h', e->hex, place, sizeof place));
		break;
	case EVENT_RESOURCE_STOLEN:
		if (e->resource < RESOURCE_COUNT)
			xtext_add(&text, "%s stole 1 %s from %s.", who, resource_word(e->resource, edition), other);
		else
			xtext_add(&text, "%s stole a card from %s.", who, other);
		break;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		if (e->card < DEVELOPMENT_COUNT)
			xtext_add(&text, "%s bought a development card (%s).", who, development_words(e->card));
		else
			xtext_add(&text, "%s bought a development card.", who);
		break;
	case EVENT_KNIGHT_PLAYED:
		xtext_add(&text, "%s played a knight.", who);
		break;
	case EVENT_ROAD_BUILDING_PLAYED:
		xtext_add(&text, "%s played road building.", who);
		break;
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		xtext_add(&text, "%s played year of plenty and took ", who);
		add_cards(&text, e->resources);
		xtext_add(&text, ".");
		break;
	case EVENT_MONOPOLY_PLAYED: {
		int taken = 0;
		for (int s = 0; s < GAME_MAX_SEATS; s++)
			taken += e->resource < RESOURCE_COUNT ? e->gains[s][e->resource] : 0;
		xtext_add(&text, "%s played a monopoly on %s and took %d.", who,
			  e->resource < RESOURCE_COUNT ? resource_word(e->resource, edition) : "?", taken);
		break;
	}
	case EVENT_MARITIME_TRADED:
		xtext_add(&text, "%s traded ", who);
		add_cards(&text, e->give);
		xtext_add(&text, " with the bank for ");
		add_cards(&text, e->want);
		xtext_add(&text, ".");
		break;
	case EVENT_TRADE_OFFERED:
		xtext_add(&text, "%s offers ", who);
		add_cards(&text, e->give);
		xtext_add(&text, " for ");
		add_cards(&text, e->want);
		xtext_add(&text, " (offer %u).", e->trade);
		break;
	case EVENT_TRADE_ACCEPTED:
		xtext_add(&text, "%s accepted offer %u.", who, e->trade);
		break;
	case EVENT_TRADE_DECLINED:
		xtext_add(&text, "%s declined offer %u.", who, e->trade);
		break;
	case EVENT_TRADE_WITHDRAWN:
		xtext_add(&text, "%s withdrew offer %u.", who, e->trade);
		break;
	case EVENT_TRADE_COMPLETED:
		xtext_add(&text, "%s gave ", who);
		add_cards(&text, e->give);
		xtext_add(&text, " to %s for ", other);
		add_cards(&text, e->want);
		xtext_add(&text, ".");
		break;
	case EVENT_LONGEST_ROAD_CHANGED:
		if (e->seat >= 0)
			xtext_add(&text, "%s now holds Longest Road.", who);
		else
			xtext_add(&text, "Longest Road is set aside.");
		break;
	case EVENT_LARGEST_ARMY_CHANGED:
		xtext_add(&text, "%s now holds Largest Army.", who);
		break;
	case EVENT_TURN_ENDED:
		xtext_add(&text, "%s ended the turn.", who);
		break;
	case EVENT_GAME_WON:
		xtext_add(&text, "%s won with %d points.", who, e->points);
		break;
	case EVENT_SEAT_AWAY:
		xtext_add(&text, "%s is away: a bot plays for them.", who);
		break;
	case EVENT_SEAT_BACK:
		xtext_add(&text, "%s is back.", who);
		break;
	case EVENT_RESIGNED:
		xtext_add(&text, "%s resigned: a bot plays the seat.", who);
		break;
	case EVENT_SEAT_RELEASED:
		xtext_add(&text, "%s left: a bot holds the seat until a substitute takes it.", who);
		break;
	case EVENT_SEAT_SUBSTITUTED:
		xtext_add(&text, "%s took the seat as a substitute.", who);
		break;
	case EVENT_QUIET_HOURS_SET:
		xtext_add(&text, "%s set quiet hours: %02d:%02d to %02d:%02d, %.63s time.", who,
			  e->quiet.from_min / 60 % 100, e->quiet.from_min % 60, e->quiet.to_min / 60 % 100,
			  e->quiet.to_min % 60, e->quiet.zone);
		break;
	case EVENT_QUIET_HOURS_CLEARED:
		xtext_add(&text, "%s cleared their quiet hours.", who);
		break;
	default:
		xtext_add(&text, "Something happened.");
		break;
	}
	snprintf(out, size, "%s", text.data);
	free(text.data);
}

static void add_expectation(struct xtext *text, const struct game *game, int seat, const char *const *names)
{
	int edition = game->options.edition;
	struct game_view view;
	view_game(game, seat, &view);
	char a[24];
	int active = game->turn_seat == seat;
	switch (game->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		if (active)
			xtext_add(text, "Initial placement: place a settlement.");
		break;
	case GAME_PHASE_SETUP_ROAD:
		if (active)
			xtext_add(text, "Initial placement: place a road next to the settlement you just placed.");
		break;
	case GAME_PHASE_ROLL:
		if (active)
			xtext_add(text, "Roll the dice (you may play a development card first).");
		break;
	case GAME_PHASE_DISCARD:
		if (game->players[seat].discard_owed)
			xtext_add(text, "A 7 was rolled: discard %d of your %d resource cards.",
				  game->players[seat].discard_owed, game_resource_count(game, seat));
		break;
	case GAME_PHASE_MOVE_ROBBER:
		if (active)
			xtext_add(text, "Move the robber to another hex and choose whom to rob.");
		break;
	case GAME_PHASE_MAIN:
		if (active)
			xtext_add(text, "Trade, build or play a card, then end your turn.");
		for (int i = 0; i < view.offer_count; i++) {
			const struct game_offer *offer = &view.offers[i];
			if (!(offer->to >> seat & 1u) || (offer->accepted | offer->declined) >> seat & 1u)
				continue;
			xtext_add(text, " %s offers you ", name_of(names, offer->from, a, sizeof a));
			add_cards(text, offer->want);
			xtext_add(text, " for ");
			add_cards(text, offer->give);
			xtext_add(text, " (offer %u): accept or decline.", offer->id);
		}
		break;
	default:
		break;
	}
}

char *summary_your_turn(const struct game *game, int seat, const char *const *names, const struct event *recent,
			int recent_count)
{
	struct xtext text = xtext_new();
	char a[24], sentence[2 * PLACES_NAME_SIZE];
	xtext_add(&text, "%s, it's your move", name_of(names, seat, a, sizeof a));
	if (game->turn_number > 0 && game->turn_seat == seat)
		xtext_add(&text, " (turn %u, your turn, you have %d points).", game->turn_number,
			  game_total_points(game, seat));
	else if (game->turn_number > 0)
		xtext_add(&text, " (turn %u, %s's turn, you have %d points).", game->turn_number,
			  name_of(names, game->turn_seat, a, sizeof a), game_total_points(game, seat));
	else
		xtext_add(&text, ".");
	xtext_add(&text, " ");
	add_expectation(&text, game, seat, names);
	if (recent_count > 0) {
		xtext_add(&text, " Last moves:");
		for (int i = 0; i < recent_count; i++) {
			summary_event_on(game, &recent[i], names, sentence, sizeof sentence);
			xtext_add(&text, " %s", sentence);
		}
	}
	if (text.length >= NOTE_SIZE)
		text.data[NOTE_SIZE - 1] = '\0';
	return text.data;
}
