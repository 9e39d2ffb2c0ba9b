/*
 * substitutes.h - a seat whose player left, held by the server's bot until a substitute
 * takes it (issue 28, point 2). Free of HTTP, like game/play.h.
 *
 * A seat needs a substitute once its player left it: released it (the seat's own token or
 * its player's), or let its deadline decide options.substitute_after_timeouts times in a row
 * since its own last move (the deadline worker calls substitutes_after_deadline()). From then on the bot holds
 * it, as a resigned seat, and the log says so with a `seat_released` event (origin player,
 * or timeout). The game's admin or the seat's holder invites a substitute
 * (substitutes_invite(): a fresh code; the lobby lists public games with such a seat); the
 * substitute takes the seat (substitutes_take()) with a new token, so the old one stops at
 * once on every server, the seat's webhooks and mail (the leaver's) go, and the log says so
 * with a `seat_substituted` event. Neither event carries anything but the seat: no token,
 * invite or player id is in the log. A rated game's seats stay their players' (resigning
 * scores a leaver last), so a rated game has no substitutes: release and invitations answer
 * PLAY_AWAY_RATED and its timeouts never release a seat.
 *
 * Every change is one statement that locks the seat's row (db/store_substitutes.h), through
 * play.c's one path for seat changes (game/play_internal.h play__change_seat()): decided again
 * on the new version when a move took it first.
 */
#ifndef CATAN_GAME_SUBSTITUTES_H
#define CATAN_GAME_SUBSTITUTES_H

#include <stdint.h>

#include "db/store_lobby.h"
#include "db/store_substitutes.h"
#include "game/play.h"

/* Seat `seat` of `game` leaves (origin STORE_ORIGIN_PLAYER: released; _TIMEOUT: its deadline
 * decided too often in a row). PLAY_AWAY_BOT_SEAT: a bot's already (created as one, resigned,
 * or released). */
enum play_away substitutes_release(struct game_record *game, int seat, int origin, long *version,
				   enum store_status *status);

/* The substitute of `who` takes seat `seat` of `game`: PLAY_AWAY_DONE with the game's names
 * read again and every cached token of the game forgotten, or PLAY_AWAY_WRONG_INVITE,
 * _NOT_NEEDED, _ALREADY_SEATED, _FINISHED ... */
enum play_away substitutes_take(struct game_record *game, int seat, const struct store_substitute *who, long *version,
				enum store_status *status);

/* A new invite of hash `invite_hash` for seat `seat`'s substitute (the earlier one stops):
 * *outcome a store_substitute_outcome (DONE, NO_SEAT, NOT_NEEDED). */
enum store_status substitutes_invite(int64_t game_id, int seat, const uint8_t invite_hash[STORE_HASH_SIZE],
				     int *outcome);

/* The seat whose substitute invite has this hash (STORE_NOT_FOUND when none). */
enum store_status substitutes_seat_of(int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE], int *seat);

/* The game's seats that need a substitute, and those with an invite out, as masks. */
enum store_status substitutes_seats(int64_t game_id, unsigned *needed, unsigned *invited);

/* A page of the lobby of games needing a substitute (store_lobby_substitutes()). */
enum store_status substitutes_lobby(int64_t after_created_us, int64_t after_id, int limit,
				    struct store_waiting_game *out, int *count);

/* After the deadline worker made the default moves of the seats of `timed_out` (a mask):
 * each is counted (store_seat_timed_out()), and a person's seat whose deadline has now
 * decided options.substitute_after_timeouts times in a row since its last own move leaves
 * (substitutes_release(), origin timeout). Nothing for a rated game or with the option 0. */
void substitutes_after_deadline(struct game_record *game, unsigned timed_out);

#endif
