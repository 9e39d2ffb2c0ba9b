/*
 * substitutes.c - leaving a seat and taking it as a substitute (game/substitutes.h).
 *
 * Both are seat changes of play.c's one path (play__change_seat()): the event is decided on
 * the latest version, the timer computed for the seat as it will be held (the bot's move at
 * once when the game waits for a seat just left; the deadline, or nothing, for one just
 * taken), and the write given here checks the seat under its row lock. After a substitution
 * the game's record is read again and the process cache forgets the game: the seat's name
 * and token changed, and a stale copy must not keep the old token working here (the other
 * servers hear the same from the statement's notification).
 */
#include "game/substitutes.h"

#include <stdio.h>

#include "engine/event.h"
#include "game/play_internal.h"

static enum play_away outcome_of(int outcome)
{
	switch (outcome) {
	case STORE_SUBSTITUTE_DONE:
		return PLAY_AWAY_DONE;
	case STORE_SUBSTITUTE_WRONG_INVITE:
		return PLAY_AWAY_WRONG_INVITE;
	case STORE_SUBSTITUTE_NOT_NEEDED:
		return PLAY_AWAY_NOT_NEEDED;
	case STORE_SUBSTITUTE_ALREADY_SEATED:
		return PLAY_AWAY_ALREADY_SEATED;
	default:
		return PLAY_AWAY_NO_SEAT;
	}
}

static enum play_away write_release(const struct play_seat_change *change, struct game_record *game, int seat,
				    const char *payload, const struct store_timer_set *timer, enum store_status *status)
{
	const int *origin = change->context;
	int outcome;
	*status = store_seat_release(play_thread_store(), game->id, seat, (int32_t)game->state.version, *origin,
				     change->event_type, payload, timer, &outcome);
	if (*status != STORE_OK)
		return PLAY_AWAY_STORE_FAILED;
	/* A release's "wrong invite" is a seat the bot holds already. */
	return outcome == STORE_SUBSTITUTE_WRONG_INVITE ? PLAY_AWAY_BOT_SEAT : outcome_of(outcome);
}

enum play_away substitutes_release(struct game_record *game, int seat, int origin, long *version,
				   enum store_status *status)
{
	*status = STORE_OK;
	*version = (long)game->state.version;
	if (game->options.rated)
		return PLAY_AWAY_RATED;
	struct play_seat_change change = {EVENT_SEAT_RELEASED, 1, 0, write_release, &origin};
	return play__change_seat(game, seat, &change, version, status);
}

static enum play_away write_take(const struct play_seat_change *change, struct game_record *game, int seat,
				 const char *payload, const struct store_timer_set *timer, enum store_status *status)
{
	int outcome;
	*status = store_seat_substitute(play_thread_store(), game->id, seat, (int32_t)game->state.version,
					change->context, change->event_type, payload, timer, &outcome);
	if (*status != STORE_OK)
		return PLAY_AWAY_STORE_FAILED;
	return outcome_of(outcome);
}

enum play_away substitutes_take(struct game_record *game, int seat, const struct store_substitute *who, long *version,
				enum store_status *status)
{
	*status = STORE_OK;
	*version = (long)game->state.version;
	if (game->options.rated)
		return PLAY_AWAY_RATED;
	struct play_seat_change change = {EVENT_SEAT_SUBSTITUTED, 0, 0, write_take, who};
	enum play_away done = play__change_seat(game, seat, &change, version, status);
	if (done == PLAY_AWAY_DONE) {
		play_forget_tokens(game->id);
		snprintf(game->names[seat], PLAY_NAME_SIZE, "%s", who->name);
	}
	return done;
}

enum store_status substitutes_invite(int64_t game_id, int seat, const uint8_t invite_hash[STORE_HASH_SIZE],
				     int *outcome)
{
	return store_substitute_invite(play_thread_store(), game_id, seat, invite_hash, outcome);
}

enum store_status substitutes_seat_of(int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE], int *seat)
{
	return store_substitute_seat_of(play_thread_store(), game_id, invite_hash, seat);
}

enum store_status substitutes_seats(int64_t game_id, unsigned *needed, unsigned *invited)
{
	return store_substitute_seats(play_thread_store(), game_id, needed, invited);
}

enum store_status substitutes_lobby(int64_t after_created_us, int64_t after_id, int limit,
				    struct store_waiting_game *out, int *count)
{
	return store_lobby_substitutes(play_thread_store(), after_created_us, after_id, limit, out, count);
}

void substitutes_after_deadline(struct game_record *game, unsigned timed_out)
{
	int after = game->options.substitute_after_timeouts;
	if (after <= 0 || game->options.rated)
		return;
	for (int seat = 0; seat < game->state.options.seats; seat++) {
		if (!(timed_out >> seat & 1u) || game->bots[seat])
			continue;
		int count;
		if (store_seat_timed_out(play_thread_store(), game->id, seat, &count) != STORE_OK || count < after)
			continue;
		long version;
		enum store_status status;
		substitutes_release(game, seat, STORE_ORIGIN_TIMEOUT, &version, &status);
	}
}
