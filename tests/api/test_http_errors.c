/*
 * test_http_errors.c - every error class of the contract, over HTTP, each answered as a
 * complete problem+json (type, title, status, detail, code) and each leaving the game as
 * it was: same version, same view for the spectator and every seat.
 *
 * Requests go through a Prism proxy that forwards even requests breaking the spec
 * (--validate-request=false) and validates every response, so the problems themselves are
 * checked against openapi/openapi.yaml. What the spec cannot route (an unknown path, a
 * method it does not list) goes to the server directly. 429 and 409 need servers and
 * databases of their own making; 503 stops the test cluster and starts it again.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

/* Beginner board, the preset opening (start: fixed), manual dice, seat 0 first: turn 1, seat 0 to roll. */
#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

/* Send a request that must be refused with (status, code) and change nothing. */
static void expect_refusal(struct http_client *client, const struct http_game *game, const char *method,
			   const char *path, const char *token, const char *body, const char *const *headers,
			   long status, const char *code)
{
	struct http_state before;
	http_state_capture(&http_fixture.checked, game, &before);
	struct http_response response;
	http_call(client, method, path, token, body, headers, &response);
	ck_assert_msg(response.status == status, "%s %s %.200s: expected %ld %s, got %s", method, path,
		      body ? body : "", status, code, http_describe(&response));
	http_assert_problem(&response, status, code);
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.checked, game, &before);
	http_state_free(&before);
}

static void expect_move_refusal(const struct http_game *game, int seat, const char *body, long status, const char *code)
{
	char path[128];
	/* Prism answers bodies that are not JSON itself, and forwards a body with a duplicate
	 * member as it parsed it: those go straight to the server. */
	json_t *parsed = json_loads(body, JSON_REJECT_DUPLICATES, NULL);
	struct http_client *client = parsed ? &http_fixture.checked : &http_fixture.direct;
	json_decref(parsed);
	expect_refusal(client, game, "POST", http_game_path(game, "/moves", path, sizeof path),
		       seat >= 0 ? game->tokens[seat] : NULL, body, NULL, status, code);
}

/* ---- 400 ---- */

START_TEST(test_malformed_bodies_are_400_and_change_nothing)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	expect_move_refusal(&game, 0, "{\"type\": \"roll\",", 400, "invalid_json");
	expect_move_refusal(&game, 0, "[\"roll\"]", 400, "invalid_json");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"type\": \"end_turn\"}", 400, "invalid_json");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"dice\": [3, 4], \"colour\": \"red\"}", 400,
			    "unknown_field");
	expect_move_refusal(&game, 0, "{\"dice\": [3, 4]}", 400, "missing_field");
	expect_move_refusal(&game, 0, "{\"type\": \"fly\"}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"build_settlement\", \"node\": 54}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"build_road\", \"edge\": -1}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"move_robber\", \"hex\": 19}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"build_settlement\", \"node\": \"five\"}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": 7}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"dice\": [3, 9]}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"dice\": \"3,4\"}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"discard\", \"resources\": {\"gold\": 1}}", 400, "unknown_field");
	expect_move_refusal(&game, 0, "{\"type\": \"play_monopoly\", \"resource\": \"gold\"}", 400, "invalid_field");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"dice\": [3, 4], \"seat\": \"zero\"}", 400,
			    "invalid_field");
	/* An empty body is not a move. */
	expect_move_refusal(&game, 0, "", 400, "invalid_json");

	/* Query parameters and game creation. */
	char path[128];
	expect_refusal(&http_fixture.checked, &game, "GET", http_game_path(&game, "/moves?after=-1", path, sizeof path),
		       NULL, NULL, NULL, 400, "invalid_field");
	expect_refusal(&http_fixture.checked, &game, "GET",
		       http_game_path(&game, "/moves?limit=abc", path, sizeof path), NULL, NULL, NULL, 400,
		       "invalid_field");
	expect_refusal(&http_fixture.checked, &game, "GET",
		       http_game_path(&game, "/moves?wait=3600", path, sizeof path), NULL, NULL, NULL, 400,
		       "invalid_field");
	static const struct {
		const char *body, *code;
	} creates[] = {
		{"{\"seats\": 5}", "invalid_field"},
		{"{\"seats\": \"three\"}", "invalid_field"},
		{"{\"seats\": 3, \"colour\": \"red\"}", "unknown_field"},
		{"{\"seats\": 3, \"options\": {\"layout\": \"square\"}}", "invalid_field"},
		{"{\"seats\": 3, \"options\": {\"speed\": 2}}", "unknown_field"},
		{"{\"options\": {}}", "missing_field"},
		{"{\"players\": [{\"name\": \"\"}, {}, {}]}", "invalid_field"},
		{"{\"seats\": 3, \"players\": [{}, {}, {}]}", "invalid_field"},
		{"{\"seats\": 3", "invalid_json"},
	};
	for (size_t i = 0; i < sizeof creates / sizeof creates[0]; i++) {
		struct http_response response;
		json_t *parsed = json_loads(creates[i].body, 0, NULL);
		http_call(parsed ? &http_fixture.checked : &http_fixture.direct, "POST", "/v1/games", NULL,
			  creates[i].body, NULL, &response);
		json_decref(parsed);
		ck_assert_msg(response.status == 400, "create %s: %s", creates[i].body, http_describe(&response));
		http_assert_problem(&response, 400, creates[i].code);
		http_response_free(&response);
	}
}
END_TEST

/* ---- 401 and 403 ---- */

START_TEST(test_tokens_that_cannot_act_are_401_or_403_and_change_nothing)
{
	struct http_game game, other;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	http_game_create(&http_fixture.checked, 3, FIXED_START, &other);
	const char *roll = "{\"type\": \"roll\", \"dice\": [3, 4]}";
	char path[128];
	http_game_path(&game, "/moves", path, sizeof path);
	/* Prism answers a request without the security the spec requires itself. */
	expect_refusal(&http_fixture.direct, &game, "POST", path, NULL, roll, NULL, 401, "missing_token");
	expect_refusal(&http_fixture.checked, &game, "POST", path, "st_thisTokenWasNeverIssuedByTheServer000000000",
		       roll, NULL, 401, "unknown_token");
	expect_refusal(&http_fixture.checked, &game, "POST", path, other.tokens[0], roll, NULL, 401, "unknown_token");
	expect_refusal(&http_fixture.checked, &game, "POST", path, other.admin_token, roll, NULL, 401, "unknown_token");
	static const char *const basic[] = {"Authorization: Basic dXNlcjpwYXNz", NULL};
	expect_refusal(&http_fixture.direct, &game, "POST", path, NULL, roll, basic, 401, "unknown_token");
	/* Reads with a bad token are refused too, rather than served as a spectator. */
	expect_refusal(&http_fixture.checked, &game, "GET", game.path, other.tokens[1], NULL, NULL, 401,
		       "unknown_token");

	expect_refusal(&http_fixture.checked, &game, "POST", path, game.admin_token, roll, NULL, 403,
		       "seat_token_required");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"dice\": [3, 4], \"seat\": 1}", 403, "seat_mismatch");
	/* Seat 1 cannot act for seat 0 by naming it either. */
	expect_move_refusal(&game, 1, "{\"type\": \"roll\", \"dice\": [3, 4], \"seat\": 0}", 403, "seat_mismatch");
	/* Trades need a seat token as well. */
	expect_refusal(&http_fixture.direct, &game, "POST", http_game_path(&game, "/trades", path, sizeof path), NULL,
		       "{\"give\": {\"wool\": 1}, \"want\": {\"ore\": 1}}", NULL, 401, "missing_token");
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.admin_token,
		       "{\"give\": {\"wool\": 1}, \"want\": {\"ore\": 1}}", NULL, 403, "seat_token_required");
	/* The right seat naming itself is fine. */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 2], \"seat\": 0}");
}
END_TEST

/* ---- 404 and 405 ---- */

START_TEST(test_unknown_things_are_404_and_wrong_methods_405_with_allow)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_response response;
	static const char *const missing_games[] = {"/v1/games/0000000000000001", "/v1/games/7fffffffffffffff/board",
						    "/v1/games/NOT-AN-ID", "/v1/games/00000000000000001",
						    "/v1/games/ABCDEF0123456789/actions"};
	for (size_t i = 0; i < sizeof missing_games / sizeof missing_games[0]; i++) {
		http_call(&http_fixture.checked, "GET", missing_games[i], NULL, NULL, NULL, &response);
		http_assert_problem(&response, 404, "game_not_found");
		http_response_free(&response);
	}
	http_call(&http_fixture.checked, "POST", "/v1/games/0000000000000001/moves", game.tokens[0],
		  "{\"type\": \"end_turn\"}", NULL, &response);
	http_assert_problem(&response, 404, "game_not_found");
	http_response_free(&response);

	char path[128];
	expect_refusal(&http_fixture.direct, &game, "GET", "/v1/nothing-here", NULL, NULL, NULL, 404,
		       "route_not_found");
	expect_refusal(&http_fixture.direct, &game, "GET", http_game_path(&game, "/cards", path, sizeof path), NULL,
		       NULL, NULL, 404, "route_not_found");
	expect_refusal(&http_fixture.checked, &game, "POST",
		       http_game_path(&game, "/trades/99/accept", path, sizeof path), game.tokens[1], NULL, NULL, 404,
		       "trade_not_found");
	expect_refusal(&http_fixture.checked, &game, "POST",
		       http_game_path(&game, "/trades/0/decline", path, sizeof path), game.tokens[1], NULL, NULL, 404,
		       "trade_not_found");
	expect_refusal(&http_fixture.direct, &game, "DELETE", http_game_path(&game, "/trades/abc", path, sizeof path),
		       game.tokens[0], NULL, NULL, 404, "trade_not_found");

	static const struct {
		const char *method, *suffix, *allow;
	} wrong[] = {
		{"DELETE", "", "GET, HEAD"},
		{"PUT", "/moves", "GET, HEAD, POST"},
		{"PATCH", "/board", "GET, HEAD"},
		{"GET", "/trades/1/accept", "POST"},
	};
	for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
		http_game_path(&game, wrong[i].suffix, path, sizeof path);
		struct http_state before;
		http_state_capture(&http_fixture.checked, &game, &before);
		http_call(&http_fixture.direct, wrong[i].method, path, game.tokens[0], NULL, NULL, &response);
		http_assert_problem(&response, 405, "method_not_allowed");
		char allow[64];
		ck_assert_msg(http_response_header(&response, "Allow", allow, sizeof allow) != NULL, "%s %s: no Allow",
			      wrong[i].method, path);
		ck_assert_msg(strcmp(allow, wrong[i].allow) == 0, "%s %s: Allow: %s, expected %s", wrong[i].method,
			      path, allow, wrong[i].allow);
		http_response_free(&response);
		http_state_assert_unchanged(&http_fixture.checked, &game, &before);
		http_state_free(&before);
	}
	http_call(&http_fixture.direct, "PUT", "/v1/games", NULL, "{}", NULL, &response);
	http_assert_problem(&response, 405, "method_not_allowed");
	char allow[64];
	/* POST creates a game, GET lists the lobby (api/handlers_lobby.c). */
	ck_assert_str_eq(http_response_header(&response, "Allow", allow, sizeof allow), "GET, HEAD, POST");
	http_response_free(&response);
}
END_TEST

/* ---- 412 ---- */

START_TEST(test_if_match_with_an_old_version_is_412_and_the_current_one_applies)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	long version = http_game_version(&http_fixture.checked, &game);
	char stale[64], current[64];
	snprintf(stale, sizeof stale, "If-Match: \"%ld\"", version - 1);
	const char *stale_headers[] = {stale, NULL};
	char path[128];
	http_game_path(&game, "/moves", path, sizeof path);
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0],
		       "{\"type\": \"roll\", \"dice\": [1, 2]}", stale_headers, 412, "precondition_failed");
	/* The problem says which version the game is at. */
	struct http_response response;
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], "{\"type\": \"roll\", \"dice\": [1, 2]}",
		  stale_headers, &response);
	http_assert_problem(&response, 412, "precondition_failed");
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")), version);
	http_response_free(&response);
	static const char *const malformed[] = {"If-Match: yesterday", NULL};
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0],
		       "{\"type\": \"roll\", \"dice\": [1, 2]}", malformed, 400, "invalid_field");

	snprintf(current, sizeof current, "If-Match: \"%ld\"", version);
	const char *current_headers[] = {current, NULL};
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], "{\"type\": \"roll\", \"dice\": [1, 2]}",
		  current_headers, &response);
	ck_assert_msg(response.status == 201, "If-Match with the current version: %s", http_describe(&response));
	long after = (long)json_integer_value(json_object_get(response.json, "version"));
	ck_assert_int_gt(after, version);
	http_response_free(&response);
	/* The same pinned request again is now stale. */
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0], "{\"type\": \"end_turn\"}",
		       current_headers, 412, "precondition_failed");
	/* If-Match compares strongly (RFC 9110): a weak tag never matches, and a version must
	 * be digits in quotes, nothing else. */
	char weak[64];
	snprintf(weak, sizeof weak, "If-Match: W/\"%ld\"", after);
	const char *weak_headers[] = {weak, NULL};
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0], "{\"type\": \"end_turn\"}",
		       weak_headers, 412, "precondition_failed");
	char signed_version[64], spaced_version[64], bare_version[64];
	snprintf(signed_version, sizeof signed_version, "If-Match: \"+%ld\"", after);
	snprintf(spaced_version, sizeof spaced_version, "If-Match: \" %ld\"", after);
	snprintf(bare_version, sizeof bare_version, "If-Match: %ld", after);
	const char *const odd[] = {signed_version, spaced_version, bare_version};
	for (int i = 0; i < 3; i++) {
		const char *odd_headers[] = {odd[i], NULL};
		expect_refusal(&http_fixture.direct, &game, "POST", path, game.tokens[0], "{\"type\": \"end_turn\"}",
			       odd_headers, 400, "invalid_field");
	}
	const char *any_headers[] = {"If-Match: *", NULL};
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], "{\"type\": \"end_turn\"}", any_headers,
		  &response);
	ck_assert_msg(response.status == 201, "If-Match: *: %s", http_describe(&response));
	http_response_free(&response);
}
END_TEST

/* ---- 413 and 415 ---- */

START_TEST(test_bodies_over_16_kib_are_413_with_length_or_chunked)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	/* A valid JSON object, only too large (one long string, which survives Prism's
	 * re-encoding of the body). */
	size_t size = 17 * 1024;
	char *body = malloc(size + 1);
	ck_assert(body != NULL);
	memset(body, 'a', size);
	const char *head = "{\"type\": \"end_turn\", \"note\": \"";
	memcpy(body, head, strlen(head));
	memcpy(body + size - 2, "\"}", 2);
	body[size] = '\0';
	char path[128];
	http_game_path(&game, "/moves", path, sizeof path);
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0], body, NULL, 413, "body_too_large");
	static const char *const chunked[] = {"Transfer-Encoding: chunked", NULL};
	expect_refusal(&http_fixture.direct, &game, "POST", path, game.tokens[0], body, chunked, 413, "body_too_large");
	expect_refusal(&http_fixture.direct, &game, "POST", "/v1/games", NULL, body, chunked, 413, "body_too_large");
	/* At the limit, the same body is read (and refused for what it says). */
	memcpy(body + 16 * 1024 - 2, "\"}", 3);
	ck_assert_int_eq(strlen(body), 16 * 1024);
	expect_refusal(&http_fixture.direct, &game, "POST", path, game.tokens[0], body, chunked, 400, "unknown_field");
	expect_refusal(&http_fixture.direct, &game, "POST", path, game.tokens[0], body, NULL, 400, "unknown_field");
	free(body);
}
END_TEST

START_TEST(test_a_body_that_is_not_json_is_415)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	char path[128];
	http_game_path(&game, "/moves", path, sizeof path);
	static const char *const text[] = {"Content-Type: text/plain", NULL};
	static const char *const form[] = {"Content-Type: application/x-www-form-urlencoded", NULL};
	static const char *const lookalike[] = {"Content-Type: application/jsonp", NULL};
	const char *roll = "{\"type\": \"roll\", \"dice\": [3, 4]}";
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0], roll, text, 415,
		       "unsupported_media_type");
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0], roll, form, 415,
		       "unsupported_media_type");
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0], roll, lookalike, 415,
		       "unsupported_media_type");
	expect_refusal(&http_fixture.checked, &game, "POST", "/v1/games", NULL, "{\"seats\": 3}", text, 415,
		       "unsupported_media_type");
	/* With a charset parameter it is JSON. */
	static const char *const charset[] = {"Content-Type: application/json; charset=utf-8", NULL};
	struct http_response response;
	http_call(&http_fixture.checked, "POST", path, game.tokens[0], roll, charset, &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	http_response_free(&response);
}
END_TEST

/* ---- 422 ---- */

/* The first node of the board's list adjacent to `node`. */
static int neighbour_of(struct http_client *client, const struct http_game *game, int node)
{
	char path[128];
	json_t *board = http_get_ok(client, http_game_path(game, "/board", path, sizeof path), NULL);
	json_t *nodes = json_object_get(board, "nodes");
	int found = -1;
	size_t index;
	json_t *entry;
	json_array_foreach(nodes, index, entry)
	{
		if (json_integer_value(json_object_get(entry, "id")) == node)
			found = (int)json_integer_value(json_array_get(json_object_get(entry, "neighbors"), 0));
	}
	json_decref(board);
	ck_assert_msg(found >= 0, "node %d has neighbours", node);
	return found;
}

START_TEST(test_rule_refusals_during_setup_are_422_with_the_rule)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, "{\"layout\": \"beginner\", \"first_seat\": 0}", &game);
	expect_move_refusal(&game, 1, "{\"type\": \"build_settlement\", \"node\": 10}", 422, "not_your_turn");
	expect_move_refusal(&game, 0, "{\"type\": \"build_road\", \"edge\": 3}", 422, "setup_settlement_expected");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\"}", 422, "not_during_setup");
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"build_settlement\", \"node\": 10}");
	expect_move_refusal(&game, 0, "{\"type\": \"build_settlement\", \"node\": 20}", 422, "setup_road_expected");
	expect_move_refusal(&game, 0, "{\"type\": \"build_road\", \"edge\": 70}", 422, "setup_road_not_touching");
	/* Seat 0's road, then seat 1 tries next to seat 0's settlement. */
	char path[128];
	json_t *actions = http_get_ok(&http_fixture.checked, http_game_path(&game, "/actions", path, sizeof path),
				      game.tokens[0]);
	json_t *road = json_array_get(json_object_get(actions, "actions"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(road, "type")), "build_road");
	char *road_text = json_dumps(road, JSON_COMPACT);
	http_post_move_ok(&http_fixture.checked, &game, 0, road_text);
	free(road_text);
	json_decref(actions);
	char body[96];
	snprintf(body, sizeof body, "{\"type\": \"build_settlement\", \"node\": %d}",
		 neighbour_of(&http_fixture.checked, &game, 10));
	expect_move_refusal(&game, 1, body, 422, "distance_rule");
	expect_move_refusal(&game, 1, "{\"type\": \"build_settlement\", \"node\": 10}", 422, "node_occupied");
}
END_TEST

START_TEST(test_rule_refusals_of_a_turn_are_422_with_the_rule)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	expect_move_refusal(&game, 1, "{\"type\": \"roll\", \"dice\": [3, 4]}", 422, "not_your_turn");
	expect_move_refusal(&game, 0, "{\"type\": \"end_turn\"}", 422, "must_roll_first");
	expect_move_refusal(&game, 0, "{\"type\": \"buy_development_card\"}", 422, "must_roll_first");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\"}", 422, "dice_required");
	expect_move_refusal(&game, 0, "{\"type\": \"play_monopoly\", \"resource\": \"ore\"}", 422,
			    "no_development_card");
	/* A 7: nobody holds more than 7 cards after the fixed start, so the robber moves. */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}");
	expect_move_refusal(&game, 0, "{\"type\": \"end_turn\"}", 422, "robber_must_move");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}", 422, "already_rolled");
	expect_move_refusal(&game, 0, "{\"type\": \"discard\", \"resources\": {\"ore\": 1}}", 422, "no_discard_owed");
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	int robber = (int)json_integer_value(json_object_get(view, "robber"));
	json_t *buildings = json_object_get(view, "buildings");
	int own_node = -1;
	size_t index;
	json_t *building;
	json_array_foreach(buildings, index,
			   building) if (json_integer_value(json_object_get(building, "seat")) == 0 && own_node < 0)
		own_node = (int)json_integer_value(json_object_get(building, "node"));
	json_decref(view);
	char body[128];
	snprintf(body, sizeof body, "{\"type\": \"move_robber\", \"hex\": %d, \"victim\": null}", robber);
	expect_move_refusal(&game, 0, body, 422, "robber_same_hex");
	expect_move_refusal(&game, 1, "{\"type\": \"move_robber\", \"hex\": 0, \"victim\": 2}", 422, "not_your_turn");
	/* Move the robber as the actions list it, then refusals of the main phase. */
	char path[128];
	json_t *actions = http_get_ok(&http_fixture.checked, http_game_path(&game, "/actions", path, sizeof path),
				      game.tokens[0]);
	char *move_text = json_dumps(json_array_get(json_object_get(actions, "actions"), 0), JSON_COMPACT);
	json_decref(actions);
	http_post_move_ok(&http_fixture.checked, &game, 0, move_text);
	free(move_text);
	snprintf(body, sizeof body, "{\"type\": \"build_city\", \"node\": %d}", own_node);
	expect_move_refusal(&game, 0, body, 422, "insufficient_resources");
	expect_move_refusal(&game, 0, "{\"type\": \"build_city\", \"node\": 0}", 422, "not_your_settlement");
	expect_move_refusal(&game, 0, "{\"type\": \"maritime_trade\", \"give\": {\"ore\": 1}, \"get\": {\"wool\": 1}}",
			    422, "maritime_rate");
	expect_move_refusal(&game, 0, "{\"type\": \"play_knight\", \"hex\": 0, \"victim\": null}", 422,
			    "no_development_card");
	expect_move_refusal(&game, 1, "{\"type\": \"end_turn\"}", 422, "not_your_turn");
	expect_refusal(&http_fixture.checked, &game, "POST", http_game_path(&game, "/trades", path, sizeof path),
		       game.tokens[0], "{\"give\": {\"ore\": 1}, \"want\": {\"ore\": 1}}", NULL, 422, "same_resource");
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0],
		       "{\"give\": {}, \"want\": {\"ore\": 1}}", NULL, 422, "trade_empty_side");
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0],
		       "{\"give\": {\"ore\": 9}, \"want\": {\"wool\": 1}}", NULL, 422, "insufficient_resources");
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"end_turn\"}");
	expect_move_refusal(&game, 0, "{\"type\": \"roll\", \"dice\": [1, 1]}", 422, "not_your_turn");
}
END_TEST

/* ---- 409 ---- */

/* A conflict on every append (an injected unique violation on events_pkey, as a writer
 * that always gets there first would cause): the server decides again on the fresh state
 * up to its retry limit, then answers 409 and applies nothing. */
START_TEST(test_a_write_that_keeps_losing_the_race_is_409)
{
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	PGconn *conn = PQconnectdb(getenv("DATABASE_URL"));
	ck_assert_msg(PQstatus(conn) == CONNECTION_OK, "%s", PQerrorMessage(conn));
	char sql[1024];
	int64_t id = (int64_t)strtoull(game.id, NULL, 16);
	snprintf(
		sql, sizeof sql,
		"SET client_min_messages = warning;"
		"CREATE OR REPLACE FUNCTION catan_test_lose_race() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
		"RAISE unique_violation USING MESSAGE = 'injected lost race', CONSTRAINT = 'events_pkey'; END $$;"
		"DROP TRIGGER IF EXISTS catan_test_lose_race_%s ON events;"
		"CREATE TRIGGER catan_test_lose_race_%s BEFORE INSERT ON events FOR EACH ROW WHEN (NEW.game_id = %lld) "
		"EXECUTE FUNCTION catan_test_lose_race();",
		game.id, game.id, (long long)id);
	PGresult *result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(result));
	PQclear(result);

	char path[128];
	http_game_path(&game, "/moves", path, sizeof path);
	expect_refusal(&http_fixture.checked, &game, "POST", path, game.tokens[0],
		       "{\"type\": \"roll\", \"dice\": [2, 3]}", NULL, 409, "version_conflict");

	snprintf(sql, sizeof sql, "DROP TRIGGER catan_test_lose_race_%s ON events", game.id);
	result = PQexec(conn, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_COMMAND_OK, "%s", PQresultErrorMessage(result));
	PQclear(result);
	PQfinish(conn);
	/* The same request once nobody is in the way. */
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [2, 3]}");
}
END_TEST

/* ---- 429 ---- */

START_TEST(test_a_token_over_its_rate_is_429_with_retry_after)
{
	/* Two requests a second per token, a burst of four. The state is read through the
	 * unlimited server on the same database. */
	struct http_server limited;
	const char *settings[] = {"RATE_LIMIT_TOKEN=2", NULL};
	http_server_start(&limited, settings);
	struct http_client client;
	http_client_init(&client, limited.url, 0);
	struct http_game game;
	http_game_create(&client, 3, FIXED_START, &game);
	struct http_state before;
	http_state_capture(&http_fixture.checked, &game, &before);
	int limited_count = 0, first_limited = -1;
	char path[128];
	double started = http_clock();
	for (int i = 0; i < 12; i++) {
		struct http_response response;
		http_call(&client, "GET", http_game_path(&game, "/actions", path, sizeof path), game.tokens[0], NULL,
			  NULL, &response);
		if (response.status == 429) {
			http_assert_problem(&response, 429, "rate_limited");
			char retry[16];
			ck_assert_msg(http_response_header(&response, "Retry-After", retry, sizeof retry) != NULL,
				      "429 without Retry-After");
			ck_assert_int_ge(atoi(retry), 1);
			if (first_limited < 0)
				first_limited = i;
			limited_count++;
		} else {
			ck_assert_msg(response.status == 200, "%s", http_describe(&response));
		}
		http_response_free(&response);
	}
	/* The bucket refills at 2 a second while the burst is sent (a slow sanitizer build). */
	int refilled = (int)(2 * (http_clock() - started));
	ck_assert_msg(first_limited >= 4 && first_limited <= 4 + refilled,
		      "a burst of 4 is allowed, then refused (first refusal: request %d, %d refilled)", first_limited,
		      refilled);
	ck_assert_int_ge(limited_count, 6);
	/* A move over the limit is refused and applies nothing. */
	struct http_response response;
	http_post_move(&client, &game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}", NULL, &response);
	http_assert_problem(&response, 429, "rate_limited");
	http_response_free(&response);
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	/* Other tokens have buckets of their own, and the limit refills. */
	http_post_move(&client, &game, 1, "{\"type\": \"end_turn\"}", NULL, &response);
	http_assert_problem(&response, 422, "not_your_turn");
	http_response_free(&response);
	http_pause(2.1);
	http_post_move_ok(&client, &game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}");
	http_state_free(&before);
	http_client_cleanup(&client);
	ck_assert_int_eq(http_server_stop(&limited, 30), 0);
}
END_TEST

/* ---- 503 ---- */

START_TEST(test_without_the_database_it_is_503_and_it_recovers_by_itself)
{
	if (!http_pg_script()) {
		fprintf(stderr, "test_without_the_database: DATABASE_URL was given from outside; not stopping it\n");
		return;
	}
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, FIXED_START, &game);
	struct http_state before;
	http_state_capture(&http_fixture.checked, &game, &before);
	http_pg_control("stop");
	static const struct {
		const char *method, *suffix;
		int seat;
		const char *body;
	} requests[] = {
		{"GET", "", -1, NULL},
		{"GET", "/actions", 0, NULL},
		{"POST", "/moves", 0, "{\"type\": \"roll\", \"dice\": [3, 4]}"},
		{"GET", "/moves?after=0", 1, NULL},
	};
	for (size_t i = 0; i < sizeof requests / sizeof requests[0]; i++) {
		char path[128];
		struct http_response response;
		http_call(&http_fixture.checked, requests[i].method,
			  http_game_path(&game, requests[i].suffix, path, sizeof path),
			  requests[i].seat >= 0 ? game.tokens[requests[i].seat] : NULL, requests[i].body, NULL,
			  &response);
		http_assert_problem(&response, 503, "database_unavailable");
		char retry[16];
		ck_assert_msg(http_response_header(&response, "Retry-After", retry, sizeof retry) != NULL,
			      "503 without Retry-After: %s %s", requests[i].method, path);
		http_response_free(&response);
	}
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games", NULL, "{\"seats\": 3}", NULL, &response);
	http_assert_problem(&response, 503, "database_unavailable");
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", "/readyz", NULL, NULL, NULL, &response);
	http_assert_problem(&response, 503, "database_unavailable");
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 200);
	http_response_free(&response);

	http_pg_control("start");
	/* No restart of the server: its connections come back on their own. */
	double deadline = http_clock() + 20;
	for (;;) {
		http_call(&http_fixture.checked, "GET", game.path, NULL, NULL, NULL, &response);
		long status = response.status;
		http_response_free(&response);
		if (status == 200)
			break;
		ck_assert_msg(status == 503, "while recovering: %ld", status);
		ck_assert_msg(http_clock() < deadline, "still 503 20 s after the database came back");
		http_pause(0.1);
	}
	/* Every worker thread's connection recovers (several requests land on several). */
	for (int i = 0; i < 16; i++) {
		json_t *view = http_get_ok(&http_fixture.checked, game.path, game.tokens[i % 3]);
		json_decref(view);
	}
	http_state_assert_unchanged(&http_fixture.checked, &game, &before);
	http_state_free(&before);
	http_post_move_ok(&http_fixture.checked, &game, 0, "{\"type\": \"roll\", \"dice\": [3, 4]}");
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_errors");
	TCase *errors = tcase_create("errors");
	http_fixture_add(errors, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(errors, 60);
	tcase_add_test(errors, test_malformed_bodies_are_400_and_change_nothing);
	tcase_add_test(errors, test_tokens_that_cannot_act_are_401_or_403_and_change_nothing);
	tcase_add_test(errors, test_unknown_things_are_404_and_wrong_methods_405_with_allow);
	tcase_add_test(errors, test_if_match_with_an_old_version_is_412_and_the_current_one_applies);
	tcase_add_test(errors, test_bodies_over_16_kib_are_413_with_length_or_chunked);
	tcase_add_test(errors, test_a_body_that_is_not_json_is_415);
	tcase_add_test(errors, test_rule_refusals_during_setup_are_422_with_the_rule);
	tcase_add_test(errors, test_rule_refusals_of_a_turn_are_422_with_the_rule);
	tcase_add_test(errors, test_a_write_that_keeps_losing_the_race_is_409);
	tcase_add_test(errors, test_a_token_over_its_rate_is_429_with_retry_after);
	tcase_add_test(errors, test_without_the_database_it_is_503_and_it_recovers_by_itself);
	suite_add_tcase(suite, errors);
	return suite;
}
