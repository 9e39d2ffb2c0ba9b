/*
 * test_ha.c - the high-availability proof (issue 25; `make test-ha`, and one round in
 * `make test`): two catan-server processes on a PostgreSQL cluster of three nodes under
 * Patroni (scripts/ha/cluster.sh, started by scripts/ha/run.sh, which hands its directory
 * in HA_DIR and the multi-host DATABASE_URL with target_session_attrs=read-write), several
 * clients playing games through both servers, a webhook on every game, and, under that
 * load, one after the other:
 *   - kill -9 of the leader's postmaster (Patroni keeps the lock and recovers it);
 *   - the leader's node lost for good (its Patroni and PostgreSQL killed; revived as a
 *     standby only after the check, so the cluster is whole for the next round);
 *   - patronictl switchover;
 *   - the leader cut off the network (its node's veth set down: etcd, the other nodes and
 *     the servers stop hearing it; healed after the check). Only when the cluster runs in
 *     network namespaces (as root; HA_NETNS=1 from scripts/ha/cluster.sh), else skipped.
 *
 * After each fault, on whichever node is the primary now: every acknowledged move is in the
 * log exactly once at the version its answer gave, and every game's log replays
 * (fault_game_verify(), tests/faults/); every webhook delivery announced an event that is in
 * the final log at its version with its type (never one the cluster lost); every 503 came
 * with Retry-After, and only between a fault and the end of the write pause it caused (plus
 * GRACE_S, while the servers' other connections find the new primary). Prints the write
 * pause of each fault: the longest gap between two acknowledged moves after it began.
 *
 * HA_ROUNDS (default 1) repeats the three faults. Without HA_DIR it says so and checks
 * nothing.
 */
#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/webhook_receiver.h"
#include "tests/check_main.h"
#include "tests/faults/fault_support.h"

#define SERVERS 2
#define CLIENTS 4
#define GAMES_PER_CLIENT 2
#define MOVE_TIMEOUT_S 90
#define GRACE_S 3.0
#define MAX_FAULTS 64

static const char *pick_from_fleet(void *context, char *out, size_t size)
{
	return fault_fleet_url(context, -1, out, size);
}

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
			int check_replay = http_random64() % 4 == 0;
			if (!fault_game_step(&client->games[g], pick_from_fleet, client->fleet, check_replay,
					     MOVE_TIMEOUT_S * http_slowdown()))
				client->failed = 1;
		}
		http_pause(0.02);
	}
	return NULL;
}

struct fault {
	char what[32];
	char node[16];
	double asked;	      /* when the script was asked to do it: no 503 of it comes earlier */
	double at;	      /* when it was done */
	double before, after; /* last acknowledged move before it, first after it */
};

static struct fault_fleet fleet;
static struct client clients[CLIENTS];
static pthread_t threads[CLIENTS];
static atomic_int stop;
static struct webhook_receiver *receiver;
static struct fault faults[MAX_FAULTS];
static int fault_count;

/* Run `scripts/ha/cluster.sh ACTION $HA_DIR [ARG]`; its first line of output into out. */
static void cluster(const char *action, const char *argument, char *out, size_t size)
{
	char command[600];
	snprintf(command, sizeof command, "scripts/ha/cluster.sh %s '%s' %s", action, getenv("HA_DIR"),
		 argument ? argument : "");
	FILE *pipe = popen(command, "r");
	ck_assert_msg(pipe != NULL, "popen %s", command);
	char line[128] = "";
	if (!fgets(line, sizeof line, pipe))
		line[0] = '\0';
	char rest[256];
	while (fgets(rest, sizeof rest, pipe))
		;
	int status = pclose(pipe);
	ck_assert_msg(status == 0, "%s failed (%d)", command, status);
	line[strcspn(line, "\n")] = '\0';
	if (out)
		snprintf(out, size, "%s", line);
}

/* The node of a fault back as a standby on the leader's timeline (reinit when Patroni did
 * not rewind it within 30 s), and the cluster whole. */
static void rejoin(const char *node)
{
	char argument[64];
	snprintf(argument, sizeof argument, "%s 30", node);
	cluster("rejoin", argument, NULL, 0);
	cluster("healthy", "120", NULL, 0);
}

static void register_webhook(struct fault_game *game)
{
	char path[96], body[256];
	snprintf(path, sizeof path, "%s/webhooks", game->game.path);
	snprintf(body, sizeof body, "{\"url\": \"%s\"}", webhook_receiver_url(receiver));
	for (int attempt = 0; attempt < 600; attempt++) {
		char base[64];
		struct fault_answer answer;
		fault_request(fault_fleet_url(&fleet, -1, base, sizeof base), "POST", path, game->game.admin_token,
			      body, NULL, 15, &answer);
		long status = answer.status;
		fault_answer_free(&answer);
		if (status == 201)
			return;
		ck_assert_msg(status == 0 || status >= 500, "register a webhook: %ld", status);
		http_pause(0.1);
	}
	ck_abort_msg("no webhook could be registered");
}

static int by_time(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The write pause of a fault done at `at`: the longest gap between two consecutive
 * acknowledged moves (over every game) that ends after `at` and before `until` (the next
 * fault); *before is its start (the last move acknowledged before the pause), *after
 * its end. */
static void pause_around(double at, double until, double *before, double *after)
{
	static double times[CLIENTS * GAMES_PER_CLIENT * FAULT_MAX_MOVES];
	size_t count = 0;
	for (int c = 0; c < CLIENTS; c++)
		for (int g = 0; g < GAMES_PER_CLIENT; g++)
			for (int a = 0; a < clients[c].games[g].ack_count; a++)
				times[count++] = clients[c].games[g].acks[a].at;
	qsort(times, count, sizeof times[0], by_time);
	*before = 0;
	*after = 0;
	for (size_t i = 0; i + 1 < count; i++)
		if (times[i + 1] > at && times[i + 1] < until && times[i + 1] - times[i] > *after - *before) {
			*before = times[i];
			*after = times[i + 1];
		}
}

static long acknowledged(void)
{
	long moves = 0;
	for (int c = 0; c < CLIENTS; c++)
		for (int g = 0; g < GAMES_PER_CLIENT; g++)
			moves += clients[c].games[g].ack_count;
	return moves;
}

/* Wait until `more` moves have been acknowledged after now (the load got through). */
static void wait_for_moves(long more, const char *what)
{
	long target = acknowledged() + more;
	double deadline = http_clock() + 120 * http_slowdown();
	while (acknowledged() < target && http_clock() < deadline)
		http_pause(0.1);
	ck_assert_msg(acknowledged() >= target, "%s: no moves acknowledged for 120 s", what);
}

static void inject(const char *what, const char *action)
{
	ck_assert_int_lt(fault_count, MAX_FAULTS);
	struct fault *fault = &faults[fault_count++];
	snprintf(fault->what, sizeof fault->what, "%s", what);
	fault->asked = fault->at = http_clock();
	cluster(action, NULL, fault->node, sizeof fault->node);
	/* A kill is the script's last step (after it asked Patroni who leads): the fault
	 * begins when it returns. A switchover begins when it is asked for. */
	if (strncmp(action, "kill", 4) == 0)
		fault->at = http_clock();
	/* Two of Patroni's loops (loop_wait 2 s), so that what etcd says is news of the fault,
	 * not of the moment before it. */
	http_pause(4);
}

/* Every delivery announced an event of the final log: same game, version and type. */
static long check_webhooks(void)
{
	int count;
	struct webhook_delivery *deliveries = webhook_receiver_deliveries(receiver, &count);
	long events = 0;
	for (int c = 0; c < CLIENTS; c++)
		for (int g = 0; g < GAMES_PER_CLIENT; g++) {
			const struct fault_game *game = &clients[c].games[g];
			json_t *log = http_truth_events(game->game.id, 0);
			for (int d = 0; d < count; d++) {
				json_t *body = deliveries[d].body;
				const char *type = json_string_value(json_object_get(body, "type"));
				const char *id = json_string_value(json_object_get(body, "game_id"));
				if (!type || strcmp(type, "event") != 0 || !id || strcmp(id, game->game.id) != 0)
					continue;
				long version = (long)json_integer_value(json_object_get(body, "version"));
				json_t *stored = json_array_get(log, (size_t)(version - 1));
				const char *announced =
					json_string_value(json_object_get(json_object_get(body, "event"), "type"));
				const char *kept = json_string_value(json_object_get(stored, "type"));
				ck_assert_msg(stored && announced && kept && strcmp(announced, kept) == 0,
					      "game %s: a webhook announced version %ld (%s), which the log has as %s",
					      game->game.id, version, announced ? announced : "?",
					      kept ? kept : "nothing");
				events++;
			}
			json_decref(log);
		}
	webhook_deliveries_free(deliveries, count);
	return events;
}

/* Every 503 had Retry-After and came within a fault's window. */
static long check_unavailable(double started)
{
	long total = 0;
	for (int c = 0; c < CLIENTS; c++)
		for (int g = 0; g < GAMES_PER_CLIENT; g++) {
			const struct fault_game *game = &clients[c].games[g];
			ck_assert_msg(game->unavailable_without_retry_after == 0,
				      "game %s: %d 503s without Retry-After", game->game.id,
				      game->unavailable_without_retry_after);
			int recorded =
				game->unavailable < FAULT_MAX_UNAVAILABLE ? game->unavailable : FAULT_MAX_UNAVAILABLE;
			for (int u = 0; u < recorded; u++) {
				double t = game->unavailable_at[u];
				int explained = 0;
				for (int f = 0; f < fault_count && !explained; f++)
					/* From the asking: a kill is done before the script returns, and a
					 * client may meet it at once (a 503 at 3.2 s of a kill stamped 3.2 s). */
					explained = t >= faults[f].asked && t <= faults[f].after + GRACE_S;
				if (!explained) {
					for (int f = 0; f < fault_count; f++)
						fprintf(stderr, "ha: %s at %.1f s, first move after it at %.1f s\n",
							faults[f].what, faults[f].at - started,
							faults[f].after - started);
				}
				ck_assert_msg(explained, "game %s: a 503 at %.1f s (%d of its %d), outside every fault",
					      game->game.id, t - started, u, game->unavailable);
			}
			total += game->unavailable;
		}
	return total;
}

START_TEST(test_no_acknowledged_move_is_lost_across_failovers)
{
	if (!getenv("HA_DIR")) {
		fprintf(stderr, "ha: no HA_DIR (run through scripts/ha/run.sh); nothing checked\n");
		return;
	}
	int rounds = getenv("HA_ROUNDS") ? atoi(getenv("HA_ROUNDS")) : 1;
	if (rounds < 1)
		rounds = 1;
	/* Partitions need the nodes in network namespaces (scripts/ha/cluster.sh, as root). */
	int partitions = getenv("HA_NETNS") && strcmp(getenv("HA_NETNS"), "1") == 0;
	if (!partitions)
		fprintf(stderr, "ha: the nodes share this network namespace (not root?): no partition\n");
	double started = http_clock();
	receiver = webhook_receiver_start();
	static const char *const settings[] = {"THREADS=4", NULL};
	fault_fleet_start(&fleet, SERVERS, settings);
	atomic_store(&stop, 0);
	for (int c = 0; c < CLIENTS; c++) {
		clients[c].fleet = &fleet;
		clients[c].stop = &stop;
		for (int g = 0; g < GAMES_PER_CLIENT; g++) {
			fault_game_create(&clients[c].games[g], pick_from_fleet, &fleet);
			register_webhook(&clients[c].games[g]);
		}
		ck_assert_int_eq(pthread_create(&threads[c], NULL, play, &clients[c]), 0);
	}
	wait_for_moves(40, "before the faults");
	for (int round = 0; round < rounds; round++) {
		inject("kill -9 postmaster", "kill-postmaster");
		cluster("healthy", "120", NULL, 0);
		wait_for_moves(40, "after kill -9 of the postmaster");
		rejoin(faults[fault_count - 1].node);

		inject("node lost", "kill-node");
		char healthy[64];
		snprintf(healthy, sizeof healthy, "120 %s", faults[fault_count - 1].node);
		cluster("healthy", healthy, NULL, 0);
		wait_for_moves(40, "after the node was lost");
		/* The lost node comes back as a standby, for the next fault. */
		cluster("revive", faults[fault_count - 1].node, NULL, 0);
		rejoin(faults[fault_count - 1].node);

		inject("switchover", "switchover");
		snprintf(healthy, sizeof healthy, "120 %s", faults[fault_count - 1].node);
		cluster("healthy", healthy, NULL, 0);
		wait_for_moves(40, "after the switchover");
		/* The old leader is a standby now; for the partition it must be on the new timeline. */
		rejoin(faults[fault_count - 1].node);

		if (!partitions)
			continue;
		inject("partition", "partition");
		snprintf(healthy, sizeof healthy, "120 %s", faults[fault_count - 1].node);
		cluster("healthy", healthy, NULL, 0);
		wait_for_moves(40, "after the partition");
		/* The cut node comes back (demoted by its Patroni, rewound if it had gone ahead),
		 * whole again for the next round. */
		cluster("heal", faults[fault_count - 1].node, NULL, 0);
		if (round + 1 < rounds)
			rejoin(faults[fault_count - 1].node);
	}
	atomic_store(&stop, 1);
	for (int c = 0; c < CLIENTS; c++)
		pthread_join(threads[c], NULL);
	/* Deliveries still due go out now, from the primary that has them all. */
	http_pause(3);
	long events = 0, transport = 0;
	for (int c = 0; c < CLIENTS; c++)
		for (int g = 0; g < GAMES_PER_CLIENT; g++) {
			events += fault_game_verify(&clients[c].games[g]);
			transport += clients[c].games[g].transport_failures;
		}
	long announced = check_webhooks();
	for (int f = 0; f < fault_count; f++) {
		pause_around(faults[f].at, f + 1 < fault_count ? faults[f + 1].at : 1e30, &faults[f].before,
			     &faults[f].after);
		ck_assert_msg(faults[f].after > 0, "%s: no move acknowledged after it", faults[f].what);
	}
	for (int f = 0; f < fault_count; f++)
		fprintf(stderr, "ha: %-20s on %s: writes paused %.1f s (from %.1f s to %.1f s after the fault began)\n",
			faults[f].what, faults[f].node, faults[f].after - faults[f].before,
			faults[f].before - faults[f].at, faults[f].after - faults[f].at);
	long unavailable = check_unavailable(started);
	fprintf(stderr,
		"ha: %d round(s) in %.1f s: %d games, %ld moves acknowledged (each in the log once), %ld events; %ld "
		"webhook"
		" events announced (all in the logs); retried %ld 503 (each with Retry-After, all within a fault), %ld"
		" transport failures\n",
		rounds, http_clock() - started, CLIENTS * GAMES_PER_CLIENT, acknowledged(), events, announced,
		unavailable, transport);
	fault_fleet_stop(&fleet);
	webhook_receiver_stop(receiver);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("ha");
	TCase *tc = tcase_create("ha");
	tcase_set_timeout(tc, 1200);
	tcase_add_test(tc, test_no_acknowledged_move_is_lost_across_failovers);
	suite_add_tcase(suite, tc);
	return suite;
}
