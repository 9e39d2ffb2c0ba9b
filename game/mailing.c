/*
 * mailing.c - mail registrations on the thread's store connection (see mailing.h): one
 * store call each.
 */
#include "game/mailing.h"

#include <stdlib.h>

#include "db/store_idempotency.h"
#include "engine/legal.h"
#include "game/play_internal.h"

enum store_status mailing_register(int64_t game_id, int seat, const char *address,
				   const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
				   const struct store_mail_budget *budget, int64_t *id, int *retry_after_s)
{
	return store_mail_register(play_thread_store(), game_id, seat, address, secret, expires_s, budget, id,
				   retry_after_s);
}

enum store_status mailing_register_player(int64_t player_id, const char *address,
					  const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
					  const struct store_mail_budget *budget, int64_t *id, int *retry_after_s)
{
	return store_mail_register_player(play_thread_store(), player_id, address, secret, expires_s, budget, id,
					  retry_after_s);
}

enum store_status mailing_get(int64_t id, int64_t game_id, int seat, struct store_mail *out)
{
	return store_mail_get(play_thread_store(), id, game_id, seat, out);
}

enum store_status mailing_get_player(int64_t player_id, struct store_mail *out)
{
	return store_mail_get_player(play_thread_store(), player_id, out);
}

enum store_status mailing_confirm(int64_t id, int *confirmed)
{
	return store_mail_confirm(play_thread_store(), id, confirmed);
}

enum store_status mailing_delete(int64_t id, int64_t game_id, int seat, int *removed)
{
	return store_mail_delete(play_thread_store(), id, game_id, seat, removed);
}

enum store_status mailing_delete_player(int64_t player_id, int *removed)
{
	return store_mail_delete_player(play_thread_store(), player_id, removed);
}

enum store_status mailing_game_state(int64_t id, int64_t game_id, int seat, int64_t *since_last_ms, int64_t *last_turn,
				     int *seat_has_own)
{
	return store_mail_game_state(play_thread_store(), id, game_id, seat, since_last_ms, last_turn, seat_has_own);
}

int64_t mailing_turn_key(const struct game *game, int seat)
{
	if (game->phase == GAME_PHASE_FINISHED)
		return MAILING_TURN_FINISHED;
	if (!game_in_progress(game) || !(legal_waiting_for(game) >> seat & 1u))
		return -1;
	return (int64_t)game->turn_number << 16 | (int64_t)game->setup_step << 8 | legal_waiting_for(game);
}

enum store_status mailing_sent(int64_t id, int64_t turn_key, int32_t version, int counts_for_interval)
{
	return store_mail_sent(play_thread_store(), id, turn_key, version, counts_for_interval);
}

enum store_status mailing_game_sent(int64_t id, int64_t game_id, int64_t turn_key, int32_t version,
				    int counts_for_interval)
{
	return store_mail_game_sent(play_thread_store(), id, game_id, turn_key, version, counts_for_interval);
}

/* A reply to a mail is answered once: its Message-ID's mark is an idempotency record of the
 * game (0001_event_store.sql), kept like a move's, under a key no HTTP request can have
 * (theirs are scoped by their token, game/auth.h). */
enum store_status mailing_reply_seen(int64_t game_id, const char *key, int *seen)
{
	uint8_t hash[STORE_HASH_SIZE] = {0};
	struct store_idempotency_record record = {0};
	enum store_status status = store_idempotency_get(play_thread_store(), game_id, key, hash, &record);
	free(record.response);
	*seen = status == STORE_OK || status == STORE_IDEMPOTENCY_CONFLICT;
	return status == STORE_NOT_FOUND || *seen ? STORE_OK : status;
}

enum store_status mailing_reply_answered(int64_t game_id, const char *key)
{
	struct store_idempotency record = {key, {0}, 200, "{\"answered\":true}"};
	enum store_status status = store_idempotency_put(play_thread_store(), game_id, &record);
	return status == STORE_IDEMPOTENCY_CONFLICT ? STORE_OK : status;
}
