/*
 * fault_support.h - what the fault suites share (tests/faults/test_*.c): a fleet of
 * catan-server processes that can be killed and restarted under load, a client that
 * survives the faults (a transport failure or a 5xx is an answer to retry, not a test
 * failure), games driven by many clients with an Idempotency-Key on every move, a ledger
 * of every answer, and the check of the ledger against the event store afterwards.
 *
 * The games: 3 seats, fixed start, manual dice; move i of a game is seat (i / 2) % 3's
 * roll of 2 + 3 (i even) or end of turn (i odd), so every move is legal exactly once, in
 * order, and a move applied twice or lost shows in the log. A driven move is sent with the
 * key "<salt>-<move>" until it gets a definitive answer (2xx or 4xx); every definitive
 * answer of a key must be the same (status and body), and the answers are sometimes asked
 * again on purpose to prove it.
 *
 * Processes and the truth come from tests/api/http_support.h. Failures are Check
 * assertions in the calling test.
 */
#ifndef CATAN_TESTS_FAULTS_FAULT_SUPPORT_H
#define CATAN_TESTS_FAULTS_FAULT_SUPPORT_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "tests/api/http_support.h"

#define FAULT_MAX_SERVERS 4
#define FAULT_MAX_MOVES 4000
#define FAULT_MAX_UNAVAILABLE 1024

/* ---- A fleet of servers ---------------------------------------------------------------- */

struct fault_fleet {
	pthread_mutex_t lock;
	int count;
	struct http_server servers[FAULT_MAX_SERVERS];
	const char *const *settings; /* borrowed: http_server_start() settings of every server */
	int kills, restarts;
};

/* Start `count` servers on ephemeral ports. */
void fault_fleet_start(struct fault_fleet *fleet, int count, const char *const *settings);
/* SIGTERM every server (SIGKILL after 30 s). */
void fault_fleet_stop(struct fault_fleet *fleet);
/* The base URL of server `index` (or of a random one when index < 0) into out. */
const char *fault_fleet_url(struct fault_fleet *fleet, int index, char *out, size_t size);
/* kill -9 server `index` and start a new one in its place (a new port). */
void fault_fleet_kill_and_restart(struct fault_fleet *fleet, int index);

/* ---- HAProxy in front of a fleet -------------------------------------------------------- */

struct fault_haproxy {
	pid_t pid;
	int port;
	char url[64];
	char config_path[256];
	char log_path[256];
};

/* 1 when the haproxy program is installed. */
int fault_haproxy_available(void);

/* Write a configuration for the fleet's servers (round robin, health checks on /healthz,
 * retries on another server for connection failures, and for requests with an
 * Idempotency-Key also for empty responses and 503s) and start haproxy on an ephemeral
 * port of 127.0.0.1; waits until it answers /healthz. */
void fault_haproxy_start(struct fault_haproxy *haproxy, struct fault_fleet *fleet);
void fault_haproxy_stop(struct fault_haproxy *haproxy);

/* ---- A client that survives faults ----------------------------------------------------- */

struct fault_answer {
	long status;	  /* 0: no answer (connection refused, reset, timed out) */
	char *body;	  /* "" when none; free with fault_answer_free */
	char replayed;	  /* Idempotent-Replayed: true */
	char retry_after; /* a Retry-After header came */
};

/* One request on a new connection, at most timeout_s seconds. `headers`: NULL-terminated
 * "Name: value" lines or NULL. Never fails the test. */
void fault_request(const char *base, const char *method, const char *path, const char *token, const char *body,
		   const char *const *headers, double timeout_s, struct fault_answer *out);
/* fault_request() from the local address `source` (e.g. "127.0.0.2": every 127/8 address
 * is this machine's), so that a proxy in front sees another client. */
void fault_request_from(const char *source, const char *base, const char *method, const char *path, const char *token,
			const char *body, const char *const *headers, double timeout_s, struct fault_answer *out);
void fault_answer_free(struct fault_answer *answer);

/* ---- Driven games and their ledger ----------------------------------------------------- */

/* Where a driven move is sent: a base URL into out. */
typedef const char *(*fault_pick_url)(void *context, char *out, size_t size);

struct fault_ack {
	int move;     /* move index */
	long version; /* the version its first event made */
	char type[16];
	double at; /* http_clock() when the answer came */
};

struct fault_game {
	struct http_game game;
	long start_version; /* the version at creation: moves come after it */
	uint64_t salt;
	int moves; /* moves acknowledged so far: the next move's index */
	struct fault_ack acks[FAULT_MAX_MOVES];
	int ack_count;
	/* Counters for the report. */
	int transport_failures, unavailable, other_retries, replays_checked;
	/* When the first FAULT_MAX_UNAVAILABLE 503s came (http_clock()), and how many 503s
	 * had no Retry-After (tests/ha/test_ha.c). */
	double unavailable_at[FAULT_MAX_UNAVAILABLE];
	int unavailable_without_retry_after;
	char failure[512]; /* the first broken promise, "" when none */
};

/* A new game created through `base` (retried through faults for up to 60 s). */
void fault_game_create(struct fault_game *game, fault_pick_url pick, void *context);

/* Send the game's next move until it has a definitive answer (at most `timeout_s`): 1
 * when it was acknowledged (201), 0 when it was refused or timed out (game->failure says
 * why). With `check_replay` the key is sent once more and must get the same answer. */
int fault_game_step(struct fault_game *game, fault_pick_url pick, void *context, int check_replay, double timeout_s);

/* Record the 201 answer `body` of move `move` (made by other means than fault_game_step)
 * as acknowledged: 1 when it parses. */
int fault_game_record(struct fault_game *game, int move, const char *body);

/* The move body and seat of move index `move`. */
const char *fault_move_body(int move, int *seat);

/* Check the game against the event store: its log is contiguous and replays (from the
 * first event) to the state the server loads; every acknowledged move is in the log
 * exactly once, at the version its answer gave; nothing else is. Fails the test. Returns
 * the number of events in the log. */
long fault_game_verify(const struct fault_game *game);

#endif
