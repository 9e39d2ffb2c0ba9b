/*
 * playout.c - uniformly random legal moves.
 *
 * "Whoever must act": the seats legal_waiting_for() names (the active player, or every
 * seat owing a discard). With trades enabled, seats an open offer is addressed to may also
 * answer it during the main phase, so offers can be accepted and confirmed; inactive seats
 * never start unsolicited counter-offers here, which would let a random game chatter
 * forever. The move is uniform over the union of these seats' legal moves.
 */
#include "playout.h"

#include <string.h>

#include "legal.h"
#include "rules.h"

static int random_card(const uint8_t hand[RESOURCE_COUNT], struct rng *rng)
{
	int pick = (int)rng_below(rng, (uint32_t)resource_total(hand));
	int resource = 0;
	while (pick >= hand[resource])
		pick -= hand[resource++];
	return resource;
}

void playout_fill_template(const struct game *game, int seat, struct command *command, struct rng *rng)
{
	if (!command->is_template)
		return;
	const uint8_t *hand = game->players[seat].resources;
	if (command->type == COMMAND_DISCARD) {
		uint8_t left[RESOURCE_COUNT];
		for (int r = 0; r < RESOURCE_COUNT; r++)
			left[r] = hand[r];
		for (int i = 0; i < command->count; i++) {
			int r = random_card(left, rng);
			left[r]--;
			command->resources[r]++;
		}
	} else if (command->type == COMMAND_OFFER_TRADE) {
		int give = random_card(hand, rng);
		int want = (give + 1 + (int)rng_below(rng, RESOURCE_COUNT - 1)) % RESOURCE_COUNT;
		command->give[give] = 1;
		command->want[want] = 1;
	} else if (command->type == COMMAND_ROLL) {
		command->dice[0] = (uint8_t)rng_die(rng);
		command->dice[1] = (uint8_t)rng_die(rng);
	}
	command->is_template = 0;
}

static int answers_only(struct command *moves, int count)
{
	int kept = 0;
	for (int i = 0; i < count; i++)
		if (moves[i].type == COMMAND_ACCEPT_TRADE || moves[i].type == COMMAND_DECLINE_TRADE)
			moves[kept++] = moves[i];
	return kept;
}

int playout_choose(const struct game *game, const struct playout_options *options, struct rng *rng,
		   struct command *scratch, int *seat, struct command *command)
{
	uint8_t movers = legal_waiting_for(game);
	if (!movers)
		return 0;
	int trades = options && options->trades;
	if (!trades && !(movers & (movers - 1))) {
		/* One seat moves and no list is filtered: the loop below, for that seat alone, and
		 * the list counted rather than written: only the move drawn is built. */
		int s = __builtin_ctz(movers);
		struct legal_tally tally;
		int count = legal_tally_except_offers(game, s, &tally);
		if (count > LEGAL_MOVES_MAX)
			count = LEGAL_MOVES_MAX;
		if (count == 0)
			return 0;
		*seat = s;
		legal_tally_move(game, s, &tally, (int)rng_below(rng, (uint32_t)count), command);
		playout_fill_template(game, s, command, rng);
		return 1;
	}
	int total = 0;
	int owner_end[GAME_MAX_SEATS];
	for (int s = 0; s < game->options.seats; s++) {
		int count = 0;
		int waiting = movers >> s & 1u;
		if (waiting || (trades && game->phase == GAME_PHASE_MAIN)) {
			count = trades ? legal_moves(game, s, scratch + total, LEGAL_MOVES_MAX - total)
				       : legal_moves_except_offers(game, s, scratch + total, LEGAL_MOVES_MAX - total);
			if (count > LEGAL_MOVES_MAX - total)
				count = LEGAL_MOVES_MAX - total;
			if (!waiting)
				count = answers_only(scratch + total, count);
		}
		total += count;
		owner_end[s] = total;
	}
	if (total == 0)
		return 0;
	int pick = (int)rng_below(rng, (uint32_t)total);
	int s = 0;
	while (pick >= owner_end[s])
		s++;
	*seat = s;
	*command = scratch[pick];
	playout_fill_template(game, s, command, rng);
	return 1;
}

enum error playout_start(struct playout_game *playout, const struct game_options *options,
			 const struct playout_options *choices, uint64_t seed, uint64_t chooser_stream,
			 struct event_list *created)
{
	memset(playout, 0, sizeof *playout);
	playout->seed = seed;
	playout->options = *choices;
	rng_init(&playout->chooser, seed, chooser_stream);
	return rules_start(options, seed, created, &playout->state);
}

void playout_resume(struct playout_game *playout, const struct game *state, const struct playout_options *choices,
		    uint64_t seed, const struct rng *chooser)
{
	memcpy(&playout->state, state, sizeof *state);
	playout->seed = seed;
	playout->options = *choices;
	playout->chooser = *chooser;
}

enum playout_result playout_step(struct playout_game *playout, struct command *scratch, int *seat,
				 struct command *command, struct event_list *events, enum error *refused)
{
	if (!playout_choose(&playout->state, &playout->options, &playout->chooser, scratch, seat, command))
		return PLAYOUT_OVER;
	/* The move is one of the lists': decided without the checks the listing made. */
	*refused = rules_decide_listed_seeded_in_place(&playout->state, playout->seed, *seat, command, events);
	return *refused == ERROR_OK ? PLAYOUT_MOVED : PLAYOUT_REFUSED;
}
