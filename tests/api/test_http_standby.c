/*
 * test_http_standby.c - reads a standby answers (issue 25, item 3; DATABASE_READ_URL,
 * game/play_standby.c): a hot standby of the test cluster (scripts/pg.sh standby: a
 * streaming replica made by pg_basebackup -R, no Patroni) and two servers on the primary,
 * the second with DATABASE_READ_URL naming the standby. Moves are made through the first;
 * the second answers spectators. Proves:
 *   (a) a spectator's view, its board picture and the lobby, at a version the standby has
 *       replayed, are answered by the standby (catan_reads_standby_total on /metrics);
 *   (b) with the standby's replay paused (pg_wal_replay_pause()), a spectator read that
 *       names a newer version (min_version, If-None-Match) is answered from the primary at
 *       least at that version, and one that names none still reaches, once the listener
 *       has heard it, the primary's version (never held at the standby's); no answer is
 *       older than one given before, and a seat's read is as without a standby;
 *   (c) the standby stopped: every read still answers (from the primary), none 503.
 *
 * Needs the cluster of scripts/with-postgres.sh (CATAN_TEST_PG_DIR, CATAN_PG_SCRIPT);
 * without it, says so and checks nothing.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MOVES 12

static char standby_dir[128];
static char standby_url[512];
static struct http_server writer, reader;

/* Run `sql` on the standby: the first column of its first row as a number (0: none). */
static long long standby_number(const char *sql)
{
	PGconn *connection = PQconnectdb(standby_url);
	ck_assert_msg(PQstatus(connection) == CONNECTION_OK, "standby: %s", PQerrorMessage(connection));
	PGresult *result = PQexec(connection, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_TUPLES_OK, "%s: %s", sql, PQresultErrorMessage(result));
	long long value = PQntuples(result) > 0 && !PQgetisnull(result, 0, 0) ? atoll(PQgetvalue(result, 0, 0)) : 0;
	PQclear(result);
	PQfinish(connection);
	return value;
}

/* The game's last version as the standby has replayed it. */
static long standby_version(const struct http_game *game)
{
	char sql[160];
	snprintf(sql, sizeof sql, "SELECT coalesce(max(seq), 0) FROM events WHERE game_id = x'%s'::bigint", game->id);
	return (long)standby_number(sql);
}

static int pg_script(const char *verb, const char *extra)
{
	char command[768];
	snprintf(command, sizeof command, "'%s' %s '%s' %s%s%s >/dev/null", getenv("CATAN_PG_SCRIPT"), verb,
		 standby_dir, extra ? "'" : "", extra ? extra : "", extra ? "'" : "");
	return system(command);
}

static int have_cluster(void)
{
	return getenv("CATAN_PG_SCRIPT") && getenv("CATAN_TEST_PG_DIR");
}

static void setup(void)
{
	if (!have_cluster())
		return;
	snprintf(standby_dir, sizeof standby_dir, "%s/catan-standby.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert(mkdtemp(standby_dir) != NULL);
	chmod(standby_dir, 0755); /* the cluster's owner (postgres, under root) makes s/ in it */
	strncat(standby_dir, "/s", sizeof standby_dir - strlen(standby_dir) - 1);
	ck_assert_msg(pg_script("standby", getenv("CATAN_TEST_PG_DIR")) == 0, "the standby starts");
	char command[640];
	snprintf(command, sizeof command, "'%s' url '%s'", getenv("CATAN_PG_SCRIPT"), standby_dir);
	FILE *url = popen(command, "r");
	ck_assert(url && fgets(standby_url, sizeof standby_url, url));
	pclose(url);
	standby_url[strcspn(standby_url, "\n")] = '\0';
	static char read_url[600];
	snprintf(read_url, sizeof read_url, "DATABASE_READ_URL=%s", standby_url);
	const char *settings[] = {read_url, NULL};
	http_server_start(&writer, NULL);
	http_server_start(&reader, settings);
}

static void teardown(void)
{
	if (!have_cluster())
		return;
	http_server_stop(&reader, 20);
	http_server_stop(&writer, 20);
	pg_script("stop", NULL);
	char command[300];
	snprintf(command, sizeof command, "rm -rf '%.*s'", (int)(strlen(standby_dir) - 2), standby_dir);
	(void)system(command);
}

/* GET path on client (token: NULL for a spectator); expects 200 (or 304 to a tag) and
 * returns the answer's version (its body's "version", or its ETag). */
static long read_version(struct http_client *client, const char *path, const char *token, long tagged)
{
	char tag[64];
	const char *headers[2] = {NULL, NULL};
	if (tagged > 0) {
		snprintf(tag, sizeof tag, "If-None-Match: \"%ld\"", tagged);
		headers[0] = tag;
	}
	struct http_response response;
	http_call(client, "GET", path, token, NULL, tagged > 0 ? headers : NULL, &response);
	ck_assert_msg(response.status == 200 || (tagged > 0 && response.status == 304), "GET %s: %s", path,
		      http_describe(&response));
	long version = -1;
	char etag[32];
	if (response.json && json_is_integer(json_object_get(response.json, "version")))
		version = (long)json_integer_value(json_object_get(response.json, "version"));
	else if (http_response_header(&response, "ETag", etag, sizeof etag))
		version = atol(strchr(etag, '"') ? strchr(etag, '"') + 1 : etag);
	http_response_free(&response);
	return version;
}

static void expect_ok(struct http_client *client, const char *path)
{
	struct http_response response;
	http_call(client, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "GET %s: %s", path, http_describe(&response));
	http_response_free(&response);
}

/* Make `moves` moves through the writer: the game's version after them. */
static long play(struct http_player *player, int moves)
{
	long version = -1;
	for (int i = 0; i < moves; i++) {
		struct http_move move;
		ck_assert_msg(http_player_step(player, &move), "move %d", i);
		version = (long)json_integer_value(json_object_get(move.response.json, "version"));
		http_move_free(&move);
	}
	return version;
}

START_TEST(test_spectators_read_from_the_standby_never_older_than_they_know)
{
	if (!have_cluster()) {
		fprintf(stderr, "no cluster of scripts/with-postgres.sh: nothing checked\n");
		return;
	}
	struct http_client to_writer, to_reader;
	http_client_init(&to_writer, writer.url, 0);
	http_client_init(&to_reader, reader.url, 0);
	struct http_game game;
	http_game_create(&to_writer, 4, "{\"layout\": \"random\"}", &game);
	struct http_player player;
	http_player_init(&player, &to_writer, &game, http_random64(), 0);
	long written = play(&player, MOVES);
	char path[128], board[160], tagged_path[160];
	snprintf(path, sizeof path, "%s", game.path);
	snprintf(board, sizeof board, "%s/board.svg", game.path);

	/* (a) The standby has the version (it streams: wait for its replay): it answers. */
	double deadline = http_clock() + 20 * http_slowdown();
	while (standby_version(&game) < written && http_clock() < deadline)
		http_pause(0.05);
	ck_assert_int_eq(standby_version(&game), written);
	long standby_before = http_metric(&to_reader, "catan_reads_standby_total");
	ck_assert_msg(standby_before >= 0, "catan_reads_standby_total is in /metrics");
	ck_assert_int_ge(http_metric(&to_reader, "catan_reads_standby_fallback_total"), 0);
	ck_assert_int_eq(read_version(&to_reader, path, NULL, 0), written);
	expect_ok(&to_reader, board);
	expect_ok(&to_reader, "/v1/games?status=waiting");
	long standby_reads = http_metric(&to_reader, "catan_reads_standby_total") - standby_before;
	fprintf(stderr, "(a) at version %ld: %ld reads answered by the standby\n", written, standby_reads);
	/* The view and the lobby at least (the picture may be the copy the view left in the
	 * cache, current while the listener heard every append). */
	ck_assert_msg(standby_reads >= 2, "the view, picture and lobby: %ld reads from the standby", standby_reads);

	/* A finished game's export, once the standby has its last version. */
	struct http_game finished;
	http_game_create(&to_writer, 3, "{\"layout\": \"random\"}", &finished);
	struct http_player finisher;
	http_player_init(&finisher, &to_writer, &finished, http_random64(), 0);
	ck_assert_int_gt(http_player_finish(&finisher, 3000), 0);
	long final_version = read_version(&to_writer, finished.path, NULL, 0);
	deadline = http_clock() + 20 * http_slowdown();
	while (standby_version(&finished) < final_version && http_clock() < deadline)
		http_pause(0.05);
	standby_before = http_metric(&to_reader, "catan_reads_standby_total");
	char export_path[160];
	snprintf(export_path, sizeof export_path, "%s/export", finished.path);
	struct http_response exported;
	http_call(&to_reader, "GET", export_path, NULL, NULL, NULL, &exported);
	ck_assert_msg(exported.status == 200 && exported.json, "GET %s: %s", export_path, http_describe(&exported));
	json_t *events = json_object_get(exported.json, "events");
	ck_assert_msg(json_is_array(events) && (long)json_array_size(events) == final_version,
		      "the export of version %ld has %zu events", final_version, json_array_size(events));
	http_response_free(&exported);
	standby_reads = http_metric(&to_reader, "catan_reads_standby_total") - standby_before;
	ck_assert_msg(standby_reads >= 2, "the export's state and log: %ld reads from the standby", standby_reads);

	/* (b) Replay paused: the standby stays at `written` while the game moves on. */
	ck_assert_int_eq(standby_number("SELECT 1 FROM (SELECT pg_wal_replay_pause()) AS paused"), 1);
	long paused_at = written;
	written = play(&player, MOVES);
	ck_assert_int_gt(written, paused_at);
	ck_assert_msg(standby_version(&game) == paused_at, "the standby's replay is paused at %ld, not %ld", paused_at,
		      standby_version(&game));
	long fallback_before = http_metric(&to_reader, "catan_reads_standby_fallback_total");
	/* Naming no version: what the reader's listener heard is the floor, so the answer
	 * reaches `written` though the standby stays behind (and the reader's cached copy is
	 * the standby's version), and never goes back. */
	long last = 0, reads = 0;
	deadline = http_clock() + 10 * http_slowdown();
	while (last < written && http_clock() < deadline) {
		long version = read_version(&to_reader, path, NULL, 0);
		ck_assert_msg(version >= last, "version %ld answered after %ld", version, last);
		last = version;
		reads++;
		http_pause(0.02);
	}
	ck_assert_msg(last == written, "the spectator still reads %ld after %ld reads: the primary has %ld", last,
		      reads, written);
	/* Naming a newer version (a move made just now, which the listener may not have heard
	 * yet): answered at least at that version. */
	written = play(&player, 2);
	snprintf(tagged_path, sizeof tagged_path, "%s?min_version=%ld", game.path, written);
	ck_assert_int_ge(read_version(&to_reader, tagged_path, NULL, 0), written);
	written = play(&player, 2);
	ck_assert_int_ge(read_version(&to_reader, path, NULL, written), written);
	long fallbacks = http_metric(&to_reader, "catan_reads_standby_fallback_total") - fallback_before;
	ck_assert_msg(fallbacks >= 3, "%ld reads sent on to the primary", fallbacks);
	for (int i = 0; i < 20; i++) {
		ck_assert_int_eq(read_version(&to_reader, path, NULL, 0), written);
		expect_ok(&to_reader, board);
	}
	ck_assert_int_eq(standby_version(&game), paused_at);
	/* A seat's own view, named version or not, is the primary's (as without a standby). */
	snprintf(tagged_path, sizeof tagged_path, "%s?min_version=%ld", game.path, written);
	ck_assert_int_ge(read_version(&to_reader, tagged_path, game.tokens[0], 0), written);

	/* (c) The standby stopped: every read still answers, from the primary. */
	ck_assert_int_eq(standby_number("SELECT 1 FROM (SELECT pg_wal_replay_resume()) AS resumed"), 1);
	ck_assert_msg(pg_script("stop", NULL) == 0, "the standby stops");
	written = play(&player, 4);
	long fallback_stopped = http_metric(&to_reader, "catan_reads_standby_fallback_total");
	for (int i = 0; i < 10; i++) {
		snprintf(tagged_path, sizeof tagged_path, "%s?min_version=%ld", game.path, written);
		ck_assert_int_ge(read_version(&to_reader, tagged_path, NULL, 0), written);
		expect_ok(&to_reader, board);
		expect_ok(&to_reader, "/v1/games?status=waiting");
	}
	ck_assert_int_ge(http_metric(&to_reader, "catan_reads_standby_fallback_total") - fallback_stopped, 10);
	http_client_cleanup(&to_writer);
	http_client_cleanup(&to_reader);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_standby");
	TCase *standby = tcase_create("reads from a standby");
	tcase_add_unchecked_fixture(standby, setup, teardown);
	tcase_set_timeout(standby, 120);
	tcase_add_test(standby, test_spectators_read_from_the_standby_never_older_than_they_know);
	suite_add_tcase(suite, standby);
	return suite;
}
