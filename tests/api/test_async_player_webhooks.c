/*
 * test_async_player_webhooks.c - a player's webhooks (/v1/players/me/webhooks) as their
 * receivers see them: one registration hears every game the player sits in (seated at
 * creation, or by joining a game later), each event exactly as the player's seat reads it
 * in that game's log (redacted for that seat), plus the seat's your_turn notes, in order
 * per game, at least once; a game the player is not in delivers nothing to it; a chat
 * format posts the turn changes of the player's games; registrations are the player's
 * alone (another player's token finds nothing, a seat token is no player token), and a bad
 * registration is 400 naming the field and registers nothing.
 *
 * One server behind a Prism proxy that checks every response against the contract;
 * receivers are tests/api/webhook_receiver.c on 127.0.0.1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/api/http_fixture.h"
#include "tests/api/http_support.h"
#include "tests/api/webhook_receiver.h"
#include "tests/check_main.h"

#define DELIVERY_TIMEOUT_S 60
#define FIXED_START "{\"layout\": \"beginner\", \"start\": \"fixed\", \"dice\": \"manual\", \"first_seat\": 0}"

struct player {
	char id[20];
	char token[64];
};

static void make_player(const char *name, struct player *out)
{
	http_player_create(&http_fixture.checked, name, out->id, out->token);
}

/* Register a receiver of the player's (extra: more members of the body, e.g. ", \"format\":
 * \"discord\""); its id into id. */
static struct webhook_receiver *register_hook(const struct player *player, const char *extra, char id[32])
{
	struct webhook_receiver *receiver = webhook_receiver_start();
	char body[512];
	snprintf(body, sizeof body, "{\"url\": \"%s\"%s}", webhook_receiver_url(receiver), extra ? extra : "");
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/players/me/webhooks", player->token, body, NULL, &response);
	ck_assert_msg(response.status == 201, "register: %s", http_describe(&response));
	snprintf(id, 32, "%s", json_string_value(json_object_get(response.json, "id")));
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "player")), player->id);
	ck_assert_msg(!json_object_get(response.json, "seat"), "a player webhook has no seat");
	/* Only a standard webhook signs, so only it is answered with a secret. */
	const char *secret = json_string_value(json_object_get(response.json, "secret"));
	const char *format = json_string_value(json_object_get(response.json, "format"));
	ck_assert_msg(format && (secret != NULL) == (strcmp(format, "standard") == 0),
		      "a secret for a standard webhook only: %s", response.body);
	if (secret)
		webhook_receiver_set_secret(receiver, secret);
	char location[96], expected[96];
	snprintf(expected, sizeof expected, "/v1/players/me/webhooks/%s", id);
	ck_assert(http_response_header(&response, "Location", location, sizeof location));
	ck_assert_str_eq(location, expected);
	http_response_free(&response);
	return receiver;
}

/* The player's webhook as GET /v1/players/me/webhooks/{id} shows it. New reference. */
static json_t *get_hook(const struct player *player, const char *id)
{
	char path[96];
	snprintf(path, sizeof path, "/v1/players/me/webhooks/%s", id);
	return http_get_ok(&http_fixture.checked, path, player->token);
}

/* Wait until the player's webhook has nothing left to deliver. */
static void wait_delivered(const struct player *player, const char *id)
{
	double timeout_s = DELIVERY_TIMEOUT_S * http_slowdown(), deadline = http_clock() + timeout_s;
	for (;;) {
		json_t *hook = get_hook(player, id);
		long pending = (long)json_integer_value(json_object_get(hook, "pending"));
		json_decref(hook);
		if (pending == 0)
			return;
		ck_assert_msg(http_clock() < deadline, "%ld appends still to deliver after %.0f s", pending, timeout_s);
		http_pause(0.1);
	}
}

static const char *type_of(const json_t *object)
{
	const char *type = json_string_value(json_object_get(object, "type"));
	return type ? type : "";
}

/* A game of three seats created with `body`, seat tokens as the answer gives them. */
static void create_game(const char *body, struct http_game *game)
{
	http_game_create_body(&http_fixture.checked, body, game);
}

/* A waiting game (seat 2 open), then joined by `player`: its tokens as if created full. */
static void create_and_join(const struct player *player, struct http_game *game)
{
	struct http_response response;
	http_call(&http_fixture.checked, "POST", "/v1/games", NULL,
		  "{\"players\": [{\"name\": \"Bea\"}, {\"name\": \"Cal\"}, {\"open\": true}],"
		  " \"options\": {\"layout\": \"random\"}}",
		  NULL, &response);
	ck_assert_msg(response.status == 201, "create waiting: %s", http_describe(&response));
	memset(game, 0, sizeof *game);
	snprintf(game->id, sizeof game->id, "%s", json_string_value(json_object_get(response.json, "id")));
	snprintf(game->path, sizeof game->path, "/v1/games/%s", game->id);
	snprintf(game->admin_token, sizeof game->admin_token, "%s",
		 json_string_value(json_object_get(response.json, "admin_token")));
	game->seats = 3;
	json_t *seats = json_object_get(response.json, "seats");
	for (int s = 0; s < 2; s++)
		snprintf(game->tokens[s], sizeof game->tokens[s], "%s",
			 json_string_value(json_object_get(json_array_get(seats, (size_t)s), "token")));
	char path[96], body[160];
	snprintf(path, sizeof path, "%s/join", game->path);
	snprintf(body, sizeof body, "{\"invite\": \"%s\"}",
		 json_string_value(json_object_get(json_object_get(response.json, "invite"), "code")));
	http_response_free(&response);
	http_call(&http_fixture.checked, "POST", path, player->token, body, NULL, &response);
	ck_assert_msg(response.status == 200, "join: %s", http_describe(&response));
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "seat")), 2);
	snprintf(game->tokens[2], sizeof game->tokens[2], "%s",
		 json_string_value(json_object_get(response.json, "token")));
	http_response_free(&response);
}

/* ---- Every game of the player, as its seat sees it ---- */

START_TEST(test_a_player_webhook_gets_every_game_of_the_player_redacted_for_its_seat_and_no_other_game)
{
	struct player ann;
	make_player("Ann", &ann);
	char hook_id[32];
	struct webhook_receiver *receiver = register_hook(&ann, NULL, hook_id);

	/* Ann at seat 0 and at seat 1 of two games made with her, at seat 2 of a game she
	 * joins; a fourth game is not hers. */
	enum { GAMES = 4, MINE = 3, STEPS = 120 };
	struct http_game games[GAMES];
	int ann_seat[GAMES] = {0, 1, 2, -1};
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"player\": \"%s\"}, {\"name\": \"Bea\"}, {\"name\": \"Cal\"}],"
		 " \"options\": {\"layout\": \"random\"}}",
		 ann.id);
	create_game(body, &games[0]);
	snprintf(body, sizeof body,
		 "{\"players\": [{\"name\": \"Bea\"}, {\"player\": \"%s\"}, {\"name\": \"Cal\"}],"
		 " \"options\": {\"layout\": \"random\"}}",
		 ann.id);
	create_game(body, &games[1]);
	create_and_join(&ann, &games[2]);
	http_game_create(&http_fixture.checked, 3, "{\"layout\": \"random\"}", &games[3]);

	/* The games move in turns, interleaved. */
	struct http_player players[GAMES];
	for (int g = 0; g < GAMES; g++)
		http_player_init(&players[g], &http_fixture.checked, &games[g], http_random64(), 1);
	for (int step = 0; step < STEPS; step++)
		for (int g = 0; g < GAMES; g++)
			http_player_step(&players[g], NULL);
	wait_delivered(&ann, hook_id);

	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(receiver, &count);
	webhook_deliveries_assert_signed(all, count);
	int events = 0, notes = 0, duplicates = 0;
	for (int g = 0; g < GAMES; g++) {
		long last = http_game_version(&http_fixture.checked, &games[g]);
		json_t *log = http_game_log(&http_fixture.checked, &games[g], g < MINE ? ann.token : NULL, 0);
		ck_assert_int_eq((long)json_array_size(log), last);
		json_t **first_seen = calloc((size_t)last + 1, sizeof *first_seen);
		ck_assert(first_seen != NULL);
		long latest = 0;
		int game_notes = 0;
		for (int i = 0; i < count; i++) {
			json_t *delivery = all[i].body;
			if (strcmp(json_string_value(json_object_get(delivery, "game_id")), games[g].id) != 0)
				continue;
			ck_assert_msg(g < MINE, "game %s, where the player has no seat, delivered %.200s", games[g].id,
				      all[i].text);
			long version = (long)json_integer_value(json_object_get(delivery, "version"));
			ck_assert_msg(version >= 1 && version <= last, "game %d: a delivery at version %ld of %ld", g,
				      version, last);
			if (strcmp(type_of(delivery), "your_turn") == 0) {
				game_notes++;
				ck_assert_int_eq(json_integer_value(json_object_get(delivery, "seat")), ann_seat[g]);
				continue;
			}
			ck_assert_str_eq(type_of(delivery), "event");
			json_t *event = json_object_get(delivery, "event");
			if (first_seen[version]) {
				duplicates++;
				ck_assert(json_equal(first_seen[version], event));
				continue;
			}
			ck_assert_msg(version > latest, "game %d: version %ld arrived after version %ld", g, version,
				      latest);
			latest = version;
			first_seen[version] = event;
			/* Exactly the entry the player's seat reads in the game's log. */
			json_t *logged = json_array_get(log, (size_t)(version - 1));
			if (!json_equal(logged, event)) {
				char *want = json_dumps(logged, JSON_COMPACT), *had = json_dumps(event, JSON_COMPACT);
				ck_abort_msg("game %d (seat %d), version %ld:\nlog       %.400s\ndelivered %.400s", g,
					     ann_seat[g], version, want, had);
			}
		}
		for (long version = 1; version <= last && g < MINE; version++)
			ck_assert_msg(first_seen[version] != NULL, "game %d: version %ld of %ld never delivered", g,
				      version, last);
		ck_assert_msg(g == MINE || game_notes > 0, "game %d: no your_turn note for seat %d", g, ann_seat[g]);
		events += g < MINE ? (int)last : 0;
		notes += game_notes;
		free(first_seen);
		json_decref(log);
	}
	webhook_deliveries_free(all, count);

	/* The delivery log is the player's, one acknowledged attempt per delivery. */
	char path[128];
	snprintf(path, sizeof path, "/v1/players/me/webhooks/%s/deliveries?limit=500", hook_id);
	json_t *attempts = http_get_ok(&http_fixture.checked, path, ann.token);
	ck_assert_int_eq((long)json_array_size(json_object_get(attempts, "deliveries")), count < 500 ? count : 500);
	json_decref(attempts);
	fprintf(stderr, "player webhook: %d events of %d games and %d notes in %d deliveries (%d duplicates)\n", events,
		MINE, notes, count, duplicates);
	webhook_receiver_stop(receiver);
}
END_TEST

/* ---- A chat channel for a player ---- */

START_TEST(test_a_discord_player_webhook_posts_the_turn_changes_of_the_players_games)
{
	struct player ann;
	make_player("Ann", &ann);
	char hook_id[32];
	struct webhook_receiver *receiver =
		register_hook(&ann, ", \"format\": \"discord\", \"mentions\": {\"1\": \"<@42>\"}", hook_id);
	json_t *hook = get_hook(&ann, hook_id);
	ck_assert_str_eq(json_string_value(json_object_get(hook, "format")), "discord");
	ck_assert_msg(!json_object_get(hook, "mentions"), "mentions are never shown again");
	json_decref(hook);
	char body[512];
	snprintf(body, sizeof body,
		 "{\"players\": [{\"name\": \"Bea\"}, {\"player\": \"%s\"}, {\"name\": \"Cal\"}], \"options\": %s}",
		 ann.id, FIXED_START);
	struct http_game game;
	create_game(body, &game);
	/* Rolls of 2 and ends of turn: every end of turn hands the game to the next seat. */
	enum { TURNS = 4 };
	for (int turn = 0; turn < TURNS; turn++) {
		http_post_move_ok(&http_fixture.checked, &game, turn % 3, "{\"type\": \"roll\", \"dice\": [1, 1]}");
		http_post_move_ok(&http_fixture.checked, &game, turn % 3, "{\"type\": \"end_turn\"}");
	}
	wait_delivered(&ann, hook_id);
	int count;
	struct webhook_delivery *all = webhook_receiver_deliveries(receiver, &count);
	int messages = 0, mentioned = 0;
	for (int i = 0; i < count; i++) {
		const char *content = json_string_value(json_object_get(all[i].body, "content"));
		ck_assert_msg(content && json_is_array(json_object_get(all[i].body, "embeds")),
			      "a Discord message: %.300s", all[i].text);
		ck_assert_msg(strstr(all[i].text, game.id) != NULL, "a message links its game: %.300s", all[i].text);
		ck_assert_msg(!all[i].id[0], "a chat message is unsigned");
		messages++;
		mentioned += strstr(content, "<@42>") != NULL;
	}
	webhook_deliveries_free(all, count);
	/* Each end of turn changed whom the game waits for; so did each roll (a new phase). */
	ck_assert_msg(messages >= TURNS, "%d chat messages for %d turn changes", messages, TURNS);
	ck_assert_msg(mentioned >= 1, "seat 1's turns name it with its mention (%d messages)", messages);
	webhook_receiver_stop(receiver);
}
END_TEST

/* ---- Whose registrations ---- */

START_TEST(test_player_webhooks_are_the_players_alone)
{
	struct player ann, quinn;
	make_player("Ann", &ann);
	make_player("Quinn", &quinn);
	char hook_id[32], path[128];
	struct webhook_receiver *receiver = register_hook(&ann, ", \"events\": \"your_turn\"", hook_id);
	json_t *hook = get_hook(&ann, hook_id);
	ck_assert_str_eq(json_string_value(json_object_get(hook, "events")), "your_turn");
	json_decref(hook);

	struct http_response response;
	snprintf(path, sizeof path, "/v1/players/me/webhooks/%s", hook_id);
	http_call(&http_fixture.checked, "GET", path, quinn.token, NULL, NULL, &response);
	http_assert_problem(&response, 404, "webhook_not_found");
	http_response_free(&response);
	http_call(&http_fixture.checked, "DELETE", path, quinn.token, NULL, NULL, &response);
	http_assert_problem(&response, 404, "webhook_not_found");
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/players/me/webhooks/%s/deliveries", hook_id);
	http_call(&http_fixture.checked, "GET", path, quinn.token, NULL, NULL, &response);
	http_assert_problem(&response, 404, "webhook_not_found");
	http_response_free(&response);
	json_t *list = http_get_ok(&http_fixture.checked, "/v1/players/me/webhooks", quinn.token);
	ck_assert_int_eq(json_array_size(json_object_get(list, "webhooks")), 0);
	json_decref(list);

	/* A seat token is no player token; a player token is no key to a game it is not in. */
	struct http_game game;
	http_game_create(&http_fixture.checked, 3, NULL, &game);
	http_call(&http_fixture.checked, "GET", "/v1/players/me/webhooks", game.tokens[0], NULL, NULL, &response);
	http_assert_problem(&response, 401, "unknown_token");
	http_response_free(&response);
	http_call(&http_fixture.direct, "GET", "/v1/players/me/webhooks", NULL, NULL, NULL, &response);
	http_assert_problem(&response, 401, "missing_token");
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", http_game_path(&game, "/webhooks", path, sizeof path), ann.token, NULL,
		  NULL, &response);
	http_assert_problem(&response, 403, "player_not_seated");
	http_response_free(&response);

	list = http_get_ok(&http_fixture.checked, "/v1/players/me/webhooks", ann.token);
	ck_assert_int_eq(json_array_size(json_object_get(list, "webhooks")), 1);
	json_decref(list);
	snprintf(path, sizeof path, "/v1/players/me/webhooks/%s", hook_id);
	http_call(&http_fixture.checked, "DELETE", path, ann.token, NULL, NULL, &response);
	ck_assert_int_eq(response.status, 204);
	http_response_free(&response);
	http_call(&http_fixture.checked, "GET", path, ann.token, NULL, NULL, &response);
	http_assert_problem(&response, 404, "webhook_not_found");
	http_response_free(&response);
	webhook_receiver_stop(receiver);
}
END_TEST

static void assert_bad(const struct player *player, const char *body, const char *code, const char *field)
{
	struct http_response response;
	http_call(&http_fixture.direct, "POST", "/v1/players/me/webhooks", player->token, body, NULL, &response);
	http_assert_problem(&response, 400, code);
	json_t *named = json_object_get(response.json, "field");
	ck_assert_msg(json_is_string(named) && strcmp(json_string_value(named), field) == 0, "%s names %s: %s", body,
		      field, http_describe(&response));
	http_response_free(&response);
}

/* A player's standard webhook rotates its secret (only the player's own); a chat one has none. */
START_TEST(test_a_player_rotates_the_secret_of_its_standard_webhook_only)
{
	struct player ann, quinn;
	make_player("Ann", &ann);
	make_player("Quinn", &quinn);
	char hook_id[32], chat_id[32], path[128];
	struct webhook_receiver *receiver = register_hook(&ann, NULL, hook_id);
	struct webhook_receiver *chat = register_hook(&ann, ", \"format\": \"slack\"", chat_id);
	struct http_response response;
	snprintf(path, sizeof path, "/v1/players/me/webhooks/%s/secret", hook_id);
	http_call(&http_fixture.checked, "POST", path, quinn.token, NULL, NULL, &response);
	http_assert_problem(&response, 404, "webhook_not_found");
	http_response_free(&response);
	http_call(&http_fixture.checked, "POST", path, ann.token, "{\"overlap_seconds\": 60}", NULL, &response);
	ck_assert_msg(response.status == 200, "rotate: %s", http_describe(&response));
	const char *secret = json_string_value(json_object_get(response.json, "secret"));
	ck_assert_msg(secret && strncmp(secret, "whsec_", 6) == 0, "a new secret: %s", response.body);
	ck_assert_str_eq(json_string_value(json_object_get(response.json, "id")), hook_id);
	ck_assert_int_eq(json_integer_value(json_object_get(response.json, "overlap_seconds")), 60);
	http_response_free(&response);
	snprintf(path, sizeof path, "/v1/players/me/webhooks/%s/secret", chat_id);
	http_call(&http_fixture.checked, "POST", path, ann.token, NULL, NULL, &response);
	http_assert_problem(&response, 409, "webhook_not_signed");
	http_response_free(&response);
	webhook_receiver_stop(receiver);
	webhook_receiver_stop(chat);
}
END_TEST

START_TEST(test_a_bad_player_webhook_is_400_naming_the_field_and_registers_nothing)
{
	struct player ann;
	make_player("Ann", &ann);
	assert_bad(&ann, "{}", "missing_field", "url");
	assert_bad(&ann, "{\"url\": \"ftp://example.org/x\"}", "invalid_field", "url");
	assert_bad(&ann, "{\"url\": \"https://example.org/x\", \"events\": \"some\"}", "invalid_field", "events");
	assert_bad(&ann, "{\"url\": \"https://example.org/x\", \"format\": \"irc\"}", "invalid_field", "format");
	assert_bad(&ann, "{\"url\": \"https://example.org/x\", \"mentions\": {\"0\": \"<@1>\"}}", "invalid_field",
		   "mentions");
	assert_bad(&ann, "{\"url\": \"https://example.org/x\", \"format\": \"slack\", \"mentions\": {\"9\": \"x\"}}",
		   "invalid_field", "mentions");
	assert_bad(&ann, "{\"url\": \"https://example.org/x\", \"seat\": 1}", "unknown_field", "seat");
	json_t *list = http_get_ok(&http_fixture.checked, "/v1/players/me/webhooks", ann.token);
	ck_assert_int_eq(json_array_size(json_object_get(list, "webhooks")), 0);
	json_decref(list);
	struct http_response response;
	http_call(&http_fixture.checked, "GET", "/v1/players/me/webhooks/wh_nothex", ann.token, NULL, NULL, &response);
	http_assert_problem(&response, 404, "webhook_not_found");
	http_response_free(&response);
}
END_TEST

Suite *test_suite(void)
{
	Suite *suite = suite_create("async_player_webhooks");
	TCase *hooks = tcase_create("player webhooks");
	http_fixture_add(hooks, HTTP_FIXTURE_PRISM, NULL);
	tcase_set_timeout(hooks, 240);
	tcase_add_test(hooks,
		       test_a_player_webhook_gets_every_game_of_the_player_redacted_for_its_seat_and_no_other_game);
	tcase_add_test(hooks, test_a_discord_player_webhook_posts_the_turn_changes_of_the_players_games);
	tcase_add_test(hooks, test_player_webhooks_are_the_players_alone);
	tcase_add_test(hooks, test_a_bad_player_webhook_is_400_naming_the_field_and_registers_nothing);
	tcase_add_test(hooks, test_a_player_rotates_the_secret_of_its_standard_webhook_only);
	suite_add_tcase(suite, hooks);
	return suite;
}
