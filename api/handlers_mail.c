/*
 * handlers_mail.c - a seat's mail address (deliver/mail_message.h sends the mails).
 *
 *   POST   /v1/games/{id}/mail {address}   register (or replace) the seat's address:
 *                                          202, and a confirmation mail with a link
 *   GET    /v1/games/{id}/mail             whether mail is on for the seat (address masked)
 *   DELETE /v1/games/{id}/mail             remove it (204, also when there was none)
 *   POST   /v1/players/me/mail {address}   the same for a player (player token): one
 *   GET    /v1/players/me/mail             address for every game the player sits in,
 *   DELETE /v1/players/me/mail             now and later (deliver/mail.c says how it mails)
 *   GET    /v1/mail/confirm?code=          the confirmation link: turns the mails on
 *   GET    /v1/mail/unsubscribe?code=      a page with one button that POSTs ...
 *   POST   /v1/mail/unsubscribe?code=      ... here: removes the registration (RFC 8058
 *                                          one-click: mail clients POST it themselves)
 *
 * The game routes take the seat's token, or its player's token (a seat route: see
 * service_open). The address is never answered back in full: the registrant's view shows
 * it masked ("a***@example.org"), enough to recognize, too little to harvest.
 *
 * Why GET of the unsubscribe link does not unsubscribe: mail systems and virus scanners
 * open the links of a mail before anyone reads it (RFC 8058, section 1), so a GET that
 * unsubscribed would unsubscribe everybody; the page's button (or the mail client's
 * one-click POST) does it. The confirmation link is a GET all the same, because confirming
 * is what a click from the mailbox means, and a scanner that confirms proves only that
 * the mailbox exists and accepts the mails, which its owner may stop with one click.
 *
 * Confirmation mails have budgets (MAIL_CONFIRMS_PER_ADDRESS, MAIL_CONFIRMS_PER_REGISTRANT
 * per MAIL_CONFIRM_WINDOW_S, counted in the database: db/migrations/0012_registrations.sql):
 * a registration over either answers 429 mail_quota with Retry-After and writes and sends
 * nothing, so nobody can flood an address with confirmation mails.
 *
 * Links answer small HTML pages (a person reads them in a browser); their errors are
 * problems like every error of the API. With no SMTP_URL, registering answers 503
 * mail_disabled, so a client can tell the player why nothing will come.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/handlers.h"
#include "api/registration.h"
#include "api/routes.h"
#include "api/service.h"
#include "base/xalloc.h"
#include "deliver/mail_message.h"
#include "game/mailing.h"

static void respond_page(struct http_request *request, int status, const char *title, const char *paragraph,
			 const char *form_action)
{
	char form[900] = "";
	if (form_action)
		snprintf(form, sizeof form,
			 "<form method=\"post\" action=\"%s\"><button type=\"submit\">Stop the mails</button></form>",
			 form_action);
	char *page = xasprintf("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s</title></head>"
			       "<body><h1>%s</h1><p>%s</p>%s</body></html>\n",
			       title, title, paragraph, form);
	http_add_header(request, "Cache-Control", "no-store");
	http_add_header(request, "Referrer-Policy", "no-referrer");
	http_respond_raw(request, status, "text/html; charset=utf-8", page, strlen(page));
	free(page);
}

static int mail_enabled(struct http_request *request)
{
	const struct config *config = service_config();
	if (config && config->smtp_url)
		return 1;
	http_respond_problem(request, PROBLEM_MAIL_DISABLED,
			     "this server has no mail relay configured (SMTP_URL), so it sends no mail", NULL, -1);
	return 0;
}

/* The request's body, checked to be {address} (api/registration.c): 1 with *body (the
 * caller frees it) and *address set, or 0 with a problem queued. */
static int read_address(struct http_request *request, json_t **body, const char **address)
{
	*body = service_body(request, 0);
	if (!*body)
		return 0;
	struct problem_refusal refusal;
	if (registration_read_mail(*body, address, &refusal))
		return 1;
	service_refuse(request, &refusal);
	json_decref(*body);
	*body = NULL;
	return 0;
}

/* The confirmation-mail budgets of the settings (api/config.h). */
static struct store_mail_budget mail_budget(void)
{
	const struct config *config = service_config();
	struct store_mail_budget budget = {config->mail_confirms_per_address, config->mail_confirms_per_registrant,
					   config->mail_confirm_window_s};
	return budget;
}

/* 429 mail_quota with Retry-After: the registration would send one confirmation mail too
 * many (to this address, or from this seat or player); nothing was written or sent. The
 * detail does not say which budget, so the answer does not tell whether someone else
 * registered the address lately. */
static void respond_over_budget(struct http_request *request, int retry_after_s)
{
	const struct config *config = service_config();
	char seconds[16], detail[200];
	snprintf(seconds, sizeof seconds, "%d", retry_after_s);
	snprintf(detail, sizeof detail,
		 "at most %d confirmation mails to one address and %d from one seat or player every %d s: retry "
		 "in %d s",
		 config->mail_confirms_per_address, config->mail_confirms_per_registrant, config->mail_confirm_window_s,
		 retry_after_s);
	http_add_header(request, "Retry-After", seconds);
	http_respond_problem(request, PROBLEM_MAIL_QUOTA, detail, NULL, -1);
}

/* 202 for a registration of `address` whose confirmation mail is queued. */
static void respond_registered(struct http_request *request, const char *address)
{
	char masked[MAIL_ADDRESS_MAX + 8];
	mail_mask(address, masked, sizeof masked);
	http_add_header(request, "Cache-Control", "no-store");
	http_respond_json_hashed(request, 202,
				 json_pack("{s:s, s:b, s:b, s:s}", "status", "confirmation_sent", "registered", 1,
					   "confirmed", 0, "address", masked),
				 "mail-");
}

/* 200 with the state of a registration (found 0: none); the address masked. */
static void respond_state(struct http_request *request, int found, struct store_mail *mail)
{
	int available = service_config() && service_config()->smtp_url;
	http_add_header(request, "Cache-Control", "no-store");
	if (!found) {
		http_respond_json_hashed(
			request, 200,
			json_pack("{s:b, s:b, s:b}", "available", available, "registered", 0, "confirmed", 0), "mail-");
		return;
	}
	char masked[MAIL_ADDRESS_MAX + 8];
	mail_mask(mail->address, masked, sizeof masked);
	memset(mail->address, 0, sizeof mail->address);
	http_respond_json_hashed(request, 200,
				 json_pack("{s:b, s:b, s:b, s:s}", "available", available, "registered", 1, "confirmed",
					   mail->confirmed, "address", masked),
				 "mail-");
}

/* Whose registration a request is about: a seat of a game (its token, or its player's),
 * or a player (for every game the player sits in). */
struct registrant {
	int64_t game_id; /* 0 for a player */
	int seat;
	int64_t player_id; /* 0 for a seat */
	int finished;	   /* the seat's game is over */
};

/* The registrant of a seat route (`player` 0) or of a player route: 1 and *out, or 0 with
 * a problem queued. */
static int open_registrant(struct http_request *request, int player, struct registrant *out)
{
	memset(out, 0, sizeof *out);
	if (player) {
		struct store_player found;
		if (!handlers_authenticate_player(request, &found))
			return 0;
		out->player_id = found.id;
		out->seat = -1;
		return 1;
	}
	struct session session;
	if (!service_open(request, &session))
		return 0;
	out->game_id = session.game.id;
	out->seat = session.viewer;
	out->finished = session.game.state.phase == GAME_PHASE_FINISHED;
	return 1;
}

/* POST: register (or replace) the address, its confirmation mail queued within the budgets. */
static void post_mail(struct http_request *request, int player)
{
	struct registrant who;
	if (!open_registrant(request, player, &who) || !mail_enabled(request))
		return;
	json_t *body;
	const char *address;
	if (!read_address(request, &body, &address))
		return;
	if (who.finished) {
		http_respond_problem(request, PROBLEM_GAME_FINISHED, "a finished game sends no more mail", NULL, -1);
		json_decref(body);
		return;
	}
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE];
	int64_t id;
	int retry_after_s = 0;
	struct store_mail_budget budget = mail_budget();
	enum store_status status = STORE_UNAVAILABLE;
	if (auth_random(secret, sizeof secret))
		status = who.player_id ? mailing_register_player(who.player_id, address, secret, MAIL_CONFIRM_EXPIRES_S,
								 &budget, &id, &retry_after_s)
				       : mailing_register(who.game_id, who.seat, address, secret,
							  MAIL_CONFIRM_EXPIRES_S, &budget, &id, &retry_after_s);
	if (status == STORE_OK && retry_after_s > 0)
		respond_over_budget(request, retry_after_s);
	else if (status == STORE_OK)
		respond_registered(request, address);
	else if (status == STORE_NOT_FOUND && !who.player_id)
		http_respond_problem(request, PROBLEM_GAME_NOT_FOUND, NULL, NULL, -1);
	else
		service_store_error(request, status);
	json_decref(body);
}

/* GET (`remove` 0): whether mail is on, the address masked; DELETE: remove it (204, also
 * when there was none). */
static void read_or_remove(struct http_request *request, int player, int remove)
{
	struct registrant who;
	if (!open_registrant(request, player, &who))
		return;
	struct store_mail mail;
	int removed;
	enum store_status status;
	if (remove)
		status = who.player_id ? mailing_delete_player(who.player_id, &removed)
				       : mailing_delete(0, who.game_id, who.seat, &removed);
	else
		status = who.player_id ? mailing_get_player(who.player_id, &mail)
				       : mailing_get(0, who.game_id, who.seat, &mail);
	if (status != STORE_OK && (remove || status != STORE_NOT_FOUND))
		service_store_error(request, status);
	else if (remove)
		http_respond_empty(request, 204);
	else
		respond_state(request, status == STORE_OK, &mail);
}

/* The same handlers serve a seat's routes (/v1/games/{id}/mail, a seat route) and a
 * player's (/v1/players/me/mail): the route says whose registration it is. */
static int player_route(const struct http_request *request)
{
	return request->route && request->route->access == ROUTE_NO_GAME;
}

void handle_post_mail(struct http_request *request)
{
	post_mail(request, player_route(request));
}

void handle_get_mail(struct http_request *request)
{
	read_or_remove(request, player_route(request), 0);
}

void handle_delete_mail(struct http_request *request)
{
	read_or_remove(request, player_route(request), 1);
}

/* The registration a link's ?code= names, checked: 1 with *mail set; 0 when the code is
 * well formed but its registration is gone (*mail untouched); -1 with a problem queued. */
static int link_registration(struct http_request *request, enum mail_purpose purpose, struct store_mail *mail)
{
	const char *code = http_query(request, "code");
	int64_t id;
	if (!code || !mail_code_id(code, &id)) {
		http_respond_problem(request, PROBLEM_MAIL_LINK_INVALID, "the link's code is missing or malformed",
				     "code", -1);
		return -1;
	}
	enum store_status status = mailing_get(id, 0, 0, mail);
	if (status == STORE_NOT_FOUND)
		return 0;
	if (status != STORE_OK) {
		service_store_error(request, status);
		return -1;
	}
	memset(mail->address, 0, sizeof mail->address);
	if (!mail_code_matches(mail->secret, id, purpose, code)) {
		http_respond_problem(request, PROBLEM_MAIL_LINK_INVALID, "the link's code is not valid", "code", -1);
		return -1;
	}
	return 1;
}

void handle_mail_confirm(struct http_request *request)
{
	struct store_mail mail;
	int found = link_registration(request, MAIL_CONFIRM, &mail);
	if (found < 0)
		return;
	if (found == 0) {
		http_respond_problem(request, PROBLEM_MAIL_LINK_INVALID,
				     "this registration was removed or replaced: register the address again", "code",
				     -1);
		return;
	}
	if (mail.confirmed) {
		respond_page(request, 200, "Mail is on", "This address was confirmed already.", NULL);
		return;
	}
	int confirmed = 0;
	enum store_status status = mailing_confirm(mail.id, &confirmed);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return;
	}
	if (!confirmed) {
		http_respond_problem(request, PROBLEM_MAIL_LINK_INVALID,
				     "the confirmation link expired (24 hours): register the address again", "code",
				     -1);
		return;
	}
	respond_page(request, 200, "Mail is on",
		     "You will get a mail when the game waits for your seat. Every mail has a link to stop them.",
		     NULL);
}

void handle_mail_unsubscribe_page(struct http_request *request)
{
	struct store_mail mail;
	int found = link_registration(request, MAIL_UNSUBSCRIBE, &mail);
	if (found < 0)
		return;
	if (found == 0) {
		respond_page(request, 200, "No more mail", "This address gets no mail from this game.", NULL);
		return;
	}
	/* The form posts to this very address (path and code: nothing else). */
	char action[128];
	snprintf(action, sizeof action, "/v1/mail/unsubscribe?code=%s", http_query(request, "code"));
	respond_page(request, 200, "Stop the mails?",
		     mail.player_id ? "Press the button to stop the mails of all your games to this address."
				    : "Press the button to stop the mails of this game to this address.",
		     action);
}

void handle_mail_unsubscribe(struct http_request *request)
{
	struct store_mail mail;
	int found = link_registration(request, MAIL_UNSUBSCRIBE, &mail);
	if (found < 0)
		return;
	if (found > 0) {
		int removed;
		enum store_status status = mailing_delete(mail.id, 0, 0, &removed);
		if (status != STORE_OK) {
			service_store_error(request, status);
			return;
		}
	}
	respond_page(request, 200, "No more mail", "This address gets no more mail from this game.", NULL);
}
