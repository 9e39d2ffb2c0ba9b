/*
 * test_restore_drill.c - the restore drill of docs/backup.md, as a person would run it,
 * with the scripts of scripts/backup/ against a real catan-server:
 *
 *   1. the throwaway cluster gets WAL archiving (enable.sh, then a restart) and a base
 *      backup (base-backup.sh) while a game is under way;
 *   2. more games are played through the server (after the base backup: only the archived
 *      WAL holds them), and a time T is read from the database's clock, with every move
 *      acknowledged before it noted;
 *   3. play goes on after T (more moves, a new game), then the mistake the backups are
 *      for: a wrong DELETE of a game's events, which a standby would replicate too;
 *   4. the WAL is switched and archived, and a fresh cluster is restored to T (restore.sh
 *      --start: recovery_target_time) and a new server started on it.
 *
 * Then every game acknowledged before T replays (fault_game_verify(): a contiguous log that
 * replays to the state the server loads) with exactly the moves acknowledged before T, at
 * the versions their answers gave, and nothing after; the game made after T does not
 * exist; and the restored server plays each game on from there.
 *
 * T is taken between two pauses, after the last answer before it and before the first
 * request after it: a move's commit precedes its 201, and a later move's commit follows its
 * request, so the comparison is never a race of clocks (the cluster and the test share
 * this machine's clock). Nothing else writes moves: the games have no bots and no turn
 * clock. The drill needs the throwaway cluster of scripts/with-postgres.sh (it restarts it
 * and reads its owner); with a DATABASE_URL from outside it says so and checks nothing.
 * Its files (the archive, the restored cluster) live in one temporary directory made and
 * removed by the fixture, which also stops the restored cluster if a test left it running.
 */
#include <libpq-fe.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db/store_events.h"
#include "tests/check_main.h"
#include "tests/faults/fault_support.h"

#define GAMES 4 /* A: before the base backup; B, C: after it, before T; D: after T */

static char work_dir[256];     /* the fixture's temporary directory */
static char archive_dir[300];  /* work_dir/archive */
static char restored_dir[300]; /* work_dir/restored: the cluster restore.sh makes */

static const char *scripts(void)
{
	const char *dir = getenv("CATAN_BACKUP_SCRIPTS");
	return dir && *dir ? dir : "scripts/backup";
}

static void start(void)
{
	const char *tmp = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	snprintf(work_dir, sizeof work_dir, "%s/catan-backup.XXXXXX", tmp);
	if (!mkdtemp(work_dir)) {
		perror("mkdtemp");
		exit(1);
	}
	/* The database's user (postgres, when the tests run as root) must reach the archive. */
	chmod(work_dir, 0755);
	snprintf(archive_dir, sizeof archive_dir, "%s/archive", work_dir);
	snprintf(restored_dir, sizeof restored_dir, "%s/restored", work_dir);
}

static void stop(void)
{
	char command[1024];
	if (http_pg_script()) {
		snprintf(command, sizeof command, "[ ! -d '%s/data' ] || '%s' stop '%s' >/dev/null 2>&1", restored_dir,
			 http_pg_script(), restored_dir);
		if (system(command) != 0)
			fprintf(stderr, "could not stop the restored cluster in %s\n", restored_dir);
	}
	snprintf(command, sizeof command, "rm -rf '%s'", work_dir);
	if (system(command) != 0)
		fprintf(stderr, "could not remove %s\n", work_dir);
}

/* Run a shell command line with DATABASE_URL of the environment; fails the test unless it
 * exits 0. With `output`, its stdout's last line goes there (without the newline). */
static void run(char *output, size_t size, const char *format, ...)
{
	char command[2048];
	va_list args;
	va_start(args, format);
	vsnprintf(command, sizeof command, format, args);
	va_end(args);
	FILE *pipe = popen(command, "r");
	ck_assert_msg(pipe != NULL, "popen %s", command);
	char line[1024] = "";
	if (output)
		output[0] = '\0';
	while (fgets(line, sizeof line, pipe)) {
		if (output) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(output, size, "%s", line);
		}
	}
	int status = pclose(pipe);
	ck_assert_msg(status == 0, "%s: exit status %d", command, status);
}

/* A connection to `conninfo`, or the test fails. */
static PGconn *connect_to(const char *conninfo)
{
	PGconn *conn = PQconnectdb(conninfo);
	ck_assert_msg(PQstatus(conn) == CONNECTION_OK, "connect %s: %s", conninfo, PQerrorMessage(conn));
	return conn;
}

/* The one value of `sql` (a text, into out), or the test fails. */
static const char *query_value(PGconn *conn, const char *sql, char *out, size_t size)
{
	PGresult *result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK && PQntuples(result) == 1, "%s: %s", sql,
		      PQresultErrorMessage(result));
	snprintf(out, size, "%s", PQgetvalue(result, 0, 0));
	PQclear(result);
	return out;
}

static void execute(PGconn *conn, const char *sql)
{
	PGresult *result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_COMMAND_OK || PQresultStatus(result) == PGRES_TUPLES_OK, "%s: %s",
		      sql, PQresultErrorMessage(result));
	PQclear(result);
}

static const char *pick_server(void *context, char *out, size_t size)
{
	snprintf(out, size, "%s", ((const struct http_server *)context)->url);
	return out;
}

/* Play `moves` more moves of `game` through `server`, each acknowledged. */
static void play(struct fault_game *game, struct http_server *server, int moves)
{
	for (int i = 0; i < moves; i++)
		ck_assert_msg(fault_game_step(game, pick_server, server, 0, 30 * http_slowdown()) == 1, "game %s: %s",
			      game->game.id, game->failure);
}

/* The version of `game` as `server` answers it. */
static long game_version(struct http_server *server, const struct fault_game *game)
{
	struct fault_answer answer;
	fault_request(server->url, "GET", game->game.path, game->game.tokens[0], NULL, NULL, 15, &answer);
	ck_assert_msg(answer.status == 200, "GET %s: %ld %s", game->game.path, answer.status, answer.body);
	json_t *body = json_loads(answer.body, 0, NULL);
	ck_assert_msg(body && json_is_integer(json_object_get(body, "version")), "GET %s: %s", game->game.path,
		      answer.body);
	long version = (long)json_integer_value(json_object_get(body, "version"));
	json_decref(body);
	fault_answer_free(&answer);
	return version;
}

static struct fault_game games[GAMES]; /* large (their ledgers): static */

START_TEST(test_a_restore_to_a_time_has_exactly_the_moves_acknowledged_before_it)
{
	if (!http_pg_script()) {
		fprintf(stderr, "restore drill: DATABASE_URL was given from outside (no throwaway cluster to "
				"restart); nothing checked\n");
		return;
	}
	const char *original_url = getenv("DATABASE_URL");
	PGconn *original = connect_to(original_url);
	char user[128], database[128];
	snprintf(user, sizeof user, "%s", PQuser(original));
	snprintf(database, sizeof database, "%s", PQdb(original));
	PQfinish(original);

	/* 1. Archiving on, then a base backup in the middle of game A. */
	run(NULL, 0, "'%s/enable.sh' '%s'", scripts(), archive_dir);
	http_pg_control("restart");
	original = connect_to(original_url);
	char value[256];
	ck_assert_str_eq(query_value(original, "SHOW archive_mode", value, sizeof value), "on");

	static const char *const settings[] = {"THREADS=4", "WORKERS=1", "WEBHOOK_WORKERS=1", NULL};
	struct http_server server;
	http_server_start(&server, settings);
	struct fault_game *a = &games[0], *b = &games[1], *c = &games[2], *d = &games[3];
	fault_game_create(a, pick_server, &server);
	play(a, &server, 6);
	run(NULL, 0, "'%s/base-backup.sh' '%s'", scripts(), archive_dir);

	/* 2. Games after the base backup, then T. */
	play(a, &server, 6);
	fault_game_create(b, pick_server, &server);
	play(b, &server, 9);
	fault_game_create(c, pick_server, &server);
	play(c, &server, 3);
	int acknowledged_before[GAMES];
	long version_before[GAMES];
	for (int g = 0; g < 3; g++) {
		acknowledged_before[g] = games[g].ack_count;
		version_before[g] = game_version(&server, &games[g]);
	}
	http_pause(0.3);
	char target[128];
	query_value(original, "SELECT clock_timestamp()::text", target, sizeof target);
	http_pause(0.3);

	/* 3. Play on after T, then the wrong DELETE. */
	play(a, &server, 5);
	play(b, &server, 4);
	fault_game_create(d, pick_server, &server);
	play(d, &server, 4);
	int64_t a_id;
	ck_assert(store_parse_id(a->game.id, &a_id));
	char sql[512];
	snprintf(sql, sizeof sql,
		 "BEGIN; DELETE FROM snapshots WHERE game_id = %lld; DELETE FROM events WHERE game_id = %lld"
		 " AND seq > 1; COMMIT",
		 (long long)a_id, (long long)a_id);
	execute(original, sql);
	snprintf(sql, sizeof sql, "SELECT count(*) FROM events WHERE game_id = %lld", (long long)a_id);
	ck_assert_str_eq(query_value(original, sql, value, sizeof value), "1");
	ck_assert_int_eq(http_server_stop(&server, 30), 0);

	/* 4. Everything up to now archived (archive_timeout would do it within a minute). */
	char segment[64];
	query_value(original, "SELECT pg_walfile_name(pg_switch_wal())", segment, sizeof segment);
	double deadline = http_clock() + 60 * http_slowdown();
	for (;;) {
		query_value(original, "SELECT coalesce(last_archived_wal, '') FROM pg_stat_archiver", value,
			    sizeof value);
		if (strcmp(value, segment) >= 0)
			break;
		ck_assert_msg(http_clock() < deadline, "%s was not archived (last: %s)", segment, value);
		http_pause(0.1);
	}
	PQfinish(original);

	char restored_url[1024], socket_part[512];
	run(socket_part, sizeof socket_part, "'%s/restore.sh' '%s' '%s' '%s' --start", scripts(), archive_dir, target,
	    restored_dir);
	ck_assert_msg(strncmp(socket_part, "host=", 5) == 0, "restore.sh printed %s", socket_part);
	snprintf(restored_url, sizeof restored_url, "%s user='%s' dbname='%s'", socket_part, user, database);
	/* From here on the ground truth (fault_game_verify) reads the restored cluster. */
	setenv("DATABASE_URL", restored_url, 1);
	PGconn *restored = connect_to(restored_url);
	ck_assert_str_eq(query_value(restored, "SELECT pg_is_in_recovery()::text", value, sizeof value), "false");
	ck_assert_str_eq(query_value(restored, "SHOW archive_mode", value, sizeof value), "off");
	PQfinish(restored);

	/* Every game acknowledged before T: exactly its moves acknowledged before T. */
	struct http_server again;
	http_server_start(&again, settings);
	for (int g = 0; g < 3; g++) {
		struct fault_game *game = &games[g];
		if (g < 2) /* A and B were played on after T */
			ck_assert_int_gt(game->ack_count, acknowledged_before[g]);
		game->ack_count = acknowledged_before[g];
		game->moves = acknowledged_before[g];
		ck_assert_int_eq(fault_game_verify(game), version_before[g]);
		ck_assert_int_eq(game_version(&again, game), version_before[g]);
		/* ... and the restored server plays it on from there. */
		play(game, &again, 2);
		ck_assert_int_gt(fault_game_verify(game), version_before[g] + 1);
	}
	/* The game made after T never existed. */
	struct fault_answer answer;
	fault_request(again.url, "GET", d->game.path, d->game.tokens[0], NULL, NULL, 15, &answer);
	ck_assert_msg(answer.status == 404, "game %s made after T: %ld %s", d->game.id, answer.status, answer.body);
	fault_answer_free(&answer);
	ck_assert_int_eq(http_server_stop(&again, 30), 0);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("restore drill");
	TCase *drill = tcase_create("point-in-time recovery");
	tcase_add_unchecked_fixture(drill, start, stop);
	tcase_set_timeout(drill, 240);
	tcase_add_test(drill, test_a_restore_to_a_time_has_exactly_the_moves_acknowledged_before_it);
	suite_add_tcase(suite, drill);
	return suite;
}
