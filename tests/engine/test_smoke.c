/*
 * test_smoke.c - a first check that the helpers and a standard draft work.
 */
#include "tests/check_main.h"
#include "tests/engine/support.h"

START_TEST(test_standard_draft_reaches_first_roll)
{
	struct game game;
	support_new_game(&game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(&game);
	ck_assert_int_eq(game.phase, GAME_PHASE_ROLL);
	ck_assert_int_eq(game.turn_seat, 0);
	ck_assert_int_eq(game.turn_number, 1);
	ck_assert_int_eq(game_public_points(&game, 0), 2);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("smoke");
	TCase *tc = tcase_create("smoke");
	tcase_add_test(tc, test_standard_draft_reaches_first_roll);
	suite_add_tcase(suite, tc);
	return suite;
}
