/*
 * test_http_ratings.c - rated games, resigning, rematches and deleting a player over HTTP
 * (issue 28, items 3 and 4), on two servers of one database, behind Prism.
 *
 * The recompute test is the promise of the ratings: a few rated games between player
 * tokens are played to the end (two seats of each handed to the server's bot, on holiday
 * or resigned, the third played here at random), then every player's rating is computed
 * again here, from the finished games' exports alone (players[].player, the log: the
 * winner, the final points by replaying the log with the engine, the resigned events), in
 * the order the games ended (the last event's created_at, ties by game id), with the
 * formula as the contract writes it, and compared with what GET /v1/players/{id} shows.
 * Both servers run the rating thread, so a result applied twice, or out of order, would
 * show as a count or a value that differs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/log.h"
#include "engine/game.h"
#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define OPTIONS "\"layout\": \"beginner\", \"start\": \"fixed\", \"offer_wait_s\": 0"
#define PLAYERS 4
#define GAMES 3

struct player {
	char id[20];
	char token[64];
};

/* A rated game of `players` (3 of them), created through Prism. */
static void create_rated(struct player *const *players, struct http_game *game)
{
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"player\": \"%s\"}],"
		 " \"options\": {" OPTIONS ", \"rated\": true}}",
		 players[0]->id, players[1]->id, players[2]->id);
	http_game_create_body(&http_fixture.checked, body, game);
}

static void post_ok(const char *path, const char *token, long status, json_t **out)
{
	struct http_response response;
	http_call(&http_fixture.checked, "POST", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == status, "POST %s: %s", path, http_describe(&response));
	if (out)
		*out = json_incref(response.json);
	http_response_free(&response);
}

static void seat_action(const struct http_game *game, int seat, const char *what, const char *token)
{
	char path[256];
	snprintf(path, sizeof path, "%s/seats/%d/%s", game->path, seat, what);
	post_ok(path, token, 200, NULL);
}

/* Seats 1 and 2 go to the bot (away, or resigned when `resign` has their bit), seat 0 is
 * played here until the game ends. */
static void play_out(struct http_game *game, unsigned resign, const struct player *seat_players[3])
{
	for (int s = 1; s < 3; s++)
		seat_action(game, s, (resign >> s & 1u) ? "resign" : "away", seat_players[s]->token);
	game->bots = 0x6;
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, game, http_random64(), 0);
	player.humans = 0x1;
	http_player_finish(&player, 20000);
}

static json_t *profile(const char *id)
{
	char path[512];
	snprintf(path, sizeof path, "/v1/players/%.16s", id);
	return http_get_ok(&http_fixture.checked, path, NULL);
}

/* Wait until the players' rated games add up to `total` (the results are applied after the
 * games end, by whichever server's thread gets there first). */
static void wait_applied(struct player *players, int count, long total)
{
	double until = http_clock() + 60 * http_slowdown();
	for (;;) {
		long sum = 0;
		for (int i = 0; i < count; i++) {
			json_t *body = profile(players[i].id);
			sum += (long)json_integer_value(json_object_get(body, "games"));
			json_decref(body);
		}
		ck_assert_msg(sum <= total, "%ld rated games applied, %ld played: one applied twice", sum, total);
		if (sum == total)
			return;
		ck_assert_msg(http_clock() < until, "%ld of %ld rated results applied after a minute", sum, total);
		http_pause(0.1);
	}
}

/* ---- The recompute, from the exports only --------------------------------------------- */

struct finished {
	char id[20];
	char ended_at[64];
	int seats;
	char players[GAME_MAX_SEATS][24];
	int ranks[GAME_MAX_SEATS];
	int winner; /* -1 when the winner resigned */
};

static int by_end(const void *a, const void *b)
{
	const struct finished *x = a, *y = b;
	int order = strcmp(x->ended_at, y->ended_at);
	return order ? order : strcmp(x->id, y->id);
}

/* The contract's ranks: a resigned seat last, the winner first, the others by points. */
static void read_export(const char *id, struct finished *out)
{
	char path[512];
	snprintf(path, sizeof path, "/v1/games/%.16s/export", id);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	json_t *body = response.json;
	ck_assert(json_is_true(json_object_get(body, "finished")));
	ck_assert(json_is_true(json_object_get(json_object_get(body, "options"), "rated")));
	memset(out, 0, sizeof *out);
	ck_assert(strlen(id) < sizeof out->id);
	memcpy(out->id, id, strlen(id) + 1);
	json_t *players = json_object_get(body, "players");
	out->seats = (int)json_array_size(players);
	for (int s = 0; s < out->seats; s++) {
		const char *player = json_string_value(json_object_get(json_array_get(players, s), "player"));
		ck_assert_msg(player != NULL, "a rated game's seat %d has a player in its export", s);
		ck_assert(strlen(player) == 16);
		memcpy(out->players[s], player, 17);
	}
	json_t *events = json_object_get(body, "events");
	json_t *last = json_array_get(events, json_array_size(events) - 1);
	ck_assert_str_eq(json_string_value(json_object_get(last, "type")), "game_won");
	const char *ended = json_string_value(json_object_get(last, "created_at"));
	ck_assert(ended && strlen(ended) < sizeof out->ended_at);
	memcpy(out->ended_at, ended, strlen(ended) + 1);
	unsigned resigned = 0;
	for (size_t i = 0; i < json_array_size(events); i++) {
		json_t *event = json_array_get(events, i);
		if (strcmp(json_string_value(json_object_get(event, "type")), "resigned") == 0)
			resigned |= 1u << json_integer_value(json_object_get(event, "seat"));
	}
	struct game state;
	char message[256];
	ck_assert_msg(codec_replay_log(response.body, response.body_length, &state, message, sizeof message),
		      "the export replays: %s", message);
	ck_assert_int_eq(state.phase, GAME_PHASE_FINISHED);
	int keys[GAME_MAX_SEATS];
	for (int s = 0; s < out->seats; s++)
		keys[s] = (resigned >> s & 1u) ? -1 : s == state.winner ? 1000 : game_total_points(&state, s);
	for (int s = 0; s < out->seats; s++) {
		out->ranks[s] = 1;
		for (int t = 0; t < out->seats; t++)
			out->ranks[s] += keys[t] > keys[s];
	}
	out->winner = (resigned >> state.winner & 1u) ? -1 : state.winner;
	http_response_free(&response);
}

struct rated {
	char id[24];
	double rating;
	int games, wins;
};

static struct rated *rated_of(struct rated *table, int *count, const char *id)
{
	for (int i = 0; i < *count; i++)
		if (strcmp(table[i].id, id) == 0)
			return &table[i];
	struct rated *fresh = &table[(*count)++];
	memset(fresh, 0, sizeof *fresh);
	snprintf(fresh->id, sizeof fresh->id, "%s", id);
	fresh->rating = 1200.0;
	return fresh;
}

/* Every finished rated game in the order they ended, by the contract's formula. */
static void recompute(struct finished *games, int count, struct rated *table, int *players)
{
	qsort(games, (size_t)count, sizeof *games, by_end);
	*players = 0;
	for (int g = 0; g < count; g++) {
		const struct finished *game = &games[g];
		int n = game->seats;
		double before[GAME_MAX_SEATS];
		struct rated *who[GAME_MAX_SEATS];
		for (int i = 0; i < n; i++) {
			who[i] = rated_of(table, players, game->players[i]);
			before[i] = who[i]->rating;
		}
		for (int i = 0; i < n; i++) {
			double sum = 0;
			for (int j = 0; j < n; j++) {
				if (j == i)
					continue;
				double score = game->ranks[i] < game->ranks[j]	  ? 1.0
					       : game->ranks[i] == game->ranks[j] ? 0.5
										  : 0.0;
				sum += score - 1.0 / (1.0 + pow(10.0, (before[j] - before[i]) / 400.0));
			}
			double k = who[i]->games < 10 ? 40.0 : 32.0;
			who[i]->rating = before[i] + k / (n - 1) * sum;
		}
		for (int i = 0; i < n; i++) {
			who[i]->games++;
			who[i]->wins += i == game->winner;
		}
	}
}

START_TEST(test_ratings_recomputed_from_the_exports_in_the_order_games_ended_are_the_stored_ones)
{
	struct player players[PLAYERS];
	for (int i = 0; i < PLAYERS; i++) {
		char name[32];
		snprintf(name, sizeof name, "Rated %d", i + 1);
		http_player_create(&http_fixture.checked, name, players[i].id, players[i].token);
	}
	struct http_game games[GAMES];
	for (int g = 0; g < GAMES; g++) {
		const struct player *seats[3];
		struct player *pointers[3];
		for (int s = 0; s < 3; s++) {
			pointers[s] = &players[(g + s) % PLAYERS];
			seats[s] = pointers[s];
		}
		create_rated(pointers, &games[g]);
		/* The second game has a seat that resigned: last, whatever its bot made. */
		play_out(&games[g], g == 1 ? 0x4u : 0u, seats);
	}
	wait_applied(players, PLAYERS, 3L * GAMES);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM rating_results_pending"), 0);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM rating_results"), 3 * GAMES);

	struct finished finished[GAMES];
	for (int g = 0; g < GAMES; g++)
		read_export(games[g].id, &finished[g]);
	ck_assert_int_eq(finished[1].ranks[2], 3); /* the resigned seat is last */
	struct rated table[PLAYERS];
	int count;
	recompute(finished, GAMES, table, &count);
	ck_assert_int_eq(count, PLAYERS);
	double moved = 0;
	for (int i = 0; i < count; i++) {
		json_t *body = profile(table[i].id);
		double stored = json_number_value(json_object_get(body, "rating"));
		ck_assert_msg(fabs(stored - table[i].rating) < 1e-9, "player %s: stored %.12f, recomputed %.12f",
			      table[i].id, stored, table[i].rating);
		ck_assert_int_eq(json_integer_value(json_object_get(body, "games")), table[i].games);
		ck_assert_int_eq(json_integer_value(json_object_get(body, "wins")), table[i].wins);
		moved += fabs(stored - 1200.0);
		/* Only the seat played here made decisions; the bot's count for nothing. */
		json_t *reliability = json_object_get(body, "reliability");
		ck_assert_msg(json_is_null(reliability) || json_number_value(reliability) == 1.0, "reliability %s",
			      json_dumps(body, 0));
		json_decref(body);
	}
	ck_assert_msg(moved > 1.0, "the ratings moved");
}
END_TEST

/* ---- Refusals ------------------------------------------------------------------------- */

static void create_refused(const char *body, long status, const char *code)
{
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games", NULL, body, NULL, &response);
	http_assert_problem(&response, status, code);
	http_response_free(&response);
}

START_TEST(test_a_rated_game_has_only_players_seats_no_bot_and_no_seed)
{
	struct player a, b, c;
	http_player_create(&http_fixture.checked, "Refused A", a.id, a.token);
	http_player_create(&http_fixture.checked, "Refused B", b.id, b.token);
	http_player_create(&http_fixture.checked, "Refused C", c.id, c.token);
	long before = http_sql_number("SELECT count(*) FROM games");
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"name\": \"Bot\", \"bot\": true}],"
		 " \"options\": {\"rated\": true}}",
		 a.id, b.id);
	create_refused(body, 400, "invalid_field");
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"name\": \"Anyone\"}],"
		 " \"options\": {\"rated\": true}}",
		 a.id, b.id);
	create_refused(body, 400, "invalid_field");
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"player\": \"%s\"}, {\"player\": \"%s\"}],"
		 " \"options\": {\"rated\": true, \"seed\": 7}}",
		 a.id, b.id, c.id);
	create_refused(body, 400, "invalid_field");
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM games"), before);

	/* A waiting rated game: its open seats take players only, never a bot. */
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"open\": true}, {\"open\": true}], \"public\": true,"
		 " \"options\": {\"rated\": true}}",
		 a.id);
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201, "%s", http_describe(&response));
	char id[20], invite[64], admin[64], path[128];
	snprintf(id, sizeof id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(admin, sizeof admin, "%s", json_string_value(json_object_get(response.json, "admin_token")));
	snprintf(invite, sizeof invite, "%s",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/games/%s/join", id);
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"Nobody\"}", invite);
	http_call(&http_fixture.checked, "POST", path, NULL, body, NULL, &response);
	http_assert_problem(&response, 403, "player_token_required");
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/games/%s/seats/1/bot", id);
	http_call(&http_fixture.checked, "POST", path, admin, NULL, NULL, &response);
	http_assert_problem(&response, 409, "seat_not_changeable");
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/games/%s/join", id);
	snprintf(body, sizeof body, "{\"invite\": \"%s\"}", invite);
	http_call(&http_fixture.checked, "POST", path, b.token, body, NULL, &response);
	ck_assert_msg(response.status == 200, "%s", http_describe(&response));
	http_response_free(&response);

	/* The lobby's rating band: the game's players are new (1200). */
	json_t *in = http_get_ok(&http_fixture.checked,
				 "/v1/games?status=waiting&rating_min=1100&rating_max=1300&limit=100", NULL);
	json_t *out = http_get_ok(&http_fixture.checked, "/v1/games?status=waiting&rating_min=1300&limit=100", NULL);
	int found_in = 0, found_out = 0;
	for (size_t i = 0; i < json_array_size(json_object_get(in, "games")); i++)
		found_in += strcmp(json_string_value(
					   json_object_get(json_array_get(json_object_get(in, "games"), i), "id")),
				   id) == 0;
	for (size_t i = 0; i < json_array_size(json_object_get(out, "games")); i++)
		found_out += strcmp(json_string_value(
					    json_object_get(json_array_get(json_object_get(out, "games"), i), "id")),
				    id) == 0;
	ck_assert_int_eq(found_in, 1);
	ck_assert_int_eq(found_out, 0);
	json_decref(in);
	json_decref(out);
	http_call(&http_fixture.checked, "GET", "/v1/players/zz", NULL, NULL, NULL, &response);
	http_assert_problem(&response, 404, "player_not_found");
	http_response_free(&response);
}
END_TEST

/* ---- Resigning, rematches ------------------------------------------------------------- */

START_TEST(test_a_resigned_seat_is_a_bot_for_good_and_a_rematch_is_made_once_with_the_same_players)
{
	struct player a, b, c;
	http_player_create(&http_fixture.checked, "Rematch A", a.id, a.token);
	http_player_create(&http_fixture.checked, "Rematch B", b.id, b.token);
	http_player_create(&http_fixture.checked, "Rematch C", c.id, c.token);
	struct player *pointers[3] = {&a, &b, &c};
	const struct player *seats[3] = {&a, &b, &c};
	struct http_game game;
	create_rated(pointers, &game);
	char path[128];
	struct http_response response;
	/* Only the seat resigns itself. */
	snprintf(path, sizeof path, "%s/seats/1/resign", game.path);
	http_call(&http_fixture.checked, "POST", path, game.admin_token, NULL, NULL, &response);
	http_assert_problem(&response, 403, "seat_token_required");
	http_response_free(&response);
	http_call(&http_fixture.checked, "POST", path, c.token, NULL, NULL, &response);
	http_assert_problem(&response, 403, "seat_mismatch");
	http_response_free(&response);
	/* Not before the end. */
	snprintf(path, sizeof path, "%s/rematch", game.path);
	http_call(&http_fixture.checked, "POST", path, a.token, NULL, NULL, &response);
	http_assert_problem(&response, 409, "game_not_finished");
	http_response_free(&response);

	play_out(&game, 0x6u, seats);
	json_t *log = http_game_log(&http_fixture.checked, &game, NULL, 0);
	int resigned = 0;
	for (size_t i = 0; i < json_array_size(log); i++)
		resigned += strcmp(json_string_value(json_object_get(json_array_get(log, i), "type")), "resigned") == 0;
	ck_assert_int_eq(resigned, 2);
	json_decref(log);
	json_t *view = http_get_ok(&http_fixture.checked, game.path, NULL);
	ck_assert(json_is_true(json_object_get(json_array_get(json_object_get(view, "players"), 1), "bot")));
	/* The view says the game is rated (a client offers no substitutes then). */
	ck_assert(json_is_true(json_object_get(json_object_get(view, "options"), "rated")));
	json_decref(view);

	json_t *made = NULL, *again = NULL;
	post_ok(path, b.token, 201, &made);
	post_ok(path, game.admin_token, 200, &again);
	const char *rematch = json_string_value(json_object_get(made, "id"));
	ck_assert_str_eq(json_string_value(json_object_get(again, "id")), rematch);
	ck_assert_str_eq(json_string_value(json_object_get(made, "status")), "started");
	ck_assert(json_is_null(json_object_get(made, "invite")));
	json_t *seat_list = json_object_get(made, "seats");
	for (int s = 0; s < 3; s++) {
		json_t *seat = json_array_get(seat_list, s);
		ck_assert_str_eq(json_string_value(json_object_get(seat, "player")), seats[s]->id);
		ck_assert(json_object_get(seat, "token") == NULL);
	}
	/* Each player's own token acts for its seat of the rematch. */
	snprintf(path, sizeof path, "/v1/games/%s/seats/2/away", rematch);
	post_ok(path, c.token, 200, NULL);
	json_t *mine = http_get_ok(&http_fixture.checked, "/v1/players/me/games", a.token);
	char *text = json_dumps(mine, 0);
	ck_assert_msg(strstr(text, rematch) != NULL, "the rematch is in the player's games");
	free(text);
	json_decref(mine);
	json_decref(made);
	json_decref(again);
}
END_TEST

/* ---- Deleting a player ---------------------------------------------------------------- */

static void assert_name_absent(const char *path, const char *token, const char *name)
{
	struct http_response response;
	http_call(&http_fixture.checked, "GET", path, token, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "GET %s: %s", path, http_describe(&response));
	ck_assert_msg(strstr(response.body, name) == NULL, "GET %s still says %s", path, name);
	http_response_free(&response);
}

START_TEST(test_a_deleted_player_s_name_is_nowhere_in_its_old_games_and_its_token_is_dead)
{
	struct player a, b, c;
	char unique[48];
	snprintf(unique, sizeof unique, "Zebedee %08x", (unsigned)http_random64());
	http_player_create(&http_fixture.checked, unique, a.id, a.token);
	http_player_create(&http_fixture.checked, "Deleting B", b.id, b.token);
	http_player_create(&http_fixture.checked, "Deleting C", c.id, c.token);
	struct player *pointers[3] = {&b, &a, &c};
	const struct player *seats[3] = {&b, &a, &c};
	struct http_game game;
	create_rated(pointers, &game);
	play_out(&game, 0, seats);
	char path[160];
	struct http_response response;
	http_call(&http_fixture.checked, "GET", game.path, NULL, NULL, NULL, &response);
	ck_assert(strstr(response.body, unique) != NULL); /* the name is there before */
	http_response_free(&response);

	http_call(&http_fixture.checked, "DELETE", "/v1/players/me", a.token, NULL, NULL, &response);
	ck_assert_msg(response.status == 204, "%s", http_describe(&response));
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", "/v1/players/me/games", a.token, NULL, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	/* On a game route a player token that is nobody's answers as any such (403). */
	http_call(&http_fixture.checked, "GET", game.path, a.token, NULL, NULL, &response);
	http_assert_problem(&response, 403, "player_not_seated");
	http_response_free(&response);
	ck_assert_int_eq(http_sql_number("SELECT count(*) FROM webhooks w JOIN players p ON p.id = w.player_id"
					 " WHERE p.deleted_at IS NOT NULL"),
			 0);

	static const char *const suffixes[] = {"", "/players", "/moves", "/export", "/summary", "/messages"};
	for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
		snprintf(path, sizeof path, "%s%s", game.path, suffixes[i]);
		assert_name_absent(path, NULL, unique);
		assert_name_absent(path, b.token, unique);
	}
	/* On the second server too, once it heard of the deletion (the notification that drops
	 * its cached names and tokens of the player's games, as for a replaced token). */
	double until = http_clock() + 10 * http_slowdown();
	for (;;) {
		struct http_response second;
		http_call(&http_fixture.second_direct, "GET", game.path, NULL, NULL, NULL, &second);
		ck_assert_int_eq(second.status, 200);
		int stale = strstr(second.body, unique) != NULL;
		http_response_free(&second);
		if (!stale)
			break;
		ck_assert_msg(http_clock() < until, "the second server still names the deleted player");
		http_pause(0.05);
	}
	assert_name_absent("/v1/players/me/feed", b.token, unique);
	snprintf(path, sizeof path, "/v1/players/%s", a.id);
	json_t *body = http_get_ok(&http_fixture.checked, path, NULL);
	ck_assert_str_eq(json_string_value(json_object_get(body, "name")), "Former player");
	ck_assert(json_is_true(json_object_get(body, "deleted")));
	json_decref(body);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_ratings");
	TCase *ratings = tcase_create("ratings");
	http_fixture_add(ratings, HTTP_FIXTURE_PRISM | HTTP_FIXTURE_SECOND_SERVER, NULL);
	tcase_set_timeout(ratings, 300);
	tcase_add_test(ratings, test_ratings_recomputed_from_the_exports_in_the_order_games_ended_are_the_stored_ones);
	tcase_add_test(ratings, test_a_rated_game_has_only_players_seats_no_bot_and_no_seed);
	tcase_add_test(ratings,
		       test_a_resigned_seat_is_a_bot_for_good_and_a_rematch_is_made_once_with_the_same_players);
	tcase_add_test(ratings, test_a_deleted_player_s_name_is_nowhere_in_its_old_games_and_its_token_is_dead);
	suite_add_tcase(suite, ratings);
	return suite;
}
