/*
 * autoplay.c - the server's own moves: bots and expired deadlines.
 *
 * Both only pick among legal_moves() (templates filled by playout_fill_template() or the
 * bot), so every move they make is one rules_decide() accepts.
 */
#include "autoplay.h"

#include "bot.h"
#include "legal.h"
#include "playout.h"
#include "view.h"

/* An open offer addressed to `seat` (not its own) that it has not answered: its id, or 0.
 * With `counters_answer` a counter-offer the seat made to it counts as its answer (a bot's
 * answer may be one); without, only an acceptance or a refusal does (the deadline declines
 * every offer not explicitly answered). */
static int unanswered_offer(const struct game *game, int seat, int counters_answer)
{
	if (game->phase != GAME_PHASE_MAIN || seat == game->turn_seat)
		return 0;
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &game->offers[i];
		if (!offer->id || offer->from == seat || !(offer->to >> seat & 1u))
			continue;
		int answered = counters_answer ? game_offer_answered(game->offers, GAME_MAX_OFFERS, offer, seat)
					       : (int)((offer->accepted | offer->declined) >> seat & 1u);
		if (!answered)
			return offer->id;
	}
	return 0;
}

int autoplay_bot_to_move(const struct game *game, uint8_t bots)
{
	uint8_t waiting = legal_waiting_for(game);
	if (!waiting)
		return -1;
	for (int s = 0; s < game->options.seats; s++)
		if ((bots >> s & 1u) && unanswered_offer(game, s, 1))
			return s;
	for (int s = 0; s < game->options.seats; s++)
		if ((bots >> s & 1u) && (waiting >> s & 1u))
			return s;
	return -1;
}

uint8_t autoplay_offer_awaits(const struct game *game, uint8_t bots, int *offer_id)
{
	int active = game->turn_seat;
	uint8_t people = 0;
	if (offer_id)
		*offer_id = 0;
	if (game->phase != GAME_PHASE_MAIN || !(bots >> active & 1u) || autoplay_bot_to_move(game, bots) != active)
		return 0;
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &game->offers[i];
		if (!offer->id || offer->from != active)
			continue;
		uint8_t waits_for = 0;
		for (int s = 0; s < game->options.seats; s++)
			if (!(bots >> s & 1u) && (offer->to >> s & 1u) &&
			    !game_offer_answered(game->offers, GAME_MAX_OFFERS, offer, s))
				waits_for |= (uint8_t)(1u << s);
		people |= waits_for;
		if (waits_for && offer_id && offer->id > *offer_id)
			*offer_id = offer->id;
	}
	return people;
}

int autoplay_bot_move(const struct game *game, int seat, struct rng *rng, struct command *scratch,
		      struct command *command)
{
	int count = legal_moves(game, seat, scratch, LEGAL_MOVES_MAX);
	if (count <= 0)
		return 0;
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	struct game_view view;
	view_game(game, seat, &view);
	return bot_choose(&view, scratch, count, rng, command);
}

int autoplay_bot_move_at(const struct game *game, int seat, const struct bot_settings *settings, struct rng *rng,
			 struct command *scratch, struct command *command)
{
	int count = legal_moves(game, seat, scratch, LEGAL_MOVES_MAX);
	if (count <= 0)
		return 0;
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	struct game_view view;
	view_game(game, seat, &view);
	struct bot_public facts;
	bot_public_of_game(game, &facts);
	return bot_decide(settings, &view, &facts, scratch, count, rng, command);
}

/* A uniformly random listed move of `type` for `seat`, templates filled. */
static int random_move_of(const struct game *game, int seat, enum command_type type, struct rng *rng,
			  struct command *scratch, struct command *command)
{
	int count = legal_moves(game, seat, scratch, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	int matching = 0;
	for (int i = 0; i < count; i++)
		if (scratch[i].type == type)
			scratch[matching++] = scratch[i];
	if (matching == 0)
		return 0;
	*command = scratch[rng_below(rng, (uint32_t)matching)];
	playout_fill_template(game, seat, command, rng);
	return 1;
}

int autoplay_timeout_move(const struct game *game, struct rng *rng, struct command *scratch, int *seat,
			  struct command *command)
{
	uint8_t waiting = legal_waiting_for(game);
	if (!waiting)
		return 0;
	for (int s = 0; s < game->options.seats; s++) {
		int offer = unanswered_offer(game, s, 0);
		if (offer) {
			*seat = s;
			command_init(command, COMMAND_DECLINE_TRADE);
			command->trade = (uint16_t)offer;
			return 1;
		}
	}
	int active = game->turn_seat;
	switch (game->phase) {
	case GAME_PHASE_SETUP_SETTLEMENT:
		*seat = active;
		return random_move_of(game, active, COMMAND_BUILD_SETTLEMENT, rng, scratch, command);
	case GAME_PHASE_SETUP_ROAD:
		*seat = active;
		return random_move_of(game, active, COMMAND_BUILD_ROAD, rng, scratch, command);
	case GAME_PHASE_DISCARD:
		for (int s = 0; s < game->options.seats; s++) {
			if (waiting >> s & 1u) {
				*seat = s;
				return random_move_of(game, s, COMMAND_DISCARD, rng, scratch, command);
			}
		}
		return 0;
	case GAME_PHASE_MOVE_ROBBER:
		*seat = active;
		return random_move_of(game, active, COMMAND_MOVE_ROBBER, rng, scratch, command);
	case GAME_PHASE_ROLL:
		*seat = active;
		return random_move_of(game, active, COMMAND_ROLL, rng, scratch, command);
	case GAME_PHASE_MAIN:
		*seat = active;
		command_init(command, COMMAND_END_TURN);
		return 1;
	default:
		return 0;
	}
}
