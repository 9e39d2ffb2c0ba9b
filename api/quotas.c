/*
 * quotas.c - the budgets of this server: every quota is keyed by the client as the
 * service sees it, counted where it must be, and charged only for work actually done.
 *
 * Keyed by the client as the service sees it. The client is the socket's peer, or the
 * address a proxy the operator trusts reports (TRUSTED_PROXIES and X-Forwarded-For,
 * http/client.h); one function computes it for every request (request->client_key), and
 * the per-request rates (http/ratelimit.h), these budgets and the access log all use it.
 * Behind the README's HAProxy recipe each client therefore has its own quota, and a
 * client that is not behind a trusted proxy cannot choose its key by sending the header.
 * An IPv6 client is keyed by its /64. Budgets of a seat (holiday toggles, messages) are
 * keyed by the game and the seat, whoever holds its token.
 *
 * Counted where it must be. What is written to the database anyway (games created and
 * imported, players, the bytes of imports, holiday toggles, table talk) is counted there
 * too (db/migrations/0011_quotas.sql, game/quota.h; messages count their own rows,
 * db/migrations/0004_messages.sql), so the budget is the same on every server of one
 * database and survives restarts. Per-request rates (RATE_LIMIT_IP, RATE_LIMIT_TOKEN) stay
 * in each process (http/ratelimit.c): they protect that process's threads, and counting
 * every request in the database would cost more than the requests. So do the limits of
 * one process's resources: imports judged at once (IMPORT_CONCURRENCY, here), pictures
 * drawn at once (render/render_slots.h), parked requests (http/connections.h).
 *
 * Charged only for work actually done. A handler peeks before the work (quotas_admit: one
 * read; a client past its budget is refused before anything is parsed or judged) and pays
 * after it succeeded (quotas_charge, once its 201 or 200 is decided). A body that is
 * refused (400, 403, 422), a store failure or a lost race costs nothing, so a client whose
 * bodies are wrong is never locked out by them. The race accepted: requests of one client
 * that peek at the same moment may all pass and all be charged, taking the budget past
 * its burst by at most the requests that client has in flight at once (THREADS per
 * server, at most IMPORT_CONCURRENCY imports); the charge is still paid, by waiting that
 * much longer for the next. No request is ever refused for another's charge it could not
 * see, and a crash between work and charge forgives one unit.
 *
 * Outbound messages are bounded per event rather than counted: one event of a game is
 * enqueued for at most WEBHOOK_RECEIVERS_MAX receivers (webhooks, chat channels and mail
 * registrations of the game and of its seated players together; the oldest first,
 * db/migrations/0011_quotas.sql), and the writers of events that no rule bounds are
 * budgeted here (holiday toggles per seat, AWAY_RATE_SEAT) or by their own rows (messages
 * per seat, MESSAGE_RATE_SEAT).
 *
 *   budget          key     default             on refusal
 *   CREATE_RATE_IP  client  60 an hour, 20 at once   429 create_quota (imports too)
 *   PLAYER_RATE_IP  client  30 an hour, 10 at once   429 player_quota
 *   IMPORT_BYTES_IP client  16 MiB an hour           429 import_quota
 *   AWAY_RATE_SEAT  seat    24 a day                 429 away_quota
 *
 * Every budget is a leaky bucket of the database (its `burst` at once, refilled at the
 * rate); a setting of 0 switches it off (no query at all), which is what the test suites
 * and benchmarks running from one loopback address do unless they test the budget.
 */
#include "api/quotas.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "api/service.h"
#include "base/counters.h"
#include "base/log.h"
#include "game/quota.h"

struct budget_rule {
	const char *kind;    /* the row's kind in the store */
	const char *setting; /* its environment variable */
	enum problem problem;
	const char *refusal; /* the detail of a 429, with %s for the setting */
};

static const struct budget_rule rules[QUOTAS_BUDGET_COUNT] = {
	[QUOTAS_CREATE] = {"create", "CREATE_RATE_IP", PROBLEM_CREATE_QUOTA,
			   "this address has created (or imported) as many games as it may for now (%s)"},
	[QUOTAS_PLAYER] = {"player", "PLAYER_RATE_IP", PROBLEM_PLAYER_QUOTA,
			   "this address has made as many players as it may for now (%s)"},
	[QUOTAS_IMPORT_BYTES] = {"import_bytes", "IMPORT_BYTES_IP", PROBLEM_IMPORT_QUOTA,
				 "this address has imported as many bytes as it may for now (%s)"},
	[QUOTAS_AWAY] = {"away", "AWAY_RATE_SEAT", PROBLEM_AWAY_QUOTA,
			 "this seat has gone away and come back as often as it may for now (%s)"},
};

static struct quota_budget budgets[QUOTAS_BUDGET_COUNT];
static int import_places;
static atomic_int imports_running;

static void set_budget(enum quotas_budget which, double per_window, double window_s, double burst)
{
	budgets[which].kind = rules[which].kind;
	budgets[which].rate = per_window > 0 ? per_window / window_s : 0;
	budgets[which].burst = burst;
}

void quotas_configure(const struct config *config)
{
	set_budget(QUOTAS_CREATE, config->create_per_hour, 3600, 20);
	set_budget(QUOTAS_PLAYER, config->players_per_hour, 3600, 10);
	set_budget(QUOTAS_IMPORT_BYTES, config->import_bytes_per_hour, 3600, config->import_bytes_per_hour);
	set_budget(QUOTAS_AWAY, config->away_per_day, 86400, config->away_per_day);
	import_places = config->import_concurrency;
}

int quotas_on(enum quotas_budget budget)
{
	return quota_on(&budgets[budget]);
}

double quotas_burst(enum quotas_budget budget)
{
	return budgets[budget].burst;
}

int quotas_admit(struct http_request *request, enum quotas_budget budget, const char *key, double amount)
{
	if (!quotas_on(budget))
		return 1;
	struct store_quota_answer answer;
	enum store_status status = quota_peek(&budgets[budget], key, amount, &answer);
	if (status != STORE_OK) {
		service_store_error(request, status);
		return 0;
	}
	if (answer.allowed)
		return 1;
	char seconds[16], detail[200];
	snprintf(seconds, sizeof seconds, "%d", answer.retry_after_s > 0 ? answer.retry_after_s : 1);
	snprintf(detail, sizeof detail, rules[budget].refusal, rules[budget].setting);
	http_add_header(request, "Retry-After", seconds);
	counters_add(COUNTERS_RATE_LIMITED, 1);
	http_respond_problem(request, rules[budget].problem, detail, NULL, -1);
	return 0;
}

void quotas_charge(struct http_request *request, enum quotas_budget budget, const char *key, double amount)
{
	if (!quotas_on(budget))
		return;
	enum store_status status = quota_charge(&budgets[budget], key, amount);
	if (status != STORE_OK)
		log_event("error", "a quota could not be charged", "budget", rules[budget].setting, "request_id",
			  request->request_id, "status", store_status_name(status), NULL);
}

const char *quotas_client(const struct http_request *request)
{
	return request->client_key;
}

const char *quotas_seat_key(int64_t game_id, int seat, char *out, size_t size)
{
	snprintf(out, size, "seat:%016" PRIx64 ":%d", (uint64_t)game_id, seat);
	return out;
}

int quotas_import_enter(struct http_request *request)
{
	if (import_places <= 0)
		return 1;
	if (atomic_fetch_add(&imports_running, 1) < import_places)
		return 1;
	atomic_fetch_sub(&imports_running, 1);
	http_add_header(request, "Retry-After", "5");
	http_respond_problem(request, PROBLEM_IMPORT_BUSY,
			     "this server judges as many imports at once as it may (IMPORT_CONCURRENCY): retry shortly",
			     NULL, -1);
	return 0;
}

void quotas_import_leave(void)
{
	if (import_places > 0)
		atomic_fetch_sub(&imports_running, 1);
}
