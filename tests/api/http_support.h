/*
 * http_support.h - what the HTTP integration tests share: real catan-server processes on
 * the PostgreSQL of DATABASE_URL, a Prism proxy that validates every response against
 * openapi/openapi.yaml, a small libcurl client, games created and played over HTTP by
 * their seat tokens, and the ground truth of a game read straight from the event store.
 *
 * Processes: servers and proxies are children of the test program, started from the
 * program's parent process (Check's unchecked fixtures) or from a test itself, and die
 * with the process that started them (PR_SET_PDEATHSIG), so a crashed test leaves nothing
 * running. The server binary is $CATAN_SERVER (`make test-http` passes the one of its own
 * build directory, so the sanitizer pass tests the sanitizer build), else
 * build/catan-server. Its stderr (one JSON line per request) goes to a log file whose path
 * failing assertions print.
 *
 * Every helper reports failures with Check's ck_assert_msg, so a helper failing fails the
 * calling test. Strings returned in structs are owned by the struct and freed with its
 * _free/_cleanup function.
 */
#ifndef CATAN_TESTS_API_HTTP_SUPPORT_H
#define CATAN_TESTS_API_HTTP_SUPPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "engine/game.h"
#include "engine/rng.h"

/* ---- Processes ---------------------------------------------------------------------- */

struct http_server {
	pid_t pid;
	int port;
	char url[64];	    /* http://127.0.0.1:PORT */
	char log_path[256]; /* its stderr */
	int stdout_fd;
};

/* Start catan-server on a free port of 127.0.0.1 with DATABASE_URL from the environment.
 * The defaults for tests are RATE_LIMIT_IP=0, RATE_LIMIT_TOKEN=0 (no limits), the
 * database's budgets off (CREATE_RATE_IP=0, PLAYER_RATE_IP=0, IMPORT_BYTES_IP=0,
 * AWAY_RATE_SEAT=0) and THREADS=8; `settings` (NULL-terminated "NAME=value" strings, or NULL) override them or
 * add others (DATABASE_URL too). Waits for its "serving on" line. */
void http_server_start(struct http_server *server, const char *const *settings);

/* SIGTERM, then wait up to `timeout_s` seconds for it to exit (SIGKILL after that). The
 * exit status, or -1 when it was killed by a signal or had to be killed. */
int http_server_stop(struct http_server *server, double timeout_s);

/* SIGTERM to a child, then wait up to `timeout_s` seconds for it (SIGKILL after that):
 * its exit status, or -1 when it died of a signal or had to be killed. */
int http_process_stop(pid_t pid, double timeout_s);

/* SIGKILL (a crash: no shutdown of any kind) and reap it. */
void http_server_kill(struct http_server *server);

/* A Prism proxy (`prism proxy --errors`) in front of `upstream` (a URL). With
 * validate_requests 0, requests that break the spec are forwarded to the server anyway
 * (for the error tests); responses are always validated. */
struct http_proxy {
	pid_t pid;
	int port;
	char url[64];
	char log_path[256];
};

void http_proxy_start(struct http_proxy *proxy, const char *upstream, int validate_requests);
void http_proxy_stop(struct http_proxy *proxy);

/* The path of scripts/pg.sh and of the throwaway cluster (scripts/with-postgres.sh), or
 * NULL when the database was given from outside and cannot be stopped by the tests. */
const char *http_pg_script(void);
const char *http_pg_dir(void);

/* Run `$CATAN_PG_SCRIPT verb $CATAN_TEST_PG_DIR` (start or stop); fails the test on error. */
void http_pg_control(const char *verb);

/* The last `size` - 1 bytes of a log file (a server's stderr), for failure messages. */
void http_log_tail(const char *path, char *out, size_t size);

/* ---- Client ------------------------------------------------------------------------- */

struct http_response {
	long status;
	char *body; /* NUL-terminated ("" when empty) */
	size_t body_length;
	json_t *json;  /* the body parsed, or NULL when it is not JSON */
	char *headers; /* the header lines of the final response */
	double seconds;
};

/* A connection (kept alive between calls) to one base URL, for one thread. With
 * `contract` set, every response is also checked for Prism's verdict: a response that
 * breaks the spec (a Prism violation problem or an sl-violations header) fails the test. */
struct http_client {
	void *curl;
	char base[64];
	int contract;
	long timeout_ms;
};

void http_client_init(struct http_client *client, const char *base_url, int contract);
void http_client_cleanup(struct http_client *client);

/* One request. `token` adds Authorization: Bearer (NULL: none). `body` is sent as it is
 * (NULL: no body) with Content-Type: application/json unless `headers` gives one.
 * `headers` is a NULL-terminated list of "Name: value" lines (or NULL). The response is
 * always filled; a transport failure fails the test. */
void http_call(struct http_client *client, const char *method, const char *path, const char *token, const char *body,
	       const char *const *headers, struct http_response *out);

/* http_call() with a JSON body (borrowed; NULL: none). */
void http_call_json(struct http_client *client, const char *method, const char *path, const char *token,
		    const json_t *body, const char *const *headers, struct http_response *out);

void http_response_free(struct http_response *response);

/* The value of header `name` (case-insensitive), copied into out; NULL when absent. */
const char *http_response_header(const struct http_response *response, const char *name, char *out, size_t size);

/* GET `path` expecting 200 and a JSON body; returns the body (new reference). The response
 * must carry ETag: "<version>" equal to the body's `version` when the body has one. */
json_t *http_get_ok(struct http_client *client, const char *path, const char *token);

/* The response is a problem+json with this status and code, and every member of RFC 9457
 * the API promises (type, title, status, detail, code). */
void http_assert_problem(const struct http_response *response, long status, const char *code);

/* What Prism said is wrong with a response it validated (thread-local storage), or NULL
 * when the response keeps to the spec. */
const char *http_contract_violation(const struct http_response *response);

/* A short description of a response for failure messages (static storage). */
const char *http_describe(const struct http_response *response);

/* The value of the unlabelled counter or gauge `name` in GET /metrics, -1 when it has none. */
long http_metric(struct http_client *client, const char *name);

/* ---- Server-Sent Events -------------------------------------------------------------- */

struct http_sse_event {
	long id;       /* the id: line, -1 when absent */
	char type[48]; /* the event: line */
	json_t *data;  /* the data: lines parsed (NULL when not JSON) */
};

/* A stream read: GET `path` on `base` as text/event-stream (token as Bearer, NULL: none;
 * last_event_id as Last-Event-ID, NULL: none) until max_events events arrived, an event
 * with id >= *until arrived (until may be NULL; it is read as events come, so another
 * thread may set it), or timeout_s passed. */
struct http_stream {
	long status;
	char content_type[96];
	int count;
	struct http_sse_event *events; /* count of them; free with http_stream_free */
	int comments;		       /* comment lines (heartbeats) seen */
	double seconds;
};

void http_stream_read(const char *base, const char *path, const char *token, const char *last_event_id, int max_events,
		      const volatile long *until, double timeout_s, struct http_stream *out);
void http_stream_free(struct http_stream *stream);

/* ---- Games -------------------------------------------------------------------------- */

struct http_game {
	char id[20];
	char path[48]; /* /v1/games/<id> */
	char admin_token[64];
	char tokens[GAME_MAX_SEATS][64]; /* "" for a bot seat */
	int seats;
	uint8_t bots; /* bit s: seat s is played by the server */
};

/* POST /v1/games {"seats": seats, "options": <options>} (options: JSON text or NULL);
 * expects 201 with the id, the version, the admin token and one token per seat. */
void http_game_create(struct http_client *client, int seats, const char *options, struct http_game *game);

/* POST /v1/games with `body` as it is (JSON text: seats or players, and options); expects
 * 201 like http_game_create(), a token for every seat but the bot seats, which have none. */
void http_game_create_body(struct http_client *client, const char *body, struct http_game *game);

/* A players list of `seats` entries, seat s a bot when bit s of `bots` is set, as JSON text
 * into out ("[{"name": "Seat 1", "bot": false}, ...]"). */
const char *http_players_json(int seats, uint8_t bots, char *out, size_t size);

/* POST /v1/players {"name": name}: expects 201; the player's id and token (shown once)
 * into id (at least 20 bytes) and token (at least 64 bytes). */
void http_player_create(struct http_client *client, const char *name, char *id, char *token);

/* "<game path><suffix>" into out. */
const char *http_game_path(const struct http_game *game, const char *suffix, char *out, size_t size);

/* Read-your-writes across servers for the clients of this process: the newest version of
 * the game any of them was answered (noted with http_game_note_version(); 0 when none),
 * and the path of a read that asks for at least that version (http_game_path() with
 * min_version=<it> added to the query when it is known), as a client that talks to more
 * than one server does (a server answers from its cache, which may lag a write made
 * through another server by a notification's delivery). */
void http_game_note_version(const struct http_game *game, long version);
long http_game_known_version(const struct http_game *game);
const char *http_game_read_path(const struct http_game *game, const char *suffix, char *out, size_t size);

/* What any reader can see of a game, to prove a refused request changed nothing: the
 * version and the view of the spectator and of every seat. */
struct http_state {
	long version;
	json_t *views[GAME_MAX_SEATS + 1]; /* [0] spectator, [1 + seat] each seat */
};

void http_state_capture(struct http_client *client, const struct http_game *game, struct http_state *state);
void http_state_assert_unchanged(struct http_client *client, const struct http_game *game,
				 const struct http_state *before);
void http_state_free(struct http_state *state);

/* POST <game>/moves with `body` (JSON text) by `seat`'s token (-1: no token). */
void http_post_move(struct http_client *client, const struct http_game *game, int seat, const char *body,
		    const char *const *headers, struct http_response *out);

/* A move that must be accepted (2xx); returns the new version. */
long http_post_move_ok(struct http_client *client, const struct http_game *game, int seat, const char *body);

/* The game's version (GET as a spectator). */
long http_game_version(struct http_client *client, const struct http_game *game);

/* Long-poll GET <game>/moves?after=after&wait=wait_s as a spectator: the version it
 * answered with (after when nothing happened within wait_s). */
long http_game_wait(struct http_client *client, const struct http_game *game, long after, int wait_s);

/* Long-poll until the game's status is finished, at most timeout_s: 1 when it is. */
int http_game_wait_finished(struct http_client *client, const struct http_game *game, double timeout_s);

/* The log entries after version `after` as `token` may see them (NULL: a spectator), all of
 * them (paged): an array, entry i being version after + 1 + i. New reference. */
json_t *http_game_log(struct http_client *client, const struct http_game *game, const char *token, long after);

/* ---- Random play over HTTP ----------------------------------------------------------- */

/* Plays a game by its seat tokens only: each step reads the view and the acting seat's
 * GET .../actions, picks one action at random (weighted towards building, so games end in
 * a few hundred moves; "confirm when listed"), fills templates (a discard of `count` cards
 * drawn from the seat's you.resources, a random offer the seat can cover) and sends it to
 * its resource: POST .../moves, POST .../trades, .../trades/{id}/accept|decline|confirm,
 * DELETE .../trades/{id}. */
struct http_player {
	struct http_client *client;
	const struct http_game *game;
	struct rng rng;
	int trades; /* make domestic offers now and then, and counter-offers */
	/* The seats the player moves for (bit s: seat s); 0 (the default) for every seat. With
	 * some seats left to the server's bots, the player long-polls while only bots have
	 * something to do, and makes its choice again when a move is refused because a bot
	 * moved after the player read the game (counted in `races`). */
	uint8_t humans;
	int races;
	int last_seat;
	/* What was played, for tests to assert on. */
	int moves;
	int offers, counter_offers, accepts, declines, confirms, withdrawals;
	int type_counts[32];
};

struct http_move {
	int seat;
	char method[8];
	char path[128];
	json_t *sent; /* the body sent (new reference), NULL when none */
	struct http_response response;
};

void http_player_init(struct http_player *player, struct http_client *client, const struct http_game *game,
		      uint64_t seed, int trades);

/* Make one move: 1 and *move filled (free with http_move_free; move may be NULL), or 0
 * when the game is finished. The move must succeed (2xx). */
int http_player_step(struct http_player *player, struct http_move *move);

/* Step until the game is finished (at most max_moves), then check GET game: status
 * finished and a winner. Returns the number of moves made. */
int http_player_finish(struct http_player *player, int max_moves);

void http_move_free(struct http_move *move);

/* The JSON name of a move type, by index in the list the player counts (see
 * http_move_type_index). */
int http_move_type_index(const char *type);
const char *http_move_type_name(int index);

/* ---- Ground truth -------------------------------------------------------------------- */

/* The game's real state (every hand, every development card) and secret seed, loaded from
 * the event store of DATABASE_URL with game/game_repo.h. */
void http_truth_load(const char *game_id, struct game *state, int64_t *seed);

/* The stored events after version `after`, unredacted, as the engine wrote them: an array
 * of event objects, entry i being version after + 1 + i. New reference. */
json_t *http_truth_events(const char *game_id, long after);

/* The same with who made each append and when: an array of {"actor": seat (-1: none),
 * "origin": "player" | "timeout" | "bot", "at": seconds since 1970, "event": <event>}. New
 * reference. */
json_t *http_truth_rows(const char *game_id, long after);

/* A game's export (borrowed) replays with `catan replay` ($CATAN, else build/catan; through
 * a file named after `what`) and imports as a new game whose stored rows are the game's,
 * row for row but for their times (imported through `client`). */
void http_export_replays_and_imports(struct http_client *client, const char *game_id, json_t *export, const char *what);

/* Run `sql` on the test database (DATABASE_URL) and return the first column of its first
 * row as an integer (0 without a row or for NULL); a failing statement fails the test. To
 * prove what a refused request wrote (nothing), or to make a state HTTP cannot make. */
long long http_sql_number(const char *sql);

/* A client address of this test program's own, for a server started with
 * TRUSTED_PROXIES=127.0.0.1 and requests carrying "X-Forwarded-For: <it>": a fresh key
 * for the budgets counted in the database, which every suite on the one test database
 * would otherwise share as 127.0.0.1. Into out (at least 16 bytes); a new one per call. */
const char *http_unique_address(char *out, size_t size);

/* ---- Misc ------------------------------------------------------------------------------ */

double http_clock(void);
void http_pause(double seconds);

/* Seconds since 1970 of an RFC 3339 UTC time as the server writes them
 * ("2026-11-29T20:07:46.668745Z"); fails the test when it is not one. */
double http_parse_time(const char *text);

/* How much slower than a normal build the tests run: CK_TIMEOUT_MULTIPLIER (4 in the
 * sanitizer pass), 1 when unset. Time bounds of assertions are multiplied by it. */
double http_slowdown(void);

/* The median of values[0..count) (sorts them). */
double http_median(double *values, int count);

/* A fresh random 64-bit value (for seeds and idempotency keys). */
uint64_t http_random64(void);

#endif
