/*
 * catan_mail_in.c - `catan-mail-in [recipient]`: one mail on stdin, a reply to a "your
 * turn" mail (issue 29), played as the seat's moves and answered. Postfix runs it from a
 * `pipe` transport for the reply domain (README "Play by mail"); it reads the same
 * environment as catan-server (DATABASE_URL, SMTP_URL, MAIL_FROM, PUBLIC_URL,
 * MAIL_REPLY_DOMAIN, ...).
 *
 * It links the game service (game/play.h) rather than calling the HTTP API: a move by mail
 * is decided, appended and keyed by the one write path every HTTP move takes (play_move():
 * the rules, the optimistic append, the idempotency record, the timer that wakes the bots),
 * with no token to hold (the reply address is the capability, and no mail may carry a
 * token) and no listener to reach; the only things HTTP adds are its own (headers, the
 * in-memory rate per token), and the rate is kept here as a budget counted in the
 * database (game/quota.h), RATE_LIMIT_TOKEN per seat, so it holds across the many short
 * processes Postfix starts.
 *
 * The path: read (deliver/mail_in.h: GMime) -> no answer at all for an automatic mail, a
 * bounce, a mail to no reply address, or one whose code does not verify under its
 * registration's secret (forged, tampered: nothing is changed and nothing is said, so a
 * forger learns nothing and no mail loops), or not vouched for by the MTA when
 * MAIL_AUTH_SERVID is set -> already answered (the Message-ID's mark): nothing -> expired,
 * or the game past that mail's turn: an answer saying so, nothing changed -> each command
 * line in order, read against the state it applies to (game/mail_commands.h), through
 * play_move() with origin mail and the idempotency key "<mail:registration:Message-ID>#n";
 * the first line not understood or refused ends the reading -> the answer (what was done,
 * what was refused and the rule's words, the board picture, what the seat can do now with
 * a fresh reply address) over SMTP to the registration's address, never to the mail's
 * sender (a third party who holds an address moves for the seat, and the seat hears of it)
 * -> the mark.
 *
 * Exit status (Postfix's pipe reads it): 0 when the mail is dealt with (also when it is
 * ignored); 75 (EX_TEMPFAIL) when the database or the relay failed, so Postfix delivers it
 * again later: the moves already made replay from their keys, and the answer goes out
 * once, when the mark is written after it; 78 (EX_CONFIG) for a bad setting.
 */
#include <jansson.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/config.h"
#include "base/log.h"
#include "base/xalloc.h"
#include "deliver/mail_in.h"
#include "deliver/mail_message.h"
#include "deliver/mail_reply.h"
#include "deliver/mail_smtp.h"
#include "engine/error.h"
#include "engine/legal.h"
#include "game/lobby.h"
#include "game/mail_commands.h"
#include "game/mailing.h"
#include "game/play.h"
#include "game/quota.h"

#define EXIT_TEMPFAIL 75
#define EXIT_CONFIG 78
#define KEY_SIZE 320

static struct config config;

static void ignored(const char *why)
{
	log_event("info", "mail ignored", "why", why, NULL);
}

/* The problem+json text recorded with a refused keyed move (as HTTP's 422 would be). */
static char *refusal_body(void *context, enum error error, long version, int *status)
{
	(void)context;
	json_t *body = json_pack("{s:s, s:s, s:i, s:s, s:s, s:I}", "type", "about:blank", "title",
				 "the rules refuse the move", "status", 422, "code", error_code(error), "detail",
				 error_message(error), "version", (json_int_t)version);
	char *text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		abort();
	*status = 422;
	return text;
}

static char *read_stdin(size_t *size)
{
	size_t capacity = 65536, length = 0;
	char *data = xmalloc(capacity + 1);
	for (;;) {
		if (length == capacity) {
			if (capacity > MAIL_IN_MAX_BYTES)
				break;
			capacity *= 2;
			data = xrealloc(data, capacity + 1);
		}
		size_t got = fread(data + length, 1, capacity - length, stdin);
		if (got == 0)
			break;
		length += got;
	}
	data[length] = '\0';
	*size = length;
	return data;
}

static void public_base(char *out, size_t size)
{
	if (config.public_url && *config.public_url) {
		snprintf(out, size, "%s", config.public_url);
		size_t length = strlen(out);
		while (length > 0 && out[length - 1] == '/')
			out[--length] = '\0';
	} else {
		const char *host = config.listen_address ? config.listen_address : "127.0.0.1";
		snprintf(out, size, "http://%s:%d", strcmp(host, "0.0.0.0") == 0 ? "localhost" : host, config.port);
	}
}

/* 1 when registration `mail` may move for `seat` of game `game_id`. */
static int registration_holds(const struct store_mail *mail, int64_t game_id, int seat, int *failed)
{
	*failed = 0;
	if (!mail->player_id)
		return mail->game_id == game_id && mail->seat == seat;
	static struct store_player_seat seats[1024];
	int count = 0;
	if (lobby_player_seats(mail->player_id, 1024, seats, &count) != STORE_OK) {
		*failed = 1;
		return 0;
	}
	for (int i = 0; i < count; i++)
		if (seats[i].game_id == game_id && seats[i].seat == seat)
			return 1;
	return 0;
}

/* A message id fit for a key and a header: printable ASCII in <>, else a digest of the
 * message's bytes (a mail without one is still answered once). */
static void message_key(const struct mail_in *in, const char *data, size_t size, char *out, size_t out_size)
{
	const char *id = in->message_id;
	int fit = id[0] == '<' && strlen(id) < 200;
	for (const char *c = id; fit && *c; c++)
		fit = *c > ' ' && *c < 127;
	if (fit) {
		snprintf(out, out_size, "%s", id);
		return;
	}
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int length = 0;
	EVP_Digest(data, size, digest, &length, EVP_sha256(), NULL);
	size_t used = (size_t)snprintf(out, out_size, "<sha256:");
	for (unsigned int i = 0; i < 16 && used + 3 < out_size; i++)
		used += (size_t)snprintf(out + used, out_size - used, "%02x", digest[i]);
	snprintf(out + used, out_size - used, ">");
}

/* The seat's moves now and a fresh reply address for them (reply_to "" when the seat has
 * none). */
static void add_now(const struct game_record *record, const struct store_mail *mail, int seat,
		    const char *names[GAME_MAX_SEATS], struct xtext *text, char *reply_to, size_t reply_size)
{
	reply_to[0] = '\0';
	if (record->state.phase == GAME_PHASE_FINISHED) {
		xtext_add(text, "\nThe game is over.\n");
		return;
	}
	struct xtext moves = xtext_new();
	mail_commands_list(&record->state, seat, names, &moves);
	if (!moves.data[0]) {
		xtext_add(text, "\nNothing to do for now: you get a mail when the game waits for you again.\n");
	} else {
		struct mail_reply_code fields = {mail->id, record->id, seat, (int32_t)record->state.version,
						 (int64_t)time(NULL) + config.mail_reply_expires_s};
		char code[MAIL_REPLY_CODE_SIZE];
		mail_reply_code(mail->secret, &fields, code);
		snprintf(reply_to, reply_size, "%s%s@%s", MAIL_REPLY_PREFIX, code, config.mail_reply_domain);
		xtext_add(text, "\nWhat you can do now (reply to this mail, one command a line):\n%s", moves.data);
	}
	free(moves.data);
}

enum outcome { OUTCOME_DONE, OUTCOME_TEMPFAIL };

/* The commands of the reply, in order, into the answer's text. */
static enum outcome play_lines(struct game_record *record, const struct store_mail *mail, int seat, const char *text_in,
			       const char *key_base, struct xtext *text, int *applied)
{
	(void)mail;
	const char *names[GAME_MAX_SEATS];
	const char *cursor = text_in;
	char line[MAIL_COMMANDS_LINE_MAX + 2];
	char quota_key[64];
	snprintf(quota_key, sizeof quota_key, "mail:%lld:%d", (long long)record->id, seat);
	struct quota_budget budget = {"mail_moves", config.rate_limit_token, 2 * config.rate_limit_token};
	int number = 0;
	*applied = 0;
	while (mail_commands_next_line(&cursor, line, sizeof line)) {
		if (mail_commands_blank(line))
			continue;
		if (++number > MAIL_COMMANDS_MAX) {
			xtext_add(text, "- (more than %d commands: the rest was not read)\n", MAIL_COMMANDS_MAX);
			break;
		}
		play_names(record, names);
		struct command command;
		enum mail_commands_error error = mail_commands_parse(line, &record->state, seat, names, &command);
		if (error != MAIL_COMMANDS_OK) {
			xtext_add(text, "- \"%s\": not understood: %s. Nothing from this line on was tried.\n", line,
				  mail_commands_message(error));
			break;
		}
		struct store_quota_answer answer = {1, 0, 0};
		if (quota_on(&budget) && quota_take(&budget, quota_key, 1, &answer) != STORE_OK)
			return OUTCOME_TEMPFAIL;
		if (!answer.allowed) {
			xtext_add(text, "- \"%s\": not tried: too many moves at once (try again in %d s).\n", line,
				  answer.retry_after_s);
			break;
		}
		char key[KEY_SIZE + 16];
		snprintf(key, sizeof key, "%s#%d", key_base, number);
		uint8_t hash[STORE_HASH_SIZE] = {0};
		EVP_Digest(line, strlen(line), hash, NULL, EVP_sha256(), NULL);
		struct play_move move = {
			.seat = seat,
			.command = &command,
			.origin = STORE_ORIGIN_MAIL,
			.viewer = seat,
			.pinned = -1,
			.pinned_offer = command.type == COMMAND_ACCEPT_TRADE || command.type == COMMAND_DECLINE_TRADE
						? command.trade
						: 0,
			.render = 1,
			.success_status = 200,
			.key = key,
			.request_hash = hash,
			.refusal_body = refusal_body,
		};
		struct play_result result;
		play_move(record, &move, &result);
		char written[256];
		mail_commands_format(&command, names, written, sizeof written);
		int stop = 0;
		switch (result.outcome) {
		case PLAY_APPLIED:
			free(result.answer);
			xtext_add(text, "- %s: done.\n", written);
			(*applied)++;
			break;
		case PLAY_REPLAYED:
			if (result.replay.status >= 400) {
				json_t *body =
					json_loads(result.replay.response ? result.replay.response : "", 0, NULL);
				const char *detail = json_string_value(json_object_get(body, "detail"));
				xtext_add(text, "- %s: refused: %s.\n", written,
					  detail ? detail : "the rules refuse it");
				json_decref(body);
				stop = 1;
			} else {
				xtext_add(text, "- %s: done.\n", written);
				(*applied)++;
			}
			free(result.replay.response);
			break;
		case PLAY_REFUSED:
			xtext_add(text, "- %s: refused: %s. Nothing after it was tried.\n", written,
				  error_message(result.refused));
			stop = 1;
			break;
		case PLAY_KEY_REUSED:
		case PLAY_STALE:
		case PLAY_RACED:
			xtext_add(text,
				  "- %s: not tried: the game kept changing meanwhile. Nothing after it was tried.\n",
				  written);
			stop = 1;
			break;
		case PLAY_STORE_FAILED:
		case PLAY_STOPPING:
			return OUTCOME_TEMPFAIL;
		}
		if (play_load(record->id, 1, record) != STORE_OK)
			return OUTCOME_TEMPFAIL;
		if (stop)
			break;
	}
	if (number == 0)
		xtext_add(text, "- (no command found above the quoted mail)\n");
	return OUTCOME_DONE;
}

int main(int argc, char **argv)
{
	if (!config_from_env(&config))
		return EXIT_CONFIG;
	size_t size;
	char *data = read_stdin(&size);
	struct mail_in in;
	int parsed = mail_in_parse(data, size, config.mail_auth_servid, &in);
	int status = 0;
	if (!parsed) {
		ignored("not a message");
		goto out;
	}
	if (in.automatic || in.bounce) {
		ignored(in.bounce ? "a bounce" : "an automatic mail");
		goto out;
	}
	/* The reply address: the envelope recipient Postfix hands over, else the headers'. */
	char code[MAIL_REPLY_CODE_SIZE];
	int found = argc > 1 && mail_reply_address_code(argv[1], config.mail_reply_domain, code);
	for (int i = 0; !found && i < in.recipient_count; i++)
		found = mail_reply_address_code(in.recipients[i], config.mail_reply_domain, code);
	struct mail_reply_code fields;
	if (!found || !mail_reply_code_read(code, &fields)) {
		ignored("no reply address");
		goto out;
	}
	struct play_hooks hooks = {0};
	play_init(config.database_url, &hooks);
	struct store_mail mail;
	enum store_status store_status = mailing_get(fields.registration_id, 0, 0, &mail);
	if (store_status == STORE_NOT_FOUND) {
		ignored("no such registration");
		goto out;
	}
	if (store_status != STORE_OK) {
		status = EXIT_TEMPFAIL;
		goto out;
	}
	if (!mail_reply_code_matches(mail.secret, code)) {
		ignored("a forged or tampered reply address");
		goto out;
	}
	int failed;
	if (!mail.confirmed || !registration_holds(&mail, fields.game_id, fields.seat, &failed)) {
		if (failed)
			status = EXIT_TEMPFAIL;
		else
			ignored("the registration no longer holds the seat");
		goto out;
	}
	if (config.mail_auth_servid && !in.authenticated) {
		ignored("not vouched for by Authentication-Results");
		goto out;
	}
	char message_id[256], key_base[KEY_SIZE];
	message_key(&in, data, size, message_id, sizeof message_id);
	snprintf(key_base, sizeof key_base, "mail:%lld:%s", (long long)mail.id, message_id);
	int seen = 0;
	if (mailing_reply_seen(fields.game_id, key_base, &seen) != STORE_OK) {
		status = EXIT_TEMPFAIL;
		goto out;
	}
	if (seen) {
		ignored("answered already");
		goto out;
	}
	struct game_record record;
	store_status = play_load(fields.game_id, 1, &record);
	if (store_status != STORE_OK) {
		if (store_status == STORE_NOT_FOUND)
			ignored("no such game");
		else
			status = EXIT_TEMPFAIL;
		goto out;
	}
	int seat = fields.seat;
	const char *names[GAME_MAX_SEATS];
	play_names(&record, names);
	struct xtext text = xtext_new();
	const char *name = seat < GAME_MAX_SEATS && names[seat] && names[seat][0] ? names[seat] : NULL;
	xtext_add(&text, "Your reply for %s%sseat %d of Catan game %s:\n\n", name ? name : "", name ? ", " : "", seat,
		  record.id_text);
	int applied = 0;
	int64_t now_s = (int64_t)time(NULL);
	struct game then;
	if (fields.expires_s < now_s) {
		xtext_add(&text, "That mail's reply address has expired: nothing was done.\n");
	} else if ((int64_t)record.state.version < fields.version ||
		   (int64_t)record.state.version - fields.version > config.mail_reply_versions) {
		xtext_add(&text, "The game has moved on since that mail: nothing was done.\n");
	} else {
		store_status = play_state_at(record.id, fields.version, &then);
		if (store_status != STORE_OK) {
			status = EXIT_TEMPFAIL;
			free(text.data);
			goto out;
		}
		if (then.turn_number != record.state.turn_number || then.turn_seat != record.state.turn_seat ||
		    record.state.phase == GAME_PHASE_FINISHED) {
			xtext_add(&text,
				  "The game has moved on since that mail (another turn now): nothing was done.\n");
		} else if (play_lines(&record, &mail, seat, in.text, key_base, &text, &applied) != OUTCOME_DONE) {
			status = EXIT_TEMPFAIL;
			free(text.data);
			goto out;
		}
	}
	char base[512], board[700], game_url[700], reply_to[MAIL_REPLY_CODE_SIZE + 300];
	public_base(base, sizeof base);
	snprintf(board, sizeof board, "%s/v1/games/%s/board.png?version=%u", base, record.id_text,
		 (unsigned)record.state.version);
	snprintf(game_url, sizeof game_url, "%s/#game=%s", base, record.id_text);
	xtext_add(&text, "\nThe board now: %s\n", board);
	play_names(&record, names);
	add_now(&record, &mail, seat, names, &text, reply_to, sizeof reply_to);
	xtext_add(&text, "\nOpen the game: %s\n", game_url);
	struct xtext html = xtext_new();
	xtext_add(&html, "<!DOCTYPE html><html><body><pre>");
	mail_text_add_html(&html, text.data);
	xtext_add(&html, "</pre><p><a href=\"");
	mail_text_add_html(&html, board);
	xtext_add(&html, "\"><img src=\"");
	mail_text_add_html(&html, board);
	xtext_add(&html, "\" alt=\"The board now\" width=\"480\"></a></p></body></html>\n");
	char subject[160];
	snprintf(subject, sizeof subject, "Your moves in Catan game %s", record.id_text);
	struct mail_content content = {config.mail_from,
				       mail.address,
				       subject,
				       text.data,
				       html.data,
				       NULL,
				       (int64_t)((uint64_t)record.id << 20 | (record.state.version & 0xfffff)),
				       now_s,
				       reply_to[0] ? reply_to : NULL,
				       message_id};
	int answered = 0;
	if (config.smtp_url) {
		char *message = mail_message(&content);
		CURL *curl = curl_easy_init();
		struct mail_smtp smtp = {config.smtp_url, config.smtp_user, config.smtp_password, config.mail_from};
		char error[128];
		long reply = 0;
		int duration_ms = 0;
		answered =
			mail_smtp_send(curl, &smtp, mail.address, message, error, sizeof error, &reply, &duration_ms);
		curl_easy_cleanup(curl);
		free(message);
		if (!answered) {
			log_event("warn", "mail answer not sent", "why", error, NULL);
			status = EXIT_TEMPFAIL;
		}
	} else {
		ignored("no SMTP_URL: the moves were made, no answer sent");
	}
	/* The answer is the seat's mail about the turn it describes: no turn mail repeats it,
	 * and when it leaves the seat nothing to do (-1), the next wait for the seat is mailed,
	 * even within the same turn (the robber after the others' discards). The last mail,
	 * with the final points, still goes out. */
	int64_t turn = mailing_turn_key(&record.state, seat);
	if (answered && turn != MAILING_TURN_FINISHED) {
		int32_t version = (int32_t)record.state.version;
		enum store_status noted = mail.player_id ? mailing_game_sent(mail.id, record.id, turn, version, 0)
							 : mailing_sent(mail.id, turn, version, 0);
		if (noted != STORE_OK)
			status = EXIT_TEMPFAIL;
	}
	char count[16];
	snprintf(count, sizeof count, "%d", applied);
	log_event("info", "mail reply", "game", record.id_text, "moves", count, NULL);
	if (status == 0 && mailing_reply_answered(record.id, key_base) != STORE_OK)
		status = EXIT_TEMPFAIL;
	free(text.data);
	free(html.data);
out:
	mail_in_free(&in);
	free(data);
	return status;
}
