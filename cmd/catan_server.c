/*
 * server.c - `catan-server`: configuration, migrations, the HTTP daemon, and shutdown.
 *
 *   catan-server            serve (migrations are applied first)
 *   catan-server migrate    apply the migrations and exit
 *
 * Signals: SIGTERM, SIGINT and SIGHUP are blocked in every thread (the mask is set before
 * any thread starts) and taken here with sigwait. Shutdown: stop accepting, wake every
 * parked request so it answers, let in-flight requests finish, close connections.
 * SIGPIPE is ignored (a client that hangs up is the socket layer's business).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/config.h"
#include "api/notify.h"
#include "api/quotas.h"
#include "api/routes.h"
#include "api/service.h"
#include "base/log.h"
#include "db/store.h"
#include "deliver/deliver.h"
#include "game/lobby_expiry.h"
#include "game/ratings.h"
#include "game/worker.h"
#include "http/client.h"
#include "http/cors.h"
#include "http/http.h"
#include "http/ratelimit.h"
#include "render/render.h"
#include "render/render_slots.h"

static int migrate(const struct config *config)
{
	int applied = 0;
	char message[512] = "";
	enum store_status status = store_migrate(config->database_url, &applied, message, sizeof message);
	if (status != STORE_OK) {
		log_event("error", "migrations failed", "status", store_status_name(status), "detail", message, NULL);
		return 0;
	}
	char count[16];
	snprintf(count, sizeof count, "%d", applied);
	log_event("info", "migrations applied", "count", count, NULL);
	return 1;
}

int main(int argc, char **argv)
{
	struct config config;
	if (!config_from_env(&config) || !cors_configure(config.cors_origins) ||
	    !client_configure(config.trusted_proxies))
		return 2;
	if (argc > 1 && strcmp(argv[1], "migrate") == 0)
		return migrate(&config) ? 0 : 1;
	if (argc > 1 && strcmp(argv[1], "serve") != 0) {
		fprintf(stderr, "usage: catan-server [serve|migrate]\n");
		return 2;
	}

	signal(SIGPIPE, SIG_IGN);
	sigset_t signals;
	sigemptyset(&signals);
	sigaddset(&signals, SIGTERM);
	sigaddset(&signals, SIGINT);
	sigaddset(&signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &signals, NULL);

	if (!migrate(&config))
		return 1;
	struct ratelimit_config limits = {config.rate_limit_ip, 2 * config.rate_limit_ip, config.rate_limit_token,
					  2 * config.rate_limit_token};
	ratelimit_configure(&limits);
	quotas_configure(&config);
	store_set_webhook_receivers_max(config.webhook_receivers_max);
	service_init(&config);
	/* at most half the HTTP threads wait for a slot to draw a picture: the rest serve the rest */
	render_slots_configure(config.render_concurrency, config.threads / 2, config.render_wait_ms);
	notify_start(config.database_url);
	worker_set_bot_playouts(config.bot_playouts);
	worker_start(config.workers);
	lobby_expiry_start(config.lobby_expire_s);
	ratings_start();
	struct deliver_config delivery = {
		.threads = config.webhook_workers,
		.allow_private = config.webhook_allow_private,
		.public_url = config.public_url,
		.listen_address = config.listen_address,
		.port = config.port,
		.channel_max_failures = config.channel_max_failures,
		.smtp_url = config.smtp_url,
		.smtp_user = config.smtp_user,
		.smtp_password = config.smtp_password,
		.mail_from = config.mail_from,
		.mail_min_interval_s = config.mail_min_interval_s,
		.mail_reply_domain = config.mail_reply_domain,
		.mail_reply_expires_s = config.mail_reply_expires_s,
	};
	deliver_start(&delivery);

	struct http_config http = {
		.router = routes(),
		.rate_limited_prefix = "/v1/", /* the API; probes and metrics are not limited */
		.listen_address = config.listen_address,
		.port = config.port,
		.threads = config.threads,
		.max_connections = config.max_connections,
		.max_connections_per_ip = config.max_connections_per_ip,
		.connection_timeout_s = config.connection_timeout_s,
		.request_timeout_s = config.request_timeout_s,
		.keepalive_timeout_s = config.keepalive_timeout_s,
		.max_waiting = config.max_waiting,
		.max_waiting_per_token = config.max_waiting_per_token,
		.max_waiting_per_ip = config.max_waiting_per_ip,
	};
	struct MHD_Daemon *daemon = http_start(&http);
	if (!daemon) {
		deliver_stop();
		lobby_expiry_stop();
		ratings_stop();
		worker_stop();
		notify_stop();
		return 1;
	}
	char url[256];
	if (config.public_url)
		snprintf(url, sizeof url, "%s", config.public_url);
	else
		snprintf(url, sizeof url, "http://%s:%d",
			 strcmp(config.listen_address, "0.0.0.0") == 0 ? "localhost" : config.listen_address,
			 http_bound_port(daemon));
	char port[16];
	snprintf(port, sizeof port, "%d", http_bound_port(daemon));
	log_event("info", "listening", "url", url, "port", port, NULL);
	printf("catan-server: serving on %s (try: curl %s/healthz)\n", url, url);
	fflush(stdout);

	int signal_number = 0;
	sigwait(&signals, &signal_number);
	log_event("info", "shutting down", "signal", strsignal(signal_number), NULL);
	play_shutdown_begin();
	http_quiesce(daemon);
	notify_stop();
	http_stop(daemon, 5.0);
	ratings_stop();
	worker_stop();
	lobby_expiry_stop();
	deliver_stop();
	play_standby_shutdown();
	play_shutdown();
	render_shutdown(); /* no picture is being drawn: the HTTP threads have stopped */
	log_event("info", "stopped", NULL);
	return 0;
}
