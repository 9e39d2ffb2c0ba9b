/*
 * store_mail.c - mail registrations: rows of webhooks with format 'mail' (0007_mail.sql).
 *
 * Registering is one function call in the database (catan_mail_register), so the row that
 * replaces a seat's earlier address and the outbox row of its confirmation mail are written
 * together: a crash leaves either both or neither, and the confirmation mail then goes out
 * through the outbox with the same retries as every delivery. The address column is read
 * here only; every other statement of the store leaves mail rows out or reads no address.
 *
 * A player's registration (0010_player_mail.sql) is the same kind of row with player_id in
 * place of game and seat, written by the same code (register_address()); get and delete
 * find a row by id, by (game, seat) or by player, whichever is given (the others 0 / -1:
 * run_on_registration()). What a seat row keeps on itself about the last mail, a player
 * row keeps per game in mail_games.
 */
#include "db/store_mail.h"

#include <string.h>

#include "db/store_internal.h"

#define MAIL_STATEMENTS(X)                                                                                        \
	/* Within the confirmation-mail budgets (0012_registrations.sql): the new id, or NULL with                \
	 * the seconds until there is room. */                                                                    \
	X(mail_register, 9,                                                                                       \
	  "SELECT id, retry_after_s FROM catan_mail_register_within($1::bigint, $2::bigint, $3::smallint,"        \
	  " $4::bytea, $5::text, $6::integer, $7::integer, $8::integer, $9::integer)")                            \
	X(mail_get, 4,                                                                                            \
	  "SELECT id, coalesce(game_id, 0), coalesce(seat, (-1)::smallint), mail_address, secret,"                \
	  "  disabled_reason IS DISTINCT FROM 'unconfirmed',"                                                     \
	  "  coalesce(mail_confirm_expires < now(), false),"                                                      \
	  "  coalesce((extract(epoch FROM now() - mail_last_sent_at) * 1000)::bigint, -1),"                       \
	  "  coalesce(mail_last_turn, -1), coalesce(player_id, 0)"                                                \
	  " FROM webhooks WHERE format = 'mail'"                                                                  \
	  "  AND (id = $1::bigint OR (game_id = $2::bigint AND seat = $3::smallint) OR player_id = $4::bigint)")  \
	X(mail_confirm, 1,                                                                                        \
	  "UPDATE webhooks SET disabled_at = NULL, disabled_reason = NULL, mail_confirm_expires = NULL"           \
	  " WHERE id = $1::bigint AND format = 'mail' AND disabled_reason = 'unconfirmed'"                        \
	  "  AND mail_confirm_expires > now() RETURNING id")                                                      \
	X(mail_delete, 4,                                                                                         \
	  "DELETE FROM webhooks WHERE format = 'mail'"                                                            \
	  "  AND (id = $1::bigint OR (game_id = $2::bigint AND seat = $3::smallint) OR player_id = $4::bigint)"   \
	  " RETURNING id")                                                                                        \
	/* The newer record wins (0028_mail_turn_version.sql). */                                                 \
	X(mail_sent, 4,                                                                                           \
	  "UPDATE webhooks SET mail_last_turn = $2::bigint, mail_last_version = $4::integer,"                     \
	  "  mail_last_sent_at = CASE WHEN $3::boolean THEN now() ELSE mail_last_sent_at END"                     \
	  " WHERE id = $1::bigint AND format = 'mail' AND coalesce(mail_last_version, -1) <= $4::integer")        \
	/* A player's mail registration (0010_player_mail.sql). */                                                \
	X(mail_register_player, 8,                                                                                \
	  "SELECT id, retry_after_s FROM catan_mail_register_player_within($1::bigint, $2::bigint, $3::bytea,"    \
	  " $4::text, $5::integer, $6::integer, $7::integer, $8::integer)")                                       \
	X(mail_game_state, 3,                                                                                     \
	  "SELECT coalesce((extract(epoch FROM now() - g.last_sent_at) * 1000)::bigint, -1),"                     \
	  "  coalesce(g.last_turn, -1),"                                                                          \
	  "  EXISTS (SELECT FROM webhooks s WHERE s.game_id = $2::bigint AND s.seat = $3::smallint"               \
	  "   AND s.format = 'mail' AND s.disabled_reason IS DISTINCT FROM 'unconfirmed')"                        \
	  " FROM (SELECT) AS one LEFT JOIN mail_games g ON g.webhook_id = $1::bigint AND g.game_id = $2::bigint") \
	/* Not counted for the interval: a first row says "long ago" (the column is NOT NULL). */                 \
	X(mail_game_sent, 5,                                                                                      \
	  "INSERT INTO mail_games (webhook_id, game_id, last_sent_at, last_turn, last_version)"                   \
	  " SELECT $1::bigint, $2::bigint, CASE WHEN $4::boolean THEN now() ELSE to_timestamp(0) END,"            \
	  "  $3::bigint, $5::integer"                                                                             \
	  " WHERE EXISTS (SELECT FROM webhooks WHERE id = $1::bigint)"                                            \
	  " ON CONFLICT (webhook_id, game_id) DO UPDATE SET last_turn = excluded.last_turn,"                      \
	  "  last_version = excluded.last_version,"                                                               \
	  "  last_sent_at = CASE WHEN $4::boolean THEN now() ELSE mail_games.last_sent_at END"                    \
	  "  WHERE coalesce(mail_games.last_version, -1) <= excluded.last_version")
STORE_STATEMENTS(mail, MAIL_STATEMENTS);

/* The answer of a registration within the budgets: (id, retry_after_s). */
static enum store_status registered(struct store *store, PGresult *result, const char *missing, int64_t *id,
				    int *retry_after_s)
{
	enum store_status status = STORE_OK;
	*retry_after_s = 0;
	if (PQntuples(result) != 1 || PQnfields(result) != 2) {
		status = store__corrupt(store, 0, "a mail registration answered no row");
	} else if (!PQgetisnull(result, 0, 1) && !get_int32(result, 0, 1, retry_after_s)) {
		status = store__corrupt(store, 0, "a mail budget's wait is malformed");
	} else if (*retry_after_s > 0) {
		store__say(store, "over the confirmation-mail budget");
	} else if (PQgetisnull(result, 0, 0)) {
		store__say(store, "%s", missing);
		status = STORE_NOT_FOUND;
	} else if (!get_int64(result, 0, 0, id)) {
		status = store__corrupt(store, 0, "a mail registration's id is malformed");
	}
	PQclear(result);
	return status;
}

/* Register (or replace) an address, unconfirmed, with its confirmation mail queued, within
 * the budgets: a seat's (mail_register: `owner` the game, with `seat`) or a player's
 * (mail_register_player: `owner` the player, no seat: with_seat 0). */
static enum store_status register_address(struct store *store, const struct store_statement *statement, int64_t owner,
					  int with_seat, int seat, const char *address,
					  const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
					  const struct store_mail_budget *budget, int64_t *id, int *retry_after_s)
{
	*retry_after_s = 0;
	int64_t wanted;
	if (!store__random_id(&wanted)) {
		store__say(store, "the system random generator failed");
		return STORE_UNAVAILABLE;
	}
	struct params params = {0};
	param_int(&params, wanted);
	param_int(&params, owner);
	if (with_seat)
		param_int(&params, seat);
	param_bytes(&params, secret, STORE_WEBHOOK_SECRET_SIZE);
	param_text(&params, address);
	param_int(&params, expires_s);
	param_int(&params, budget ? budget->per_address : 0);
	param_int(&params, budget ? budget->per_registrant : 0);
	param_int(&params, budget && budget->window_s > 0 ? budget->window_s : 86400);
	PGresult *result;
	enum store_status status = store__run(store, statement, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	return registered(store, result, with_seat ? "no such game" : "no such player", id, retry_after_s);
}

enum store_status store_mail_register(struct store *store, int64_t game_id, int seat, const char *address,
				      const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
				      const struct store_mail_budget *budget, int64_t *id, int *retry_after_s)
{
	return register_address(store, &statement_mail_register, game_id, 1, seat, address, secret, expires_s, budget,
				id, retry_after_s);
}

enum store_status store_mail_register_player(struct store *store, int64_t player_id, const char *address,
					     const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int expires_s,
					     const struct store_mail_budget *budget, int64_t *id, int *retry_after_s)
{
	return register_address(store, &statement_mail_register_player, player_id, 0, -1, address, secret, expires_s,
				budget, id, retry_after_s);
}

/* Run mail_get or mail_delete on the registration with this id, of this seat, or of this
 * player: the statements match whichever is given (the others 0 / -1). */
static enum store_status run_on_registration(struct store *store, const struct store_statement *statement, int retry,
					     int64_t id, int64_t game_id, int seat, int64_t player_id,
					     PGresult **result)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game_id);
	param_int(&params, seat);
	param_int(&params, player_id);
	return store__run(store, statement, &params, retry, result);
}

static enum store_status mail_find(struct store *store, int64_t id, int64_t game_id, int seat, int64_t player_id,
				   struct store_mail *out)
{
	memset(out, 0, sizeof *out);
	PGresult *result;
	enum store_status status =
		run_on_registration(store, &statement_mail_get, 1, id, game_id, seat, player_id, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) != 1) {
		store__say(store, "no such mail registration");
		PQclear(result);
		return STORE_NOT_FOUND;
	}
	int length = PQgetlength(result, 0, 3);
	if (!get_int64(result, 0, 0, &out->id) || !get_int64(result, 0, 1, &out->game_id) ||
	    !get_int16(result, 0, 2, &out->seat) || PQgetisnull(result, 0, 3) || length > STORE_MAIL_ADDRESS_MAX ||
	    PQgetlength(result, 0, 4) != STORE_WEBHOOK_SECRET_SIZE || !get_bool(result, 0, 5, &out->confirmed) ||
	    !get_bool(result, 0, 6, &out->confirm_expired) || !get_int64(result, 0, 7, &out->since_last_ms) ||
	    !get_int64(result, 0, 8, &out->last_turn) || !get_int64(result, 0, 9, &out->player_id)) {
		status = store__corrupt(store, game_id, "a mail registration with malformed columns");
	} else {
		memcpy(out->address, PQgetvalue(result, 0, 3), (size_t)length);
		out->address[length] = '\0';
		memcpy(out->secret, PQgetvalue(result, 0, 4), STORE_WEBHOOK_SECRET_SIZE);
	}
	PQclear(result);
	return status;
}

enum store_status store_mail_get(struct store *store, int64_t id, int64_t game_id, int seat, struct store_mail *out)
{
	return mail_find(store, id, id ? 0 : game_id, id ? -1 : seat, 0, out);
}

enum store_status store_mail_get_player(struct store *store, int64_t player_id, struct store_mail *out)
{
	return mail_find(store, 0, 0, -1, player_id, out);
}

enum store_status store_mail_confirm(struct store *store, int64_t id, int *confirmed)
{
	struct params params = {0};
	param_int(&params, id);
	PGresult *result;
	enum store_status status = store__run(store, &statement_mail_confirm, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	*confirmed = PQntuples(result) == 1;
	PQclear(result);
	return status;
}

static enum store_status mail_remove(struct store *store, int64_t id, int64_t game_id, int seat, int64_t player_id,
				     int *removed)
{
	PGresult *result;
	enum store_status status =
		run_on_registration(store, &statement_mail_delete, 0, id, game_id, seat, player_id, &result);
	if (status != STORE_OK)
		return status;
	*removed = PQntuples(result) > 0;
	PQclear(result);
	return status;
}

enum store_status store_mail_delete(struct store *store, int64_t id, int64_t game_id, int seat, int *removed)
{
	return mail_remove(store, id, id ? 0 : game_id, id ? -1 : seat, 0, removed);
}

enum store_status store_mail_delete_player(struct store *store, int64_t player_id, int *removed)
{
	return mail_remove(store, 0, 0, -1, player_id, removed);
}

enum store_status store_mail_sent(struct store *store, int64_t id, int64_t turn_key, int32_t version,
				  int counts_for_interval)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, turn_key);
	param_text(&params, counts_for_interval ? "true" : "false");
	param_int(&params, version);
	PGresult *result;
	enum store_status status = store__run(store, &statement_mail_sent, &params, 0, &result);
	if (status == STORE_OK)
		PQclear(result);
	return status;
}

enum store_status store_mail_game_state(struct store *store, int64_t id, int64_t game_id, int seat,
					int64_t *since_last_ms, int64_t *last_turn, int *seat_has_own)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game_id);
	param_int(&params, seat);
	PGresult *result;
	enum store_status status = store__run(store, &statement_mail_game_state, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) != 1 || !get_int64(result, 0, 0, since_last_ms) || !get_int64(result, 0, 1, last_turn) ||
	    !get_bool(result, 0, 2, seat_has_own))
		status = store__corrupt(store, game_id, "a mail registration's game state with malformed columns");
	PQclear(result);
	return status;
}

enum store_status store_mail_game_sent(struct store *store, int64_t id, int64_t game_id, int64_t turn_key,
				       int32_t version, int counts_for_interval)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game_id);
	param_int(&params, turn_key);
	param_text(&params, counts_for_interval ? "true" : "false");
	param_int(&params, version);
	PGresult *result;
	enum store_status status = store__run(store, &statement_mail_game_sent, &params, 0, &result);
	if (status == STORE_OK)
		PQclear(result);
	return status;
}
