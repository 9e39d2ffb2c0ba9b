/*
 * test_store_mail.c - what a mail registration records of the turns it mailed
 * (db/store_mail.h, 0007_mail.sql, 0010_player_mail.sql, 0028_mail_turn_version.sql): a
 * turn mail names its turn and starts the interval; an answer to a reply by mail names its
 * turn without starting the interval; and of two records the one written for the newer
 * game version wins, whichever is written last (a turn mail composed from an older state
 * finishing after an answer about a newer one must not bring the older turn back: the
 * seat would then never hear that the game waits for it again). For a seat's registration
 * and for a player's, per game.
 */
#include <string.h>

#include "db/store_lobby.h"
#include "db/store_mail.h"
#include "tests/check_main.h"
#include "tests/db/support.h"

#define K_ROLL ((int64_t)7 << 16 | 1) /* turn 7, waiting for seat 0 */

static const struct store_mail_budget no_budget = {0, 0, 0};

static struct store_mail seat_mail(int64_t id)
{
	struct store_mail mail;
	enum store_status status = store_mail_get(test_db_fixture.store, id, 0, 0, &mail);
	ck_assert_msg(status == STORE_OK, "store_mail_get: %s", store_message(test_db_fixture.store));
	return mail;
}

static void sent(int64_t id, int64_t turn, int32_t version, int counts)
{
	enum store_status status = store_mail_sent(test_db_fixture.store, id, turn, version, counts);
	ck_assert_msg(status == STORE_OK, "store_mail_sent: %s", store_message(test_db_fixture.store));
}

START_TEST(test_a_seat_keeps_the_newest_turn_it_was_told_about)
{
	uint8_t secret[STORE_WEBHOOK_SECRET_SIZE] = {1};
	int64_t game = test_db_new_game(test_db_fixture.store, 4, 1), id = 0;
	int retry = 0;
	ck_assert_int_eq(store_mail_register(test_db_fixture.store, game, 0, "ann@example.org", secret, 3600,
					     &no_budget, &id, &retry),
			 STORE_OK);
	ck_assert_int_gt(id, 0);
	struct store_mail mail = seat_mail(id);
	ck_assert_int_eq(mail.last_turn, -1);
	ck_assert_int_eq(mail.since_last_ms, -1);
	/* An answer names its turn and leaves the interval alone (no mail counted yet). */
	sent(id, K_ROLL, 40, 0);
	mail = seat_mail(id);
	ck_assert_int_eq(mail.last_turn, K_ROLL);
	ck_assert_int_eq(mail.since_last_ms, -1);
	/* A turn mail starts the interval. */
	sent(id, K_ROLL, 41, 1);
	mail = seat_mail(id);
	ck_assert_int_ge(mail.since_last_ms, 0);
	ck_assert_int_lt(mail.since_last_ms, 60000);
	/* An answer at version 45 leaving the seat nothing to do; then a turn mail composed at
	 * version 43 finishes: the answer's record stays. */
	sent(id, -1, 45, 0);
	sent(id, K_ROLL, 43, 1);
	mail = seat_mail(id);
	ck_assert_int_eq(mail.last_turn, -1);
	/* The same version, or a newer one, is recorded. */
	sent(id, K_ROLL, 45, 1);
	ck_assert_int_eq(seat_mail(id).last_turn, K_ROLL);
	sent(id, -1, 50, 0);
	ck_assert_int_eq(seat_mail(id).last_turn, -1);
}
END_TEST

static void game_state(int64_t id, int64_t game, int64_t *since, int64_t *turn)
{
	int own = -1;
	enum store_status status = store_mail_game_state(test_db_fixture.store, id, game, 0, since, turn, &own);
	ck_assert_msg(status == STORE_OK, "store_mail_game_state: %s", store_message(test_db_fixture.store));
	ck_assert_int_eq(own, 0);
}

static void game_sent(int64_t id, int64_t game, int64_t turn, int32_t version, int counts)
{
	enum store_status status = store_mail_game_sent(test_db_fixture.store, id, game, turn, version, counts);
	ck_assert_msg(status == STORE_OK, "store_mail_game_sent: %s", store_message(test_db_fixture.store));
}

START_TEST(test_a_players_registration_keeps_the_newest_turn_per_game)
{
	uint8_t hash[STORE_HASH_SIZE] = {9}, secret[STORE_WEBHOOK_SECRET_SIZE] = {2};
	int64_t player = 0, id = 0, since = 0, turn = 0;
	int retry = 0;
	ck_assert_int_eq(store_player_create(test_db_fixture.store, "Ann", hash, &player), STORE_OK);
	ck_assert_int_eq(store_mail_register_player(test_db_fixture.store, player, "ann@example.org", secret, 3600,
						    &no_budget, &id, &retry),
			 STORE_OK);
	int64_t first = test_db_new_game(test_db_fixture.store, 4, 1);
	int64_t second = test_db_new_game(test_db_fixture.store, 4, 1);
	/* A first record by an answer: its turn, and no mail counted for the interval. */
	game_sent(id, first, K_ROLL, 30, 0);
	game_state(id, first, &since, &turn);
	ck_assert_int_eq(turn, K_ROLL);
	ck_assert_int_gt(since, 3600 * 1000); /* "long ago" */
	/* A newer answer with nothing to do, then an older turn mail: the answer's stays. */
	game_sent(id, first, -1, 33, 0);
	game_sent(id, first, K_ROLL, 31, 1);
	game_state(id, first, &since, &turn);
	ck_assert_int_eq(turn, -1);
	ck_assert_int_gt(since, 3600 * 1000);
	/* A newer turn mail is recorded and starts the interval; the other game is untouched. */
	game_sent(id, first, K_ROLL, 34, 1);
	game_state(id, first, &since, &turn);
	ck_assert_int_eq(turn, K_ROLL);
	ck_assert_int_lt(since, 60000);
	game_state(id, second, &since, &turn);
	ck_assert_int_eq(turn, -1);
	ck_assert_int_eq(since, -1);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("store_mail");
	TCase *tc = tcase_create("database");
	tcase_set_timeout(tc, 60);
	test_db_fixture_add(tc, TEST_DB_WITH_STORE);
	tcase_add_test(tc, test_a_seat_keeps_the_newest_turn_it_was_told_about);
	tcase_add_test(tc, test_a_players_registration_keeps_the_newest_turn_per_game);
	suite_add_tcase(suite, tc);
	return suite;
}
