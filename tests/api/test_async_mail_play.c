/*
 * test_async_mail_play.c - play by mail end to end (issue 29): one seat of a game against
 * three of the server's bots is played through a whole game by replies to its mails, each
 * reply handed to catan-mail-in as Postfix's pipe transport would hand it (the message on
 * stdin, the envelope recipient as its argument: the whole contract between Postfix and
 * this project), so that its exit statuses can be checked one by one; the seat and its
 * game are tests/api/mail_player.c's. test_async_mail_postfix.c plays the same game
 * through a real Postfix. The server mails through a local SMTP sink (tests/api/smtp_sink.py); catan-mail-in
 * answers through it too.
 *
 * Checked on the way: every turn mail carries a reply address turn+<code>@MAIL_REPLY_DOMAIN
 * and the seat's moves as commands, and no token; every reply is answered once, to the
 * registered address, saying what was done, with the board picture; the game ends; every
 * move of the seat after the first turn is in the log with origin "mail" (as the contract
 * says, through Prism); the exported game imports again (it replays). And what must change
 * nothing: a forged address (one character changed) is not answered; the same Message-ID
 * again is not answered again; an auto-reply and a bounce are not answered; a reply to an
 * old turn's address is answered "moved on" and moves nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/api/mail_player.h"
#include "tests/api/mail_sink.h"
#include "tests/check_main.h"

static int sink_port;

/* catan-mail-in, as Postfix's pipe runs it: `message` on stdin, `recipient` as argument.
 * Its exit status. */
static int mail_in(const char *message, const char *recipient)
{
	char program[600];
	mail_player_program(program, sizeof program);
	char path[] = "/tmp/catan-reply-XXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	ck_assert(write(fd, message, strlen(message)) == (ssize_t)strlen(message));
	lseek(fd, 0, SEEK_SET);
	const char *const *environment = mail_player_environment();
	pid_t pid = fork();
	ck_assert(pid >= 0);
	if (pid == 0) {
		dup2(fd, 0);
		for (const char *const *setting = environment; *setting; setting++)
			putenv((char *)*setting);
		execl(program, program, recipient, (char *)NULL);
		_exit(127);
	}
	int status;
	ck_assert(waitpid(pid, &status, 0) == pid);
	close(fd);
	unlink(path);
	ck_assert_msg(WIFEXITED(status), "catan-mail-in exited");
	return WEXITSTATUS(status);
}

/* The play's delivery: the pipe's hand-over, which deals with the reply (status 0). */
static void deliver(const char *message, const char *recipient)
{
	ck_assert_int_eq(mail_in(message, recipient), 0);
}

/* Replies that must change nothing, and not be answered (or once). */
static void check_refusals(const struct mail_sink *sink, const struct http_game *game, const char *reply_to,
			   const char *old_reply_to)
{
	long before = mail_player_game_version(game);
	int mails = mail_sink_count(sink);
	char forged[300];
	snprintf(forged, sizeof forged, "%s", reply_to);
	char *at = forged + strlen("turn+") + 10;
	*at = *at == 'a' ? 'b' : 'a';
	char *message = mail_player_reply(forged, "<forged@example.org>", "end", "", "");
	ck_assert_int_eq(mail_in(message, forged), 0);
	free(message);
	/* Tampered in the MAC's part, the registration and game left as they were. */
	snprintf(forged, sizeof forged, "%s", reply_to);
	at = forged + strlen("turn+") + 50;
	*at = *at == 'a' ? 'b' : 'a';
	message = mail_player_reply(forged, "<tampered@example.org>", "end", "", "");
	ck_assert_int_eq(mail_in(message, forged), 0);
	free(message);
	message = mail_player_reply(reply_to, "<auto@example.org>", "end", "", "Auto-Submitted: auto-replied\r\n");
	ck_assert_int_eq(mail_in(message, reply_to), 0);
	free(message);
	message = mail_player_reply(reply_to, "<bulk@example.org>", "end", "", "Precedence: bulk\r\n");
	ck_assert_int_eq(mail_in(message, reply_to), 0);
	free(message);
	char bounce[1200];
	snprintf(
		bounce, sizeof bounce,
		"From: MAILER-DAEMON@example.org\r\nTo: %s\r\nMessage-ID: <bounce@example.org>\r\nMIME-Version: 1.0\r\n"
		"Content-Type: multipart/report; report-type=delivery-status; boundary=\"b\"\r\n\r\n--b\r\n"
		"Content-Type: text/plain\r\n\r\nend\r\n--b--\r\n",
		reply_to);
	ck_assert_int_eq(mail_in(bounce, reply_to), 0);
	/* An old turn's address: answered once, "moved on", nothing moved. */
	message = mail_player_reply(old_reply_to, "<old@example.org>", "end", "", "");
	ck_assert_int_eq(mail_in(message, old_reply_to), 0);
	int answer = mail_player_wait_answer(sink, "<old@example.org>");
	mail_player_consume(answer);
	char *eml, *txt = mail_player_text(sink, answer, &eml);
	ck_assert_msg(strstr(txt, "moved on"), "an old turn's reply says the game moved on: %s", txt);
	free(eml);
	free(txt);
	ck_assert_int_eq(mail_in(message, old_reply_to), 0); /* the same Message-ID again */
	free(message);
	http_pause(0.5);
	ck_assert_int_eq(mail_sink_count(sink), mails + 1);
	ck_assert_int_eq(mail_player_game_version(game), before);
}

START_TEST(test_one_seat_plays_a_whole_game_by_mail_against_three_bots)
{
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	struct mail_play play = {&sink, deliver, check_refusals, 0, 0, 0, 0};
	mail_player_play_game(&play);
	mail_sink_stop(&sink);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_mail_play");
	TCase *play = tcase_create("play");
	sink_port = mail_sink_free_port();
	http_fixture_add(play, HTTP_FIXTURE_PRISM, mail_player_settings(sink_port));
	tcase_set_timeout(play, 900);
	tcase_add_test(play, test_one_seat_plays_a_whole_game_by_mail_against_three_bots);
	suite_add_tcase(suite, play);
	return suite;
}
