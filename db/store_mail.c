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
 * place of game and seat; get and delete find a row by id, by (game, seat) or by player,
 * whichever is given (the others 0 / -1). What a seat row keeps on itself about the last
 * mail, a player row keeps per game in mail_games.
 */
#include "db/store_mail.h"

#include <string.h>

#include "db/store_internal.h"

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

static void param_budget(struct params *params, const struct store_mail_budget *budget)
{
	param_int(params, budget ? budget->per_address : 0);
	param_int(params, budget ? budget->per_registrant : 0);
	param_int(params, budget && budget->window_s > 0 ? budget->window_s : 86400);
}

enum store_status store_mail_register(struct store *store, int64_t game_id, int seat, const char *address,
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
	param_int(&params, game_id);
	param_int(&params, seat);
	param_bytes(&params, secret, STORE_WEBHOOK_SECRET_SIZE);
	param_text(&params, address);
	param_int(&params, expires_s);
	param_budget(&params, budget);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_MAIL_REGISTER, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	return registered(store, result, "no such game", id, retry_after_s);
}

/* The registration with this id, of this seat, or of this player (the others 0 / -1). */
static enum store_status mail_find(struct store *store, int64_t id, int64_t game_id, int seat, int64_t player_id,
				   struct store_mail *out)
{
	memset(out, 0, sizeof *out);
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game_id);
	param_int(&params, seat);
	param_int(&params, player_id);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_MAIL_GET, &params, 1, &result);
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
	enum store_status status = store__run(store, STATEMENT_MAIL_CONFIRM, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	*confirmed = PQntuples(result) == 1;
	PQclear(result);
	return status;
}

static enum store_status mail_remove(struct store *store, int64_t id, int64_t game_id, int seat, int64_t player_id,
				     int *removed)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game_id);
	param_int(&params, seat);
	param_int(&params, player_id);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_MAIL_DELETE, &params, 0, &result);
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

enum store_status store_mail_sent(struct store *store, int64_t id, int64_t turn_key)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, turn_key);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_MAIL_SENT, &params, 0, &result);
	if (status == STORE_OK)
		PQclear(result);
	return status;
}

enum store_status store_mail_register_player(struct store *store, int64_t player_id, const char *address,
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
	param_int(&params, player_id);
	param_bytes(&params, secret, STORE_WEBHOOK_SECRET_SIZE);
	param_text(&params, address);
	param_int(&params, expires_s);
	param_budget(&params, budget);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_MAIL_REGISTER_PLAYER, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	return registered(store, result, "no such player", id, retry_after_s);
}

enum store_status store_mail_game_state(struct store *store, int64_t id, int64_t game_id, int seat,
					int64_t *since_last_ms, int64_t *last_turn, int *seat_has_own)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game_id);
	param_int(&params, seat);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_MAIL_GAME_STATE, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	if (PQntuples(result) != 1 || !get_int64(result, 0, 0, since_last_ms) || !get_int64(result, 0, 1, last_turn) ||
	    !get_bool(result, 0, 2, seat_has_own))
		status = store__corrupt(store, game_id, "a mail registration's game state with malformed columns");
	PQclear(result);
	return status;
}

enum store_status store_mail_game_sent(struct store *store, int64_t id, int64_t game_id, int64_t turn_key)
{
	struct params params = {0};
	param_int(&params, id);
	param_int(&params, game_id);
	param_int(&params, turn_key);
	PGresult *result;
	enum store_status status = store__run(store, STATEMENT_MAIL_GAME_SENT, &params, 0, &result);
	if (status == STORE_OK)
		PQclear(result);
	return status;
}
