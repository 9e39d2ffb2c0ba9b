/*
 * autoplay.h - moves the server makes for a seat: a bot seat's move, and the default move
 * when a decision's deadline passes (RULES-neutral choices: they go through rules_decide()
 * like any other command and are logged as ordinary events).
 */
#ifndef CATAN_ENGINE_AUTOPLAY_H
#define CATAN_ENGINE_AUTOPLAY_H

#include <stdint.h>

#include "bot.h"
#include "command.h"
#include "game.h"
#include "rng.h"

/* The bot seat (bit s of `bots`: seat s is a bot) that has something to do now: a decision
 * the game waits for from it, or an open offer addressed to it that it has not answered
 * (accepted, declined or countered: game_offer_answered()). -1 when none. */
int autoplay_bot_to_move(const struct game *game, uint8_t bots);

/* The people a bot's offer waits for: when the active seat is a bot with nothing left for
 * other bots to answer (autoplay_bot_to_move() is the active seat), the seats the server
 * does not play (not in `bots`) that one of its open offers was made to and that have not
 * answered it (game_offer_answered()), as a mask; 0 when there are none. *offer_id (may be
 * NULL) is the newest such offer's id, 0 with none. A server lets the bot wait (a bounded
 * time) while this is non-zero, so that people can answer; bots answer at once. */
uint8_t autoplay_offer_awaits(const struct game *game, uint8_t bots, int *offer_id);

/* The bot's move for `seat` (bot_choose() on the seat's view and legal moves). 0 when the
 * seat has no legal move. `scratch` is room for LEGAL_MOVES_MAX commands. */
int autoplay_bot_move(const struct game *game, int seat, struct rng *rng, struct command *scratch,
		      struct command *command);

/* autoplay_bot_move() at a level and budget: bot_decide() on the seat's view, the public
 * facts of the log (bot_public_of_game()) and its legal moves; the state itself never
 * reaches the bot. */
int autoplay_bot_move_at(const struct game *game, int seat, const struct bot_settings *settings, struct rng *rng,
			 struct command *scratch, struct command *command);

/* The next default move once the deadline of the decisions pending at this state has
 * passed: an unanswered offer is declined (by each seat it was made to), a discard is
 * chosen at random, the robber goes to a random legal hex (robbing a random victim), the
 * dice are rolled, the turn is ended; during initial placement a random legal site is
 * taken. *seat and *command are set and 1 returned; 0 when nothing is pending. */
int autoplay_timeout_move(const struct game *game, struct rng *rng, struct command *scratch, int *seat,
			  struct command *command);

#endif
