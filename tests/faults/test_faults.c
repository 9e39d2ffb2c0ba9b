/*
 * test_faults.c - the fault suite (`make test-faults`): several clients play games while
 *   (a) a server is killed with -9 every few seconds and started again,
 *   (b) PostgreSQL is restarted twice,
 *   (c) two servers race on the same moves, with and without If-Match and Idempotency-Key;
 * afterwards every acknowledged move is in the log exactly once at the version its answer
 * gave, every game's log is contiguous and replays from its first event to the state the
 * server loads, and every Idempotency-Key got one answer (every definitive answer of a key,
 * asked again on purpose now and then, has the same status and body).
 *
 * Real processes, real sockets, a real PostgreSQL (scripts/with-postgres.sh's cluster for
 * (b)), ephemeral ports on 127.0.0.1. Each case is bounded in time (CK_TIMEOUT_MULTIPLIER
 * stretches it on a slow machine); it prints what it did (moves acknowledged, kills,
 * restarts, retries) to stderr.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/check_main.h"
#include "tests/faults/fault_support.h"

#define CLIENTS 4
#define GAMES_PER_CLIENT 2
#define MOVE_TIMEOUT_S 60

static const char *pick_from_fleet(void *context, char *out, size_t size)
{
	return fault_fleet_url(context, -1, out, size);
}

/* A client: plays its games in turn, one driven move each, until told to stop. */
struct client {
	struct fault_fleet *fleet;
	atomic_int *stop;
	struct fault_game games[GAMES_PER_CLIENT];
	int failed;
};

static void *play(void *argument)
{
	struct client *client = argument;
	for (int round = 0; round < FAULT_MAX_MOVES - 1 && !atomic_load(client->stop) && !client->failed; round++) {
		for (int g = 0; g < GAMES_PER_CLIENT && !client->failed; g++) {
			struct fault_game *game = &client->games[g];
			int check_replay = http_random64() % 4 == 0;
			if (!fault_game_step(game, pick_from_fleet, client->fleet, check_replay,
					     MOVE_TIMEOUT_S * http_slowdown()))
				client->failed = 1;
		}
		http_pause(0.015); /* a player's pace, so the load lasts as long as the faults */
	}
	return NULL;
}

struct load {
	struct fault_fleet fleet;
	atomic_int stop;
	struct client clients[CLIENTS];
	pthread_t threads[CLIENTS];
};

static void load_start(struct load *load, int servers)
{
	static const char *const settings[] = {"THREADS=4", NULL};
	fault_fleet_start(&load->fleet, servers, settings);
	atomic_store(&load->stop, 0);
	for (int c = 0; c < CLIENTS; c++) {
		struct client *client = &load->clients[c];
		client->fleet = &load->fleet;
		client->stop = &load->stop;
		client->failed = 0;
		for (int g = 0; g < GAMES_PER_CLIENT; g++)
			fault_game_create(&client->games[g], pick_from_fleet, &load->fleet);
		ck_assert_int_eq(pthread_create(&load->threads[c], NULL, play, client), 0);
	}
}

static long acknowledged(const struct load *load)
{
	long moves = 0;
	for (int c = 0; c < CLIENTS; c++)
		for (int g = 0; g < GAMES_PER_CLIENT; g++)
			moves += load->clients[c].games[g].ack_count;
	return moves;
}

/* Stop the clients, check every game against the store, stop the servers; reports. */
static void load_finish(struct load *load, const char *what, double started)
{
	atomic_store(&load->stop, 1);
	for (int c = 0; c < CLIENTS; c++)
		pthread_join(load->threads[c], NULL);
	long events = 0, transport = 0, unavailable = 0, other = 0, replays = 0;
	for (int c = 0; c < CLIENTS; c++)
		for (int g = 0; g < GAMES_PER_CLIENT; g++) {
			const struct fault_game *game = &load->clients[c].games[g];
			events += fault_game_verify(game);
			transport += game->transport_failures;
			unavailable += game->unavailable;
			other += game->other_retries;
			replays += game->replays_checked;
		}
	fprintf(stderr,
		"faults: %s: %.1f s, %d clients, %d games: %ld moves acknowledged (each in the log once), %ld events, "
		"%d kills, %d restarts; retried %ld transport failures, %ld 503, %ld other; %ld replays compared\n",
		what, http_clock() - started, CLIENTS, CLIENTS * GAMES_PER_CLIENT, acknowledged(load), events,
		load->fleet.kills, load->fleet.restarts, transport, unavailable, other, replays);
	fault_fleet_stop(&load->fleet);
}

START_TEST(test_kill_9_every_few_seconds_loses_no_acknowledged_move)
{
	static struct load load;
	double started = http_clock();
	load_start(&load, 2);
	double duration = 24 * http_slowdown();
	for (int kill = 0; kill < 100 && http_clock() - started < duration; kill++) {
		http_pause(1.5 + (double)(http_random64() % 1000) / 1000.0);
		fault_fleet_kill_and_restart(&load.fleet, kill % 2);
	}
	http_pause(1);
	load_finish(&load, "kill -9 every few seconds", started);
	ck_assert_int_ge(load.fleet.kills, 5);
	ck_assert_int_gt(acknowledged(&load), 50);
}
END_TEST

START_TEST(test_postgres_restarted_twice_under_load_loses_no_acknowledged_move)
{
	if (!http_pg_script()) {
		fprintf(stderr, "faults: DATABASE_URL was given from outside; PostgreSQL cannot be restarted here\n");
		return;
	}
	static struct load load;
	double started = http_clock();
	load_start(&load, 2);
	long before[3];
	for (int restart = 0; restart < 2; restart++) {
		http_pause(4);
		before[restart] = acknowledged(&load);
		http_pg_control("stop");
		http_pause(1.5);
		http_pg_control("start");
	}
	/* Play on after the second restart: the writes after it must get through. */
	before[2] = acknowledged(&load);
	double deadline = http_clock() + 60 * http_slowdown();
	while (acknowledged(&load) < before[2] + 40 && http_clock() < deadline)
		http_pause(0.1);
	load_finish(&load, "PostgreSQL restarted twice", started);
	ck_assert_msg(before[1] > before[0] && acknowledged(&load) >= before[2] + 40,
		      "moves went on after each restart (%ld, %ld, %ld, %ld)", before[0], before[1], before[2],
		      acknowledged(&load));
}
END_TEST

/* ---- (c) two servers racing on one move ------------------------------------------------------- */

enum racer_kind { RACER_KEYED, RACER_IF_MATCH, RACER_PLAIN, RACER_KINDS };
#define RACERS (2 * RACER_KINDS)

struct racer {
	pthread_barrier_t *barrier;
	const char *base;
	const struct fault_game *game;
	int seat;
	const char *body;
	char header[96];
	struct fault_answer answer;
};

static void *race(void *argument)
{
	struct racer *racer = argument;
	char path[96];
	snprintf(path, sizeof path, "%s/moves", racer->game->game.path);
	const char *headers[] = {racer->header[0] ? racer->header : NULL, NULL};
	pthread_barrier_wait(racer->barrier);
	fault_request(racer->base, "POST", path, racer->game->game.tokens[racer->seat], racer->body, headers, 30,
		      &racer->answer);
	return NULL;
}

static const char *code_of(const char *body, char *out, size_t size)
{
	json_t *problem = json_loads(body, 0, NULL);
	snprintf(out, size, "%s",
		 json_is_string(json_object_get(problem, "code")) ? json_string_value(json_object_get(problem, "code"))
								  : "");
	json_decref(problem);
	return out;
}

struct raced_game {
	struct fault_fleet *fleet;
	struct fault_game game;
	int steps;
	long keyed_wins, if_match_wins, plain_wins;
	char failure[512];
};

/* Race each move of the game on both servers: a keyed pair (one key), an If-Match pair
 * (the version read just before) and a plain pair. Exactly one of the six must apply it. */
static void *race_game(void *argument)
{
	struct raced_game *raced = argument;
	struct fault_game *game = &raced->game;
	char urls[2][64];
	fault_fleet_url(raced->fleet, 0, urls[0], sizeof urls[0]);
	fault_fleet_url(raced->fleet, 1, urls[1], sizeof urls[1]);
	for (int step = 0; step < raced->steps && !raced->failure[0]; step++) {
		struct fault_answer current;
		fault_request(urls[step % 2], "GET", game->game.path, NULL, NULL, NULL, 30, &current);
		json_t *view = json_loads(current.body, 0, NULL);
		long version = (long)json_integer_value(json_object_get(view, "version"));
		json_decref(view);
		fault_answer_free(&current);
		if (version <= 0) {
			snprintf(raced->failure, sizeof raced->failure, "game %s: no version to pin", game->game.id);
			break;
		}
		int move = game->moves, seat;
		const char *body = fault_move_body(move, &seat);
		pthread_barrier_t barrier;
		pthread_barrier_init(&barrier, NULL, RACERS);
		struct racer racers[RACERS];
		pthread_t threads[RACERS];
		for (int i = 0; i < RACERS; i++) {
			struct racer *racer = &racers[i];
			memset(racer, 0, sizeof *racer);
			*racer = (struct racer){&barrier, urls[i % 2], game, seat, body, "", {0}};
			if (i / 2 == RACER_KEYED)
				snprintf(racer->header, sizeof racer->header, "Idempotency-Key: race-%016llx-%d",
					 (unsigned long long)game->salt, move);
			else if (i / 2 == RACER_IF_MATCH)
				snprintf(racer->header, sizeof racer->header, "If-Match: \"%ld\"", version);
			pthread_create(&threads[i], NULL, race, racer);
		}
		for (int i = 0; i < RACERS; i++)
			pthread_join(threads[i], NULL);
		pthread_barrier_destroy(&barrier);
		/* The keyed pair got one answer; one request applied the move. */
		int winners = 0, winner = -1;
		for (int i = 0; i < RACERS && !raced->failure[0]; i++) {
			const struct fault_answer *answer = &racers[i].answer;
			char code[64];
			code_of(answer->body, code, sizeof code);
			int kind = i / 2;
			if (kind == RACER_KEYED && i % 2 == 1) {
				const struct fault_answer *pair = &racers[i - 1].answer;
				if (pair->status != answer->status || strcmp(pair->body, answer->body) != 0)
					snprintf(raced->failure, sizeof raced->failure,
						 "game %s, move %d: one key, two answers: %ld %.150s | %ld %.150s",
						 game->game.id, move, pair->status, pair->body, answer->status,
						 answer->body);
				if (answer->status == 201)
					continue; /* the pair counts once */
			}
			if (answer->status == 201) {
				winners++;
				winner = i;
			} else if (!((kind == RACER_IF_MATCH && answer->status == 412) ||
				     (kind != RACER_IF_MATCH && answer->status == 422) ||
				     (kind == RACER_PLAIN && answer->status == 409))) {
				snprintf(raced->failure, sizeof raced->failure,
					 "game %s, move %d, racer %d: %ld %s %.200s", game->game.id, move, i,
					 answer->status, code, answer->body);
			}
		}
		if (!raced->failure[0] && winners != 1)
			snprintf(raced->failure, sizeof raced->failure, "game %s, move %d: %d requests applied it",
				 game->game.id, move, winners);
		if (!raced->failure[0]) {
			if (!fault_game_record(game, move, racers[winner].answer.body))
				snprintf(raced->failure, sizeof raced->failure, "a 201 without events: %.200s",
					 racers[winner].answer.body);
			game->moves++;
			raced->keyed_wins += winner / 2 == RACER_KEYED;
			raced->if_match_wins += winner / 2 == RACER_IF_MATCH;
			raced->plain_wins += winner / 2 == RACER_PLAIN;
		}
		for (int i = 0; i < RACERS; i++)
			fault_answer_free(&racers[i].answer);
	}
	return NULL;
}

START_TEST(test_two_servers_racing_with_and_without_if_match_and_keys_apply_each_move_once)
{
	enum { GAMES = 2 };
	static struct fault_fleet fleet;
	/* Group commit on (off by default): racing appends of one game refused one by one
	 * inside the committer's batches too. */
	static const char *const settings[] = {"THREADS=4", "GROUP_COMMIT_MAX=64", NULL};
	double started = http_clock();
	fault_fleet_start(&fleet, 2, settings);
	static struct raced_game games[GAMES];
	pthread_t threads[GAMES];
	for (int g = 0; g < GAMES; g++) {
		memset(&games[g], 0, sizeof games[g]);
		games[g].fleet = &fleet;
		games[g].steps = 200;
		fault_game_create(&games[g].game, pick_from_fleet, &fleet);
		pthread_create(&threads[g], NULL, race_game, &games[g]);
	}
	long moves = 0, keyed = 0, if_match = 0, plain = 0, events = 0;
	for (int g = 0; g < GAMES; g++) {
		pthread_join(threads[g], NULL);
		ck_assert_msg(!games[g].failure[0], "%s", games[g].failure);
		events += fault_game_verify(&games[g].game);
		moves += games[g].game.ack_count;
		keyed += games[g].keyed_wins;
		if_match += games[g].if_match_wins;
		plain += games[g].plain_wins;
	}
	fprintf(stderr,
		"faults: two servers racing: %.1f s, %d games, %ld moves each raced by %d requests and applied once "
		"(won by the keyed pair %ld, If-Match %ld, plain %ld), %ld events\n",
		http_clock() - started, GAMES, moves, RACERS, keyed, if_match, plain, events);
	fault_fleet_stop(&fleet);
	ck_assert_int_eq(moves, GAMES * 200);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("faults");
	TCase *kills = tcase_create("kill -9");
	tcase_set_timeout(kills, 300);
	tcase_add_test(kills, test_kill_9_every_few_seconds_loses_no_acknowledged_move);
	suite_add_tcase(suite, kills);
	TCase *database = tcase_create("PostgreSQL restarts");
	tcase_set_timeout(database, 300);
	tcase_add_test(database, test_postgres_restarted_twice_under_load_loses_no_acknowledged_move);
	suite_add_tcase(suite, database);
	TCase *races = tcase_create("two servers racing");
	tcase_set_timeout(races, 300);
	tcase_add_test(races, test_two_servers_racing_with_and_without_if_match_and_keys_apply_each_move_once);
	suite_add_tcase(suite, races);
	return suite;
}
