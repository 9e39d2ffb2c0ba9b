/*
 * test_async_mail.c - "your turn" mails as a mailbox sees them, through a real relay: a
 * local SMTP sink (tests/api/smtp_sink.py on Debian's python3-aiosmtpd, run by each test)
 * that keeps every message it accepts as a file.
 *
 * Checked: a registration gets its confirmation mail and nothing else until the link is
 * opened; then one mail per turn of the seat (none for its own moves), with From, To,
 * Subject, Date, Message-ID, MIME-Version, List-Unsubscribe and List-Unsubscribe-Post
 * present and well formed and the board picture linked (absolute); never two mails
 * within MAIL_MIN_INTERVAL_S (a turn that comes sooner is mailed when the interval is over,
 * and not at all when it is no longer the seat's turn by then); the one-click POST of the
 * List-Unsubscribe link stops them. A relay that is down delays the mails while the server
 * keeps answering; they go out when it is back. The address appears in no view, log of
 * moves, export, webhook list, standard webhook delivery or access log line. A bad
 * address is 400 naming `address`; a server without SMTP_URL answers 503 mail_disabled.
 *
 * A player's address (POST /v1/players/me/mail) mails every game the player sits in, each
 * mail naming its game, the interval counted per game; one click stops them all; another
 * player sees and removes only its own; a game whose seat has its own address is mailed
 * once per turn, by that one.
 *
 * Confirmation mails have budgets (per address, however written, and per seat or player):
 * the registration past either is 429 mail_quota with Retry-After, writes nothing and
 * sends nothing.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/api/mail_sink.h"
#include "tests/api/webhook_receiver.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"
#define ADDRESS "ann.example+catan@example.org"
#define MASKED "a***@example.org"
#define INTERVAL_S 2
#define MAIL_TIMEOUT_S 40

static int sink_port;
static char smtp_setting[64];

/* ---- The game ---------------------------------------------------------------------- */

/* A roll of 2, or the end of the turn, in turn order. Seat 1's turn begins after steps
 * 1, 7, 13 ... (6k + 1), and seat 1 itself makes steps 6k + 2 and 6k + 3. */
static void idle_move(const struct http_game *game, int step)
{
	int seat = (step / 2) % game->seats;
	http_post_move_ok(&http_fixture.checked, game, seat,
			  step % 2 ? "{\"type\": \"end_turn\"}" : "{\"type\": \"roll\", \"dice\": [1, 1]}");
}

static void moves(const struct http_game *game, int from, int to)
{
	for (int step = from; step <= to; step++)
		idle_move(game, step);
}

static json_t *mail_state(const struct http_game *game, int seat)
{
	char path[160];
	return http_get_ok(&http_fixture.checked, http_game_path(game, "/mail", path, sizeof path), game->tokens[seat]);
}

static void register_address(const struct http_game *game, int seat, const char *address)
{
	char path[160], body[400];
	snprintf(body, sizeof body, "{\"address\": \"%s\"}", address);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(game, "/mail", path, sizeof path), game->tokens[seat],
		  body, NULL, &response);
	ck_assert_msg(response.status == 202, "register: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "address")), MASKED);
	ck_assert_msg(!strstr(response.body, address), "the answer hides the address: %s", response.body);
	http_response_free(&response);
}

/* Confirmation mail n: to the address, nothing but the link; open the link. */
static void confirm(const struct mail_sink *sink, int n)
{
	char *eml, *txt, value[300], code[128], path[200];
	mail_sink_read(sink, n, &eml, &txt);
	ck_assert_msg(strstr(txt, "rcpt_to: " ADDRESS "\n") != NULL, "to the address: %s", txt);
	ck_assert_msg(mail_header(eml, "Subject", value, sizeof value) && strstr(value, "Confirm"), "subject: %s", eml);
	mail_link_code(txt, "/v1/mail/confirm", code, sizeof code);
	free(eml);
	free(txt);
	snprintf(path, sizeof path, "/v1/mail/confirm?code=%s", code);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && strstr(response.body, "Mail is on"), "confirm: %s",
		      http_describe(&response));
	http_response_free(&response);
	/* A wrong code of the same registration is refused. */
	code[20] = code[20] == 'A' ? 'B' : 'A';
	snprintf(path, sizeof path, "/v1/mail/confirm?code=%s", code);
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
	http_assert_problem(&response, 404, "mail_link_invalid");
	http_response_free(&response);
}

/* Turn mail n: every header well formed, about this game, the picture linked. Its
 * unsubscribe code into code. */
static void assert_turn_mail(const struct mail_sink *sink, int n, const struct http_game *game, char *message_id,
			     size_t id_size, char *code, size_t code_size)
{
	char *eml, *txt, value[400], expected[200];
	mail_sink_read(sink, n, &eml, &txt);
	ck_assert_msg(strstr(txt, "rcpt_to: " ADDRESS "\n") && strstr(txt, "mail_from: catan@example.org\n"),
		      "envelope: %s", txt);
	ck_assert_msg(mail_header(eml, "From", value, sizeof value) && strstr(value, "<catan@example.org>"), "From: %s",
		      eml);
	ck_assert_msg(mail_header(eml, "To", value, sizeof value) && strcmp(value, "<" ADDRESS ">") == 0, "To: %s",
		      eml);
	snprintf(expected, sizeof expected, "Your turn in Catan game %s: ", game->id);
	ck_assert_msg(mail_header(eml, "Subject", value, sizeof value) &&
			      strncmp(value, expected, strlen(expected)) == 0 && strlen(value) > strlen(expected),
		      "Subject: %s", value);
	char day[8], month[8], zone[8];
	int date, year, hour, minute, second;
	ck_assert_msg(mail_header(eml, "Date", value, sizeof value) &&
			      sscanf(value, "%3s, %d %3s %d %d:%d:%d %5s", day, &date, month, &year, &hour, &minute,
				     &second, zone) == 8 &&
			      strstr("MonTueWedThuFriSatSun", day) &&
			      strstr("JanFebMarAprMayJunJulAugSepOctNovDec", month) && year >= 2024 &&
			      strcmp(zone, "+0000") == 0,
		      "Date (RFC 5322): %s", value);
	ck_assert_msg(mail_header(eml, "Message-ID", message_id, id_size) && message_id[0] == '<' &&
			      strstr(message_id, "@example.org>") && !strchr(message_id, ' '),
		      "Message-ID: %s", eml);
	ck_assert_msg(mail_header(eml, "MIME-Version", value, sizeof value) && strcmp(value, "1.0") == 0, "MIME: %s",
		      eml);
	ck_assert_msg(mail_header(eml, "Content-Type", value, sizeof value) && strstr(value, "multipart/alternative"),
		      "multipart/alternative: %s", eml);
	ck_assert_msg(strstr(eml, "Content-Type: text/plain") && strstr(eml, "Content-Type: text/html"),
		      "a text and an HTML part: %s", eml);
	ck_assert_msg(mail_header(eml, "List-Unsubscribe", value, sizeof value) && strncmp(value, "<http://", 8) == 0 &&
			      strstr(value, "/v1/mail/unsubscribe?code=") && value[strlen(value) - 1] == '>',
		      "List-Unsubscribe: %s", value);
	mail_link_code(value, "/v1/mail/unsubscribe", code, code_size);
	ck_assert_msg(mail_header(eml, "List-Unsubscribe-Post", value, sizeof value) &&
			      strcmp(value, "List-Unsubscribe=One-Click") == 0,
		      "List-Unsubscribe-Post: %s", eml);
	snprintf(expected, sizeof expected, "/v1/games/%s/board.png?version=", game->id);
	ck_assert_msg(strstr(txt, expected) && strstr(txt, "The board now: http"), "the picture linked (%s): %s",
		      expected, txt);
	snprintf(expected, sizeof expected, "/#game=%s", game->id);
	ck_assert_msg(strstr(txt, expected) != NULL, "the game linked: %s", txt);
	for (int seat = 0; seat < game->seats; seat++)
		ck_assert_msg(!strstr(eml, game->tokens[seat]) && !strstr(txt, game->tokens[seat]),
			      "no token in a mail");
	free(eml);
	free(txt);
}

/* The address is nowhere a reader of the game, a webhook or the access log could see. */
static void assert_address_private(const struct http_game *game, struct webhook_receiver *standard)
{
	char path[200];
	const char *paths[] = {"", "/moves", "/export", "/players", "/actions", "/webhooks", NULL};
	const char *tokens[] = {game->admin_token, game->tokens[0], game->tokens[1], NULL};
	for (int p = 0; paths[p]; p++) {
		for (int t = 0; tokens[t]; t++) {
			struct http_response response;
			http_call(&http_fixture.checked, "GET", http_game_path(game, paths[p], path, sizeof path),
				  tokens[t], NULL, NULL, &response);
			ck_assert_msg(!strstr(response.body, "ann.example") && !strstr(response.body, "@example.org"),
				      "GET %s shows the address: %s", path, response.body);
			http_response_free(&response);
		}
	}
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(standard, &count);
	ck_assert_msg(count > 0, "the standard webhook got deliveries");
	for (int i = 0; i < count; i++)
		ck_assert_msg(!strstr(all[i].text, "ann.example"), "a standard delivery shows the address: %s",
			      all[i].text);
	webhook_deliveries_free(all, count);
	char *log = mail_read_file(http_fixture.server.log_path);
	ck_assert_msg(strlen(log) > 0 && !strstr(log, "ann.example") && !strstr(log, MASKED),
		      "the server's log shows the address");
	free(log);
}

START_TEST(
	test_confirmation_first_then_one_mail_per_turn_with_headers_spaced_by_the_interval_until_one_click_unsubscribe)
{
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct webhook_receiver *standard = webhook_receiver_start();
	char path[200], body[300];
	snprintf(body, sizeof body, "{\"url\": \"%s\"}", webhook_receiver_url(standard));
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/webhooks", path, sizeof path), game.tokens[1],
		  body, NULL, &response);
	ck_assert_msg(response.status == 201, "standard webhook: %s", http_describe(&response));
	http_response_free(&response);

	register_address(&game, 1, ADDRESS);
	mail_sink_wait(&sink, 1);
	json_t *state = mail_state(&game, 1);
	ck_assert(json_is_true(json_object_get(state, "registered")) &&
		  json_is_false(json_object_get(state, "confirmed")));
	json_decref(state);
	/* Unconfirmed: turns of seat 1 come and go, nothing more is sent. */
	moves(&game, 0, 7);
	http_pause(1.5);
	ck_assert_int_eq(mail_sink_count(&sink), 1);
	confirm(&sink, 1);
	state = mail_state(&game, 1);
	ck_assert(json_is_true(json_object_get(state, "confirmed")));
	ck_assert_str_eq(json_string_value(json_object_get(state, "address")), MASKED);
	json_decref(state);

	/* Seat 1's own moves mail nothing; the next turn of seat 1 one mail. */
	moves(&game, 8, 13);
	mail_sink_wait(&sink, 2);
	char first_id[200], second_id[200], code[128];
	assert_turn_mail(&sink, 2, &game, first_id, sizeof first_id, code, sizeof code);

	/* The next turn of seat 1 comes within the interval: mailed once the interval is over. */
	moves(&game, 14, 19);
	mail_sink_wait(&sink, 3);
	double gap = mail_sink_received_at(&sink, 3) - mail_sink_received_at(&sink, 2);
	ck_assert_msg(gap >= INTERVAL_S - 0.3, "two mails %.2f s apart (MAIL_MIN_INTERVAL_S=%d)", gap, INTERVAL_S);
	assert_turn_mail(&sink, 3, &game, second_id, sizeof second_id, code, sizeof code);
	ck_assert_msg(strcmp(first_id, second_id) != 0, "Message-IDs differ: %s", first_id);

	/* A turn within the interval that is over before the interval is: no mail for it. */
	moves(&game, 20, 27);
	http_pause(INTERVAL_S + 1.5);
	ck_assert_int_eq(mail_sink_count(&sink), 3);
	/* One per turn change: the next turn of seat 1 is mailed, once. */
	moves(&game, 28, 31);
	mail_sink_wait(&sink, 4);
	http_pause(1.0);
	ck_assert_int_eq(mail_sink_count(&sink), 4);
	assert_turn_mail(&sink, 4, &game, second_id, sizeof second_id, code, sizeof code);

	/* The unsubscribe page does not unsubscribe (scanners open links); its POST does. */
	snprintf(path, sizeof path, "/v1/mail/unsubscribe?code=%s", code);
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && strstr(response.body, "<form method=\"post\""), "page: %s",
		      http_describe(&response));
	http_response_free(&response);
	state = mail_state(&game, 1);
	ck_assert(json_is_true(json_object_get(state, "registered")));
	json_decref(state);
	static const char *const form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
	http_call(&http_fixture.checked, "POST", path, NULL, "List-Unsubscribe=One-Click", form, &response);
	ck_assert_msg(response.status == 200, "one-click: %s", http_describe(&response));
	http_response_free(&response);
	state = mail_state(&game, 1);
	ck_assert(json_is_false(json_object_get(state, "registered")) && !json_object_get(state, "address"));
	json_decref(state);
	moves(&game, 32, 37);
	http_pause(INTERVAL_S + 1.5);
	ck_assert_int_eq(mail_sink_count(&sink), 4);

	assert_address_private(&game, standard);
	webhook_receiver_stop(standard);
	mail_sink_stop(&sink);
}
END_TEST

/* A seat's first open move of `type` whose `member` is `value` (any, when member is NULL),
 * as a move body; posted, its answer's version. */
static long play_action(const struct http_game *game, int seat, const char *type, const char *member, long value)
{
	char path[160];
	json_t *actions = http_get_ok(&http_fixture.checked, http_game_path(game, "/actions", path, sizeof path),
				      game->tokens[seat]);
	json_t *found = NULL;
	size_t index;
	json_t *action;
	json_array_foreach(json_object_get(actions, "actions"), index, action)
	{
		if (!found && strcmp(json_string_value(json_object_get(action, "type")), type) == 0 &&
		    (!member || json_integer_value(json_object_get(action, member)) == value))
			found = json_deep_copy(action);
	}
	json_decref(actions);
	ck_assert_msg(found != NULL, "seat %d may %s (%s %ld)", seat, type, member ? member : "", value);
	char *text = json_dumps(found, JSON_COMPACT);
	long version = http_post_move_ok(&http_fixture.checked, game, seat, text);
	free(text);
	json_decref(found);
	return version;
}

/* No token of the game in `text`: no seat's, no admin's, no token-looking "st_"/"at_"/"pt_"
 * word, no ?token= or &token=. */
static void assert_no_token(const struct http_game *game, const char *what, const char *text)
{
	for (int seat = 0; seat < game->seats; seat++)
		ck_assert_msg(!game->tokens[seat][0] || !strstr(text, game->tokens[seat]), "%s holds seat %d's token",
			      what, seat);
	ck_assert_msg(!strstr(text, game->admin_token), "%s holds the admin token", what);
	ck_assert_msg(!strstr(text, "token="), "%s holds a token parameter", what);
	const char *prefixes[] = {"st_", "at_", "pt_", "iv_", NULL};
	for (int p = 0; prefixes[p]; p++)
		for (const char *at = strstr(text, prefixes[p]); at; at = strstr(at + 1, prefixes[p]))
			ck_assert_msg(at > text && !strchr(" \t\r\n=/#&<>\"'(:,;", at[-1]),
				      "%s holds something like a token: %.40s", what, at);
}

START_TEST(test_a_mail_lists_every_move_since_the_readers_last_turn_by_name_and_holds_no_token)
{
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	struct http_game game;
	http_game_create_body(&http_fixture.checked,
			      "{\"players\": [{\"name\": \"Ann\"}, {\"name\": \"Bob\"}, {\"name\": \"Cid\"}], "
			      "\"options\": " FIXED_START "}",
			      &game);
	register_address(&game, 1, ADDRESS);
	mail_sink_wait(&sink, 1);
	char *eml, *txt;
	mail_sink_read(&sink, 1, &eml, &txt);
	ck_assert_msg(strstr(txt, "Bob's seat 1 of Catan game") != NULL, "the confirmation counts seats from 0: %s",
		      txt);
	free(eml);
	free(txt);
	confirm(&sink, 1);
	/* Bob's turn (steps 2 and 3) ends; Cid's passes; then Ann rolls a 7, robs Bob, and
	 * makes and withdraws three offers before she ends her turn: the steal is followed by
	 * seven moves, more than the six the mails used to list. */
	http_pause(INTERVAL_S + 0.5); /* past MAIL_MIN_INTERVAL_S after the confirmation */
	moves(&game, 0, 1);
	mail_sink_wait(&sink, 2);
	moves(&game, 2, 5);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}");
	play_action(&game, 0, "move_robber", "victim", 1);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, game.tokens[0]);
	json_t *hand = json_object_get(json_object_get(view, "you"), "resources");
	const char *give = NULL, *want = NULL;
	const char *key;
	json_t *count;
	json_object_foreach(hand, key, count)
	{
		if (!give && json_integer_value(count) > 0)
			give = key;
	}
	ck_assert_msg(give != NULL, "Ann holds a card to offer");
	want = strcmp(give, "ore") == 0 ? "brick" : "ore";
	char body[200], path[200];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}, \"to\": [2]}", give, want);
	for (int i = 0; i < 3; i++) {
		struct http_response response;
		http_call(&http_fixture.checked, "POST", http_game_path(&game, "/trades", path, sizeof path),
			  game.tokens[0], body, NULL, &response);
		ck_assert_msg(response.status == 201, "offer: %s", http_describe(&response));
		char suffix[64];
		snprintf(suffix, sizeof suffix, "/trades/%d",
			 (int)json_integer_value(json_object_get(response.json, "trade")));
		http_response_free(&response);
		http_call(&http_fixture.checked, "DELETE", http_game_path(&game, suffix, path, sizeof path),
			  game.tokens[0], NULL, NULL, &response);
		ck_assert_msg(response.status == 200 || response.status == 201 || response.status == 204,
			      "withdraw: %s", http_describe(&response));
		http_response_free(&response);
	}
	json_decref(view);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"end_turn\"}");
	mail_sink_wait(&sink, 3);
	mail_sink_read(&sink, 3, &eml, &txt);
	ck_assert_msg(strstr(txt, "Every move since your last turn:") != NULL, "the moves listed: %s", txt);
	const char *steal = strstr(txt, "- Ann stole 1 ");
	ck_assert_msg(steal && strstr(steal, " from Bob."), "the steal from Bob is listed: %s", txt);
	ck_assert_msg(strstr(txt, "- Cid rolled 2 (1 + 1).") && strstr(txt, "- Cid ended the turn.") &&
			      strstr(txt, "- Ann rolled 7 (3 + 4).") && strstr(txt, "- Ann moved the robber to the ") &&
			      strstr(txt, "- Ann withdrew offer ") && strstr(txt, "- Ann ended the turn."),
		      "every move since Bob's turn, places by name: %s", txt);
	ck_assert_msg(!strstr(txt, "- Bob ended the turn."), "Bob's own last turn is not listed: %s", txt);
	ck_assert_msg(!strstr(txt, ";."), "sentences end cleanly: %s", txt);
	ck_assert_msg(strstr(txt, "You play Bob, seat 1 (counted from 0") != NULL, "the reader by name and seat: %s",
		      txt);
	ck_assert_msg(!strstr(txt, "Seat 2") && !strstr(txt, "seat 2"), "Bob is never seat 2: %s", txt);
	free(eml);
	free(txt);
	/* No token of any kind in any mail, nor in the server's log. */
	for (int n = 1; n <= mail_sink_count(&sink); n++) {
		mail_sink_read(&sink, n, &eml, &txt);
		assert_no_token(&game, "a mail", eml);
		assert_no_token(&game, "a mail's text", txt);
		free(eml);
		free(txt);
	}
	char *log = mail_read_file(http_fixture.server.log_path);
	for (int seat = 0; seat < game.seats; seat++)
		ck_assert_msg(!strstr(log, game.tokens[seat]), "the server's log holds seat %d's token", seat);
	ck_assert_msg(!strstr(log, game.admin_token), "the server's log holds the admin token");
	free(log);
	mail_sink_stop(&sink);
}
END_TEST

START_TEST(test_a_relay_that_is_down_delays_mails_while_the_server_keeps_answering)
{
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	register_address(&game, 1, ADDRESS);
	mail_sink_wait(&sink, 1);
	confirm(&sink, 1);
	mail_sink_stop(&sink);
	/* Seat 1's turn while the relay is down: the server answers as ever. */
	moves(&game, 0, 1);
	double until = http_clock() + 3.0;
	while (http_clock() < until) {
		char path[160];
		json_t *view = http_get_ok(&http_fixture.checked, http_game_path(&game, "", path, sizeof path),
					   game.tokens[1]);
		json_decref(view);
		http_pause(0.2);
	}
	ck_assert_int_eq(mail_sink_count(&sink), 1);
	mail_sink_run(&sink);
	mail_sink_wait(&sink, 2);
	char id[200], code[128];
	assert_turn_mail(&sink, 2, &game, id, sizeof id, code, sizeof code);
	char *log = mail_read_file(http_fixture.server.log_path);
	ck_assert_msg(!strstr(log, "ann.example"), "the server's log shows the address");
	free(log);
	mail_sink_stop(&sink);
}
END_TEST

static void expect_400(const struct http_game *game, const char *body, const char *code)
{
	char path[160];
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(game, "/mail", path, sizeof path), game->tokens[0],
		  body, NULL, &response);
	http_assert_problem(&response, 400, code);
	const char *field = json_string_value(json_object_get(response.json, "field"));
	ck_assert_msg(field && strcmp(field, "address") == 0, "%s: names address: %s", body, http_describe(&response));
	http_response_free(&response);
}

START_TEST(test_a_bad_address_is_400_naming_address_and_registers_nothing)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	char long_address[300];
	memset(long_address, 'a', 250);
	strcpy(long_address + 250, "@example.org");
	const char *bad[] = {"\"ann@example.org\\r\\nBcc: all@example.org\"",
			     "\"Ann <ann@example.org>\"",
			     "\"ann@example.org, bob@example.org\"",
			     "\"ann example@example.org\"",
			     "\"ann@localhost\"",
			     "\"ann@@example.org\"",
			     "\"@example.org\"",
			     "\"ann.@example.org\"",
			     "\"ann@-example.org\"",
			     "\"\\\"ann\\\"@example.org\"",
			     "\"ann@example.org\\n\"",
			     "\"\"",
			     "42",
			     "[\"ann@example.org\"]",
			     NULL};
	char body[400];
	for (int i = 0; bad[i]; i++) {
		snprintf(body, sizeof body, "{\"address\": %s}", bad[i]);
		expect_400(&game, body, "invalid_field");
	}
	snprintf(body, sizeof body, "{\"address\": \"%s\"}", long_address);
	expect_400(&game, body, "invalid_field");
	expect_400(&game, "{}", "missing_field");
	json_t *state = mail_state(&game, 0);
	ck_assert(json_is_false(json_object_get(state, "registered")));
	json_decref(state);
}
END_TEST

START_TEST(test_a_server_without_smtp_url_says_mail_is_disabled)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_server plain;
	static const char *const settings[] = {"WEBHOOK_WORKERS=0", "WORKERS=0", NULL};
	http_server_start(&plain, settings);
	struct http_client client;
	http_client_init(&client, plain.url, 0);
	char path[160];
	struct http_response response;
	http_call(&client, "POST", http_game_path(&game, "/mail", path, sizeof path), game.tokens[0],
		  "{\"address\": \"" ADDRESS "\"}", NULL, &response);
	http_assert_problem(&response, 503, "mail_disabled");
	http_response_free(&response);
	json_t *state = http_get_ok(&client, path, game.tokens[0]);
	ck_assert(json_is_false(json_object_get(state, "available")) &&
		  json_is_false(json_object_get(state, "registered")));
	json_decref(state);
	http_client_cleanup(&client);
	http_server_stop(&plain, 10);
}
END_TEST

/* ---- A player's address, for all the player's seats -------------------------------- */

/* A game of three with `player_id` at seat 1, the fixed start and manual dice. */
static void create_player_game(const char *player_id, struct http_game *game)
{
	char body[400];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"name\": \"Bea\"}, {\"player\": \"%s\"}, {\"name\": \"Cal\"}], "
		 "\"options\": " FIXED_START "}",
		 player_id);
	http_game_create_body(&http_fixture.checked, body, game);
}

/* The player's mail state (GET /v1/players/me/mail). New reference. */
static json_t *player_mail_state(const char *token)
{
	struct http_response response;
	http_call(&http_fixture.checked, "GET", "/v1/players/me/mail", token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "player mail state: %s", http_describe(&response));
	ck_assert_msg(!strstr(response.body, "ann.example"), "the state hides the address: %s", response.body);
	json_t *state = json_incref(response.json);
	http_response_free(&response);
	return state;
}

/* Mail n's Subject names game `game` (and no other). */
static void assert_about(const struct mail_sink *sink, int n, const struct http_game *game)
{
	char *eml, *txt, value[400], expected[200];
	mail_sink_read(sink, n, &eml, &txt);
	snprintf(expected, sizeof expected, "Your turn in Catan game %s: ", game->id);
	ck_assert_msg(mail_header(eml, "Subject", value, sizeof value) &&
			      strncmp(value, expected, strlen(expected)) == 0,
		      "mail %d is about game %s: %s", n, game->id, value);
	free(eml);
	free(txt);
}

START_TEST(test_a_player_address_mails_each_game_of_the_player_spaced_per_game_until_unsubscribed)
{
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	char ann_id[20], ann_token[64], quinn_id[20], quinn_token[64];
	http_player_create(&http_fixture.checked, "Ann", ann_id, ann_token);
	http_player_create(&http_fixture.checked, "Quinn", quinn_id, quinn_token);
	struct http_game a, b;
	create_player_game(ann_id, &a);
	create_player_game(ann_id, &b);
	struct http_response response;

	/* A bad address is 400 naming address; a seat token is no player token. */
	http_call(&http_fixture.checked, "POST", "/v1/players/me/mail", ann_token,
		  "{\"address\": \"Ann <a@example.org>\"}", NULL, &response);
	http_assert_problem(&response, 400, "invalid_field");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "address");
	http_response_free(&response);
	http_call(&http_fixture.checked, "POST", "/v1/players/me/mail", ann_token, "{}", NULL, &response);
	http_assert_problem(&response, 400, "missing_field");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "address");
	http_response_free(&response);
	http_call(&http_fixture.checked, "POST", "/v1/players/me/mail", a.tokens[1], "{\"address\": \"" ADDRESS "\"}",
		  NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	json_t *state = player_mail_state(ann_token);
	ck_assert(json_is_false(json_object_get(state, "registered")) &&
		  json_is_true(json_object_get(state, "available")));
	json_decref(state);

	http_call(&http_fixture.checked, "POST", "/v1/players/me/mail", ann_token, "{\"address\": \"" ADDRESS "\"}",
		  NULL, &response);
	ck_assert_msg(response.status == 202, "register: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "address")), MASKED);
	ck_assert_msg(!strstr(response.body, "ann.example"), "the answer hides the address: %s", response.body);
	http_response_free(&response);
	mail_sink_wait(&sink, 1);
	/* Unconfirmed: the turns of Ann's seat mail nothing. */
	moves(&a, 0, 1);
	http_pause(1.5);
	ck_assert_int_eq(mail_sink_count(&sink), 1);
	confirm(&sink, 1);
	state = player_mail_state(ann_token);
	ck_assert(json_is_true(json_object_get(state, "confirmed")));
	ck_assert_str_eq(json_string_value(json_object_get(state, "address")), MASKED);
	json_decref(state);

	/* Another player neither sees nor removes it: /me is its own (none). */
	state = player_mail_state(quinn_token);
	ck_assert(json_is_false(json_object_get(state, "registered")) && !json_object_get(state, "address"));
	json_decref(state);
	http_call(&http_fixture.checked, "DELETE", "/v1/players/me/mail", quinn_token, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 204);
	http_response_free(&response);
	state = player_mail_state(ann_token);
	ck_assert(json_is_true(json_object_get(state, "registered")));
	json_decref(state);
	/* Nor is it a webhook of Ann's. */
	http_call(&http_fixture.checked, "GET", "/v1/players/me/webhooks", ann_token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200 && json_array_size(json_object_get(response.json, "webhooks")) == 0 &&
			      !strstr(response.body, "ann.example") && !strstr(response.body, "mail"),
		      "player webhooks: %s", http_describe(&response));
	http_response_free(&response);

	/* Ann's next turn in game a (seat 1, steps 6k + 2 on): one mail about a; then her
	 * turn in game b: one mail about b, without waiting for a's interval. */
	moves(&a, 2, 7);
	mail_sink_wait(&sink, 2);
	char id_a[200], id_b[200], code[128];
	assert_turn_mail(&sink, 2, &a, id_a, sizeof id_a, code, sizeof code);
	assert_about(&sink, 2, &a);
	moves(&b, 0, 1);
	mail_sink_wait(&sink, 3);
	assert_turn_mail(&sink, 3, &b, id_b, sizeof id_b, code, sizeof code);
	assert_about(&sink, 3, &b);
	ck_assert_msg(strcmp(id_a, id_b) != 0, "Message-IDs differ: %s", id_a);
	double gap = mail_sink_received_at(&sink, 3) - mail_sink_received_at(&sink, 2);
	ck_assert_msg(gap < INTERVAL_S - 0.5, "game b's mail waited %.2f s for game a's interval", gap);

	/* Ann's next turn in a comes within a's interval: mailed once it is over, once. */
	moves(&a, 8, 13);
	mail_sink_wait(&sink, 4);
	http_pause(1.0);
	ck_assert_int_eq(mail_sink_count(&sink), 4);
	assert_turn_mail(&sink, 4, &a, id_a, sizeof id_a, code, sizeof code);
	assert_about(&sink, 4, &a);
	gap = mail_sink_received_at(&sink, 4) - mail_sink_received_at(&sink, 2);
	ck_assert_msg(gap >= INTERVAL_S - 0.3, "two mails about a %.2f s apart (MAIL_MIN_INTERVAL_S=%d)", gap,
		      INTERVAL_S);

	/* One click stops the mails of both games. */
	char path[200];
	snprintf(path, sizeof path, "/v1/mail/unsubscribe?code=%s", code);
	static const char *const form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
	http_call(&http_fixture.checked, "POST", path, NULL, "List-Unsubscribe=One-Click", form, &response);
	ck_assert_msg(response.status == 200, "one-click: %s", http_describe(&response));
	http_response_free(&response);
	state = player_mail_state(ann_token);
	ck_assert(json_is_false(json_object_get(state, "registered")));
	json_decref(state);
	moves(&a, 14, 19);
	moves(&b, 2, 7);
	http_pause(INTERVAL_S + 1.5);
	ck_assert_int_eq(mail_sink_count(&sink), 4);

	/* Registered again and removed by its owner: DELETE answers 204 and GET says none. */
	http_call(&http_fixture.checked, "POST", "/v1/players/me/mail", ann_token, "{\"address\": \"" ADDRESS "\"}",
		  NULL, &response);
	ck_assert_int_eq(response.status, 202);
	http_response_free(&response);
	http_call(&http_fixture.checked, "DELETE", "/v1/players/me/mail", ann_token, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 204);
	http_response_free(&response);
	state = player_mail_state(ann_token);
	ck_assert(json_is_false(json_object_get(state, "registered")));
	json_decref(state);
	char *log = mail_read_file(http_fixture.server.log_path);
	ck_assert_msg(!strstr(log, "ann.example"), "the server's log shows the address");
	free(log);
	mail_sink_stop(&sink);
}
END_TEST

/* A seat registration takes its game from the player's: one mail per turn per address. */
START_TEST(test_a_game_whose_seat_has_its_own_address_is_left_to_it_by_the_player_address)
{
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	char ann_id[20], ann_token[64];
	http_player_create(&http_fixture.checked, "Ann", ann_id, ann_token);
	struct http_game a;
	create_player_game(ann_id, &a);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/players/me/mail", ann_token, "{\"address\": \"" ADDRESS "\"}",
		  NULL, &response);
	ck_assert_int_eq(response.status, 202);
	http_response_free(&response);
	mail_sink_wait(&sink, 1);
	confirm(&sink, 1);
	register_address(&a, 1, ADDRESS);
	mail_sink_wait(&sink, 2);
	confirm(&sink, 2);
	moves(&a, 0, 1);
	mail_sink_wait(&sink, 3);
	http_pause(INTERVAL_S + 1.5);
	ck_assert_int_eq(mail_sink_count(&sink), 3);
	assert_about(&sink, 3, &a);
	mail_sink_stop(&sink);
}
END_TEST

/* ---- Budgets (issue 20, item 5) ------------------------------------------------------ */

#define BUDGET_PER_ADDRESS 2
#define BUDGET_PER_REGISTRANT 3

/* POST `body` to `path` with `token` through `client`: the response (caller frees). */
static void post_address(struct http_client *client, const char *path, const char *token, const char *address,
			 struct http_response *response)
{
	char body[400];
	snprintf(body, sizeof body, "{\"address\": \"%s\"}", address);
	http_call(client, "POST", path, token, body, NULL, response);
}

static void expect_registered(struct http_client *client, const char *path, const char *token, const char *address)
{
	struct http_response response;
	post_address(client, path, token, address, &response);
	ck_assert_msg(response.status == 202, "%s registers: %s", address, http_describe(&response));
	http_response_free(&response);
}

/* 429 mail_quota with a Retry-After of 1 s .. the window. */
static void expect_over_budget(struct http_client *client, const char *path, const char *token, const char *address)
{
	struct http_response response;
	post_address(client, path, token, address, &response);
	http_assert_problem(&response, 429, "mail_quota");
	char value[32];
	ck_assert_msg(http_response_header(&response, "Retry-After", value, sizeof value), "Retry-After: %s",
		      http_describe(&response));
	long seconds = strtol(value, NULL, 10);
	ck_assert_msg(seconds >= 1 && seconds <= 3600, "Retry-After %s within the window", value);
	ck_assert_msg(!strstr(response.body, address), "the answer hides the address: %s", response.body);
	http_response_free(&response);
}

/* The masked address a seat's (or player's) GET .../mail shows, "" when none. */
static void masked_at(struct http_client *client, const char *path, const char *token, char *out, size_t size)
{
	json_t *state = http_get_ok(client, path, token);
	const char *masked = json_string_value(json_object_get(state, "address"));
	snprintf(out, size, "%s", json_is_true(json_object_get(state, "registered")) && masked ? masked : "");
	json_decref(state);
}

/* How many of the sink's mails went to `address`. */
static int mails_to(const struct mail_sink *sink, const char *address)
{
	int count = 0, total = mail_sink_count(sink);
	char needle[300];
	snprintf(needle, sizeof needle, "rcpt_to: %s\n", address);
	for (int n = 1; n <= total; n++) {
		char *eml, *txt;
		mail_sink_read(sink, n, &eml, &txt);
		count += strstr(txt, needle) != NULL;
		free(eml);
		free(txt);
	}
	return count;
}

START_TEST(test_confirmation_mails_past_the_address_or_registrant_budget_are_429_and_send_nothing)
{
	/* A server of its own (the suite's has no budgets: its tests register one address
	 * again and again), through a Prism of its own, so the 429 is checked against the
	 * contract. */
	static char settings_storage[6][64];
	snprintf(settings_storage[0], sizeof settings_storage[0], "%s", smtp_setting);
	snprintf(settings_storage[1], sizeof settings_storage[1], "MAIL_CONFIRMS_PER_ADDRESS=%d", BUDGET_PER_ADDRESS);
	snprintf(settings_storage[2], sizeof settings_storage[2], "MAIL_CONFIRMS_PER_REGISTRANT=%d",
		 BUDGET_PER_REGISTRANT);
	snprintf(settings_storage[3], sizeof settings_storage[3], "MAIL_CONFIRM_WINDOW_S=3600");
	snprintf(settings_storage[4], sizeof settings_storage[4], "MAIL_FROM=catan@example.org");
	const char *settings[] = {settings_storage[0], settings_storage[1], settings_storage[2],
				  settings_storage[3], settings_storage[4], NULL};
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	struct http_server server;
	http_server_start(&server, settings);
	struct http_proxy proxy;
	http_proxy_start(&proxy, server.url, 1);
	struct http_client client;
	http_client_init(&client, proxy.url, 1);
	struct http_game game;
	http_game_create(&client, 3, FIXED_START, &game);
	char seat_path[160], masked[300];
	http_game_path(&game, "/mail", seat_path, sizeof seat_path);
	/* Addresses of this run only: the budgets are counted in the database, which outlives
	 * a test program. */
	unsigned long long run = (unsigned long long)http_random64();
	char victim[128], victim_alias[128], first[128], second[128], third[128];
	snprintf(victim, sizeof victim, "v%016llx@example.org", run);
	snprintf(victim_alias, sizeof victim_alias, "V%016llx+again@Example.ORG", run);
	snprintf(first, sizeof first, "f%016llx@example.org", run);
	snprintf(second, sizeof second, "s%016llx@example.org", run);
	snprintf(third, sizeof third, "t%016llx@example.org", run);

	/* The address's budget: two confirmations, from whichever seats or players. */
	expect_registered(&client, seat_path, game.tokens[1], victim);
	expect_registered(&client, seat_path, game.tokens[2], victim);
	char player_id[32], player_token[64];
	http_player_create(&client, "Mallory", player_id, player_token);
	expect_over_budget(&client, "/v1/players/me/mail", player_token, victim);
	/* The same mailbox however it is written (case, a +tag). */
	expect_over_budget(&client, "/v1/players/me/mail", player_token, victim_alias);
	masked_at(&client, "/v1/players/me/mail", player_token, masked, sizeof masked);
	ck_assert_msg(masked[0] == '\0', "a refused registration writes nothing: %s", masked);

	/* The registrant's budget: seat 0 may cause three, to any addresses (each mail waited
	 * for: a registration replaced before its mail went out takes its mail with it). */
	const char *seat0[] = {first, second, first};
	for (int i = 0; i < 3; i++) {
		int before = mails_to(&sink, seat0[i]);
		expect_registered(&client, seat_path, game.tokens[0], seat0[i]);
		double until = http_clock() + MAIL_TIMEOUT_S * http_slowdown();
		while (mails_to(&sink, seat0[i]) == before) {
			ck_assert_msg(http_clock() < until, "the confirmation mail to %s did not arrive", seat0[i]);
			http_pause(0.1);
		}
	}
	expect_over_budget(&client, seat_path, game.tokens[0], third);
	masked_at(&client, seat_path, game.tokens[0], masked, sizeof masked);
	ck_assert_msg(strncmp(masked, "f***@", 5) == 0, "the registration before the refused one stays: %s", masked);

	/* The mails: the five registrations that were answered 202, nothing for the refused.
	 * (Counted by address: the suite's own server shares the sink's port.) */
	const char *mine[] = {victim, victim_alias, first, second, third, NULL};
	double deadline = http_clock() + MAIL_TIMEOUT_S * http_slowdown();
	for (;;) {
		int arrived = 0;
		for (int i = 0; mine[i]; i++)
			arrived += mails_to(&sink, mine[i]);
		if (arrived >= 5)
			break;
		ck_assert_msg(http_clock() < deadline, "%d of 5 confirmation mails arrived", arrived);
		http_pause(0.1);
	}
	http_pause(1.5 * http_slowdown()); /* long enough for a stray sixth to arrive */
	ck_assert_int_eq(mails_to(&sink, victim), BUDGET_PER_ADDRESS);
	ck_assert_int_eq(mails_to(&sink, victim_alias), 0);
	ck_assert_int_eq(mails_to(&sink, first), 2);
	ck_assert_int_eq(mails_to(&sink, second), 1);
	ck_assert_int_eq(mails_to(&sink, third), 0);
	printf("mail budgets: %d confirmations to one address, %d from one seat; the next refused with 429\n",
	       BUDGET_PER_ADDRESS, BUDGET_PER_REGISTRANT);
	http_client_cleanup(&client);
	http_proxy_stop(&proxy);
	http_server_stop(&server, 30);
	mail_sink_stop(&sink);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_mail");
	TCase *mail = tcase_create("mail");
	sink_port = mail_sink_free_port();
	snprintf(smtp_setting, sizeof smtp_setting, "SMTP_URL=smtp://127.0.0.1:%d", sink_port);
	/* No confirmation-mail budgets: these tests register one address again and again (the
	 * budget test runs a server of its own). */
	static const char *settings[] = {smtp_setting,
					 "MAIL_FROM=catan@example.org",
					 "MAIL_MIN_INTERVAL_S=2",
					 "MAIL_CONFIRMS_PER_ADDRESS=0",
					 "MAIL_CONFIRMS_PER_REGISTRANT=0",
					 NULL};
	http_fixture_add(mail, HTTP_FIXTURE_PRISM, settings);
	tcase_set_timeout(mail, 240);
	tcase_add_test(mail, test_a_bad_address_is_400_naming_address_and_registers_nothing);
	tcase_add_test(mail, test_a_server_without_smtp_url_says_mail_is_disabled);
	tcase_add_test(
		mail,
		test_confirmation_first_then_one_mail_per_turn_with_headers_spaced_by_the_interval_until_one_click_unsubscribe);
	tcase_add_test(mail, test_a_relay_that_is_down_delays_mails_while_the_server_keeps_answering);
	tcase_add_test(mail, test_a_mail_lists_every_move_since_the_readers_last_turn_by_name_and_holds_no_token);
	tcase_add_test(mail, test_a_player_address_mails_each_game_of_the_player_spaced_per_game_until_unsubscribed);
	tcase_add_test(mail, test_a_game_whose_seat_has_its_own_address_is_left_to_it_by_the_player_address);
	tcase_add_test(mail, test_confirmation_mails_past_the_address_or_registrant_budget_are_429_and_send_nothing);
	suite_add_tcase(suite, mail);
	return suite;
}
