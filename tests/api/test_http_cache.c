/*
 * test_http_cache.c - reads of a game answered from the server's cache: without a
 * statement while the listener is connected and has heard nothing newer (counted in
 * /metrics), never older than the version the reader says it knows (?min_version=, or the
 * version tag of If-None-Match) even through another server than the writer's, and never
 * trusted across a listener that lost its connection (notifications missed meanwhile are
 * read from the log afterwards).
 *
 * Two servers on one database; the first behind Prism, which checks min_version and the
 * 304s against the contract.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define ROUNDS 200

/* GET `suffix` of the game on `client` asking for at least `known` (min_version, or as the
 * If-None-Match tag): the answer's version (from its body, or the tag of a 304). */
static long read_at_least(struct http_client *client, const struct http_game *game, const char *suffix, int seat,
			  long known, int by_tag)
{
	char path[192], tag[64];
	const char *headers[2] = {NULL, NULL};
	if (by_tag) {
		snprintf(path, sizeof path, "%s%s", game->path, suffix);
		snprintf(tag, sizeof tag, "If-None-Match: \"%ld\"", known);
		headers[0] = tag;
	} else {
		snprintf(path, sizeof path, "%s%s?min_version=%ld", game->path, suffix, known);
	}
	struct http_response response;
	http_call(client, "GET", path, seat >= 0 ? game->tokens[seat] : NULL, NULL, by_tag ? headers : NULL, &response);
	long version = -1;
	if (response.status == 304) {
		char etag[32];
		ck_assert_msg(http_response_header(&response, "ETag", etag, sizeof etag) != NULL, "a 304 has its tag");
		version = atol(etag + 1);
	} else {
		ck_assert_msg(response.status == 200 && response.json, "GET %s: %s", path, http_describe(&response));
		version = (long)json_integer_value(json_object_get(response.json, "version"));
	}
	http_response_free(&response);
	return version;
}

START_TEST(test_a_read_through_the_other_server_is_never_older_than_the_write_it_names)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 4, "{\"layout\": \"random\"}", &game);
	struct http_player player;
	http_player_init(&player, &http_fixture.checked, &game, http_random64(), 0);
	int older = 0, rounds = 0;
	char first[160] = "";
	for (; rounds < ROUNDS; rounds++) {
		struct http_move move;
		if (!http_player_step(&player, &move))
			break;
		long written = (long)json_integer_value(json_object_get(move.response.json, "version"));
		int seat = move.seat;
		http_move_free(&move);
		/* At once on the other server, which hears of the write only by notification. */
		static const char *const suffixes[] = {"/actions", "", "/players"};
		const char *suffix = suffixes[rounds % 3];
		int by_tag = rounds % 2;
		long read = read_at_least(&http_fixture.second_direct, &game, suffix, seat, written, by_tag);
		if (read < written && older++ == 0)
			snprintf(first, sizeof first, "GET %s%s (%s) answered %ld after the write of %ld", game.path,
				 suffix, by_tag ? "If-None-Match" : "min_version", read, written);
		/* And through Prism on the writer's server, checking the contract of both forms. */
		read = read_at_least(&http_fixture.checked, &game, suffix, seat, written, !by_tag);
		ck_assert_int_ge(read, written);
	}
	ck_assert_msg(rounds >= 50, "only %d moves", rounds);
	ck_assert_msg(older == 0, "%d of %d reads older than the write they named; first: %s", older, rounds, first);
}
END_TEST

START_TEST(test_reads_on_the_writers_server_need_no_statement_in_a_steady_loop)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 4, "{\"layout\": \"random\"}", &game);
	struct http_player player;
	http_player_init(&player, &http_fixture.checked, &game, http_random64(), 0);
	for (int i = 0; i < 10; i++)
		ck_assert(http_player_step(&player, NULL));
	long cached = http_metric(&http_fixture.direct, "catan_game_reads_cached_total");
	long caught_up = http_metric(&http_fixture.direct, "catan_game_reads_caught_up_total");
	ck_assert_msg(cached >= 0 && caught_up >= 0, "the counters are in /metrics");
	int moves = 0;
	while (moves < 100 && http_player_step(&player, NULL))
		moves++;
	long cached_reads = http_metric(&http_fixture.direct, "catan_game_reads_cached_total") - cached;
	long tail_reads = http_metric(&http_fixture.direct, "catan_game_reads_caught_up_total") - caught_up;
	fprintf(stderr, "%d moves: %ld reads from the cache, %ld of the log's tail\n", moves, cached_reads, tail_reads);
	/* Each step reads the view and the actions (at least 2 reads a move), all on the
	 * server that made every write: none needs the log (a few may, if the listener
	 * reconnected meanwhile). */
	ck_assert_int_ge(cached_reads, 2L * moves);
	ck_assert_msg(tail_reads * 20 <= cached_reads, "%ld reads of the tail for %ld from the cache", tail_reads,
		      cached_reads);
}
END_TEST

/* End every listener's connection (both servers'): the number ended. */
static long end_listeners(void)
{
	return http_sql_number("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
			       "WHERE query = 'LISTEN catan_events' AND pid <> pg_backend_pid()");
}

START_TEST(test_a_listener_that_lost_its_connection_makes_the_cache_read_the_log)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 4, "{\"layout\": \"random\"}", &game);
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, http_random64(), 0);
	int stale = 0, rounds = 0;
	long ended = 0;
	char first[200] = "";
	for (; rounds < 30; rounds++) {
		/* The second server holds the game in its cache, trusted. */
		long before = read_at_least(&http_fixture.second_direct, &game, "", -1, 0, 0);
		ended += end_listeners();
		/* A write while (most likely) the second server's listener is down: its
		 * notification is lost to it. */
		struct http_move move;
		if (!http_player_step(&player, &move))
			break;
		long written = (long)json_integer_value(json_object_get(move.response.json, "version"));
		http_move_free(&move);
		ck_assert_int_gt(written, before);
		/* Asked for it, the second server reads it whether its listener is up or not (in
		 * odd rounds only after the check below, which such a read would make pass). */
		if (rounds % 2 == 0)
			ck_assert_int_ge(read_at_least(&http_fixture.second_direct, &game, "/actions", -1, written, 0),
					 written);
		/* Not asked for it: the cache may lag a moment, but not past the reconnect (a
		 * copy from before it is not trusted until read again). */
		double deadline = http_clock() + 3 * http_slowdown();
		long read;
		while ((read = read_at_least(&http_fixture.second_direct, &game, "", -1, 0, 0)) < written &&
		       http_clock() < deadline)
			http_pause(0.02);
		if (read < written && stale++ == 0)
			snprintf(first, sizeof first, "round %d: version %ld still answered 3 s after the write of %ld",
				 rounds, read, written);
		if (rounds % 2 == 1)
			ck_assert_int_ge(read_at_least(&http_fixture.second_direct, &game, "/actions", -1, written, 0),
					 written);
	}
	ck_assert_msg(rounds >= 20, "only %d moves", rounds);
	ck_assert_msg(ended >= rounds, "%ld listeners ended in %d rounds", ended, rounds);
	ck_assert_msg(stale == 0, "%d of %d rounds stale; first: %s", stale, rounds, first);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_cache");
	TCase *cache = tcase_create("reads from the cache");
	http_fixture_add(cache, HTTP_FIXTURE_PRISM | HTTP_FIXTURE_VALIDATE_REQUESTS | HTTP_FIXTURE_SECOND_SERVER, NULL);
	tcase_set_timeout(cache, 240);
	tcase_add_test(cache, test_a_read_through_the_other_server_is_never_older_than_the_write_it_names);
	tcase_add_test(cache, test_reads_on_the_writers_server_need_no_statement_in_a_steady_loop);
	tcase_add_test(cache, test_a_listener_that_lost_its_connection_makes_the_cache_read_the_log);
	suite_add_tcase(suite, cache);
	return suite;
}
