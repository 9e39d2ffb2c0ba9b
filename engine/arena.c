/*
 * arena.c - the next move of a game among bot and random seats.
 *
 * Offers come first because a bot that offered a trade can only use it once the other
 * seats have answered; every answer sets a bit of the offer, so this cannot loop. A random
 * seat answering an offer picks uniformly between accepting (when listed) and declining
 * that offer.
 */
#include "arena.h"

#include "bot.h"
#include "legal.h"
#include "playout.h"
#include "view.h"

int arena_answering_seat(const struct game *game, int *trade)
{
	if (game->phase != GAME_PHASE_MAIN)
		return -1;
	for (int i = 0; i < GAME_MAX_OFFERS; i++) {
		const struct game_offer *offer = &game->offers[i];
		if (offer->id == 0)
			continue;
		for (int s = 0; s < game->options.seats; s++) {
			if (s == offer->from || s == game->turn_seat || !(offer->to >> s & 1u) ||
			    ((offer->accepted | offer->declined) >> s & 1u))
				continue;
			*trade = offer->id;
			return s;
		}
	}
	return -1;
}

int arena_mover(const struct game *game, int *trade)
{
	*trade = 0;
	int seat = arena_answering_seat(game, trade);
	if (seat >= 0)
		return seat;
	uint8_t waiting = legal_waiting_for(game);
	return waiting ? __builtin_ctz(waiting) : -1;
}

int arena_choose(const struct game *game, uint8_t bots, struct rng *rng, struct command *scratch, int *seat,
		 struct command *command)
{
	int trade;
	int mover = arena_mover(game, &trade);
	if (mover < 0)
		return 0;
	int count = legal_moves(game, mover, scratch, LEGAL_MOVES_MAX);
	if (count > LEGAL_MOVES_MAX)
		count = LEGAL_MOVES_MAX;
	if (bots >> mover & 1u) {
		struct game_view view;
		view_game(game, mover, &view);
		if (!bot_choose(&view, scratch, count, rng, command))
			return 0;
		*seat = mover;
		return 1;
	}
	if (!arena_random_move(game, mover, trade, scratch, count, rng, command))
		return 0;
	*seat = mover;
	return 1;
}

int arena_random_move(const struct game *game, int mover, int trade, struct command *moves, int count, struct rng *rng,
		      struct command *command)
{
	int kept = 0;
	for (int i = 0; i < count; i++) {
		const struct command *move = &moves[i];
		int answer = move->type == COMMAND_ACCEPT_TRADE || move->type == COMMAND_DECLINE_TRADE;
		if (trade ? answer && move->trade == trade : move->type != COMMAND_OFFER_TRADE)
			moves[kept++] = *move;
	}
	if (kept == 0)
		return 0;
	*command = moves[rng_below(rng, (uint32_t)kept)];
	playout_fill_template(game, mover, command, rng);
	return 1;
}
