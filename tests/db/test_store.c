/*
 * test_store.c - the store's operations one by one against a real PostgreSQL: ids, create,
 * append, load, the event log, tokens, snapshots, notifications, and bad input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>

#include "tests/check_main.h"
#include "tests/db/support.h"

static void append_fake(int64_t game, int32_t version, int count, enum store_status expected)
{
	struct store_event events[8];
	char text[8][64];
	test_db_fake_events(events, text, count, version + 1);
	struct store_append append = {game, version, events, count, STORE_NO_STATUS, NULL, NULL, NULL};
	enum store_status status = store_append(test_db_fixture.store, &append);
	ck_assert_msg(status == expected, "append at %d: %s (%s), expected %s", (int)version, store_status_name(status),
		      store_message(test_db_fixture.store), store_status_name(expected));
}

static void format_id_sql(char *sql, size_t size, const char *format, int64_t game)
{
	snprintf(sql, size, format, (long long)game);
}

START_TEST(test_id_text_round_trips_and_rejects_malformed)
{
	char text[STORE_ID_TEXT_SIZE];
	int64_t id;
	store_format_id(INT64_C(0x0123456789abcdef), text);
	ck_assert_str_eq(text, "0123456789abcdef");
	ck_assert(store_parse_id(text, &id));
	ck_assert(id == INT64_C(0x0123456789abcdef));
	store_format_id(1, text);
	ck_assert_str_eq(text, "0000000000000001");
	ck_assert(!store_parse_id("0123456789ABCDEF", &id));  /* upper case */
	ck_assert(!store_parse_id("0123456789abcde", &id));   /* 15 digits */
	ck_assert(!store_parse_id("0123456789abcdef0", &id)); /* 17 digits */
	ck_assert(!store_parse_id("0000000000000000", &id));  /* zero */
	ck_assert(!store_parse_id("8000000000000000", &id));  /* not positive as bigint */
	ck_assert(!store_parse_id("0123456789abcdeg", &id));
	ck_assert(!store_parse_id("", &id));
}
END_TEST

START_TEST(test_create_game_stores_first_events_and_seats)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 5);
	ck_assert(game > 0);
	int32_t version = -1;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 5);

	struct store_game_info info;
	ck_assert_int_eq(store_game_info(test_db_fixture.store, game, &info), STORE_OK);
	ck_assert_int_eq(info.seats, 4);
	ck_assert(info.seed == 12345);
	ck_assert_int_eq(info.status, 0);
	ck_assert_ptr_nonnull(strstr(info.options, "\"seats\""));
	ck_assert(info.created_at_us > 0 && info.updated_at_us >= info.created_at_us);
	store_game_info_free(&info);

	struct store_log log;
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 0, 100, &log), STORE_OK);
	ck_assert_int_eq(log.count, 5);
	for (int i = 0; i < 5; i++) {
		char expected[64]; /* the text as written (json, 0020_compact_events.sql) */
		snprintf(expected, sizeof expected, "{\"type\":\"test\",\"seq\":%d}", i + 1);
		ck_assert_int_eq(log.rows[i].seq, i + 1);
		ck_assert_int_eq(log.rows[i].type, 100 + (i + 1) % 7);
		ck_assert_int_eq(log.rows[i].actor, (i + 1) % 4);
		ck_assert_int_eq(log.rows[i].origin, STORE_ORIGIN_PLAYER);
		ck_assert_str_eq(log.rows[i].payload, expected);
		ck_assert_uint_eq(log.rows[i].payload_size, strlen(expected));
	}
	store_log_free(&log);
}
END_TEST

START_TEST(test_game_ids_are_random_and_distinct)
{
	int64_t first = test_db_new_game(test_db_fixture.store, 3, 1);
	int64_t second = test_db_new_game(test_db_fixture.store, 3, 1);
	ck_assert(first != second);
	ck_assert(first > 0 && second > 0);
}
END_TEST

START_TEST(test_append_continues_the_log)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	append_fake(game, 1, 3, STORE_OK);
	append_fake(game, 4, 1, STORE_OK);
	int32_t version;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 5);
	struct store_loaded loaded;
	char state[16];
	ck_assert_int_eq(store_load(test_db_fixture.store, game, 1, state, sizeof state, &loaded), STORE_OK);
	ck_assert_int_eq(loaded.snapshot_seq, 0);
	ck_assert_int_eq(loaded.log.count, 5);
	ck_assert_int_eq(loaded.log.rows[4].seq, 5);
	ck_assert_int_eq(loaded.seats, 4);
	ck_assert(loaded.seed == 12345);
	store_log_free(&loaded.log);
}
END_TEST

START_TEST(test_append_at_taken_version_conflicts_and_stores_nothing)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	append_fake(game, 1, 2, STORE_OK);
	append_fake(game, 1, 1, STORE_CONFLICT); /* 2 is taken */
	append_fake(game, 2, 3, STORE_CONFLICT); /* 3 is taken: nothing of 3..5 stays */
	int32_t version;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 3);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	char sql[160];
	format_id_sql(sql, sizeof sql, "SELECT count(*) FROM events WHERE game_id = %lld", game);
	ck_assert_int_eq(test_db_scalar(conn, sql), 3);
	PQfinish(conn);
}
END_TEST

START_TEST(test_append_beyond_the_version_conflicts_without_a_gap)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 2);
	append_fake(game, 5, 1, STORE_CONFLICT);
	int32_t version;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 2);
}
END_TEST

START_TEST(test_unknown_game_is_not_found_everywhere)
{
	int64_t game = INT64_C(0x7edcba9876543210);
	append_fake(game, 1, 1, STORE_NOT_FOUND);
	append_fake(game, 0, 1, STORE_NOT_FOUND);
	char state[8];
	struct store_loaded loaded;
	ck_assert_int_eq(store_load(test_db_fixture.store, game, 1, state, sizeof state, &loaded), STORE_NOT_FOUND);
	struct store_log log;
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 0, 10, &log), STORE_NOT_FOUND);
	int32_t version;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_NOT_FOUND);
	uint8_t hash[STORE_HASH_SIZE] = {0};
	int seat;
	ck_assert_int_eq(store_find_token(test_db_fixture.store, game, hash, &seat), STORE_NOT_FOUND);
	struct store_game_info info;
	ck_assert_int_eq(store_game_info(test_db_fixture.store, game, &info), STORE_NOT_FOUND);
	struct store_idempotency record = {"key", {0}, 201, "{}"};
	ck_assert_int_eq(store_idempotency_put(test_db_fixture.store, game, &record), STORE_NOT_FOUND);
	struct store_snapshot snapshot = {1, state, sizeof state};
	ck_assert_int_eq(store_put_snapshot(test_db_fixture.store, game, 1, &snapshot), STORE_NOT_FOUND);
}
END_TEST

START_TEST(test_read_events_pages_after_a_version)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 10);
	struct store_log log;
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 3, 4, &log), STORE_OK);
	ck_assert_int_eq(log.count, 4);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(log.rows[i].seq, 4 + i);
	store_log_free(&log);
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 8, 100, &log), STORE_OK);
	ck_assert_int_eq(log.count, 2);
	store_log_free(&log);
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 10, 100, &log), STORE_OK);
	ck_assert_int_eq(log.count, 0); /* a known game with nothing new: not NOT_FOUND */
	store_log_free(&log);
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 0, 0, &log), STORE_OK);
	ck_assert_int_eq(log.count, 0);
	store_log_free(&log);
}
END_TEST

START_TEST(test_read_tail_reads_what_read_events_reads)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 10);
	for (int after = 0; after <= 10; after++) {
		struct store_log events, tail;
		ck_assert_int_eq(store_read_events(test_db_fixture.store, game, after, 5, &events), STORE_OK);
		ck_assert_int_eq(store_read_tail(test_db_fixture.store, game, after, 5, &tail), STORE_OK);
		ck_assert_int_eq(tail.count, events.count);
		for (int i = 0; i < tail.count; i++) {
			ck_assert_int_eq(tail.rows[i].seq, events.rows[i].seq);
			ck_assert_int_eq(tail.rows[i].type, events.rows[i].type);
			ck_assert_int_eq(tail.rows[i].created_at_us, events.rows[i].created_at_us);
			ck_assert_str_eq(tail.rows[i].payload, events.rows[i].payload);
		}
		store_log_free(&events);
		store_log_free(&tail);
	}
	struct store_log tail;
	ck_assert_int_eq(store_read_tail(test_db_fixture.store, game + 1, 0, 5, &tail), STORE_OK); /* no check: empty */
	ck_assert_int_eq(tail.count, 0);
	store_log_free(&tail);
}
END_TEST

START_TEST(test_find_token_names_seat_or_admin)
{
	struct store_event events[1];
	char text[1][64];
	test_db_fake_events(events, text, 1, 1);
	struct store_new_game game;
	memset(&game, 0, sizeof game);
	game.seed = 7;
	game.options = "{}";
	game.seats = 3;
	game.names[0] = "Ann";
	game.names[1] = "Bo \"the\" \\bot\\";
	game.bots[1] = 1;
	for (int seat = 0; seat < 3; seat++)
		memset(game.token_hashes[seat], 0x10 + seat, STORE_HASH_SIZE);
	memset(game.admin_token_hash, 0x77, STORE_HASH_SIZE);
	game.events = events;
	game.event_count = 1;
	int64_t id;
	ck_assert_int_eq(store_create_game(test_db_fixture.store, &game, &id), STORE_OK);

	int seat = -9;
	ck_assert_int_eq(store_find_token(test_db_fixture.store, id, game.token_hashes[0], &seat), STORE_OK);
	ck_assert_int_eq(seat, 0);
	ck_assert_int_eq(store_find_token(test_db_fixture.store, id, game.token_hashes[2], &seat), STORE_OK);
	ck_assert_int_eq(seat, 2);
	ck_assert_int_eq(store_find_token(test_db_fixture.store, id, game.admin_token_hash, &seat), STORE_OK);
	ck_assert_int_eq(seat, STORE_SEAT_ADMIN);
	/* A bot seat has no token: its hash opens nothing. */
	ck_assert_int_eq(store_find_token(test_db_fixture.store, id, game.token_hashes[1], &seat), STORE_NOT_FOUND);
	uint8_t unknown[STORE_HASH_SIZE];
	memset(unknown, 0x55, sizeof unknown);
	ck_assert_int_eq(store_find_token(test_db_fixture.store, id, unknown, &seat), STORE_NOT_FOUND);

	struct store_game_info info;
	ck_assert_int_eq(store_game_info(test_db_fixture.store, id, &info), STORE_OK);
	ck_assert_int_eq(info.seats, 3);
	ck_assert_str_eq(info.names[0], "Ann");
	ck_assert_str_eq(info.names[1], "Bo \"the\" \\bot\\");
	ck_assert_ptr_null(info.names[2]);
	ck_assert(!info.bots[0] && info.bots[1] && !info.bots[2]);
	store_game_info_free(&info);
}
END_TEST

START_TEST(test_snapshot_of_other_format_or_size_is_ignored)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 3);
	uint8_t state[32];
	memset(state, 0xab, sizeof state);
	struct store_snapshot snapshot = {7, state, sizeof state};
	ck_assert_int_eq(store_put_snapshot(test_db_fixture.store, game, 2, &snapshot), STORE_OK);

	uint8_t loaded_state[32];
	struct store_loaded loaded;
	memset(loaded_state, 0, sizeof loaded_state);
	ck_assert_int_eq(store_load(test_db_fixture.store, game, 7, loaded_state, sizeof loaded_state, &loaded),
			 STORE_OK);
	ck_assert_int_eq(loaded.snapshot_seq, 2);
	ck_assert_mem_eq(loaded_state, state, sizeof state);
	ck_assert_int_eq(loaded.log.count, 1);
	ck_assert_int_eq(loaded.log.rows[0].seq, 3);
	store_log_free(&loaded.log);

	/* Another format: ignored, the whole log comes back, the buffer is untouched. */
	memset(loaded_state, 0, sizeof loaded_state);
	ck_assert_int_eq(store_load(test_db_fixture.store, game, 8, loaded_state, sizeof loaded_state, &loaded),
			 STORE_OK);
	ck_assert_int_eq(loaded.snapshot_seq, 0);
	ck_assert_int_eq(loaded.log.count, 3);
	ck_assert_int_eq(loaded_state[0], 0);
	store_log_free(&loaded.log);

	/* The same format with another size: ignored too, never read into a smaller buffer. */
	ck_assert_int_eq(store_load(test_db_fixture.store, game, 7, loaded_state, 16, &loaded), STORE_OK);
	ck_assert_int_eq(loaded.snapshot_seq, 0);
	ck_assert_int_eq(loaded.log.count, 3);
	ck_assert_int_eq(loaded_state[0], 0);
	store_log_free(&loaded.log);
}
END_TEST

START_TEST(test_only_the_latest_snapshot_is_kept)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	uint8_t state[8] = {1};
	struct store_snapshot snapshot = {1, state, sizeof state};
	struct store_event events[2];
	char text[2][64];
	test_db_fake_events(events, text, 2, 2);
	struct store_append append = {game, 1, events, 2, STORE_NO_STATUS, &snapshot, NULL, NULL};
	ck_assert_int_eq(store_append(test_db_fixture.store, &append), STORE_OK);
	state[0] = 2;
	test_db_fake_events(events, text, 2, 4);
	append.version = 3;
	ck_assert_int_eq(store_append(test_db_fixture.store, &append), STORE_OK);
	/* An older one does not replace a newer one of the same format. */
	state[0] = 3;
	ck_assert_int_eq(store_put_snapshot(test_db_fixture.store, game, 2, &snapshot), STORE_OK);

	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	char sql[160];
	format_id_sql(sql, sizeof sql, "SELECT count(*) FROM snapshots WHERE game_id = %lld", game);
	ck_assert_int_eq(test_db_scalar(conn, sql), 1);
	PQfinish(conn);

	uint8_t loaded_state[8];
	struct store_loaded loaded;
	ck_assert_int_eq(store_load(test_db_fixture.store, game, 1, loaded_state, sizeof loaded_state, &loaded),
			 STORE_OK);
	ck_assert_int_eq(loaded.snapshot_seq, 5);
	ck_assert_int_eq(loaded_state[0], 2);
	ck_assert_int_eq(loaded.log.count, 0);
	store_log_free(&loaded.log);
}
END_TEST

START_TEST(test_plain_append_leaves_games_row_alone)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	char sql[160];
	format_id_sql(sql, sizeof sql, "SELECT xmin::text::bigint FROM games WHERE id = %lld", game);
	long long before = test_db_scalar(conn, sql);
	append_fake(game, 1, 2, STORE_OK);
	ck_assert_int_eq(test_db_scalar(conn, sql), before);

	/* A status change does write it. */
	struct store_event events[1];
	char text[1][64];
	test_db_fake_events(events, text, 1, 4);
	struct store_append append = {game, 3, events, 1, 2, NULL, NULL, NULL};
	ck_assert_int_eq(store_append(test_db_fixture.store, &append), STORE_OK);
	ck_assert(test_db_scalar(conn, sql) != before);
	struct store_game_info info;
	ck_assert_int_eq(store_game_info(test_db_fixture.store, game, &info), STORE_OK);
	ck_assert_int_eq(info.status, 2);
	store_game_info_free(&info);
	PQfinish(conn);
}
END_TEST

START_TEST(test_append_notifies_game_and_version)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	PGconn *listener = test_db_connect(test_db_fixture.db.conninfo);
	test_db_exec(listener, "LISTEN catan_events");
	append_fake(game, 1, 2, STORE_OK);

	char expected[64], id[STORE_ID_TEXT_SIZE];
	store_format_id(game, id);
	snprintf(expected, sizeof expected, "%s:3", id);
	PGnotify *notify = NULL;
	int64_t deadline = test_db_now_us() + 5000000;
	while (!notify && test_db_now_us() < deadline) {
		int socket = PQsocket(listener);
		fd_set readable;
		FD_ZERO(&readable);
		FD_SET(socket, &readable);
		struct timeval wait = {0, 100000};
		select(socket + 1, &readable, NULL, NULL, &wait);
		ck_assert(PQconsumeInput(listener));
		notify = PQnotifies(listener);
	}
	ck_assert_ptr_nonnull(notify);
	ck_assert_str_eq(notify->relname, "catan_events");
	ck_assert_str_eq(notify->extra, expected);
	PQfreemem(notify);
	PQfinish(listener);
}
END_TEST

START_TEST(test_payload_that_is_not_json_is_refused)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	struct store_event event = {1, 0, STORE_ORIGIN_PLAYER, "{not json"};
	struct store_append append = {game, 1, &event, 1, STORE_NO_STATUS, NULL, NULL, NULL};
	ck_assert_int_eq(store_append(test_db_fixture.store, &append), STORE_INVALID);
	ck_assert(strlen(store_message(test_db_fixture.store)) > 0);
	int32_t version;
	ck_assert_int_eq(store_version(test_db_fixture.store, game, &version), STORE_OK);
	ck_assert_int_eq(version, 1);
	/* Quotes and backslashes inside a payload survive the array literal. */
	event.payload = "{\"name\":\"a \\\"quoted\\\" \\\\ name\"}";
	ck_assert_int_eq(store_append(test_db_fixture.store, &append), STORE_OK);
	struct store_log log;
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 1, 1, &log), STORE_OK);
	ck_assert_int_eq(log.count, 1);
	ck_assert_str_eq(log.rows[0].payload, event.payload); /* byte for byte (json) */
	store_log_free(&log);
}
END_TEST

START_TEST(test_gap_in_the_log_is_corrupt_not_a_crash)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 5);
	PGconn *conn = test_db_connect(test_db_fixture.db.conninfo);
	char sql[160];
	format_id_sql(sql, sizeof sql, "DELETE FROM events WHERE game_id = %lld AND seq = 3", game);
	test_db_exec(conn, sql);
	PQfinish(conn);
	char state[8];
	struct store_loaded loaded;
	ck_assert_int_eq(store_load(test_db_fixture.store, game, 1, state, sizeof state, &loaded), STORE_CORRUPT);
	ck_assert_ptr_nonnull(strstr(store_message(test_db_fixture.store), "gap"));
	ck_assert_ptr_null(loaded.log.rows);
	struct store_log log;
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, 0, 10, &log), STORE_CORRUPT);
}
END_TEST

START_TEST(test_malformed_calls_are_invalid)
{
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1);
	struct store_append append = {game, 1, NULL, 0, STORE_NO_STATUS, NULL, NULL, NULL};
	ck_assert_int_eq(store_append(test_db_fixture.store, &append), STORE_INVALID);
	struct store_event event = {1, 0, STORE_ORIGIN_PLAYER, NULL};
	append.events = &event;
	append.event_count = 1;
	ck_assert_int_eq(store_append(test_db_fixture.store, &append), STORE_INVALID);
	struct store_log log;
	ck_assert_int_eq(store_read_events(test_db_fixture.store, game, -1, 10, &log), STORE_INVALID);
}
END_TEST

START_TEST(test_unreachable_database_is_unavailable_not_fatal)
{
	struct store *lost;
	ck_assert_int_eq(store_open("host=/nonexistent/socket/dir dbname=catan", &lost), STORE_UNAVAILABLE);
	ck_assert(strlen(store_message(lost)) > 0);
	int32_t version;
	ck_assert_int_eq(store_version(lost, 1, &version), STORE_UNAVAILABLE);
	store_close(lost);
	char message[256];
	ck_assert_int_eq(store_migrate("host=/nonexistent/socket/dir dbname=catan", NULL, message, sizeof message),
			 STORE_UNAVAILABLE);
	ck_assert_ptr_nonnull(strstr(message, "connect"));
}
END_TEST

START_TEST(test_status_names_and_messages_cover_every_status)
{
	for (int status = 0; status < STORE_STATUS_COUNT; status++) {
		ck_assert_ptr_nonnull(store_status_name(status));
		ck_assert(strncmp(store_status_name(status), "STORE_", 6) == 0);
		ck_assert(strlen(store_status_message(status)) > 0);
	}
	ck_assert_str_eq(store_status_name(STORE_CONFLICT), "STORE_CONFLICT");
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("store");
	TCase *pure = tcase_create("pure");
	tcase_add_test(pure, test_id_text_round_trips_and_rejects_malformed);
	tcase_add_test(pure, test_status_names_and_messages_cover_every_status);
	tcase_add_test(pure, test_unreachable_database_is_unavailable_not_fatal);
	suite_add_tcase(suite, pure);

	TCase *tc = tcase_create("database");
	tcase_set_timeout(tc, 60);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_create_game_stores_first_events_and_seats);
	tcase_add_test(tc, test_game_ids_are_random_and_distinct);
	tcase_add_test(tc, test_append_continues_the_log);
	tcase_add_test(tc, test_append_at_taken_version_conflicts_and_stores_nothing);
	tcase_add_test(tc, test_append_beyond_the_version_conflicts_without_a_gap);
	tcase_add_test(tc, test_unknown_game_is_not_found_everywhere);
	tcase_add_test(tc, test_read_events_pages_after_a_version);
	tcase_add_test(tc, test_read_tail_reads_what_read_events_reads);
	tcase_add_test(tc, test_find_token_names_seat_or_admin);
	tcase_add_test(tc, test_snapshot_of_other_format_or_size_is_ignored);
	tcase_add_test(tc, test_only_the_latest_snapshot_is_kept);
	tcase_add_test(tc, test_plain_append_leaves_games_row_alone);
	tcase_add_test(tc, test_append_notifies_game_and_version);
	tcase_add_test(tc, test_payload_that_is_not_json_is_refused);
	tcase_add_test(tc, test_gap_in_the_log_is_corrupt_not_a_crash);
	tcase_add_test(tc, test_malformed_calls_are_invalid);
	suite_add_tcase(suite, tc);
	return suite;
}
