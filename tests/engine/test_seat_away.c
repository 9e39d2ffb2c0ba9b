/*
 * test_seat_away.c - holidays in the log: seat_away and seat_back events (a seat handed to
 * the server's bot, and taken back) are accepted by the rules anywhere a seat exists and
 * change nothing of the game but its version, so a replay, an export and an import carry
 * them without any effect on play. Who plays a seat is the service's business, not the
 * rules'.
 */
#include <string.h>

#include "tests/check_main.h"
#include "tests/engine/support.h"
#include "engine/apply.h"
#include "engine/legal.h"

/* A 4-seat beginner game after the standard draft: turn 1, seat 0 to roll. */
static void start(struct game *game)
{
	support_new_game(game, 4, GAME_LAYOUT_BEGINNER);
	support_standard_draft(game);
}

static struct event holiday(enum event_type type, int seat)
{
	struct event event;
	event_init(&event, type);
	event.seat = (int8_t)seat;
	return event;
}

START_TEST(test_seat_away_and_back_change_nothing_but_the_version)
{
	struct game game, before;
	start(&game);
	static const enum event_type types[] = {EVENT_SEAT_AWAY, EVENT_SEAT_BACK};
	for (int t = 0; t < 2; t++) {
		for (int seat = 0; seat < 4; seat++) {
			struct event event = holiday(types[t], seat);
			ck_assert(apply_event_valid(&game, &event));
			before = game;
			apply_event(&game, &event);
			ck_assert_uint_eq(game.version, before.version + 1);
			before.version = game.version;
			ck_assert_msg(memcmp(&before, &game, sizeof game) == 0, "%s of seat %d changed the game",
				      event_type_name(types[t]), seat);
			ck_assert_uint_eq(legal_waiting_for(&game), 1u << 0);
		}
	}
	/* The game goes on as if nothing happened. */
	support_roll(&game, 2, 4);
	ck_assert_int_eq(game.phase, GAME_PHASE_MAIN);
}
END_TEST

START_TEST(test_seat_away_names_a_seat_of_a_game_in_progress)
{
	struct game game;
	start(&game);
	struct event nobody = holiday(EVENT_SEAT_AWAY, 4), none = holiday(EVENT_SEAT_BACK, -1);
	ck_assert(!apply_event_valid(&game, &nobody));
	ck_assert(!apply_event_valid(&game, &none));
	struct game empty;
	memset(&empty, 0, sizeof empty);
	struct event early = holiday(EVENT_SEAT_AWAY, 0);
	ck_assert(!apply_event_valid(&empty, &early));
	ck_assert_str_eq(event_type_name(EVENT_SEAT_AWAY), "seat_away");
	ck_assert_int_eq(event_type_from_name("seat_back"), EVENT_SEAT_BACK);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("seat_away");
	TCase *tcase = tcase_create("holidays");
	tcase_add_test(tcase, test_seat_away_and_back_change_nothing_but_the_version);
	tcase_add_test(tcase, test_seat_away_names_a_seat_of_a_game_in_progress);
	suite_add_tcase(suite, tcase);
	return suite;
}
