/*
 * test_http_bot_cli.c - `catan bot` (cmd/bot_cli.c) on the API's own JSON: every seat of a
 * game is played by asking the command for a move with what the server shows that seat --
 * GET /v1/games/{id} with the seat's token, GET .../board and the seat's GET .../moves log
 * -- and posting what it prints to POST .../moves with the same token. Every level takes
 * part (seat s plays at level s mod 3); every printed move must be one the server accepts
 * (201), for a whole game to its winner: the command reads the API's JSON with the codec,
 * lists the seat's legal moves from its view alone and answers in the API's move JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MAX_MOVES 1500

static const char *const levels[] = {"easy", "medium", "hard"};

/* The seat the game waits for first: an unanswered offer's addressee, else pending.seats[0]. */
static int seat_to_move(const json_t *view)
{
	size_t index;
	const json_t *trade;
	json_array_foreach(json_object_get(view, "trades"), index, trade)
	{
		const json_t *to = json_object_get(trade, "to");
		for (size_t k = 0; k < json_array_size(to); k++) {
			json_int_t seat = json_integer_value(json_array_get(to, k));
			int answered = 0;
			const char *lists[] = {"accepted", "declined"};
			for (int l = 0; l < 2; l++) {
				const json_t *list = json_object_get(trade, lists[l]);
				for (size_t m = 0; m < json_array_size(list); m++)
					answered |= json_integer_value(json_array_get(list, m)) == seat;
			}
			const json_t *turn = json_object_get(view, "turn");
			if (!answered && seat != json_integer_value(json_object_get(turn, "seat")))
				return (int)seat;
		}
	}
	const json_t *seats = json_object_get(json_object_get(view, "pending"), "seats");
	return json_array_size(seats) ? (int)json_integer_value(json_array_get(seats, 0)) : -1;
}

START_TEST(test_catan_bot_plays_a_whole_game_from_the_api_json)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"random\", \"seed\": 2701}", &game);
	const char *catan = getenv("CATAN") && *getenv("CATAN") ? getenv("CATAN") : "build/catan";
	char file[256];
	snprintf(file, sizeof file, "%s/catan-bot-%ld.json",
		 getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (long)getpid());
	char path[160];
	json_t *board = http_get_ok(&http_fixture.direct, http_game_path(&game, "/board", path, sizeof path), NULL);
	long moves = 0, counter_or_answers = 0;
	int finished = 0;
	while (moves < MAX_MOVES && !finished) {
		json_t *public_view = http_get_ok(&http_fixture.direct, game.path, game.tokens[0]);
		finished = strcmp(json_string_value(json_object_get(public_view, "status")), "finished") == 0;
		int seat = finished ? -1 : seat_to_move(public_view);
		json_decref(public_view);
		if (seat < 0)
			break;
		json_t *view = http_get_ok(&http_fixture.direct, game.path, game.tokens[seat]);
		json_t *log = http_game_log(&http_fixture.direct, &game, game.tokens[seat], 0);
		json_t *input = json_pack("{s:o, s:O, s:{s:o}}", "game", view, "board", board, "moves", "events", log);
		ck_assert_int_eq(json_dump_file(input, file, JSON_COMPACT), 0);
		json_decref(input);
		char command[700];
		snprintf(command, sizeof command, "'%s' bot --level %s --seed %ld --playouts 16 < '%s'", catan,
			 levels[seat % 3], moves, file);
		FILE *pipe = popen(command, "r");
		ck_assert_ptr_nonnull(pipe);
		char output[2048] = "";
		size_t length = fread(output, 1, sizeof output - 1, pipe);
		output[length] = '\0';
		int status = pclose(pipe);
		ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "move %ld: catan bot failed: %s", moves,
			      output);
		json_t *move = json_loads(output, 0, NULL);
		ck_assert_msg(move != NULL, "move %ld: catan bot printed %s", moves, output);
		const char *type = json_string_value(json_object_get(move, "type"));
		counter_or_answers += type && (strstr(type, "trade") != NULL);
		struct http_response response;
		char moves_path[160];
		http_call_json(&http_fixture.checked, "POST",
			       http_game_path(&game, "/moves", moves_path, sizeof moves_path), game.tokens[seat], move,
			       NULL, &response);
		ck_assert_msg(response.status == 201, "move %ld by seat %d (%s): %s -> %s", moves, seat,
			      levels[seat % 3], output, http_describe(&response));
		http_response_free(&response);
		json_decref(move);
		moves++;
	}
	unlink(file);
	json_decref(board);
	ck_assert_msg(finished, "no winner after %ld moves", moves);
	ck_assert_int_gt(moves, 100);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_bot_cli");
	TCase *play = tcase_create("catan bot");
	http_fixture_add(play, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(play, 600);
	tcase_add_test(play, test_catan_bot_plays_a_whole_game_from_the_api_json);
	suite_add_tcase(suite, play);
	return suite;
}
