/*
 * lobby.c - waiting games (see lobby.h).
 *
 * Creating one is play_create()'s path up to the append: rules_start() on the options
 * and seed gives the start's events and the state after them; instead of appending them,
 * the store keeps them with the games row, with the status the game will have and the
 * seat it will wait for, so that the SQL that fills the last seat can start the game and
 * set its first timer (a bot's move when that seat is a bot then, a deadline when the
 * game has turn_timeout_s) without calling back into C.
 *
 * Everything else is one store call on this thread's connection (play_thread_store()): the race
 * between joins is settled by the row lock inside the store's statement.
 */
#include "game/lobby.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/options.h"
#include "db/store_events.h"
#include "db/store_lobby.h"
#include "engine/autoplay.h"
#include "engine/rules.h"
#include "game/auth.h"
#include "game/game_repo.h"
#include "game/play_internal.h"

enum error lobby_create(const struct lobby_new_game *new_game, int64_t *id, enum store_status *status)
{
	*status = STORE_OK;
	const struct play_new_game *game = new_game->game;
	struct event_list events;
	struct game after;
	enum error refused = play_start(game, &events, &after);
	if (refused != ERROR_OK)
		return refused;
	int seats = game->options->game.seats;
	struct store_new_game row;
	memset(&row, 0, sizeof row);
	row.seed = game->seed;
	row.has_server_seed = game->fair;
	memcpy(row.server_seed, game->server_seed, STORE_SERVER_SEED_SIZE);
	row.seats = seats;
	memcpy(row.admin_token_hash, game->admin_token_hash, STORE_HASH_SIZE);
	struct store_waiting waiting;
	memset(&waiting, 0, sizeof waiting);
	for (int s = 0; s < seats; s++) {
		row.names[s] = game->names[s];
		row.bots[s] = game->bots[s];
		memcpy(row.token_hashes[s], game->token_hashes[s], STORE_HASH_SIZE);
		row.players[s] = game->players ? game->players[s] : 0;
		waiting.open[s] = new_game->open[s];
	}
	waiting.public_game = new_game->public_game;
	memcpy(waiting.invite_hash, new_game->invite_hash, STORE_HASH_SIZE);
	/* Every seat counted as a bot: the seat the started game waits for, whoever sits there. */
	waiting.start_seat = autoplay_bot_to_move(&after, (uint8_t)((1u << seats) - 1));
	json_t *stored_options = codec_options_to_json(game->options);
	char *options_text = json_dumps(stored_options, JSON_COMPACT);
	json_decref(stored_options);
	if (!options_text)
		abort();
	row.options = options_text;
	struct game_repo repo;
	game_repo_init(&repo, play_thread_store(), GAME_REPO_SNAPSHOT_EVERY);
	*status = game_repo_create_waiting(&repo, &row, &waiting, &events, &after, id);
	free(options_text);
	return ERROR_OK;
}

enum store_status lobby_join(int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE], const char *name,
			     const uint8_t token_hash[STORE_HASH_SIZE], int64_t player, const char *player_seed,
			     struct store_seat_result *out)
{
	enum store_status status =
		store_join(play_thread_store(), game_id, invite_hash, name, token_hash, player, player_seed, out);
	if (status == STORE_OK && out->outcome == STORE_SEAT_DONE && out->version > 0)
		play_started(game_id, out->version);
	return status;
}

enum store_status lobby_change_seat(int64_t game_id, const uint8_t admin_hash[STORE_HASH_SIZE], int seat, int action,
				    const char *name, int bots_only_allowed, struct store_seat_result *out)
{
	enum store_status status =
		store_change_seat(play_thread_store(), game_id, admin_hash, seat, action, name, bots_only_allowed, out);
	if (status == STORE_OK && out->outcome == STORE_SEAT_DONE && out->version > 0)
		play_started(game_id, out->version);
	return status;
}

enum store_status lobby_waiting(int64_t game_id, struct store_waiting_game *out)
{
	return store_waiting_game(play_thread_store(), game_id, out);
}

enum store_status lobby_holidays(int64_t game_id, int64_t used_s[STORE_MAX_SEATS], int64_t *allowance_s, int *seats)
{
	return store_holidays(play_thread_store(), game_id, used_s, allowance_s, seats);
}

enum store_status lobby_list(int64_t after_created_us, int64_t after_id, int limit, struct store_waiting_game *out,
			     int *count)
{
	if (limit < 1 || limit > LOBBY_PAGE_MAX) {
		*count = 0;
		return STORE_INVALID;
	}
	/* The lobby may lag the primary by a moment: a standby may answer it. */
	return play__lobby_standby(after_created_us, after_id, limit, out, count);
}

enum store_status lobby_player_create(const char *name, const uint8_t token_hash[STORE_HASH_SIZE], int64_t *id)
{
	return store_player_create(play_thread_store(), name, token_hash, id);
}

enum store_status lobby_player_by_token(const uint8_t token_hash[STORE_HASH_SIZE], struct store_player *out)
{
	return store_player_by_token(play_thread_store(), token_hash, out);
}

enum store_status lobby_player_get(int64_t id, struct store_player *out)
{
	return store_player_get(play_thread_store(), id, out);
}

enum store_status lobby_player_seats(int64_t player_id, int max, struct store_player_seat *out, int *count)
{
	return store_player_games(play_thread_store(), player_id, max, out, count);
}

enum store_status lobby_player_games(int64_t player_id, int max, struct store_player_game *out, int *count)
{
	return store_player_game_summaries(play_thread_store(), player_id, max, out, count);
}

enum store_status lobby_player_replace_token(int64_t player, const uint8_t old_hash[STORE_HASH_SIZE],
					     const uint8_t new_hash[STORE_HASH_SIZE])
{
	enum store_status status = store_replace_player_token(play_thread_store(), player, old_hash, new_hash);
	/* The player's token may be cached with any of its games: forget them all. */
	if (status == STORE_OK)
		play_forget_tokens(0);
	return status;
}

enum store_status lobby_player_delete(int64_t player, const uint8_t token_hash[STORE_HASH_SIZE])
{
	uint8_t nobody[STORE_HASH_SIZE];
	if (!auth_random(nobody, sizeof nobody))
		return STORE_UNAVAILABLE;
	enum store_status status =
		store_player_delete(play_thread_store(), player, token_hash, nobody, LOBBY_FORMER_PLAYER);
	/* Its token and its name may be cached with any of its games: forget them all. */
	if (status == STORE_OK)
		play_forget_tokens(0);
	return status;
}

enum store_status lobby_seat_players(int64_t game_id, int64_t players[GAME_MAX_SEATS])
{
	memset(players, 0, sizeof(int64_t) * GAME_MAX_SEATS);
	struct store_rating_seat seats[STORE_MAX_SEATS];
	int count = 0;
	enum store_status status = store_rating_seats(play_thread_store(), game_id, seats, &count);
	for (int i = 0; status == STORE_OK && i < count; i++)
		if (seats[i].seat >= 0 && seats[i].seat < GAME_MAX_SEATS)
			players[seats[i].seat] = seats[i].player_id;
	return status;
}

enum store_status lobby_rematch_claim(int64_t game_id, int *claimed, int64_t *rematch_id)
{
	return store_rematch_claim(play_thread_store(), game_id, claimed, rematch_id);
}

enum store_status lobby_rematch_done(int64_t game_id, int64_t rematch_id)
{
	return store_rematch_done(play_thread_store(), game_id, rematch_id);
}
