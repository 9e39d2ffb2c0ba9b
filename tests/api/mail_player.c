/*
 * mail_player.c - a seat played by mail (see mail_player.h): the replies, the choice of a
 * move from a mail's listing, and the game played to its end, each reply carried by the
 * caller's delivery.
 */
#include "tests/api/mail_player.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/check_main.h"

#define GAME_OPTIONS "{\"layout\": \"beginner\", \"start\": \"fixed\", \"first_seat\": 0, \"offer_wait_s\": 0}"

static char smtp_setting[64];

const char **mail_player_settings(int sink_port)
{
	static const char *settings[] = {smtp_setting,
					 "MAIL_FROM=" MAIL_PLAYER_FROM,
					 "MAIL_MIN_INTERVAL_S=0",
					 "MAIL_REPLY_DOMAIN=" MAIL_PLAYER_DOMAIN,
					 "MAIL_CONFIRMS_PER_ADDRESS=0",
					 "MAIL_CONFIRMS_PER_REGISTRANT=0",
					 NULL};
	snprintf(smtp_setting, sizeof smtp_setting, "SMTP_URL=smtp://127.0.0.1:%d", sink_port);
	return settings;
}

const char *const *mail_player_environment(void)
{
	static char public_url[300];
	static const char *environment[] = {smtp_setting, "MAIL_FROM=" MAIL_PLAYER_FROM,
					    "MAIL_REPLY_DOMAIN=" MAIL_PLAYER_DOMAIN, public_url, NULL};
	snprintf(public_url, sizeof public_url, "PUBLIC_URL=%s", http_fixture.server.url);
	return environment;
}

void mail_player_program(char *out, size_t size)
{
	const char *server = getenv("CATAN_SERVER");
	snprintf(out, size, "%s", server ? server : "build/catan-server");
	char *slash = strrchr(out, '/');
	snprintf(slash ? slash + 1 : out, size - (size_t)(slash ? slash + 1 - out : 0), "catan-mail-in");
}

/* ---- Replies ------------------------------------------------------------------------ */

static uint8_t consumed[4096]; /* mails read already, by number */
static int replies_sent;

void mail_player_consume(int n)
{
	ck_assert(n > 0 && n < 4096);
	consumed[n] = 1;
}

/* The newest mail not yet read whose subject starts with `subject` (0: none); older ones of
 * that subject are passed over as read, as a person answers the latest mail of a game. */
static int find_mail(const struct mail_sink *sink, const char *subject)
{
	int count = mail_sink_count(sink), found = 0;
	for (int n = 1; n <= count && n < 4096; n++) {
		if (consumed[n])
			continue;
		char *eml, *txt, value[300];
		mail_sink_read(sink, n, &eml, &txt);
		int match = mail_header(eml, "Subject", value, sizeof value) &&
			    strncmp(value, subject, strlen(subject)) == 0;
		free(eml);
		free(txt);
		if (match) {
			if (found)
				consumed[found] = 1;
			found = n;
		}
	}
	return found;
}

/* The game version a mail was written for: its board picture's. */
static long board_version(const char *text)
{
	const char *at = strstr(text, "/board.png?version=");
	ck_assert_msg(at != NULL, "the mail links the board: %s", text);
	return atol(at + strlen("/board.png?version="));
}

/* The answer to reply `message_id`: its mail number (waits for it). */
int mail_player_wait_answer(const struct mail_sink *sink, const char *message_id)
{
	double deadline = http_clock() + MAIL_PLAYER_TIMEOUT_S * http_slowdown();
	char wanted[300];
	snprintf(wanted, sizeof wanted, "\r\nIn-Reply-To: %s\r\n", message_id);
	for (;;) {
		int count = mail_sink_count(sink);
		for (int n = 1; n <= count && n < 4096; n++) {
			if (consumed[n])
				continue;
			char *eml, *txt;
			mail_sink_read(sink, n, &eml, &txt);
			int match = strstr(eml, wanted) != NULL;
			free(eml);
			free(txt);
			if (match)
				return n;
		}
		ck_assert_msg(http_clock() < deadline, "no answer to %s", message_id);
		http_pause(0.02);
	}
}

/* A reply to a mail: `lines` above the quoted mail, Gmail's way. `extra` headers or "". */
char *mail_player_reply(const char *to, const char *message_id, const char *lines, const char *quoted,
			const char *extra)
{
	size_t size = strlen(lines) + 2 * strlen(quoted) + 2048;
	char *out = malloc(size);
	int used = snprintf(out, size,
			    "Return-Path: <" MAIL_PLAYER_ADDRESS ">\r\nFrom: Ann <" MAIL_PLAYER_ADDRESS
			    ">\r\nTo: %s\r\nSubject: Re: your turn\r\n"
			    "Date: Tue, 1 Dec 2026 10:00:00 +0000\r\nMessage-ID: %s\r\nMIME-Version: 1.0\r\n%s"
			    "Content-Type: text/plain; charset=utf-8\r\n\r\n%s\r\n\r\nOn Tue, Dec 1, 2026 at 10:00 AM "
			    "Catan <catan@example.org> wrote:\r\n",
			    to, message_id, extra, lines);
	for (const char *line = quoted; *line;) {
		const char *end = strchr(line, '\n');
		size_t length = end ? (size_t)(end - line) : strlen(line);
		used += snprintf(out + used, size - (size_t)used, "> %.*s\r\n", (int)length, line);
		if (!end)
			break;
		line = end + 1;
	}
	return out;
}

/* The first number after `word` in the listing line that starts with it. */
static int listed(const char *list, const char *word, char *out, size_t size)
{
	char needle[64];
	snprintf(needle, sizeof needle, "\n  %s", word);
	const char *at = strstr(list, needle);
	if (!at)
		return 0;
	at += strlen(needle);
	const char *end = strchr(at, '\n');
	const char *digit = at;
	while (*digit && digit != end && (*digit < '0' || *digit > '9'))
		digit++;
	if (!*digit || digit == end)
		return 0;
	snprintf(out, size, "%s %d", word, atoi(digit));
	return 1;
}

/* What seat 0 plays from a mail's listing: roll, discard, the robber, decline offers, a city
 * or a settlement when it can, else end. */
static void choose(const struct http_game *game, const char *text, char *out, size_t size)
{
	const char *list = strstr(text, "one command a line");
	ck_assert_msg(list != NULL, "the mail lists the moves: %s", text);
	list = strchr(list, '\n');
	if (strstr(list, "\n  roll\n")) {
		snprintf(out, size, "roll");
		return;
	}
	if (strstr(list, "\n  discard <")) {
		/* How many: the listing; which: the hand of the seat's view (you.resources). */
		int owed = atoi(strstr(list, "\n  discard <") + strlen("\n  discard <"));
		char path[160];
		json_t *view = http_get_ok(&http_fixture.checked, http_game_path(game, "", path, sizeof path),
					   game->tokens[0]);
		int used = snprintf(out, size, "discard");
		const char *kind;
		json_t *count;
		json_object_foreach(json_object_get(json_object_get(view, "you"), "resources"), kind, count)
		{
			int take = (int)json_integer_value(count) < owed ? (int)json_integer_value(count) : owed;
			if (take > 0)
				used += snprintf(out + used, size - (size_t)used, " %d %s", take, kind);
			owed -= take;
		}
		json_decref(view);
		return;
	}
	const char *robber = strstr(list, "\n  robber <hex> [steal <name>]: ");
	if (robber) {
		robber += strlen("\n  robber <hex> [steal <name>]: ");
		int hex = atoi(robber);
		const char *close = strchr(robber, ')');
		const char *steal = strstr(robber, ": steal ");
		if (steal && steal < close) {
			steal += strlen(": steal ");
			const char * or = strstr(steal, " or ");
			size_t length = (size_t)((or && or < close ? or : close) - steal);
			snprintf(out, size, "robber %d steal %.*s", hex, (int)length, steal);
		} else {
			snprintf(out, size, "robber %d", hex);
		}
		return;
	}
	if (listed(list, "decline", out, size) || listed(list, "city", out, size) || listed(list, "settle", out, size))
		return;
	/* Not its turn (a counter-offer is all it could make): nothing to play. */
	snprintf(out, size, "%s", strstr(list, "\n  end\n") ? "end" : "");
}

/* The text part of mail n (after the sink's envelope lines). Caller frees. */
char *mail_player_text(const struct mail_sink *sink, int n, char **eml)
{
	*eml = mail_sink_file(sink, n, "eml");
	char *txt = mail_sink_file(sink, n, "txt");
	char *to = txt; /* CRLF as LF: the parts are CRLF lines */
	for (const char *from = txt; *from; from++)
		if (*from != '\r')
			*to++ = *from;
	*to = '\0';
	return txt;
}

long mail_player_game_version(const struct http_game *game)
{
	char path[160];
	json_t *view = http_get_ok(&http_fixture.checked, http_game_path(game, "", path, sizeof path), game->tokens[0]);
	long version = (long)json_integer_value(json_object_get(view, "version"));
	json_decref(view);
	return version;
}

/* The game's turn number now (the view's turn.number). */
static long game_turn_number(const struct http_game *game)
{
	char path[160];
	json_t *view = http_get_ok(&http_fixture.checked, http_game_path(game, "", path, sizeof path), game->tokens[0]);
	long number = (long)json_integer_value(json_object_get(json_object_get(view, "turn"), "number"));
	json_decref(view);
	return number;
}

/* ---- A game ------------------------------------------------------------------------- */

/* Print the rows `sql` answers, one a line (a diagnosis: never fails the test itself). */
static void print_rows(const char *title, const char *sql)
{
	PGconn *connection = PQconnectdb(getenv("DATABASE_URL") ? getenv("DATABASE_URL") : "");
	PGresult *result = PQstatus(connection) == CONNECTION_OK ? PQexec(connection, sql) : NULL;
	fprintf(stderr, "-- %s\n", title);
	if (result && PQresultStatus(result) == PGRES_TUPLES_OK) {
		for (int row = 0; row < PQntuples(result); row++) {
			for (int column = 0; column < PQnfields(result); column++)
				fprintf(stderr, "%s%s=%s", column ? " " : "   ", PQfname(result, column),
					PQgetisnull(result, row, column) ? "NULL" : PQgetvalue(result, row, column));
			fprintf(stderr, "\n");
		}
	} else {
		fprintf(stderr, "   (%s)\n", result ? PQresultErrorMessage(result) : PQerrorMessage(connection));
	}
	PQclear(result);
	PQfinish(connection);
}

/* What the game, the mail registration and the outbox say when a mail the seat waits for
 * does not come: enough to tell a lost turn mail from a slow one. */
static void print_stall(const struct http_game *game, const struct mail_sink *sink)
{
	char path[160], sql[700];
	json_t *view = http_get_ok(&http_fixture.checked, http_game_path(game, "", path, sizeof path), game->tokens[0]);
	fprintf(stderr, "-- the game as seat 0 sees it (%d mails so far):", mail_sink_count(sink));
	const char *key;
	json_t *value;
	json_object_foreach(view, key, value)
	{
		if (json_is_object(value) || (json_is_array(value) && json_array_size(value) > 4))
			continue;
		char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
		fprintf(stderr, " %s=%s", key, text);
		free(text);
	}
	fprintf(stderr, "\n");
	json_decref(view);
	long long id = strtoll(game->id, NULL, 16);
	snprintf(sql, sizeof sql,
		 "SELECT seq, type, actor, origin, left(payload::text, 160) AS payload FROM events"
		 " WHERE game_id = %lld ORDER BY seq DESC LIMIT 12",
		 id);
	print_rows("the last events", sql);
	snprintf(sql, sizeof sql,
		 "SELECT id, mail_last_turn, mail_last_version, mail_last_sent_at, disabled_reason FROM webhooks"
		 " WHERE game_id = %lld AND format = 'mail'",
		 id);
	print_rows("the mail registration", sql);
	snprintf(sql, sizeof sql,
		 "SELECT id, first_seq, last_seq, next_seq, attempts, due_at - now() AS due_in FROM webhook_outbox"
		 " WHERE game_id = %lld ORDER BY id",
		 id);
	print_rows("the outbox", sql);
	snprintf(sql, sizeof sql,
		 "SELECT d.seq, d.kind, d.status, d.error, d.at FROM webhook_deliveries d JOIN webhooks w"
		 " ON w.id = d.webhook_id WHERE w.game_id = %lld ORDER BY d.at DESC LIMIT 8",
		 id);
	print_rows("the last deliveries", sql);
}

void mail_player_play_game(struct mail_play *play)
{
	struct mail_sink *sink = play->sink;
	char players[512], body[900], path[200];
	http_players_json(4, 0xe, players, sizeof players);
	snprintf(body, sizeof body, "{\"players\": %s, \"options\": %s}", players, GAME_OPTIONS);
	struct http_game game;
	http_game_create_body(&http_fixture.checked, body, &game);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/mail", path, sizeof path), game.tokens[0],
		  "{\"address\": \"" MAIL_PLAYER_ADDRESS "\"}", NULL, &response);
	ck_assert_msg(response.status == 202, "register: %s", http_describe(&response));
	http_response_free(&response);
	mail_sink_wait(sink, 1);
	mail_player_consume(1);
	char *eml, *txt, code[128];
	mail_sink_read(sink, 1, &eml, &txt);
	ck_assert_msg(!strstr(eml, "Reply-To"), "a confirmation mail has no reply address");
	mail_link_code(txt, "/v1/mail/confirm", code, sizeof code);
	free(eml);
	free(txt);
	snprintf(path, sizeof path, "/v1/mail/confirm?code=%s", code);
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	http_response_free(&response);
	/* The first turn over HTTP: the mails begin with the bots' moves after it. */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\"}");
	char actions_path[160];
	for (int done = 0; !done;) {
		/* A 7 asks for the robber first (listed non-template), then the turn ends. */
		json_t *actions = http_get_ok(&http_fixture.checked,
					      http_game_path(&game, "/actions", actions_path, sizeof actions_path),
					      game.tokens[0]);
		json_t *first = NULL, *action;
		size_t at;
		json_array_foreach(json_object_get(actions, "actions"), at, action)
		{
			const char *kind = json_string_value(json_object_get(action, "type"));
			if (!first && (strcmp(kind, "end_turn") == 0 || strcmp(kind, "move_robber") == 0))
				first = action;
		}
		ck_assert(first != NULL);
		done = strcmp(json_string_value(json_object_get(first, "type")), "end_turn") == 0;
		char *move = json_dumps(first, JSON_COMPACT);
		http_post_move_ok(&http_fixture.checked, &game, 0, move);
		free(move);
		json_decref(actions);
	}
	long first_version = mail_player_game_version(&game);

	char reply_to[300] = "", old_reply_to[300] = "", value[300], message_id[64], line[200];
	int mail = 0, turns = 0, answers = 0, over = 0, checked_refusals = 0, stale = 0;
	/* The newest version an answer was written for: a turn mail composed before it (a mail
	 * racing the answer to a reply) is one a person may still answer; the answer must then
	 * refuse what no longer applies and say what can be done now. */
	long answered_version = 0, text_version = 0, old_turn = -1;
	char *text = NULL;
	double deadline = http_clock() + 600 * http_slowdown();
	while (!over) {
		ck_assert_msg(http_clock() < deadline, "the game ends within 10 minutes (%d turns)", turns);
		if (!reply_to[0]) {
			/* Wait for the next turn mail (or the last one): an answer with nothing to do
			 * promises one when the game waits for the seat again, and three bots' turns
			 * take seconds. */
			int found = 0;
			double mail_deadline = http_clock() + MAIL_PLAYER_TIMEOUT_S * http_slowdown();
			while (!(found = find_mail(sink, "Your turn in Catan game")) &&
			       !(found = find_mail(sink, "Catan game"))) {
				if (!(http_clock() < deadline && http_clock() < mail_deadline)) {
					print_stall(&game, sink);
					ck_abort_msg("a turn mail comes within %d s (%d turns)", MAIL_PLAYER_TIMEOUT_S,
						     turns);
				}
				http_pause(0.02);
			}
			mail = found;
			mail_player_consume(mail);
			free(text);
			text = mail_player_text(sink, mail, &eml);
			for (int s = 1; s < 4; s++)
				ck_assert(!game.tokens[s][0]);
			ck_assert_msg(!strstr(eml, game.tokens[0]) && !strstr(text, game.tokens[0]),
				      "no token in a mail");
			if (mail_header(eml, "Subject", value, sizeof value) && strstr(value, "is over")) {
				ck_assert_msg(!mail_header(eml, "Reply-To", value, sizeof value),
					      "the last mail has no reply address");
				free(eml);
				over = 1;
				break;
			}
			ck_assert_msg(mail_header(eml, "Reply-To", value, sizeof value) && value[0] == '<',
				      "Reply-To: %s", eml);
			snprintf(reply_to, sizeof reply_to, "%.*s", (int)strlen(value) - 2, value + 1);
			ck_assert_msg(strncmp(reply_to, "turn+", 5) == 0 && strstr(reply_to, "@" MAIL_PLAYER_DOMAIN) &&
					      strlen(reply_to) - strlen("@" MAIL_PLAYER_DOMAIN) <= 64,
				      "a reply address: %s", reply_to);
			free(eml);
			text_version = board_version(text);
			turns++;
			/* An old turn's address: one of a turn of the game before this one (two turn
			 * mails may be of one turn: the robber after the others' discards). */
			if (turns >= 3 && !checked_refusals && old_reply_to[0] && game_turn_number(&game) != old_turn) {
				play->check_refusals(sink, &game, reply_to, old_reply_to);
				checked_refusals = 1;
			}
			if (turns == 2) {
				snprintf(old_reply_to, sizeof old_reply_to, "%s", reply_to);
				old_turn = game_turn_number(&game);
			}
		}
		choose(&game, text, line, sizeof line);
		if (!line[0]) {
			reply_to[0] = '\0';
			continue;
		}
		snprintf(message_id, sizeof message_id, "<reply-%d@example.org>", ++replies_sent);
		char *message = mail_player_reply(reply_to, message_id, line, text, "");
		play->deliver(message, reply_to);
		free(message);
		int answer = mail_player_wait_answer(sink, message_id);
		mail_player_consume(answer);
		answers++;
		free(text);
		text = mail_player_text(sink, answer, &eml);
		int done = strstr(text, ": done.") || strstr(text, "moved on");
		if (!done && text_version < answered_version && strstr(text, ": refused: ") &&
		    (strstr(text, "What you can do now") || strstr(text, "Nothing to do for now")))
			stale++;
		else
			ck_assert_msg(done, "\"%s\" (for version %ld; answered up to %ld) was done: %s", line,
				      text_version, answered_version, text);
		text_version = board_version(text);
		if (text_version > answered_version)
			answered_version = text_version;
		reply_to[0] = '\0';
		if (mail_header(eml, "Reply-To", value, sizeof value))
			snprintf(reply_to, sizeof reply_to, "%.*s", (int)strlen(value) - 2, value + 1);
		free(eml);
		ck_assert_int_lt(answers, 3000);
	}
	free(text);
	ck_assert_msg(checked_refusals, "the refusals were checked");
	ck_assert_msg(http_game_wait_finished(&http_fixture.checked, &game, 30), "the game is over");
	/* Seat 0's moves after its first turn are all in the log with origin mail; the finished
	 * game's export (its whole log) imports as a game of its own: it replays. */
	json_t *exported = http_get_ok(&http_fixture.checked, http_game_path(&game, "/export", path, sizeof path),
				       game.admin_token);
	size_t index;
	json_t *entry;
	int by_mail = 0;
	json_array_foreach(json_object_get(exported, "events"), index, entry)
	{
		long version = (long)json_integer_value(json_object_get(entry, "version"));
		const char *origin = json_string_value(json_object_get(entry, "origin"));
		json_t *seat = json_object_get(entry, "seat");
		ck_assert_msg(origin != NULL, "every entry has its origin");
		if (version > first_version && json_is_integer(seat) && json_integer_value(seat) == 0 &&
		    strcmp(origin, "player") == 0)
			ck_abort_msg("seat 0 moved over HTTP at version %ld", version);
		by_mail += strcmp(origin, "mail") == 0;
	}
	ck_assert_int_ge(by_mail, turns);
	char *export_text = json_dumps(exported, JSON_COMPACT);
	json_decref(exported);
	http_call(&http_fixture.checked, "POST", "/v1/games/import", NULL, export_text, NULL, &response);
	ck_assert_msg(response.status == 201, "the export imports: %s", http_describe(&response));
	http_response_free(&response);
	free(export_text);
	play->turns = turns;
	play->answers = answers;
	play->stale = stale;
	play->by_mail = by_mail;
	fprintf(stderr,
		"played by mail: %d turns, %d replies answered (%d to a turn mail older than an answer), %d events "
		"of origin mail\n",
		turns, answers, stale, by_mail);
}
