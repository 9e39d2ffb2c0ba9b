/*
 * mail_player.h - a seat played by mail, for the play-by-mail tests (issue 29): replies
 * written as a person's mail client writes them, what the seat plays from a mail's listing,
 * the answers found in the mail sink, and a whole game played that way by seat 0 against
 * three of the server's bots. How a reply reaches catan-mail-in is the caller's: handed to
 * it as Postfix's pipe transport would (test_async_mail_play.c), or sent by SMTP to a real
 * Postfix that pipes it there (test_async_mail_postfix.c).
 *
 * Every helper fails the test with Check's ck_assert_msg. Strings returned are the caller's
 * to free; the rest is borrowed.
 */
#ifndef CATAN_TESTS_API_MAIL_PLAYER_H
#define CATAN_TESTS_API_MAIL_PLAYER_H

#include "tests/api/http_support.h"
#include "tests/api/mail_sink.h"

#define MAIL_PLAYER_ADDRESS "ann@example.org"
#define MAIL_PLAYER_DOMAIN "play.catan.test"
#define MAIL_PLAYER_FROM "catan@example.org"
/* How long an answer to a reply may take, before http_slowdown(). */
#define MAIL_PLAYER_TIMEOUT_S 40

/* The server's settings of these tests (the relay: the sink on sink_port; no pause between
 * mails; the reply domain; no confirmation limits), NULL-terminated, for http_fixture_add().
 * Call once, while the suite is made. */
const char **mail_player_settings(int sink_port);

/* The environment catan-mail-in needs beside DATABASE_URL, the server's: "NAME=value"
 * strings, NULL-terminated (PUBLIC_URL: the fixture's server, so call it in a test). */
const char *const *mail_player_environment(void);

/* The catan-mail-in of the build (beside CATAN_SERVER, default build/) into out. */
void mail_player_program(char *out, size_t size);

/* Mail n of the sink is read: the searches below pass it over. */
void mail_player_consume(int n);

/* The answer to reply `message_id` (its In-Reply-To): its mail number (waits for it,
 * MAIL_PLAYER_TIMEOUT_S). */
int mail_player_wait_answer(const struct mail_sink *sink, const char *message_id);

/* A reply to a mail from MAIL_PLAYER_ADDRESS to `to`: `lines` above the quoted mail, Gmail's
 * way. `extra` headers (CRLF-terminated) or "". */
char *mail_player_reply(const char *to, const char *message_id, const char *lines, const char *quoted,
			const char *extra);

/* The text part of mail n, CRLF as LF; its raw message into *eml (the caller's too). */
char *mail_player_text(const struct mail_sink *sink, int n, char **eml);

/* The version of the game now (seat 0's view). */
long mail_player_game_version(const struct http_game *game);

struct mail_play {
	struct mail_sink *sink; /* started, its port the one of mail_player_settings() */
	/* Carries reply `message` for envelope recipient `recipient` to catan-mail-in; returns
	 * when it was handed over (the answer is waited for in the sink). */
	void (*deliver)(const char *message, const char *recipient);
	/* Called once, at seat 0's third turn mail, with its reply address and the one of the
	 * turn before (old by now): replies that must change nothing. */
	void (*check_refusals)(const struct mail_sink *sink, const struct http_game *game, const char *reply_to,
			       const char *old_reply_to);
	/* What happened, for the test's summary. */
	int turns, answers, stale, by_mail;
};

/* A game of seat 0 (MAIL_PLAYER_ADDRESS, registered and confirmed) against three bots, its
 * first turn over HTTP, then played to its end by replies to its mails through
 * play->deliver. Checks that every turn mail has a reply address and no token, that every
 * reply is answered with what was done, that the game ends, that seat 0's later moves are
 * all of origin mail in the log, and that the export imports (the game replays). */
void mail_player_play_game(struct mail_play *play);

#endif
