/*
 * test_http_import.c - POST /v1/games/import: a finished game's export imported again is
 * the same game, event for event (same stored events, actors and origins), with and without
 * its seed; tampered logs (a settlement moved onto an occupied node, dice changed while the
 * seed is there, a hand changed, a redacted card) are refused with 422 import_refused
 * naming the event, and no game is created; malformed bodies answer 400 naming the member.
 */
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/check_main.h"

#define MAX_MOVES 5000

/* 41 characters: one more than a name may have. */
#define CUT_FORTY_ONE "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* How many games the database holds (to prove a refusal created none). */
static long game_count(void)
{
	PGconn *connection = PQconnectdb(getenv("DATABASE_URL"));
	ck_assert_int_eq(PQstatus(connection), CONNECTION_OK);
	PGresult *result = PQexec(connection, "SELECT count(*) FROM games");
	ck_assert_int_eq(PQresultStatus(result), PGRES_TUPLES_OK);
	long count = atol(PQgetvalue(result, 0, 0));
	PQclear(result);
	PQfinish(connection);
	return count;
}

/* A 3-seat game on the beginner board with a draft start, played to its end (with domestic
 * trades when `trades`), and its export as a spectator (new reference). */
static json_t *finished_export(struct http_game *game, uint64_t seed, int trades)
{
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\"}", game);
	struct http_player player;
	http_player_init(&player, &http_fixture.direct, game, seed, trades);
	http_player_finish(&player, MAX_MOVES);
	char path[160];
	snprintf(path, sizeof path, "%s/export", game->path);
	return http_get_ok(&http_fixture.direct, path, NULL);
}

/* The stored rows without their times. New reference. */
static json_t *rows_without_time(const char *game_id)
{
	json_t *rows = http_truth_rows(game_id, 0);
	size_t index;
	json_t *row;
	json_array_foreach(rows, index, row) json_object_del(row, "at");
	return rows;
}

static void post_import(const json_t *body, struct http_response *response)
{
	http_call_json(&http_fixture.direct, "POST", "/v1/games/import", NULL, body, NULL, response);
}

static void assert_imported_equal(const struct http_game *game, const json_t *export)
{
	struct http_response response;
	post_import(export, &response);
	ck_assert_msg(response.status == 201, "import: %s", http_describe(&response));
	const char *id = json_string_value(json_object_get(response.json, "id"));
	ck_assert_ptr_nonnull(id);
	ck_assert_str_ne(id, game->id);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "version")),
			 json_integer_value(json_object_get(export, "version")));
	ck_assert(json_is_string(json_object_get(response.json, "admin_token")));
	json_t *seats = json_object_get(response.json, "seats");
	ck_assert_int_eq(json_array_size(seats), 3);
	ck_assert(json_is_string(json_object_get(json_array_get(seats, 0), "token")));
	json_t *original = rows_without_time(game->id), *copy = rows_without_time(id);
	ck_assert_msg(json_equal(original, copy), "the imported game's stored rows are the original's");
	json_decref(original);
	json_decref(copy);
	http_response_free(&response);
}

START_TEST(test_export_then_import_reproduces_the_game_event_for_event)
{
	struct http_game game;
	json_t *export = finished_export(&game, 8101, 1);
	ck_assert(json_is_string(json_object_get(export, "seed")));
	assert_imported_equal(&game, export);
	json_decref(export);
}
END_TEST

START_TEST(test_import_without_the_seed_checks_the_moves_and_reproduces_the_events)
{
	struct http_game game;
	json_t *export = finished_export(&game, 8102, 0);
	json_object_set_new(export, "seed", json_null());
	assert_imported_equal(&game, export);
	json_decref(export);
}
END_TEST

/* The index of the n-th (0-based) event of `type` in the export, -1 when there is none. */
static long find_event(const json_t *export, const char *type, int n)
{
	size_t index;
	json_t *event;
	json_array_foreach(json_object_get(export, "events"), index,
			   event) if (strcmp(json_string_value(json_object_get(event, "type")), type) == 0 &&
				      n-- == 0) return (long)index;
	return -1;
}

static json_t *event_at(json_t *export, long index)
{
	return json_array_get(json_object_get(export, "events"), (size_t)index);
}

/* POST the export: 422 import_refused naming events[index], and no game created. */
static void assert_refused_at(const json_t *export, long index)
{
	long before = game_count();
	struct http_response response;
	post_import(export, &response);
	http_assert_problem(&response, 422, "import_refused");
	char field[32];
	snprintf(field, sizeof field, "events[%ld]", index);
	ck_assert_msg(strcmp(json_string_value(json_object_get(response.json, "field")), field) == 0, "%s",
		      http_describe(&response));
	http_response_free(&response);
	ck_assert_int_eq(game_count(), before);
}

/* Run `command` on the export written to a file; its exit status, and the first line it
 * printed into `said` (may be NULL). */
static int run_on_export_saying(const char *command, const json_t *export, char *said, size_t size)
{
	char path[] = "/tmp/catan-verify-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(json_dump_file(export, path, 0), 0);
	char line[512];
	snprintf(line, sizeof line, "%s %s 2>&1", command, path);
	FILE *out = popen(line, "r");
	ck_assert_ptr_nonnull(out);
	char first[512] = "";
	if (!fgets(first, sizeof first, out))
		first[0] = '\0';
	char rest[512];
	while (fgets(rest, sizeof rest, out))
		;
	int status = pclose(out);
	unlink(path);
	first[strcspn(first, "\n")] = '\0';
	if (said)
		snprintf(said, size, "%s", first);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static int run_on_export(const char *command, const json_t *export)
{
	return run_on_export_saying(command, export, NULL, 0);
}

/* How many events of `type` the export has. */
static int count_events(const json_t *export, const char *type)
{
	int count = 0;
	while (find_event(export, type, count) >= 0)
		count++;
	return count;
}

/* A copy of the export with events[index]'s `member` set to `value` (taken). */
static json_t *changed(const json_t *export, long index, const char *member, json_t *value)
{
	json_t *copy = json_deep_copy(export);
	json_object_set_new(event_at(copy, index), member, value);
	return copy;
}

/* `command` on the tampered export exits 1 (the export released). */
static void assert_caught(const char *command, json_t *tampered, const char *what)
{
	char said[512];
	int status = run_on_export_saying(command, tampered, said, sizeof said);
	ck_assert_msg(status == 1, "%s: %s exits %d (%s)", what, command, status, said);
	json_decref(tampered);
}

/* Issue 26: a finished game created without a seed is provably fair; `catan verify` and
 * examples/verify_fair.py accept its export, counting every roll, steal and draw of it, and
 * catch a changed die, a changed stolen resource, a changed card drawn and a wrong seed
 * (and the Python checker a player's seed that is not the one the game mixed in). Games
 * (with domestic trades) are played until the exports have steals (one after a knight),
 * draws, and the monopolies, years of plenty and trades the checker must follow the hands
 * through to know what a steal was drawn from. */
START_TEST(test_catan_verify_and_the_python_checker_catch_tampered_fair_exports)
{
	const char *catan = getenv("CATAN") && *getenv("CATAN") ? getenv("CATAN") : "build/catan";
	char verify[256];
	snprintf(verify, sizeof verify, "%s verify", catan);
	const char *python = "python3 examples/verify_fair.py";
	int steals = 0, knight_steals = 0, draws = 0, monopolies = 0, plenties = 0, trades = 0;
	for (uint64_t seed = 8107;
	     seed < 8115 && !(steals && knight_steals && draws && monopolies && plenties && trades); seed++) {
		struct http_game game;
		json_t *export = finished_export(&game, seed, 1);
		json_t *created = event_at(export, 0);
		ck_assert_msg(json_is_object(json_object_get(created, "fairness")), "game_created commits");
		const char *server_seed = json_string_value(json_object_get(export, "seed"));
		ck_assert_msg(server_seed && strlen(server_seed) == 64, "the export reveals the server seed");
		ck_assert_int_eq(run_on_export(verify, export), 0);
		char said[512], expected[512];
		ck_assert_int_eq(run_on_export_saying(python, export, said, sizeof said), 0);
		snprintf(expected, sizeof expected, "commitment matches; %d rolls, %d steals, %d draws: all match",
			 count_events(export, "dice_rolled"), count_events(export, "resource_stolen"),
			 count_events(export, "development_card_bought"));
		ck_assert_str_eq(said, expected);
		/* The hands the steals are drawn from move with these too. */
		monopolies += count_events(export, "monopoly_played");
		plenties += count_events(export, "year_of_plenty_played");
		trades += count_events(export, "trade_completed");

		long roll = find_event(export, "dice_rolled", 0);
		ck_assert_int_ge(roll, 0);
		json_t *rolled = event_at(export, roll);
		long d1 = json_integer_value(json_array_get(json_object_get(rolled, "dice"), 0));
		long d2 = json_integer_value(json_array_get(json_object_get(rolled, "dice"), 1));
		long other = d1 == 6 ? 5 : d1 + 1;
		json_t *dice = changed(export, roll, "dice", json_pack("[i, i]", (int)other, (int)d2));
		json_object_set_new(event_at(dice, roll), "total", json_integer(other + d2));
		assert_caught(verify, json_deep_copy(dice), "a changed die");
		assert_caught(python, dice, "a changed die");

		for (int n = 0, count = count_events(export, "resource_stolen"); n < count; n++) {
			long stolen = find_event(export, "resource_stolen", n);
			const char *was = json_string_value(json_object_get(event_at(export, stolen), "resource"));
			const char *now = strcmp(was, "ore") == 0 ? "wool" : "ore";
			int after_knight =
				strcmp(json_string_value(json_object_get(event_at(export, stolen - 2), "type")),
				       "knight_played") == 0;
			if (n > 0 && !(after_knight && knight_steals == 0))
				continue; /* the first steal, and the first after a knight */
			assert_caught(verify, changed(export, stolen, "resource", json_string(now)), "a changed steal");
			assert_caught(python, changed(export, stolen, "resource", json_string(now)), "a changed steal");
			steals++;
			knight_steals += after_knight;
		}

		long bought = find_event(export, "development_card_bought", 0);
		if (bought >= 0) {
			const char *was = json_string_value(json_object_get(event_at(export, bought), "card"));
			const char *now = strcmp(was, "knight") == 0 ? "victory_point" : "knight";
			assert_caught(verify, changed(export, bought, "card", json_string(now)), "a changed card");
			assert_caught(python, changed(export, bought, "card", json_string(now)), "a changed card");
			draws++;
		}

		json_t *wrong = json_deep_copy(export);
		char other_seed[65];
		snprintf(other_seed, sizeof other_seed, "%s", server_seed);
		other_seed[0] = other_seed[0] == '0' ? '1' : '0';
		json_object_set_new(wrong, "seed", json_string(other_seed));
		assert_caught(verify, json_deep_copy(wrong), "a wrong seed");
		assert_caught(python, wrong, "a wrong seed");

		/* Players' seeds the game never mixed in (from version 1 on): every key differs. */
		json_t *seeded = json_deep_copy(export);
		json_object_set_new(seeded, "fairness",
				    json_pack("{s:[s, s, s], s:i}", "player_seeds", "a", "b", "c", "seeds_from", 1));
		assert_caught(python, seeded, "players' seeds not mixed in");
		json_decref(export);
	}
	ck_assert_msg(steals && knight_steals && draws && monopolies && plenties && trades,
		      "the games had steals (%d, after a knight %d), draws (%d), monopolies (%d), years of plenty (%d)"
		      " and trades (%d)",
		      steals, knight_steals, draws, monopolies, plenties, trades);
}
END_TEST

/* PUT .../player_seed and its status (the body's problem type when not 200). */
static int put_seed(const struct http_game *game, int seat, const char *token, const char *body, char *type,
		    size_t type_size)
{
	char path[160];
	snprintf(path, sizeof path, "%s/seats/%d/player_seed", game->path, seat);
	struct http_response response;
	http_call(&http_fixture.direct, "PUT", path, token, body, NULL, &response);
	int status = response.status;
	const char *problem = json_string_value(json_object_get(response.json, "type"));
	snprintf(type, type_size, "%s", problem ? problem : "");
	http_response_free(&response);
	return status;
}

static long game_version(const struct http_game *game)
{
	json_t *view = http_get_ok(&http_fixture.direct, game->path, game->tokens[0]);
	long version = (long)json_integer_value(json_object_get(view, "version"));
	json_decref(view);
	return version;
}

/* Issue 26: the players' seeds. Set by PUT (replaced before the fixing), refused with
 * nothing changed when malformed, by another seat's token, after the first roll and in a
 * game with a chosen seed; the view shows them; the first roll fixes them (seeds_fixed in
 * its append), the end reveals the server seed (server_seed_revealed); `catan verify`
 * accepts the export and catches a changed seed, in the log or in fairness. */
START_TEST(test_players_seeds_are_set_fixed_at_the_first_roll_and_verified)
{
	const char *catan = getenv("CATAN") && *getenv("CATAN") ? getenv("CATAN") : "build/catan";
	char verify[256], type[160];
	snprintf(verify, sizeof verify, "%s verify", catan);
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\"}", &game);
	ck_assert_int_eq(put_seed(&game, 0, game.tokens[0], "{\"player_seed\": \"first\"}", type, sizeof type), 200);
	ck_assert_int_eq(put_seed(&game, 0, game.tokens[0], "{\"player_seed\": \"alice\"}", type, sizeof type), 200);
	long version = game_version(&game);
	static const char *const bad[] = {
		"{\"player_seed\": \"\"}",
		"{\"player_seed\": \"\\u0000x\"}",
		"{\"player_seed\": 7}",
		"{}",
		"{\"player_seed\": \"a\", \"x\": 1}",
		"{\"player_seed\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"}"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		ck_assert_msg(put_seed(&game, 1, game.tokens[1], bad[k], type, sizeof type) == 400, "%s", bad[k]);
	/* Not UTF-8 (raw bytes, so the body is sent as it is). */
	ck_assert_int_eq(put_seed(&game, 1, game.tokens[1], "{\"player_seed\": \"\xc3\x28\"}", type, sizeof type), 400);
	ck_assert_int_eq(put_seed(&game, 1, game.tokens[0], "{\"player_seed\": \"bob\"}", type, sizeof type), 403);
	ck_assert_int_eq(game_version(&game), version);
	ck_assert_int_eq(put_seed(&game, 1, game.tokens[1], "{\"player_seed\": \"d\u00e9s 7\"}", type, sizeof type),
			 200);
	json_t *view = http_get_ok(&http_fixture.direct, game.path, game.tokens[2]);
	json_t *fairness = json_object_get(view, "fairness");
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(fairness, "player_seeds"), 0)), "alice");
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(fairness, "player_seeds"), 1)),
			 "d\xc3\xa9s 7");
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(fairness, "player_seeds"), 2)), "");
	ck_assert(json_is_false(json_object_get(fairness, "seeds_fixed")));
	ck_assert(json_is_null(json_object_get(fairness, "seeds_from")));
	json_decref(view);

	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, 8111, 0);
	http_player_finish(&player, MAX_MOVES);
	version = game_version(&game);
	ck_assert_int_eq(put_seed(&game, 2, game.tokens[2], "{\"player_seed\": \"late\"}", type, sizeof type), 409);
	ck_assert_int_eq(game_version(&game), version);

	char path[160];
	snprintf(path, sizeof path, "%s/export", game.path);
	json_t *export = http_get_ok(&http_fixture.direct, path, NULL);
	fairness = json_object_get(export, "fairness");
	long fixed = find_event(export, "seeds_fixed", 0), roll = find_event(export, "dice_rolled", 0);
	ck_assert_int_ge(fixed, 0);
	ck_assert_int_eq(roll, fixed + 1);
	ck_assert_int_eq(find_event(export, "seeds_fixed", 1), -1);
	ck_assert_int_eq(json_integer_value(json_object_get(fairness, "seeds_from")), fixed + 1);
	ck_assert_int_eq(json_integer_value(json_object_get(event_at(export, fixed), "seeds_from")), fixed + 1);
	ck_assert_str_eq(json_string_value(json_array_get(json_object_get(fairness, "player_seeds"), 0)), "alice");
	long revealed = find_event(export, "server_seed_revealed", 0);
	ck_assert_int_eq(revealed, (long)json_array_size(json_object_get(export, "events")) - 1);
	ck_assert_str_eq(json_string_value(json_object_get(event_at(export, revealed), "server_seed")),
			 json_string_value(json_object_get(export, "seed")));
	ck_assert_int_eq(run_on_export(verify, export), 0);

	json_t *changed = json_deep_copy(export);
	json_t *set = event_at(changed, find_event(changed, "player_seed_set", 1));
	json_object_set_new(set, "player_seed", json_string("alicf"));
	ck_assert_int_eq(run_on_export(verify, changed), 1);
	json_decref(changed);
	changed = json_deep_copy(export);
	json_array_set_new(json_object_get(json_object_get(changed, "fairness"), "player_seeds"), 0,
			   json_string("alicf"));
	ck_assert_int_eq(run_on_export(verify, changed), 1);
	json_decref(changed);
	json_decref(export);

	/* A game with a chosen seed has no players' seeds. */
	struct http_game chosen;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\", \"seed\": 5}", &chosen);
	ck_assert_int_eq(put_seed(&chosen, 0, chosen.tokens[0], "{\"player_seed\": \"x\"}", type, sizeof type), 409);
	ck_assert_msg(strstr(type, "not_provably_fair") != NULL, "%s", type);
}
END_TEST

/* PUT .../player_seed with `headers` (NULL-terminated "Name: value" lines, or NULL). */
static void put_seed_call(struct http_client *client, const struct http_game *game, int seat, const char *token,
			  const char *body, const char *const *headers, struct http_response *response)
{
	char path[160];
	snprintf(path, sizeof path, "%s/seats/%d/player_seed", game->path, seat);
	http_call(client, "PUT", path, token, body, headers, response);
}

/* POST /v1/games `body` expecting 201 and a waiting game: *game (the tokens of the seats
 * taken at creation) and its invite code. */
static void create_waiting(const char *body, struct http_game *game, char *invite, size_t invite_size)
{
	memset(game, 0, sizeof *game);
	struct http_response response;
	http_call(&http_fixture.direct, "POST", "/v1/games", NULL, body, NULL, &response);
	ck_assert_msg(response.status == 201, "create: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "waiting");
	snprintf(game->id, sizeof game->id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(game->path, sizeof game->path, "/v1/games/%s", game->id);
	snprintf(game->admin_token, sizeof game->admin_token, "%s",
		 json_string_value(json_object_get(response.json, "admin_token")));
	snprintf(invite, invite_size, "%s",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	json_t *seats = json_object_get(response.json, "seats");
	game->seats = (int)json_array_size(seats);
	for (int s = 0; s < game->seats; s++) {
		const char *token = json_string_value(json_object_get(json_array_get(seats, (size_t)s), "token"));
		if (token)
			snprintf(game->tokens[s], sizeof game->tokens[s], "%s", token);
	}
	http_response_free(&response);
}

/* POST .../join {invite, name[, player_seed]} (`seed` JSON text of the member, NULL: none). */
static void join_with(struct http_client *client, const struct http_game *game, const char *invite, const char *name,
		      const char *seed, struct http_response *response)
{
	char path[96], body[512];
	snprintf(path, sizeof path, "%s/join", game->path);
	snprintf(body, sizeof body, "{\"invite\": \"%s\", \"name\": \"%s\"%s%s}", invite, name,
		 seed ? ", \"player_seed\": " : "", seed ? seed : "");
	http_call(client, "POST", path, NULL, body, NULL, response);
}

static char *seats_text(const struct http_game *game)
{
	char path[96];
	snprintf(path, sizeof path, "%s/seats", game->path);
	json_t *seats = http_get_ok(&http_fixture.direct, path, NULL);
	char *text = json_dumps(seats, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(seats);
	return text;
}

/* Issue 26: a seed given when joining a waiting game. Malformed, or into a game created
 * with a chosen seed, the join is refused naming player_seed and the seats are as they
 * were; given, the seat keeps it and the start writes it in a player_seed_set event (after
 * the start's own events, in the start's append): the view shows it, the other seats set
 * theirs by PUT, the seeds are fixed once every seat has one (a later PUT is 409
 * seeds_fixed), the export has them and `catan verify` and the Python checker accept it. */
START_TEST(test_a_seed_given_when_joining_is_logged_at_the_start_and_the_export_verifies)
{
	const char *catan = getenv("CATAN") && *getenv("CATAN") ? getenv("CATAN") : "build/catan";
	char verify[256], invite[64];
	snprintf(verify, sizeof verify, "%s verify", catan);
	struct http_game game;
	create_waiting("{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}], \"options\": "
		       "{\"layout\": \"beginner\"}}",
		       &game, invite, sizeof invite);
	char *before = seats_text(&game);
	static const char *const bad[] = {
		"\"\"",		"7",
		"null",		"\"\\u0000x\"",
		"\"\xc3\x28\"", "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\""};
	struct http_response response;
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		join_with(&http_fixture.direct, &game, invite, "Bob", bad[k], &response);
		ck_assert_msg(response.status == 400, "%s: %s", bad[k], http_describe(&response));
		/* Not UTF-8, or a NUL: the body is no JSON to the server (invalid_json); else the
		 * member is named. */
		const char *field = json_string_value(json_object_get(response.json, "field"));
		if (strchr(bad[k], '\xc3') == NULL && strstr(bad[k], "u0000") == NULL)
			ck_assert_msg(field && strcmp(field, "player_seed") == 0, "%s: %s", bad[k],
				      http_describe(&response));
		http_response_free(&response);
	}
	char *after = seats_text(&game);
	ck_assert_str_eq(after, before);
	free(after);
	free(before);

	/* Through Prism: the join's body and answer are the contract's. */
	join_with(&http_fixture.checked, &game, invite, "Bob", "\"bob's seed \u00e9\"", &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "waiting");
	snprintf(game.tokens[1], sizeof game.tokens[1], "%s",
		 json_string_value(json_object_get(response.json, "token")));
	http_response_free(&response);
	join_with(&http_fixture.direct, &game, invite, "Cat", NULL, &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "status")), "started");
	long started = (long)json_integer_value(json_object_get(response.json, "version"));
	snprintf(game.tokens[2], sizeof game.tokens[2], "%s",
		 json_string_value(json_object_get(response.json, "token")));
	http_response_free(&response);

	json_t *view = http_get_ok(&http_fixture.direct, game.path, game.tokens[0]);
	ck_assert_int_eq(json_integer_value(json_object_get(view, "version")), started);
	json_t *fairness = json_object_get(view, "fairness");
	json_t *seeds = json_object_get(fairness, "player_seeds");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 0)), "");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 1)), "bob's seed \xc3\xa9");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 2)), "");
	ck_assert(json_is_false(json_object_get(fairness, "seeds_fixed")));
	json_decref(view);

	/* The other seats set theirs; the last one fixes them (before any roll). */
	put_seed_call(&http_fixture.checked, &game, 0, game.tokens[0], "{\"player_seed\": \"ann\"}", NULL, &response);
	ck_assert_msg(response.status == 200, "PUT: %s", http_describe(&response));
	ck_assert(json_is_false(json_object_get(response.json, "seeds_fixed")));
	http_response_free(&response);
	put_seed_call(&http_fixture.checked, &game, 2, game.tokens[2], "{\"player_seed\": \"cat\"}", NULL, &response);
	ck_assert_msg(response.status == 200, "PUT: %s", http_describe(&response));
	ck_assert(json_is_true(json_object_get(response.json, "seeds_fixed")));
	long fixed_at = (long)json_integer_value(json_object_get(response.json, "version"));
	ck_assert_int_eq(fixed_at, started + 2);
	http_response_free(&response);
	view = http_get_ok(&http_fixture.direct, game.path, NULL);
	fairness = json_object_get(view, "fairness");
	ck_assert(json_is_true(json_object_get(fairness, "seeds_fixed")));
	ck_assert(json_is_null(json_object_get(fairness, "seeds_from")));
	json_decref(view);
	put_seed_call(&http_fixture.direct, &game, 0, game.tokens[0], "{\"player_seed\": \"again\"}", NULL, &response);
	http_assert_problem(&response, 409, "seeds_fixed");
	http_response_free(&response);
	ck_assert_int_eq(game_version(&game), fixed_at);

	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, 8112, 0);
	http_player_finish(&player, MAX_MOVES);
	char path[160];
	snprintf(path, sizeof path, "%s/export", game.path);
	json_t *export = http_get_ok(&http_fixture.direct, path, NULL);
	/* The start's append ends with the kept seed: the event at the version the join
	 * answered, the first player_seed_set of the log. */
	long kept = find_event(export, "player_seed_set", 0);
	ck_assert_int_eq(kept + 1, started);
	json_t *event = event_at(export, kept);
	ck_assert_int_eq(json_integer_value(json_object_get(event, "seat")), 1);
	ck_assert_str_eq(json_string_value(json_object_get(event, "player_seed")), "bob's seed \xc3\xa9");
	ck_assert_int_eq(find_event(export, "player_seed_set", 1), started);
	ck_assert_int_eq(find_event(export, "player_seed_set", 3), -1);
	ck_assert_int_eq(find_event(export, "dice_rolled", 0), find_event(export, "seeds_fixed", 0) + 1);
	seeds = json_object_get(json_object_get(export, "fairness"), "player_seeds");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 0)), "ann");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 1)), "bob's seed \xc3\xa9");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 2)), "cat");
	ck_assert_int_eq(run_on_export(verify, export), 0);
	ck_assert_int_eq(run_on_export("python3 examples/verify_fair.py", export), 0);
	/* The kept seed changed in the log: caught. */
	json_t *changed = json_deep_copy(export);
	json_object_set_new(event_at(changed, kept), "player_seed", json_string("bob's other seed"));
	ck_assert_int_eq(run_on_export(verify, changed), 1);
	json_decref(changed);
	json_decref(export);

	/* A game created with a chosen seed takes no seed at the join: 409, nothing changed. */
	struct http_game chosen;
	char chosen_invite[64];
	create_waiting("{\"players\": [{\"name\": \"Ann\"}, {\"open\": true}, {\"open\": true}], \"options\": "
		       "{\"seed\": 5}}",
		       &chosen, chosen_invite, sizeof chosen_invite);
	before = seats_text(&chosen);
	join_with(&http_fixture.direct, &chosen, chosen_invite, "Bob", "\"mine\"", &response);
	http_assert_problem(&response, 409, "not_provably_fair");
	http_response_free(&response);
	after = seats_text(&chosen);
	ck_assert_str_eq(after, before);
	free(after);
	free(before);
}
END_TEST

/* The seeds the log holds, as text: "seat=seed;" for each player_seed_set event, and "fixed"
 * for a seeds_fixed one (the server's bot may move meanwhile: its events are not counted). */
static void seed_events_text(const struct http_game *game, char *out, size_t size)
{
	json_t *log = http_game_log(&http_fixture.direct, game, NULL, 0);
	size_t used = 0;
	out[0] = '\0';
	for (size_t i = 0; i < json_array_size(log) && used < size; i++) {
		json_t *entry = json_array_get(log, i);
		const char *type = json_string_value(json_object_get(entry, "type"));
		if (strcmp(type, "player_seed_set") == 0)
			used += (size_t)snprintf(out + used, size - used, "%d=%s;",
						 (int)json_integer_value(json_object_get(entry, "seat")),
						 json_string_value(json_object_get(entry, "player_seed")));
		else if (strcmp(type, "seeds_fixed") == 0)
			used += (size_t)snprintf(out + used, size - used, "fixed;");
	}
	json_decref(log);
}

/* Issue 26: a seat the server's bot holds (its player released it) has no seed: 409
 * seat_not_changeable, nothing changed; the seeds are fixed once every seat a person holds
 * has set one, before any roll, and then a PUT is 409 seeds_fixed; the game plays on to
 * its end (the bot's timer carried past the seeds' events). */
START_TEST(test_a_bot_seat_has_no_seed_and_the_human_seats_fix_them)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\"}", &game);
	char path[160];
	snprintf(path, sizeof path, "%s/seats/2/release", game.path);
	struct http_response response;
	http_call(&http_fixture.direct, "POST", path, game.tokens[2], NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "release: %s", http_describe(&response));
	http_response_free(&response);
	game.bots |= 1u << 2;
	char logged[256];
	put_seed_call(&http_fixture.direct, &game, 2, game.tokens[2], "{\"player_seed\": \"bot\"}", NULL, &response);
	http_assert_problem(&response, 409, "seat_not_changeable");
	http_response_free(&response);
	seed_events_text(&game, logged, sizeof logged);
	ck_assert_str_eq(logged, "");

	put_seed_call(&http_fixture.direct, &game, 0, game.tokens[0], "{\"player_seed\": \"a\"}", NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert(json_is_false(json_object_get(response.json, "seeds_fixed")));
	http_response_free(&response);
	put_seed_call(&http_fixture.direct, &game, 1, game.tokens[1], "{\"player_seed\": \"b\"}", NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert(json_is_true(json_object_get(response.json, "seeds_fixed")));
	http_response_free(&response);
	json_t *view = http_get_ok(&http_fixture.direct, game.path, NULL);
	ck_assert(json_is_true(json_object_get(json_object_get(view, "fairness"), "seeds_fixed")));
	ck_assert(json_is_null(json_object_get(json_object_get(view, "fairness"), "seeds_from"))); /* no roll yet */
	json_decref(view);
	put_seed_call(&http_fixture.direct, &game, 0, game.tokens[0], "{\"player_seed\": \"a2\"}", NULL, &response);
	http_assert_problem(&response, 409, "seeds_fixed");
	http_response_free(&response);
	seed_events_text(&game, logged, sizeof logged);
	ck_assert_str_eq(logged, "0=a;1=b;");

	struct http_player player;
	http_player_init(&player, &http_fixture.direct, &game, 8113, 0);
	player.humans = 3; /* seat 2 is the bot's now */
	http_player_finish(&player, MAX_MOVES);
	snprintf(path, sizeof path, "%s/export", game.path);
	json_t *export = http_get_ok(&http_fixture.direct, path, NULL);
	json_t *seeds = json_object_get(json_object_get(export, "fairness"), "player_seeds");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 0)), "a");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 1)), "b");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 2)), "");
	const char *catan = getenv("CATAN") && *getenv("CATAN") ? getenv("CATAN") : "build/catan";
	char verify[256];
	snprintf(verify, sizeof verify, "%s verify", catan);
	ck_assert_int_eq(run_on_export(verify, export), 0);
	json_decref(export);
}
END_TEST

/* Issue 26: a server that loads a game afresh reads its players' seeds from the log a page
 * at a time (game/play.c load_seeds()): a seat that replaced its seed past a page (20
 * player_seed_set events) shows its last seed on a server that never saw the game. */
START_TEST(test_a_fresh_server_reads_seeds_replaced_past_a_page)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\"}", &game);
	struct http_response response;
	for (int i = 1; i <= 20; i++) {
		char body[64];
		snprintf(body, sizeof body, "{\"player_seed\": \"seed %d\"}", i);
		put_seed_call(&http_fixture.direct, &game, 0, game.tokens[0], body, NULL, &response);
		ck_assert_msg(response.status == 200, "PUT %d: %s", i, http_describe(&response));
		http_response_free(&response);
	}
	put_seed_call(&http_fixture.direct, &game, 1, game.tokens[1], "{\"player_seed\": \"b\"}", NULL, &response);
	ck_assert_int_eq(response.status, 200);
	http_response_free(&response);
	struct http_server fresh;
	http_server_start(&fresh, NULL);
	struct http_client client;
	http_client_init(&client, fresh.url, 0);
	json_t *view = http_get_ok(&client, game.path, NULL);
	json_t *fairness = json_object_get(view, "fairness");
	json_t *seeds = json_object_get(fairness, "player_seeds");
	ck_assert_int_eq(json_array_size(seeds), 3);
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 0)), "seed 20");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 1)), "b");
	ck_assert_str_eq(json_string_value(json_array_get(seeds, 2)), "");
	ck_assert(json_is_false(json_object_get(fairness, "seeds_fixed")));
	json_decref(view);
	http_client_cleanup(&client);
	ck_assert_int_eq(http_server_stop(&fresh, 30), 0);
}
END_TEST

/* Issue 26: PUT .../player_seed honours If-Match (another version: 412, nothing changed;
 * the version: set, ETag the new one; malformed: 400) and Idempotency-Key (the same request
 * again: the recorded answer, Idempotent-Replayed, no second event, even once the seeds are
 * fixed; the key with another body: 422 idempotency_key_reused, nothing changed). */
START_TEST(test_a_player_seed_put_honours_if_match_and_idempotency_keys)
{
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\"}", &game);
	long version = game_version(&game);
	char header[64], etag[32];
	snprintf(header, sizeof header, "If-Match: \"%ld\"", version - 1);
	const char *stale[] = {header, NULL};
	struct http_response response;
	put_seed_call(&http_fixture.direct, &game, 0, game.tokens[0], "{\"player_seed\": \"a\"}", stale, &response);
	http_assert_problem(&response, 412, "precondition_failed");
	http_response_free(&response);
	const char *malformed[] = {"If-Match: 12", NULL};
	put_seed_call(&http_fixture.direct, &game, 0, game.tokens[0], "{\"player_seed\": \"a\"}", malformed, &response);
	ck_assert_int_eq(response.status, 400);
	http_response_free(&response);
	ck_assert_int_eq(game_version(&game), version);
	snprintf(header, sizeof header, "If-Match: \"%ld\"", version);
	const char *current[] = {header, NULL};
	put_seed_call(&http_fixture.checked, &game, 0, game.tokens[0], "{\"player_seed\": \"a\"}", current, &response);
	ck_assert_msg(response.status == 200, "PUT: %s", http_describe(&response));
	snprintf(header, sizeof header, "\"%ld\"", version + 1);
	ck_assert_str_eq(http_response_header(&response, "ETag", etag, sizeof etag), header);
	http_response_free(&response);

	const char *keyed[] = {"Idempotency-Key: seed-1", NULL};
	put_seed_call(&http_fixture.direct, &game, 1, game.tokens[1], "{\"player_seed\": \"b\"}", keyed, &response);
	ck_assert_int_eq(response.status, 200);
	char *first = json_dumps(response.json, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_ptr_null(http_response_header(&response, "Idempotent-Replayed", etag, sizeof etag));
	version = (long)json_integer_value(json_object_get(response.json, "version"));
	http_response_free(&response);
	ck_assert_int_eq(game_version(&game), version);
	put_seed_call(&http_fixture.direct, &game, 1, game.tokens[1], "{\"player_seed\": \"b\"}", keyed, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert_str_eq(http_response_header(&response, "Idempotent-Replayed", etag, sizeof etag), "true");
	char *again = json_dumps(response.json, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_str_eq(again, first);
	free(again);
	http_response_free(&response);
	ck_assert_int_eq(game_version(&game), version);
	put_seed_call(&http_fixture.direct, &game, 1, game.tokens[1], "{\"player_seed\": \"c\"}", keyed, &response);
	http_assert_problem(&response, 422, "idempotency_key_reused");
	http_response_free(&response);
	ck_assert_int_eq(game_version(&game), version);

	/* The last seat fixes the seeds; the keyed request is still answered as it was. */
	put_seed_call(&http_fixture.direct, &game, 2, game.tokens[2], "{\"player_seed\": \"z\"}", NULL, &response);
	ck_assert_int_eq(response.status, 200);
	ck_assert(json_is_true(json_object_get(response.json, "seeds_fixed")));
	http_response_free(&response);
	version = game_version(&game);
	put_seed_call(&http_fixture.direct, &game, 1, game.tokens[1], "{\"player_seed\": \"b\"}", keyed, &response);
	ck_assert_int_eq(response.status, 200);
	again = json_dumps(response.json, JSON_COMPACT | JSON_SORT_KEYS);
	ck_assert_str_eq(again, first);
	free(again);
	http_response_free(&response);
	ck_assert_int_eq(game_version(&game), version);
	free(first);
}
END_TEST

START_TEST(test_tampered_logs_are_refused_naming_the_event_and_nothing_is_created)
{
	struct http_game game;
	json_t *export = finished_export(&game, 8103, 0);

	/* The second settlement moved onto the first one's node: refused with and without the seed. */
	long first = find_event(export, "settlement_built", 0), second = find_event(export, "settlement_built", 1);
	ck_assert_int_ge(second, 0);
	json_t *moved = json_deep_copy(export);
	json_object_set(event_at(moved, second), "node", json_object_get(event_at(moved, first), "node"));
	assert_refused_at(moved, second);
	json_object_set_new(moved, "seed", json_null());
	assert_refused_at(moved, second);
	json_decref(moved);

	/* Dice changed while the seed is there. */
	long roll = find_event(export, "dice_rolled", 0);
	ck_assert_int_ge(roll, 0);
	json_t *dice = json_deep_copy(export);
	json_t *rolled = event_at(dice, roll);
	long d1 = json_integer_value(json_array_get(json_object_get(rolled, "dice"), 0));
	long d2 = json_integer_value(json_array_get(json_object_get(rolled, "dice"), 1));
	long other = d1 == 6 ? 5 : d1 + 1;
	json_object_set_new(rolled, "dice", json_pack("[i, i]", (int)other, (int)d2));
	json_object_set_new(rolled, "total", json_integer(other + d2));
	assert_refused_at(dice, roll);
	json_decref(dice);

	/* A hand changed: one more card produced for seat 0. */
	long produced = find_event(export, "resources_produced", 0);
	ck_assert_int_ge(produced, 0);
	json_t *hand = json_deep_copy(export);
	json_t *gains = json_array_get(json_object_get(event_at(hand, produced), "gains"), 0);
	json_object_set_new(gains, "brick", json_integer(json_integer_value(json_object_get(gains, "brick")) + 1));
	assert_refused_at(hand, produced);
	json_object_set_new(hand, "seed", json_null());
	assert_refused_at(hand, produced);
	json_decref(hand);

	/* A redacted card (as a game going on exports another seat's draw). */
	long bought = find_event(export, "development_card_bought", 0);
	long stolen = find_event(export, "resource_stolen", 0);
	ck_assert_msg(bought >= 0 || stolen >= 0, "the game has a hidden draw");
	json_t *redacted = json_deep_copy(export);
	long at = bought >= 0 ? bought : stolen;
	json_object_set_new(event_at(redacted, at), bought >= 0 ? "card" : "resource", json_null());
	assert_refused_at(redacted, at);
	json_decref(redacted);

	/* And an event that never begins a move, where a move should be. */
	json_t *orphan = json_deep_copy(export);
	json_array_insert(json_object_get(orphan, "events"), 5,
			  json_object_get(orphan, "events")
				  ? json_array_get(json_object_get(orphan, "events"), (size_t)produced)
				  : NULL);
	assert_refused_at(orphan, 5);
	json_decref(orphan);
	json_decref(export);
}
END_TEST

/* Run one SQL command on the test database. */
static void run_sql(const char *sql)
{
	PGconn *connection = PQconnectdb(getenv("DATABASE_URL"));
	ck_assert_int_eq(PQstatus(connection), CONNECTION_OK);
	PGresult *result = PQexec(connection, sql);
	ck_assert_msg(PQresultStatus(result) == PGRES_COMMAND_OK, "%s: %s", sql, PQerrorMessage(connection));
	PQclear(result);
	PQfinish(connection);
}

START_TEST(test_an_import_that_fails_at_its_last_event_leaves_nothing_behind)
{
	struct http_game game;
	json_t *export = finished_export(&game, 8104, 0);
	long last = (long)json_array_size(json_object_get(export, "events")) - 1;
	/* A provably fair game ends with its server seed revealed, after game_won. */
	ck_assert_str_eq(json_string_value(json_object_get(event_at(export, last), "type")), "server_seed_revealed");
	ck_assert_str_eq(json_string_value(json_object_get(event_at(export, last - 1), "type")), "game_won");

	/* The rules refuse the win (the winner's points changed): no game. */
	json_t *won = json_deep_copy(export);
	json_t *points = json_object_get(event_at(won, last - 1), "points");
	json_object_set_new(event_at(won, last - 1), "points", json_integer(json_integer_value(points) + 1));
	assert_refused_at(won, last - 1);
	json_decref(won);

	/* The last event reveals another seed than the one committed to: refused there. */
	json_t *seed = json_deep_copy(export);
	json_object_set_new(event_at(seed, last), "server_seed",
			    json_string("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"));
	assert_refused_at(seed, last);
	json_decref(seed);

	/* The store fails at the last event (a trigger refuses to write it, once the rules
	 * accepted the whole log): no games row, seat or event of the import remains. */
	char sql[512];
	snprintf(sql, sizeof sql,
		 "CREATE FUNCTION test_refuse_last() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
		 " IF NEW.seq = %ld AND NEW.game_id <> x'%s'::bigint THEN"
		 "  RAISE EXCEPTION 'the last event refused by the test'; END IF; RETURN NEW; END $$;"
		 " CREATE TRIGGER test_refuse_last BEFORE INSERT ON events FOR EACH ROW EXECUTE FUNCTION "
		 "test_refuse_last()",
		 last + 1, game.id);
	run_sql(sql);
	long games = game_count();
	struct http_response response;
	post_import(export, &response);
	ck_assert_msg(response.status >= 500, "an import whose last event cannot be stored: %s",
		      http_describe(&response));
	http_response_free(&response);
	run_sql("DROP TRIGGER test_refuse_last ON events; DROP FUNCTION test_refuse_last()");
	ck_assert_int_eq(game_count(), games);
	PGconn *connection = PQconnectdb(getenv("DATABASE_URL"));
	PGresult *result =
		PQexec(connection, "SELECT (SELECT count(*) FROM seats s WHERE NOT EXISTS (SELECT FROM games g"
				   " WHERE g.id = s.game_id)) + (SELECT count(*) FROM events e WHERE NOT EXISTS"
				   " (SELECT FROM games g WHERE g.id = e.game_id))");
	ck_assert_int_eq(PQresultStatus(result), PGRES_TUPLES_OK);
	ck_assert_msg(atol(PQgetvalue(result, 0, 0)) == 0, "%s seats or events of no game remain",
		      PQgetvalue(result, 0, 0));
	PQclear(result);
	PQfinish(connection);
	/* And the same log imports once the store takes it. */
	assert_imported_equal(&game, export);
	json_decref(export);
}
END_TEST

/* `/v1/games/import` is a path of its own for every method, never a game called "import"
 * (issue 23, item 5: a concrete path wins over `{id}`, as OpenAPI matches paths, and the
 * contract's id pattern, 16 lower-case hex digits, cannot match it): GET and DELETE answer
 * 405 allowing POST only. Ids that are not hex are unknown games. */
START_TEST(test_the_import_path_is_never_taken_for_a_game_id)
{
	static const char *const methods[] = {"GET", "DELETE", "PUT"};
	for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
		struct http_response response;
		http_call(&http_fixture.direct, methods[i], "/v1/games/import", NULL, NULL, NULL, &response);
		http_assert_problem(&response, 405, "method_not_allowed");
		char allow[96];
		ck_assert_ptr_nonnull(http_response_header(&response, "Allow", allow, sizeof allow));
		ck_assert_msg(strcmp(allow, "POST") == 0, "%s /v1/games/import: Allow %s", methods[i], allow);
		http_response_free(&response);
	}
	struct http_response response;
	http_call(&http_fixture.direct, "GET", "/v1/games/import/board", NULL, NULL, NULL, &response);
	http_assert_problem(&response, 404, "game_not_found");
	http_response_free(&response);
	http_call(&http_fixture.direct, "GET", "/v1/games/IMPORT", NULL, NULL, NULL, &response);
	http_assert_problem(&response, 404, "game_not_found");
	http_response_free(&response);
}
END_TEST

START_TEST(test_malformed_imports_answer_400_naming_the_member)
{
	static const struct {
		const char *body;
		const char *field;
	} cases[] = {
		{"{}", "events"},
		{"{\"events\": []}", "events"},
		{"{\"events\": 3}", "events"},
		{"{\"events\": [{\"type\": \"turn_ended\", \"seat\": 0}], \"seed\": \"12x\"}", "seed"},
		{"{\"events\": [], \"extra\": 1}", "extra"},
	};
	long before = game_count();
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct http_response response;
		http_call(&http_fixture.checked, "POST", "/v1/games/import", NULL, cases[i].body, NULL, &response);
		ck_assert_msg(response.status == 400, "%s: %s", cases[i].body, http_describe(&response));
		ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), cases[i].field);
		http_response_free(&response);
	}
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games/import", NULL,
		  "{\"events\": [{\"type\": \"turn_ended\", \"seat\": 0}]}", NULL, &response);
	http_assert_problem(&response, 422, "import_refused");
	http_response_free(&response);
	ck_assert_int_eq(game_count(), before);
}
END_TEST

START_TEST(test_an_import_whose_every_seat_is_a_bot_is_gated_like_a_creation)
{
	/* Issue 20, item 9: POST /v1/games refuses a game of bots only (ALL_BOT_GAMES=0), an
	 * import of one was created and played. */
	struct http_game game;
	http_game_create(&http_fixture.direct, 3, "{\"layout\": \"beginner\", \"start\": \"fixed\"}", &game);
	char path[160];
	snprintf(path, sizeof path, "%s/export", game.path);
	json_t *export = http_get_ok(&http_fixture.direct, path, NULL);
	json_t *players = json_pack("[{s:s, s:b}, {s:s, s:b}, {s:s, s:b}]", "name", "Robo", "bot", 1, "name", "Robi",
				    "bot", 1, "name", "Roba", "bot", 1);
	json_object_set_new(export, "players", players);
	struct http_server server;
	struct http_proxy prism;
	struct http_client client;
	struct http_response response;
	long before = game_count();
	static const char *const no_key[] = {"ALL_BOT_GAMES=0", NULL};
	http_server_start(&server, no_key);
	http_proxy_start(&prism, server.url, 1);
	http_client_init(&client, prism.url, 1);
	http_call_json(&client, "POST", "/v1/games/import", NULL, export, NULL, &response);
	http_assert_problem(&response, 403, "create_key_required");
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "field")), "players");
	http_response_free(&response);
	ck_assert_int_eq(game_count(), before);
	/* One human seat: the same log is imported. */
	json_object_set_new(json_array_get(json_object_get(export, "players"), 1), "bot", json_false());
	http_call_json(&client, "POST", "/v1/games/import", NULL, export, NULL, &response);
	ck_assert_msg(response.status == 201, "with a human seat: %s", http_describe(&response));
	http_response_free(&response);
	http_client_cleanup(&client);
	http_proxy_stop(&prism);
	http_server_stop(&server, 30);

	/* With the creation key a game of bots only is imported (as it is created). */
	json_object_set_new(json_array_get(json_object_get(export, "players"), 1), "bot", json_true());
	static const char *const keyed[] = {"ALL_BOT_GAMES=0", "CREATE_KEY=0123456789abcdef-key", NULL};
	http_server_start(&server, keyed);
	http_client_init(&client, server.url, 0);
	http_call_json(&client, "POST", "/v1/games/import", "0123456789abcdef-key", export, NULL, &response);
	ck_assert_msg(response.status == 201, "bots only with the key: %s", http_describe(&response));
	http_response_free(&response);
	http_client_cleanup(&client);
	http_server_stop(&server, 30);
	json_decref(export);
}
END_TEST

/* POST `body` (sent as it is): a 4xx problem+json, and the server still answers. Returns
 * the status. A body that is JSON goes through Prism, which checks the answer against the
 * contract; one that is not goes straight to the server (Prism answers those itself). */
static long post_hostile(const char *body, const char *what)
{
	struct http_response response;
	json_t *parsed = json_loads(body, JSON_REJECT_DUPLICATES, NULL);
	http_call(parsed ? &http_fixture.checked : &http_fixture.direct, "POST", "/v1/games/import", NULL, body, NULL,
		  &response);
	json_decref(parsed);
	ck_assert_msg(response.status >= 400 && response.status < 500 && !http_contract_violation(&response), "%s: %s",
		      what, http_describe(&response));
	ck_assert_msg(json_is_string(json_object_get(response.json, "code")), "%s: %s", what, http_describe(&response));
	http_assert_problem(&response, response.status, json_string_value(json_object_get(response.json, "code")));
	long status = response.status;
	http_response_free(&response);
	http_call(&http_fixture.direct, "GET", "/healthz", NULL, NULL, NULL, &response);
	ck_assert_msg(response.status == 200, "after %s the server stopped answering: %s", what,
		      http_describe(&response));
	http_response_free(&response);
	return status;
}

/* A string of `depth` nested arrays around 1 (caller frees). */
static char *nested(int depth)
{
	char *text = malloc((size_t)depth * 2 + 2);
	ck_assert_ptr_nonnull(text);
	memset(text, '[', (size_t)depth);
	text[depth] = '1';
	memset(text + depth + 1, ']', (size_t)depth);
	text[depth * 2 + 1] = '\0';
	return text;
}

/* Issue 20 item 1: a refused event was freed by read_events() and again by the handler,
 * so {"events": [1]} killed the server (free(): double free). Every level of the body with
 * the wrong type, huge numbers and nested junk: a 4xx problem each, the server alive, no
 * game created. */
START_TEST(test_hostile_import_bodies_answer_4xx_and_the_server_lives)
{
	struct http_game game;
	json_t *export = finished_export(&game, 8105, 0);
	char *created = json_dumps(event_at(export, 0), JSON_COMPACT);
	ck_assert_ptr_nonnull(created);
	long before = game_count();
	/* The bodies of the issue first. */
	ck_assert_int_eq(post_hostile("{\"events\": [1]}", "events [1]"), 422);
	ck_assert_int_eq(post_hostile("{\"events\": [{}]}", "events [{}]"), 422);
	char body[8192];
	snprintf(body, sizeof body,
		 "{\"events\": [%s, {\"type\": \"dice_rolled\", \"seat\": 0, \"dice\": [6, 7], \"total\": 13}]}",
		 created);
	ck_assert_int_eq(post_hostile(body, "a roll of [6, 7]"), 422);
	snprintf(body, sizeof body, "{\"events\": [%s, 1]}", created);
	ck_assert_int_eq(post_hostile(body, "a number after game_created"), 422);
	static const char *const plain[] = {
		"{\"events\": null}",
		"{\"events\": true}",
		"{\"events\": \"[1]\"}",
		"{\"events\": {\"0\": 1}}",
		"{\"events\": 1e300}",
		"{\"events\": -9223372036854775808}",
		"{\"events\": [null]}",
		"{\"events\": [[1]]}",
		"{\"events\": [\"game_created\"]}",
		"{\"events\": [true, false]}",
		"{\"events\": [{\"type\": 1}]}",
		"{\"events\": [{\"type\": null}]}",
		"{\"events\": [{\"type\": [\"game_created\"]}]}",
		"{\"events\": [{\"type\": \"game_created\"}]}",
		"{\"events\": [{\"type\": \"game_created\", \"options\": 1}]}",
		"{\"events\": [{\"type\": \"game_created\", \"options\": {\"seats\": 9223372036854775807}}]}",
		"{\"events\": [{\"type\": \"turn_ended\", \"seat\": 9223372036854775807}]}",
		"{\"events\": [{\"type\": \"turn_ended\", \"seat\": -1}]}",
		"{\"events\": [{\"type\": \"turn_ended\", \"seat\": 1e308}]}",
		"{\"events\": [{\"type\": \"dice_rolled\", \"seat\": 0, \"dice\": [6, 7], \"total\": 13}]}",
		"{\"events\": [{\"type\": \"dice_rolled\", \"seat\": 0, \"dice\": [[6], {}], \"total\": \"13\"}]}",
		"{\"events\": [{\"type\": \"turn_ended\", \"seat\": 0, \"origin\": 5, \"version\": [], \"created_at\": "
		"{}}]}",
		"{\"events\": [{\"type\": \"\\u0000\"}]}",
		"{\"events\": [{\"type\": \"turn_ended\", \"seat\": 0, \"\\u0000\": 1}]}",
		"{\"events\": [1], \"seed\": 1}",
		"{\"events\": [1], \"seed\": -1}",
		"{\"events\": [1], \"seed\": 1.5}",
		"{\"events\": [1], \"seed\": \"18446744073709551616\"}",
		"{\"events\": [1], \"seed\": \"99999999999999999999\"}",
		"{\"events\": [1], \"seed\": [1]}",
		"{\"events\": [1], \"seed\": {}}",
		"{\"events\": [1], \"seed\": \"\"}",
		"{\"events\": [1], \"seed\": \"-1\"}",
		"{\"events\": [1], \"seed\": true}",
		"{\"events\": [1], \"options\": []}",
		"{\"events\": [1], \"players\": 1}",
		"{\"events\": [1], \"x\": 1}",
		"{\"format\": {}, \"game\": [], \"version\": \"x\", \"finished\": 7, \"board\": null, \"events\": "
		"[{}]}",
		"[]",
		"1",
		"\"events\"",
		"null",
		"{\"events\": [1]",
		"{\"events\": [1]}}",
		"{\"events\": [1], \"events\": [2]}",
	};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		post_hostile(plain[i], plain[i]);
	/* A valid first event, then the rest of the body wrong. */
	static const char *const after_created[] = {
		"\"options\": 1",
		"\"options\": [1]",
		"\"options\": {\"turn_timeout_s\": \"x\"}",
		"\"options\": {\"turn_timeout_s\": 1e300}",
		"\"options\": {\"turn_timeout_s\": -9223372036854775808}",
		"\"options\": {\"on_timeout\": {}}",
		"\"players\": {}",
		"\"players\": [1, 2, 3]",
		"\"players\": [[], [], []]",
		"\"players\": [{\"name\": 1}, {}, {}]",
		"\"players\": [{\"name\": \"\"}, {}, {}]",
		"\"players\": [{\"name\": \"" CUT_FORTY_ONE "\"}, {}, {}]",
		"\"players\": [{\"bot\": \"yes\"}, {}, {}]",
		"\"players\": [{\"junk\": [[[]]]}, {}, {}]",
		"\"players\": [{}, {}]",
		"\"players\": [{}, {}, {}, {}, {}]",
		"\"seed\": \"0\"",
	};
	for (size_t i = 0; i < sizeof after_created / sizeof after_created[0]; i++) {
		snprintf(body, sizeof body, "{\"events\": [%s], %s}", created, after_created[i]);
		post_hostile(body, after_created[i]);
	}
	/* Nesting: arrays deeper than the parser takes, and deep junk inside an event. */
	char *deep = nested(5000), *junk = nested(1000);
	char *text = malloc(strlen(deep) + 64);
	sprintf(text, "{\"events\": %s}", deep);
	post_hostile(text, "events nested 5000 deep");
	free(text);
	text = malloc(strlen(junk) + 128);
	sprintf(text, "{\"events\": [{\"type\": \"turn_ended\", \"seat\": 0, \"junk\": %s}]}", junk);
	post_hostile(text, "an event with junk nested 1000 deep");
	free(text);
	free(deep);
	free(junk);
	/* Many refused events: nothing is read past the cap on events (IMPORT_MAX_EVENTS: 400
	 * naming events), and below it the first refused one is named (422). */
	size_t many = 100000;
	text = malloc(many * 3 + 64);
	char *at = text + sprintf(text, "{\"events\": [");
	for (size_t i = 0; i < many; i++)
		at += sprintf(at, i ? ",{}" : "{}");
	sprintf(at, "]}");
	ck_assert_int_eq(post_hostile(text, "100000 empty events"), 400);
	free(text);
	many = 5000;
	text = malloc(many * 3 + 64);
	at = text + sprintf(text, "{\"events\": [");
	for (size_t i = 0; i < many; i++)
		at += sprintf(at, i ? ",{}" : "{}");
	sprintf(at, "]}");
	ck_assert_int_eq(post_hostile(text, "5000 empty events"), 422);
	free(text);
	ck_assert_int_eq(game_count(), before);
	free(created);
	json_decref(export);
}
END_TEST

/* A body of `size` bytes: a JSON object with one long string (caller frees). */
static char *long_body(size_t size)
{
	char *body = malloc(size + 1);
	ck_assert_ptr_nonnull(body);
	memset(body, 'a', size);
	memcpy(body, "{\"note\": \"", 10);
	memcpy(body + size - 2, "\"}", 3);
	return body;
}

/* POST `size` bytes to `path` (chunked when asked): 413 whose detail states `limit`. */
static void assert_too_large(const char *path, size_t size, int chunked, const char *limit)
{
	static const char *const chunked_headers[] = {"Transfer-Encoding: chunked", NULL};
	char *body = long_body(size);
	struct http_response response;
	http_call(&http_fixture.direct, "POST", path, NULL, body, chunked ? chunked_headers : NULL, &response);
	free(body);
	http_assert_problem(&response, 413, "body_too_large");
	const char *detail = json_string_value(json_object_get(response.json, "detail"));
	ck_assert_msg(detail && strstr(detail, limit), "%s of %zu bytes: the detail states the limit %s: %s", path,
		      size, limit, http_describe(&response));
	http_response_free(&response);
}

/* Issue 20 item 13: the import's 413 said "limited to 16384 bytes" where its limit is 4 MiB. */
START_TEST(test_a_too_large_body_is_413_stating_the_limit_of_its_route)
{
	size_t import_limit = 4 * 1024 * 1024;
	for (int chunked = 0; chunked < 2; chunked++) {
		assert_too_large("/v1/games/import", import_limit + 1, chunked, "4194304 bytes");
		assert_too_large("/v1/games", 16384 + 1, chunked, "16384 bytes");
	}
	/* At the import's limit the body is read (and refused for what it says). */
	char *body = long_body(import_limit);
	struct http_response response;
	http_call(&http_fixture.direct, "POST", "/v1/games/import", NULL, body, NULL, &response);
	free(body);
	http_assert_problem(&response, 400, "unknown_field");
	http_response_free(&response);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("http_import");
	TCase *import = tcase_create("import");
	http_fixture_add(import, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(import, 240);
	tcase_add_test(import, test_players_seeds_are_set_fixed_at_the_first_roll_and_verified);
	tcase_add_test(import, test_a_seed_given_when_joining_is_logged_at_the_start_and_the_export_verifies);
	tcase_add_test(import, test_a_bot_seat_has_no_seed_and_the_human_seats_fix_them);
	tcase_add_test(import, test_a_fresh_server_reads_seeds_replaced_past_a_page);
	tcase_add_test(import, test_a_player_seed_put_honours_if_match_and_idempotency_keys);
	tcase_add_test(import, test_export_then_import_reproduces_the_game_event_for_event);
	tcase_add_test(import, test_import_without_the_seed_checks_the_moves_and_reproduces_the_events);
	tcase_add_test(import, test_tampered_logs_are_refused_naming_the_event_and_nothing_is_created);
	tcase_add_test(import, test_catan_verify_and_the_python_checker_catch_tampered_fair_exports);
	tcase_add_test(import, test_malformed_imports_answer_400_naming_the_member);
	tcase_add_test(import, test_the_import_path_is_never_taken_for_a_game_id);
	tcase_add_test(import, test_an_import_that_fails_at_its_last_event_leaves_nothing_behind);
	tcase_add_test(import, test_an_import_whose_every_seat_is_a_bot_is_gated_like_a_creation);
	tcase_add_test(import, test_hostile_import_bodies_answer_4xx_and_the_server_lives);
	tcase_add_test(import, test_a_too_large_body_is_413_stating_the_limit_of_its_route);
	suite_add_tcase(suite, import);
	return suite;
}
