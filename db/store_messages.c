/*
 * store_messages.c - table talk: one function call to post (catan_post_message() takes the
 * game's row lock, so a game's messages are numbered without gaps or races, and checks the
 * seat's rate over the last minute in the same transaction), one select to read.
 */
#include "db/store_messages.h"

#include "db/store_internal.h"

#define MESSAGES_STATEMENTS(X)                                                         \
	X(message_post, 4,                                                             \
	  "SELECT status, seq, after_version, created_at, retry_after_s"               \
	  " FROM catan_post_message($1::bigint, $2::smallint, $3::text, $4::integer)") \
	X(message_read, 3,                                                             \
	  "SELECT seq, after_version, seat, created_at, text FROM messages"            \
	  " WHERE game_id = $1::bigint AND seq > $2::integer ORDER BY seq LIMIT $3::integer")
STORE_STATEMENTS(messages, MESSAGES_STATEMENTS);

enum store_status store_message_post(struct store *store, int64_t game_id, int seat, const char *text, int per_minute,
				     struct store_message *posted, int *retry_after_s)
{
	*retry_after_s = 0;
	memset(posted, 0, sizeof *posted);
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, seat);
	param_text(&params, text);
	param_int(&params, per_minute);
	PGresult *result;
	enum store_status status = store__run(store, &statement_message_post, &params, 0, &result);
	if (status != STORE_OK)
		return status;
	int32_t outcome = -1;
	if (PQntuples(result) != 1 || !get_int32(result, 0, 0, &outcome)) {
		status = store__corrupt(store, game_id, "catan_post_message answered no status");
	} else if (outcome == 1) {
		store__say(store, "no such game");
		status = STORE_NOT_FOUND;
	} else if (outcome == 2) {
		int32_t seconds = 1;
		get_int32(result, 0, 4, &seconds);
		*retry_after_s = seconds > 0 ? seconds : 1;
	} else if (!get_int32(result, 0, 1, &posted->seq) || !get_int32(result, 0, 2, &posted->after_version) ||
		   !get_timestamp(result, 0, 3, &posted->created_at_us)) {
		status = store__corrupt(store, game_id, "a posted message without its place");
	} else {
		posted->seat = seat;
	}
	PQclear(result);
	return status;
}

enum store_status store_messages_read(struct store *store, int64_t game_id, int32_t after, int limit,
				      struct store_messages *out)
{
	out->count = 0;
	out->rows = NULL;
	struct params params = {0};
	param_int(&params, game_id);
	param_int(&params, after);
	param_int(&params, limit);
	PGresult *result;
	enum store_status status = store__run(store, &statement_message_read, &params, 1, &result);
	if (status != STORE_OK)
		return status;
	int count = PQntuples(result);
	out->rows = store_alloc(sizeof *out->rows * (size_t)(count ? count : 1));
	for (int i = 0; i < count; i++) {
		struct store_message *row = &out->rows[out->count];
		int seat;
		if (!get_int32(result, i, 0, &row->seq) || !get_int32(result, i, 1, &row->after_version) ||
		    !get_int16(result, i, 2, &seat) || !get_timestamp(result, i, 3, &row->created_at_us) ||
		    PQgetisnull(result, i, 4)) {
			status = store__corrupt(store, game_id, "a message row");
			break;
		}
		row->seat = seat;
		row->text = store_strndup(PQgetvalue(result, i, 4), (size_t)PQgetlength(result, i, 4));
		out->count++;
	}
	PQclear(result);
	if (status != STORE_OK)
		store_messages_free(out);
	return status;
}

void store_messages_free(struct store_messages *messages)
{
	for (int i = 0; i < messages->count; i++)
		free(messages->rows[i].text);
	free(messages->rows);
	messages->rows = NULL;
	messages->count = 0;
}
