/*
 * http_bench.c - the HTTP load generator of `make bench-http`.
 *
 *   http_bench BASE_URL [--games 16] [--seconds 20] [--players 4] [--seed 1] [--mode poll|bot]
 *              [--threads 1] [--humans H --bot-level easy|medium|hard]
 *
 * Plays `games` games at once through the API exactly as clients would, and prints the
 * committed moves per second, the latency of the POSTs and of the GETs (p50, p99), and its
 * own CPU per move (getrusage), so that `make bench-http` can tell how much of the machine
 * the generator itself took. A finished game is replaced by a new one. Two loops:
 *
 *   poll  one connection per game: GET .../actions with the token of a seat the game waits
 *         for (another seat of `waiting_for` when that one has nothing to do), pick a random
 *         action, POST it to .../moves, and again. ~1.4 GETs a move. The default, and what
 *         `make bench-http-haproxy` runs.
 *   bot   one connection per seat, the one-request loop of a bot (README, "Playing with a
 *         bot"): POST a move; when the answer carries the seat's next `actions`, POST one of
 *         them; otherwise GET .../actions?after=<version>&wait=60, which the server holds
 *         until the seat must act. A GET per change of seat, not per move.
 *
 * With `--humans H` (bot loop only) the seats from H on are the server's bots at
 * `--bot-level` (default medium): the generator plays the first H seats of each game, and
 * after the run it reads the server's catan_bot_move_lateness_seconds histogram
 * (GET /metrics, before and after) and prints how late the bots' moves were stored (p50,
 * p99: the upper bound of the bucket that holds it). The humans' POST latencies are the
 * "moves" figures. This is the load of issue 27: many games of one person and three bots.
 *
 * Random play leaves domestic offers out (they would let a random game chatter on) and
 * completes templates: a discard takes `count` random cards of the `hand` it carries.
 *
 * Why it looks like this: the generator shares the machine's cores with the server and
 * PostgreSQL, so every microsecond it spends is one the server does not get, and the
 * ratio to pgbench (whose client costs ~11 us a transaction) would measure the generator.
 * The libcurl + jansson version (a thread per game) spent ~117 us a move, ~205 us on the
 * loaded machine where this one spends ~40. Here one thread drives every connection with
 * epoll (non-blocking sockets, HTTP/1.1 keep-alive; `--threads T` splits the games over T
 * such loops, which measured costlier per move: ~90 us with 2 threads or 16 processes of
 * one game each against ~75 with one, under a load average of 33); each connection owns
 * a receive and a send buffer allocated once; a request is formatted into its send buffer,
 * an answer is read in place (bench/json_scan.h: the chosen action is sent back verbatim
 * from the receive buffer), latencies go into fixed histograms of 10 us buckets. Nothing is
 * allocated after the start. Game creation takes the same path (its answer is scanned for
 * the id and the tokens) and is counted in the CPU per move, but not among the moves.
 *
 * A connection's life: idle -> request sent -> answer read (status line, Content-Length,
 * body) -> handled, which sends the next request. In the bot loop a game's seats share the
 * game: the first seat to see the game over creates the next one on its connection, the
 * others go idle, and when the creation answers every idle seat starts waiting on the new
 * game; an answer about a game already replaced (its `generation` is older) is dropped.
 * A 409 or 422 to a bot seat's POST (another seat moved first, e.g. during discards) is a
 * refusal: the seat waits for its turn again. Any other unexpected answer ends that game's
 * play and counts as a failure (exit status 1).
 */
#define _GNU_SOURCE
#include "bench/json_scan.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#define IN_CAPACITY (1024 * 1024) /* the longest answer: a creation, or a long list of actions */
#define OUT_CAPACITY 16384
#define MAX_CANDIDATES 8192
#define HISTOGRAM_BUCKETS 200000 /* 10 us each: 2 s, the last bucket holds everything longer */

enum mode { MODE_POLL, MODE_BOT };

enum request_kind { REQUEST_NONE, REQUEST_CREATE, REQUEST_ACTIONS, REQUEST_WAIT, REQUEST_MOVE };

struct histogram {
	unsigned counts[HISTOGRAM_BUCKETS];
	long total;
};

struct connection;

struct game {
	char id[48];
	char tokens[4][128];
	unsigned generation; /* how many games this slot has started */
	int creating;	     /* a creation is in flight */
	int stopped;	     /* a failure ended this slot's play */
	struct connection *connections[4];
};

struct connection {
	int fd;
	struct game *game;
	int seat; /* bot loop: fixed; poll loop: the seat whose token the next request carries */
	enum request_kind kind;
	unsigned generation; /* the game's generation when the request was sent */
	double sent_at;
	int writing; /* the send buffer is not all written (EPOLLOUT armed) */
	char *out;
	size_t out_length, out_sent;
	char *in;
	size_t in_length;
};

struct load {
	enum mode mode;
	int players;
	int humans;	       /* seats the generator plays: the first ones; the rest are the server's bots */
	const char *bot_level; /* the bots' level (options.bot_level) when humans < players */
	unsigned long long random;
	char host[128]; /* the Host header */
	struct sockaddr_storage address;
	socklen_t address_length;
	int epoll;
	double deadline;
	struct game *games;
	struct connection *connections;
	int game_count, connection_count;
	long moves, gets, waits, creates, finished, refused, failures;
	struct histogram post_ms, get_ms, wait_ms;
	char error[256];
	char body[OUT_CAPACITY / 2];		     /* the move being sent */
	struct scan_span candidates[MAX_CANDIDATES]; /* the actions it is chosen among */
};

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void *allocate(size_t bytes)
{
	void *memory = calloc(1, bytes);
	if (!memory)
		abort();
	return memory;
}

static void histogram_add(struct histogram *histogram, double seconds)
{
	long bucket = (long)(seconds * 1e5);
	if (bucket < 0)
		bucket = 0;
	if (bucket >= HISTOGRAM_BUCKETS)
		bucket = HISTOGRAM_BUCKETS - 1;
	histogram->counts[bucket]++;
	histogram->total++;
}

/* The p-quantile in milliseconds (the upper edge of its 10 us bucket); 0 when empty. */
static double histogram_ms(const struct histogram *histogram, double p)
{
	if (histogram->total == 0)
		return 0;
	long rank = (long)(p * (double)(histogram->total - 1)), seen = 0;
	for (long bucket = 0; bucket < HISTOGRAM_BUCKETS; bucket++) {
		seen += histogram->counts[bucket];
		if (seen > rank)
			return (double)(bucket + 1) / 100.0;
	}
	return (double)HISTOGRAM_BUCKETS / 100.0;
}

static unsigned long long next_random(unsigned long long *state)
{
	unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void fail(struct load *load, struct connection *connection, const char *what, int status)
{
	if (!load->error[0])
		snprintf(load->error, sizeof load->error, "game %s seat %d: %s (HTTP %d)", connection->game->id,
			 connection->seat, what, status);
	load->failures++;
	connection->game->stopped = 1;
	connection->kind = REQUEST_NONE;
}

static int open_connection(struct load *load, struct connection *connection)
{
	int fd = socket(load->address.ss_family, SOCK_STREAM, 0);
	if (fd < 0)
		return 0;
	if (connect(fd, (struct sockaddr *)&load->address, load->address_length) != 0) {
		close(fd);
		return 0;
	}
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	struct epoll_event event = {.events = EPOLLIN, .data.ptr = connection};
	if (epoll_ctl(load->epoll, EPOLL_CTL_ADD, fd, &event) != 0) {
		close(fd);
		return 0;
	}
	connection->fd = fd;
	connection->in_length = 0;
	connection->writing = 0;
	return 1;
}

static void close_connection(struct load *load, struct connection *connection)
{
	if (connection->fd >= 0) {
		epoll_ctl(load->epoll, EPOLL_CTL_DEL, connection->fd, NULL);
		close(connection->fd);
	}
	connection->fd = -1;
}

/* Writes what is left of the send buffer; arms EPOLLOUT when the socket takes less. */
static void flush(struct load *load, struct connection *connection)
{
	while (connection->out_sent < connection->out_length) {
		ssize_t sent = write(connection->fd, connection->out + connection->out_sent,
				     connection->out_length - connection->out_sent);
		if (sent < 0 && errno == EINTR)
			continue;
		if (sent < 0 && errno == EAGAIN) {
			if (!connection->writing) {
				struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.ptr = connection};
				epoll_ctl(load->epoll, EPOLL_CTL_MOD, connection->fd, &event);
				connection->writing = 1;
			}
			return;
		}
		if (sent <= 0) {
			fail(load, connection, "the server closed the connection", 0);
			return;
		}
		connection->out_sent += (size_t)sent;
	}
	if (connection->writing) {
		struct epoll_event event = {.events = EPOLLIN, .data.ptr = connection};
		epoll_ctl(load->epoll, EPOLL_CTL_MOD, connection->fd, &event);
		connection->writing = 0;
	}
}

/* Appending to a buffer without printf: `at` stops at `end` (and `overflow` is set) rather
 * than writing past it. */
struct writer {
	char *at, *end;
	int overflow;
};

static void put(struct writer *writer, const char *text, size_t length)
{
	if ((size_t)(writer->end - writer->at) < length) {
		writer->overflow = 1;
		return;
	}
	memcpy(writer->at, text, length);
	writer->at += length;
}

static void put_string(struct writer *writer, const char *text)
{
	put(writer, text, strlen(text));
}

static void put_number(struct writer *writer, unsigned long long number)
{
	char digits[24], *p = digits + sizeof digits;
	do
		*--p = (char)('0' + number % 10);
	while (number /= 10);
	put(writer, p, (size_t)(digits + sizeof digits - p));
}

/* Sends one request: `method` /v1/games[/<the game's id>`suffix`], with the seat's token
 * when `token` is set, and a JSON body of `body_length` bytes when `body` is not NULL. */
static void send_request(struct load *load, struct connection *connection, enum request_kind kind, const char *method,
			 const char *suffix, long long after, int token, const char *body, size_t body_length)
{
	if (connection->fd < 0 && !open_connection(load, connection)) {
		fail(load, connection, "cannot connect", 0);
		return;
	}
	struct writer out = {connection->out, connection->out + OUT_CAPACITY, 0};
	put_string(&out, method);
	put(&out, " /v1/games", 10);
	if (suffix) {
		put(&out, "/", 1);
		put_string(&out, connection->game->id);
		put_string(&out, suffix);
	}
	if (after >= 0) {
		put(&out, "?after=", 7);
		put_number(&out, (unsigned long long)after);
		put(&out, "&wait=60", 8);
	}
	put(&out, " HTTP/1.1\r\nHost: ", 17);
	put_string(&out, load->host);
	if (token) {
		put(&out, "\r\nAuthorization: Bearer ", 24);
		put_string(&out, connection->game->tokens[connection->seat]);
	}
	if (body)
		put(&out, "\r\nContent-Type: application/json", 32);
	put(&out, "\r\nContent-Length: ", 18);
	put_number(&out, body_length);
	put(&out, "\r\n\r\n", 4);
	if (body)
		put(&out, body, body_length);
	if (out.overflow) {
		fail(load, connection, "request too long", 0);
		return;
	}
	connection->out_length = (size_t)(out.at - connection->out);
	connection->out_sent = 0;
	connection->kind = kind;
	connection->generation = connection->game->generation;
	connection->sent_at = now_seconds();
	flush(load, connection);
}

static void create_game(struct load *load, struct connection *connection)
{
	char body[400];
	unsigned long long seed = next_random(&load->random) >> 11; /* seeds stay below 2^53 */
	int length;
	if (load->humans == load->players) {
		length = snprintf(body, sizeof body, "{\"seats\":%d,\"options\":{\"layout\":\"random\",\"seed\":%llu}}",
				  load->players, seed);
	} else {
		length = snprintf(body, sizeof body, "{\"players\":[");
		for (int s = 0; s < load->players; s++)
			length +=
				snprintf(body + length, sizeof body - (size_t)length,
					 "%s{\"name\":\"%s %d\",\"bot\":%s}", s ? "," : "",
					 s < load->humans ? "Seat" : "Bot", s + 1, s < load->humans ? "false" : "true");
		length += snprintf(body + length, sizeof body - (size_t)length,
				   "],\"options\":{\"layout\":\"random\",\"seed\":%llu,\"bot_level\":\"%s\"}}", seed,
				   load->bot_level);
	}
	connection->game->creating = 1;
	send_request(load, connection, REQUEST_CREATE, "POST", NULL, -1, 0, body, (size_t)length);
}

static void get_actions(struct load *load, struct connection *connection)
{
	send_request(load, connection, REQUEST_ACTIONS, "GET", "/actions", -1, 1, NULL, 0);
}

static void wait_actions(struct load *load, struct connection *connection, long long after)
{
	send_request(load, connection, REQUEST_WAIT, "GET", "/actions", after, 1, NULL, 0);
}

/* The chosen discard template completed into load->body: its members but `template`,
 * `count` and `hand`, and `resources`, `count` random cards of `hand`. Its length, or 0. */
static size_t fill_discard(struct load *load, struct scan_span action)
{
	static const char *const names[5] = {"brick", "lumber", "wool", "grain", "ore"};
	struct scan_span hand, value, key;
	long long count = 0, number;
	int left[5] = {0}, chosen[5] = {0}, total = 0;
	if (!scan_member(action, "hand", &hand) || !scan_member(action, "count", &value) ||
	    !scan_integer(value, &count))
		return 0;
	for (int r = 0; r < 5; r++)
		if (scan_member(hand, names[r], &value) && scan_integer(value, &number)) {
			left[r] = (int)number;
			total += left[r];
		}
	for (long long i = 0; i < count && total > 0; i++) {
		int pick = (int)(next_random(&load->random) % (unsigned long long)total);
		int r = 0;
		while (pick >= left[r])
			pick -= left[r++];
		left[r]--;
		chosen[r]++;
		total--;
	}
	char *out = load->body, *end = load->body + sizeof load->body - 64;
	*out++ = '{';
	const char *cursor = NULL;
	while (scan_next(action, &cursor, &key, &value)) {
		size_t key_length = (size_t)(key.end - key.start), value_length = (size_t)(value.end - value.start);
		if ((key_length == 8 && memcmp(key.start, "template", 8) == 0) ||
		    (key_length == 5 && memcmp(key.start, "count", 5) == 0) ||
		    (key_length == 4 && memcmp(key.start, "hand", 4) == 0))
			continue;
		if (out + key_length + value_length + 4 > end)
			return 0;
		*out++ = '"';
		memcpy(out, key.start, key_length);
		out += key_length;
		*out++ = '"';
		*out++ = ':';
		memcpy(out, value.start, value_length);
		out += value_length;
		*out++ = ',';
	}
	out += snprintf(out, (size_t)(end + 64 - out), "\"resources\":{");
	int first = 1;
	for (int r = 0; r < 5; r++)
		if (chosen[r]) {
			out += snprintf(out, (size_t)(end + 64 - out), "%s\"%s\":%d", first ? "" : ",", names[r],
					chosen[r]);
			first = 0;
		}
	*out++ = '}';
	*out++ = '}';
	return (size_t)(out - load->body);
}

/* Picks a random action of `actions` (a JSON array) and POSTs it; 0 when there is none. */
static int post_random_action(struct load *load, struct connection *connection, struct scan_span actions)
{
	struct scan_span action, type, flag;
	const char *cursor = NULL;
	int count = 0;
	while (count < MAX_CANDIDATES && scan_next(actions, &cursor, NULL, &action))
		if (!scan_member(action, "type", &type) || !scan_is(type, "\"offer_trade\""))
			load->candidates[count++] = action;
	if (count == 0)
		return 0;
	action = load->candidates[next_random(&load->random) % (unsigned long long)count];
	const char *body = action.start;
	size_t length = (size_t)(action.end - action.start);
	if (scan_member(action, "template", &flag) && scan_is(flag, "true")) {
		length = fill_discard(load, action);
		if (length == 0) {
			fail(load, connection, "a template the generator cannot complete", 200);
			return 1;
		}
		body = load->body;
	}
	send_request(load, connection, REQUEST_MOVE, "POST", "/moves", -1, 1, body, length);
	return 1;
}

/* Every idle seat of a game that just started waits for its turn (bot loop), or the poll
 * loop's one connection asks the first seat's actions. */
static void start_game(struct load *load, struct game *game, struct scan_span created)
{
	struct scan_span state, pending, seats, seat;
	long long first = 0;
	const char *cursor = NULL;
	if (scan_member(created, "game", &state) && scan_member(state, "pending", &pending) &&
	    scan_member(pending, "seats", &seats) && scan_next(seats, &cursor, NULL, &seat))
		scan_integer(seat, &first);
	if (load->mode == MODE_POLL) {
		game->connections[0]->seat = first >= 0 && first < load->players ? (int)first : 0;
		get_actions(load, game->connections[0]);
		return;
	}
	for (int s = 0; s < load->humans; s++)
		if (game->connections[s]->kind == REQUEST_NONE)
			wait_actions(load, game->connections[s], 0);
}

static void on_created(struct load *load, struct connection *connection, int status, struct scan_span body)
{
	struct game *game = connection->game;
	struct scan_span id, seats, seat, token;
	const char *cursor = NULL;
	game->creating = 0;
	if (status != 201 || !scan_member(body, "id", &id) || id.end - id.start < 3 ||
	    (size_t)(id.end - id.start) >= sizeof game->id || !scan_member(body, "seats", &seats)) {
		fail(load, connection, "create game", status);
		return;
	}
	memcpy(game->id, id.start + 1, (size_t)(id.end - id.start - 2));
	game->id[id.end - id.start - 2] = '\0';
	for (int s = 0; s < load->humans; s++) {
		if (!scan_next(seats, &cursor, NULL, &seat) || !scan_member(seat, "token", &token) ||
		    (size_t)(token.end - token.start) >= sizeof game->tokens[s]) {
			fail(load, connection, "create game: no token", status);
			return;
		}
		memcpy(game->tokens[s], token.start + 1, (size_t)(token.end - token.start - 2));
		game->tokens[s][token.end - token.start - 2] = '\0';
	}
	game->generation++;
	load->creates++;
	start_game(load, game, body);
}

/* The game is over (no actions, nobody waited for): the first to see it replaces it. */
static void on_finished(struct load *load, struct connection *connection)
{
	load->finished++;
	create_game(load, connection);
}

static void on_actions(struct load *load, struct connection *connection, int status, struct scan_span body)
{
	struct scan_span version_value, waiting, actions, seat;
	long long version = 0, next = 0;
	if (status != 200 || !scan_member(body, "version", &version_value) || !scan_integer(version_value, &version) ||
	    !scan_member(body, "waiting_for", &waiting) || !scan_member(body, "actions", &actions)) {
		fail(load, connection, "GET actions", status);
		return;
	}
	if (actions.end - actions.start > 2) {
		if (!post_random_action(load, connection, actions))
			fail(load, connection, "no action to take", status);
		return;
	}
	if (waiting.end - waiting.start <= 2) {
		on_finished(load, connection);
		return;
	}
	if (load->mode == MODE_BOT) {
		wait_actions(load, connection, version); /* held for 60 s without a turn: ask again */
		return;
	}
	int count = 0;
	const char *cursor = NULL;
	while (scan_next(waiting, &cursor, NULL, &seat))
		count++;
	unsigned long long pick = next_random(&load->random) % (unsigned long long)count;
	cursor = NULL;
	for (unsigned long long i = 0; i <= pick; i++)
		scan_next(waiting, &cursor, NULL, &seat);
	if (!scan_integer(seat, &next) || next < 0 || next >= load->players) {
		fail(load, connection, "GET actions: a seat out of range", status);
		return;
	}
	connection->seat = (int)next;
	get_actions(load, connection);
}

static void on_moved(struct load *load, struct connection *connection, int status, struct scan_span body)
{
	struct scan_span version_value, next, actions;
	long long version = 0;
	if (status != 201) {
		if (load->mode == MODE_BOT && (status == 409 || status == 422)) {
			load->refused++;
			wait_actions(load, connection, 0);
			return;
		}
		fail(load, connection, "POST move", status);
		return;
	}
	load->moves++;
	histogram_add(&load->post_ms, now_seconds() - connection->sent_at);
	if (load->mode == MODE_POLL) {
		get_actions(load, connection);
		return;
	}
	if (scan_member(body, "actions", &next) && scan_member(next, "actions", &actions) &&
	    actions.end - actions.start > 2 && post_random_action(load, connection, actions))
		return;
	if (!scan_member(body, "version", &version_value) || !scan_integer(version_value, &version)) {
		fail(load, connection, "POST move: no version", status);
		return;
	}
	wait_actions(load, connection, version);
}

/* An answer is complete in connection->in: dispatch it on what was asked. */
static void on_answer(struct load *load, struct connection *connection, int status, struct scan_span body)
{
	enum request_kind kind = connection->kind;
	struct game *game = connection->game;
	double took = now_seconds() - connection->sent_at;
	connection->kind = REQUEST_NONE;
	if (game->stopped)
		return;
	if (kind == REQUEST_ACTIONS) {
		load->gets++;
		histogram_add(&load->get_ms, took);
	} else if (kind == REQUEST_WAIT) {
		load->waits++;
		histogram_add(&load->wait_ms, took);
	}
	if (kind == REQUEST_CREATE) {
		on_created(load, connection, status, body);
		return;
	}
	if (connection->generation != game->generation || game->creating) {
		/* about a game this slot has replaced, or is replacing */
		if (!game->creating)
			wait_actions(load, connection, 0);
		return;
	}
	if (kind == REQUEST_MOVE)
		on_moved(load, connection, status, body);
	else
		on_actions(load, connection, status, body);
}

/* Parses what has arrived: 1 and the answer handled when it is complete, 0 to read more,
 * -1 on a malformed answer. */
static int take_answer(struct load *load, struct connection *connection)
{
	char *in = connection->in;
	char *head_end = memmem(in, connection->in_length, "\r\n\r\n", 4);
	if (!head_end)
		return connection->in_length >= OUT_CAPACITY ? -1 : 0;
	*head_end = '\0';
	if (strncmp(in, "HTTP/1.", 7) != 0 || connection->in_length < 12)
		return -1;
	int status = atoi(in + 9);
	long content_length = -1;
	int closing = 0;
	size_t head_length = (size_t)(head_end - in);
	/* The server's own spelling first; a proxy may write header names in lower case. */
	const char *found = memmem(in, head_length, "\r\nContent-Length: ", 18);
	if (found) {
		content_length = strtol(found + 18, NULL, 10);
		closing = memmem(in, head_length, "\r\nConnection: close", 19) != NULL;
	}
	for (char *line = strstr(in, "\r\n"); !found && line; line = strstr(line + 2, "\r\n")) {
		if (strncasecmp(line + 2, "content-length:", 15) == 0)
			content_length = strtol(line + 17, NULL, 10);
		else if (strncasecmp(line + 2, "connection:", 11) == 0) {
			const char *value = line + 13, *value_end = strstr(value, "\r\n");
			const char *word = strcasestr(value, "close");
			closing = word && (!value_end || word < value_end);
		} else if (strncasecmp(line + 2, "transfer-encoding:", 18) == 0)
			return -1; /* the server answers with a Content-Length */
	}
	*head_end = '\r';
	if (content_length < 0)
		return -1;
	size_t head = (size_t)(head_end + 4 - in);
	if (connection->in_length < head + (size_t)content_length)
		return 0;
	struct scan_span body = {in + head, in + head + content_length};
	size_t rest = connection->in_length - head - (size_t)content_length;
	if (closing)
		close_connection(load, connection);
	on_answer(load, connection, status, body);
	if (rest && !closing)
		memmove(in, in + head + content_length, rest);
	connection->in_length = closing ? 0 : rest;
	return 1;
}

static void on_readable(struct load *load, struct connection *connection)
{
	for (;;) {
		if (connection->in_length == IN_CAPACITY) {
			fail(load, connection, "an answer longer than the receive buffer", 0);
			close_connection(load, connection);
			return;
		}
		ssize_t got = read(connection->fd, connection->in + connection->in_length,
				   IN_CAPACITY - connection->in_length);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return;
		if (got <= 0) {
			int busy = connection->kind != REQUEST_NONE;
			close_connection(load, connection);
			if (busy)
				fail(load, connection, "the server closed the connection", 0);
			return;
		}
		connection->in_length += (size_t)got;
		int taken;
		while (connection->fd >= 0 && connection->in_length > 0 && (taken = take_answer(load, connection)) != 0)
			if (taken < 0) {
				fail(load, connection, "a malformed answer", 0);
				close_connection(load, connection);
				return;
			}
		return; /* level-triggered: what is still unread is reported again */
	}
}

static int parse_base(struct load *load, const char *base)
{
	if (strncmp(base, "http://", 7) != 0)
		return 0;
	const char *host = base + 7;
	size_t length = strcspn(host, "/");
	if (length == 0 || length >= sizeof load->host)
		return 0;
	memcpy(load->host, host, length);
	load->host[length] = '\0';
	char name[128], *colon = strrchr(load->host, ':');
	const char *port = colon ? colon + 1 : "80";
	size_t name_length = colon ? (size_t)(colon - load->host) : length;
	memcpy(name, load->host, name_length);
	name[name_length] = '\0';
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *found;
	if (getaddrinfo(name, port, &hints, &found) != 0)
		return 0;
	memcpy(&load->address, found->ai_addr, found->ai_addrlen);
	load->address_length = found->ai_addrlen;
	freeaddrinfo(found);
	return 1;
}

static double cpu_seconds(struct rusage *usage, double *user, double *system)
{
	getrusage(RUSAGE_SELF, usage);
	*user = (double)usage->ru_utime.tv_sec + (double)usage->ru_utime.tv_usec / 1e6;
	*system = (double)usage->ru_stime.tv_sec + (double)usage->ru_stime.tv_usec / 1e6;
	return *user + *system;
}

/* One thread's loop: its games from creation until the deadline. */
static void *run(void *argument)
{
	struct load *load = argument;
	for (int g = 0; g < load->game_count; g++)
		create_game(load, load->games[g].connections[0]);
	struct epoll_event events[64];
	double now = now_seconds();
	while (now < load->deadline) {
		int timeout = (int)((load->deadline - now) * 1000) + 1;
		int ready = epoll_wait(load->epoll, events, 64, timeout);
		if (ready < 0 && errno != EINTR)
			break;
		for (int e = 0; e < ready; e++) {
			struct connection *connection = events[e].data.ptr;
			if (connection->fd < 0)
				continue;
			if (events[e].events & EPOLLOUT)
				flush(load, connection);
			if (connection->fd >= 0 && (events[e].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
				on_readable(load, connection);
		}
		now = now_seconds();
	}
	for (int c = 0; c < load->connection_count; c++)
		close_connection(load, &load->connections[c]);
	return NULL;
}

/* Everything of `from` added into `into` (counters, histograms, the first error). */
static void merge(struct load *into, const struct load *from)
{
	into->moves += from->moves;
	into->gets += from->gets;
	into->waits += from->waits;
	into->creates += from->creates;
	into->finished += from->finished;
	into->refused += from->refused;
	into->failures += from->failures;
	const struct histogram *sources[3] = {&from->post_ms, &from->get_ms, &from->wait_ms};
	struct histogram *targets[3] = {&into->post_ms, &into->get_ms, &into->wait_ms};
	for (int h = 0; h < 3; h++) {
		for (long bucket = 0; bucket < HISTOGRAM_BUCKETS; bucket++)
			targets[h]->counts[bucket] += sources[h]->counts[bucket];
		targets[h]->total += sources[h]->total;
	}
	if (!into->error[0])
		memcpy(into->error, from->error, sizeof into->error);
}

/* The server's histogram of bot lateness, read from GET /metrics on a connection of its
 * own (blocking; before and after the run): counts[b] of at most bounds[b] seconds, b <
 * *buckets, the last bound +Inf. 0 when it cannot be read. */
#define LATENESS_BUCKETS 16
struct lateness {
	int buckets;
	double bounds[LATENESS_BUCKETS];
	long long counts[LATENESS_BUCKETS];
};

static int read_lateness(const struct load *load, struct lateness *out)
{
	static char answer[1 << 20];
	memset(out, 0, sizeof *out);
	int fd = socket(load->address.ss_family, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (const struct sockaddr *)&load->address, load->address_length) != 0) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	char request[256];
	int length = snprintf(request, sizeof request, "GET /metrics HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n",
			      load->host);
	size_t used = 0;
	ssize_t got = write(fd, request, (size_t)length) == length ? 1 : -1;
	while (got > 0 && used < sizeof answer - 1)
		if ((got = read(fd, answer + used, sizeof answer - 1 - used)) > 0)
			used += (size_t)got;
	close(fd);
	answer[used] = '\0';
	static const char prefix[] = "\ncatan_bot_move_lateness_seconds_bucket{le=\"";
	for (const char *at = answer; (at = strstr(at, prefix)) != NULL && out->buckets < LATENESS_BUCKETS; at++) {
		const char *bound = at + strlen(prefix);
		const char *value = strstr(bound, "} ");
		if (!value)
			break;
		out->bounds[out->buckets] = strncmp(bound, "+Inf", 4) == 0 ? 1e300 : atof(bound);
		out->counts[out->buckets++] = atoll(value + 2);
	}
	return out->buckets > 0;
}

/* The upper bound (seconds) of the bucket holding quantile q of the moves between `before`
 * and `after`; -1 when none were counted. */
static double lateness_quantile(const struct lateness *before, const struct lateness *after, double q)
{
	long long total = after->counts[after->buckets - 1] - before->counts[after->buckets - 1];
	if (total <= 0)
		return -1;
	for (int b = 0; b < after->buckets; b++)
		if ((double)(after->counts[b] - before->counts[b]) >= q * (double)total)
			return after->bounds[b];
	return after->bounds[after->buckets - 1];
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: http_bench BASE_URL [--games N] [--seconds S] [--players P] [--seed S] "
				"[--mode poll|bot] [--threads T] [--humans H --bot-level easy|medium|hard]\n");
		return 2;
	}
	int games = 16, players = 4, threads = 1, humans = 0;
	const char *bot_level = "medium";
	double seconds = 20;
	unsigned long long seed = 1;
	enum mode mode = MODE_POLL;
	for (int i = 2; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--games") == 0)
			games = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--seconds") == 0)
			seconds = atof(argv[i + 1]);
		else if (strcmp(argv[i], "--players") == 0)
			players = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--seed") == 0)
			seed = strtoull(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "--threads") == 0)
			threads = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--humans") == 0)
			humans = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--bot-level") == 0 &&
			 (strcmp(argv[i + 1], "easy") == 0 || strcmp(argv[i + 1], "medium") == 0 ||
			  strcmp(argv[i + 1], "hard") == 0))
			bot_level = argv[i + 1];
		else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "poll") == 0)
			mode = MODE_POLL;
		else if (strcmp(argv[i], "--mode") == 0 && strcmp(argv[i + 1], "bot") == 0)
			mode = MODE_BOT;
		else {
			fprintf(stderr, "http_bench: unknown argument %s\n", argv[i]);
			return 2;
		}
	}
	if (humans == 0)
		humans = players;
	if (games < 1 || games > 512 || players < 3 || players > 4 || seconds <= 0 || threads < 1 || threads > 16 ||
	    humans < 1 || humans > players || (humans < players && mode != MODE_BOT)) {
		fprintf(stderr, "http_bench: bad arguments\n");
		return 2;
	}
	if (threads > games)
		threads = games;
	struct load *loads = allocate((size_t)threads * sizeof *loads);
	int connection_count = 0;
	for (int t = 0; t < threads; t++) {
		struct load *load = &loads[t];
		load->mode = mode;
		load->players = players;
		load->humans = humans;
		load->bot_level = bot_level;
		load->random = seed * 7919ULL + (unsigned long long)t * 0x632be59bd9b4e019ULL;
		if (!parse_base(load, argv[1])) {
			fprintf(stderr, "http_bench: cannot reach %s (an http://host:port base)\n", argv[1]);
			return 2;
		}
		load->epoll = epoll_create1(0);
		load->game_count = games / threads + (t < games % threads);
		load->connection_count = mode == MODE_BOT ? load->game_count * humans : load->game_count;
		connection_count += load->connection_count;
		load->games = allocate((size_t)load->game_count * sizeof *load->games);
		load->connections = allocate((size_t)load->connection_count * sizeof *load->connections);
		for (int c = 0; c < load->connection_count; c++) {
			struct connection *connection = &load->connections[c];
			connection->fd = -1;
			connection->game = &load->games[mode == MODE_BOT ? c / humans : c];
			connection->seat = mode == MODE_BOT ? c % humans : 0;
			connection->game->connections[connection->seat] = connection;
			connection->in = allocate(IN_CAPACITY);
			connection->out = allocate(OUT_CAPACITY);
			if (!open_connection(load, connection)) {
				fprintf(stderr, "http_bench: cannot connect to %s\n", argv[1]);
				return 1;
			}
		}
	}

	struct lateness late_before, late_after;
	int bots_timed = humans < players && read_lateness(&loads[0], &late_before);
	struct rusage usage;
	double user0, system0, user1, system1;
	cpu_seconds(&usage, &user0, &system0);
	double start = now_seconds();
	pthread_t *ids = allocate((size_t)threads * sizeof *ids);
	for (int t = 0; t < threads; t++) {
		loads[t].deadline = start + seconds;
		if (pthread_create(&ids[t], NULL, run, &loads[t]) != 0)
			abort();
	}
	for (int t = 0; t < threads; t++)
		pthread_join(ids[t], NULL);
	double elapsed = now_seconds() - start;
	cpu_seconds(&usage, &user1, &system1);
	struct load *load = &loads[0];
	for (int t = 1; t < threads; t++)
		merge(load, &loads[t]);

	double per_move = load->moves ? 1e6 / (double)load->moves : 0;
	printf("bench http: %.0f moves/s, p50 %.2f ms, p99 %.2f ms\n", (double)load->moves / elapsed,
	       histogram_ms(&load->post_ms, 0.5), histogram_ms(&load->post_ms, 0.99));
	if (mode == MODE_POLL)
		printf("bench http: %ld moves and %ld GET actions (%.2f a move) in %.1f s by %d concurrent games (%ld "
		       "finished); GET p50 %.2f ms, p99 %.2f ms; %ld failures\n",
		       load->moves, load->gets, load->moves ? (double)load->gets / (double)load->moves : 0, elapsed,
		       games, load->finished, histogram_ms(&load->get_ms, 0.5), histogram_ms(&load->get_ms, 0.99),
		       load->failures);
	else
		printf("bench http: %ld moves and %ld GET actions?wait (%.2f a move) in %.1f s by %d concurrent games "
		       "(%ld finished); GET p50 %.2f ms, p99 %.2f ms (held until the seat must act); %ld refused, %ld "
		       "failures\n",
		       load->moves, load->waits, load->moves ? (double)load->waits / (double)load->moves : 0, elapsed,
		       games, load->finished, histogram_ms(&load->wait_ms, 0.5), histogram_ms(&load->wait_ms, 0.99),
		       load->refused, load->failures);
	printf("bench http: the load generator's own CPU %.1f us a move (user %.1f, system %.1f; getrusage), %d "
	       "thread(s), epoll over %d keep-alive connections\n",
	       ((user1 - user0) + (system1 - system0)) * per_move, (user1 - user0) * per_move,
	       (system1 - system0) * per_move, threads, connection_count);
	if (bots_timed && read_lateness(load, &late_after) && late_after.buckets == late_before.buckets) {
		long long timed =
			late_after.counts[late_after.buckets - 1] - late_before.counts[late_before.buckets - 1];
		printf("bench http: %d of %d seats the server's %s bots: %lld bot moves stored, late by p50 <= %g s, "
		       "p99 <= %g s (bucket bounds of catan_bot_move_lateness_seconds)\n",
		       players - humans, players, bot_level, timed, lateness_quantile(&late_before, &late_after, 0.5),
		       lateness_quantile(&late_before, &late_after, 0.99));
	} else if (humans < players) {
		printf("bench http: the bots' lateness could not be read from /metrics\n");
	}
	if (load->error[0])
		fprintf(stderr, "http_bench: %s\n", load->error);
	int failed = load->failures != 0;
	for (int t = 0; t < threads; t++) {
		for (int c = 0; c < loads[t].connection_count; c++) {
			free(loads[t].connections[c].in);
			free(loads[t].connections[c].out);
		}
		free(loads[t].connections);
		free(loads[t].games);
		close(loads[t].epoll);
	}
	free(ids);
	free(loads);
	return failed ? 1 : 0;
}
