/*
 * import.c - a log judged by the rules before it becomes a game.
 *
 * An imported log must be one the rules could have written. apply_event_valid() alone is
 * not that: it checks that an event can be applied (the piece is in stock, the node is
 * free), not that a player could have chosen it (the distance rule, a road touching the
 * seat's network, the dice a seed gives). So each group of events goes back to the command
 * it came from and the rules decide that command again: with the game's seed the decision
 * is the one the server made, draws included, and must reproduce the logged events exactly;
 * without it, the decision is made with an arbitrary randomness, which still fixes
 * everything that needs no chance (see import.h for exactly what is checked).
 *
 * A command is derived from the group's first event: the event's own members give most of
 * it (the node, the edge, the dice, the resources, the trade), and the events that follow
 * give the rest of the cards whose effects come as further events (a knight's robber move
 * and theft, the roads of road building, a robber move's victim). Events that are only ever
 * consequences (production, awards, the win) cannot begin a group.
 *
 * Events are compared by their stored text (codec_event_dump()), the form the log keeps, so
 * "equal" means the same bytes in the store.
 */
#include "game/import.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xalloc.h"
#include "codec/log.h"
#include "engine/apply.h"
#include "engine/command.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "game/fairness.h"

/* A fixed randomness for seedless decisions: what it draws is never compared. */
#define IMPORT_SEEDLESS_SEED UINT64_C(0x5eed1e55)

static int refuse(struct import_refusal *refusal, int index, const char *format, const char *detail)
{
	refusal->index = index;
	snprintf(refusal->reason, sizeof refusal->reason, format, detail ? detail : "");
	return 0;
}

static int same_event(const struct event *a, const struct event *b, int seats)
{
	char *x = codec_event_dump(a, seats), *y = codec_event_dump(b, seats);
	int same = x && y && strcmp(x, y) == 0;
	free(x);
	free(y);
	return same;
}

/* The command events[i] begins, into *out and its seat into *seat; 0 when such an event
 * never begins a move. */
static int command_of(const struct event *events, int count, int i, const struct game *state, struct command *out,
		      int *seat)
{
	const struct event *e = &events[i];
	const struct event *next = i + 1 < count ? &events[i + 1] : NULL;
	*seat = e->seat;
	switch (e->type) {
	case EVENT_SETTLEMENT_BUILT:
		command_init(out, COMMAND_BUILD_SETTLEMENT);
		out->node = e->node;
		return 1;
	case EVENT_ROAD_BUILT:
		command_init(out, COMMAND_BUILD_ROAD);
		out->edge = e->edge;
		return 1;
	case EVENT_CITY_BUILT:
		command_init(out, COMMAND_BUILD_CITY);
		out->node = e->node;
		return 1;
	case EVENT_DICE_ROLLED:
		command_init(out, COMMAND_ROLL);
		if (state->options.dice == GAME_DICE_MANUAL) {
			out->dice[0] = e->dice[0];
			out->dice[1] = e->dice[1];
		}
		return 1;
	case EVENT_DISCARDED:
		command_init(out, COMMAND_DISCARD);
		memcpy(out->resources, e->resources, RESOURCE_COUNT);
		return 1;
	case EVENT_ROBBER_MOVED:
		command_init(out, COMMAND_MOVE_ROBBER);
		out->hex = e->hex;
		out->victim = next && next->type == EVENT_RESOURCE_STOLEN && next->seat == e->seat ? next->other : -1;
		return 1;
	case EVENT_DEVELOPMENT_CARD_BOUGHT:
		command_init(out, COMMAND_BUY_DEVELOPMENT_CARD);
		return 1;
	case EVENT_KNIGHT_PLAYED: {
		command_init(out, COMMAND_PLAY_KNIGHT);
		if (next && next->type == EVENT_ROBBER_MOVED) {
			out->hex = next->hex;
			const struct event *theft = i + 2 < count ? &events[i + 2] : NULL;
			out->victim = theft && theft->type == EVENT_RESOURCE_STOLEN && theft->seat == e->seat
					      ? theft->other
					      : -1;
		}
		return 1;
	}
	case EVENT_ROAD_BUILDING_PLAYED:
		command_init(out, COMMAND_PLAY_ROAD_BUILDING);
		for (int k = i + 1; k < count && out->edge_count < 2; k++) {
			/* Longest Road may change between the two roads. */
			if (events[k].type == EVENT_LONGEST_ROAD_CHANGED)
				continue;
			if (events[k].type != EVENT_ROAD_BUILT || events[k].seat != e->seat || !events[k].free)
				break;
			out->edges[out->edge_count++] = events[k].edge;
		}
		return 1;
	case EVENT_YEAR_OF_PLENTY_PLAYED:
		command_init(out, COMMAND_PLAY_YEAR_OF_PLENTY);
		memcpy(out->resources, e->resources, RESOURCE_COUNT);
		return 1;
	case EVENT_MONOPOLY_PLAYED:
		command_init(out, COMMAND_PLAY_MONOPOLY);
		out->resource = e->resource;
		return 1;
	case EVENT_MARITIME_TRADED:
		command_init(out, COMMAND_MARITIME_TRADE);
		memcpy(out->give, e->give, RESOURCE_COUNT);
		memcpy(out->want, e->want, RESOURCE_COUNT);
		return 1;
	case EVENT_TRADE_OFFERED:
		command_init(out, COMMAND_OFFER_TRADE);
		out->to = e->to;
		out->trade = e->counter_to;
		memcpy(out->give, e->give, RESOURCE_COUNT);
		memcpy(out->want, e->want, RESOURCE_COUNT);
		return 1;
	case EVENT_TRADE_ACCEPTED:
		command_init(out, COMMAND_ACCEPT_TRADE);
		out->trade = e->trade;
		return 1;
	case EVENT_TRADE_DECLINED:
		command_init(out, COMMAND_DECLINE_TRADE);
		out->trade = e->trade;
		return 1;
	case EVENT_TRADE_WITHDRAWN:
		command_init(out, COMMAND_WITHDRAW_TRADE);
		out->trade = e->trade;
		return 1;
	case EVENT_TRADE_COMPLETED:
		command_init(out, COMMAND_CONFIRM_TRADE);
		out->trade = e->trade;
		out->with = e->other;
		return 1;
	case EVENT_TURN_ENDED:
		command_init(out, COMMAND_END_TURN);
		return 1;
	default:
		return 0;
	}
}

/* 1 when the command's outcome depends on chance (seedless: its draws are not checked). */
static int decided_by_chance(const struct game *state, const struct command *command)
{
	switch (command->type) {
	case COMMAND_ROLL:
		return state->options.dice != GAME_DICE_MANUAL;
	case COMMAND_BUY_DEVELOPMENT_CARD:
		return 1;
	case COMMAND_MOVE_ROBBER:
	case COMMAND_PLAY_KNIGHT:
		return command->victim >= 0;
	default:
		return 0;
	}
}

/* Events that only ever follow the event that begins a group. */
static int is_consequence(const struct event *event, const struct event *first)
{
	switch (event->type) {
	case EVENT_RESOURCES_PRODUCED:
	case EVENT_RESOURCE_STOLEN:
	case EVENT_LONGEST_ROAD_CHANGED:
	case EVENT_LARGEST_ARMY_CHANGED:
	case EVENT_GAME_WON:
		return 1;
	case EVENT_ROBBER_MOVED:
		return first->type == EVENT_KNIGHT_PLAYED;
	default:
		return 0;
	}
}

int import_verify(const struct event *events, int count, int has_seed, uint64_t seed, struct import_group *groups,
		  int *group_count, struct game *final, struct import_refusal *refusal)
{
	struct fairness legacy;
	memset(&legacy, 0, sizeof legacy);
	legacy.scheme = EVENT_FAIRNESS_NONE;
	legacy.legacy_seed = (int64_t)seed;
	legacy.seeds_from = FAIRNESS_NO_SEEDS;
	return import_verify_fair(events, count, has_seed ? &legacy : NULL, groups, group_count, final, refusal);
}

/* 1 when the log's first event names the scheme of `fairness` and, for a provably fair
 * one, commits to its server seed. */
static int commits_to(const struct event *created, const struct fairness *fairness)
{
	if (created->setup.fairness != fairness->scheme)
		return 0;
	if (fairness->scheme == EVENT_FAIRNESS_NONE)
		return 1;
	uint8_t commitment[EVENT_COMMITMENT_SIZE];
	fairness_commitment(fairness->server_seed, commitment);
	return memcmp(commitment, created->setup.commitment, sizeof commitment) == 0;
}

int import_verify_fair(const struct event *events, int count, const struct fairness *fairness,
		       struct import_group *groups, int *group_count, struct game *final,
		       struct import_refusal *refusal)
{
	*group_count = 0;
	if (count < 1 || events[0].type != EVENT_GAME_CREATED)
		return refuse(refusal, 0, "a log begins with game_created%s", NULL);
	int has_seed = fairness != NULL;
	if (has_seed && !commits_to(&events[0], fairness))
		return refuse(refusal, 0,
			      fairness->scheme == EVENT_FAIRNESS_NONE
				      ? "the game committed to a server seed: its seed is not a number%s"
				      : "not the server seed the game committed to (its SHA-256 is not the "
					"game_created event's commitment)%s",
			      NULL);
	struct game *state = xcalloc(2, sizeof *state);
	struct event_list *produced = xmalloc(sizeof *produced);
	struct game *after = &state[1];
	int ok = 1;
	int i;
	if (has_seed) {
		enum error error =
			rules_start(&events[0].setup.options, fairness_seed_at(fairness, 0), produced, state);
		if (error != ERROR_OK) {
			ok = refuse(refusal, 0, "the options are refused: %s", error_message(error));
			goto done;
		}
		fairness_stamp(fairness, &produced->events[0].setup);
		for (i = 0; i < produced->count; i++)
			if (i >= count ||
			    !same_event(&produced->events[i], &events[i], events[0].setup.options.seats)) {
				ok = refuse(
					refusal, i < count ? i : count - 1,
					"not the game the options and the seed create (the board, the first player or "
					"the opening)%s",
					NULL);
				goto done;
			}
	} else {
		memset(state, 0, sizeof *state);
		if (!apply_event_valid(state, &events[0])) {
			ok = refuse(refusal, 0, "the game_created event is not valid%s", NULL);
			goto done;
		}
		apply_event(state, &events[0]);
		i = 1;
	}
	groups[(*group_count)++] = (struct import_group){0, i, -1};
	int seats = state->options.seats;
	struct rng rng;
	while (i < count) {
		struct command command;
		int seat;
		if (event_outside_rules(events[i].type)) {
			/* Holidays, resignations, substitutes and quiet hours: no move of the rules, a
			 * group of its own that only has to apply. */
			if (!apply_event_valid(state, &events[i])) {
				ok = refuse(refusal, i, "this event cannot happen here%s", NULL);
				goto done;
			}
			apply_event(state, &events[i]);
			groups[(*group_count)++] = (struct import_group){i, 1, events[i].seat};
			i++;
			continue;
		}
		if (!command_of(events, count, i, state, &command, &seat)) {
			ok = refuse(refusal, i, "this event does not begin a move here%s", NULL);
			goto done;
		}
		if (seat < 0 || seat >= seats) {
			ok = refuse(refusal, i, "no such seat%s", NULL);
			goto done;
		}
		enum error error;
		int chance = !has_seed && decided_by_chance(state, &command);
		if (has_seed) {
			error = rules_decide_seeded(state, fairness_seed_at(fairness, state->version), seat, &command,
						    produced, after);
		} else {
			rng_init(&rng, IMPORT_SEEDLESS_SEED, (uint64_t)state->version);
			error = rules_decide(state, seat, &command, &rng, produced, after);
		}
		if (error != ERROR_OK) {
			ok = refuse(refusal, i, "the rules refuse this move: %s", error_message(error));
			goto done;
		}
		int length;
		if (chance) {
			/* The command is legal; its draws cannot be checked: each event must apply. */
			length = 1;
			while (i + length < count && is_consequence(&events[i + length], &events[i]))
				length++;
			if (length > EVENT_LIST_MAX) {
				ok = refuse(refusal, i + EVENT_LIST_MAX, "too many events for one move%s", NULL);
				goto done;
			}
			for (int k = 0; k < length; k++) {
				if (!apply_event_valid(state, &events[i + k])) {
					ok = refuse(refusal, i + k, "this event cannot happen here%s", NULL);
					goto done;
				}
				apply_event(state, &events[i + k]);
			}
		} else {
			length = produced->count;
			for (int k = 0; k < length; k++)
				if (i + k >= count || !same_event(&produced->events[k], &events[i + k], seats)) {
					ok = refuse(refusal, i + k < count ? i + k : count - 1,
						    has_seed ? "not what the rules and the seed make of this move (the "
							       "dice, a card, a theft or a consequence differ)%s"
							     : "not what the rules make of this move%s",
						    NULL);
					goto done;
				}
			*state = *after;
		}
		groups[(*group_count)++] = (struct import_group){i, length, seat};
		i += length;
	}
	*final = *state;
done:
	free(state);
	free(produced);
	return ok;
}
