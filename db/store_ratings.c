/*
 * store_ratings.c - rated games' results, public profiles, resigning, deleting a player and
 * rematches (db/store_ratings.h, db/migrations/0025_ratings.sql).
 *
 * Every write is one statement calling one SQL function, so what it checks and what it
 * writes are one transaction: catan_rating_apply() locks the pending row and the players'
 * rows before it compares and writes, so a result computed from ratings that changed since
 * is refused (STORE_RATING_STALE), never written over them. Ratings travel as text with 17
 * significant digits (a double read back exactly) and come back in binary.
 */
#include "db/store_ratings.h"

#include <string.h>

#include "db/store_internal.h"

#define RATINGS_STATEMENTS(X)                                                                                    \
	X(rating_next, 0, "SELECT game_id FROM rating_results_pending ORDER BY ended_at, game_id LIMIT 1")       \
	X(rating_seats, 1,                                                                                       \
	  "SELECT s.seat, p.id, p.rating, p.rated_games FROM seats s JOIN players p ON p.id = s.player_id"       \
	  " WHERE s.game_id = $1::bigint ORDER BY s.seat")                                                       \
	X(rating_apply, 6,                                                                                       \
	  "SELECT catan_rating_apply($1::bigint, $2::bigint[], $3::smallint[], $4::double precision[],"          \
	  " $5::double precision[], $6::boolean[])")                                                             \
	X(player_profile, 1,                                                                                     \
	  "SELECT p.id, p.name, p.rating, p.rated_games, p.rated_wins, p.deleted_at IS NOT NULL, r.made,"        \
	  " r.timed_out FROM players p, catan_player_reliability(p.id) r WHERE p.id = $1::bigint")               \
	X(player_delete, 4, "SELECT catan_delete_player($1::bigint, $2::bytea, $3::bytea, $4::text)")            \
	X(player_game_ids, 2,                                                                                    \
	  "SELECT game_id FROM seats WHERE player_id = $1::bigint ORDER BY game_id LIMIT $2::integer")           \
	X(seat_resign, 7,                                                                                        \
	  "SELECT outcome, version FROM catan_seat_resign($1::bigint, $2::integer, $3::integer, $4::smallint,"   \
	  " $5::text, $6::smallint, $7::bigint)")                                                                \
	/* The rematch: claimed (0: being made) by the request that makes it, then its id. */                    \
	X(rematch_claim, 1,                                                                                      \
	  "WITH c AS (UPDATE games SET rematch_id = 0 WHERE id = $1::bigint AND rematch_id IS NULL RETURNING 1)" \
	  " SELECT (SELECT count(*) FROM c)::integer, coalesce(rematch_id, 0) FROM games WHERE id = $1::bigint") \
	X(rematch_set, 2, "UPDATE games SET rematch_id = $2::bigint WHERE id = $1::bigint AND rematch_id = 0")   \
	X(rematch_release, 1, "UPDATE games SET rematch_id = NULL WHERE id = $1::bigint AND rematch_id = 0")
STORE_STATEMENTS(ratings, RATINGS_STATEMENTS);

static int get_double(const PGresult *result, int row, int column, double *out)
{
	int64_t bits;
	if (!get_int64(result, row, column, &bits))
		return 0;
	uint64_t raw = (uint64_t)bits;
	memcpy(out, &raw, sizeof *out);
	return 1;
}

enum store_status store_rating_next(struct store *store, int64_t *game_id)
{
	store->message[0] = '\0';
	*game_id = 0;
	struct params params = {0};
	PGresult *result;
	enum store_status status = store__run(store, &statement_rating_next, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0)
		status = STORE_NOT_FOUND;
	else if (!get_int64(result, 0, 0, game_id))
		status = store__corrupt(store, 0, "a pending rating without game");
	PQclear(result);
	return status;
}

enum store_status store_rating_seats(struct store *store, int64_t game_id, struct store_rating_seat *out, int *count)
{
	store->message[0] = '\0';
	*count = 0;
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_rating_seats, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	for (int row = 0; row < PQntuples(result) && row < STORE_MAX_SEATS; row++) {
		struct store_rating_seat *seat = &out[row];
		if (!get_int16(result, row, 0, &seat->seat) || !get_int64(result, row, 1, &seat->player_id) ||
		    !get_double(result, row, 2, &seat->rating) || !get_int32(result, row, 3, &seat->rated_games)) {
			PQclear(result);
			*count = 0;
			return store__corrupt(store, game_id, "a rated seat with malformed columns");
		}
		(*count)++;
	}
	PQclear(result);
	return STORE_OK;
}

enum store_status store_rating_apply(struct store *store, int64_t game_id, const struct store_rating_change *changes,
				     int count, int *outcome)
{
	store->message[0] = '\0';
	*outcome = STORE_RATING_DONE_ALREADY;
	struct buffer players = {0}, seats = {0}, before = {0}, after = {0}, won = {0};
	buffer_string(&players, "{");
	buffer_string(&seats, "{");
	buffer_string(&before, "{");
	buffer_string(&after, "{");
	buffer_string(&won, "{");
	for (int i = 0; i < count; i++) {
		char text[64];
		const char *comma = i ? "," : "";
		snprintf(text, sizeof text, "%s%lld", comma, (long long)changes[i].player_id);
		buffer_string(&players, text);
		snprintf(text, sizeof text, "%s%d", comma, changes[i].seat);
		buffer_string(&seats, text);
		snprintf(text, sizeof text, "%s%.17g", comma, changes[i].before);
		buffer_string(&before, text);
		snprintf(text, sizeof text, "%s%.17g", comma, changes[i].after);
		buffer_string(&after, text);
		snprintf(text, sizeof text, "%s%s", comma, changes[i].won ? "t" : "f");
		buffer_string(&won, text);
	}
	buffer_string(&players, "}");
	buffer_string(&seats, "}");
	buffer_string(&before, "}");
	buffer_string(&after, "}");
	buffer_string(&won, "}");
	struct params params = {0};
	param_int(&params, game_id);
	param_text(&params, players.data);
	param_text(&params, seats.data);
	param_text(&params, before.data);
	param_text(&params, after.data);
	param_text(&params, won.data);
	PGresult *result;
	enum store_status status = store__run(store, &statement_rating_apply, &params, 0, &result);
	free(players.data);
	free(seats.data);
	free(before.data);
	free(after.data);
	free(won.data);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, outcome))
		status = store__corrupt(store, game_id, "a rating answer with malformed columns");
	PQclear(result);
	return status;
}

enum store_status store_player_profile(struct store *store, int64_t id, struct store_player_profile *out)
{
	store->message[0] = '\0';
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_player_profile, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		PQclear(result);
		store__say(store, "no such player");
		return STORE_NOT_FOUND;
	}
	if (!get_int64(result, 0, 0, &out->id) || PQgetisnull(result, 0, 1) ||
	    !get_double(result, 0, 2, &out->rating) || !get_int32(result, 0, 3, &out->rated_games) ||
	    !get_int32(result, 0, 4, &out->rated_wins) || !get_bool(result, 0, 5, &out->deleted) ||
	    !get_int32(result, 0, 6, &out->decisions_made) || !get_int32(result, 0, 7, &out->decisions_timed_out))
		status = store__corrupt(store, 0, "a player profile with malformed columns");
	else
		snprintf(out->name, sizeof out->name, "%s", PQgetvalue(result, 0, 1));
	PQclear(result);
	return status;
}

enum store_status store_player_delete(struct store *store, int64_t id, const uint8_t token_hash[STORE_HASH_SIZE],
				      const uint8_t new_hash[STORE_HASH_SIZE], const char *name)
{
	store->message[0] = '\0';
	struct params params = {0};
	param_int(&params, id);
	param_bytes(&params, token_hash, STORE_HASH_SIZE);
	param_bytes(&params, new_hash, STORE_HASH_SIZE);
	param_text(&params, name);
	PGresult *result;
	enum store_status status = store__run(store, &statement_player_delete, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	int deleted = 0;
	if (PQntuples(result) != 1 || !get_bool(result, 0, 0, &deleted))
		status = store__corrupt(store, 0, "a player deletion with malformed columns");
	else if (!deleted) {
		store__say(store, "the token is not the player's");
		status = STORE_NOT_FOUND;
	}
	PQclear(result);
	return status;
}

enum store_status store_player_game_ids(struct store *store, int64_t id, int max, int64_t *out, int *count)
{
	store->message[0] = '\0';
	*count = 0;
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, max);
	PGresult *result;
	enum store_status status = store__run(store, &statement_player_game_ids, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	for (int row = 0; row < PQntuples(result) && row < max; row++) {
		if (!get_int64(result, row, 0, &out[row])) {
			PQclear(result);
			*count = 0;
			return store__corrupt(store, 0, "a player's game without id");
		}
		(*count)++;
	}
	PQclear(result);
	return STORE_OK;
}

enum store_status store_seat_resign(struct store *store, int64_t game_id, int seat, int32_t version, int event_type,
				    const char *payload, const struct store_timer_set *timer, int *outcome)
{
	store->message[0] = '\0';
	*outcome = STORE_RESIGN_NO_SEAT;
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_int(&params, version);
	param_int(&params, event_type);
	param_text(&params, payload);
	if (timer) {
		param_int(&params, timer->kind);
		param_int(&params, timer->due_ms);
	} else {
		param_null(&params);
		param_null(&params);
	}
	PGresult *result;
	enum store_status status;
	if (store->notifier) {
		status = store__run(store, &statement_seat_resign, &params, 0, &result);
		if (status == STORE_OK)
			store__notifier_post(store->notifier, game_id, version + 1);
	} else {
		status = store__run_and_notify(store, &statement_seat_resign, &params, game_id, version + 1, &result);
	}
	if (status != STORE_OK)
		return status;
	int32_t after;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, outcome) || !get_int32(result, 0, 1, &after))
		status = store__corrupt(store, game_id, "a resignation answer with malformed columns");
	PQclear(result);
	return status;
}

enum store_status store_rematch_claim(struct store *store, int64_t game_id, int *claimed, int64_t *rematch_id)
{
	store->message[0] = '\0';
	*claimed = 0;
	*rematch_id = 0;
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_rematch_claim, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	int32_t count;
	if (PQntuples(result) == 0) {
		store__say(store, "no such game");
		status = STORE_NOT_FOUND;
	} else if (!get_int32(result, 0, 0, &count) || !get_int64(result, 0, 1, rematch_id)) {
		status = store__corrupt(store, game_id, "a rematch claim with malformed columns");
	} else {
		*claimed = count > 0;
	}
	PQclear(result);
	return status;
}

enum store_status store_rematch_done(struct store *store, int64_t game_id, int64_t rematch_id)
{
	store->message[0] = '\0';
	struct params params = {0};
	param_int(&params, game_id);
	if (rematch_id)
		param_int(&params, rematch_id);
	PGresult *result;
	enum store_status status = store__run(store, rematch_id ? &statement_rematch_set : &statement_rematch_release,
					      &params, 0, &result);
	if (status == STORE_OK)
		PQclear(result);
	return status;
}
