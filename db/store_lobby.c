/*
 * store_lobby.c - games that wait for players (db/migrations/0003_players.sql): joining,
 * the admin's seat changes before the start, a waiting game's row, the public lobby.
 *
 * Every write here is one statement calling one SQL function that locks the game's row
 * first (SELECT ... FOR UPDATE), so two joins, or a join and a seat change, of the same
 * game run one after the other; whichever fills the last seat appends the start events in
 * its own transaction. The C side never reads a seat and writes it later.
 *
 * Players (an identity across games) are here too: their rows are read and written by the
 * same few statements, and a join binds the seat it takes to the joining player.
 *
 * A join or a change that started the game wakes the game's listeners (there are none
 * before the start, since the game routes refuse a waiting game; the wake-up is for
 * symmetry with every other append, and the notify is a hint anyway).
 */
#include "db/store_lobby.h"

#include "db/store_internal.h"

#define LOBBY_STATEMENTS(X)                                                                                          \
	/* A join or seat change that started the game (version > 0) enqueues its first events                       \
	 * for the seated players' webhooks (0006_player_webhooks.sql), in its transaction. */                       \
	X(join, 6,                                                                                                   \
	  "SELECT j.outcome, j.seat, j.version,"                                                                     \
	  "  CASE WHEN j.version > 0 THEN catan_enqueue_deliveries($1::bigint, 1, j.version) END"                    \
	  " FROM catan_join_unexpired($1::bigint, $2::bytea, $3::text, $4::bytea, $5::bigint, $6::text) j")          \
	X(change_seat, 6,                                                                                            \
	  "SELECT c.outcome, c.seat, c.version,"                                                                     \
	  "  CASE WHEN c.version > 0 THEN catan_enqueue_deliveries($1::bigint, 1, c.version) END"                    \
	  " FROM catan_change_seat_unexpired($1::bigint, $2::bytea, $3::integer, $4::integer, $5::text,"             \
	  "  $6::boolean) c")                                                                                        \
	/* A waiting game, or one that expired waiting (0024_correspondence.sql). */                                 \
	X(waiting_game, 1,                                                                                           \
	  "SELECT g.id, g.created_at, g.status, g.public, g.seats, g.options::text, s.seat, s.bot, s.name, s.open,"  \
	  "  g.expired_at, sha256(g.server_seed)"                                                                    \
	  " FROM games g JOIN seats s ON s.game_id = g.id"                                                           \
	  " WHERE g.id = $1::bigint AND g.status IN (3, 4) ORDER BY s.seat")                                         \
	X(lobby, 3,                                                                                                  \
	  "WITH page AS (SELECT id, created_at FROM games WHERE status = 3 AND public"                               \
	  "  AND ($2::bigint = 0 OR (created_at, id) <"                                                              \
	  " (timestamptz 'epoch' + $1::bigint * interval '1 microsecond', $2::bigint))"                              \
	  "  ORDER BY created_at DESC, id DESC LIMIT $3::integer)"                                                   \
	  " SELECT g.id, g.created_at, g.status, g.public, g.seats, g.options::text, s.seat, s.bot, s.name, s.open," \
	  "  g.expired_at, sha256(g.server_seed)"                                                                    \
	  " FROM page p JOIN games g ON g.id = p.id JOIN seats s ON s.game_id = g.id"                                \
	  " ORDER BY p.created_at DESC, p.id DESC, s.seat")                                                          \
	/* The same within a rating band (issue 28): a game's rating is the mean of its seated                       \
	 * players' (db/migrations/0025_ratings.sql); a game without one is not in any band. */                      \
	/* Public games in play with a seat that needs a substitute (0029_substitutes.sql):                          \
	 * read_game()'s columns, `open` the seats that need one. */                                                 \
	X(lobby_substitutes, 3,                                                                                      \
	  "WITH page AS (SELECT g.id, g.created_at FROM games g WHERE g.status IN (0, 1) AND g.public"               \
	  "  AND EXISTS (SELECT FROM seats n WHERE n.game_id = g.id AND n.needs_substitute)"                         \
	  "  AND ($2::bigint = 0 OR (g.created_at, g.id) <"                                                          \
	  " (timestamptz 'epoch' + $1::bigint * interval '1 microsecond', $2::bigint))"                              \
	  "  ORDER BY g.created_at DESC, g.id DESC LIMIT $3::integer)"                                               \
	  " SELECT g.id, g.created_at, g.status, g.public, g.seats, g.options::text, s.seat, s.bot, s.name,"         \
	  "  s.needs_substitute, g.expired_at"                                                                       \
	  " FROM page p JOIN games g ON g.id = p.id JOIN seats s ON s.game_id = g.id"                                \
	  " ORDER BY p.created_at DESC, p.id DESC, s.seat")                                                          \
	X(lobby_band, 5,                                                                                             \
	  "WITH page AS (SELECT g.id, g.created_at FROM games g WHERE g.status = 3 AND g.public"                     \
	  "  AND ($2::bigint = 0 OR (g.created_at, g.id) <"                                                          \
	  " (timestamptz 'epoch' + $1::bigint * interval '1 microsecond', $2::bigint))"                              \
	  "  AND (SELECT avg(p.rating) FROM seats s JOIN players p ON p.id = s.player_id"                            \
	  "   WHERE s.game_id = g.id) BETWEEN $4::double precision AND $5::double precision"                         \
	  "  ORDER BY g.created_at DESC, g.id DESC LIMIT $3::integer)"                                               \
	  " SELECT g.id, g.created_at, g.status, g.public, g.seats, g.options::text, s.seat, s.bot, s.name, s.open," \
	  "  g.expired_at, sha256(g.server_seed)"                                                                    \
	  " FROM page p JOIN games g ON g.id = p.id JOIN seats s ON s.game_id = g.id"                                \
	  " ORDER BY p.created_at DESC, p.id DESC, s.seat")                                                          \
	/* Each seat's holiday time of the last 365 days and what is left of its allowance. */                       \
	X(holidays, 1,                                                                                               \
	  "SELECT s.seat, catan_holiday_used_s(g.id, s.seat),"                                                       \
	  "  coalesce((g.options->>'holiday_allowance_s')::bigint, 864000)"                                          \
	  " FROM games g JOIN seats s ON s.game_id = g.id WHERE g.id = $1::bigint ORDER BY s.seat")                  \
	X(expire_waiting, 2, "SELECT id FROM catan_expire_waiting($1::bigint, $2::integer) AS e(id)")                \
	X(player_create, 3, "INSERT INTO players (id, name, token_hash) VALUES ($1::bigint, $2::text, $3::bytea)")   \
	X(player_by_token, 1, "SELECT id, name FROM players WHERE token_hash = $1::bytea")                           \
	X(player_get, 1, "SELECT id, name FROM players WHERE id = $1::bigint")                                       \
	/* A token that leaked, replaced (0015_token_rotation.sql). */                                               \
	X(replace_seat_token, 3, "SELECT catan_replace_seat_token($1::bigint, $2::integer, $3::bytea)")              \
	X(replace_player_token, 3, "SELECT catan_replace_player_token($1::bigint, $2::bytea, $3::bytea)")            \
	X(player_games, 2,                                                                                           \
	  "SELECT s.game_id, s.seat, g.status FROM seats s JOIN games g ON g.id = s.game_id"                         \
	  " WHERE s.player_id = $1::bigint ORDER BY s.game_id LIMIT $2::integer")                                    \
	/* The same with what "my games" sorts by, in one statement: the last event's time (one                      \
	 * index probe per game) and the current deadline: the deadline timer set by the last                        \
	 * append (kind 1 at the game's last version, catan_set_timer() of 0002_async.sql)                           \
	 * is due then (with the seats' banks and quiet hours: 0030_seat_clocks.sql); once claimed                   \
	 * (a lease pushed it) it fell turn_timeout_s after that event at the earliest. */                           \
	X(player_game_summaries, 2,                                                                                  \
	  "SELECT s.game_id, s.seat, g.status, g.created_at, e.created_at,"                                          \
	  "  CASE WHEN t.kind = 1 AND t.version = e.seq AND (g.options->>'turn_timeout_s')::integer > 0"             \
	  "   THEN CASE WHEN t.attempts = 0 THEN t.due_at"                                                           \
	  "    ELSE e.created_at + make_interval(secs => (g.options->>'turn_timeout_s')::integer) END END"           \
	  " FROM seats s JOIN games g ON g.id = s.game_id"                                                           \
	  " LEFT JOIN LATERAL (SELECT x.seq, x.created_at FROM events x WHERE x.game_id = s.game_id"                 \
	  "  ORDER BY x.seq DESC LIMIT 1) e ON true"                                                                 \
	  " LEFT JOIN game_timers t ON t.game_id = s.game_id"                                                        \
	  " WHERE s.player_id = $1::bigint ORDER BY s.game_id LIMIT $2::integer")
STORE_STATEMENTS(lobby, LOBBY_STATEMENTS);

static enum store_status seat_result(struct store *store, int64_t game_id, PGresult *result,
				     struct store_seat_result *out)
{
	int32_t outcome, seat, version;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &outcome) || !get_int32(result, 0, 1, &seat) ||
	    !get_int32(result, 0, 2, &version)) {
		PQclear(result);
		return store__corrupt(store, game_id, "a seat change with malformed columns");
	}
	PQclear(result);
	out->outcome = outcome;
	out->seat = seat;
	out->version = version;
	if (version > 0)
		store__wake(store, game_id, version); /* the start is committed whatever the wake-up does */
	return STORE_OK;
}

enum store_status store_join(struct store *store, int64_t game_id, const uint8_t invite_hash[STORE_HASH_SIZE],
			     const char *name, const uint8_t token_hash[STORE_HASH_SIZE], int64_t player,
			     const char *player_seed, struct store_seat_result *out)
{
	store->message[0] = '\0';
	memset(out, 0, sizeof *out);
	if (!name) {
		store__say(store, "store_join: no name");
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_bytes(&params, invite_hash, STORE_HASH_SIZE);
	param_text(&params, name);
	param_bytes(&params, token_hash, STORE_HASH_SIZE);
	char player_text[24];
	snprintf(player_text, sizeof player_text, "%lld", (long long)player);
	param_text(&params, player ? player_text : NULL);
	param_text(&params, player_seed);
	PGresult *result;
	enum store_status status = store__run(store, &statement_join, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	return seat_result(store, game_id, result, out);
}

enum store_status store_change_seat(struct store *store, int64_t game_id, const uint8_t admin_hash[STORE_HASH_SIZE],
				    int seat, int action, const char *name, int bots_only_allowed,
				    struct store_seat_result *out)
{
	store->message[0] = '\0';
	memset(out, 0, sizeof *out);
	if ((action != STORE_SEAT_REMOVE && action != STORE_SEAT_MAKE_BOT) ||
	    (action == STORE_SEAT_MAKE_BOT && !name)) {
		store__say(store, "store_change_seat: action %d", action);
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, game_id);
	param_bytes(&params, admin_hash, STORE_HASH_SIZE);
	param_int(&params, seat);
	param_int(&params, action);
	param_text(&params, name);
	param_text(&params, bots_only_allowed ? "true" : "false");
	PGresult *result;
	enum store_status status = store__run(store, &statement_change_seat, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	return seat_result(store, game_id, result, out);
}

void store_waiting_game_free(struct store_waiting_game *game)
{
	free(game->options);
	for (int seat = 0; seat < STORE_MAX_SEATS; seat++)
		free(game->names[seat]);
	memset(game, 0, sizeof *game);
}

/* Rows first.. of one game (columns id, created_at, status, public, seats, options, seat,
 * bot, name, open, expired_at, commitment) into *out; *next is the first row after them. 0
 * when malformed. */
static int read_game(const PGresult *result, int first, struct store_waiting_game *out, int *next)
{
	memset(out, 0, sizeof *out);
	if (!get_int64(result, first, 0, &out->id) || !get_timestamp(result, first, 1, &out->created_at_us) ||
	    !get_int16(result, first, 2, &out->status) || !get_bool(result, first, 3, &out->public_game) ||
	    !get_int16(result, first, 4, &out->seats) || PQgetisnull(result, first, 5) || out->seats < 1 ||
	    out->seats > STORE_MAX_SEATS || first + out->seats > PQntuples(result))
		return 0;
	if (!PQgetisnull(result, first, 10) && !get_timestamp(result, first, 10, &out->expired_at_us))
		return 0;
	if (!PQgetisnull(result, first, 11)) {
		if (PQgetlength(result, first, 11) != STORE_COMMITMENT_SIZE)
			return 0;
		memcpy(out->commitment, PQgetvalue(result, first, 11), STORE_COMMITMENT_SIZE);
		out->fair = 1;
	}
	out->options = store_strndup(PQgetvalue(result, first, 5), (size_t)PQgetlength(result, first, 5));
	for (int i = 0; i < out->seats; i++) {
		int row = first + i, seat;
		int64_t id;
		if (!get_int64(result, row, 0, &id) || id != out->id || !get_int16(result, row, 6, &seat) ||
		    seat != i || !get_bool(result, row, 7, &out->bots[i]) || !get_bool(result, row, 9, &out->open[i])) {
			store_waiting_game_free(out);
			return 0;
		}
		if (!PQgetisnull(result, row, 8))
			out->names[i] = store_strndup(PQgetvalue(result, row, 8), (size_t)PQgetlength(result, row, 8));
	}
	*next = first + out->seats;
	return 1;
}

enum store_status store_waiting_game(struct store *store, int64_t game_id, struct store_waiting_game *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_waiting_game, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) == 0) {
		PQclear(result);
		store__say(store, "no waiting game");
		return STORE_NOT_FOUND;
	}
	int next;
	int ok = read_game(result, 0, out, &next);
	PQclear(result);
	return ok ? STORE_OK : store__corrupt(store, game_id, "a waiting game that does not match its seats");
}

static enum store_status lobby_page(struct store *store, const struct store_statement *statement, struct params *params,
				    int limit, struct store_waiting_game *out, int *count);

enum store_status store_lobby(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
			      struct store_waiting_game *out, int *count)
{
	return store_lobby_band(store, after_created_us, after_id, limit, NULL, out, count);
}

enum store_status store_lobby_band(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
				   const double *band, struct store_waiting_game *out, int *count)
{
	*count = 0;
	struct params params = {0};
	param_int(&params, after_created_us);
	param_int(&params, after_id);
	param_int(&params, limit);
	char bounds[2][32];
	if (band) {
		snprintf(bounds[0], sizeof bounds[0], "%.17g", band[0]);
		snprintf(bounds[1], sizeof bounds[1], "%.17g", band[1]);
		param_text(&params, bounds[0]);
		param_text(&params, bounds[1]);
	}
	return lobby_page(store, band ? &statement_lobby_band : &statement_lobby, &params, limit, out, count);
}

/* A page of the lobby: the games of `statement`'s rows (read_game()'s columns), at most
 * `limit` into out[]. */
static enum store_status lobby_page(struct store *store, const struct store_statement *statement, struct params *params,
				    int limit, struct store_waiting_game *out, int *count)
{
	*count = 0;
	PGresult *result;
	enum store_status status = store__run(store, statement, params, 1, &result);
	if (status != STORE_OK)
		return status;
	int row = 0;
	while (row < PQntuples(result) && *count < limit) {
		if (!read_game(result, row, &out[*count], &row)) {
			PQclear(result);
			for (int i = 0; i < *count; i++)
				store_waiting_game_free(&out[i]);
			*count = 0;
			return store__corrupt(store, 0, "a lobby row that does not match its seats");
		}
		(*count)++;
	}
	PQclear(result);
	return STORE_OK;
}

enum store_status store_lobby_substitutes(struct store *store, int64_t after_created_us, int64_t after_id, int limit,
					  struct store_waiting_game *out, int *count)
{
	struct params params = {0};
	param_int(&params, after_created_us);
	param_int(&params, after_id);
	param_int(&params, limit);
	return lobby_page(store, &statement_lobby_substitutes, &params, limit, out, count);
}

enum store_status store_holidays(struct store *store, int64_t game_id, int64_t used_s[STORE_MAX_SEATS],
				 int64_t *allowance_s, int *seats)
{
	*seats = 0;
	*allowance_s = 0;
	struct params params = {0};
	param_int(&params, game_id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_holidays, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int rows = PQntuples(result);
	for (int row = 0; row < rows && row < STORE_MAX_SEATS; row++) {
		int seat;
		if (!get_int16(result, row, 0, &seat) || seat != row || !get_int64(result, row, 1, &used_s[row]) ||
		    !get_int64(result, row, 2, allowance_s)) {
			PQclear(result);
			*seats = 0;
			return store__corrupt(store, game_id, "a holiday row with malformed columns");
		}
		(*seats)++;
	}
	PQclear(result);
	if (*seats == 0) {
		store__say(store, "no such game");
		return STORE_NOT_FOUND;
	}
	return STORE_OK;
}

enum store_status store_expire_waiting_games(struct store *store, int64_t age_s, int max, int64_t *ids, int *count)
{
	*count = 0;
	store->message[0] = '\0';
	if (age_s < 1 || max < 1) {
		store__say(store, "store_expire_waiting_games: age %lld, max %d", (long long)age_s, max);
		return STORE_INVALID;
	}
	struct params params = {0};
	param_int(&params, age_s);
	param_int(&params, max);
	PGresult *result;
	enum store_status status = store__run(store, &statement_expire_waiting, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	for (int row = 0; row < PQntuples(result) && *count < max; row++)
		if (get_int64(result, row, 0, &ids[*count]))
			(*count)++;
	PQclear(result);
	return STORE_OK;
}

/* ---- Players ---- */

enum store_status store_player_create(struct store *store, const char *name, const uint8_t token_hash[STORE_HASH_SIZE],
				      int64_t *id)
{
	store->message[0] = '\0';
	enum store_status status = STORE_CONFLICT;
	for (int attempt = 0; attempt < 8 && status == STORE_CONFLICT; attempt++) {
		if (!store__random_id(id)) {
			store__say(store, "the system random generator failed");
			return STORE_UNAVAILABLE;
		}
		struct params params = {0};
		param_int(&params, *id);
		param_text(&params, name);
		param_bytes(&params, token_hash, STORE_HASH_SIZE);
		PGresult *result;
		/* A taken id (players_pkey) is a conflict: draw another. */
		status = store__run(store, &statement_player_create, &params, 0, &result);
		if (status == STORE_OK)
			PQclear(result);
	}
	return status;
}

static enum store_status player_row(struct store *store, PGresult *result, struct store_player *out)
{
	if (PQntuples(result) == 0) {
		PQclear(result);
		store__say(store, "no such player");
		return STORE_NOT_FOUND;
	}
	if (!get_int64(result, 0, 0, &out->id) || PQgetisnull(result, 0, 1)) {
		PQclear(result);
		return store__corrupt(store, 0, "a players row with malformed columns");
	}
	snprintf(out->name, sizeof out->name, "%.*s", PQgetlength(result, 0, 1), PQgetvalue(result, 0, 1));
	PQclear(result);
	return STORE_OK;
}

enum store_status store_player_by_token(struct store *store, const uint8_t token_hash[STORE_HASH_SIZE],
					struct store_player *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_bytes(&params, token_hash, STORE_HASH_SIZE);
	PGresult *result;
	enum store_status status = store__run(store, &statement_player_by_token, &params, 1, &result);
	return status == STORE_OK ? player_row(store, result, out) : status;
}

enum store_status store_player_get(struct store *store, int64_t id, struct store_player *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_player_get, &params, 1, &result);
	return status == STORE_OK ? player_row(store, result, out) : status;
}

/* The boolean answer of a token replacement: STORE_OK when replaced, STORE_NOT_FOUND when not. */
static enum store_status replaced(struct store *store, const struct store_statement *statement, struct params *params)
{
	PGresult *result;
	enum store_status status = store__run(store, statement, params, 1, &result);
	if (status != STORE_OK)
		return status;
	int done = 0;
	if (PQntuples(result) != 1 || !get_bool(result, 0, 0, &done)) {
		PQclear(result);
		store__say(store, "a token replacement with malformed columns");
		return STORE_CORRUPT;
	}
	PQclear(result);
	if (!done)
		store__say(store, "no token to replace");
	return done ? STORE_OK : STORE_NOT_FOUND;
}

enum store_status store_replace_seat_token(struct store *store, int64_t game_id, int seat,
					   const uint8_t token_hash[STORE_HASH_SIZE])
{
	store->message[0] = '\0';
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_bytes(&params, token_hash, STORE_HASH_SIZE);
	return replaced(store, &statement_replace_seat_token, &params);
}

enum store_status store_replace_player_token(struct store *store, int64_t player,
					     const uint8_t old_hash[STORE_HASH_SIZE],
					     const uint8_t new_hash[STORE_HASH_SIZE])
{
	store->message[0] = '\0';
	struct params params = {0};
	param_int(&params, player);
	param_bytes(&params, old_hash, STORE_HASH_SIZE);
	param_bytes(&params, new_hash, STORE_HASH_SIZE);
	return replaced(store, &statement_replace_player_token, &params);
}

enum store_status store_player_games(struct store *store, int64_t player, int max, struct store_player_seat *out,
				     int *count)
{
	*count = 0;
	struct params params = {0};
	param_int(&params, player);
	param_int(&params, max);
	PGresult *result;
	enum store_status status = store__run(store, &statement_player_games, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	for (int row = 0; row < PQntuples(result) && row < max; row++) {
		struct store_player_seat *seat = &out[row];
		if (!get_int64(result, row, 0, &seat->game_id) || !get_int16(result, row, 1, &seat->seat) ||
		    !get_int16(result, row, 2, &seat->status)) {
			PQclear(result);
			*count = 0;
			return store__corrupt(store, 0, "a player's seat with malformed columns");
		}
		(*count)++;
	}
	PQclear(result);
	return STORE_OK;
}

/* A timestamptz column that may be NULL: 0 then. 0 with nothing set when malformed. */
static int get_optional_time(const PGresult *result, int row, int column, int64_t *out)
{
	*out = 0;
	return PQgetisnull(result, row, column) || get_timestamp(result, row, column, out);
}

enum store_status store_player_game_summaries(struct store *store, int64_t player, int max,
					      struct store_player_game *out, int *count)
{
	*count = 0;
	struct params params = {0};
	param_int(&params, player);
	param_int(&params, max);
	PGresult *result;
	enum store_status status = store__run(store, &statement_player_game_summaries, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	for (int row = 0; row < PQntuples(result) && row < max; row++) {
		struct store_player_game *game = &out[row];
		if (!get_int64(result, row, 0, &game->seat.game_id) || !get_int16(result, row, 1, &game->seat.seat) ||
		    !get_int16(result, row, 2, &game->seat.status) ||
		    !get_timestamp(result, row, 3, &game->created_at_us) ||
		    !get_optional_time(result, row, 4, &game->last_event_at_us) ||
		    !get_optional_time(result, row, 5, &game->deadline_us)) {
			PQclear(result);
			*count = 0;
			return store__corrupt(store, 0, "a player's game with malformed columns");
		}
		(*count)++;
	}
	PQclear(result);
	return STORE_OK;
}
