/*
 * test_crash.c - a process appending moves of a real game in a loop is killed with SIGKILL
 * at random moments (between appends, in the middle of one, while connecting). Every
 * append it reported committed (written to a pipe after STORE_OK) is in the log, the log
 * has no gap, and the game loads with the engine; the next process carries on from there.
 */
#include <openssl/rand.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game/game_repo.h"
#include "tests/check_main.h"
#include "bench/games.h"
#include "tests/db/support.h"

#define ROUNDS 14

static int64_t new_game(struct game_repo *repo, uint64_t seed)
{
	struct games_play game;
	struct event_list created;
	games_start(&game, seed, 4, 1, &created);
	struct store_new_game row;
	memset(&row, 0, sizeof row);
	row.seed = (int64_t)seed;
	row.options = "{}";
	row.seats = 4;
	for (int seat = 0; seat < 4; seat++)
		ck_assert(RAND_bytes(row.token_hashes[seat], STORE_HASH_SIZE) == 1);
	int64_t id;
	ck_assert_int_eq(game_repo_create(repo, &row, &created, &game.playout.state, &id), STORE_OK);
	games_free(&game);
	return id;
}

/* The child: load the game, then play and append until killed or the game ends. Reports
 * each committed version on `report`. Never returns. */
static void append_until_killed(const char *conninfo, int64_t id, int report)
{
	char named[1024];
	snprintf(named, sizeof named, "%s application_name=crash-writer", conninfo);
	struct store *store;
	if (store_open(named, &store) != STORE_OK)
		_exit(3);
	struct game_repo repo;
	game_repo_init(&repo, store, 16);
	struct game state;
	int64_t seed;
	if (game_repo_load(&repo, id, &state, &seed) != STORE_OK)
		_exit(4);
	struct games_play game;
	games_resume(&game, &state, (uint64_t)seed);
	struct game before;
	struct event_list events;
	int seat;
	while (games_step(&game, &before, &seat, &events)) {
		enum store_status status = game_repo_append(&repo, id, &before, &events, &game.playout.state, seat,
							    STORE_ORIGIN_PLAYER, NULL, NULL);
		if (status != STORE_OK)
			_exit(5);
		uint32_t version = game.playout.state.version;
		if (write(report, &version, sizeof version) != (ssize_t)sizeof version)
			_exit(6);
	}
	_exit(0);
}

START_TEST(test_killed_writer_loses_no_reported_append)
{
	struct store *store = test_db_fixture.store;
	struct game_repo repo;
	game_repo_init(&repo, store, 16);
	int64_t id = new_game(&repo, 7001);
	unsigned random_state = (unsigned)time(NULL) ^ (unsigned)getpid();
	int killed = 0, reported_total = 0, games = 1;
	PGconn *watcher = test_db_connect(test_db_fixture.db.conninfo);

	for (int round = 0; round < ROUNDS; round++) {
		int pipe_ends[2];
		ck_assert_int_eq(pipe(pipe_ends), 0);
		pid_t child = fork();
		ck_assert_int_ge(child, 0);
		if (child == 0) {
			close(pipe_ends[0]);
			append_until_killed(test_db_fixture.db.conninfo, id, pipe_ends[1]);
		}
		close(pipe_ends[1]);
		struct timespec pause = {0, (long)(5 + rand_r(&random_state) % 150) * 1000000L};
		nanosleep(&pause, NULL);
		kill(child, SIGKILL);
		int status;
		ck_assert_int_eq(waitpid(child, &status, 0), child);
		if (WIFSIGNALED(status))
			killed++;
		else
			ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "the writer failed: exit %d",
				      WIFEXITED(status) ? WEXITSTATUS(status) : -1);

		uint32_t version, reported = 0;
		while (read(pipe_ends[0], &version, sizeof version) == (ssize_t)sizeof version) {
			ck_assert_uint_gt(version, reported);
			reported = version;
			reported_total++;
		}
		close(pipe_ends[0]);

		/* The killed writer's server session may still be finishing an append it sent: wait
		 * until it has gone, so what is committed is settled. */
		int settled = 0;
		for (int wait = 0; wait < 1000 && !settled; wait++) {
			settled = test_db_scalar(watcher,
						 "SELECT count(*) FROM pg_stat_activity"
						 " WHERE datname = current_database() AND pid <> pg_backend_pid()"
						 " AND application_name = 'crash-writer'") == 0;
			if (!settled) {
				struct timespec tick = {0, 5000000L};
				nanosleep(&tick, NULL);
			}
		}
		ck_assert_msg(settled, "the killed writer's session did not end");

		/* The game loads, at least as far as the writer was told, with no gap. */
		struct game loaded;
		enum store_status loaded_status = game_repo_load(&repo, id, &loaded, NULL);
		ck_assert_msg(loaded_status == STORE_OK, "round %d: %s", round, game_repo_message(&repo));
		ck_assert_msg(loaded.version >= reported, "round %d: reported %u committed, log ends at %u", round,
			      reported, loaded.version);
		int32_t stored;
		ck_assert_int_eq(store_version(store, id, &stored), STORE_OK);
		ck_assert_int_eq(stored, (int32_t)loaded.version);
		struct store_log log;
		ck_assert_int_eq(store_read_events(store, id, 0, stored + 1, &log), STORE_OK);
		ck_assert_int_eq(log.count, stored);
		store_log_free(&log);

		if (loaded.phase == GAME_PHASE_FINISHED) {
			id = new_game(&repo, 7001 + (uint64_t)++games);
		}
	}
	ck_assert_msg(killed > ROUNDS / 2, "only %d of %d writers were killed while writing", killed, ROUNDS);
	ck_assert_int_gt(reported_total, 0);
	PQfinish(watcher);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("crash");
	TCase *tc = tcase_create("crash");
	tcase_set_timeout(tc, 120);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_killed_writer_loses_no_reported_append);
	suite_add_tcase(suite, tc);
	return suite;
}
