/*
 * test_async_mail_postfix.c - play by mail through a real Postfix (issue 29): the game of
 * test_async_mail_play.c (seat 0 against three of the server's bots, played to its end by
 * replies to its mails: tests/api/mail_player.c), but every reply is sent by SMTP (libcurl)
 * to a private Postfix on 127.0.0.1 (tests/api/postfix_local.sh), whose transport map hands
 * the reply domain to the README's `catan` pipe transport, which runs catan-mail-in as
 * nobody. The server and catan-mail-in mail through the test's SMTP sink
 * (tests/api/smtp_sink.py). A whole game: it takes about as long as with the pipe's
 * hand-over alone (Postfix adds a few milliseconds to a reply).
 *
 * Checked on the way, through Postfix: a reply to a forged address (one character of the
 * code changed) is delivered (catan-mail-in exits 0) but changes nothing and is not
 * answered; an auto-reply (Auto-Submitted: auto-replied) likewise; and one reply sent while
 * the relay is down makes catan-mail-in exit 75 (it cannot answer), Postfix defers it and
 * delivers it again once the relay is back: the move is made once and answered once.
 *
 * The program runs itself under tests/api/postfix_local.sh (which starts the private
 * Postfix, and stops and removes it when the program ends); that script exits 77 (skipped)
 * where Postfix cannot run: not installed, or not root.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/api/mail_player.h"
#include "tests/api/mail_sink.h"
#include "tests/check_main.h"

/* The reply sent while the relay is down (the n-th of the game). */
#define RELAY_DOWN_REPLY 6

static int sink_port;
static struct mail_sink *sink_of_play; /* for the relay-down reply */
static int replies;
static char relay_down_message_id[128];

/* ---- The private Postfix ------------------------------------------------------------ */

/* A value single-quoted for sh into out. */
static void shell_quote(FILE *out, const char *value)
{
	fputc('\'', out);
	for (const char *c = value; *c; c++)
		if (*c == '\'')
			fputs("'\\''", out);
		else
			fputc(*c, out);
	fputc('\'', out);
}

/* The pipe's environment, DIR/mail-in.env (postfix_local.sh's wrapper reads it): the
 * server's database, the sink, the sanitizers' options when set. */
static void write_environment(void)
{
	char path[600];
	snprintf(path, sizeof path, "%s/mail-in.env", getenv("POSTFIX_LOCAL_DIR"));
	FILE *out = fopen(path, "w");
	ck_assert_msg(out != NULL, "write %s", path);
	static const char *const passed[] = {"DATABASE_URL", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", NULL};
	for (const char *const *name = passed; *name; name++) {
		if (!getenv(*name))
			continue;
		fprintf(out, "%s=", *name);
		shell_quote(out, getenv(*name));
		fputc('\n', out);
	}
	for (const char *const *setting = mail_player_environment(); *setting; setting++) {
		const char *equals = strchr(*setting, '=');
		fprintf(out, "%.*s", (int)(equals - *setting + 1), *setting);
		shell_quote(out, equals + 1);
		fputc('\n', out);
	}
	ck_assert(fclose(out) == 0);
}

struct upload {
	const char *data;
	size_t left;
};

static size_t upload_read(char *buffer, size_t size, size_t count, void *context)
{
	struct upload *upload = context;
	size_t n = size * count < upload->left ? size * count : upload->left;
	memcpy(buffer, upload->data, n);
	upload->data += n;
	upload->left -= n;
	return n;
}

/* `message` from MAIL_PLAYER_ADDRESS to `recipient`, by SMTP to the private Postfix; Postfix
 * has queued it when this returns. */
static void smtp_send(const char *message, const char *recipient)
{
	char url[64];
	snprintf(url, sizeof url, "smtp://127.0.0.1:%s", getenv("POSTFIX_LOCAL_PORT"));
	CURL *curl = curl_easy_init();
	ck_assert(curl != NULL);
	struct curl_slist *recipients = curl_slist_append(NULL, recipient);
	struct upload upload = {message, strlen(message)};
	curl_easy_setopt(curl, CURLOPT_URL, url);
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, "<" MAIL_PLAYER_ADDRESS ">");
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, upload_read);
	curl_easy_setopt(curl, CURLOPT_READDATA, &upload);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT, 30L);
	CURLcode result = curl_easy_perform(curl);
	curl_slist_free_all(recipients);
	curl_easy_cleanup(curl);
	ck_assert_msg(result == CURLE_OK, "Postfix takes the reply: %s", curl_easy_strerror(result));
}

/* Whether Postfix's log has a delivery of message `message_id` by the catan pipe with
 * `status` ("sent": catan-mail-in exited 0; "deferred": 75, to be tried again). */
static int postfix_logged(const char *message_id, const char *status)
{
	char path[600], needle[300];
	snprintf(path, sizeof path, "%s/maillog", getenv("POSTFIX_LOCAL_DIR"));
	char *log = mail_read_file(path);
	/* "... postfix/cleanup[N]: QUEUEID: message-id=<...>" names the queue id of the message. */
	snprintf(needle, sizeof needle, ": message-id=%s\n", message_id);
	const char *at = strstr(log, needle);
	int found = 0;
	if (at) {
		const char *id = at;
		while (id > log && id[-1] != ' ')
			id--;
		snprintf(needle, sizeof needle, "%.*s: to=<", (int)(at - id), id);
		char wanted[64];
		snprintf(wanted, sizeof wanted, "relay=catan, ");
		char state[32];
		snprintf(state, sizeof state, "status=%s ", status);
		for (const char *line = strstr(log, needle); line && !found; line = strstr(line + 1, needle)) {
			const char *end = strchr(line, '\n');
			size_t length = end ? (size_t)(end - line) : strlen(line);
			char copy[1024];
			snprintf(copy, sizeof copy, "%.*s", (int)length, line);
			found = strstr(copy, wanted) && strstr(copy, state);
		}
	}
	free(log);
	return found;
}

static void postfix_wait(const char *message_id, const char *status)
{
	double deadline = http_clock() + MAIL_PLAYER_TIMEOUT_S * http_slowdown();
	while (!postfix_logged(message_id, status)) {
		ck_assert_msg(http_clock() < deadline, "Postfix logs %s as %s", message_id, status);
		http_pause(0.02);
	}
}

/* ---- The play ----------------------------------------------------------------------- */

/* The play's delivery: by SMTP to Postfix. One reply goes while the relay is down:
 * catan-mail-in cannot answer it, exits 75, and Postfix defers it; the relay comes back and
 * Postfix's next try delivers it (the answer is waited for by the play). */
static void deliver(const char *message, const char *recipient)
{
	if (++replies != RELAY_DOWN_REPLY) {
		smtp_send(message, recipient);
		return;
	}
	ck_assert(mail_header(message, "Message-ID", relay_down_message_id, sizeof relay_down_message_id));
	mail_sink_stop(sink_of_play);
	smtp_send(message, recipient);
	postfix_wait(relay_down_message_id, "deferred");
	mail_sink_run(sink_of_play);
}

/* How many mails of the sink answer `message_id`. */
static int answers_to(const struct mail_sink *sink, const char *message_id)
{
	int count = mail_sink_count(sink), found = 0;
	for (int n = 1; n <= count; n++) {
		char *eml = mail_sink_file(sink, n, "eml"), value[300];
		found += mail_header(eml, "In-Reply-To", value, sizeof value) && strcmp(value, message_id) == 0;
		free(eml);
	}
	return found;
}

/* Through Postfix, a forged address and an auto-reply: delivered, nothing changes, no
 * answer to either. */
static void check_refusals(const struct mail_sink *sink, const struct http_game *game, const char *reply_to,
			   const char *old_reply_to)
{
	(void)old_reply_to;
	long before = mail_player_game_version(game);
	char forged[300];
	snprintf(forged, sizeof forged, "%s", reply_to);
	char *at = forged + strlen("turn+") + 10;
	*at = *at == 'a' ? 'b' : 'a';
	char *message = mail_player_reply(forged, "<forged@example.org>", "end", "", "");
	smtp_send(message, forged);
	free(message);
	message = mail_player_reply(reply_to, "<auto@example.org>", "end", "", "Auto-Submitted: auto-replied\r\n");
	smtp_send(message, reply_to);
	free(message);
	postfix_wait("<forged@example.org>", "sent");
	postfix_wait("<auto@example.org>", "sent");
	http_pause(0.5);
	/* Other mail may come meanwhile (a turn mail the outbox sends late): none answers these. */
	ck_assert_int_eq(answers_to(sink, "<forged@example.org>"), 0);
	ck_assert_int_eq(answers_to(sink, "<auto@example.org>"), 0);
	/* The bots may play on meanwhile (the wait the turn mail was for can end by a timer),
	 * but no move came by mail: the seat has sent nothing else since. */
	json_t *log = http_game_log(&http_fixture.direct, game, NULL, before);
	size_t index;
	json_t *entry;
	json_array_foreach(log, index, entry)
	{
		const char *origin = json_string_value(json_object_get(entry, "origin"));
		ck_assert_msg(!origin || strcmp(origin, "mail") != 0, "version %ld came by mail",
			      before + 1 + (long)index);
	}
	json_decref(log);
}

START_TEST(test_one_seat_plays_a_whole_game_by_mail_through_postfix)
{
	struct mail_sink sink;
	mail_sink_start(&sink, sink_port);
	sink_of_play = &sink;
	write_environment();
	struct mail_play play = {&sink, deliver, check_refusals, 0, 0, 0, 0};
	mail_player_play_game(&play);
	ck_assert_msg(replies >= RELAY_DOWN_REPLY, "a reply went while the relay was down (%d replies)", replies);
	ck_assert_msg(postfix_logged(relay_down_message_id, "sent"), "Postfix delivered %s again",
		      relay_down_message_id);
	ck_assert_int_eq(answers_to(&sink, relay_down_message_id), 1);
	mail_sink_stop(&sink);
}
END_TEST

Suite *test_suite(void)
{
	if (!getenv("POSTFIX_LOCAL_DIR")) {
		/* This program again, under its private Postfix. */
		char program[600], self[600];
		mail_player_program(program, sizeof program);
		ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
		if (length <= 0)
			abort();
		self[length] = '\0';
		execl("/bin/sh", "sh", "tests/api/postfix_local.sh", MAIL_PLAYER_DOMAIN, program, self, (char *)NULL);
		perror("tests/api/postfix_local.sh");
		exit(EXIT_FAILURE);
	}
	Suite *suite = suite_create("async_mail_postfix");
	TCase *play = tcase_create("play");
	sink_port = mail_sink_free_port();
	http_fixture_add(play, HTTP_FIXTURE_PRISM, mail_player_settings(sink_port));
	tcase_set_timeout(play, 900);
	tcase_add_test(play, test_one_seat_plays_a_whole_game_by_mail_through_postfix);
	suite_add_tcase(suite, play);
	return suite;
}
