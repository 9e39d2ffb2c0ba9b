/*
 * config.c - environment parsing with range checks; a bad value stops the server at start
 * rather than running with a surprise.
 */
#include "api/config.h"

#include "deliver/mail_message.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int read_int(const char *name, int fallback, int low, int high, int *out)
{
	const char *text = getenv(name);
	if (!text || !*text) {
		*out = fallback;
		return 1;
	}
	char *end;
	errno = 0;
	long value = strtol(text, &end, 10);
	if (errno || *end || value < low || value > high) {
		fprintf(stderr, "{\"level\":\"error\",\"msg\":\"bad setting\",\"name\":\"%s\",\"range\":\"%d..%d\"}\n",
			name, low, high);
		return 0;
	}
	*out = (int)value;
	return 1;
}

static int read_rate(const char *name, double fallback, double *out)
{
	int value;
	if (!read_int(name, (int)fallback, 0, 1000000, &value))
		return 0;
	*out = value;
	return 1;
}

/* The CPUs this process may run on, at least 1. */
static int cpu_count(void)
{
	long count = sysconf(_SC_NPROCESSORS_ONLN);
	return count < 1 ? 1 : count > 256 ? 256 : (int)count;
}

int config_from_env(struct config *config)
{
	config->database_url = getenv("DATABASE_URL");
	if (config->database_url && !*config->database_url)
		config->database_url = NULL;
	config->database_read_url = getenv("DATABASE_READ_URL");
	if (config->database_read_url && !*config->database_read_url)
		config->database_read_url = NULL;
	config->listen_address = getenv("LISTEN");
	if (!config->listen_address || !*config->listen_address)
		config->listen_address = "127.0.0.1";
	config->public_url = getenv("PUBLIC_URL");
	config->cors_origins = getenv("CORS_ORIGINS");
	if (config->cors_origins && !*config->cors_origins)
		config->cors_origins = NULL;
	config->smtp_url = getenv("SMTP_URL");
	if (config->smtp_url && !*config->smtp_url)
		config->smtp_url = NULL;
	if (config->smtp_url && strncmp(config->smtp_url, "smtp://", 7) != 0 &&
	    strncmp(config->smtp_url, "smtps://", 8) != 0) {
		fprintf(stderr, "{\"level\":\"error\",\"msg\":\"bad setting\",\"name\":\"SMTP_URL\","
				"\"range\":\"smtp://host[:port] or smtps://host[:port]\"}\n");
		return 0;
	}
	config->smtp_user = getenv("SMTP_USER");
	if (config->smtp_user && !*config->smtp_user)
		config->smtp_user = NULL;
	config->smtp_password = getenv("SMTP_PASSWORD");
	config->mail_from = getenv("MAIL_FROM");
	if (!config->mail_from || !*config->mail_from)
		config->mail_from = "catan@localhost";
	char why[200];
	if (strcmp(config->mail_from, "catan@localhost") != 0 &&
	    !mail_address_valid(config->mail_from, why, sizeof why)) {
		fprintf(stderr, "{\"level\":\"error\",\"msg\":\"bad setting\",\"name\":\"MAIL_FROM\","
				"\"range\":\"one plain mail address\"}\n");
		return 0;
	}
	config->mail_reply_domain = getenv("MAIL_REPLY_DOMAIN");
	if (config->mail_reply_domain && !*config->mail_reply_domain)
		config->mail_reply_domain = NULL;
	if (config->mail_reply_domain) {
		char address[300];
		snprintf(address, sizeof address, "turn@%.250s", config->mail_reply_domain);
		if (strlen(config->mail_reply_domain) > 200 || !mail_address_valid(address, why, sizeof why)) {
			fprintf(stderr, "{\"level\":\"error\",\"msg\":\"bad setting\",\"name\":\"MAIL_REPLY_DOMAIN\","
					"\"range\":\"a domain name\"}\n");
			return 0;
		}
	}
	config->mail_auth_servid = getenv("MAIL_AUTH_SERVID");
	if (config->mail_auth_servid && !*config->mail_auth_servid)
		config->mail_auth_servid = NULL;
	config->trusted_proxies = getenv("TRUSTED_PROXIES");
	if (config->trusted_proxies && !*config->trusted_proxies)
		config->trusted_proxies = NULL;
	config->create_key = getenv("CREATE_KEY");
	if (config->create_key && !*config->create_key)
		config->create_key = NULL;
	if (config->create_key && strlen(config->create_key) < 16) {
		fprintf(stderr, "{\"level\":\"error\",\"msg\":\"bad setting\",\"name\":\"CREATE_KEY\","
				"\"range\":\"at least 16 characters\"}\n");
		return 0;
	}
	return read_int("PORT", 8080, 0, 65535, &config->port) && read_int("THREADS", 16, 1, 256, &config->threads) &&
	       read_int("MAX_CONNECTIONS", 1024, 1, 100000, &config->max_connections) &&
	       read_int("MAX_CONNECTIONS_PER_IP", 256, 1, 100000, &config->max_connections_per_ip) &&
	       read_int("CONNECTION_TIMEOUT_S", 30, 1, 86400, &config->connection_timeout_s) &&
	       read_int("REQUEST_TIMEOUT_S", 10, 1, 3600, &config->request_timeout_s) &&
	       read_int("KEEPALIVE_TIMEOUT_S", 15, 1, 3600, &config->keepalive_timeout_s) &&
	       read_int("MAX_WAITING", config->max_connections / 2, 0, 100000, &config->max_waiting) &&
	       read_int("MAX_WAITING_PER_TOKEN", 8, 0, 100000, &config->max_waiting_per_token) &&
	       read_int("MAX_WAITING_PER_IP", 64, 0, 100000, &config->max_waiting_per_ip) &&
	       read_rate("RATE_LIMIT_IP", 200, &config->rate_limit_ip) &&
	       read_rate("RATE_LIMIT_TOKEN", 50, &config->rate_limit_token) &&
	       read_int("CREATE_RATE_IP", 60, 0, 1000000, &config->create_per_hour) &&
	       read_int("PLAYER_RATE_IP", 30, 0, 1000000, &config->players_per_hour) &&
	       read_int("IMPORT_BYTES_IP", 16 * 1024 * 1024, 0, 1024 * 1024 * 1024, &config->import_bytes_per_hour) &&
	       read_int("IMPORT_MAX_EVENTS", 10000, 1, 1000000, &config->import_max_events) &&
	       read_int("IMPORT_CONCURRENCY", 2, 0, 256, &config->import_concurrency) &&
	       read_int("AWAY_RATE_SEAT", 24, 0, 100000, &config->away_per_day) &&
	       read_int("LOBBY_EXPIRE_S", 14 * 86400, 0, 3660 * 86400, &config->lobby_expire_s) &&
	       read_int("MESSAGE_RATE_SEAT", 10, 0, 10000, &config->messages_per_minute) &&
	       read_int("WEBHOOK_RECEIVERS_MAX", 20, 0, 10000, &config->webhook_receivers_max) &&
	       read_int("ALL_BOT_GAMES", 0, 0, 1, &config->all_bot_games) &&
	       read_int("WEBHOOK_ALLOW_PRIVATE", 0, 0, 1, &config->webhook_allow_private) &&
	       read_int("WORKERS", 2, 0, 64, &config->workers) &&
	       read_int("BOT_PLAYOUTS", 80, 1, 100000, &config->bot_playouts) &&
	       read_int("GROUP_COMMIT_MAX", 0, 0, 1024, &config->group_commit_max) &&
	       read_int("GROUP_COMMIT_CONNECTIONS", 2, 1, 16, &config->group_commit_connections) &&
	       read_int("WEBHOOK_WORKERS", 2, 0, 64, &config->webhook_workers) &&
	       read_int("RENDER_CONCURRENCY", cpu_count(), 1, 256, &config->render_concurrency) &&
	       read_int("RENDER_WAIT_MS", 2000, 0, 60000, &config->render_wait_ms) &&
	       read_int("CHANNEL_MAX_FAILURES", 10, 1, 1000, &config->channel_max_failures) &&
	       read_int("MAIL_MIN_INTERVAL_S", 900, 0, 7 * 86400, &config->mail_min_interval_s) &&
	       read_int("MAIL_CONFIRMS_PER_ADDRESS", 5, 0, 1000000, &config->mail_confirms_per_address) &&
	       read_int("MAIL_CONFIRMS_PER_REGISTRANT", 5, 0, 1000000, &config->mail_confirms_per_registrant) &&
	       read_int("MAIL_CONFIRM_WINDOW_S", 86400, 1, 30 * 86400, &config->mail_confirm_window_s) &&
	       read_int("MAIL_REPLY_EXPIRES_S", 7 * 86400, 60, 90 * 86400, &config->mail_reply_expires_s) &&
	       read_int("MAIL_REPLY_VERSIONS", 30, 0, 10000, &config->mail_reply_versions);
}
