/*
 * test_haproxy.c - the scale-out proof: HAProxy (Debian's haproxy) in front of three
 * catan-server processes on one PostgreSQL. Moves made through the balancer spread over
 * all three (each server's /metrics counts the events it appended); long-polls and a
 * stream parked on one server are woken by a move made on another; a server killed with
 * -9 under load loses nothing, and the clients carry on through the balancer (its health
 * checks on /healthz take the dead server out; connection failures and 503s of requests
 * with an Idempotency-Key are retried on another server by HAProxy itself); a budget
 * counted in the database holds per client behind the balancer (`option forwardfor` and
 * TRUSTED_PROXIES), across the three servers, whatever the client forwards itself.
 *
 * The configuration is written by the test (fault_haproxy_config(), the recipe README.md
 * shows) with ephemeral ports on 127.0.0.1. Without the haproxy program the suite says so
 * and checks nothing.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/check_main.h"
#include "tests/faults/fault_support.h"

#define SERVERS 3

static struct fault_fleet fleet;
static struct fault_haproxy balancer;
static int have_haproxy;

static void start(void)
{
	have_haproxy = fault_haproxy_available();
	if (!have_haproxy)
		return;
	/* The servers trust the balancer's X-Forwarded-For (README's recipe), and budget
	 * players per client (counted in the one database, so across the three). */
	static const char *const settings[] = {"THREADS=4", "TRUSTED_PROXIES=127.0.0.1", "PLAYER_RATE_IP=30", NULL};
	fault_fleet_start(&fleet, SERVERS, settings);
	fault_haproxy_start(&balancer, &fleet);
}

static void stop(void)
{
	if (!have_haproxy)
		return;
	fault_haproxy_stop(&balancer);
	fault_fleet_stop(&fleet);
}

static int skip(void)
{
	if (!have_haproxy)
		fprintf(stderr,
			"haproxy: the haproxy program is not installed (apt-get install haproxy); nothing checked\n");
	return !have_haproxy;
}

static const char *pick_balancer(void *context, char *out, size_t size)
{
	(void)context;
	snprintf(out, size, "%s", balancer.url);
	return out;
}

/* The value of a counter without labels in server `index`'s /metrics. */
static long metric(int index, const char *name)
{
	char base[64];
	struct fault_answer answer;
	fault_request(fault_fleet_url(&fleet, index, base, sizeof base), "GET", "/metrics", NULL, NULL, NULL, 10,
		      &answer);
	ck_assert_msg(answer.status == 200, "GET /metrics of server %d: %ld", index, answer.status);
	char line[128];
	snprintf(line, sizeof line, "\n%s ", name);
	const char *at = strstr(answer.body, line);
	long value = at ? atol(at + strlen(line)) : -1;
	fault_answer_free(&answer);
	ck_assert_msg(value >= 0, "no %s in the metrics of server %d", name, index);
	return value;
}

START_TEST(test_moves_through_the_balancer_spread_over_all_three_servers)
{
	if (skip())
		return;
	long before[SERVERS];
	for (int i = 0; i < SERVERS; i++)
		before[i] = metric(i, "catan_events_appended_total");
	static struct fault_game games[2];
	for (int g = 0; g < 2; g++)
		fault_game_create(&games[g], pick_balancer, NULL);
	for (int move = 0; move < 60; move++)
		for (int g = 0; g < 2; g++)
			ck_assert_msg(
				fault_game_step(&games[g], pick_balancer, NULL, move % 5 == 0, 30 * http_slowdown()),
				"%s", games[g].failure);
	long total = 0;
	char counts[128] = "";
	for (int i = 0; i < SERVERS; i++) {
		long appended = metric(i, "catan_events_appended_total") - before[i];
		total += appended;
		snprintf(counts + strlen(counts), sizeof counts - strlen(counts), " %ld", appended);
		ck_assert_msg(appended >= 10, "server %d appended %ld of the events (all:%s)", i, appended, counts);
	}
	fprintf(stderr, "haproxy: 120 moves through the balancer: %ld events appended, per server:%s\n", total, counts);
	for (int g = 0; g < 2; g++)
		fault_game_verify(&games[g]);
}
END_TEST

struct long_poll {
	const struct fault_game *game;
	long after;
	double answered_at;
	struct fault_answer answer;
};

static void *wait_through_balancer(void *argument)
{
	struct long_poll *poll = argument;
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld&wait=20", poll->game->game.path, poll->after);
	fault_request(balancer.url, "GET", path, NULL, NULL, NULL, 40, &poll->answer);
	poll->answered_at = http_clock();
	return NULL;
}

struct stream_reader {
	const struct fault_game *game;
	long after;
	volatile long until;
	struct http_stream stream;
};

static void *read_stream_through_balancer(void *argument)
{
	struct stream_reader *reader = argument;
	char path[160], resume[32];
	snprintf(path, sizeof path, "%s/stream", reader->game->game.path);
	snprintf(resume, sizeof resume, "%ld", reader->after);
	http_stream_read(balancer.url, path, NULL, resume, 1000, &reader->until, 30, &reader->stream);
	return NULL;
}

static const char *pick_fixed(void *context, char *out, size_t size)
{
	snprintf(out, size, "%s", (const char *)context);
	return out;
}

/* Three long-polls sent through the balancer land on the three servers (round robin); a
 * move made directly on one server wakes all of them, and each server takes its turn
 * making the move, so every server is seen waking waiters for moves another server made.
 * A stream through the balancer sees every move. */
START_TEST(test_long_polls_and_streams_are_woken_by_moves_on_other_servers)
{
	if (skip())
		return;
	static struct fault_game game;
	fault_game_create(&game, pick_balancer, NULL);
	long version = game.start_version;
	struct stream_reader reader = {&game, version, 0, {0}};
	pthread_t stream_thread;
	pthread_create(&stream_thread, NULL, read_stream_through_balancer, &reader);
	double slowest = 0;
	for (int server = 0; server < SERVERS; server++) {
		struct long_poll polls[SERVERS];
		pthread_t threads[SERVERS];
		for (int i = 0; i < SERVERS; i++) {
			polls[i] = (struct long_poll){&game, version, 0, {0}};
			pthread_create(&threads[i], NULL, wait_through_balancer, &polls[i]);
			http_pause(0.1); /* one after another, so round robin gives each its own server */
		}
		http_pause(1.0);
		char base[64];
		fault_fleet_url(&fleet, server, base, sizeof base);
		double moved_at = http_clock();
		ck_assert_msg(fault_game_step(&game, pick_fixed, base, 0, 30 * http_slowdown()), "%s", game.failure);
		for (int i = 0; i < SERVERS; i++) {
			pthread_join(threads[i], NULL);
			struct fault_answer *answer = &polls[i].answer;
			ck_assert_msg(answer->status == 200, "long-poll %d: %ld %s", i, answer->status, answer->body);
			json_t *body = json_loads(answer->body, 0, NULL);
			json_t *events = json_object_get(body, "events");
			ck_assert_msg(json_array_size(events) >= 1, "long-poll %d woke without the move: %s", i,
				      answer->body);
			ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(events, 0), "version")),
					 version + 1);
			long last = (long)json_integer_value(
				json_object_get(json_array_get(events, json_array_size(events) - 1), "version"));
			json_decref(body);
			double late = polls[i].answered_at - moved_at;
			slowest = late > slowest ? late : slowest;
			ck_assert_msg(late < 3 * http_slowdown(),
				      "long-poll %d woken %.2f s after the move on server %d", i, late, server);
			if (i == SERVERS - 1)
				version = last;
			fault_answer_free(answer);
		}
	}
	reader.until = version;
	pthread_join(stream_thread, NULL);
	ck_assert_int_eq(reader.stream.status, 200);
	ck_assert_int_eq(reader.stream.count, version - game.start_version);
	for (int i = 0; i < reader.stream.count; i++)
		ck_assert_int_eq(reader.stream.events[i].id, game.start_version + 1 + i);
	http_stream_free(&reader.stream);
	fprintf(stderr,
		"haproxy: 9 long-polls over 3 servers woken by moves on each server (slowest %.3f s), "
		"a stream saw all %d events\n",
		slowest, (int)(version - game.start_version));
	fault_game_verify(&game);
}
END_TEST

struct player {
	atomic_int *stop;
	struct fault_game game;
	int failed;
};

static void *play_through_balancer(void *argument)
{
	struct player *player = argument;
	for (int move = 0; move < FAULT_MAX_MOVES - 1 && !atomic_load(player->stop); move++) {
		if (!fault_game_step(&player->game, pick_balancer, NULL, move % 4 == 0, 60 * http_slowdown())) {
			player->failed = 1;
			break;
		}
		http_pause(0.01);
	}
	return NULL;
}

static long acknowledged(const struct player *players, int count)
{
	long moves = 0;
	for (int i = 0; i < count; i++)
		moves += players[i].game.ack_count;
	return moves;
}

/* Last of the suite: it leaves two servers. */
/* POST /v1/players through the balancer from `source`, with `headers`: the status, and
 * the problem code into code (a 429's). */
static long player_from(const char *source, const char *const *headers, char *code, size_t size)
{
	struct fault_answer answer;
	fault_request_from(source, balancer.url, "POST", "/v1/players", NULL, "{\"name\": \"Behind\"}", headers, 10,
			   &answer);
	code[0] = '\0';
	const char *at = strstr(answer.body, "\"code\":\"");
	if (at)
		snprintf(code, size, "%.*s", (int)strcspn(at + 8, "\""), at + 8);
	long status = answer.status;
	fault_answer_free(&answer);
	return status;
}

START_TEST(test_budgets_count_each_client_behind_the_balancer_across_the_servers)
{
	if (skip())
		return;
	/* Ten players (PLAYER_RATE_IP's burst) from one client, spread over the three servers by
	 * the balancer, then the client waits: the budget is the client's, not each server's,
	 * and not the balancer's. */
	char code[64];
	for (int i = 0; i < 10; i++) {
		long status = player_from("127.0.0.2", NULL, code, sizeof code);
		ck_assert_msg(status == 201, "player %d from 127.0.0.2: %ld %s", i, status, code);
	}
	ck_assert_int_eq(player_from("127.0.0.2", NULL, code, sizeof code), 429);
	ck_assert_str_eq(code, "player_quota");
	/* What the client writes in X-Forwarded-For itself is left of what HAProxy adds. */
	static const char *const spoofed[] = {"X-Forwarded-For: 203.0.113.77", NULL};
	ck_assert_int_eq(player_from("127.0.0.2", spoofed, code, sizeof code), 429);
	/* Another client behind the same balancer has its own budget. */
	ck_assert_int_eq(player_from("127.0.0.3", NULL, code, sizeof code), 201);
}
END_TEST

START_TEST(test_a_server_killed_under_load_loses_nothing_and_clients_carry_on)
{
	if (skip())
		return;
	enum { PLAYERS = 4 };
	static struct player players[PLAYERS];
	atomic_int stop = 0;
	pthread_t threads[PLAYERS];
	for (int i = 0; i < PLAYERS; i++) {
		memset(&players[i], 0, sizeof players[i]);
		players[i].stop = &stop;
		fault_game_create(&players[i].game, pick_balancer, NULL);
		pthread_create(&threads[i], NULL, play_through_balancer, &players[i]);
	}
	http_pause(3);
	long before_kill = acknowledged(players, PLAYERS);
	pthread_mutex_lock(&fleet.lock);
	struct http_server victim = fleet.servers[SERVERS - 1];
	fleet.servers[SERVERS - 1].pid = 0; /* the fixture's stop has nothing left to stop */
	pthread_mutex_unlock(&fleet.lock);
	double killed_at = http_clock();
	http_server_kill(&victim);
	/* The clients carry on through the balancer: moves keep being acknowledged. */
	double deadline = killed_at + 60 * http_slowdown();
	long at_kill = acknowledged(players, PLAYERS);
	while (acknowledged(players, PLAYERS) < at_kill + 200 && http_clock() < deadline)
		http_pause(0.05);
	double recovered = http_clock() - killed_at;
	http_pause(2);
	atomic_store(&stop, 1);
	long transport = 0, unavailable = 0, other = 0;
	for (int i = 0; i < PLAYERS; i++) {
		pthread_join(threads[i], NULL);
		ck_assert_msg(!players[i].failed, "%s", players[i].game.failure);
		fault_game_verify(&players[i].game);
		transport += players[i].game.transport_failures;
		unavailable += players[i].game.unavailable;
		other += players[i].game.other_retries;
	}
	long total = acknowledged(players, PLAYERS);
	fprintf(stderr,
		"haproxy: server 3 killed with -9 after %ld moves; %ld moves in all, each in the log once; 200 more "
		"within %.1f s; clients retried %ld transport failures, %ld 503, %ld other (502/504/409)\n",
		before_kill, total, recovered, transport, unavailable, other);
	ck_assert_msg(total >= at_kill + 200, "the clients did not carry on after the kill (%ld, then %ld)", at_kill,
		      total);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("haproxy");
	TCase *scale = tcase_create("three servers behind HAProxy");
	tcase_add_unchecked_fixture(scale, start, stop);
	tcase_set_timeout(scale, 300);
	tcase_add_test(scale, test_moves_through_the_balancer_spread_over_all_three_servers);
	tcase_add_test(scale, test_long_polls_and_streams_are_woken_by_moves_on_other_servers);
	tcase_add_test(scale, test_budgets_count_each_client_behind_the_balancer_across_the_servers);
	tcase_add_test(scale, test_a_server_killed_under_load_loses_nothing_and_clients_carry_on);
	suite_add_tcase(suite, scale);
	return suite;
}
