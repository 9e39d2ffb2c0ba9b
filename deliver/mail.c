/*
 * mail.c - the mail format: a seat's "your turn" mails, when they are due, what they say,
 * and sending them over SMTP with libcurl (a row of deliver/deliver.c's table; the parts of
 * a mail are deliver/mail_message.c's).
 *
 * Who gets what. A seat registers an address (api/handlers_mail.c); the first and only
 * mail it gets before confirming is the confirmation, with a link. After that it gets one
 * mail when the game starts waiting for it: at most one per turn (a turn here is the turn
 * number, the setup step and the seats waited for, so rolling the dice and then building
 * is one turn, while a discard asked in someone else's turn is another), never one for a
 * change the seat made itself, and never two within MAIL_MIN_INTERVAL_S. The answer to a
 * reply by mail (cmd/catan_mail_in.c) counts as the mail of the turn it describes, so no
 * turn mail repeats it; an answer that leaves the seat nothing to do names no turn, so the
 * next time the game waits for the seat it is mailed, even within the same turn (the
 * robber after the others' discards); answers do not count for the interval. When a mail is
 * due within the interval, the outbox row is simply due later; when it comes due, the mail
 * says what is true then (still your turn: one mail; not any more: nothing). The game's end
 * gets one last mail.
 *
 * What a mail holds: the subject "Your turn in Catan game <id>: <what it waits for>"
 * (channels_expectation(), the chat messages' words), a plain-text and an HTML part with
 * the summary (deliver/summary.h: whose turn, what is expected), who the reader is (the
 * seat's name and its number counted from 0, as the API counts seats), EVERY move since
 * the end of the reader's last turn as the seat sees them, one a line, with places named
 * as GET /board names them (deliver_events_since_turn(): at most DELIVER_SINCE_MAX, the
 * mail says so when more came), the board picture of that version as a link (the PNG URL
 * from PUBLIC_URL: mail clients block remote images by default and an attachment would
 * cost every mail ~100 KB), and a link to the game in the web client WITHOUT the seat's
 * token (PUBLIC_URL/#game=<id>: the web client opens the seat link that browser kept when
 * the player joined, web/src/main.ts). The token is the seat: anyone who reads it may play
 * for the seat. Mails are forwarded, kept on servers, read on shared screens and leak in
 * ways a private link sent once does not, so no token of any kind (seat, player, admin,
 * invite) is ever in a mail; the only codes are the registration's own unsubscribe (and,
 * in the confirmation, confirm) codes below, which can do nothing but that, and, with
 * MAIL_REPLY_DOMAIN set, the turn mail's reply address (Reply-To turn+<code>@domain,
 * deliver/mail_reply.h), which moves for this seat in this turn only, until it expires, and
 * dies with the registration; the mail then lists the seat's moves as commands
 * (game/mail_commands.h) that a reply may hold (cmd/catan_mail_in.c reads it). The last
 * mail gives the winner and every seat's final points, and no reply address.
 *
 * Headers: From (MAIL_FROM), To, Subject, Date (RFC 5322, UTC), Message-ID (unique: the
 * outbox row, the version and random bits), MIME-Version, List-Unsubscribe with the
 * one-click link, and List-Unsubscribe-Post: List-Unsubscribe=One-Click (RFC 8058). Nothing
 * a client wrote goes into a header: the subject holds the game id and fixed words, the
 * address is checked to be one plain addr-spec (no CR, LF, spaces, comments or quotes), and
 * the parts are base64, so no text of a player can end a header or a part.
 *
 * The links' codes are HMAC-SHA256 of the purpose ("confirm", "unsubscribe") under the
 * registration's random 32-byte secret, after the registration's id: they are never
 * stored, cannot be guessed, and die with the registration (removing it, or registering
 * another address, which makes a new secret).
 *
 * A player's registration (POST /v1/players/me/mail) mails every game the player sits in:
 * the delivery claim resolves the player's seat of the outbox row's game, and the mail is
 * about that game and seat, exactly as a registration of that seat would be, with the
 * interval and "one per turn" kept per game (mail_games, mailing_game_state()). One
 * address per turn change: a game whose seat (the player's) has a confirmed registration of
 * its own is left to that registration, and the player's skips it. Its confirmation mail is
 * about no game (outbox row of game 0). One limit: the outbox hands out a registration's
 * rows oldest first, one at a time, so a turn held back by one game's interval holds back
 * the player's mails of other games behind it too (by at most that interval).
 *
 * Failures: no answer from the relay, or a refusal, is logged (coarsely: never the
 * address, nor the relay's words, which may quote it) and retried with every row's
 * backoff (1 s doubling to an hour): moves never wait for mail, and mails go out when the
 * relay is back. Relay trouble is the server's, not the registrant's: it never disables
 * a registration.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/xalloc.h"
#include "deliver/channels.h"
#include "deliver/deliver_internal.h"
#include "deliver/mail_message.h"
#include "deliver/mail_reply.h"
#include "deliver/mail_smtp.h"
#include "deliver/summary.h"
#include "engine/legal.h"
#include "game/mail_commands.h"

/* ---- Transport -------------------------------------------------------------------------- */

/* Send `message` to `to` through SMTP_URL (deliver/mail_smtp.h). */
static int smtp_send(const struct deliver_job *job, const char *to, const char *message, char *error, size_t error_size,
		     long *reply, int *duration_ms)
{
	const struct deliver_config *config = job->config;
	struct mail_smtp smtp = {config->smtp_url, config->smtp_user, config->smtp_password, config->mail_from};
	return mail_smtp_send(job->curl, &smtp, to, message, error, error_size, reply, duration_ms);
}

/* ---- Delivery --------------------------------------------------------------------------- */

static void link_url(const struct deliver_job *job, const char *path, const char *code, char *out, size_t size)
{
	char base[512];
	deliver_public_base(job, base, sizeof base);
	snprintf(out, size, "%s%s?code=%s", base, path, code);
}

/* Send one mail and log the attempt as `kind`; 1 when the relay took it. A failure makes
 * the row due again after the backoff. */
static int send_logged(struct deliver_job *job, const struct store_mail *mail, const struct mail_content *content,
		       const char *kind, int32_t seq)
{
	char *message = mail_message(content);
	char error[128];
	long reply;
	int duration_ms;
	int sent = smtp_send(job, mail->address, message, error, sizeof error, &reply, &duration_ms);
	free(message);
	deliver_attempt(job, seq, kind, (int)reply, duration_ms, sent ? NULL : error);
	if (!sent)
		deliver_retry(job, job->row->next_seq);
	return sent;
}

/* Nothing (more) to mail for this row. */
static void done(struct deliver_job *job)
{
	deliver_done(job, job->row->last_seq + 1);
}

static void send_confirmation(struct deliver_job *job, const struct store_mail *mail, const struct game_record *record)
{
	if (mail->confirmed || mail->confirm_expired) {
		done(job);
		return;
	}
	char code[MAIL_CODE_SIZE], confirm[700], unsubscribe[700];
	mail_code(mail->secret, mail->id, MAIL_CONFIRM, code);
	link_url(job, "/v1/mail/confirm", code, confirm, sizeof confirm);
	mail_code(mail->secret, mail->id, MAIL_UNSUBSCRIBE, code);
	link_url(job, "/v1/mail/unsubscribe", code, unsubscribe, sizeof unsubscribe);
	char subject[128], what[128];
	if (record) {
		snprintf(subject, sizeof subject, "Confirm mail for Catan game %s", record->id_text);
		const char *names[GAME_MAX_SEATS];
		play_names(record, names);
		const char *name = mail->seat >= 0 && mail->seat < GAME_MAX_SEATS ? names[mail->seat] : NULL;
		snprintf(what, sizeof what, "%.48s%sseat %d of Catan game %s", name ? name : "", name ? "'s " : "",
			 mail->seat, record->id_text);
	} else {
		snprintf(subject, sizeof subject, "Confirm mail for your Catan games");
		snprintf(what, sizeof what, "every Catan game of a player");
	}
	char *text = xasprintf("Someone asked for \"your turn\" mails of %s to go to this address.\n\n"
			       "To confirm, open this link within 24 hours:\n%s\n\n"
			       "If it was not you, ignore this mail: nothing more will be sent.\n",
			       what, confirm);
	struct xtext html = xtext_new();
	xtext_add(&html,
		  "<!DOCTYPE html><html><body><p>Someone asked for &quot;your turn&quot; mails of %s to go to "
		  "this address.</p><p><a href=\"",
		  what);
	mail_text_add_html(&html, confirm);
	xtext_add(&html,
		  "\">Confirm</a> (within 24 hours).</p><p>If it was not you, ignore this mail: nothing more will be "
		  "sent.</p></body></html>\n");
	struct mail_content content = {
		job->config->mail_from, mail->address,	     subject, text, html.data, unsubscribe,
		job->row->outbox_id,	(int64_t)time(NULL), NULL,    NULL};
	if (send_logged(job, mail, &content, "mail_confirm", 0))
		done(job);
	free(text);
	free(html.data);
}

/* The last mail's words: who won, and every seat's points. Caller frees. */
static char *game_over(const struct game_record *record, const struct game *game, const char *names[GAME_MAX_SEATS])
{
	struct xtext text = xtext_new();
	xtext_add(&text, "Catan game %s is over", record->id_text);
	if (game->winner >= 0 && game->winner < GAME_MAX_SEATS) {
		if (names[game->winner] && names[game->winner][0])
			xtext_add(&text, ": %s won", names[game->winner]);
		else
			xtext_add(&text, ": Seat %d won", game->winner);
		xtext_add(&text, " with %d points", game_total_points(game, game->winner));
	}
	xtext_add(&text, ". Final points:");
	for (int s = 0; s < game->options.seats; s++)
		xtext_add(&text, "%s %s %d", s ? "," : "", names[s] && names[s][0] ? names[s] : "a seat",
			  game_total_points(game, s));
	xtext_add(&text, ".");
	return text.data;
}

/* Who the reader is, and every move since the reader's last turn, one a line, into the
 * text and HTML parts. */
static void add_moves(struct xtext *text, struct xtext *html, const struct game *game, int seat,
		      const char *names[GAME_MAX_SEATS], const struct event *since, int since_count, int omitted)
{
	const char *name = seat >= 0 && seat < GAME_MAX_SEATS && names[seat] && names[seat][0] ? names[seat] : NULL;
	char who[96];
	snprintf(who, sizeof who, "You play %.48s%sseat %d (counted from 0, as the API counts seats).",
		 name ? name : "", name ? ", " : "", seat);
	xtext_add(text, "%s\n", who);
	xtext_add(html, "<p>");
	mail_text_add_html(html, who);
	xtext_add(html, "</p>\n");
	if (since_count <= 0)
		return;
	xtext_add(text, "\nEvery move since your last turn:\n");
	xtext_add(html, "<p>Every move since your last turn:</p>\n<ol>\n");
	if (omitted) {
		const char *earlier = "(earlier moves of that stretch are not listed: see the game's log)";
		xtext_add(text, "  %s\n", earlier);
		xtext_add(html, "<li>%s</li>\n", earlier);
	}
	char sentence[SUMMARY_SENTENCE_SIZE];
	for (int i = 0; i < since_count; i++) {
		summary_event_on(game, &since[i], names, sentence, sizeof sentence);
		xtext_add(text, "- %s\n", sentence);
		xtext_add(html, "<li>");
		mail_text_add_html(html, sentence);
		xtext_add(html, "</li>\n");
	}
	xtext_add(html, "</ol>\n");
}

/* The reply address of this mail (deliver/mail_reply.h: the registration, the game, the
 * seat, this version, an expiry) into reply_to, and the seat's moves as commands of the
 * vocabulary (game/mail_commands.h) into both parts. */
static void add_reply(const struct deliver_job *job, const struct store_mail *mail, const struct game_record *record,
		      int seat, const char *names[GAME_MAX_SEATS], struct xtext *text, struct xtext *html,
		      char *reply_to, size_t reply_size)
{
	struct mail_reply_code fields = {mail->id, record->id, seat, (int32_t)record->state.version,
					 (int64_t)time(NULL) + job->config->mail_reply_expires_s};
	char code[MAIL_REPLY_CODE_SIZE];
	mail_reply_code(mail->secret, &fields, code);
	snprintf(reply_to, reply_size, "%s%s@%s", MAIL_REPLY_PREFIX, code, job->config->mail_reply_domain);
	struct xtext moves = xtext_new();
	mail_commands_list(&record->state, seat, names, &moves);
	if (!moves.data[0]) {
		free(moves.data);
		return;
	}
	const char *intro = "Reply to this mail with your moves, one command a line, above the quoted text:";
	xtext_add(text, "\n%s\n%s", intro, moves.data);
	xtext_add(html, "<p>");
	mail_text_add_html(html, intro);
	xtext_add(html, "</p>\n<pre>");
	mail_text_add_html(html, moves.data);
	xtext_add(html, "</pre>\n");
	free(moves.data);
}

static void send_turn(struct deliver_job *job, const struct store_mail *mail, const struct game_record *record)
{
	const struct store_delivery *row = job->row;
	const struct game *now = &record->state;
	int seat = mail->seat;
	int64_t turn = mailing_turn_key(now, seat);
	/* Nothing for a turn already mailed, for a state that no longer waits for the seat, or
	 * for an append the seat made itself (it knows). */
	struct store_log log;
	if (play_read_log(row->game_id, row->first_seq - 1, row->last_seq - row->first_seq + 1, &log) != STORE_OK) {
		deliver_retry(job, row->next_seq);
		return;
	}
	int prompted = deliver_prompted(&log, seat);
	store_log_free(&log);
	if (turn < 0 || turn == mail->last_turn || (!prompted && turn != MAILING_TURN_FINISHED)) {
		done(job);
		return;
	}
	int64_t interval_ms = (int64_t)job->config->mail_min_interval_s * 1000;
	if (mail->since_last_ms >= 0 && mail->since_last_ms < interval_ms && turn != MAILING_TURN_FINISHED) {
		deliver_later(job, row->next_seq, interval_ms - mail->since_last_ms);
		return;
	}
	int32_t version = (int32_t)now->version;
	struct event *since;
	int omitted;
	int since_count = deliver_events_since_turn(record->id, version, seat, seat, &since, &omitted);
	if (since_count < 0) {
		deliver_retry(job, row->next_seq);
		return;
	}
	const char *names[GAME_MAX_SEATS];
	play_names(record, names);
	char board[700], game_url[700], code[MAIL_CODE_SIZE], unsubscribe[700], subject[160];
	deliver_board_url(job, record, version, board, sizeof board);
	deliver_game_url(job, record, game_url, sizeof game_url);
	mail_code(mail->secret, mail->id, MAIL_UNSUBSCRIBE, code);
	link_url(job, "/v1/mail/unsubscribe", code, unsubscribe, sizeof unsubscribe);
	if (turn == MAILING_TURN_FINISHED)
		snprintf(subject, sizeof subject, "Catan game %s is over", record->id_text);
	else
		snprintf(subject, sizeof subject, "Your turn in Catan game %s: %s", record->id_text,
			 channels_expectation(now->phase));
	char *summary = turn == MAILING_TURN_FINISHED ? game_over(record, now, names)
						      : summary_your_turn(now, seat, names, NULL, 0);
	/* The link opens the game; the reader's browser opens their seat from the seat link it
	 * kept (web/src/main.ts: #game=<id> alone), so no token travels in a mail. */
	const char *opens = "(the browser where you opened your seat link opens your seat; the link itself is never "
			    "in a mail)";
	struct xtext text = xtext_new(), html = xtext_new();
	xtext_add(&html, "<!DOCTYPE html><html><body><p>");
	mail_text_add_html(&html, summary);
	xtext_add(&html, "</p>\n");
	xtext_add(&text, "%s\n\n", summary);
	add_moves(&text, &html, now, seat, names, since, since_count, omitted);
	free(since);
	char reply_to[MAIL_REPLY_CODE_SIZE + 300];
	int replies = turn != MAILING_TURN_FINISHED && job->config->mail_reply_domain != NULL;
	if (replies)
		add_reply(job, mail, record, seat, names, &text, &html, reply_to, sizeof reply_to);
	xtext_add(&text, "\nThe board now: %s\nOpen the game: %s\n%s\n\nTo stop these mails: %s\n", board, game_url,
		  opens, unsubscribe);
	xtext_add(&html, "<p><a href=\"");
	mail_text_add_html(&html, board);
	xtext_add(&html, "\"><img src=\"");
	mail_text_add_html(&html, board);
	xtext_add(&html, "\" alt=\"The board now\" width=\"480\"></a></p><p><a href=\"");
	mail_text_add_html(&html, game_url);
	xtext_add(&html, "\">Open the game</a> ");
	mail_text_add_html(&html, opens);
	xtext_add(&html, ".</p><p><a href=\"");
	mail_text_add_html(&html, unsubscribe);
	xtext_add(&html, "\">Stop these mails</a></p></body></html>\n");
	struct mail_content content = {job->config->mail_from,
				       mail->address,
				       subject,
				       text.data,
				       html.data,
				       unsubscribe,
				       row->outbox_id << 20 | (version & 0xfffff),
				       (int64_t)time(NULL),
				       replies ? reply_to : NULL,
				       NULL};
	if (send_logged(job, mail, &content, "mail", version)) {
		if (mail->player_id)
			mailing_game_sent(mail->id, record->id, turn, version, 1);
		else
			mailing_sent(mail->id, turn, version, 1);
		done(job);
	}
	free(summary);
	free(text.data);
	free(html.data);
}

/* One claimed row of a mail registration: its confirmation mail (first_seq 0) or a turn
 * mail (the essay says when). */
static void send_mail(struct deliver_job *job)
{
	const struct store_delivery *row = job->row;
	struct store_mail mail;
	enum store_status status = mailing_get(row->webhook_id, 0, 0, &mail);
	if (status == STORE_NOT_FOUND) {
		/* Removed meanwhile: nothing to send, ever. */
		done(job);
		return;
	}
	/* A server without SMTP_URL leaves the row to one that has it (or to itself after a
	 * restart with it), as when the relay is down. */
	if (status != STORE_OK || !job->config->smtp_url) {
		deliver_retry(job, row->next_seq);
		return;
	}
	/* A player's: its confirmation is about no game; a game the player has left, or whose
	 * seat has a registration of its own, gets nothing from it. */
	if (mail.player_id && row->first_seq == 0) {
		send_confirmation(job, &mail, NULL);
		return;
	}
	if (mail.player_id) {
		int own = 0;
		if (!mail.confirmed || row->seat < 0) {
			done(job);
			return;
		}
		mail.seat = row->seat;
		if (mailing_game_state(mail.id, row->game_id, mail.seat, &mail.since_last_ms, &mail.last_turn, &own) !=
		    STORE_OK) {
			deliver_retry(job, row->next_seq);
			return;
		}
		if (own) {
			done(job);
			return;
		}
	}
	struct game_record record;
	if (play_load(row->game_id, 1, &record) != STORE_OK) {
		deliver_retry(job, row->next_seq);
		return;
	}
	if (row->first_seq == 0)
		send_confirmation(job, &mail, &record);
	else if (mail.confirmed)
		send_turn(job, &mail, &record);
	else
		done(job);
}

const struct deliver_format deliver_mail = {STORE_FORMAT_MAIL, "mail", 1, send_mail};
