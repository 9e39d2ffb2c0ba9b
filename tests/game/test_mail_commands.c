/*
 * test_mail_commands.c - the vocabulary of play by mail (game/mail_commands.c) on the
 * rules' own states: every legal move of random games (trades on, templates filled) written
 * as a line reads back as the same move, and the rules accept the move read; names resolve
 * whole, by a prefix only one name has, or as "seat N"; a victim or a partner is filled in
 * only when the legal moves leave one; the listing names every kind of legal move; and
 * what is not a command is refused with its reason, never read as something else.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/legal.h"
#include "engine/playout.h"
#include "engine/rng.h"
#include "engine/rules.h"
#include "game/mail_commands.h"
#include "tests/check_main.h"
#include "tests/engine/support.h"

static const char *const names[GAME_MAX_SEATS] = {"Ann", "Bob", "Cy", "Zo\xc3\xab"};

static struct command moves[LEGAL_MOVES_MAX];

/* Every legal move of every seat at this state, as a line and back. */
static int round_trip_all(const struct game *game, struct rng *rng)
{
	int checked = 0;
	for (int seat = 0; seat < game->options.seats; seat++) {
		int count = legal_moves(game, seat, moves, LEGAL_MOVES_MAX);
		if (count > LEGAL_MOVES_MAX)
			count = LEGAL_MOVES_MAX;
		for (int i = 0; i < count; i++) {
			struct command move = moves[i];
			playout_fill_template(game, seat, &move, rng);
			move.is_template = 0;
			char line[256], again[256];
			mail_commands_format(&move, names, line, sizeof line);
			struct command read;
			enum mail_commands_error error = mail_commands_parse(line, game, seat, names, &read);
			ck_assert_msg(error == MAIL_COMMANDS_OK, "\"%s\" reads (%s)", line,
				      mail_commands_message(error));
			mail_commands_format(&read, names, again, sizeof again);
			ck_assert_str_eq(again, line);
			ck_assert_int_eq(read.type, move.type);
			static struct event_list events;
			static struct game after;
			enum error rule = rules_decide_seeded(game, 7, seat, &read, &events, &after);
			ck_assert_msg(rule == ERROR_OK, "\"%s\" read is accepted (%s)", line, error_message(rule));
			checked++;
		}
	}
	return checked;
}

START_TEST(test_every_legal_move_written_as_a_line_reads_back_as_itself_and_is_accepted)
{
	struct game_options options;
	rules_default_options(&options);
	options.seats = 4;
	struct playout_options choices = {1};
	struct rng rng;
	rng_init(&rng, 29, 1);
	int checked = 0;
	static struct command scratch[LEGAL_MOVES_MAX];
	for (int g = 0; g < 3; g++) {
		struct playout_game playout;
		struct event_list created;
		ck_assert_int_eq(playout_start(&playout, &options, &choices, 1000 + (uint64_t)g, 3, &created),
				 ERROR_OK);
		for (int step = 0; step < 4000; step++) {
			if (step % 3 == 0)
				checked += round_trip_all(&playout.state, &rng);
			int seat;
			struct command command;
			struct event_list events;
			enum error refused;
			if (playout_step(&playout, scratch, &seat, &command, &events, &refused) != PLAYOUT_MOVED)
				break;
		}
	}
	ck_assert_int_gt(checked, 10000);
}
END_TEST

START_TEST(test_names_resolve_whole_by_a_unique_prefix_or_as_seat_n)
{
	struct game game;
	support_new_game(&game, 4, 0);
	support_standard_draft(&game);
	struct command command;
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to bob", &game, 0, names, &command),
			 MAIL_COMMANDS_OK);
	ck_assert_int_eq(command.to, 1u << 1);
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to Zo\xc3\xab, Cy and seat 1", &game, 0, names,
					     &command),
			 MAIL_COMMANDS_OK);
	ck_assert_int_eq(command.to, (1u << 3) | (1u << 2) | (1u << 1));
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to Z", &game, 0, names, &command),
			 MAIL_COMMANDS_OK);
	ck_assert_int_eq(command.to, 1u << 3);
	const char *const twins[GAME_MAX_SEATS] = {"Ann", "Anna", "Annie", "Bob"};
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to Ann", &game, 3, twins, &command),
			 MAIL_COMMANDS_OK);
	ck_assert_int_eq(command.to, 1u << 0);
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to Anni", &game, 3, twins, &command),
			 MAIL_COMMANDS_OK);
	ck_assert_int_eq(command.to, 1u << 2);
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to An", &game, 3, twins, &command),
			 MAIL_COMMANDS_SEAT_AMBIGUOUS);
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to Dee", &game, 0, names, &command),
			 MAIL_COMMANDS_SEAT);
	ck_assert_int_eq(mail_commands_parse("offer 1 brick for 1 grain to seat 4", &game, 0, names, &command),
			 MAIL_COMMANDS_SEAT);
}
END_TEST

START_TEST(test_a_robber_victim_is_filled_in_only_when_one_seat_can_be_robbed)
{
	struct game game;
	support_new_game(&game, 4, 0);
	support_standard_draft(&game);
	support_roll(&game, 3, 4);
	int count = legal_moves(&game, 0, moves, LEGAL_MOVES_MAX);
	int single = -1, several = -1, none = -1;
	for (int hex = 0; hex < BOARD_HEXES; hex++) {
		uint8_t victims = 0;
		int any = 0;
		for (int i = 0; i < count; i++)
			if (moves[i].type == COMMAND_MOVE_ROBBER && moves[i].hex == hex) {
				any = 1;
				if (moves[i].victim >= 0)
					victims |= (uint8_t)(1u << moves[i].victim);
			}
		if (!any)
			continue;
		int bits = __builtin_popcount(victims);
		if (bits == 0 && none < 0)
			none = hex;
		if (bits == 1 && single < 0)
			single = hex;
		if (bits > 1 && several < 0)
			several = hex;
	}
	ck_assert_int_ge(none, 0);
	ck_assert_int_ge(single, 0);
	char line[64];
	struct command command;
	snprintf(line, sizeof line, "robber %d", none);
	ck_assert_int_eq(mail_commands_parse(line, &game, 0, names, &command), MAIL_COMMANDS_OK);
	ck_assert_int_eq(command.victim, -1);
	snprintf(line, sizeof line, "Robber %d", single);
	ck_assert_int_eq(mail_commands_parse(line, &game, 0, names, &command), MAIL_COMMANDS_OK);
	ck_assert_int_ge(command.victim, 1);
	static struct event_list events;
	static struct game after;
	ck_assert_int_eq(rules_decide_seeded(&game, 1, 0, &command, &events, &after), ERROR_OK);
	if (several >= 0) {
		snprintf(line, sizeof line, "robber %d", several);
		ck_assert_int_eq(mail_commands_parse(line, &game, 0, names, &command), MAIL_COMMANDS_VICTIM);
	}
}
END_TEST

START_TEST(test_what_is_not_a_command_is_refused_with_its_reason)
{
	struct game game;
	support_new_game(&game, 4, 0);
	struct command command;
	const struct {
		const char *line;
		enum mail_commands_error error;
	} cases[] = {
		{"Hi there", MAIL_COMMANDS_UNKNOWN},
		{"", MAIL_COMMANDS_UNKNOWN},
		{"road", MAIL_COMMANDS_NUMBER},
		{"road nineteen", MAIL_COMMANDS_NUMBER},
		{"road 19 20", MAIL_COMMANDS_EXTRA},
		{"road 1000", MAIL_COMMANDS_NUMBER},
		{"settle -1", MAIL_COMMANDS_NUMBER},
		{"trade 4 gold for 1 ore", MAIL_COMMANDS_RESOURCE},
		{"trade 4 wool to 1 ore", MAIL_COMMANDS_EXTRA},
		{"trade 4 wool for", MAIL_COMMANDS_NUMBER},
		{"roll", MAIL_COMMANDS_DICE}, /* support_new_game: entered dice */
		{"roll 7 1", MAIL_COMMANDS_DICE},
		{"discard", MAIL_COMMANDS_NUMBER},
		{"discard 0 ore", MAIL_COMMANDS_NUMBER}, /* wrote back as "discard ": the fuzzer found it */
		{"offer 1 brick and 0 wool for 1 ore", MAIL_COMMANDS_NUMBER},
		{"monopoly", MAIL_COMMANDS_RESOURCE},
		{"plenty ore ore ore", MAIL_COMMANDS_EXTRA},
		{"robber 8 steal", MAIL_COMMANDS_VICTIM},
		{"robber 8 steal Dee", MAIL_COMMANDS_SEAT},
		{"end now", MAIL_COMMANDS_EXTRA},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		enum mail_commands_error error = mail_commands_parse(cases[i].line, &game, 0, names, &command);
		ck_assert_msg(error == cases[i].error, "\"%s\": %s, not %s", cases[i].line,
			      mail_commands_error_name(error), mail_commands_error_name(cases[i].error));
	}
	char longer[MAIL_COMMANDS_LINE_MAX + 10];
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	ck_assert_int_eq(mail_commands_parse(longer, &game, 0, names, &command), MAIL_COMMANDS_TOO_LONG);
}
END_TEST

START_TEST(test_lines_are_trimmed_and_the_listing_names_every_kind_of_move)
{
	const char *text = "  Road 19.\r\n\r\n\tEND,\nlast";
	char line[64];
	ck_assert(mail_commands_next_line(&text, line, sizeof line));
	ck_assert_str_eq(line, "Road 19");
	ck_assert(mail_commands_next_line(&text, line, sizeof line));
	ck_assert(mail_commands_blank(line));
	ck_assert(mail_commands_next_line(&text, line, sizeof line));
	ck_assert_str_eq(line, "END");
	ck_assert(mail_commands_next_line(&text, line, sizeof line));
	ck_assert_str_eq(line, "last");
	ck_assert(!mail_commands_next_line(&text, line, sizeof line));

	struct game game;
	support_new_game(&game, 4, 0);
	struct xtext listing = xtext_new();
	mail_commands_list(&game, 0, names, &listing);
	ck_assert_msg(strncmp(listing.data, "  settle ", 9) == 0, "%s", listing.data);
	free(listing.data);
	listing = xtext_new();
	mail_commands_list(&game, 1, names, &listing);
	ck_assert_str_eq(listing.data, ""); /* not its turn */
	free(listing.data);
	support_standard_draft(&game);
	listing = xtext_new();
	mail_commands_list(&game, 0, names, &listing);
	ck_assert_str_eq(listing.data, "  roll <die> <die>   (e.g. roll 3 4)\n");
	free(listing.data);
	support_set_hand(&game, 0, 4, 2, 2, 2, 2);
	support_roll(&game, 2, 2);
	listing = xtext_new();
	mail_commands_list(&game, 0, names, &listing);
	ck_assert_msg(strstr(listing.data, "  road ") && strstr(listing.data, "  settle ") == NULL &&
			      strstr(listing.data, "  buy card\n") &&
			      strstr(listing.data, "  trade 4 brick for 1 <resource>\n") &&
			      strstr(listing.data, "  offer <cards> for <cards>") && strstr(listing.data, "  end\n"),
		      "%s", listing.data);
	free(listing.data);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("mail_commands");
	TCase *tcase = tcase_create("mail_commands");
	tcase_set_timeout(tcase, 120);
	tcase_add_test(tcase, test_every_legal_move_written_as_a_line_reads_back_as_itself_and_is_accepted);
	tcase_add_test(tcase, test_names_resolve_whole_by_a_unique_prefix_or_as_seat_n);
	tcase_add_test(tcase, test_a_robber_victim_is_filled_in_only_when_one_seat_can_be_robbed);
	tcase_add_test(tcase, test_what_is_not_a_command_is_refused_with_its_reason);
	tcase_add_test(tcase, test_lines_are_trimmed_and_the_listing_names_every_kind_of_move);
	suite_add_tcase(suite, tcase);
	return suite;
}
