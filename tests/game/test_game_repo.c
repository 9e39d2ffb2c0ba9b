/*
 * test_game_repo.c - complete random games stored decision by decision and loaded back:
 * the loaded state equals the live one byte for byte, with snapshots, without them, and
 * with a snapshot of another format (or size) in the table. A corrupt row is a clear
 * STORE_CORRUPT naming the event, never a crash.
 */
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_repo.h"
#include "tests/check_main.h"
#include "bench/games.h"
#include "tests/db/support.h"

static int64_t create(struct game_repo *repo, struct games_play *game, uint64_t seed, int seats)
{
	struct event_list created;
	games_start(game, seed, seats, 1, &created);
	struct store_new_game row;
	memset(&row, 0, sizeof row);
	row.seed = (int64_t)seed;
	row.options = "{}";
	row.seats = seats;
	for (int seat = 0; seat < seats; seat++)
		ck_assert(RAND_bytes(row.token_hashes[seat], STORE_HASH_SIZE) == 1);
	memset(row.admin_token_hash, 0xad, STORE_HASH_SIZE);
	int64_t id;
	enum store_status status = game_repo_create(repo, &row, &created, &game->playout.state, &id);
	ck_assert_msg(status == STORE_OK, "game_repo_create: %s", game_repo_message(repo));
	return id;
}

static void assert_loads_as(struct game_repo *repo, int64_t id, const struct game *live)
{
	struct game loaded;
	int64_t seed = 0;
	enum store_status status = game_repo_load(repo, id, &loaded, &seed);
	ck_assert_msg(status == STORE_OK, "game_repo_load: %s", game_repo_message(repo));
	ck_assert_msg(memcmp(&loaded, live, sizeof loaded) == 0, "loaded state differs from the live one at version %u",
		      (unsigned)live->version);
}

/* Play game `id` to its end through the repo; every `check_every` decisions (0: never)
 * load it back and compare. Returns the number of decisions. */
static int play_out(struct game_repo *repo, int64_t id, struct games_play *game, int check_every)
{
	struct game before;
	struct event_list events;
	int seat, decisions = 0;
	while (games_step(game, &before, &seat, &events)) {
		enum store_status status = game_repo_append(repo, id, &before, &events, &game->playout.state, seat,
							    STORE_ORIGIN_PLAYER, NULL, NULL);
		ck_assert_msg(status == STORE_OK, "game_repo_append at %u: %s", (unsigned)before.version,
			      game_repo_message(repo));
		decisions++;
		if (check_every && decisions % check_every == 0)
			assert_loads_as(repo, id, &game->playout.state);
	}
	return decisions;
}

/* GAME_FORMAT_VERSION as SQL text. */
#define TEXT_OF(x) #x
#define FORMAT_VERSION_TEXT_OF(x) TEXT_OF(x)
#define FORMAT_VERSION_TEXT FORMAT_VERSION_TEXT_OF(GAME_FORMAT_VERSION)

static void run_sql(const char *format, int64_t id)
{
	char sql[512];
	snprintf(sql, sizeof sql, format, (long long)id);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	test_db_exec(conn, sql);
	PQfinish(conn);
}

static long long sql_value(const char *format, int64_t id)
{
	char sql[512];
	snprintf(sql, sizeof sql, format, (long long)id);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	long long value = test_db_scalar(conn, sql);
	PQfinish(conn);
	return value;
}

START_TEST(test_complete_games_round_trip_with_snapshots)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, 16); /* small: many snapshots, every offset after one */
	for (int i = 0; i < 2; i++) {
		struct games_play game;
		int64_t id = create(&repo, &game, 1000 + (uint64_t)i, 3 + i);
		assert_loads_as(&repo, id, &game.playout.state);
		int decisions = play_out(&repo, id, &game, 1);
		ck_assert_int_gt(decisions, 100);
		ck_assert_int_eq(game.playout.state.phase, GAME_PHASE_FINISHED);
		assert_loads_as(&repo, id, &game.playout.state);
		ck_assert_int_gt(sql_value("SELECT seq FROM snapshots WHERE game_id = %lld", id),
				 (long long)game.playout.state.version - 16 - EVENT_LIST_MAX);
		ck_assert_int_eq(sql_value("SELECT status FROM games WHERE id = %lld", id), GAME_REPO_FINISHED);
		games_free(&game);
	}
}
END_TEST

START_TEST(test_complete_games_round_trip_without_snapshots)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, 0);
	for (int i = 0; i < 2; i++) {
		struct games_play game;
		int64_t id = create(&repo, &game, 2000 + (uint64_t)i, 4 - i);
		play_out(&repo, id, &game, 97);
		assert_loads_as(&repo, id, &game.playout.state);
		ck_assert_int_eq(sql_value("SELECT count(*) FROM snapshots WHERE game_id = %lld", id), 0);
		games_free(&game);
	}
}
END_TEST

START_TEST(test_snapshot_of_other_format_or_size_is_ignored)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, GAME_REPO_SNAPSHOT_EVERY);
	struct games_play game;
	int64_t id = create(&repo, &game, 3001, 4);
	play_out(&repo, id, &game, 0);
	ck_assert_int_eq(sql_value("SELECT count(*) FROM snapshots WHERE game_id = %lld", id), 1);

	/* Another format version, with bytes of the right size that are no state at all. */
	run_sql("UPDATE snapshots SET format_version = format_version + 1,"
		" state = decode(repeat('ff', octet_length(state)), 'hex') WHERE game_id = %lld",
		id);
	struct game_repo plain;
	game_repo_init(&plain, test_db_fixture.store, 0); /* writes no fresh snapshot while loading */
	assert_loads_as(&plain, id, &game.playout.state);

	/* This format version, but another size. */
	run_sql("UPDATE snapshots SET format_version = " FORMAT_VERSION_TEXT
		", state = decode(repeat('ff', 100), 'hex')"
		" WHERE game_id = %lld",
		id);
	assert_loads_as(&plain, id, &game.playout.state);

	/* A long replay leaves a snapshot of the current format for next time. */
	assert_loads_as(&repo, id, &game.playout.state);
	ck_assert_int_eq(sql_value("SELECT format_version FROM snapshots WHERE game_id = %lld", id),
			 GAME_FORMAT_VERSION);
	ck_assert_int_eq(sql_value("SELECT seq FROM snapshots WHERE game_id = %lld", id), game.playout.state.version);
	assert_loads_as(&plain, id, &game.playout.state);
	games_free(&game);
}
END_TEST

START_TEST(test_load_starts_from_the_snapshot)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, GAME_REPO_SNAPSHOT_EVERY);
	struct games_play game;
	int64_t id = create(&repo, &game, 3002, 3);
	play_out(&repo, id, &game, 0);
	/* Events covered by the snapshot are not read: damaging them changes nothing. */
	run_sql("UPDATE events SET payload = '{\"type\": \"damaged\"}'"
		" WHERE game_id = %lld AND seq <= (SELECT seq FROM snapshots WHERE game_id = events.game_id)",
		id);
	assert_loads_as(&repo, id, &game.playout.state);
	games_free(&game);
}
END_TEST

/* Play a short game (no snapshots) and damage event 10 with `sql_set`. */
static int64_t damaged_game(struct game_repo *repo, const char *sql_set)
{
	game_repo_init(repo, test_db_fixture.store, 0);
	struct games_play game;
	int64_t id = create(repo, &game, 4001, 4);
	struct game before;
	struct event_list events;
	int seat;
	while (game.playout.state.version < 30 && games_step(&game, &before, &seat, &events))
		ck_assert_int_eq(game_repo_append(repo, id, &before, &events, &game.playout.state, seat,
						  STORE_ORIGIN_PLAYER, NULL, NULL),
				 STORE_OK);
	games_free(&game);
	char sql[512];
	snprintf(sql, sizeof sql, "UPDATE events SET %s WHERE game_id = %%lld AND seq = 10", sql_set);
	run_sql(sql, id);
	return id;
}

static void assert_corrupt_at_10(struct game_repo *repo, int64_t id, const char *why)
{
	struct game loaded;
	ck_assert_int_eq(game_repo_load(repo, id, &loaded, NULL), STORE_CORRUPT);
	const char *message = game_repo_message(repo);
	ck_assert_msg(strstr(message, "event 10") && strstr(message, why), "message: %s", message);
	struct game zero;
	memset(&zero, 0, sizeof zero);
	ck_assert_msg(memcmp(&loaded, &zero, sizeof zero) == 0, "a failed load leaves a half-built state");
}

START_TEST(test_unparsable_payload_is_corrupt)
{
	struct game_repo repo;
	int64_t id = damaged_game(&repo, "payload = '\"just a string\"'");
	assert_corrupt_at_10(&repo, id, "unreadable payload");
	id = damaged_game(&repo, "payload = '{\"type\": \"no_such_event\"}'");
	assert_corrupt_at_10(&repo, id, "unreadable payload");
	id = damaged_game(&repo, "payload = (payload::jsonb - 'seat')::json");
	assert_corrupt_at_10(&repo, id, "unreadable payload");
}
END_TEST

START_TEST(test_event_that_cannot_apply_is_corrupt)
{
	struct game_repo repo;
	/* Event 10 replaced by a well-formed event that this game cannot take. */
	int64_t id = damaged_game(&repo, "type = 3, payload = '{\"type\": \"city_built\", \"seat\": 2, \"node\": 53}'");
	assert_corrupt_at_10(&repo, id, "cannot apply");
}
END_TEST

/* The payload no longer repeats the type (the column has it), so a wrong type column shows
 * as a payload that does not fit that type. */
START_TEST(test_type_column_disagreeing_with_payload_is_corrupt)
{
	struct game_repo repo;
	int64_t id = damaged_game(&repo, "type = type + 1");
	assert_corrupt_at_10(&repo, id, "unreadable payload");
}
END_TEST

/* A payload that still carries its type (as rows did before) must agree with the column. */
START_TEST(test_typed_payload_disagreeing_with_type_column_is_corrupt)
{
	struct game_repo repo;
	int64_t id = damaged_game(&repo, "payload = (payload::jsonb || '{\"type\": \"turn_ended\"}')::json");
	assert_corrupt_at_10(&repo, id, "type");
}
END_TEST

START_TEST(test_implausible_snapshot_is_corrupt)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, 8);
	struct games_play game;
	int64_t id = create(&repo, &game, 4002, 4);
	struct game before;
	struct event_list events;
	int seat;
	while (game.playout.state.version < 30 && games_step(&game, &before, &seat, &events))
		ck_assert_int_eq(game_repo_append(&repo, id, &before, &events, &game.playout.state, seat,
						  STORE_ORIGIN_PLAYER, NULL, NULL),
				 STORE_OK);
	games_free(&game);
	run_sql("UPDATE snapshots SET seq = seq - 1 WHERE game_id = %lld", id); /* claims another version */
	struct game loaded;
	ck_assert_int_eq(game_repo_load(&repo, id, &loaded, NULL), STORE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(game_repo_message(&repo), "snapshot"));
}
END_TEST

START_TEST(test_unknown_game_is_not_found)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, GAME_REPO_SNAPSHOT_EVERY);
	struct game loaded;
	ck_assert_int_eq(game_repo_load(&repo, INT64_C(0x1234), &loaded, NULL), STORE_NOT_FOUND);
	ck_assert(strlen(game_repo_message(&repo)) > 0);
}
END_TEST

START_TEST(test_second_writer_on_same_version_conflicts_then_reloads)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, GAME_REPO_SNAPSHOT_EVERY);
	struct games_play game;
	int64_t id = create(&repo, &game, 5001, 4);
	struct game before, loser_before;
	struct event_list events, loser_events;
	int seat;
	ck_assert(games_step(&game, &before, &seat, &events));
	/* A second server decided something else on the same version. */
	struct games_play other;
	games_resume(&other, &before, 99);
	int other_seat;
	ck_assert(games_step(&other, &loser_before, &other_seat, &loser_events));
	ck_assert_int_eq(game_repo_append(&repo, id, &before, &events, &game.playout.state, seat, STORE_ORIGIN_PLAYER,
					  NULL, NULL),
			 STORE_OK);
	ck_assert_int_eq(game_repo_append(&repo, id, &loser_before, &loser_events, &other.playout.state, other_seat,
					  STORE_ORIGIN_PLAYER, NULL, NULL),
			 STORE_CONFLICT);
	assert_loads_as(&repo, id, &game.playout.state);
	games_free(&other);
	games_free(&game);
}
END_TEST

START_TEST(test_status_follows_the_phase)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, 0);
	struct games_play game;
	int64_t id = create(&repo, &game, 6001, 3);
	ck_assert_int_eq(sql_value("SELECT status FROM games WHERE id = %lld", id), GAME_REPO_SETUP);
	struct game before;
	struct event_list events;
	int seat;
	while (game_in_setup(&game.playout.state) && games_step(&game, &before, &seat, &events))
		ck_assert_int_eq(game_repo_append(&repo, id, &before, &events, &game.playout.state, seat,
						  STORE_ORIGIN_PLAYER, NULL, NULL),
				 STORE_OK);
	ck_assert_int_eq(sql_value("SELECT status FROM games WHERE id = %lld", id), GAME_REPO_PLAYING);
	ck_assert_int_eq(sql_value("SELECT count(DISTINCT actor) FROM events WHERE game_id = %lld AND actor >= 0", id),
			 3);
	ck_assert_int_eq(sql_value("SELECT actor FROM events WHERE game_id = %lld AND seq = 1", id), STORE_NO_ACTOR);
	games_free(&game);
}
END_TEST

START_TEST(test_catch_up_brings_a_cached_state_to_the_log)
{
	struct game_repo repo;
	game_repo_init(&repo, test_db_fixture.store, 16);
	struct games_play game;
	int64_t id = create(&repo, &game, 7001, 4);
	struct game cached, before;
	struct event_list events;
	int seat;
	ck_assert_int_eq(game_repo_load(&repo, id, &cached, NULL), STORE_OK);
	for (int round = 0; round < 40 && game_in_progress(&game.playout.state); round++) {
		/* A little behind (a few events) and, every tenth round, far behind. */
		int steps = round % 10 == 9 ? 150 : 1 + round % 3;
		for (int i = 0; i < steps && games_step(&game, &before, &seat, &events); i++)
			ck_assert_int_eq(game_repo_append(&repo, id, &before, &events, &game.playout.state, seat,
							  STORE_ORIGIN_PLAYER, NULL, NULL),
					 STORE_OK);
		ck_assert_msg(game_repo_catch_up(&repo, id, &cached) == STORE_OK, "%s", game_repo_message(&repo));
		ck_assert_msg(memcmp(&cached, &game.playout.state, sizeof cached) == 0,
			      "round %d: caught-up state differs", round);
	}
	/* Nothing new: nothing changes. */
	ck_assert_int_eq(game_repo_catch_up(&repo, id, &cached), STORE_OK);
	ck_assert(memcmp(&cached, &game.playout.state, sizeof cached) == 0);

	/* A damaged event on the way leaves the cached state as it was. */
	uint32_t version = game.playout.state.version;
	for (int i = 0; i < 3 && games_step(&game, &before, &seat, &events); i++)
		ck_assert_int_eq(game_repo_append(&repo, id, &before, &events, &game.playout.state, seat,
						  STORE_ORIGIN_PLAYER, NULL, NULL),
				 STORE_OK);
	if (game.playout.state.version > version) {
		char sql[256];
		snprintf(sql, sizeof sql, "UPDATE events SET payload = '{}' WHERE game_id = %%lld AND seq = %u",
			 version + 1);
		run_sql(sql, id);
		struct game kept;
		memcpy(&kept, &cached, sizeof kept);
		ck_assert_int_eq(game_repo_catch_up(&repo, id, &cached), STORE_CORRUPT);
		ck_assert(memcmp(&kept, &cached, sizeof kept) == 0);
	}
	games_free(&game);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("game_repo");
	TCase *tc = tcase_create("game_repo");
	tcase_set_timeout(tc, 120);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_complete_games_round_trip_with_snapshots);
	tcase_add_test(tc, test_complete_games_round_trip_without_snapshots);
	tcase_add_test(tc, test_snapshot_of_other_format_or_size_is_ignored);
	tcase_add_test(tc, test_load_starts_from_the_snapshot);
	tcase_add_test(tc, test_unparsable_payload_is_corrupt);
	tcase_add_test(tc, test_event_that_cannot_apply_is_corrupt);
	tcase_add_test(tc, test_type_column_disagreeing_with_payload_is_corrupt);
	tcase_add_test(tc, test_typed_payload_disagreeing_with_type_column_is_corrupt);
	tcase_add_test(tc, test_implausible_snapshot_is_corrupt);
	tcase_add_test(tc, test_unknown_game_is_not_found);
	tcase_add_test(tc, test_second_writer_on_same_version_conflicts_then_reloads);
	tcase_add_test(tc, test_status_follows_the_phase);
	tcase_add_test(tc, test_catch_up_brings_a_cached_state_to_the_log);
	suite_add_tcase(suite, tc);
	return suite;
}
