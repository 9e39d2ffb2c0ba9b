/*
 * mail.c - a seat's "your turn" mails, sent over SMTP with libcurl.
 *
 * Who gets what. A seat registers an address (api/handlers_mail.c); the first and only
 * mail it gets before confirming is the confirmation, with a link. After that it gets one
 * mail when the game starts waiting for it: at most one per turn (a turn here is the turn
 * number, the setup step and the seats waited for, so rolling the dice and then building
 * is one turn, while a discard asked in someone else's turn is another), never one for a
 * change the seat made itself, and never two within MAIL_MIN_INTERVAL_S. When a mail is
 * due within the interval, the outbox row is simply due later; when it comes due, the mail
 * says what is true then (still your turn: one mail; not any more: nothing). The game's end
 * gets one last mail.
 *
 * What a mail holds: the subject "Your turn in Catan game <id>: <what it waits for>"
 * (channels_expectation(), the chat messages' words), a plain-text and an HTML part with
 * the summary (api/summary.h: whose turn, what is expected, the last moves as the seat sees
 * them), the board picture of that version as a link (the PNG URL from PUBLIC_URL: mail
 * clients block remote images by default and an attachment would cost every mail ~100 KB),
 * and a link to the game in the web client WITHOUT the seat's token. The token is the seat:
 * anyone who reads it may play for the seat. Mails are forwarded, kept on servers, read on
 * shared screens and leak in ways a private link sent once does not; the player keeps the
 * seat link they got when they joined. A mail therefore only says "it is your turn".
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
 * Failures: no answer from the relay, or a refusal, is logged (coarsely: never the
 * address, nor the relay's words, which may quote it) and retried with the webhooks'
 * backoff (1 s doubling to an hour): moves never wait for mail, and mails go out when the
 * relay is back. Relay trouble is the server's, not the registrant's: it never disables
 * a registration.
 */
#include "api/mail.h"

#include <ctype.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/channels.h"
#include "api/metrics.h"
#include "api/service.h"
#include "api/summary.h"
#include "api/webhooks.h"
#include "api/xalloc.h"
#include "db/store_mail.h"
#include "engine/legal.h"
#include "game/auth.h"
#include "game/play.h"

#define CONNECT_TIMEOUT_MS 5000
#define TOTAL_TIMEOUT_MS 20000
#define TURN_FINISHED INT64_C(0x7fffffff)

/* ---- Addresses -------------------------------------------------------------------------- */

static int atom_char(unsigned char c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+/=?^_`{|}~-", c));
}

int mail_address_valid(const char *address, char *why, size_t why_size)
{
	const char *rule = "address is one plain mail address (local@domain.example), at most 254 characters, "
			   "without spaces, quotes, comments or display name";
	size_t length = address ? strlen(address) : 0;
	const char *at = address ? strrchr(address, '@') : NULL;
	int ok = length > 0 && length <= MAIL_ADDRESS_MAX && at && at != address && (size_t)(at - address) <= 64;
	/* The local part: a dot-atom. */
	for (const char *c = address; ok && c < at; c++)
		if (!(atom_char((unsigned char)*c) ||
		      (*c == '.' && c != address && c + 1 != at && c[1] != '.')))
			ok = 0;
	/* The domain: at least two DNS labels of letters, digits and inner hyphens. */
	int labels = 0;
	if (ok) {
		const char *label = at + 1;
		for (;;) {
			const char *end = strchr(label, '.');
			size_t size = end ? (size_t)(end - label) : strlen(label);
			if (size == 0 || size > 63 || label[0] == '-' || label[size - 1] == '-') {
				ok = 0;
				break;
			}
			for (size_t i = 0; i < size; i++)
				if (!(isalnum((unsigned char)label[i]) || label[i] == '-'))
					ok = 0;
			labels++;
			if (!end)
				break;
			label = end + 1;
		}
	}
	if (ok && labels < 2)
		ok = 0;
	if (!ok)
		snprintf(why, why_size, "%s", rule);
	return ok;
}

void mail_mask(const char *address, char *out, size_t size)
{
	const char *at = strrchr(address, '@');
	snprintf(out, size, "%c***%s", address[0], at ? at : "@");
}

/* ---- Codes ------------------------------------------------------------------------------ */

static void code_mac(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
		     char out[48])
{
	char message[48];
	snprintf(message, sizeof message, "%s:%lld", purpose == MAIL_CONFIRM ? "confirm" : "unsubscribe",
		 (long long)id);
	unsigned char mac[EVP_MAX_MD_SIZE];
	unsigned int mac_size = 0;
	HMAC(EVP_sha256(), secret, STORE_WEBHOOK_SECRET_SIZE, (const unsigned char *)message, strlen(message), mac,
	     &mac_size);
	unsigned char encoded[48];
	EVP_EncodeBlock(encoded, mac, 32);
	/* base64url without padding: 43 characters. */
	size_t n = 0;
	for (; encoded[n] && encoded[n] != '=' && n < 47; n++)
		out[n] = encoded[n] == '+' ? '-' : encoded[n] == '/' ? '_' : (char)encoded[n];
	out[n] = '\0';
}

void mail_code(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
	       char out[MAIL_CODE_SIZE])
{
	char mac[48];
	code_mac(secret, id, purpose, mac);
	snprintf(out, MAIL_CODE_SIZE, "%016llx.%s", (unsigned long long)id, mac);
}

int mail_code_id(const char *code, int64_t *id)
{
	if (!code || strlen(code) != 16 + 1 + 43 || code[16] != '.')
		return 0;
	unsigned long long value = 0;
	for (int i = 0; i < 16; i++) {
		char c = code[i];
		int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (digit < 0)
			return 0;
		value = value << 4 | (unsigned)digit;
	}
	if (value == 0 || value > INT64_MAX)
		return 0;
	*id = (int64_t)value;
	return 1;
}

int mail_code_matches(const uint8_t secret[STORE_WEBHOOK_SECRET_SIZE], int64_t id, enum mail_purpose purpose,
		      const char *code)
{
	char expected[MAIL_CODE_SIZE];
	mail_code(secret, id, purpose, expected);
	size_t length = strlen(expected);
	if (strlen(code) != length)
		return 0;
	unsigned char difference = 0;
	for (size_t i = 0; i < length; i++)
		difference |= (unsigned char)(expected[i] ^ code[i]);
	return difference == 0;
}

/* ---- Messages --------------------------------------------------------------------------- */

struct text {
	char *data;
	size_t length, size;
};

__attribute__((format(printf, 2, 3))) static void add(struct text *text, const char *format, ...)
{
	va_list args;
	va_start(args, format);
	va_list again;
	va_copy(again, args);
	int need = vsnprintf(NULL, 0, format, args);
	va_end(args);
	if (need < 0) {
		va_end(again);
		return;
	}
	if (text->length + (size_t)need + 1 > text->size) {
		text->size = (text->length + (size_t)need + 1) * 2;
		text->data = xrealloc(text->data, text->size);
	}
	vsnprintf(text->data + text->length, text->size - text->length, format, again);
	va_end(again);
	text->length += (size_t)need;
}

static struct text text_new(void)
{
	struct text text = {xmalloc(256), 0, 256};
	text.data[0] = '\0';
	return text;
}

/* `body` as base64 lines of 76 characters (57 bytes each), CRLF after each. */
static void add_base64(struct text *text, const char *body)
{
	size_t length = strlen(body);
	for (size_t at = 0; at < length; at += 57) {
		size_t take = length - at < 57 ? length - at : 57;
		unsigned char line[80];
		EVP_EncodeBlock(line, (const unsigned char *)body + at, (int)take);
		add(text, "%s\r\n", line);
	}
}

/* Text with \n lines as CRLF lines (the wire form of a text part). */
static char *crlf(const char *body)
{
	struct text out = text_new();
	for (const char *c = body; *c; c++)
		add(&out, *c == '\n' ? "\r\n" : "%c", *c);
	return out.data;
}

static void rfc5322_date(int64_t seconds, char *out, size_t size)
{
	static const char *const days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
					     "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t t = (time_t)seconds;
	struct tm tm;
	gmtime_r(&t, &tm);
	snprintf(out, size, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday % 7], tm.tm_mday,
		 months[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

char *mail_message(const struct mail_content *content)
{
	uint64_t random = 0;
	if (!auth_random(&random, sizeof random))
		random = (uint64_t)time(NULL);
	const char *domain = strrchr(content->from, '@');
	domain = domain ? domain + 1 : "localhost";
	char date[64], boundary[64];
	rfc5322_date(content->date_s, date, sizeof date);
	snprintf(boundary, sizeof boundary, "=_catan_%016llx", (unsigned long long)random);
	struct text out = text_new();
	add(&out, "From: Catan <%s>\r\n", content->from);
	add(&out, "To: <%s>\r\n", content->to);
	add(&out, "Subject: %s\r\n", content->subject);
	add(&out, "Date: %s\r\n", date);
	add(&out, "Message-ID: <catan.%lld.%016llx@%s>\r\n", (long long)content->unique, (unsigned long long)random,
	    domain);
	add(&out, "MIME-Version: 1.0\r\n");
	if (content->unsubscribe_url) {
		add(&out, "List-Unsubscribe: <%s>\r\n", content->unsubscribe_url);
		add(&out, "List-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n");
	}
	add(&out, "Auto-Submitted: auto-generated\r\n");
	add(&out, "Content-Type: multipart/alternative; boundary=\"%s\"\r\n\r\n", boundary);
	char *text = crlf(content->text), *html = crlf(content->html);
	add(&out, "--%s\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n",
	    boundary);
	add_base64(&out, text);
	add(&out, "--%s\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: base64\r\n\r\n",
	    boundary);
	add_base64(&out, html);
	add(&out, "--%s--\r\n", boundary);
	free(text);
	free(html);
	return out.data;
}

/* Text as HTML character data or attribute value. */
static void add_html(struct text *out, const char *text)
{
	for (const char *c = text; *c; c++) {
		switch (*c) {
		case '&':
			add(out, "&amp;");
			break;
		case '<':
			add(out, "&lt;");
			break;
		case '>':
			add(out, "&gt;");
			break;
		case '"':
			add(out, "&quot;");
			break;
		case '\n':
			add(out, "<br>\n");
			break;
		default:
			add(out, "%c", *c);
		}
	}
}

/* ---- Transport -------------------------------------------------------------------------- */

struct reader {
	const char *data;
	size_t left;
};

static size_t read_message(char *buffer, size_t size, size_t count, void *user)
{
	struct reader *reader = user;
	size_t room = size * count;
	size_t take = reader->left < room ? reader->left : room;
	memcpy(buffer, reader->data, take);
	reader->data += take;
	reader->left -= take;
	return take;
}

/* Send `message` to `to` through SMTP_URL: 1 when the relay took it, else 0 with a coarse
 * reason (no address, no relay text). */
static int smtp_send(CURL *curl, const char *to, const char *message, char *error, size_t error_size,
		     long *reply, int *duration_ms)
{
	const struct config *config = service_config();
	char from[MAIL_ADDRESS_MAX + 3], rcpt[MAIL_ADDRESS_MAX + 3];
	snprintf(from, sizeof from, "<%s>", config->mail_from);
	snprintf(rcpt, sizeof rcpt, "<%s>", to);
	struct curl_slist *recipients = curl_slist_append(NULL, rcpt);
	struct reader reader = {message, strlen(message)};
	curl_easy_reset(curl);
	curl_easy_setopt(curl, CURLOPT_URL, config->smtp_url);
	curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
	curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from);
	curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, recipients);
	curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_message);
	curl_easy_setopt(curl, CURLOPT_READDATA, &reader);
	curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
	curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, (long)CONNECT_TIMEOUT_MS);
	curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, (long)TOTAL_TIMEOUT_MS);
	curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
	if (config->smtp_user) {
		curl_easy_setopt(curl, CURLOPT_USERNAME, config->smtp_user);
		curl_easy_setopt(curl, CURLOPT_PASSWORD, config->smtp_password ? config->smtp_password : "");
		/* Credentials never go over a plain connection: STARTTLS is required. */
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_ALL);
	} else {
		curl_easy_setopt(curl, CURLOPT_USE_SSL, (long)CURLUSESSL_TRY);
	}
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	CURLcode code = curl_easy_perform(curl);
	clock_gettime(CLOCK_MONOTONIC, &end);
	*duration_ms = (int)((end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000);
	*reply = 0;
	curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, reply);
	curl_slist_free_all(recipients);
	error[0] = '\0';
	if (code == CURLE_OK)
		return 1;
	if (*reply >= 400)
		snprintf(error, error_size, "the mail relay refused the mail (SMTP %ld)", *reply);
	else if (code == CURLE_OPERATION_TIMEDOUT)
		snprintf(error, error_size, "the mail relay did not answer in time");
	else if (code == CURLE_LOGIN_DENIED)
		snprintf(error, error_size, "the mail relay refused the credentials");
	else
		snprintf(error, error_size, "the mail relay could not be reached");
	return 0;
}

/* ---- Delivery --------------------------------------------------------------------------- */

static void link_url(const char *path, const char *code, char *out, size_t size)
{
	char base[512];
	webhooks_public_base(base, sizeof base);
	snprintf(out, size, "%s%s?code=%s", base, path, code);
}

/* Send one mail and log the attempt as `kind`; 1 when the relay took it. A failure makes
 * the row due again after the backoff. */
static int send_logged(CURL *curl, const struct store_delivery *delivery, const struct store_mail *mail,
		       const struct mail_content *content, const char *kind, int32_t seq)
{
	char *message = mail_message(content);
	char error[128];
	long reply;
	int duration_ms;
	int sent = smtp_send(curl, mail->address, message, error, sizeof error, &reply, &duration_ms);
	free(message);
	store_delivery_log(play_store(), delivery->webhook_id, delivery->outbox_id, seq, delivery->attempts,
			   (int)reply, duration_ms, kind, sent ? NULL : error);
	metrics_add(sent ? METRICS_WEBHOOK_DELIVERED : METRICS_WEBHOOK_FAILED, 1);
	if (!sent)
		store_delivery_update(play_store(), delivery->outbox_id, 0, delivery->next_seq,
				      webhooks_backoff_ms(delivery->attempts));
	return sent;
}

static void done(const struct store_delivery *delivery)
{
	store_delivery_update(play_store(), delivery->outbox_id, 1, delivery->last_seq + 1, 0);
}

static void deliver_confirmation(CURL *curl, const struct store_delivery *delivery, const struct store_mail *mail,
				 const struct game_record *record)
{
	if (mail->confirmed || mail->confirm_expired) {
		done(delivery);
		return;
	}
	char code[MAIL_CODE_SIZE], confirm[700], unsubscribe[700];
	mail_code(mail->secret, mail->id, MAIL_CONFIRM, code);
	link_url("/v1/mail/confirm", code, confirm, sizeof confirm);
	mail_code(mail->secret, mail->id, MAIL_UNSUBSCRIBE, code);
	link_url("/v1/mail/unsubscribe", code, unsubscribe, sizeof unsubscribe);
	char subject[128];
	snprintf(subject, sizeof subject, "Confirm mail for Catan game %s", record->id_text);
	char *text = xasprintf("Someone asked for \"your turn\" mails of seat %d of Catan game %s to go to this address.\n\n"
			       "To confirm, open this link within 24 hours:\n%s\n\n"
			       "If it was not you, ignore this mail: nothing more will be sent.\n",
			       mail->seat + 1, record->id_text, confirm);
	struct text html = text_new();
	add(&html, "<!DOCTYPE html><html><body><p>Someone asked for &quot;your turn&quot; mails of seat %d of Catan game "
		   "%s to go to this address.</p><p><a href=\"",
	    mail->seat + 1, record->id_text);
	add_html(&html, confirm);
	add(&html, "\">Confirm</a> (within 24 hours).</p><p>If it was not you, ignore this mail: nothing more will be "
		   "sent.</p></body></html>\n");
	struct mail_content content = {service_config()->mail_from, mail->address, subject, text, html.data,
				       unsubscribe, delivery->outbox_id, (int64_t)time(NULL)};
	if (send_logged(curl, delivery, mail, &content, "mail_confirm", 0))
		done(delivery);
	free(text);
	free(html.data);
}

/* The turn a mail is about, or -1 when the game does not wait for the seat (nor ended). */
static int64_t turn_of(const struct game *game, int seat)
{
	if (game->phase == GAME_PHASE_FINISHED)
		return TURN_FINISHED;
	if (!game_in_progress(game) || !(legal_waiting_for(game) >> seat & 1u))
		return -1;
	return (int64_t)game->turn_number << 16 | (int64_t)game->setup_step << 8 | legal_waiting_for(game);
}

static void deliver_turn(CURL *curl, const struct store_delivery *delivery, const struct store_mail *mail,
			 const struct game_record *record)
{
	const struct game *now = &record->state;
	int seat = mail->seat;
	int64_t turn = turn_of(now, seat);
	/* Nothing for a turn already mailed, for a state that no longer waits for the seat, or
	 * for an append the seat made itself (it knows). */
	struct store_log log;
	int prompted = 0;
	if (play_read_log(delivery->game_id, delivery->first_seq - 1, delivery->last_seq - delivery->first_seq + 1,
			  &log) == STORE_OK) {
		for (int i = 0; i < log.count; i++)
			if (log.rows[i].actor != seat || log.rows[i].origin != STORE_ORIGIN_PLAYER)
				prompted = 1;
		store_log_free(&log);
	} else {
		store_delivery_update(play_store(), delivery->outbox_id, 0, delivery->next_seq,
				      webhooks_backoff_ms(delivery->attempts));
		return;
	}
	if (turn < 0 || turn == mail->last_turn || (!prompted && turn != TURN_FINISHED)) {
		done(delivery);
		return;
	}
	int64_t interval_ms = (int64_t)service_config()->mail_min_interval_s * 1000;
	if (mail->since_last_ms >= 0 && mail->since_last_ms < interval_ms && turn != TURN_FINISHED) {
		store_delivery_update(play_store(), delivery->outbox_id, 0, delivery->next_seq,
				      interval_ms - mail->since_last_ms);
		return;
	}
	int32_t version = (int32_t)now->version;
	struct event recent[WEBHOOKS_RECENT_EVENTS];
	int recent_count = webhooks_recent_events(record->id, version, seat, recent);
	const char *names[GAME_MAX_SEATS];
	play_names(record, names);
	char board[700], game_url[700], base[512], code[MAIL_CODE_SIZE], unsubscribe[700], subject[160];
	webhooks_board_url(record, version, board, sizeof board);
	webhooks_public_base(base, sizeof base);
	snprintf(game_url, sizeof game_url, "%s/#game=%s", base, record->id_text);
	mail_code(mail->secret, mail->id, MAIL_UNSUBSCRIBE, code);
	link_url("/v1/mail/unsubscribe", code, unsubscribe, sizeof unsubscribe);
	if (turn == TURN_FINISHED)
		snprintf(subject, sizeof subject, "Catan game %s is over", record->id_text);
	else
		snprintf(subject, sizeof subject, "Your turn in Catan game %s: %s", record->id_text,
			 channels_expectation(now->phase));
	char *summary = summary_your_turn(now, seat, names, recent, recent_count);
	char *text = xasprintf("%s\n\nThe board now: %s\nOpen the game (with the seat link you were given): %s\n\n"
			       "To stop these mails: %s\n",
			       summary, board, game_url, unsubscribe);
	struct text html = text_new();
	add(&html, "<!DOCTYPE html><html><body><p>");
	add_html(&html, summary);
	add(&html, "</p><p><a href=\"");
	add_html(&html, board);
	add(&html, "\"><img src=\"");
	add_html(&html, board);
	add(&html, "\" alt=\"The board now\" width=\"480\"></a></p><p><a href=\"");
	add_html(&html, game_url);
	add(&html, "\">Open the game</a> (with the seat link you were given).</p><p><a href=\"");
	add_html(&html, unsubscribe);
	add(&html, "\">Stop these mails</a></p></body></html>\n");
	struct mail_content content = {service_config()->mail_from, mail->address, subject, text, html.data,
				       unsubscribe, delivery->outbox_id << 20 | (version & 0xfffff),
				       (int64_t)time(NULL)};
	if (send_logged(curl, delivery, mail, &content, "mail", version)) {
		store_mail_sent(play_store(), mail->id, turn);
		done(delivery);
	}
	free(summary);
	free(text);
	free(html.data);
}

void mail_deliver(CURL *curl, const struct store_delivery *delivery)
{
	const struct config *config = service_config();
	struct store_mail mail;
	enum store_status status = store_mail_get(play_store(), delivery->webhook_id, 0, 0, &mail);
	if (status == STORE_NOT_FOUND) {
		/* Removed meanwhile: nothing to send, ever. */
		done(delivery);
		return;
	}
	/* A server without SMTP_URL leaves the row to one that has it (or to itself after a
	 * restart with it), as when the relay is down. */
	struct game_record record;
	if (status != STORE_OK || !config || !config->smtp_url || play_load(delivery->game_id, 1, &record) != STORE_OK) {
		store_delivery_update(play_store(), delivery->outbox_id, 0, delivery->next_seq,
				      webhooks_backoff_ms(delivery->attempts));
		return;
	}
	if (delivery->first_seq == 0)
		deliver_confirmation(curl, delivery, &mail, &record);
	else if (mail.confirmed)
		deliver_turn(curl, delivery, &mail, &record);
	else
		done(delivery);
}
