/*
 * config.h - the server's settings, all from the environment, with the defaults a
 * single-machine deployment wants.
 *
 *   DATABASE_URL            libpq connection string or URI (unset: libpq's PG* defaults)
 *   DATABASE_READ_URL       unset (every read on DATABASE_URL); a connection string whose
 *                           standby answers spectators' views, board pictures, finished
 *                           games' exports and the lobby (target_session_attrs=prefer-standby
 *                           unless it says otherwise; game/play_standby.c)
 *   PORT                    8080
 *   LISTEN                  127.0.0.1 (0.0.0.0 or :: to serve other hosts)
 *   THREADS                 16 (HTTP worker threads, each with its own database connection)
 *   MAX_CONNECTIONS         1024
 *   MAX_CONNECTIONS_PER_IP  256
 *   CONNECTION_TIMEOUT_S    30 (no progress at all on a connection, e.g. a reader that stalls)
 *   REQUEST_TIMEOUT_S       10 (to deliver a request's headers, then its body: trickling
 *                           clients are cut off; see http/connections.h)
 *   KEEPALIVE_TIMEOUT_S     15 (idle between requests on a kept-alive connection)
 *   MAX_WAITING             MAX_CONNECTIONS / 2 (long-polls and streams at once; more: 503)
 *   MAX_WAITING_PER_TOKEN   8 (of them with one token; more: 429 waiting_quota); 0: no limit
 *   MAX_WAITING_PER_IP      64 (of them from one client address; more: 429); 0: no limit
 *   RATE_LIMIT_IP           200 requests/s per client IP (burst 2x); 0 disables
 *   RATE_LIMIT_TOKEN        50 requests/s per token (burst 2x); 0 disables
 *   CREATE_RATE_IP          60 games created (or imported) per hour per client (burst 20;
 *                           counted in the database: api/quotas.c); 0 disables
 *   PLAYER_RATE_IP          30 players made per hour per client (burst 10); 0 disables
 *   IMPORT_BYTES_IP         16777216 bytes of imports per hour per client; 0 disables
 *   IMPORT_MAX_EVENTS       10000 events at most in one import
 *   IMPORT_CONCURRENCY      2 imports judged at once by this process (more: 503
 *                           import_busy); 0: no bound
 *   AWAY_RATE_SEAT          24 holiday toggles (away or back) per seat per day (burst the
 *                           same; also the most seat_away and seat_back events per seat in
 *                           one import); 0 disables
 *   LOBBY_EXPIRE_S          1209600 (14 days): a game still waiting for players this long
 *                           after its creation expires (status expired); 0: never
 *   MESSAGE_RATE_SEAT       10 table-talk messages per seat per minute (0 disables)
 *   WEBHOOK_RECEIVERS_MAX   20 receivers at most for one event of a game (webhooks, chat
 *                           channels and mail of the game and its players; 0: no bound)
 *   TRUSTED_PROXIES         unset: the client is the socket's peer; set (addresses and CIDR
 *                           ranges, comma-separated): a request from one of them is the
 *                           client's that X-Forwarded-For names (http/client.h)
 *   CREATE_KEY              unset: anyone may create games; set: POST /v1/games needs
 *                           "Authorization: Bearer <CREATE_KEY>" (at least 16 characters)
 *   ALL_BOT_GAMES           0: a game without a human seat needs CREATE_KEY; 1: anyone
 *   WEBHOOK_ALLOW_PRIVATE   0: webhooks reach only public addresses (deliver/destination.h);
 *                           1: also loopback and private ones (tests, on-premise receivers)
 *   SNAPSHOT_EVERY          events between snapshots of a game's state (see game/game_repo)
 *   PUBLIC_URL              the base URL printed at start and used in the board_url of
 *                           your_turn webhook notes (default http://LISTEN:PORT)
 *   WORKERS                 2 (threads making bot moves and expired-deadline moves)
 *   BOT_PLAYOUTS            80 (the hard bot's playouts per decision at no load; fewer
 *                           under load, game/worker.c)
 *   GROUP_COMMIT_MAX        64 appends (events alone) of many games at most in one statement of
 *                           the committer (db/committer.h); 0: each append on its own
 *   GROUP_COMMIT_CONNECTIONS 2 the committer's connections (statements in flight at once)
 *   WEBHOOK_WORKERS         2 (threads delivering webhooks)
 *   RENDER_CONCURRENCY      the number of CPUs (board pictures drawn at once; see
 *                           render/render_slots.h)
 *   RENDER_WAIT_MS          2000 (how long a picture request waits for a drawing slot
 *                           before answering 503 render_busy)
 *   CHANNEL_MAX_FAILURES    10: a discord or slack webhook is disabled after this many
 *                           failed attempts in a row (deliver/channels.h)
 *   SMTP_URL                unset: mail is off (registering an address answers 503
 *                           mail_disabled); smtp://relay:25 or smtps://relay:465: the
 *                           relay "your turn" mails go through (deliver/mail_message.h)
 *   SMTP_USER, SMTP_PASSWORD  the relay's credentials, if it wants them (then STARTTLS is
 *                           required on smtp://)
 *   MAIL_FROM               catan@localhost: the sender of mails (one plain address)
 *   MAIL_MIN_INTERVAL_S     900: at least this long between two mails to one registration
 *   MAIL_CONFIRMS_PER_ADDRESS     5: confirmation mails to one address per window (counted in
 *                           the database, across servers; more: 429 mail_quota); 0: no bound
 *   MAIL_CONFIRMS_PER_REGISTRANT  5: confirmation mails one seat or player may cause per
 *                           window; 0: no bound
 *   MAIL_CONFIRM_WINDOW_S   86400: the window of those two budgets
 *   MAIL_REPLY_DOMAIN       unset: "your turn" mails carry no reply address; set
 *                           (play.example.org): Reply-To turn+<code>@that domain, and the
 *                           mail lists the seat's moves as commands (deliver/mail_reply.h,
 *                           cmd/catan_mail_in.c reads the replies)
 *   MAIL_REPLY_EXPIRES_S    604800: how long a reply address moves for its seat
 *   MAIL_REPLY_VERSIONS     30: how many versions past its own (in the same turn) a reply
 *                           address still moves at
 *   MAIL_AUTH_SERVID        unset: catan-mail-in reads no Authentication-Results; set (the
 *                           receiving MTA's authserv-id): a reply needs that MTA's dkim=pass
 *                           or spf=pass, and no dmarc=fail, to move
 *   CORS_ORIGINS            unset: web pages of any origin may call the API
 *                           (Access-Control-Allow-Origin: *); set: only these origins,
 *                           comma-separated (https://play.example.com,http://localhost:5173)
 */
#ifndef CATAN_API_CONFIG_H
#define CATAN_API_CONFIG_H

struct config {
	const char *database_url;      /* NULL: libpq defaults */
	const char *database_read_url; /* NULL: every read on database_url */
	const char *listen_address;
	const char *public_url; /* NULL: derived */
	int port;
	int threads;
	int max_connections;
	int max_connections_per_ip;
	int connection_timeout_s;
	int request_timeout_s;
	int keepalive_timeout_s;
	int max_waiting;
	int max_waiting_per_token; /* waiting requests one token may hold (0: no limit) */
	int max_waiting_per_ip;	   /* waiting requests one client address may hold (0: no limit) */
	double rate_limit_ip;
	double rate_limit_token;
	int create_per_hour;	     /* games one client may create per hour (0: no limit) */
	int players_per_hour;	     /* players one client may make per hour (0: no limit) */
	int import_bytes_per_hour;   /* bytes one client may import per hour (0: no limit) */
	int import_max_events;	     /* events at most in one import */
	int import_concurrency;	     /* imports judged at once in this process (0: no bound) */
	int away_per_day;	     /* holiday toggles per seat per day (0: no limit) */
	int lobby_expire_s;	     /* a game still waiting this long after its creation expires (0: never) */
	int messages_per_minute;     /* table-talk messages per seat per minute (0: no limit) */
	int webhook_receivers_max;   /* receivers of one event of a game (0: no bound) */
	const char *trusted_proxies; /* NULL: nobody's X-Forwarded-For is believed */
	const char *create_key;	     /* when set, creating a game needs it as a bearer token */
	int all_bot_games;	     /* 1: anyone may create a game without a human seat */
	int webhook_allow_private;   /* 1: webhooks may reach private and loopback addresses */
	int workers;
	int bot_playouts;
	int group_commit_max;	      /* appends per statement of the committer; 0: none */
	int group_commit_connections; /* the committer's connections */
	int webhook_workers;
	int render_concurrency;
	int render_wait_ms;
	int channel_max_failures; /* failed attempts in a row that disable a chat webhook */
	const char *cors_origins; /* NULL: any origin (http/cors.h) */
	const char *smtp_url;	  /* NULL: mail is off */
	const char *smtp_user;	  /* NULL: no credentials */
	const char *smtp_password;
	const char *mail_from;
	int mail_min_interval_s;
	int mail_confirms_per_address;	  /* confirmation mails to one address per window (0: no bound) */
	int mail_confirms_per_registrant; /* ... caused by one seat or player per window (0: no bound) */
	int mail_confirm_window_s;
	const char *mail_reply_domain; /* NULL: no reply addresses */
	int mail_reply_expires_s;
	int mail_reply_versions;
	const char *mail_auth_servid; /* NULL: Authentication-Results not checked */
};

/* Read the environment into *config. Returns 0 with a message on stderr when a variable
 * is malformed. */
int config_from_env(struct config *config);

#endif
