/*
 * test_http_trades.c - domestic trade as HTTP resources: offers, answers, completion,
 * counter-offers and withdrawal, each a move in the log, each refusal leaving the game as
 * it was. Through Prism (forwarding bad requests, validating every response).
 *
 * Games start from the preset opening (start: fixed) with manual dice, so seat 0 rolls a
 * harmless total and is in its main phase with the cards of its starting settlement.
 */
#include <stdio.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

static const char *const resource_names[RESOURCE_COUNT] = {"brick", "lumber", "wool", "grain", "ore"};

static void hand_of(const struct http_game *game, int seat, int hand[RESOURCE_COUNT])
{
	json_t *view = http_get_ok(&http_fixture.checked, game->path, game->tokens[seat]);
	json_t *resources = json_object_get(json_object_get(view, "you"), "resources");
	for (int r = 0; r < RESOURCE_COUNT; r++)
		hand[r] = (int)json_integer_value(json_object_get(resources, resource_names[r]));
	json_decref(view);
}

/* A game in seat 0's main phase, and two resources such that seat 0 holds `give` and
 * seat `partner` holds `want`. */
static void game_in_main_phase(struct http_game *game, int partner, int *give, int *want)
{
	for (int attempt = 0; attempt < 10; attempt++) {
		http_game_create(&http_fixture.checked, 3, FIXED_START, game);
		http_post_move_ok(&http_fixture.checked, game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}");
		int mine[RESOURCE_COUNT], theirs[RESOURCE_COUNT];
		hand_of(game, 0, mine);
		hand_of(game, partner, theirs);
		for (*give = 0; *give < RESOURCE_COUNT; (*give)++)
			for (*want = 0; *want < RESOURCE_COUNT; (*want)++)
				if (*give != *want && mine[*give] && theirs[*want])
					return;
	}
	ck_abort_msg("no tradeable hands after the fixed start");
}

static int offer(const struct http_game *game, int seat, const char *body)
{
	char path[160];
	struct http_response response;
	http_call(&http_fixture.checked, "POST", http_game_path(game, "/trades", path, sizeof path), game->tokens[seat],
		  body, NULL, &response);
	ck_assert_msg(response.status == 201, "offer %s: %s", body, http_describe(&response));
	int id = (int)json_integer_value(json_object_get(response.json, "trade"));
	ck_assert_int_gt(id, 0);
	/* "trade" as POST .../moves names it; "id" kept for the clients written before. */
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "id")), id);
	json_t *first = json_array_get(json_object_get(response.json, "events"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(first, "type")), "trade_offered");
	ck_assert_int_eq(json_integer_value(json_object_get(first, "trade")), id);
	http_response_free(&response);
	return id;
}

/* POST/DELETE on a trade that must be answered `status` (and `code` when refused); a
 * refusal changes nothing. */
static void answer(const struct http_game *game, const char *method, int seat, int trade, const char *verb,
		   const char *body, long status, const char *code)
{
	char suffix[64], path[160];
	if (verb)
		snprintf(suffix, sizeof suffix, "/trades/%d/%s", trade, verb);
	else
		snprintf(suffix, sizeof suffix, "/trades/%d", trade);
	http_game_path(game, suffix, path, sizeof path);
	struct http_state before;
	if (code)
		http_state_capture(&http_fixture.checked, game, &before);
	struct http_response response;
	http_call(&http_fixture.checked, method, path, game->tokens[seat], body, NULL, &response);
	ck_assert_msg(response.status == status, "seat %d %s %s: expected %ld %s, got %s", seat, method, path, status,
		      code ? code : "", http_describe(&response));
	if (code) {
		http_assert_problem(&response, status, code);
		http_state_assert_unchanged(&http_fixture.checked, game, &before);
		http_state_free(&before);
	}
	http_response_free(&response);
}

static json_t *open_trades(const struct http_game *game)
{
	char path[160];
	json_t *body = http_get_ok(&http_fixture.checked, http_game_path(game, "/trades", path, sizeof path), NULL);
	json_t *trades = json_incref(json_object_get(body, "trades"));
	json_decref(body);
	return trades;
}

START_TEST(test_an_accepted_offer_confirmed_exchanges_the_cards)
{
	struct http_game game;
	int give, want;
	game_in_main_phase(&game, 1, &give, &want);
	int before0[RESOURCE_COUNT], before1[RESOURCE_COUNT], before2[RESOURCE_COUNT];
	hand_of(&game, 0, before0);
	hand_of(&game, 1, before1);
	hand_of(&game, 2, before2);
	long version = http_game_version(&http_fixture.checked, &game);
	char body[160];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}, \"to\": [1]}", resource_names[give],
		 resource_names[want]);
	int trade = offer(&game, 0, body);
	json_t *trades = open_trades(&game);
	ck_assert_int_eq(json_array_size(trades), 1);
	json_t *open = json_array_get(trades, 0);
	ck_assert_int_eq(json_integer_value(json_object_get(open, "id")), trade);
	ck_assert_int_eq(json_integer_value(json_object_get(open, "from")), 0);
	ck_assert_int_eq(json_array_size(json_object_get(open, "to")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(open, "give"), resource_names[give])), 1);
	json_decref(trades);

	answer(&game, "POST", 2, trade, "accept", NULL, 422, "trade_not_addressed");
	answer(&game, "POST", 0, trade, "confirm", "{\"with\": 1}", 422, "trade_not_accepted");
	answer(&game, "POST", 1, trade, "accept", "{\"with\": 0}", 400, "unknown_field");
	answer(&game, "POST", 1, trade, "accept", NULL, 200, NULL);
	trades = open_trades(&game);
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(json_array_get(trades, 0), "accepted"), 0)),
			 1);
	json_decref(trades);
	answer(&game, "POST", 1, trade, "confirm", "{\"with\": 1}", 422, "not_your_turn");
	answer(&game, "POST", 0, trade, "confirm", "{\"with\": 1}", 200, NULL);

	int after0[RESOURCE_COUNT], after1[RESOURCE_COUNT], after2[RESOURCE_COUNT];
	hand_of(&game, 0, after0);
	hand_of(&game, 1, after1);
	hand_of(&game, 2, after2);
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		int delta = (r == want) - (r == give);
		ck_assert_int_eq(after0[r], before0[r] + delta);
		ck_assert_int_eq(after1[r], before1[r] - delta);
		ck_assert_int_eq(after2[r], before2[r]);
	}
	trades = open_trades(&game);
	ck_assert_int_eq(json_array_size(trades), 0);
	json_decref(trades);
	answer(&game, "POST", 0, trade, "confirm", "{\"with\": 1}", 404, "trade_not_found");
	/* The log tells the negotiation. */
	char path[160];
	snprintf(path, sizeof path, "%s/moves?after=%ld", game.path, version);
	json_t *log = http_get_ok(&http_fixture.checked, path, NULL);
	static const char *const expected[] = {"trade_offered", "trade_accepted", "trade_completed"};
	json_t *events = json_object_get(log, "events");
	ck_assert_int_eq(json_array_size(events), 3);
	for (size_t i = 0; i < 3; i++)
		ck_assert_str_eq(json_string_value(json_object_get(json_array_get(events, i), "type")), expected[i]);
	json_t *completed = json_array_get(events, 2);
	ck_assert_int_eq(json_integer_value(json_object_get(completed, "with")), 1);
	json_decref(log);
}
END_TEST

START_TEST(test_declines_withdrawals_and_the_end_of_the_turn_close_offers)
{
	struct http_game game;
	int give, want;
	game_in_main_phase(&game, 1, &give, &want);
	char body[160];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}}", resource_names[give],
		 resource_names[want]);
	int trade = offer(&game, 0, body);
	answer(&game, "POST", 1, trade, "decline", NULL, 200, NULL);
	answer(&game, "POST", 1, trade, "decline", NULL, 422, "trade_already_answered");
	answer(&game, "DELETE", 2, trade, NULL, NULL, 422, "trade_not_yours");
	answer(&game, "POST", 2, trade, "decline", "{\"reason\": \"no\"}", 400, "unknown_field");
	answer(&game, "DELETE", 0, trade, NULL, NULL, 200, NULL);
	answer(&game, "POST", 2, trade, "accept", NULL, 404, "trade_not_found");
	answer(&game, "DELETE", 0, trade, NULL, NULL, 404, "trade_not_found");
	json_t *trades = open_trades(&game);
	ck_assert_int_eq(json_array_size(trades), 0);
	json_decref(trades);

	/* An offer left open dies with the turn. */
	trade = offer(&game, 0, body);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"end_turn\"}");
	trades = open_trades(&game);
	ck_assert_int_eq(json_array_size(trades), 0);
	json_decref(trades);
	answer(&game, "POST", 1, trade, "accept", NULL, 404, "trade_not_found");
}
END_TEST

START_TEST(test_a_counter_offer_is_completed_by_the_active_player)
{
	struct http_game game;
	int give, want;
	game_in_main_phase(&game, 1, &give, &want);
	char body[200];
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 2}}", resource_names[give],
		 resource_names[want]);
	int trade = offer(&game, 0, body);
	/* Seat 1 answers with its own terms: one card for one. */
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}, \"counter_to\": %d}",
		 resource_names[want], resource_names[give], trade);
	int before0[RESOURCE_COUNT], before1[RESOURCE_COUNT];
	hand_of(&game, 0, before0);
	hand_of(&game, 1, before1);
	int counter = offer(&game, 1, body);
	ck_assert_int_ne(counter, trade);
	json_t *trades = open_trades(&game);
	ck_assert_int_eq(json_array_size(trades), 2);
	size_t index;
	json_t *open;
	json_array_foreach(trades, index, open) if (json_integer_value(json_object_get(open, "id")) == counter)
		ck_assert_int_eq(json_integer_value(json_object_get(open, "counter_to")), trade);
	json_decref(trades);
	/* Inactive seats trade only with the active player. */
	struct http_state before;
	http_state_capture(&http_fixture.checked, &game, &before);
	char path[160];
	struct http_response response;
	snprintf(body, sizeof body, "{\"give\": {\"%s\": 1}, \"want\": {\"%s\": 1}, \"to\": [2]}", resource_names[want],
		 resource_names[give]);
	http_call(&http_fixture.checked, "POST", http_game_path(&game, "/trades", path, sizeof path), game.tokens[1],
		  body, NULL, &response);
	http_assert_problem(&response, 422, "inactive_players_cannot_trade");
	http_response_free(&response);
	/* A trade body does not name its move type. */
	http_call(&http_fixture.checked, "POST", path, game.tokens[0],
		  "{\"type\": \"offer_trade\", \"give\": {\"ore\": 1}}", NULL, &response);
	http_assert_problem(&response, 400, "unknown_field");
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	http_state_free(&before);

	answer(&game, "POST", 0, counter, "confirm", NULL, 200, NULL);
	int after0[RESOURCE_COUNT], after1[RESOURCE_COUNT];
	hand_of(&game, 0, after0);
	hand_of(&game, 1, after1);
	for (int r = 0; r < RESOURCE_COUNT; r++) {
		int delta = (r == want) - (r == give);
		ck_assert_int_eq(after0[r], before0[r] + delta);
		ck_assert_int_eq(after1[r], before1[r] - delta);
	}
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_trades");
	TCase *trades = tcase_create("trades");
	http_fixture_add(trades, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(trades, 60);
	tcase_add_test(trades, test_an_accepted_offer_confirmed_exchanges_the_cards);
	tcase_add_test(trades, test_declines_withdrawals_and_the_end_of_the_turn_close_offers);
	tcase_add_test(trades, test_a_counter_offer_is_completed_by_the_active_player);
	suite_add_tcase(suite, trades);
	return suite;
}
