/*
 * seat_clocks.h - the correspondence clock of each seat (issue 28): a decision's per-move
 * time (options.turn_timeout_s), then the seat's time bank (options.time_bank_s, topped up
 * by options.time_increment_s at the end of each of its turns), none of it running in the
 * seat's quiet hours (base/quiet.h). The arithmetic over the rows of db/store_clocks.h;
 * game/play.c turns it into the game's deadline timer and the bank a move leaves.
 *
 * A wait begins with the game's last event that is not a change of quiet hours (their
 * quiet_hours_set and quiet_hours_cleared events restart nobody's clock). The game's deadline is the latest of the
 * waiting seats' own (each seat's per-move time and bank, pushed by its quiet hours), so it
 * never comes before any waiting seat's time is spent; a move by a waiting seat charges its
 * bank with the running time past the per-move time.
 */
#ifndef CATAN_GAME_SEAT_CLOCKS_H
#define CATAN_GAME_SEAT_CLOCKS_H

#include <stdint.h>

#include "base/quiet.h"
#include "codec/options.h"
#include "db/store_clocks.h"
#include "engine/game.h"

struct seat_clocks {
	int64_t start_us;			  /* when the current wait began */
	int64_t bank_ms[GAME_MAX_SEATS];	  /* what is left in each bank */
	struct quiet_hours quiet[GAME_MAX_SEATS]; /* zone NULL: none */
	char zone[GAME_MAX_SEATS][STORE_ZONE_NAME_SIZE];
};

/* Whether the game's options give its seats a clock at all (a per-move time). */
int seat_clocks_used(const struct codec_options *options);

/* Clocks with full banks and no quiet hours, the wait beginning at start_us. */
void seat_clocks_fresh(const struct codec_options *options, int64_t start_us, struct seat_clocks *out);

/* The clocks of game `game_id` at `version` (the wait began with that event, or the last
 * one before it that is not a change of quiet hours), from the store. A zone that the server no longer has counts as no
 * quiet hours. */
enum store_status seat_clocks_read(struct store *store, const struct codec_options *options, int64_t game_id,
				   int32_t version, struct seat_clocks *out);

/* When the wait for the seats of `waiting` (a bit per seat) times out: the latest of their
 * deadlines. 0 with no seat waiting. */
int64_t seat_clocks_deadline_us(const struct codec_options *options, const struct seat_clocks *clocks, uint8_t waiting,
				int64_t start_us);

/* The bank `seat` has after a move of its own at now_us, which took the game from `before`
 * to `after`: the running time of the wait past the per-move time is spent when the seat
 * was waited for, and the increment added when the move ended its turn. 1 with *bank_ms
 * when it changed (clocks->bank_ms[seat] updated too), else 0. */
int seat_clocks_spend(const struct codec_options *options, struct seat_clocks *clocks, int seat,
		      const struct game *before, const struct game *after, int64_t now_us, int64_t *bank_ms);

#endif
